# Every thread of a 3-D grid stores $r0 and the s[] words 0x0..0x18 (the
# launch header, then two user words) at g0[32 * global thread index].
and b32 $r1 $r0 0xffff
shr u32 $r2 $r0 0x10
and b32 $r2 $r2 0x3ff
shr u32 $r3 $r0 0x1a
ld $r4 u16 s[0x2]
ld $r5 u16 s[0x4]
mul $r6 u16 $r2l u16 $r4l
add b32 $r1 $r1 $r6
mul $r6 u16 $r4l u16 $r5l
mul $r7 u16 $r3l u16 $r6l
add b32 $r1 $r1 $r7
ld $r8 u16 s[0x12]
ld $r9 u16 s[0xa]
mul $r8 u16 $r8l u16 $r9l
ld $r10 u16 s[0xe]
add b32 $r8 $r8 $r10
ld $r11 u16 s[0x8]
mul $r8 u16 $r8l u16 $r11l
ld $r10 u16 s[0xc]
add b32 $r8 $r8 $r10
ld $r12 u16 s[0x6]
mul $r6 u16 $r6l u16 $r12l
mul $r8 u16 $r8l u16 $r6l
add b32 $r8 $r8 $r1
shl b32 $r9 $r8 0x5
st b32 g0[$r9] $r0
ld $r10 b32 s[0x0]
add b32 $r9 $r9 0x4
st b32 g0[$r9] $r10
ld $r10 b32 s[0x4]
add b32 $r9 $r9 0x4
st b32 g0[$r9] $r10
ld $r10 b32 s[0x8]
add b32 $r9 $r9 0x4
st b32 g0[$r9] $r10
ld $r10 b32 s[0xc]
add b32 $r9 $r9 0x4
st b32 g0[$r9] $r10
ld $r10 b32 s[0x10]
add b32 $r9 $r9 0x4
st b32 g0[$r9] $r10
ld $r10 b32 s[0x14]
add b32 $r9 $r9 0x4
st b32 g0[$r9] $r10
ld $r10 b32 s[0x18]
add b32 $r9 $r9 0x4
exit st b32 g0[$r9] $r10
