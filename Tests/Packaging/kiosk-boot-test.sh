#!/bin/sh
# Boot to kiosk from the package, as an admin does it on a clean Debian 12: installs the .deb
# with apt (its Recommends: cage, xwayland), adds a fresh user, runs `porthole-kiosk-setup USER`
# (and checks that it refuses while another display manager is enabled), then starts what
# systemd would start at boot: the enabled cage unit's ExecStart, as its User=, under its
# Environment= and RuntimeDirectory=, with cage nested on Xvfb (WLR_BACKENDS=x11). Its session
# script asks the user's systemd for porthole-kiosk.service; where no systemd runs (a container,
# CI) a stand-in `systemctl` runs that unit's ExecStart under its Environment= instead. The test
# passes when the screen shows the page a local server sent (its colour, read from a screenshot),
# the server saw the kiosk's requests, and the status file is readable by another user.
#
# Run by hand or in CI, as root, on a machine that may be changed:
#   sh Tests/Packaging/kiosk-boot-test.sh ./porthole_VERSION_ARCH.deb [SCREENSHOT.png]
# Exits 77 (skipped) when not root. The sandboxing directives of the units need a running
# systemd and are not exercised here (see the admin guide's "Hardening").
set -eu
deb=${1:?usage: kiosk-boot-test.sh PACKAGE.deb [SCREENSHOT.png]}
shot=${2:-kiosk-boot.png}
fail() { echo "kiosk-boot-test: $*" >&2; exit 1; }
# The page the kiosk shows, shared with the other boot test (its green is what the screenshot looks for).
page=$(cd "$(dirname "$0")" && pwd)/kiosk-test-page.html
[ -f "$page" ] || fail "no test page $page"
[ "$(id -u)" = 0 ] || { echo "kiosk-boot-test: skipped: needs root (it installs a package and adds a user)"; exit 77; }
case $deb in /*|./*) ;; *) deb=./$deb ;; esac
[ -f "$deb" ] || fail "no package $deb (run make deb)"

# The package's own copy, by its path: a `make install` into /usr/local on the same machine puts
# another one ahead of it on PATH, one that looks for /usr/local/bin/porthole.
setup=/usr/sbin/porthole-kiosk-setup
user=phboot$$
work=$(mktemp -d)
display=:$((90 + $$ % 100))
server_pid= xvfb_pid= kiosk_pid=
cleanup() {
    # The kiosk runs in its own session (setsid): its process group holds cage, Xwayland, the bus,
    # Porthole and its web processes.
    [ -z "$kiosk_pid" ] || kill -- "-$kiosk_pid" 2>/dev/null || true
    for pid in $server_pid $xvfb_pid; do kill "$pid" 2>/dev/null || true; done
    [ -z "$kiosk_pid" ] || wait "$kiosk_pid" 2>/dev/null || true
    "$setup" --disable >/dev/null 2>&1 || true
    # porthole-kiosk-setup made graphical.target the default: put back what was there.
    if [ -n "$default_target" ]; then ln -sfn "$default_target" /etc/systemd/system/default.target; else rm -f /etc/systemd/system/default.target; fi
    userdel -r "$user" 2>/dev/null || true
    rm -rf "/run/user/$uid" /run/porthole "$work"
}
uid=none
default_target=$(readlink /etc/systemd/system/default.target || true)
trap cleanup EXIT

echo "== apt-get install $deb"
DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$deb" > "$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "apt-get install"; }
for file in /usr/bin/porthole /usr/bin/cage /usr/bin/Xwayland "$setup" \
            /usr/lib/systemd/system/porthole-cage.service /usr/lib/systemd/user/porthole-kiosk.service \
            /usr/share/doc/porthole/admin-guide.md; do
    [ -e "$file" ] || fail "$file is not installed (the package and its Recommends)"
done

echo "== a fresh user: $user"
useradd -m -s /bin/sh "$user"
uid=$(id -u "$user")

echo "== porthole-kiosk-setup refuses while another display manager is enabled"
image="$work/image"
mkdir -p "$image/etc/systemd/system" "$image/usr/lib/systemd/system" "$image/usr/lib/systemd/user" "$image/usr/bin"
printf '[Service]\nExecStart=/usr/sbin/gdm3\n[Install]\nAlias=display-manager.service\n' > "$image/usr/lib/systemd/system/gdm3.service"
ln -s /usr/lib/systemd/system/gdm3.service "$image/etc/systemd/system/display-manager.service"
cp /usr/lib/systemd/system/porthole-cage.service "$image/usr/lib/systemd/system/"
cp /usr/lib/systemd/user/porthole-kiosk.service "$image/usr/lib/systemd/user/"
for program in porthole cage Xwayland; do : > "$image/usr/bin/$program"; done
if "$setup" --root "$image" "$user" > "$work/refused" 2>&1; then fail "it enabled the kiosk over gdm3"; fi
grep -q "another display manager is enabled: gdm3.service" "$work/refused" || fail "the refusal does not name gdm3: $(cat "$work/refused")"
[ ! -e "$image/etc/systemd/system/porthole-cage.service.d" ] || fail "it changed the system before refusing"
[ "$(readlink "$image/etc/systemd/system/display-manager.service")" = /usr/lib/systemd/system/gdm3.service ] || fail "gdm3's alias changed"
"$setup" root > "$work/root" 2>&1 && fail "it made a kiosk for root"
grep -q "ordinary user" "$work/root" || fail "the refusal for root: $(cat "$work/root")"
echo "   $(cat "$work/refused")"

echo "== $setup $user"
"$setup" "$user"
dropin=/etc/systemd/system/porthole-cage.service.d/10-kiosk-user.conf
grep -qx "User=$user" "$dropin" || fail "no User=$user in $dropin"
[ "$(basename "$(readlink /etc/systemd/system/display-manager.service)")" = porthole-cage.service ] || fail "cage is not the display manager"
[ -L /etc/systemd/system/graphical.target.wants/porthole-cage.service ] || fail "porthole-cage.service is not wanted by graphical.target"

echo "== the page the kiosk is to show, from a local server"
mkdir -p "$work/site"
cp "$page" "$work/site/index.html"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(cd "$work/site" && exec python3 -m http.server --bind 127.0.0.1 "$port") > "$work/server.log" 2>&1 &
server_pid=$!
home=$(getent passwd "$user" | cut -d: -f6)
mkdir -p "$home/.config/porthole"
printf '[Sites]\nMuseum=http://127.0.0.1:%s/\n' "$port" > "$home/.config/porthole/porthole.conf"
chown -R "$user:" "$home/.config"

echo "== boot: cage as systemd would start it, nested on Xvfb $display"
# 1024x768: the size of the window wlroots' X11 backend opens, so the screenshot is cage's output.
Xvfb "$display" -screen 0 1024x768x24 -nolisten tcp -ac > "$work/xvfb.log" 2>&1 &
xvfb_pid=$!
# What pam_systemd (logind) makes for the session, and the unit's RuntimeDirectory=porthole.
mkdir -p "/run/user/$uid" && chown "$user:" "/run/user/$uid" && chmod 700 "/run/user/$uid"
mkdir -p /run/porthole && chown "$user:" /run/porthole && chmod 755 /run/porthole

# The enabled unit as systemd reads it: the unit file, then its drop-ins; the last value wins.
unit_value() { # KEY FILE...
    key=$1; shift
    sed -n "s/^$key=//p" "$@" | tail -n 1
}
units="/usr/lib/systemd/system/porthole-cage.service $(ls /etc/systemd/system/porthole-cage.service.d/*.conf)"
[ "$(unit_value User $units)" = "$user" ] || fail "the unit runs as $(unit_value User $units), not $user"
cage_exec=$(unit_value ExecStart $units)
cage_env=$(sed -n 's/^Environment=//p' $units | tr '\n' ' ')
kiosk_exec=$(unit_value ExecStart /usr/lib/systemd/user/porthole-kiosk.service)
kiosk_env=$(sed -n 's/^Environment=//p' /usr/lib/systemd/user/porthole-kiosk.service | tr '\n' ' ')
case $cage_exec in /usr/bin/cage*/usr/share/porthole/cage/porthole-cage-session) ;; *) fail "cage's ExecStart: $cage_exec" ;; esac
[ "$kiosk_exec" = "/usr/bin/porthole --kiosk" ] || fail "the kiosk unit's ExecStart: $kiosk_exec"

