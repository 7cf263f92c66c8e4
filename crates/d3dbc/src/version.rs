//! The version token: shader kind (vertex/pixel) and model (`vs_1_1` … `ps_3_0`, `_x`, `_sw`).

use std::fmt;

/// Vertex or pixel shader (`0xFFFE` / `0xFFFF` in the version token's high word).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ShaderKind {
    /// `vs_*`.
    Vertex,
    /// `ps_*`.
    Pixel,
}

impl ShaderKind {
    /// `"vs"` or `"ps"`.
    pub fn prefix(self) -> &'static str {
        match self {
            ShaderKind::Vertex => "vs",
            ShaderKind::Pixel => "ps",
        }
    }
}

/// A shader model, as carried by the version token.
///
/// `minor` is `1` for `2_x` (Microsoft's tools print `vs_2_x`/`ps_2_x` for version 2.1)
/// and `0xFF` for the software models `vs_2_sw`, `vs_3_sw`, `ps_2_sw`, `ps_3_sw`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Version {
    /// Vertex or pixel.
    pub kind: ShaderKind,
    /// Major version (1–3).
    pub major: u8,
    /// Minor version (0–4, `1` for `_x`, `0xFF` for `_sw`).
    pub minor: u8,
}

/// Minor version value of the software (`_sw`) models.
pub const MINOR_SW: u8 = 0xFF;

impl Version {
    /// A vertex shader version.
    pub const fn vertex(major: u8, minor: u8) -> Self {
        Version {
            kind: ShaderKind::Vertex,
            major,
            minor,
        }
    }

    /// A pixel shader version.
    pub const fn pixel(major: u8, minor: u8) -> Self {
        Version {
            kind: ShaderKind::Pixel,
            major,
            minor,
        }
    }

    /// Parses a version token. Returns `None` for anything that is not a D3D9 shader
    /// version (wrong high word, or a model outside 1.0–3.x).
    pub fn from_token(token: u32) -> Option<Self> {
        let kind = match token >> 16 {
            0xFFFE => ShaderKind::Vertex,
            0xFFFF => ShaderKind::Pixel,
            _ => return None,
        };
        let major = ((token >> 8) & 0xFF) as u8;
        let minor = (token & 0xFF) as u8;
        let ok = match (kind, major) {
            (ShaderKind::Vertex, 1) => minor <= 1,
            (ShaderKind::Pixel, 1) => minor <= 4,
            (_, 2) => minor <= 1 || minor == MINOR_SW,
            (_, 3) => minor == 0 || minor == MINOR_SW,
            _ => false,
        };
        ok.then_some(Version { kind, major, minor })
    }

    /// The version token.
    pub const fn token(self) -> u32 {
        let hi: u32 = match self.kind {
            ShaderKind::Vertex => 0xFFFE,
            ShaderKind::Pixel => 0xFFFF,
        };
        (hi << 16) | ((self.major as u32) << 8) | self.minor as u32
    }

    /// `major << 8 | minor`, the key the opcode table's version ranges use.
    #[inline]
    pub const fn code(self) -> u16 {
        ((self.major as u16) << 8) | self.minor as u16
    }

    /// True for vertex shaders.
    #[inline]
    pub const fn is_vertex(self) -> bool {
        matches!(self.kind, ShaderKind::Vertex)
    }

    /// True for pixel shaders.
    #[inline]
    pub const fn is_pixel(self) -> bool {
        matches!(self.kind, ShaderKind::Pixel)
    }

    /// True for `_sw` models.
    #[inline]
    pub const fn is_software(self) -> bool {
        self.minor == MINOR_SW
    }

    /// True from shader model 2.0 on: instruction tokens carry a length field, source
    /// operands with relative addressing carry a separate relative-address token.
    #[inline]
    pub const fn has_length_field(self) -> bool {
        self.major >= 2
    }

    /// True where a relative-addressed operand is followed by its own address token
    /// (vs_2_0+ and ps_3_0+); in vs_1_x the address register `a0.x` is implicit.
    #[inline]
    pub const fn has_relative_token(self) -> bool {
        self.major >= 2
    }

