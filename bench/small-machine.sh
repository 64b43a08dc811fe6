#!/bin/sh
# Runs a command as on a small kiosk machine: one CPU core (taskset -c 0) and at most
# $SMALL_MEMORY of memory (default 1G) for the command and everything it starts (Xvfb, the bus,
# the browsers). `make bench-small` runs bench/run.py this way (issue 26, item 3).
#
# The memory limit: systemd-run --scope -p MemoryMax= where systemd runs the machine; otherwise a
# cgroup of its own (cgroup v2 memory.max, or v1 memory.limit_in_bytes), made and removed here.
# Fails, saying why, rather than running without the limit.
set -eu
memory=${SMALL_MEMORY:-1G}
[ $# -gt 0 ] || { echo "usage: $0 COMMAND [ARGS...]" >&2; exit 2; }
command -v taskset >/dev/null || { echo "small-machine: taskset not found (apt-get install util-linux)" >&2; exit 1; }
bytes=$(numfmt --from=iec "$memory")

if [ -d /run/systemd/system ] && command -v systemd-run >/dev/null; then
    exec systemd-run --quiet --scope -p MemoryMax="$memory" -p MemorySwapMax=0 -- taskset -c 0 "$@"
fi

group=porthole-small-$$
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
    dir=/sys/fs/cgroup/$group
    mkdir "$dir"
    echo "$bytes" > "$dir/memory.max"
    [ -f "$dir/memory.swap.max" ] && echo 0 > "$dir/memory.swap.max"
    limit="$dir/memory.max"
elif [ -d /sys/fs/cgroup/memory ]; then
    dir=/sys/fs/cgroup/memory/$group
    mkdir "$dir"
    echo "$bytes" > "$dir/memory.limit_in_bytes"
    limit="$dir/memory.limit_in_bytes"
else
    echo "small-machine: no memory cgroup to limit the run with (no systemd, no /sys/fs/cgroup memory controller)" >&2
    exit 1
fi
cleanup() {
    # The run's processes have ended; anything left is moved out so the group can go.
    for pid in $(cat "$dir/cgroup.procs" 2>/dev/null); do echo "$pid" > "$(dirname "$dir")/cgroup.procs" 2>/dev/null || true; done
    rmdir "$dir" 2>/dev/null || true
}
trap cleanup EXIT INT TERM
echo "small-machine: one core (taskset -c 0), memory limit $memory ($limit)" >&2
# The shell moves itself into the group; the command and all it starts inherit it.
sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec taskset -c 0 "$@"' small-machine "$dir" "$@"