# The stand-in for the user's systemd, which needs systemd as PID 1: import-environment keeps
# the variables, `start --wait porthole-kiosk.service` runs the unit's ExecStart under them.
mkdir -p "$work/bin"
cat > "$work/bin/systemctl" <<STANDIN
#!/bin/sh
[ "\$1" = --user ] || exit 1
case \$2 in
    import-environment) echo "\$3" >> "$work/imported"; exit 0 ;;
    start) [ "\$3 \$4" = "--wait porthole-kiosk.service" ] || exit 1
           exec env $kiosk_env $kiosk_exec ;;
esac
exit 1
STANDIN
chmod 755 "$work/bin/systemctl"
chmod 755 "$work"
: > "$work/imported" && chmod 666 "$work/imported"
setsid runuser -u "$user" -- env -i PATH="$work/bin:/usr/bin:/bin" HOME="$home" USER="$user" LOGNAME="$user" \
    XDG_RUNTIME_DIR="/run/user/$uid" RUNTIME_DIRECTORY=/run/porthole DISPLAY="$display" WLR_BACKENDS=x11 \
    $cage_env dbus-run-session -- $cage_exec > "$work/kiosk.log" 2>&1 &
kiosk_pid=$!

echo "== waiting for the page on screen"
# The server saw the page and the image its document asks for once committed; then the screen
# shows the page's green (sampled at the centre and near the top corners and above the kiosk's
# toolbar, where a window frame or another client would be).
shown=false
for attempt in $(seq 1 120); do
    if grep -q '"GET /shown.png' "$work/server.log" && import -display "$display" -window root "$work/shot.png" 2>/dev/null; then
        pixels=$(convert "$work/shot.png" -format '%[pixel:p{512,350}] %[pixel:p{5,5}] %[pixel:p{1018,5}] %[pixel:p{1018,690}]' info:)
        if [ "$pixels" = "srgb(31,122,77) srgb(31,122,77) srgb(31,122,77) srgb(31,122,77)" ]; then shown=true; break; fi
    fi
    kill -0 "$kiosk_pid" 2>/dev/null || break
    sleep 0.5
