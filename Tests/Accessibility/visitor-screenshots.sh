#!/bin/sh
# The README's pictures of the visitor controls (`make screenshot-visitor`): the kiosk on a library
# page (library-page.html, served on 127.0.0.1) with Larger text, with High contrast, and with the
# idle warning's More time, in English and in Russian, under Xvfb. Writes docs/visitor-*.png.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
binary=${1:-$root/.build/debug/porthole}
work=$(mktemp -d)
port=$((20000 + $$ % 20000))
mkdir -p "$work/site" && cp "$root/Tests/Accessibility/library-page.html" "$work/site/index.html"
(cd "$work/site" && exec /usr/bin/python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1) &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
sleep 1

# shot NAME LANGUAGE EXTRA-LINES [warning]
shot() {
    printf '[Sites]\nLibrary=http://127.0.0.1:%s/\nCatalogue=http://127.0.0.1:%s/catalogue\n[Browser]\nlanguages=%s\n[Kiosk]\nkeyboard=false\n%b\n' \
        "$port" "$port" "$2" "$3" > "$work/$1.conf"
    GSETTINGS_BACKEND=memory GTK_IM_MODULE=none NO_AT_BRIDGE=1 LC_ALL=C.UTF-8 \
    xvfb-run -a -s "-screen 0 1024x768x24 -nolisten tcp" sh -c "
        '$binary' --kiosk --config '$work/$1.conf' & pid=\$!
        sleep 6
        # A visitor clicks once, then leaves: the warning comes idle-timeout seconds later.
        if [ '${4:-}' = warning ]; then xdotool mousemove 500 300; sleep 0.5; xdotool mousemove 520 330; xdotool click 1; sleep 4; fi
        import -window root '$root/docs/visitor-$1.png'
        kill \$pid" >/dev/null 2>&1
    echo "wrote docs/visitor-$1.png"
}

shot large-text en '[Accessibility]\nlarge-text=true'
shot high-contrast en '[Accessibility]\nhigh-contrast=true\nlarge-text=true'
shot high-contrast-ru ru '[Accessibility]\nhigh-contrast=true'
shot more-time en 'idle-timeout=2\nidle-warning=300' warning
shot more-time-ru ru 'idle-timeout=2\nidle-warning=300' warning
