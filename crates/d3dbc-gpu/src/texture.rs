//! Textures and samplers of a draw: the executor's decoded texture uploaded as
//! `Rgba32Float` with its view dimension, and the sampler state as a wgpu sampler.

use crate::{Gpu, GpuError};
use d3dbc_exec::draw::{Address, Filter, TextureKind};
use d3dbc_exec::Draw;

impl Gpu {
    pub(crate) fn texture_view(
        &self,
        d: &Draw,
        stage: usize,
        kind: TextureKind,
    ) -> Result<(wgpu::TextureView, wgpu::TextureViewDimension), GpuError> {
        use TextureKind as K;
        let dim = match kind {
            K::Tex2d => wgpu::TextureViewDimension::D2,
            K::Cube => wgpu::TextureViewDimension::Cube,
            K::Volume => wgpu::TextureViewDimension::D3,
        };
        let decoded = d
            .texture(stage)
            .map(d3dbc_exec::texture::Decoded::new)
            .transpose()
            .map_err(|e| GpuError::Unsupported(format!("texture {stage}: {e}")))?;
        let matches = decoded.as_ref().is_some_and(|t| t.kind == kind);
        let (w, h, layers, levels): (u32, u32, u32, Vec<Vec<[f32; 4]>>) = match (&decoded, matches)
        {
            (Some(t), true) => (
                t.levels[0].w,
                t.levels[0].h,
                if kind == K::Volume {
                    t.levels[0].d
                } else if kind == K::Cube {
                    6
                } else {
                    1
                },
                {
                    // SRGBTEXTURE: decode before filtering, as the CPU sampler does.
                    let srgb = d.sampler(stage).srgb && t.srgb_capable;
                    let lin = d3dbc_exec::format::srgb_to_linear;
                    t.levels
                        .iter()
                        .map(|l| {
                            let mut texels = l.texels.clone();
                            if srgb {
                                for p in &mut texels {
                                    *p = [lin(p[0]), lin(p[1]), lin(p[2]), p[3]];
                                }
                            }
                            texels
                        })
                        .collect()
                },
            ),
            // Unbound (or mismatched) samplers read (0, 0, 0, 1).
            _ => {
                let n = if kind == K::Cube { 6 } else { 1 };
                (1, 1, n, vec![vec![[0.0, 0.0, 0.0, 1.0]; n as usize]])
            }
        };
        let tex = self.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("texture"),
            size: wgpu::Extent3d {
                width: w,
                height: h,
                depth_or_array_layers: layers,
            },
            mip_level_count: levels.len() as u32,
            sample_count: 1,
            dimension: if kind == K::Volume {
                wgpu::TextureDimension::D3
            } else {
                wgpu::TextureDimension::D2
            },
            format: wgpu::TextureFormat::Rgba32Float,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        for (mip, texels) in levels.iter().enumerate() {
            let (mw, mh) = ((w >> mip).max(1), (h >> mip).max(1));
            let ml = if kind == K::Volume {
                (layers >> mip).max(1)
            } else {
                layers
            };
            let need = (mw * mh * ml) as usize;
            if texels.len() < need {
                continue;
            }
            self.queue.write_texture(
                wgpu::TexelCopyTextureInfo {
                    texture: &tex,
                    mip_level: mip as u32,
                    origin: wgpu::Origin3d::ZERO,
                    aspect: wgpu::TextureAspect::All,
                },
                bytemuck::cast_slice(&texels[..need]),
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(mw * 16),
                    rows_per_image: Some(mh),
                },
                wgpu::Extent3d {
                    width: mw,
                    height: mh,
                    depth_or_array_layers: ml,
                },
            );
        }
        let view = tex.create_view(&wgpu::TextureViewDescriptor {
            dimension: Some(dim),
            ..Default::default()
        });
        Ok((view, dim))
    }

    pub(crate) fn sampler(&self, d: &Draw, stage: usize) -> wgpu::Sampler {
        let s = d.sampler(stage);
        let addr = |a: Address| match a {
            Address::Wrap => wgpu::AddressMode::Repeat,
            Address::Mirror | Address::MirrorOnce => wgpu::AddressMode::MirrorRepeat,
            Address::Clamp => wgpu::AddressMode::ClampToEdge,
            Address::Border => wgpu::AddressMode::ClampToBorder,
        };
        let filt = |f: Filter| match f {
            Filter::None | Filter::Point => wgpu::FilterMode::Nearest,
            Filter::Linear | Filter::Anisotropic => wgpu::FilterMode::Linear,
        };
        let mip_none = s.mip_filter == Filter::None;
        let border = match s.border_color {
            0 => wgpu::SamplerBorderColor::TransparentBlack,
            0xFF00_0000 => wgpu::SamplerBorderColor::OpaqueBlack,
            _ => wgpu::SamplerBorderColor::OpaqueWhite,
        };
        let any_border = [s.address_u, s.address_v, s.address_w].contains(&Address::Border);
        self.device.create_sampler(&wgpu::SamplerDescriptor {
            label: None,
            address_mode_u: addr(s.address_u),
            address_mode_v: addr(s.address_v),
            address_mode_w: addr(s.address_w),
            mag_filter: filt(s.mag_filter),
            min_filter: filt(s.min_filter),
            mipmap_filter: if s.mip_filter == Filter::Linear {
                wgpu::MipmapFilterMode::Linear
            } else {
                wgpu::MipmapFilterMode::Nearest
            },
            lod_min_clamp: s.max_mip_level as f32,
            lod_max_clamp: if mip_none {
                s.max_mip_level as f32
            } else {
                32.0
            },
            compare: None,
            anisotropy_clamp: 1,
            border_color: any_border.then_some(border),
        })
    }
}
