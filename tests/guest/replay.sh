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
# and a truncated one replayed as far as it goes.  Then the same pair
# with Mesa (-guest-mesa): kmscube's 10 frames on the 3D engine, the
# same in both runs and in the replay of the first.  Needs
# qemu-system-x86, linux-image-amd64, busybox-static, jq, and Mesa's
# packages (docs/g84-guest.md, -guest-mesa).  Four boots, ~3 min.
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
# and the 3D engine: 10 frames of kmscube with Mesa's nv50 driver
mesa_run='mkfifo /tmp/kin; kmscube -c 10 -v 640x480 0<>/tmp/kin &&'\
' echo gemu-replay-test-done'

boot() {
    # $1: name, $2: the guest's command, then gemu options
    name=$1
    cmd=$2
    shift 2
    log="$tmp/$name.log"
    start=$(date +%s)
    if test "$shot" = yes; then
        set -- -screendump "$tmp/$name.png" "$@"
    fi
    timeout -k 10 "$limit" "$build/gemu" -display none -M g84 \
        -clock virtual -frames "$tmp/$name.frames" \
        -summary "$tmp/$name.json" "$@" -guest \
        -guest-append "gemu.tty0=$text" -guest-run "$cmd" \
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

# pair A B CMD [gemu options]: two recorded -clock virtual boots running
# CMD must make the same accesses and write the same frames, and end on
# the same frame (-screendump) when $shot is yes; A's recording, replayed
# by gemu-replay (its summary in $tmp/A-replay.out), must reach the
# recorded final state with the same frames (no "local" in sh: pa, pb,
# pcmd, pout are its own)
pair() {
    pa=$1
    pb=$2
    pcmd=$3
    shift 3
    boot "$pa" "$pcmd" -record "$tmp/$pa.rec" "$@"
    boot "$pb" "$pcmd" -record "$tmp/$pb.rec" "$@"
    same_frames "$tmp/$pa.frames" "$tmp/$pb.frames" \
        "$pa and $pb, two -clock virtual runs"
    pout="$tmp/$pa-replay.out"
    if test "$shot" = yes; then
        set -- -screendump "$tmp/$pa-replay.png"
    else
        set --
    fi
    "$build/gemu-replay" -frames "$tmp/$pa-replay.frames" "$@" \
        "$tmp/$pa.rec" >"$pout" 2>&1
    rc=$?
    "$build/gemu-replay" "$tmp/$pb.rec" >"$tmp/$pb-replay.out" 2>&1
    r1=$(accesses "$pout")
    r2=$(accesses "$tmp/$pb-replay.out")
    if test -n "$r1" && test "$r1" = "$r2"; then
        ok "$pa and $pb made the same accesses ($r1)"
    else
        ko "$pa and $pb differ: [$r1] and [$r2]"
    fi
    if test $rc -eq 0 && grep -q 'final state matches' "$pout"; then
        ok "gemu-replay: $(cat "$pout")"
    else
        ko "gemu-replay of $pa exit $rc: $(cat "$pout")"
    fi
    same_frames "$tmp/$pa.frames" "$tmp/$pa-replay.frames" \
        "$pa's replay and its recorded run"
    if test "$shot" = no; then
        return
    fi
    if cmp -s "$tmp/$pa.png" "$tmp/$pb.png"; then
        ok "$pa and $pb end on the same frame"
    else
        ko "$pa and $pb end on different frames"
    fi
    if cmp -s "$tmp/$pa.png" "$tmp/$pa-replay.png"; then
        ok "$pa's replay ends on its recorded run's last frame"
    else
        ko "$pa's replay's -screendump differs from the recorded run's"
    fi
}

# "N accesses, card time T s" from gemu-replay's summary in file $1
accesses() {
    sed -n 's/.*: \([0-9]* accesses, card time [0-9.]* s\).*/\1/p' "$1"
}

# the first pair's replay (pair above) was faster than the run; damaged
# and truncated copies of its recording
replay_checks() {
    rec="$tmp/first.rec"
    out="$tmp/replay.out"
    # faster than the run: the summary says "(recorded run A s: Nx)"
    speed=$(sed -n 's/.*s: \([0-9.]*\)x).*/\1/p' "$tmp/first-replay.out")
    if test -n "$speed" && test "${speed%%.*}" -ge 2; then
        ok "the replay ran ${speed}x faster than the recorded run"
    else
        ko "the replay is not faster than the recorded run:" \
            "$(cat "$tmp/first-replay.out")"
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
    shot=yes
    pair first second "$run"
    replay_checks
    # the same with kmscube on Mesa: the 3D engine, FP work on host threads
    # (no -screendump at exit: kmscube ends with no mode set)
    shot=no
    pair mesa1 mesa2 "$mesa_run" -guest-mesa
    if test -n "${GEMU_GUEST_LOG:-}"; then
        cp "$tmp/first.rec" "$GEMU_GUEST_LOG-first.rec"
        cp -r "$tmp/first-replay.frames" "$GEMU_GUEST_LOG-replay.frames" \
            2>/dev/null
    fi
fi
echo "replay: $pass passed, $fail failed"
test "$fail" -eq 0
