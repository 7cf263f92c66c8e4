//! The execution oracles (`vkd3d_exec.jsonl`, `wine_exec.jsonl` of the corpus): loads
//! each record into a [`Scene`] plus its [`Probe`]s, and compares probes the way the
//! corpus README defines (ulps by ordered float bits, or per 8-bit channel for the Wine
//! records). Both the CPU executor and the GPU runner use this module.
//!
//! Consecutive `[test]` sections of one vkd3d shader test share their render target, as
//! vkd3d's runner drives them: [`load`] runs a section after the operations of the ones
//! before it (`continues_section`).

use std::path::Path;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::draw::*;

/// Why a record could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum OracleError {
    /// Reading the file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// A line is not JSON.
    #[error("line {line}: {source}")]
    Json {
        /// 1-based line.
        line: usize,
        /// The error.
        source: serde_json::Error,
    },
    /// A field is missing or has an unexpected value.
    #[error("{record}: field `{field}`: {why}")]
    Field {
        /// The record's `source`.
        record: String,
        /// The field.
        field: String,
        /// What is wrong.
        why: String,
    },
}

/// One oracle record: the work to replay and what Windows read back.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The record's `source` (`owner/repo:path:line`).
    pub source: String,
    /// The rendering work: for a section of a vkd3d shader test that continues the one
    /// before it, that section's operations first (its probes count draws after them).
    pub scene: Scene,
    /// The expected values.
    pub probes: Vec<Probe>,
}

/// How a probe's components are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tolerance {
    /// Within this many ulps by ordered float bits (0 = exact; +0 equals −0; NaNs of the
    /// same sign are equal).
    Ulps(u32),
    /// Within this many steps of 8 bits per channel (Wine's `color_match`).
    Unorm8(u32),
}

/// One expected value at a rectangle of a render target after some number of draws.
#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    /// `source` and the probe's line, for messages.
    pub label: String,
    /// Render-target slot.
    pub target: u32,
    /// Rectangle `[left, top, right, bottom)` in pixels.
    pub rect: [u32; 4],
    /// First compared channel (0 = red); `expect` lists the compared channels from it.
    pub first_channel: u8,
    /// Expected channel values as f32 bits.
    pub expect: Vec<u32>,
    /// Comparison rule.
    pub tolerance: Tolerance,
    /// Whether alpha is compared (false in the Wine records).
    pub compare_alpha: bool,
    /// Read after this many draw ops (1 = after the first draw).
    pub after_draws: usize,
    /// The source marks the probe `todo` for its own pipeline (the value is still the
    /// Windows result).
    pub todo: bool,
}

impl Probe {
    /// Expected values as floats.
    pub fn expect_f32(&self) -> Vec<f32> {
        self.expect.iter().map(|b| f32::from_bits(*b)).collect()
    }

    /// Compares one pixel's RGBA value; `Err` holds the first mismatching channel.
    pub fn check_pixel(&self, got: [f32; 4]) -> Result<(), usize> {
        for (i, &e) in self.expect.iter().enumerate() {
            let c = self.first_channel as usize + i;
            if c >= 4 || (c == 3 && !self.compare_alpha) {
                continue;
            }
            let g = got[c];
            let ok = match self.tolerance {
                Tolerance::Ulps(u) => ulp_distance(g.to_bits(), e) <= u as u64,
                Tolerance::Unorm8(t) => {
                    let q = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as i32;
                    (q(g) - q(f32::from_bits(e))).unsigned_abs() <= t
                }
            };
            if !ok {
                return Err(c);
            }
        }
        Ok(())
    }

    /// Checks every pixel of the rectangle through `read(x, y)`; `Err` gives the first
    /// failing pixel and its value.
    pub fn check(&self, read: impl Fn(u32, u32) -> [f32; 4]) -> Result<(), ((u32, u32), [f32; 4])> {
        for y in self.rect[1]..self.rect[3] {
            for x in self.rect[0]..self.rect[2] {
                let v = read(x, y);
                if self.check_pixel(v).is_err() {
                    return Err(((x, y), v));
                }
            }
        }
        Ok(())
    }
}

/// Distance of two f32 bit patterns in ulps, by ordered bits: +0 and −0 are equal, NaNs
/// of the same sign are equal, a NaN and a non-NaN are infinitely far apart.
pub fn ulp_distance(a: u32, b: u32) -> u64 {
    let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
    if fa.is_nan() || fb.is_nan() {
        return if fa.is_nan() && fb.is_nan() && (a >> 31) == (b >> 31) {
            0
        } else {
            u64::MAX
        };
    }
    let ord = |x: u32| -> i64 {
        if x & 0x8000_0000 != 0 {
            -((x & 0x7FFF_FFFF) as i64)
        } else {
            x as i64
        }
    };
    (ord(a) - ord(b)).unsigned_abs()
}

