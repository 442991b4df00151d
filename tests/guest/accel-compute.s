// The compute program of tests/guest/drm-accel.c (check "compute"), run
// through nouveau's ABI16 channel on the emulated G84's compute class
// (0x50c0).  Every thread of the grid writes one word to g0[] (the
// result buffer, bound as global space 0):
//
//   g0[4 * i] = (ctaid.x | ctaid.y << 4) << 24 | tid.y << 16 | tid.x << 8
//               | 0xc5
//
// i being the thread's index in the grid, block by block:
//   i = (ctaid.y * nctaid.x + ctaid.x) * (ntid.x * ntid.y)
//       + tid.y * ntid.x + tid.x
// Block and grid sizes come from the launch header in s[] (nv50 compute
// convention, docs/tools/gemu-shader.md): s[0x2] ntid.x, s[0x4] ntid.y,
// s[0x8] nctaid.x, s[0xc] ctaid.x, s[0xe] ctaid.y; $r0 holds
// tid.x | tid.y << 16 | tid.z << 26.  13 registers ($r0..$r12).
//
// drm-accel.c gets the words from build/gemu-as (tests/guest/accel.sh
// assembles this file into a header), so edit only here.
//
// SPDX-License-Identifier: MIT
and b32 $r1 $r0 0xffff                  // tid.x
shr u32 $r2 $r0 0x10
and b32 $r2 $r2 0x3ff                   // tid.y
ld $r3 u16 s[0x2]                       // ntid.x
mul $r4 u16 $r2l u16 $r3l               // tid.y * ntid.x
add b32 $r4 $r4 $r1                     // thread index in its block
ld $r5 u16 s[0x4]                       // ntid.y
mul $r5 u16 $r5l u16 $r3l               // threads per block
ld $r6 u16 s[0xe]                       // ctaid.y
ld $r7 u16 s[0x8]                       // nctaid.x
ld $r8 u16 s[0xc]                       // ctaid.x
mul $r9 u16 $r6l u16 $r7l
add b32 $r9 $r9 $r8                     // block index in the grid
mul $r10 u16 $r9l u16 $r5l
add b32 $r10 $r10 $r4                   // i
shl b32 $r11 $r6 0x4
or b32 $r11 $r11 $r8
shl b32 $r11 $r11 0x18                  // (ctaid.x | ctaid.y << 4) << 24
shl b32 $r12 $r2 0x10
or b32 $r11 $r11 $r12                   // | tid.y << 16
shl b32 $r12 $r1 0x8
or b32 $r11 $r11 $r12                   // | tid.x << 8
or b32 $r11 $r11 0xc5
shl b32 $r10 $r10 0x2                   // byte offset of word i
st b32 g0[$r10] $r11
exit nop
