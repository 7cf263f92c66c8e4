//! Reading a `CTAB` in place: the checks every read relies on ([`CtabView::parse`], with
//! exactly [`Ctab::parse`]'s errors), the constant records, and the views of constants
//! and types that borrow the table's bytes.

use super::{
    Constant, Ctab, CtabError, ParameterClass, ParameterType, RegisterSet, StructMember, TypeInfo,
    MAX_DEPTH, MAX_TYPES,
};

struct Reader<'a> {
    bytes: &'a [u8],
    types: usize,
}

impl<'a> Reader<'a> {
    fn u32_at(&self, off: usize, what: &'static str) -> Result<u32, CtabError> {
        read_u32(self.bytes, off).ok_or(CtabError {
            offset: off,
            reason: what,
        })
    }

    fn u16_at(&self, off: usize, what: &'static str) -> Result<u16, CtabError> {
        read_u16(self.bytes, off).ok_or(CtabError {
            offset: off,
            reason: what,
        })
    }

    /// Checks that a NUL-terminated string starts at `off`; its length without the NUL.
    fn check_string(&self, off: usize) -> Result<usize, CtabError> {
        self.check_name(off).map(|(len, _)| len)
    }

    /// [`Reader::check_string`], and whether the string is [`plain`](scan_string).
    fn check_name(&self, off: usize) -> Result<(usize, bool), CtabError> {
        let tail = self.bytes.get(off..).ok_or(CtabError {
            offset: off,
            reason: "string offset past the end",
        })?;
        scan_string(tail).ok_or(CtabError {
            offset: off,
            reason: "string has no terminating NUL",
        })
    }

    /// Checks the type description at `off` and, recursively, its members.
    fn check_type(&mut self, off: usize, depth: usize) -> Result<(), CtabError> {
        if depth > MAX_DEPTH {
            return Err(CtabError {
                offset: off,
                reason: "struct nesting too deep (cyclic type info?)",
            });
        }
        self.types += 1;
        if self.types > MAX_TYPES {
            return Err(CtabError {
                offset: off,
                reason: "too many type descriptions",
            });
        }
        let what = "type info past the end";
        for field in (0..12).step_by(2) {
            self.u16_at(off + field, what)?;
        }
        let nmembers = self.u16_at(off + 10, what)? as usize;
        let moff = self.u32_at(off + 12, what)? as usize;
        if nmembers > 0 {
            // Each member is 8 bytes; refuse counts the data cannot hold.
            if moff.saturating_add(nmembers * 8) > self.bytes.len() {
                return Err(CtabError {
                    offset: moff,
                    reason: "struct members past the end",
                });
            }
            for i in 0..nmembers {
                let m = moff + i * 8;
                self.check_string(self.u32_at(m, "member name")? as usize)?;
                let toff = self.u32_at(m + 4, "member type")? as usize;
                self.check_type(toff, depth + 1)?;
            }
        }
        Ok(())
    }
}

