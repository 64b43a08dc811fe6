#!/bin/sh
# Audio where users run it (issue 25): the installed Porthole (make install DESTDIR=ROOT
# PREFIX=/usr) in kiosk mode under cage, nested on Xvfb as the kiosk boot test runs it, with the
# sound stack a kiosk without a sound server has: ALSA only. ALSA's default device is a file
# plugin over the null device (an .asoundrc in the kiosk user's home), so what espeak-ng
# (through pcaudiolib) and the More time tone (GStreamer's autoaudiosink) send to the sound card
# is written to files, and `sox stat` says whether it is sound or silence. No PulseAudio or
# PipeWire server runs (PULSE_SERVER points nowhere, as on a bare kiosk).
#
# Usage: audio-test.sh ROOT [RESULTS_DIR]. The speech key (Ctrl+Alt+Z) is pressed through
# XTest (xdotool) on cage's X11 window; the idle warning comes 6 s later (idle-timeout=8,
# idle-warning=6, idle-factor-with-speech=1). Exits 0 when both speech and the tone came out.
set -eu
root=${1:?usage: audio-test.sh ROOT [RESULTS_DIR]}
porthole=$root/usr/bin/porthole
[ -x "$porthole" ] || { echo "audio-test: no $porthole (make install DESTDIR=ROOT PREFIX=/usr)" >&2; exit 1; }
for tool in cage Xvfb xdotool sox python3; do
    command -v "$tool" > /dev/null || { echo "audio-test: skipped: no $tool" >&2; exit 77; }
