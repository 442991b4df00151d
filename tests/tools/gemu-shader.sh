#!/bin/sh
# Command-line tests of gemu-shader.
#
# tests/tools/shader/ holds programs as text (NAME.hex: 32-bit hex words,
# '#' comments; NAME.s: assembly for gemu-as, with the program type taken
# from NAME.state's stage), state files (NAME.state) and the output each
# must print (NAME.out).  bad/*.state are state files with a mistake;
# their first line "# expect: MESSAGE" is what gemu-shader must say (exit
# status 2).
#
#   GEMU_BUILD  the build directory (default: build)
#
# SPDX-License-Identifier: MIT
. "$(dirname "$0")/lib/harness.sh"
src=$(cd "$(dirname "$0")" && pwd)/shader
bin=$(cd "$build" && pwd)/gemu-shader
as=$(cd "$build" && pwd)/gemu-as

# hex2bin FILE.hex FILE.bin: words to little-endian bytes.
hex2bin() {
    fmt=$(sed 's/#.*//' "$1" | awk '
        function hexval(s,   i, v) {
            v = 0
            s = tolower(s)
            for (i = 1; i <= length(s); i++) {
                v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
            }
            return v
        }
        {
            for (f = 1; f <= NF; f++) {
                w = $f
                if (length(w) != 8) {
                    print "bad word " w > "/dev/stderr"
                    exit 1
                }
                for (b = 4; b >= 1; b--) {
                    printf "\\%03o", hexval(substr(w, 2 * b - 1, 2))
                }
            }
        }') || return 1
    printf "$fmt" > "$2"
}

cp -R "$src"/. "$tmp"/
for h in "$tmp"/*.hex; do
    hex2bin "$h" "${h%.hex}.bin" || bad "cannot convert $(basename "$h")"
done
for f in "$tmp"/*.s; do
    test -e "$f" || continue
    stage=$(sed -n 's/^stage  *\([a-z]*\).*/\1/p' "${f%.s}.state")
    case $stage in
    vertex) prog=vp ;;
    geometry) prog=gp ;;
    fragment) prog=fp ;;
    *) prog=cp ;;
    esac
    "$as" -m tesla -V g84 -O "$prog" "$f" -o "${f%.s}.bin" ||
        bad "gemu-as cannot assemble $(basename "$f")"
done
printf 'abcdef' > "$tmp"/odd.bin

# run NAME STATUS [ARGS...]: NAME.state must print NAME.out, exit STATUS.
run() {
    name=$1
    want=$2
    shift 2
    (cd "$tmp" && "$bin" "$@" "$name.state" > "$name.got" 2> "$name.err")
    rc=$?
    if test "$rc" -ne "$want"; then
        bad "$name: exit status $rc, expected $want"
        sed 's/^/  stderr: /' "$tmp/$name.err"
        return
    fi
    if ! cmp -s "$tmp/$name.got" "$tmp/$name.out"; then
        bad "$name: output differs"
        diff "$tmp/$name.out" "$tmp/$name.got" | head -n 20
        return
    fi
    ok
}

run vertex 0
run fragment 0
run compute-gid 0
run compute-header 0
run geometry 0
run local 0
run local-default 0
run bar 0
run gprs-1 0
run gprs-default 0
run trap 1
run unaligned 1
run vertex-as-compute 1
run fault 1
if grep -q '^gemu-shader: trap in block 1, its warp 0' "$tmp/fault.err"; then
    ok
else
    bad "fault: no block and warp on stderr"
fi
run local-none 1
run loop 1 --max-insns 1000
run loop 1 --max-insns=5000

# The README's example: assembly source as the code, a saxpy grid.
(cd "$SRC_DIR/docs/examples" && "$bin" saxpy.state > "$tmp/saxpy.got" 2>&1)
if test $? -eq 0 && test "$(cat "$tmp/saxpy.got")" = "g1[0x0] = 0x40200000
g1[0x4] = 0x40500000
g1[0x1f8] = 0x00000000
g1[0x1fc] = 0xc0a00000"; then
    ok
else
    bad "docs/examples/saxpy.state"
    cat "$tmp/saxpy.got"
fi

# The state file on stdin: code paths are relative to the working directory.
got=$(cd "$tmp" && "$bin" - < vertex.state)
if test $? -eq 0 && test "$got" = "$(cat "$tmp/vertex.out")"; then
    ok
else
    bad "state file on stdin"
fi

# --trace lists the instructions on stderr and leaves stdout alone.
(cd "$tmp" && "$bin" --trace vertex.state > trace.got 2> trace.err)
if test $? -eq 0 && cmp -s "$tmp/trace.got" "$tmp/vertex.out" &&
   test "$(grep -c '^trace: warp 0 \[0x00000007\] ' "$tmp/trace.err")" -eq 8 &&
   grep -q '^trace: .* 00000010: b0010008  *add f32 \$r2 \$r0 \$r1$' \
       "$tmp/trace.err"; then
    ok
else
    bad "--trace"
fi

# Bad state files: exit status 2 and a message naming the file and line.
for f in "$tmp"/bad/*.state; do
    name=$(basename "$f")
    expect=$(sed -n '1s/^# expect: //p' "$f")
    (cd "$tmp/bad" && "$bin" "$name" > out 2> err)
    rc=$?
    if test "$rc" -ne 2; then
        bad "bad/$name: exit status $rc, expected 2"
    elif test -s "$tmp/bad/out"; then
        bad "bad/$name: printed to stdout"
    elif ! grep -qF "$expect" "$tmp/bad/err"; then
        bad "bad/$name: message '$(cat "$tmp/bad/err")'," \
            "expected '$expect'"
    else
        ok
    fi
done

# Usage.
if "$bin" --help | grep -q '^usage: gemu-shader'; then
    ok
else
    bad "--help"
fi
for args in "" "--frobnicate x.state" "--max-insns" "--max-insns x y" \
            "a.state b.state" "/nonexistent/x.state"; do
    # shellcheck disable=SC2086
    "$bin" $args > /dev/null 2>&1
    rc=$?
    if test "$rc" -eq 2; then
        ok
    else
        bad "gemu-shader $args: exit status $rc, expected 2"
    fi
done

finish gemu-shader
