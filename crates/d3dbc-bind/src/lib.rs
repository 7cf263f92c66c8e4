//! # d3dbc-bind
//!
//! The API the `d3dbc` Python package (`crates/d3dbc-py`) and the `d3dbc` npm package
//! (`crates/d3dbc-web`'s WebAssembly module) expose, written once in Rust so both
//! languages get the same methods, the same results and the same errors:
//!
//! - [`Shader`]: read once from bytes ([`Shader::from_bytes`]: bytecode, an fxc `/Fh`
//!   header or hex, as the `d3dbc` command reads them) or assembled ([`assemble`]); its
//!   version, tokens, listing ([`Shader::disassemble`], what `d3dbc dis` prints),
//!   constant table and instructions (JSON in the shape of `dis --format json`,
//!   [`d3dbc::model`]), validator findings, translations ([`Shader::translate`], as
//!   `d3dbc translate`), one invocation ([`Shader::run`], as `d3dbc run`) and the
//!   full-screen picture ([`Shader::render`], as `d3dbc render`);
//! - [`Effect`]: an fx_2_0 effect's techniques and parameters, values set by name, and
//!   the shaders a pass binds with the constants the pass gives them;
//! - [`rip`]: every shader and effect inside any bytes.
//!
//! Every failure is an [`Error`] whose [`ErrorKind`] names the exception class the
//! bindings raise (`DecodeError`, `AsmError`, `ValidationError`, …) and whose fields
//! say where (DWORD offset, or line and column) and why. Structured results are JSON
//! strings, which both bindings parse with their own fast parsers.
//!
//! ```
//! let (sh, _) = d3dbc_bind::assemble("ps_2_0\ndcl t0\nmov oC0, t0\n", &Default::default()).unwrap();
//! assert_eq!(sh.version(), "ps_2_0");
//! assert!(sh.disassemble(false, false).contains("mov oC0, t0"));
//! let out = sh.run(&d3dbc_bind::RunRequest::from_json(r#"{"inputs": {"t0": [0.5, 0.25]}}"#).unwrap()).unwrap();
//! assert_eq!(out.outputs[0], ("oC0".to_string(), [0.5, 0.25, 0.0, 1.0]));
//! let err = d3dbc_bind::assemble("ps_2_0\nmov oC0, r9\n", &Default::default()).unwrap_err();
//! assert_eq!((err.kind.class_name(), err.line, err.column), ("AsmError", Some(2), Some(10)));
//! ```

mod effect;
mod error;
mod request;
mod rip;
mod shader;

pub use effect::{Effect, Pick};
pub use error::{Error, ErrorKind, Finding};
pub use request::{AsmRequest, ConstantValues, Picture, RenderRequest, RunOutput, RunRequest};
pub use rip::{rip, rip_json, Find};
pub use shader::{assemble, Shader, Translation};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_their_class_and_place() {
        let e = Shader::from_bytes(b"ps_2_0\nmov oC0, t0\n").unwrap_err();
        assert_eq!(e.kind.class_name(), "DecodeError");
        assert!(e.message.contains("assemble"), "{}", e.message);
        let e = Shader::from_bytes(&[0x00, 0x02, 0xff, 0xff, 0x01, 0x00, 0x00, 0x02]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Decode);
        assert!(e.offset.is_some(), "{e:?}");
        let (sh, _) = assemble(
            "ps_2_0\nmov oC0, r5\n",
            &AsmRequest {
                no_validate: true,
                ..Default::default()
            },
        )
        .unwrap();
        let e = sh.run(&RunRequest::default()).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Validation);
        assert_eq!(e.findings[0].code, "E0204");
        let e = sh
            .run(
                &RunRequest::from_json(r#"{"constants": {"c300": 1}, "validate": false}"#).unwrap(),
            )
            .unwrap_err();
        assert_eq!(e.kind, ErrorKind::Argument);
        assert!(e.message.contains("c0–c31"), "{}", e.message);
        let j = e.to_json();
        assert!(j.contains("\"kind\":\"ArgumentError\""), "{j}");
    }

    #[test]
    fn effect_parameters_and_pass_shaders() {
        let bytes = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../examples/tint.fxo"
        ))
        .unwrap();
        let mut fx = Effect::from_bytes(bytes).unwrap();
        let p: serde_json::Value = serde_json::from_str(&fx.parameters_json().unwrap()).unwrap();
        assert_eq!(p[0]["name"], "tint");
        assert_eq!(p[0]["value"], serde_json::json!([1.0, 0.5, 0.25, 1.0]));
        assert!(fx.set("tint", vec![1.0]).is_err());
        fx.set("tint", vec![0.0, 1.0, 0.0, 1.0]).unwrap();
        let (vs, ps) = fx
            .pass_shaders(&Pick::Name("Tint".into()), &Pick::Index(0))
            .unwrap();
        assert!(vs.is_some());
        let out = ps.unwrap().run(&RunRequest::default()).unwrap();
        assert_eq!(out.outputs[0].0, "oC0");
        assert_eq!(out.outputs[0].1[0], 0.0, "{out:?}");
    }
}