/// Loads every record of a `*_exec.jsonl` file. Consecutive `[test]` sections of one
/// vkd3d shader test on the same render target run one after the other: each record's
/// scene starts with the operations of the sections before it ([`Record::scene`]).
pub fn load(path: &Path) -> Result<Vec<Record>, OracleError> {
    let text = std::fs::read_to_string(path).map_err(|e| OracleError::Io {
        path: path.display().to_string(),
        source: e,
    })?;
    parse_jsonl(&text)
}

/// Parses the records of a `*_exec.jsonl` text, one per line, in order (a section of a
/// vkd3d shader test after the sections before it, as [`load`] says).
pub fn parse_jsonl(text: &str) -> Result<Vec<Record>, OracleError> {
    let mut out: Vec<Record> = Vec::new();
    let mut prev: Option<Value> = None;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line).map_err(|e| OracleError::Json {
            line: i + 1,
            source: e,
        })?;
        let mut rec = parse_record(&v)?;
        if let (Some(p), Some(before)) = (&prev, out.last()) {
            if continues_section(p, &v) {
                carry_targets(before, &mut rec);
            }
        }
        out.push(rec);
        prev = Some(v);
    }
    Ok(out)
}

/// Whether record `next` is the `[test]` section of a vkd3d shader test that follows
/// `prev` on the same render target: the same `*.shader_test` file, the same render
/// targets (declared by the same line, or both the runner's default) and no depth
/// buffer. vkd3d's runner keeps a render target across the sections of a file (a
/// `draw quad` does not clear it: a pixel a later section kills or leaves alone keeps
/// what an earlier one drew, as the Windows results of `discard.shader_test` show).
fn continues_section(prev: &Value, next: &Value) -> bool {
    let file = |v: &Value| {
        v["source"]
            .as_str()
            .and_then(|s| s.rsplit_once(':'))
            .map(|(f, _)| f.to_string())
    };
    let f = file(next);
    f.as_deref().is_some_and(|f| f.ends_with(".shader_test"))
        && f == file(prev)
        && prev["render_targets"] == next["render_targets"]
        && prev.get("depth_stencil").is_none_or(Value::is_null)
        && next.get("depth_stencil").is_none_or(Value::is_null)
}

/// Makes `rec` start from the render targets `before` leaves: `before`'s operations (its
/// own carried ones included) run first, and `rec`'s probes count draws after them.
fn carry_targets(before: &Record, rec: &mut Record) {
    let draws = before
        .scene
        .ops
        .iter()
        .filter(|o| matches!(o, Op::Draw(_)))
        .count();
    let mut ops = before.scene.ops.clone();
    ops.append(&mut rec.scene.ops);
    rec.scene.ops = ops;
    for p in &mut rec.probes {
        p.after_draws += draws;
    }
}

pub(crate) struct Ctx<'a> {
    pub(crate) source: &'a str,
}

impl Ctx<'_> {
    pub(crate) fn err(&self, field: &str, why: impl Into<String>) -> OracleError {
        OracleError::Field {
            record: self.source.to_string(),
            field: field.to_string(),
            why: why.into(),
        }
    }
}

fn hex(v: &Value) -> Option<u32> {
    match v {
        Value::String(s) => u32::from_str_radix(s.trim_start_matches("0x"), 16).ok(),
        Value::Number(n) => n.as_u64().map(|x| x as u32),
        _ => None,
    }
}

/// A float state: a number, or a hex string holding the DWORD's float bits (how D3D9
/// stores float render and sampler states).
fn float_state(v: &Value) -> Option<f32> {
    match v {
        Value::String(_) => hex(v).map(f32::from_bits),
        _ => v.as_f64().map(|x| x as f32),
    }
}

/// A boolean state: `true`/`false`, `"TRUE"`/`"FALSE"` or a number.
fn bool_state(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::String(s) if s == "TRUE" => Some(true),
        Value::String(s) if s == "FALSE" => Some(false),
        Value::String(_) => hex(v).map(|x| x != 0),
        Value::Number(n) => n.as_f64().map(|x| x != 0.0),
        _ => None,
    }
}

fn hex_list(v: &Value) -> Option<Vec<u32>> {
    v.as_array()?.iter().map(hex).collect()
}

fn num(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::Bool(b) => Some(*b as u8 as f64),
        Value::String(s) => u32::from_str_radix(s.trim_start_matches("0x"), 16)
            .ok()
            .map(|x| x as f64),
        _ => None,
    }
}

