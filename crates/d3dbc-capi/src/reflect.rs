//! `d3dbc_reflect`: a shader's interface as C structs — what the translators
//! ([`d3dbc::target::interface`]) bind where (constant buffers, texture and sampler
//! bindings, the driver uniforms), vertex inputs by usage, the varyings in the fixed
//! map, colour and depth outputs — and the constants its `CTAB` names. The same facts
//! as `d3dbc translate --interface` writes (also in `json`).

use std::ffi::{c_char, c_int};

use d3dbc::target::interface::{ConstantBuffer, Stage};
use d3dbc::target::TextureKind;

use crate::compile::{check_kind, d3dbc_compile_info, interface, load, request};
use crate::ffi::{self, Failure};

/// Which pipeline stage.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum d3dbc_stage {
    /// A vertex shader.
    D3DBC_STAGE_VERTEX = 0,
    /// A pixel (fragment) shader.
    D3DBC_STAGE_FRAGMENT = 1,
}

/// The texture kind a sampler samples.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum d3dbc_texture_kind {
    /// 2D (and D3D9's 1D).
    D3DBC_TEXTURE_2D = 0,
    /// Cube map.
    D3DBC_TEXTURE_CUBE = 1,
    /// Volume.
    D3DBC_TEXTURE_VOLUME = 2,
}

/// A uniform array of vec4 registers; `registers` is 0 when the shader reads none.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct d3dbc_constant_buffer {
    /// Binding in the bind group.
    pub binding: u32,
    /// vec4 registers in the array (16 bytes each); 0: absent.
    pub registers: u32,
}

/// A texture + sampler pair for one `s#` (or ps_1_x stage).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct d3dbc_sampler_binding {
    /// The sampler register / texture stage.
    pub stage: u32,
    /// The texture kind sampled.
    pub kind: d3dbc_texture_kind,
    /// Binding of the texture.
    pub texture_binding: u32,
    /// Binding of the sampler.
    pub sampler_binding: u32,
}

/// One vertex shader input.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct d3dbc_vertex_input {
    /// `D3DDECLUSAGE` value, or -1 for a vs_1_x register read without `dcl`.
    pub usage: i32,
    /// Usage index.
    pub usage_index: u32,
    /// Input register `v#`.
    pub register_index: u32,
    /// Shader location.
    pub location: u32,
}

/// One varying (vertex output or pixel input).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct d3dbc_varying {
    /// `D3DDECLUSAGE` value.
    pub usage: u32,
    /// Usage index.
    pub usage_index: u32,
    /// Location in the fixed varying map.
    pub location: u32,
    /// 1 for flat interpolation.
    pub flat: u8,
    /// 1 for centroid sampling.
    pub centroid: u8,
}

/// A constant the shader's constant table (`CTAB`) names.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct d3dbc_constant {
    /// Its name.
    pub name: *const c_char,
    /// `D3DXREGISTER_SET`: 0 bool, 1 int4, 2 float4, 3 sampler.
    pub register_set: u32,
    /// First register.
    pub register_index: u32,
    /// Registers used.
    pub register_count: u32,
    /// `D3DXPARAMETER_CLASS`.
    pub parameter_class: u32,
    /// `D3DXPARAMETER_TYPE`.
    pub parameter_type: u32,
    /// Rows.
    pub rows: u32,
    /// Columns.
    pub columns: u32,
    /// Array elements (1 for non-arrays).
    pub elements: u32,
    /// The default value's DWORDs (NULL when the table has none).
    pub default_value: *const u32,
    /// How many.
    pub default_value_count: usize,
}

/// A shader's interface.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct d3dbc_interface {
    /// Vertex or fragment.
    pub stage: d3dbc_stage,
    /// The D3D9 version (`"ps_2_0"`).
    pub version: *const c_char,
    /// The entry point in the translated module.
    pub entry_point: *const c_char,
    /// The bind group of every resource.
    pub group: u32,
    /// Float constants `c#`.
    pub float_constants: d3dbc_constant_buffer,
    /// Integer constants `i#`.
    pub int_constants: d3dbc_constant_buffer,
    /// Boolean constants `b#`.
    pub bool_constants: d3dbc_constant_buffer,
    /// The driver uniforms (layout in `d3dbc::target::interface::driver`).
    pub driver: d3dbc_constant_buffer,
    /// Texture and sampler bindings.
    pub samplers: *const d3dbc_sampler_binding,
    /// How many.
    pub sampler_count: usize,
    /// Vertex inputs (vertex shaders).
    pub vertex_inputs: *const d3dbc_vertex_input,
    /// How many.
    pub vertex_input_count: usize,
    /// Varyings.
    pub varyings: *const d3dbc_varying,
    /// How many.
    pub varying_count: usize,
    /// Colour outputs `oC#` (location = index).
    pub color_outputs: *const u32,
    /// How many.
    pub color_output_count: usize,
    /// 1 when the shader writes `oDepth`.
    pub depth_output: u8,
    /// 1 when it discards fragments.
    pub discards: u8,
    /// The constants of its constant table.
    pub constants: *const d3dbc_constant,
    /// How many.
    pub constant_count: usize,
}

/// What a [`d3dbc_interface`] points into.
type Keep = (
    ffi::Strings,
    Vec<d3dbc_sampler_binding>,
    Vec<d3dbc_vertex_input>,
    Vec<d3dbc_varying>,
    Vec<u32>,
    Vec<d3dbc_constant>,
    Vec<Vec<u32>>,
);

fn buffer(b: &Option<ConstantBuffer>) -> d3dbc_constant_buffer {
    b.as_ref().map_or(d3dbc_constant_buffer::default(), |b| {
        d3dbc_constant_buffer {
            binding: b.binding,
            registers: b.registers,
        }
    })
}

