#!/usr/bin/env python3
"""Porthole's benchmark harness (issue 6): Porthole beside the engine floor and the installed peers.

`make bench` runs it; see bench/README.md. Python 3 standard library only.

For each round, every browser runs the `typical` scenario and then the `nav` scenario, browsers
interleaved so that drift on the machine hits them all alike, their order turned by one each
round (A B C, B C A, C A B, ...) so that none always starts right after the same run's teardown.
Every run gets a fresh Xvfb (-displayfd), a private D-Bus session bus, fresh HOME/XDG directories,
and its own URL prefix on the harness's HTTP server on 127.0.0.1. Measured from just before the
process starts:

  typical  start -> onload: arrival of the page's `done` report (fetched from its onload handler)
           PSS: 1 s after onload, summed over the browser's processes (/proc/PID/smaps_rollup)
           idle CPU: utime+stime+cutime+cstime (/proc/PID/stat) summed over the same processes,
           the growth over the 5 s after the PSS sample
  nav      20-hop chain: arrival of page 20's `done2` minus arrival of page 0's `done`

The browser's processes: the started process and its descendants, anything left in its session or
process group, and orphans re-parented to the harness (a child subreaper). Services that the run's
private bus activated (e.g. the accessibility bus) are counted apart, not in the browser's figures.
After measuring, the whole session is killed (SIGTERM, then SIGKILL), the bus and Xvfb are stopped,
and the run is checked for leftovers by an environment marker every process of the run inherits.
"""

import argparse
import collections
import ctypes
import datetime
import http.server
import json
import os
import re
import secrets
import select
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
import pages  # noqa: E402
import resets  # noqa: E402

CLK_TCK = os.sysconf("SC_CLK_TCK")
MARKER = "PORTHOLE_BENCH_RUN"
EXTENSION = "libPortholeWebExtension.so"   # Porthole's web process extension (its second layer)
SCREEN = "1024x768x24"
NAV_HOPS = pages.NAV_HOPS

# Peers: (name, argv, setup). Reported as "skipped (not installed)" when argv[0] is missing.
# {url}, {profile} and {home} are replaced per run; setup runs untimed before the launch.
FIREFOX_PREFS = """// First-run and update UI off, so the kiosk window shows only the page.
user_pref("browser.aboutwelcome.enabled", false);
user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("browser.startup.homepage_override.mstone", "ignore");
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
user_pref("app.update.enabled", false);
user_pref("browser.tabs.warnOnClose", false);
"""
PEERS = [
    ("MiniBrowser", ["/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser", "{url}"], None),
    ("surf", ["surf", "{url}"], None),
    # A fresh HOME is a fresh profile; without this setting Epiphany shows a "set as default" bar.
    ("epiphany", ["epiphany-browser", "{url}"],
     ["gsettings", "set", "org.gnome.Epiphany", "ask-for-default", "false"]),
    # --no-sandbox: Chromium refuses to run as root otherwise.
    ("chromium --kiosk", ["chromium", "--kiosk", "--no-sandbox", "--user-data-dir={profile}", "--no-first-run",
                          "--no-default-browser-check", "--password-store=basic", "{url}"], None),
    ("firefox-esr --kiosk", ["firefox-esr", "--kiosk", "--profile", "{profile}", "--no-remote", "{url}"],
     "firefox-prefs"),
]

CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
                 ".js": "text/javascript; charset=utf-8", ".png": "image/png"}


def log(*args):
    print(time.strftime("%H:%M:%S"), *args, file=sys.stderr, flush=True)


# ------------------------------------------------------------------------------------ server

class Run:
    """What the server saw of one run: request arrival times, the done/done2 reports."""

    def __init__(self, run_id):
        self.run_id = run_id
        self.lock = threading.Lock()
        self.requests = []              # (monotonic time, path below the run's prefix, status)
        self.reports = {}               # "done"/"done2" -> (monotonic time, page's t)
        self.reported = threading.Condition(self.lock)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64

    def __init__(self, root):
        self.root = root
        self.runs = {}
        self.runs_lock = threading.Lock()
        self.strays = []                # requests for no current run: late requests of a killed run
        super().__init__(("127.0.0.1", 0), Handler)

    def handle_error(self, request, client_address):
        # A killed browser resets its keep-alive connections: expected, not worth a traceback.
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "porthole-bench"
    # Without TCP_NODELAY a small response can wait for the client's delayed ACK (~40 ms on
    # loopback), which would swamp the navigation figure.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def respond(self, status, body=b"", ctype="text/plain", cache="no-store"):
        # Headers and body in one write: one segment for small responses, no Nagle interplay.
        head = ("HTTP/1.1 %d %s\r\nServer: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n"
                "Cache-Control: %s\r\n\r\n" % (status, self.responses[status][0], self.server_version,
                                               ctype, len(body), cache)).encode()
        self.wfile.write(head + (body if self.command != "HEAD" else b""))
        return status

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        now = time.monotonic()
        url = urllib.parse.urlsplit(self.path)
        _, _, rest = url.path.partition("/")
        run_id, _, rel = rest.partition("/")
        with self.server.runs_lock:
            run = self.server.runs.get(run_id)
        if run is None:
            self.server.strays.append(self.path)
            return self.respond(404, b"no such run")
        name = rel.rsplit("/", 1)[-1]
        if name in ("done", "done2"):
            t = urllib.parse.parse_qs(url.query).get("t", ["nan"])[0]
            with run.lock:
                run.requests.append((now, rel, 204))
                run.reports.setdefault(name, (now, t))
                run.reported.notify_all()
            return self.respond(204)
        path = os.path.normpath(os.path.join(self.server.root, rel))
        ok = path.startswith(self.server.root + os.sep) and os.path.isfile(path)
        with run.lock:
            run.requests.append((now, rel, 200 if ok else 404))
        if not ok:
            return self.respond(404, b"not found")
        with open(path, "rb") as f:
            body = f.read()
        # The run id in every URL keeps the cache from crossing runs; within a run (nav.css on
        # every hop) the browser may cache as it would on a real site.
        return self.respond(200, body, CONTENT_TYPES.get(os.path.splitext(path)[1], "application/octet-stream"),
                            "max-age=3600")


# ------------------------------------------------------------------------------------- /proc

def read_stat(pid):
    with open("/proc/%d/stat" % pid, "rb") as f:
        data = f.read()
    comm = data[data.index(b"(") + 1:data.rindex(b")")].decode("utf-8", "replace")
    f = data[data.rindex(b")") + 2:].split()
    # Fields from 3 on: state ppid pgrp session ... utime(14) stime cutime cstime ... starttime(22)
    return {"comm": comm, "state": f[0].decode(), "ppid": int(f[1]), "pgrp": int(f[2]), "sid": int(f[3]),
            "ticks": sum(int(x) for x in f[11:15]), "start": int(f[19])}


