#!/bin/sh
# SPDX-License-Identifier: MIT
# Boot gemu's guest (gemu -M g84 -guest: Debian's kernel, nouveau and
# busybox under QEMU, the card served over mpqemu) and check the serial
# log for nouveau's probe of the emulated G84.  Each boot is bounded by a
# timeout.  Needs qemu-system-x86, linux-image-amd64, busybox-static.
#   GEMU_BUILD  the build directory (default: build)
#   GEMU_GUEST_LOG  keep the serial logs under this prefix (default: temp)
# Prints "guest: N passed, N failed" last.
set -u
build=${GEMU_BUILD:-build}
limit=${GEMU_GUEST_TIMEOUT:-240}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "PASS: $1"; pass=$((pass + 1)); }
ko() { echo "FAIL: $1"; fail=$((fail + 1)); }

# "W H" of a PNG file (from its IHDR chunk), or nothing
png_size() {
    set -- $(od -An -tu1 -j16 -N8 "$1" 2>/dev/null)
    test $# -eq 8 || return
    echo "$(( ($1 << 24) | ($2 << 16) | ($3 << 8) | $4 ))" \
         "$(( ($5 << 24) | ($6 << 16) | ($7 << 8) | $8 ))"
}

boot() {
    # $1: name, $2: extra kernel options, $3: "png" to pass -screendump
    log="$tmp/$1.log"
    shot="$tmp/$1.png"
    dump=
    if test "${3:-}" = png; then
        dump="-screendump $shot"
    fi
    # shellcheck disable=SC2086
    timeout -k 10 "$limit" "$build/gemu" $dump -M g84 -guest \
        -guest-append "$2 gemu.poweroff=1" </dev/null >"$log" 2>&1
    rc=$?
    if test -n "${GEMU_GUEST_LOG:-}"; then
        cp "$log" "$GEMU_GUEST_LOG-$1.log"
    fi
    if test $rc -eq 124 || test $rc -eq 137; then
        ko "$1: guest did not power off within $limit s"
    elif grep -q 'gemu-guest: powering off' "$log"; then
        ok "$1: guest ran and powered off (gemu exit $rc)"
    else
        ko "$1: guest did not finish (gemu exit $rc): $(tail -n 3 "$log")"
    fi
    for want in 'NVIDIA G84 (084000a2)' 'bios: version' 'fb: 256 MiB' \
                '[drm] Initialized nouveau'; do
        if grep -qF "$want" "$log"; then
            ok "$1: '$want'"
        else
            ko "$1: no '$want' in the log"
        fi
    done
    bad=$(grep -i 'nouveau' "$log" |
          grep -iE 'timeout|stalled|failed|error|unable|trapped')
    if test -z "$bad"; then
        ok "$1: no nouveau line with timeout/stalled/failed/error/unable/trapped"
    else
        ko "$1: nouveau complains:"
        echo "$bad" | head -n 10 | sed 's/^/    /'
    fi
    if test -n "$dump"; then
        size=$(png_size "$shot")
        if test "$size" = "1024 768"; then
            ok "$1: -screendump wrote a 1024x768 PNG of head 0"
        else
            ko "$1: -screendump: no 1024x768 PNG (size '${size}'):" \
               "$(grep -a 'screendump' "$log" | tail -n 1)"
        fi
    fi
}

if ! test -x "$build/gemu"; then
    ko "no $build/gemu (build first)"
elif ! command -v qemu-system-x86_64 >/dev/null; then
    ko "qemu-system-x86_64 missing (apt-get install qemu-system-x86)"
else
    boot noaccel "nouveau.noaccel=1" png
    boot modeset2 "nouveau.modeset=2 nouveau.noaccel=1"
fi
echo "guest: $pass passed, $fail failed"
test "$fail" -eq 0
