# No exit: the pc runs past the program's end (a MEMORY_FAULT there).
mov b32 $r1 0x7
add b32 $r1 $r1 $r1
