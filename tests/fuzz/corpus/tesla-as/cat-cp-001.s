st b64 g0[$r0] $r6d
ld add u32 $r1 g0[$r2] $r3
ld add s32 $r1 g0[$r2] $r3
ld inc u32 $r1 g0[$r2] $r3
ld dec u32 $r1 g0[$r2] $r3
ld max s32 $r1 g0[$r2] $r3
ld min u32 $r1 g0[$r2] $r3
ld and b32 $r1 g0[$r2] $r3
ld or b32 $r1 g0[$r2] $r3
ld xor b32 $r1 g0[$r2] $r3
exch b32 $r1 g0[$r2] $r3
cas b32 $r1 g0[$r2] $r3 $r4
red add u32 g0[$r2] $r3
red inc u32 g0[$r2] $r3
red max s32 g0[$r2] $r3
ld add u64 $r2d g0[$r2] $r4d
red add u64 g0[$r2] $r4d
cas b64 $r2d g0[$r2] $r4d $r6d
add b32 $r1 $r2 $r3
add b32 $c0 $r1 $r2 $r3
addc b32 $r1 $r2 $r3 $c0
sub b32 $r1 $r2 $r3
subr b32 $r1 $r2 $r3
add sat b32 $r1 $r2 $r3
add b32 sat $c0 $r8 $r3 $r4
add b16 $r1l $r2h $r3l
add b32 $r1 $r2 0x1234
add b32 $r1 $r2 c0[0x4]
add b32 $r1 b32 s[0x14] $r2
mul $r1 u16 $r2l u16 $r3h
mul $r1 u24 $r2 $r3
mul $r1 high s24 $r2 $r3
mul $c0 $r1 s16 $r2l s16 $r3l
mul $r8 u24 $r3 0x123456
add $r1 (mul u24 $r2 $r3) $r4
add $r1 (mul u24 $r2 $r3) $r1
add $r1 (mul u16 $r2l $r3l) $r1
sub $r1 (mul high s24 $r2 $r3) $r4
addc $r1 (mul u24 $r2 $r3) $r4 $c1
add sat $r8 (mul high s24 $r3 $r4) $r5
