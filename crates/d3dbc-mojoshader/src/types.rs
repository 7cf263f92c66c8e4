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
    /// The table MojoShader's Vulkan mode writes before it records anything: no uniform
    /// or sampler patches (offset 0, location −1), no attribute or output offsets.
    pub const VULKAN: SpirvPatchTable = {
        let mut t = SpirvPatchTable::empty();
        t.vpflip.location = -1;
        t.array_vec4.location = -1;
        t.array_ivec4.location = -1;
        t.array_bool.location = -1;
        let mut i = 0;
        while i < t.samplers.len() {
            t.samplers[i].location = -1;
            i += 1;
        }
        t
    };

    /// A table with nothing to patch.
    pub const fn empty() -> Self {
        SpirvPatchTable {
            vpflip: SpirvPatchEntry {
                offset: 0,
                location: 0,
            },
            array_vec4: SpirvPatchEntry {
                offset: 0,
                location: 0,
            },
            array_ivec4: SpirvPatchEntry {
                offset: 0,
                location: 0,
            },
            array_bool: SpirvPatchEntry {
                offset: 0,
                location: 0,
            },
            samplers: [SpirvPatchEntry {
                offset: 0,
                location: 0,
            }; 16],
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

// ---- The effect half (`MOJOSHADER_EFFECT_SUPPORT`) ----
//
// Checked against the face header (sizes, every field's offset) by
// `tests/mojoshader_effects.rs`.

/// `MOJOSHADER_SYMTYPE_*` values the effect code tests.
pub const SYMTYPE_STRING: c_int = 4;
/// `MOJOSHADER_SYMTYPE_TEXTURE` (`TEXTURE1D` … `TEXTURECUBE` follow).
pub const SYMTYPE_TEXTURE: c_int = 5;
/// `MOJOSHADER_SYMTYPE_TEXTURECUBE`.
pub const SYMTYPE_TEXTURECUBE: c_int = 9;
/// `MOJOSHADER_SYMTYPE_SAMPLER` (`SAMPLER1D` … `SAMPLERCUBE` follow).
pub const SYMTYPE_SAMPLER: c_int = 10;
/// `MOJOSHADER_SYMTYPE_SAMPLERCUBE`.
pub const SYMTYPE_SAMPLERCUBE: c_int = 14;
/// `MOJOSHADER_SYMTYPE_PIXELSHADER`.
pub const SYMTYPE_PIXELSHADER: c_int = 15;
/// `MOJOSHADER_SYMTYPE_VERTEXSHADER`.
pub const SYMTYPE_VERTEXSHADER: c_int = 16;
/// `MOJOSHADER_SYMREGSET_BOOL`.
pub const SYMREGSET_BOOL: c_int = 0;
/// `MOJOSHADER_SYMREGSET_INT4`.
pub const SYMREGSET_INT4: c_int = 1;
/// `MOJOSHADER_SYMREGSET_FLOAT4`.
pub const SYMREGSET_FLOAT4: c_int = 2;
/// `MOJOSHADER_SYMREGSET_SAMPLER`.
pub const SYMREGSET_SAMPLER: c_int = 3;
/// `MOJOSHADER_SYMCLASS_OBJECT`.
pub const SYMCLASS_OBJECT: c_int = 4;
/// `MOJOSHADER_SYMCLASS_STRUCT`.
pub const SYMCLASS_STRUCT: c_int = 5;
/// `MOJOSHADER_SYMTYPE_FLOAT`.
pub const SYMTYPE_FLOAT: c_int = 3;
/// `MOJOSHADER_RS_VERTEXSHADER`.
pub const RS_VERTEXSHADER: c_int = 146;
/// `MOJOSHADER_RS_PIXELSHADER`.
pub const RS_PIXELSHADER: c_int = 147;
/// `MOJOSHADER_SAMP_TEXTURE`.
pub const SAMP_TEXTURE: c_int = 4;
/// `MOJOSHADER_POSITION_NONE`.
pub const POSITION_NONE: c_int = -3;

/// `MOJOSHADER_effectValue` (its union of typed pointers is `values`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_effectValue {
    pub name: *const c_char,
    pub semantic: *const c_char,
    pub r#type: MOJOSHADER_symbolTypeInfo,
    pub value_count: c_uint,
    pub values: *mut c_void,
}

/// `MOJOSHADER_effectState`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_effectState {
    pub r#type: c_int,
    pub value: MOJOSHADER_effectValue,
}

