#!/usr/bin/env python3
"""A fake browser for bench/selftest.sh: no display, no engine, just what the harness can see.

    fakebrowser.py [--legacy] [--burn SECONDS] [--config FILE] URL
    fakebrowser.py [--legacy] --help

Like a WebKit browser it starts a helper child (the "web process") and a double-forked daemon in
its own session (as crash handlers do, re-parented to the harness), holds 24 MB of memory, loads
the page with every stylesheet, script and image it references (exiting if one is missing), reports
`done` as the page's onload handler would, follows the navigation chain (reporting `done2` at its
end), then idles until killed. `--burn S`: the helper spends S CPU-seconds starting 0.8 s after
the page's report, inside the harness's idle window. `--legacy`: `--help` does not mention
--config, and --config is refused (an older Porthole).
"""
import os
import re
import sys
import time
import urllib.parse
import urllib.request


def fetch(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.read()


def load(url):
    """Loads one page like a browser would; returns the next page of a chain, or None."""
    html = fetch(url).decode()
    scripts = [html]
    for ref in re.findall(r'(?:src|href)="([^"#]+\.(?:css|js|png))"', html):
        body = fetch(urllib.parse.urljoin(url, ref))   # raises on 404: the run fails, the test sees it
        if ref.endswith(".js"):
            scripts.append(body.decode())
    for report in re.findall(r"fetch\('(done2?)\?t=", "".join(scripts)):
        fetch(urllib.parse.urljoin(url, report) + "?t=0.0")
    link = re.search(r'<a id="next" href="([^"]+)"', html)
    return urllib.parse.urljoin(url, link.group(1)) if link else None


def burn_later(seconds):
    """The helper: wait for the signal byte, then burn `seconds` of CPU 0.8 s later."""
    r, w = os.pipe()
    if os.fork() == 0:
        os.close(w)
        os.read(r, 1)
        time.sleep(0.8)
        end = time.process_time() + seconds
        while time.process_time() < end:
            pass
        time.sleep(3600)
        os._exit(0)
    os.close(r)
    return w


def main():
    args = sys.argv[1:]
    legacy = "--legacy" in args
    args = [a for a in args if a != "--legacy"]
    if "--help" in args:
        print("Usage: porthole [OPTION...] [URL]\n  --help  Show help options")
        if not legacy:
            print("  --config=FILE  Read the configuration from FILE")
        return 0
    burn = 0.0
    if "--burn" in args:
        i = args.index("--burn")
        burn = float(args[i + 1])
        del args[i:i + 2]
    if "--config" in args:
        if legacy:
            print("Unknown option --config", file=sys.stderr)
            return 1
        i = args.index("--config")
        with open(args[i + 1]) as f:
            config = f.read()
        if "[Sites]" not in config or "allow=127.0.0.1" not in config:
            print("bad bench config", file=sys.stderr)
            return 1
        del args[i:i + 2]
    if len(args) != 1:
        print("usage: fakebrowser.py [--legacy] [--burn S] [--config FILE] URL", file=sys.stderr)
        return 2

    helper_signal = burn_later(burn)
    if os.fork() == 0:                    # double fork: the grandchild is re-parented
        os.setsid()
        if os.fork() == 0:
            time.sleep(3600)
        os._exit(0)
    os.wait()
    ballast = bytearray(24 * 1024 * 1024)
    for i in range(0, len(ballast), 4096):
        ballast[i] = 1                    # touch every page so it counts in PSS
    url = args[0]
    while url:
        url = load(url)
        if burn:
            os.write(helper_signal, b"x")
            burn = 0
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    sys.exit(main())
