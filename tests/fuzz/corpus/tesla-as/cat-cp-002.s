sad $r1 u32 $r2 $r3 $r4
sad $r1 u32 $r2 $r3 $r1
set $r1 l u32 $r2 $r3
set $c1 $r1 ge s32 $r2 $r3
max u32 $r1 $r2 $r3
min s32 $r1 $r2 $r3
max s16 $r8l $r3l $r4l
shl b32 $r1 $r2 $r3
shl b32 $r1 $r2 0x3
shr u32 $r1 $r2 0x3
shr s32 $r1 $r2 $r3
shr s16 $r8l $r3h 0x4
and b32 $r1 $r2 $r3
or b32 $r1 not $r2 $r3
xor b32 $r1 $r2 not $r3
and b32 $r1 $r2 0xff00
xor b32 $r8 not $r3 0xffff
mov2 b32 $r1 $r2 $r3
add f32 $r1 $r2 $r3
add rn f32 $r1 $r2 $r3
add rz f32 $r1 $r2 $r3
add f32 $r1 neg $r2 $r3
add sat f32 $r1 $r2 $r3
add f32 $r1 $r2 0x3f800000
add rn f32 $c0 $r9 $r3 $r4
mul f32 $r1 $r2 $r3
mul rz f32 $r1 $r2 $r3
mul sat rn f32 $r1 $r2 $r3
mul f32 $r1 $r2 0x40000000
add f32 $r1 (mul $r2 $r3) $r4
add f32 $r1 (mul $r2 $r3) $r1
add f32 $r1 neg (mul $r2 $r3) $r4
add sat f32 $r1 (mul $r2 $r3) neg $r4
add f32 $r1 (mul $r2 0x3f800000) $r1
set $r1 l f32 $r2 $r3
set $r1 lgu f32 $r2 $r3
set $c0 $r1 ge f32 $r2 $r3
max f32 $r1 $r2 $r3
min f32 $r1 abs $r2 neg $r3
slct b32 $r1 $r2 $r3 f32 $r4
