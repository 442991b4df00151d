mov b32 $r1 0x10
mov b32 $r1 $r2
mov b32 $r70 $r2
mov b16 $r1l $r2h
(l02) mov b32 $r0 $r1
mov $r1 $c0
mov $c1 $r1
mov $r1 $a1
shl $a1 $r2 0x2
add $a1 $a1 0x10
add $a2 $a0 0x10
mov $r1 $physid
mov $r1 $clock
mov $r1 $pm0
ld $r1 b32 c0[0x10]
ld $r1 b32 c1[$a1+0x10]
ld $r1 u16 c0[0x2]
ld $r3 b32 c0[$a1++0x4]
ld $r3 b32 c15[0xfffc]
ld $r1 b32 s[0x10]
ld $r1 u16 s[0x2]
ld $r1 u8 s[$a1+0x3]
ld lock $c0 $r1 b32 s[0x10]
st b32 s[0x10] $r1
st b32 s[$a1+0x40] $r1
st b16 s[0x12] $r1l
st b8 s[0x13] $r1l
st unlock b32 s[0x10] $r1
mov b32 $r1 b32 s[0x8]
mov b32 $r7 u16 s[$a3+0x2]
ld b32 $r1 l[0x10]
ld b32 $r1 l[$a1+0x10]
st b32 l[0x10] $r1
ld b32 $r4 g0[$r0]
ld u8 $r4 g1[$r0]
ld s16 $r4 g0[$r0]
ld b64 $r4d g0[$r0]
ld b128 $r4q g0[$r0]
st b32 g0[$r0] $r6
st u8 g2[$r1] $r6
