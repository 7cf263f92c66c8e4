//! `dis` → `asm` keeps the constant table: for every corpus shader with a `CTAB`, the
//! table rebuilt from the listing's header comment prints back the same listing,
//! header included (`dis(asm(dis(x))) == dis(x)`).

mod common;

use d3dbc::asm::{self, ctab_header};
use d3dbc::{print, Shader};

#[test]
fn rebuilt_ctab_prints_the_same_listing() {
    let mut streams = match common::all_streams() {
        Some(s) => s,
        None => return,
    };
    for file in ["vkd3d_exec.jsonl", "wine_exec.jsonl"] {
        for r in common::records(file).unwrap_or_default() {
            for key in ["ps_dwords", "vs_dwords"] {
                if r.get(key).is_some_and(|v| v.is_array()) {
                    streams.push((file.into(), common::label(&r), common::dwords(&r[key])));
                }
            }
        }
    }
    let (mut with_ctab, mut failures) = (0, Vec::new());
    let mut per_file: std::collections::BTreeMap<&str, usize> = Default::default();
    for (file, label, tokens) in &streams {
        let Ok(shader) = Shader::decode(tokens) else {
            continue;
        };
        if !matches!(shader.ctab(), Some(Ok(_))) {
            continue;
        }
        with_ctab += 1;
        *per_file.entry(file.as_str()).or_default() += 1;
        let listing = print::to_string(&shader);
        let opts = asm::Options {
            no_validate: true,
            ..Default::default()
        };
        let result = asm::assemble(&listing, &opts)
            .map_err(|e| e.to_string())
            .and_then(|mut s| {
                let ctab = ctab_header::ctab_from_listing(&listing, "x")
                    .map_err(|e| e.to_string())?
                    .ok_or("no header found")?;
                ctab_header::embed(&mut s, &ctab);
                Ok(print::to_string(&s))
            });
        match result {
            Ok(again) if again == listing => {}
            Ok(again) => failures.push(format!(
                "{file} {label}: listing differs\n--- want\n{listing}\n--- got\n{again}"
            )),
            Err(e) => failures.push(format!("{file} {label}: {e}")),
        }
    }
    eprintln!(
        "CTAB rebuilt from the listing: {}/{with_ctab} identical ({per_file:?} shaders with a CTAB)",
        with_ctab - failures.len()
    );
    assert!(with_ctab > 50, "only {with_ctab} shaders with a CTAB");
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(3)].join("\n")
    );
}

/// Real listings (fxc, vsa, hand-edited game overrides) never make the header reader
/// fail: `asm` must keep assembling everything it assembled before the rebuild existed.
/// Where the listing is fxc's own (`binaries.jsonl`), the table it gives prints the
/// same header as the binary's table.
#[test]
fn real_listings_give_a_table_or_none() {
    let mut texts: Vec<(String, String)> = Vec::new();
    for (file, key) in [
        ("oblivion_disasm.jsonl", "text"),
        ("helix_asm.jsonl", "text"),
        ("binaries.jsonl", "disasm_text"),
    ] {
        let Some(recs) = common::records(file) else {
            return;
        };
        for r in recs {
            if let Some(t) = r[key].as_str() {
                texts.push((format!("{file} {}", common::label(&r)), t.to_string()));
            }
        }
    }
    let (mut tables, mut errors) = (0, Vec::new());
    for (label, text) in &texts {
        match ctab_header::ctab_from_listing(text, "x") {
            Ok(Some(_)) => tables += 1,
            Ok(None) => {}
            Err(e) => errors.push(format!(
                "{label}: {}",
                e.to_string().lines().next().unwrap_or("")
            )),
        }
    }
    eprintln!(
        "header tables read from {tables} of {} real listings",
        texts.len()
    );
    for e in &errors {
        eprintln!("  {e}");
    }
    assert!(tables > 50, "only {tables} listings with a header table");
    // fxc's own listings always read; hand-annotated ones (a few Oblivion listings
    // with notes in `// Parameters:`) give a located error, which `asm` reports as a
    // warning before assembling without a table.
    assert!(
        errors
            .iter()
            .all(|e| !e.starts_with("binaries.jsonl") && e.contains(": error: ")),
        "{}",
        errors.join("\n")
    );
    assert!(
        errors.len() <= 3,
        "{} unreadable headers (was 3)",
        errors.len()
    );
}

/// A listing of a shader that carries a D3DX preshader, as game-modding tools keep it
/// (DarkStarSword's shadertool / HelixMod dumps comment the preshader's code out as
/// `//PRESHADER …`): the preshader's own header (the effect parameters it reads), its
/// code and count, then the shader's header and code. The layout of the two blocks is
/// the one D3DX/fxc print for a shader with a preshader (fxc 10.1's effect listings of
/// the DirectX SDK: `preshader`, its instructions, `// approximately N instructions
/// used`, then the shader's `// Generated by`).
const PRESHADER_LISTING: &str = "\
//
// Generated by Microsoft (R) HLSL Shader Compiler 9.29.952.3111
//
// Parameters:
//
//   float4 FogParams;
//   float4x4 ViewProj;
//
//
// Registers:
//
//   Name         Reg   Size
//   ------------ ----- ----
//   ViewProj     c0       4
//   FogParams    c4       1
//

//PRESHADER     preshader
//PRESHADER     rcp r0.x, c4.y
//PRESHADER     mul c2.x, r0.x, c4.x
//PRESHADER     mov c0, c0
//PRESHADER     mov c1, c1

