//! What the face's `spirv` tests share: a `spirv` answer of bytes, and its module and
//! patch table read back.

use d3dbc_mojoshader::types::{MOJOSHADER_parseData, MOJOSHADER_samplerMap, SpirvPatchTable};
use d3dbc_mojoshader::MOJOSHADER_parse;

/// `MOJOSHADER_parse("spirv", "main", bytes)` with MojoShader's defaults elsewhere (no
/// swizzles, no sampler map, the C library's allocator); freed by the caller.
#[allow(dead_code)] // not every test that includes this file uses it
pub fn spirv_answer(bytes: &[u8]) -> *const MOJOSHADER_parseData {
    spirv_answer_mapped(bytes, &[])
}

/// [`spirv_answer`] with sampler map `smap`.
pub fn spirv_answer_mapped(
    bytes: &[u8],
    smap: &[MOJOSHADER_samplerMap],
) -> *const MOJOSHADER_parseData {
    // SAFETY: valid arguments; the answer is the caller's to free.
    unsafe {
        MOJOSHADER_parse(
            c"spirv".as_ptr(),
            c"main".as_ptr(),
            bytes.as_ptr(),
            bytes.len() as u32,
            std::ptr::null(),
            0,
            smap.as_ptr(),
            smap.len() as u32,
            None,
            None,
            std::ptr::null_mut(),
        )
    }
}

/// The module (as words) and the patch table of a `spirv` answer.
///
/// # Safety
/// `d` is a successful `spirv` answer.
pub unsafe fn module(d: *const MOJOSHADER_parseData) -> (Vec<u32>, SpirvPatchTable) {
    // SAFETY: per the contract: `output_len` bytes, the table last.
    unsafe {
        let a = &*d;
        let size = std::mem::size_of::<SpirvPatchTable>();
        let len = a.output_len as usize - size;
        let words = std::slice::from_raw_parts(a.output as *const u8, len)
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let table = std::ptr::read_unaligned(a.output.add(len) as *const SpirvPatchTable);
        (words, table)
    }
}
