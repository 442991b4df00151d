vtstmsk.fsub.sp.nz.and.prec.wb.skipinv.nosched pa4, pa16, pa20
vmovcu8.f32.nez pa8.xy, pa4, c0.xxxx, pa24
vpck.f16.u8 pa12.xyzw, pa4.xyzw, pa4