    /// True for shader model 1 (`vs_1_1`, `ps_1_0`–`ps_1_4`): `mov a0` floors, `expp`
    /// and `logp` give their four-component partial-precision forms, `texkill` tests
    /// `xyz`.
    #[inline]
    pub const fn is_sm1(self) -> bool {
        self.major < 2
    }

    /// True for shader model 3 (`vs_3_0`, `ps_3_0`, `_sw`): a sampler source's swizzle
    /// applies to what `texld*` returns.
    #[inline]
    pub const fn is_sm3(self) -> bool {
        self.major >= 3
    }

    /// True for `ps_1_0`–`ps_1_4`: results and constants clamped to
    /// `PixelShader1xMaxValue`, `r0` the colour output, texture stages bound by the
    /// pipeline rather than declared.
    #[inline]
    pub const fn is_ps_1_x(self) -> bool {
        self.is_pixel() && self.major < 2
    }

    /// True for `ps_1_4`: `texld`/`texcrd` name their coordinate source, `cnd` tests each
    /// component, `phase` splits the shader.
    #[inline]
    pub const fn is_ps_1_4(self) -> bool {
        self.is_pixel() && self.major == 1 && self.minor >= 4
    }

    /// True where a shader declares each varying with a usage (`dcl_texcoord3 o2`,
    /// `dcl_color1 v0`): vs_3_0 outputs and ps_3_0 inputs. Below 3.0 the varying is the
    /// register itself (`oT#`, `oD#`, `oFog`, `oPts`; `t#`, `v#`).
    #[inline]
    pub const fn declares_varyings(self) -> bool {
        self.major >= 3
    }

    /// True where the fixed-function fog stage applies to the shader's output (below
    /// 3.0: the vertex shader's `oFog` feeds it and the pipeline blends the pixel
    /// shader's colour); a shader model 3 pixel shader computes its own fog.
    #[inline]
    pub const fn has_fixed_function_fog(self) -> bool {
        self.major < 3
    }
}

impl Version {
    /// Microsoft's spelling (`vs_1_1`, `ps_2_x`, `vs_3_sw`) written into `buf`, without
    /// the formatting machinery (every translation's interface names its version).
    fn spell(self, buf: &mut [u8; 12]) -> &str {
        // A number's decimal digits: the three places, and how many leading ones to skip.
        let digits = |v: u8| {
            let d = [b'0' + v / 100, b'0' + v / 10 % 10, b'0' + v % 10];
            (d, usize::from(v < 100) + usize::from(v < 10))
        };
        let mut n = 0;
        let mut put = |b: &[u8]| {
            buf[n..n + b.len()].copy_from_slice(b);
            n += b.len();
        };
        put(self.kind.prefix().as_bytes());
        put(b"_");
        let (d, skip) = digits(self.major);
        put(&d[skip..]);
        match (self.major, self.minor) {
            (2, 1) => put(b"_x"),
            (_, MINOR_SW) => put(b"_sw"),
            (_, m) => {
                let (d, skip) = digits(m);
                put(b"_");
                put(&d[skip..]);
            }
        }
        // ASCII throughout.
        std::str::from_utf8(&buf[..n]).unwrap_or_default()
    }

    /// [`Self::spell`] as an owned string (what `to_string` returns, for less).
    pub(crate) fn name(self) -> String {
        self.spell(&mut [0; 12]).to_owned()
    }
}

impl fmt::Display for Version {
    /// Microsoft's spelling: `vs_1_1`, `ps_2_x`, `vs_3_sw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.spell(&mut [0; 12]))
    }
}

impl std::str::FromStr for Version {
    type Err = ();

