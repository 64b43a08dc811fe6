// What each configuration group and key means, for porthole.conf(5): the list of groups and keys
// comes from ConfigSchema (what the loader reads), the words from here. `make man` regenerates
// Resources/porthole.conf.5, and a test fails when the committed page differs.

/// One key's documentation: the values it takes, its default, what it does.
struct KeyReference {
    var type: String
    var defaultValue: String
    var meaning: String
}

enum ConfigReference {
    /// Each group's introduction.
    static let groups: [String: String] = [
        "Sites": """
            Required. Ordered Display name=host or URL lines, at least one. The first site is the home page. \
            The list fills the Open menu and the start page, and each site is allowed by the URL policy. A bare \
            host (example.org) allows that host and its subdomains and opens https://HOST/; it must be a host \
            name or an IP address, IPv6 in brackets. A URL (https://www.example.org/docs/) allows its host and \
            opens at that page; it must use http, https or porthole. A name may appear only once, and so may an \
            address.
            """,
        "Policy": """
            Extra URL filters in the format of Chrome's URLAllowlist and URLBlocklist policies: \
            [scheme://][.]host[:port][/path], * for everything, a leading . for the host alone without its \
            subdomains. As in Chrome, the most specific matching filter decides.
            """,
        "Browser": "How pages are shown.",
        "Privacy": "What pages may keep and ask for.",
        "Kiosk": "Full-screen mode for public terminals (see porthole(1), KIOSK MODE).",
        "Accessibility": """
            What a kiosk offers visitors who cannot see the screen, or see it less well, or need more time, \
            without bringing assistive technology of their own (EN 301 549 clause 5, closed functionality): \
            the read-aloud mode, and the kiosk bar's Larger text and High contrast buttons, which are each \
            visitor's and go back to these defaults at the idle reset.
            """,
        "Network": "How pages are fetched. The site policy applies whatever the proxy does.",
        "Locks": """
            Read only from the system file and its drop-ins (in any other file the group is ignored, with a \
            notice). A locked key keeps the admin's value, or its default; a user file, --config file or \
            command-line option that tries to change it is ignored for that key, with a notice.
            """,
    ]

