//! The output-merger and rasterizer states of a [`Draw`](d3dbc_exec::Draw) as wgpu
//! pipeline state: blending (separate alpha, blend factor, the obsolete `BOTH*` pair),
//! depth and stencil (formats, two-sided stencil, depth bias), fill mode and sRGB. The
//! CPU executor's output merger (`d3dbc_exec::merge`) is the reference these follow;
//! where wgpu cannot express D3D9's rule exactly the difference is named here.

use d3dbc_exec::draw::{
    Blend, BlendOp, Cmp, DepthFormat, FillMode, Format, RenderStates, StencilOp,
};

/// The wgpu features the runner asks for when the adapter has them (wireframe and point
/// fill modes, blending into 32-bit float targets, a float depth buffer with stencil).
pub(crate) const FEATURES: wgpu::Features = wgpu::Features::POLYGON_MODE_LINE
    .union(wgpu::Features::POLYGON_MODE_POINT)
    .union(wgpu::Features::FLOAT32_BLENDABLE)
    .union(wgpu::Features::DEPTH32FLOAT_STENCIL8);

/// The depth-stencil format standing in for `f`. 24-bit formats are kept as 32-bit float
/// depth (the runner's depth values stay those of the float pipeline; the CPU quantises
/// to 24 bits: equal-depth tests can differ by one 2⁻²⁴ step), with 8 bits of stencil
/// for `D24S8` when the device offers `DEPTH32FLOAT_STENCIL8`.
pub(crate) fn depth_format(f: DepthFormat, features: wgpu::Features) -> wgpu::TextureFormat {
    use wgpu::TextureFormat as T;
    match f {
        DepthFormat::D24S8 if features.contains(wgpu::Features::DEPTH32FLOAT_STENCIL8) => {
            T::Depth32FloatStencil8
        }
        DepthFormat::D24S8 => T::Depth24PlusStencil8,
        DepthFormat::D24X8 | DepthFormat::D32F => T::Depth32Float,
        DepthFormat::D16 => T::Depth16Unorm,
    }
}

fn factor(b: Blend) -> wgpu::BlendFactor {
    use wgpu::BlendFactor as F;
    match b {
        Blend::Zero => F::Zero,
        Blend::One => F::One,
        Blend::SrcColor => F::Src,
        Blend::InvSrcColor => F::OneMinusSrc,
        Blend::SrcAlpha | Blend::BothSrcAlpha => F::SrcAlpha,
        Blend::InvSrcAlpha | Blend::BothInvSrcAlpha => F::OneMinusSrcAlpha,
        Blend::DestAlpha => F::DstAlpha,
        Blend::InvDestAlpha => F::OneMinusDstAlpha,
        Blend::DestColor => F::Dst,
        Blend::InvDestColor => F::OneMinusDst,
        Blend::SrcAlphaSat => F::SrcAlphaSaturated,
        Blend::BlendFactor => F::Constant,
        Blend::InvBlendFactor => F::OneMinusConstant,
    }
}

fn operation(b: BlendOp) -> wgpu::BlendOperation {
    match b {
        BlendOp::Add => wgpu::BlendOperation::Add,
        BlendOp::Subtract => wgpu::BlendOperation::Subtract,
        BlendOp::RevSubtract => wgpu::BlendOperation::ReverseSubtract,
        BlendOp::Min => wgpu::BlendOperation::Min,
        BlendOp::Max => wgpu::BlendOperation::Max,
    }
}

/// One blend equation; a `BOTH*` source factor also sets the destination factor
/// (`BOTHSRCALPHA` = source alpha / inverse source alpha, `BOTHINVSRCALPHA` the reverse).
/// `MIN`/`MAX` ignore the factors, as wgpu requires them to be one.
fn component(src: Blend, dst: Blend, op: BlendOp) -> wgpu::BlendComponent {
    let dst = match src {
        Blend::BothSrcAlpha => Blend::InvSrcAlpha,
        Blend::BothInvSrcAlpha => Blend::SrcAlpha,
        _ => dst,
    };
    let operation = operation(op);
    let (src_factor, dst_factor) = match op {
        BlendOp::Min | BlendOp::Max => (wgpu::BlendFactor::One, wgpu::BlendFactor::One),
        _ => (factor(src), factor(dst)),
    };
    wgpu::BlendComponent {
        src_factor,
        dst_factor,
        operation,
    }
}

/// `ALPHABLENDENABLE` with `SEPARATEALPHABLENDENABLE`.
pub(crate) fn blend(rs: &RenderStates) -> Option<wgpu::BlendState> {
    rs.blend.then(|| {
        let color = component(rs.src_blend, rs.dest_blend, rs.blend_op);
        let alpha = if rs.separate_alpha_blend {
            component(rs.src_blend_alpha, rs.dest_blend_alpha, rs.blend_op_alpha)
        } else {
            color
        };
        wgpu::BlendState { color, alpha }
    })
}