/// `MOJOSHADER_effectSamplerState`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_effectSamplerState {
    pub r#type: c_int,
    pub value: MOJOSHADER_effectValue,
}

/// `MOJOSHADER_effectAnnotation`.
pub type MOJOSHADER_effectAnnotation = MOJOSHADER_effectValue;

/// `MOJOSHADER_effectParam`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_effectParam {
    pub value: MOJOSHADER_effectValue,
    pub annotation_count: c_uint,
    pub annotations: *mut MOJOSHADER_effectAnnotation,
}

/// `MOJOSHADER_effectPass`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_effectPass {
    pub name: *const c_char,
    pub state_count: c_uint,
    pub states: *mut MOJOSHADER_effectState,
    pub annotation_count: c_uint,
    pub annotations: *mut MOJOSHADER_effectAnnotation,
}

/// `MOJOSHADER_effectTechnique`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_effectTechnique {
    pub name: *const c_char,
    pub pass_count: c_uint,
    pub passes: *mut MOJOSHADER_effectPass,
    pub annotation_count: c_uint,
    pub annotations: *mut MOJOSHADER_effectAnnotation,
}

/// `MOJOSHADER_samplerStateRegister`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_samplerStateRegister {
    pub sampler_name: *const c_char,
    pub sampler_register: c_uint,
    pub sampler_state_count: c_uint,
    pub sampler_states: *const MOJOSHADER_effectSamplerState,
}

/// `MOJOSHADER_effectShader` (its union of `shader` and `preshader` is `shader`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_effectShader {
    pub r#type: c_int,
    pub technique: c_uint,
    pub pass: c_uint,
    pub is_preshader: c_uint,
    pub preshader_param_count: c_uint,
    pub preshader_params: *mut c_uint,
    pub param_count: c_uint,
    pub params: *mut c_uint,
    pub sampler_count: c_uint,
    pub samplers: *mut MOJOSHADER_samplerStateRegister,
    pub shader: *mut c_void,
}

/// `MOJOSHADER_effectSamplerMap`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_effectSamplerMap {
    pub r#type: c_int,
    pub name: *const c_char,
}

/// `MOJOSHADER_effectString`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_effectString {
    pub r#type: c_int,
    pub string: *const c_char,
}

/// `MOJOSHADER_effectObject`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union MOJOSHADER_effectObject {
    pub r#type: c_int,
    pub shader: MOJOSHADER_effectShader,
    pub mapping: MOJOSHADER_effectSamplerMap,
    pub string: MOJOSHADER_effectString,
}

/// `MOJOSHADER_effectStateChanges`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_effectStateChanges {
    pub render_state_change_count: c_uint,
    pub render_state_changes: *const MOJOSHADER_effectState,
    pub sampler_state_change_count: c_uint,
    pub sampler_state_changes: *const MOJOSHADER_samplerStateRegister,
    pub vertex_sampler_state_change_count: c_uint,
    pub vertex_sampler_state_changes: *const MOJOSHADER_samplerStateRegister,
}

/// `MOJOSHADER_compileShaderFunc`.
pub type MOJOSHADER_compileShaderFunc = Option<
    unsafe extern "C" fn(
        ctx: *const c_void,
        mainfn: *const c_char,
        tokenbuf: *const u8,
        bufsize: c_uint,
        swiz: *const MOJOSHADER_swizzle,
        swizcount: c_uint,
        smap: *const MOJOSHADER_samplerMap,
        smapcount: c_uint,
    ) -> *mut c_void,
>;
/// `MOJOSHADER_shaderAddRefFunc`.
pub type MOJOSHADER_shaderAddRefFunc = Option<unsafe extern "C" fn(shader: *mut c_void)>;
/// `MOJOSHADER_deleteShaderFunc`.
pub type MOJOSHADER_deleteShaderFunc =
    Option<unsafe extern "C" fn(ctx: *const c_void, shader: *mut c_void)>;
