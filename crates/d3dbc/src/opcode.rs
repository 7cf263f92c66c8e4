//! The opcode table: the one place that knows every `D3DSHADER_INSTRUCTION_OPCODE_TYPE`
//! value — its numeric code, mnemonic, operand layout per shader version, the versions
//! where it is legal, and its instruction-slot cost.
//!
//! The decoder, encoder, printer, assembler and validator all read this table; no other
//! module keeps its own list of opcodes.

use crate::version::{ShaderKind, Version};

/// What tokens follow an instruction token, in order.
///
/// The layout is derived from an opcode's [`Shape`] and the shader version (some opcodes,
/// like `tex`/`texld` and `sincos`, take different operands in different versions; SM1.x
/// streams have no length field, so the decoder must know this exactly).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Layout {
    /// A `DCL` declaration token precedes the destination.
    pub decl: bool,
    /// A destination parameter token.
    pub dst: bool,
    /// Number of source parameter tokens (each may be followed by a relative-address token).
    pub srcs: u8,
    /// Number of raw immediate DWORDs after the destination (`def`: 4, `defi`: 4, `defb`: 1).
    pub imms: u8,
}

impl Layout {
    const fn new(dst: bool, srcs: u8) -> Self {
        Layout {
            decl: false,
            dst,
            srcs,
            imms: 0,
        }
    }
}

/// The operand shape of an opcode; [`Shape::layout`] resolves it for a version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// No operands.
    None,
    /// Destination and `n` sources.
    Dst(u8),
    /// Sources only (flow control).
    Src(u8),
    /// `dcl`: declaration token + destination.
    Dcl,
    /// `def`, `defi`, `defb`: destination + `n` immediates.
    Def(u8),
    /// `tex`/`texld`: ps_1_1–1_3 dst only; ps_1_4 dst + src; 2.0+ dst + src + sampler.
    Tex,
    /// `texcoord`/`texcrd`: ps_1_1–1_3 dst only; ps_1_4 dst + src.
    TexCoord,
    /// `sincos`: before 3.0 dst + 3 sources; 3.0 dst + 1 source.
    SinCos,
}

impl Shape {
    /// The exact token layout of this shape in `version`.
    pub const fn layout(self, version: Version) -> Layout {
        let v = version.code();
        match self {
            Shape::None => Layout::new(false, 0),
            Shape::Dst(n) => Layout::new(true, n),
            Shape::Src(n) => Layout::new(false, n),
            Shape::Dcl => Layout {
                decl: true,
                dst: true,
                srcs: 0,
                imms: 0,
            },
            Shape::Def(n) => Layout {
                decl: false,
                dst: true,
                srcs: 0,
                imms: n,
            },
            Shape::Tex => {
                if v < 0x0104 {
                    Layout::new(true, 0)
                } else if v == 0x0104 {
                    Layout::new(true, 1)
                } else {
                    Layout::new(true, 2)
                }
            }
            Shape::TexCoord => {
                if v < 0x0104 {
                    Layout::new(true, 0)
                } else {
                    Layout::new(true, 1)
                }
            }
            Shape::SinCos => {
                if v >= 0x0300 {
                    Layout::new(true, 1)
                } else {
                    Layout::new(true, 3)
                }
            }
        }
    }
}

/// An inclusive range of versions, as `major << 8 | minor` codes (`2_x` is `0x0201`,
/// `3_sw` is `0x03ff`). `None` means the opcode does not exist for that shader kind.
pub type VersionRange = Option<(u16, u16)>;

/// How the instruction counts in the listing footer and slot limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum SlotClass {
    /// Declarations, `def*`, `label`, `phase`, comments, `end`: no slot.
    None,
    /// An arithmetic (or flow-control) instruction.
    Arithmetic,
    /// A texture-addressing instruction (pixel shaders count these separately).
    Texture,
}

/// How a listing footer counts an opcode's slots (see [`Opcode::footer_slots`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum FooterClass {
    /// Not counted.
    None,
    /// Every slot arithmetic.
    Arithmetic,
    /// Every slot texture.
    Texture,
    /// The first slot texture, the others arithmetic.
    TextureThenArithmetic,
}

impl From<SlotClass> for FooterClass {
    fn from(c: SlotClass) -> FooterClass {
        match c {
            SlotClass::None => FooterClass::None,
            SlotClass::Arithmetic => FooterClass::Arithmetic,
            SlotClass::Texture => FooterClass::Texture,
        }
    }
}

/// Which Microsoft tool generation's slot counting a listing footer follows.
///
/// The footer (`// approximately N instruction slots used`) is computed by the tool that
/// prints the listing, and two generations count a few instructions differently.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum SlotModel {
    /// fxc / "HLSL Shader Compiler" 9.29–10.1 (and the June 2010 D3DX disassembler):
    /// the documented figures, with `lrp` one slot in 2.0+ models, `texkill`
    /// arithmetic and `texldd` one texture slot plus two arithmetic in 2.0+ models.
    #[default]
    Hlsl,
    /// "D3DX9 Shader Compiler" 9.08 and earlier (vsa/psa era): `lrp` always 2 slots,
    /// `dp2add` and comparison `if` 1 slot, 3.0 `sincos` 2, `texkill` texture.
    D3dx9Legacy,
}

impl SlotModel {
    /// The model of the tool named by a creator string (the CTAB creator, or the
    /// `// Generated by …` line of a listing).
    pub fn from_creator(creator: &str) -> SlotModel {
        if find_short(creator, "D3DX9 Shader Compiler").is_some() {
            SlotModel::D3dx9Legacy
        } else {
            SlotModel::Hlsl
        }
    }
}

/// Where `needle` first occurs in `hay`: a first-byte scan (`memchr`) then a compare,
/// cheaper than `str::find`'s searcher (whose set-up costs more than the scan) on the
/// short creator strings every listing header classifies.
pub(crate) fn find_short(hay: &str, needle: &str) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    let (&first, rest) = n.split_first()?;
    let last = h.len().checked_sub(n.len())?;
    let mut i = 0;
    while i <= last {
        i += memchr::memchr(first, &h[i..=last])?;
        if &h[i + 1..i + n.len()] == rest {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// An opcode's role in block structure (printer indentation, validator nesting).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Block {
    /// Not a block instruction.
    None,
    /// Opens a block: `if`, `if_comp`, `loop`, `rep`.
    Open,
    /// Closes the open block and opens its second half: `else`.
    Else,
    /// Closes a block: `endif`, `endloop`, `endrep`.
    Close,
}

/// What an opcode is to a consumer that executes or translates a shader
/// ([`Opcode::role`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Role {
    /// `dcl`, `def`, `defi`, `defb`: state set up before the first instruction runs.
    Declaration,
    /// `nop`, `comment`, `end`, `reserved0`: no effect on anything a shader computes.
    Marker,
    /// `phase`: the ps_1_4 boundary between the texture and the arithmetic phase. No
    /// slot and no operands, but temporaries' alpha does not survive it (see
    /// `semantics.md` §2), so an executor keeps it in the instruction stream.
    Phase,
    /// Flow control: blocks, breaks, calls, `ret`, `label` (which one, so a consumer's
    /// flow-control match lists them all).
    Flow(Flow),
    /// Everything else: computes a value, samples, kills a pixel or sets a register.
    Compute,
}

