//! `MOJOSHADER_parse` and `MOJOSHADER_freeParseData`: a shader decoded by `d3dbc`,
//! its interface listed the way MojoShader lists it (uniforms, constants, samplers,
//! attributes, outputs in MojoShader's order and with its register names; symbols from
//! the constant table) and its output from the profile's d3dbc back end:
//!
//! | profile | output |
//! |---|---|
//! | `bytecode` | the shader's tokens up to and including the end token |
//! | `d3d` | d3dbc's listing (fxc's disassembly) |
//! | `glsl`, `glsl120` | naga's GLSL (`d3dbc-naga`) |
//! | `spirv` | the SPIR-V module of `d3dbc-spirv`, then MojoShader's `SpirvPatchTable` |
//!
//! Bookkeeping only: every fact about the bytecode comes from `d3dbc`.

use std::ffi::{c_char, c_int, c_uint, CStr};

use d3dbc::ctab::{Ctab, CtabView, ParameterClass, ParameterType, RegisterSet, TypeInfo, TypeView};
use d3dbc::{Opcode, RegisterType, Shader, ShaderKind};

use crate::arena::{build, Allocator, Arena};
use crate::spirv;
use crate::types::*;

mod answer;
pub(crate) use answer::{emit, emit_error, symbols};

/// A profile the face answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// `d3d`.
    D3d,
    /// `bytecode`.
    Bytecode,
    /// `glsl`.
    Glsl,
    /// `glsl120`.
    Glsl120,
    /// `spirv`.
    Spirv,
}

impl Profile {
    /// The profile named `name`.
    pub fn from_name(name: &[u8]) -> Option<Profile> {
        Some(match name {
            b"d3d" => Profile::D3d,
            b"bytecode" => Profile::Bytecode,
            b"glsl" => Profile::Glsl,
            b"glsl120" => Profile::Glsl120,
            b"spirv" => Profile::Spirv,
            _ => return None,
        })
    }

    /// Its name as a static C string (what `parseData.profile` points to).
    pub fn c_name(self) -> &'static CStr {
        match self {
            Profile::D3d => c"d3d",
            Profile::Bytecode => c"bytecode",
            Profile::Glsl => c"glsl",
            Profile::Glsl120 => c"glsl120",
            Profile::Spirv => c"spirv",
        }
    }
}

/// The `MOJOSHADER_parseData` MojoShader returns when memory runs out (never freed).
pub static mut OUT_OF_MEM_ERROR: MOJOSHADER_error = MOJOSHADER_error {
    error: c"Out of memory".as_ptr(),
    filename: std::ptr::null(),
    error_position: -3,
};

/// A `MOJOSHADER_parseData` with every count 0 and every pointer NULL.
const EMPTY_ANSWER: MOJOSHADER_parseData = MOJOSHADER_parseData {
    error_count: 0,
    errors: std::ptr::null_mut(),
    profile: std::ptr::null(),
    output: std::ptr::null(),
    output_len: 0,
    instruction_count: 0,
    shader_type: 0,
    major_ver: 0,
    minor_ver: 0,
    mainfn: std::ptr::null(),
    uniform_count: 0,
    uniforms: std::ptr::null_mut(),
    constant_count: 0,
    constants: std::ptr::null_mut(),
    sampler_count: 0,
    samplers: std::ptr::null_mut(),
    attribute_count: 0,
    attributes: std::ptr::null_mut(),
    output_count: 0,
    outputs: std::ptr::null_mut(),
    swizzle_count: 0,
    swizzles: std::ptr::null_mut(),
    symbol_count: 0,
    symbols: std::ptr::null_mut(),
    preshader: std::ptr::null_mut(),
    malloc: None,
    free: None,
    malloc_data: std::ptr::null_mut(),
};

/// The answer for an allocation failure, as MojoShader's `MOJOSHADER_out_of_mem_data`.
pub static mut OUT_OF_MEM_DATA: MOJOSHADER_parseData = MOJOSHADER_parseData {
    error_count: 1,
    errors: &raw mut OUT_OF_MEM_ERROR,
    ..EMPTY_ANSWER
};

/// The out-of-memory answer's address.
pub fn out_of_memory() -> *const MOJOSHADER_parseData {
    &raw const OUT_OF_MEM_DATA
}

/// A register as MojoShader keys it: `(type, number)`, `c2048`… folded into `Const`.
type Reg = (u8, u32);

const CONST: u8 = RegisterType::Const as u8;
const CONSTINT: u8 = RegisterType::ConstInt as u8;
const CONSTBOOL: u8 = RegisterType::ConstBool as u8;
const TEXTURE: u8 = RegisterType::AddrOrTexture as u8;
const INPUT: u8 = RegisterType::Input as u8;
const SAMPLER: u8 = RegisterType::Sampler as u8;
const MISCTYPE: u8 = RegisterType::MiscType as u8;

