//! Writing a `CTAB` back: [`Ctab::encode`] in the byte layout of the tool that made the
//! table ([`CtabLayout`]).

use super::*;

/// How a tool lays out a constant table's bytes: what follows the header and the
/// constant records, in which order, and what it writes once and points to again.
/// [`Ctab::encode`] picks it from the table's creator and target
/// ([`CtabLayout::of`]); every Microsoft-made table of the conformance corpus (shaders,
/// effects and their preshaders, from D3DX9 4.08 to fxc 10.1) re-encodes to its own
/// bytes (`tests/ctab_encode_corpus.rs`).
///
/// The Microsoft layout: the 28-byte header (its constant-info offset 0 when there are
/// no constants), the 20-byte records, then per constant its name (strings are packed,
/// not aligned; a name already written is pointed to again, member names included), its
/// type (aligned to 4; a struct's member names and types first, then its member table,
/// then the type record) and its default value (aligned), then the target and creator
/// strings, padded with `0xAB` to a DWORD. What is shared:
///
/// | | [`Fxc`](CtabLayout::Fxc) | [`D3dx9`](CtabLayout::D3dx9) | [`Preshader`](CtabLayout::Preshader) |
/// |---|---|---|---|
/// | a non-array, non-object type equal to an earlier constant's (one pool for constants, one for struct members) | shared | shared | written again |
/// | object types (samplers, textures) | written again | shared | written again |
/// | a struct's member table equal to an earlier one | shared | shared | written again |
/// | a default value equal to an earlier one | shared | shared | shared |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CtabLayout {
    /// fxc and d3dcompiler (HLSL Shader Compiler 9.x, 6.3, 10.x).
    Fxc,
    /// The D3DX9 shader compiler of the DirectX SDK (`D3DX9 Shader Compiler 4.x`–9.x).
    D3dx9,
    /// The constant table of a D3DX preshader (target `tx`, inside an effect or a
    /// shader's `PRES` block).
    Preshader,
    /// vkd3d-shader: [`Plain`](CtabLayout::Plain) without the target string (its
    /// offset is 0).
    Vkd3d,
    /// Any other creator (d3dbc's own tables among them): every name aligned, nothing
    /// shared, a type record before its member table and members.
    Plain,
}

impl CtabLayout {
    /// The layout of the tool that wrote `ctab`, from its creator and target.
    pub fn of(ctab: &Ctab) -> CtabLayout {
        if ctab.target == "tx" {
            CtabLayout::Preshader
        } else if ctab.creator.starts_with("vkd3d") {
            CtabLayout::Vkd3d
        } else if ctab.creator.contains("D3DX9 Shader Compiler") {
            CtabLayout::D3dx9
        } else if ctab.creator.starts_with("Microsoft") {
            CtabLayout::Fxc
        } else {
            CtabLayout::Plain
        }
    }
}

