#!/usr/bin/env python3
"""The order of the browser's functions in its library (issue 26): which of them run, found by
running the browser, written as lld's symbol ordering file (launcher/symbol-order.txt).

    sudo python3 bench/symbolorder.py --library .build/install/release/libPortholeWebExtension.so \\
        --launcher .build/install/launcher/porthole --map .build/install/libPortholeWebExtension.map \\
        --pages .build/bench/pages --out launcher/symbol-order.txt

`make symbol-order` runs it (as root: the web process is wrapped by a bind mount in a private
mount namespace). Why: the library holds the Swift runtime and the browser's code, ~10 MB of
machine code of which a start and a few pages run ~0.6 MB, spread over the whole file. The kernel
maps a library's pages 64 KB at a time around each one touched, so the UI process had 7.6 MB of it
resident and every web process 5.2 MB. Linked with the functions that run placed together (first
those both kinds of process run, then the web process's own, then the UI process's), less of the
file is touched. Nothing here decides what the browser does; a stale list only lays code out less
well (names it does not find are skipped by the linker).

Each scenario runs the browser from a copy of the unstripped library under Xvfb with a window
manager and a private D-Bus bus, its UI process under valgrind's callgrind and (with WebKit's
sandbox off, so that the wrapper runs) the web processes too:

    desk-sandboxed   the site policy of bench/bench.conf, sandboxed as shipped, the typical page:
                     the UI process only
    desk-typical     sandbox off, the typical page: the UI process and the web processes
    desk-nav         sandbox off, the 20-link chain: both
    kiosk            a kiosk (idle-timeout=3), sandboxed, on the typical page, left alone for 20 s
                     (an idle reset): the UI process only; a kiosk takes a web process that slow
                     for a hung one and replaces it

The functions of the library that ran (callgrind's `fn=` records under the library's object) are
named as the linker knows them (callgrind does not demangle), and each is placed by the input
section that holds it (by address, in the link map of the same library). First the functions both
kinds of process ran, then the web processes' own, then the UI process's; within each, those that
more of the profiled processes ran first (what every start runs before what only a kiosk does).
Sections up to 64 KB go in that order, larger ones (the standard library's one 1.5 MB section,
regex, concurrency) after them, so that they do not split the small ones.
"""

import argparse
import bisect
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pages  # noqa: E402
import run as harness  # noqa: E402

WEB_PROCESS = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/WebKitWebProcess"
LIBRARY = "libPortholeWebExtension.so"
SMALL_SECTION = 64 * 1024
# Scenarios whose web processes run under callgrind too (a kiosk takes a web process that slow for
# a hung one and replaces it, so the kiosk's are not).
SCENARIOS = ("desk-sandboxed", "desk-typical", "desk-nav", "kiosk")
WRAPPED = ("desk-typical", "desk-nav")
TIMEOUT = int(os.environ.get("SYMBOLORDER_TIMEOUT", "300"))


