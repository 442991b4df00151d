#!/bin/sh
# Command-line tests of gemu-shader with "chip sgx543" (USSE): corpus
# .gxp programs from tests/data/sdl2-vitagxm/, assembled programs, raw
# words, traps and bad state files.  Prints "usse-shader: N passed, N
# failed" last.
#
#   GEMU_BUILD  the build directory (default: build)
#   GEMU_SRC    the source tree (default: this script's tree)
#
# SPDX-License-Identifier: MIT
. "$(dirname "$0")/lib/harness.sh"
corpus=$SRC_DIR/tests/data/sdl2-vitagxm
for f in color_v texture_v clear_f; do
    test -f "$corpus/$f.gxp" || bad "test data missing: $corpus/$f.gxp"
done
bin=$(cd "$build" && pwd)/gemu-shader
as=$(cd "$build" && pwd)/gemu-as

# run NAME STATUS: run $tmp/NAME.state, compare stdout with $tmp/NAME.want
run() {
    "$bin" "$tmp/$1.state" > "$tmp/$1.out" 2> "$tmp/$1.err"
    st=$?
    if [ "$st" != "$2" ]; then
        bad "$1: exit status $st, expected $2 ($(cat "$tmp/$1.err"))"
    elif ! cmp -s "$tmp/$1.out" "$tmp/$1.want"; then
        bad "$1: output differs"
        diff "$tmp/$1.want" "$tmp/$1.out" | head -20
    else
        ok
    fi
}

# expect_bad NAME MESSAGE: exit 2 and stderr mentions MESSAGE and the file
expect_bad() {
    "$bin" "$tmp/$1.state" > "$tmp/$1.out" 2> "$tmp/$1.err"
    st=$?
    if [ "$st" != 2 ]; then
        bad "$1: exit status $st, expected 2"
    elif ! grep -q "$1.state:[0-9]*: .*$2" "$tmp/$1.err"; then
        bad "$1: message '$(cat "$tmp/$1.err")' lacks '$2'"
    elif [ -s "$tmp/$1.out" ]; then
        bad "$1: printed something"
    else
        ok
    fi
}

# --- color_v.gxp: secondary program folds (pos, 1, 0.5) into SA, then
#     o0..o3 = (x, y, 0.5, 1) * wvp (VMAD2's hardware order: the Cg's
#     (x, y, 1, 0.5) with z and w swapped), o4..o7 = colour, o8 = psize 1.0.
#     wvp = 2 * identity + translation row (3, 4, 5, 6)
cat > "$tmp/color_v.state" <<EOF
chip sgx543
stage vertex
gxp $corpus/color_v.gxp
sa[0] = 2.0f
sa[5] = 2.0f
sa[10] = 2.0f
sa[15] = 2.0f
sa[12] = 3.0f
sa[13] = 4.0f
sa[14] = 5.0f
threads 2
thread all pa[0] = 1.0f
thread all pa[1] = -1.0f
thread 1 pa[0] = 0.5f
thread all pa[4] = 0.25f
thread all pa[7] = 1.0f
dump o[0..9]
EOF
# x: 2x + 3, y: 2y + 4, z: 0.5*2 + 5, w: row3.w = 2
cat > "$tmp/color_v.want" <<EOF
thread 0 o[0] = 0x40a00000
thread 0 o[1] = 0x40000000
thread 0 o[2] = 0x40c00000
thread 0 o[3] = 0x40000000
thread 0 o[4] = 0x3e800000
thread 0 o[5] = 0x00000000
thread 0 o[6] = 0x00000000
thread 0 o[7] = 0x3f800000
thread 0 o[8] = 0x3f800000
thread 1 o[0] = 0x40800000
thread 1 o[1] = 0x40000000
thread 1 o[2] = 0x40c00000
thread 1 o[3] = 0x40000000
thread 1 o[4] = 0x3e800000
thread 1 o[5] = 0x00000000
thread 1 o[6] = 0x00000000
thread 1 o[7] = 0x3f800000
thread 1 o[8] = 0x3f800000
EOF
run color_v 0

