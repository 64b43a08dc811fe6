#!/bin/sh
# Audio where users run it (issue 25): the installed Porthole (make install DESTDIR=ROOT
# PREFIX=/usr) in kiosk mode under cage, nested on Xvfb as the kiosk boot test runs it, with the
# sound stack a kiosk has, and `sox stat` on what reached it says whether it is sound or silence:
#
# - AUDIO_STACK=alsa (default): ALSA only, no sound server (PULSE_SERVER points nowhere, as on a
#   bare cage kiosk). ALSA's default device is a file plugin over the null device (an .asoundrc
#   in the kiosk user's home), so what espeak-ng (through pcaudiolib) and the More time tone
#   (GStreamer's autoaudiosink) send to the sound card is written to files.
# - AUDIO_STACK=pulse: a PulseAudio server of the kiosk user's own with a null sink, its monitor
#   recorded with parec. PULSEAUDIO_ROOT= a tree with usr/bin/pulseaudio and parec (default /;
#   an `apt-get download pulseaudio pulseaudio-utils …` tree unpacked with dpkg -x works too).
#
# Usage: audio-test.sh ROOT [RESULTS_DIR]. Two runs: "speech" presses the speech key
# (Ctrl+Alt+Z) through XTest (xdotool) on cage's X11 window; "tone" lets the idle warning come
# (idle-timeout=3, idle-warning=6) without speech. Exits 0 when both came out, 1 when either was
# silent, 77 when a tool is missing.
set -eu
root=${1:?usage: audio-test.sh ROOT [RESULTS_DIR]}
porthole=$root/usr/bin/porthole
[ -x "$porthole" ] || { echo "audio-test: no $porthole (make install DESTDIR=ROOT PREFIX=/usr)" >&2; exit 1; }
for tool in cage Xvfb xdotool sox python3; do
    command -v "$tool" > /dev/null || { echo "audio-test: skipped: no $tool" >&2; exit 77; }