    /// Accepts `vs_1_1`, `vs.1.1`, `ps_2_x`, `ps_2_a`, `ps_2_b`, `vs_2_a`, `vs_3_sw`
    /// (case-insensitive). `_a`/`_b` map to `2_x`, as Microsoft's assembler does.
    fn from_str(s: &str) -> Result<Self, ()> {
        let s = s.to_ascii_lowercase();
        let bytes = s.as_bytes();
        if bytes.len() < 6 {
            return Err(());
        }
        let kind = match &bytes[..2] {
            b"vs" => ShaderKind::Vertex,
            b"ps" => ShaderKind::Pixel,
            _ => return Err(()),
        };
        let sep = bytes[2];
        if sep != b'_' && sep != b'.' {
            return Err(());
        }
        let rest = &s[3..];
        let (maj, min) = rest.split_once(['_', '.']).ok_or(())?;
        let major: u8 = match maj {
            "1" => 1,
            "2" => 2,
            "3" => 3,
            _ => return Err(()),
        };
        let minor = match min {
            "x" | "a" | "b" if major == 2 => 1,
            "sw" if major >= 2 => MINOR_SW,
            n if n.len() == 1 => n.parse::<u8>().map_err(|_| ())?,
            _ => return Err(()),
        };
        let v = Version { kind, major, minor };
        Version::from_token(v.token()).ok_or(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spelling_is_the_format_one() {
        // Every field value, as `write!` spelled them before the buffer did.
        for kind in [ShaderKind::Vertex, ShaderKind::Pixel] {
            for major in 0..=255u8 {
                for minor in 0..=255u8 {
                    let v = Version { kind, major, minor };
                    let p = kind.prefix();
                    let want = match (major, minor) {
                        (2, 1) => format!("{p}_2_x"),
                        (m, MINOR_SW) => format!("{p}_{m}_sw"),
                        (m, n) => format!("{p}_{m}_{n}"),
                    };
                    assert_eq!(v.to_string(), want);
                    assert_eq!(v.name(), want);
                }
            }
        }
    }

    #[test]
    fn tokens_round_trip() {
        for t in [
            0xFFFE0101u32,
            0xFFFF0104,
            0xFFFF0201,
            0xFFFE03FF,
            0xFFFE0100,
            0xFFFF0300,
        ] {
            let v = Version::from_token(t).unwrap();
            assert_eq!(v.token(), t);
            assert_eq!(v.to_string().parse::<Version>().unwrap(), v);
        }
        assert_eq!(Version::from_token(0xFFFE0400), None);
        assert_eq!(Version::from_token(0x46580200), None);
        assert_eq!(Version::from_token(0x7FFE0000), None);
        assert_eq!(Version::from_token(0xFFFF0105), None);
        assert_eq!("ps.1.4".parse::<Version>().unwrap(), Version::pixel(1, 4));
        assert_eq!("ps_2_b".parse::<Version>().unwrap().to_string(), "ps_2_x");
        assert!("vé_1_1".parse::<Version>().is_err());
    }

    #[test]
    fn model_helpers_name_the_versions_they_cover() {
        let all: Vec<Version> = ["vs_1_1", "vs_2_0", "vs_2_x", "vs_2_sw", "vs_3_0", "vs_3_sw"]
            .iter()
            .chain(&["ps_1_1", "ps_1_3", "ps_1_4", "ps_2_0", "ps_2_x", "ps_3_0"])
            .map(|s| s.parse().unwrap())
            .collect();
        let pick = |f: fn(Version) -> bool| -> Vec<String> {
            all.iter()
                .filter(|v| f(**v))
                .map(|v| v.to_string())
                .collect()
        };
        assert_eq!(
            pick(Version::is_sm1),
            ["vs_1_1", "ps_1_1", "ps_1_3", "ps_1_4"]
        );
        assert_eq!(pick(Version::is_ps_1_x), ["ps_1_1", "ps_1_3", "ps_1_4"]);
        assert_eq!(pick(Version::is_ps_1_4), ["ps_1_4"]);
        assert_eq!(pick(Version::is_sm3), ["vs_3_0", "vs_3_sw", "ps_3_0"]);
        assert_eq!(pick(Version::declares_varyings), pick(Version::is_sm3));
        for v in &all {
            assert_eq!(v.has_fixed_function_fog(), !v.is_sm3(), "{v}");
        }
    }
}