fn read_u32(bytes: &[u8], off: usize) -> Option<u32> {
    let b = bytes.get(off..off.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn read_u16(bytes: &[u8], off: usize) -> Option<u16> {
    let b = bytes.get(off..off.checked_add(2)?)?;
    Some(u16::from_le_bytes([b[0], b[1]]))
}

/// Eight bytes `x` (little-endian) with the high bit set in each control character:
/// a byte below 0x20 (it borrows when 0x20 is taken from it, its top bit clear) or 0x7F
/// (XOR 0x7F makes it zero). A borrow only runs upwards, so bytes above a flagged one
/// may be flagged too, and the lowest flagged byte is always a true one.
#[inline(always)]
pub(crate) fn control_bytes(x: u64) -> u64 {
    const HIGH: u64 = ONES << 7;
    let below = |x: u64, n: u64| x.wrapping_sub(ONES * n) & !x & HIGH;
    below(x, 0x20) | below(x ^ (ONES * 0x7F), 1)
}

/// A one in every byte.
const ONES: u64 = 0x0101_0101_0101_0101;

/// The position of the first NUL byte of `b`, eight bytes a step: names are a few
/// bytes, where `memchr`'s alignment set-up costs more than the scan, and creator strings
/// some fifty, where a byte loop is slow.
#[inline]
fn nul_position(b: &[u8]) -> Option<usize> {
    let mut chunks = b.chunks_exact(8);
    let mut at = 0;
    for c in &mut chunks {
        let x = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        // High bit set in the lowest zero byte (and maybe in higher bytes after it).
        let zero = x.wrapping_sub(ONES) & !x & (ONES << 7);
        if zero != 0 {
            return Some(at + (zero.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&c| c == 0)
        .map(|i| at + i)
}

/// The length of the NUL-terminated string at the start of `b` and whether it is plain:
/// printable ASCII only (no control character, no byte of 0x7F or above), which a
/// listing prints as it is. One scan, eight bytes a step, finds the first byte that is
/// not printable ASCII: where that is the NUL, the string is plain.
#[inline]
fn scan_string(b: &[u8]) -> Option<(usize, bool)> {
    let mut chunks = b.chunks_exact(8);
    let mut at = 0;
    let mut odd = None;
    for c in &mut chunks {
        let x = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        // A control character (the NUL among them), or 0x80 and above.
        let flags = control_bytes(x) | (x & (ONES << 7));
        if flags != 0 {
            odd = Some(at + (flags.trailing_zeros() / 8) as usize);
            break;
        }
        at += 8;
    }
    let first = match odd {
        Some(i) => i,
        None => {
            at + chunks
                .remainder()
                .iter()
                .position(|&c| !(0x20..0x7F).contains(&c))?
        }
    };
    if b[first] == 0 {
        return Some((first, true));
    }
    nul_position(&b[first..]).map(|n| (first + n, false))
}

/// The NUL-terminated string at `off` (invalid UTF-8 replaced, borrowed otherwise).
fn str_at(bytes: &[u8], off: usize) -> std::borrow::Cow<'_, str> {
    let tail = bytes.get(off..).unwrap_or(&[]);
    let len = nul_position(tail).unwrap_or(tail.len());
    text(&tail[..len])
}

/// A string's bytes as text (invalid UTF-8 replaced, borrowed otherwise).
#[inline]
fn text(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    if bytes.is_ascii() {
        // SAFETY: ASCII is valid UTF-8. Measured reason: names are a few bytes, where
        // `from_utf8`'s set-up costs ~100 instructions a call, 7% of a listing of the
        // peers bench's binaries (callgrind); `is_ascii` checks a word at a time.
        return std::borrow::Cow::Borrowed(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    // `from_utf8` first: its ASCII fast path is far quicker than the lossy walk.
    match std::str::from_utf8(bytes) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// One constant record (`D3DXSHADER_CONSTANTINFO`) of a checked table, as
/// [`CtabView::parse_each`] finds it: its name's place (byte offset and length, the NUL
/// excluded) and its fields, for readers that keep a table's constants in a small array
/// rather than as [`ConstantView`]s.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Record {
    name_off: u32,
    name_len: u32,
    /// The name is printable ASCII ([`scan_string`]).
    plain: bool,
    set: u16,
    index: u16,
    count: u16,
    reserved: u16,
    type_off: u32,
    default_off: u32,
}

impl Record {
    /// The `D3DXSHADER_CONSTANTINFO` at byte `c` of `bytes` (a field past the end reads
    /// 0), whose name the caller has scanned: `name_len` bytes, `plain` or not. The one
    /// reader of the record's layout, for [`CtabView::parse_each`] and
    /// [`CtabView::records`].
    #[inline]
    fn at(bytes: &[u8], c: usize, name_len: usize, plain: bool) -> Record {
        let h = |k: usize| read_u16(bytes, c + k).unwrap_or(0);
        let w = |k: usize| read_u32(bytes, c + k).unwrap_or(0);
        Record {
            name_off: w(0),
            // A string's length fits: it lies in a table of `u32` offsets.
            name_len: name_len as u32,
            plain,
            set: h(4),
            index: h(6),
            count: h(8),
            reserved: h(10),
            type_off: w(12),
            default_off: w(16),
        }
    }

    /// The record's name in `bytes`, its table's (see [`CtabView::bytes`]).
    #[inline]
    pub(crate) fn name<'s>(&self, bytes: &'s [u8]) -> std::borrow::Cow<'s, str> {
        text(self.name_bytes(bytes))
    }

    /// The bytes of the record's name in `bytes`, its table's.
    #[inline]
    pub(crate) fn name_bytes<'s>(&self, bytes: &'s [u8]) -> &'s [u8] {
        let at = self.name_off as usize;
        bytes.get(at..at + self.name_len as usize).unwrap_or(&[])
    }

    /// The `N` bytes of `bytes` (its table's) from the name's start, where the table
    /// holds them: the name and what follows it, for a caller that copies or compares a
    /// fixed-size piece.
    #[inline]
    pub(crate) fn name_window<'s, const N: usize>(&self, bytes: &'s [u8]) -> Option<&'s [u8; N]> {
        let at = self.name_off as usize;
        bytes.get(at..at + N)?.try_into().ok()
    }

    /// The name's bytes where it is printable ASCII (as a listing prints it, and as its
    /// [`Record::name`] reads).
    #[inline]
    pub(crate) fn plain_name<'s>(&self, bytes: &'s [u8]) -> Option<&'s [u8]> {
        self.plain.then(|| self.name_bytes(bytes))
    }

    /// The name's length in bytes as [`Record::name`] reads it.
    #[inline]
    pub(crate) fn name_len(&self, bytes: &[u8]) -> usize {
        if self.plain {
            self.name_len as usize
        } else {
            self.name(bytes).len()
        }
    }

    /// True when the table gives a default value.
    #[inline]
    pub(crate) fn has_default(&self) -> bool {
        self.default_off != 0
    }

    /// Register set, first register and register count.
    #[inline]
    pub(crate) fn registers(&self) -> (RegisterSet, u16, u16) {
        (RegisterSet::from_u16(self.set), self.index, self.count)
    }

    /// The record's type description in `bytes`.
    #[inline]
    pub(crate) fn ty<'s>(&self, bytes: &'s [u8]) -> TypeView<'s> {
        TypeView::at(bytes, self.type_off as usize)
    }

    /// The record as a [`ConstantView`] of `bytes`.
    pub(crate) fn view<'s>(&self, bytes: &'s [u8]) -> ConstantView<'s> {
        let (register_set, register_index, register_count) = self.registers();
        ConstantView {
            name: self.name(bytes),
            register_set,
            register_index,
            register_count,
            ty: self.ty(bytes),
            explicit_register: self.reserved != 0,
            bytes,
            default_off: self.default_off as usize,
        }
    }
}

