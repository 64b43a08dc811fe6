// The terminal: standard error written as it is, and a PIN read without echo.
import Glibc
import PortholeCore

enum Console {
    /// Writes `text` to standard error as it is (no buffering to flush).
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = Glibc.write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }

    static func error(_ message: String) {
        write(message + "\n")
    }

    /// A line from standard input; at a terminal, prompted on stderr and not echoed.
    static func readSecretLine() -> String? {
        guard isatty(STDIN_FILENO) != 0 else { return Swift.readLine(strippingNewline: true) }
        // TRANSLATORS: the prompt for the kiosk exit PIN at a terminal (porthole --hash-pin).
        write(tr("PIN: "))
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            write("\n")
        }
        return Swift.readLine(strippingNewline: true)
    }
}
