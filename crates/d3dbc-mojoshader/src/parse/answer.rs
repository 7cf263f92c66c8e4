//! The answer laid out for C: a [`Plan`] written into one block of the caller's
//! allocator (`MOJOSHADER_parseData` and everything it points to, the output last), the
//! constant table's symbols, and the error answers (MojoShader's static out-of-memory
//! one included).

use super::*;

/// MojoShader's Vulkan-mode table, in static memory (a `const` reference), copied into
/// each answer.
const VULKAN_TABLE: &SpirvPatchTable = &SpirvPatchTable::VULKAN;

impl Output {
    /// Its length in bytes.
    pub fn len(&self) -> usize {
        match self {
            Output::Bytes(b) => b.len(),
            Output::Spirv { words, .. } => words.len() * 4 + std::mem::size_of::<SpirvPatchTable>(),
        }
    }

    /// Lays it out in `a`, with a NUL after it as MojoShader's outputs have.
    fn write(&self, a: &mut Arena) -> *const c_char {
        match self {
            Output::Bytes(b) => a.bytes_z(b),
            Output::Spirv {
                words,
                table,
                loads,
            } => {
                let module: Vec<u8>;
                let module: &[u8] = if cfg!(target_endian = "little") {
                    // SAFETY: u32s viewed as their bytes, the module's (little-endian)
                    // byte order.
                    unsafe {
                        std::slice::from_raw_parts(words.as_ptr() as *const u8, words.len() * 4)
                    }
                } else {
                    module = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                    &module
                };
                // SAFETY: a plain-data repr(C) struct viewed as its bytes.
                let bytes: &[u8] = unsafe {
                    std::slice::from_raw_parts(
                        VULKAN_TABLE as *const SpirvPatchTable as *const u8,
                        std::mem::size_of::<SpirvPatchTable>(),
                    )
                };
                let out = a.parts_z(&[module, bytes]);
                if a.writing() {
                    for &(word, value) in &table.0 {
                        let at = module.len() + 4 * word as usize;
                        if at + 4 <= module.len() + bytes.len() {
                            // SAFETY: inside the table's copy at `out + module.len()`, in
                            // the block; 4-aligned only, hence unaligned.
                            unsafe {
                                (out as *mut u8)
                                    .add(at)
                                    .cast::<u32>()
                                    .write_unaligned(value)
                            };
                        }
                    }
                }
                // The loads' arrays after the output; their addresses go into the copy
                // of the table (not into a second copy of the 7 KB table first).
                for (usage, index, l_types, l_opcodes) in loads.each() {
                    let types = a.slice(l_types);
                    let opcodes = a.slice(l_opcodes);
                    if a.writing() && usage < USAGE_TOTAL && index < 16 {
                        let entry = std::mem::offset_of!(SpirvPatchTable, attrib_type_load_offsets)
                            + (usage * 16 + index) * std::mem::size_of::<SpirvLoadOffsets>();
                        let entry = module.len() + entry;
                        let v = SpirvLoadOffsets {
                            num_loads: l_types.len() as u32,
                            load_types: types,
                            load_opcodes: opcodes,
                        };
                        // SAFETY: the table's copy lies at `out + module.len()`, in the
                        // block; the entry is inside it (usage and index are the table's
                        // array bounds); the copy is 4-aligned only, hence unaligned.
                        unsafe {
                            (out as *mut u8)
                                .add(entry)
                                .cast::<SpirvLoadOffsets>()
                                .write_unaligned(v)
                        };
                    }
                }
                out
            }
        }
    }
}

/// A constant table's type as the answer's symbols lay it out: owned ([`Ctab`]'s, a
/// preshader's) or read in place ([`CtabView`]'s, a shader's).
pub(crate) trait SymbolType: Sized {
    /// Class, base type, rows, columns, elements.
    fn head(&self) -> (ParameterClass, ParameterType, u16, u16, u16);
    /// Struct members.
    fn member_count(&self) -> usize;
    /// Calls `f` with each member's index, name and type.
    fn each_member(&self, f: impl FnMut(usize, &str, Self));
}

impl SymbolType for &TypeInfo {
    fn head(&self) -> (ParameterClass, ParameterType, u16, u16, u16) {
        (self.class, self.ty, self.rows, self.columns, self.elements)
    }

    fn member_count(&self) -> usize {
        self.members.len()
    }

