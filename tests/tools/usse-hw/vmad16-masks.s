vpck.f16.f32 pa6.xyzw, pa8.xyzw, pa10
vmad.f16 pa0.x, pa6.xyzw, sa0.xyzw, sa2.xyzw
vmad.f16 r0.z, pa6.zwxy, sa0.xyzw, sa2.xxxx
vpck.f32.f16 o4.xy, pa0.xyzw, #0
vpck.f32.f16 o6.xy, r0.zwzw, #0
