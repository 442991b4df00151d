#!/bin/sh
# The SDL2 display backend in a real window: under Xvfb, "gemu -M sgx543
# -display sdl -screendump OUT.png" opens a window; the test waits until
# it is mapped and shows the frame, takes a screenshot of it, asks the
# window to close the way a window manager does when the user clicks its
# close button (a WM_DELETE_WINDOW client message), and checks that gemu
# then exits 0 by itself and that the window showed exactly the frame it
# dumped.  Once with OpenGL, once with SDL's renderer (GEMU_SDL_NO_GL=1),
# and once in a window made wider than the frame (black bars, 1:1).
# Prints "display-sdl: N passed, N failed" last.
#
# Needs Debian's xvfb, x11-utils (xwininfo, xprop), imagemagick (import,
# compare, identify), a C compiler and libx11-dev (for the tiny client
# that sends the close request).  Without them: SKIP, or FAIL when $CI
# is set.
#
#   GEMU_BUILD  the build directory (default: build)
#
# SPDX-License-Identifier: MIT
. "$(dirname "$0")/lib/harness.sh"
gemu=$build/gemu
images=$SRC_DIR/tests/images
name=display-sdl
xvfb_pid=
gemu_pid=

cleanup() {
    if [ -n "$gemu_pid" ]; then
        kill "$gemu_pid" 2> /dev/null
    fi
    if [ -n "$xvfb_pid" ]; then
        kill "$xvfb_pid" 2> /dev/null
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT

# ImageMagick and the X tools from Debian's packages (on some machines
# another "convert" comes first in PATH: these names are Debian's own)
missing=
for tool in Xvfb xwininfo xprop import compare identify pkg-config; do
    command -v "$tool" > /dev/null 2>&1 || missing="$missing $tool"
done
cc=${CC:-cc}
command -v "$cc" > /dev/null 2>&1 || missing="$missing $cc"
if [ -z "$missing" ] && ! pkg-config --exists x11; then
    missing="$missing libx11-dev"
fi
if [ -n "$missing" ]; then
    if [ -n "${CI:-}" ]; then
        bad "missing tools:$missing (.ci/debian-packages installs them)"
    else
        echo "SKIP: $name: missing tools:$missing" \
             "(apt-get install xvfb x11-utils imagemagick libx11-dev)"
    fi
    finish "$name"
    exit
fi

# xwm: what a window manager does for us (there is none under Xvfb)
#   xwm close WINDOW        WM_DELETE_WINDOW, as for the close button
#   xwm resize WINDOW W H   the user drags the window's border
cat > "$tmp/xwm.c" <<'EOF'
#include <X11/Xlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    Display *dpy = XOpenDisplay(NULL);
    Window w;

    if (!dpy || argc < 3) {
        fprintf(stderr, "xwm: no display or no window\n");
        return 2;
    }
    w = strtoul(argv[2], NULL, 0);
    if (!strcmp(argv[1], "close")) {
        XEvent ev;

        memset(&ev, 0, sizeof(ev));
        ev.xclient.type = ClientMessage;
        ev.xclient.window = w;
        ev.xclient.message_type = XInternAtom(dpy, "WM_PROTOCOLS", False);
        ev.xclient.format = 32;
        ev.xclient.data.l[0] = XInternAtom(dpy, "WM_DELETE_WINDOW", False);
        ev.xclient.data.l[1] = CurrentTime;
        XSendEvent(dpy, w, False, NoEventMask, &ev);
    } else if (!strcmp(argv[1], "resize") && argc == 5) {
        XResizeWindow(dpy, w, atoi(argv[3]), atoi(argv[4]));
    } else {
        fprintf(stderr, "xwm: bad arguments\n");
        return 2;
    }
    XSync(dpy, False);
    XCloseDisplay(dpy);
    return 0;
}
EOF
# shellcheck disable=SC2046
if ! "$cc" -o "$tmp/xwm" "$tmp/xwm.c" $(pkg-config --cflags --libs x11) \
        2> "$tmp/xwm.err"; then
    bad "cannot build the X helper: $(cat "$tmp/xwm.err")"
    finish "$name"
    exit
fi

# An X server on a display number nobody uses (-displayfd: it picks one)
Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp \
    3> "$tmp/xvfb.dpy" > "$tmp/xvfb.log" 2>&1 &
xvfb_pid=$!
i=0
while [ ! -s "$tmp/xvfb.dpy" ] && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
if [ ! -s "$tmp/xvfb.dpy" ]; then
    bad "Xvfb did not start: $(cat "$tmp/xvfb.log")"
    finish "$name"
    exit
fi
DISPLAY=:$(head -n 1 "$tmp/xvfb.dpy")
export DISPLAY
unset WAYLAND_DISPLAY SDL_VIDEODRIVER

# find_window TITLE-PREFIX: the id of the mapped window whose title starts
# so, once it shows a frame (its title has the mode); polls up to ~20 s
find_window() {
    i=0
    while [ $i -lt 200 ]; do
        win=$(xwininfo -root -tree 2> /dev/null |
              sed -n "s/^ *\(0x[0-9a-f]*\) \"$1.*/\1/p" | head -n 1)
        if [ -n "$win" ] &&
           xwininfo -id "$win" 2> /dev/null | grep -q IsViewable; then
            echo "$win"
            return 0
        fi
        if ! kill -0 "$gemu_pid" 2> /dev/null; then
            return 1
        fi
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}

