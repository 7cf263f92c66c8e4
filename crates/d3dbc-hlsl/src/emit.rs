//! The body: every instruction as an HLSL statement over variables named after the
//! registers (`r0`, `i.texcoord0`, `o.color0`, the constant table's names), flow
//! control as `if`/`for`/`break`, subroutines as functions, and the D3D9 rules HLSL does
//! not spell written out (see the crate documentation).

use std::collections::{BTreeMap, BTreeSet};

use d3dbc::analysis::Analysis;
use d3dbc::ir::{DstParam, Instruction, SrcParam};
use d3dbc::opcode::{Opcode, Reads};
use d3dbc::token::{Comparison, DeclUsage, RegisterType, SamplerType, SrcModifier};
use d3dbc::{Shader, Version};

use crate::interface::{field_name, sel_text, semantic, ConstReads, Field, Part, Sel, Uniforms};
use crate::text::{self, construct, float_type, letters, literal_vector, mask_comps, Expr, Prec};
use crate::Error;

/// Helper functions the output may need, written once each above `main`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Helper {
    /// `mova`: round half away from zero.
    Mova,
    /// `lit`.
    Lit,
    /// vs_1_x `logp`.
    LogP,
    /// ps_1_x arithmetic range.
    Ps1Range,
    /// `sin` for shader model 3 targets.
    Sin,
}

impl Helper {
    fn text(self, max: f32) -> String {
        match self {
            Helper::Mova => "// mova: D3D9 rounds to the nearest integer, halves away from zero\n\
                 float d3d_round(float x)\n{\n    return sign(x) * floor(abs(x) + 0.5);\n}\n\n\
                 float4 d3d_round(float4 x)\n{\n    return sign(x) * floor(abs(x) + 0.5);\n}\n"
                .into(),
            Helper::Lit => {
                "// lit: D3D9's lighting coefficients (the power clamped to +-127.9961)\n\
                 float4 d3d_lit(float4 s)\n{\n    float p = clamp(s.w, -127.9961, 127.9961);\n    \
                 float spec = (s.x > 0 && s.y > 0) ? exp2(p * log2(s.y)) : 0;\n    \
                 return float4(1, s.x > 0 ? s.x : 0, spec, 1);\n}\n"
                    .into()
            }
            Helper::LogP => "// logp (vs_1_x): exponent, mantissa and log2 of |x|\n\
                 float4 d3d_logp(float x)\n{\n    float a = abs(x);\n    float l = log2(a);\n    \
                 float e = floor(l);\n    return float4(e, a / exp2(e), l, 1);\n}\n"
                .into(),
            Helper::Ps1Range => {
                let m = text::float(max);
                let mut t = format!("// ps_1_x arithmetic: every result is held in [-{m}, {m}]\n");
                for ty in ["float", "float2", "float3", "float4"] {
                    t.push_str(&format!(
                        "{ty} ps1x({ty} x)\n{{\n    return clamp(x, -{m}, {m});\n}}\n"
                    ));
                }
                t
            }
            Helper::Sin => {
                "// sin: vkd3d-compiler 1.17 writes sin() in shader model 3 with an empty\n\
                 // write mask; cos(x - pi/2) is the same value\n\
                 float d3d_sin(float x)\n{\n    return cos(x - 1.57079637);\n}\n"
                    .into()
            }
        }
    }
}

/// One variable a register becomes.
pub(crate) struct Emitter {
    pub v: Version,
    pub a: Analysis,
    pub u: Uniforms,
    pub inputs: Vec<Field>,
    pub outputs: Vec<Field>,
    pub helpers: BTreeSet<Helper>,
    pub body: String,
    pub subs: String,
    indent: usize,
    /// Temporaries used, and those read before a certain write (zero-initialised).
    pub temps: BTreeSet<u16>,
    pub temps_init: BTreeSet<u16>,
    pub uses_a0: bool,
    pub uses_p0: bool,
    pub ps1: bool,
    /// ps_1_x texture registers kept as variables `t#`.
    pub ps1_t: BTreeSet<u16>,
    /// Loop counters open (innermost last): (`aL` variable or none).
    loops: Vec<Option<String>>,
    depth_counter: usize,
    in_sub: bool,
    /// Subroutines are functions over globals.
    pub globals: bool,
    /// A loop count is read at run time.
    pub dynamic_loops: bool,
    /// Write such loops with a constant bound of 255 and a `break`.
    pub bounded_loops: bool,
    /// ps_1_x `texm3x*`: the matrix rows (`m3`) and the eye vector (`e`).
    pub uses_m3: bool,
    pub uses_eye: bool,
    /// Instructions before this one were folded into an earlier statement.
    skip_to: usize,
    /// A register read through a copy (the second of a co-issued pair).
    alias: Option<(d3dbc::Register, String)>,
    /// Single-use temporaries folded into their reader: (reader, temporary) → writer.
    folds: BTreeMap<(usize, u16), usize>,
    /// Writers folded away (emitted inside their reader).
    folded: BTreeSet<usize>,
    /// [`Emitter::assign`] keeps the value instead of writing a statement.
    capturing: bool,
    captured: Option<Expr>,
}

