#!/bin/sh
# SPDX-License-Identifier: MIT
# -clock virtual and -record with gemu's guest (docs/replay.md): two
# boots of the same guest in -clock virtual, both recorded, each writing
# its frames (-frames) and its last frame (-screendump).  -clock virtual
# runs gemu's guest under QEMU's -icount with a fixed seed and RTC, and
# takes the card's idle jumps at the guest's interrupt polls, so the two
# runs must make the same accesses (their recordings replay to the same
# number of accesses and the same card time) and write the same frame
# files, byte for byte.  gemu-replay must replay the first recording
# without QEMU to the recorded final state, with the same frame files,
# byte for byte, and the same last frame, faster than the run took; a
# damaged copy of the recording must be refused with the byte offset,
# and a truncated one replayed as far as it goes.  Needs
# qemu-system-x86, linux-image-amd64, busybox-static, jq.
#   GEMU_BUILD  the build directory (default: build)
#   GEMU_GUEST_LOG  keep the logs, frames and recording under this prefix
# Prints "replay: N passed, N failed" last.
set -u
build=${GEMU_BUILD:-build}
src=$(cd "$(dirname "$0")/../.." && pwd)
limit=${GEMU_GUEST_TIMEOUT:-300}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/guest/lib/nouveau-checks.sh"

# what the guest draws on its console: fbcon scrolls (2D engine blits)
text='Deterministic_frames_from_the_emulated_G84'
run='seq 1 120 > /dev/tty0; echo replayed run > /dev/tty0;'\
' echo gemu-replay-test-done'

boot() {
    # $1: name, then gemu options
    name=$1
    shift
    log="$tmp/$name.log"
    start=$(date +%s)
    timeout -k 10 "$limit" "$build/gemu" -display none -M g84 \
        -clock virtual -frames "$tmp/$name.frames" \
        -screendump "$tmp/$name.png" -summary "$tmp/$name.json" "$@" -guest \
        -guest-append "gemu.tty0=$text" -guest-run "$run" \
        </dev/null >"$log" 2>&1
    rc=$?
    secs=$(($(date +%s) - start))
    if test -n "${GEMU_GUEST_LOG:-}"; then
        cp "$log" "$GEMU_GUEST_LOG-$name.log"
        cp "$tmp/$name.png" "$GEMU_GUEST_LOG-$name.png" 2>/dev/null
        cp -r "$tmp/$name.frames" "$GEMU_GUEST_LOG-$name.frames" 2>/dev/null
    fi
    if test $rc -eq 0 && grep -q gemu-replay-test-done "$log"; then
        ok "$name: the guest ran its command (${secs} s)"
    else
        ko "$name: gemu exit $rc: $(tail -n 3 "$log")"
    fi
    jumps=$(jq -c .clock_jumps "$tmp/$name.json" 2>/dev/null)
    if jq -e '.clock_jumps.at_polls > 0 and .clock_jumps.host_timed == 0' \
        "$tmp/$name.json" >/dev/null 2>&1; then
        ok "$name: every clock jump at the guest's polls ($jumps)"
    else
        ko "$name: clock jumps $jumps: not all at the guest's polls"
    fi
    probe_checks "$name" "$log"
    accel_log_checks "$name" "$log"
}

# $1, $2: frame directories, $3: what they are.  The same files, byte
# for byte.
same_frames() {
    a=$(cd "$1" 2>/dev/null && ls)
    b=$(cd "$2" 2>/dev/null && ls)
    if test -z "$a"; then
        ko "$3: no frames in $1"
        return
    fi
    if test "$a" != "$b"; then
        ko "$3: other frame files: [$(echo "$a" | tr '\n' ' ')] and" \
            "[$(echo "$b" | tr '\n' ' ')]"
        return
    fi
    for f in $a; do
        if ! cmp -s "$1/$f" "$2/$f"; then
            ko "$3: $f differs"
            return
        fi
    done
    ok "$3: the same $(echo "$a" | wc -l) frame files, byte for byte"
}

