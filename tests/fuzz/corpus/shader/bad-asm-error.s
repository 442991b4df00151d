mov b32 $r1 $r2
frobnicate $r1
exit nop
