#!/usr/bin/env python3
"""Porthole's idle-reset soak (issue 15): does a kiosk stay flat over many visitor sessions?

`make soak` runs it; see bench/README.md. Python 3 standard library only (plus libX11/libXtst
through ctypes, or `xdotool`, to move the pointer). Not part of `make test`.

It starts the real binary in kiosk mode with `idle-timeout=1` and `idle-warning=0` (the shortest
valid values: a reset one second after the last input) under a fresh Xvfb and a private D-Bus
session bus, against a home page served by its own HTTP server on 127.0.0.1. A kiosk nobody
touches is never reset (IdleSession: a fresh session waits for input), so after each load of the
home page (its onload handler fetches `done`) the harness moves the pointer once with XTest: one
second later the kiosk starts a new visitor session, which shows the home page again. Resets are
counted by the home page's requests the server receives, not by timing: one per reset, whether
the kiosk loaded it at the reset or beforehand, in the next visitor's session it prepares off
screen (half a second after the input with these settings). A reset is complete when the home
page reports that it is visible and has the focus (a prepared page is painted beneath the current
one, but gets the focus only when it is swapped in).

Every N resets (and at the first and the last) it samples, from /proc/PID/smaps_rollup, the
private dirty memory, Pss and Rss of the UI process (the one started) and their sums over all the
kiosk's processes (web and network processes included), plus the UI process's threads and open
files. It reports the first
and last samples and a least-squares slope per 100 resets, over all samples and after a warm-up,
and calls the UI process "flat within noise" when the slope of its private dirty memory (heap,
stacks, written data: what a leak grows; Pss and Rss also move with the library pages it shares)
after the warm-up is at most --threshold MB per 100 resets.
"""

import argparse
import datetime
import http.server
import json
import os
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True          # no bench/__pycache__ in the checkout
import run as bench  # noqa: E402  (the benchmark harness's process, Xvfb and bus helpers)
from xinput import Pointer  # noqa: E402

SCREEN = "1024x768x24"