def all_processes():
    procs = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                procs[int(entry)] = read_stat(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    return procs


def has_marker(pid, marker):
    try:
        with open("/proc/%d/environ" % pid, "rb") as f:
            return marker in b"\0" + f.read()
    except OSError:
        return False


def memory_kb(pid):
    """Pss and Rss in kB from smaps_rollup, or None when the process is gone."""
    out = {}
    try:
        with open("/proc/%d/smaps_rollup" % pid) as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in ("Pss", "Rss"):
                    out[key] = int(value.split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return out


def maps_extension(pid):
    """Whether `pid` maps Porthole's web process extension (None when its maps cannot be read)."""
    try:
        with open("/proc/%d/maps" % pid) as f:
            return any(line.rstrip().endswith("/" + EXTENSION) for line in f)
    except OSError:
        return None


def cpu_ns(pid):
    """CPU time of `pid`'s live threads in ns (`/proc/PID/task/TID/schedstat`), or None when it is
    gone: ns where `/proc/PID/stat` counts ticks, for the chain's few milliseconds a hop."""
    total, found = 0, False
    try:
        tids = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return None
    for tid in tids:
        try:
            with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
                total += int(f.read().split()[0])
                found = True
        except (OSError, ValueError, IndexError):
            pass
    return total if found else None


def webkit_role(comm):
    """WebKit's web or network process by its name, or "other"."""
    if comm.startswith("WebKitWebProces"):
        return "web"
    if comm.startswith("WebKitNetworkPr"):
        return "network"
    return "other"


def cpu_role(pid, comm, root, xserver):
    """What a process is to the chain's CPU figures: the started process (its UI), WebKit's web
    and network processes, the X server, or another of the browser's processes."""
    if pid == root:
        return "ui"
    if pid == xserver:
        return "x"
    return webkit_role(comm)


def start_role(comm):
    """What a process is to the start-up table: as `webkit_role`, with the helpers of WebKit's
    sandbox (bubblewrap, xdg-dbus-proxy) apart."""
    return "sandbox" if comm in ("bwrap", "xdg-dbus-proxy") else webkit_role(comm)


def cmdline(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return f.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()
    except OSError:
        return ""


class Tracker:
    """Finds one run's processes: the browser's (tree, session, re-parented orphans) and the D-Bus
    services activated on the run's bus. `infra` are the run's Xvfb and bus daemon."""

    def __init__(self, root, infra, bus_pid, run_id):
        self.root = root
        self.root_start = read_stat(root)["start"]
        self.infra = set(infra)
        self.bus_pid = bus_pid
        self.marker = ("\0%s=%s\0" % (MARKER, run_id)).encode()
        self.me = os.getpid()
        self.seen = {}                  # pid -> (comm, why) over the run's life

    def collect(self):
        """(processes, {pid: why} of the browser's, {pid: why} of the bus services)."""
        procs = all_processes()
        children = collections.defaultdict(list)
        for pid, st in procs.items():
            children[st["ppid"]].append(pid)
        browser, services = {}, {}

        def take(pid, why, into):
            stack = [pid]
            while stack:
                p = stack.pop()
                if p in browser or p in services or p in self.infra or p == self.me or p not in procs:
                    continue
                into[p] = why
                stack.extend(children.get(p, ()))

        if self.root in procs and procs[self.root]["start"] == self.root_start:
            take(self.root, "tree", browser)
        for pid, st in sorted(procs.items()):
            if st["sid"] == self.root or st["pgrp"] == self.root:
                take(pid, "session", browser)
            elif self.bus_pid and self.bus_pid in (st["sid"], st["ppid"]):
                # Activated by the bus: its child, or re-parented but still in the bus's session.
                take(pid, "dbus", services)
            elif st["ppid"] == self.me and pid not in self.infra:
                take(pid, "re-parented", browser)
        for group in (browser, services):
            for p, why in group.items():
                self.seen.setdefault(p, (procs[p]["comm"], why))
        return procs, browser, services

    def cpu_by_process(self, xserver, collected=None):
        """{pid: (role, ns)} of the browser's processes and the X server (see `cpu_role`);
        `collected`: a `collect()` of the same moment, to read /proc once."""
        procs, browser, _ = collected or self.collect()
        out = {}
        for p in list(browser) + [xserver]:
            ns = cpu_ns(p)
            if ns is not None:
                out[p] = (cpu_role(p, procs.get(p, {}).get("comm", ""), self.root, xserver), ns)
        return out

    def start_offsets(self, collected=None):
        """{role: ms from the started process's start to the first start among the browser's live
        processes of that role (see `start_role`)}, from `/proc/PID/stat` start times, which count
        clock ticks (10 ms steps); a helper that has already exited is not seen. `collected` as in
        `cpu_by_process`."""
        procs, browser, _ = collected or self.collect()
        out = {}
        for p in browser:
            # Zombies are gone too: e.g. Porthole's bwrap probe's inner process, re-parented to
            # the harness (a child subreaper) and not yet reaped.
            if p != self.root and procs[p]["state"] not in "ZX":
                ms = (procs[p]["start"] - self.root_start) * 1000 / CLK_TCK
                role = start_role(procs[p]["comm"])
                out[role] = min(out.get(role, ms), ms)
        return out

    def cpu_ticks(self):
        """({pid: ticks} of the browser's processes, the same of the bus services)."""
        procs, browser, services = self.collect()
        return ({p: procs[p]["ticks"] for p in browser}, {p: procs[p]["ticks"] for p in services})

    def memory(self):
        procs, browser, services = self.collect()
        rows = []
        for group, kind in ((browser, "browser"), (services, "service")):
            for p, why in group.items():
                m = memory_kb(p) if procs[p]["state"] not in "ZX" else None
                if m:
                    rows.append({"pid": p, "comm": procs[p]["comm"], "why": why, "kind": kind,
                                 "pss_kb": m.get("Pss", 0), "rss_kb": m.get("Rss", 0), "cmd": cmdline(p)[:200]})
        rows.sort(key=lambda r: -r["pss_kb"])
        return rows

    def marked_leftovers(self):
        """Processes of this run (by marker) still alive, other than the infrastructure."""
        return [p for p, st in all_processes().items()
                if p not in self.infra and p != self.me and st["state"] not in "ZX" and has_marker(p, self.marker)]


def become_subreaper():
    """Orphans of the browser (double-forked helpers) are re-parented to us, not to init."""
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0   # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def reap_zombies(keep):
    for pid, st in all_processes().items():
        if st["ppid"] == os.getpid() and st["state"] == "Z" and pid not in keep:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass


def cpu_busy(seconds):
    """The fraction of all CPUs busy over `seconds` (from /proc/stat), while this harness sleeps."""
    def sample():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return sum(v[:8]), v[3] + v[4]          # total, idle + iowait
    t1, i1 = sample()
    time.sleep(seconds)
    t2, i2 = sample()
    return 1.0 - (i2 - i1) / max(1, t2 - t1)


def wait_for_quiet(limit, timeout):
    """Waits until less than `limit` of the CPUs is busy (other work would slow the next run) or
    `timeout` seconds passed. Returns the busy fraction measured last."""
    deadline = time.monotonic() + timeout
    busy = cpu_busy(0.5)
    while busy > limit and time.monotonic() < deadline:
        busy = cpu_busy(1.0)
    return busy


def foreign_engines():
    """WebKit/browser/X processes this harness did not start: they share library pages with the
    measured browsers (lowering their PSS) and take CPU from them on a 2-core machine."""
    names = {"WebKitWebProces", "WebKitNetworkPr", "WebKitGPUProces", "MiniBrowser", "porthole", "floor",
             "surf", "epiphany", "chromium", "chrome", "firefox-esr", "Web Content", "Xvfb", "Xorg"}
    procs = all_processes()

    def ours(pid):
        while pid in procs and pid > 1:
            if pid == os.getpid():
                return True
            pid = procs[pid]["ppid"]
        return False
    return sorted("%d:%s" % (p, st["comm"]) for p, st in procs.items()
                  if st["comm"] in names and st["state"] != "Z" and not ours(p))


# ------------------------------------------------------------------------------ infrastructure

def read_line(fd, proc, what, timeout=15):
    buf, deadline = b"", time.monotonic() + timeout
    while b"\n" not in buf:
        if time.monotonic() > deadline:
            raise RuntimeError("%s did not start within %d s" % (what, timeout))
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            chunk = os.read(fd, 256)
            if not chunk:
                raise RuntimeError("%s exited early (rc=%s)" % (what, proc.poll()))
            buf += chunk
        elif proc.poll() is not None:
            raise RuntimeError("%s exited (rc=%s)" % (what, proc.returncode))
    return buf.split(b"\n", 1)[0].decode().strip()


def start_reporting(argv, what, env, logf):
    """Starts argv with a pipe whose write end replaces {fd}; returns (process, first line)."""
    r, w = os.pipe()
    try:
        proc = subprocess.Popen([a.replace("{fd}", str(w)) for a in argv], pass_fds=(w,), env=env,
                                stdin=subprocess.DEVNULL, stdout=logf, stderr=subprocess.STDOUT,
                                start_new_session=True)
    finally:
        os.close(w)
    try:
        return proc, read_line(r, proc, what)
    except Exception:
        stop(proc)
        raise
    finally:
        os.close(r)


def stop(proc, wait=3.0):
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(wait)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(wait)


def kill_browser(tracker, keep, term_wait):
    """SIGTERM the browser's session and every process counted as the browser's, then SIGKILL
    what is left. Returns the names of processes that needed SIGKILL."""
    needed_kill = []
    for sig, wait in ((signal.SIGTERM, term_wait), (signal.SIGKILL, 3.0)):
        procs, browser, _ = tracker.collect()
        live = [p for p in browser if procs[p]["state"] not in "ZX"]
        if not live:
            break
        try:
            os.killpg(tracker.root, sig)
        except (ProcessLookupError, PermissionError):
            pass
        for p in live:
            try:
                if read_stat(p)["start"] == procs[p]["start"]:   # not a recycled pid
                    os.kill(p, sig)
                    if sig == signal.SIGKILL:
                        needed_kill.append(procs[p]["comm"])
            except (OSError, ValueError):
                pass
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            reap_zombies(keep)
            procs, browser, _ = tracker.collect()
            if not [p for p in browser if procs[p]["state"] not in "ZX"]:
                break
            time.sleep(0.05)
    return needed_kill


# ------------------------------------------------------------------------------------ browsers

class Browser:
    def __init__(self, name, argv, setup=None, env=None, note=None, portal=False):
        self.name = name
        self.argv = argv
        self.setup = setup
        self.env = env or {}
        self.portal = portal            # start xdg-desktop-portal on the run's bus first (a desktop)
        self.note = note                # why it is not measured ("skipped (not installed)"), or None
        self.command_note = ""          # shown under the table, e.g. how Porthole was launched

    def resolve(self):
        exe = self.argv[0]
        found = shutil.which(exe) if "/" not in exe else (exe if os.access(exe, os.X_OK) else None)
        if not found:
            self.note = "skipped (not installed)"
        return found


def porthole_accepts_config(binary):
    """True when `porthole --help` lists --config. Run without a display or bus, under a timeout."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": tempfile.gettempdir(), "LANG": "C.UTF-8"}
    try:
        r = subprocess.run([binary, "--help"], capture_output=True, timeout=15, env=env,
                           stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return b"--config" in r.stdout + r.stderr


# ------------------------------------------------------------------------------------------ run

def register_run(server, run_id):
    """A run the server records: the requests under /<run_id>/ and its reports."""
    record = Run(run_id)
    with server.runs_lock:
        server.runs[run_id] = record
    return record


def run_directories(prefix, names=("home", "runtime", "tmp")):
    """A run's temporary directory and, inside it, its own directories (mode 700) by name."""
    tmp = tempfile.mkdtemp(prefix=prefix)
    dirs = {name: os.path.join(tmp, name) for name in names}
    for directory in dirs.values():
        os.makedirs(directory, mode=0o700)
    return tmp, dirs


def start_session(dirs, run_id, logf, screen=SCREEN):
    """A run's session: a fresh Xvfb and a private D-Bus session bus, and the environment that
    points at them and at the run's own HOME and XDG directories (`dirs`: home, runtime, tmp).
    Returns (env, xvfb, bus); the caller stops both."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME": dirs["home"],
           "USER": "root", "LOGNAME": "root", "LANG": "C.UTF-8", "TMPDIR": dirs["tmp"],
           "XDG_RUNTIME_DIR": dirs["runtime"],
           "XDG_CONFIG_HOME": os.path.join(dirs["home"], ".config"),
           "XDG_CACHE_HOME": os.path.join(dirs["home"], ".cache"),
           "XDG_DATA_HOME": os.path.join(dirs["home"], ".local/share"),
           # Same for every browser; keeps GTK from starting the accessibility bridge.
           "NO_AT_BRIDGE": "1", MARKER: run_id}
    xvfb, display = start_reporting(["Xvfb", "-displayfd", "{fd}", "-screen", "0", screen, "-nolisten",
                                     "tcp", "-noreset"], "Xvfb", env, logf)
    env["DISPLAY"] = ":" + display
    try:
        bus, address = start_reporting(["dbus-daemon", "--session", "--nofork", "--nopidfile",
                                        "--print-address={fd}",
                                        "--address=unix:path=%s/bus" % dirs["runtime"]], "dbus-daemon",
                                       env, logf)
    except BaseException:
        stop(xvfb)
        raise
    env["DBUS_SESSION_BUS_ADDRESS"] = address
    return env, xvfb, bus


def end_session(tracker, xvfb, bus, proc, term_wait=3.0):
    """Ends a run: the browser's processes (SIGTERM, then SIGKILL after `term_wait`), the started
    process, the bus, whatever still carries the run's marker, then Xvfb. Returns (whether SIGKILL
    was needed, the leftovers killed as "pid:command")."""
    infra = [p.pid for p in (xvfb, bus, proc) if p]
    sigkill, left = None, []
    if tracker:
        sigkill = kill_browser(tracker, infra, term_wait)
    if proc:
        stop(proc, 1.0)
    stop(bus)
    if tracker:
        time.sleep(0.1)         # bus services exit when their bus goes away
        reap_zombies(infra)
        left = tracker.marked_leftovers()
        for p in left:
            try:
                os.kill(p, signal.SIGKILL)
            except OSError:
                pass
    stop(xvfb)
    reap_zombies([])
    return sigkill, ["%d:%s" % (p, cmdline(p)[:80]) for p in left]


def run_once(opts, server, browser, scenario):
    """One launch of one browser on one scenario. Returns a dict; 'error' set when it failed."""
    run_id = "%s-%s" % (re.sub(r"[^a-z0-9]", "", browser.name.lower())[:16], secrets.token_hex(5))
    page = {"typical": "typical/index.html", "nav": "nav/0.html", "tiny": "tiny.html"}[scenario]
    url = "http://127.0.0.1:%d/%s/%s" % (server.server_address[1], run_id, page)
    res = {"browser": browser.name, "scenario": scenario, "run_id": run_id, "error": None}
    run = register_run(server, run_id)
    tmp, dirs = run_directories("porthole-bench-%s-" % run_id, ("home", "runtime", "tmp", "profile"))
    log_path = os.path.join(tmp, "browser.log")
    xvfb = bus = proc = tracker = None
    with open(log_path, "wb") as logf:
        try:
            env, xvfb, bus = start_session(dirs, run_id, logf)
            if browser.portal:
                # As on a desktop session: the portal runs before the browser starts (activated
                # by a ping that waits for it), so no start-up waits for it to start.
                subprocess.run(["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.portal.Desktop",
                                "/org/freedesktop/portal/desktop", "org.freedesktop.DBus.Peer.Ping"],
                               env=env, stdout=logf, stderr=subprocess.STDOUT, timeout=30, check=True)
            env.update(browser.env)
            subst = {"{url}": url, "{profile}": dirs["profile"], "{home}": dirs["home"]}
            argv = [subst.get(a, a) for a in browser.argv]
            res["argv"] = argv
            if browser.setup == "firefox-prefs":
                with open(os.path.join(dirs["profile"], "user.js"), "w") as f:
                    f.write(FIREFOX_PREFS)
            elif browser.setup:
                subprocess.run(browser.setup, env=env, stdout=logf, stderr=subprocess.STDOUT, timeout=30)

            x_before = cpu_ns(xvfb.pid) or 0
            t0 = time.monotonic()
            proc = subprocess.Popen(argv, env=env, cwd=dirs["home"], stdin=subprocess.DEVNULL, stdout=logf,
                                    stderr=subprocess.STDOUT, start_new_session=True)
            tracker = Tracker(proc.pid, [xvfb.pid, bus.pid], bus.pid, run_id)

            def wait_report(name, deadline):
                with run.lock:
                    while name not in run.reports:
                        if time.monotonic() > deadline:
                            raise RuntimeError("no `%s` report within %.0f s" % (name, opts.timeout))
                        if proc.poll() is not None and not tracker.collect()[1]:
                            raise RuntimeError("browser exited (rc=%s) before `%s`" % (proc.returncode, name))
                        run.reported.wait(0.2)
                    return run.reports[name][0]

            t_done = wait_report("done", t0 + opts.timeout)
            res["onload_ms"] = (t_done - t0) * 1000
            # Read first, while the page has only just reported (on the chain's page 0 the chain has
            # begun by the time it is read): what each process spent from its start to onload.
            collected = tracker.collect()
            at_onload = tracker.cpu_by_process(xvfb.pid, collected)
            if xvfb.pid in at_onload:
                at_onload[xvfb.pid] = ("x", at_onload[xvfb.pid][1] - x_before)
            if scenario == "typical":
                for role in CHAIN_CPU_ROLES:
                    res["onload_cpu_%s_ms" % role] = sum(ns for r, ns in at_onload.values() if r == role) / 1e6
                res["onload_cpu_all_ms"] = sum(ns for _, ns in at_onload.values()) / 1e6
                for role, ms in tracker.start_offsets(collected).items():
                    res["start_%s_ms" % role] = ms
            res["cpu_to_onload_s"] = sum(tracker.cpu_ticks()[0].values()) / CLK_TCK
            with run.lock:
                res["first_request_ms"] = (run.requests[0][0] - t0) * 1000
            if "start_network_ms" in res and "start_web_ms" in res:
                res["start_network_to_web_ms"] = res["start_web_ms"] - res["start_network_ms"]
            if "start_web_ms" in res:
                res["start_web_to_first_request_ms"] = res["first_request_ms"] - res["start_web_ms"]
            if scenario == "nav":
                res["nav_onload_ms"], res["nav_first_request_ms"] = res["onload_ms"], res["first_request_ms"]
                t_done2 = wait_report("done2", t_done + opts.timeout)
                res["nav_ms"] = (t_done2 - t_done) * 1000
                with run.lock:
                    res["hops_ms"] = [round((t - t_done) * 1000, 1) for t, rel, _ in run.requests
                                      if t >= t_done and rel.endswith(".html")]
                # The typical hop, robust to the odd slow one that dominates a single chain's total.
                marks = [0.0] + res["hops_ms"] + [res["nav_ms"]]
                res["median_hop_ms"] = statistics.median(b - a for a, b in zip(marks, marks[1:]))
                # CPU a hop, by process: what each spent between the two reports (a process started
                # in the chain counts whole; threads that ended in it are not counted).
                after = tracker.cpu_by_process(xvfb.pid)
                hop = {role: 0.0 for role in CHAIN_CPU_ROLES}
                for p, (role, ns) in after.items():
                    hop[role] += (ns - at_onload.get(p, (role, 0))[1]) / 1e6 / opts.hops
                for role, ms in hop.items():
                    res["hop_cpu_%s_ms" % role] = ms
                res["hop_cpu_all_ms"] = sum(hop.values())
                # What the navigations left behind (e.g. per-page snapshots kept for history).
                time.sleep(max(0.0, t_done2 + opts.settle - time.monotonic()))
                res["nav_pss_mb"] = sum(r["pss_kb"] for r in tracker.memory() if r["kind"] == "browser") / 1024
            if scenario == "typical":
                time.sleep(max(0.0, t_done + opts.settle - time.monotonic()))
                rows = tracker.memory()
                c1, s1 = tracker.cpu_ticks()
                t1 = time.monotonic()
                time.sleep(opts.idle)
                c2, s2 = tracker.cpu_ticks()
                res["idle_window_s"] = time.monotonic() - t1
                res["pss_mb"] = sum(r["pss_kb"] for r in rows if r["kind"] == "browser") / 1024
                res["rss_mb"] = sum(r["rss_kb"] for r in rows if r["kind"] == "browser") / 1024
                res["services_pss_mb"] = sum(r["pss_kb"] for r in rows if r["kind"] == "service") / 1024
                # A process started in the window counts whole; one that ended in it counts through
                # its parent's cutime+cstime once reaped.
                res["idle_cpu_s"] = sum(t - c1.get(p, 0) for p, t in c2.items()) / CLK_TCK
                res["services_idle_cpu_s"] = sum(t - s1.get(p, 0) for p, t in s2.items()) / CLK_TCK
                for r in rows:
                    after = c2.get(r["pid"], s2.get(r["pid"]))
                    r["idle_cpu_s"] = (after - c1.get(r["pid"], s1.get(r["pid"], 0))) / CLK_TCK \
                        if after is not None else None
                res["processes"] = rows
                # What the page's web processes run, read from /proc/PID/maps: Porthole's must map
                # its extension, or the run measured a Porthole without its second layer.
                res["web_processes"] = [{"pid": r["pid"], "extension": maps_extension(r["pid"])}
                                        for r in rows if r["comm"] == "WebKitWebProces"]
                own = [r for r in rows if r["pid"] == proc.pid]
                if own:
                    res["own_pss_mb"] = own[0]["pss_kb"] / 1024
                    res["own_idle_cpu_s"] = own[0]["idle_cpu_s"]
            with run.lock:
                res["not_found"] = sorted({rel for _, rel, status in run.requests if status == 404})
        except Exception as e:          # one failed run must not end the benchmark
            res["error"] = str(e) or e.__class__.__name__
        finally:
            sigkill, left = end_session(tracker, xvfb, bus, proc, opts.term_wait)
            if tracker:
                res["sigkill_needed"], res["leftovers"] = sigkill, left
                res["seen"] = sorted("%s (%s)" % v for v in tracker.seen.values())
    with server.runs_lock:
        server.runs.pop(run_id, None)
    if res["error"]:
        with open(log_path, "rb") as f:
            text = f.read()
        res["log"] = (text if len(text) < 4000 else text[:2000] + b"\n[...]\n" + text[-2000:]).decode("utf-8", "replace")
    shutil.rmtree(tmp, ignore_errors=True)
    return res


# --------------------------------------------------------------------------------------- report

def extension_note(timed, name):
    """How many of `name`'s runs had every page web process mapping the extension."""
    runs = [r for r in timed if r["browser"] == name and "web_processes" in r]
    have = [r for r in runs if r["web_processes"] and all(w["extension"] for w in r["web_processes"])]
    if runs and len(have) == len(runs):
        return "Its web processes ran its extension (`%s` in `/proc/PID/maps`) in all %d runs." % (EXTENSION, len(runs))
    return ("**Its web processes ran its extension in only %d of %d runs**: those without it measured a "
            "Porthole without its second enforcement layer." % (len(have), len(runs)))


def stats(values):
    return (statistics.median(values), min(values), max(values)) if values else None


def fmt(st, digits):
    if st is None:
        return "–"
    med, lo, hi = st
    return "%.*f (%.*f–%.*f)" % (digits, med, digits, lo, digits, hi)


METRICS = [  # key, column title, digits, scenario
    ("onload_ms", "start → onload (ms)", 0, "typical"),
    ("pss_mb", "PSS 1 s after load (MB)", 1, "typical"),
    ("idle_cpu_s", "CPU in {idle} s idle (s)", 2, "typical"),
    ("nav_ms", "{hops}-hop navigation chain (ms)", 0, "nav"),
]
DETAILS = [  # key, column title, digits, scenario
    ("first_request_ms", "start → first request (ms)", 0, "typical"),
    ("nav_first_request_ms", "chain's start page: start → first request (ms)", 0, "nav"),
    ("nav_onload_ms", "chain's start page: start → onload (ms)", 0, "nav"),
    ("cpu_to_onload_s", "CPU to onload (s)", 2, "typical"),
    ("rss_mb", "RSS 1 s after load (MB)", 1, "typical"),
    ("median_hop_ms", "median hop of the chain (ms)", 1, "nav"),
    ("nav_pss_mb", "PSS 1 s after the {hops}-hop chain (MB)", 1, "nav"),
    ("own_pss_mb", "started process's PSS (MB)", 1, "typical"),
    ("own_idle_cpu_s", "started process's CPU in {idle} s idle (s)", 2, "typical"),
    ("services_pss_mb", "D-Bus services' PSS (MB)", 1, "typical"),
    ("services_idle_cpu_s", "D-Bus services' CPU in {idle} s idle (s)", 2, "typical"),
]
CHAIN_CPU_ROLES = ("ui", "web", "network", "other", "x")
CHAIN_CPU = [  # key, column title
    ("hop_cpu_ui_ms", "started (UI) process"),
    ("hop_cpu_web_ms", "WebKit web processes"),
    ("hop_cpu_network_ms", "WebKit network process"),
    ("hop_cpu_other_ms", "other processes of the browser"),
    ("hop_cpu_x_ms", "X server"),
    ("hop_cpu_all_ms", "all of these"),
]
PROCESS_STARTS = [  # key, column title
    ("start_network_ms", "WebKit network process"),
    ("start_sandbox_ms", "sandbox helpers (bwrap, xdg-dbus-proxy)"),
    ("start_web_ms", "WebKit web process"),
    ("start_network_to_web_ms", "network → web process"),
    ("start_web_to_first_request_ms", "web process → first request"),
    ("first_request_ms", "first request"),
]
SANDBOXED_FLOOR = "floor, sandboxed"
CHROME_FLOOR = "floor, sandboxed, with the chrome"
UNSANDBOXED_PORTHOLE = "Porthole, sandbox off"
STARTUP_KEYS = ("first_request_ms", "onload_ms", "nav_first_request_ms", "nav_onload_ms")
TARGETS = [  # key, kind, bound, description: Porthole at or below the floor of the same run (issues 14, 26)
    ("first_request_ms", "ratio", 1.00, "≤ 1.00× floor"),
    ("onload_ms", "ratio", 1.00, "≤ 1.00× floor"),
    ("nav_first_request_ms", "ratio", 1.00, "≤ 1.00× floor"),
    ("nav_onload_ms", "ratio", 1.00, "≤ 1.00× floor"),
    ("pss_mb", "ratio", 1.00, "≤ 1.00× floor"),
    ("nav_pss_mb", "ratio", 1.00, "≤ 1.00× floor"),
    ("idle_cpu_s", "diff", 0.00, "≤ floor (at the floor)"),
    ("nav_ms", "ratio", 1.00, "≤ 1.00× floor"),
]


def target_verdicts(timed, have, columns, floor="floor", targets=None, subject="Porthole"):
    """One row per target: (title, the subject's median, the floor's, shown distance, target,
    verdict, met, rounds). `timed`: the measured runs; `have`: the browsers measured; `columns`:
    key -> (title, digits, scenario); `floor`: the reference browser's name; `subject`: the browser
    held to it (Porthole as shipped, or Porthole with its sandbox off). `met` is None when the
    subject or the floor has no sample."""
    rows = []
    for key, kind, bound, desc in targets or TARGETS:
        title, digits, scenario = columns[key]
        p, f = stats(samples(timed, subject, key, scenario)), stats(samples(timed, floor, key, scenario))
        if subject not in have or floor not in have or not p or not f:
            rows.append((title, fmt(p, digits), fmt(f, digits), "–", desc, "not measured", None, "–"))
            continue
        if kind == "ratio":
            rel = p[0] / f[0] if f[0] else float("inf")
            shown, met = "%.3f×" % rel, rel <= bound + 1e-9
            near = f[0] and abs(p[0] - f[0] * bound) < f[2] - f[1]
        else:
            rel = p[0] - f[0]
            shown, met = "%+.3f s" % rel, rel <= bound + 1e-9
            near = abs(rel - bound) < f[2] - f[1]
        verdict = ("met" if met else "**missed**") + (" (within the floor's run-to-run spread)" if near else "")
        rounds = "%d / %d" % (len(samples(timed, subject, key, scenario)), len(samples(timed, floor, key, scenario)))
        rows.append((title, fmt(p, digits), fmt(f, digits), shown, desc, verdict, met, rounds))
    return rows


def verdict_lines(rows):
    """target_verdicts' rows as the report's table rows (measure, the two medians, distance,
    target, result, rounds)."""
    return ["| %s | %s | %s | %s | %s | %s | %s |" % (row[:6] + (row[7],)) for row in rows]


def verdict_summary(rows):
    """target_verdicts' rows as the JSON's meta entries for a second reference."""
    return [{"measure": r[0], "porthole": r[1], "floor": r[2], "distance": r[3], "met": r[6]} for r in rows]


def where_the_floor_is(timed, have, columns, meta):
    """The report's section that takes WebKit's sandbox, the window's chrome and Porthole's own code
    apart: each target's ratio for the sandboxed floor (WebKit's launcher alone), for the sandboxed
    floor with Porthole's chrome built in plain GTK (the launcher and the window a browser shows),
    for Porthole with its sandbox off and for Porthole as shipped, each against the floor of the
    same run, and Porthole against the chrome floor; then Porthole with its sandbox off held to the
    targets, and Porthole held to the chrome floor. Sets meta["unsandboxed_porthole"] and
    meta["chrome_floor"] for what was measured."""
    def ratio(browser, key, floor="floor"):
        scenario = columns[key][2]
        a, f = stats(samples(timed, browser, key, scenario)), stats(samples(timed, floor, key, scenario))
        return "%.2f×" % (a[0] / f[0]) if browser in have and floor in have and a and f and f[0] else "–"

    def verdict_table(rows, subject, reference):
        return ["| measure | %s | %s | it / that | target | result | rounds |" % (subject, reference),
                "|---|---:|---:|---:|---|---|---:|"] + verdict_lines(rows)

    floor_rows = target_verdicts(timed, have, columns)
    out = ["### Where the floor is: WebKit's sandbox, the window's chrome and Porthole's own code apart (same run)", "",
           "*%s* is Porthole as shipped but for `[Browser] sandbox=false` (bench/bench.conf plus that line; a "
           "measurement only): its own code without WebKit's sandbox. *%s* is the sandboxed floor inside the "
           "window Porthole shows, built with GTK alone (`bench/floor/floor-variants.c`, `FLOOR_CHROME=1`: the "
           "header bar with Back, Forward, a title and subtitle that follow the page, the Open menu and the main "
           "menu with their menu models, the bottom bar with the load's progress and Reload, the window's icon, "
           "the controls' accessible names), and none of Porthole's code. Each ratio is a median over the "
           "floor's median of the same run; the last column holds Porthole to the chrome floor instead: what "
           "Porthole's own code adds to a sandboxed WebKitGTK 2.50 view in that window." %
           (UNSANDBOXED_PORTHOLE, CHROME_FLOOR), "",
           "| measure | floor | floor, sandboxed / floor | %s / floor | %s / floor | Porthole / floor | "
           "Porthole / %s |" % (CHROME_FLOOR, UNSANDBOXED_PORTHOLE, CHROME_FLOOR),
           "|---|---:|---:|---:|---:|---:|---:|"]
    for (key, _, _, _), row in zip(TARGETS, floor_rows):
        if key == "idle_cpu_s":
            continue
        out.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            row[0], row[2], ratio(SANDBOXED_FLOOR, key), ratio(CHROME_FLOOR, key), ratio(UNSANDBOXED_PORTHOLE, key),
            ratio("Porthole", key), ratio("Porthole", key, floor=CHROME_FLOOR)))
    out.append("")
    if UNSANDBOXED_PORTHOLE in have:
        rows = target_verdicts(timed, have, columns, subject=UNSANDBOXED_PORTHOLE)
        meta["unsandboxed_porthole"] = verdict_summary(rows)
        out += ["%s held to the targets:" % UNSANDBOXED_PORTHOLE, ""]
        out += verdict_table(rows, UNSANDBOXED_PORTHOLE, "floor")
        out += ["", "Met with the sandbox off: %d of %d." % (len([r for r in rows if r[6]]), len(rows)), ""]
    if CHROME_FLOOR in have:
        rows = target_verdicts(timed, have, columns, floor=CHROME_FLOOR)
        meta["chrome_floor"] = verdict_summary(rows)
        out += ["Porthole held to the targets against *%s*:" % CHROME_FLOOR, ""]
        out += verdict_table(rows, "Porthole", CHROME_FLOOR)
        out += ["", "Met against the sandboxed floor with the chrome: %d of %d." % (len([r for r in rows if r[6]]),
                                                                                     len(rows)), ""]
    return out