/// A checked, borrowed view of a `CTAB` payload: the same facts as [`Ctab`], read in
/// place when asked for (names borrowed, types and default values read lazily), so a
/// listing's header is printed without building the owned table. [`CtabView::parse`]
/// checks the whole table first (with exactly [`Ctab::parse`]'s errors), so every
/// later read is in bounds.
///
/// ```
/// let listing = "// Generated by me\n// Parameters:\n//   float4 Tint;\n\
///                // Registers:\n//   Tint c3 1\nps_2_0\nmov oC0, c3\n";
/// let table = d3dbc::asm::ctab_header::ctab_from_listing(listing, "t").unwrap().unwrap();
/// let payload = table.encode();
/// let view = d3dbc::ctab::CtabView::parse(&payload).unwrap();
/// assert_eq!(view.creator(), "me");
/// let tint = view.constants().next().unwrap();
/// assert_eq!((&*tint.name, tint.register_index, tint.ty.columns), ("Tint", 3, 4));
/// assert_eq!(view.to_ctab(), table);
/// ```
#[derive(Clone, Debug)]
pub struct CtabView<'a> {
    /// The table's little-endian bytes after the FourCC.
    bytes: std::borrow::Cow<'a, [u8]>,
    creator_off: usize,
    target_off: usize,
    version: u32,
    flags: u32,
    count: usize,
    info_off: usize,
}

