#!/bin/sh
# Self-test of the benchmark harness with a fake browser (bench/fakebrowser.py): needs Xvfb,
# dbus-daemon and python3, no real browser, about 30 s. Runs bench/run.py twice (a Porthole that
# takes --config, then an older one that does not), checks the samples, the report and that no
# process survived, and ends with "N passed, 0 failed". Exit status 1 when a check failed.
set -eu
BENCH=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d /tmp/porthole-bench-selftest-XXXXXX)
trap 'rm -rf "$WORK"' EXIT

for name in porthole legacy-porthole floor; do
  case $name in
    porthole) extra="--burn 0.4" ;;
    legacy-porthole) extra="--legacy" ;;
    floor) extra="" ;;
  esac
  printf '#!/bin/sh\nexec python3 %s/fakebrowser.py %s "$@"\n' "$BENCH" "$extra" > "$WORK/$name"
  chmod +x "$WORK/$name"
done
echo "policy-bench" > "$WORK/policy.out"        # what the placeholder policy-bench prints
: > "$WORK/policy.md"
pgrep -x Xvfb | sort > "$WORK/xvfb-before" || true

python3 "$BENCH/run.py" --porthole "$WORK/porthole" --floor "$WORK/floor" --peers none \
  --peer ghost=/nonexistent/ghost-browser --rounds 2 --settle 0.5 --idle 1.5 --term-wait 2 --timeout 20 --quiet-wait 0 \
  --pages "$WORK/pages" --policy "$WORK/policy.md" --policy-output "$WORK/policy.out" --policy-rc 0 \
  --out "$WORK/report.md" --json "$WORK/results.json" > "$WORK/stdout.md" 2> "$WORK/stderr.log" \
  && echo 0 > "$WORK/rc" || echo $? > "$WORK/rc"
python3 "$BENCH/run.py" --porthole "$WORK/legacy-porthole" --floor "$WORK/floor" --peers none \
  --rounds 1 --warmup 0 --settle 0.2 --idle 0.5 --term-wait 2 --timeout 20 --quiet-wait 0 --pages "$WORK/pages" \
  --out "$WORK/legacy.md" --json "$WORK/legacy.json" > /dev/null 2> "$WORK/legacy.log" \
  && echo 0 > "$WORK/legacy-rc" || echo $? > "$WORK/legacy-rc"
sleep 0.5
pgrep -x Xvfb | sort > "$WORK/xvfb-after" || true

python3 - "$WORK" "$BENCH" <<'PY'
import json, os, sys
work, bench = sys.argv[1], sys.argv[2]
sys.path.insert(0, bench)
import pages, run
passed = failed = 0


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL: %s %s" % (name, detail))


def read(name):
    try:
        with open(os.path.join(work, name)) as f:
            return f.read()
    except OSError:
        return ""


check("run.py exits 0", read("rc").strip() == "0", read("stderr.log")[-2000:])
d = json.loads(read("results.json") or '{"results": [], "meta": {}}')
rs = d["results"]
md = read("report.md")
timed = [r for r in rs if r.get("label") != "warm-up"]
check("2 warm-ups + 2 rounds x 2 scenarios x 2 browsers", len(rs) == 10, len(rs))
check("every run succeeded", rs and all(not r["error"] for r in rs),
      [(r["browser"], r["scenario"], r["error"], r.get("log")) for r in rs if r["error"]])
check("interleaved per scenario, the order turned by one each round: A B, A B, then B A, B A",
      [(r["label"], r["scenario"], r["browser"]) for r in timed] ==
      [("round %d" % n, s, b) for n, order in ((1, ("Porthole", "floor")), (2, ("floor", "Porthole")))
       for s in ("typical", "nav") for b in order])
check("every asset of the pages served (no 404)", all(not r.get("not_found") for r in rs))
check("onload after the first request", all(r["onload_ms"] >= r["first_request_ms"] > 0 for r in rs if not r["error"]))
typical = [r for r in timed if r["scenario"] == "typical" and not r["error"]]
nav = [r for r in timed if r["scenario"] == "nav" and not r["error"]]
check("tree, helper and re-parented daemon counted (3 processes)",
      typical and all(len([p for p in r["processes"] if p["kind"] == "browser"]) == 3 for r in typical),
      [[(p["comm"], p["why"]) for p in r["processes"]] for r in typical])
