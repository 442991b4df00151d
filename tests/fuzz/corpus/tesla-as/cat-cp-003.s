quadop f32 add subr sub mov2 $r1 l0 $r2 $r3
rcp f32 $r1 $r2
rcp f32 $r1 neg $r2
rsqrt f32 $r1 $r2
lg2 f32 $r1 $r2
presin f32 $r1 $r2
preex2 f32 $r1 $r2
sin f32 $r1 $r1
cos f32 $r1 $r1
ex2 f32 $r1 $r1
cvt rn f32 $r1 s32 $r2
cvt rz f32 $r1 u32 $r2
cvt rn f32 $r8 u16 $r3h
cvt rn f32 $r8 s8 $r3
cvt rzi s32 $r1 f32 $r2
cvt rni s32 $r1 f32 $r2
cvt rmi u32 $r1 f32 $r2
cvt rni s16 $r8l f32 $r4
cvt s32 $r1 s16 $r2l
cvt u32 $r1 u8 $r2
cvt u8 $r1 s32 $r2
cvt s16 $r1l s32 $r2
cvt neg s32 $r1 s32 $r2
cvt abs s32 $r1 s32 $r2
cvt abs f32 $r1 f32 $r2
cvt neg f32 $r1 f32 $r2
cvt sat f32 $r1 f32 $r2
cvt rmi f32 $r1 f32 $r2
cvt rn f16 $r1l f32 $r2
cvt f32 $r1 f16 $r2l
cvt s32 $c0 $r1 s32 $r2
cvt rzi s32 $c0 $r9 f32 $r4
cvt rn f64 $r2d s32 $r1
cvt rn f32 $r1 f64 $r2d
cvt f64 $r8d f32 $r10
cvt rzi s32 $r8 f64 $r2d
cvt rni f64 $r8d f64 $r2d
cvt rzi s64 $r8d f64 $r2d
add rn f64 $r2d $r4d $r6d
add rz f64 $r8d $r2d $r4d