def wait(predicate, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def profile(scenario, prefix, server, outdir, logf):
    """Runs one scenario; callgrind writes outdir/<scenario>.<ui|web>.<pid>."""
    run_id = "symbolorder-" + scenario
    page = {"desk-nav": "nav/0.html"}.get(scenario, "typical/index.html")
    url = "http://127.0.0.1:%d/%s/%s" % (server.server_address[1], run_id, page)
    record = harness.register_run(server, run_id)
    tmp, dirs = harness.run_directories("porthole-symbolorder-")
    config = os.path.join(tmp, "porthole.conf")
    with open(config, "w") as f:
        f.write("[Sites]\nBench=%s\n\n[Policy]\nallow=127.0.0.1\n" % url)
        if scenario in WRAPPED:
            f.write("\n[Browser]\nsandbox=false\n")
        if scenario == "kiosk":
            f.write("\n[Kiosk]\nenabled=true\nidle-timeout=3\nidle-warning=0\n")
    wrapper = os.path.join(tmp, "web-process")
    with open(wrapper, "w") as f:
        f.write("#!/bin/sh\nexec valgrind --tool=callgrind --dump-instr=no --demangle=no --callgrind-out-file=%s/%s.web.%%p "
                "%s.real \"$@\"\n" % (outdir, scenario, os.path.join(tmp, "web-process")))
    os.chmod(wrapper, 0o755)
    shutil.copy(WEB_PROCESS, wrapper + ".real")
    env, xvfb, bus = harness.start_session(dirs, run_id, logf)
    wm = proc = None
    try:
        wm = subprocess.Popen(["matchbox-window-manager", "-use_titlebar", "no"], env=env, stdout=logf,
                              stderr=logf)
        ui = ["valgrind", "--tool=callgrind", "--dump-instr=no", "--demangle=no",
              "--callgrind-out-file=%s/%s.ui.%%p" % (outdir, scenario),
              os.path.join(prefix, "bin", "porthole"), "--config", config, url]
        if scenario in WRAPPED:
            # A private mount namespace in which the web process WebKit starts is callgrind's.
            ui = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                  'mount --bind "$0" "$1" && shift && exec "$@"', wrapper, WEB_PROCESS] + ui
        proc = subprocess.Popen(ui, env=env, cwd=dirs["home"], stdin=subprocess.DEVNULL, stdout=logf,
                                stderr=logf, start_new_session=True)
        last = "done2" if scenario == "desk-nav" else "done"
        with record.lock:
            if not record.reported.wait_for(lambda: last in record.reports, TIMEOUT):
                raise RuntimeError("%s: the page did not report within %d s (requests: %s)"
                                   % (scenario, TIMEOUT, [path for _, path, _ in record.requests]))
        # The profile's window: 2 s after the page's report (what a browser does once a page has
        # loaded), or 20 s for the kiosk, left alone past its idle timeout so that it resets.
        time.sleep(20 if scenario == "kiosk" else 2)
    finally:
        if proc:
            os.killpg(proc.pid, 15)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
                proc.wait()
        # callgrind writes a web process's file when it exits
        subprocess.run(["pkill", "-TERM", "-f", "web-process.real"], stderr=subprocess.DEVNULL)
        wait(lambda: subprocess.run(["pgrep", "-f", "web-process.real"], stdout=subprocess.DEVNULL).returncode != 0, 30)
        if wm:
            harness.stop(wm)
        harness.stop(bus)
        harness.stop(xvfb)
        with server.runs_lock:
            server.runs.pop(run_id, None)
        shutil.rmtree(tmp, ignore_errors=True)


def functions_run(files):
    """Names of the library's functions with costs in callgrind output files."""
    names = set()
    record = re.compile(r"^(ob|cob|fn|cfn)=\((\d+)\)(?: (.*))?$")
    for path in files:
        objects, functions, current = {}, {}, None
        with open(path, errors="replace") as f:
            for line in f:
                m = record.match(line.rstrip("\n"))
                if not m:
                    continue
                kind, ident, name = m.groups()
                if kind in ("ob", "cob"):
                    if name is not None:
                        objects[ident] = name
                    if kind == "ob":
                        current = objects.get(ident)
                else:
                    if name is not None:
                        functions[ident] = name
                    if kind == "fn" and current and current.endswith(LIBRARY):
                        names.add(functions[ident])
    return names


def text_sections(map_path):
    """[(address, size, name)] of the input sections in the map's .text, by address."""
    sections = []
    in_text = False
    line_re = re.compile(r"^\s*([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+ (.*)$")
    with open(map_path) as f:
        for line in f:
            m = line_re.match(line.rstrip("\n"))
            if not m:
                continue
            rest = m.group(3)
            indent = len(rest) - len(rest.lstrip())
            if indent < 8:
                in_text = rest.strip() == ".text"
            elif in_text and indent < 16:
                sections.append((int(m.group(1), 16), int(m.group(2), 16), rest.strip()))
    return sorted(sections)


def code_symbols(library):
    """{mangled name: address} and [(address, mangled name)] of the library's functions (nm)."""
    out = subprocess.run(["nm", "--defined-only", library], capture_output=True, text=True, check=True).stdout
    by_name, by_address = {}, []
    for line in out.splitlines():
        parts = line.split(None, 2)
        if len(parts) == 3 and parts[1] in "tTwW":
            by_name.setdefault(parts[2], int(parts[0], 16))
            by_address.append((int(parts[0], 16), parts[2]))
    return by_name, sorted(by_address)