# --- texture_v.gxp: the MOE-repeated attribute copy (colour at pa8,
#     texcoord at pa4) and the identity transform
cat > "$tmp/texture_v.state" <<EOF
chip sgx543
gxp $corpus/texture_v.gxp
sa[0] = 1.0f
sa[5] = 1.0f
sa[10] = 1.0f
sa[15] = 1.0f
thread 0 pa[0] = 3.0f
thread 0 pa[1] = 4.0f
thread 0 pa[4] = 0x44
thread 0 pa[5] = 0x55
thread 0 pa[8] = 0x88
thread 0 pa[11] = 0xbb
dump o[0..10]
EOF
cat > "$tmp/texture_v.want" <<EOF
thread 0 o[0] = 0x40400000
thread 0 o[1] = 0x40800000
thread 0 o[2] = 0x3f000000
thread 0 o[3] = 0x3f800000
thread 0 o[4] = 0x00000088
thread 0 o[5] = 0x00000000
thread 0 o[6] = 0x00000000
thread 0 o[7] = 0x000000bb
thread 0 o[8] = 0x00000044
thread 0 o[9] = 0x00000055
EOF
run texture_v 0

# --- clear_f.gxp: uClearColor (SA) packed to F16 x 4 in pa0, pa1
cat > "$tmp/clear_f.state" <<EOF
chip sgx543
stage fragment
gxp $corpus/clear_f.gxp
sa[0] = 1.0f
sa[1] = 0.5f
sa[2] = 0.25f
sa[3] = -2.0f
dump pa[0..2]
EOF
: > "$tmp/clear_f.want"
for t in 0 1 2 3; do
    printf 'thread %s pa[0] = 0x38003c00\nthread %s pa[1] = 0xc0003400\n' \
        $t $t >> "$tmp/clear_f.want"
done
run clear_f 0

# --- an assembled program: quads, predicates, kill, dump r and sa
cat > "$tmp/prog.s" <<EOF
vtst.iadd32.nz p0, r0, pa0, #0
vdsx.f32 r2.x, pa2.xyzw, pa2.xyzw
p0 atst8 r0, r0, r0, r0
limm r1, 0x7
EOF
cat > "$tmp/quad.state" <<EOF
chip sgx543
stage fragment
code prog.s
threads 4
thread 2 pa[0] = 1
thread 0 pa[2] = 1.0f
thread 1 pa[2] = 4.0f
dump r[1..3]
EOF
cat > "$tmp/quad.want" <<EOF
thread 2 killed
thread 0 r[1] = 0x00000007
thread 0 r[2] = 0x40400000
thread 1 r[1] = 0x00000007
thread 1 r[2] = 0x40400000
thread 3 r[1] = 0x00000007
thread 3 r[2] = 0x00000000
EOF
run quad 0

# --- raw words (code FILE): assembled by gemu-as -m usse
printf 'limm r0, 0x12345678\nand r1, r0, #127, sel=1\n' > "$tmp/raw.s"
if "$as" -m usse "$tmp/raw.s" -o "$tmp/raw.bin" 2> "$tmp/as.err"; then
    cat > "$tmp/raw.state" <<EOF
chip sgx543
code raw.bin
dump r[0..2]
dump sa[0]
EOF
    cat > "$tmp/raw.want" <<EOF
thread 0 r[0] = 0x12345678
thread 0 r[1] = 0x00000078
sa[0] = 0x00000000
EOF
    run raw 0
else
    bad "gemu-as -m usse: $(cat "$tmp/as.err")"
fi

# --- a dual-issue instruction and an indexed operand
cat > "$tmp/dual.s" <<EOF
vmov.f32 i1.xyzw, pa4.xyzw
vdual.vec4 vmul o0.xy, pa0.xyzw, i1.xyzw | frsq i0.xyzw, i1.wwww
limm idx0, 0x2
or o2, pa[idx0+1], #0
EOF
cat > "$tmp/dual.state" <<EOF
chip sgx543
code dual.s
thread 0 pa[0] = 1.0f
thread 0 pa[1] = 2.0f
thread 0 pa[2] = 3.0f
thread 0 pa[3] = 4.0f
thread 0 pa[4] = 2.0f
thread 0 pa[5] = 3.0f
thread 0 pa[6] = 4.0f
thread 0 pa[7] = 16.0f
dump o[0..3]
EOF
cat > "$tmp/dual.want" <<EOF
thread 0 o[0] = 0x40000000
thread 0 o[1] = 0x40c00000
thread 0 o[2] = 0x40800000
EOF
run dual 0

# --- a trap: exit 1, the trap first, then the dumps
printf 'limm r0, 0x1\n.word 0xd800000000000000\nlimm r0, 0x2\n' \
    > "$tmp/trap.s"
cat > "$tmp/trap.state" <<EOF
chip sgx543
code trap.s
dump r[0]
EOF
cat > "$tmp/trap.want" <<EOF
trap: ILLEGAL_INSN at 0x00000001 (thread 0)
thread 0 r[0] = 0x00000001
EOF
run trap 1

