# Each thread copies c0[0x8], c3[0xfffc] and c5[0x0] (never written: 0)
# to g2[16 * tid].
ld $r1 b32 c0[0x8]
ld $r2 b32 c3[0xfffc]
ld $r3 b32 c5[0x0]
and b32 $r4 $r0 0xffff
shl b32 $r4 $r4 0x4
st b32 g2[$r4] $r1
add b32 $r4 $r4 0x4
st b32 g2[$r4] $r2
add b32 $r4 $r4 0x4
exit st b32 g2[$r4] $r3
