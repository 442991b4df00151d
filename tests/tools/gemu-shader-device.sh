#!/bin/sh
# gemu-shader --device against the interpreter.
#
# Every compute state file of the tests and the docs (tests/**/*.state,
# docs/**/*.state whose stage is compute, the default, and whose chip is
# not sgx543 -- the bad ones included) must print the same on standard
# output and exit with the same status on both paths.  The files the
# device path cannot run (register dumps) are skipped, named and counted,
# and must be refused: exit status 2, a message naming the file and line.
# Then the other refusals, and the trap line when the card cannot say
# which block trapped.  tests/tools/shader-device/ holds state files
# written for this comparison (grid z, const spaces, traps).
#
#   GEMU_BUILD  the build directory (default: build)
#
# SPDX-License-Identifier: MIT
. "$(dirname "$0")/lib/harness.sh"
bin=$build/gemu-shader
as=$build/gemu-as

# hex2bin FILE.hex FILE.bin: words to little-endian bytes (as
# gemu-shader.sh makes the programs of tests/tools/shader/).
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

# is_compute FILE: a Tesla compute state file (no stage line: compute).
is_compute() {
    sed 's/#.*//' "$1" | awk '
        $1 == "chip" && $2 == "sgx543" { usse = 1 }
        $1 == "stage" { n++; stage = $2 }
        END {
            exit !(!usse && n <= 1 &&
                   (stage == "" || stage == "compute" || stage == "cp"))
        }'
}

# The state files' directories, prepared as their tests prepare them:
# NAME.hex -> NAME.bin, NAME.s -> NAME.bin for NAME.state's stage when
# NAME.state runs NAME.bin.
files=$(cd "$SRC_DIR" && find tests docs -name '*.state' | LC_ALL=C sort)
for dir in $(for f in $files; do dirname "$f"; done | sort -u); do
    mkdir -p "$tmp/$dir"
    cp -R "$SRC_DIR/$dir"/. "$tmp/$dir"/
    for h in "$tmp/$dir"/*.hex; do
        test -e "$h" || continue
        hex2bin "$h" "${h%.hex}.bin" ||
            bad "cannot convert $dir/$(basename "$h")"
    done
    for f in "$tmp/$dir"/*.s; do
        test -e "$f" && test -e "${f%.s}.state" || continue
        grep -q "^code  *$(basename "${f%.s}").bin" "${f%.s}.state" || continue
        case $(sed -n 's/^stage  *\([a-z]*\).*/\1/p' "${f%.s}.state") in
        vertex) prog=vp ;;
        geometry) prog=gp ;;
        fragment) prog=fp ;;
        *) prog=cp ;;
        esac
        "$as" -m tesla -V g84 -O "$prog" "$f" -o "${f%.s}.bin" ||
            bad "gemu-as cannot assemble $dir/$(basename "$f")"
    done
done
printf 'abcdef' > "$tmp"/tests/tools/shader/odd.bin

# Both paths, every compute state file.
agree=0
agree_bad=0
skipped=""
nskip=0
for f in $files; do
    is_compute "$tmp/$f" || continue
    dir=$(dirname "$tmp/$f")
    name=$(basename "$f")
    (cd "$dir" && "$bin" "$name" > int.out 2> int.err)
    rc_int=$?
    dump=$(sed 's/#.*//' "$tmp/$f" |
           grep -n '^[[:space:]]*dump[[:space:]]*\$r' | head -n 1 | cut -d: -f1)
    if test -n "$dump" && test "$rc_int" -ne 2; then
        # the device cannot read registers back: refused, by line
        (cd "$dir" && "$bin" --device "$name" > dev.out 2> dev.err)
        rc=$?
        if test "$rc" -eq 2 && ! test -s "$dir/dev.out" &&
           grep -qF "$name:$dump: --device cannot dump registers" \
               "$dir/dev.err"; then
            ok
        else
            bad "$f: --device with a register dump: exit status $rc," \
                "'$(cat "$dir/dev.err")'"
        fi
        skipped="$skipped $f"
        nskip=$((nskip + 1))
        continue
    fi
    (cd "$dir" && "$bin" --device "$name" > dev.out 2> dev.err)
    rc_dev=$?
    if test "$rc_int" -ne "$rc_dev"; then
        bad "$f: exit status $rc_int (interpreter), $rc_dev (--device)"
        sed 's/^/  --device stderr: /' "$dir/dev.err"
    elif ! cmp -s "$dir/int.out" "$dir/dev.out"; then
        bad "$f: the interpreter and --device print differently"
        diff "$dir/int.out" "$dir/dev.out" | head -n 10
    else
        ok
        agree=$((agree + 1))
        if test "$rc_int" -eq 2; then
            agree_bad=$((agree_bad + 1))
        fi
    fi