impl Emitter {
    pub fn new(shader: &Shader) -> Result<Emitter, Error> {
        let a = Analysis::new(shader);
        if let Some((i, p)) = a.problem {
            let offset = a.offsets.get(i).copied().unwrap_or(0);
            return Err(Error::Structure {
                offset,
                why: p.why(),
            });
        }
        let v = shader.version;
        let ps1 = v.is_pixel() && v.major < 2;
        let globals = a.has_calls;
        Ok(Emitter {
            v,
            a,
            u: Uniforms::default(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            helpers: BTreeSet::new(),
            body: String::new(),
            subs: String::new(),
            indent: 1,
            temps: BTreeSet::new(),
            temps_init: BTreeSet::new(),
            uses_a0: false,
            uses_p0: false,
            ps1,
            ps1_t: BTreeSet::new(),
            loops: Vec::new(),
            depth_counter: 0,
            in_sub: false,
            globals,
            dynamic_loops: false,
            bounded_loops: false,
            uses_m3: false,
            uses_eye: false,
            skip_to: 0,
            alias: None,
            folds: BTreeMap::new(),
            folded: BTreeSet::new(),
            capturing: false,
            captured: None,
        })
    }

    /// Components of source `k` the instruction reads, as destination positions: the
    /// swizzle letters at these positions are what is read.
    pub fn src_positions(&self, ins: &Instruction, k: usize) -> Vec<u8> {
        let v = self.v;
        match ins.opcode.reads(k, v) {
            Reads::PerComponent => {
                let m = if ins.opcode.layout(v).dst {
                    ins.dst.mask
                } else {
                    0xF
                };
                mask_comps(m)
            }
            Reads::Components(m) => mask_comps(m),
            Reads::Scalar => vec![ins.opcode.scalar_component() as u8],
            Reads::NotValue => Vec::new(),
        }
    }

    /// The first pass: what the body reads from the constant files, which temporaries
    /// need a starting value, the interface structs.
    pub fn scan(&mut self) -> Result<ConstReads, Error> {
        let mut reads = ConstReads::default();
        let v = self.v;
        let mut written: BTreeMap<u16, u8> = BTreeMap::new();
        let mut depth = 0usize;
        let instructions = self.a.instructions.clone();
        // The aL range of each open loop whose count is the shader's own (`defi`).
        let mut al: Vec<Option<(i32, i32)>> = Vec::new();
        for (idx, ins) in instructions.iter().enumerate() {
            let op = ins.opcode;
            match op {
                Opcode::Loop => al.push(self.a.int_def(ins.srcs[1].reg.num).map(|d| {
                    let last = d[1] + d[2] * (d[0] - 1).max(0);
                    (d[1].min(last), d[1].max(last))
                })),
                Opcode::Rep => al.push(al.last().copied().flatten()),
                Opcode::EndLoop | Opcode::EndRep => {
                    al.pop();
                }
                _ => {}
            }
            for src in ins.src() {
                if let (Some(rel), Some(Some((lo, hi)))) = (src.rel, al.last()) {
                    if rel.reg.kind == RegisterType::Loop && is_const(src) {
                        let n = d3dbc::regs::float_constant_index(src.reg.kind, src.reg.num) as i32;
                        for x in [n + lo, n + hi] {
                            if (0..=u16::MAX as i32).contains(&x) {
                                reads.rel_extent.push(x as u16);
                            }
                        }
                    }
                }
            }
            match op.block() {
                d3dbc::opcode::Block::Open => depth += 1,
                d3dbc::opcode::Block::Close => depth = depth.saturating_sub(1),
                _ => {}
            }
            if op == Opcode::Label {
                depth += 1; // subroutine bodies never count as certain writes
            }
            if matches!(op, Opcode::Dcl | Opcode::Def | Opcode::DefI | Opcode::DefB) {
                continue;
            }
            let layout = op.layout(v);
            for k in 0..ins.src().len() {
                let s = ins.srcs[k];
                let pos = self.src_positions(ins, k);
                let comps: u8 = pos
                    .iter()
                    .map(|&p| 1u8 << ((s.swizzle >> (2 * p)) & 3))
                    .fold(0, |a, b| a | b);
                self.note_read(&s, comps, ins, k, &mut reads, &written);
                // Matrix instructions read the registers after their second operand.
                if let (1, Some(m)) = (k, op.matrix()) {
                    for r in 1..m.rows as u16 {
                        let mut next = s;
                        next.reg.num += r;
                        self.note_read(&next, comps, ins, k, &mut reads, &written);
                    }
                }
            }
            // ps_1_x sampling ops read their own stage's sampler; texkill reads its
            // destination register.
            if self.ps1 && (op.is_texld() || op.samples_dst_stage()) {
                reads
                    .samplers
                    .entry(ins.dst.reg.num)
                    .or_insert(SamplerType::Tex2D);
            }
            if let Some(p) = ins.predicate {
                let _ = p;
                self.uses_p0 = true;
            }
            if op == Opcode::TexKill {
                let r = ins.dst.reg;
                if r.kind == RegisterType::Temp {
                    self.temps.insert(r.num);
                    let m = if v.major < 2 { 0x7 } else { ins.dst.mask };
                    if written.get(&r.num).copied().unwrap_or(0) & m != m {
                        self.temps_init.insert(r.num);
                    }
                }
                if self.ps1 && r.kind == RegisterType::AddrOrTexture {
                    self.ps1_t.insert(r.num);
                }
                continue;
            }
            if layout.dst {
                let d = ins.dst;
                match d.reg.kind {
                    RegisterType::Temp => {
                        self.temps.insert(d.reg.num);
                        let partial_op = matches!(op, Opcode::SinCos) && v.major < 3;
                        if depth == 0 && ins.predicate.is_none() && !partial_op {
                            *written.entry(d.reg.num).or_default() |= d.mask;
                        }
                    }
                    RegisterType::AddrOrTexture if v.is_vertex() => self.uses_a0 = true,
                    RegisterType::AddrOrTexture if self.ps1 => {
                        self.ps1_t.insert(d.reg.num);
                    }
                    RegisterType::Predicate => self.uses_p0 = true,
                    _ => {}
                }
                if d.rel.is_some() {
                    return Err(self.unsupported(idx, "a relatively addressed destination (o[aL])"));
                }
            }
            if op == Opcode::SinCos && v.major < 3 {
                // sincos keeps the destination's other components.
                if ins.dst.reg.kind == RegisterType::Temp {
                    self.temps.insert(ins.dst.reg.num);
                }
            }
        }
        if self.ps1 && self.v.minor < 4 {
            // ps_1_0–1_3: t# registers used as sources read the coordinate they start
            // with.
        }
        Ok(reads)
    }

    fn note_read(
        &mut self,
        s: &SrcParam,
        comps: u8,
        _ins: &Instruction,
        _k: usize,
        reads: &mut ConstReads,
        written: &BTreeMap<u16, u8>,
    ) {
        let r = s.reg;
        match r.kind {
            RegisterType::Const
            | RegisterType::Const2
            | RegisterType::Const3
            | RegisterType::Const4 => {
                let n = d3dbc::regs::float_constant_index(r.kind, r.num) as u16;
                if s.rel.is_some() {
                    reads.rel.push(n);
                } else {
                    *reads.direct.entry(n).or_default() |= comps;
                }
            }
            RegisterType::ConstInt => reads.ints.push(r.num),
            RegisterType::ConstBool => reads.bools.push(r.num),
            RegisterType::Sampler => {
                reads.samplers.entry(r.num).or_insert(SamplerType::Tex2D);
            }
            RegisterType::Temp => {
                self.temps.insert(r.num);
                if written.get(&r.num).copied().unwrap_or(0) & comps != comps {
                    self.temps_init.insert(r.num);
                }
            }
            RegisterType::AddrOrTexture if self.ps1 => {
                self.ps1_t.insert(r.num);
            }
            RegisterType::Predicate => self.uses_p0 = true,
            _ => {}
        }
        if let Some(rel) = s.rel {
            if rel.reg.kind == RegisterType::AddrOrTexture {
                self.uses_a0 = true;
            }
        }
    }

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
                let var = d3dbc::analysis::Varying {
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

    fn unsupported(&self, idx: usize, what: &str) -> Error {
        Error::Unsupported {
            offset: self.a.offsets.get(idx).copied().unwrap_or(0),
            what: what.to_string(),
        }
    }

    fn line(&mut self, s: &str) {
        let out = if self.in_sub {
            &mut self.subs
        } else {
            &mut self.body
        };
        for _ in 0..self.indent {
            out.push_str("    ");
        }
        out.push_str(s);
        out.push('\n');
    }

    /// Writes every instruction.
    pub fn body(&mut self) -> Result<(), Error> {
        let main = self.a.main.clone();
        let subs = self.a.subs.clone();
        for i in main.clone() {
            self.instruction(i, i + 1 == main.end)?;
        }
        for (label, range) in subs {
            self.in_sub = true;
            self.indent = 0;
            self.line(&format!("void l{label}()"));
            self.line("{");
            self.indent = 1;
            let end = range.end;
            for i in range {
                self.instruction(i, i + 1 == end)?;
            }
            self.indent = 0;
            self.line("}");
            self.line("");
            self.in_sub = false;
            self.indent = 1;
        }
        Ok(())
    }

    fn instruction(&mut self, idx: usize, last: bool) -> Result<(), Error> {
        if idx < self.skip_to || self.folded.contains(&idx) {
            return Ok(());
        }
        if let Some((rows, form)) = self.dot_rows(idx) {
            // dp4 dst.x, v, M0 / dp4 dst.y, v, M1 / …: one product.
            let first = self.a.instructions[idx];
            let k = if first.opcode == Opcode::Dp4 { 4 } else { 3 };
            let v = self.src(&first.srcs[0], &(0..k).collect::<Vec<_>>(), idx)?;
            let ins = Instruction {
                dst: DstParam {
                    mask: (1u8 << rows) - 1,
                    ..first.dst
                },
                ..first
            };
            self.skip_to = idx + rows;
            let value = Expr::atom(form.replace("{v}", &v.text), rows as u8);
            return self.assign(&ins, value, idx);
        }
        let ins = self.a.instructions[idx];
        // A co-issued pair reads every source before either writes: when the second
        // reads what the first writes, it reads a copy taken before the pair.
        if let Some(next) = self.a.instructions.get(idx + 1).copied() {
            let d = ins.dst.reg;
            let writes = ins.opcode.layout(self.v).dst
                && matches!(d.kind, RegisterType::Temp | RegisterType::AddrOrTexture);
            if next.coissue && writes && next.src().iter().any(|s| s.reg == d) {
                let var = match d.kind {
                    RegisterType::Temp => format!("r{}", d.num),
                    _ => format!("t{}", d.num),
                };
                let copy = format!("{var}_pair");
                self.line("{");
                self.indent += 1;
                self.line(&format!(
                    "float4 {copy} = {var}; // the co-issued pair reads {var} before either writes"
                ));
                self.instruction_body(idx, last)?;
                self.alias = Some((d, copy));
                self.instruction_body(idx + 1, last)?;
                self.alias = None;
                self.skip_to = idx + 2;
                self.indent -= 1;
                self.line("}");
                return Ok(());
            }
        }
        self.instruction_body(idx, last)
    }

    fn instruction_body(&mut self, idx: usize, last: bool) -> Result<(), Error> {
        let ins = self.a.instructions[idx];
        let op = ins.opcode;
        let v = self.v;
        match op {
            Opcode::Dcl | Opcode::Def | Opcode::DefI | Opcode::DefB | Opcode::Nop => Ok(()),
            Opcode::Comment | Opcode::End | Opcode::Reserved0 => Ok(()),
            Opcode::Phase => {
                // ps_1_4: temporaries' alpha does not survive the phase boundary.
                let temps: Vec<u16> = self.temps.iter().copied().collect();
                self.line("// phase: temporaries' alpha is not kept");
                for t in temps {
                    self.line(&format!("r{t}.w = 0;"));
                }
                Ok(())
            }
            Opcode::Label => Ok(()),
            Opcode::Ret => {
                if !last {
                    if self.in_sub {
                        self.line("return;");
                    } else {
                        self.line(&self.return_stmt());
                    }
                }
                Ok(())
            }
            Opcode::If => {
                let c = self.condition(&ins.srcs[0], idx)?;
                self.line(&format!("if ({c})"));
                self.line("{");
                self.indent += 1;
                Ok(())
            }
            Opcode::IfC => {
                let c = self.compare(&ins, idx)?;
                self.line(&format!("if ({c})"));
                self.line("{");
                self.indent += 1;
                Ok(())
            }
            Opcode::Else => {
                self.indent = self.indent.saturating_sub(1);
                self.line("}");
                self.line("else");
                self.line("{");
                self.indent += 1;
                Ok(())
            }
            Opcode::EndIf | Opcode::EndLoop | Opcode::EndRep => {
                if matches!(op, Opcode::EndLoop | Opcode::EndRep) {
                    self.loops.pop();
                }
                self.indent = self.indent.saturating_sub(1);
                self.line("}");
                Ok(())
            }
            Opcode::Rep => {
                let (count, _, _, constant) = self.int_parts(&ins.srcs[0], idx)?;
                let k = self.counter();
                if constant {
                    self.line(&format!("for (int {k} = 0; {k} < {count}; {k}++)"));
                    self.line("{");
                    self.indent += 1;
                } else if !self.bounded_loops {
                    self.dynamic_loops = true;
                    self.line("[loop]");
                    self.line(&format!("for (int {k} = 0; {k} < {count}; {k}++)"));
                    self.line("{");
                    self.indent += 1;
                } else {
                    // A count read at run time: D3D9 runs at most 255 iterations.
                    self.dynamic_loops = true;
                    self.line(&format!(
                        "for (int {k} = 0; {k} < 255; {k}++) // rep {count}: D3D9 runs 0-255 iterations"
                    ));
                    self.line("{");
                    self.indent += 1;
                    self.line(&format!("if ({k} >= {count})"));
                    self.line("    break;");
                }
                self.loops.push(None);
                Ok(())
            }
            Opcode::Loop => {
                let (count, start, step, constant) = self.int_parts(&ins.srcs[1], idx)?;
                let k = self.counter();
                let al = if self.loops.iter().flatten().count() == 0 {
                    "aL".to_string()
                } else {
                    format!("aL{}", self.loops.iter().flatten().count())
                };
                if constant {
                    self.line(&format!(
                        "for (int {al} = {start}, {k} = 0; {k} < {count}; {k}++, {al} += {step})"
                    ));
                    self.line("{");
                    self.indent += 1;
                } else if !self.bounded_loops {
                    self.dynamic_loops = true;
                    self.line("[loop]");
                    self.line(&format!(
                        "for (int {al} = {start}, {k} = 0; {k} < {count}; {k}++, {al} += {step})"
                    ));
                    self.line("{");
                    self.indent += 1;
                } else {
                    self.dynamic_loops = true;
                    self.line(&format!(
                        "for (int {al} = {start}, {k} = 0; {k} < 255; {k}++, {al} += {step}) // loop: D3D9 runs 0-255 iterations"
                    ));
                    self.line("{");
                    self.indent += 1;
                    self.line(&format!("if ({k} >= {count})"));
                    self.line("    break;");
                }
                self.loops.push(Some(al));
                Ok(())
            }
            Opcode::Break => {
                self.line("break;");
                Ok(())
            }
            Opcode::BreakC => {
                let c = self.compare(&ins, idx)?;
                self.line(&format!("if ({c})"));
                self.line("    break;");
                Ok(())
            }
            Opcode::BreakP => {
                let c = self.condition(&ins.srcs[0], idx)?;
                self.line(&format!("if ({c})"));
                self.line("    break;");
                Ok(())
            }
            Opcode::Call => {
                self.line(&format!("l{}();", ins.srcs[0].reg.num));
                Ok(())
            }
            Opcode::CallNz => {
                let c = self.condition(&ins.srcs[1], idx)?;
                self.line(&format!("if ({c})"));
                self.line(&format!("    l{}();", ins.srcs[0].reg.num));
                Ok(())
            }
            Opcode::TexKill => {
                let mask = if v.major < 2 { 0x7 } else { ins.dst.mask };
                let comps = mask_comps(mask);
                let s = SrcParam {
                    reg: ins.dst.reg,
                    rel: None,
                    swizzle: d3dbc::ir::SWIZZLE_IDENTITY,
                    modifier: SrcModifier::None,
                };
                let e = self.src(&s, &comps, idx)?;
                self.line(&format!("clip({});", e.text));
                Ok(())
            }
            Opcode::TexDepth => {
                // ps_1_4: depth = r5.r / r5.g (1 where r5.g is 0).
                self.temps.insert(5);
                self.line("o.depth = r5.y == 0 ? 1 : r5.x / r5.y;");
                Ok(())
            }
            _ => self.compute(idx, &ins),
        }
    }

    /// The value instruction `a` computes for its destination components `want` (in
    /// that order, repeats allowed), its modifiers applied: what a folded temporary
    /// holds.
    fn value_at(&mut self, a: usize, want: &[u8]) -> Result<Expr, Error> {
        let ins = self.a.instructions[a];
        let mask = want.iter().fold(0u8, |m, &c| m | (1 << c));
        let sub = Instruction {
            dst: DstParam { mask, ..ins.dst },
            ..ins
        };
        let (was, saved) = (self.capturing, self.captured.take());
        self.capturing = true;
        let r = self.compute(a, &sub);
        self.capturing = was;
        let v = std::mem::replace(&mut self.captured, saved);
        r?;
        let v = v.ok_or_else(|| self.unsupported(a, "a folded value"))?;
        let distinct = mask_comps(mask);
        if v.width == 1 {
            return Ok(v.splat(want.len() as u8));
        }
        let pos: Vec<u8> = want
            .iter()
            .map(|c| distinct.iter().position(|d| d == c).unwrap_or(0) as u8)
            .collect();
        if pos.iter().enumerate().all(|(i, &p)| p as usize == i) && pos.len() == distinct.len() {
            Ok(v)
        } else {
            Ok(select(v, &pos))
        }
    }

    /// Finds the temporaries written once and read once right after, with nothing in
    /// between that changes what the writer reads: the reader gets the expression.
    pub fn plan_folds(&mut self) {
        if self.ps1 {
            return;
        }
        let ins = self.a.instructions.clone();
        let n = ins.len();
        let barrier = |op: Opcode| {
            !matches!(op.block(), d3dbc::opcode::Block::None)
                || matches!(
                    op,
                    Opcode::Break
                        | Opcode::BreakC
                        | Opcode::BreakP
                        | Opcode::Call
                        | Opcode::CallNz
                        | Opcode::Ret
                        | Opcode::Label
                        | Opcode::Phase
                )
        };
        let foldable = |op: Opcode| {
            matches!(
                op,
                Opcode::Mov
                    | Opcode::Add
                    | Opcode::Sub
                    | Opcode::Mul
                    | Opcode::Mad
                    | Opcode::Min
                    | Opcode::Max
                    | Opcode::Frc
                    | Opcode::Abs
                    | Opcode::Dp3
                    | Opcode::Dp4
                    | Opcode::Dp2Add
                    | Opcode::Rcp
                    | Opcode::Rsq
                    | Opcode::Exp
                    | Opcode::Log
                    | Opcode::Pow
                    | Opcode::Lrp
                    | Opcode::Cmp
                    | Opcode::Slt
                    | Opcode::Sge
                    | Opcode::Nrm
                    | Opcode::Crs
                    | Opcode::Tex
                    | Opcode::TexLdl
                    | Opcode::TexLdd
                    | Opcode::M4x4
                    | Opcode::M4x3
                    | Opcode::M3x4
                    | Opcode::M3x3
                    | Opcode::M3x2
            )
        };
        // The components of temporary `x` instruction `i` reads.
        let reads = |e: &Self, i: &Instruction, x: u16| -> u8 {
            let mut m = 0u8;
            for (k, s) in i.src().iter().enumerate() {
                if s.reg.kind == RegisterType::Temp && s.reg.num == x {
                    for p in e.src_positions(i, k) {
                        m |= 1 << ((s.swizzle >> (2 * p)) & 3);
                    }
                    if let (1, Some(mx)) = (k, i.opcode.matrix()) {
                        let _ = mx;
                    }
                }
                // Matrix instructions read the registers after their second operand.
                if let (1, Some(mx)) = (k, i.opcode.matrix()) {
                    if s.reg.kind == RegisterType::Temp
                        && s.reg.num < x
                        && x < s.reg.num + mx.rows as u16
                    {
                        m |= 0xF;
                    }
                }
            }
            if i.opcode == Opcode::TexKill
                && i.dst.reg == d3dbc::Register::new(RegisterType::Temp, x)
            {
                m |= 0xF;
            }
            if let Some(p) = i.predicate {
                let _ = p;
            }
            m
        };
        let writes_temp = |i: &Instruction, x: u16| -> u8 {
            if i.opcode.layout(self.v).dst
                && i.opcode != Opcode::TexKill
                && i.dst.reg == d3dbc::Register::new(RegisterType::Temp, x)
                && i.predicate.is_none()
                && i.dst.rel.is_none()
            {
                i.dst.mask
            } else {
                0
            }
        };
        let mut in_dot_rows = vec![false; n];
        for i in 0..n {
            if let Some((rows, _)) = self.dot_rows(i) {
                for f in in_dot_rows.iter_mut().skip(i).take(rows) {
                    *f = true;
                }
            }
        }
        let mut all_sources: BTreeMap<usize, Vec<d3dbc::Register>> = BTreeMap::new();
        for a in 0..n {
            let w = ins[a];
            let x = w.dst.reg.num;
            let pair = w.coissue || ins.get(a + 1).is_some_and(|i| i.coissue);
            if !foldable(w.opcode)
                || w.dst.reg.kind != RegisterType::Temp
                || w.dst.rel.is_some()
                || w.predicate.is_some()
                || pair
                || in_dot_rows[a]
                || !(self.a.main.contains(&a))
            {
                continue;
            }
            let m = w.dst.mask;
            // What the writer reads.
            let mut sources: Vec<d3dbc::Register> = w.src().iter().map(|s| s.reg).collect();
            for s in w.src() {
                if let Some(rel) = s.rel {
                    sources.push(rel.reg);
                }
            }
            if let Some(mx) = w.opcode.matrix() {
                for r in 1..mx.rows as u16 {
                    let mut reg = w.srcs[1].reg;
                    reg.num += r;
                    sources.push(reg);
                }
            }
            // A writer that already holds folded values reads what they read, too.
            for (&(reader, _), writer) in &self.folds {
                if reader == a {
                    sources.extend(all_sources.get(writer).cloned().unwrap_or_default());
                }
            }
            all_sources.insert(a, sources.clone());
            // The reader: the next instruction that touches the temporary.
            let mut reader = None;
            for (j, i) in ins.iter().enumerate().skip(a + 1) {
                if barrier(i.opcode) {
                    break;
                }
                if reads(self, i, x) != 0 {
                    reader = Some(j);
                    break;
                }
                let d = i.dst.reg;
                let writes_any = i.opcode.layout(self.v).dst;
                if writes_any && (sources.contains(&d) || d == w.dst.reg) {
                    break;
                }
                if writes_any
                    && d.kind == RegisterType::AddrOrTexture
                    && sources
                        .iter()
                        .any(|r| r.kind == RegisterType::AddrOrTexture)
                {
                    break;
                }
            }
            let Some(j) = reader else { continue };
            let b = ins[j];
            let once = b.src().iter().filter(|s| s.reg == w.dst.reg).count() == 1;
            let b_pair = b.coissue || ins.get(j + 1).is_some_and(|i| i.coissue);
            if !once
                || b_pair
                || b.opcode == Opcode::TexKill
                || reads(self, &b, x) & !m != 0
                || b.opcode
                    .matrix()
                    .is_some_and(|_| b.srcs[1].reg == w.dst.reg)
                || self.folds.keys().filter(|k| k.0 == j).count() >= 2
            {
                continue;
            }
            // Dead after the reader: rewritten before any later read.
            let mut pending = m & !writes_temp(&b, x);
            let mut dead = pending == 0;
            if !dead {
                dead = true;
                for i in ins.iter().skip(j + 1) {
                    if barrier(i.opcode) {
                        dead = !ins[j + 1..].iter().any(|k| reads(self, k, x) != 0);
                        break;
                    }
                    if reads(self, i, x) & pending != 0 {
                        dead = false;
                        break;
                    }
                    pending &= !writes_temp(i, x);
                    if pending == 0 {
                        break;
                    }
                }
            }
            if dead {
                self.folds.insert((j, x), a);
                self.folded.insert(a);
            }
        }
    }

    fn return_stmt(&self) -> String {
        "return o;".to_string()
    }

    fn counter(&mut self) -> String {
        let k = format!("k{}", self.depth_counter);
        self.depth_counter += 1;
        k
    }

    /// `count`, `start`, `step` of an integer constant (`rep`/`loop` operand), and
    /// whether they are the shader's own (`defi`).
    fn int_parts(
        &mut self,
        s: &SrcParam,
        idx: usize,
    ) -> Result<(String, String, String, bool), Error> {
        let n = s.reg.num;
        if let Some(d) = self.a.int_def(n) {
            return Ok((d[0].to_string(), d[1].to_string(), d[2].to_string(), true));
        }
        let Some(name) = self.u.ints.get(&n).cloned() else {
            return Err(self.unsupported(idx, "an integer constant without a declaration"));
        };
        Ok((
            format!("{name}.x"),
            format!("{name}.y"),
            format!("{name}.z"),
            false,
        ))
    }

    /// A boolean condition: `b#`, `p0.x`, `!p0.x`.
    fn condition(&mut self, s: &SrcParam, idx: usize) -> Result<String, Error> {
        match s.reg.kind {
            RegisterType::ConstBool => {
                if let Some(b) = self.a.bool_def(s.reg.num) {
                    return Ok(if b { "true".into() } else { "false".into() });
                }
                self.u
                    .bools
                    .get(&s.reg.num)
                    .cloned()
                    .ok_or_else(|| self.unsupported(idx, "an undeclared boolean constant"))
            }
            RegisterType::Predicate => {
                let c = s.swizzle & 3;
                let not = if s.modifier == SrcModifier::Not {
                    "!"
                } else {
                    ""
                };
                Ok(format!("{not}p0.{}", text::XYZW[c as usize]))
            }
            _ => Err(self.unsupported(idx, "a condition register")),
        }
    }

    /// `a.x < b.x` of `ifc`/`breakc`.
    fn compare(&mut self, ins: &Instruction, idx: usize) -> Result<String, Error> {
        let a = self.src(&ins.srcs[0], &[0], idx)?;
        let b = self.src(&ins.srcs[1], &[0], idx)?;
        let op = comparison(ins.comparison());
        Ok(format!("{} {op} {}", a.at(Prec::Add), b.at(Prec::Add)))
    }

    // ---- sources -------------------------------------------------------------------

    /// Source `s` at destination positions `pos`: each position reads the swizzle's
    /// letter there. Modifiers applied.
    pub fn src(&mut self, s: &SrcParam, pos: &[u8], idx: usize) -> Result<Expr, Error> {
        let comps: Vec<u8> = pos.iter().map(|&p| (s.swizzle >> (2 * p)) & 3).collect();
        if s.reg.kind == RegisterType::Temp && s.rel.is_none() {
            if let Some(&a) = self.folds.get(&(idx, s.reg.num)) {
                let e = self.value_at(a, &comps)?;
                return Ok(apply_modifier(e, s.modifier, false));
            }
        }
        // Literals (def) fold their modifier.
        if let Some(vals) = self.literal(s) {
            let mut out: Vec<f32> = comps
                .iter()
                .map(|&c| modifier_value(s.modifier, vals[c as usize]))
                .collect();
            if self.ps1 {
                for x in out.iter_mut() {
                    *x = x.clamp(-1.0, 1.0);
                }
                // ps_1_x reads def constants clamped too (the modifier comes after).
                out = comps
                    .iter()
                    .map(|&c| modifier_value(s.modifier, vals[c as usize].clamp(-1.0, 1.0)))
                    .collect();
            }
            if out.iter().any(|x| x.is_nan()) {
                return Err(self.unsupported(idx, "a NaN def constant (no HLSL literal spells it)"));
            }
            if out.len() > 1 && out.iter().all(|x| x.to_bits() == out[0].to_bits()) {
                let e = literal_vector(&out[..1]);
                return Ok(Expr { width: 1, ..e }.splat(out.len() as u8));
            }
            return Ok(literal_vector(&out));
        }
        let mut parts = Vec::with_capacity(comps.len());
        for &c in &comps {
            parts.push(self.part(s, c, idx)?);
        }
        let mut e = group(parts);
        if self.ps1 && is_const(s) {
            // ps_1_x reads float constants clamped to [-1, 1].
            e = Expr::atom(format!("clamp({}, -1, 1)", e.text), e.width);
        }
        Ok(apply_modifier(e, s.modifier, false))
    }

    /// The `def` values of a constant source, when it is one (not relatively addressed).
    fn literal(&self, s: &SrcParam) -> Option<[f32; 4]> {
        if s.rel.is_some() {
            return None;
        }
        match s.reg.kind {
            RegisterType::Const
            | RegisterType::Const2
            | RegisterType::Const3
            | RegisterType::Const4 => {
                let n = d3dbc::regs::float_constant_index(s.reg.kind, s.reg.num) as u16;
                self.a.float_def(n).map(|d| d.map(f32::from_bits))
            }
            _ => None,
        }
    }

    /// Component `c` of the register a source names.
    fn part(&mut self, s: &SrcParam, c: u8, idx: usize) -> Result<Part, Error> {
        let r = s.reg;
        let vec4 = |base: String| Part {
            base,
            base_width: 4,
            sel: Sel::Comp(c),
        };
        let prefix = if self.globals { "g_" } else { "" };
        let _ = prefix;
        Ok(match r.kind {
            _ if self.alias.as_ref().is_some_and(|a| a.0 == r) => vec4(
                self.alias
                    .as_ref()
                    .map_or_else(String::new, |a| a.1.clone()),
            ),
            RegisterType::Temp => {
                if s.rel.is_some() {
                    return Err(self.unsupported(idx, "a relatively addressed temporary"));
                }
                vec4(format!("r{}", r.num))
            }
            RegisterType::Input if s.rel.is_some() => {
                // v[aL + n], v[a0.x + n]: the declared input at that register, else 0.
                let rel = s.rel.unwrap_or(d3dbc::ir::RelAddr::A0_X);
                let index = self.rel_index(rel);
                let index = if r.num == 0 {
                    index
                } else {
                    format!("{index} + {}", r.num)
                };
                let mut chain = String::from("(float4)0");
                let mut regs: Vec<(u16, String)> = self
                    .inputs
                    .iter()
                    .filter(|f| f.reg.0 == RegisterType::Input && f.width == 4)
                    .map(|f| (f.reg.1, format!("i.{}", f.name)))
                    .collect();
                regs.dedup_by_key(|x| x.0);
                for (n, f) in regs.iter().rev() {
                    chain = format!("{index} == {n} ? {f} : {chain}");
                }
                vec4(format!("({chain})"))
            }
            RegisterType::Input | RegisterType::MiscType => {
                self.input_part(r.kind, r.num, c, idx)?
            }
            RegisterType::AddrOrTexture if self.v.is_pixel() => {
                if self.ps1 && self.v.minor < 4 {
                    vec4(format!("t{}", r.num))
                } else {
                    self.input_part(r.kind, r.num, c, idx)?
                }
            }
            RegisterType::Const
            | RegisterType::Const2
            | RegisterType::Const3
            | RegisterType::Const4 => {
                let n = d3dbc::regs::float_constant_index(r.kind, r.num) as u16;
                if let Some(rel) = s.rel {
                    let arr = self.u.rel_array(n).cloned().ok_or_else(|| {
                        self.unsupported(idx, "a relative read outside every array")
                    })?;
                    let off = n as i32 - arr.base as i32;
                    let index = self.rel_index(rel);
                    let index = match off {
                        0 => index,
                        o if o > 0 => format!("{index} + {o}"),
                        o => format!("{index} - {}", -o),
                    };
                    vec4(format!("{}[{index}]", arr.name))
                } else {
                    match self.u.float_part(n, c) {
                        Some(p) => p,
                        None => return Err(self.unsupported(idx, "an undeclared float constant")),
                    }
                }
            }
            RegisterType::Predicate => vec4("p0".into()),
            RegisterType::AttrOut
            | RegisterType::Output
            | RegisterType::RastOut
            | RegisterType::ColorOut => {
                let f = self
                    .outputs
                    .iter()
                    .find(|f| f.reg == (r.kind, r.num) && f.mask & (1 << c) != 0)
                    .or_else(|| self.outputs.iter().find(|f| f.reg == (r.kind, r.num)))
                    .ok_or_else(|| {
                        self.unsupported(idx, "reading an output that is never written")
                    })?;
                Part {
                    base: format!("o.{}", f.name),
                    base_width: f.width,
                    sel: Sel::Comp(c),
                }
            }
            _ => return Err(self.unsupported(idx, "this source register")),
        })
    }

    /// The index a relative operand adds: the innermost loop's `aL`, or `a0.x`…
    fn rel_index(&self, rel: d3dbc::ir::RelAddr) -> String {
        match rel.reg.kind {
            RegisterType::Loop => self
                .loops
                .iter()
                .rev()
                .flatten()
                .next()
                .cloned()
                .unwrap_or_else(|| "aL".into()),
            _ => format!("a0.{}", text::XYZW[rel.component() as usize]),
        }
    }

    fn input_part(&self, kind: RegisterType, num: u16, c: u8, idx: usize) -> Result<Part, Error> {
        let f = self
            .inputs
            .iter()
            .find(|f| f.reg == (kind, num) && f.mask & (1 << c) != 0)
            .or_else(|| self.inputs.iter().find(|f| f.reg == (kind, num)))
            .ok_or_else(|| self.unsupported(idx, "an undeclared input register"))?;
        let c = if f.width == 1 { 0 } else { c.min(f.width - 1) };
        Ok(Part {
            base: format!("i.{}", f.name),
            base_width: f.width,
            sel: Sel::Comp(c),
        })
    }

    // ---- destinations --------------------------------------------------------------

    /// The statement writing `value` (of the mask's width, or a scalar) to `ins`'s
    /// destination, with its modifiers, predicate and the ps_1_x range.
    fn assign(&mut self, ins: &Instruction, value: Expr, idx: usize) -> Result<(), Error> {
        let d = ins.dst;
        let comps = mask_comps(d.mask);
        let mut value = value;
        let shift = d.shift_value();
        if shift != 0 {
            let f = if shift > 0 {
                (1u32 << shift) as f32
            } else {
                1.0 / (1u32 << (-shift)) as f32
            };
            value = Expr::new(
                format!("{} * {}", value.at(Prec::Mul), text::float(f)),
                Prec::Mul,
                value.width,
            );
        }
        if d.saturate() {
            value = Expr::atom(format!("saturate({})", value.text), value.width);
        }
        if self.ps1 {
            self.helpers.insert(Helper::Ps1Range);
            value = Expr::atom(format!("ps1x({})", value.text), value.width);
        }
        if self.capturing {
            // A folded instruction: its value goes into the expression that reads it.
            self.captured = Some(value);
            return Ok(());
        }
        let target = self.dst_target(&d, &comps, idx)?;
        if let Some(p) = ins.predicate {
            let pc: Vec<u8> = comps.iter().map(|&c| (p.swizzle >> (2 * c)) & 3).collect();
            let not = if p.modifier == SrcModifier::Not {
                "!"
            } else {
                ""
            };
            if pc.iter().all(|&x| x == pc[0]) {
                self.line(&format!("if ({not}p0.{})", text::XYZW[pc[0] as usize]));
                self.indent += 1;
                self.write_target(&target, value);
                self.indent -= 1;
            } else {
                let n = comps.len() as u8;
                let cond = format!("{not}p0.{}", letters(&pc));
                let val = value.splat(n);
                let old = target.read_back();
                let sel = Expr::new(
                    format!("{cond} ? {} : {old}", val.at(Prec::Compare)),
                    Prec::Select,
                    n,
                );
                self.write_target(&target, sel);
            }
            return Ok(());
        }
        self.write_target(&target, value);
        Ok(())
    }

    fn write_target(&mut self, t: &Target, value: Expr) {
        match t {
            Target::One(lv) => self.line(&format!("{lv} = {};", value.text)),
            Target::Scalar(lv) => {
                let v = match scalar_of(&value, value.width) {
                    Some(s) => s.text,
                    None if value.width > 1 => format!("({}).x", value.text),
                    None => value.text,
                };
                self.line(&format!("{lv} = {v};"))
            }
            Target::Split(pieces, comps) => {
                // Write through a temporary when the mask spans several fields.
                let w = comps.len() as u8;
                let val = value.splat(w);
                self.line("{");
                self.indent += 1;
                self.line(&format!("{} v = {};", float_type(w), val.text));
                for (lv, cs) in pieces {
                    let sel: Vec<u8> = cs
                        .iter()
                        .map(|c| comps.iter().position(|x| x == c).unwrap_or(0) as u8)
                        .collect();
                    let sel = if w == 1 {
                        String::new()
                    } else {
                        format!(".{}", letters(&sel))
                    };
                    self.line(&format!("{lv} = v{sel};"));
                }
                self.indent -= 1;
                self.line("}");
            }
        }
    }

    fn dst_target(&mut self, d: &DstParam, comps: &[u8], idx: usize) -> Result<Target, Error> {
        let r = d.reg;
        let full = comps.len() == 4;
        let simple = |base: String| {
            if full {
                Target::One(base)
            } else {
                Target::One(format!("{base}.{}", letters(comps)))
            }
        };
        Ok(match r.kind {
            RegisterType::Temp => simple(format!("r{}", r.num)),
            RegisterType::AddrOrTexture if self.v.is_vertex() => simple("a0".into()),
            RegisterType::AddrOrTexture if self.ps1 => simple(format!("t{}", r.num)),
            RegisterType::Predicate => simple("p0".into()),
            RegisterType::AttrOut
            | RegisterType::Output
            | RegisterType::RastOut
            | RegisterType::ColorOut
            | RegisterType::DepthOut => {
                // Every field declared on the register that covers a written component
                // (one register may carry several semantics).
                let fields: Vec<&Field> = self
                    .outputs
                    .iter()
                    .filter(|f| f.reg == (r.kind, r.num))
                    .collect();
                if fields.is_empty() {
                    return Err(self.unsupported(idx, "an output without a declaration"));
                }
                let mut pieces: Vec<(String, Vec<u8>)> = Vec::new();
                for f in &fields {
                    let base = format!("o.{}", f.name);
                    let cs: Vec<u8> = if f.width == 1 {
                        // A scalar field takes x (or the first component written).
                        comps.iter().copied().take(1).collect()
                    } else {
                        comps
                            .iter()
                            .copied()
                            .filter(|&c| f.mask & (1 << c) != 0 || fields.len() == 1)
                            .collect()
                    };
                    if cs.is_empty() {
                        continue;
                    }
                    let lv = if f.width == 1 || cs.len() == 4 {
                        base
                    } else {
                        format!("{base}.{}", letters(&cs))
                    };
                    pieces.push((lv, cs));
                }
                let scalar_field = |lv: &str| {
                    self.outputs
                        .iter()
                        .any(|f| f.width == 1 && format!("o.{}", f.name) == lv)
                };
                match pieces.len() {
                    0 => {
                        return Err(
                            self.unsupported(idx, "an output component without a declaration")
                        )
                    }
                    1 if comps.len() > 1 && scalar_field(&pieces[0].0) => {
                        Target::Scalar(pieces[0].0.clone())
                    }
                    1 if pieces[0].1.len() == comps.len() => Target::One(pieces[0].0.clone()),
                    _ => Target::Split(pieces, comps.to_vec()),
                }
            }
            _ => return Err(self.unsupported(idx, "this destination register")),
        })
    }

    // ---- instructions ---------------------------------------------------------------

    fn compute(&mut self, idx: usize, ins: &Instruction) -> Result<(), Error> {
        let op = ins.opcode;
        let v = self.v;
        let comps = mask_comps(ins.dst.mask);
        let n = comps.len() as u8;
        let s = |e: &mut Self, k: usize| -> Result<Expr, Error> {
            let pos = e.src_positions(ins, k);
            e.src(&ins.srcs[k], &pos, idx)
        };
        let value: Expr = match op {
            // vs_1_x `mov a0.x, …` floors.
            Opcode::Mov if v.is_vertex() && ins.dst.reg.kind == RegisterType::AddrOrTexture => {
                let x = s(self, 0)?;
                Expr::atom(format!("floor({})", x.text), x.width)
            }
            Opcode::Mov => s(self, 0)?,
            Opcode::Mova => {
                let x = s(self, 0)?;
                if v.major < 2 {
                    Expr::atom(format!("floor({})", x.text), n)
                } else {
                    self.helpers.insert(Helper::Mova);
                    match x.width {
                        1 | 4 => Expr::atom(format!("d3d_round({})", x.text), x.width),
                        w => {
                            let pad = vec!["0"; 4 - w as usize].join(", ");
                            let sel = letters(&(0..w).collect::<Vec<_>>());
                            Expr::atom(format!("d3d_round(float4({}, {pad})).{sel}", x.text), w)
                        }
                    }
                }
            }
            Opcode::Add => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                // `-a + b` reads better as `b - a` (the same IEEE sum).
                let neg = |e: &Expr| {
                    (e.prec == Prec::Unary)
                        .then(|| e.text.strip_prefix('-'))
                        .flatten()
                        .map(|rest| Expr::new(rest, Prec::Unary, e.width))
                };
                match (neg(&a), neg(&b)) {
                    (Some(rest), None) => binary(b, "-", rest, Prec::Add),
                    (None, Some(rest)) => binary(a, "-", rest, Prec::Add),
                    _ => binary(a, "+", b, Prec::Add),
                }
            }
            Opcode::Sub => binary(s(self, 0)?, "-", s(self, 1)?, Prec::Add),
            Opcode::Mul => binary(s(self, 0)?, "*", s(self, 1)?, Prec::Mul),
            Opcode::Mad => {
                let m = binary(s(self, 0)?, "*", s(self, 1)?, Prec::Mul);
                binary(m, "+", s(self, 2)?, Prec::Add)
            }
            Opcode::Min => call("min", &[s(self, 0)?, s(self, 1)?], n),
            Opcode::Max => call("max", &[s(self, 0)?, s(self, 1)?], n),
            Opcode::Slt | Opcode::Sge => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let o = if op == Opcode::Slt { "<" } else { ">=" };
                Expr::atom(
                    format!(
                        "{}({} {o} {})",
                        float_type(n),
                        a.at(Prec::Add),
                        b.at(Prec::Add)
                    ),
                    n,
                )
            }
            Opcode::Frc => call("frac", &[s(self, 0)?], n),
            Opcode::Abs => call("abs", &[s(self, 0)?], n),
            Opcode::Sgn => call("sign", &[s(self, 0)?], n),
            Opcode::Rcp => {
                let x = s(self, 0)?;
                Expr::new(format!("1 / {}", x.right_of(Prec::Mul)), Prec::Mul, 1)
            }
            Opcode::Rsq => {
                let x = s(self, 0)?;
                Expr::atom(format!("rsqrt({})", abs_of(&ins.srcs[0], x)), 1)
            }
            Opcode::Exp => call("exp2", &[s(self, 0)?], 1),
            Opcode::Log => {
                let x = s(self, 0)?;
                Expr::atom(format!("log2({})", abs_of(&ins.srcs[0], x)), 1)
            }
            Opcode::Pow => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                Expr::atom(format!("pow({}, {})", abs_of(&ins.srcs[0], a), b.text), 1)
            }
            Opcode::ExpP => {
                let x = s(self, 0)?;
                if v.major < 2 {
                    let xt = x.text.clone();
                    let full = Expr::atom(
                        format!("float4(exp2(floor({xt})), frac({xt}), exp2({xt}), 1)"),
                        4,
                    );
                    select(full, &comps)
                } else {
                    call("exp2", &[x], 1)
                }
            }
            Opcode::LogP => {
                let x = s(self, 0)?;
                if v.major < 2 {
                    self.helpers.insert(Helper::LogP);
                    select(Expr::atom(format!("d3d_logp({})", x.text), 4), &comps)
                } else {
                    Expr::atom(format!("log2({})", abs_of(&ins.srcs[0], x)), 1)
                }
            }
            Opcode::Dp3 | Opcode::Dp4 => call("dot", &[s(self, 0)?, s(self, 1)?], 1),
            Opcode::Dp2Add => {
                let d = call("dot", &[s(self, 0)?, s(self, 1)?], 1);
                let c = s(self, 2)?;
                // `+ 0` only turns a -0 into +0.
                if c.text == "0" {
                    d
                } else {
                    binary(d, "+", c, Prec::Add)
                }
            }
            Opcode::Lrp => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                call("lerp", &[c, b, a], n)
            }
            Opcode::Nrm => {
                let full = self.src(&ins.srcs[0], &[0, 1, 2], idx)?;
                if comps == [0, 1, 2] {
                    call("normalize", &[full], 3)
                } else {
                    let part = self.src(&ins.srcs[0], &comps, idx)?;
                    let f = full.text.clone();
                    binary(
                        part,
                        "*",
                        Expr::atom(format!("rsqrt(dot({f}, {f}))"), 1),
                        Prec::Mul,
                    )
                }
            }
            Opcode::Crs => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                select(call("cross", &[a, b], 3), &comps)
            }
            Opcode::SinCos => {
                let x = self.src(&ins.srcs[0], &[ins.opcode.scalar_component() as u8], idx)?;
                let xt = x.text.clone();
                let sin = if v.major >= 3 || v.is_software() {
                    self.helpers.insert(Helper::Sin);
                    "d3d_sin"
                } else {
                    "sin"
                };
                let parts: Vec<Expr> = comps
                    .iter()
                    .filter(|&&c| c < 2)
                    .map(|&c| Expr::atom(format!("{}({xt})", if c == 0 { "cos" } else { sin }), 1))
                    .collect();
                let comps2: Vec<u8> = comps.iter().copied().filter(|&c| c < 2).collect();
                if comps2.is_empty() {
                    return Ok(());
                }
                let ins2 = Instruction {
                    dst: DstParam {
                        mask: comps2.iter().fold(0, |m, &c| m | (1 << c)),
                        ..ins.dst
                    },
                    ..*ins
                };
                let val = construct(parts);
                return self.assign(&ins2, val, idx);
            }
            Opcode::M4x4 | Opcode::M4x3 | Opcode::M3x4 | Opcode::M3x3 | Opcode::M3x2
                if self.mul_form(&ins.srcs[1], matrix_shape(op)).is_some() =>
            {
                let (k, n) = matrix_shape(op);
                let m = self.mul_form(&ins.srcs[1], (k, n)).unwrap_or_default();
                let vcomps: Vec<u8> = (0..k).collect();
                let vec = self.src(&ins.srcs[0], &vcomps, idx)?;
                let full = Expr::atom(m.replace("{v}", &vec.text), n);
                let sel: Vec<u8> = comps.iter().copied().filter(|&c| c < n).collect();
                if sel.len() as u8 == n {
                    full
                } else {
                    select(full, &sel)
                }
            }
            Opcode::M4x4 | Opcode::M4x3 | Opcode::M3x4 | Opcode::M3x3 | Opcode::M3x2 => {
                let shape = op.matrix().unwrap_or(d3dbc::opcode::MatrixShape {
                    rows: 4,
                    columns: 4,
                });
                let vcomps: Vec<u8> = (0..shape.columns).collect();
                let vec = self.src(&ins.srcs[0], &vcomps, idx)?;
                let mut rows = Vec::new();
                for &c in &comps {
                    if c >= shape.rows {
                        continue;
                    }
                    let mut m = ins.srcs[1];
                    m.reg.num += c as u16;
                    let row = self.src(&m, &vcomps, idx)?;
                    rows.push(call("dot", &[vec.clone(), row], 1));
                }
                construct(rows)
            }
            Opcode::Cmp => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                Expr::new(
                    format!(
                        "{} >= 0 ? {} : {}",
                        a.at(Prec::Add),
                        b.at(Prec::Compare),
                        c.at(Prec::Select)
                    ),
                    Prec::Select,
                    n,
                )
            }
            Opcode::Cnd => {
                let a = if v.minor < 4 {
                    self.src(&ins.srcs[0], &[3], idx)?
                } else {
                    s(self, 0)?
                };
                let (b, c) = (s(self, 1)?, s(self, 2)?);
                Expr::new(
                    format!(
                        "{} > 0.5 ? {} : {}",
                        a.at(Prec::Add),
                        b.at(Prec::Compare),
                        c.at(Prec::Select)
                    ),
                    Prec::Select,
                    n,
                )
            }
            Opcode::Dst => {
                let a = self.src(&ins.srcs[0], &[0, 1, 2, 3], idx)?;
                let b = self.src(&ins.srcs[1], &[0, 1, 2, 3], idx)?;
                let (at, bt) = (a.at(Prec::Atom), b.at(Prec::Atom));
                let full = Expr::atom(format!("float4(1, {at}.y * {bt}.y, {at}.z, {bt}.w)"), 4);
                select(full, &comps)
            }
            Opcode::Lit => {
                self.helpers.insert(Helper::Lit);
                let a = self.src(&ins.srcs[0], &[0, 1, 2, 3], idx)?;
                select(Expr::atom(format!("d3d_lit({})", a.text), 4), &comps)
            }
            Opcode::SetP => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let o = comparison(ins.comparison());
                Expr::new(
                    format!("{} {o} {}", a.at(Prec::Add), b.at(Prec::Add)),
                    Prec::Compare,
                    n,
                )
            }
            Opcode::Dsx => call("ddx", &[s(self, 0)?], n),
            Opcode::Dsy => call("ddy", &[s(self, 0)?], n),
            Opcode::Tex | Opcode::TexLdl | Opcode::TexLdd if v.major >= 2 => {
                self.sample(ins, idx)?
            }
            _ => {
                if self.ps1 {
                    return self.ps1_op(idx, ins);
                }
                return Err(self.unsupported(idx, &format!("`{}`", op.mnemonic(v))));
            }
        };
        self.assign(ins, value, idx)
    }

    /// `mul({v}, M)` or `mul(M, {v})` when the registers from `m` on are exactly a
    /// matrix of the constant table that a product with a `k`-vector giving `n`
    /// components reads (`{v}` stands for the vector).
    fn mul_form(&self, m: &SrcParam, (k, n): (u8, u8)) -> Option<String> {
        if m.rel.is_some()
            || m.modifier != SrcModifier::None
            || m.swizzle != d3dbc::ir::SWIZZLE_IDENTITY
            || !is_const(m)
        {
            return None;
        }
        let base = d3dbc::regs::float_constant_index(m.reg.kind, m.reg.num) as u16;
        let mx = self.u.matrix(base, n as u16)?;
        // A product with fewer components than the matrix has reads its upper-left
        // part: a cast takes it.
        if mx.row_major && mx.rows == n && k <= mx.cols {
            let m = if k == mx.cols {
                mx.expr.clone()
            } else {
                format!("(float{n}x{k}){}", mx.expr)
            };
            Some(format!("mul({m}, {{v}})"))
        } else if !mx.row_major && mx.cols == n && k <= mx.rows {
            let m = if k == mx.rows {
                mx.expr.clone()
            } else {
                format!("(float{k}x{n}){}", mx.expr)
            };
            Some(format!("mul({{v}}, {m})"))
        } else {
            None
        }
    }

    /// `dp4`/`dp3` rows writing `dst.x`, `dst.y`, … from one vector and the registers
    /// of one matrix, starting at instruction `idx`: how many fold into one `mul`, and
    /// its form.
    fn dot_rows(&self, idx: usize) -> Option<(usize, String)> {
        let first = *self.a.instructions.get(idx)?;
        let k = match first.opcode {
            Opcode::Dp4 => 4u8,
            Opcode::Dp3 => 3,
            _ => return None,
        };
        let v = first.srcs[0];
        let d = first.dst;
        if d.rel.is_some() || d.reg == v.reg || first.predicate.is_some() || d.mask != 1 {
            return None;
        }
        let mut n = 0usize;
        while n < 4 {
            let Some(ins) = self.a.instructions.get(idx + n) else {
                break;
            };
            let mut m = first.srcs[1];
            m.reg.num = m.reg.num.wrapping_add(n as u16);
            let same = ins.opcode == first.opcode
                && ins.srcs[0] == v
                && ins.srcs[1] == m
                && ins.predicate.is_none()
                && ins.dst.reg == d.reg
                && ins.dst.rel.is_none()
                && ins.dst.mask == 1 << n
                && ins.dst.modifiers == d.modifiers
                && ins.dst.shift == d.shift;
            if !same {
                break;
            }
            n += 1;
        }
        // The longest run that is exactly a matrix.
        (2..=n)
            .rev()
            .find_map(|c| self.mul_form(&first.srcs[1], (k, c as u8)).map(|f| (c, f)))
    }

    /// `texld`/`texldp`/`texldb`/`texldl`/`texldd` (shader model 2 and 3).
    fn sample(&mut self, ins: &Instruction, idx: usize) -> Result<Expr, Error> {
        let comps = mask_comps(ins.dst.mask);
        let s = ins.srcs[1].reg.num;
        let (name, ty) = self
            .u
            .samplers
            .get(&s)
            .cloned()
            .ok_or_else(|| self.unsupported(idx, "an undeclared sampler"))?;
        let (f, dims): (&str, u8) = match ty {
            SamplerType::Cube => ("texCUBE", 3),
            SamplerType::Volume => ("tex3D", 3),
            _ => ("tex2D", 2),
        };
        let coord_n: Vec<u8> = (0..dims).collect();
        let all: Vec<u8> = vec![0, 1, 2, 3];
        let call_text = match ins.opcode {
            Opcode::Tex => {
                let proj = ins.controls & 1 != 0;
                let bias = ins.controls & 2 != 0;
                if proj || bias {
                    let c = self.src(&ins.srcs[0], &all, idx)?;
                    let suffix = if proj { "proj" } else { "bias" };
                    format!("{f}{suffix}({name}, {})", c.text)
                } else {
                    let c = self.src(&ins.srcs[0], &coord_n, idx)?;
                    format!("{f}({name}, {})", c.text)
                }
            }
            Opcode::TexLdl => {
                let c = self.src(&ins.srcs[0], &all, idx)?;
                format!("{f}lod({name}, {})", c.text)
            }
            _ => {
                let c = self.src(&ins.srcs[0], &coord_n, idx)?;
                let dx = self.src(&ins.srcs[2], &coord_n, idx)?;
                let dy = self.src(&ins.srcs[3], &coord_n, idx)?;
                format!("{f}grad({name}, {}, {}, {})", c.text, dx.text, dy.text)
            }
        };
        // The sampler operand's swizzle picks the result's components.
        let sw = ins.srcs[1].swizzle;
        let sel: Vec<u8> = comps.iter().map(|&c| (sw >> (2 * c)) & 3).collect();
        let e = Expr::atom(call_text, 4);
        Ok(select(e, &sel))
    }

    /// ps_1_x instructions with no shader model 2 equivalent.
    fn ps1_op(&mut self, idx: usize, ins: &Instruction) -> Result<(), Error> {
        let op = ins.opcode;
        let v = self.v;
        let n = ins.dst.reg.num;
        let comps = mask_comps(ins.dst.mask);
        let tc = |n: u16| format!("i.texcoord{n}");
        let sampler = |e: &Self, st: u16| -> Result<(String, SamplerType), Error> {
            e.u.samplers
                .get(&st)
                .cloned()
                .ok_or_else(|| e.unsupported(idx, "an undeclared sampler"))
        };
        let lookup = |name: &str, ty: SamplerType, coord: &str| match ty {
            SamplerType::Cube => format!("texCUBE({name}, ({coord}).xyz)"),
            SamplerType::Volume => format!("tex3D({name}, ({coord}).xyz)"),
            _ => format!("tex2D({name}, ({coord}).xy)"),
        };
        let value = match op {
            Opcode::Tex if v.minor >= 4 => {
                // texld r#, t#/r# (ps_1_4): the register is the coordinate; _dz/_dw divide.
                let (name, ty) = sampler(self, n)?;
                let src = ins.srcs[0];
                let c = self.src(
                    &SrcParam {
                        modifier: SrcModifier::None,
                        ..src
                    },
                    &[0, 1, 2, 3],
                    idx,
                )?;
                let coord = projected(&c, src.modifier).text;
                select(Expr::atom(lookup(&name, ty, &coord), 4), &comps)
            }
            Opcode::Tex => {
                let (name, ty) = sampler(self, n)?;
                select(Expr::atom(lookup(&name, ty, &tc(n)), 4), &comps)
            }
            Opcode::TexCoord if v.minor >= 4 => {
                let src = ins.srcs[0];
                let c = self.src(
                    &SrcParam {
                        modifier: SrcModifier::None,
                        ..src
                    },
                    &[0, 1, 2, 3],
                    idx,
                )?;
                select(projected(&c, src.modifier), &comps)
            }
            Opcode::TexCoord => select(
                Expr::atom(format!("float4(saturate({}.xyz), 1)", tc(n)), 4),
                &comps,
            ),
            Opcode::TexReg2Ar | Opcode::TexReg2Gb | Opcode::TexReg2Rgb => {
                let (name, ty) = sampler(self, n)?;
                let pos: &[u8] = match op {
                    Opcode::TexReg2Ar => &[3, 0, 2],
                    Opcode::TexReg2Gb => &[1, 2, 2],
                    _ => &[0, 1, 2],
                };
                let sw = SrcParam {
                    swizzle: pos[0] | (pos[1] << 2) | (pos[2] << 4) | (3 << 6),
                    ..ins.srcs[0]
                };
                let c = self.src(&sw, &[0, 1, 2], idx)?;
                let coord = format!("float4({}, 1)", c.text);
                select(Expr::atom(lookup(&name, ty, &coord), 4), &comps)
            }
            Opcode::TexDp3 => {
                let s = self.src(&ins.srcs[0], &[0, 1, 2], idx)?;
                Expr::atom(format!("dot({}.xyz, {})", tc(n), s.text), 1)
            }
            Opcode::TexDp3Tex => {
                let (name, ty) = sampler(self, n)?;
                let s = self.src(&ins.srcs[0], &[0, 1, 2], idx)?;
                let coord = format!("float4(dot({}.xyz, {}), 0, 0, 0)", tc(n), s.text);
                select(Expr::atom(lookup(&name, ty, &coord), 4), &comps)
            }
            Opcode::TexBem | Opcode::TexBemL => {
                let (name, ty) = sampler(self, n)?;
                let m = self.bump_matrix(n);
                let r = self.src(&ins.srcs[0], &[0], idx)?.at(Prec::Mul);
                let g = self.src(&ins.srcs[0], &[1], idx)?.at(Prec::Mul);
                let t = tc(n);
                let coord = format!(
                    "float2({t}.x + {m}.x * {r} + {m}.z * {g}, {t}.y + {m}.y * {r} + {m}.w * {g})"
                );
                let mut e = lookup(&name, ty, &coord);
                if op == Opcode::TexBemL {
                    let l = self.bump_luminance(n);
                    let b = self.src(&ins.srcs[0], &[2], idx)?.at(Prec::Mul);
                    e = format!("{e} * saturate({b} * {l}.x + {l}.y)");
                    select(Expr::new(e, Prec::Mul, 4), &comps)
                } else {
                    select(Expr::atom(e, 4), &comps)
                }
            }
            Opcode::Bem => {
                let m = self.bump_matrix(n);
                let ax = self.src(&ins.srcs[0], &[0], idx)?.at(Prec::Add);
                let ay = self.src(&ins.srcs[0], &[1], idx)?.at(Prec::Add);
                let bx = self.src(&ins.srcs[1], &[0], idx)?.at(Prec::Mul);
                let by = self.src(&ins.srcs[1], &[1], idx)?.at(Prec::Mul);
                let full = format!(
                    "float2({ax} + {m}.x * {bx} + {m}.z * {by}, {ay} + {m}.y * {bx} + {m}.w * {by})"
                );
                let sel: Vec<u8> = comps.iter().copied().filter(|&c| c < 2).collect();
                if sel == [0, 1] {
                    Expr::atom(full, 2)
                } else {
                    Expr::atom(format!("{full}.{}", letters(&sel)), sel.len() as u8)
                }
            }
            Opcode::TexM3x2Pad | Opcode::TexM3x3Pad => {
                let row = if op == Opcode::TexM3x2Pad {
                    0
                } else {
                    match self.a.instructions.get(idx + 1).map(|x| x.opcode) {
                        Some(Opcode::TexM3x3Pad) => 0,
                        _ => 1,
                    }
                };
                self.uses_m3 = true;
                let s = self.src(&ins.srcs[0], &[0, 1, 2], idx)?;
                let c = text::XYZW[row];
                self.line(&format!("m3.{c} = dot({}.xyz, {});", tc(n), s.text));
                return Ok(());
            }
            Opcode::TexM3x2Tex | Opcode::TexM3x2Depth => {
                self.uses_m3 = true;
                let s = self.src(&ins.srcs[0], &[0, 1, 2], idx)?;
                self.line(&format!("m3.y = dot({}.xyz, {});", tc(n), s.text));
                if op == Opcode::TexM3x2Depth {
                    self.line("o.depth = m3.y == 0 ? 1 : m3.x / m3.y;");
                    return Ok(());
                }
                let (name, ty) = sampler(self, n)?;
                select(Expr::atom(lookup(&name, ty, "m3"), 4), &comps)
            }
            Opcode::TexM3x3Tex | Opcode::TexM3x3 | Opcode::TexM3x3Spec | Opcode::TexM3x3VSpec => {
                self.uses_m3 = true;
                let s = self.src(&ins.srcs[0], &[0, 1, 2], idx)?;
                self.line(&format!("m3.z = dot({}.xyz, {});", tc(n), s.text));
                match op {
                    Opcode::TexM3x3 => select(Expr::atom("float4(m3.xyz, 1)", 4), &comps),
                    Opcode::TexM3x3Tex => {
                        let (name, ty) = sampler(self, n)?;
                        select(Expr::atom(lookup(&name, ty, "m3"), 4), &comps)
                    }
                    _ => {
                        let (name, ty) = sampler(self, n)?;
                        let eye = if op == Opcode::TexM3x3Spec {
                            self.src(&ins.srcs[1], &[0, 1, 2], idx)?.text
                        } else {
                            // The eye vector from the w of the three coordinates.
                            format!(
                                "float3({}.w, {}.w, {}.w)",
                                tc(n.saturating_sub(2)),
                                tc(n.saturating_sub(1)),
                                tc(n)
                            )
                        };
                        self.line(&format!("e = {eye};"));
                        self.uses_eye = true;
                        self.line(
                            "m3.xyz = dot(m3.xyz, m3.xyz) != 0 ? 2 * (m3.xyz * dot(m3.xyz, e)) / dot(m3.xyz, m3.xyz) - e : -e;",
                        );
                        select(Expr::atom(lookup(&name, ty, "m3"), 4), &comps)
                    }
                }
            }
            _ => return Err(self.unsupported(idx, &format!("`{}`", op.mnemonic(v)))),
        };
        self.assign(ins, value, idx)
    }

    /// The uniform standing for stage `n`'s bump-environment matrix (a texture stage
    /// state in D3D9: `D3DTSS_BUMPENVMAT00`, `01`, `10`, `11` in x, y, z, w).
    fn bump_matrix(&mut self, n: u16) -> String {
        let name = format!("BumpEnvMat{n}");
        if !self.u.names.contains(&name) {
            self.u.names.push(name.clone());
            self.u.decls.push_str(&format!(
                "float4 {name}; // D3DTSS_BUMPENVMAT00, 01, 10, 11 of stage {n} (a texture stage state in D3D9)\n"
            ));
        }
        name
    }

    /// The uniform standing for stage `n`'s `D3DTSS_BUMPENVLSCALE` (x) and
    /// `D3DTSS_BUMPENVLOFFSET` (y).
    fn bump_luminance(&mut self, n: u16) -> String {
        let name = format!("BumpEnvLum{n}");
        if !self.u.names.contains(&name) {
            self.u.names.push(name.clone());
            self.u.decls.push_str(&format!(
                "float2 {name}; // D3DTSS_BUMPENVLSCALE, D3DTSS_BUMPENVLOFFSET of stage {n}\n"
            ));
        }
        name
    }
}