/// Parses one record.
pub fn parse_record(r: &Value) -> Result<Record, OracleError> {
    let source = r["source"].as_str().unwrap_or("?").to_string();
    let cx = Ctx { source: &source };

    // Render targets.
    let mut targets = Vec::new();
    if let Some(rts) = r["render_targets"].as_array() {
        let mut rts: Vec<&Value> = rts.iter().collect();
        rts.sort_by_key(|t| t["slot"].as_u64().unwrap_or(0));
        for t in rts {
            let fmt = t["d3d9_format"].as_str().unwrap_or("D3DFMT_A32B32G32R32F");
            let format = Format::from_d3d_name(fmt)
                .ok_or_else(|| cx.err("render_targets.d3d9_format", fmt))?;
            targets.push(TargetDesc {
                width: t["width"].as_u64().unwrap_or(640) as u32,
                height: t["height"].as_u64().unwrap_or(480) as u32,
                format,
                initial: [0.0; 4],
            });
        }
    }
    if targets.is_empty() {
        targets.push(TargetDesc {
            width: 640,
            height: 480,
            format: Format::A32B32G32R32F,
            initial: [0.0; 4],
        });
    }
    let depth = match r.get("depth_stencil").filter(|d| !d.is_null()) {
        None => None,
        Some(d) => {
            let name = d["format"].as_str().unwrap_or("D3DFMT_D24S8");
            Some(DepthDesc {
                width: d["width"].as_u64().unwrap_or(640) as u32,
                height: d["height"].as_u64().unwrap_or(480) as u32,
                format: DepthFormat::from_d3d_name(name)
                    .ok_or_else(|| cx.err("depth_stencil.format", name))?,
                initial: 1.0,
                initial_stencil: 0,
            })
        }
    };

    // Base state.
    let mut base = Draw::new(Primitive::TriangleList, 3);
    base.vs = hex_list(&r["vs_dwords"]);
    base.ps = hex_list(&r["ps_dwords"]);
    apply_uniforms(&mut base, &r["uniforms"], &cx)?;
    apply_stage_constants(&mut base, r, &cx)?;
    if let Some(vp) = r["viewport"].as_object() {
        base.viewport = Viewport {
            x: vp["X"].as_u64().unwrap_or(0) as u32,
            y: vp["Y"].as_u64().unwrap_or(0) as u32,
            width: vp["Width"].as_u64().unwrap_or(640) as u32,
            height: vp["Height"].as_u64().unwrap_or(480) as u32,
            min_z: vp["MinZ"].as_f64().unwrap_or(0.0) as f32,
            max_z: vp["MaxZ"].as_f64().unwrap_or(1.0) as f32,
        };
    }
    // Render states: D3D9 defaults, then the record's; the vkd3d runner disables culling.
    base.render_states.cull = Cull::None;
    if let Some(rs) = r["render_states"].as_object() {
        apply_render_states(&mut base.render_states, rs, &cx)?;
    }
    base.vertex_declaration = parse_decl(&r["vertex_declaration"], &cx)?;
    if let Some(regs) = r.get("d3d8_vs_input_registers").and_then(|v| v.as_array()) {
        for e in regs {
            let reg = e["register"]
                .as_str()
                .and_then(|s| s.trim_start_matches('v').parse::<u8>().ok())
                .ok_or_else(|| cx.err("d3d8_vs_input_registers.register", "not v#"))?;
            let ty = match e["Type"].as_str().unwrap_or("") {
                "D3DVSDT_FLOAT1" => DeclType::Float1,
                "D3DVSDT_FLOAT2" => DeclType::Float2,
                "D3DVSDT_FLOAT3" => DeclType::Float3,
                "D3DVSDT_FLOAT4" => DeclType::Float4,
                "D3DVSDT_D3DCOLOR" => DeclType::D3dColor,
                "D3DVSDT_UBYTE4" => DeclType::Ubyte4,
                "D3DVSDT_SHORT2" => DeclType::Short2,
                "D3DVSDT_SHORT4" => DeclType::Short4,
                t => return Err(cx.err("d3d8_vs_input_registers.Type", t)),
            };
            base.vertex_declaration.retain(|d| d.register != Some(reg));
            base.vertex_declaration.push(VertexElement {
                stream: e["Stream"].as_u64().unwrap_or(0) as u16,
                offset: e["Offset"].as_u64().unwrap_or(0) as u16,
                ty,
                usage: 0,
                usage_index: 0,
                register: Some(reg),
            });
        }
    }
    apply_streams(&mut base, &r["vertex_streams"], &cx)?;
    if let Some(ts) = r["textures"].as_array() {
        for t in ts {
            let stage = t["stage"].as_u64().unwrap_or(0) as usize;
            let tex = parse_texture(t, &cx)?;
            if base.textures.len() <= stage {
                base.textures.resize(stage + 1, None);
            }
            base.textures[stage] = Some(Arc::new(tex));
        }
    }
    if let Some(ss) = r["sampler_states"].as_array() {
        for s in ss {
            let stage = s["stage"].as_u64().unwrap_or(0) as usize;
            if base.samplers.len() <= stage {
                base.samplers.resize(stage + 1, SamplerState::default());
            }
            base.samplers[stage] = parse_sampler(s, &cx)?;
        }
    }
    if let Some(ts) = r["texture_stage_states"].as_array() {
        for s in ts {
            let stage = s["stage"].as_u64().unwrap_or(0) as usize;
            if base.stages.len() <= stage {
                base.stages.resize(stage + 1, TextureStage::default());
            }
            let st = &mut base.stages[stage];
            let raw = &s["raw"];
            let f = |k: &str| -> Option<f32> {
                hex(&raw[k])
                    .map(f32::from_bits)
                    .or_else(|| s[k].as_f64().map(|v| v as f32))
            };
            for (i, k) in ["00", "01", "10", "11"].iter().enumerate() {
                if let Some(v) = f(&format!("D3DTSS_BUMPENVMAT{k}")) {
                    st.bump_mat[i] = v;
                }
            }
            if let Some(v) = f("D3DTSS_BUMPENVLSCALE") {
                st.bump_lscale = v;
            }
            if let Some(v) = f("D3DTSS_BUMPENVLOFFSET") {
                st.bump_loffset = v;
            }
            if let Some(v) = hex(&raw["D3DTSS_TEXTURETRANSFORMFLAGS"]) {
                st.transform_flags = v;
            }
        }
    }

    // Ops.
    let mut ops = Vec::new();
    let mut cur = base;
    if let Some(draws) = r["draws"].as_array() {
        for d in draws {
            match d["op"].as_str() {
                Some("clear") => {
                    let flags: Vec<&str> = d["flags"]
                        .as_array()
                        .map(|a| a.iter().filter_map(|f| f.as_str()).collect())
                        .unwrap_or_else(|| vec!["TARGET"]);
                    let val = if d["effective_value"].is_array() {
                        &d["effective_value"]
                    } else {
                        &d["value"]
                    };
                    let mut color = [0.0f32; 4];
                    for (i, c) in val.as_array().into_iter().flatten().take(4).enumerate() {
                        color[i] = c.as_f64().unwrap_or(0.0) as f32;
                    }
                    let target = if d["api"].as_str() == Some("ColorFill") {
                        Some(d["rtv"].as_u64().unwrap_or(0) as u32)
                    } else {
                        None
                    };
                    ops.push(Op::Clear(Clear {
                        target,
                        color_enabled: flags.contains(&"TARGET"),
                        color,
                        depth_enabled: flags.contains(&"ZBUFFER"),
                        depth: d["z"].as_f64().unwrap_or(1.0) as f32,
                        stencil_enabled: flags.contains(&"STENCIL"),
                        stencil: d["stencil"].as_u64().unwrap_or(0) as u32,
                    }));
                }
                Some("draw") => {
                    if let Some(delta) = d["state_delta"].as_object() {
                        apply_delta(&mut cur, delta, &cx)?;
                    }
                    cur.primitive = match d["topology"].as_str().unwrap_or("") {
                        "triangle_list" => Primitive::TriangleList,
                        "triangle_strip" => Primitive::TriangleStrip,
                        "triangle_fan" => Primitive::TriangleFan,
                        "point_list" => Primitive::PointList,
                        "line_list" => Primitive::LineList,
                        "line_strip" => Primitive::LineStrip,
                        t => return Err(cx.err("draws.topology", t)),
                    };
                    cur.vertex_count = d["vertex_count"].as_u64().unwrap_or(3) as u32;
                    ops.push(Op::Draw(Box::new(cur.clone())));
                }
                other => return Err(cx.err("draws.op", format!("{other:?}"))),
            }
        }
    }

    // Probes.
    let mut probes = Vec::new();
    for p in r["probes"].as_array().into_iter().flatten() {
        let rect: Vec<u32> = p["rect_ltrb"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_u64())
                    .map(|v| v as u32)
                    .collect()
            })
            .unwrap_or_default();
        if rect.len() != 4 {
            return Err(cx.err("probes.rect_ltrb", "not 4 numbers"));
        }
        let mut rect = [rect[0], rect[1], rect[2], rect[3]];
        let expect =
            hex_list(&p["expect_bits"]).ok_or_else(|| cx.err("probes.expect_bits", "missing"))?;
        let mut first_channel = 0u8;
        let elem = p["read_element_size"].as_u64().unwrap_or(16);
        let texel = p["rt_texel_size"].as_u64().unwrap_or(16);
        if elem < texel && elem > 0 {
            // The probe reads `elem`-byte elements from a wider texel: byte offset
            // x·elem selects texel x·elem / texel, channel (x·elem % texel) / 4.
            let per = (texel / elem) as u32;
            let x = rect[0];
            first_channel = ((x % per) * elem as u32 / 4) as u8;
            rect = [x / per, rect[1], x / per + 1, rect[1] + 1];
        }
        let tolerance = match p["ulps"].as_u64() {
            Some(u) => Tolerance::Ulps(u as u32),
            None => Tolerance::Unorm8(p["tolerance_8bit"].as_u64().unwrap_or(0) as u32),
        };
        probes.push(Probe {
            label: format!(
                "{} probe line {}",
                source,
                p["line"]
                    .as_u64()
                    .map(|l| l.to_string())
                    .unwrap_or_default()
            ),
            target: p["rtv"].as_u64().unwrap_or(0) as u32,
            rect,
            first_channel,
            expect,
            tolerance,
            compare_alpha: p["compare_alpha"].as_bool().unwrap_or(true),
            after_draws: p["after_draw"].as_u64().unwrap_or(0) as usize + 1,
            todo: p["todo"].as_bool().unwrap_or(false),
        });
    }

    Ok(Record {
        source: source.clone(),
        scene: Scene {
            targets,
            depth,
            ops,
        },
        probes,
    })
}

