    vmov.f32.rpt2 o0.xy, pa0.xyzw
    vmov.f32 o4.xy, pa4.xyzw