/// A flow-control opcode ([`Role::Flow`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Flow {
    /// `if b#` / `if p0`.
    If,
    /// `if_comp`.
    IfC,
    /// `else`.
    Else,
    /// `endif`.
    EndIf,
    /// `loop aL, i#`.
    Loop,
    /// `endloop`.
    EndLoop,
    /// `rep i#`.
    Rep,
    /// `endrep`.
    EndRep,
    /// `break`.
    Break,
    /// `break_comp`.
    BreakC,
    /// `breakp`.
    BreakP,
    /// `call`.
    Call,
    /// `callnz`.
    CallNz,
    /// `ret`.
    Ret,
    /// `label`.
    Label,
}

/// A matrix-multiply macro (`m4x4`, `m4x3`, `m3x4`, `m3x3`, `m3x2`): it expands to
/// `rows` dot products of `columns` components, one per destination component, against
/// the consecutive registers `src1`, `src1 + 1`, ….
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MatrixShape {
    /// Dot products, i.e. destination components written and matrix registers read.
    pub rows: u8,
    /// Components of each dot product (`dp4` or `dp3`).
    pub columns: u8,
}

/// Which components of a source operand an instruction reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum Reads {
    /// Component `i` of the source for component `i` of the destination (`add`, `mov`…):
    /// the destination write mask decides.
    PerComponent,
    /// These components (bit 0 = x), whatever the write mask (`dp3`: xyz).
    Components(u8),
    /// One component, selected by a replicate swizzle (`rcp`, `pow`, `sincos` angle).
    Scalar,
    /// Not a value: a sampler, label, loop or boolean/integer constant operand.
    NotValue,
}

/// Everything the project knows about one opcode.
#[derive(Clone, Copy, Debug)]
pub struct OpcodeInfo {
    /// The opcode this row describes.
    pub opcode: Opcode,
    /// `D3DSIO_*` value (bits 0–15 of the instruction token).
    pub code: u16,
    /// `D3DSIO_*` constant name.
    pub sio_name: &'static str,
    /// Assembly mnemonic (for the newest version where names differ, see [`Opcode::mnemonic`]).
    pub name: &'static str,
    /// Operand shape.
    pub shape: Shape,
    /// Versions where the opcode is legal in vertex shaders.
    pub vs: VersionRange,
    /// Versions where the opcode is legal in pixel shaders.
    pub ps: VersionRange,
    /// Instruction slots per shader-model family and counting tool (see [`Slots`]).
    pub slots: Slots,
    /// Texture or arithmetic: the documented class (the ps_1_x/ps_2_0 split limits, and
    /// the footers of D3DX9 9.08 and of every 1.x listing).
    pub class: SlotClass,
    /// How fxc 9.29–10.1 ([`SlotModel::Hlsl`]) footers count the opcode's slots in 2.0
    /// and later models (`texkill` arithmetic, `texldd` one texture slot and two
    /// arithmetic ones): see [`Opcode::footer_slots`].
    pub footer_hlsl: FooterClass,
}

/// Instruction slots one opcode takes: the documented "instruction slots" column of
/// each version's instruction table, and where Microsoft's listing footers count
/// otherwise, what they count (the footer's `approximately N instruction slots used`).
/// The footers pin these figures: 77 fxc 9.29 listings (vs_2_0/ps_2_0), 1,148 HelixMod
/// vs_3_0/ps_3_0 listings of the June 2010 D3DX disassembler (the same counting as fxc
/// 9.29), 690 Oblivion listings of D3DX9 9.08 (vs_1_1, vs_2_0, vs_3_0, ps_1_3, ps_2_x,
/// ps_3_0); `tests/print_corpus.rs` checks them all, and hand-made cases pin the
/// opcodes no listing exercises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slots {
    /// vs_1_x: `frc` is a 3-slot macro, `exp`/`log` 10-slot macros there.
    pub vs1: u8,
    /// ps_1_x: every instruction one slot (`lrp`, `cnd`…), except `bem` (2).
    pub ps1: u8,
    /// 2.0 and later, as fxc 9.29–10.1 count: the documented figure, except `lrp`
    /// (documented 2, counted 1 in every listing).
    pub sm2: u8,
    /// 2.0/2.x as D3DX9 9.08 counts: `lrp` 2, `dp2add` and comparison `if` 1.
    pub d3dx_sm2: u8,
    /// 3.0 as D3DX9 9.08 counts: as `d3dx_sm2`, and the one-source `sincos` 2.
    pub d3dx_sm3: u8,
}

const ALL: VersionRange = Some((0x0100, 0x03ff));
const fn from(v: u16) -> VersionRange {
    Some((v, 0x03ff))
}
const fn range(a: u16, b: u16) -> VersionRange {
    Some((a, b))
}
const NO: VersionRange = None;
const A: SlotClass = SlotClass::Arithmetic;
const T: SlotClass = SlotClass::Texture;
const Z: SlotClass = SlotClass::None;
const FA: FooterClass = FooterClass::Arithmetic;
const FT: FooterClass = FooterClass::Texture;
const FZ: FooterClass = FooterClass::None;
const FTA: FooterClass = FooterClass::TextureThenArithmetic;

