mul rn f64 $r2d $r4d $r6d
mul rp f64 $r8d $r2d $r4d
fma rn f64 $r2d $r4d $r6d $r8d
min f64 $r8d $r2d $r4d
max f64 $r8d abs $r2d neg $r4d
set $r8 l f64 $r2d $r4d
bra 0x20
(e $c0) bra 0x20
(never) bra 0x20
call 0x40
call lim 0x40
ret
(e $c0) ret
breakaddr 0x40
break
(g $c1) break
joinat 0x40
join nop
exit nop
exit mov b32 $r1 $r2
nop
trap
brkpt
bar inc wait 0x0 all
bar inc 0x0 all
bar wait 0x1 0x40
preret 0x10
bra c0[0x10]
pmevent 0x1
vote any $c0
(lg $c0) vote all $c1
