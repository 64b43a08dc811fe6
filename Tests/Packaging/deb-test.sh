#!/bin/sh
# Checks a built porthole .deb: its control fields and file list, then unpacks it into a
# temporary root and runs the unpacked binary (--version, --check-config on the shipped example,
# policy check), and verifies the packaged systemd units. Usage: deb-test.sh PACKAGE.deb
set -eu
deb=$1
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "deb-test: $*" >&2; exit 1; }
[ -f "$deb" ] || fail "no package $deb (run make deb)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Control fields.
field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = porthole ] || fail "Package is $(field Package)"
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] || fail "Architecture is $(field Architecture)"
# libespeak-ng1 (the read-aloud mode, opened when speech starts; control.in names it) brings
# espeak-ng-data, its voices.
for library in libwebkit2gtk-4.1-0 libgtk-3-0 libglib2.0-0 libcrypt1 libc6 libespeak-ng1; do
    field Depends | grep -q "\b$library\b" || fail "Depends lacks $library (computed from the binary's libraries, or named in control.in): $(field Depends)"
done
field Depends | grep -q 'libc6 (>= 2\.36)' || fail "Depends lacks libc6 (>= 2.36), which the library's packed relocations (DT_RELR) need: $(field Depends)"
field Depends | grep -q swift && fail "Depends names a Swift library: the runtime is linked in"
# The web process sandbox ([Browser] sandbox=auto) runs WebKitGTK's bubblewrap launcher.
for program in bubblewrap xdg-dbus-proxy; do
    field Depends | grep -q "\b$program\b" || fail "Depends lacks $program (the web process sandbox): $(field Depends)"
done
field Recommends | grep -q '\bcage\b' || fail "Recommends lacks cage"
field Recommends | grep -q '\bxwayland\b' || fail "Recommends lacks xwayland (Debian 12's cage does not start without it)"
field Recommends | grep -q 'fonts-' || fail "Recommends lacks fonts"
field Recommends | grep -q 'fonts-noto-cjk' || fail "Recommends lacks CJK fonts (zh_TW, zh_CN)"
[ "$(field Installed-Size)" -gt 0 ] || fail "no Installed-Size"

# Files.
dpkg-deb --contents "$deb" | awk '{print $6}' | sed 's|^\./|/|' > "$work/files"
for file in /usr/bin/porthole /usr/share/porthole/porthole.conf /usr/share/porthole/porthole.conf.example \
            /usr/share/applications/dev.porthole.Porthole.desktop /usr/share/metainfo/dev.porthole.Porthole.metainfo.xml \
            /usr/share/icons/hicolor/scalable/apps/dev.porthole.Porthole.svg \
            /usr/share/icons/hicolor/48x48/apps/dev.porthole.Porthole.png /usr/share/icons/hicolor/256x256/apps/dev.porthole.Porthole.png \
            /usr/share/man/man1/porthole.1.gz /usr/share/man/man5/porthole.conf.5.gz \
            /usr/lib/systemd/user/porthole-kiosk.service \
            /usr/share/porthole/cage/porthole-cage-session /usr/lib/systemd/system/porthole-cage.service \
            /usr/sbin/porthole-kiosk-setup /usr/share/man/man8/porthole-kiosk-setup.8.gz /usr/share/doc/porthole/admin-guide.md \
            /usr/share/doc/porthole/copyright /usr/share/doc/porthole/changelog.gz \
            /usr/lib/porthole/web-extensions/libPortholeWebExtension.so; do
    grep -qx "$file" "$work/files" || fail "the package lacks $file"
done
# Whatever `make install` puts under share/locale (translations) is in the package too.
if ls "$here/../../po/"*.po >/dev/null 2>&1; then
    grep -q '^/usr/share/locale/.*/LC_MESSAGES/porthole.mo$' "$work/files" || fail "the package has no translations"
fi

# The unpacked binary runs without the Swift toolchain's libraries.
root="$work/root"
dpkg-deb --extract "$deb" "$root"
porthole="$root/usr/bin/porthole"
ldd "$porthole" | grep -q swift && fail "the binary links a Swift library dynamically"
env -i PATH=/usr/bin:/bin HOME="$work/home" "$porthole" --version | grep -q '^porthole ' || fail "--version"
env -i PATH=/usr/bin:/bin HOME="$work/home" "$porthole" --check-config "$root/usr/share/porthole/porthole.conf.example" > "$work/check" 2>&1 \
    || { cat "$work/check" >&2; fail "--check-config on the shipped example"; }
grep -q 'porthole.conf.example: ok' "$work/check" || fail "--check-config did not list the example: $(cat "$work/check")"
printf 'https://www.apple.com/\nhttps://apple.com.evil.example/\n' \
    | env -i PATH=/usr/bin:/bin HOME="$work/home" "$porthole" policy check --allow apple.com --block '*' > "$work/policy"
printf 'allowed\thttps://www.apple.com/\tapple.com\nblocked\thttps://apple.com.evil.example/\t*\n' | diff - "$work/policy" \
    || fail "policy check"
man --warnings -l "$root/usr/share/man/man5/porthole.conf.5.gz" > /dev/null 2> "$work/man" || true
[ ! -s "$work/man" ] || fail "porthole.conf(5): $(cat "$work/man")"
# The packaged files name /usr paths only, never make install's default /usr/local.
grep -l /usr/local "$root/usr/lib/systemd/user/porthole-kiosk.service" "$root/usr/lib/systemd/system/porthole-cage.service" \
    "$root/usr/sbin/porthole-kiosk-setup" && fail "a packaged unit or script names /usr/local"
man --warnings -l "$root/usr/share/man/man8/porthole-kiosk-setup.8.gz" > /dev/null 2> "$work/man8" || true
[ ! -s "$work/man8" ] || fail "porthole-kiosk-setup(8): $(cat "$work/man8")"
sh "$here/verify-units.sh" "$root/usr/lib/systemd/user/porthole-kiosk.service" "$root/usr/lib/systemd/system/porthole-cage.service"
echo "deb-test: $deb is good ($(du -k "$porthole" | cut -f1) KiB binary)"