macro_rules! opcodes {
    ($( $variant:ident = $code:literal, $sio:literal, $name:literal, $shape:expr,
        vs: $vs:expr, ps: $ps:expr, slots: ($vs1:literal, $ps1:literal, $sm2:literal,
        $d2:literal, $d3:literal), class: ($class:expr, $footer:expr); )*) => {
        /// A `D3DSHADER_INSTRUCTION_OPCODE_TYPE` value.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize))]
        #[repr(u16)]
        pub enum Opcode { $( #[doc = $sio] $variant = $code, )* }

        /// The table, in `D3DSIO_*` order.
        pub static OPCODES: &[OpcodeInfo] = &[ $( OpcodeInfo {
            opcode: Opcode::$variant, code: $code, sio_name: $sio, name: $name, shape: $shape,
            vs: $vs, ps: $ps, class: $class, footer_hlsl: $footer,
            slots: Slots { vs1: $vs1, ps1: $ps1, sm2: $sm2, d3dx_sm2: $d2, d3dx_sm3: $d3 },
        }, )* ];

        /// The `D3DSIO_*` codes of [`OPCODES`], in the same order (for the const index).
        const OPCODE_CODES: &[u16] = &[ $( $code, )* ];
    };
}

opcodes! {
    Nop = 0, "D3DSIO_NOP", "nop", Shape::None, vs: ALL, ps: ALL, slots: (1, 1, 1, 1, 1), class: (A, FA);
    Mov = 1, "D3DSIO_MOV", "mov", Shape::Dst(1), vs: ALL, ps: ALL, slots: (1, 1, 1, 1, 1), class: (A, FA);
    Add = 2, "D3DSIO_ADD", "add", Shape::Dst(2), vs: ALL, ps: ALL, slots: (1, 1, 1, 1, 1), class: (A, FA);
    Sub = 3, "D3DSIO_SUB", "sub", Shape::Dst(2), vs: ALL, ps: ALL, slots: (1, 1, 1, 1, 1), class: (A, FA);
    Mad = 4, "D3DSIO_MAD", "mad", Shape::Dst(3), vs: ALL, ps: ALL, slots: (1, 1, 1, 1, 1), class: (A, FA);
    Mul = 5, "D3DSIO_MUL", "mul", Shape::Dst(2), vs: ALL, ps: ALL, slots: (1, 1, 1, 1, 1), class: (A, FA);
    Rcp = 6, "D3DSIO_RCP", "rcp", Shape::Dst(1), vs: ALL, ps: from(0x0200), slots: (1, 1, 1, 1, 1), class: (A, FA);
    Rsq = 7, "D3DSIO_RSQ", "rsq", Shape::Dst(1), vs: ALL, ps: from(0x0200), slots: (1, 1, 1, 1, 1), class: (A, FA);
    Dp3 = 8, "D3DSIO_DP3", "dp3", Shape::Dst(2), vs: ALL, ps: ALL, slots: (1, 1, 1, 1, 1), class: (A, FA);
    Dp4 = 9, "D3DSIO_DP4", "dp4", Shape::Dst(2), vs: ALL, ps: from(0x0102), slots: (1, 1, 1, 1, 1), class: (A, FA);
    Min = 10, "D3DSIO_MIN", "min", Shape::Dst(2), vs: ALL, ps: from(0x0200), slots: (1, 1, 1, 1, 1), class: (A, FA);
    Max = 11, "D3DSIO_MAX", "max", Shape::Dst(2), vs: ALL, ps: from(0x0200), slots: (1, 1, 1, 1, 1), class: (A, FA);
    Slt = 12, "D3DSIO_SLT", "slt", Shape::Dst(2), vs: ALL, ps: NO, slots: (1, 1, 1, 1, 1), class: (A, FA);
    Sge = 13, "D3DSIO_SGE", "sge", Shape::Dst(2), vs: ALL, ps: NO, slots: (1, 1, 1, 1, 1), class: (A, FA);
    Exp = 14, "D3DSIO_EXP", "exp", Shape::Dst(1), vs: ALL, ps: from(0x0200), slots: (10, 1, 1, 1, 1), class: (A, FA);
    Log = 15, "D3DSIO_LOG", "log", Shape::Dst(1), vs: ALL, ps: from(0x0200), slots: (10, 1, 1, 1, 1), class: (A, FA);
    Lit = 16, "D3DSIO_LIT", "lit", Shape::Dst(1), vs: ALL, ps: NO, slots: (3, 1, 3, 3, 3), class: (A, FA);
    Dst = 17, "D3DSIO_DST", "dst", Shape::Dst(2), vs: ALL, ps: NO, slots: (1, 1, 1, 1, 1), class: (A, FA);
    Lrp = 18, "D3DSIO_LRP", "lrp", Shape::Dst(3), vs: from(0x0200), ps: ALL, slots: (2, 1, 1, 2, 2), class: (A, FA);
    Frc = 19, "D3DSIO_FRC", "frc", Shape::Dst(1), vs: ALL, ps: from(0x0200), slots: (3, 1, 1, 1, 1), class: (A, FA);
    M4x4 = 20, "D3DSIO_M4x4", "m4x4", Shape::Dst(2), vs: ALL, ps: from(0x0200), slots: (4, 1, 4, 4, 4), class: (A, FA);
    M4x3 = 21, "D3DSIO_M4x3", "m4x3", Shape::Dst(2), vs: ALL, ps: from(0x0200), slots: (3, 1, 3, 3, 3), class: (A, FA);
    M3x4 = 22, "D3DSIO_M3x4", "m3x4", Shape::Dst(2), vs: ALL, ps: from(0x0200), slots: (4, 1, 4, 4, 4), class: (A, FA);
    M3x3 = 23, "D3DSIO_M3x3", "m3x3", Shape::Dst(2), vs: ALL, ps: from(0x0200), slots: (3, 1, 3, 3, 3), class: (A, FA);
    M3x2 = 24, "D3DSIO_M3x2", "m3x2", Shape::Dst(2), vs: ALL, ps: from(0x0200), slots: (2, 1, 2, 2, 2), class: (A, FA);
    Call = 25, "D3DSIO_CALL", "call", Shape::Src(1), vs: from(0x0200), ps: from(0x0201), slots: (2, 1, 2, 2, 2), class: (A, FA);
    CallNz = 26, "D3DSIO_CALLNZ", "callnz", Shape::Src(2), vs: from(0x0200), ps: from(0x0201), slots: (3, 1, 3, 3, 3), class: (A, FA);
    Loop = 27, "D3DSIO_LOOP", "loop", Shape::Src(2), vs: from(0x0200), ps: from(0x0300), slots: (3, 1, 3, 3, 3), class: (A, FA);
    Ret = 28, "D3DSIO_RET", "ret", Shape::None, vs: from(0x0200), ps: from(0x0201), slots: (1, 1, 1, 1, 1), class: (A, FA);
    EndLoop = 29, "D3DSIO_ENDLOOP", "endloop", Shape::None, vs: from(0x0200), ps: from(0x0300), slots: (2, 1, 2, 2, 2), class: (A, FA);
    Label = 30, "D3DSIO_LABEL", "label", Shape::Src(1), vs: from(0x0200), ps: from(0x0201), slots: (0, 0, 0, 0, 0), class: (Z, FZ);
    Dcl = 31, "D3DSIO_DCL", "dcl", Shape::Dcl, vs: ALL, ps: from(0x0200), slots: (0, 0, 0, 0, 0), class: (Z, FZ);
    Pow = 32, "D3DSIO_POW", "pow", Shape::Dst(2), vs: from(0x0200), ps: from(0x0200), slots: (3, 1, 3, 3, 3), class: (A, FA);
    Crs = 33, "D3DSIO_CRS", "crs", Shape::Dst(2), vs: from(0x0200), ps: from(0x0200), slots: (2, 1, 2, 2, 2), class: (A, FA);
    Sgn = 34, "D3DSIO_SGN", "sgn", Shape::Dst(3), vs: from(0x0200), ps: NO, slots: (3, 1, 3, 3, 3), class: (A, FA);
    Abs = 35, "D3DSIO_ABS", "abs", Shape::Dst(1), vs: from(0x0200), ps: from(0x0200), slots: (1, 1, 1, 1, 1), class: (A, FA);
    Nrm = 36, "D3DSIO_NRM", "nrm", Shape::Dst(1), vs: from(0x0200), ps: from(0x0200), slots: (3, 1, 3, 3, 3), class: (A, FA);
    SinCos = 37, "D3DSIO_SINCOS", "sincos", Shape::SinCos, vs: from(0x0200), ps: from(0x0200), slots: (8, 1, 8, 8, 2), class: (A, FA);
    Rep = 38, "D3DSIO_REP", "rep", Shape::Src(1), vs: from(0x0200), ps: from(0x0201), slots: (3, 1, 3, 3, 3), class: (A, FA);
    EndRep = 39, "D3DSIO_ENDREP", "endrep", Shape::None, vs: from(0x0200), ps: from(0x0201), slots: (2, 1, 2, 2, 2), class: (A, FA);
    If = 40, "D3DSIO_IF", "if", Shape::Src(1), vs: from(0x0200), ps: from(0x0201), slots: (3, 1, 3, 3, 3), class: (A, FA);
    IfC = 41, "D3DSIO_IFC", "if", Shape::Src(2), vs: from(0x0201), ps: from(0x0201), slots: (3, 1, 3, 1, 1), class: (A, FA);
    Else = 42, "D3DSIO_ELSE", "else", Shape::None, vs: from(0x0200), ps: from(0x0201), slots: (1, 1, 1, 1, 1), class: (A, FA);
    EndIf = 43, "D3DSIO_ENDIF", "endif", Shape::None, vs: from(0x0200), ps: from(0x0201), slots: (1, 1, 1, 1, 1), class: (A, FA);
    Break = 44, "D3DSIO_BREAK", "break", Shape::None, vs: from(0x0201), ps: from(0x0201), slots: (1, 1, 1, 1, 1), class: (A, FA);
    BreakC = 45, "D3DSIO_BREAKC", "break", Shape::Src(2), vs: from(0x0201), ps: from(0x0201), slots: (3, 1, 3, 3, 3), class: (A, FA);
    Mova = 46, "D3DSIO_MOVA", "mova", Shape::Dst(1), vs: from(0x0200), ps: NO, slots: (1, 1, 1, 1, 1), class: (A, FA);
    DefB = 47, "D3DSIO_DEFB", "defb", Shape::Def(1), vs: from(0x0200), ps: from(0x0201), slots: (0, 0, 0, 0, 0), class: (Z, FZ);
    DefI = 48, "D3DSIO_DEFI", "defi", Shape::Def(4), vs: from(0x0200), ps: from(0x0201), slots: (0, 0, 0, 0, 0), class: (Z, FZ);
    TexCoord = 64, "D3DSIO_TEXCOORD", "texcoord", Shape::TexCoord, vs: NO, ps: range(0x0100, 0x0104), slots: (1, 1, 1, 1, 1), class: (T, FT);
    TexKill = 65, "D3DSIO_TEXKILL", "texkill", Shape::Dst(0), vs: NO, ps: ALL, slots: (1, 1, 1, 1, 1), class: (T, FA);
    Tex = 66, "D3DSIO_TEX", "texld", Shape::Tex, vs: NO, ps: ALL, slots: (1, 1, 1, 1, 1), class: (T, FT);
    TexBem = 67, "D3DSIO_TEXBEM", "texbem", Shape::Dst(1), vs: NO, ps: range(0x0100, 0x0103), slots: (1, 1, 1, 1, 1), class: (T, FT);
    TexBemL = 68, "D3DSIO_TEXBEML", "texbeml", Shape::Dst(1), vs: NO, ps: range(0x0100, 0x0103), slots: (1, 1, 1, 1, 1), class: (T, FT);
    TexReg2Ar = 69, "D3DSIO_TEXREG2AR", "texreg2ar", Shape::Dst(1), vs: NO, ps: range(0x0100, 0x0103), slots: (1, 1, 1, 1, 1), class: (T, FT);
    TexReg2Gb = 70, "D3DSIO_TEXREG2GB", "texreg2gb", Shape::Dst(1), vs: NO, ps: range(0x0100, 0x0103), slots: (1, 1, 1, 1, 1), class: (T, FT);
    TexM3x2Pad = 71, "D3DSIO_TEXM3x2PAD", "texm3x2pad", Shape::Dst(1), vs: NO, ps: range(0x0100, 0x0103), slots: (1, 1, 1, 1, 1), class: (T, FT);
    TexM3x2Tex = 72, "D3DSIO_TEXM3x2TEX", "texm3x2tex", Shape::Dst(1), vs: NO, ps: range(0x0100, 0x0103), slots: (1, 1, 1, 1, 1), class: (T, FT);
    TexM3x3Pad = 73, "D3DSIO_TEXM3x3PAD", "texm3x3pad", Shape::Dst(1), vs: NO, ps: range(0x0100, 0x0103), slots: (1, 1, 1, 1, 1), class: (T, FT);
    TexM3x3Tex = 74, "D3DSIO_TEXM3x3TEX", "texm3x3tex", Shape::Dst(1), vs: NO, ps: range(0x0100, 0x0103), slots: (1, 1, 1, 1, 1), class: (T, FT);
    Reserved0 = 75, "D3DSIO_RESERVED0", "reserved0", Shape::None, vs: NO, ps: NO, slots: (0, 0, 0, 0, 0), class: (Z, FZ);
    TexM3x3Spec = 76, "D3DSIO_TEXM3x3SPEC", "texm3x3spec", Shape::Dst(2), vs: NO, ps: range(0x0100, 0x0103), slots: (1, 1, 1, 1, 1), class: (T, FT);
    TexM3x3VSpec = 77, "D3DSIO_TEXM3x3VSPEC", "texm3x3vspec", Shape::Dst(1), vs: NO, ps: range(0x0100, 0x0103), slots: (1, 1, 1, 1, 1), class: (T, FT);
    ExpP = 78, "D3DSIO_EXPP", "expp", Shape::Dst(1), vs: ALL, ps: NO, slots: (1, 1, 1, 1, 1), class: (A, FA);
    LogP = 79, "D3DSIO_LOGP", "logp", Shape::Dst(1), vs: ALL, ps: NO, slots: (1, 1, 1, 1, 1), class: (A, FA);
    Cnd = 80, "D3DSIO_CND", "cnd", Shape::Dst(3), vs: NO, ps: range(0x0100, 0x0104), slots: (1, 1, 1, 1, 1), class: (A, FA);
    Def = 81, "D3DSIO_DEF", "def", Shape::Def(4), vs: ALL, ps: ALL, slots: (0, 0, 0, 0, 0), class: (Z, FZ);
    TexReg2Rgb = 82, "D3DSIO_TEXREG2RGB", "texreg2rgb", Shape::Dst(1), vs: NO, ps: range(0x0102, 0x0103), slots: (1, 1, 1, 1, 1), class: (T, FT);
    TexDp3Tex = 83, "D3DSIO_TEXDP3TEX", "texdp3tex", Shape::Dst(1), vs: NO, ps: range(0x0102, 0x0103), slots: (1, 1, 1, 1, 1), class: (T, FT);
    TexM3x2Depth = 84, "D3DSIO_TEXM3x2DEPTH", "texm3x2depth", Shape::Dst(1), vs: NO, ps: range(0x0103, 0x0103), slots: (1, 1, 1, 1, 1), class: (T, FT);
    TexDp3 = 85, "D3DSIO_TEXDP3", "texdp3", Shape::Dst(1), vs: NO, ps: range(0x0102, 0x0103), slots: (1, 1, 1, 1, 1), class: (T, FT);
    TexM3x3 = 86, "D3DSIO_TEXM3x3", "texm3x3", Shape::Dst(1), vs: NO, ps: range(0x0102, 0x0103), slots: (1, 1, 1, 1, 1), class: (T, FT);
    TexDepth = 87, "D3DSIO_TEXDEPTH", "texdepth", Shape::Dst(0), vs: NO, ps: range(0x0104, 0x0104), slots: (1, 1, 1, 1, 1), class: (T, FT);
    Cmp = 88, "D3DSIO_CMP", "cmp", Shape::Dst(3), vs: NO, ps: from(0x0102), slots: (1, 1, 1, 1, 1), class: (A, FA);
    Bem = 89, "D3DSIO_BEM", "bem", Shape::Dst(2), vs: NO, ps: range(0x0104, 0x0104), slots: (2, 2, 2, 2, 2), class: (A, FA);
    Dp2Add = 90, "D3DSIO_DP2ADD", "dp2add", Shape::Dst(3), vs: NO, ps: from(0x0200), slots: (2, 1, 2, 1, 1), class: (A, FA);
    Dsx = 91, "D3DSIO_DSX", "dsx", Shape::Dst(1), vs: NO, ps: from(0x0201), slots: (2, 1, 2, 2, 2), class: (A, FA);
    Dsy = 92, "D3DSIO_DSY", "dsy", Shape::Dst(1), vs: NO, ps: from(0x0201), slots: (2, 1, 2, 2, 2), class: (A, FA);
    TexLdd = 93, "D3DSIO_TEXLDD", "texldd", Shape::Dst(4), vs: NO, ps: from(0x0201), slots: (3, 1, 3, 3, 3), class: (T, FTA);
    SetP = 94, "D3DSIO_SETP", "setp", Shape::Dst(2), vs: from(0x0201), ps: from(0x0201), slots: (1, 1, 1, 1, 1), class: (A, FA);
    TexLdl = 95, "D3DSIO_TEXLDL", "texldl", Shape::Dst(2), vs: from(0x0300), ps: from(0x0300), slots: (2, 1, 2, 2, 2), class: (T, FT);
    BreakP = 96, "D3DSIO_BREAKP", "breakp", Shape::Src(1), vs: from(0x0201), ps: from(0x0201), slots: (3, 1, 3, 3, 3), class: (A, FA);
    Phase = 0xFFFD, "D3DSIO_PHASE", "phase", Shape::None, vs: NO, ps: range(0x0104, 0x0104), slots: (0, 0, 0, 0, 0), class: (Z, FZ);
    Comment = 0xFFFE, "D3DSIO_COMMENT", "comment", Shape::None, vs: ALL, ps: ALL, slots: (0, 0, 0, 0, 0), class: (Z, FZ);
    End = 0xFFFF, "D3DSIO_END", "end", Shape::None, vs: ALL, ps: ALL, slots: (0, 0, 0, 0, 0), class: (Z, FZ);
}

const OPCODES_LEN: usize = OPCODE_CODES.len();

/// Dense lookup from `D3DSIO_*` code to table row, for codes `0..=96`.
const fn build_index() -> [u8; 97] {
    let mut idx = [u8::MAX; 97];
    let mut i = 0;
    while i < OPCODES_LEN {
        let code = OPCODE_CODES[i];
        if (code as usize) < 97 {
            idx[code as usize] = i as u8;
        }
        i += 1;
    }
    idx
}

static INDEX: [u8; 97] = build_index();

impl Opcode {
    /// Looks up a `D3DSIO_*` code.
    #[inline]
    pub fn from_code(code: u16) -> Option<Opcode> {
        let i = if (code as usize) < INDEX.len() {
            INDEX[code as usize] as usize
        } else {
            match code {
                0xFFFD => OPCODES_LEN - 3,
                0xFFFE => OPCODES_LEN - 2,
                0xFFFF => OPCODES_LEN - 1,
                _ => return None,
            }
        };
        OPCODES.get(i).map(|r| r.opcode)
    }

    /// The index of this opcode's row in [`OPCODES`] (for tables indexed by opcode).
    #[inline]
    pub fn row(self) -> usize {
        // Rows are in code order: 0–48, 64–96, then 0xFFFD–0xFFFF (the table test
        // checks this layout), so the row index is plain arithmetic on the code.
        let code = self as u16 as usize;
        match code {
            0..=48 => code,
            64..=96 => code - 15,
            _ => code - (0xFFFD - 82),
        }
    }

    /// The table row of this opcode.
    #[inline]
    pub fn info(self) -> &'static OpcodeInfo {
        &OPCODES[self.row()]
    }

    /// The `D3DSIO_*` code.
    #[inline]
    pub fn code(self) -> u16 {
        self as u16
    }

    /// The exact token layout in `version`.
    #[inline]
    pub fn layout(self, version: Version) -> Layout {
        self.info().shape.layout(version)
    }

    /// The mnemonic Microsoft's tools use in `version` (without modifiers or comparison
    /// suffixes): `tex`/`texld`, `texcoord`/`texcrd` differ between ps_1_3 and ps_1_4.
    pub fn mnemonic(self, version: Version) -> &'static str {
        match self {
            Opcode::Tex if version.code() < 0x0104 => "tex",
            Opcode::TexCoord if version.code() >= 0x0104 => "texcrd",
            _ => self.info().name,
        }
    }

    /// Whether the opcode is legal in `version`.
    pub fn is_legal(self, version: Version) -> bool {
        let info = self.info();
        let r = match version.kind {
            ShaderKind::Vertex => info.vs,
            ShaderKind::Pixel => info.ps,
        };
        let v = version.code();
        matches!(r, Some((lo, hi)) if lo <= v && v <= hi)
    }

    /// Instruction slots this opcode takes in `version`: the count Microsoft's listings
    /// add up in their `// approximately N instruction slots used` footer, under the
    /// [`SlotModel::Hlsl`] counting (fxc / D3DCompiler 9.29 and later); see
    /// [`Opcode::slots_in`] for the rules and the older model.
    pub fn slots(self, version: Version) -> u32 {
        self.slots_in(version, SlotModel::Hlsl)
    }

    /// Instruction slots under a given tool generation's counting: the row's
    /// [`Slots`] for the version's family.
    #[inline]
    pub fn slots_in(self, version: Version, model: SlotModel) -> u32 {
        let s = &self.info().slots;
        u32::from(match (version.major, version.kind, model) {
            (1, ShaderKind::Vertex, _) => s.vs1,
            (1, ShaderKind::Pixel, _) => s.ps1,
            (_, _, SlotModel::Hlsl) => s.sm2,
            (2, _, SlotModel::D3dx9Legacy) => s.d3dx_sm2,
            (_, _, SlotModel::D3dx9Legacy) => s.d3dx_sm3,
        })
    }

    /// Texture, arithmetic or nothing, for the split slot limits of ps_1_x/ps_2_0 (the
    /// documented class of the instruction).
    #[inline]
    pub fn slot_class(self) -> SlotClass {
        self.info().class
    }

    /// The slots a listing footer adds for this opcode, as (texture, arithmetic): the
    /// row's [`Opcode::slots_in`] figure split by the documented class, except in 2.0+
    /// models under fxc 9.29–10.1 counting ([`SlotModel::Hlsl`]), where the row's
    /// `footer_hlsl` holds:
    /// - `texkill` is arithmetic in ps_2_0, ps_2_x and ps_3_0 (fxc 9.29 ps_2_0: `texld` +
    ///   `texkill` + 17 others print `(1 texture, 18 arithmetic)`, and a shader whose only
    ///   texture-class instruction is `texkill` prints no split; 259 `texkill`s of
    ///   HelixMod ps_3_0 listings, all in the arithmetic figure);
    /// - `texldd` takes 3 slots, 1 texture and 2 arithmetic (fxc 10.1 ps_3_0 listings of
    ///   the DirectX SDK's ParallaxOcclusionMapping: 9 `texldd` + 2 `texld` print
    ///   `11 texture`).
    ///
    /// D3DX9 9.08 counts `texkill` as texture (Oblivion ps_2_x listings).
    #[inline]
    pub fn footer_slots(self, version: Version, model: SlotModel) -> (u32, u32) {
        let info = self.info();
        let n = self.slots_in(version, model);
        let class = if model == SlotModel::Hlsl && version.major >= 2 {
            info.footer_hlsl
        } else {
            FooterClass::from(info.class)
        };
        match class {
            FooterClass::None => (0, 0),
            FooterClass::Arithmetic => (0, n),
            FooterClass::Texture => (n, 0),
            FooterClass::TextureThenArithmetic => (n.min(1), n.saturating_sub(1)),
        }
    }

    /// The opcode's role in block structure.
    #[inline]
    pub fn block(self) -> Block {
        match self {
            Opcode::If | Opcode::IfC | Opcode::Loop | Opcode::Rep => Block::Open,
            Opcode::Else => Block::Else,
            Opcode::EndIf | Opcode::EndLoop | Opcode::EndRep => Block::Close,
            _ => Block::None,
        }
    }

    /// The opcode's role: declaration, marker, the ps_1_4 phase boundary, flow control
    /// or computation. The one classification the validator, the executor and the
    /// translators read; the match lists every opcode, so a new one must be placed.
    #[inline]
    pub fn role(self) -> Role {
        use Opcode::*;
        match self {
            Dcl | Def | DefI | DefB => Role::Declaration,
            Nop | Comment | End | Reserved0 => Role::Marker,
            Phase => Role::Phase,
            If => Role::Flow(Flow::If),
            IfC => Role::Flow(Flow::IfC),
            Else => Role::Flow(Flow::Else),
            EndIf => Role::Flow(Flow::EndIf),
            Loop => Role::Flow(Flow::Loop),
            EndLoop => Role::Flow(Flow::EndLoop),
            Rep => Role::Flow(Flow::Rep),
            EndRep => Role::Flow(Flow::EndRep),
            Break => Role::Flow(Flow::Break),
            BreakC => Role::Flow(Flow::BreakC),
            BreakP => Role::Flow(Flow::BreakP),
            Call => Role::Flow(Flow::Call),
            CallNz => Role::Flow(Flow::CallNz),
            Ret => Role::Flow(Flow::Ret),
            Label => Role::Flow(Flow::Label),
            Mov | Add | Sub | Mad | Mul | Rcp | Rsq | Dp3 | Dp4 | Min | Max | Slt | Sge | Exp
            | Log | Lit | Dst | Lrp | Frc | M4x4 | M4x3 | M3x4 | M3x3 | M3x2 | Pow | Crs | Sgn
            | Abs | Nrm | SinCos | Mova | TexCoord | TexKill | Tex | TexBem | TexBemL
            | TexReg2Ar | TexReg2Gb | TexM3x2Pad | TexM3x2Tex | TexM3x3Pad | TexM3x3Tex
            | TexM3x3Spec | TexM3x3VSpec | ExpP | LogP | Cnd | TexReg2Rgb | TexDp3Tex
            | TexM3x2Depth | TexDp3 | TexM3x3 | TexDepth | Cmp | Bem | Dp2Add | Dsx | Dsy
            | TexLdd | SetP | TexLdl => Role::Compute,
        }
    }

    /// `dcl`, `def`, `defi`, `defb`: declarations, which precede executable instructions
    /// ([`Role::Declaration`]).
    #[inline]
    pub fn is_declaration(self) -> bool {
        self.role() == Role::Declaration
    }

    /// Neither a declaration nor executable: `phase`, `nop`, `comment`, `end`,
    /// `reserved0` ([`Role::Marker`] and [`Role::Phase`]).
    #[inline]
    pub fn is_marker(self) -> bool {
        matches!(self.role(), Role::Marker | Role::Phase)
    }

    /// Flow control: blocks, breaks, subroutines and labels ([`Role::Flow`]).
    #[inline]
    pub fn is_flow(self) -> bool {
        matches!(self.role(), Role::Flow(_))
    }

    /// The ps_1_x texture-addressing instructions (`texcoord`, `tex`, `texbem*`,
    /// `texreg2*`, `texm3x*`, `texdp3*`): in ps_1_0–1_3 each takes the interpolated
    /// texture coordinate of its destination register's stage.
    #[inline]
    pub fn is_ps1x_texture_op(self) -> bool {
        use Opcode::*;
        matches!(
            self,
            TexCoord
                | Tex
                | TexBem
                | TexBemL
                | TexReg2Ar
                | TexReg2Gb
                | TexReg2Rgb
                | TexM3x2Pad
                | TexM3x2Tex
                | TexM3x3Pad
                | TexM3x3Tex
                | TexM3x3Spec
                | TexM3x3VSpec
                | TexM3x3
                | TexM3x2Depth
                | TexDp3
                | TexDp3Tex
        )
    }

    /// The ps_1_x texture instructions that sample the stage of their destination
    /// register (`texbem*`, `texreg2*`, `texm3x2tex`, `texm3x3tex`/`spec`/`vspec`,
    /// `texdp3tex`; `tex` too, handled with the later `texld` forms).
    #[inline]
    pub fn samples_dst_stage(self) -> bool {
        use Opcode::*;
        matches!(
            self,
            TexBem
                | TexBemL
                | TexReg2Ar
                | TexReg2Gb
                | TexReg2Rgb
                | TexM3x2Tex
                | TexM3x3Tex
                | TexM3x3Spec
                | TexM3x3VSpec
                | TexDp3Tex
        )
    }

    /// The sampling family `texld` (incl. `texldp`/`texldb` and ps_1_x `tex`), `texldd`,
    /// `texldl`: a texture coordinate source and, from 2.0, a sampler.
    #[inline]
    pub fn is_texld(self) -> bool {
        matches!(self, Opcode::Tex | Opcode::TexLdd | Opcode::TexLdl)
    }

    /// The expansion of a matrix-multiply macro.
    #[inline]
    pub fn matrix(self) -> Option<MatrixShape> {
        let (rows, columns) = match self {
            Opcode::M4x4 => (4, 4),
            Opcode::M4x3 => (3, 4),
            Opcode::M3x4 => (4, 3),
            Opcode::M3x3 => (3, 3),
            Opcode::M3x2 => (2, 3),
            _ => return None,
        };
        Some(MatrixShape { rows, columns })
    }

    /// Which components of source `k` the instruction reads in `version` (for the
    /// executor, the translator and read-before-write analysis).
    pub fn reads(self, k: usize, version: Version) -> Reads {
        use Opcode::*;
        const XY: u8 = 0b0011;
        const XYZ: u8 = 0b0111;
        const XYZW: u8 = 0b1111;
        match self {
            Dp3 | Crs | Nrm => Reads::Components(XYZ),
            Dp4 | Lit | Dst => Reads::Components(XYZW),
            M4x4 | M4x3 | M3x4 | M3x3 | M3x2 => {
                let cols = self.matrix().map_or(4, |m| m.columns);
                Reads::Components(if cols == 4 { XYZW } else { XYZ })
            }
            Rcp | Rsq | Exp | Log | ExpP | LogP => Reads::Scalar,
            Pow => Reads::Scalar,
            SinCos if k == 0 => Reads::Scalar,
            SinCos => Reads::Components(XYZW),
            Dp2Add if k < 2 => Reads::Components(XY),
            Dp2Add => Reads::Scalar,
            Bem if k < 2 => Reads::Components(XY),
            Tex | TexLdd | TexLdl if k == 1 && version.major >= 2 => Reads::NotValue,
            Tex | TexLdl => Reads::Components(XYZW),
            TexLdd => Reads::Components(XYZW),
            Loop | Rep | Call | CallNz | Label => Reads::NotValue,
            If if k == 0 => Reads::Scalar,
            IfC | BreakC | BreakP => Reads::Scalar,
            _ => Reads::PerComponent,
        }
    }

    /// The component of a swizzled source that a [`Reads::Scalar`] read takes: `w` (3)
    /// for the scalar math instructions (`rcp`, `rsq`, `exp`, `log`, `expp`, `logp`,
    /// `pow`, the `sincos` angle) in every version — D3D9 defines them on `src.w`, and
    /// from 2.0 the required replicate swizzle makes every component equal — and `x` (0)
    /// otherwise (`dp2add`'s addend, flow-control conditions). The executor and the
    /// translator both read it.
    #[inline]
    pub fn scalar_component(self) -> usize {
        use Opcode::*;
        match self {
            Rcp | Rsq | Exp | Log | ExpP | LogP | Pow | SinCos => 3,
            _ => 0,
        }
    }

    /// True for opcodes whose controls field carries a comparison (`ifc`, `breakc`, `setp`).
    #[inline]
    pub fn has_comparison(self) -> bool {
        matches!(self, Opcode::IfC | Opcode::BreakC | Opcode::SetP)
    }

    /// All opcodes, in `D3DSIO_*` order.
    pub fn all() -> impl Iterator<Item = Opcode> {
        OPCODES.iter().map(|r| r.opcode)
    }
}