def samples(results, browser, key, scenario):
    return [r[key] for r in results
            if r["browser"] == browser and r["scenario"] == scenario and not r["error"] and key in r]


def policy_medians(markdown):
    """The median decision times at about 100,000 filters in policy-bench's Markdown table, as
    [(ns, row label)], the row closest to WebKit's use first; [] when there are none.

    Rows: the filter count is a cell whose number is within 1 % of 100,000 (policy-bench adds a
    couple of default filters); rows of the seed's scan are left out. Column: the title says median
    (not the seed's, not compile). The unit comes from the cell or the column title. The row that
    decides on URLs as WebKit gives them (its label says WebKit) is the one Porthole's navigations
    take, so it comes first."""
    # The first table whose header names a median (policy-bench prints other tables after it,
    # such as configuration load times).
    rows, lines = [], markdown.splitlines()
    for k, line in enumerate(lines):
        if line.strip().startswith("|") and "median" in line.lower() and not rows:
            for row_line in lines[k:]:
                if not row_line.strip().startswith("|"):
                    break
                rows.append([c.strip() for c in row_line.strip().strip("|").split("|")])
    if len(rows) < 3:
        return []
    header = [h.lower() for h in rows[0]]
    seed = re.compile(r"seed|linear|substring")
    cols = [i for i, h in enumerate(header) if "median" in h and not seed.search(h) and "compile" not in h]
    units = {"ns": 1.0, "µs": 1e3, "μs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}
    found = []
    for row in rows[2:]:
        counts = [int(d) for d in (re.sub(r"[,_\s\u202f\u2009']", "", c) for c in row) if d.isdigit()]
        if not any(99_000 <= n <= 101_000 for n in counts) or any(seed.search(c.lower()) for c in row):
            continue
        label = " ".join(c for c in row if re.search(r"[A-Za-z]{3}", c)) or "policy"
        for i in cols:
            if i >= len(row):
                continue
            m = re.match(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(ns|µs|μs|us|ms|s)?\b", row[i].replace(",", ""))
            if not m:
                continue
            unit = m.group(2) or next((u for u in units if re.search(r"\(%s\)|\b%s\b" % (u, u), header[i])), None)
            if unit:
                found.append((float(m.group(1)) * units[unit], label))
                break
    found.sort(key=lambda f: "webkit" not in f[1].lower())
    return found


def machine_info(output=None):
    info = {}
    try:
        with open("/proc/cpuinfo") as f:
            info["cpu"] = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "?")
    except OSError:
        info["cpu"] = "?"
    info["cores"] = os.cpu_count()
    try:
        with open("/proc/meminfo") as f:
            kb = int(next(l for l in f if l.startswith("MemTotal")).split()[1])
        info["memory"] = "%.1f GiB" % (kb / 1024 / 1024)
    except (OSError, StopIteration, ValueError):
        info["memory"] = "?"
    info["kernel"] = os.uname().release

    def out(*argv):
        try:
            return subprocess.run(argv, capture_output=True, text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.TimeoutExpired):
            return ""
    info["webkitgtk"] = out("pkg-config", "--modversion", "webkit2gtk-4.1") or "?"
    try:
        with open("/etc/debian_version") as f:
            info["os"] = "Debian " + f.read().strip()
    except OSError:
        info["os"] = os.uname().sysname
    info["swift"] = (out("swift", "--version").splitlines() or ["?"])[0]
    info["commit"] = out("git", "-C", REPO, "rev-parse", "--short", "HEAD") or "?"
    # The report being rewritten does not make the checkout dirty.
    exclude = [":(exclude)%s" % os.path.relpath(os.path.abspath(output), REPO)] if output else []
    if out("git", "-C", REPO, "status", "--porcelain", "--untracked-files=no", "--", ".", *exclude):
        info["commit"] += " (with uncommitted changes)"
    with open("/proc/loadavg") as f:
        info["loadavg"] = " ".join(f.read().split()[:3])
    return info


def policy_section(meta):
    """The report's section on `policy-bench`: its table and the decision-time target."""
    out = ["## Policy decisions and filter compilation (`policy-bench`)", ""]
    text, rc = meta.get("policy_text", ""), meta.get("policy_rc")
    if rc not in (None, 0):
        out += ["`policy-bench` exited with status %s." % rc, ""]
    if not text.strip():
        out += ["`policy-bench` printed nothing.", ""]
    elif "|" in text:
        out += [text.rstrip(), ""]
    else:
        out += ["`policy-bench` printed no table; its output:", "", "```", text.rstrip(), "```", ""]
    medians = policy_medians(text)
    if not medians:
        out += ["Target: median decision ≤ 1 µs at 100,000 filters — **not determined** (no median decision time "
                "for 100,000 filters found in the output above).", ""]
    else:
        (ns, label), others = medians[0], medians[1:]
        out += ["Target: median decision ≤ 1 µs at 100,000 filters — %.3f µs (%s): %s.%s" % (
            ns / 1000, label, "met" if ns <= 1000 else "**missed**",
            "".join(" Beside it: %.3f µs (%s)." % (o / 1000, ol) for o, ol in others)), ""]
    return out


def acceptance_section(path):
    """The newest acceptance run from `path` (docs/benchmarks-peers.md: newest first, one `## ` section
    a run, written after each run of ../shared/bench/peers.sh), its headings one level down, under a
    heading that says where it comes from; [] without a file or a section. The acceptance run is
    the issue's figure, made with the shared harness and every peer, not by this script."""
    if not path or not os.path.isfile(path):
        return []
    lines, section = open(path, encoding="utf-8").read().splitlines(), []
    for line in lines:
        if line.startswith("## "):
            if section:
                break
            section.append("###" + line[2:])
        elif section:
            section.append("#" + line if line.startswith("#") else line)
    if not section:
        return []
    while section and not section[-1].strip():
        section.pop()
    return ["## The newest acceptance run (`../shared/bench/peers.sh`, every peer installed)", "",
            "Copied from `%s`, which has every acceptance run, newest first, with its full tables; made "
            "with the shared harness, not by this script." % os.path.relpath(path, REPO), ""] + section + [""]


def report(opts, browsers, results, meta):
    metrics = [(k, t.format(idle="%g" % opts.idle, hops=opts.hops), d, sc) for k, t, d, sc in METRICS]
    details = [(k, t.format(idle="%g" % opts.idle, hops=opts.hops), d, sc) for k, t, d, sc in DETAILS]
    measured = [b for b in browsers if not b.note]
    ok = lambda r: not r["error"] and r.get("label") != "warm-up"  # noqa: E731
    timed = [r for r in results if ok(r)]
    out = ["# Benchmarks", "",
           "Generated by `make bench` (`bench/run.py`, see `bench/README.md`); do not edit by hand. "
           "The acceptance run (`../shared/bench/peers.sh`, every peer installed) is in "
           "`docs/benchmarks-peers.md`, the one-core, 1G profile (`make bench-small`) in "
           "`docs/benchmarks-small.md`.", "",
           "- Date: %s" % meta["date"],
           "- Command: `%s`" % meta["command"],
           "- Machine: %s, %d cores, %s RAM; kernel %s; %s" % (meta["machine"]["cpu"], meta["machine"]["cores"],
                                                            meta["machine"]["memory"], meta["machine"]["kernel"],
                                                            meta["machine"]["os"]),
           "- WebKitGTK %s; %s; Porthole at %s" % (meta["machine"]["webkitgtk"], meta["machine"]["swift"],
                                                  meta["machine"]["commit"]),
           "- Rounds: %d%s, interleaved (each round: every browser on the typical page, then every browser on "
           "the navigation chain; the browsers' order turned by one each round), after %d warm-up "
           "launch(es) of each browser; load average at start %s"
           % (opts.rounds, " (quick mode)" if opts.quick else "", opts.warmup, meta["machine"]["loadavg"])]
    if opts.profile:
        out.append("- Machine profile: %s (every process of the run: Xvfb, the bus, the browser)" % opts.profile)
    out.append("")
    busy = [r for r in results if r.get("busy_before") is not None and r["busy_before"] > opts.quiet]
    if busy:
        out += ["**Warning:** %d of %d runs started while other work kept more than %d%% of the CPUs busy (after "
                "waiting up to %g s, 120 s in all, for it to stop): those figures include contention." % (
                    len(busy), len(results), round(opts.quiet * 100), opts.quiet_wait), ""]
    if meta.get("foreign"):
        out += ["**Warning:** processes this harness did not start were running (they share library pages "
                "with the measured browsers, lowering PSS, and compete for the CPU): %s" % "; ".join(meta["foreign"]),
                ""]
    out += acceptance_section(opts.acceptance)
    out += ["## Browsers", "",
            "Median (min–max) of %d rounds. PSS and CPU are summed over the browser's processes (the UI process, "
            "WebKitWebProcess, WebKitNetworkProcess, …); D-Bus services the browser activated are not included "
            "(see *Processes*)." % opts.rounds, "",
            "| browser | " + " | ".join(m[1] for m in metrics) + " |",
            "|---|" + "---:|" * len(metrics)]
    for b in browsers:
        if b.note:
            out.append("| %s | %s |" % (b.name, " | ".join([b.note] + ["–"] * (len(metrics) - 1))))
            continue
        cells = []
        for key, _, digits, scenario in metrics:
            n_ok = len(samples(timed, b.name, key, scenario))
            n_all = len([r for r in results if r["browser"] == b.name and r["scenario"] == scenario
                         and r.get("label") != "warm-up"])
            cell = fmt(stats(samples(timed, b.name, key, scenario)), digits)
            if n_ok < n_all:
                cell += " [%d of %d failed]" % (n_all - n_ok, n_all)
            cells.append(cell)
        out.append("| %s | %s |" % (b.name, " | ".join(cells)))
    out.append("")
    for b in browsers:
        if b.command_note:
            out.append("- %s: %s" % (b.name, b.command_note))
            if b.name.startswith("Porthole") and not b.note:
                out.append("  " + extension_note(timed, b.name))
    out += ["", "Details (medians; the typical page, but for the chain's hop and PSS):", "",
            "| browser | " + " | ".join(d[1] for d in details) + " |", "|---|" + "---:|" * len(details)]
    for b in measured:
        out.append("| %s | %s |" % (b.name, " | ".join(
            "%.*f" % (digits, stats(samples(timed, b.name, key, sc))[0]) if samples(timed, b.name, key, sc) else "–"
            for key, _, digits, sc in details)))
    out.append("")
    out += ["CPU from the start to the typical page's onload, by process (ms; median (min–max)): each process's "
            "CPU time read from `/proc/PID/task/TID/schedstat` when the page has reported (the X server's "
            "from the browser's start; a helper that has already exited is not counted).", "",
            "| browser | " + " | ".join(c[1] for c in CHAIN_CPU) + " |", "|---|" + "---:|" * len(CHAIN_CPU)]
    for b in measured:
        out.append("| %s | %s |" % (b.name, " | ".join(fmt(stats(samples(timed, b.name, key.replace("hop_cpu", "onload_cpu"), "typical")), 1)
                                                       for key, _ in CHAIN_CPU)))
    out.append("")
    out += ["When the browser's processes started, the typical page (ms from the started process's start; median "
            "(min–max)): the first start among the processes of each kind alive when the page has reported, from "
            "`/proc/PID/stat` start times, which count 10 ms ticks (a helper that has already exited is not seen). "
            "Where WebKit sandboxes the web process, bubblewrap and xdg-dbus-proxy start between the network "
            "process and the web process; *–*: no such process.", "",
            "| browser | " + " | ".join(c[1] for c in PROCESS_STARTS) + " |", "|---|" + "---:|" * len(PROCESS_STARTS)]
    for b in measured:
        out.append("| %s | %s |" % (b.name, " | ".join(fmt(stats(samples(timed, b.name, key, "typical")), 0)
                                                       for key, _ in PROCESS_STARTS)))
    out.append("")
    out += ["CPU a hop of the %d-hop chain, by process (ms; median (min–max)): CPU time between page 0's report "
            "and page %d's, read from `/proc/PID/task/TID/schedstat`, divided by the hops." % (opts.hops, opts.hops), "",
            "| browser | " + " | ".join(c[1] for c in CHAIN_CPU) + " |", "|---|" + "---:|" * len(CHAIN_CPU)]
    for b in measured:
        out.append("| %s | %s |" % (b.name, " | ".join(fmt(stats(samples(timed, b.name, key, "nav")), 2)
                                                       for key, _ in CHAIN_CPU)))
    out.append("")

    # Targets: Porthole against the floor of the same run.
    out += ["## Targets: Porthole against the engine floor (same run)", "",
            "Median (min–max); *rounds*: Porthole's and the floor's runs with a sample.", "",
            "| measure | Porthole | floor | Porthole / floor | target | result | rounds |",
            "|---|---:|---:|---:|---|---|---:|"]
    have = {b.name for b in measured}
    columns = {key: (title, digits, scenario) for key, title, digits, scenario in metrics + details}
    verdicts = target_verdicts(timed, have, columns)
    meta["targets"] = [{"measure": r[0], "porthole": r[1], "floor": r[2], "distance": r[3], "target": r[4],
                        "verdict": r[5].replace("*", ""), "met": r[6]} for r in verdicts]
    out += verdict_lines(verdicts)
    met = [row for row in verdicts if row[6]]
    missed = [row[0] for row in verdicts if row[6] is False]
    out += ["", "Targets met: %d of %d.%s" % (len(met), len(verdicts),
                                               " Missed: %s." % "; ".join(missed) if missed else ""), ""]
    if SANDBOXED_FLOOR in have:
        startup = [t for t in TARGETS if t[0] in STARTUP_KEYS]
        rows = target_verdicts(timed, have, columns, floor=SANDBOXED_FLOOR, targets=startup)
        meta["sandboxed_floor"] = verdict_summary(rows)
        out += ["### Start-up against the floor with its pages in WebKit's sandbox (same run)", "",
                "Porthole runs its pages' web processes in WebKitGTK's bubblewrap sandbox (`[Browser] "
                "sandbox=auto`); the floor does not. *%s* is the floor with "
                "`webkit_web_context_set_sandbox_enabled`: what WebKit's own launcher costs a sandboxed "
                "browser (bubblewrap, xdg-dbus-proxy for the accessibility bus), before any browser code." %
                SANDBOXED_FLOOR, "",
                "| measure | Porthole | %s | Porthole / it | target | result | rounds |" % SANDBOXED_FLOOR,
                "|---|---:|---:|---:|---|---|---:|"] + verdict_lines(rows) + [""]
    if UNSANDBOXED_PORTHOLE in have or CHROME_FLOOR in have:
        out += where_the_floor_is(timed, have, columns, meta)
    if not meta.get("config"):
        out += ["Porthole was launched **without** `--config` (its `--help` does not list the option yet), so "
                "its site policy was not on in this run.", ""]

    if meta.get("reset"):
        out += resets.report(meta["reset"])
        meta["reset_target"] = {"measure": "reset → home page painted", "target": "≤ %d ms" % resets.TARGET_MS,
                                "verdict": meta["reset"]["verdict"]}

    # Policy (not in a run given no policy-bench output, such as `make bench-small`).
    if meta.get("policy_measured", True):
        out += policy_section(meta)

    # Speech.
    speech = meta.get("speech_text")
    if speech is not None:
        out += ["## Speech: from the speech key to the first audio (`speech-bench`)", "",
                "From the key's `SpeechSession.handle(.toggle)` on the main thread, through `SpeechEngine` to its "
                "engine thread, to espeak-ng's first buffer of samples, in process (what the playback output hands the "
                "sound server first; the sound server's own buffer comes on top). \"Voice not loaded\": the first "
                "utterance in that voice after another language's, its dictionary evicted from the disk cache first. "
                "\"Main thread held\": the key's handling until the utterance was handed over.", ""]
        if "|" in speech:
            out += [speech.rstrip(), ""]
            times = [float(m) for m in re.findall(r"\| ([0-9.]+) ms \| [0-9.]+ ms \| [0-9.]+ ms \| [0-9.]+ ms \|$", speech, re.M)]
            times += [float(m) for m in re.findall(r"first utterance[^:]*: ([0-9.]+) ms to the first samples", speech)]
            if times:
                worst = max(times)
                out += ["Target: speech key to first audio ≤ 300 ms — worst first utterance %.1f ms: %s." % (
                    worst, "met" if worst <= 300 else "**missed**"), ""]
        else:
            out += ["`speech-bench` printed no table; its output:", "", "```", speech.rstrip(), "```", ""]

    # Details.
    fails = [r for r in results if r["error"]]
    if fails:
        out += ["## Failed runs", ""]
        for r in fails:
            why = next((l.strip() for l in r.get("log", "").splitlines()
                        if re.search(r"crash|fatal|segmentation|abort|assert|error:", l, re.I)), None)
            out.append("- %s, %s, %s: %s%s" % (r.get("label"), r["scenario"], r["browser"], r["error"],
                                              "; its log says: `%s`" % why[:200].replace("`", "'") if why else ""))
        out.append("")
    leftovers = [r for r in results if r.get("leftovers")]
    if leftovers:
        out += ["## Processes that survived the kill (then killed by marker)", ""]
        for r in leftovers:
            out.append("- %s, %s: %s" % (r["scenario"], r["browser"], ", ".join(r["leftovers"])))
        out.append("")
    out += ["## Processes", "", "Counted in one typical-page run of each browser (the median-PSS run): PSS 1 s after "
            "onload and CPU in the 5 s idle window. *dbus*: a service activated on the run's private bus, "
            "reported apart.", ""]
    for b in measured:
        runs = sorted([r for r in timed if r["browser"] == b.name and "pss_mb" in r], key=lambda r: r["pss_mb"])
        if not runs:
            continue
        r = runs[len(runs) // 2]
        agg = collections.OrderedDict()
        for p in r["processes"]:
            a = agg.setdefault((p["comm"], p["kind"]), [0, 0, 0.0])
            a[0] += 1
            a[1] += p["pss_kb"]
            a[2] += p.get("idle_cpu_s") or 0.0
        parts = ["%s%s %.1f MB, %.2f s%s" % (comm, " ×%d" % n if n > 1 else "", kb / 1024, cpu,
                                            " (dbus)" if kind == "service" else "")
                 for (comm, kind), (n, kb, cpu) in agg.items()]
        out.append("- %s: %s" % (b.name, "; ".join(parts)))
    out += ["", "## Method", "",
            "Each run: a fresh Xvfb (%s, `-displayfd`, no window manager), a private D-Bus session bus, fresh "
            "`HOME` and XDG directories, `NO_AT_BRIDGE=1`, the browser in its own session (`setsid`). "
            "The harness serves the pages from 127.0.0.1 (one write per response, `TCP_NODELAY`, "
            "`Cache-Control: max-age=3600`, a per-run URL prefix) and times request arrivals from just before "
            "the process starts. The typical page: %s. *start → onload*: arrival of the page's "
            "`fetch('done')` from its onload handler. *PSS*: `/proc/PID/smaps_rollup`, %g s after onload. "
            "*CPU in idle*: growth of utime+stime+cutime+cstime (`/proc/PID/stat`, %d ticks per second) over "
            "the %g s after the PSS sample. *Navigation chain*: %d same-origin link clicks, each page's onload "
            "clicking the link to the next; from page 0's report to page %d's. *CPU a hop*: each process's CPU "
            "time (its live threads' `schedstat`) from when the harness reads it after page 0's report to page %d's "
            "report, divided by the hops; a process started in the chain counts whole, a thread that ended in it "
            "not at all; the X server is the run's Xvfb. After measuring, the browser's "
            "session is killed (SIGTERM, then SIGKILL after %g s) and the run is checked for leftovers. "
            "Targets compare medians of the same run."
            % (SCREEN, meta["page_sizes"], opts.settle, CLK_TCK, opts.idle, opts.hops, opts.hops, opts.hops, opts.term_wait),
            ""]
    return "\n".join(out)


# ----------------------------------------------------------------------------------------- main

def enter_network_namespace():
    """Re-executes inside a private network namespace holding only loopback, so no browser can
    reach past 127.0.0.1 and a failed lookup fails at once. False when not permitted here."""
    if os.environ.get("PORTHOLE_BENCH_NETNS") == "1":
        return subprocess.run(["ip", "link", "set", "lo", "up"], capture_output=True).returncode == 0 or \
            subprocess.run(["ifconfig", "lo", "up"], capture_output=True).returncode == 0
    if not shutil.which("unshare") or subprocess.run(["unshare", "--net", "true"], capture_output=True).returncode:
        log("no private network namespace (unshare --net not permitted); browsers can reach the network")
        return False
    env = dict(os.environ, PORTHOLE_BENCH_NETNS="1")
    os.execvpe("unshare", ["unshare", "--net", "--", sys.executable, os.path.abspath(__file__)] + sys.argv[1:], env)


def main():
    env_rounds = os.environ.get("BENCH_ROUNDS", "").strip()
    env_quick = os.environ.get("BENCH_QUICK", "").strip() not in ("", "0")
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--porthole", default=os.path.join(REPO, ".build/release/porthole"))
    ap.add_argument("--floor", default=os.path.join(REPO, ".build/bench/floor"))
    ap.add_argument("--config", default=os.path.join(HERE, "bench.conf"), help="passed to Porthole as --config")
    ap.add_argument("--sandboxed-floor", metavar="FLOOR_VARIANTS",
                    help="bench/floor/floor-variants, run with FLOOR_SANDBOX=1 as a second reference")
    ap.add_argument("--chrome-floor", metavar="FLOOR_VARIANTS",
                    help="bench/floor/floor-variants, run with FLOOR_CHROME=1 FLOOR_SANDBOX=1 as '%s': the sandboxed "
                         "floor in Porthole's window, built with GTK alone" % CHROME_FLOOR)
    ap.add_argument("--unsandboxed-config", metavar="FILE",
                    help="also run Porthole with this configuration (bench.conf plus `[Browser] sandbox=false`) as "
                         "'%s', and report WebKit's sandbox and Porthole's own code apart" % UNSANDBOXED_PORTHOLE)
    ap.add_argument("--profile", default=None,
                    help="the machine profile the run is confined to, shown in the report (bench/small-machine.sh)")
    ap.add_argument("--policy", metavar="FILE", help="policy-bench's --markdown output")
    ap.add_argument("--policy-output", metavar="FILE", help="policy-bench's stdout (used when FILE is empty)")
    ap.add_argument("--policy-rc", type=int, help="policy-bench's exit status")
    ap.add_argument("--speech", metavar="FILE", help="speech-bench's --markdown output")
    ap.add_argument("--peers", default="all", help="'all', 'none' or a comma list of peer names")
    ap.add_argument("--peer", action="append", default=[], metavar="NAME=ARGV0",
                    help="an extra peer launched as `ARGV0 URL` (the self-test uses it); NAME may contain =, ARGV0 not")
    ap.add_argument("--rounds", type=int, default=int(env_rounds) if env_rounds else None,
                    help="rounds (default: $BENCH_ROUNDS, else 7; 3 in quick mode)")
    ap.add_argument("--quick", action="store_true", default=env_quick,
                    help="smoke run ($BENCH_QUICK=1): 3 rounds, no peers but MiniBrowser")
    ap.add_argument("--warmup", type=int, default=1, help="untimed launches of each browser first (tiny page)")
    ap.add_argument("--settle", type=float, default=1.0, help="seconds from onload to the PSS sample")
    ap.add_argument("--idle", type=float, default=5.0, help="seconds of the idle-CPU window")
    ap.add_argument("--quiet", type=float, default=0.15,
                    help="before each run, wait until less than this fraction of the CPUs is busy (default 0.15)")
    ap.add_argument("--quiet-wait", type=float, default=10.0,
                    help="give up waiting for a quiet machine after this many seconds (default 10, at most 120 "
                         "in all; 0: don't wait)")
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--term-wait", type=float, default=3.0)
    ap.add_argument("--pages", default=os.path.join(tempfile.gettempdir(), "porthole-bench-pages"))
    ap.add_argument("--out", metavar="FILE", help="write the Markdown report here (docs/benchmarks.md)")
    ap.add_argument("--json", metavar="FILE", help="write every sample here")
    ap.add_argument("--acceptance", metavar="FILE",
                    help="docs/benchmarks-peers.md: its newest acceptance run is copied into the report")
    ap.add_argument("--command", default=None, help="the command shown in the report (default: this one)")
    ap.add_argument("--hops", type=int, default=NAV_HOPS,
                    help="links in the navigation chain (default %d; e.g. 1000 to see what a long session "
                         "leaves behind)" % NAV_HOPS)
    ap.add_argument("--scenarios", default="typical,nav",
                    help="which scenarios each round runs: 'typical,nav' (default), 'typical' or 'nav'")
    ap.add_argument("--portal", action="store_true",
                    help="also run Porthole and the floor with xdg-desktop-portal already running on the run's bus, "
                         "as on a desktop (reported as extra rows)")
    ap.add_argument("--reset-rounds", type=int, default=0, metavar="N",
                    help="also run the kiosk reset scenario (bench/resets.py): N idle resets of one Porthole kiosk "
                         "(default 0: not run; make bench: 9, 3 in quick mode)")
    ap.add_argument("--no-netns", action="store_true", help="do not run in a private network namespace")
    opts = ap.parse_args()
    if opts.rounds is None:
        opts.rounds = 3 if opts.quick else 7
    if opts.rounds < 1:
        ap.error("--rounds must be at least 1")
    if opts.hops < 1:
        ap.error("--hops must be at least 1")
    scenarios = [sc.strip() for sc in opts.scenarios.split(",") if sc.strip()]
    if not scenarios or any(sc not in ("typical", "nav") for sc in scenarios):
        ap.error("--scenarios takes 'typical', 'nav' or both")

    netns = False if opts.no_netns else enter_network_namespace()
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.default_int_handler)   # tear the current run down as on Ctrl-C
    if not become_subreaper():
        log("warning: not a child subreaper; double-forked helpers are found by session only")
    for tool in ("Xvfb", "dbus-daemon"):
        if not shutil.which(tool):
            sys.exit("error: %s not found (apt-get install xvfb dbus-daemon)" % tool)

    # Browsers: Porthole, the floor, then the peers.
    porthole = Browser("Porthole", [os.path.abspath(opts.porthole), "{url}"])
    config = False
    if porthole.resolve():
        if porthole_accepts_config(porthole.argv[0]):
            config = True
            porthole.argv = [porthole.argv[0], "--config", os.path.abspath(opts.config), "{url}"]
            porthole.command_note = "launched as `porthole --config bench/bench.conf URL` (site policy on)."
        else:
            porthole.command_note = ("launched as `porthole URL`: this build's `--help` does not list `--config`, "
                                     "so the site policy was not on.")
        porthole.note = None
    else:
        porthole.note = "not built (%s missing)" % opts.porthole
    floor = Browser("floor", [os.path.abspath(opts.floor), "{url}"])
    if not floor.resolve():
        floor.note = "not built (%s missing)" % opts.floor
    floor.command_note = "`bench/floor/floor.c`: one GtkWindow (1024×700, Porthole's default size) with one " \
                         "WebKitWebView."
    browsers = [porthole, floor]
    if opts.sandboxed_floor:
        sandboxed = Browser(SANDBOXED_FLOOR, [os.path.abspath(opts.sandboxed_floor), "{url}"], env={"FLOOR_SANDBOX": "1"})
        if not sandboxed.resolve():
            sandboxed.note = "not built (%s missing)" % opts.sandboxed_floor
        sandboxed.command_note = "`bench/floor/floor-variants.c` with `FLOOR_SANDBOX=1`: the floor with its web " \
                                 "processes in WebKit's bubblewrap sandbox."
        browsers.append(sandboxed)
    if opts.chrome_floor:
        chrome = Browser(CHROME_FLOOR, [os.path.abspath(opts.chrome_floor), "{url}"],
                         env={"FLOOR_CHROME": "1", "FLOOR_SANDBOX": "1"})
        if not chrome.resolve():
            chrome.note = "not built (%s missing)" % opts.chrome_floor
        chrome.command_note = "`bench/floor/floor-variants.c` with `FLOOR_CHROME=1 FLOOR_SANDBOX=1`: the sandboxed " \
                              "floor in Porthole's desk window (header bar, menus, bottom bar, icons, accessible " \
                              "names) built with GTK alone, none of Porthole's code."
        browsers.append(chrome)
    if opts.unsandboxed_config and config:
        unsandboxed = Browser(UNSANDBOXED_PORTHOLE, [porthole.argv[0], "--config",
                                                     os.path.abspath(opts.unsandboxed_config), "{url}"])
        unsandboxed.resolve()
        if not os.path.isfile(opts.unsandboxed_config):
            unsandboxed.note = "not run (%s missing)" % opts.unsandboxed_config
        unsandboxed.command_note = ("launched as `porthole --config %s URL`: bench/bench.conf with `[Browser] "
                                    "sandbox=false` (a measurement only: its web processes outside WebKit's "
                                    "sandbox)." % os.path.relpath(opts.unsandboxed_config, REPO))
        browsers.append(unsandboxed)
    if opts.portal:
        have_portal = os.path.exists("/usr/share/dbus-1/services/org.freedesktop.portal.Desktop.service")
        for b in (porthole, floor):
            twin = Browser(b.name + ", portal running", list(b.argv), portal=True,
                           note=b.note or (None if have_portal else "skipped (xdg-desktop-portal not installed)"))
            twin.command_note = "as %s, with xdg-desktop-portal started on the session bus before it." % b.name
            browsers.append(twin)
    wanted = None if opts.peers == "all" else set() if opts.peers == "none" else \
        {p.strip() for p in opts.peers.split(",")}
    for name, argv, setup in PEERS:
        if wanted is not None and name not in wanted and name.split()[0] not in wanted:
            continue
        b = Browser(name, argv, setup)
        if b.resolve() and opts.quick and name != "MiniBrowser":
            b.note = "skipped (quick mode)"
        browsers.append(b)
    for spec in opts.peer:
        name, _, exe = spec.rpartition("=")
        b = Browser(name, [exe, "{url}"])
        b.resolve()
        browsers.append(b)
    measured = [b for b in browsers if not b.note]
    for b in browsers:
        log("%-20s %s" % (b.name, b.note or " ".join(b.argv)))

    root = pages.generate(os.path.abspath(opts.pages), opts.hops)
    text, imgs, count = pages.sizes(root)
    server = Server(root)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    log("serving %s on http://127.0.0.1:%d/ (private network namespace: %s)"
        % (root, server.server_address[1], "yes" if netns else "no"))

    command = opts.command or " ".join([os.path.relpath(sys.argv[0])] + sys.argv[1:])
    meta = {"date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M %Z").strip(), "command": command,
            "machine": machine_info(opts.out), "config": config, "netns": netns, "foreign": [],
            "page_sizes": "%d bytes of HTML, CSS and JS in 4 files and %d PNG images of %d bytes" % (text, count, imgs)}
    if opts.speech:
        try:
            with open(opts.speech) as f:
                meta["speech_text"] = f.read()
        except OSError as error:
            meta["speech_text"] = str(error)
    if opts.policy or opts.policy_output:
        texts = []
        for path in (opts.policy, opts.policy_output):
            try:
                with open(path) as f:
                    texts.append(f.read())
            except (OSError, TypeError):
                texts.append("")
        meta["policy_text"] = texts[0] if texts[0].strip() else texts[1]
        meta["policy_rc"] = opts.policy_rc
    else:
        meta["policy_text"] = ""
        meta["policy_measured"] = False

    def check_foreign(when):
        found = foreign_engines()
        if found:
            log("WARNING (%s): processes not started here share pages and CPU: %s" % (when, " ".join(found)))
            meta["foreign"].append("%s: %s" % (when, " ".join(found)))

    results = []

    waited = [0.0]                      # the total wait for a quiet machine is capped at 2 minutes

    def one(b, scenario, label):
        busy = None
        if opts.quiet_wait > 0:
            t = time.monotonic()
            busy = wait_for_quiet(opts.quiet, min(opts.quiet_wait, max(0.0, 120.0 - waited[0])))
            waited[0] += time.monotonic() - t
        r = run_once(opts, server, b, scenario)
        r["label"] = label
        r["busy_before"] = busy
        results.append(r)
        if r["error"]:
            log("%-8s %-8s %-20s FAILED: %s" % (label, scenario, b.name, r["error"]))
        else:
            extra = " ".join("%s=%.*f" % (k, d, r[k]) for k, _, d, _ in METRICS if k in r)
            log("%-8s %-8s %-20s %s%s" % (label, scenario, b.name, extra,
                                          "  not found: %s" % r["not_found"] if r.get("not_found") else ""))
        if r.get("leftovers"):
            log("  leftovers (killed): %s" % r["leftovers"])

    started = time.monotonic()
    try:
        check_foreign("start")
        for _ in range(opts.warmup):
            for b in measured:
                one(b, "tiny", "warm-up")
        for n in range(1, opts.rounds + 1):
            if n > 1:
                check_foreign("round %d" % n)
            # Turned by one each round, so that no browser always starts right after the same run
            # (the one before it may still be freeing its memory) or always first in a scenario's
            # group. With a fixed order the one-core profile had Porthole, always first, at 1.13x
            # the sandboxed floor on the chain's start page and 0.90x on the typical page of the
            # same rounds; turned, the next run had 1.04x and 1.12x: spread, not order, but no
            # browser is now the one that pays for an order (7 December).
            turn = (n - 1) % len(measured)
            for scenario in scenarios:
                for b in measured[turn:] + measured[:turn]:
                    one(b, scenario, "round %d" % n)
        if opts.reset_rounds > 0 and not porthole.note:
            if opts.quiet_wait > 0:
                wait_for_quiet(opts.quiet, min(opts.quiet_wait, max(0.0, 120.0 - waited[0])))
            meta["reset"] = resets.measure(sys.modules[__name__], porthole.argv[0], opts.reset_rounds,
                                           timeout=opts.timeout, log=log)
    except KeyboardInterrupt:
        log("interrupted: reporting the runs so far")
        meta["interrupted"] = True
    server.shutdown()
    meta["duration_s"] = round(time.monotonic() - started)
    md = report(opts, browsers, results, meta)
    print(md)
    if meta.get("reset_target"):
        t = meta["reset_target"]
        log("target %s %s: %s" % (t["measure"], t["target"], t["verdict"]))
    for t in meta.get("targets", []):
        log("target %s: Porthole %s, floor %s (%s; %s): %s" % (t["measure"], t["porthole"], t["floor"], t["distance"],
                                                              t["target"], t["verdict"]))
    if opts.out:
        with open(opts.out, "w") as f:
            f.write(md + "\n")
        log("wrote %s" % opts.out)
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump({"meta": meta, "options": vars(opts), "results": results}, f, indent=1)
        log("wrote %s" % opts.json)
    log("benchmark took %d s" % meta["duration_s"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
