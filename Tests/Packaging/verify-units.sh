#!/bin/sh
# Runs `systemd-analyze verify` on each systemd unit given and fails on any diagnostic it prints
# (systemd reports unknown or misplaced keys as warnings and still exits 0), and fails when
# `systemd-analyze security` rates a unit's exposure above 4.5 ("OK" or better). Works without a
# running systemd: executables a unit names that this machine lacks (porthole before it is
# installed, cage) are replaced in a temporary copy by a stub, so only the unit itself is judged.
set -eu
[ $# -gt 0 ] || { echo "usage: $0 UNIT..." >&2; exit 2; }
command -v systemd-analyze >/dev/null || { echo "$0: systemd-analyze is missing (Debian package systemd)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '#!/bin/sh\n' > "$work/stub"
chmod +x "$work/stub"
status=0
for unit in "$@"; do
    copy="$work/$(basename "$unit")"
    : > "$copy"
    while IFS= read -r line; do
        case "$line" in
            Exec*=/*)
                key=${line%%=*}; command=${line#*=}; program=${command%% *}; rest=${command#"$program"}
                [ -x "$program" ] || line="$key=$work/stub$rest"
                ;;
        esac
        printf '%s\n' "$line" >> "$copy"
    done < "$unit"
    output=$(cd "$work" && systemd-analyze verify --man=no "$copy" 2>&1) || status=1
    if [ -n "$output" ]; then
        printf '%s: systemd-analyze verify:\n%s\n' "$unit" "$output" | sed "s|$work/||g" >&2
        status=1
    fi
    # The threshold is on the 0-100 scale behind the 0.0-10.0 that it prints.
    if ! exposure=$(cd "$work" && systemd-analyze security --offline=true --threshold=45 --no-pager "$copy" 2>&1); then
        printf '%s: systemd-analyze security: %s\n' "$unit" "$(printf '%s\n' "$exposure" | tail -n 1)" >&2
        status=1
    fi
    printf '%s: %s\n' "$(basename "$unit")" "$(printf '%s\n' "$exposure" | tail -n 1 | sed 's/^→ //')"
done
[ $status = 0 ] && echo "systemd-analyze verify and security: $# unit(s) clean"
exit $status
