//! # d3dbc-spirv
//!
//! Direct3D 9 shader bytecode (SM1.0–3.0) → SPIR-V 1.0 words for Vulkan, written
//! directly: one scan and one pass over the decoded shader, no intermediate IR, no
//! per-instruction allocation. The fast back end beside `d3dbc-naga` (which goes through
//! naga's IR, validator and writer, and also reaches WGSL, GLSL, MSL and HLSL).
//!
//! Both back ends read the same options ([`TranslateOptions`], in
//! [`d3dbc::target::options`]) and produce the same [`Interface`] (bindings,
//! constant-buffer layout, varying locations, in [`d3dbc::target::interface`]), compute
//! the same values instruction for instruction, and link a vertex/pixel pair by the same
//! rules ([`link`]): a host switches back ends without touching its pipeline layout.
//!
//! ```
//! let tokens = [0xFFFF0200, 0x0200001F, 0x80000000, 0xB00F0000,
//!               0x02000001, 0x800F0800, 0xB0E40000, 0x0000FFFF];
//! let shader = d3dbc::Shader::decode(&tokens).unwrap();
//! let words = d3dbc_spirv::emit(&shader, &Default::default()).unwrap();
//! assert_eq!(words[0], 0x0723_0203);
//! let t = d3dbc_spirv::translate(&shader, &Default::default()).unwrap();
//! assert_eq!(t.interface.varyings[0].location, 0); // TEXCOORD0
//! ```
#![warn(missing_docs)]

mod emit;
mod link;
mod module;

use d3dbc::target::link::LinkRead;
use d3dbc::target::scan::{scan, Scan};
use d3dbc::Shader;
use spirv::{Capability, ExecutionMode, ExecutionModel, Op};

pub use d3dbc::target::interface::Interface;
pub use d3dbc::target::options::{PipelineState, TextureKind, TranslateOptions};
/// Why a shader could not be emitted: the error both back ends report
/// ([`d3dbc::target::Error`]), at DWORD offsets in the token stream (the version token
/// is at 0).
pub use d3dbc::target::Error;
pub use link::link;

use module::inst;

/// The options both back ends take.
pub type Options = TranslateOptions;

/// An emitted shader: SPIR-V words and the interface.
#[derive(Clone, Debug)]
pub struct Translation {
    /// SPIR-V 1.0 words (one entry point, `main`).
    pub words: Vec<u32>,
    /// Where the host binds everything.
    pub interface: Interface,
}

/// How to emit beyond the translation options.
#[derive(Clone, Copy, Debug)]
pub struct EmitFlags {
    /// Negate the vertex position's y for Vulkan's clip space (naga's
    /// `ADJUST_COORDINATE_SPACE`); false for raw pass-through under wgpu. Default true.
    pub adjust_y: bool,
}

impl Default for EmitFlags {
    fn default() -> Self {
        EmitFlags { adjust_y: true }
    }
}

thread_local! {
    /// A finished translation's scan, refilled by the thread's next one (its buffers
    /// kept, as the module's are).
    static SCAN: std::cell::Cell<Option<Box<Scan>>> = const { std::cell::Cell::new(None) };
}

/// The most instructions a kept scan's buffer holds (an unusually large shader's is
/// dropped instead).
const KEEP_INSTRUCTIONS: usize = 4096;

