//! Resources bound to a draw: the bind group of constants, driver uniforms, textures and
//! samplers with its pipeline layout, and the vertex streams.

use std::collections::BTreeMap;

use crate::{Gpu, GpuError};
use d3dbc::target::interface as itf;
use d3dbc_exec::draw::Primitive;
use d3dbc_exec::Draw;
use wgpu::util::DeviceExt;

const UNIFORM_VIS: wgpu::ShaderStages = wgpu::ShaderStages::VERTEX_FRAGMENT;
impl Gpu {
    /// The bind group of a draw's constants, driver uniforms, textures and samplers
    /// (both stages), and the pipeline layout over it.
    pub(crate) fn bind_group(
        &self,
        d: &Draw,
        vi: &itf::Interface,
        pi: &itf::Interface,
    ) -> Result<(wgpu::BindGroup, wgpu::PipelineLayout), GpuError> {
        let dev = &self.device;
        let mut layout_entries = Vec::new();
        let mut keep_buffers: Vec<wgpu::Buffer> = Vec::new();
        let mut keep_views: BTreeMap<u32, wgpu::TextureView> = BTreeMap::new();
        let mut keep_samplers: BTreeMap<u32, wgpu::Sampler> = BTreeMap::new();
        let mut uniform = |binding: u32, bytes: Vec<u8>, keep: &mut Vec<wgpu::Buffer>| {
            layout_entries.push(wgpu::BindGroupLayoutEntry {
                binding,
                visibility: UNIFORM_VIS,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            });
            keep.push(dev.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: None,
                contents: &bytes,
                usage: wgpu::BufferUsages::UNIFORM,
            }));
            binding
        };
        let mut buffer_bindings = Vec::new();
        for (itf, consts) in [(vi, &d.vs_constants), (pi, &d.ps_constants)] {
            // One upload for each register file the stage reads: `registers` vec4s of
            // 32-bit words (a bool in its `x`), the draw's values first, zeros after.
            let files: [(Option<&itf::ConstantBuffer>, Vec<[u32; 4]>); 3] = [
                (itf.float_constants.as_ref(), consts.float.clone()),
                (
                    itf.int_constants.as_ref(),
                    consts.int.iter().map(|v| v.map(|x| x as u32)).collect(),
                ),
                (
                    itf.bool_constants.as_ref(),
                    consts.bool.iter().map(|&b| [b as u32, 0, 0, 0]).collect(),
                ),
            ];
            for (buffer, values) in files {
                let Some(c) = buffer else { continue };
                let mut words = vec![[0u32; 4]; c.registers as usize];
                for (w, v) in words.iter_mut().zip(&values) {
                    *w = *v;
                }
                buffer_bindings.push(uniform(
                    c.binding,
                    bytemuck::cast_slice(&words).to_vec(),
                    &mut keep_buffers,
                ));
            }
        }
        if vi.driver.is_some() || pi.driver.is_some() {
            let w = d.driver_uniforms();
            buffer_bindings.push(uniform(
                itf::DRIVER_BINDING,
                bytemuck::cast_slice(&w).to_vec(),
                &mut keep_buffers,
            ));
        }
        for (itf, base) in [(vi, d3dbc::regs::VERTEX_SAMPLER_BASE), (pi, 0usize)] {
            for s in &itf.samplers {
                let stage = base + s.stage as usize;
                let (view, dim) = self.texture_view(d, stage, s.kind)?;
                layout_entries.push(wgpu::BindGroupLayoutEntry {
                    binding: s.texture_binding,
                    visibility: UNIFORM_VIS,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: dim,
                        multisampled: false,
                    },
                    count: None,
                });
                layout_entries.push(wgpu::BindGroupLayoutEntry {
                    binding: s.sampler_binding,
                    visibility: UNIFORM_VIS,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                });
                keep_views.insert(s.texture_binding, view);
                keep_samplers.insert(s.sampler_binding, self.sampler(d, stage));
            }
        }
        let bgl = dev.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: None,
            entries: &layout_entries,
        });
        let mut entries = Vec::new();
        for (i, b) in buffer_bindings.iter().enumerate() {
            entries.push(wgpu::BindGroupEntry {
                binding: *b,
                resource: keep_buffers[i].as_entire_binding(),
            });
        }
        for (b, v) in &keep_views {
            entries.push(wgpu::BindGroupEntry {
                binding: *b,
                resource: wgpu::BindingResource::TextureView(v),
            });
        }
        for (b, s) in &keep_samplers {
            entries.push(wgpu::BindGroupEntry {
                binding: *b,
                resource: wgpu::BindingResource::Sampler(s),
            });
        }
        let bg = dev.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &bgl,
            entries: &entries,
        });
        let pl = dev.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: None,
            bind_group_layouts: &[Some(&bgl)],
            immediate_size: 0,
        });
        Ok((bg, pl))
    }

    /// One `vec4<f32>` vertex buffer per vertex-shader input, in draw order (points are
    /// instances of a 4-vertex strip: d3dbc-naga's point expansion); returns the buffers,
    /// their attributes and the vertex order.
    #[allow(clippy::type_complexity)]
    pub(crate) fn vertex_streams(
        &self,
        d: &Draw,
        vi: &itf::Interface,
    ) -> (Vec<wgpu::Buffer>, Vec<[wgpu::VertexAttribute; 1]>, Vec<u32>) {
        let dev = &self.device;
        let order = vertex_order(d.primitive, d.vertex_count);
        let mut vbufs = Vec::new();
        let mut attrs = Vec::new();
        for input in &vi.vertex_inputs {
            let elem = d.vertex_declaration.iter().find(|e| {
                e.register.map(u16::from) == Some(input.register)
                    || (e.register.is_none()
                        && input.usage.is_some_and(|u| u as u8 == e.usage)
                        && e.usage_index == input.usage_index)
            });
            let mut data: Vec<[f32; 4]> = Vec::with_capacity(order.len());
            for &v in &order {
                let val = elem
                    .and_then(|e| d3dbc_exec::render::read_element(d, e, v as usize))
                    .unwrap_or(d3dbc_exec::render::MISSING_INPUT);
                data.push(val);
            }
            if data.is_empty() {
                data.push([0.0; 4]);
            }
            vbufs.push(dev.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: None,
                contents: bytemuck::cast_slice(&data),
                usage: wgpu::BufferUsages::VERTEX,
            }));
            attrs.push([wgpu::VertexAttribute {
                format: wgpu::VertexFormat::Float32x4,
                offset: 0,
                shader_location: input.location,
            }]);
        }
        (vbufs, attrs, order)
    }
}

/// Vertex indices in draw order (triangle fans become lists).
fn vertex_order(p: Primitive, n: u32) -> Vec<u32> {
    match p {
        Primitive::TriangleFan => (1..n.saturating_sub(1))
            .flat_map(|i| [0, i, i + 1])
            .collect(),
        _ => (0..n).collect(),
    }
}