/// The instruction and source modifiers Microsoft's assembler knows in one version: its
/// grammar, which it applies even under `D3DCOMPILE_SKIP_VALIDATION` (Wine's assembler,
/// `dlls/d3dcompiler_43/asmparser.c`, makes the same per-version checks —
/// `check_shift_dstmod`, `check_ps_dstmod`, `check_legacy_srcmod`, `check_abs_srcmod`,
/// the `+` co-issue rule of its grammar — and its `tests/asm.c` `failure_test` shows
/// Windows refusing each one with validation skipped). Microsoft's docs say the same:
/// "Instruction modifiers" (`_x2`…`_d8` ps_1_x only; `_pp`/`_centroid` ps_2_0+) and
/// "Source register modifiers" (`_bias`, `_bx2`, `_x2`, `1-` ps_1_x; `_dz`/`_dw` ps_1_4;
/// `_abs` 3.0).
///
/// The validator checks more (which instructions take which modifier); this is what
/// the assembler refuses to parse at all. `asm --raw` takes back any of them anyway.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Modifiers {
    /// Co-issue (`+` before an instruction): ps_1_x.
    pub coissue: bool,
    /// Shift result modifiers (`_x2`, `_x4`, `_x8`, `_d2`, `_d4`, `_d8`): ps_1_x.
    pub shift: bool,
    /// `_pp` and `_centroid` on instructions and on non-sampler `dcl`s: ps_2_0 and later.
    pub partial_precision: bool,
    /// `_pp`/`_centroid` on a sampler `dcl`: ps_3_0 only.
    pub sampler_dcl: bool,
    /// The ps_1_x source modifiers `_bias`, `_bx2`, `_x2` and the complement `1 - r`.
    pub legacy_src: bool,
    /// `_dz`/`_dw` on a `texld`/`texcrd` source: ps_1_4.
    pub dz_dw: bool,
    /// The `_abs` source modifier: vs_3_0 and ps_3_0.
    pub abs: bool,
}

