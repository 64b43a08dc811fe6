#!/usr/bin/env python3
"""startpath: where a WebKitGTK browser's start-up time goes, step by step, up to its first request.

Runs each browser N times (interleaved rounds; each start in a session as `make bench` gives its
runs, from run.py: a fresh Xvfb and bus, its own home and runtime directory, NO_AT_BRIDGE=1)
under `perf record` with uprobes on exported functions of GTK, EGL and WebKitGTK (and,
with --extension, on a web process extension's entry point), plus the kernel's exec events. run.py's
HTTP server on 127.0.0.1 stamps the first request. Every time is CLOCK_MONOTONIC in ms
from just before the browser is started. The report gives each step's median (min-max) per
browser: what the UI process does before WebKit's network process starts, between it and the
first load, how long WebKit takes from that load to exec'ing the web process (direct, or through
its sandbox's bubblewrap -> xdg-dbus-proxy -> bubblewrap chain), and what the web process does
before it asks for the page (dynamic loading, the extension, EGL's driver, the rest).

Needs root (uprobes), perf, Xvfb and dbus-daemon. Probes are added in the group `startpath` and
removed at exit. Not part of `make test` or `make bench`: docs/performance-choices.md says what
its figures showed.

  sudo python3 bench/startpath.py --rounds 7 \\
      --browser floor='.build/bench/floor {url}' \\
      --browser floor-sandboxed='FLOOR_SANDBOX=1 .build/bench/floor-variants {url}' \\
      --browser porthole='porthole --config bench/bench.conf {url}' \\
      --extension /usr/local/lib/porthole/web-extensions/libPortholeWebExtension.so
"""
import argparse
import glob
import os
import re
import secrets
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the harness's session, process tracking, server and statistics)

GROUP = "startpath"

# (event name, library soname, function, return probe too)
PROBES = [
    ("gtk_init", "libgtk-3.so.0", "gtk_init_check", False),
    ("egl_init", "libEGL.so.1", "eglInitialize", True),
    ("load_uri", "libwebkit2gtk-4.1.so.0", "webkit_web_view_load_uri", False),
]
EXTENSION_ENTRIES = ["webkit_web_extension_initialize_with_user_data", "webkit_web_extension_initialize"]

PAGE = b"<!doctype html><title>start</title><p>start</p>"

# The steps of the report: (label, from milestone, to milestone). Milestones are keys of
# `milestones()`; "start" is 0.
STEPS = [
    ("start -> GTK's start (UI: gtk_init_check entered)", "start", "ui_gtk_init"),
    ("GTK's start -> WebKit's GL set-up starts (UI: GTK's init, then its first eglInitialize)", "ui_gtk_init", "ui_egl"),
    ("GL set-up -> network process exec", "ui_egl", "network"),
    ("network process exec -> first load_uri (UI: window, chrome)", "network", "load_uri"),
    ("load_uri -> web process exec (WebKit's launch; sandbox chain)", "load_uri", "web"),
    ("  of which load_uri -> xdg-dbus-proxy exec", "load_uri", "proxy"),
    ("  of which xdg-dbus-proxy exec -> web process exec", "proxy", "web"),
    ("web process exec -> its gtk_init_check (dynamic loading, then main)", "web", "web_main"),
    ("its gtk_init_check -> EGL starts (extension, GIO modules)", "web_main", "web_egl"),
    ("  of which its gtk_init_check -> extension entry", "web_main", "web_extension"),
    ("EGL initialise in the web process (GL driver load)", "web_egl", "web_egl_end"),
    ("EGL done -> first request", "web_egl_end", "first_request"),
    ("web process exec -> first request", "web", "first_request"),
    ("start -> first request", "start", "first_request"),
]


def fail(message):
    print("startpath: " + message, file=sys.stderr)
    sys.exit(2)


def library_path(soname):
    """The real path of `soname` as the dynamic loader finds it (ldconfig's cache)."""
    out = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
    for line in out.splitlines():
        name, arrow, path = line.strip().partition(" => ")
        if arrow and name.split()[0] == soname:
            return os.path.realpath(path)
    hits = glob.glob("/usr/lib/*/" + soname) + glob.glob("/usr/lib/" + soname)
    return os.path.realpath(hits[0]) if hits else None


def perf_probe(args):
    return subprocess.run(["perf", "probe", "-q"] + args, capture_output=True, text=True)


def add_probes(extension):
    remove_probes()
    for name, soname, function, with_return in PROBES:
        path = library_path(soname)
        if not path:
            fail(f"{soname} not found (ldconfig -p): is WebKitGTK installed?")
        # A return probe's event is the name with "__return" appended (perf's naming).
        for spec in [function] + ([function + "%return"] if with_return else []):
            result = perf_probe(["-x", path, "-a", f"{GROUP}:{name}={spec}"])
            if result.returncode != 0:
                fail(f"perf probe on {function} in {path} failed: {result.stderr.strip()}")
    if extension:
        if not os.path.exists(extension):
            fail(f"--extension {extension}: no such file")
        if not any(perf_probe(["-x", os.path.realpath(extension), "-a", f"{GROUP}:extension={entry}"]).returncode == 0
                   for entry in EXTENSION_ENTRIES):
            fail(f"--extension {extension}: it exports neither of {', '.join(EXTENSION_ENTRIES)}")


