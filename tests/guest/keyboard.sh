#!/bin/sh
# SPDX-License-Identifier: MIT
# Keys typed into gemu's window reach the guest: under Xvfb, boot gemu's
# guest (gemu -M g84 -guest) in an SDL window, wait until its /init has
# written the framebuffer console and started the shell on tty1, type a
# command into the window with xdotool (XTEST, as a user types), and
# check that the tty1 shell ran it: its output comes back on the serial
# log (the command tees it to ttyS0), and the frame gemu dumps at exit
# shows it on a line of its own (tesseract).  Path: SDL key events ->
# qcodes (ui/) -> QMP input-send-event (hw/remote/qmp.c) -> QEMU's PS/2
# keyboard -> the guest's foreground VT.  Needs xvfb, xdotool, x11-utils, tesseract-ocr and the
# guest's packages (qemu-system-x86, linux-image-amd64, busybox-static):
# without them SKIP, or FAIL when $CI is set.
#   GEMU_BUILD  the build directory (default: build)
#   GEMU_GUEST_LOG  keep the serial log and the frame under this prefix
# Prints "keyboard: N passed, N failed" last.
set -u
build=${GEMU_BUILD:-build}
src=$(cd "$(dirname "$0")/../.." && pwd)
limit=${GEMU_GUEST_TIMEOUT:-240}
tmp=$(mktemp -d)
xvfb_pid=
gemu_pid=
cleanup() {
    test -n "$gemu_pid" && kill "$gemu_pid" 2>/dev/null
    test -n "$xvfb_pid" && kill "$xvfb_pid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
. "$src/tests/guest/lib/nouveau-checks.sh"

finish() {
    echo "keyboard: $pass passed, $fail failed"
    test "$fail" -eq 0
    exit
}

missing=
for tool in Xvfb xdotool xwininfo tesseract qemu-system-x86_64; do
    command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
if ! test -x "$build/gemu"; then
    ko "no $build/gemu (build first)"
    finish
fi
if test -n "$missing"; then
    if test -n "${CI:-}"; then
        ko "missing tools:$missing (.ci/debian-packages installs them)"
    else
        echo "SKIP: keyboard: missing tools:$missing"
    fi
    finish
fi

Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp \
    3>"$tmp/xvfb.dpy" >"$tmp/xvfb.log" 2>&1 &
xvfb_pid=$!
i=0
while ! test -s "$tmp/xvfb.dpy" && test $i -lt 100; do
    sleep 0.1
    i=$((i + 1))
done
if ! test -s "$tmp/xvfb.dpy"; then
    ko "Xvfb did not start: $(cat "$tmp/xvfb.log")"
    finish
fi
DISPLAY=:$(head -n 1 "$tmp/xvfb.dpy")
export DISPLAY
unset WAYLAND_DISPLAY SDL_VIDEODRIVER

log="$tmp/serial.log"
shot="$tmp/frame.png"
# stdin stays open (and silent): the serial shell must not see EOF, which
# would power the guest off
mkfifo "$tmp/in"
timeout -k 10 "$limit" "$build/gemu" -display sdl -screendump "$shot" \
    -M g84 -guest <"$tmp/in" >"$log" 2>&1 &
gemu_pid=$!
exec 3>"$tmp/in"

# wait_for TEXT: until the serial log shows TEXT (false if gemu ended)
wait_for() {
    while ! grep -q "$1" "$log"; do
        kill -0 "$gemu_pid" 2>/dev/null || return 1
        sleep 1
    done
}

if ! wait_for 'gemu-guest: shell on tty1'; then
    ko "the guest did not start its tty1 shell: $(tail -n 3 "$log")"
    finish
fi
ok "the guest started a shell on tty1"
win=$(xwininfo -root -tree 2>/dev/null |
      sed -n 's/^ *\(0x[0-9a-f]*\) "gemu g84 head 0.*/\1/p' | head -n 1)
if test -z "$win"; then
    ko "no window 'gemu g84 head 0'"
    finish
fi
if grep -q 'qmp:' "$log"; then
    ko "QMP complained: $(grep 'qmp:' "$log" | head -n 1)"
fi
# let the shell print its prompt, then type (shifted keys included); the
# output, in lower case, is not in what was typed
want=typed-in-window
sleep 3
xdotool windowfocus --sync "$win"
xdotool type --delay 50 'echo TYPED-IN-WINDOW | tr A-Z a-z | tee /dev/ttyS0'
xdotool key Return
i=0
while ! grep -q "$want" "$log" && test $i -lt 60; do
    sleep 1
    i=$((i + 1))
done
if grep -q "$want" "$log"; then
    ok "the tty1 shell ran the command typed into the window"
else
    ko "no '$want' from the tty1 shell on the serial log"
fi
# fbcon draws through BAR1 slowly: give it time, then end QEMU (gemu
# forwards SIGTERM) so that gemu dumps the last frame
sleep 5
kill -TERM "$gemu_pid"
wait "$gemu_pid"
gemu_pid=
exec 3>&-
if test -n "${GEMU_GUEST_LOG:-}"; then
    cp "$log" "$GEMU_GUEST_LOG-keyboard.log"
    cp "$shot" "$GEMU_GUEST_LOG-keyboard.png" 2>/dev/null
fi
if ! test -s "$shot"; then
    ko "gemu wrote no frame at exit"
elif OMP_THREAD_LIMIT=1 tesseract "$shot" "$tmp/ocr" >/dev/null 2>&1 &&
     grep -q "^ *$want *\$" "$tmp/ocr.txt"; then
    ok "the console shows the command's output"
else
    ko "the dumped frame does not show '$want':" \
       "$(tr '\n' ' ' < "$tmp/ocr.txt" 2>/dev/null)"
fi
finish
