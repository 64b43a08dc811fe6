"""The kiosk reset scenario of `make bench` (issue 26): how long the next visitor waits.

One kiosk (`idle-timeout=3`, `idle-warning=0`) on its own HTTP server on 127.0.0.1, in the run's
fresh Xvfb and D-Bus session as every run of bench/run.py. Each round: the visitor clicks the home
page's link (it covers the page) and the linked page shows; three seconds after that click the
kiosk starts over at the home page. Measured from outside:

  reset -> home painted   the reset is due 3 s after the click (the visitor's last input); the
                          home page is painted when a pixel probe (XGetImage of one root-window
                          pixel, polled every millisecond) first sees the home page's colour. Xvfb
                          runs no compositor: the root window's pixels are what the kiosk drew.
                          The linked page has another colour, and the window without a page a
                          third, so the probe cannot mistake the old page or an empty window for
                          the home page. An upper bound by the X event's delivery (the kiosk's
                          idle clock starts when it handles the click, a little after it is sent).
  reset -> page says shown  the home page's own report, for comparison: once it is visible and has
                          the focus (a page prepared for the next visitor is painted beneath the
                          current one, without the focus) it asks for a frame
                          (requestAnimationFrame), then reports to the server.
  first touch -> response the click on the home page after the reset (XTest, sent once the probe
                          saw the home page) to the server's receipt of the linked page's request.

Memory, each round: Pss summed over the kiosk's processes 0.5 s before the reset (while a next
visitor's session may be prepared) and 1 s after the home page painted (the new visitor's session,
untouched: nothing prepared); the web process present before the reset other than the leaving
visitor's web process is the prepared one, compared with the web process showing the idle home page.
At that moment the probe must still see the leaving visitor's page: the prepared one is not shown.
"""

import http.server
import os
import secrets
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.parse

from xinput import PixelProbe, Pointer

IDLE_TIMEOUT = 3
HOME_RGB = (0x20, 0x60, 0xA0)
PAGE_RGB = (0xA0, 0x40, 0x20)
PROBE = (900, 500)                      # away from text and from where the pointer clicks (400,300 / 500,360)
TARGET_MS = 100

