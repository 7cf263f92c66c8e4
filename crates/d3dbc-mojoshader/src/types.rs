//! MojoShader's data shapes, `#[repr(C)]`, as `crates/d3dbc-capi/face/mojoshader.h`
//! declares them (that header's layout is checked against MojoShader 6333f74's own by
//! `d3dbc-capi`'s `tests/mojoshader_layout.rs`; `tests/face_layout.rs` here checks these
//! Rust types against that header). Enumerations are plain `c_int`s: a C caller may
//! store any value in them.

use std::ffi::{c_char, c_int, c_uint, c_void};

/// `MOJOSHADER_malloc`.
pub type MOJOSHADER_malloc =
    Option<unsafe extern "C" fn(bytes: c_int, data: *mut c_void) -> *mut c_void>;
/// `MOJOSHADER_free`.
pub type MOJOSHADER_free = Option<unsafe extern "C" fn(ptr: *mut c_void, data: *mut c_void)>;

/// `MOJOSHADER_TYPE_PIXEL`.
pub const TYPE_PIXEL: c_int = 1;
/// `MOJOSHADER_TYPE_VERTEX`.
pub const TYPE_VERTEX: c_int = 2;

/// `MOJOSHADER_UNIFORM_FLOAT`, `_INT`, `_BOOL`.
pub const UNIFORM_FLOAT: c_int = 0;
/// `MOJOSHADER_UNIFORM_INT`.
pub const UNIFORM_INT: c_int = 1;
/// `MOJOSHADER_UNIFORM_BOOL`.
pub const UNIFORM_BOOL: c_int = 2;

/// `MOJOSHADER_POSITION_BEFORE`: an error before the first token.
pub const POSITION_BEFORE: c_int = -2;

/// `MOJOSHADER_uniform`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_uniform {
    pub r#type: c_int,
    pub index: c_int,
    pub array_count: c_int,
    pub constant: c_int,
    pub name: *const c_char,
}

/// `MOJOSHADER_constant`'s value union.
#[repr(C)]
#[derive(Clone, Copy)]
pub union MOJOSHADER_constantValue {
    pub f: [f32; 4],
    pub i: [i32; 4],
    pub b: c_int,
}

/// `MOJOSHADER_constant`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct MOJOSHADER_constant {
    pub r#type: c_int,
    pub index: c_int,
    pub value: MOJOSHADER_constantValue,
}

/// `MOJOSHADER_sampler`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_sampler {
    pub r#type: c_int,
    pub index: c_int,
    pub name: *const c_char,
    pub texbem: c_int,
}

/// `MOJOSHADER_samplerMap`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_samplerMap {
    pub index: c_int,
    pub r#type: c_int,
}

/// `MOJOSHADER_attribute`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_attribute {
    pub usage: c_int,
    pub index: c_int,
    pub name: *const c_char,
}

/// `MOJOSHADER_swizzle`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_swizzle {
    pub usage: c_int,
    pub index: c_uint,
    pub swizzles: [u8; 4],
}

/// `MOJOSHADER_symbolTypeInfo`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_symbolTypeInfo {
    pub parameter_class: c_int,
    pub parameter_type: c_int,
    pub rows: c_uint,
    pub columns: c_uint,
    pub elements: c_uint,
    pub member_count: c_uint,
    pub members: *mut MOJOSHADER_symbolStructMember,
}

/// `MOJOSHADER_symbolStructMember`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_symbolStructMember {
    pub name: *const c_char,
    pub info: MOJOSHADER_symbolTypeInfo,
}

/// `MOJOSHADER_symbol`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_symbol {
    pub name: *const c_char,
    pub register_set: c_int,
    pub register_index: c_uint,
    pub register_count: c_uint,
    pub info: MOJOSHADER_symbolTypeInfo,
}

/// `MOJOSHADER_error`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_error {
    pub error: *const c_char,
    pub filename: *const c_char,
    pub error_position: c_int,
}

/// `MOJOSHADER_preshaderOperand`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_preshaderOperand {
    pub r#type: c_int,
    pub index: c_uint,
    pub array_register_count: c_uint,
    pub array_registers: *mut c_uint,
}

/// `MOJOSHADER_preshaderInstruction`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_preshaderInstruction {
    pub opcode: c_int,
    pub element_count: c_uint,
    pub operand_count: c_uint,
    pub operands: [MOJOSHADER_preshaderOperand; 4],
}

/// `MOJOSHADER_preshader`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_preshader {
    pub literal_count: c_uint,
    pub literals: *mut f64,
    pub temp_count: c_uint,
    pub symbol_count: c_uint,
    pub symbols: *mut MOJOSHADER_symbol,
    pub instruction_count: c_uint,
    pub instructions: *mut MOJOSHADER_preshaderInstruction,
    pub register_count: c_uint,
    pub registers: *mut f32,
    pub malloc: MOJOSHADER_malloc,
    pub free: MOJOSHADER_free,
    pub malloc_data: *mut c_void,
}