fn apply_uniforms(d: &mut Draw, u: &Value, cx: &Ctx) -> Result<(), OracleError> {
    if u.is_null() {
        return Ok(());
    }
    let start = u["start_register"].as_u64().unwrap_or(0) as usize;
    let bits = hex_list(&u["bits"]).ok_or_else(|| cx.err("uniforms.bits", "missing"))?;
    let apis: Vec<&str> = u["api"]
        .as_array()
        .map(|a| a.iter().filter_map(|s| s.as_str()).collect())
        .unwrap_or_default();
    if apis.is_empty()
        || apis
            .iter()
            .any(|a| a.starts_with("SetVertexShaderConstantF"))
    {
        d.vs_constants.set_float_bits(start, &bits);
    }
    if apis.is_empty()
        || apis
            .iter()
            .any(|a| a.starts_with("SetPixelShaderConstantF"))
    {
        d.ps_constants.set_float_bits(start, &bits);
    }
    if let Some(ints) = u["int_constants"].as_array() {
        let v: Vec<i32> = ints
            .iter()
            .filter_map(|x| x.as_i64())
            .map(|x| x as i32)
            .collect();
        d.vs_constants.set_int(0, &v);
        d.ps_constants.set_int(0, &v);
    }
    if let Some(b) = u["bool_constants"].as_array() {
        let v: Vec<bool> = b.iter().map(|x| x.as_bool().unwrap_or(false)).collect();
        d.vs_constants.bool = v.clone();
        d.ps_constants.bool = v;
    }
    Ok(())
}

