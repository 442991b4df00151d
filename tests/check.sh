#!/bin/sh
# make check: run every test suite and print one closing line,
# "check: N passed, N failed", over all of them.
#   GEMU_BUILD  the build directory (set by make)
#   tests/unit-tests      Check suites (tests/unit/); the tesla ones twice,
#                         the second time on the portable fast path
#   tests/tools/*.sh      command-line tests of the tools, one file each;
#                         each prints "NAME: N passed, N failed" last
#   tests/guest/*.sh      QEMU guests booted against gemu -M g84, each
#                         file's header says what it boots and checks:
#                         gemu's guest (probe, keyboard, cursor, accel,
#                         hostile, driver-loop, replay), its Mesa guest
#                         (mesa.sh with an llvmpipe reference boot,
#                         piglit.sh), Debian's initramfs (about 15
#                         minutes on 2 cores; the packages of
#                         .ci/debian-packages)
set -u
# headless: gemu opens a window by default when a display is available
# (tests that want one, like display-sdl.sh, start their own Xvfb)
unset DISPLAY WAYLAND_DISPLAY
build=${GEMU_BUILD:-build}
src=$(cd "$(dirname "$0")/.." && pwd)
total_pass=0
total_fail=0

count() {
    # last "X: N passed, N failed" line of a runner's output
    line=$(grep -E '^[a-z0-9_-]+: [0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
    if test -z "$line"; then
        echo "check: $2 printed no summary line (counted as 1 failure)"
        total_fail=$((total_fail + 1))
        return
    fi
    p=$(echo "$line" | sed 's/^[^:]*: \([0-9]*\) passed.*/\1/')
    f=$(echo "$line" | sed 's/.* \([0-9]*\) failed.*/\1/')
    total_pass=$((total_pass + p))
    total_fail=$((total_fail + f))
}

out=$(mktemp)
trap 'rm -f "$out"' EXIT

GEMU_SRC="$src" "$build/tests/unit-tests" > "$out" 2>&1
rc=$?
cat "$out"
count "$out" unit-tests
if test $rc -ne 0 && ! grep -q ' [1-9][0-9]* failed' "$out"; then
    echo "check: unit-tests exited $rc"
    total_fail=$((total_fail + 1))
fi

# The Tesla interpreter has a portable and an AVX2 build of its fast path,
# picked at start-up; run the Tesla suites once more on the portable one.
GEMU_SRC="$src" GEMU_TESLA_FAST_BASE=1 "$build/tests/unit-tests" tesla \
    > "$out" 2>&1
rc=$?
sed 's/^unit:/unit-portable:/' "$out" > "$out.p" && mv "$out.p" "$out"
cat "$out"
count "$out" "unit-tests (portable fast path)"
if test $rc -ne 0 && ! grep -q ' [1-9][0-9]* failed' "$out"; then
    echo "check: unit-tests (portable fast path) exited $rc"
    total_fail=$((total_fail + 1))
fi

for t in "$src"/tests/tools/*.sh "$src"/tests/guest/*.sh; do
    test -e "$t" || continue
    GEMU_BUILD="$build" GEMU_SRC="$src" sh "$t" > "$out" 2>&1
    rc=$?
    cat "$out"
    count "$out" "$(basename "$t")"
    if test $rc -ne 0 && ! grep -q ' [1-9][0-9]* failed' "$out"; then
        echo "check: $(basename "$t") exited $rc"
        total_fail=$((total_fail + 1))
    fi
done

echo "check: $total_pass passed, $total_fail failed"
test "$total_fail" -eq 0