/// A destination: one lvalue, or pieces across struct fields (`o.texcoord1.zw`, …).
enum Target {
    One(String),
    /// A scalar field written from a wider value: its first component.
    Scalar(String),
    /// Fields each taking some of the written components (the mask's components).
    Split(Vec<(String, Vec<u8>)>, Vec<u8>),
}

impl Target {
    fn read_back(&self) -> String {
        match self {
            Target::One(s) | Target::Scalar(s) => s.clone(),
            Target::Split(p, _) => format!(
                "float{}({})",
                p.iter().map(|x| x.1.len()).sum::<usize>(),
                p.iter().map(|x| x.0.clone()).collect::<Vec<_>>().join(", ")
            ),
        }
    }
}

impl Expr {
    /// This expression as `n` components (a scalar is cast to a splat).
    pub fn splat(self, n: u8) -> Expr {
        if self.width == n || n == 1 {
            self
        } else if self.width == 1 {
            Expr::atom(format!("({}){}", float_type(n), self.at(Prec::Unary)), n)
        } else {
            self
        }
    }
}

fn is_const(s: &SrcParam) -> bool {
    matches!(
        s.reg.kind,
        RegisterType::Const | RegisterType::Const2 | RegisterType::Const3 | RegisterType::Const4
    )
}

/// The modifier's arithmetic on a literal, as the executor computes it.
fn modifier_value(m: SrcModifier, x: f32) -> f32 {
    m.apply(x)
}