/// One constant of a [`CtabView`] (`D3DXSHADER_CONSTANTINFO`).
#[derive(Clone, Debug)]
pub struct ConstantView<'s> {
    /// Name.
    pub name: std::borrow::Cow<'s, str>,
    /// Register set.
    pub register_set: RegisterSet,
    /// First register.
    pub register_index: u16,
    /// Number of registers.
    pub register_count: u16,
    /// Type description.
    pub ty: TypeView<'s>,
    /// Placed by `register(…)` in the source (see [`Constant::explicit_register`]).
    pub explicit_register: bool,
    bytes: &'s [u8],
    default_off: usize,
}

/// A type description of a [`CtabView`] (`D3DXSHADER_TYPEINFO`); members are read when
/// iterated.
#[derive(Clone, Copy, Debug)]
pub struct TypeView<'s> {
    /// Class (scalar, vector, matrix, object, struct).
    pub class: ParameterClass,
    /// Base type.
    pub ty: ParameterType,
    /// Rows.
    pub rows: u16,
    /// Columns.
    pub columns: u16,
    /// Array elements (1 for non-arrays).
    pub elements: u16,
    bytes: &'s [u8],
    members: usize,
    members_off: usize,
}

impl<'s> TypeView<'s> {
    /// Reads the (checked) type description at `off`.
    pub(crate) fn at(bytes: &'s [u8], off: usize) -> TypeView<'s> {
        let h = |k: usize| read_u16(bytes, off + k).unwrap_or(0);
        TypeView {
            class: ParameterClass::from_u16(h(0)),
            ty: ParameterType::from_u16(h(2)),
            rows: h(4),
            columns: h(6),
            elements: h(8),
            bytes,
            members: h(10) as usize,
            members_off: read_u32(bytes, off + 12).unwrap_or(0) as usize,
        }
    }

    /// Struct members in declaration order: name and type.
    pub fn members(
        &self,
    ) -> impl ExactSizeIterator<Item = (std::borrow::Cow<'s, str>, TypeView<'s>)> + 's {
        let (bytes, base) = (self.bytes, self.members_off);
        (0..self.members).map(move |i| {
            let m = base + i * 8;
            let name = str_at(bytes, read_u32(bytes, m).unwrap_or(0) as usize);
            let ty = TypeView::at(bytes, read_u32(bytes, m + 4).unwrap_or(0) as usize);
            (name, ty)
        })
    }

    /// The owned [`TypeInfo`].
    pub fn to_type_info(&self) -> TypeInfo {
        TypeInfo {
            class: self.class,
            ty: self.ty,
            rows: self.rows,
            columns: self.columns,
            elements: self.elements,
            members: self
                .members()
                .map(|(name, ty)| StructMember {
                    name: name.into_owned(),
                    ty: ty.to_type_info(),
                })
                .collect(),
        }
    }
}

impl<'s> ConstantView<'s> {
    /// True when the table gives a default value.
    pub fn has_default(&self) -> bool {
        self.default_off != 0
    }

    /// The default value DWORDs ([`default_dwords`] of the type, fewer where the table
    /// ends first); empty without a default value.
    pub fn default_value(&self) -> impl ExactSizeIterator<Item = u32> + 's {
        let (bytes, off) = (self.bytes, self.default_off);
        let n = if off == 0 {
            0
        } else {
            let fallback = self.register_count as usize * 4;
            default_dwords(&self.ty, self.register_set)
                .unwrap_or(fallback)
                .min(bytes.len().saturating_sub(off) / 4)
        };
        (0..n).map(move |k| read_u32(bytes, off + k * 4).unwrap_or(0))
    }

    /// The owned [`Constant`].
    pub fn to_constant(&self) -> Constant {
        Constant {
            name: self.name.clone().into_owned(),
            register_set: self.register_set,
            register_index: self.register_index,
            register_count: self.register_count,
            ty: self.ty.to_type_info(),
            default_value: self.has_default().then(|| self.default_value().collect()),
            explicit_register: self.explicit_register,
        }
    }
}