/// What a translation starts from: a decoded shader, or its token stream (decoded
/// straight into the scan, no [`Shader`] in between).
#[derive(Clone, Copy)]
pub(crate) enum Input<'a> {
    Shader(&'a Shader),
    Tokens(&'a [u32]),
}

/// `f` on the input's scan (the shared pre-pass: the instructions, each one's DWORD
/// offset, what they use), made in the scan the thread's last translation kept.
fn with_scan<R>(input: Input<'_>, f: impl FnOnce(&Scan) -> Result<R, Error>) -> Result<R, Error> {
    let mut s = match SCAN.with(|c| c.take()) {
        Some(s) => s,
        None => Box::new(scan(d3dbc::Analysis::new(&Shader::new(
            d3dbc::Version::pixel(3, 0),
        )))?),
    };
    let filled = match input {
        Input::Shader(shader) => s.refill(shader),
        Input::Tokens(tokens) => s.refill_tokens(tokens),
    };
    let result = filled.and_then(|()| f(&s));
    if s.instructions.capacity() <= KEEP_INSTRUCTIONS {
        SCAN.with(|c| c.set(Some(s)));
    }
    result
}

/// One translation of `input`; `out` takes the version, the words, the interface (not
/// yet named: [`Interface::name`]; lent: a caller that keeps it moves it out) and the
/// pixel reads (empty unless `link_pixel`) where they are made, so that a caller keeping
/// only the words moves nothing else out, allocates no name, and leaves the interface's
/// buffers to the thread's next translation.
pub(crate) fn run<'a, R>(
    input: Input<'_>,
    options: &'a TranslateOptions,
    flags: EmitFlags,
    link: Option<&'a [LinkRead]>,
    link_pixel: bool,
    out: impl FnOnce(d3dbc::Version, Vec<u32>, &mut Interface, Vec<LinkRead>) -> R,
) -> Result<R, Error> {
    with_scan(input, |scan| {
        // The emitter borrows the scan (instructions and offsets included): nothing large
        // is moved into it.
        let mut e = emit::Emitter::new(
            module::Module::take(),
            scan.version,
            scan,
            options,
            flags.adjust_y,
            link,
            link_pixel,
        );
        e.run()?;
        let reads = if link_pixel {
            e.link_pixel_inputs()
        } else {
            Vec::new()
        };
        let mut words = assemble(&mut e, scan.version.is_pixel());
        if options.pipeline.float_controls {
            d3dbc::target::float_controls::request(&mut words, options.semantics.denormals);
        }
        let (m, mut interface) = e.finish();
        m.recycle();
        let r = out(scan.version, words, &mut interface, reads);
        emit::keep_interface(interface);
        Ok(r)
    })
}

/// The words and the named interface, as a [`Translation`] (for [`run`]; the
/// interface is moved out, an empty one left in its place).
pub(crate) fn translation(
    v: d3dbc::Version,
    words: Vec<u32>,
    interface: &mut Interface,
    _: Vec<LinkRead>,
) -> Translation {
    let mut interface = std::mem::replace(interface, Interface::unnamed(v));
    interface.name(v);
    Translation { words, interface }
}

/// The words alone (for [`run`]).
fn words(_: d3dbc::Version, words: Vec<u32>, _: &mut Interface, _: Vec<LinkRead>) -> Vec<u32> {
    words
}

/// The words every module starts with: the header (the bound patched last) and
/// `OpCapability Shader`.
const HEAD: [u32; 7] = [
    spirv::MAGIC_NUMBER,
    0x0001_0000,
    0,
    0,
    0,
    (2 << 16) | Op::Capability as u32,
    Capability::Shader as u32,
];

/// `OpExtInstImport %glsl "GLSL.std.450"` (the id patched in) and `OpMemoryModel
/// Logical GLSL450`, after the capabilities.
const IMPORT: [u32; 9] = [
    (6 << 16) | Op::ExtInstImport as u32,
    0,
    u32::from_le_bytes(*b"GLSL"),
    u32::from_le_bytes(*b".std"),
    u32::from_le_bytes(*b".450"),
    0,
    (3 << 16) | Op::MemoryModel as u32,
    0, // Logical
    1, // GLSL450
];