def order(ui_names, web_names, library, map_path):
    """The ordering file's lines and a few facts, from the names of the functions each profiled
    UI process (ui_names, a list of sets) and each scenario's web processes ran. Names are
    callgrind's (--demangle=no), so the linker's own; unnamed code (callgrind prints its address)
    is the function around it. Each function is placed by the input section that holds it, found
    by address in the link map of the same library."""
    sections = text_sections(map_path)
    starts = [s[0] for s in sections]
    by_name, by_address = code_symbols(library)
    addresses = [a for a, _ in by_address]

    def linker_name(name):
        name = re.sub(r"'\d+$", "", name)
        if name.startswith("0x"):
            i = bisect.bisect_right(addresses, int(name, 16)) - 1
            return by_address[i][1] if i >= 0 else None
        return name if name in by_name else None

    def section(name):
        i = bisect.bisect_right(starts, by_name[name]) - 1
        return sections[i] if i >= 0 and by_name[name] < sections[i][0] + max(sections[i][1], 1) else None

    runs = collections.Counter()     # in how many of the scenarios' processes a function ran
    ui, web = set(), set()
    for kind, found in ((ui, ui_names), (web, web_names)):
        for names in found:
            linked = {n for n in map(linker_name, names) if n and section(n)}
            kind.update(linked)
            runs.update(linked)
    every = set().union(*ui_names, *web_names)

    def by_use(names):      # what more scenarios run first: a desk start does not touch the kiosk's
        return sorted(names, key=lambda n: (-runs[n], n))

    groups = [by_use(ui & web), by_use(web - ui), by_use(ui - web)]
    small, large = [], collections.OrderedDict()
    for group in groups:
        for name in group:
            where = section(name)
            if where[1] > SMALL_SECTION:
                large.setdefault(where, name)
            else:
                small.append(name)
    unplaced = len(every) - len(ui | web)
    return small + list(large.values()), {
        "functions": len(ui | web), "both": len(groups[0]), "web only": len(groups[1]), "ui only": len(groups[2]),
        "not found": unplaced,
        "small sections KB": sum(s[1] for s in {section(n) for n in small}) // 1024,
        "large sections": ", ".join("%s %d KB" % (s[2].rsplit("/", 1)[-1], s[1] // 1024) for s in large)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--library", required=True, help="the unstripped library (SwiftPM's release build)")
    ap.add_argument("--launcher", required=True, help="the launcher binary (make launcher)")
    ap.add_argument("--map", required=True, help="the library's link map (make launcher writes it)")
    ap.add_argument("--pages", required=True, help="directory for the benchmark pages (bench/pages.py)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--keep", help="keep callgrind's files in this directory")
    ap.add_argument("--profiles", help="do not run the browser: order by the callgrind files kept here "
                    "(--keep of an earlier run, of the same library)")
    opts = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("symbolorder.py: needs root (a private mount namespace wraps the web process)")
    for tool in ("valgrind", "unshare", "matchbox-window-manager", "Xvfb", "dbus-daemon", "nm"):
        if not shutil.which(tool):
            sys.exit("symbolorder.py: %s is not installed" % tool)
    pages.generate(opts.pages)
    work = tempfile.mkdtemp(prefix="porthole-symbolorder-")
    outdir = opts.profiles or opts.keep or os.path.join(work, "callgrind")
    os.makedirs(outdir, exist_ok=True)
    prefix = os.path.join(work, "prefix")
    os.makedirs(os.path.join(prefix, "bin"))
    os.makedirs(os.path.join(prefix, "lib", "porthole", "web-extensions"))
    shutil.copy(opts.launcher, os.path.join(prefix, "bin", "porthole"))
    shutil.copy(opts.library, os.path.join(prefix, "lib", "porthole", "web-extensions", LIBRARY))
    server = harness.Server(os.path.abspath(opts.pages))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with open(os.path.join(work, "log"), "wb") as logf:
            for scenario in SCENARIOS if not opts.profiles else ():
                t0 = time.monotonic()
                profile(scenario, prefix, server, outdir, logf)
                print("%-15s %.0f s" % (scenario, time.monotonic() - t0), flush=True)
        files = sorted(os.listdir(outdir))
        ui = [functions_run([os.path.join(outdir, f) for f in files if f.startswith(s + ".ui.")]) for s in SCENARIOS]
        web = [functions_run([os.path.join(outdir, f) for f in files if f.startswith(s + ".web.")]) for s in WRAPPED]
        ui, web = [names for names in ui if names], [names for names in web if names]
        if not ui or not web:
            sys.exit("symbolorder.py: no profile of the %s process" % ("UI" if not ui else "web"))
        names, facts = order(ui, web, opts.library, opts.map)
        with open(opts.out, "w") as f:
            f.write("\n".join(names) + "\n")
        print("%s: %s" % (opts.out, ", ".join("%s %s" % (k, v) for k, v in facts.items())))
    except RuntimeError as e:
        with open(os.path.join(work, "log"), "rb") as f:
            sys.stderr.write(f.read()[-3000:].decode(errors="replace"))
        sys.exit("symbolorder.py: %s" % e)
    finally:
        server.shutdown()
        if not opts.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