/// ps_1_4 `_dz`/`_dw`: the coordinate divided by its z or w (0 where that is 0).
fn projected(c: &Expr, m: SrcModifier) -> Expr {
    let a = c.at(Prec::Atom);
    match m {
        SrcModifier::Dz => Expr::new(format!("{a} * ({a}.z == 0 ? 0 : 1 / {a}.z)"), Prec::Mul, 4),
        SrcModifier::Dw => Expr::new(format!("{a} * ({a}.w == 0 ? 0 : 1 / {a}.w)"), Prec::Mul, 4),
        _ => c.clone(),
    }
}

/// Groups component reads into `base.sel` runs and builds the vector.
fn group(parts: Vec<Part>) -> Expr {
    let mut runs: Vec<(String, u8, Vec<Sel>)> = Vec::new();
    for p in parts {
        match runs.last_mut() {
            Some((b, _, sels))
                if *b == p.base
                    && std::mem::discriminant(&sels[0]) == std::mem::discriminant(&p.sel)
                    && sels.len() < 4 =>
            {
                sels.push(p.sel)
            }
            _ => runs.push((p.base, p.base_width, vec![p.sel])),
        }
    }
    let exprs: Vec<Expr> = runs
        .into_iter()
        .map(|(base, width, sels)| {
            let identity = sels.len() as u8 == width
                && sels
                    .iter()
                    .enumerate()
                    .all(|(i, s)| *s == Sel::Comp(i as u8));
            let n = sels.len() as u8;
            if identity {
                Expr::atom(base, n)
            } else if width == 1 && sels.iter().all(|s| *s == Sel::Comp(0)) && n == 1 {
                Expr::atom(base, 1)
            } else {
                Expr::atom(format!("{base}.{}", sel_text(&sels)), n)
            }
        })
        .collect();
    construct(exprs)
}

