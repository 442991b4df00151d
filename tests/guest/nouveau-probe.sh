#!/bin/sh
# SPDX-License-Identifier: MIT
# Boot gemu's guest (gemu -M g84 -guest: Debian's kernel, nouveau and
# busybox under QEMU, the card served over mpqemu) and check the serial
# log for nouveau's probe of the emulated G84; the first boot also checks
# the console nouveau draws (fbcon on fb0, the frame -screendump wrote at
# exit against tests/images/g84-fbcon.png); a third boot does the same
# through the monitor on stdin (info display, screendump, quit).  Each
# boot is bounded by a timeout.  Needs qemu-system-x86, linux-image-amd64, busybox-static.
#   GEMU_BUILD  the build directory (default: build)
#   GEMU_GUEST_LOG  keep the serial logs under this prefix (default: temp)
# Prints "guest: N passed, N failed" last.
set -u
build=${GEMU_BUILD:-build}
src=$(cd "$(dirname "$0")/../.." && pwd)
# what the guest writes to its framebuffer console (_ for spaces)
limit=${GEMU_GUEST_TIMEOUT:-240}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/guest/lib/nouveau-checks.sh"

boot() {
    # $1: name, $2: extra kernel options, $3: "png" to pass -screendump,
    # $4: more gemu options
    log="$tmp/$1.log"
    shot="$tmp/$1.png"
    dump=
    if test "${3:-}" = png; then
        dump="-screendump $shot"
    fi
    # shellcheck disable=SC2086
    timeout -k 10 "$limit" "$build/gemu" $dump -display none -M g84 \
        ${4:-} -guest -guest-append "$2 gemu.poweroff=1" </dev/null \
        >"$log" 2>&1
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
    probe_checks "$1" "$log"
    accel_log_checks "$1" "$log"
    if test -n "$dump"; then
        screendump_check "$1" "$log" "$shot"
        fbcon_checks "$1"
    fi
}

# The console nouveau draws: fbcon took fb0 without an EVO timeout, and
# the frame gemu dumped at exit is, pixel for pixel, the golden image of
# what the guest wrote to /dev/tty0 (the banner of gemu's /init and
# $tty0text, in the kernel's 8x16 font; reviewed by eye once).  The PNG
# writer gives the same bytes for the same pixels, so cmp decides.
fbcon_checks() {
    fbcon_log_checks "$1" "$log"
    golden="$src/tests/images/g84-fbcon.png"
    if cmp -s "$shot" "$golden"; then
        ok "$1: the dumped frame shows the text written to /dev/tty0"
    else
        ko "$1: the dumped frame differs from $golden" \
           "(keep it with GEMU_GUEST_LOG=PREFIX: PREFIX-$1.png)"
    fi
    if test -n "${GEMU_GUEST_LOG:-}"; then
        cp "$shot" "$GEMU_GUEST_LOG-$1.png" 2>/dev/null
    fi
}

# The accelerated boot again, driven from gemu's monitor on stdin the way a
# user would: once the guest has written its console, "info display"
# must describe the mode, "screendump" must give the golden frame, and
# "quit" must end QEMU and gemu (exit 0) long before the guest's own
# power-off.
monitor_boot() {
    name=monitor
    log="$tmp/$name.log"
    shot="$tmp/$name.png"
    mkfifo "$tmp/mon"
    timeout -k 10 "$limit" "$build/gemu" -display none -monitor stdio \
        -M g84 -guest -guest-append "$1 gemu.poweroff=120" \
        <"$tmp/mon" >"$log" 2>&1 &
    pid=$!
    exec 3>"$tmp/mon"
    waited=0
    while ! grep -q 'gemu-guest: wrote to /dev/tty0' "$log" &&
          kill -0 $pid 2>/dev/null && test $waited -lt "$limit"; do
        sleep 1
        waited=$((waited + 1))
    done
    printf 'info display\nscreendump %s\nquit\n' "$shot" >&3
    exec 3>&-
    wait $pid
    rc=$?
    if test -n "${GEMU_GUEST_LOG:-}"; then
        cp "$log" "$GEMU_GUEST_LOG-$name.log"
        cp "$shot" "$GEMU_GUEST_LOG-$name.png" 2>/dev/null
    fi
    if test $rc -eq 0 && ! grep -q 'gemu-guest: powering off' "$log"; then
        ok "$name: 'quit' ended the machine (gemu exit 0)"
    else
        ko "$name: gemu exit $rc after 'quit': $(tail -n 3 "$log")"
    fi
    if grep -q "console 0 'g84 head 0': 1024x768 " "$log"; then
        ok "$name: info display shows head 0 at 1024x768"
    else
        ko "$name: info display: $(grep -a "console 0" "$log" | head -n 1)"
    fi
    if cmp -s "$shot" "$src/tests/images/g84-fbcon.png"; then
        ok "$name: the monitor's screendump is the golden frame"
    else
        ko "$name: the monitor's screendump differs from g84-fbcon.png"
    fi
}

if ! test -x "$build/gemu"; then
    ko "no $build/gemu (build first)"
elif ! command -v qemu-system-x86_64 >/dev/null; then
    ko "qemu-system-x86_64 missing (apt-get install qemu-system-x86)"
else
    boot accel "gemu.tty0=$tty0text" png
    # and gemu on one CPU with QEMU's vCPU thread
    boot modeset2 "nouveau.modeset=2" "" "-pin-cpu auto"
    if grep -q -- '-pin-cpu:' "$log"; then
        ko "modeset2: $(grep -a -- '-pin-cpu:' "$log")"
    else
        ok "modeset2: -pin-cpu auto put gemu beside QEMU's vCPU thread"
    fi
    monitor_boot "gemu.tty0=$tty0text"
fi
echo "guest: $pass passed, $fail failed"
test "$fail" -eq 0
