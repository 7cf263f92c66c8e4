//! The render pipeline of a draw: shader stages, vertex layouts, fixed-function state
//! (blend, depth/stencil, rasteriser, colour write masks) and render-target formats.

use crate::shaders::Pair;
use crate::{state, Gpu, GpuError};
use d3dbc_exec::draw::{Cull, Format, Primitive};
use d3dbc_exec::Draw;

impl Gpu {
    /// The render pipeline of a draw; also the colour target states and, when the pixel
    /// shader writes depth without a depth buffer, the scratch depth texture it needs.
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    pub(crate) fn pipeline(
        &self,
        d: &Draw,
        pair: &Pair,
        targets: &[(wgpu::Texture, wgpu::TextureFormat)],
        rt_formats: &[Format],
        depth: Option<&wgpu::Texture>,
        pl: &wgpu::PipelineLayout,
        layouts: &[Option<wgpu::VertexBufferLayout>],
    ) -> Result<
        (
            wgpu::RenderPipeline,
            Vec<Option<wgpu::ColorTargetState>>,
            Option<wgpu::Texture>,
        ),
        GpuError,
    > {
        let dev = &self.device;
        let pi = pair.interfaces().1;
        let points = d.primitive == Primitive::PointList;
        let rs = &d.render_states;
        let (vm, fm) = match pair {
            Pair::Naga(p) => (self.module(&p.0)?, self.module(&p.1)?),
            Pair::Direct(p) => (
                self.direct_module(&p.0.words),
                self.direct_module(&p.1.words),
            ),
        };
        let color_targets: Vec<Option<wgpu::ColorTargetState>> = targets
            .iter()
            .enumerate()
            .map(|(i, (_, f))| {
                if !pi.color_outputs.contains(&(i as u32)) {
                    return None;
                }
                let mask = if i == 0 {
                    rs.color_write
                } else {
                    rs.color_write_more.get(i - 1).copied().unwrap_or(0xF)
                };
                Some(wgpu::ColorTargetState {
                    format: state::color_format(rs, rt_formats[i], *f),
                    blend: state::blend(rs),
                    write_mask: wgpu::ColorWrites::from_bits_truncate(mask),
                })
            })
            .collect();
        let topology = match d.primitive {
            Primitive::PointList => wgpu::PrimitiveTopology::TriangleStrip,
            Primitive::LineList => wgpu::PrimitiveTopology::LineList,
            Primitive::LineStrip => wgpu::PrimitiveTopology::LineStrip,
            Primitive::TriangleStrip => wgpu::PrimitiveTopology::TriangleStrip,
            Primitive::TriangleList | Primitive::TriangleFan => {
                wgpu::PrimitiveTopology::TriangleList
            }
        };
        // D3D9 ignores `oDepth` when no depth buffer is bound; wgpu wants a depth
        // attachment for a pixel shader that writes depth: a scratch one, neither
        // tested nor written.
        let scratch = (depth.is_none() && pi.depth_output)
            .then(|| targets.first())
            .flatten()
            .map(|(t, _)| {
                dev.create_texture(&wgpu::TextureDescriptor {
                    label: Some("scratch depth"),
                    size: t.size(),
                    mip_level_count: 1,
                    sample_count: 1,
                    dimension: wgpu::TextureDimension::D2,
                    format: wgpu::TextureFormat::Depth32Float,
                    usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                    view_formats: &[],
                })
            });
        let depth_state = match (depth, &scratch) {
            (Some(t), _) => Some(state::depth_stencil(rs, t.format())),
            (None, Some(t)) => Some(wgpu::DepthStencilState {
                format: t.format(),
                depth_write_enabled: Some(false),
                depth_compare: Some(wgpu::CompareFunction::Always),
                stencil: Default::default(),
                bias: Default::default(),
            }),
            (None, None) => None,
        };
        let polygon_mode =
            state::polygon_mode(rs.fill, self.features).map_err(GpuError::Unsupported)?;
        let pipeline = dev.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: None,
            layout: Some(pl),
            vertex: wgpu::VertexState {
                module: &vm,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                buffers: layouts,
            },
            primitive: wgpu::PrimitiveState {
                topology,
                strip_index_format: None,
                front_face: wgpu::FrontFace::Cw,
                cull_mode: match rs.cull {
                    _ if points => None,
                    Cull::None => None,
                    Cull::Ccw => Some(wgpu::Face::Back),
                    Cull::Cw => Some(wgpu::Face::Front),
                },
                unclipped_depth: false,
                polygon_mode,
                conservative: false,
            },
            depth_stencil: depth_state,
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &fm,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                targets: &color_targets,
            }),
            multiview_mask: None,
            cache: None,
        });
        Ok((pipeline, color_targets, scratch))
    }
}

pub(crate) fn rt_format(f: Format) -> wgpu::TextureFormat {
    match f {
        Format::A32B32G32R32F => wgpu::TextureFormat::Rgba32Float,
        Format::R32F => wgpu::TextureFormat::R32Float,
        Format::G32R32F => wgpu::TextureFormat::Rg32Float,
        Format::A16B16G16R16F => wgpu::TextureFormat::Rgba16Float,
        Format::R16F => wgpu::TextureFormat::R16Float,
        Format::G16R16F => wgpu::TextureFormat::Rg16Float,
        _ => wgpu::TextureFormat::Rgba8Unorm,
    }
}