done
cp "$work/shot.png" "$shot" 2>/dev/null || true
$shown || { cat "$work/kiosk.log" >&2; fail "the page is not on screen (pixels: ${pixels:-none}; screenshot $shot)"; }
grep -qx WAYLAND_DISPLAY "$work/imported" || fail "the session did not hand WAYLAND_DISPLAY to the user's systemd"
grep -qx RUNTIME_DIRECTORY "$work/imported" || fail "the session did not hand RUNTIME_DIRECTORY on"
pgrep -u "$user" -x cage > /dev/null || fail "cage is not running"
pgrep -u "$user" -x porthole > /dev/null || fail "porthole is not running as $user"

echo "== the status file, read by another user"
for attempt in $(seq 1 60); do [ -s /run/porthole/status.prom ] && break; sleep 0.5; done
runuser -u nobody -- cat /run/porthole/status.prom > "$work/status.prom" || fail "nobody cannot read /run/porthole/status.prom"
grep -qx 'porthole_health 0' "$work/status.prom" || fail "status: $(cat "$work/status.prom")"
grep -q '^porthole_info{.*kiosk="true"} 1$' "$work/status.prom" || fail "not in kiosk mode: $(cat "$work/status.prom")"
echo "kiosk-boot-test: $user's kiosk booted from $deb and shows the server's page (screenshot $shot)"
