# Each thread stores its tid.x at l[0x40] and copies it back to g0[4 * tid].
and b32 $r1 $r0 0xffff
mov b32 $r2 0x10
shl $a1 $r2 0x2
st b32 l[$a1+0x0] $r1
ld b32 $r3 l[$a1+0x0]
shl b32 $r4 $r1 0x2
st b32 g0[$r4] $r3
exit nop