    fn each_member(&self, mut f: impl FnMut(usize, &str, Self)) {
        for (i, m) in self.members.iter().enumerate() {
            f(i, &m.name, &m.ty);
        }
    }
}

impl SymbolType for TypeView<'_> {
    fn head(&self) -> (ParameterClass, ParameterType, u16, u16, u16) {
        (self.class, self.ty, self.rows, self.columns, self.elements)
    }

    fn member_count(&self) -> usize {
        self.members().len()
    }

    fn each_member(&self, mut f: impl FnMut(usize, &str, Self)) {
        for (i, (name, ty)) in self.members().enumerate() {
            f(i, &name, ty);
        }
    }
}

fn type_info(a: &mut Arena, t: impl SymbolType) -> MOJOSHADER_symbolTypeInfo {
    let n = t.member_count();
    let members = a.array::<MOJOSHADER_symbolStructMember>(n);
    t.each_member(|i, name, ty| {
        let m = MOJOSHADER_symbolStructMember {
            name: a.str(name),
            info: type_info(a, ty),
        };
        a.put(members, i, m);
    });
    let (class, ty, rows, columns, elements) = t.head();
    MOJOSHADER_symbolTypeInfo {
        parameter_class: class.to_u16() as c_int,
        parameter_type: ty.to_u16() as c_int,
        rows: rows.into(),
        columns: columns.into(),
        elements: elements.into(),
        member_count: n as c_uint,
        members,
    }
}

/// One constant-table entry for [`symbols`]: name, register set, first register,
/// registers, type.
pub(crate) type SymbolEntry<'n, T> = (std::borrow::Cow<'n, str>, RegisterSet, u16, u16, T);

/// The symbols of a constant table (`n` entries), laid out in `a`: the array (NULL when
/// empty) and its length.
pub(crate) fn symbols<'n, T: SymbolType>(
    a: &mut Arena,
    n: usize,
    entries: impl Iterator<Item = SymbolEntry<'n, T>>,
) -> (*mut MOJOSHADER_symbol, usize) {
    let p = a.array::<MOJOSHADER_symbol>(n);
    for (i, (name, set, index, count, ty)) in entries.take(n).enumerate() {
        let symbol = MOJOSHADER_symbol {
            name: a.str(&name),
            register_set: set.to_u16() as c_int,
            register_index: index.into(),
            register_count: count.into(),
            info: type_info(a, ty),
        };
        a.put(p, i, symbol);
    }
    (p, n)
}

/// The names of an answer's uniforms, samplers, attributes and outputs, kept per thread
/// between parses: the names, each NUL-terminated, where each starts, and one name.
type Names = (Vec<u8>, Vec<usize>, String);

thread_local! {
    static NAMES: std::cell::RefCell<Names> = std::cell::RefCell::default();
}

