//! The HLSL target: naga's HLSL writer with the registers of
//! [`d3dbc::target::interface::hlsl`], in one of two models ([`HlslModel`]).
//!
//! naga 30.0.1 reaches every `SamplerState` through a descriptor heap
//! (`nagaSamplerHeap[nagaGroup0SamplerIndexArray[i]]`, wgpu's Direct3D 12 layout) and has
//! no option to bind samplers statically; shader model 5 compilers reject that
//! ("must be determinable at compile time"). For [`HlslModel::Sm5_0`] the writer runs with
//! the sampler index buffer's element `i` set to the sampler stage, then the three heap
//! declarations are dropped and each `static const SamplerState s = heap[index[i]];` —
//! a line whose shape naga's writer fixes (`write_global_sampler`, naga pinned at
//! `=30.0.1`) — becomes `SamplerState s : register(s<i>);`. Everything else is naga's
//! text, except that every loop gets the `[loop]` attribute: a D3D9 `loop`/`rep` is a
//! loop, and without it vkd3d-compiler 1.17 tries to unroll constant-count loops, which
//! took minutes on some corpus shaders and crashed it on a loop in a branch it folded
//! away (`if (false) { while(true) { … } }`, from `if b0` with `defb b0, false`).
//! Rewriting those lines is much smaller than a second HLSL writer, and any other shape
//! is an error ([`Error::Backend`]), never silently wrong output.

use naga::back::hlsl::{self as nh, BindTarget, ShaderModel};
use naga::valid::ModuleInfo;
use naga::Module;

use crate::interface::{hlsl as reg, HlslModel, Interface};
use crate::{backend, Error, Target};

/// naga's names for the heap (`naga::back::hlsl::writer`'s `SAMPLER_HEAP_VAR`, …) and
/// the declarations it writes for it (`help.rs`: `write_sampler_heaps`,
/// `write_wrapped_sampler_buffer`; `writer.rs`: `write_global_sampler`).
const HEAP: &str = "nagaSamplerHeap";
const COMPARISON_HEAP: &str = "nagaComparisonSamplerHeap";
const INDEX_BUFFER: &str = "SamplerIndexArray";
const HEAP_DECL: &str = "SamplerState nagaSamplerHeap[";
const COMPARISON_HEAP_DECL: &str = "SamplerComparisonState nagaComparisonSamplerHeap[";
const INDEX_BUFFER_DECL: &str = "StructuredBuffer<uint> nagaGroup";
const SAMPLER_DECL: &str = "static const SamplerState ";
const SAMPLER_INIT: &str = "nagaSamplerHeap[nagaGroup";
/// naga's loop header (`Statement::Loop`), after the indentation.
const LOOP: &str = "while(true) {";

/// The register every bound global of `module` gets: constant blocks by kind, a sampler
/// stage's texture and sampler at its stage number.
fn binding_map(module: &Module, iface: &Interface) -> nh::BindingMap {
    let mut map = nh::BindingMap::default();
    let block = |c: &Option<crate::interface::ConstantBuffer>, b: u32| {
        c.as_ref().is_some_and(|c| c.binding == b)
    };
    for (_, gv) in module.global_variables.iter() {
        let Some(rb) = gv.binding else { continue };
        let b = rb.binding;
        let register = if block(&iface.float_constants, b) {
            reg::FLOAT_CONSTANTS
        } else if block(&iface.int_constants, b) {
            reg::INT_CONSTANTS
        } else if block(&iface.bool_constants, b) {
            reg::BOOL_CONSTANTS
        } else if block(&iface.driver, b) {
            reg::DRIVER
        } else if let Some(s) = iface
            .samplers
            .iter()
            .find(|s| s.texture_binding == b || s.sampler_binding == b)
        {
            s.stage
        } else {
            // Not a binding the lowering makes; naga's own fallback would apply.
            continue;
        };
        map.insert(
            rb,
            BindTarget {
                register,
                ..Default::default()
            },
        );
    }
    map
}

/// HLSL source of `module` (the translation's, point size already left out) in `model`.
pub(crate) fn write(
    module: &Module,
    info: &ModuleInfo,
    iface: &Interface,
    stage: naga::ShaderStage,
    model: HlslModel,
) -> Result<String, Error> {
    let opts = nh::Options {
        shader_model: match model {
            HlslModel::Sm5_0 => ShaderModel::V5_0,
            HlslModel::Sm6_0 => ShaderModel::V6_0,
        },
        binding_map: binding_map(module, iface),
        force_loop_bounding: false,
        ..Default::default()
    };
    let po = nh::PipelineOptions {
        entry_point: Some((stage, "main".into())),
    };
    let mut out = String::new();
    nh::Writer::new(&mut out, &opts, &po)
        .write(module, info, None)
        .map_err(|e| backend(Target::Hlsl)(e.to_string()))?;
    let out = clip_arrays(&out);
    match model {
        HlslModel::Sm5_0 => sm5(&out).map_err(backend(Target::Hlsl)),
        HlslModel::Sm6_0 => Ok(out.into_owned()),
    }
}