/// Byte buffer for [`Ctab::encode`]: offsets are relative to its start. Remembers what
/// it wrote, for the layouts that point to equal pieces again.
struct Writer<'t> {
    out: Vec<u8>,
    layout: CtabLayout,
    names: Vec<(&'t str, u32)>,
    types: Vec<(&'t TypeInfo, u32)>,
    member_types: Vec<(&'t TypeInfo, u32)>,
    tables: Vec<(&'t [StructMember], u32)>,
    defaults: Vec<(&'t [u32], u32)>,
}

impl<'t> Writer<'t> {
    fn u32(&mut self, v: u32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    fn u16(&mut self, v: u16) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    fn set_u32(&mut self, at: usize, v: u32) {
        self.out[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
    fn set_u16(&mut self, at: usize, v: u16) {
        self.out[at..at + 2].copy_from_slice(&v.to_le_bytes());
    }
    fn pos(&self) -> u32 {
        self.out.len() as u32
    }
    /// A NUL-terminated string; returns its offset.
    fn string(&mut self, s: &str) -> u32 {
        let at = self.pos();
        self.out.extend_from_slice(s.as_bytes());
        self.out.push(0);
        at
    }
    /// A constant's or member's name: written once, pointed to again where the layout
    /// shares names.
    fn name(&mut self, s: &'t str) -> u32 {
        if self.plain() {
            let at = self.string(s);
            self.align();
            return at;
        }
        if let Some(&(_, at)) = self.names.iter().find(|(n, _)| *n == s) {
            return at;
        }
        let at = self.string(s);
        self.names.push((s, at));
        at
    }
    /// vkd3d's layout or the plain one: nothing shared, names aligned.
    fn plain(&self) -> bool {
        matches!(self.layout, CtabLayout::Vkd3d | CtabLayout::Plain)
    }
    /// Pads to a DWORD boundary with 0xAB, as D3DX pads.
    fn align(&mut self) {
        while !self.out.len().is_multiple_of(4) {
            self.out.push(0xAB);
        }
    }
    /// Whether an equal earlier type record may stand for `t`.
    fn shares_type(&self, t: &TypeInfo) -> bool {
        t.elements == 1
            && match self.layout {
                CtabLayout::Fxc => t.class != ParameterClass::Object,
                CtabLayout::D3dx9 => true,
                CtabLayout::Preshader | CtabLayout::Vkd3d | CtabLayout::Plain => false,
            }
    }
    /// A type description (its members' names and types, then its member table, then the
    /// record); returns the record's offset.
    fn type_info(&mut self, t: &'t TypeInfo, member: bool) -> u32 {
        if self.plain() {
            return self.plain_type_info(t);
        }
        let share = self.shares_type(t);
        if share {
            let pool = if member {
                &self.member_types
            } else {
                &self.types
            };
            if let Some(&(_, at)) = pool.iter().find(|(p, _)| *p == t) {
                return at;
            }
        }
        let table = if t.members.is_empty() {
            0
        } else {
            self.member_table(&t.members)
        };
        let at = self.record(t, table);
        if share {
            if member {
                self.member_types.push((t, at));
            } else {
                self.types.push((t, at));
            }
        }
        at
    }
    /// A type record (`D3DXSHADER_TYPEINFO`), aligned; returns its offset.
    fn record(&mut self, t: &TypeInfo, member_table: u32) -> u32 {
        self.align();
        let at = self.pos();
        for v in [
            t.class.to_u16(),
            t.ty.to_u16(),
            t.rows,
            t.columns,
            t.elements,
        ] {
            self.u16(v);
        }
        self.u16(t.members.len() as u16);
        self.u32(member_table);
        at
    }
    /// The plain layout's type description: the record, its member table, then each
    /// member's name and type.
    fn plain_type_info(&mut self, t: &'t TypeInfo) -> u32 {
        let at = self.record(t, 0); // member table offset patched below
        if !t.members.is_empty() {
            let table = self.pos();
            self.set_u32(at as usize + 12, table);
            for _ in &t.members {
                self.u32(0);
                self.u32(0);
            }
            for (i, m) in t.members.iter().enumerate() {
                let name = self.name(&m.name);
                let ty = self.plain_type_info(&m.ty);
                self.set_u32(table as usize + i * 8, name);
                self.set_u32(table as usize + i * 8 + 4, ty);
            }
        }
        at
    }
    /// A struct's member names and types, then the table of (name, type) offsets.
    fn member_table(&mut self, members: &'t [StructMember]) -> u32 {
        let shares = matches!(self.layout, CtabLayout::Fxc | CtabLayout::D3dx9);
        if shares {
            if let Some(&(_, at)) = self.tables.iter().find(|(m, _)| *m == members) {
                return at;
            }
        }
        let mut entries = Vec::with_capacity(members.len());
        for m in members {
            let name = self.name(&m.name);
            let ty = self.type_info(&m.ty, true);
            entries.push((name, ty));
        }
        self.align();
        let at = self.pos();
        for (name, ty) in entries {
            self.u32(name);
            self.u32(ty);
        }
        if shares {
            self.tables.push((members, at));
        }
        at
    }
    /// A default value, shared with an equal earlier one except in vkd3d's layout.
    fn default_value(&mut self, d: &'t [u32]) -> u32 {
        let shares = !self.plain();
        if shares {
            if let Some(&(_, at)) = self.defaults.iter().find(|(p, _)| *p == d) {
                return at;
            }
        }
        self.align();
        let at = self.pos();
        d.iter().for_each(|&x| self.u32(x));
        if shares {
            self.defaults.push((d, at));
        }
        at
    }
}

impl Ctab {
    /// Encodes the table as a comment payload (starting with the `CTAB` FourCC) in the
    /// byte layout of the tool that made it ([`CtabLayout::of`]): a table read from a
    /// Microsoft compiler's shader encodes back to the same bytes, and `Ctab::parse` of
    /// the result gives back an equal table.
    pub fn encode(&self) -> Vec<u32> {
        self.encode_as(CtabLayout::of(self))
    }

    /// Encodes the table in the given tool's byte layout.
    pub fn encode_as(&self, layout: CtabLayout) -> Vec<u32> {
        let mut w = Writer {
            out: Vec::with_capacity(64 + 48 * self.constants.len() + self.creator.len()),
            layout,
            names: Vec::new(),
            types: Vec::new(),
            member_types: Vec::new(),
            tables: Vec::new(),
            defaults: Vec::new(),
        };
        let info = if self.constants.is_empty() && !w.plain() {
            0
        } else {
            28
        };
        for v in [
            28,
            0,
            self.version,
            self.constants.len() as u32,
            info,
            self.flags,
            0,
        ] {
            w.u32(v);
        }
        let infos = w.out.len();
        w.out.resize(infos + 20 * self.constants.len(), 0);
        for (i, c) in self.constants.iter().enumerate() {
            let name = w.name(&c.name);
            let ty = w.type_info(&c.ty, false);
            let default = c.default_value.as_deref().map_or(0, |d| w.default_value(d));
            let base = infos + i * 20;
            w.set_u32(base, name);
            w.set_u16(base + 4, c.register_set.to_u16());
            w.set_u16(base + 6, c.register_index);
            w.set_u16(base + 8, c.register_count);
            let reserved = if c.explicit_register {
                (c.register_index << 2) | 2
            } else {
                0
            };
            w.set_u16(base + 10, reserved);
            w.set_u32(base + 12, ty);
            w.set_u32(base + 16, default);
        }
        // The target string is followed directly by the creator string, then padding;
        // vkd3d writes no target string (its offset stays 0).
        if layout != CtabLayout::Vkd3d {
            let target = w.string(&self.target);
            w.set_u32(24, target);
        }
        let creator = w.string(&self.creator);
        w.set_u32(4, creator);
        w.align();
        let mut out = Vec::with_capacity(1 + w.out.len() / 4);
        out.push(CTAB_FOURCC);
        out.extend(
            w.out
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
        out
    }
}
