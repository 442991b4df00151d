# s[0x3c] is the last word of a 0x40-byte s[]; s[0x40] is past it.
ld $r1 b32 s[0x3c]
ld $r2 b32 s[0x40]
exit nop
