vtstmsk.frcp.sp.nz.and.prec.wb.skipinv.nosched.mf32 i0, pa16, pa20
vpck.f32.f32 o4.xy, i0.xyzw, i1
vpck.f32.f32 o6.xy, i0.zwzw, i1
vtstmsk.flog.sp.nz.and.prec.wb.skipinv.nosched.mf32 i1, pa24, pa20
vpck.f32.f32 o8.xy, i1.xyzw, i1
vpck.f32.f32 o10.xy, i1.zwzw, i1