check("double-forked daemon found as re-parented",
      all(any(p["why"] == "re-parented" for p in r["processes"]) for r in typical))
check("PSS includes the 24 MB the fake holds", all(r["pss_mb"] >= 24 for r in typical),
      [r["pss_mb"] for r in typical])
burner = [r["idle_cpu_s"] for r in typical if r["browser"] == "Porthole"]
quiet = [r["idle_cpu_s"] for r in typical if r["browser"] == "floor"]
check("idle CPU sees the helper's 0.4 s burn", burner and all(0.3 <= c <= 0.6 for c in burner), burner)
check("idle CPU of a quiet browser is ~0", quiet and all(c <= 0.05 for c in quiet), quiet)
check("navigation chain timed over %d hops, PSS sampled after it" % run.NAV_HOPS,
      nav and all(r["nav_ms"] > 0 and len(r["hops_ms"]) == run.NAV_HOPS and r["nav_pss_mb"] >= 24
                    and 0 < r["median_hop_ms"] <= r["nav_ms"] for r in nav))
check("chain's CPU a hop read by process: the fake's own process does the hops, all sums the rest",
      nav and all(r["hop_cpu_ui_ms"] > 0 and min(r["hop_cpu_%s_ms" % k] for k in run.CHAIN_CPU_ROLES) >= 0
                    and abs(r["hop_cpu_all_ms"] - sum(r["hop_cpu_%s_ms" % k] for k in run.CHAIN_CPU_ROLES)) < 1e-6
                    for r in nav), [(r["browser"], {k: r.get("hop_cpu_%s_ms" % k) for k in run.CHAIN_CPU_ROLES}) for r in nav])
check("CPU to onload read by process: the fake's own process, all sums the rest",
      typical and all(r["onload_cpu_ui_ms"] > 0 and min(r["onload_cpu_%s_ms" % k] for k in run.CHAIN_CPU_ROLES) >= 0
                        and abs(r["onload_cpu_all_ms"] - sum(r["onload_cpu_%s_ms" % k] for k in run.CHAIN_CPU_ROLES)) < 1e-6
                        for r in typical), [{k: r.get("onload_cpu_%s_ms" % k) for k in run.CHAIN_CPU_ROLES} for r in typical])
check("report has the CPU to onload table", "CPU from the start to the typical page's onload, by process" in md, md)
check("process starts read: the fake's helpers start after it and before onload, no WebKit process seen",
      typical and all(r.get("start_other_ms") is not None and 0 <= r["start_other_ms"] <= r["onload_ms"]
                        and "start_web_ms" not in r and "start_network_to_web_ms" not in r for r in typical),
      [{k: v for k, v in r.items() if k.startswith("start_")} for r in typical])
check("report has the process-start table", "When the browser's processes started" in md, md)
check("report has the chain's CPU table", "CPU a hop of the %d-hop chain" % run.NAV_HOPS in md
      and md.count("| Porthole | ") >= 3, md)
check("Porthole launched with --config bench.conf",
      all("--config" in r["argv"] and r["argv"][-2].endswith("bench.conf") for r in rs if r["browser"] == "Porthole"))
check("no survivors, no SIGKILL needed", all(not r.get("leftovers") and not r.get("sigkill_needed") for r in rs))
check("no Xvfb left behind", read("xvfb-before") == read("xvfb-after"))
leftover = []
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        with open("/proc/%s/environ" % pid, "rb") as f:
            if b"PORTHOLE_BENCH_RUN=" in f.read():
                leftover.append(pid)
    except OSError:
        pass
check("no process carries a run's marker", not leftover, leftover)

