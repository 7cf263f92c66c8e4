//! Pre-transformed vertices (`D3DDECLUSAGE_POSITIONT`, no vertex shader) as a
//! programmable draw: [`programmable_equivalent`] writes the `vs_3_0` shader that maps
//! screen-space positions back to clip space through the draw's viewport and passes every
//! other vertex element through under its own usage. A runner that only has the
//! programmable path (the GPU runner) draws the equivalent; the CPU executor draws both
//! and the tests check they agree.

use d3dbc::token::DeclUsage;

use crate::draw::Draw;

/// The draw with its pre-transformed positions replaced by a generated `vs_3_0` shader,
/// or `None` when the draw has a vertex shader or no `POSITIONT` element.
///
/// Screen position `(x, y, z, rhw)` becomes clip position `ndc · w` with `w = 1 / rhw`,
/// `ndc.x = 2 (x − X) / W − 1`, `ndc.y = 1 − 2 (y − Y) / H` and
/// `ndc.z = (z − MinZ) / (MaxZ − MinZ)`, so that the viewport transform gives back
/// `(x, y, z)` and interpolation stays perspective-correct through `w`. Fails when the
/// declaration has more elements than `vs_3_0` has input or output registers.
pub fn programmable_equivalent(d: &Draw) -> Result<Option<Draw>, String> {
    let positiont = DeclUsage::PositionT as u8;
    if d.vs.is_some() || !d.vertex_declaration.iter().any(|e| e.usage == positiont) {
        return Ok(None);
    }
    let mut out = d.clone();
    let mut text = String::from("vs_3_0\n");
    let mut body = String::new();
    let mut pos_reg = None;
    let mut outputs = 1; // o0 is the position
    for (k, e) in out.vertex_declaration.iter_mut().enumerate() {
        if k >= d3dbc::regs::MAX_INPUTS {
            return Err(format!(
                "pre-transformed draw: more than {} vertex elements",
                d3dbc::regs::MAX_INPUTS
            ));
        }
        e.register = None;
        if e.usage == positiont && e.usage_index == 0 && pos_reg.is_none() {
            e.usage = DeclUsage::Position as u8;
            pos_reg = Some(k);
            text += &format!("dcl_position v{k}\n");
            continue;
        }
        let usage = DeclUsage::from_u8(e.usage)
            .filter(|u| *u != DeclUsage::PositionT && *u != DeclUsage::Position)
            .ok_or_else(|| format!("pre-transformed draw: element {k} has usage {}", e.usage))?;
        if outputs >= 12 {
            return Err("pre-transformed draw: more than 11 varyings".into());
        }
        let name = format!("{}{}", usage.name(), e.usage_index);
        text += &format!("dcl_{name} v{k}\ndcl_{name} o{outputs}\n");
        body += &format!("mov o{outputs}, v{k}\n");
        outputs += 1;
    }
    let p = pos_reg.ok_or("pre-transformed draw: POSITIONT with a usage index other than 0")?;
    text += "dcl_position o0\n";
    text += &format!(
        "rcp r0.w, v{p}.w\nmad r1.xy, v{p}, c0, c0.zwzw\nmad r1.z, v{p}.z, c1.x, c1.y\n\
         mul o0.xyz, r1, r0.w\nmov o0.w, r0.w\n"
    );
    text += &body;
    let shader = d3dbc::asm::assemble(&text, &Default::default())
        .map_err(|e| format!("pre-transformed draw: generated shader: {e}"))?;
    out.vs = Some(shader.encode());
    let vp = &d.viewport;
    let (x, y, w, h) = (vp.x as f32, vp.y as f32, vp.width as f32, vp.height as f32);
    let dz = vp.max_z - vp.min_z;
    let (zs, zb) = if dz == 0.0 {
        (0.0, 0.0)
    } else {
        (1.0 / dz, -vp.min_z / dz)
    };
    let c = [
        2.0 / w,
        -2.0 / h,
        -1.0 - 2.0 * x / w,
        1.0 + 2.0 * y / h,
        zs,
        zb,
        0.0,
        0.0,
    ];
    out.vs_constants = Default::default();
    out.vs_constants.set_float_bits(0, &c.map(f32::to_bits));
    Ok(Some(out))
}