/// Usages (`MOJOSHADER_USAGE_*`).
const USAGE_POSITION: c_int = 0;
const USAGE_POINTSIZE: c_int = 4;
const USAGE_TEXCOORD: c_int = 5;
const USAGE_COLOR: c_int = 10;
const USAGE_FOG: c_int = 11;
const USAGE_DEPTH: c_int = 12;
const USAGE_UNKNOWN: c_int = -1;

fn key(kind: RegisterType, num: u16) -> Reg {
    let base = match kind {
        RegisterType::Const2 => 2048,
        RegisterType::Const3 => 4096,
        RegisterType::Const4 => 6144,
        _ => 0,
    };
    let kind = match kind {
        RegisterType::Const2 | RegisterType::Const3 | RegisterType::Const4 => CONST,
        k => k as u8,
    };
    (kind, base + u32::from(num))
}

fn is_output(t: u8) -> bool {
    t == RegisterType::RastOut as u8
        || t == RegisterType::AttrOut as u8
        || t == RegisterType::Output as u8
        || t == RegisterType::ColorOut as u8
        || t == RegisterType::DepthOut as u8
}

/// A sorted register list, MojoShader's `RegisterList` (`reglist_insert`).
#[derive(Default)]
struct RegList<T> {
    items: Vec<(Reg, T)>,
}

impl<T: Default> RegList<T> {
    fn insert(&mut self, r: Reg) -> &mut T {
        let i = match self.items.binary_search_by(|(k, _)| k.cmp(&r)) {
            Ok(i) => i,
            Err(i) => {
                self.items.insert(i, (r, T::default()));
                i
            }
        };
        &mut self.items[i].1
    }
}

/// A set of registers walked in `(type, number)` order, as MojoShader's `RegisterList`
/// is: one bit per register, with the words in use listed, so that a parse sets, clears
/// and walks only those (a sorted list's inserts were a tenth of a parse).
#[derive(Default)]
struct RegBits {
    words: Vec<u64>,
    touched: Vec<u32>,
}

/// Register numbers a type spans in [`RegBits`]: [`key`] gives at most 8191, and a
/// matrix operand's rows add 3.
const REG_NUMS: usize = 1 << 14;
/// Register types (5 bits in a token).
const REG_TYPES: usize = 32;

impl RegBits {
    fn bit(r: Reg) -> Option<usize> {
        ((r.0 as usize) < REG_TYPES && (r.1 as usize) < REG_NUMS)
            .then(|| r.0 as usize * REG_NUMS + r.1 as usize)
    }

    fn insert(&mut self, r: Reg) {
        // Every key is in range (see `REG_NUMS`).
        let Some(i) = Self::bit(r) else { return };
        if self.words.is_empty() {
            self.words = vec![0; REG_TYPES * REG_NUMS / 64];
        }
        let w = &mut self.words[i / 64];
        if *w == 0 {
            self.touched.push((i / 64) as u32);
        }
        *w |= 1 << (i % 64);
    }

    fn contains(&self, r: Reg) -> bool {
        Self::bit(r).is_some_and(|i| {
            self.words
                .get(i / 64)
                .is_some_and(|w| w >> (i % 64) & 1 != 0)
        })
    }

    /// Orders the words in use for [`RegBits::iter`].
    fn sort(&mut self) {
        self.touched.sort_unstable();
    }

    /// The registers in `(type, number)` order (after [`RegBits::sort`]).
    fn iter(&self) -> impl Iterator<Item = Reg> + '_ {
        self.touched.iter().flat_map(move |&w| {
            let mut bits = self.words[w as usize];
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let i = w as usize * 64 + b;
                    ((i / REG_NUMS) as u8, (i % REG_NUMS) as u32)
                })
            })
        })
    }

    fn clear(&mut self) {
        for &w in &self.touched {
            self.words[w as usize] = 0;
        }
        self.touched.clear();
    }
}

#[derive(Default, Clone, Copy)]
struct Attr {
    usage: c_int,
    index: c_int,
}

#[derive(Default, Clone, Copy)]
struct Samp {
    ttype: c_int,
    texbem: bool,
}

/// A MojoShader "variable": a constant-table entry or a run of `def`s.
struct Variable {
    index: i64,
    count: i64,
    constant: bool,
    used: bool,
}

/// One uniform, sampler, attribute: its fields and its register for the name.
struct Named<T> {
    fields: T,
    reg: Reg,
}

/// Everything a parse answers, before it is laid out for C.
pub(crate) struct Plan<'a> {
    pub profile: Profile,
    pub output: Output,
    pub instruction_count: c_int,
    pub shader_type: c_int,
    pub major: c_int,
    pub minor: c_int,
    pub mainfn: Option<&'a [u8]>,
    uniforms: Vec<Named<(c_int, c_int, c_int, c_int)>>,
    /// Uniforms named by MojoShader's constant-array name: `(index, count)`.
    array_uniforms: Vec<(c_int, c_int, bool)>,
    pub constants: Vec<MOJOSHADER_constant>,
    samplers: Vec<Named<(c_int, c_int, bool)>>,
    attributes: Vec<Named<(c_int, c_int)>>,
    outputs: Vec<Named<(c_int, c_int)>>,
    pub swizzles: &'a [MOJOSHADER_swizzle],
    pub ctab: Option<CtabView<'a>>,
    /// The `PRES` comment's preshader.
    pub preshader: Option<crate::preshader::Plan>,
    vertex: bool,
    vs3: bool,
    /// The thread's lists the plan does not hold, for [`Plan::recycle`].
    lists: Lists,
}

