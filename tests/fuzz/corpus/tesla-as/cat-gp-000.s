mov b32 $r1 p[0x10]
emit
restart
