    vpck.f32.f32.nosched i0.xyzw, pa0.xyzw, pa2
    vpck.f32.f32 i1.xyzw, pa4.xyzw, pa6
    vmul.f16 pa0.xyzw, i1.xyzw, i0.xyzw