/// Puts the sections together behind the header, the bound patched last. The fixed
/// words (header, capabilities, the import, the memory model, the entry point's name)
/// are copied from constants and patched, not written instruction by instruction.
fn assemble(e: &mut emit::Emitter<'_>, ps: bool) -> Vec<u32> {
    let m = &e.m;
    let total = HEAD.len()
        + 4
        + IMPORT.len()
        + 5
        + e.io_vars.len()
        + 6
        + m.dec.len()
        + m.glob.len()
        + m.funcs.len()
        + m.body.len()
        + 1;
    let mut w = Vec::with_capacity(total);
    w.extend_from_slice(&HEAD);
    if e.clip {
        inst(&mut w, Op::Capability, &[Capability::ClipDistance as u32]);
    }
    if e.derivatives {
        inst(
            &mut w,
            Op::Capability,
            &[Capability::DerivativeControl as u32],
        );
    }
    let at = w.len();
    w.extend_from_slice(&IMPORT);
    w[at + 1] = m.glsl;
    // OpEntryPoint model %main "main" io_vars…
    let model = if ps {
        ExecutionModel::Fragment
    } else {
        ExecutionModel::Vertex
    };
    let n = 5 + e.io_vars.len() as u32;
    w.extend_from_slice(&[
        (n << 16) | Op::EntryPoint as u32,
        model as u32,
        e.main_fn,
        u32::from_le_bytes(*b"main"),
        0,
    ]);
    w.extend_from_slice(&e.io_vars);
    if ps {
        inst(
            &mut w,
            Op::ExecutionMode,
            &[e.main_fn, ExecutionMode::OriginUpperLeft as u32],
        );
        if e.itf.depth_output {
            inst(
                &mut w,
                Op::ExecutionMode,
                &[e.main_fn, ExecutionMode::DepthReplacing as u32],
            );
        }
    }
    w.extend_from_slice(&m.dec);
    w.extend_from_slice(&m.glob);
    w.extend_from_slice(&m.funcs);
    w.extend_from_slice(&m.body);
    inst(&mut w, Op::FunctionEnd, &[]);
    w[3] = m.bound();
    w
}

/// Emits `shader` as SPIR-V words for Vulkan (y flipped into Vulkan's clip space, like
/// the naga path's `spirv()`).
pub fn emit(shader: &Shader, options: &TranslateOptions) -> Result<Vec<u32>, Error> {
    let flags = EmitFlags::default();
    run(Input::Shader(shader), options, flags, None, false, words)
}

/// Emits `shader` with its interface, y flipped for Vulkan.
pub fn translate(shader: &Shader, options: &TranslateOptions) -> Result<Translation, Error> {
    translate_with(shader, options, EmitFlags::default())
}

/// Emits `shader` with its interface under `flags`.
pub fn translate_with(
    shader: &Shader,
    options: &TranslateOptions,
    flags: EmitFlags,
) -> Result<Translation, Error> {
    run(
        Input::Shader(shader),
        options,
        flags,
        None,
        false,
        translation,
    )
}

/// [`emit`] under `flags`: the words alone (no interface named or handed out).
pub fn emit_with(
    shader: &Shader,
    options: &TranslateOptions,
    flags: EmitFlags,
) -> Result<Vec<u32>, Error> {
    run(Input::Shader(shader), options, flags, None, false, words)
}

/// [`emit`] from a token stream (the version token first; DWORDs after the end token
/// are ignored), decoded straight into the translator's pre-pass: the result is
/// `emit(&Shader::decode(tokens)?, options)`'s without building the [`Shader`] (a
/// stream that does not decode is [`Error::Decode`]).
///
/// ```
/// let tokens = [0xFFFF0200, 0x0200001F, 0x80000000, 0xB00F0000,
///               0x02000001, 0x800F0800, 0xB0E40000, 0x0000FFFF];
/// let shader = d3dbc::Shader::decode(&tokens).unwrap();
/// let words = d3dbc_spirv::emit_tokens(&tokens, &Default::default()).unwrap();
/// assert_eq!(words, d3dbc_spirv::emit(&shader, &Default::default()).unwrap());
/// ```
pub fn emit_tokens(tokens: &[u32], options: &TranslateOptions) -> Result<Vec<u32>, Error> {
    let flags = EmitFlags::default();
    run(Input::Tokens(tokens), options, flags, None, false, words)
}

/// [`translate`] from a token stream, as [`emit_tokens`].
pub fn translate_tokens(tokens: &[u32], options: &TranslateOptions) -> Result<Translation, Error> {
    let flags = EmitFlags::default();
    run(
        Input::Tokens(tokens),
        options,
        flags,
        None,
        false,
        translation,
    )
}