done
echo "gemu-shader-device: $agree compute state files agree" \
     "($agree_bad of them bad files, refused alike), $nskip skipped:$skipped"
if test $((agree - agree_bad)) -lt 10; then
    bad "fewer compute state files ran than there are ($((agree - agree_bad)))"
fi

# The device path did run on the card: its trap message names the MP.
cd "$tmp/tests/tools/shader" || exit 1
"$bin" --device fault.state > dev.out 2> dev.err
check "--device trap status" "1 trap: MEMORY_FAULT at 0x00000028 (warp 2)" \
      "$? $(cat dev.out)"
if grep -q '^gemu-shader: trap in block 1, its warp 0 (TP 0 MP 1: MPC TRAP ' \
        dev.err; then
    ok
else
    bad "--device fault.state: '$(cat dev.err)'"
fi

# refused NAME EXPECT ARGS...: exit status 2, nothing on stdout, EXPECT
# in the message.
refused() {
    name=$1
    expect=$2
    shift 2
    "$bin" "$@" > ref.out 2> ref.err
    rc=$?
    if test "$rc" -ne 2; then
        bad "$name: exit status $rc, expected 2"
    elif test -s ref.out; then
        bad "$name: printed to stdout"
    elif ! grep -qF -- "$expect" ref.err; then
        bad "$name: message '$(cat ref.err)', expected '$expect'"
    else
        ok
    fi
}

refused "--device --trace" "--device cannot --trace" \
    --device --trace compute-gid.state
# --max-insns bounds the card's launches too: a program that never
# exits traps with TIMEOUT where the interpreter's run does.
printf 'code loop.bin\nblock 40\n' > loop-cp.state
"$bin" --max-insns 1000 loop-cp.state > int.out 2> /dev/null
check "interpreter, loop-cp.state" "1 trap: TIMEOUT at 0x00000000 (warp 0)" \
      "$? $(cat int.out)"
"$bin" --device --max-insns 1000 loop-cp.state > dev.out 2> dev.err
check "--device --max-insns 1000, loop-cp.state" "1 $(cat int.out)" \
      "$? $(cat dev.out)"
refused "--device, vertex" \
    "vertex.state:3: --device runs compute programs only, not stage vertex" \
    --device vertex.state
refused "--device, fragment" \
    ": --device runs compute programs only, not stage fragment" \
    --device fragment.state
sed 's/^chip g84/chip g200/' compute-gid.state > g200.state
refused "--device, chip g200" \
    "g200.state:2: --device runs on a G84, not chip g200" --device g200.state
printf 'exit nop\n' > exit.s
printf 'code exit.s\nshared 0x200\ns[0x10c] = 1\ns[0x110] = 2\n' > params.state
refused "--device, s[] past the USER_PARAMs" "params.state:4: --device" \
    --device params.state
printf 'chip sgx543\ncode x.s\n' > usse.state
refused "--device, USSE" "--device runs Tesla compute programs" \
    --device usse.state
"$bin" params.state > /dev/null 2>&1
check "the interpreter runs params.state" 0 $?

# More than 4 blocks: the trap words name the TP and MP, not the block.
printf 'code compute-gid.bin\nblock 64\ngrid 6\ng0 0x400\n' > many.state
"$bin" many.state > int.out 2> /dev/null
check "interpreter, block 4 faults" \
      "1 trap: MEMORY_FAULT at 0x00000028 (warp 8)" "$? $(cat int.out)"
"$bin" --device many.state > dev.out 2> dev.err
check "--device, block 4 faults" \
      "1 trap: MEMORY_FAULT at 0x00000028 (TP 0 MP 0, its warp 0)" \
      "$? $(cat dev.out)"
if grep -q 'does not say which block' dev.err; then
    ok
else
    bad "--device many.state: '$(cat dev.err)'"
fi

finish gemu-shader-device