/// `MOJOSHADER_getParseDataFunc`.
pub type MOJOSHADER_getParseDataFunc =
    Option<unsafe extern "C" fn(shader: *mut c_void) -> *mut MOJOSHADER_parseData>;
/// `MOJOSHADER_bindShadersFunc`.
pub type MOJOSHADER_bindShadersFunc =
    Option<unsafe extern "C" fn(ctx: *const c_void, vshader: *mut c_void, pshader: *mut c_void)>;
/// `MOJOSHADER_getBoundShadersFunc`.
pub type MOJOSHADER_getBoundShadersFunc = Option<
    unsafe extern "C" fn(ctx: *const c_void, vshader: *mut *mut c_void, pshader: *mut *mut c_void),
>;
/// `MOJOSHADER_mapUniformBufferMemoryFunc`.
pub type MOJOSHADER_mapUniformBufferMemoryFunc = Option<
    unsafe extern "C" fn(
        ctx: *const c_void,
        vsf: *mut *mut f32,
        vsi: *mut *mut c_int,
        vsb: *mut *mut u8,
        psf: *mut *mut f32,
        psi: *mut *mut c_int,
        psb: *mut *mut u8,
    ),
>;
/// `MOJOSHADER_unmapUniformBufferMemoryFunc`.
pub type MOJOSHADER_unmapUniformBufferMemoryFunc = Option<unsafe extern "C" fn(ctx: *const c_void)>;
/// `MOJOSHADER_getErrorFunc`.
pub type MOJOSHADER_getErrorFunc =
    Option<unsafe extern "C" fn(ctx: *const c_void) -> *const c_char>;

/// `MOJOSHADER_effectShaderContext`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_effectShaderContext {
    pub compileShader: MOJOSHADER_compileShaderFunc,
    pub shaderAddRef: MOJOSHADER_shaderAddRefFunc,
    pub deleteShader: MOJOSHADER_deleteShaderFunc,
    pub getParseData: MOJOSHADER_getParseDataFunc,
    pub bindShaders: MOJOSHADER_bindShadersFunc,
    pub getBoundShaders: MOJOSHADER_getBoundShadersFunc,
    pub mapUniformBufferMemory: MOJOSHADER_mapUniformBufferMemoryFunc,
    pub unmapUniformBufferMemory: MOJOSHADER_unmapUniformBufferMemoryFunc,
    pub getError: MOJOSHADER_getErrorFunc,
    pub shaderContext: *const c_void,
    pub m: MOJOSHADER_malloc,
    pub f: MOJOSHADER_free,
    pub malloc_data: *mut c_void,
}

impl MOJOSHADER_effectShaderContext {
    /// A context with no callbacks (the one MojoShader's static error effects hold).
    pub const EMPTY: MOJOSHADER_effectShaderContext = MOJOSHADER_effectShaderContext {
        compileShader: None,
        shaderAddRef: None,
        deleteShader: None,
        getParseData: None,
        bindShaders: None,
        getBoundShaders: None,
        mapUniformBufferMemory: None,
        unmapUniformBufferMemory: None,
        getError: None,
        shaderContext: std::ptr::null(),
        m: None,
        f: None,
        malloc_data: std::ptr::null_mut(),
    };
}

/// `MOJOSHADER_effect`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MOJOSHADER_effect {
    pub error_count: c_int,
    pub errors: *mut MOJOSHADER_error,
    pub param_count: c_int,
    pub params: *mut MOJOSHADER_effectParam,
    pub technique_count: c_int,
    pub techniques: *mut MOJOSHADER_effectTechnique,
    pub object_count: c_int,
    pub objects: *mut MOJOSHADER_effectObject,
    pub current_technique: *const MOJOSHADER_effectTechnique,
    pub current_pass: c_int,
    pub restore_shader_state: c_int,
    pub state_changes: *mut MOJOSHADER_effectStateChanges,
    pub current_vert_raw: *mut MOJOSHADER_effectShader,
    pub current_pixl_raw: *mut MOJOSHADER_effectShader,
    pub current_vert: *mut c_void,
    pub current_pixl: *mut c_void,
    pub prev_vertex_shader: *mut c_void,
    pub prev_pixel_shader: *mut c_void,
    pub ctx: MOJOSHADER_effectShaderContext,
}