/// naga 30.0.1's entry-point interface structs (`write_interface_struct`) write a member's
/// element type without its array size, so the clip distances (`float clip_[N]` in the
/// stage's output struct) become `float clip_ : SV_ClipDistance;` in the entry point's
/// `VertexOutput_main`, and the initializer that copies one into the other has `N - 1`
/// components too many (vkd3d-compiler: E5007). The size comes back from the one
/// declaration that kept it.
fn clip_arrays(text: &str) -> std::borrow::Cow<'_, str> {
    const CLIP: &str = " : SV_ClipDistance;";
    let size = text.lines().find_map(|l| {
        let decl = l.trim().strip_suffix(CLIP)?;
        let (_, n) = decl.strip_suffix(']')?.rsplit_once('[')?;
        n.parse::<u32>().ok()
    });
    let Some(size) = size else {
        return text.into();
    };
    let mut out = String::with_capacity(text.len() + 16);
    for line in text.split_inclusive('\n') {
        match line.trim_end().strip_suffix(CLIP) {
            Some(decl) if !decl.ends_with(']') => {
                out.push_str(decl);
                out.push_str(&format!("[{size}]{CLIP}"));
                out.push_str(&line[line.trim_end().len()..]);
            }
            _ => out.push_str(line),
        }
    }
    out.into()
}

/// naga's heap-indexed sampler declarations as static `register(sN)` ones, and `[loop]`
/// on every loop; an error names any heap use left (a naga writer that changed shape).
fn sm5(text: &str) -> Result<String, String> {
    use std::fmt::Write;
    let mut out = String::with_capacity(text.len() + 256);
    for line in text.split_inclusive('\n') {
        let l = line.trim_end();
        let code = l.trim_start();
        if code == LOOP {
            out.push_str(&l[..l.len() - code.len()]);
            out.push_str("[loop] ");
            out.push_str(line.trim_start());
        } else if l.starts_with(HEAP_DECL)
            || l.starts_with(COMPARISON_HEAP_DECL)
            || (l.starts_with(INDEX_BUFFER_DECL) && l.contains(INDEX_BUFFER))
        {
            // The heap and its index buffer: gone.
        } else if let Some(rest) = l.strip_prefix(SAMPLER_DECL) {
            // `NAME = nagaSamplerHeap[nagaGroup0SamplerIndexArray[R]];`
            let parsed = rest.split_once(" = ").and_then(|(name, init)| {
                let r = init
                    .strip_prefix(SAMPLER_INIT)?
                    .split_once('[')?
                    .1
                    .strip_suffix("]];")?;
                Some((name, r.parse::<u32>().ok()?))
            });
            let Some((name, r)) = parsed else {
                return Err(format!(
                    "unexpected sampler declaration in naga's HLSL: `{l}`"
                ));
            };
            let _ = writeln!(out, "SamplerState {name} : register(s{r});");
        } else {
            out.push_str(line);
        }
    }
    if let Some(l) = out
        .lines()
        .find(|l| l.contains(HEAP) || l.contains(COMPARISON_HEAP) || l.contains(INDEX_BUFFER))
    {
        return Err(format!(
            "naga's HLSL still reaches a sampler through the heap: `{}`",
            l.trim()
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_lines_become_static_registers() {
        let naga = "SamplerState nagaSamplerHeap[2048]: register(s0, space0);\n\
                    SamplerComparisonState nagaComparisonSamplerHeap[2048]: register(s0, space1);\n\
                    StructuredBuffer<uint> nagaGroup0SamplerIndexArray : register(t0, space255);\n\
                    static const SamplerState s3_ = nagaSamplerHeap[nagaGroup0SamplerIndexArray[3]];\n\
                    Texture2D<float4> t3_ : register(t3);\n";
        let out = sm5(naga).unwrap();
        assert_eq!(
            out,
            "SamplerState s3_ : register(s3);\nTexture2D<float4> t3_ : register(t3);\n"
        );
    }

    #[test]
    fn entry_point_clip_distances_keep_their_array_size() {
        let naga = "struct VsOut {\n    float clip_[3] : SV_ClipDistance;\n};\n\
                    struct VertexOutput_main {\n    float clip_ : SV_ClipDistance;\n};\n";
        assert_eq!(
            clip_arrays(naga),
            "struct VsOut {\n    float clip_[3] : SV_ClipDistance;\n};\n\
             struct VertexOutput_main {\n    float clip_[3] : SV_ClipDistance;\n};\n"
        );
        let none = "struct VsOut {\n    float4 p : SV_Position;\n};\n";
        assert_eq!(clip_arrays(none), none);
    }

    #[test]
    fn loops_are_never_unrolled() {
        let naga = "    bool loop_init = true;\n    while(true) {\n        break;\n    }\n";
        let out = sm5(naga).unwrap();
        assert_eq!(
            out,
            "    bool loop_init = true;\n    [loop] while(true) {\n        break;\n    }\n"
        );
    }

    #[test]
    fn a_heap_use_of_another_shape_is_an_error() {
        let naga = "SamplerState nagaSamplerHeap[2048]: register(s0, space0);\n\
                    float4 f() { return t.Sample(nagaSamplerHeap[i], uv); }\n";
        let e = sm5(naga).unwrap_err();
        assert!(e.contains("still reaches a sampler"), "{e}");
        let naga = "static const SamplerState s0_ = nagaSamplerHeap[k + 1];\n";
        let e = sm5(naga).unwrap_err();
        assert!(e.contains("unexpected sampler declaration"), "{e}");
    }
}
