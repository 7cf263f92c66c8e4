//! Register names of the assembly language and which of them each shader version has:
//! the name → register-file mapping (`oT0` and `o0` share a file, so do `a0` and `t0`).
//! Which names each version has, their counts and relative addressing come from the
//! register table ([`crate::regs`]).

use crate::ir::Register;
use crate::token::RegisterType;
use crate::version::Version;

/// A register file as written in assembly (finer than [`RegisterType`], which merges
/// `a#`/`t#` and `oT#`/`o#`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RegName {
    Temp,
    Input,
    Const,
    Addr,
    Texture,
    /// `oPos` (0), `oFog` (1), `oPts` (2).
    RastOut,
    /// `oD#`.
    AttrOut,
    /// `oT#`.
    TexCrdOut,
    /// `o#` (vs_3_0).
    Output,
    ConstInt,
    ConstBool,
    Sampler,
    /// `aL`.
    Loop,
    /// `p0`.
    Predicate,
    /// `l#`.
    Label,
    /// `oC#`.
    ColorOut,
    /// `oDepth`.
    DepthOut,
    /// `vPos` (0), `vFace` (1).
    Misc,
}

impl RegName {
    /// Looks up the alphabetic part of a register name (case-insensitive). Returns the
    /// register file, a fixed number for the named registers (`oPos`, `vFace`, `aL`…),
    /// and whether digits must follow.
    pub(crate) fn lookup(letters: &[u8]) -> Option<(RegName, Option<u16>)> {
        let mut buf = [0u8; 8];
        if letters.is_empty() || letters.len() > buf.len() {
            return None;
        }
        for (d, s) in buf.iter_mut().zip(letters) {
            *d = s.to_ascii_lowercase();
        }
        let l = &buf[..letters.len()];
        Some(match l {
            b"r" => (RegName::Temp, None),
            b"v" => (RegName::Input, None),
            b"c" => (RegName::Const, None),
            b"a" => (RegName::Addr, None),
            b"t" => (RegName::Texture, None),
            b"opos" => (RegName::RastOut, Some(0)),
            b"ofog" => (RegName::RastOut, Some(1)),
            b"opts" => (RegName::RastOut, Some(2)),
            b"od" => (RegName::AttrOut, None),
            b"ot" => (RegName::TexCrdOut, None),
            b"o" => (RegName::Output, None),
            b"i" => (RegName::ConstInt, None),
            b"b" => (RegName::ConstBool, None),
            b"s" => (RegName::Sampler, None),
            b"al" => (RegName::Loop, Some(0)),
            b"p" => (RegName::Predicate, None),
            b"l" => (RegName::Label, None),
            b"oc" => (RegName::ColorOut, None),
            b"odepth" => (RegName::DepthOut, Some(0)),
            b"vpos" => (RegName::Misc, Some(0)),
            b"vface" => (RegName::Misc, Some(1)),
            // The names the printer gives numbers past the named registers (`oRast5`,
            // `vMisc2`), spelled as the register table spells them.
            _ => {
                use crate::regs::spelling;
                let any = Version::pixel(3, 0);
                [
                    (RegName::RastOut, RegisterType::RastOut, 3),
                    (RegName::Misc, RegisterType::MiscType, 2),
                ]
                .into_iter()
                .find(|&(_, kind, past)| {
                    spelling(Register::new(kind, past), any)
                        .0
                        .as_bytes()
                        .eq_ignore_ascii_case(l)
                })
                .map(|(name, _, _)| (name, None))?
            }
        })
    }

    /// Registers that may be written without a number when they are relatively
    /// addressed (`c[a0.x]`, `v[aL]`, `o[a0.x]`).
    pub(crate) fn number_optional_with_rel(self) -> bool {
        matches!(self, RegName::Const | RegName::Input | RegName::Output)
    }