HOME = b"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Reset home</title>
<style>html,body{margin:0;height:100%;background:#2060a0;color:#fff;font:20px/1.5 sans-serif}
h1{margin:0;padding:2em}</style></head>
<body><h1>Welcome</h1><a id="next" href="page.html" style="position:fixed;left:0;top:0;width:100%;height:100%"></a>
<script>
// On screen and the visitor's: a page prepared for the next visitor is painted beneath the
// current one, but gets the focus only when it is swapped in.
function shown() {
  if (window.shownSent || document.visibilityState !== "visible" || !document.hasFocus()) return;
  window.shownSent = true;
  requestAnimationFrame(function () { fetch("shown?r=" + Math.random()); });
}
document.addEventListener("visibilitychange", shown);
window.addEventListener("focus", shown);
window.onload = function () { fetch("done?r=" + Math.random()); shown(); };
</script></body></html>
"""

PAGE = b"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Reset page</title>
<style>html,body{margin:0;height:100%;background:#a04020;color:#fff;font:20px/1.5 sans-serif}</style></head>
<body><h1>Opening hours</h1><script>window.onload = function () { fetch("pagedone?r=" + Math.random()); };</script>
</body></html>
"""


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self):
        self.lock = threading.Condition()
        self.arrivals = {}              # path -> [monotonic arrival times]
        super().__init__(("127.0.0.1", 0), Handler)

    def handle_error(self, request, client_address):
        pass

    def count(self, path):
        with self.lock:
            return len(self.arrivals.get(path, []))

    def wait(self, path, n, timeout):
        """The arrival time of the `n`th request for `path`, or None after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while len(self.arrivals.get(path, [])) < n:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.lock.wait(min(left, 0.2))
            return self.arrivals[path][n - 1]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def do_GET(self):
        t = time.monotonic()
        path = urllib.parse.urlsplit(self.path).path
        with self.server.lock:
            self.server.arrivals.setdefault(path, []).append(t)
            self.server.lock.notify_all()
        body, ctype, status = {"/home.html": (HOME, "text/html; charset=utf-8", 200),
                               "/page.html": (PAGE, "text/html; charset=utf-8", 200)}.get(path, (b"", "text/plain", 204))
        head = ("HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nCache-Control: no-store\r\n\r\n"
                % (status, self.responses[status][0], ctype, len(body))).encode()
        self.wfile.write(head + body)


def web_processes(rows):
    return {r["pid"]: r for r in rows if r["comm"].startswith("WebKitWebProces")}


def measure(bench, porthole, rounds, timeout=30.0, settle=1.0, log=print, keep_log=None):
    """`rounds` resets of one kiosk. Returns a dict of samples (ms, MB) and errors."""
    server = Server()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    run_id = "reset-" + secrets.token_hex(4)
    tmp = tempfile.mkdtemp(prefix="porthole-bench-reset-")
    dirs = {k: os.path.join(tmp, k) for k in ("home", "runtime", "tmp")}
    for d in dirs.values():
        os.makedirs(d, mode=0o700)
    home = "http://127.0.0.1:%d/home.html" % server.server_address[1]
    config = os.path.join(tmp, "reset.conf")
    with open(config, "w") as f:
        f.write("[Sites]\nHome=%s\n\n[Policy]\nallow=127.0.0.1\n\n[Kiosk]\nenabled=true\nidle-timeout=%d\n"
                "idle-warning=0\n" % (home, IDLE_TIMEOUT))
    res = {"rounds": rounds, "idle_timeout": IDLE_TIMEOUT, "reset_paint_ms": [], "reset_shown_ms": [], "touch_ms": [],
           "pss_before_reset_mb": [], "pss_settled_mb": [], "prepared_web_pss_mb": [], "idle_web_pss_mb": [],
           "web_processes_before_reset": [], "home_seen_before_reset": [], "errors": []}
    xvfb = bus = proc = tracker = pointer = probe = None
    log_path = os.path.join(tmp, "porthole.log")
    with open(log_path, "wb") as logf:
        try:
            env, xvfb, bus = bench.start_session(dirs, run_id, logf)
            pointer = Pointer(env["DISPLAY"])
            probe = PixelProbe(env["DISPLAY"], *PROBE)
            proc = subprocess.Popen([porthole, "--config", config], env=env, cwd=dirs["home"], stdin=subprocess.DEVNULL,
                                    stdout=logf, stderr=subprocess.STDOUT, start_new_session=True)
            tracker = bench.Tracker(proc.pid, [xvfb.pid, bus.pid], bus.pid, run_id)
            if server.wait("/shown", 1, timeout) is None or probe.wait_for(HOME_RGB, timeout) is None:
                raise RuntimeError("the kiosk's home page did not show within %.0f s" % timeout)
            for r in range(rounds + 1):
                time.sleep(settle)
                if r > 0:
                    settled = tracker.memory()
                    res["pss_settled_mb"].append(sum(x["pss_kb"] for x in settled if x["kind"] == "browser") / 1024)
                    webs = web_processes(settled)
                    res["idle_web_pss_mb"] += [w["pss_kb"] / 1024 for w in webs.values()]
                    # Before the reset: the visitor's web process and, when one was prepared, the next
                    # visitor's (which then shows the home page, in `webs`).
                    prepared = [w for p, w in before_webs.items() if p != shown_pid]
                    res["prepared_web_pss_mb"] += [w["pss_kb"] / 1024 for w in prepared]
                pages = server.count("/page.html")
                t_touch = time.monotonic()
                pointer.click()
                t_response = server.wait("/page.html", pages + 1, timeout)
                if t_response is None:
                    raise RuntimeError("round %d: the click on the home page opened nothing" % r)
                if r > 0:
                    res["touch_ms"].append((t_response - t_touch) * 1000)
                if r == rounds:
                    break
                if probe.wait_for(PAGE_RGB, timeout) is None:
                    raise RuntimeError("round %d: the linked page did not show" % r)
                shown_pid = max(web_processes(tracker.memory()), default=None)  # the newest: the visitor's page
                due = t_touch + IDLE_TIMEOUT
                time.sleep(max(0.0, due - 0.5 - time.monotonic()))
                before = tracker.memory()
                # From outside: the leaving visitor still sees their page, not the next visitor's.
                res["home_seen_before_reset"].append(probe.rgb() != PAGE_RGB and probe.wait_for(PAGE_RGB, 0) is None)
                before_webs = web_processes(before)
                res["pss_before_reset_mb"].append(sum(x["pss_kb"] for x in before if x["kind"] == "browser") / 1024)
                res["web_processes_before_reset"].append(len(before_webs))
                shown_before = server.count("/shown")
                t_paint = probe.wait_for(HOME_RGB, timeout + IDLE_TIMEOUT)
                if t_paint is None:
                    raise RuntimeError("round %d: no home page after the reset" % r)
                res["reset_paint_ms"].append((t_paint - due) * 1000)
                t_shown = server.wait("/shown", shown_before + 1, timeout)
                if t_shown is not None:
                    res["reset_shown_ms"].append((t_shown - due) * 1000)
                log("reset round %d: reset -> painted %.0f ms, page says shown %s ms; web processes before the reset: %d"
                    % (r + 1, res["reset_paint_ms"][-1], "%.0f" % res["reset_shown_ms"][-1] if t_shown else "–",
                       len(before_webs)))
        except Exception as e:          # report what was measured up to the failure
            res["errors"].append(str(e) or e.__class__.__name__)
            log("reset scenario FAILED:", res["errors"][-1])
        finally:
            for x in (pointer, probe):
                if x:
                    x.close()
            bench.end_session(tracker, xvfb, bus, proc)
    server.shutdown()
    if keep_log:
        shutil.copyfile(log_path, keep_log)
    if res["errors"]:
        with open(log_path, "rb") as f:
            res["log_tail"] = f.read()[-3000:].decode("utf-8", "replace")
    shutil.rmtree(tmp, ignore_errors=True)
    return res


def _fmt(values, digits=0):
    if not values:
        return "–"
    return "%.*f (%.*f–%.*f)" % (digits, statistics.median(values), digits, min(values), digits, max(values))


def report(res):
    """The report's section, as Markdown lines."""
    out = ["## Next visitor (kiosk idle reset)", "",
           "One kiosk (`idle-timeout=%d`, `idle-warning=0`), %d resets; each round the visitor clicks the home "
           "page's link and the kiosk starts over %d s after that click. Median (min–max) of the rounds; "
           "`bench/resets.py` says how each figure is taken." % (res["idle_timeout"], res["rounds"], res["idle_timeout"]),
           ""]
    if res["errors"]:
        out += ["**Stopped early:** %s" % "; ".join(res["errors"]), ""]
    paint = res["reset_paint_ms"]
    verdict = "not determined" if not paint else ("met" if statistics.median(paint) <= TARGET_MS else "missed")
    prepared, idle = res["prepared_web_pss_mb"], res["idle_web_pss_mb"]
    memory = "not determined" if not prepared or not idle else \
        ("met" if statistics.median(prepared) <= statistics.median(idle) else "missed")
    out += ["| figure | median (min–max) | rounds | target |", "|---|---:|---:|---|",
            "| reset → home page painted (pixel probe), ms | %s | %d | ≤ %d ms: **%s** |"
            % (_fmt(paint), len(paint), TARGET_MS, verdict),
            "| reset → the page reports it is shown (after a frame), ms | %s | %d | |"
            % (_fmt(res["reset_shown_ms"]), len(res["reset_shown_ms"])),
            "| first touch after the reset → the server sees its request, ms | %s | %d | |"
            % (_fmt(res["touch_ms"]), len(res["touch_ms"])),
            "| Pss of the kiosk's processes 0.5 s before the reset, MB | %s | %d | |"
            % (_fmt(res["pss_before_reset_mb"], 1), len(res["pss_before_reset_mb"])),
            "| Pss of the kiosk's processes 1 s after the home page painted, MB | %s | %d | |"
            % (_fmt(res["pss_settled_mb"], 1), len(res["pss_settled_mb"])),
            "| rounds in which the probe saw anything but the leaving visitor's page 0.5 s before the reset | %d | %d | 0 |"
            % (sum(res["home_seen_before_reset"]), len(res["home_seen_before_reset"])),
            "| web processes 0.5 s before the reset | %s | %d | |"
            % (_fmt(res["web_processes_before_reset"]), len(res["web_processes_before_reset"])),
            "| Pss of the prepared web process (the next visitor's), MB | %s | %d | ≤ one idle web process: **%s** |"
            % (_fmt(prepared, 1), len(prepared), memory),
            "| Pss of the web process showing the idle home page, MB | %s | %d | |"
            % (_fmt(res["idle_web_pss_mb"], 1), len(res["idle_web_pss_mb"])), ""]
    res["verdict"] = verdict
    res["memory_verdict"] = memory
    return out
