// saxpy on the Tesla ISA: y[i] = a * x[i] + y[i] for every thread of the
// grid.  x is g0[], y is g1[], a is c0[0x0]; i is the global thread index
// (block index * 64 + tid.x: blocks of 64 threads).
and b32 $r1 $r0 0xffff                  // tid.x
ld $r2 u16 s[0xc]                        // block index x (launch header)
shl b32 $r2 $r2 0x6
add b32 $r1 $r1 $r2                     // i
shl b32 $r3 $r1 0x2                     // byte offset of x[i] and y[i]
ld b32 $r4 g0[$r3]
ld b32 $r5 g1[$r3]
ld $r6 b32 c0[0x0]
add f32 $r5 (mul $r4 $r6) $r5
st b32 g1[$r3] $r5
exit nop