fn apply_stage_constants<T: std::ops::Index<&'static str, Output = Value>>(
    d: &mut Draw,
    r: &T,
    cx: &Ctx,
) -> Result<(), OracleError> {
    for (key, ps) in [("vs_constants_f", false), ("ps_constants_f", true)] {
        for c in r[key].as_array().into_iter().flatten() {
            let start = c["start_register"].as_u64().unwrap_or(0) as usize;
            let bits = hex_list(&c["bits"]).ok_or_else(|| cx.err(key, "bits missing"))?;
            if ps {
                d.ps_constants.set_float_bits(start, &bits);
            } else {
                d.vs_constants.set_float_bits(start, &bits);
            }
        }
    }
    for c in r["vs_constants_i"].as_array().into_iter().flatten() {
        let start = c["start_register"].as_u64().unwrap_or(0) as usize;
        let v: Vec<i32> = c["ints"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|x| x.as_i64())
            .map(|x| x as i32)
            .collect();
        d.vs_constants.set_int(start, &v);
    }
    Ok(())
}

fn apply_delta(d: &mut Draw, delta: &Map<String, Value>, cx: &Ctx) -> Result<(), OracleError> {
    for (k, v) in delta {
        match k.as_str() {
            "uniforms" => apply_uniforms(d, v, cx)?,
            "render_states" => {
                if let Some(rs) = v.as_object() {
                    apply_render_states(&mut d.render_states, rs, cx)?;
                }
            }
            "vertex_streams" => apply_streams(d, v, cx)?,
            "vs_constants_f" | "ps_constants_f" | "vs_constants_i" => {
                let mut m = Map::new();
                m.insert(k.clone(), v.clone());
                let obj = Value::Object(m);
                apply_stage_constants(d, &obj, cx)?;
            }
            "vs_dwords" => d.vs = shader_switch(v, k, cx)?,
            "ps_dwords" => d.ps = shader_switch(v, k, cx)?,
            other if is_descriptive(other) => {}
            other => return Err(cx.err("state_delta", format!("unknown key {other}"))),
        }
    }
    Ok(())
}

