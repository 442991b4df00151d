#!/bin/sh
# Command-line tests of gemu-dis -m usse and gemu-as -m usse: listing
# format, raw and .gxp input, assembling a listing back to the same words,
# errors.
#
#   GEMU_BUILD  the build directory (default: build)
#   GEMU_SRC    the source tree (default: this script's ../..); the corpus
#               is $GEMU_SRC/tests/data/sdl2-vitagxm (tests/data/README.md)
#
# SPDX-License-Identifier: MIT
. "$(dirname "$0")/lib/harness.sh"
src=$SRC_DIR
dis=$(cd "$build" && pwd)/gemu-dis
as=$(cd "$build" && pwd)/gemu-as
corpus=$src/tests/data/sdl2-vitagxm

# raw words: PHAS and an undecodable word (op1 27), little-endian
printf '\000\000\000\000\000\007\104\372\022\000\000\000\000\000\000\330' \
    > "$tmp/raw.bin"
out=$("$dis" -m usse "$tmp/raw.bin")
exp="00000: fa44070000000000  phas.imm wait=7
00001: d800000000000012  ??? 0xd800000000000012"
check "raw listing" "$exp" "$out"

# a base PC
out=$("$dis" -m usse -a 10 "$tmp/raw.bin" | head -1)
check "base pc" "00010: fa44070000000000  phas.imm wait=7" "$out"

# a .gxp: both programs, each with a header comment
if test -f "$corpus/color_v.gxp"; then
    "$dis" -m usse "$corpus/color_v.gxp" > "$tmp/color_v.s"
    check "gxp status" 0 $?
    check "gxp primary header" \
        "; primary program: 9 instructions at file offset 0xd8" \
        "$(grep '^; primary' "$tmp/color_v.s")"
    check "gxp secondary header" \
        "; secondary program: 3 instructions at file offset 0xbc" \
        "$(grep '^; secondary' "$tmp/color_v.s")"
    check "gxp lines" 12 "$(grep -c '^[0-9a-f]*: ' "$tmp/color_v.s")"
    check "gxp no ???" 0 "$(grep -c '???\|\[unk' "$tmp/color_v.s")"
    check "gxp emit" "00008: fb275000a0200000  emit.end t=5, r1, r0, #0, #0" \
        "$(grep '^00008' "$tmp/color_v.s")"

    # every corpus program assembles back to the same words
    for f in "$corpus"/*.gxp; do
        b=$(basename "$f" .gxp)
        "$dis" -m usse "$f" > "$tmp/$b.s"
        "$as" -m usse -o "$tmp/$b.bin" "$tmp/$b.s"
        check "$b assembles" 0 $?
        "$dis" -m usse "$tmp/$b.bin" | cut -c8- > "$tmp/$b.re"
        grep -v '^;' "$tmp/$b.s" | cut -c8- > "$tmp/$b.orig"
        cmp -s "$tmp/$b.re" "$tmp/$b.orig"
        check "$b round trip" 0 $?
    done
else
    bad "test data missing: $corpus/color_v.gxp"
fi

# gemu-as: hex output, plain text input
printf 'phas.imm wait=7\nvmov.f32.skipinv o8.x, c1.yyyy\n' > "$tmp/p.s"
out=$("$as" -m usse "$tmp/p.s")
check "as hex" "fa44070000000000
3882050941100040" "$out"
"$as" -m usse -o "$tmp/p.bin" "$tmp/p.s"
check "as binary size" 16 "$(wc -c < "$tmp/p.bin" | tr -d ' ')"
out=$("$dis" -m usse "$tmp/p.bin" | tail -1)
check "as binary back" "00001: 3882050941100040  vmov.f32.skipinv o8.x, c1.yyyy" "$out"

# dual-issue and indexed operands assemble and list back the same
cat > "$tmp/dual.s" <<EOF
vdual.vec4 vmad o0.xy, pa0.xyzw, i1.xyzw, i2.xyzw | frsq i0.xyzw, i0.xxxx
vdual.vec3.f16.c3 fmad i2.xyz, i0.yyy, i1.zzz.neg, i3.xyz | vmov r4.xyzw, sa6.xyz
or sa[idx1+7], pa[idx0+3], r4
EOF
out=$("$as" -m usse "$tmp/dual.s")
check "as dual" "2844041180189380
24640048e057d383
500a000b0ce02184" "$out"
"$as" -m usse -o "$tmp/dual.bin" "$tmp/dual.s"
check "dual round trip" "$(cat "$tmp/dual.s")" \
    "$("$dis" -m usse "$tmp/dual.bin" | cut -c26-)"

# errors
printf 'nop\nvmov.f32 r1.xy, pa0.xyzw\n' > "$tmp/bad.s"
"$as" -m usse "$tmp/bad.s" >/dev/null 2>"$tmp/err"
check "as error status" 1 $?
check "as error line" "$tmp/bad.s:2:" "$(cut -d' ' -f1 "$tmp/err")"
printf 'abc' > "$tmp/odd.bin"
"$dis" -m usse "$tmp/odd.bin" >/dev/null 2>&1
check "dis odd size" 2 $?
printf 'GXP\000\001\005' > "$tmp/trunc.gxp"
"$dis" -m usse "$tmp/trunc.gxp" >/dev/null 2>"$tmp/err"
check "dis truncated gxp status" 1 $?
grep -q 'truncated header' "$tmp/err"
check "dis truncated gxp message" 0 $?

# hostile input (issue 14): an empty operand after a trailing comma, a
# label- or address-only line, a 2 MB line -- status 1 and FILE:LINE:,
# never a crash
printf 'nop\nvtst.iadd32.nz p0,\n' > "$tmp/comma.s"
"$as" -m usse "$tmp/comma.s" >/dev/null 2>"$tmp/err"
check "as trailing comma status" 1 $?
grep -q "^$tmp/comma.s:2: empty operand" "$tmp/err"
check "as trailing comma message" 0 $?
for l in 'abc:' 'loop:' '00001:'; do
    printf 'nop\n%s\nnop\n' "$l" > "$tmp/label.s"
    "$as" -m usse "$tmp/label.s" >/dev/null 2>"$tmp/err"
    check "as '$l' status" 1 $?
    grep -q "^$tmp/label.s:2: a label or address with no instruction" \
        "$tmp/err"
    check "as '$l' message" 0 $?
done
awk 'BEGIN { printf "nop\nvmov.f32 r1.xyzw"; for (i = 0; i < 524288; i++)
             printf ", r1"; printf "\n" }' > "$tmp/long.s"
"$as" -m usse "$tmp/long.s" >/dev/null 2>"$tmp/err"
check "as 2 MB line status" 1 $?
check "as 2 MB line message" "$tmp/long.s:2:" "$(cut -d' ' -f1 "$tmp/err")"
check "as 2 MB line message short" 1 "$(test "$(wc -c < "$tmp/err")" -lt 300 &&
                                        echo 1)"
awk 'BEGIN { for (i = 0; i < 262144; i++) printf "nop ; %d\n", i }' \
    > "$tmp/many.s"
check "as 2 MB of lines" 262144 "$("$as" -m usse "$tmp/many.s" | wc -l |
                                     tr -d ' ')"

printf 'nop\nn\000p\n' > "$tmp/nul.s"
"$as" -m usse "$tmp/nul.s" >/dev/null 2>"$tmp/err"
check "as NUL byte status" 1 $?
grep -q "^$tmp/nul.s:2: a NUL byte" "$tmp/err"
check "as NUL byte message" 0 $?

finish usse-dis-as