    static let keys: [ConfigKey: KeyReference] = {
        var keys: [ConfigKey: KeyReference] = [:]
        func add(_ group: String, _ name: String, _ type: String, _ defaultValue: String, _ meaning: String) {
            keys[ConfigKey(group: group, name: name)] = KeyReference(type: type, defaultValue: defaultValue, meaning: meaning)
        }
        add("Policy", "allow", "list of filters", "empty", "Allowed in addition to [Sites].")
        add("Policy", "block", "list of filters, or none", "*", """
            Blocked. * blocks everything not allowed; none blocks nothing. An empty block= is a problem \
            (it is how a file cut short ends).
            """)
        add("Policy", "chrome-policies", "absolute folder path", "none", """
            A folder of Chrome policy files, like /etc/opt/chrome/policies/managed or \
            /etc/chromium/policies/managed, read as Chrome reads it: every file there in name order, the last \
            file winning policy by policy, JSON with comments and trailing commas; a file that does not parse is \
            skipped with a notice at file:line:column, and a folder with nothing readable fails closed. Its \
            URLAllowlist and URLBlocklist (the older URLWhitelist and URLBlacklist without them) are added to allow \
            and block; HomepageLocation, RestoreOnStartupURLs, PrintingEnabled, IncognitoModeAvailability, \
            DefaultJavaScriptSetting and the proxy policies set the matching keys, under the system file's locks; \
            other policies are notices. The folder is watched and read again when it changes.
            """)
        add("Policy", "subresources", "allow or policy", "allow", """
            allow: only pages and frames are decided; what a page loads into itself comes from anywhere (as \
            with Chrome's URLBlocklist). policy: images, scripts, style sheets, fonts, media, fetch/XHR, \
            beacons and WebSockets to blocked URLs are refused too, in the web process itself.
            """)
        add("Browser", "javascript", "boolean", "true", "Run page scripts.")
        add("Browser", "https-only", "boolean", "false", "Open http:// sites and typed addresses over https://.")
        add("Browser", "swipe-navigation", "auto, true or false", "auto", """
            Touchpad swipes go back and forward. WebKit then keeps a snapshot of every page in the history for \
            the swipe's preview. auto: on only while a touchpad or touchscreen is connected (including one \
            plugged in later); true always; false never.
            """)
        add("Browser", "gpu-painting", "auto, true or false", "auto", """
            Paint page content on the GPU. auto: only where the machine has one (a /dev/dri/renderD* device, and \
            LIBGL_ALWAYS_SOFTWARE unset); without one, GL is Mesa's software rasterizer, and painting on the CPU \
            directly draws the same pixels with less memory and time. Compositing (3D transforms, filters, video, \
            WebGL) is the same either way. Read at start. WEBKIT_SKIA_ENABLE_CPU_RENDERING in the environment, when \
            set, decides instead.
            """)
        add("Browser", "sandbox", "auto, true or false", "auto", """
            Run each page's web process in WebKitGTK's bubblewrap sandbox: its own mount namespace (the user's \
            home and most files out of sight), a seccomp filter, no view of other processes. auto: where \
            bubblewrap runs; where it cannot (no user namespaces), pages run without it and Porthole says so on \
            stderr, in the journal and in porthole status, and in kiosk mode it fails closed. true: fails closed \
            where bubblewrap cannot run. false: never. Read at start.
            """)
        add("Browser", "zoom", "number, 0.25 to 5.0", "1.0", "Default page zoom.")
        add("Browser", "user-agent-suffix", "text without control characters", "empty",
            "Appended to the user agent, so sites can recognise Porthole.")
        add("Browser", "pinch-zoom", "boolean", "false in kiosk mode, else true", """
            Two fingers on a touchscreen (or a touchpad pinch) zoom the page. Off, the second finger is kept \
            away from the page, so a kiosk's layout cannot be zoomed away.
            """)
        add("Browser", "unresponsive-timeout", "whole seconds, 0 or more", "15 in kiosk mode, else 0 (never)", """
            Seconds a page may stay unresponsive (a script that never returns, a stopped web process) before \
            Porthole ends its web process and brings the page back as after a crash, logged. An idle page is \
            asked every 5 s (through the web process extension), so a hung page nobody touches is replaced \
            within the timeout plus 5 s; a page ended twice in a row shows the crash page with Home. 0 never.
            """)
        add("Browser", "languages", "list of language tags, like zh-TW;en", "empty: the system's locale", """
            The languages Porthole speaks (its window, dialogs and pages) and asks sites for (Accept-Language, \
            navigator.languages), most wanted first, for a kiosk whose system locale is something else. Read at \
            start.
            """)
        add("Browser", "tls-exceptions", "list of hosts", "empty",
            "Hosts whose certificate errors are accepted (an intranet server with a self-signed certificate).")
        add("Privacy", "ephemeral", "boolean", "false", "Keep cookies, cache and site storage in memory only. --private sets it.")
        add("Privacy", "permissions", "deny-all, or a list of host:permission", "deny-all", """
            What pages may ask for. deny-all refuses every request. Otherwise each grant allows one permission \
            to exactly that host (not its subdomains). Permissions: geolocation, notifications, camera, \
            microphone, pointer-lock, clipboard, media-keys (Encrypted Media Extensions, i.e. DRM video).
            """)
        add("Kiosk", "enabled", "boolean", "false", "Start in kiosk mode. --kiosk sets it.")
        add("Kiosk", "toolbar", "boolean", "true", "Show the bottom bar (Back, Home, progress, Reload).")
        add("Kiosk", "shortcuts", "list among back, forward, reload, stop, home, zoom, find", "back;forward;reload",
            "Keyboard shortcuts kept in kiosk mode. Empty keeps none.")
        add("Kiosk", "printing", "boolean", "false", "Allow printing.")
        add("Kiosk", "idle-timeout", "whole seconds, 0 or more", "0 (off)",
            "Seconds without input before the session resets to the home page.")
        add("Kiosk", "idle-warning", "whole seconds, 0 or more", "10", "Seconds of warning shown before that reset.")
        add("Kiosk", "hide-cursor", "whole seconds, 0 or more", "0 (off)", "Seconds without pointer motion before the cursor hides.")
        add("Kiosk", "reload-every", "whole seconds, 0 or more", "0 (off)", "Reload the current page this often.")
        add("Kiosk", "exit-pin-hash", "a hash printed by porthole --hash-pin, or the old sha256:SALT_HEX:HASH_HEX", "none", """
            The PIN that leaves kiosk mode, as a slow salted hash (yescrypt). Empty means none. Keep the file \
            readable only by root and the kiosk user; --check-config warns otherwise, and asks to replace old \
            sha256: lines.
            """)
        add("Kiosk", "exit-chord", "GTK accelerator with a modifier", "none",
            "The key that asks for the exit PIN, like <Control><Alt>q. Empty means none.")
        add("Kiosk", "site-menu", "auto, true or false", "auto", """
            A finger-sized Sites button in the bottom bar that opens any approved site (the header bar and its \
            Open menu are hidden in kiosk mode). auto: shown when there is more than one site.
            """)
        add("Kiosk", "keyboard", "auto, true or false", "auto in kiosk mode, else false", """
            The on-screen keyboard that comes up under a focused text field: auto while GDK reports a \
            touchscreen (including one plugged in later), true always, false never.
            """)
        add("Kiosk", "keyboard-layouts", "list among en, ru, de, fr", "en",
            "The on-screen keyboard's languages; the first is where each visitor starts, a key switches to the next.")
        add("Kiosk", "keyboard-height", "number, 0.15 to 0.6", "0.35", "The on-screen keyboard's height as a fraction of the screen's.")
        add("Accessibility", "speech-key", "list of GTK accelerators, like <Control><Alt>z or KP_Multiply", "<Control><Alt>z", """
            The keys that turn the read-aloud mode on and off (ChromeOS's screen reader key, which visitors may \
            know); a keypad's own key, like KP_Multiply, works too. Speech starts only when asked for: once on, \
            Porthole says the element that gets focus or a touch (role, name, state: "Link, Opening hours"), \
            pages as they load, its notices, the idle warning and the on-screen keyboard's keys, in the language \
            of the window or of the page (espeak-ng's voices), until the key is pressed again or the visitor \
            session ends. Empty: no key. The key is taken before the page sees it. Read at start.
            """)
        add("Accessibility", "speech-rate", "number, 0.5 to 3.0", "1.0",
            "How fast speech goes: 1.0 is espeak-ng's normal pace (175 words a minute), 2.0 twice that. Read at start.")
        add("Accessibility", "more-time", "whole seconds, 0 or more", "120", """
            The idle warning's More time button (and any key or touch) keeps the session; after More time the next \
            warning comes this long after the press, or after idle-timeout if that is longer (WCAG 2.2.1).
            """)
        add("Accessibility", "idle-factor-with-speech", "number, 1.0 to 10.0", "3.0",
            "While speech is on, idle-timeout is this many times longer.")
        add("Accessibility", "large-text", "boolean", "false", """
            Each visitor starts with Larger text on: the page zoomed and Porthole's own text enlarged by \
            large-text-scale.
            """)
        add("Accessibility", "large-text-scale", "number, 1.25 to 3.0", "1.5", "How much larger Larger text makes the page and Porthole's own text.")
        add("Accessibility", "high-contrast", "boolean", "false", """
            Each visitor starts with High contrast on: GTK's HighContrast theme for Porthole's own window, pages \
            told prefers-contrast: more and shown through a style sheet of light text on black.
            """)
        add("Network", "proxy", "scheme://host[:port], scheme http, https, socks, socks4, socks4a or socks5", "none", """
            Every request goes through this proxy (a school's filtering proxy). None follows the system's proxy \
            settings (GNOME's, or http_proxy and no_proxy).
            """)
        add("Network", "proxy-ignore", "list of hosts, *.domain or CIDR ranges like 10.0.0.0/8", "empty",
            "Hosts reached directly, not through proxy.")
        add("Locks", "keys", "list of Group/key or Group", "empty", """
            Keys, or whole groups, users cannot change. Sites can only be locked whole. Example: \
            keys=Sites;Policy;Browser/javascript;Privacy/ephemeral
            """)
        return keys
    }()
}