/// The lists a parse fills, kept per thread between parses (taken by [`plan`], given
/// back by [`Plan::recycle`] once the answer is laid out), so that a warm parse
/// allocates few of them.
#[derive(Default)]
struct Lists {
    used: RegBits,
    defined: RegBits,
    attributes: RegList<Attr>,
    samplers: RegList<Samp>,
    relative_consts: Vec<u32>,
    variables: Vec<Variable>,
    uniform_regs: Vec<Reg>,
    floats: Vec<i64>,
    uniforms: Vec<Named<(c_int, c_int, c_int, c_int)>>,
    array_uniforms: Vec<(c_int, c_int, bool)>,
    constants: Vec<MOJOSHADER_constant>,
    sampler_list: Vec<Named<(c_int, c_int, bool)>>,
    inputs: Vec<Named<(c_int, c_int)>>,
    outputs: Vec<Named<(c_int, c_int)>>,
}

thread_local! {
    static LISTS: std::cell::RefCell<Lists> = std::cell::RefCell::default();
}

/// Lists kept: none longer than this (a larger one is freed).
const KEPT_LIST: usize = 1 << 12;

fn cleared<T>(mut v: Vec<T>) -> Vec<T> {
    v.clear();
    if v.capacity() > KEPT_LIST {
        v = Vec::new();
    }
    v
}

impl Lists {
    /// The thread's lists, empty (new ones where another parse on the thread holds them).
    fn take() -> Lists {
        LISTS
            .try_with(|l| l.try_borrow_mut().map(|mut l| std::mem::take(&mut *l)).ok())
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// Gives the lists back to the thread.
    fn give(self) {
        let l = Lists {
            used: {
                let mut used = self.used;
                used.clear();
                used
            },
            defined: {
                let mut defined = self.defined;
                defined.clear();
                defined
            },
            attributes: RegList {
                items: cleared(self.attributes.items),
            },
            samplers: RegList {
                items: cleared(self.samplers.items),
            },
            relative_consts: cleared(self.relative_consts),
            variables: cleared(self.variables),
            uniform_regs: cleared(self.uniform_regs),
            floats: cleared(self.floats),
            uniforms: cleared(self.uniforms),
            array_uniforms: cleared(self.array_uniforms),
            constants: cleared(self.constants),
            sampler_list: cleared(self.sampler_list),
            inputs: cleared(self.inputs),
            outputs: cleared(self.outputs),
        };
        let _ = LISTS.try_with(|cell| {
            if let Ok(mut kept) = cell.try_borrow_mut() {
                *kept = l;
            }
        });
    }
}

/// Where MojoShader's `spirv` profile puts each uniform register in its one uniform
/// block (`emit_SPIRV_finalize`): the float registers first — the used constant-table
/// arrays (not the `def` arrays, which are private constants) in their order, then the
/// single registers in the uniform list's order —, then the integer registers, then the
/// boolean ones, each in its own array of 16-byte elements.
#[derive(Debug, Default)]
pub(crate) struct UniformSlots {
    /// `(register, slot)` of each float register.
    pub float: Vec<(u32, u32)>,
    /// `(register, slot)` of each integer register.
    pub int: Vec<(u32, u32)>,
    /// `(register, slot)` of each boolean register.
    pub bool: Vec<(u32, u32)>,
    /// Elements of the three arrays.
    pub counts: [u32; 3],
    /// Each constant-table array MojoShader places: `(first register, registers, shift)`,
    /// the shift (its slot minus its first register, wrapping) being what a relatively
    /// addressed register of it takes.
    pub arrays: Vec<(u32, u32, u32)>,
}

impl Plan<'_> {
    /// The answer laid out in one block from `alloc`; the plan's lists and output
    /// buffers go back to the thread for the next parse.
    fn answer(self, alloc: &Allocator) -> *const MOJOSHADER_parseData {
        let answer = emit(&self, alloc);
        self.recycle();
        answer
    }

    /// Gives the plan's lists and output buffers back to the thread for the next parse.
    fn recycle(self) {
        if let Output::Spirv {
            words,
            table,
            loads,
        } = self.output
        {
            crate::spirv::recycle(words, table, loads);
        }
        Lists {
            uniforms: self.uniforms,
            array_uniforms: self.array_uniforms,
            constants: self.constants,
            sampler_list: self.samplers,
            inputs: self.attributes,
            outputs: self.outputs,
            ..self.lists
        }
        .give();
    }