check("report has the browser table", "| Porthole | " in md and "| floor | " in md and "## Browsers" in md)
check("missing peer reported as skipped (not installed)", "| ghost | skipped (not installed) |" in md)
check("targets table with verdicts", md.count("| met") + md.count("| **missed**") == 8, md)
check("every target at or below the floor, PSS after the chain among them",
      all(t in md for t in ("| start → first request (ms) |", "| start → onload (ms) |",
                            "| chain's start page: start → first request (ms) |",
                            "| chain's start page: start → onload (ms) |", "| PSS 1 s after load (MB) |", "| PSS 1 s after the %d-hop chain (MB) |"
                            % run.NAV_HOPS, "| %d-hop navigation chain (ms) |" % run.NAV_HOPS))
      and md.count("≤ 1.00× floor") == 7 and "≤ floor (at the floor)" in md, md)
check("idle CPU target missed by the burning fake, named in the summary",
      any("≤ floor (at the floor) | **missed**" in line for line in md.splitlines()) and "CPU in" in md.split("Targets met: ")[-1].split("Missed: ")[-1].split("\n")[0], md)
check("each target's verdict printed to the log", read("stderr.log").count("target ") >= 5, read("stderr.log")[-2000:])
check("targets in the JSON", len(d["meta"].get("targets", [])) == 8, d["meta"].get("targets"))
check("targets show min–max and rounds", all("–" in t["porthole"] for t in d["meta"].get("targets", []))
      and "| 2 / 2 |" in md, md)


def fake_runs(porthole, floor):
    """Runs as run.py records them: one typical and one nav run per value pair."""
    runs = []
    for name, values in (("Porthole", porthole), ("floor", floor)):
        for v in values:
            runs.append({"browser": name, "scenario": "typical", "error": None, "first_request_ms": v,
                         "onload_ms": v, "pss_mb": v, "idle_cpu_s": v / 100})
            runs.append({"browser": name, "scenario": "nav", "error": None, "nav_ms": v, "nav_pss_mb": v,
                         "nav_first_request_ms": v, "nav_onload_ms": v})
    return runs


cols = {k: (k, 2, sc) for k, _, _, sc in run.METRICS + run.DETAILS}
rows = run.target_verdicts(fake_runs([100, 100, 100], [100, 100, 100]), {"Porthole", "floor"}, cols)
check("at the floor: every target met", [r[6] for r in rows] == [True] * 8, rows)
rows = run.target_verdicts(fake_runs([102, 102, 102], [100, 100, 100]), {"Porthole", "floor"}, cols)
check("2 % above a steady floor: every target missed, not within the spread",
      [r[6] for r in rows] == [False] * 8 and all(r[5] == "**missed**" for r in rows), rows)
rows = run.target_verdicts(fake_runs([99, 99, 99], [90, 100, 110]), {"Porthole", "floor"}, cols)
check("below the floor by less than its spread: met, within the spread",
      all(r[6] and "spread" in r[5] for r in rows), rows)
rows = run.target_verdicts(fake_runs([100], [100]), {"Porthole"}, cols)
check("floor not measured: not measured, no verdict", all(r[6] is None and r[5] == "not measured" for r in rows), rows)
sandboxed = [dict(r, browser=run.SANDBOXED_FLOOR) for r in fake_runs([], [110, 110, 110])]
startup = [t for t in run.TARGETS if t[0] in run.STARTUP_KEYS]
rows = run.target_verdicts(fake_runs([100, 100, 100], [90, 90, 90]) + sandboxed,
                           {"Porthole", "floor", run.SANDBOXED_FLOOR}, cols, floor=run.SANDBOXED_FLOOR, targets=startup)
check("start-up against the sandboxed floor: its own medians, four start-up targets",
      len(rows) == 4 and all(r[6] and r[2].startswith("110") for r in rows), rows)
unsandboxed = [dict(r, browser=run.UNSANDBOXED_PORTHOLE) for r in fake_runs([], [95, 95, 95])]
rows = run.target_verdicts(fake_runs([108, 108, 108], [100, 100, 100]) + unsandboxed,
                           {"Porthole", "floor", run.UNSANDBOXED_PORTHOLE}, cols, subject=run.UNSANDBOXED_PORTHOLE)
