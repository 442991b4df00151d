#!/bin/sh
# Golden-image tests of the sgx543 machine: every tests/scenes/NAME.scene
# (and the built-in scene, as "default") is rendered with
# "gemu -M sgx543 -scene FILE -screendump OUT.png" and compared bytewise
# with tests/images/sgx-NAME.png; then -display png, and scenes the device
# or the parser must refuse.  Prints "sgx-scenes: N passed, N failed" last.
#
#   GEMU_BUILD           the build directory (default: build)
#   GEMU_SRC             the source tree (default: this script's tree)
#   GEMU_UPDATE_IMAGES=1 write the golden images instead of comparing
#                        (look at each one before committing it)
#
# SPDX-License-Identifier: MIT
. "$(dirname "$0")/lib/harness.sh"
gemu=$(cd "$build" && pwd)/gemu
images=$SRC_DIR/tests/images

# golden NAME [gemu args...]: render, then compare with sgx-NAME.png
golden() {
    name=$1
    shift
    if ! "$gemu" -M sgx543 "$@" -screendump "$tmp/$name.png" \
            2> "$tmp/$name.err"; then
        bad "$name: gemu failed: $(cat "$tmp/$name.err")"
        return
    fi
    if [ "${GEMU_UPDATE_IMAGES:-0}" = 1 ]; then
        cp "$tmp/$name.png" "$images/sgx-$name.png"
        echo "wrote $images/sgx-$name.png"
        ok
    elif [ ! -f "$images/sgx-$name.png" ]; then
        bad "$name: no golden image $images/sgx-$name.png"
    elif ! cmp -s "$tmp/$name.png" "$images/sgx-$name.png"; then
        bad "$name: the frame differs from $images/sgx-$name.png" \
            "(rendered: $tmp/$name.png)"
    else
        ok
    fi
}