/// `MOJOSHADER_parseData`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_parseData {
    pub error_count: c_int,
    pub errors: *mut MOJOSHADER_error,
    pub profile: *const c_char,
    pub output: *const c_char,
    pub output_len: c_int,
    pub instruction_count: c_int,
    pub shader_type: c_int,
    pub major_ver: c_int,
    pub minor_ver: c_int,
    pub mainfn: *const c_char,
    pub uniform_count: c_int,
    pub uniforms: *mut MOJOSHADER_uniform,
    pub constant_count: c_int,
    pub constants: *mut MOJOSHADER_constant,
    pub sampler_count: c_int,
    pub samplers: *mut MOJOSHADER_sampler,
    pub attribute_count: c_int,
    pub attributes: *mut MOJOSHADER_attribute,
    pub output_count: c_int,
    pub outputs: *mut MOJOSHADER_attribute,
    pub swizzle_count: c_int,
    pub swizzles: *mut MOJOSHADER_swizzle,
    pub symbol_count: c_int,
    pub symbols: *mut MOJOSHADER_symbol,
    pub preshader: *mut MOJOSHADER_preshader,
    pub malloc: MOJOSHADER_malloc,
    pub free: MOJOSHADER_free,
    pub malloc_data: *mut c_void,
}

/// `MOJOSHADER_vertexAttribute`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_vertexAttribute {
    pub usage: c_int,
    pub vertexElementFormat: c_int,
    pub usageIndex: c_int,
}

/// MojoShader's `SpirvPatchEntry` (`mojoshader_internal.h`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SpirvPatchEntry {
    pub offset: u32,
    pub location: i32,
}

/// One `attrib_type_load_offsets` entry of MojoShader's `SpirvPatchTable`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SpirvLoadOffsets {
    pub num_loads: u32,
    pub load_types: *mut u32,
    pub load_opcodes: *mut u32,
}

/// Usages MojoShader counts (`MOJOSHADER_USAGE_TOTAL`).
pub const USAGE_TOTAL: usize = 14;

/// MojoShader's `SpirvPatchTable` (`mojoshader_internal.h`): appended after the SPIR-V
/// module of the `spirv` profile, `output_len` counting both. Offsets are word indices
/// into the module; 0 means "absent".
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SpirvPatchTable {
    pub vpflip: SpirvPatchEntry,
    pub array_vec4: SpirvPatchEntry,
    pub array_ivec4: SpirvPatchEntry,
    pub array_bool: SpirvPatchEntry,
    pub samplers: [SpirvPatchEntry; 16],
    pub location_count: i32,
    pub pointcoord_var_offset: u32,
    pub pointcoord_load_offset: u32,
    pub tid_pvec2i: u32,
    pub tid_vec2: u32,
    pub tid_pvec4i: u32,
    pub tid_vec4: u32,
    pub tid_ivec4: u32,
    pub tid_uvec4: u32,
    pub tid_vec4_p: u32,
    pub tid_ivec4_p: u32,
    pub tid_uvec4_p: u32,
    pub attrib_type_offsets: [[u32; 16]; USAGE_TOTAL],
    pub attrib_type_load_offsets: [[SpirvLoadOffsets; 16]; USAGE_TOTAL],
    pub attrib_offsets: [[u32; 16]; USAGE_TOTAL],
    pub output_offsets: [u32; 16],
}

impl SpirvPatchTable {
    /// A table with nothing to patch.
    pub fn empty() -> Self {
        SpirvPatchTable {
            vpflip: Default::default(),
            array_vec4: Default::default(),
            array_ivec4: Default::default(),
            array_bool: Default::default(),
            samplers: Default::default(),
            location_count: 0,
            pointcoord_var_offset: 0,
            pointcoord_load_offset: 0,
            tid_pvec2i: 0,
            tid_vec2: 0,
            tid_pvec4i: 0,
            tid_vec4: 0,
            tid_ivec4: 0,
            tid_uvec4: 0,
            tid_vec4_p: 0,
            tid_ivec4_p: 0,
            tid_uvec4_p: 0,
            attrib_type_offsets: [[0; 16]; USAGE_TOTAL],
            attrib_type_load_offsets: [[SpirvLoadOffsets {
                num_loads: 0,
                load_types: std::ptr::null_mut(),
                load_opcodes: std::ptr::null_mut(),
            }; 16]; USAGE_TOTAL],
            attrib_offsets: [[0; 16]; USAGE_TOTAL],
            output_offsets: [0; 16],
        }
    }
}