/// `e` with a source modifier applied.
fn apply_modifier(e: Expr, m: SrcModifier, _clamped: bool) -> Expr {
    let w = e.width;
    match m {
        SrcModifier::None | SrcModifier::Not | SrcModifier::Dz | SrcModifier::Dw => e,
        // `-(-x)` is `x` (negation is exact).
        SrcModifier::Neg => match e.text.strip_prefix('-') {
            Some(inner) if e.prec == Prec::Unary => Expr::new(inner, Prec::Unary, w),
            _ => Expr::new(format!("-{}", e.at(Prec::Unary)), Prec::Unary, w),
        },
        SrcModifier::Abs => Expr::atom(format!("abs({})", e.text), w),
        SrcModifier::AbsNeg => Expr::new(format!("-abs({})", e.text), Prec::Unary, w),
        SrcModifier::Bias => Expr::new(format!("{} - 0.5", e.at(Prec::Add)), Prec::Add, w),
        SrcModifier::BiasNeg => Expr::new(format!("-({} - 0.5)", e.at(Prec::Add)), Prec::Unary, w),
        SrcModifier::Sign => Expr::new(format!("2 * ({} - 0.5)", e.at(Prec::Add)), Prec::Mul, w),
        SrcModifier::SignNeg => Expr::new(
            format!("-(2 * ({} - 0.5))", e.at(Prec::Add)),
            Prec::Unary,
            w,
        ),
        SrcModifier::Comp => Expr::new(format!("1 - {}", e.right_of(Prec::Add)), Prec::Add, w),
        SrcModifier::X2 => Expr::new(format!("2 * {}", e.right_of(Prec::Mul)), Prec::Mul, w),
        SrcModifier::X2Neg => {
            Expr::new(format!("-(2 * {})", e.right_of(Prec::Mul)), Prec::Unary, w)
        }
    }
}