for scene in "$SRC_DIR"/tests/scenes/*.scene; do
    name=$(basename "$scene" .scene)
    golden "$name" -scene "$scene"
done
golden default

# -display png:PREFIX writes every frame; the last equals the screendump
if "$gemu" -M sgx543 -display "png:$tmp/frame" \
        -scene "$SRC_DIR/tests/scenes/clear.scene" 2> "$tmp/disp.err" &&
   cmp -s "$tmp/frame-0001.png" "$images/sgx-clear.png" &&
   [ ! -e "$tmp/frame-0002.png" ]; then
    ok
else
    bad "-display png: $(cat "$tmp/disp.err")"
fi

# tiled (1) and swizzled (2) colour surfaces: END_SCENE shows the same
# frame as the linear surface of vertex-colour.scene
for type in 1 2; do
    sed "s/\(BEGIN_SCENE 0x10000 64 0 64 64\) 0/\1 $type/" \
        "$SRC_DIR/tests/scenes/vertex-colour.scene" > "$tmp/surface$type.scene"
    if ! grep -q "64 64 $type\$" "$tmp/surface$type.scene"; then
        bad "surface type $type: the scene was not rewritten"
    elif "$gemu" -M sgx543 -scene "$tmp/surface$type.scene" \
            -screendump "$tmp/surface$type.png" 2> "$tmp/surface.err" &&
         cmp -s "$tmp/surface$type.png" "$images/sgx-vertex-colour.png"; then
        ok
    else
        bad "surface type $type: not the linear frame $(cat "$tmp/surface.err")"
    fi
done

# refuse SCENE-NAME MESSAGE: exit status 1 and MESSAGE on stderr
refuse() {
    "$gemu" -M sgx543 -scene "$tmp/$1.scene" -screendump "$tmp/$1.png" \
        > "$tmp/$1.out" 2> "$tmp/$1.err"
    st=$?
    if [ "$st" != 1 ]; then
        bad "$1: exit status $st, expected 1"
    elif ! grep -q -- "$2" "$tmp/$1.err"; then
        bad "$1: message '$(cat "$tmp/$1.err")' lacks '$2'"
    else
        ok
    fi
}

# an unknown opcode and a short CLEAR are skipped; the frame still ends
cat > "$tmp/badpkt.scene" <<EOF
sgx-scene 1
commands 0x4000
    BEGIN_SCENE 0x10000 16 0 16 16 0
    packet 0x7f 1 2 3
    CLEAR 1.0 0.0 0.0 1.0 1.0 0 1
    packet 0x03 1.0 2.0
    END_SCENE
end
EOF
refuse badpkt "PACKET_LENGTH"
if [ -s "$tmp/badpkt.png" ]; then ok; else bad "badpkt: no frame dumped"; fi

# a packet running past the end of its buffer
printf 'sgx-scene 1\ncommands 0x4000\n    word 0x01000009 0x10000\nend\n' \
    > "$tmp/overrun.scene"
refuse overrun "PACKET_OVERRUN"

# a draw whose fragment program holds an illegal instruction
cat > "$tmp/trap.scene" <<EOF
sgx-scene 1
reg USE_CODE_BASE_0 0x1000
usse 0x1000
    vmov.f32.rpt2 o0.xy, pa0.xyzw
end
usse 0x1100
    .word 0xd800000000000000
end
data 0x2000 f32 -1 -1 0 1  1 -1 0 1  0 1 0 1
data 0x3000 u16 0 1 2
commands 0x4000
    BEGIN_SCENE 0x10000 16 0 16 16 0
    SET_PROGRAM_RAW 0 0 0 1 0 0 layout:0:4
    SET_PROGRAM_RAW 1 0 32 1 0 0 layout:0:0 output:0:f16
    SET_VERTEX_STREAMS stream:0x2000:16
    SET_VERTEX_ATTRIBS attrib:0:0:f32:4:pa0
    SET_VIEWPORT 1 8.0 8.0 -8.0 8.0 1.0 0.0
    DRAW 0 0 0x3000 3
    END_SCENE
end
EOF
refuse trap "SHADER_TRAP"

# a draw reading memory that does not exist
sed 's/DRAW 0 0 0x3000 3/DRAW 0 0 0xfffff000 3/' "$tmp/trap.scene" \
    > "$tmp/fault.scene"
refuse fault "MMU_FAULT"

# texture words the device refuses (type 1), and ones the parser refuses
cat > "$tmp/badtex.scene" <<EOF
sgx-scene 1
commands 0x4000
    BEGIN_SCENE 0x10000 16 0 16 16 0
    SET_TEXTURE 1 0 0 0x20000000 0x1000 0
    END_SCENE
end
EOF
refuse badtex "BAD_VALUE"
printf 'sgx-scene 1\ncommands 0x4000\n    SET_TEXTURE 1 0 %s\nend\n' \
    "tex:U8U8U8U8_ABGR:swizzled:6:8:0x1000" > "$tmp/texsize.scene"
refuse texsize "line 3: texture 'U8U8U8U8_ABGR': swizzled and cube sizes"
printf 'sgx-scene 1\ncommands 0x4000\n    SET_TEXTURE 1 0 %s\nend\n' \
    "texctl:abgr8888:point:repeat:repeat size:4:4 0x1000 0" \
    > "$tmp/texctl.scene"
refuse texctl "gemu's old texture layout"

# block-compressed textures: tiled UBC1 words are refused; a UBC3
# texture running past the end of memory faults the draw
cat > "$tmp/bctiled.scene" <<EOF
sgx-scene 1
commands 0x4000
    BEGIN_SCENE 0x10000 16 0 16 16 0
    SET_TEXTURE 1 0 0x83fe0000 0x85003003 0x1000 0
    END_SCENE
end
EOF
refuse bctiled "BAD_VALUE"
sed 's/UBC3_ABGR:swizzled:8:8:0x12000/UBC3_ABGR:swizzled:64:64:0xffc00/' \
    "$SRC_DIR/tests/scenes/texture-formats.scene" > "$tmp/bcfault.scene"
if grep -q 'UBC3_ABGR:swizzled:64:64:0xffc00' "$tmp/bcfault.scene"; then
    refuse bcfault "MMU_FAULT"
else
    bad "bcfault: the scene was not rewritten"
fi

# parser errors name the line
printf 'sgx-scene 1\ncommands 0x4000\n    FROB 1\nend\n' > "$tmp/parse.scene"
refuse parse "line 3: unknown packet 'FROB'"
printf 'hello\n' > "$tmp/magic.scene"
refuse magic "not a scene file"
printf 'sgx-scene 1\nusse 0x1000\n    frob r0\nend\ncommands 0\nend\n' \
    > "$tmp/asm.scene"
refuse asm "line 3:"
# issue 14: these crashed the assembler
printf 'sgx-scene 1\nusse 0x1000\n    nop\n    abc:\nend\ncommands 0\nend\n' \
    > "$tmp/asmlabel.scene"
refuse asmlabel "line 4: a label or address with no instruction"
printf '%s\n' 'sgx-scene 1' 'usse 0x1000' '    vtst.iadd32.nz p0,' end \
    'commands 0' end > "$tmp/asmcomma.scene"
refuse asmcomma "line 3: empty operand"

finish sgx-scenes