# wait_exit: gemu's exit status once it has ended by itself (polls up to
# ~20 s; 124 if it did not)
wait_exit() {
    i=0
    while kill -0 "$gemu_pid" 2> /dev/null && [ $i -lt 200 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    if kill -0 "$gemu_pid" 2> /dev/null; then
        kill "$gemu_pid"
        wait "$gemu_pid"
        gemu_pid=
        return 124
    fi
    wait "$gemu_pid"
    st=$?
    gemu_pid=
    return $st
}

# differ A B: the number of pixels that differ (ImageMagick's AE metric)
differ() {
    compare -metric AE "$1" "$2" null: 2>&1
}

# shoot WINDOW OUT.png GOLDEN [CROP]: screenshot the window (or the CROP
# part of it); gemu draws at its next poll, so take it again (up to ~10 s)
# until it shows GOLDEN -- the real check comes after gemu has exited
shoot() {
    i=0
    while [ $i -lt 50 ]; do
        if [ -n "${4:-}" ]; then
            import -window "$1" -crop "$4" +repage "$2"
        else
            import -window "$1" "$2"
        fi
        [ "$(differ "$2" "$3")" = 0 ] && return
        sleep 0.2
        i=$((i + 1))
    done
}

# window_test CASE GOLDEN [--no-gl] [--wide] [gemu args...]: run gemu in
# a window, screenshot it, close it, compare
window_test() {
    tc=$1
    golden=$images/$2
    shift 2
    nogl=0
    wide=0
    while :; do
        case "${1:-}" in
        --no-gl) nogl=1 ;;
        --wide) wide=1 ;;
        *) break ;;
        esac
        shift
    done
    out=$tmp/$tc
    mkdir -p "$out"
    GEMU_SDL_NO_GL=$nogl "$gemu" -M sgx543 -display sdl \
        -screendump "$out/dump.png" -frames "$out/frames" "$@" \
        > "$out/stdout" 2> "$out/stderr" &
    gemu_pid=$!
    if ! win=$(find_window "gemu sgx543 — [0-9]*x[0-9]*"); then
        bad "$tc: no window with a frame appeared:" \
            "$(cat "$out/stderr")"
        wait_exit
        return
    fi
    ok
    # a WM sends WM_DELETE_WINDOW only to windows that say they take it
    if xprop -id "$win" WM_PROTOCOLS | grep -q WM_DELETE_WINDOW; then
        ok
    else
        bad "$tc: the window does not take WM_DELETE_WINDOW"
    fi
    geom=$(xwininfo -id "$win" |
           sed -n 's/.*-geometry \([0-9]*x[0-9]*\).*/\1/p')
    w=${geom%x*}
    h=${geom#*x}
    if [ $wide = 1 ]; then
        # twice as wide as the frame: 1:1, centred, black bars each side
        "$tmp/xwm" resize "$win" $((w * 2)) "$h"
        shoot "$win" "$out/shot.png" "$golden" "${w}x$h+$((w / 2))+0"
        import -window "$win" -crop "$((w / 2))x$h+0+0" +repage \
            "$out/left.png"
        import -window "$win" -crop "$((w / 2))x$h+$((w * 3 / 2))+0" \
            +repage "$out/right.png"
        check "$tc: left bar is black" 0 \
            "$(identify -format '%[max]' "$out/left.png")"
        check "$tc: right bar is black" 0 \
            "$(identify -format '%[max]' "$out/right.png")"
        check "$tc: the window's width after resizing" $((w * 2)) \
            "$(xwininfo -id "$win" | sed -n 's/^ *Width: //p')"
    else
        shoot "$win" "$out/shot.png" "$golden"
    fi
    check "$tc: gemu is still running with its window open" yes \
        "$(kill -0 "$gemu_pid" 2> /dev/null && echo yes)"
    "$tmp/xwm" close "$win"
    wait_exit
    st=$?
    check "$tc: exit status after the window was closed" 0 "$st"
    if [ ! -s "$out/dump.png" ]; then
        bad "$tc: no -screendump written: $(cat "$out/stderr")"
        return
    fi
    check "$tc: the dumped frame is the golden image" same \
        "$(cmp -s "$out/dump.png" "$golden" && echo same)"
    check "$tc: the window's size before resizing is the frame's" \
        "$(identify -format '%wx%h' "$out/dump.png")" "$geom"
    check "$tc: pixels that differ between the window and the dump" 0 \
        "$(differ "$out/shot.png" "$out/dump.png")"
    if [ -f "$out/frames/frame-000001.png" ]; then
        check "$tc: pixels that differ between -frames and the dump" 0 \
            "$(differ "$out/frames/frame-000001.png" "$out/dump.png")"
    else
        bad "$tc: -frames wrote no frame-000001.png"
    fi
    if [ $nogl = 1 ]; then
        want="drawing with SDL's renderer"
    else
        want=OpenGL
    fi
    check "$tc: drawn with" "$want" \
        "$(grep -o "drawing with SDL's renderer" "$out/stderr" ||
           echo OpenGL)"
}

window_test gl sgx-default.png
window_test renderer sgx-texture.png --no-gl \
    -scene "$SRC_DIR/tests/scenes/texture.scene"
window_test wide sgx-default.png --wide

finish "$name"