# --- an endless loop: TIMEOUT with --max-insns
printf 'br 0\n' > "$tmp/loop.s"
printf 'chip sgx543\ncode loop.s\n' > "$tmp/loop.state"
"$bin" --max-insns 100 "$tmp/loop.state" > "$tmp/loop.out" 2>/dev/null
st=$?
if [ $st = 1 ] && grep -q '^trap: TIMEOUT at 0x00000000' "$tmp/loop.out"; then
    ok
else
    bad "loop: status $st, $(cat "$tmp/loop.out")"
fi

# --- stdin
if printf 'chip sgx543\ncode %s\ndump r[0]\n' "$tmp/raw.bin" |
   "$bin" - 2>/dev/null | grep -q '^thread 0 r\[0\] = 0x12345678$'; then
    ok
else
    bad "stdin state file"
fi

# --- a listing as gemu-dis prints a .gxp (both programs), an included
#     case with vertex lines and expectations: the secondary writes 0.5
#     to sa0 (its r0 is SA), the primary copies sa0 and pa1 to o4, o5
cat > "$tmp/two.lst" <<EOF
; primary program: 2 instructions at file offset 0x0
00000: 50010009e0800000  or o4, sa0, #0
00001: 50010009a0a00080  or o5, pa1, #0
; secondary program: 1 instructions at file offset 0x0
00000: fc20f18000000000  this text is not read: the word is
EOF
cat > "$tmp/two.case" <<EOF
vertex 0 pa[1] = 0.25f
vertex 1 pa[1] = 2.0f
vertex 0 expect o4=128 o5=64
vertex 1 expect o4=126 o5=255
EOF
cat > "$tmp/listing.state" <<EOF
chip sgx543
threads 2
listing two.lst
tolerance 2
include two.case
EOF
cat > "$tmp/listing.want" <<EOF
thread 0 o[4] = 0x3f000000 byte 128 expect 128: ok
thread 0 o[5] = 0x3e800000 byte 64 expect 64: ok
thread 1 o[4] = 0x3f000000 byte 128 expect 126: ok
thread 1 o[5] = 0x40000000 byte 255 expect 255: ok
expect: 4 met, 0 missed (tolerance 2)
EOF
run listing 0
# one byte off by more than the tolerance: MISSED, exit 1
sed 's/tolerance 2/tolerance 1/' "$tmp/listing.state" > "$tmp/missed.state"
sed 's/tolerance 2)/tolerance 1)/; s/expect 126: ok/expect 126: MISSED/
     s/4 met, 0 missed/3 met, 1 missed/' "$tmp/listing.want" \
    > "$tmp/missed.want"
run missed 1
# code + secondary: the same kind of programs from two .s files
printf 'or o4, sa0, #0\n' > "$tmp/prim.s"
printf 'limm r0, 0x3f800000\n' > "$tmp/sec.s"
printf 'chip sgx543\ncode prim.s\nsecondary sec.s\ndump o[4]\n' \
    > "$tmp/secondary.state"
echo 'thread 0 o[4] = 0x3f800000' > "$tmp/secondary.want"
run secondary 0

# --- rig corners: bytes read at the corner pixels of a 960x544 target
#     (two triangles 0 1 2, 1 2 3): a vertex at 0 takes a little of a
#     neighbour at 255.0 (worked out by hand: 0.5/544 - 0.5/960 of it
#     at vertex 2 is 26/255; o5: 34 = 0.5/960, 60 = 0.5/544 of 255)
printf 'or o0, pa0, #0\nor o1, pa1, #0\nor o4, pa2, #0\nor o5, pa3, #0\n' \
    > "$tmp/rig.s"
cat > "$tmp/rig.state" <<EOF
chip sgx543
code rig.s
threads 4
rig corners 960 544
vertex all pa[0] = -1.0f
vertex all pa[1] = -1.0f
vertex 1 pa[0] = 1.0f
vertex 3 pa[0] = 1.0f
vertex 2 pa[1] = 1.0f
vertex 3 pa[1] = 1.0f
vertex 0 pa[2] = 255.0f
vertex 1 pa[3] = 255.0f
vertex 0 expect o4=255 o5=34
vertex 1 expect o4=0 o5=255
vertex 2 expect o4=26 o5=34
vertex 3 expect o4=0 o5=60
EOF
cat > "$tmp/rig.want" <<EOF
thread 0 o[4] = 0x437f0000 byte 255 expect 255: ok
thread 0 o[5] = 0x00000000 byte 34 expect 34: ok
thread 1 o[4] = 0x00000000 byte 0 expect 0: ok
thread 1 o[5] = 0x437f0000 byte 255 expect 255: ok
thread 2 o[4] = 0x00000000 byte 26 expect 26: ok
thread 2 o[5] = 0x00000000 byte 34 expect 34: ok
thread 3 o[4] = 0x00000000 byte 0 expect 0: ok
thread 3 o[5] = 0x00000000 byte 60 expect 60: ok
expect: 8 met, 0 missed (tolerance 0)
EOF
run rig 0