/// Lays `plan` out in one block from `alloc`.
pub(crate) fn emit(plan: &Plan, alloc: &Allocator) -> *const MOJOSHADER_parseData {
    // The names of the uniforms, samplers, attributes and outputs, each NUL-terminated,
    // in one run written once (the arena's measuring pass only needs their length).
    let (mut names, mut at, mut name) = NAMES
        .try_with(|n| n.try_borrow_mut().map(|mut n| std::mem::take(&mut *n)).ok())
        .ok()
        .flatten()
        .unwrap_or_default();
    names.clear();
    at.clear();
    let mut push = |s: &str, names: &mut Vec<u8>| {
        at.push(names.len());
        names.extend_from_slice(s.split('\0').next().unwrap_or("").as_bytes());
        names.push(0);
    };
    for &(index, count, _) in &plan.array_uniforms {
        push(&const_array_name(plan, index, count), &mut names);
    }
    for r in plan
        .uniforms
        .iter()
        .map(|u| u.reg)
        .chain(plan.samplers.iter().map(|s| s.reg))
        .chain(plan.attributes.iter().map(|x| x.reg))
        .chain(plan.outputs.iter().map(|x| x.reg))
    {
        varname(plan, r, &mut name);
        push(&name, &mut names);
    }
    let p = build(alloc, |a| {
        let top = a.place::<MOJOSHADER_parseData>();
        let output = plan.output.write(a);
        let mainfn = plan.mainfn.map_or(std::ptr::null(), |m| a.bytes_z(m));
        let base = a.bytes(&names);
        let mut next = at.iter().map(|&o| base.wrapping_add(o));
        let mut name = || next.next().unwrap_or(std::ptr::null());
        let uniform_count = plan.array_uniforms.len() + plan.uniforms.len();
        let uniforms = a.array::<MOJOSHADER_uniform>(uniform_count);
        for (i, &(index, count, constant)) in plan.array_uniforms.iter().enumerate() {
            let u = MOJOSHADER_uniform {
                r#type: UNIFORM_FLOAT,
                index,
                array_count: count,
                constant: constant as c_int,
                name: name(),
            };
            a.put(uniforms, i, u);
        }
        for (i, u) in plan.uniforms.iter().enumerate() {
            let u = MOJOSHADER_uniform {
                r#type: u.fields.0,
                index: u.fields.1,
                array_count: 0,
                constant: 0,
                name: name(),
            };
            a.put(uniforms, plan.array_uniforms.len() + i, u);
        }
        let samplers = a.array::<MOJOSHADER_sampler>(plan.samplers.len());
        for (i, s) in plan.samplers.iter().enumerate() {
            let s = MOJOSHADER_sampler {
                r#type: s.fields.0,
                index: s.fields.1,
                name: name(),
                texbem: s.fields.2 as c_int,
            };
            a.put(samplers, i, s);
        }
        let mut attrs = |a: &mut Arena, list: &[Named<(c_int, c_int)>]| {
            let p = a.array::<MOJOSHADER_attribute>(list.len());
            for (i, x) in list.iter().enumerate() {
                let v = MOJOSHADER_attribute {
                    usage: x.fields.0,
                    index: x.fields.1,
                    name: name(),
                };
                a.put(p, i, v);
            }
            p
        };
        let attributes = attrs(a, &plan.attributes);
        let outputs = attrs(a, &plan.outputs);
        let (symbols, symbol_count) = symbols(
            a,
            plan.ctab.as_ref().map_or(0, |t| t.len()),
            plan.ctab.iter().flat_map(|t| t.constants()).map(|c| {
                (
                    c.name,
                    c.register_set,
                    c.register_index,
                    c.register_count,
                    c.ty,
                )
            }),
        );
        let data = MOJOSHADER_parseData {
            error_count: 0,
            errors: std::ptr::null_mut(),
            profile: plan.profile.c_name().as_ptr(),
            output,
            output_len: plan.output.len() as c_int,
            instruction_count: plan.instruction_count,
            shader_type: plan.shader_type,
            major_ver: plan.major,
            minor_ver: plan.minor,
            mainfn,
            uniform_count: uniform_count as c_int,
            uniforms,
            constant_count: plan.constants.len() as c_int,
            constants: a.slice(&plan.constants),
            sampler_count: plan.samplers.len() as c_int,
            samplers,
            attribute_count: plan.attributes.len() as c_int,
            attributes,
            output_count: plan.outputs.len() as c_int,
            outputs,
            swizzle_count: plan.swizzles.len() as c_int,
            swizzles: a.slice(plan.swizzles),
            symbol_count: symbol_count as c_int,
            symbols,
            preshader: plan.preshader.as_ref().map_or(std::ptr::null_mut(), |p| {
                crate::preshader::write(a, p, alloc)
            }),
            malloc: alloc.m,
            free: alloc.f,
            malloc_data: alloc.d,
        };
        a.set(top, data);
        top
    });
    if names.capacity() <= 1 << 16 {
        let _ = NAMES.try_with(|n| {
            if let Ok(mut n) = n.try_borrow_mut() {
                *n = (names, at, name);
            }
        });
    }
    if p.is_null() {
        out_of_memory()
    } else {
        p
    }
}

/// Lays an error answer out in one block from `alloc`.
pub(crate) fn emit_error(f: &Failure, alloc: &Allocator) -> *const MOJOSHADER_parseData {
    let p = build(alloc, |a| {
        let top = a.place::<MOJOSHADER_parseData>();
        let error = MOJOSHADER_error {
            error: a.str(&f.message),
            filename: std::ptr::null(),
            error_position: f.position,
        };
        let mut data = EMPTY_ANSWER;
        data.error_count = 1;
        data.errors = a.one(error);
        data.malloc = alloc.m;
        data.free = alloc.f;
        data.malloc_data = alloc.d;
        a.set(top, data);
        top
    });
    if p.is_null() {
        out_of_memory()
    } else {
        p
    }
}