# "N accesses, card time T s" of a recording, as gemu-replay reads it
replayed() {
    "$build/gemu-replay" "$1" 2>&1 |
        sed -n 's/.*: \([0-9]* accesses, card time [0-9.]* s\).*/\1/p'
}

replay_checks() {
    rec="$tmp/first.rec"
    out="$tmp/replay.out"
    "$build/gemu-replay" -frames "$tmp/replay.frames" \
        -screendump "$tmp/replay.png" "$rec" >"$out" 2>&1
    rc=$?
    if test $rc -eq 0 && grep -q 'final state matches' "$out"; then
        ok "gemu-replay: $(cat "$out")"
    else
        ko "gemu-replay exit $rc: $(cat "$out")"
    fi
    same_frames "$tmp/first.frames" "$tmp/replay.frames" \
        "the replay's frames and the recorded run's"
    if cmp -s "$tmp/first.png" "$tmp/replay.png"; then
        ok "the replay's last frame is the recorded run's"
    else
        ko "the replay's -screendump differs from the recorded run's"
    fi
    # faster than the run: the summary says "(recorded run A s: Nx)"
    speed=$(sed -n 's/.*s: \([0-9.]*\)x).*/\1/p' "$out")
    if test -n "$speed" && test "${speed%%.*}" -ge 2; then
        ok "the replay ran ${speed}x faster than the recorded run"
    else
        ko "the replay is not faster than the recorded run: $(cat "$out")"
    fi

    # a damaged byte in the middle: refused, with the offset
    size=$(wc -c <"$rec")
    cp "$rec" "$tmp/damaged.rec"
    printf '\377' | dd of="$tmp/damaged.rec" bs=1 seek=$((size / 2)) \
        conv=notrunc 2>/dev/null
    "$build/gemu-replay" "$tmp/damaged.rec" >"$out" 2>&1
    rc=$?
    if test $rc -eq 2 && grep -q 'offset' "$out"; then
        ok "a damaged recording is refused: $(head -n 1 "$out")"
    else
        ko "a damaged recording: exit $rc: $(cat "$out")"
    fi
    # cut short (a killed run): replays what there is, says so, exit 0
    head -c $((size / 3)) "$rec" >"$tmp/short.rec"
    "$build/gemu-replay" "$tmp/short.rec" >"$out" 2>&1
    rc=$?
    if test $rc -eq 0 && grep -q 'replayed what there was' "$out" &&
       grep -q 'no END record' "$out"; then
        ok "a truncated recording replays as far as it goes"
    else
        ko "a truncated recording: exit $rc: $(cat "$out")"
    fi
}

if ! test -x "$build/gemu" || ! test -x "$build/gemu-replay"; then
    ko "$build/gemu or $build/gemu-replay missing (make first)"
elif ! command -v qemu-system-x86_64 >/dev/null; then
    ko "qemu-system-x86_64 missing (apt-get install qemu-system-x86)"
else
    boot first -record "$tmp/first.rec"
    boot second -record "$tmp/second.rec"
    same_frames "$tmp/first.frames" "$tmp/second.frames" \
        "two -clock virtual runs"
    r1=$(replayed "$tmp/first.rec")
    r2=$(replayed "$tmp/second.rec")
    if test -n "$r1" && test "$r1" = "$r2"; then
        ok "two -clock virtual runs made the same accesses ($r1)"
    else
        ko "two -clock virtual runs differ: [$r1] and [$r2]"
    fi
    if cmp -s "$tmp/first.png" "$tmp/second.png"; then
        ok "two -clock virtual runs end on the same frame"
    else
        ko "two -clock virtual runs end on different frames"
    fi
    replay_checks
    if test -n "${GEMU_GUEST_LOG:-}"; then
        cp "$tmp/first.rec" "$GEMU_GUEST_LOG-first.rec"
        cp -r "$tmp/replay.frames" "$GEMU_GUEST_LOG-replay.frames" 2>/dev/null
    fi
fi
echo "replay: $pass passed, $fail failed"
test "$fail" -eq 0