/// Reflects the shader of `info->source` (bytecode or assembly text) under
/// `info->options` (`info->target_type` is ignored; `via` picks which back end
/// answers, the same either way). The shader must pass the validator unless the option
/// `validate` is false, as for `d3dbc_compile`. Returns 0 and sets `*out` (free it
/// with `d3dbc_free_interface`), or a negative `d3dbc_result` with `*messages` saying
/// why.
///
/// # Safety
/// As `d3dbc_compile`.
#[no_mangle]
pub unsafe extern "C" fn d3dbc_reflect(
    info: *const d3dbc_compile_info,
    out: *mut *mut d3dbc_interface,
    messages: *mut *mut c_char,
) -> c_int {
    ffi::guard("d3dbc_reflect", messages, || {
        ffi::out_arg(out, "out")?;
        // SAFETY: checked non-NULL.
        unsafe { *out = std::ptr::null_mut() };
        // SAFETY: per this function's contract.
        let r = unsafe { request(info)? };
        if r.source_type == crate::d3dbc_source_type::D3DBC_SOURCE_EFFECT {
            return Err(Failure::unsupported(
                "d3dbc_reflect takes one shader: an effect's come from \
                 d3dbc_effect_evaluate_pass",
            ));
        }
        check_kind(r.source_type, r.source)?;
        let mut warnings = Vec::new();
        let shader = load(r.source, &r.settings, &mut warnings)?;
        let iface = interface(&shader, &r.settings)?;
        let ctab = shader
            .ctab()
            .transpose()
            .map_err(|e| Failure::input(format!("{}: CTAB: {e}", r.settings.name)))?;
        let mut strings = ffi::Strings::default();
        let mut s = |t: &str| strings.add(t);
        let samplers: Vec<_> = iface
            .samplers
            .iter()
            .map(|b| d3dbc_sampler_binding {
                stage: b.stage,
                kind: match b.kind {
                    TextureKind::Tex2d => d3dbc_texture_kind::D3DBC_TEXTURE_2D,
                    TextureKind::Cube => d3dbc_texture_kind::D3DBC_TEXTURE_CUBE,
                    TextureKind::Volume => d3dbc_texture_kind::D3DBC_TEXTURE_VOLUME,
                },
                texture_binding: b.texture_binding,
                sampler_binding: b.sampler_binding,
            })
            .collect();
        let inputs: Vec<_> = iface
            .vertex_inputs
            .iter()
            .map(|v| d3dbc_vertex_input {
                usage: v.usage.map_or(-1, |u| u as i32),
                usage_index: v.usage_index.into(),
                register_index: v.register.into(),
                location: v.location,
            })
            .collect();
        let varyings: Vec<_> = iface
            .varyings
            .iter()
            .map(|v| d3dbc_varying {
                usage: v.usage as u32,
                usage_index: v.usage_index.into(),
                location: v.location,
                flat: v.flat.into(),
                centroid: v.centroid.into(),
            })
            .collect();
        let colors = iface.color_outputs.clone();
        let mut defaults: Vec<Vec<u32>> = Vec::new();
        let mut constants = Vec::new();
        for c in ctab.iter().flat_map(|t| &t.constants) {
            let (dp, dn) = match &c.default_value {
                Some(d) => {
                    defaults.push(d.clone());
                    ffi::array(defaults.last().map_or(&[][..], Vec::as_slice))
                }
                None => (std::ptr::null(), 0),
            };
            constants.push(d3dbc_constant {
                name: s(&c.name),
                register_set: c.register_set.to_u16().into(),
                register_index: c.register_index.into(),
                register_count: c.register_count.into(),
                parameter_class: c.ty.class.to_u16().into(),
                parameter_type: c.ty.ty.to_u16().into(),
                rows: c.ty.rows.into(),
                columns: c.ty.columns.into(),
                elements: c.ty.elements.into(),
                default_value: dp,
                default_value_count: dn,
            });
        }
        let public = d3dbc_interface {
            stage: match iface.stage {
                Stage::Vertex => d3dbc_stage::D3DBC_STAGE_VERTEX,
                Stage::Fragment => d3dbc_stage::D3DBC_STAGE_FRAGMENT,
            },
            version: s(&iface.version),
            entry_point: s(&iface.entry_point),
            group: iface.group,
            float_constants: buffer(&iface.float_constants),
            int_constants: buffer(&iface.int_constants),
            bool_constants: buffer(&iface.bool_constants),
            driver: buffer(&iface.driver),
            samplers: ffi::array(&samplers).0,
            sampler_count: samplers.len(),
            vertex_inputs: ffi::array(&inputs).0,
            vertex_input_count: inputs.len(),
            varyings: ffi::array(&varyings).0,
            varying_count: varyings.len(),
            color_outputs: ffi::array(&colors).0,
            color_output_count: colors.len(),
            depth_output: iface.depth_output.into(),
            discards: iface.discards.into(),
            constants: ffi::array(&constants).0,
            constant_count: constants.len(),
        };
        let keep: Keep = (
            strings, samplers, inputs, varyings, colors, constants, defaults,
        );
        // SAFETY: as above.
        unsafe { *out = ffi::give(public, keep) };
        Ok(warnings.join("\n"))
    })
}

/// Frees an interface of `d3dbc_reflect` (NULL is ignored).
///
/// # Safety
/// `interface` must be NULL or what `d3dbc_reflect` returned, not yet freed.
#[no_mangle]
pub unsafe extern "C" fn d3dbc_free_interface(interface: *mut d3dbc_interface) {
    // SAFETY: per this function's contract.
    ffi::quiet((), || unsafe {
        ffi::take::<d3dbc_interface, Keep>(interface)
    })
}