    /// Whether the answer lists output `(usage, index)`.
    pub(crate) fn lists_output(&self, usage: c_int, index: c_int) -> bool {
        self.outputs.iter().any(|a| a.fields == (usage, index))
    }

    /// The `(usage, index)` of the input register `v#` the answer lists, if it does.
    pub(crate) fn input_at(&self, register: u32) -> Option<(c_int, c_int)> {
        self.attributes
            .iter()
            .find(|a| a.reg == (INPUT, register))
            .map(|a| a.fields)
    }

    /// The texture kind of every sampler `s0`…, by the type the answer lists (for a
    /// ps_1_x, the sampler map's, 2D by default): what the module must declare.
    pub(crate) fn sampler_kinds(&self) -> Vec<d3dbc::target::options::TextureKind> {
        use d3dbc::target::options::TextureKind;
        let n = self
            .samplers
            .iter()
            .map(|s| s.fields.1 + 1)
            .max()
            .unwrap_or(0);
        let mut kinds = vec![TextureKind::Tex2d; n.max(0) as usize];
        for s in &self.samplers {
            kinds[s.fields.1 as usize] = match s.fields.0 {
                1 => TextureKind::Cube,
                2 => TextureKind::Volume,
                _ => TextureKind::Tex2d,
            };
        }
        kinds
    }

    /// MojoShader's uniform-block slots of this shader, into `s` (its lists reused).
    pub(crate) fn uniform_slots_into(&self, s: &mut UniformSlots) {
        s.float.clear();
        s.int.clear();
        s.bool.clear();
        s.arrays.clear();
        s.counts = [0; 3];
        for &(index, count, constant) in &self.array_uniforms {
            if constant {
                continue;
            }
            for k in 0..count.max(0) as u32 {
                s.float.push((index as u32 + k, s.counts[0] + k));
            }
            s.arrays.push((
                index as u32,
                count.max(0) as u32,
                s.counts[0].wrapping_sub(index as u32),
            ));
            s.counts[0] += count.max(0) as u32;
        }
        for u in &self.uniforms {
            let file = match u.reg.0 {
                CONST => 0,
                CONSTINT => 1,
                _ => 2,
            };
            let slot = s.counts[file];
            match file {
                0 => s.float.push((u.reg.1, slot)),
                1 => s.int.push((u.reg.1, slot)),
                _ => s.bool.push((u.reg.1, slot)),
            }
            s.counts[file] += 1;
        }
        // `emit_SPIRV_sampler`: a texbem sampler's two float registers (matrix,
        // luminance) follow.
        s.counts[0] += 2 * self.samplers.iter().filter(|x| x.fields.2).count() as u32;
    }
}

/// A parse answer's output.
pub(crate) enum Output {
    /// Text or bytecode.
    Bytes(Vec<u8>),
    /// A SPIR-V module and MojoShader's patch table after it.
    Spirv {
        /// The module.
        words: Vec<u32>,
        /// What the table changes in MojoShader's Vulkan-mode table.
        table: crate::spirv::TablePatches,
        /// The loads of each vertex input, for the table's `attrib_type_load_offsets`
        /// (arrays the table points to, laid out in the answer's block).
        loads: crate::spirv::Loads,
    },
}

/// A parse error: message and byte position (or a `MOJOSHADER_POSITION_*`).
pub(crate) struct Failure {
    pub message: String,
    pub position: c_int,
}

fn fail(message: impl Into<String>, position: c_int) -> Failure {
    Failure {
        message: message.into(),
        position,
    }
}

/// MojoShader's variable name of register `r` under `profile`, written into `out`
/// (cleared first).
fn varname(p: &Plan, r: Reg, out: &mut String) {
    out.clear();
    let (t, n) = r;
    if matches!(p.profile, Profile::Glsl | Profile::Glsl120) {
        out.push_str(if p.vertex { "vs_" } else { "ps_" });
    }
    let (name, numbered) = match t {
        0 => ("r", true),
        1 => ("v", true),
        2 => ("c", true),
        3 => (if p.vertex { "a" } else { "t" }, true),
        4 => (
            ["oPos", "oFog", "oPts"]
                .get(n as usize)
                .copied()
                .unwrap_or("o"),
            false,
        ),
        5 => ("oD", true),
        6 => (if p.vs3 { "o" } else { "oT" }, true),
        7 => ("i", true),
        8 => ("oC", true),
        9 => ("oDepth", false),
        10 => ("s", true),
        14 => ("b", true),
        15 => ("aL", false),
        17 => (
            ["vPos", "vFace"].get(n as usize).copied().unwrap_or("v"),
            false,
        ),
        18 => ("l", true),
        19 => ("p", true),
        _ => ("?", true),
    };
    out.push_str(name);
    if numbered {
        // Decimal digits, as `{n}` writes them (without the formatter: one a name).
        let mut digits = [0u8; 10];
        let mut at = digits.len();
        let mut n = n;
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        out.extend(digits[at..].iter().map(|&d| char::from(d)));
    }
}

