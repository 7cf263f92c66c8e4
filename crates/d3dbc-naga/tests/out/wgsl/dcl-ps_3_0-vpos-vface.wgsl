diagnostic(off, derivative_uniformity);
struct PsOut {
    @location(0) oC0_: vec4<f32>,
}

@fragment 
fn main(@builtin(position) frag_coord: vec4<f32>, @builtin(front_facing) front_facing: bool) -> PsOut {
    return PsOut(select(select(vec4<f32>(), (frag_coord - vec4<f32>(0.5f, 0.5f, 0f, 0f)), vec4<bool>(true, true, false, false)), vec4(select(-1f, 1f, front_facing)).xxxx, vec4<bool>(false, false, true, true)));
}