/// `D3DRS_BLENDFACTOR` (a `D3DCOLOR`, ARGB).
pub(crate) fn blend_constant(rs: &RenderStates) -> wgpu::Color {
    let [r, g, b, a] = d3dbc_exec::format::d3dcolor(rs.blend_factor).map(f64::from);
    wgpu::Color { r, g, b, a }
}

/// The colour-target format: the target's own, or its sRGB view when
/// `SRGBWRITEENABLE` is on and the format is one D3D9 converts (8 bits per channel).
pub(crate) fn color_format(
    rs: &RenderStates,
    d3d: Format,
    f: wgpu::TextureFormat,
) -> wgpu::TextureFormat {
    if rs.srgb_write && d3d.is_srgb_writable() {
        f.add_srgb_suffix()
    } else {
        f
    }
}

pub(crate) fn compare(c: Cmp) -> wgpu::CompareFunction {
    use wgpu::CompareFunction as F;
    match c {
        Cmp::Never => F::Never,
        Cmp::Less => F::Less,
        Cmp::Equal => F::Equal,
        Cmp::LessEqual => F::LessEqual,
        Cmp::Greater => F::Greater,
        Cmp::NotEqual => F::NotEqual,
        Cmp::GreaterEqual => F::GreaterEqual,
        Cmp::Always => F::Always,
    }
}

fn stencil_op(o: StencilOp) -> wgpu::StencilOperation {
    use wgpu::StencilOperation as S;
    match o {
        StencilOp::Keep => S::Keep,
        StencilOp::Zero => S::Zero,
        StencilOp::Replace => S::Replace,
        StencilOp::IncrSat => S::IncrementClamp,
        StencilOp::DecrSat => S::DecrementClamp,
        StencilOp::Invert => S::Invert,
        StencilOp::Incr => S::IncrementWrap,
        StencilOp::Decr => S::DecrementWrap,
    }
}

/// Depth test, depth write, stencil and depth bias for a depth buffer of format `f`.
///
/// The pipeline's front face is the clockwise one (D3D9's default winding), so
/// clockwise triangles use the `STENCIL*` states and counter-clockwise ones the `CCW_*`
/// states when `TWOSIDEDSTENCILMODE` is on. Depth bias: D3D9's `DEPTHBIAS` is a depth
/// offset, Vulkan's constant bias counts minimum resolvable differences: the runner
/// converts with the format's step (2⁻¹⁶ for D16, 2⁻²⁴ otherwise: exact for UNORM
/// depth, the step at depth 0.5–1 for float depth).
pub(crate) fn depth_stencil(rs: &RenderStates, f: wgpu::TextureFormat) -> wgpu::DepthStencilState {
    let st = &rs.stencil;
    let face = |func: Cmp, fail, zfail, pass| wgpu::StencilFaceState {
        compare: compare(func),
        fail_op: stencil_op(fail),
        depth_fail_op: stencil_op(zfail),
        pass_op: stencil_op(pass),
    };
    let stencil = if st.enable && f.has_stencil_aspect() {
        let front = face(st.func, st.fail, st.z_fail, st.pass);
        let back = if st.two_sided {
            face(st.ccw_func, st.ccw_fail, st.ccw_z_fail, st.ccw_pass)
        } else {
            front
        };
        wgpu::StencilState {
            front,
            back,
            read_mask: st.mask & 0xFF,
            write_mask: st.write_mask & 0xFF,
        }
    } else {
        wgpu::StencilState::default()
    };
    let step = if f == wgpu::TextureFormat::Depth16Unorm {
        65536.0
    } else {
        16_777_216.0
    };
    wgpu::DepthStencilState {
        format: f,
        depth_write_enabled: Some(rs.z_enable && rs.z_write),
        depth_compare: Some(if rs.z_enable {
            compare(rs.z_func)
        } else {
            wgpu::CompareFunction::Always
        }),
        stencil,
        bias: wgpu::DepthBiasState {
            constant: (rs.depth_bias * step).round() as i32,
            slope_scale: rs.slope_scale_depth_bias,
            clamp: 0.0,
        },
    }
}

/// `D3DRS_FILLMODE` as a polygon mode; wireframe and point need the adapter's
/// `POLYGON_MODE_*` features. Vulkan rasterises the edges with its own line rule
/// (D3D9 uses the diamond-exit rule of `d3dbc_exec`'s rasterizer): edge pixels can differ.
pub(crate) fn polygon_mode(
    fill: FillMode,
    features: wgpu::Features,
) -> Result<wgpu::PolygonMode, String> {
    let (mode, needs) = match fill {
        FillMode::Solid => return Ok(wgpu::PolygonMode::Fill),
        FillMode::Wireframe => (wgpu::PolygonMode::Line, wgpu::Features::POLYGON_MODE_LINE),
        FillMode::Point => (wgpu::PolygonMode::Point, wgpu::Features::POLYGON_MODE_POINT),
    };
    if features.contains(needs) {
        Ok(mode)
    } else {
        Err(format!("fill mode {fill:?}: the adapter lacks {needs:?}"))
    }
}