// approximately 4 instructions used
//
// Generated by Microsoft (R) HLSL Shader Compiler 9.29.952.3111
//
// Parameters:
//
//   float4 FogParams;
//   float4x4 ViewProj;
//
//
// Registers:
//
//   Name         Reg   Size
//   ------------ ----- ----
//   ViewProj     c3       4
//   FogParams    c7       1
//

    vs_3_0
    dcl_position v0
    dcl_position o0
    dcl_fog o1
    dp4 o0.x, v0, c3
    dp4 o0.y, v0, c4
    dp4 o0.z, v0, c5
    dp4 r0.w, v0, c6
    mov o0.w, r0.w
    mad o1, r0.w, c2.x, c7.z

// approximately 6 instruction slots used
";

#[test]
fn preshader_listings_rebuild_the_shaders_own_table() {
    let opts = asm::Options {
        no_validate: true,
        ..Default::default()
    };
    let build = |listing: &str| -> Shader {
        let mut s = asm::assemble(listing, &opts).unwrap_or_else(|e| panic!("{e}"));
        let ctab = ctab_header::ctab_from_listing(listing, "x")
            .unwrap()
            .expect("header");
        ctab_header::embed(&mut s, &ctab);
        s
    };
    let ctab = ctab_header::ctab_from_listing(PRESHADER_LISTING, "x")
        .unwrap()
        .unwrap();
    let regs: Vec<(&str, u16, u16)> = ctab
        .constants
        .iter()
        .map(|c| (c.name.as_str(), c.register_index, c.register_count))
        .collect();
    // In name order, as the compilers write the records.
    assert_eq!(regs, [("FogParams", 7, 1), ("ViewProj", 3, 4)]);
    // assemble -> dis -> assemble is stable, the header included.
    let first = print::to_string(&build(PRESHADER_LISTING));
    assert!(first.starts_with("//\n// Generated by Microsoft (R) HLSL Shader Compiler"));
    assert_eq!(first.matches("// Registers:").count(), 1, "{first}");
    assert!(first.contains("//   ViewProj     c3       4\n"), "{first}");
    let second = print::to_string(&build(&first));
    assert_eq!(first, second);
    // The form D3DX prints, with the preshader's code not commented out: the same table.
    let raw = PRESHADER_LISTING.replace("//PRESHADER ", "");
    let again = ctab_header::ctab_from_listing(&raw, "x").unwrap().unwrap();
    assert_eq!(again, ctab);
}

/// The compilers write their constant records in name order (byte order, as
/// `// Parameters:` lists them), whatever the registers: every Microsoft-made `CTAB`
/// of the corpus (D3DX9 4.08, fxc 6.3 to 10.1) does. A listing's register table is
/// in register order, so the rebuilt table sorts by name to give the records in the
/// order the binary had them (`ID3DXConstantTable::GetConstant` enumerates them so).
const NAME_ORDER_LISTING: &str = "\
//
// Generated by Microsoft (R) HLSL Shader Compiler 10.1
//
// Parameters:
//
//   float4 Tint;
//   float4x4 WorldViewProj;
//   sampler2D base;
//   float4 g_scale;
//
//
// Registers:
//
//   Name          Reg   Size
//   ------------- ----- ----
//   WorldViewProj c0       4
//   g_scale       c4       1
//   Tint          c5       1
//   base          s0       1
//

    vs_3_0
    dcl_position v0
    dcl_position o0
    dp4 o0.x, v0, c0
    dp4 o0.y, v0, c1
    dp4 o0.z, v0, c2
    mul r0.w, v0.w, c4.x
    mad o0.w, c5.x, r0.w, c3.w

// approximately 5 instruction slots used
";

#[test]
fn rebuilt_table_lists_constants_in_name_order() {
    let ctab = ctab_header::ctab_from_listing(NAME_ORDER_LISTING, "x")
        .unwrap()
        .expect("header");
    let names: Vec<&str> = ctab.constants.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["Tint", "WorldViewProj", "base", "g_scale"]);
    // The order is the binary's, not the listing's: printing sorts again.
    let opts = asm::Options {
        no_validate: true,
        ..Default::default()
    };
    let mut s = asm::assemble(NAME_ORDER_LISTING, &opts).unwrap_or_else(|e| panic!("{e}"));
    ctab_header::embed(&mut s, &ctab);
    assert_eq!(print::to_string(&s), NAME_ORDER_LISTING);
}

/// Every corpus binary whose `CTAB` a Microsoft compiler wrote: the table rebuilt
/// from its listing has the binary's records in the binary's order.
#[test]
fn rebuilt_table_keeps_the_compilers_record_order() {
    let Some(streams) = common::all_streams() else {
        return;
    };
    let (mut checked, mut failures) = (0, Vec::new());
    for (file, label, tokens) in &streams {
        let Ok(shader) = Shader::decode(tokens) else {
            continue;
        };
        let Some(Ok(ctab)) = shader.ctab() else {
            continue;
        };
        if !ctab.creator.starts_with("Microsoft (R) ") || ctab.constants.len() < 2 {
            continue;
        }
        checked += 1;
        let listing = print::to_string(&shader);
        let rebuilt = ctab_header::ctab_from_listing(&listing, "x")
            .unwrap_or_else(|e| panic!("{file} {label}: {e}"))
            .expect("header");
        let key = |t: &d3dbc::Ctab| -> Vec<(String, u16)> {
            t.constants
                .iter()
                .map(|c| (c.name.clone(), c.register_index))
                .collect()
        };
        if key(&rebuilt) != key(&ctab) {
            failures.push(format!("{file} {label}"));
        }
    }
    eprintln!("record order kept for {checked} Microsoft-made tables");
    assert!(checked > 50, "only {checked} Microsoft-made tables");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