/// `abs(x)` unless the source already carries `_abs`.
fn abs_of(s: &SrcParam, x: Expr) -> String {
    if s.modifier == SrcModifier::Abs {
        x.text
    } else {
        format!("abs({})", x.text)
    }
}

/// `e` as a scalar when it only repeats one value over `w` components (`(float3)0.5`,
/// `r0.xxxx`): HLSL widens a scalar operand of a binary operator itself.
fn scalar_of(e: &Expr, w: u8) -> Option<Expr> {
    if w < 2 || e.width != w {
        return None;
    }
    let cast = format!("({})", float_type(w));
    if let Some(rest) = e.text.strip_prefix(&cast) {
        if !rest.contains(' ') {
            let prec = if rest.starts_with('-') {
                Prec::Unary
            } else {
                Prec::Atom
            };
            return Some(Expr::new(rest, prec, 1));
        }
    }
    let (base, sel) = e.text.rsplit_once('.')?;
    let c = sel.chars().next()?;
    let plain = base
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '[' || c == ']');
    if e.prec == Prec::Atom
        && plain
        && sel.len() == w as usize
        && "xyzw".contains(c)
        && sel.chars().all(|x| x == c)
    {
        return Some(Expr::atom(format!("{base}.{c}"), 1));
    }
    None
}