/// How many DWORDs a default value of type `ty` in register set `set` has, as the
/// compilers write it: one per scalar component in the bool set (`bool3` → 3), four per
/// register of the type's layout in the float and int sets (a vector or scalar takes one
/// register per element, a row-major matrix one per row, a column-major one per column,
/// a struct its members' sum). `None` for other sets (samplers have no default) and for
/// types too deeply shared to walk (a hostile table).
pub fn default_dwords(ty: &TypeView, set: RegisterSet) -> Option<usize> {
    fn walk(ty: &TypeView, bools: bool, budget: &mut u32) -> Option<usize> {
        *budget = budget.checked_sub(1)?;
        let per_element = match ty.class {
            ParameterClass::Struct => {
                let mut sum = 0usize;
                for (_, m) in ty.members() {
                    sum = sum.saturating_add(walk(&m, bools, budget)?);
                }
                sum
            }
            _ if bools => ty.rows as usize * ty.columns as usize,
            ParameterClass::MatrixRows => ty.rows as usize,
            ParameterClass::MatrixColumns => ty.columns as usize,
            _ => 1,
        };
        Some(per_element.saturating_mul(ty.elements as usize))
    }
    let mut budget = 4096;
    match set {
        RegisterSet::Bool => walk(ty, true, &mut budget),
        RegisterSet::Float4 | RegisterSet::Int4 => {
            walk(ty, false, &mut budget).map(|r| r.saturating_mul(4))
        }
        _ => None,
    }
}

impl<'a> CtabView<'a> {
    /// Checks a comment payload that starts with `CTAB` and views it in place (a copy
    /// only on big-endian hosts). Fails exactly where [`Ctab::parse`] fails.
    pub fn parse(payload: &'a [u32]) -> Result<CtabView<'a>, CtabError> {
        Self::parse_each(payload, |_| {})
    }

    /// [`CtabView::parse`], handing `each` every constant's [`Record`] as it is checked,
    /// in table order (on an error, the records handed so far are of a table that fails).
    pub(crate) fn parse_each(
        payload: &'a [u32],
        mut each: impl FnMut(Record),
    ) -> Result<CtabView<'a>, CtabError> {
        if !Ctab::is_ctab(payload) {
            return Err(CtabError {
                offset: 0,
                reason: "comment does not start with CTAB",
            });
        }
        // The table's little-endian bytes: the payload itself on a little-endian host
        // (no copy), a copy elsewhere.
        let bytes: std::borrow::Cow<[u8]> = if cfg!(target_endian = "little") {
            std::borrow::Cow::Borrowed(bytemuck::cast_slice(&payload[1..]))
        } else {
            payload[1..].iter().flat_map(|d| d.to_le_bytes()).collect()
        };
        let mut r = Reader {
            bytes: &bytes,
            types: 0,
        };
        let size = r.u32_at(0, "header truncated")? as usize;
        if size < 28 {
            return Err(CtabError {
                offset: 0,
                reason: "header size field is smaller than 28 bytes",
            });
        }
        let creator_off = r.u32_at(4, "header truncated")? as usize;
        let version = r.u32_at(8, "header truncated")?;
        let count = r.u32_at(12, "header truncated")? as usize;
        let info_off = r.u32_at(16, "header truncated")? as usize;
        let flags = r.u32_at(20, "header truncated")?;
        let target_off = r.u32_at(24, "header truncated")? as usize;
        r.check_string(creator_off)?;
        r.check_string(target_off)?;
        if info_off.saturating_add(count.saturating_mul(20)) > bytes.len() {
            return Err(CtabError {
                offset: info_off,
                reason: "constant count runs past the end of the table",
            });
        }
        for i in 0..count {
            // Every record lies inside the table (the count was checked against its end).
            let c = info_off + i * 20;
            let name_off = r.u32_at(c, "constant info")?;
            let (name_len, plain) = r.check_name(name_off as usize)?;
            let record = Record::at(r.bytes, c, name_len, plain);
            r.check_type(record.type_off as usize, 0)?;
            each(record);
        }
        Ok(CtabView {
            bytes,
            creator_off,
            target_off,
            version,
            flags,
            count,
            info_off,
        })
    }

