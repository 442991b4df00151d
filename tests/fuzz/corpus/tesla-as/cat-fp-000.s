mov $r1 $sampleid
quadop f32 sub subr sub subr $r1 dx $r2 $r2
quadon
quadpop
discard
(e $c0) discard
interp $r0 v[0x0]
interp $r1 flat v[0x10]
interp $r1 cent v[0x10]
interp $r1 v[0x10] $r0
interp $r70 v[0x10] $r0
interp $r1 v[0x10] neg $r0
texauto live $r0:$r1:$r2:$r3 $t0 $s0 $r0:$r1
texauto live $r0:$r1:$r2:$r3 $t0 $s0 $r0:$r1 0x0 0x0 0x0
texauto all $r4:$r5:$r6:$r7 $t1 $s1 $r4:$r5 0x0 0x0 0x0
texauto live $r0:$r1:#:# $t0 $s0 $r0:$r1 0x0 0x0 0x0
texfetch live $r0:$r1:$r2:$r3 $t0 $s0 $r0:$r1:$r2 0x0 0x0 0x0
texlod all $r0:$r1:$r2:$r3 $t0 $s0 $r0:$r1:$r2 0x0 0x0 0x0
texbias all $r0:$r1:$r2:$r3 $t0 $s0 $r0:$r1:$r2 0x0 0x0 0x0
texsize all $r0:$r1:$r2:$r3 $t0 $s0 $r0
texgather all $r0:$r1:$r2:$r3 $t0 $s0 $r0:$r1 0x0 0x0 0x0
texquerylod all $r0:$r1:$r2:$r3 $t0 $s0 $r0:$r1
texprep cube all $r0:$r1:$r2:$r3 $t0 $s0 $r0:$r1:$r2:$r3
