//! Reading a render target back into the executor's [`Image`] (RGBA floats), decoding
//! each target format's texels.

use crate::{Gpu, Image};
use d3dbc_exec::draw::{Format, TargetDesc};

impl Gpu {
    pub(crate) fn read(
        &self,
        t: &wgpu::Texture,
        f: wgpu::TextureFormat,
        desc: &TargetDesc,
    ) -> Image {
        let (w, h) = (desc.width, desc.height);
        let bpp = f.block_copy_size(None).unwrap_or(16);
        let row = (w * bpp).div_ceil(256) * 256;
        let buf = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: (row * h) as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut enc = self.device.create_command_encoder(&Default::default());
        enc.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture: t,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: &buf,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(row),
                    rows_per_image: Some(h),
                },
            },
            wgpu::Extent3d {
                width: w,
                height: h,
                depth_or_array_layers: 1,
            },
        );
        self.queue.submit([enc.finish()]);
        let slice = buf.slice(..);
        slice.map_async(wgpu::MapMode::Read, |_| {});
        let _ = self.device.poll(wgpu::PollType::Wait {
            submission_index: None,
            timeout: None,
        });
        let mut pixels = Vec::with_capacity((w * h) as usize);
        if let Ok(data) = slice.get_mapped_range() {
            for y in 0..h {
                let r = &data[(y * row) as usize..];
                for x in 0..w as usize {
                    let p = &r[x * bpp as usize..(x + 1) * bpp as usize];
                    pixels.push(decode_pixel(f, p));
                }
            }
        }
        buf.unmap();
        Image {
            width: w,
            height: h,
            format: desc.format,
            pixels,
        }
    }
}

fn decode_pixel(f: wgpu::TextureFormat, p: &[u8]) -> [f32; 4] {
    let f32at = |i: usize| f32::from_le_bytes([p[4 * i], p[4 * i + 1], p[4 * i + 2], p[4 * i + 3]]);
    let h = |i: usize| d3dbc_exec::format::decode_texel(Format::R16F, &p[2 * i..2 * i + 2])[0];
    match f {
        wgpu::TextureFormat::Rgba32Float => [f32at(0), f32at(1), f32at(2), f32at(3)],
        wgpu::TextureFormat::R32Float => [f32at(0), 1.0, 1.0, 1.0],
        wgpu::TextureFormat::Rg32Float => [f32at(0), f32at(1), 1.0, 1.0],
        wgpu::TextureFormat::Rgba16Float => [h(0), h(1), h(2), h(3)],
        wgpu::TextureFormat::R16Float => [h(0), 1.0, 1.0, 1.0],
        wgpu::TextureFormat::Rg16Float => [h(0), h(1), 1.0, 1.0],
        _ => [0, 1, 2, 3].map(|i| p[i] as f32 / 255.0),
    }
}
