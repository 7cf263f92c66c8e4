//! The subnormal rule ([`crate::Denormals`]) as SPIR-V asks a driver for it:
//! `SPV_KHR_float_controls`' `DenormFlushToZero` or `DenormPreserve` execution mode for
//! 32-bit floats, with its capability and extension. Both SPIR-V back ends
//! (`d3dbc-spirv` writing words, `d3dbc-naga` through naga's writer, which cannot
//! express execution modes of this kind in naga 30.0.1) put the request into their
//! finished modules through [`request`], so they request the same.
//!
//! A Vulkan driver may accept the request only where it reports
//! `shaderDenormFlushToZeroFloat32` / `shaderDenormPreserveFloat32`
//! (`VkPhysicalDeviceFloatControlsProperties`), so it is made only when
//! [`super::PipelineState::float_controls`] says the target has them. Without it (the
//! default) nothing is requested and the float32 denormal behaviour is the driver's
//! (Vulkan leaves it implementation-defined): Mesa's lavapipe (22.3) reports neither
//! mode and flushes (llvmpipe runs shaders with the x86 FTZ/DAZ bits set), as D3D10+
//! hardware does, which is the rule's default.

use crate::semantics::Denormals;

const OP_CAPABILITY: u32 = 17;
const OP_EXTENSION: u32 = 10;
const OP_ENTRY_POINT: u32 = 15;
const OP_EXECUTION_MODE: u32 = 16;
/// `ExecutionMode::DenormPreserve` / `DenormFlushToZero` (SPV_KHR_float_controls).
const MODE_PRESERVE: u32 = 4459;
const MODE_FLUSH: u32 = 4460;
/// `Capability::DenormPreserve` / `DenormFlushToZero`.
const CAP_PRESERVE: u32 = 4464;
const CAP_FLUSH: u32 = 4465;
const EXTENSION: &str = "SPV_KHR_float_controls";

/// The execution mode and capability `denormals` asks for.
pub fn mode(denormals: Denormals) -> (u32, u32) {
    match denormals {
        Denormals::FlushToZero => (MODE_FLUSH, CAP_FLUSH),
        Denormals::Preserve => (MODE_PRESERVE, CAP_PRESERVE),
    }
}

/// Adds to the SPIR-V module `words` the capability, the extension and, for every entry
/// point, the execution mode that ask the driver for `denormals` on 32-bit floats. A
/// module that already asks for a 32-bit denormal mode, or is not a SPIR-V module, is
/// left as it is. One pass over the words and one copy.
pub fn request(words: &mut Vec<u32>, denormals: Denormals) {
    if words.len() < 5 || words[0] != 0x0723_0203 {
        return;
    }
    let (exec_mode, capability) = mode(denormals);
    // Where each section ends: capabilities, then extensions; the entry points.
    let (mut caps_end, mut entries) = (5usize, Vec::new());
    let mut exts_end = None;
    let mut i = 5;
    while i < words.len() {
        let (n, op) = ((words[i] >> 16) as usize, words[i] & 0xffff);
        if n == 0 || i + n > words.len() {
            return;
        }
        match op {
            OP_CAPABILITY => caps_end = i + n,
            OP_EXTENSION => exts_end = Some(i + n),
            OP_ENTRY_POINT if n > 2 => entries.push(words[i + 2]),
            OP_EXECUTION_MODE
                if n == 4
                    && matches!(words[i + 2], MODE_FLUSH | MODE_PRESERVE)
                    && words[i + 3] == 32 =>
            {
                return;
            }
            // The function section: no more module-level declarations to see.
            54 => break,
            _ => {}
        }
        i += n;
    }
    let exts_end = exts_end.unwrap_or(caps_end);
    // Execution modes go right after the last entry point's instruction (where OpExecutionMode
    // may stand: after the entry points, before debug and annotation instructions).
    let mut modes_at = None;
    let mut j = 5;
    while j < words.len() {
        let (n, op) = ((words[j] >> 16) as usize, words[j] & 0xffff);
        if op == OP_ENTRY_POINT {
            modes_at = Some(j + n);
        }
        if op == 54 || n == 0 {
            break;
        }
        j += n;
    }
    let Some(modes_at) = modes_at else { return };
    // OpExtension's literal: the name, a terminating NUL, zero padding to a word.
    let mut ext = vec![0u32];
    let mut bytes = EXTENSION.as_bytes().to_vec();
    bytes.resize((bytes.len() / 4 + 1) * 4, 0);
    ext.extend(
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
    );
    ext[0] = ((ext.len() as u32) << 16) | OP_EXTENSION;
    let mut out = Vec::with_capacity(words.len() + 2 + ext.len() + 4 * entries.len());
    out.extend_from_slice(&words[..caps_end]);
    out.extend_from_slice(&[(2 << 16) | OP_CAPABILITY, capability]);
    out.extend_from_slice(&words[caps_end..exts_end]);
    out.extend_from_slice(&ext);
    out.extend_from_slice(&words[exts_end..modes_at]);
    for e in entries {
        out.extend_from_slice(&[(4 << 16) | OP_EXECUTION_MODE, e, exec_mode, 32]);
    }
    out.extend_from_slice(&words[modes_at..]);
    *words = out;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal fragment-shader module's declarations (no function bodies needed for
    /// the word layout).
    fn module() -> Vec<u32> {
        let mut w = vec![0x0723_0203, 0x0001_0000, 0, 10, 0];
        w.extend_from_slice(&[(2 << 16) | OP_CAPABILITY, 1]); // Shader
        w.extend_from_slice(&[(3 << 16) | 14, 0, 1]); // OpMemoryModel Logical GLSL450
        w.extend_from_slice(&[
            (5 << 16) | OP_ENTRY_POINT,
            4,
            7,
            u32::from_le_bytes(*b"main"),
            0,
        ]);
        w.extend_from_slice(&[(3 << 16) | OP_EXECUTION_MODE, 7, 7]); // OriginUpperLeft
        w
    }

    #[test]
    fn the_capability_extension_and_mode_land_in_their_sections() {
        let mut w = module();
        request(&mut w, Denormals::FlushToZero);
        assert_eq!(
            &w[5..9],
            &[
                (2 << 16) | OP_CAPABILITY,
                1,
                (2 << 16) | OP_CAPABILITY,
                CAP_FLUSH
            ]
        );
        // "SPV_KHR_float_controls" is 22 bytes: 6 words with the terminating zero.
        assert_eq!(w[9], (7 << 16) | OP_EXTENSION);
        let name: Vec<u8> = w[10..16].iter().flat_map(|x| x.to_le_bytes()).collect();
        assert_eq!(&name[..23], b"SPV_KHR_float_controls\0");
        let at = w
            .iter()
            .position(|&x| x == (4 << 16) | OP_EXECUTION_MODE)
            .unwrap();
        assert_eq!(
            &w[at..at + 4],
            &[(4 << 16) | OP_EXECUTION_MODE, 7, MODE_FLUSH, 32]
        );
        // Requested once only.
        let n = w.len();
        request(&mut w, Denormals::Preserve);
        assert_eq!(w.len(), n);
        let mut p = module();
        request(&mut p, Denormals::Preserve);
        assert!(p
            .windows(2)
            .any(|x| x == [(2 << 16) | OP_CAPABILITY, CAP_PRESERVE]));
        // Not SPIR-V: untouched.
        let mut junk = vec![1, 2, 3];
        request(&mut junk, Denormals::FlushToZero);
        assert_eq!(junk, [1, 2, 3]);
    }
}