    /// The creator string (`Microsoft (R) HLSL Shader Compiler 9.29.952.3111`).
    pub fn creator(&self) -> std::borrow::Cow<'_, str> {
        str_at(&self.bytes, self.creator_off)
    }

    /// The target string (`vs_2_0`).
    pub fn target(&self) -> std::borrow::Cow<'_, str> {
        str_at(&self.bytes, self.target_off)
    }

    /// The version field (same encoding as the version token).
    pub fn version(&self) -> u32 {
        self.version
    }

    /// `D3DXSHADER_*` compile flags.
    pub fn flags(&self) -> u32 {
        self.flags
    }

    /// Number of constants.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True without constants.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The constants, in table order.
    pub fn constants(&self) -> impl ExactSizeIterator<Item = ConstantView<'_>> + '_ {
        let bytes: &[u8] = &self.bytes;
        self.records().map(move |r| r.view(bytes))
    }

    /// The table's bytes after the FourCC, which [`Record`]s index.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The constants' [`Record`]s, in table order.
    pub(crate) fn records(&self) -> impl ExactSizeIterator<Item = Record> + '_ {
        let bytes: &[u8] = &self.bytes;
        let info = self.info_off;
        (0..self.count).map(move |i| {
            let c = info + i * 20;
            let name_off = read_u32(bytes, c).unwrap_or(0);
            let tail = bytes.get(name_off as usize..).unwrap_or(&[]);
            let (name_len, plain) = scan_string(tail).unwrap_or((tail.len(), false));
            Record::at(bytes, c, name_len, plain)
        })
    }

    /// The owned [`Ctab`].
    pub fn to_ctab(&self) -> Ctab {
        Ctab {
            creator: self.creator().into_owned(),
            target: self.target().into_owned(),
            version: self.version,
            flags: self.flags,
            constants: self.constants().map(|c| c.to_constant()).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nul_position_is_the_first_nul() {
        // Every length to 40, a NUL at every place (or none), other bytes 0x01, 0x80 and
        // 0xFF (the values a borrow-based zero test could mistake).
        for len in 0..40 {
            for fill in [0x01u8, 0x80, 0xFF] {
                for nul in (0..len).map(Some).chain([None]) {
                    let mut b = vec![fill; len];
                    if let Some(i) = nul {
                        b[i] = 0;
                        // A second NUL later does not move the answer.
                        if i + 3 < len {
                            b[i + 3] = 0;
                        }
                    }
                    assert_eq!(nul_position(&b), b.iter().position(|&c| c == 0), "{b:?}");
                }
            }
        }
    }

    /// The one-scan string check agrees with a byte-by-byte one: every length to 24, a
    /// NUL at every place (or none), one odd byte (every value) at every place before it
    /// among printable neighbours.
    #[test]
    fn scan_string_finds_the_nul_and_plainness() {
        let slow = |b: &[u8]| {
            let n = b.iter().position(|&c| c == 0)?;
            Some((n, b[..n].iter().all(|c| (0x20..0x7F).contains(c))))
        };
        for len in 0..24 {
            for nul in (0..len).map(Some).chain([None]) {
                for odd in 0..len {
                    for v in 0..=255u8 {
                        let mut b = vec![b'a'; len];
                        b[odd] = v;
                        if let Some(i) = nul {
                            b[i] = 0;
                        }
                        assert_eq!(scan_string(&b), slow(&b), "{b:?}");
                    }
                }
            }
        }
    }
}