/// A shader switch in a `state_delta` (`ps_dwords`/`vs_dwords`, as a record's top level
/// carries them): the new token stream, or `null` for none (the top level's meaning).
fn shader_switch(v: &Value, key: &str, cx: &Ctx) -> Result<Option<Vec<u32>>, OracleError> {
    if v.is_null() {
        return Ok(None);
    }
    hex_list(v)
        .map(Some)
        .ok_or_else(|| cx.err(&format!("state_delta.{key}"), "not a list of hex DWORDs"))
}

/// Keys that describe what a record or a `state_delta` carries for people and play no
/// part in the replay (the corpus README): the HLSL profile (`profile_*`), the assembly
/// and the source text of a shader (`*_asm`, `*_source`). Accepted and ignored wherever
/// a record may carry them.
pub fn is_descriptive(key: &str) -> bool {
    key.starts_with("profile_") || key.ends_with("_asm") || key.ends_with("_source")
}

fn apply_streams(d: &mut Draw, v: &Value, cx: &Ctx) -> Result<(), OracleError> {
    for s in v.as_array().into_iter().flatten() {
        let stream = s["stream"].as_u64().unwrap_or(0) as u16;
        let bits = hex_list(&s["data_bits"])
            .ok_or_else(|| cx.err("vertex_streams.data_bits", "missing"))?;
        let data: Vec<u8> = bits.iter().flat_map(|w| w.to_le_bytes()).collect();
        d.streams.retain(|x| x.stream != stream);
        d.streams.push(VertexStream {
            stream,
            stride: s["stride"].as_u64().unwrap_or(0) as u32,
            data,
        });
    }
    Ok(())
}

fn parse_decl(v: &Value, cx: &Ctx) -> Result<Vec<VertexElement>, OracleError> {
    let mut out = Vec::new();
    for e in v.as_array().into_iter().flatten() {
        let tyname = e["Type"].as_str().unwrap_or("");
        let ty: DeclType = serde_json::from_value(Value::String(
            tyname.trim_start_matches("D3DDECLTYPE_").to_string(),
        ))
        .map_err(|_| cx.err("vertex_declaration.Type", tyname))?;
        let usage_name = e["Usage"].as_str().unwrap_or("");
        let usage = d3dbc::token::DeclUsage::ALL
            .iter()
            .find(|u| {
                usage_name
                    .trim_start_matches("D3DDECLUSAGE_")
                    .eq_ignore_ascii_case(u.name())
            })
            .ok_or_else(|| cx.err("vertex_declaration.Usage", usage_name))?;
        out.push(VertexElement {
            stream: e["Stream"].as_u64().unwrap_or(0) as u16,
            offset: e["Offset"].as_u64().unwrap_or(0) as u16,
            ty,
            usage: *usage as u8,
            usage_index: e["UsageIndex"].as_u64().unwrap_or(0) as u8,
            register: None,
        });
    }
    Ok(out)
}

fn parse_texture(t: &Value, cx: &Ctx) -> Result<Texture, OracleError> {
    let fname = t["d3d9_format"].as_str().unwrap_or("");
    let format =
        Format::from_d3d_name(fname).ok_or_else(|| cx.err("textures.d3d9_format", fname))?;
    let kind = match t["dimension"].as_str().unwrap_or("2d") {
        "2d" => TextureKind::Tex2d,
        "cube" => TextureKind::Cube,
        "3d" => TextureKind::Volume,
        k => return Err(cx.err("textures.dimension", k)),
    };
    let data: Vec<u8> = if let Some(raw) = hex_list(&t["data_raw"]) {
        let unit = t["data_raw_unit_bytes"].as_u64().unwrap_or(4) as usize;
        raw.iter()
            .flat_map(|w| w.to_le_bytes().into_iter().take(unit))
            .collect()
    } else {
        hex_list(&t["data_bits"])
            .ok_or_else(|| cx.err("textures.data_bits", "missing"))?
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect()
    };
    Ok(Texture {
        kind,
        format,
        width: t["width"].as_u64().unwrap_or(1) as u32,
        height: t["height"].as_u64().unwrap_or(1) as u32,
        depth: t["depth"].as_u64().unwrap_or(1) as u32,
        levels: t["levels"].as_u64().unwrap_or(1) as u32,
        data,
    })
}