# --- bad state files
printf 'chip sgx543\ngxp %s\nsecondary sec.s\n' "$corpus/color_v.gxp" \
    > "$tmp/gxpsec.state"
expect_bad gxpsec "'secondary' goes with 'code'"
printf 'chip sgx543\nlisting prim.s\n' > "$tmp/nolisting.state"
expect_bad nolisting "no line starting '; primary program'"
printf 'chip sgx543\ncode prim.s\nthread 0 expect o4=256\n' \
    > "$tmp/bigbyte.state"
expect_bad bigbyte "the byte"
printf 'chip sgx543\ncode prim.s\nthread 0 expect r4=1\n' \
    > "$tmp/notout.state"
expect_bad notout "oN=BYTE"
printf 'chip sgx543\nstage fragment\ncode prim.s\nvertex 0 pa[0] = 1\n' \
    > "$tmp/fragvertex.state"
expect_bad fragvertex "for vertex programs"
printf 'chip sgx543\ncode prim.s\ninclude /dev/zero\n' > "$tmp/devzero.state"
expect_bad devzero "cannot include /dev/zero: not a regular file"
printf 'chip sgx543\ncode /dev/zero\n' > "$tmp/codezero.state"
expect_bad codezero "cannot read code /dev/zero: not a regular file"
printf 'chip sgx543\ncode prim.s\nrig corners 960 544\n' > "$tmp/rig1.state"
expect_bad rig1 "four vertices"
printf 'chip sgx543\ncode prim.s\nthreads 4\nrig edges 9 9\n' \
    > "$tmp/rigkind.state"
expect_bad rigkind "unknown rig 'edges'"
printf 'include loop.inc\n' > "$tmp/loop.inc"
printf 'chip sgx543\ncode prim.s\ninclude loop.inc\n' > "$tmp/incloop.state"
"$bin" "$tmp/incloop.state" > /dev/null 2> "$tmp/incloop.err"
st=$?
if [ $st = 2 ] && grep -q 'loop.inc:1: includes nest over 8 deep' \
       "$tmp/incloop.err"; then
    ok
else
    bad "incloop: status $st, $(cat "$tmp/incloop.err")"
fi
printf 'chip sgx543\nstage fragment\ncode raw.bin\nthreads 6\n' \
    > "$tmp/threads6.state"
expect_bad threads6 "multiple of 4"
printf 'chip sgx543\ncode raw.bin\nfrobnicate 3\n' > "$tmp/unknown.state"
expect_bad unknown "unknown directive"
printf 'chip sgx543\ncode raw.bin\nthread 0 pa[128] = 1\n' \
    > "$tmp/parange.state"
expect_bad parange "out of range"
printf 'chip sgx543\ncode raw.bin\nthread 1 pa[0] = 1\n' \
    > "$tmp/thrange.state"
expect_bad thrange "thread 1 out of range"
printf 'chip sgx543\nstage vertex\n' > "$tmp/noprog.state"
expect_bad noprog "no program"
printf 'abcdefghijkl' > "$tmp/odd.bin"
printf 'chip sgx543\ncode odd.bin\n' > "$tmp/odd.state"
expect_bad odd "64-bit words"
printf 'chip sgx543\nstage geometry\ncode raw.bin\n' > "$tmp/stage.state"
expect_bad stage "unknown USSE stage"
printf 'chip sgx543\ngxp raw.bin\n' > "$tmp/notgxp.state"
expect_bad notgxp "gxp"
printf 'chip sgx543\ncode raw.bin\nsa[3] = zz\n' > "$tmp/value.state"
expect_bad value "zz"
printf 'chip sgx543\ncode raw.bin\ndump o[5..5]\n' > "$tmp/range.state"
expect_bad range "empty range"

# assembler errors in "code X.s" (issue 14: these crashed): the line named
printf 'nop\nabc:\n' > "$tmp/label.s"
printf 'chip sgx543\ncode label.s\n' > "$tmp/label.state"
expect_bad label "line 2: a label or address with no instruction"
printf 'vtst.iadd32.nz p0,\n' > "$tmp/comma.s"
printf 'chip sgx543\ncode comma.s\n' > "$tmp/comma.state"
expect_bad comma "line 1: empty operand"

finish usse-shader
