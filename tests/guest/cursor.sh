#!/bin/sh
# SPDX-License-Identifier: MIT
# The hardware cursor end to end: a guest program (drm-cursor.c, built
# here statically with the kernel's uapi headers) sets a 64x64 ARGB8888
# cursor at (100, 200) through DRM's legacy cursor ioctl, as X's
# modesetting driver would; Debian's nouveau turns that into the EVO
# cursor methods, and the frame gemu dumps at exit must be the golden
# console frame (tests/images/g84-fbcon.png, the same text as
# nouveau-probe.sh's first boot) with exactly the cursor blended in:
# opaque red and green halves on top, red at alpha 0x80 over the black
# console below it (straight alpha: 0x80 red), a clear quarter.
#
# The program reaches the guest in a second cpio archive appended to the
# initramfs gemu builds (lib/guest-prog.sh), passed as QEMU's last
# -initrd; "gemu.run=" (system/g84-guest.c) runs it, and the guest
# powers off 3 s (many vblanks) after it has set the cursor.
#
# Needs qemu-system-x86, linux-image-amd64, busybox-static, a C compiler
# with static libc (build-essential), libdrm-dev (the uapi headers),
# imagemagick.  One boot, ~70 s.
#   GEMU_BUILD, GEMU_GUEST_TIMEOUT, GEMU_GUEST_LOG as nouveau-probe.sh.
# Prints "cursor: N passed, N failed" last.
set -u
build=${GEMU_BUILD:-build}
src=$(cd "$(dirname "$0")/../.." && pwd)
limit=${GEMU_GUEST_TIMEOUT:-240}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/guest/lib/nouveau-checks.sh"
. "$src/tests/guest/lib/guest-prog.sh"

# pixel X Y FILE: "#RRGGBB"
pixel() {
    convert "$3" -crop "1x1+$1+$2" -depth 8 txt:- 2>/dev/null |
        grep -o '#[0-9A-F]\{6\}' | head -n 1
}

cursor_boot() {
    if ! err=$(guest_prog_drm "$build" "$src/tests/guest/drm-cursor.c" \
               "$tmp/initrd.cpio"); then
        ko "$err"
        return
    fi

    log="$tmp/cursor.log"
    shot="$tmp/cursor.png"
    timeout -k 10 "$limit" "$build/gemu" -screendump "$shot" -display none \
        -M g84 -guest -guest-append \
        "gemu.tty0=$tty0text gemu.run=/bin/drm-cursor gemu.poweroff=3" \
        -- -initrd "$tmp/initrd.cpio" </dev/null >"$log" 2>&1
    rc=$?
    if test -n "${GEMU_GUEST_LOG:-}"; then
        cp "$log" "$GEMU_GUEST_LOG-cursor.log"
        cp "$shot" "$GEMU_GUEST_LOG-cursor.png" 2>/dev/null
    fi
    if grep -q 'gemu-guest: powering off' "$log"; then
        ok "cursor: guest ran and powered off (gemu exit $rc)"
    else
        ko "cursor: guest did not finish (gemu exit $rc): $(tail -n 3 "$log")"
    fi
    probe_checks cursor "$log"
    accel_log_checks cursor "$log"
    if grep -q 'drm-cursor: cursor on CRTC' "$log"; then
        ok "cursor: the guest set a cursor through DRM_IOCTL_MODE_CURSOR"
    else
        ko "cursor: $(grep -a 'drm-cursor' "$log" | tail -n 1)"
    fi
    screendump_check cursor "$log" "$shot" || return
    # inside the cursor
    for want in "110 210 #FF0000 opaque red" "150 210 #00FF00 opaque green" \
                "110 250 #800000 red at alpha 0x80 over black" \
                "150 250 #000000 clear" "100 200 #FF0000 its top-left" \
                "163 231 #00FF00 the right edge"; do
        # shellcheck disable=SC2086
        set -- $want
        x=$1 y=$2 colour=$3
        shift 3
        got=$(pixel "$x" "$y" "$shot")
        if test "$got" = "$colour"; then
            ok "cursor: ($x, $y) is $colour ($*)"
        else
            ko "cursor: ($x, $y) is '$got', not $colour ($*)"
        fi
    done
    # and nothing else differs from the console frame: 3 quarters of
    # 32x32 pixels (red, green, half red) against black
    diff=$(compare -metric AE "$shot" "$src/tests/images/g84-fbcon.png" \
           null: 2>&1)
    if test "$diff" = 3072; then
        ok "cursor: the frame is the console frame plus the cursor"
    else
        ko "cursor: $diff pixels differ from g84-fbcon.png (want 3072)"
    fi
}

if ! err=$(guest_prog_tools "$build"); then
    ko "$err"
elif ! command -v convert >/dev/null || ! command -v compare >/dev/null; then
    ko "imagemagick missing (apt-get install imagemagick)"
else
    cursor_boot
fi
echo "cursor: $pass passed, $fail failed"
test "$fail" -eq 0