fn binary(a: Expr, op: &str, b: Expr, prec: Prec) -> Expr {
    let w = a.width.max(b.width);
    // At most one operand becomes a scalar, so that the result keeps its width.
    let (a, b) = match (scalar_of(&a, w), scalar_of(&b, w)) {
        (None, Some(sb)) => (a, sb),
        (Some(sa), None) => (sa, b),
        _ => (a, b),
    };
    Expr::new(format!("{} {op} {}", a.at(prec), b.right_of(prec)), prec, w)
}

fn call(f: &str, args: &[Expr], width: u8) -> Expr {
    let a: Vec<&str> = args.iter().map(|e| e.text.as_str()).collect();
    Expr::atom(format!("{f}({})", a.join(", ")), width)
}

/// Components `comps` of a float4-valued expression.
fn select(e: Expr, comps: &[u8]) -> Expr {
    if comps == [0, 1, 2, 3] {
        return e;
    }
    let n = comps.len() as u8;
    Expr::atom(format!("{}.{}", e.at(Prec::Atom), letters(comps)), n)
}

/// A matrix instruction's (vector length, registers read).
fn matrix_shape(op: Opcode) -> (u8, u8) {
    op.matrix().map_or((4, 4), |m| (m.columns, m.rows))
}

fn comparison(c: Option<Comparison>) -> &'static str {
    match c {
        Some(Comparison::Gt) => ">",
        Some(Comparison::Eq) => "==",
        Some(Comparison::Ge) => ">=",
        Some(Comparison::Lt) => "<",
        Some(Comparison::Ne) => "!=",
        Some(Comparison::Le) => "<=",
        None => "!=",
    }
}

pub(crate) fn helper_text(h: Helper, max: f32) -> String {
    h.text(max)
}
