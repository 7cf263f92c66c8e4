//! `d3dbc_validate`: the runtime validator's report on one input, as `d3dbc validate`
//! gives it ([`d3dbc::report::check`]): every finding with its code, severity, DWORD
//! offset, `line:column` for assembly text, the instruction as `dis` prints it and the
//! message, plus the whole report as the command prints it.

use std::ffi::{c_char, c_int};

use d3dbc::report;
use d3dbc::Severity;

use crate::compile::{check_kind, d3dbc_compile_info, request};
use crate::ffi;

/// A finding's severity.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum d3dbc_severity {
    /// The runtime refuses the shader (or the input is unreadable).
    D3DBC_SEVERITY_ERROR = 0,
    /// Reported, not refused.
    D3DBC_SEVERITY_WARNING = 1,
}

/// One finding, or one message about the whole input (a syntax error: `code` is "",
/// `offset` is 0).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct d3dbc_finding {
    /// The rule's stable code (`"E0204"`; `docs/validation.md` lists them), "" for a
    /// message about the input.
    pub code: *const c_char,
    /// Error or warning.
    pub severity: d3dbc_severity,
    /// DWORD offset of the instruction in its stream (the version token is 0).
    pub offset: usize,
    /// 1-based line in assembly text, 0 for bytecode.
    pub line: u32,
    /// 1-based column in assembly text, 0 for bytecode.
    pub column: u32,
    /// The instruction as `dis` prints it ("" for findings about the whole shader).
    pub instruction: *const c_char,
    /// What is wrong.
    pub message: *const c_char,
    /// The finding as `d3dbc validate` prints it (location, code, message; for text,
    /// the source line and a caret).
    pub text: *const c_char,
}

/// The validator's report on one input.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct d3dbc_validation {
    /// 1 when the input is readable and no shader in it has an error, else 0.
    pub valid: c_int,
    /// 1 when the input could not be read at all (not a shader, a syntax error).
    pub failed: c_int,
    /// Shaders found (an effect's embedded shaders count one each).
    pub shader_count: usize,
    /// `finding_count` findings.
    pub findings: *const d3dbc_finding,
    /// How many.
    pub finding_count: usize,
    /// The report as `d3dbc validate` prints it ("" for a valid input).
    pub text: *const c_char,
}

/// The strings a [`d3dbc_validation`] points into.
type Keep = (Vec<d3dbc_finding>, ffi::Strings);

/// Validates `info->source` (`info->target_type` and every option but `name` are
/// ignored). Returns 0 and sets `*out` to the report (free it with
/// `d3dbc_free_validation`) when the input could be examined, valid or not; a negative
/// `d3dbc_result` for bad arguments, with `*messages` saying why.
///
/// # Safety
/// As `d3dbc_compile`: `info` valid for the call, `out` a writable pointer, `messages`
/// NULL or a writable `char *`.
#[no_mangle]
pub unsafe extern "C" fn d3dbc_validate(
    info: *const d3dbc_compile_info,
    out: *mut *mut d3dbc_validation,
    messages: *mut *mut c_char,
) -> c_int {
    ffi::guard("d3dbc_validate", messages, || {
        ffi::out_arg(out, "out")?;
        // SAFETY: checked non-NULL.
        unsafe { *out = std::ptr::null_mut() };
        // SAFETY: per this function's contract.
        let r = unsafe { request(info)? };
        check_kind(r.source_type, r.source)?;
        let name = &r.settings.name;
        let rep = report::check(r.source, name);
        let v = build(&rep, name);
        // SAFETY: as above.
        unsafe { *out = v };
        Ok(String::new())
    })
}

fn build(rep: &report::Report, name: &str) -> *mut d3dbc_validation {
    let mut strings = ffi::Strings::default();
    let mut s = |t: &str| strings.add(t);
    let severity = |v: Severity| match v {
        Severity::Error => d3dbc_severity::D3DBC_SEVERITY_ERROR,
        Severity::Warning => d3dbc_severity::D3DBC_SEVERITY_WARNING,
    };
    let mut findings = Vec::new();
    for m in &rep.messages {
        let (line, column) = m.diagnostic.as_ref().map_or((0, 0), |d| (d.line, d.col));
        let text = match &m.diagnostic {
            Some(d) => d.to_string(),
            None => report::escape_lines(&format!(
                "{name}: {}: {}",
                report::severity(m.severity),
                m.text
            )),
        };
        findings.push(d3dbc_finding {
            code: s(""),
            severity: severity(m.severity),
            offset: 0,
            line,
            column,
            instruction: s(""),
            message: s(&m.text),
            text: s(&text),
        });
    }
    for sh in &rep.shaders {
        let label = sh.label(name);
        for f in &sh.findings {
            let (line, column) = f.source.as_ref().map_or((0, 0), |d| (d.line, d.col));
            findings.push(d3dbc_finding {
                code: s(f.code),
                severity: severity(f.severity),
                offset: f.offset,
                line,
                column,
                instruction: s(&f.instruction),
                message: s(&f.message),
                text: s(&f.text(&label)),
            });
        }
    }
    let text = s(&rep.lines(name, false).join("\n"));
    let (ptr, count) = ffi::array(&findings);
    let public = d3dbc_validation {
        valid: rep.valid() as c_int,
        failed: rep.failed as c_int,
        shader_count: rep.shaders.len(),
        findings: ptr,
        finding_count: count,
        text,
    };
    ffi::give::<_, Keep>(public, (findings, strings))
}

/// Frees a report of `d3dbc_validate` (NULL is ignored).
///
/// # Safety
/// `validation` must be NULL or a report `d3dbc_validate` returned, not yet freed.
#[no_mangle]
pub unsafe extern "C" fn d3dbc_free_validation(validation: *mut d3dbc_validation) {
    // SAFETY: per this function's contract.
    ffi::quiet((), || unsafe {
        ffi::take::<d3dbc_validation, Keep>(validation)
    })
}
