//! The shader modules of a draw: the vertex/pixel pair translated and linked by either
//! back end, handed to wgpu (through naga, wgpu's SPIR-V front end or pass-through), and
//! the translation options and driver uniforms a draw's state selects.

use crate::{Gpu, GpuError};
use d3dbc::target::interface::{self as itf, driver};
use d3dbc::target::options::{CompareFunc, FogDepth, FogMode, PipelineState, TranslateOptions};
use d3dbc_exec::draw::{Primitive, ShadeMode, TextureKind};
use d3dbc_exec::Draw;
use d3dbc_naga::Translation;

/// A translated vertex/pixel pair, linked, from either back end.
pub(crate) enum Pair {
    Naga(Box<(Translation, Translation)>),
    Direct(Box<(d3dbc_spirv::Translation, d3dbc_spirv::Translation)>),
}

impl Pair {
    /// The vertex and pixel shaders' interfaces (the same from either back end).
    pub(crate) fn interfaces(&self) -> (&itf::Interface, &itf::Interface) {
        match self {
            Pair::Naga(p) => (&p.0.interface, &p.1.interface),
            Pair::Direct(p) => (&p.0.interface, &p.1.interface),
        }
    }
}

impl Gpu {
    pub(crate) fn module(&self, t: &Translation) -> Result<wgpu::ShaderModule, GpuError> {
        if self.passthrough {
            let words = t
                .spirv_with(false)
                .map_err(|e| GpuError::Shader(e.to_string()))?;
            Ok(self.passthrough_module(words))
        } else {
            Ok(self
                .device
                .create_shader_module(wgpu::ShaderModuleDescriptor {
                    label: Some("d3dbc"),
                    source: wgpu::ShaderSource::Naga(std::borrow::Cow::Owned(t.module.clone())),
                }))
        }
    }

    /// A module from SPIR-V words of the direct back end: handed to the driver as they
    /// are with pass-through (`D3DBC_GPU_PASSTHROUGH`, as for the naga path: Mesa 22's
    /// lavapipe crashes in pass-through pipelines of either back end), else through
    /// wgpu's SPIR-V front end.
    pub(crate) fn direct_module(&self, words: &[u32]) -> wgpu::ShaderModule {
        if self.passthrough {
            self.passthrough_module(words.to_vec())
        } else {
            self.device
                .create_shader_module(wgpu::ShaderModuleDescriptor {
                    label: Some("d3dbc"),
                    source: wgpu::ShaderSource::SpirV(std::borrow::Cow::Borrowed(words)),
                })
        }
    }

    fn passthrough_module(&self, words: Vec<u32>) -> wgpu::ShaderModule {
        {
            // SAFETY: the SPIR-V comes from naga's writer for a module naga validated, or
            // from d3dbc-spirv (spirv-val accepts every corpus shader's output of both),
            // with the bindings of the explicit pipeline layout built from the same
            // interface.
            unsafe {
                self.device.create_shader_module_passthrough(
                    wgpu::ShaderModuleDescriptorPassthrough {
                        label: Some("d3dbc"),
                        entry_points: std::borrow::Cow::Owned(vec![
                            wgpu::PassthroughShaderEntryPoint {
                                name: "main".into(),
                                workgroup_size: (0, 0, 0),
                            },
                        ]),
                        spirv: Some(std::borrow::Cow::Owned(words)),
                        ..Default::default()
                    },
                )
            }
        }
    }
}

/// The translation options a draw's state selects.
pub fn options_for(d: &Draw) -> TranslateOptions {
    let rs = &d.render_states;
    let sm1_sampler_kinds = (0..d3dbc::regs::VERTEX_SAMPLER_BASE)
        .map(|s| match d.texture(s).map(|t| t.kind) {
            Some(TextureKind::Cube) => d3dbc::target::options::TextureKind::Cube,
            Some(TextureKind::Volume) => d3dbc::target::options::TextureKind::Volume,
            _ => d3dbc::target::options::TextureKind::Tex2d,
        })
        .collect();
    let projected = (0..d3dbc::regs::MAX_TEXTURES)
        .map(|s| d.projection(s))
        .collect();
    let alpha_test = if rs.alpha_test {
        rs.alpha_func
    } else {
        CompareFunc::Always
    };
    use d3dbc_exec::draw::FogMode as F;
    let fog_depth = if rs.projection_44 != 1.0 {
        FogDepth::W
    } else {
        FogDepth::Z
    };
    let fog = if !rs.fog_enable {
        FogMode::None
    } else {
        match rs.fog_table_mode {
            F::None => FogMode::Vertex,
            F::Linear => FogMode::Linear,
            F::Exp => FogMode::Exp,
            F::Exp2 => FogMode::Exp2,
        }
    };
    TranslateOptions {
        semantics: Default::default(),
        pipeline: PipelineState {
            sm1_sampler_kinds,
            projected,
            alpha_test,
            fog,
            fog_depth,
            point_expansion: d.primitive == Primitive::PointList,
            point_sprites: rs.point_sprite,
            flat_shading: rs.shade == ShadeMode::Flat,
            // The enabled planes, in the driver uniforms' first clip-plane slots.
            clip_planes: d.user_clip_planes().count() as u8,
            // The viewport carries D3D9's half-pixel offset.
            position_fixup: false,
            ..Default::default()
        },
    }
}

/// The driver uniform buffer for a draw (layout: [`d3dbc::target::interface::driver`]).
pub(crate) fn driver_uniforms(d: &Draw) -> Vec<[f32; 4]> {
    let mut u = vec![[0.0f32; 4]; driver::VEC4S as usize];
    let vp = &d.viewport;
    // POS_FIXUP stays zero: the half-pixel offset is in the viewport.
    let rs = &d.render_states;
    u[driver::ALPHA_REF as usize][0] = (rs.alpha_ref & 0xFF) as f32 / 255.0;
    u[driver::FOG_PARAMS as usize] = [rs.fog_start, rs.fog_end, rs.fog_density, 0.0];
    u[driver::FOG_COLOR as usize] = d3dbc_exec::format::d3dcolor(rs.fog_color);
    for s in 0..d3dbc::regs::MAX_TEXTURES {
        let st = d.stage(s);
        u[driver::BUMP_MAT as usize + s] = st.bump_mat;
        u[driver::BUMP_LUM as usize + s] = [st.bump_lscale, st.bump_loffset, 0.0, 0.0];
    }
    u[driver::POINT_SIZE as usize] = [rs.point_size, rs.point_size_min, rs.point_size_max, 0.0];
    u[driver::POINT_EXTENT as usize] = [
        2.0 / vp.width.max(1) as f32,
        -2.0 / vp.height.max(1) as f32,
        0.0,
        0.0,
    ];
    // The enabled planes packed from slot 0, as `options_for` counts them (plane 3
    // alone enabled is clip distance 0).
    for (k, (_, p)) in d.user_clip_planes().enumerate() {
        u[driver::CLIP_PLANE as usize + k] = p;
    }
    u
}
