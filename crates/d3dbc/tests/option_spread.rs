//! The option spread of the translation checks (`tests/common/option_spread.rs`) takes
//! every `Semantics` and `PipelineState` field through each of its values: read from the
//! options' JSON form, so a field added later without a place in the spread fails here.

#[path = "common/option_spread.rs"]
mod option_spread;

use std::collections::{BTreeMap, BTreeSet};

use d3dbc::target::options::TranslateOptions;
use serde_json::Value;

/// `path → value` for every leaf of `v` (arrays are leaves per element: `projected[2]`).
fn leaves(prefix: &str, v: &Value, out: &mut BTreeMap<String, String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                leaves(&format!("{prefix}{k}."), x, out);
            }
        }
        Value::Array(a) => {
            let p = prefix.trim_end_matches('.');
            out.insert(p.to_string(), format!("len {}", a.len()));
            for (i, x) in a.iter().enumerate() {
                leaves(&format!("{p}[{i}]."), x, out);
            }
        }
        x => {
            out.insert(prefix.trim_end_matches('.').to_string(), x.to_string());
        }
    }
}

fn json(o: &TranslateOptions) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    leaves("", &serde_json::to_value(o).unwrap(), &mut out);
    out
}

#[test]
fn every_field_takes_each_of_its_values() {
    let sets = option_spread::all();
    assert_eq!(sets[0], TranslateOptions::default());
    let mut seen: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for s in &sets {
        for (k, v) in json(s) {
            seen.entry(k).or_default().insert(v);
        }
    }
    // Every value of every enum field and both of every flag; numbers at their default,
    // limits and between; the per-stage lists with every value at every stage.
    let want: &[(&str, &[&str])] = &[
        (
            "semantics.mul_zero",
            &["\"ieee\"", "\"strict\"", "\"fast\""],
        ),
        ("semantics.rcp_zero", &["\"infinity\"", "\"flt_max\""]),
        (
            "semantics.log_zero",
            &["\"neg_flt_max\"", "\"neg_infinity\""],
        ),
        (
            "semantics.mova_ties",
            &["\"away_from_zero\"", "\"to_even\"", "\"half_up\""],
        ),
        (
            "pipeline.alpha_test",
            &[
                "\"never\"",
                "\"less\"",
                "\"equal\"",
                "\"less_equal\"",
                "\"greater\"",
                "\"not_equal\"",
                "\"greater_equal\"",
                "\"always\"",
            ],
        ),
        (
            "pipeline.fog",
            &[
                "\"none\"",
                "\"vertex\"",
                "\"linear\"",
                "\"exp\"",
                "\"exp2\"",
            ],
        ),
        ("pipeline.fog_depth", &["\"z\"", "\"w\""]),
        ("pipeline.clip_planes", &["0", "1", "3", "8"]),
        (
            "pipeline.sm1_sampler_kinds[0]",
            &["\"tex2d\"", "\"cube\"", "\"volume\""],
        ),
        (
            "pipeline.sm1_sampler_kinds[5]",
            &["\"tex2d\"", "\"cube\"", "\"volume\""],
        ),
        ("pipeline.projected[0]", &["0", "2", "3", "4"]),
        ("pipeline.projected[5]", &["0", "2", "3", "4"]),
    ];
    for (field, values) in want {
        let got = seen
            .get(*field)
            .unwrap_or_else(|| panic!("{field} not in the options"));
        for v in *values {
            assert!(got.contains(*v), "{field} never takes {v}: {got:?}");
        }
    }
    // ps_1_x range: the default 8, the minimum 1, one between, FLT_MAX.
    assert_eq!(seen["semantics.ps1x_max_value"].len(), 4);
    // Every leaf of the defaults (every field, one added later included) varies.
    for (field, values) in &seen {
        assert!(
            values.len() >= 2,
            "{field} keeps one value over the spread: give it a place in option_spread.rs"
        );
    }
    let defaults = json(&TranslateOptions::default());
    for field in defaults.keys() {
        assert!(seen.contains_key(field), "{field}");
    }
    // Sprites are drawn both with and without expansion.
    let sprites: BTreeSet<(bool, bool)> = sets
        .iter()
        .map(|s| (s.pipeline.point_sprites, s.pipeline.point_expansion))
        .collect();
    assert_eq!(sprites.len(), 4, "{sprites:?}");
}

#[test]
fn the_rotation_gives_every_set_its_share() {
    let mut count = [0usize; option_spread::SETS];
    for i in 0..700 {
        let k = option_spread::rotation(i);
        assert!(k != 0 && k < option_spread::SETS);
        count[k] += 1;
    }
    assert_eq!(count[0], 0);
    assert!(count[1..].iter().all(|&c| c == 100), "{count:?}");
}
