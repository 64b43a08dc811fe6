#!/bin/sh
# Verified boot: a clean Debian 12 booted by a real systemd (PID 1 of a systemd-nspawn container)
# comes up as a Porthole kiosk from the package alone, with the units' sandboxing in effect.
#
# What it does, as an admin would (docs/admin-guide.md, "A kiosk that boots from the package"):
#   - a Debian 12 root file system from debootstrap (cached: the first run takes minutes, the
#     next ones copy the cached tree), with grim added as a screenshot tool;
#   - in it: `apt-get install ./porthole_*.deb` (with its Recommends: cage, xwayland, ...),
#     `adduser --disabled-password kiosk`, `porthole-kiosk-setup kiosk`, and a drop-in in
#     /etc/porthole/porthole.conf.d/ naming the page of a local HTTP server as the only site;
#   - boots it: `systemd-nspawn --boot`, the machine's /dev/tty0 and /dev/tty1 bound in (the cage
#     unit takes tty1; logind manages VTs only where tty0 exists). What the test changes, each
#     for a reason stated where it is done: a drop-in for the cage unit that gives cage a screen
#     where there is none (nested on an Xvfb of the host: WLR_BACKENDS=x11, DISPLAY, pixman), and
#     a unit of its own that gives the container back a regular /proc/kmsg in place of nspawn's
#     FIFO. The kiosk's units are otherwise as installed.
# It passes when, inside the booted system, porthole-cage.service and the kiosk user's
# porthole-kiosk.service are active, Porthole's web process runs, the hardening is in effect
# (NoNewPrivs, an empty capability bounding set and a seccomp filter on cage, Porthole and the web
# process; /usr and /etc read-only, the home directories read-only for cage and /tmp private to
# it, as the units say), the server saw the page and its image requested, and cage's screen (the
# Xvfb's root window) shows the page's colour. It also tries grim inside cage (wlroots'
# screencopy) and prints `systemd-analyze security` of both units as loaded.
#
# By hand, as root, on a machine where a container may take tty1 (not in `make test` or CI):
#   sh Tests/Packaging/kiosk-systemd-boot.sh ./porthole_VERSION_ARCH.deb [SCREENSHOT.png]
# Needs debootstrap, systemd-container (systemd-nspawn), xvfb, imagemagick and python3 on the host
# (`make kiosk-systemd-boot-test` installs them). Exits 77 (skipped) when not root.
# Environment: PORTHOLE_BOOT_CACHE (default /var/tmp/porthole-boot): the cached base tree, the
# downloaded packages and the last run's tree and logs (kept for a look after a failure);
# PORTHOLE_BOOT_MIRROR: the Debian mirror (default: the one this machine's apt uses).
set -eu
deb=${1:?usage: kiosk-systemd-boot.sh PACKAGE.deb [SCREENSHOT.png]}
shot=${2:-kiosk-systemd-boot.png}
say() { echo "kiosk-systemd-boot: $*"; }
fail() { echo "kiosk-systemd-boot: FAIL: $*" >&2; exit 1; }
# The page the kiosk shows, shared with the other boot test (its green is what the screenshot looks for).
page=$(cd "$(dirname "$0")" && pwd)/kiosk-test-page.html
[ -f "$page" ] || fail "no test page $page"
[ "$(id -u)" = 0 ] || { say "skipped: needs root (it builds and boots a system tree)"; exit 77; }
[ -f "$deb" ] || fail "no package $deb (run make deb)"
for tool in debootstrap systemd-nspawn nsenter Xvfb import convert python3; do
    command -v "$tool" > /dev/null || fail "$tool is missing (apt-get install debootstrap systemd-container xvfb imagemagick python3)"
done
deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")

cache=${PORTHOLE_BOOT_CACHE:-/var/tmp/porthole-boot}
base=$cache/bookworm-base
root=$cache/run/root
logs=$cache/run/logs
archives=$cache/apt-archives
mkdir -p "$cache" "$archives/partial"

# The mirror this machine's apt uses (deb822 or one-line sources), else Debian's own.
mirror=${PORTHOLE_BOOT_MIRROR:-$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
    sed -n 's|^URIs: *\(http[^ ]*/debian\)/*$|\1|p' | head -n 1)}
