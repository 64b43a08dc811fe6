#!/bin/sh
# Builds porthole_VERSION_ARCH.deb from a `make install DESTDIR=… PREFIX=/usr` staging tree, so
# the package ships exactly what `make install` installs (locale files included when present).
# Offline: dpkg-deb, dpkg-shlibdeps (dpkg-dev), strip (binutils) and lintian, from Debian.
# Usage: build-deb.sh VERSION OUTDIR
set -eu
version=$1
outdir=$2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
arch=$(dpkg --print-architecture)
work="$top/.build/deb"
root="$work/root"
rm -rf "$work"
mkdir -p "$root" "$outdir"

make -C "$top" --no-print-directory install DESTDIR="$root" PREFIX=/usr

# The binary and the web extension: debug information and symbols stripped as dh_strip does.
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/porthole" \
    "$root/usr/lib/porthole/web-extensions/libPortholeWebExtension.so"

doc="$root/usr/share/doc/porthole"
install -Dm644 "$here/copyright" "$doc/copyright"
gzip -9n < "$here/changelog" > "$doc/changelog.gz"
chmod 644 "$doc/changelog.gz"
install -Dm644 "$here/lintian-overrides" "$root/usr/share/lintian/overrides/porthole"
# Man pages are compressed in Debian packages.
find "$root/usr/share/man" -type f -exec gzip -9n {} \;

# Depends from the shared libraries the binary and its library link (dpkg-shlibdeps reads
# debian/control): the binary is the launcher, and the browser's code with GTK, WebKit and the
# rest is in the library it loads from /usr/lib/porthole/web-extensions.
# espeak-ng is opened at run time, when speech is first needed (EspeakLibrary.swift), so
# control.in names libespeak-ng1 itself, at the version its shlibs file gives.
mkdir -p "$work/src/debian"
printf 'Source: porthole\n\nPackage: porthole\nArchitecture: any\n' > "$work/src/debian/control"
# Its warnings (GTK libraries the binary links but does not call, SwiftPM's $ORIGIN rpath) go
# to a log: they do not change the result.
depends=$(cd "$work/src" && dpkg-shlibdeps -O "$root/usr/bin/porthole" \
    "$root/usr/lib/porthole/web-extensions/libPortholeWebExtension.so" 2> "$work/shlibdeps.log" | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "build-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# The library's relative relocations are packed (DT_RELR, `make launcher`): the dynamic loader reads
# them from glibc 2.36 on (the library requires the version GLIBC_ABI_DT_RELR), which
# dpkg-shlibdeps does not translate into a libc6 version.
libc=$(printf '%s' "$depends" | sed -nE 's/.*libc6 \(>= ([^)]*)\).*/\1/p')
if readelf -V "$root/usr/lib/porthole/web-extensions/libPortholeWebExtension.so" | grep -q GLIBC_ABI_DT_RELR &&
    [ -n "$libc" ] && dpkg --compare-versions "$libc" lt 2.36; then
    depends=$(printf '%s' "$depends" | sed -E 's/libc6 \(>= [^)]*\)/libc6 (>= 2.36)/')
fi

mkdir -p "$root/DEBIAN"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$depends/" \
    "$here/control.in" > "$root/DEBIAN/control"
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
find "$root" -type d -exec chmod 755 {} +

deb="$outdir/porthole_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "built $deb ($(du -k "$deb" | cut -f1) KiB; stripped: the launcher $(du -k "$root/usr/bin/porthole" | cut -f1) KiB, its library $(du -k "$root/usr/lib/porthole/web-extensions/libPortholeWebExtension.so" | cut -f1) KiB)"

# Lintian: no errors; each remaining warning is overridden with its reason (lintian-overrides).
lintian --allow-root --fail-on error,warning --display-level '>=info' "$deb"
