    vpck.f16.f32 pa0.xyzw, pa0.xyzw, pa2
