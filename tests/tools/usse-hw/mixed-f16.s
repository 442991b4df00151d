vpck.f16.f32 r0.xyzw, pa0.xyzw, pa2
vmul.f16 r2.xyzw, r0.wzyx, r0.xyzw
vmul.f16 r4.y, r0.xyzw, r0.xyzw
vpck.f16.f16 r6.w, r2.xxxy, #0
vpck.f32.f16 o4.xy, r2.xyzw, #0
vpck.f32.f16 o6.xy, r6.zwzw, #0