fn const_array_name(p: &Plan, index: c_int, count: c_int) -> String {
    match p.profile {
        Profile::Glsl | Profile::Glsl120 => format!(
            "{}_const_array_{index}_{count}",
            if p.vertex { "vs" } else { "ps" }
        ),
        _ => format!("c_array_{index}_{count}"),
    }
}

/// The usage and index of a vs_1_x input read without `dcl`
/// (MojoShader's `shader_model_1_input_usage`).
fn sm1_input_usage(regnum: u32) -> (c_int, c_int) {
    match regnum {
        0 => (USAGE_POSITION, 0),
        1 => (1, 0),
        2 => (2, 0),
        3 => (3, 0),
        4 => (USAGE_POINTSIZE, 0),
        5 => (USAGE_COLOR, 0),
        6 => (USAGE_COLOR, 1),
        7..=14 => (USAGE_TEXCOORD, regnum as c_int - 7),
        15 => (USAGE_POSITION, 1),
        16 => (3, 1),
        _ => (USAGE_UNKNOWN, 0),
    }
}

/// Instruction slots as MojoShader counts them (its own table, one for every version,
/// and the extra slots its state functions add): what `instruction_count` reports,
/// which differs from Microsoft's counts (`d3dbc::Opcode::slots`).
const MOJOSHADER_SLOTS: [u8; 97] = [
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 1, 2, 1, 4, 3, 4, 3, 2, 2, 3, 3, 1, 2, 0, 0,
    3, 2, 3, 1, 3, 8, 3, 2, 3, 3, 1, 1, 1, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 2, 1, 1, 2, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 1, 2,
    3,
];

fn mojoshader_slots(ins: &d3dbc::Instruction, v: d3dbc::Version) -> u32 {
    let code = ins.opcode as usize;
    let mut n = u32::from(MOJOSHADER_SLOTS.get(code).copied().unwrap_or(0));
    let below_1_4 = v.major < 1 || (v.major == 1 && v.minor < 4);
    let sampler_3 = ins.src().get(1).is_some_and(|s| s.reg.num == 3);
    match ins.opcode {
        Opcode::Cmp | Opcode::Dp4 if below_1_4 => n += 1,
        // MojoShader compares the sampler's register number with the cube texture type.
        Opcode::Tex if v.major >= 2 && sampler_3 => n += 3,
        Opcode::TexLdl if sampler_3 => n += 3,
        _ => {}
    }
    n
}