check("Porthole with its sandbox off held to the floor: its own medians, every target met",
      len(rows) == 8 and all(r[6] and r[1].startswith(("95", "0.95")) and r[2].startswith(("100", "1.00")) for r in rows), rows)
chrome = [dict(r, browser=run.CHROME_FLOOR) for r in fake_runs([], [112, 112, 112])]
meta = {}
section = "\n".join(run.where_the_floor_is(fake_runs([108, 108, 108], [100, 100, 100]) + unsandboxed + sandboxed + chrome,
                                           {"Porthole", "floor", run.UNSANDBOXED_PORTHOLE, run.SANDBOXED_FLOOR,
                                            run.CHROME_FLOOR}, cols, meta))
first = [line for line in section.splitlines() if line.startswith("| first_request_ms |")]
check("where the floor is: the sandbox's, the chrome's, Porthole's own and both ratios per measure, from the same run",
      first and first[0] == "| first_request_ms | 100.00 (100.00–100.00) | 1.10× | 1.12× | 0.95× | 1.08× | 0.96× |"
      and "Met with the sandbox off: 8 of 8." in section and len(meta.get("unsandboxed_porthole", [])) == 8,
      section)
check("where the floor is: Porthole held to the sandboxed floor with the chrome, every target met",
      "Met against the sandboxed floor with the chrome: 8 of 8." in section and len(meta.get("chrome_floor", [])) == 8
      and all(r["met"] for r in meta["chrome_floor"]), section)
meta = {}
section = "\n".join(run.where_the_floor_is(fake_runs([108, 108, 108], [100, 100, 100]) + sandboxed,
                                           {"Porthole", "floor", run.SANDBOXED_FLOOR}, cols, meta))
first = [line for line in section.splitlines() if line.startswith("| first_request_ms |")]
check("where the floor is, the chrome floor and the unsandboxed Porthole not run: their cells say so, no verdicts",
      first and first[0] == "| first_request_ms | 100.00 (100.00–100.00) | 1.10× | – | – | 1.08× | – |"
      and "held to" not in section and not meta, section)
peers = os.path.join(work, "peers-fake.md")
with open(peers, "w") as f:
    f.write("# The acceptance run\n\n## 8 December: newest\n\nResult.\n\n| a | b |\n|---|---|\n\n### Detail\n\n"
            "## 7 December: older\n\nOld.\n")
section = run.acceptance_section(peers)
check("the newest acceptance run copied into the report, its headings one level down, the older ones left out",
      "### 8 December: newest" in section and "#### Detail" in section and "| a | b |" in section
      and not any("older" in line or "Old." in line for line in section) and section[0].startswith("## "), section)
check("no acceptance file: no section", run.acceptance_section(peers + ".missing") == [] and run.acceptance_section(None) == [])
web = lambda *have: [{"browser": "Porthole", "web_processes": [{"pid": 1, "extension": h}]} for h in have]  # noqa: E731
check("every run's web process mapping the extension: said so", "in all 2 runs" in run.extension_note(web(True, True), "Porthole"))
check("a run whose web process lacks the extension: said in bold",
      run.extension_note(web(True, False), "Porthole").startswith("**Its web processes ran its extension in only 1 of 2 runs**"))
check("the fake Porthole has no web process: not counted as running the extension",
      "only 0 of " in md and "second enforcement layer" in md, md)
check("policy placeholder output included", "```\npolicy-bench\n```" in md)
check("policy target not determined without a table", "**not determined**" in md)
check("report names the machine and command",
      "- Machine: " in md and "WebKitGTK" in md and "- Command: `" in md and "- Date: " in md)

legacy = read("legacy.md")
lj = json.loads(read("legacy.json") or '{"results": []}')
check("older Porthole: run succeeds without --config", read("legacy-rc").strip() == "0" and lj["results"] and
      all(not r["error"] and "--config" not in r.get("argv", []) for r in lj["results"]), read("legacy.log")[-2000:])