pub(crate) fn parse_sampler(s: &Value, cx: &Ctx) -> Result<SamplerState, OracleError> {
    let mut st = SamplerState::default();
    let addr = |k: &str| -> Result<Option<Address>, OracleError> {
        match s[k].as_str() {
            None => Ok(None),
            Some(n) => serde_json::from_value(Value::String(n.to_string()))
                .map(Some)
                .map_err(|_| cx.err(k, n)),
        }
    };
    let filt = |k: &str| -> Result<Option<Filter>, OracleError> {
        match s[k].as_str() {
            None => Ok(None),
            Some(n) => serde_json::from_value(Value::String(n.to_string()))
                .map(Some)
                .map_err(|_| cx.err(k, n)),
        }
    };
    if let Some(a) = addr("D3DSAMP_ADDRESSU")? {
        st.address_u = a;
    }
    if let Some(a) = addr("D3DSAMP_ADDRESSV")? {
        st.address_v = a;
    }
    if let Some(a) = addr("D3DSAMP_ADDRESSW")? {
        st.address_w = a;
    }
    if let Some(f) = filt("D3DSAMP_MINFILTER")? {
        st.min_filter = f;
    }
    if let Some(f) = filt("D3DSAMP_MAGFILTER")? {
        st.mag_filter = f;
    }
    if let Some(f) = filt("D3DSAMP_MIPFILTER")? {
        st.mip_filter = f;
    }
    if let Some(c) = hex(&s["D3DSAMP_BORDERCOLOR"]) {
        st.border_color = c;
    }
    if let Some(v) = num(&s["D3DSAMP_MAXMIPLEVEL"]) {
        st.max_mip_level = v as u32;
    }
    if let Some(v) = float_state(&s["D3DSAMP_MIPMAPLODBIAS"]) {
        st.mip_lod_bias = v;
    }
    match &s["D3DSAMP_SRGBTEXTURE"] {
        Value::Null => {}
        v => st.srgb = bool_state(v).ok_or_else(|| cx.err("D3DSAMP_SRGBTEXTURE", "not a bool"))?,
    }
    // Every other key must be one without effect here, or the record is refused
    // (rather than replayed with a state silently dropped).
    for (k, v) in s.as_object().into_iter().flatten() {
        let known = matches!(
            k.as_str(),
            "stage"
                | "declared_line"
                | "D3DSAMP_ADDRESSU"
                | "D3DSAMP_ADDRESSV"
                | "D3DSAMP_ADDRESSW"
                | "D3DSAMP_BORDERCOLOR"
                | "D3DSAMP_MAGFILTER"
                | "D3DSAMP_MINFILTER"
                | "D3DSAMP_MIPFILTER"
                | "D3DSAMP_MIPMAPLODBIAS"
                | "D3DSAMP_MAXMIPLEVEL"
                | "D3DSAMP_SRGBTEXTURE"
                // Anisotropic filtering is sampled as linear: the degree has no effect.
                | "D3DSAMP_MAXANISOTROPY"
                // Displacement maps are not sampled by pixel or vertex shaders.
                | "D3DSAMP_DMAPOFFSET"
        );
        let neutral = match k.as_str() {
            // D3D9 has no comparison samplers of its own: only `null` is replayable.
            "comparison" => v.is_null(),
            // Multi-element textures: element 0 is the texture itself.
            "D3DSAMP_ELEMENTINDEX" => num(v) == Some(0.0),
            _ => false,
        };
        if !known && !neutral {
            return Err(cx.err(k, format!("sampler state {v} is not supported")));
        }
    }
    Ok(st)
}