[ -n "$mirror" ] || mirror=$(sed -n 's|^deb  *\(http[^ ]*/debian\)/* .*|\1|p' /etc/apt/sources.list 2>/dev/null | head -n 1)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian

# 1. The base system, once: a standard debootstrap of bookworm (systemd, apt, adduser, ...), plus
# dbus and libpam-systemd (which a real installation has) and grim (the test's screenshot tool).
if [ ! -e "$base/.porthole-boot-complete" ]; then
    say "debootstrap bookworm from $mirror into $base (once; minutes)"
    rm -rf "$base.new"
    debootstrap --include=dbus,libpam-systemd,grim bookworm "$base.new" "$mirror" > "$cache/debootstrap.log" 2>&1 ||
        { tail -n 20 "$cache/debootstrap.log" >&2; fail "debootstrap (log: $cache/debootstrap.log)"; }
    # apt's downloads go to $archives (bound in at install), so later runs download nothing.
    rm -f "$base.new"/var/cache/apt/archives/*.deb
    touch "$base.new/.porthole-boot-complete"
    rm -rf "$base" && mv "$base.new" "$base"
fi

server_pid= boot_pid= cgroups= xvfb_pid=
cleanup() {
    for pid in $server_pid $xvfb_pid; do kill "$pid" 2>/dev/null || true; done
    if [ -n "$boot_pid" ] && kill -0 "$boot_pid" 2>/dev/null; then
        # SIGTERM: nspawn asks the container's systemd to power off.
        kill "$boot_pid" 2>/dev/null || true
        for attempt in $(seq 1 60); do kill -0 "$boot_pid" 2>/dev/null || break; sleep 0.5; done
        kill -9 "$boot_pid" 2>/dev/null || true
    fi
    # The container's cgroups, once it has gone.
    for cgroup in $cgroups; do find "$cgroup" -depth -type d -exec rmdir {} + 2>/dev/null || true; done
}
trap cleanup EXIT
trap "exit 1" INT TERM HUP

say "a fresh tree from the cached base: $root"
rm -rf "$cache/run"
mkdir -p "$cache/run" "$logs"
cp -a "$base" "$root"
cp "$deb" "$root/root/"
package=/root/$(basename "$deb")

# 2. The admin's steps, in the tree (nspawn without --boot: a chroot with /proc, /dev, DNS).
say "apt-get install $package, adduser kiosk, porthole-kiosk-setup kiosk"
cat > "$root/root/admin-steps" <<STEPS
set -eu
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q $package
adduser --disabled-password --gecos Kiosk kiosk
porthole-kiosk-setup kiosk
STEPS
systemd-nspawn --quiet --register=no --keep-unit -D "$root" --bind="$archives:/var/cache/apt/archives" \
    sh /root/admin-steps > "$logs/admin-steps.log" 2>&1 ||
    { tail -n 30 "$logs/admin-steps.log" >&2; fail "the admin's steps (log: $logs/admin-steps.log)"; }
grep '^porthole-kiosk-setup:' "$logs/admin-steps.log" | sed 's/^/   /'
for file in usr/bin/porthole usr/bin/cage usr/bin/Xwayland usr/lib/systemd/system/porthole-cage.service \
            usr/lib/systemd/user/porthole-kiosk.service; do
    [ -e "$root/$file" ] || fail "/$file is not in the installed system"
done
[ "$(basename "$(readlink "$root/etc/systemd/system/display-manager.service")")" = porthole-cage.service ] ||
    fail "porthole-kiosk-setup did not make porthole-cage.service the display manager"

# The page, from a server on the host (the container shares the host's network).
mkdir -p "$cache/run/site"
cp "$page" "$cache/run/site/index.html"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(cd "$cache/run/site" && exec python3 -m http.server --bind 127.0.0.1 "$port") > "$logs/server.log" 2>&1 &
server_pid=$!
# As an admin points the kiosk at its site: a drop-in beside the system file.
mkdir -p "$root/etc/porthole/porthole.conf.d"
printf '# The boot test'"'"'s page.\n[Sites]\nMuseum=http://127.0.0.1:%s/\n' "$port" > "$root/etc/porthole/porthole.conf.d/50-boot-test.conf"

# A screen for cage: an Xvfb on the host, which cage's wlroots draws into as a nested X11 client
# (its pixman renderer; no GPU). The container shares the host's network namespace, so cage
# reaches the X server's abstract socket even with its private /tmp.
display=
for number in $(seq 150 199); do
    [ -e "/tmp/.X$number-lock" ] || [ -e "/tmp/.X11-unix/X$number" ] || { display=:$number; break; }
done
[ -n "$display" ] || fail "no free X display number"
# 1024x768: the size of the window wlroots' X11 backend opens, so the X screen is cage's output.
Xvfb "$display" -screen 0 1024x768x24 -nolisten tcp -ac > "$logs/xvfb.log" 2>&1 &
xvfb_pid=$!

# The test's only change to the kiosk's units: that screen, in a drop-in.
mkdir -p "$root/etc/systemd/system/porthole-cage.service.d"
cat > "$root/etc/systemd/system/porthole-cage.service.d/90-boot-test.conf" <<UNIT
# kiosk-systemd-boot.sh: no screen or GPU in a container: cage nested on the host's Xvfb
# $display, drawn by wlroots' pixman renderer; no input devices.
[Service]
Environment=WLR_BACKENDS=x11 DISPLAY=$display WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1
UNIT

# nspawn replaces the container's /proc/kmsg with a FIFO (its kernel messages for the journal).
# A user manager cannot mount its inaccessible FIFO over that one (ProtectKernelLogs= of the
# kiosk unit fails: "Failed to mount .../inaccessible/fifo to .../proc/kmsg: No such file or
# directory", status 226/NAMESPACE); on a machine /proc/kmsg is a regular file. So the container
# gets its regular /proc/kmsg back before anyone logs in: a test-only unit, not a change of the
# kiosk's units.
cat > "$root/etc/systemd/system/porthole-boot-test-kmsg.service" <<'UNIT'
[Unit]
Description=kiosk-systemd-boot.sh: /proc/kmsg as on a machine, not nspawn's FIFO
DefaultDependencies=no
Before=systemd-user-sessions.service sysinit.target
ConditionVirtualization=systemd-nspawn
[Service]
Type=oneshot
ExecStart=/bin/sh -c 'if [ -p /proc/kmsg ]; then umount /proc/kmsg; fi'
[Install]
WantedBy=sysinit.target
UNIT
ln -sf /etc/systemd/system/porthole-boot-test-kmsg.service "$root/etc/systemd/system/sysinit.target.wants/porthole-boot-test-kmsg.service"

# 3. Boot.
# The unit takes tty1 (and is conditioned on it); logind gives seat0 virtual terminals only where
# /dev/tty0 exists, else pam_systemd refuses the session on tty1 ("Seat has no VTs but VT number
# not 0") and cage has no XDG_RUNTIME_DIR. So the container gets the machine's tty0 and tty1.
for tty in /dev/tty0 /dev/tty1; do
    [ -c $tty ] || fail "this machine has no $tty to give the container (the cage unit takes tty1)"
done
say "boot: systemd-nspawn --boot (log: $logs/boot.log)"
# Where no systemd runs on the host (a container, a bare VM), nspawn can neither register the
# machine nor ask for a scope unit (--register=no --keep-unit): it then boots in the cgroup it is
# started in, so it gets one of its own (in each hierarchy mounted), not the host's root.
for hierarchy in /sys/fs/cgroup/systemd /sys/fs/cgroup/unified /sys/fs/cgroup; do
    [ -e "$hierarchy/cgroup.procs" ] && [ -w "$hierarchy" ] || continue
    [ "$hierarchy" = /sys/fs/cgroup ] && [ -n "$cgroups" ] && continue
    mkdir -p "$hierarchy/porthole-boot" && cgroups="$cgroups $hierarchy/porthole-boot"
done
setsid sh -c 'for cgroup; do echo $$ > "$cgroup/cgroup.procs"; done
    exec systemd-nspawn --boot --register=no --keep-unit --machine=porthole-boot -D "$0" \
        --console=read-only --bind=/dev/tty0 --bind=/dev/tty1' "$root" $cgroups > "$logs/boot.log" 2>&1 < /dev/null &
boot_pid=$!

# The container's PID 1: a systemd whose PID in its own namespace is 1, below nspawn.
leader=
for attempt in $(seq 1 120); do
    for pid in $(pgrep -x systemd); do
        [ "$(sed -n 's/^NSpid:.*[[:space:]]//p' "/proc/$pid/status" 2>/dev/null)" = 1 ] || continue
        parent=$(ps -o ppid= -p "$pid" | tr -d ' ')
        grandparent=$(ps -o ppid= -p "$parent" | tr -d ' ')
        if [ "$parent" = "$boot_pid" ] || [ "$grandparent" = "$boot_pid" ]; then leader=$pid; fi
    done
    [ -n "$leader" ] && break
    kill -0 "$boot_pid" 2>/dev/null || { cat "$logs/boot.log" >&2; fail "systemd-nspawn --boot ended"; }
    sleep 0.5
done
[ -n "$leader" ] || fail "no systemd as the container's PID 1 (log: $logs/boot.log)"
inside() { nsenter --target "$leader" --all -- /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
say "the container's systemd: host PID $leader, $(inside cat /proc/1/comm) as PID 1 ($(inside systemctl --version | head -n 1))"

for attempt in $(seq 1 120); do inside test -S /run/systemd/private && break; sleep 0.5; done
state=$(inside timeout 300 systemctl is-system-running --wait 2>&1) || true
say "system state: $state"
uid=$(inside id -u kiosk)
as_kiosk() { inside runuser -u kiosk -- env XDG_RUNTIME_DIR="/run/user/$uid" DBUS_SESSION_BUS_ADDRESS="unix:path=/run/user/$uid/bus" "$@"; }

say "waiting for porthole-kiosk.service (Type=notify: READY=1 once the first page has loaded)"
kiosk_state=
for attempt in $(seq 1 240); do
    kiosk_state=$(as_kiosk systemctl --user is-active porthole-kiosk.service 2>/dev/null) || true
    [ "$kiosk_state" = active ] && grep -q '"GET /shown.png' "$logs/server.log" && break
    inside systemctl is-failed --quiet porthole-cage.service && break
    sleep 0.5
done
inside systemctl status --no-pager --lines=0 porthole-cage.service > "$logs/cage-status.txt" 2>&1 || true
as_kiosk systemctl --user status --no-pager --lines=0 porthole-kiosk.service > "$logs/kiosk-status.txt" 2>&1 || true
inside journalctl --no-pager -b > "$logs/journal.txt" 2>&1 || true
cat "$logs/cage-status.txt" "$logs/kiosk-status.txt" | sed 's/^/   /'
[ "$(inside systemctl is-active porthole-cage.service)" = active ] ||
    fail "porthole-cage.service is not active (journal: $logs/journal.txt)"
[ "$kiosk_state" = active ] || fail "porthole-kiosk.service is $kiosk_state (journal: $logs/journal.txt)"
grep -q '"GET / ' "$logs/server.log" && grep -q '"GET /shown.png' "$logs/server.log" ||
    fail "the server did not see the page and its image requested: $(cat "$logs/server.log")"

# 4. The processes, and their sandboxes as the kernel reports them.
cage=$(inside pgrep -u kiosk -x cage) || fail "cage is not running"
porthole=$(inside pgrep -u kiosk -x porthole) || fail "porthole is not running"
web=$(inside pgrep -u kiosk -x WebKitWebProces | head -n 1) || fail "no WebKitWebProcess"
inside ps -o pid,user,args -u kiosk | sed 's/^/   /'
for process in cage:$cage porthole:$porthole WebKitWebProcess:$web; do
    name=${process%%:*} pid=${process#*:}
    status=$(inside cat "/proc/$pid/status")
    line=$(printf '%s\n' "$status" | grep -E '^(NoNewPrivs|Seccomp|CapBnd):' | tr -s '\t ' ' ' | tr '\n' ' ')
    say "$name (PID $pid in the container): $line"
    printf '%s\n' "$status" | grep -qx 'NoNewPrivs:[[:space:]]*1' || fail "$name: NoNewPrivs is not set"
    printf '%s\n' "$status" | grep -qx 'Seccomp:[[:space:]]*2' || fail "$name: no seccomp filter"
    printf '%s\n' "$status" | grep -qx 'CapBnd:[[:space:]]*0000000000000000' || fail "$name: capabilities left in its bounding set"
done
# ProtectSystem=strict: in each unit's mount namespace even root cannot write /usr or /etc;
# /home read-only for cage too (strict); the kiosk's home is writable for Porthole (ReadWritePaths=%h).
in_mounts_of() { pid=$1; shift; inside nsenter --target "$pid" --mount -- "$@"; }
writable() { in_mounts_of "$1" sh -c "touch '$2/.porthole-boot-probe' && rm -f '$2/.porthole-boot-probe'" 2>/dev/null; }
for path in /usr /etc; do
    ! writable "$cage" $path || fail "cage's $path is writable (ProtectSystem=strict)"
    ! writable "$porthole" $path || fail "porthole's $path is writable (ProtectSystem=strict)"
done
! writable "$cage" /home/kiosk || fail "cage's /home is writable (ProtectSystem=strict)"
writable "$porthole" /home/kiosk || fail "porthole cannot write its home (ReadWritePaths=%h)"
writable "$cage" "/run/user/$uid" || fail "cage cannot write /run/user/$uid (ReadWritePaths=/run/user)"
say "ProtectSystem=strict: /usr and /etc read-only for cage and porthole ($(in_mounts_of "$cage" sh -c 'touch /usr/.probe' 2>&1 | head -n 1))"
# PrivateTmp= (cage): its /tmp is not the system's.
[ "$(in_mounts_of "$cage" stat -c %d:%i /tmp)" != "$(inside stat -c %d:%i /tmp)" ] || fail "cage shares the system's /tmp (PrivateTmp=)"
say "PrivateTmp: cage's /tmp is its own ($(in_mounts_of "$cage" stat -c %d:%i /tmp) vs $(inside stat -c %d:%i /tmp))"
inside systemd-analyze security porthole-cage.service > "$logs/security-cage.txt" 2>&1 || true
as_kiosk systemd-analyze --user security porthole-kiosk.service > "$logs/security-kiosk.txt" 2>&1 || true
say "porthole-cage.service, as loaded: $(grep 'Overall exposure' "$logs/security-cage.txt" || echo "(systemd-analyze: $(tail -n 1 "$logs/security-cage.txt"))")"
say "porthole-kiosk.service, as loaded: $(grep 'Overall exposure' "$logs/security-kiosk.txt" || echo "(systemd-analyze: $(tail -n 1 "$logs/security-kiosk.txt"))")"

# 5. The screen: the X root window that cage draws into, as an admin would see the monitor.
shown=false pixels=
for attempt in $(seq 1 60); do
    if import -display "$display" -window root "$logs/shot.png" 2> "$logs/import.log"; then
        pixels=$(convert "$logs/shot.png" -format '%[pixel:p{512,150}] %[pixel:p{5,5}] %[pixel:p{1018,5}] %[pixel:p{1018,690}]' info:)
        [ "$pixels" = "srgb(31,122,77) srgb(31,122,77) srgb(31,122,77) srgb(31,122,77)" ] && { shown=true; break; }
    fi
    sleep 0.5
done
cp "$logs/shot.png" "$shot" 2>/dev/null || true
$shown || fail "the page is not on cage's screen (pixels: ${pixels:-none}; screenshot $shot)"
say "cage's screen ($(identify -format '%wx%h' "$shot"), the X root window) shows the page (pixels: $pixels): $shot"
# And from inside: grim, as the kiosk user, asks cage for its output (wlroots' screencopy).
socket=$(inside sh -c "ls /run/user/$uid | grep -m 1 '^wayland-[0-9]*$'") || fail "no Wayland socket in /run/user/$uid"
if as_kiosk env WAYLAND_DISPLAY="$socket" grim /var/tmp/kiosk-grim.png > "$logs/grim.log" 2>&1; then
    cp "$root/var/tmp/kiosk-grim.png" "$logs/grim.png"
    say "grim inside cage ($socket): $(convert "$logs/grim.png" -format '%wx%h, centre %[pixel:p{w/2,h/2}]' info:) ($logs/grim.png)"
else
    say "grim inside cage ($socket) failed: $(cat "$logs/grim.log")"
fi

inside systemctl poweroff > /dev/null 2>&1 || true
for attempt in $(seq 1 120); do kill -0 "$boot_pid" 2>/dev/null || break; sleep 0.5; done
kill -0 "$boot_pid" 2>/dev/null && say "the container did not power off within 60 s (stopped by the cleanup)" || boot_pid=
say "PASS: a Debian 12 booted by systemd shows the kiosk from $(basename "$deb") (logs: $logs)"