# The home page: a little text, style and script, like a kiosk's start page; its onload handler
# reports to the harness, which then touches the kiosk (moves the pointer) to arm the next reset.
HOME = b"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Soak home</title>
<style>body{font:18px/1.5 sans-serif;margin:3em;background:#f4f1ea;color:#222}
h1{color:#335}li{margin:.3em 0}</style></head>
<body><h1>Welcome</h1><p>The kiosk's home page. Touch the screen to start.</p>
<ul id="list"></ul>
<script>
for (var i = 0; i < 50; i++) {
  var li = document.createElement("li"); li.textContent = "Item " + i; document.getElementById("list").appendChild(li);
}
window.onload = function () { fetch("done?r=" + Math.random()); shown(); };
// On screen and the visitor's: a page the kiosk prepared for the next visitor is painted
// beneath the current one, but gets the focus only when it is swapped in.
function shown() {
  if (window.shownSent || document.visibilityState !== "visible" || !document.hasFocus()) return;
  window.shownSent = true;
  fetch("shown?r=" + Math.random());
}
document.addEventListener("visibilitychange", shown);
window.addEventListener("focus", shown);
</script>
<a id="next" href="page.html" style="position:fixed;left:0;top:0;width:100%;height:100%"></a>
</body></html>
"""

# With --navigate, the page the visitor opens from the home page (a click on the link that covers
# it) before the kiosk resets: a second document in the same session, with its own history entry,
# title, style and script, as a visitor's first tap on a kiosk's start page brings.
PAGE = b"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Soak page</title>
<style>body{font:18px/1.5 sans-serif;margin:3em;background:#eef4ea;color:#222} td{padding:.2em 1em}</style></head>
<body><h1>Opening hours</h1><form><input name="q" placeholder="Search"></form><table id="t"></table>
<script>
for (var i = 0; i < 50; i++) {
  var tr = document.createElement("tr"); tr.innerHTML = "<td>Room " + i + "</td><td>10-18</td>"; document.getElementById("t").appendChild(tr);
}
localStorage.setItem("visited", String(Date.now()));
window.onload = function () { fetch("pagedone?r=" + Math.random()); };
</script></body></html>
"""


def log(*args):
    print(time.strftime("%H:%M:%S"), *args, file=sys.stderr, flush=True)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self):
        self.lock = threading.Condition()
        self.homes = 0                  # requests for the home page: the first load, then one per reset
        self.dones = 0                  # onload reports
        self.shown = 0                  # home pages on screen (a prepared one reports when swapped in)
        self.pages = 0                  # --navigate: onload reports of the page opened from home
        self.other = 0
        super().__init__(("127.0.0.1", 0), Handler)

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)

    def wait(self, what, count, timeout):
        """Waits until the `what` counter reaches `count`; False on timeout."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while getattr(self, what) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.lock.wait(min(left, 0.5))
            return True


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def respond(self, status, body=b"", ctype="text/plain"):
        head = ("HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nCache-Control: no-store\r\n\r\n"
                % (status, self.responses[status][0], ctype, len(body))).encode()
        self.wfile.write(head + (body if self.command != "HEAD" else b""))

    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        with self.server.lock:
            if path == "/home.html":
                self.server.homes += 1
            elif path == "/done":
                self.server.dones += 1
            elif path == "/shown":
                self.server.shown += 1
            elif path == "/pagedone":
                self.server.pages += 1
            elif path == "/page.html":
                pass
            else:
                self.server.other += 1
            self.server.lock.notify_all()
        if path == "/home.html":
            return self.respond(200, HOME, "text/html; charset=utf-8")
        if path == "/page.html":
            return self.respond(200, PAGE, "text/html; charset=utf-8")
        if path in ("/done", "/pagedone", "/shown"):
            return self.respond(204)
        return self.respond(404, b"not found")


def rollup_kb(pid):
    """Every field of /proc/PID/smaps_rollup in kB ({} when the process is gone)."""
    out = {}
    try:
        with open("/proc/%d/smaps_rollup" % pid) as f:
            for line in f:
                key, _, value = line.partition(":")
                if value.strip().endswith("kB"):
                    out[key] = int(value.split()[0])
    except (OSError, ValueError, IndexError):
        return {}
    return out


def status_counts(pid):
    """(threads, open file descriptors) of a process, or (None, None) when it is gone."""
    try:
        with open("/proc/%d/status" % pid) as f:
            threads = next(int(line.split()[1]) for line in f if line.startswith("Threads:"))
        return threads, len(os.listdir("/proc/%d/fd" % pid))
    except (OSError, StopIteration, ValueError):
        return None, None


def sample(tracker, ui_pid, resets, t0):
    rows = tracker.memory()
    browser = [r for r in rows if r["kind"] == "browser"]
    threads, fds = status_counts(ui_pid)
    ui = rollup_kb(ui_pid)
    dirty = {r["pid"]: rollup_kb(r["pid"]).get("Private_Dirty", 0) for r in browser}

    def mb(kb):
        return round(kb / 1024, 2) if kb is not None else None
    return {"resets": resets, "t_s": round(time.monotonic() - t0, 1),
            "ui_dirty_mb": mb(ui.get("Private_Dirty")), "ui_pss_mb": mb(ui.get("Pss")), "ui_rss_mb": mb(ui.get("Rss")),
            "all_dirty_mb": mb(sum(dirty.values())),
            "all_pss_mb": mb(sum(r["pss_kb"] for r in browser)), "all_rss_mb": mb(sum(r["rss_kb"] for r in browser)),
            "processes": len(browser), "ui_threads": threads, "ui_fds": fds,
            "names": sorted(r["comm"] for r in browser), "ui_rollup_kb": ui}


def slope(points):
    """Least-squares slope of y over x, per 100 x, and its standard error; None for < 3 points."""
    points = [(x, y) for x, y in points if y is not None]
    if len(points) < 3:
        return None
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    if sxx == 0:
        return None
    b = sum((x - mx) * (y - my) for x, y in points) / sxx
    residual = sum((y - my - b * (x - mx)) ** 2 for x, y in points)
    se = (residual / (n - 2) / sxx) ** 0.5
    return {"per_100": b * 100, "se_per_100": se * 100, "points": n}


def enter_network_namespace():
    """As bench/run.py: re-executes inside a network namespace holding only loopback."""
    if os.environ.get("PORTHOLE_BENCH_NETNS") == "1":
        return subprocess.run(["ip", "link", "set", "lo", "up"], capture_output=True).returncode == 0
    if not shutil.which("unshare") or subprocess.run(["unshare", "--net", "true"], capture_output=True).returncode:
        log("no private network namespace (unshare --net not permitted); the kiosk can reach the network")
        return False
    env = dict(os.environ, PORTHOLE_BENCH_NETNS="1")
    os.execvpe("unshare", ["unshare", "--net", "--", sys.executable, os.path.abspath(__file__)] + sys.argv[1:], env)


def soak(opts, server):
    """One kiosk, `opts.resets` idle resets. Returns (samples, meta)."""
    run_id = "soak-" + secrets.token_hex(4)
    tmp = tempfile.mkdtemp(prefix="porthole-soak-")
    dirs = {k: os.path.join(tmp, k) for k in ("home", "runtime", "tmp")}
    for d in dirs.values():
        os.makedirs(d, mode=0o700)
    home = "http://127.0.0.1:%d/home.html" % server.server_address[1]
    config = os.path.join(tmp, "soak.conf")
    with open(config, "w") as f:
        f.write("# The soak's kiosk: one site, a reset one second after the last input, no warning.\n"
                "[Sites]\nHome=%s\n\n[Policy]\nallow=127.0.0.1\n\n"
                "[Kiosk]\nenabled=true\nidle-timeout=1\nidle-warning=0\n" % home)
    log_path = os.path.join(tmp, "porthole.log")
    samples, meta = [], {"config": open(config).read(), "errors": []}
    xvfb = bus = proc = tracker = pointer = None
    with open(log_path, "wb") as logf:
        try:
            env, xvfb, bus = bench.start_session(dirs, run_id, logf, SCREEN)
            pointer = Pointer(env["DISPLAY"])
            argv = opts.wrap.split() + [os.path.abspath(opts.porthole), "--config", config]
            meta["argv"] = argv
            t0 = time.monotonic()
            proc = subprocess.Popen(argv, env=env, cwd=dirs["home"], stdin=subprocess.DEVNULL, stdout=logf,
                                    stderr=subprocess.STDOUT, start_new_session=True)
            tracker = bench.Tracker(proc.pid, [xvfb.pid, bus.pid], bus.pid, run_id)
            if not server.wait("shown", 1, opts.timeout):
                raise RuntimeError("the home page did not load within %.0f s" % opts.timeout)
            # Under a wrapper (heaptrack, valgrind) the UI process is the wrapper's `porthole` child.
            procs, browser, _ = tracker.collect()
            ui_pid = proc.pid if not opts.wrap else \
                next((p for p in sorted(browser) if procs[p]["comm"] == os.path.basename(opts.porthole)[:15]), proc.pid)
            resets = 0
            while True:
                # The state after `resets` resets: the home page of the newest session has loaded.
                if resets % opts.every == 0 or resets == opts.resets:
                    time.sleep(opts.settle)
                    s = sample(tracker, ui_pid, resets, t0)
                    samples.append(s)
                    log("resets %5d  %6.0f s  UI private dirty %6.2f MB Pss %6.2f MB Rss %6.2f MB  all: private "
                        "dirty %6.2f MB Pss %6.2f MB (%d processes)  UI threads %s fds %s"
                        % (resets, s["t_s"], s["ui_dirty_mb"] or 0, s["ui_pss_mb"] or 0, s["ui_rss_mb"] or 0,
                           s["all_dirty_mb"], s["all_pss_mb"], s["processes"], s["ui_threads"], s["ui_fds"]))
                if resets == opts.resets:
                    break
                if proc.poll() is not None:
                    raise RuntimeError("the kiosk exited (rc=%s) after %d resets" % (proc.returncode, resets))
                if opts.navigate:
                    # The visitor opens the page the home page links to; the reset comes one
                    # second after that click. A click lost on the way is repeated.
                    for attempt in range(5):
                        pointer.click()
                        if server.wait("pages", resets + 1, opts.reset_timeout):
                            break
                    else:
                        raise RuntimeError("the linked page did not open within 5 clicks after %d resets" % resets)
                    if not server.wait("homes", resets + 2, opts.reset_timeout):
                        raise RuntimeError("no reset after the linked page, after %d resets" % resets)
                    resets += 1
                    if not server.wait("shown", resets + 1, opts.timeout):
                        raise RuntimeError("the home page was not shown after reset %d" % resets)
                    continue
                # Touch the kiosk: one second later it starts a new session and loads home again.
                # A nudge lost on the way (none arrives while the old view is being replaced) is
                # repeated; a reset is only counted when the server sees the home page again.
                for attempt in range(5):
                    pointer.nudge()
                    if server.wait("homes", resets + 2, opts.reset_timeout):
                        break
                else:
                    raise RuntimeError("no reset within %d nudges after %d resets" % (5, resets))
                resets += 1
                if not server.wait("shown", resets + 1, opts.timeout):
                    raise RuntimeError("the home page was not shown after reset %d" % resets)
            meta["duration_s"] = round(time.monotonic() - t0)
        except KeyboardInterrupt:
            meta["errors"].append("interrupted")
            log("interrupted: reporting the samples so far")
        except Exception as e:          # report what was measured up to the failure
            meta["errors"].append(str(e) or e.__class__.__name__)
            log("FAILED:", meta["errors"][-1])
        finally:
            meta["homes"], meta["dones"], meta["other_requests"] = server.homes, server.dones, server.other
            meta["pages"], meta["shown"] = server.pages, server.shown
            if pointer:
                pointer.close()
            if opts.wrap and proc and proc.poll() is None:
                # Let the wrapper write its data: only the UI process is asked to quit (SIGTERM).
                try:
                    os.kill(ui_pid, signal.SIGTERM)
                    proc.wait(120)
                except (OSError, NameError, subprocess.TimeoutExpired):
                    pass
            bench.end_session(tracker, xvfb, bus, proc)
    with open(log_path, "rb") as f:
        text = f.read()
    meta["log_tail"] = text[-3000:].decode("utf-8", "replace")
    if opts.keep_log:
        shutil.copyfile(log_path, opts.keep_log)
    shutil.rmtree(tmp, ignore_errors=True)
    return samples, meta


def report(opts, samples, meta):
    out = ["# Porthole: %d kiosk idle resets" % (samples[-1]["resets"] if samples else 0), "",
           "%s, `%s`. Kiosk `idle-timeout=1`, `idle-warning=0`; %s. Sampled every %d resets, %.1f s after "
           "the home page's onload."
           % (meta["date"], meta["command"],
              "in each session the home page's link was clicked and a second page loaded before the reset"
              if opts.navigate else "the pointer moved once after each load of the home page",
              opts.every, opts.settle), ""]
    if meta["errors"]:
        out += ["**Stopped early:** %s" % "; ".join(meta["errors"]), ""]
    if len(samples) < 2:
        out.append("Too few samples for a figure.")
        return "\n".join(out), None
    first, last = samples[0], samples[-1]
    warm = [s for s in samples if s["resets"] >= opts.warmup]
    keys = [("ui_dirty_mb", "UI process private dirty (MB)"),
            ("ui_pss_mb", "UI process Pss (MB)"), ("ui_rss_mb", "UI process Rss (MB)"),
            ("all_dirty_mb", "all processes private dirty (MB)"),
            ("all_pss_mb", "all processes Pss (MB)"), ("all_rss_mb", "all processes Rss (MB)"),
            ("ui_threads", "UI process threads"), ("ui_fds", "UI process open files")]
    out += ["| figure | after 0 resets | after %d | after %d | slope per 100 resets (all) | after %d resets |"
            % (opts.warmup if warm else 0, last["resets"], opts.warmup),
            "|---|---|---|---|---|---|"]
    fits = {}
    for key, name in keys:
        at_warm = warm[0][key] if warm else None
        a = slope([(s["resets"], s[key]) for s in samples])
        b = slope([(s["resets"], s[key]) for s in warm])
        fits[key] = {"all": a, "after_warmup": b}

        def f(fit):
            return "%+.3f ± %.3f" % (fit["per_100"], fit["se_per_100"]) if fit else "–"
        out.append("| %s | %s | %s | %s | %s | %s |" % (name, first[key], at_warm, last[key], f(a), f(b)))
    fit = fits["ui_dirty_mb"]["after_warmup"]
    if fit is None:
        verdict = "not determined (too few samples after the warm-up)"
    elif fit["per_100"] <= opts.threshold:
        verdict = "flat within noise (≤ %.2f MB per 100 resets)" % opts.threshold
    else:
        verdict = "GROWING (%.3f MB per 100 resets > %.2f)" % (fit["per_100"], opts.threshold)
    out += ["", "Slopes are least-squares fits (± standard error); the last column leaves out the first %d "
            "resets (warm-up: caches, allocator arenas)." % opts.warmup, "",
            "**Verdict (UI process private dirty memory after the warm-up): %s.** Private dirty memory (heap, "
            "stacks, written data) is what a leak grows. Pss and Rss also move with the library pages the "
            "process shares: with the web processes replaced at each reset, and other browsers on the "
            "machine." % verdict, "",
            "%d resets in %s s (%.2f s a reset); the server saw %d home page loads, %d onload reports and "
            "%d loads of the linked page; %d home pages were shown (the first and one per reset)."
            % (last["resets"], meta.get("duration_s", "?"),
               meta.get("duration_s", 0) / max(1, last["resets"]), meta["homes"], meta["dones"], meta["pages"],
               meta["shown"])]
    return "\n".join(out), {"fits": fits, "verdict": verdict}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--porthole", default=os.path.join(REPO, ".build/install/launcher/porthole"))
    ap.add_argument("--resets", type=int, default=1000)
    ap.add_argument("--every", type=int, default=25, help="sample every N resets (default 25)")
    ap.add_argument("--warmup", type=int, default=100, help="resets left out of the verdict's fit (default 100)")
    ap.add_argument("--threshold", type=float, default=0.25,
                    help="the largest slope of the UI process's private dirty memory, MB per 100 resets, still "
                         "called flat (default 0.25)")
    ap.add_argument("--settle", type=float, default=0.5, help="seconds from onload to a sample (default 0.5)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds for a home page to load")
    ap.add_argument("--reset-timeout", type=float, default=8.0, help="seconds from a nudge to the next reset")
    ap.add_argument("--wrap", default="", metavar="COMMAND",
                    help="run Porthole under this command, e.g. 'heaptrack -o FILE' (diagnosis, not figures)")
    ap.add_argument("--out", metavar="FILE", help="write the Markdown report here too")
    ap.add_argument("--json", metavar="FILE", help="write every sample here")
    ap.add_argument("--keep-log", metavar="FILE", help="copy Porthole's output here")
    ap.add_argument("--command", default=None, help="the command shown in the report (default: this one)")
    ap.add_argument("--navigate", action="store_true",
                    help="in each session, click the home page's link and load a second page before the reset")
    ap.add_argument("--no-netns", action="store_true", help="do not run in a private network namespace")
    opts = ap.parse_args()
    if opts.resets < 1 or opts.every < 1:
        ap.error("--resets and --every must be at least 1")
    if not os.access(opts.porthole, os.X_OK):
        sys.exit("error: %s not built (make soak builds it)" % opts.porthole)
    for tool in ("Xvfb", "dbus-daemon"):
        if not shutil.which(tool):
            sys.exit("error: %s not found (apt-get install xvfb dbus-daemon)" % tool)
    netns = False if opts.no_netns else enter_network_namespace()
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.default_int_handler)
    bench.become_subreaper()
    server = Server()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    log("%s: %d resets, sampled every %d; home page on http://127.0.0.1:%d/ (private network namespace: %s)"
        % (opts.porthole, opts.resets, opts.every, server.server_address[1], "yes" if netns else "no"))
    foreign = bench.foreign_engines()
    if foreign:
        log("note: other WebKit/X processes share library pages (lower Pss): %s" % " ".join(foreign))
    samples, meta = soak(opts, server)
    server.shutdown()
    meta["date"] = datetime.datetime.now().strftime("%Y-%m-%d %H:%M %Z").strip()
    meta["command"] = opts.command or " ".join([os.path.relpath(sys.argv[0])] + sys.argv[1:])
    meta["machine"] = bench.machine_info()
    meta["foreign"] = foreign
    md, summary = report(opts, samples, meta)
    print(md)
    if opts.out:
        with open(opts.out, "w") as f:
            f.write(md + "\n")
        log("wrote %s" % opts.out)
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump({"meta": meta, "options": vars(opts), "summary": summary, "samples": samples}, f, indent=1)
        log("wrote %s" % opts.json)
    if meta["errors"]:
        return 1
    return 0 if summary and summary["verdict"].startswith("flat") else 2


if __name__ == "__main__":
    sys.exit(main())
