//! The shader modules of a draw: the vertex/pixel pair translated and linked by either
//! back end, handed to wgpu (through naga, wgpu's SPIR-V front end or pass-through). The
//! options and driver uniforms come from the draw ([`d3dbc_exec::translate`]).

use crate::{Gpu, GpuError};
use d3dbc::target::interface as itf;
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
