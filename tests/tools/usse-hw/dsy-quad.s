vtstmsk.fdsy.sp.nz.and.prec.wb.skipinv.nosched pa4, pa16, pa20
vmovcu8.f32.nez pa8.x, pa4, c0.xxxx, pa24