    /// The register file and number in the token stream. Constants from 2048 on go to
    /// the `CONST2`…`CONST4` files.
    pub(crate) fn register(self, num: u32) -> Register {
        let (kind, num) = match self {
            RegName::Temp => (RegisterType::Temp, num),
            RegName::Input => (RegisterType::Input, num),
            RegName::Const => match num / 2048 {
                0 => (RegisterType::Const, num),
                1 => (RegisterType::Const2, num - 2048),
                2 => (RegisterType::Const3, num - 4096),
                _ => (RegisterType::Const4, num.saturating_sub(6144)),
            },
            RegName::Addr | RegName::Texture => (RegisterType::AddrOrTexture, num),
            RegName::RastOut => (RegisterType::RastOut, num),
            RegName::AttrOut => (RegisterType::AttrOut, num),
            RegName::TexCrdOut | RegName::Output => (RegisterType::Output, num),
            RegName::ConstInt => (RegisterType::ConstInt, num),
            RegName::ConstBool => (RegisterType::ConstBool, num),
            RegName::Sampler => (RegisterType::Sampler, num),
            RegName::Loop => (RegisterType::Loop, num),
            RegName::Predicate => (RegisterType::Predicate, num),
            RegName::Label => (RegisterType::Label, num),
            RegName::ColorOut => (RegisterType::ColorOut, num),
            RegName::DepthOut => (RegisterType::DepthOut, num),
            RegName::Misc => (RegisterType::MiscType, num),
        };
        Register::new(kind, (num & 0x7FF) as u16)
    }

    /// How the register is spelled, for messages (`r`, `oT`, `vFace`…).
    pub(crate) fn spelling(self) -> &'static str {
        match self {
            RegName::Temp => "r#",
            RegName::Input => "v#",
            RegName::Const => "c#",
            RegName::Addr => "a#",
            RegName::Texture => "t#",
            RegName::RastOut => "oPos/oFog/oPts",
            RegName::AttrOut => "oD#",
            RegName::TexCrdOut => "oT#",
            RegName::Output => "o#",
            RegName::ConstInt => "i#",
            RegName::ConstBool => "b#",
            RegName::Sampler => "s#",
            RegName::Loop => "aL",
            RegName::Predicate => "p0",
            RegName::Label => "l#",
            RegName::ColorOut => "oC#",
            RegName::DepthOut => "oDepth",
            RegName::Misc => "vPos/vFace",
        }
    }
}

/// What the assembler allows for one register file in one version.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RegRule {
    /// Number of registers (indices `0..count`).
    pub count: u32,
    /// Relative addressing allowed (then the index is not checked).
    pub rel: bool,
}

/// The register files of `version` and their sizes, as Microsoft's assembler checks
/// them (it does not tell sources from destinations; the validator does that later):
/// the `asm_count` of the register table, for a name spelled as `version` spells it
/// (`t#` only in pixel shaders, `oT#` before vs_3_0, `o#` in vs_3_0).
pub(crate) fn rule(version: Version, name: RegName) -> Option<RegRule> {
    let reg = name.register(0);
    let file = crate::regs::file(version, reg.kind).filter(|f| f.asm_count > 0)?;
    let spelled = match name {
        RegName::Addr | RegName::Texture | RegName::TexCrdOut | RegName::Output => {
            crate::regs::spelling(reg, version).0 == name.spelling().trim_end_matches('#')
        }
        _ => true,
    };
    spelled.then_some(RegRule {
        count: file.asm_count,
        rel: file.rel,
    })
}

/// Whether `reg` may serve as the address register inside `[...]` in `version`: it
/// indexes some register file of the version, as the register table says
/// ([`crate::regs::rel_ok`]): vs_1_x `a0` (only `a0.x`, checked by the caller), vs_2_0+
/// `a0` and `aL`, ps_3_0 `aL`. Like Microsoft's assembler it does not ask which file;
/// the validator does.
pub(crate) fn address_register_allowed(version: Version, reg: RegName) -> bool {
    let addr = reg.register(0).kind;
    (0..20u8)
        .filter_map(crate::token::RegisterType::from_u8)
        .any(|t| {
            crate::regs::rel_ok(version, t, addr, false)
                || crate::regs::rel_ok(version, t, addr, true)
        })
}
