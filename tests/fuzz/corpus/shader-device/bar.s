// compute, 2 warps: each thread puts its tid in s[], waits at the
// barrier, and writes the word of thread 63 - tid to g0[4 * tid].
and b32 $r1 $r0 0xffff
shl $a1 $r1 0x2
st b32 s[$a1+0x14] $r1
mov b32 $r4 0x3f
sub b32 $r3 $r4 $r1
shl $a2 $r3 0x2
bar inc wait 0x0 all
ld $r2 b32 s[$a2+0x14]
shl b32 $r5 $r1 0x2
st b32 g0[$r5] $r2
exit nop