def remove_probes():
    perf_probe(["-d", f"{GROUP}:*"])


def wait_for_window_manager(env, deadline):
    """Returns once the window manager manages the screen (it has set the EWMH check window on the
    root window, xprop of x11-utils), or at `deadline`."""
    while time.monotonic() < deadline:
        out = subprocess.run(["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], env=env,
                             capture_output=True, text=True).stdout
        if "window id" in out:
            return
        time.sleep(0.02)
    fail("the window manager did not start")


def start_perf(data_file, timeout):
    """`perf record` of the probes and exec events, returned once it records: it starts with its
    events disabled (-D -1) and acknowledges the `enable` sent on its control descriptor. Returns
    (the process, our ends of its control and acknowledgement pipes): they stay open until perf has
    stopped (perf fails its recording when its control descriptor closes under it)."""
    control_read, control_write = os.pipe()
    ack_read, ack_write = os.pipe()
    # Without build ids: collecting them when perf stops took seconds a start.
    perf = subprocess.Popen(["perf", "record", "-q", "-a", "-k", "CLOCK_MONOTONIC", "--no-buildid",
                             "--no-buildid-cache", "-D", "-1", "--control", f"fd:{control_read},{ack_write}",
                             "-e", f"{GROUP}:*", "-e", "sched:sched_process_exec",
                             "-o", data_file, "--", "sleep", str(timeout + 5)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(control_read, ack_write))
    os.close(control_read)
    os.close(ack_write)
    os.write(control_write, b"enable\n")
    ready, _, _ = select.select([ack_read], [], [], timeout)
    if not ready or not os.read(ack_read, 16).startswith(b"ack"):
        perf.kill()
        fail("perf record did not start recording")
    return perf, (control_write, ack_read)


def one_run(command, server, wm, data_file, timeout):
    """Starts `command` once under perf, in a session as `make bench` gives its runs (run.py: a
    fresh Xvfb and bus, its own home and runtime directory, `NO_AT_BRIDGE=1`): returns (its start
    time, the first request's time or None, the started process's pid). Every process the run
    started is gone when it returns."""
    run_id = "startpath-" + secrets.token_hex(5)
    record = run.register_run(server, run_id)
    tmp, dirs = run.run_directories("porthole-startpath-")
    xvfb = bus = window_manager = perf = browser = tracker = None
    perf_pipes = ()
    with open(os.path.join(tmp, "browser.log"), "wb") as logf:
        try:
            env, xvfb, bus = run.start_session(dirs, run_id, logf)
            if wm:
                window_manager = subprocess.Popen("exec " + wm, shell=True, env=env, stdout=logf,
                                                  stderr=subprocess.STDOUT, start_new_session=True)
                wait_for_window_manager(env, time.monotonic() + timeout)
            perf, perf_pipes = start_perf(data_file, timeout)
            url = "http://127.0.0.1:%d/%s/start.html" % (server.server_address[1], run_id)
            t0 = time.monotonic()
            browser = subprocess.Popen("exec env " + command.replace("{url}", url), shell=True, env=env,
                                       stdin=subprocess.DEVNULL, stdout=logf, stderr=subprocess.STDOUT,
                                       start_new_session=True)
            tracker = run.Tracker(browser.pid, [p.pid for p in (xvfb, bus, window_manager, perf) if p], bus.pid, run_id)
            deadline = time.monotonic() + timeout
            while not record.requests and time.monotonic() < deadline:
                time.sleep(0.01)
            with record.lock:
                first = record.requests[0][0] if record.requests else None
            return t0, first, browser.pid
        finally:
            if perf:
                perf.send_signal(signal.SIGINT)
                perf.wait()
            for descriptor in perf_pipes:
                os.close(descriptor)
            run.stop(window_manager)
            run.end_session(tracker, xvfb, bus, browser)
            with server.runs_lock:
                server.runs.pop(run_id, None)
            shutil.rmtree(tmp, ignore_errors=True)


EVENT = re.compile(r"\s*(.+?)\s+(\d+)/(\d+)\s+([\d.]+):\s+(\S+):\s*(.*)")


def events(data_file):
    out = subprocess.run(["perf", "script", "-i", data_file, "-F", "comm,pid,tid,time,event,trace"],
                         capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        match = EVENT.match(line)
        if not match:
            continue
        name = match.group(5).split(":")[-1]
        detail = match.group(6)
        if name == "sched_process_exec":
            found = re.search(r"filename=(\S+)", detail)
            name = "exec " + (os.path.basename(found.group(1)) if found else "?")
        rows.append((float(match.group(4)), int(match.group(2)), name))
    return rows


def milestones(rows, t0, first, ui_pid):
    """Each milestone's time in ms from t0 (absent when it did not happen in the run)."""
    ms = lambda t: (t - t0) * 1000
    rows = [row for row in rows if row[0] >= t0]
    found = {"start": 0.0}
    if first is not None:
        found["first_request"] = ms(first)

    def first_of(name, pid=None, after=None):
        for t, p, n in rows:
            if n == name and (pid is None or p == pid) and (after is None or t >= after):
                return t
        return None

    def put(key, t):
        if t is not None:
            found[key] = ms(t)

    put("ui_gtk_init", first_of("gtk_init", ui_pid))
    put("ui_egl", first_of("egl_init", ui_pid))
    network = first_of("exec WebKitNetworkProcess")
    put("network", network)
    load = first_of("load_uri", ui_pid)
    put("load_uri", load)
    put("proxy", first_of("exec xdg-dbus-proxy", after=load))
    web = next(((t, p) for t, p, n in rows if n == "exec WebKitWebProcess"), None)
    if web:
        put("web", web[0])
        put("web_main", first_of("gtk_init", web[1]))
        put("web_extension", first_of("extension", web[1]))
        put("web_egl", first_of("egl_init", web[1]))
        put("web_egl_end", first_of("egl_init__return", web[1]))
    return found


def describe(values):
    """Median (min–max) in whole ms, as `make bench` reports; rounded first, so no "-0"."""
    return run.fmt(run.stats([round(value) + 0 for value in values]), 0)


def report(names, samples, rounds, command_line):
    lines = [f"Start-up step by step, {rounds} rounds (median, min–max, ms; n = runs with both ends of the step). "
             f"`{command_line}`", "",
             "| step | " + " | ".join(names) + " |",
             "|---|" + "---:|" * len(names)]
    for label, start, end in STEPS:
        cells = []
        for name in names:
            values = [sample[end] - sample[start] for sample in samples[name] if start in sample and end in sample]
            cells.append(describe(values) + (f" n={len(values)}" if values and len(values) != len(samples[name]) else ""))
        if any(cell != "–" for cell in cells):
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--browser", action="append", required=True, metavar="NAME=COMMAND",
                        help="a browser to run: COMMAND is [VARIABLE=value ...] PROGRAM ARGUMENTS, with {url} for the page "
                             "(run with exec env, so the started process is the browser's UI process)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--extension", help="a web process extension whose entry point to probe")
    parser.add_argument("--wm", default="matchbox-window-manager -use_titlebar no -use_cursor no",
                        help="window manager command ('' for none)")
    parser.add_argument("--timeout", type=float, default=20)
    parser.add_argument("--out", help="also write the Markdown report here")
    args = parser.parse_args()
    if os.geteuid() != 0:
        fail("needs root: uprobes and system-wide perf record")
    for tool in ("perf", "Xvfb", "dbus-daemon"):
        if not shutil.which(tool):
            fail(f"{tool} is not installed")
    browsers = []
    for spec in args.browser:
        name, _, command = spec.partition("=")
        if not command or "{url}" not in command:
            fail(f"--browser {spec}: give NAME=COMMAND with {{url}} in COMMAND")
        browsers.append((name, command))
    wm = args.wm if args.wm and shutil.which(args.wm.split()[0]) else None

    run.become_subreaper()  # helpers the browsers double-fork come back to be counted and stopped
    add_probes(args.extension)
    pages = tempfile.mkdtemp(prefix="porthole-startpath-pages-")
    with open(os.path.join(pages, "start.html"), "wb") as page:
        page.write(PAGE)
    server = run.Server(pages)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    samples = {name: [] for name, _ in browsers}
    work = tempfile.mkdtemp(prefix="startpath-data-")
    try:
        for name, command in browsers:  # warm-up: the page cache holds the libraries
            one_run(command, server, wm, os.path.join(work, "warm.data"), args.timeout)
        for round_number in range(1, args.rounds + 1):
            for name, command in browsers:
                data = os.path.join(work, f"{name}-{round_number}.data")
                t0, first, pid = one_run(command, server, wm, data, args.timeout)
                found = milestones(events(data), t0, first, pid)
                samples[name].append(found)
                print(f"round {round_number} {name}: first request "
                      + (f"{found['first_request']:.0f} ms" if "first_request" in found else "none"), file=sys.stderr)
    finally:
        remove_probes()
        server.shutdown()
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(pages, ignore_errors=True)
    text = report([name for name, _ in browsers], samples, args.rounds, "bench/startpath.py " + " ".join(sys.argv[1:]))
    print(text)
    if args.out:
        with open(args.out, "w") as out:
            out.write(text)


if __name__ == "__main__":
    main()