/// The modifiers of [`Modifiers`] in `version`.
pub const fn modifiers(version: Version) -> Modifiers {
    let ps = version.is_pixel();
    let ps1 = ps && version.major < 2;
    Modifiers {
        coissue: ps1,
        shift: ps1,
        partial_precision: ps && version.major >= 2,
        sampler_dcl: ps && version.major >= 3,
        legacy_src: ps1,
        dz_dw: ps && version.code() == 0x0104,
        abs: version.major >= 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_short_is_str_find() {
        let hays = [
            "",
            "a",
            "Microsoft (R) HLSL Shader Compiler 9.29",
            "HLSLHLSL ",
            "xHLSL",
        ];
        for h in hays {
            for n in [
                "",
                "H",
                "HLSL ",
                "HLSL Shader Compiler ",
                "L",
                "xHLSL",
                "zz",
            ] {
                let want = if n.is_empty() { None } else { h.find(n) };
                assert_eq!(find_short(h, n), want, "{h:?} {n:?}");
            }
        }
    }

    #[test]
    fn table_is_consistent() {
        assert_eq!(OPCODES.len(), OPCODES_LEN);
        for (i, row) in OPCODES.iter().enumerate() {
            assert_eq!(row.code, OPCODE_CODES[i], "row {i}");
            assert_eq!(row.opcode as u16, row.code);
            assert_eq!(Opcode::from_code(row.code), Some(row.opcode));
            assert_eq!(row.opcode.info().code, row.code);
            assert_eq!(row.opcode.row(), i);
        }
        assert_eq!(Opcode::from_code(49), None);
        assert_eq!(Opcode::from_code(63), None);
        assert_eq!(Opcode::from_code(97), None);
        assert_eq!(Opcode::from_code(0xFFFC), None);
    }

    /// The footer's slot figures per version and counting tool, for every opcode whose
    /// count is not simply one slot. Rows marked `listings` are pinned by Microsoft's
    /// listings in the corpus; the others are the documented instruction-table figures
    /// (no listing exercises them), pinned here so a change is deliberate.
    #[test]
    fn slot_model_per_version() {
        use SlotModel::{D3dx9Legacy as Old, Hlsl};
        let (vs11, vs20, vs30) = (
            Version::vertex(1, 1),
            Version::vertex(2, 0),
            Version::vertex(3, 0),
        );
        let (ps13, ps14, ps20, ps2x, ps30) = (
            Version::pixel(1, 3),
            Version::pixel(1, 4),
            Version::pixel(2, 0),
            Version::pixel(2, 1),
            Version::pixel(3, 0),
        );
        #[rustfmt::skip]
        let cases: &[(Opcode, Version, u32, u32)] = &[
            // (opcode, version, fxc 9.29+, D3DX9 9.08)
            (Opcode::Lrp, vs20, 1, 2),    // listings: fxc vs_2_0, Oblivion vs_2_0
            (Opcode::Lrp, vs30, 1, 2),    // listings: HelixMod vs_3_0, Oblivion vs_3_0
            (Opcode::Lrp, ps13, 1, 1),    // listings: Oblivion ps_1_3
            (Opcode::Lrp, ps20, 1, 2),    // listings: fxc ps_2_0, Oblivion ps_2_x
            (Opcode::Lrp, ps30, 1, 2),    // listings: HelixMod ps_3_0, Oblivion ps_3_0
            (Opcode::SinCos, vs20, 8, 8), // listings: Oblivion vs_2_0 (three sources)
            (Opcode::SinCos, ps2x, 8, 8), // listings: Oblivion ps_2_x
            (Opcode::SinCos, vs30, 8, 2), // listings: HelixMod / Oblivion vs_3_0
            (Opcode::SinCos, ps30, 8, 2),
            (Opcode::Dp2Add, ps2x, 2, 1), // listings: Oblivion ps_2_x
            (Opcode::Dp2Add, ps30, 2, 1), // listings: HelixMod ps_3_0
            (Opcode::IfC, ps30, 3, 1),    // listings: HelixMod / Oblivion ps_3_0
            (Opcode::If, ps30, 3, 3),
            (Opcode::Else, vs30, 1, 1),   // listings: HelixMod vs_3_0
            (Opcode::EndIf, vs30, 1, 1),
            (Opcode::Rep, vs20, 3, 3),    // listings: fxc vs_2_0
            (Opcode::EndRep, vs20, 2, 2),
            (Opcode::Rep, ps30, 3, 3),    // listings: HelixMod ps_3_0
            (Opcode::Loop, vs20, 3, 3),
            (Opcode::EndLoop, vs20, 2, 2),
            (Opcode::Loop, vs30, 3, 3),
            (Opcode::EndLoop, ps30, 2, 2),
            (Opcode::Call, vs20, 2, 2),
            (Opcode::CallNz, vs20, 3, 3),
            (Opcode::Ret, vs30, 1, 1),
            (Opcode::Label, vs30, 0, 0),
            (Opcode::Break, vs30, 1, 1),
            (Opcode::BreakC, ps30, 3, 3),
            (Opcode::BreakP, vs30, 3, 3),
            (Opcode::SetP, ps2x, 1, 1),
            (Opcode::Nrm, vs20, 3, 3),    // listings: Oblivion vs_2_0
            (Opcode::Nrm, vs30, 3, 3),    // listings: HelixMod vs_3_0
            (Opcode::Nrm, ps30, 3, 3),
            (Opcode::Pow, vs20, 3, 3),    // listings: Oblivion vs_2_0
            (Opcode::Pow, vs30, 3, 3),    // listings: HelixMod vs_3_0
            (Opcode::Mova, vs20, 1, 1),   // listings: fxc / Oblivion vs_2_0
            (Opcode::Mova, vs30, 1, 1),   // listings: HelixMod vs_3_0
            (Opcode::Crs, vs20, 2, 2),
            (Opcode::Sgn, vs20, 3, 3),
            (Opcode::Lit, vs11, 3, 3),
            (Opcode::M4x4, vs11, 4, 4),
            (Opcode::M3x2, vs20, 2, 2),
            (Opcode::Frc, vs11, 3, 3),    // listings: Oblivion vs_1_1
            (Opcode::Frc, vs20, 1, 1),    // listings: Oblivion vs_2_0
            (Opcode::Exp, vs11, 10, 10),  // listings: Oblivion vs_1_1
            (Opcode::Exp, vs30, 1, 1),    // listings: HelixMod vs_3_0
            (Opcode::Log, vs11, 10, 10),
            (Opcode::Dsx, ps30, 2, 2),    // listings: HelixMod ps_3_0
            (Opcode::TexLdd, ps30, 3, 3),
            (Opcode::TexLdl, vs30, 2, 2), // listings: HelixMod ps_3_0 (texldl)
            (Opcode::Cnd, ps13, 1, 1),    // listings: Oblivion ps_1_3
            (Opcode::Bem, ps14, 2, 2),
        ];
        for &(op, v, hlsl, old) in cases {
            assert_eq!(op.slots_in(v, Hlsl), hlsl, "{op:?} {v} fxc 9.29");
            assert_eq!(op.slots_in(v, Old), old, "{op:?} {v} D3DX9 9.08");
        }
        // Footer split (texture, arithmetic): texkill is arithmetic from 2.0 on for fxc
        // 9.29-10.1 (ps_2_0, HelixMod ps_3_0), texture for D3DX9 9.08 (Oblivion ps_2_x)
        // and in 1.x; texldd is 1 + 2 for fxc 10.1.
        let ps1x = Version::pixel(1, 3);
        let ps2x = Version::pixel(2, 1);
        assert_eq!(Opcode::TexKill.footer_slots(ps30, Hlsl), (0, 1));
        assert_eq!(Opcode::TexKill.footer_slots(ps20, Hlsl), (0, 1));
        assert_eq!(Opcode::TexKill.footer_slots(ps2x, Hlsl), (0, 1));
        assert_eq!(Opcode::TexKill.footer_slots(ps30, Old), (1, 0));
        assert_eq!(Opcode::TexKill.footer_slots(ps20, Old), (1, 0));
        assert_eq!(Opcode::TexKill.footer_slots(ps1x, Hlsl), (1, 0));
        assert_eq!(Opcode::TexLdd.footer_slots(ps30, Hlsl), (1, 2));
        assert_eq!(Opcode::TexLdd.footer_slots(ps30, Old), (3, 0));
        assert_eq!(Opcode::TexLdl.footer_slots(ps30, Hlsl), (2, 0));
        assert_eq!(Opcode::Tex.footer_slots(ps20, Hlsl), (1, 0));
        assert_eq!(Opcode::Def.footer_slots(ps30, Hlsl), (0, 0));
    }

    #[test]
    fn version_dependent_layouts() {
        let ps13 = Version::pixel(1, 3);
        let ps14 = Version::pixel(1, 4);
        let ps20 = Version::pixel(2, 0);
        let vs30 = Version::vertex(3, 0);
        assert_eq!(Opcode::Tex.layout(ps13).srcs, 0);
        assert_eq!(Opcode::Tex.layout(ps14).srcs, 1);
        assert_eq!(Opcode::Tex.layout(ps20).srcs, 2);
        assert_eq!(Opcode::SinCos.layout(ps20).srcs, 3);
        assert_eq!(Opcode::SinCos.layout(vs30).srcs, 1);
        assert_eq!(Opcode::Tex.mnemonic(ps13), "tex");
        assert_eq!(Opcode::TexCoord.mnemonic(ps14), "texcrd");
        assert!(Opcode::Loop.is_legal(vs30));
        assert!(!Opcode::Loop.is_legal(ps20));
        assert!(Opcode::Bem.is_legal(ps14));
        assert!(!Opcode::Bem.is_legal(ps13));
    }

    #[test]
    fn groupings() {
        let vs30 = Version::vertex(3, 0);
        let ps20 = Version::pixel(2, 0);
        for op in Opcode::all() {
            // Every opcode is in at most one of these groups.
            let groups = [op.is_declaration(), op.is_marker(), op.is_flow()];
            assert!(groups.iter().filter(|&&g| g).count() <= 1, "{op:?}");
            if op.block() != Block::None {
                assert!(op.is_flow(), "{op:?}");
            }
            if let Some(m) = op.matrix() {
                assert_eq!(op.slots(vs30), m.rows as u32, "{op:?}");
            }
        }
        assert_eq!(
            Opcode::M4x3.matrix(),
            Some(MatrixShape {
                rows: 3,
                columns: 4
            })
        );
        assert_eq!(Opcode::Dp3.reads(0, vs30), Reads::Components(0b0111));
        assert_eq!(Opcode::Rcp.reads(0, vs30), Reads::Scalar);
        assert_eq!(Opcode::Tex.reads(1, ps20), Reads::NotValue);
        assert_eq!(Opcode::Add.reads(1, ps20), Reads::PerComponent);
        assert_eq!(Opcode::Dp2Add.reads(2, ps20), Reads::Scalar);
    }
}
