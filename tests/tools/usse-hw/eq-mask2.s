vtstmsk.fsub.z.prec.wb.skipinv.nosched.mf32 i0, pa16, pa20
vmovc.f32.nez o4.xy, i0, pa28.xyzw, pa24
vtstmsk.fsub.and.prec.wb.skipinv.nosched.mf16 r0, pa16, pa20