pub(crate) fn apply_render_states(
    rs: &mut RenderStates,
    m: &Map<String, Value>,
    cx: &Ctx,
) -> Result<(), OracleError> {
    fn en<T: serde::de::DeserializeOwned>(v: &Value, k: &str, cx: &Ctx) -> Result<T, OracleError> {
        let s = v.as_str().ok_or_else(|| cx.err(k, "not a name"))?;
        serde_json::from_value(Value::String(s.to_string())).map_err(|_| cx.err(k, s))
    }
    for (k, v) in m {
        if v.is_null() {
            continue;
        }
        let f = || float_state(v).ok_or_else(|| cx.err(k, "not a number"));
        let u = || {
            num(v)
                .map(|x| x as u32)
                .ok_or_else(|| cx.err(k, "not a number"))
        };
        let b = || bool_state(v).ok_or_else(|| cx.err(k, "not a bool"));
        match k.as_str() {
            "D3DRS_ZENABLE" => rs.z_enable = b()?,
            "D3DRS_ZWRITEENABLE" => rs.z_write = b()?,
            "D3DRS_ZFUNC" => rs.z_func = en(v, k, cx)?,
            "D3DRS_ALPHATESTENABLE" => rs.alpha_test = b()?,
            "D3DRS_ALPHAFUNC" => rs.alpha_func = en(v, k, cx)?,
            "D3DRS_ALPHAREF" => rs.alpha_ref = u()?,
            "D3DRS_ALPHABLENDENABLE" => rs.blend = b()?,
            "D3DRS_SRCBLEND" => rs.src_blend = en(v, k, cx)?,
            "D3DRS_DESTBLEND" => rs.dest_blend = en(v, k, cx)?,
            "D3DRS_BLENDOP" => rs.blend_op = en(v, k, cx)?,
            "D3DRS_COLORWRITEENABLE" => rs.color_write = u()?,
            "D3DRS_COLORWRITEENABLE1" => rs.color_write_more[0] = u()?,
            "D3DRS_COLORWRITEENABLE2" => rs.color_write_more[1] = u()?,
            "D3DRS_COLORWRITEENABLE3" => rs.color_write_more[2] = u()?,
            "D3DRS_SEPARATEALPHABLENDENABLE" => rs.separate_alpha_blend = b()?,
            "D3DRS_SRCBLENDALPHA" => rs.src_blend_alpha = en(v, k, cx)?,
            "D3DRS_DESTBLENDALPHA" => rs.dest_blend_alpha = en(v, k, cx)?,
            "D3DRS_BLENDOPALPHA" => rs.blend_op_alpha = en(v, k, cx)?,
            "D3DRS_BLENDFACTOR" => rs.blend_factor = u()?,
            "D3DRS_STENCILENABLE" => rs.stencil.enable = b()?,
            "D3DRS_STENCILFUNC" => rs.stencil.func = en(v, k, cx)?,
            "D3DRS_STENCILREF" => rs.stencil.reference = u()?,
            "D3DRS_STENCILMASK" => rs.stencil.mask = u()?,
            "D3DRS_STENCILWRITEMASK" => rs.stencil.write_mask = u()?,
            "D3DRS_STENCILFAIL" => rs.stencil.fail = en(v, k, cx)?,
            "D3DRS_STENCILZFAIL" => rs.stencil.z_fail = en(v, k, cx)?,
            "D3DRS_STENCILPASS" => rs.stencil.pass = en(v, k, cx)?,
            "D3DRS_TWOSIDEDSTENCILMODE" => rs.stencil.two_sided = b()?,
            "D3DRS_CCW_STENCILFUNC" => rs.stencil.ccw_func = en(v, k, cx)?,
            "D3DRS_CCW_STENCILFAIL" => rs.stencil.ccw_fail = en(v, k, cx)?,
            "D3DRS_CCW_STENCILZFAIL" => rs.stencil.ccw_z_fail = en(v, k, cx)?,
            "D3DRS_CCW_STENCILPASS" => rs.stencil.ccw_pass = en(v, k, cx)?,
            "D3DRS_DEPTHBIAS" => rs.depth_bias = f()?,
            "D3DRS_SLOPESCALEDEPTHBIAS" => rs.slope_scale_depth_bias = f()?,
            "D3DRS_LASTPIXEL" => rs.last_pixel = b()?,
            "D3DRS_CULLMODE" => rs.cull = en(v, k, cx)?,
            "D3DRS_FILLMODE" => rs.fill = en(v, k, cx)?,
            "D3DRS_SHADEMODE" => rs.shade = en(v, k, cx)?,
            "D3DRS_CLIPPING" => rs.clipping = b()?,
            "D3DRS_CLIPPLANEENABLE" => rs.clip_plane_enable = u()?,
            "clip_planes" => {
                rs.clip_planes =
                    serde_json::from_value(v.clone()).map_err(|_| cx.err(k, "not planes"))?
            }
            "D3DRS_POINTSIZE" => rs.point_size = f()?,
            "D3DRS_POINTSIZE_MIN" => rs.point_size_min = f()?,
            "D3DRS_POINTSIZE_MAX" => rs.point_size_max = f()?,
            "D3DRS_POINTSPRITEENABLE" => rs.point_sprite = b()?,
            "D3DRS_FOGENABLE" => rs.fog_enable = b()?,
            "D3DRS_FOGTABLEMODE" => rs.fog_table_mode = en(v, k, cx)?,
            "D3DRS_FOGVERTEXMODE" => rs.fog_vertex_mode = en(v, k, cx)?,
            "D3DRS_FOGCOLOR" => rs.fog_color = u()?,
            "D3DRS_FOGSTART" => rs.fog_start = f()?,
            "D3DRS_FOGEND" => rs.fog_end = f()?,
            "D3DRS_FOGDENSITY" => rs.fog_density = f()?,
            "D3DRS_SRGBWRITEENABLE" => rs.srgb_write = b()?,
            "projection_44" => rs.projection_44 = f()?,
            // States without effect on the oracles' results: range fog changes only
            // fixed-function vertex fog (every record binds a vertex shader);
            // dithering and multisampling do nothing on single-sample targets.
            "D3DRS_RANGEFOGENABLE" | "D3DRS_DITHERENABLE" | "D3DRS_MULTISAMPLEANTIALIAS" => {}
            other => return Err(cx.err(other, "unknown render state")),
        }
    }
    Ok(())
}
