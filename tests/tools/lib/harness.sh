# Shared by the command-line tests in tests/tools/*.sh (sourced, not run):
# paths, a scratch directory, the pass/fail counters and the closing line.
#
#   GEMU_BUILD  the build directory (default: build)
#   GEMU_SRC    the source tree (default: the tree this file is in)
#
# Gives: $build (absolute), $SRC_DIR, $tmp (removed at exit), and
#   ok                    count a pass
#   bad MESSAGE...        count a failure and say why
#   check NAME WANT GOT   pass when WANT = GOT, else say both
#   finish NAME           print "NAME: N passed, N failed"; status 0 if none
#
# SPDX-License-Identifier: MIT
set -u
# headless: gemu opens a window by default when a display is available
# (tests that want one, like display-sdl.sh, start their own Xvfb)
unset DISPLAY WAYLAND_DISPLAY
build=$(cd "${GEMU_BUILD:-build}" && pwd)
SRC_DIR=${GEMU_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
pass=0
fail=0

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() {
    pass=$((pass + 1))
}

bad() {
    echo "FAIL: $*"
    fail=$((fail + 1))
}

check() {
    if test "$2" = "$3"; then
        ok
    else
        bad "$1"
        echo "  expected: $2"
        echo "  got:      $3"
    fi
}

finish() {
    echo "$1: $pass passed, $fail failed"
    test "$fail" -eq 0
}