done
work=$(mktemp -d)
results=${2:-$work}
mkdir -p "$results"
display=:$((150 + $$ % 100))
xvfb_pid= server_pid= kiosk_pid= user=
cleanup() {
    [ -z "$kiosk_pid" ] || kill -- "-$kiosk_pid" 2>/dev/null || kill "$kiosk_pid" 2>/dev/null || true
    for pid in $server_pid $xvfb_pid; do kill "$pid" 2>/dev/null || true; done
    [ -z "$user" ] || userdel -r "$user" 2>/dev/null || true
    [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
# cage refuses to run as root: as root, the kiosk runs as a fresh user, as porthole-kiosk-setup's does.
as_user=
if [ "$(id -u)" = 0 ]; then
    user=phaudio$$
    useradd -M -d "$work/home" -s /bin/sh "$user"
    as_user="runuser -u $user --"
fi

mkdir -p "$work/site" "$work/home" "$work/runtime" "$work/sound"
chmod 755 "$work"
if [ -n "$user" ]; then chown "$user:" "$work/home" "$work/runtime" "$work/sound"; fi
chmod 700 "$work/runtime"
printf '<!DOCTYPE html><html lang="en"><head><title>Museum</title></head><body><h1>Museum</h1><a href="/">Opening hours</a></body></html>\n' \
    > "$work/site/index.html"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(cd "$work/site" && exec python3 -m http.server --bind 127.0.0.1 "$port") > "$work/server.log" 2>&1 &
server_pid=$!

# ALSA's default device: every stream converted to 16-bit samples (GStreamer would otherwise
# pick 64-bit floats, which the null device takes too) and written to a file named by its rate,
# channels and bits, appended to (truncate false: pcaudiolib and GStreamer open it more than once).
cat > "$work/home/.asoundrc" <<EOF
pcm.!default {
    type plug
    slave { pcm "recorder"; format S16_LE }
}
pcm.recorder {
    type file
    slave { pcm "null" }
    file "$work/sound/alsa-%r-%c-%b.raw"
    format "raw"
    truncate false
}
EOF
cat > "$work/porthole.conf" <<EOF
[Sites]
Museum=http://127.0.0.1:$port/
[Kiosk]
idle-timeout=8
idle-warning=6
keyboard=false
[Accessibility]
idle-factor-with-speech=1
EOF

Xvfb "$display" -screen 0 1024x768x24 -nolisten tcp -ac > "$work/xvfb.log" 2>&1 &
xvfb_pid=$!
for attempt in $(seq 1 50); do DISPLAY="$display" xdotool getmouselocation > /dev/null 2>&1 && break; sleep 0.1; done

echo "== the installed porthole in kiosk mode under cage on Xvfb $display, ALSA only"
setsid $as_user env -i PATH=/usr/bin:/bin HOME="$work/home" XDG_RUNTIME_DIR="$work/runtime" DISPLAY="$display" WLR_BACKENDS=x11 \
    PULSE_SERVER=unix:/nonexistent LANG=C.UTF-8 G_MESSAGES_DEBUG=porthole \
    dbus-run-session -- cage -- "$porthole" --kiosk --config "$work/porthole.conf" > "$work/kiosk.log" 2>&1 &
kiosk_pid=$!
for attempt in $(seq 1 120); do
    grep -q '"GET / ' "$work/server.log" && grep -q 'PORTHOLE_EVENT=load-finished\|load finished\|page loaded' "$work/kiosk.log" 2>/dev/null && break
    grep -q '"GET / ' "$work/server.log" && [ "$attempt" -gt 20 ] && break
    kill -0 "$kiosk_pid" 2>/dev/null || { cat "$work/kiosk.log" >&2; echo "audio-test: the kiosk ended" >&2; exit 1; }
    sleep 0.5
done
grep -q '"GET / ' "$work/server.log" || { cat "$work/kiosk.log" >&2; echo "audio-test: the kiosk never loaded its page" >&2; exit 1; }
sleep 2  # the page drawn and the window focused (a visitor would look first, too)

echo "== the speech key"
DISPLAY="$display" xdotool mousemove 512 400 key ctrl+alt+z
# The idle warning (and its tone) comes idle-timeout - idle-warning = 2 s after the last input;
# the reset 6 s later. Wait for both, and for espeak-ng to have said the warning.
sleep 12
import -display "$display" -window root "$results/audio-test.png" 2>/dev/null || true
kill -- "-$kiosk_pid" 2>/dev/null || true
wait "$kiosk_pid" 2>/dev/null || true
kiosk_pid=

cp "$work/kiosk.log" "$results/audio-test.log"
status=0
summary() { # LABEL FILES...: sox stat of the concatenated raw files (their name says the format)
    label=$1; shift
    files=
    for file in "$@"; do [ -s "$file" ] && files="$files $file"; done
    if [ -z "$files" ]; then echo "$label: nothing reached ALSA"; status=1; return; fi
    set -- $files
    name=$(basename "$1" .raw); rate=$(echo "$name" | cut -d- -f2); channels=$(echo "$name" | cut -d- -f3); bits=$(echo "$name" | cut -d- -f4)
    cat "$@" > "$work/$label.raw"
    sox -t raw -r "$rate" -e signed -b "$bits" -c "$channels" "$work/$label.raw" -n stat > "$work/$label.stat" 2>&1 || true
    length=$(sed -n 's/^Length (seconds): *//p' "$work/$label.stat")
    rms=$(sed -n 's/^RMS *amplitude: *//p' "$work/$label.stat")
    echo "$label: ${rate} Hz, $channels channel(s), ${length:-?} s, RMS amplitude ${rms:-?}"
    python3 -c "import sys; sys.exit(0 if float('${rms:-0}') > 0.005 else 1)" || { echo "$label: silence"; status=1; }
}
# espeak-ng speaks at 22,050 Hz mono; the tone is whatever GStreamer negotiated (not 22,050 Hz).
summary speech "$work/sound/alsa-22050-1-16.raw"*
summary tone $(ls "$work/sound/"alsa-*.raw* 2>/dev/null | grep -v 'alsa-22050-1-16' || true)
grep -o 'PORTHOLE_SPEECH_TEXT=[^ ]*' "$work/kiosk.log" 2>/dev/null | head -3 || true
grep -i 'warning sound\|no idle warning sound\|speech-problem' "$work/kiosk.log" | head -5 || true
exit $status