done
stack=${AUDIO_STACK:-alsa}
work=$(mktemp -d)
results=${2:-$work}
mkdir -p "$results"
display=:$((150 + $$ % 100))
xvfb_pid= server_pid= kiosk_pid= user= pulse_pid= record_pid=
cleanup() {
    [ -z "$kiosk_pid" ] || kill -- "-$kiosk_pid" 2>/dev/null || kill "$kiosk_pid" 2>/dev/null || true
    for pid in $record_pid $pulse_pid $server_pid $xvfb_pid; do kill "$pid" 2>/dev/null || true; done
    if [ -n "$user" ]; then
        # What the session left running (its bus, the accessibility bus): this run's user's only.
        for pid in $(ps -u "$user" -o pid= 2>/dev/null); do kill "$pid" 2>/dev/null || true; done
        for attempt in $(seq 1 20); do [ -z "$(ps -u "$user" -o pid= 2>/dev/null)" ] && break; sleep 0.1; done
        userdel "$user" 2>/dev/null || true
    fi
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

# The kiosk's porthole.conf: the speech run's idle reset far off, the tone run's warning 2 s
# after the visitor's key (the warning shows idle-timeout after the last input, for idle-warning).
configure() { # IDLE_TIMEOUT
    cat > "$work/porthole.conf" <<CONF
[Sites]
Museum=http://127.0.0.1:$port/
[Kiosk]
idle-timeout=$1
idle-warning=6
keyboard=false
[Accessibility]
idle-factor-with-speech=1
CONF
}

# ALSA's default device: every stream converted to 16-bit samples (GStreamer would otherwise
# pick 64-bit floats, which the null device takes too) and written to a file named by its rate,
# channels and bits, appended to (truncate false: pcaudiolib and GStreamer open it more than once).
alsa_device() { # DIRECTORY
    cat > "$work/home/.asoundrc" <<CONF
pcm.!default {
    type plug
    slave { pcm "recorder"; format S16_LE }
}
pcm.recorder {
    type file
    slave { pcm "null" }
    file "$1/alsa-%r-%c-%b.raw"
    format "raw"
    truncate false
}
CONF
}

pulse_library_path=
sound_env=PULSE_SERVER=unix:/nonexistent
if [ "$stack" = pulse ]; then
    pulse_root=${PULSEAUDIO_ROOT:-/}
    pulseaudio=$pulse_root/usr/bin/pulseaudio
    [ -x "$pulseaudio" ] && [ -x "$pulse_root/usr/bin/parec" ] || {
        echo "audio-test: skipped: no $pulseaudio or parec (install pulseaudio pulseaudio-utils, or set PULSEAUDIO_ROOT)" >&2; exit 77; }
    modules=$(dirname "$(find "$pulse_root/usr/lib" -name module-null-sink.so | head -n 1)")
    pulse_library_path=$pulse_root/usr/lib/x86_64-linux-gnu:$pulse_root/usr/lib/x86_64-linux-gnu/pulseaudio:$modules
    mkdir -p "$work/runtime/pulse"
    [ -z "$user" ] || chown "$user:" "$work/runtime/pulse"
    # Where a session's clients look for it: $XDG_RUNTIME_DIR/pulse/native.
    setsid $as_user env -i PATH=/usr/bin:/bin HOME="$work/home" XDG_RUNTIME_DIR="$work/runtime" LD_LIBRARY_PATH="$pulse_library_path" \
        "$pulseaudio" -n --daemonize=no --exit-idle-time=-1 --use-pid-file=no -p "$modules" \
        --load="module-null-sink sink_name=kiosk" --load="module-native-protocol-unix socket=$work/runtime/pulse/native" \
        > "$work/pulse.log" 2>&1 &
    pulse_pid=$!
    for attempt in $(seq 1 50); do [ -S "$work/runtime/pulse/native" ] && break; sleep 0.1; done
    [ -S "$work/runtime/pulse/native" ] || { cat "$work/pulse.log" >&2; echo "audio-test: PulseAudio did not start" >&2; exit 1; }
    sound_env=
fi

Xvfb "$display" -screen 0 1024x768x24 -nolisten tcp -ac > "$work/xvfb.log" 2>&1 &
xvfb_pid=$!
for attempt in $(seq 1 50); do DISPLAY="$display" xdotool getmouselocation > /dev/null 2>&1 && break; sleep 0.1; done

run_kiosk() { # RUN: speech | tone
    run=$1
    mkdir -p "$work/sound/$run"
    [ -z "$user" ] || chown "$user:" "$work/sound/$run"
    if [ "$run" = speech ]; then configure 600; else configure 3; fi
    if [ -n "$pulse_pid" ]; then
        setsid $as_user env -i PATH=/usr/bin:/bin HOME="$work/home" XDG_RUNTIME_DIR="$work/runtime" LD_LIBRARY_PATH="$pulse_library_path" \
            "$pulse_root/usr/bin/parec" -d kiosk.monitor --format=s16le --rate=22050 --channels=1 \
            > "$work/sound/$run/pulse-22050-1-16.raw" 2> "$work/parec-$run.log" &
        record_pid=$!
    else
        alsa_device "$work/sound/$run"
    fi
    echo "== $run: the installed porthole in kiosk mode under cage on Xvfb $display, $stack"
    requests=$(grep -c '"GET / ' "$work/server.log" || true)
    setsid $as_user env -i PATH=/usr/bin:/bin HOME="$work/home" XDG_RUNTIME_DIR="$work/runtime" DISPLAY="$display" WLR_BACKENDS=x11 \
        $sound_env LANG=C.UTF-8 G_MESSAGES_DEBUG=porthole \
        dbus-run-session -- cage -- "$porthole" --kiosk --config "$work/porthole.conf" > "$work/kiosk-$run.log" 2>&1 &
    kiosk_pid=$!
    for attempt in $(seq 1 120); do
        [ "$(grep -c '"GET / ' "$work/server.log" || true)" -gt "$requests" ] && break
        kill -0 "$kiosk_pid" 2>/dev/null || { cat "$work/kiosk-$run.log" >&2; echo "audio-test: the kiosk ended" >&2; exit 1; }
        sleep 0.5
    done
    sleep 2  # the page drawn and the window focused (a visitor would look first, too)
    if [ "$run" = speech ]; then
        echo "   the speech key"
        DISPLAY="$display" xdotool mousemove 512 400 key ctrl+alt+z
    else
        # A visitor's key (an untouched kiosk has no session to warn about).
        DISPLAY="$display" xdotool mousemove 512 400 key space
    fi
    # Speech says its sentence and the page's title; the warning and its tone come 3 s after
    # the key (the reset 6 s after that).
    sleep 6
    import -display "$display" -window root "$results/audio-test-$run.png" 2>/dev/null || true
    kill -- "-$kiosk_pid" 2>/dev/null || true
    wait "$kiosk_pid" 2>/dev/null || true
    kiosk_pid=
    if [ -n "$record_pid" ]; then kill "$record_pid" 2>/dev/null || true; wait "$record_pid" 2>/dev/null || true; record_pid=; fi
    cp "$work/kiosk-$run.log" "$results/audio-test-$run.log"
}

status=0
summary() { # RUN: sox stat of what reached the sound stack in that run (its file's name says the format)
    run=$1
    best= best_size=0
    for file in "$work/sound/$run"/*.raw; do
        [ -e "$file" ] || continue
        size=$(cat "$file" "$file".* 2>/dev/null | wc -c)
        if [ "$size" -gt "$best_size" ]; then best=$file; best_size=$size; fi
    done
    if [ -z "$best" ]; then echo "$run: nothing reached $stack"; status=1; return; fi
    name=$(basename "$best" .raw); rate=$(echo "$name" | cut -d- -f2); channels=$(echo "$name" | cut -d- -f3); bits=$(echo "$name" | cut -d- -f4)
    cat "$best" "$best".* > "$work/$run.raw" 2>/dev/null || true
    sox -t raw -r "$rate" -e signed -b "$bits" -c "$channels" "$work/$run.raw" -n stat > "$work/$run.stat" 2>&1 || true
    length=$(sed -n 's/^Length (seconds): *//p' "$work/$run.stat")
    rms=$(sed -n 's/^RMS *amplitude: *//p' "$work/$run.stat")
    maximum=$(sed -n 's/^Maximum amplitude: *//p' "$work/$run.stat")
    echo "$run: $stack, ${rate} Hz, $channels channel(s), ${length:-?} s, RMS amplitude ${rms:-?}, maximum ${maximum:-?}"
    python3 -c "import sys; sys.exit(0 if float('${rms:-0}') > 0.005 else 1)" || { echo "$run: silence"; status=1; }
}

run_kiosk speech
run_kiosk tone
summary speech
summary tone
grep -ih 'no idle warning sound\|speech-problem' "$work"/kiosk-*.log | head -5 || true
exit $status
