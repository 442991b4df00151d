#!/bin/sh
# The sanitizer runs CI makes beside the normal build and make check
# (docs/devel/fuzzing.md, "Sanitizers"); a developer runs them the same:
#
#   sh tests/sanitize.sh [WORKDIR]      (default: a new temporary one)
#
#   asan   configure --enable-sanitizers (ASan + UBSan, UB fatal) in
#          WORKDIR/asan: the unit and device suites, tests/tools/*.sh
#          but display-sdl.sh, then make fuzz-smoke (every libFuzzer
#          harness a few seconds)
#   tsan   -fsanitize=thread in WORKDIR/tsan: the device suites (nv50_)
#          with tests/device/tsan.supp
#
# Guest boots (tests/guest/) are not run here.  SANITIZE_JOBS (default
# nproc) is make's -j; SANITIZE_SKIP="tsan fuzz" leaves parts out.  The
# last line is "sanitize: N passed, N failed" over the suites and
# scripts run; the exit status is non-zero if any failed.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d "${TMPDIR:-/tmp}/gemu-sanitize.XXXXXX")}
jobs=${SANITIZE_JOBS:-$(nproc)}
skip=${SANITIZE_SKIP:-}
pass=0
fail=0
unset DISPLAY WAYLAND_DISPLAY

note() {
    echo "sanitize: $*"
}

# count OUT NAME RC: the runner's last "X: N passed, N failed" line
count() {
    line=$(grep -E '^[a-z0-9_-]+: [0-9]+ passed, [0-9]+ failed' "$1" |
           tail -n 1)
    if test -z "$line"; then
        note "$2 printed no summary line (exit $3): 1 failure"
        fail=$((fail + 1))
        return
    fi
    p=$(echo "$line" | sed 's/^[^:]*: \([0-9]*\) passed.*/\1/')
    f=$(echo "$line" | sed 's/.* \([0-9]*\) failed.*/\1/')
    if test "$3" -ne 0 && test "$f" -eq 0; then
        note "$2 exited $3"
        f=1
    fi
    pass=$((pass + p))
    fail=$((fail + f))
}

# build DIR CONFIGURE-ARGS...: false (counted) if it does not build
build() {
    dir=$1
    shift
    mkdir -p "$dir"
    if ! (cd "$dir" && "$src/configure" "$@" > configure.log 2>&1 &&
          make -j"$jobs" all tests/unit-tests > make.log 2>&1); then
        note "$dir: the build failed (tail of $dir/make.log):"
        tail -n 20 "$dir/make.log"
        fail=$((fail + 1))
        return 1
    fi
}

# run NAME COMMAND...: output to a file, shown, counted
run() {
    name=$1
    shift
    out="$work/$name.out"
    "$@" > "$out" 2>&1
    rc=$?
    cat "$out"
    count "$out" "$name" "$rc"
}

# the harnesses built in parallel, then run one after the other
fuzz_smoke() {
    if ! make -C "$1" -s -j"$jobs" fuzz-build > "$1/fuzz-build.log" 2>&1
    then
        tail -n 20 "$1/fuzz-build.log"
        return 1
    fi
    # a fixed seed: the same mutations from run to run (within the time)
    FUZZ_ARGS=${FUZZ_ARGS:--seed=1} make -C "$1" -s fuzz-smoke
}

start=$(date +%s)
asan="$work/asan"
# halt_on_error: gcc's UBSan goes on after a report unless told
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
# leaks of the system libraries behind the window are not gemu's
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$src/tests/lsan.supp:print_suppressions=0}
if build "$asan" --enable-werror --enable-sanitizers; then
    # the usse_isa round trip and the fuzz suite need the time under ASan
    run asan-unit env GEMU_SRC="$src" CK_TIMEOUT_MULTIPLIER=10 \
        "$asan/tests/unit-tests"
    for t in "$src"/tests/tools/*.sh; do
        name=$(basename "$t" .sh)
        # display-sdl: under ASan, now and then one of its gemu windows
        # finds no display ("x11,kmsdrm not available"), and what SDL2's
        # unloaded X11/GL libraries leak cannot be suppressed: make
        # check runs it on the normal build (fuzzing.md, "Not yet")
        test "$name" = display-sdl && continue
        run "asan-$name" env GEMU_BUILD="$asan" GEMU_SRC="$src" sh "$t"
    done
    case " $skip " in
    *" fuzz "*) ;;
    *) run asan-fuzz-smoke fuzz_smoke "$asan" ;;
    esac
fi
note "asan: $(( $(date +%s) - start )) s"

case " $skip " in
*" tsan "*) ;;
*)
    start=$(date +%s)
    tsan="$work/tsan"
    # no --enable-werror: GCC's -Wtsan refuses pusher.c's release fence
    if build "$tsan" --extra-cflags='-fsanitize=thread -g -O1' \
             --extra-ldflags=-fsanitize=thread; then
        run tsan-nv50 env GEMU_SRC="$src" CK_TIMEOUT_MULTIPLIER=10 \
            TSAN_OPTIONS="suppressions=$src/tests/device/tsan.supp halt_on_error=1" \
            "$tsan/tests/unit-tests" nv50_
    fi
    note "tsan: $(( $(date +%s) - start )) s"
    ;;
esac

echo "sanitize: $pass passed, $fail failed"
test "$fail" -eq 0
