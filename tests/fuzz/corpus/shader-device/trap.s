# g0[4 * gid] = gid (gid = block index x * block size x + tid.x), then trap.
ld $r1 u16 s[0xc]
ld $r2 u16 s[0x2]
and b32 $r3 $r0 0xffff
mul $r4 u16 $r1l u16 $r2l
add b32 $r4 $r4 $r3
shl b32 $r5 $r4 0x2
st b32 g0[$r5] $r4
trap
exit nop