/// Reads the shader's interface as MojoShader does.
pub(crate) fn plan<'a>(
    profile: Profile,
    shader: &'a Shader,
    mainfn: Option<&'a [u8]>,
    swizzles: &'a [MOJOSHADER_swizzle],
    smap: &[MOJOSHADER_samplerMap],
) -> Result<Plan<'a>, Failure> {
    let v = shader.version;
    let vertex = v.kind == ShaderKind::Vertex;
    // The first constant table, read in place (`Shader::ctab`'s, not copied out).
    let ctab = shader
        .comments()
        .find(|c| Ctab::is_ctab(c))
        .and_then(|c| CtabView::parse(c).ok());

    let Lists {
        mut used,
        mut defined,
        mut attributes,
        mut samplers,
        // def/defi/defb, MojoShader's list (newest first).
        mut constants,
        mut relative_consts,
        mut variables,
        uniform_regs: mut uniforms,
        mut floats,
        uniforms: mut uniform_list,
        mut array_uniforms,
        mut sampler_list,
        inputs: mut input_list,
        outputs: mut output_list,
    } = Lists::take();
    let mut instruction_count: u32 = 0;

    let add_sampler = |samplers: &mut RegList<Samp>, n: u32, ttype: c_int, texbem: bool| {
        let ttype = smap
            .iter()
            .find(|m| m.index == n as c_int)
            .map(|m| m.r#type)
            .unwrap_or(ttype);
        let s = samplers.insert((SAMPLER, n));
        s.ttype = ttype;
        s.texbem |= texbem;
    };

    for ins in shader.instructions() {
        let op = ins.opcode;
        match op {
            Opcode::Dcl => {
                let r = key(ins.dst.reg.kind, ins.dst.reg.num);
                if r.0 == SAMPLER {
                    add_sampler(
                        &mut samplers,
                        r.1,
                        ins.decl.sampler_type_raw() as c_int - 2,
                        false,
                    );
                } else {
                    let a = attributes.insert(r);
                    if r.0 == MISCTYPE {
                        // vPos, vFace: no usage.
                        a.usage = USAGE_UNKNOWN;
                        a.index = 0;
                    } else if !vertex && v.major < 3 && (r.0 == INPUT || r.0 == TEXTURE) {
                        // ps_2_x: v# are colours, t# texture coordinates.
                        a.usage = if r.0 == INPUT {
                            USAGE_COLOR
                        } else {
                            USAGE_TEXCOORD
                        };
                        a.index = r.1 as c_int;
                    } else {
                        a.usage = ins.decl.usage_raw() as c_int;
                        a.index = ins.decl.usage_index() as c_int;
                    }
                }
                used.insert(r);
                defined.insert(r);
                continue;
            }
            Opcode::Def | Opcode::DefI | Opcode::DefB => {
                let r = key(ins.dst.reg.kind, ins.dst.reg.num);
                let mut value = MOJOSHADER_constantValue { i: [0; 4] };
                let ty = match op {
                    Opcode::Def => {
                        value.f = ins.imm_f32();
                        UNIFORM_FLOAT
                    }
                    Opcode::DefI => {
                        value.i = ins.imm.map(|w| w as i32);
                        UNIFORM_INT
                    }
                    _ => {
                        value.i = [ins.imm[0] as i32, 0, 0, 0];
                        UNIFORM_BOOL
                    }
                };
                constants.push(MOJOSHADER_constant {
                    r#type: ty,
                    index: r.1 as c_int,
                    value,
                });
                used.insert(r);
                defined.insert(r);
                continue;
            }
            Opcode::Comment | Opcode::End | Opcode::Phase => continue,
            _ => {}
        }
        instruction_count += mojoshader_slots(ins, v);
        if let Some(d) = ins.dst_in(v) {
            used.insert(key(d.reg.kind, d.reg.num));
        }
        let rows = match op {
            Opcode::M4x4 | Opcode::M3x4 => 4,
            Opcode::M4x3 | Opcode::M3x3 => 3,
            Opcode::M3x2 => 2,
            _ => 1,
        };
        for (i, s) in ins.src().iter().enumerate() {
            let r = key(s.reg.kind, s.reg.num);
            used.insert(r);
            if i == 1 && rows > 1 {
                for k in 1..rows {
                    used.insert((r.0, r.1 + k));
                }
            }
            if let Some(rel) = s.rel {
                used.insert(key(rel.reg.kind, rel.reg.num));
                if r.0 == CONST {
                    relative_consts.push(r.1);
                }
            }
        }
        if let Some(p) = ins.predicate {
            used.insert(key(p.reg.kind, p.reg.num));
        }
        // ps_1_x texture opcodes: their samplers and texture coordinates.
        if !vertex && v.major == 1 {
            let dst = ins.dst.reg.num as u32;
            let texcoord = |attributes: &mut RegList<Attr>, n: u32| {
                let a = attributes.insert((TEXTURE, n));
                a.usage = USAGE_TEXCOORD;
                a.index = n as c_int;
            };
            let src = ins.src().first().map(|s| s.reg.num as u32);
            let texop = |dims: u8,
                         texbem: bool,
                         attributes: &mut RegList<Attr>,
                         samplers: &mut RegList<Samp>| {
                if dims != 0 {
                    add_sampler(samplers, dst, if dims == 2 { 0 } else { 1 }, texbem);
                }
                texcoord(attributes, dst);
                if let Some(s) = src {
                    texcoord(attributes, s);
                }
            };
            match op {
                Opcode::Tex if v.minor < 4 => add_sampler(&mut samplers, dst, 0, false),
                // ps_1_4 `texld r#` samples `s#`. MojoShader lists no sampler for it
                // (its `state_TEXLD` leaves ps_1_4 as a FIXME) and its `glsl` and
                // `spirv` profiles refuse the shader ("TEXLD == Shader Model 1.4
                // unimplemented"): there the face answers with the sampler its module
                // reads, so the glue binds one; `d3d` and `bytecode` answer as
                // MojoShader does.
                Opcode::Tex if !matches!(profile, Profile::D3d | Profile::Bytecode) => {
                    add_sampler(&mut samplers, dst, 0, false)
                }
                Opcode::TexBem | Opcode::TexBemL => texop(2, true, &mut attributes, &mut samplers),
                Opcode::TexReg2Ar | Opcode::TexReg2Gb | Opcode::TexReg2Rgb => {
                    texop(2, false, &mut attributes, &mut samplers)
                }
                Opcode::TexM3x2Pad | Opcode::TexM3x3Pad => {
                    texop(0, false, &mut attributes, &mut samplers)
                }
                Opcode::TexM3x2Tex | Opcode::TexDp3Tex => {
                    texop(2, false, &mut attributes, &mut samplers)
                }
                Opcode::TexM3x3Tex | Opcode::TexM3x3Spec | Opcode::TexM3x3VSpec => {
                    texop(3, false, &mut attributes, &mut samplers)
                }
                Opcode::TexM3x3 | Opcode::TexDp3 | Opcode::TexM3x2Depth => {
                    texop(0, false, &mut attributes, &mut samplers)
                }
                _ => {}
            }
        }
    }

    // MojoShader's GLSL profile moves a ps_1_x's r0 to oC0, which it then lists.
    if matches!(profile, Profile::Glsl | Profile::Glsl120) && !vertex && v.major < 2 {
        used.insert((RegisterType::ColorOut as u8, 0));
    }

    used.sort();
    defined.sort();

    // Constants sorted by register (MojoShader's bubble sort of its newest-first list).
    constants.reverse();
    if constants.len() > 1 {
        constants.sort_by_key(|c| c.index);
    }

    // Variables: the constant table's entries (newest first), then runs of defs.
    if let Some(t) = &ctab {
        for c in t.constants() {
            if c.register_set.to_u16() <= 2 {
                variables.insert(
                    0,
                    Variable {
                        index: c.register_index.into(),
                        count: c.register_count.into(),
                        constant: false,
                        used: false,
                    },
                );
            }
        }
    }
    if constants.len() > 1 {
        floats.extend(
            constants
                .iter()
                .filter(|c| c.r#type == UNIFORM_FLOAT)
                .map(|c| i64::from(c.index)),
        );
        let mut start = 0;
        for i in 1..=floats.len() {
            if i < floats.len() && floats[i] == floats[i - 1] + 1 {
                continue;
            }
            if i - 1 > start {
                variables.insert(
                    0,
                    Variable {
                        index: floats[start],
                        count: floats[i - 1] - floats[start] + 1,
                        constant: true,
                        used: false,
                    },
                );
            }
            start = i;
        }
    }
    // A relatively addressed register marks its array used. MojoShader's `d3d` and
    // `bytecode` profiles ignore the constant table and make no arrays.
    let ignores_ctab = matches!(profile, Profile::D3d | Profile::Bytecode);
    let mut placed = true;
    for &target in relative_consts.iter().filter(|_| !ignores_ctab) {
        match variables
            .iter_mut()
            .find(|var| (var.index..var.index + var.count).contains(&i64::from(target)))
        {
            Some(var) if ctab.is_some() => var.used = true,
            _ => placed = false,
        }
    }
    // MojoShader refuses relative addressing it cannot place in an array ("relative
    // addressing unsupported without a CTAB", "relative addressing of indeterminate
    // array"); Windows runs those shaders, and a relative read there reaches any float
    // register. The face answers with one array uniform over the whole float file the
    // shader runs with (`c0` up, as d3dbc's module sizes it), which the glue uploads
    // from the register file as it is, so every read sees the register Windows' would
    // (`def`s stay in the shader).
    if !placed {
        let highest = used
            .iter()
            .chain(defined.iter())
            .filter(|r| r.0 == CONST)
            .map(|r| r.1)
            .max();
        let n = d3dbc::regs::float_constant_file(v, highest)
            .min(d3dbc::target::interface::MAX_FLOAT_CONSTANTS);
        variables.clear();
        variables.push(Variable {
            index: 0,
            count: n.into(),
            constant: false,
            used: true,
        });
    }

    // process_definitions.
    for r in used.iter() {
        if defined.contains(r) {
            continue;
        }
        let (t, n) = r;
        if is_output(t) {
            if vertex && v.major >= 3 {
                return Err(fail(
                    "vs_3 can't use output registers without declaring them first.",
                    POSITION_BEFORE,
                ));
            }
            let usage = match t {
                4 => [USAGE_POSITION, USAGE_FOG, USAGE_POINTSIZE]
                    .get(n as usize)
                    .copied()
                    .unwrap_or(USAGE_UNKNOWN),
                5 | 8 => USAGE_COLOR,
                6 => USAGE_TEXCOORD,
                _ => USAGE_DEPTH,
            };
            let a = attributes.insert(r);
            a.usage = usage;
            a.index = n as c_int;
        } else if t == CONST || t == CONSTINT || t == CONSTBOOL {
            uniforms.push(r);
        } else if t == INPUT && v.major < 2 {
            let (usage, index) = if vertex {
                sm1_input_usage(n)
            } else {
                (USAGE_COLOR, n as c_int)
            };
            if usage != USAGE_UNKNOWN {
                let a = attributes.insert(r);
                a.usage = usage;
                a.index = index;
            }
        }
    }
    array_uniforms.extend(
        variables
            .iter()
            .filter(|var| var.used)
            .map(|var| (var.index as c_int, var.count as c_int, var.constant)),
    );
    let in_array = |r: Reg| {
        r.0 == CONST
            && variables
                .iter()
                .any(|var| var.used && (var.index..var.index + var.count).contains(&i64::from(r.1)))
    };
    uniform_list.extend(uniforms.iter().filter(|&&r| !in_array(r)).map(|&r| {
        let ty = match r.0 {
            CONST => UNIFORM_FLOAT,
            CONSTINT => UNIFORM_INT,
            _ => UNIFORM_BOOL,
        };
        Named {
            fields: (ty, r.1 as c_int, 0, 0),
            reg: r,
        }
    }));
    sampler_list.extend(samplers.items.iter().map(|&(r, s)| Named {
        fields: (s.ttype, r.1 as c_int, s.texbem),
        reg: r,
    }));
    for &(r, a) in &attributes.items {
        let list = if is_output(r.0) {
            &mut output_list
        } else {
            &mut input_list
        };
        list.push(Named {
            fields: (a.usage, a.index),
            reg: r,
        });
    }
    Ok(Plan {
        profile,
        output: Output::Bytes(Vec::new()),
        instruction_count: instruction_count as c_int,
        shader_type: if vertex { TYPE_VERTEX } else { TYPE_PIXEL },
        major: v.major as c_int,
        minor: v.minor as c_int,
        mainfn,
        uniforms: uniform_list,
        array_uniforms,
        constants,
        samplers: sampler_list,
        attributes: input_list,
        outputs: output_list,
        swizzles,
        ctab,
        preshader: None,
        vertex,
        vs3: vertex && v.major >= 3,
        lists: Lists {
            used,
            defined,
            attributes,
            samplers,
            relative_consts,
            variables,
            uniform_regs: uniforms,
            floats,
            ..Lists::default()
        },
    })
}

/// The whole of `MOJOSHADER_parse` after its pointers are checked.
pub(crate) fn parse(
    profile: &[u8],
    mainfn: Option<&[u8]>,
    bytes: &[u8],
    swizzles: &[MOJOSHADER_swizzle],
    smap: &[MOJOSHADER_samplerMap],
    alloc: &Allocator,
) -> *const MOJOSHADER_parseData {
    let result = (|| {
        let Some(profile) = Profile::from_name(profile) else {
            return Err(fail(
                format!(
                    "Profile '{}' is unknown or unsupported",
                    String::from_utf8_lossy(profile)
                ),
                POSITION_BEFORE,
            ));
        };
        if mainfn.is_some_and(|m| m.len() > 55) {
            return Err(fail(
                format!(
                    "Main function name '{}' is too big",
                    String::from_utf8_lossy(mainfn.unwrap_or_default())
                ),
                POSITION_BEFORE,
            ));
        }
        if swizzles.iter().any(|s| s.swizzles.iter().any(|&c| c > 3)) {
            return Err(fail("invalid swizzle", POSITION_BEFORE));
        }
        let usable = bytes.len() & !3;
        let tokens: std::borrow::Cow<[u32]> = match bytemuck::try_cast_slice(&bytes[..usable]) {
            Ok(t) if cfg!(target_endian = "little") => std::borrow::Cow::Borrowed(t),
            _ => bytes[..usable]
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        };
        let (shader, len) = match Shader::decode_prefix(&tokens) {
            Ok(r) => r,
            // MojoShader (and D3D9's runtime, given the size) takes a stream that ends
            // without its end token.
            Err(e) if e.at_end() && !tokens.is_empty() => {
                let mut ended = tokens.to_vec();
                ended.push(0x0000_FFFF);
                let (shader, _) = Shader::decode_prefix(&ended)
                    .map_err(|e| fail(e.to_string(), (e.offset * 4) as c_int))?;
                (shader, tokens.len())
            }
            Err(e) => return Err(fail(e.to_string(), (e.offset * 4) as c_int)),
        };
        let mut plan = plan(profile, &shader, mainfn, swizzles, smap)?;
        if let Some(pres) = d3dbc::fx::preshader::find_pres(&tokens) {
            plan.preshader = Some(crate::preshader::plan(pres)?);
        }
        plan.output = Output::Bytes(match profile {
            Profile::Bytecode => bytes[..len * 4].to_vec(),
            Profile::D3d => {
                let mut s = String::new();
                d3dbc::print::print(&shader, &Default::default(), &mut s);
                s.into_bytes()
            }
            Profile::Glsl | Profile::Glsl120 => d3dbc_naga::translate(&shader, &Default::default())
                .and_then(|t| t.glsl())
                .map_err(|e| fail(e.to_string(), POSITION_BEFORE))?
                .into_bytes(),
            Profile::Spirv => {
                plan.output = spirv::output(&shader, &plan)?;
                return Ok(plan.answer(alloc));
            }
        });
        Ok(plan.answer(alloc))
    })();
    result.unwrap_or_else(|f| emit_error(&f, alloc))
}

/// Frees what [`parse`] returned.
///
/// # Safety
/// `data` is NULL or an answer of `MOJOSHADER_parse` not yet freed.
pub(crate) unsafe fn free_parse_data(data: *const MOJOSHADER_parseData) {
    if data.is_null() || std::ptr::eq(data, out_of_memory()) {
        return;
    }
    // SAFETY: the caller passes an answer of ours.
    let d = unsafe { &*data };
    Allocator {
        m: d.malloc,
        f: d.free,
        d: d.malloc_data,
    }
    .release(data as *mut _);
}

/// A C string's bytes (`None` for NULL).
///
/// # Safety
/// `p` is NULL or a NUL-terminated string.
pub(crate) unsafe fn c_bytes<'a>(p: *const c_char) -> Option<&'a [u8]> {
    // SAFETY: per the contract.
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_bytes())
}
