#!/bin/sh
# gemu-replay from the command line, without a guest: a recorded prefix
# of a guest's boot (tests/recordings/) replays to the end of what it
# holds, a small driver's channel (g84-channel.rec: M2MF, 2D, 3D,
# semaphores) to its END in the recorded state; a damaged copy, a file that is not a recording, a missing file
# and bad options are refused with exit status 2 and a message naming
# the problem (and the byte offset for damage).
# Prints "gemu-replay: N passed, N failed" last.
. "$(dirname "$0")/lib/harness.sh"

rec="$SRC_DIR/tests/recordings/g84-boot-prefix.rec"
chan="$SRC_DIR/tests/recordings/g84-channel.rec"
replay="$build/gemu-replay"

# $1 name, $2 expected status, $3 text the output must hold, then args
expect() {
    name=$1 want=$2 text=$3
    shift 3
    "$replay" "$@" >"$tmp/out" 2>&1
    got=$?
    if test "$got" != "$want"; then
        bad "$name: exit $got, expected $want: $(cat "$tmp/out")"
    elif ! grep -q -- "$text" "$tmp/out"; then
        bad "$name: no '$text' in: $(cat "$tmp/out")"
    else
        ok
    fi
}

if ! test -f "$rec"; then
    bad "missing $rec"
else
    expect prefix 0 '4500 accesses, card time' "$rec"
    expect prefix-note 0 'without an END record' "$rec"
    expect prefix-frames 0 'no END record' -frames "$tmp/frames" "$rec"
    expect prefix-no-mode 2 'no scanout surface' \
        -screendump "$tmp/x.png" "$rec"
    cp "$rec" "$tmp/damaged.rec"
    printf '\377' | dd of="$tmp/damaged.rec" bs=1 seek=20000 \
        conv=notrunc 2>/dev/null
    expect damaged 2 'offset' "$tmp/damaged.rec"
    head -c 40 "$rec" >"$tmp/short.rec"
    expect header-cut 2 'too short' "$tmp/short.rec"
fi
if ! test -f "$chan"; then
    bad "missing $chan"
else
    expect channel 0 'final state matches' "$chan"
fi
expect not-a-recording 2 'not a gemu recording' "$SRC_DIR/README.md"
expect missing 2 'No such file' "$tmp/none.rec"
expect bad-option 2 'usage:' -bogus "$rec"
expect no-file 2 'usage:'
finish gemu-replay
