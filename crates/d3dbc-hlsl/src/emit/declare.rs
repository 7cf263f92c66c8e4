//! The interface: the input and output structs, one field per declared register,
//! with their semantics.

use d3dbc::token::{DeclUsage, RegisterType};

use crate::interface::{field_name, semantic, Field};
use crate::Error;

use super::Emitter;

impl Emitter {
    /// The input and output structs.
    pub fn interface(&mut self) -> Result<(), Error> {
        let v = self.v;
        let a = &self.a;
        let mut inputs = Vec::new();
        let mut outputs = Vec::new();
        let f4 = |name: String, sem: String, reg: (RegisterType, u16), mask: u8| Field {
            name,
            ty: "float4",
            semantic: sem,
            reg,
            mask,
            width: 4,
        };
        if v.is_vertex() {
            // Registers read without a `dcl` (Direct3D 8): the D3DVSDE_* convention.
            for n in 0..16u16 {
                let declared = a
                    .inputs()
                    .any(|(k, var)| k == RegisterType::Input && var.num == n);
                if declared || !a.used.contains(RegisterType::Input, n) {
                    continue;
                }
                if let Some((usage, index)) = d3dbc::regs::d3d8_vertex_input(n) {
                    inputs.push(f4(
                        field_name(usage, index),
                        semantic(usage, index),
                        (RegisterType::Input, n),
                        0xF,
                    ));
                }
            }
        }
        if v.is_vertex() || v.major >= 3 {
            for (kind, var) in a.inputs() {
                let mask = if v.is_vertex() { 0xF } else { var.mask };
                let name = field_name(var.usage, var.index);
                if inputs.iter().any(|f: &Field| f.name == name) {
                    continue;
                }
                inputs.push(f4(
                    name,
                    semantic(var.usage, var.index),
                    (kind, var.num),
                    mask,
                ));
            }
        } else if v.major == 2 {
            for (kind, var) in a.inputs() {
                // ps_2_x `dcl t#`/`dcl v#` carry no usage: TEXCOORD#, COLOR#.
                let (usage, index) = if kind == RegisterType::Input {
                    (DeclUsage::Color, var.num as u8)
                } else {
                    (DeclUsage::TexCoord, var.num as u8)
                };
                let var = d3dbc::Varying {
                    usage,
                    index,
                    ..var
                };
                let name = field_name(var.usage, var.index);
                if inputs.iter().any(|f: &Field| f.name == name) {
                    continue;
                }
                inputs.push(f4(
                    name,
                    semantic(var.usage, var.index),
                    (kind, var.num),
                    0xF,
                ));
            }
        } else {
            // ps_1_x: colours v0/v1 and texture coordinates t# as used.
            for n in 0..2u16 {
                if a.used.contains(RegisterType::Input, n) {
                    inputs.push(f4(
                        format!("color{n}"),
                        format!("COLOR{n}"),
                        (RegisterType::Input, n),
                        0xF,
                    ));
                }
            }
            for &n in &self.ps1_t {
                inputs.push(f4(
                    format!("texcoord{n}"),
                    format!("TEXCOORD{n}"),
                    (RegisterType::AddrOrTexture, n),
                    0xF,
                ));
            }
        }
        if v.is_pixel() && v.major >= 3 {
            if a.used.contains(RegisterType::MiscType, 0) {
                inputs.push(Field {
                    name: "vpos".into(),
                    ty: "float2",
                    semantic: "VPOS".into(),
                    reg: (RegisterType::MiscType, 0),
                    mask: 0x3,
                    width: 2,
                });
            }
            if a.used.contains(RegisterType::MiscType, 1) {
                inputs.push(Field {
                    name: "vface".into(),
                    ty: "float",
                    semantic: "VFACE".into(),
                    reg: (RegisterType::MiscType, 1),
                    mask: 0x1,
                    width: 1,
                });
            }
        }
        // Outputs.
        if v.is_vertex() && v.major >= 3 {
            for var in a.outputs() {
                let name = field_name(var.usage, var.index);
                if outputs.iter().any(|f: &Field| f.name == name) {
                    continue;
                }
                let mut f = f4(
                    name,
                    semantic(var.usage, var.index),
                    (RegisterType::Output, var.num),
                    var.mask,
                );
                // Point size and fog are scalars in HLSL (D3D9 reads their x).
                if matches!(var.usage, DeclUsage::PSize | DeclUsage::Fog) {
                    f.ty = "float";
                    f.width = 1;
                }
                outputs.push(f);
            }
        } else if v.is_vertex() {
            let w = &a.written;
            if w.contains(RegisterType::RastOut, 0) {
                outputs.push(f4(
                    "position".into(),
                    "POSITION".into(),
                    (RegisterType::RastOut, 0),
                    0xF,
                ));
            }
            for n in 0..2 {
                if w.contains(RegisterType::AttrOut, n) {
                    outputs.push(f4(
                        format!("color{n}"),
                        format!("COLOR{n}"),
                        (RegisterType::AttrOut, n),
                        0xF,
                    ));
                }
            }
            for n in 0..8 {
                if w.contains(RegisterType::Output, n) {
                    outputs.push(f4(
                        format!("texcoord{n}"),
                        format!("TEXCOORD{n}"),
                        (RegisterType::Output, n),
                        0xF,
                    ));
                }
            }
            for (n, name, sem) in [(1u16, "fog", "FOG"), (2, "psize", "PSIZE")] {
                if w.contains(RegisterType::RastOut, n) {
                    outputs.push(Field {
                        name: name.into(),
                        ty: "float",
                        semantic: sem.into(),
                        reg: (RegisterType::RastOut, n),
                        mask: 1,
                        width: 1,
                    });
                }
            }
        } else if self.ps1 {
            outputs.push(f4(
                "color0".into(),
                "COLOR0".into(),
                (RegisterType::Temp, 0),
                0xF,
            ));
            if a.writes_depth {
                outputs.push(Field {
                    name: "depth".into(),
                    ty: "float",
                    semantic: "DEPTH".into(),
                    reg: (RegisterType::DepthOut, 0),
                    mask: 1,
                    width: 1,
                });
            }
        } else {
            for n in 0..4 {
                if a.written.contains(RegisterType::ColorOut, n) {
                    outputs.push(f4(
                        format!("color{n}"),
                        format!("COLOR{n}"),
                        (RegisterType::ColorOut, n),
                        0xF,
                    ));
                }
            }
            if a.written.contains(RegisterType::DepthOut, 0) || a.writes_depth {
                outputs.push(Field {
                    name: "depth".into(),
                    ty: "float",
                    semantic: "DEPTH".into(),
                    reg: (RegisterType::DepthOut, 0),
                    mask: 1,
                    width: 1,
                });
            }
        }
        self.inputs = inputs;
        self.outputs = outputs;
        Ok(())
    }
}