check("older Porthole: the report says the policy was off", "**without** `--config`" in legacy)

table = """| filters | check | compile (ms) | median (ns) | p99 (ns) | decisions/s | URLs timed |
|---:|---|---:|---:|---:|---:|---:|
| 12 | SitePolicy, canonical URL (as WebKit gives) | 0.01 | 221 | 380 | 4,591,052 | 10,000 |
| 100,002 | SitePolicy, canonicalise with GUri + decide | 68.34 | 2263 | 4006 | 365,119 | 10,000 |
| 100,002 | SitePolicy, canonical URL (as WebKit gives) | 68.34 | 521 | 1362 | 1,013,592 | 10,000 |
| 100,002 | seed: host contains an entry (linear) | 1.92 | 46374891 | 106641926 | 22 | 100 |
"""
found = run.policy_medians(table)
check("policy table: WebKit's row at ~100,000 filters first, seed left out",
      [ns for ns, _ in found] == [521.0, 2263.0] and "WebKit" in found[0][1], found)
check("policy table: unit from the cell",
      run.policy_medians("| filters | median decision |\n|---|---|\n| 100,000 | 0.42 µs |\n") == [(420.0, "policy")])
check("policy output without a table: nothing", run.policy_medians("policy-bench\n") == [])
busy = run.cpu_busy(0.2)
check("CPU busy fraction from /proc/stat", 0.0 <= busy <= 1.0, busy)

a, b = os.path.join(work, "pages-a"), os.path.join(work, "pages-b")
pages.generate(a)
pages.generate(b)
same = all(open(os.path.join(dp, n), "rb").read() == open(os.path.join(b, os.path.relpath(dp, a), n), "rb").read()
           for dp, _, names in os.walk(a) for n in names)
check("pages are deterministic", same)
text, imgs, count = pages.sizes(a)
check("typical page: ~300 KB of HTML/CSS/JS and 20 images", 280_000 <= text <= 320_000 and count == 20,
      (text, count, imgs))

# startpath.py (start-up step by step; needs root and perf to run): its reading of perf's events.
import startpath
t0 = 100.0
rows = [(99.0, 7, "exec porthole"), (100.05, 7, "gtk_init"), (100.10, 7, "egl_init"), (100.12, 8, "gtk_init"),
        (100.13, 9, "exec WebKitNetworkProcess"), (100.15, 7, "load_uri"), (100.16, 10, "exec bwrap"),
        (100.17, 11, "exec xdg-dbus-proxy"), (100.20, 12, "exec WebKitWebProcess"), (100.25, 12, "gtk_init"),
        (100.27, 12, "extension"), (100.28, 12, "egl_init"), (100.31, 12, "egl_init__return"), (100.32, 7, "load_uri")]
found = startpath.milestones(rows, t0, 100.35, 7)
rounded = {k: round(v) for k, v in found.items()}
check("startpath: milestones from the UI's and the first web process's events, ms from the start",
      rounded == {"start": 0, "first_request": 350, "ui_gtk_init": 50, "ui_egl": 100, "network": 130, "load_uri": 150,
                  "proxy": 170, "web": 200, "web_main": 250, "web_extension": 270, "web_egl": 280, "web_egl_end": 310}, rounded)
unsandboxed = startpath.milestones([r for r in rows if "proxy" not in r[2] and "bwrap" not in r[2]], t0, None, 7)
check("startpath: no sandbox helper and no first request leave those milestones out",
      "proxy" not in unsandboxed and "first_request" not in unsandboxed and "web" in unsandboxed, unsandboxed)
table = startpath.report(["a", "b"], {"a": [found, found], "b": [unsandboxed]}, 2, "startpath")
check("startpath: report gives median (min-max), a step without samples as -, and leaves out all-empty steps",
      "| load_uri -> web process exec (WebKit's launch; sandbox chain) | 50 (50–50) | 50 (50–50) |" in table
      and "|   of which load_uri -> xdg-dbus-proxy exec | 20 (20–20) | – |" in table
      and "| start -> first request | 350 (350–350) | – |" in table, table)
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY
