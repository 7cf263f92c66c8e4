//! Drawing: a draw's shaders translated and linked, then recorded into one render pass
//! (targets, depth/stencil, D3D9's half-pixel viewport); clears of colour and depth.

use crate::shaders::Pair;
use crate::{state, Backend, Gpu, GpuError};
use d3dbc::Shader;
use d3dbc_exec::draw::{Format, Primitive};
use d3dbc_exec::Draw;

impl Gpu {
    pub(crate) fn clear(&self, t: &wgpu::Texture, color: Option<[f32; 4]>, _d: Option<f32>) {
        let view = t.create_view(&Default::default());
        let c = color.unwrap_or_default();
        let mut enc = self.device.create_command_encoder(&Default::default());
        {
            let _p = enc.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: None,
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color {
                            r: c[0] as f64,
                            g: c[1] as f64,
                            b: c[2] as f64,
                            a: c[3] as f64,
                        }),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
        }
        self.queue.submit([enc.finish()]);
    }

    /// Clears depth and/or stencil (the low 8 bits), each only where given.
    pub(crate) fn clear_depth(&self, t: &wgpu::Texture, z: Option<f32>, stencil: Option<u32>) {
        let view = t.create_view(&Default::default());
        let mut enc = self.device.create_command_encoder(&Default::default());
        {
            let _p = enc.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: None,
                color_attachments: &[],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &view,
                    depth_ops: Some(wgpu::Operations {
                        load: z.map_or(wgpu::LoadOp::Load, wgpu::LoadOp::Clear),
                        store: wgpu::StoreOp::Store,
                    }),
                    stencil_ops: t.format().has_stencil_aspect().then(|| wgpu::Operations {
                        load: stencil.map_or(wgpu::LoadOp::Load, |v| wgpu::LoadOp::Clear(v & 0xFF)),
                        store: wgpu::StoreOp::Store,
                    }),
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
        }
        self.queue.submit([enc.finish()]);
    }

    pub(crate) fn draw(
        &self,
        d: &Draw,
        targets: &[(wgpu::Texture, wgpu::TextureFormat)],
        rt_formats: &[Format],
        depth: Option<&wgpu::Texture>,
    ) -> Result<(), GpuError> {
        // The options follow the draw as D3D9 sees it (pre-transformed vertices are not
        // clipped by user planes; their projection follows the vertex declaration).
        let opts = d.translate_options();
        // Pre-transformed vertices: draw the programmable equivalent.
        let equivalent = d3dbc_exec::pretransformed::programmable_equivalent(d)
            .map_err(GpuError::Unsupported)?;
        let d = equivalent.as_ref().unwrap_or(d);
        let vs_tokens = d.vs.as_ref().ok_or_else(|| {
            GpuError::Unsupported("fixed-function vertex pipeline (no vertex shader)".into())
        })?;
        let ps_tokens =
            d.ps.as_ref()
                .ok_or_else(|| GpuError::Unsupported("fixed-function pixel pipeline".into()))?;
        let vs = Shader::decode(vs_tokens).map_err(|e| GpuError::Shader(e.to_string()))?;
        let ps = Shader::decode(ps_tokens).map_err(|e| GpuError::Shader(e.to_string()))?;
        // Compact varying locations for exactly what the pixel shader reads, with its
        // interpolation and sampling (what a D3D9 driver does when it builds a pipeline).
        let pair = match self.backend {
            Backend::Naga => {
                let shader_err = |e: d3dbc_naga::Error| GpuError::Shader(e.to_string());
                let mut vt = d3dbc_naga::translate(&vs, &opts).map_err(shader_err)?;
                let mut pt = d3dbc_naga::translate(&ps, &opts).map_err(shader_err)?;
                d3dbc_naga::link(&mut vt, &mut pt).map_err(shader_err)?;
                if let Some(f) = &self.pixel_override {
                    pt.module = f(&pt).map_err(GpuError::Shader)?;
                    pt.info = d3dbc_naga::validate(&pt.module).map_err(shader_err)?;
                }
                Pair::Naga(Box::new((vt, pt)))
            }
            Backend::Direct => {
                let flags = d3dbc_spirv::EmitFlags { adjust_y: false };
                let (vt, pt) = d3dbc_spirv::link(&vs, &ps, &opts, flags)
                    .map_err(|e| GpuError::Shader(e.to_string()))?;
                Pair::Direct(Box::new((vt, pt)))
            }
        };
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let result = self.draw_inner(d, &pair, targets, rt_formats, depth);
        let err = pollster::block_on(scope.pop());
        result?;
        if let Some(e) = err {
            return Err(GpuError::Wgpu(match e {
                wgpu::Error::Validation { description, .. } => description,
                e => e.to_string(),
            }));
        }
        Ok(())
    }

    /// Draws with linked translations: bind group, vertex streams, pipeline, pass.
    fn draw_inner(
        &self,
        d: &Draw,
        pair: &Pair,
        targets: &[(wgpu::Texture, wgpu::TextureFormat)],
        rt_formats: &[Format],
        depth: Option<&wgpu::Texture>,
    ) -> Result<(), GpuError> {
        let (vi, pi) = pair.interfaces();
        let (bg, pl) = self.bind_group(d, vi, pi)?;
        let (vbufs, attrs, order) = self.vertex_streams(d, vi);
        let points = d.primitive == Primitive::PointList;
        let layouts: Vec<Option<wgpu::VertexBufferLayout>> = attrs
            .iter()
            .map(|a| {
                Some(wgpu::VertexBufferLayout {
                    array_stride: 16,
                    step_mode: if points {
                        wgpu::VertexStepMode::Instance
                    } else {
                        wgpu::VertexStepMode::Vertex
                    },
                    attributes: a,
                })
            })
            .collect();
        let (pipeline, color_targets, scratch) =
            self.pipeline(d, pair, targets, rt_formats, depth, &pl, &layouts)?;
        let depth = depth.or(scratch.as_ref());
        let mut enc = self.device.create_command_encoder(&Default::default());
        Self::pass(
            &mut enc,
            d,
            targets,
            rt_formats,
            depth,
            &color_targets,
            &pipeline,
            &bg,
            &vbufs,
            order.len() as u32,
        );
        self.queue.submit([enc.finish()]);
        Ok(())
    }

    /// Records the render pass: the targets the pixel shader writes (loaded and stored),
    /// depth/stencil, D3D9's half-pixel viewport, the draw.
    #[allow(clippy::too_many_arguments)]
    fn pass(
        enc: &mut wgpu::CommandEncoder,
        d: &Draw,
        targets: &[(wgpu::Texture, wgpu::TextureFormat)],
        rt_formats: &[Format],
        depth: Option<&wgpu::Texture>,
        color_targets: &[Option<wgpu::ColorTargetState>],
        pipeline: &wgpu::RenderPipeline,
        bg: &wgpu::BindGroup,
        vbufs: &[wgpu::Buffer],
        nverts: u32,
    ) {
        let rs = &d.render_states;
        let points = d.primitive == Primitive::PointList;
        let views: Vec<wgpu::TextureView> = targets
            .iter()
            .zip(rt_formats)
            .map(|((t, f), d3d)| {
                t.create_view(&wgpu::TextureViewDescriptor {
                    format: Some(state::color_format(rs, *d3d, *f)),
                    ..Default::default()
                })
            })
            .collect();
        let dview = depth.map(|t| t.create_view(&Default::default()));
        {
            // Targets the pixel shader does not write are left out of the pass (D3D9
            // leaves them untouched; wgpu wants the pass to match the pipeline).
            let atts: Vec<Option<wgpu::RenderPassColorAttachment>> = views
                .iter()
                .zip(color_targets)
                .map(|(v, t)| {
                    t.as_ref()?;
                    Some(wgpu::RenderPassColorAttachment {
                        view: v,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Load,
                            store: wgpu::StoreOp::Store,
                        },
                    })
                })
                .collect();
            let mut pass = enc.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: None,
                color_attachments: &atts,
                depth_stencil_attachment: dview.as_ref().map(|v| {
                    wgpu::RenderPassDepthStencilAttachment {
                        view: v,
                        depth_ops: Some(wgpu::Operations {
                            load: wgpu::LoadOp::Load,
                            store: wgpu::StoreOp::Store,
                        }),
                        stencil_ops: v.texture().format().has_stencil_aspect().then_some(
                            wgpu::Operations {
                                load: wgpu::LoadOp::Load,
                                store: wgpu::StoreOp::Store,
                            },
                        ),
                    }
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            // D3D9 samples pixel (x, y) at integer window coordinates, Vulkan at
            // x + 0.5: the viewport moves half a pixel right and down (as DXVK does)
            // rather than the geometry, so that a primitive on the D3D9 clip volume
            // stays on the Vulkan one (a shifted one is clipped and re-triangulated,
            // which costs lavapipe ~1e-5 of interpolation precision).
            let vp = &d.viewport;
            pass.set_viewport(
                vp.x as f32 + 0.5,
                vp.y as f32 + 0.5,
                vp.width as f32,
                vp.height as f32,
                vp.min_z,
                vp.max_z,
            );
            pass.set_pipeline(pipeline);
            pass.set_blend_constant(state::blend_constant(rs));
            pass.set_stencil_reference(rs.stencil.reference & 0xFF);
            pass.set_bind_group(0, bg, &[]);
            for (i, b) in vbufs.iter().enumerate() {
                pass.set_vertex_buffer(i as u32, b.slice(..));
            }
            if points {
                pass.draw(0..4, 0..nverts);
            } else {
                pass.draw(0..nverts, 0..1);
            }
        }
    }
}
