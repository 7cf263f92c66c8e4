//! `d3dbc._native`: the extension module behind the `d3dbc` Python package
//! (`python/d3dbc/__init__.py` is the API users see). Each method hands its arguments
//! to [`d3dbc_bind`] with the GIL released and returns bytes, text or JSON text; each
//! failure becomes the exception class `d3dbc_bind::ErrorKind` names, built by
//! `d3dbc._errors.from_native` from the error's JSON, so it carries its fields (code,
//! line, column, offset, findings). No logic lives here.

use d3dbc_bind::{Effect, Pick, RenderRequest, RunRequest, Shader, Translation};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// The Python exception for `e` (a `d3dbc.D3dbcError` subclass).
fn raise(py: Python<'_>, e: d3dbc_bind::Error) -> PyErr {
    let built = py
        .import("d3dbc._errors")
        .and_then(|m| m.getattr("from_native"))
        .and_then(|f| f.call1((e.to_json(),)));
    match built {
        Ok(exc) => PyErr::from_value(exc),
        Err(err) => err,
    }
}

/// A shader read once (tokens and IR).
#[pyclass(frozen, module = "d3dbc._native", name = "Shader")]
struct PyShader {
    inner: Shader,
}

#[pymethods]
impl PyShader {
    /// (shader, warnings) from bytecode, an fxc `/Fh` header or hex text.
    #[staticmethod]
    fn from_bytes(py: Python<'_>, data: &[u8]) -> PyResult<(PyShader, Vec<String>)> {
        let r = py.detach(|| Shader::from_bytes(data));
        let (inner, warnings) = r.map_err(|e| raise(py, e))?;
        Ok((PyShader { inner }, warnings))
    }

    /// `ps_3_0`, `vs_1_1`, …
    #[getter]
    fn version(&self) -> String {
        self.inner.version()
    }

    /// Whether this is a pixel shader.
    #[getter]
    fn is_pixel(&self) -> bool {
        self.inner.is_pixel()
    }

    /// The bytecode.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let bytes = py.detach(|| self.inner.to_bytes());
        PyBytes::new(py, &bytes)
    }

    /// The Microsoft listing.
    fn disassemble(&self, py: Python<'_>, offsets: bool, tokens: bool) -> String {
        py.detach(|| self.inner.disassemble(offsets, tokens))
    }

    /// The constant table's entries as JSON.
    fn constants_json(&self, py: Python<'_>) -> PyResult<String> {
        py.detach(|| self.inner.constants_json())
            .map_err(|e| raise(py, e))
    }

    /// The instructions as JSON.
    fn instructions_json(&self, py: Python<'_>) -> PyResult<String> {
        py.detach(|| self.inner.instructions_json())
            .map_err(|e| raise(py, e))
    }

    /// The validator's findings as JSON.
    fn findings_json(&self, py: Python<'_>) -> String {
        py.detach(|| self.inner.findings_json())
    }

    /// SPIR-V bytes, or text.
    fn translate(
        &self,
        py: Python<'_>,
        target: &str,
        options_json: &str,
        validate: bool,
        via_naga: bool,
    ) -> PyResult<Py<PyAny>> {
        let r = py.detach(|| {
            self.inner
                .translate(target, options_json, validate, via_naga)
        });
        match r.map_err(|e| raise(py, e))? {
            Translation::Words(w) => {
                let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
                Ok(PyBytes::new(py, &bytes).into_any().unbind())
            }
            Translation::Text(t) => Ok(t.into_pyobject(py)?.into_any().unbind()),
        }
    }

    /// The translation's interface as JSON.
    fn interface_json(
        &self,
        py: Python<'_>,
        options_json: &str,
        validate: bool,
    ) -> PyResult<String> {
        py.detach(|| self.inner.interface_json(options_json, validate))
            .map_err(|e| raise(py, e))
    }

    /// One invocation; request and result as JSON.
    fn run(&self, py: Python<'_>, request_json: &str) -> PyResult<String> {
        py.detach(|| {
            let req = RunRequest::from_json(request_json)?;
            self.inner.run(&req).map(|o| o.to_json())
        })
        .map_err(|e| raise(py, e))
    }

    /// (width, height, RGBA bytes) of the full-screen picture; `textures` are
    /// (stage, width, height, RGBA bytes).
    #[pyo3(signature = (request_json, vs=None, textures=Vec::new()))]
    fn render<'py>(
        &self,
        py: Python<'py>,
        request_json: &str,
        vs: Option<PyRef<'py, PyShader>>,
        textures: Vec<(usize, u32, u32, Vec<u8>)>,
    ) -> PyResult<(u32, u32, Bound<'py, PyBytes>)> {
        let vs = vs.as_ref().map(|v| &v.inner);
        let pic = py
            .detach(|| {
                let mut req = RenderRequest::from_json(request_json)?;
                for (stage, w, h, rgba) in &textures {
                    req.texture(*stage, *w, *h, rgba)?;
                }
                self.inner.render(&req, vs)
            })
            .map_err(|e| raise(py, e))?;
        Ok((pic.width, pic.height, PyBytes::new(py, &pic.rgba)))
    }
}

/// (shader, warnings) assembled from `text`; `request_json` holds the options.
#[pyfunction]
fn assemble(py: Python<'_>, text: &str, request_json: &str) -> PyResult<(PyShader, Vec<String>)> {
    py.detach(|| {
        let req = serde_request(request_json)?;
        d3dbc_bind::assemble(text, &req)
    })
    .map(|(inner, w)| (PyShader { inner }, w))
    .map_err(|e| raise(py, e))
}

fn serde_request(json: &str) -> Result<d3dbc_bind::AsmRequest, d3dbc_bind::Error> {
    d3dbc_bind::AsmRequest::from_json(json)
}

/// An fx_2_0 effect with the parameter values set so far.
#[pyclass(module = "d3dbc._native", name = "Effect")]
struct PyEffect {
    inner: Effect,
}

/// A technique or pass given by index or name.
fn pick(what: &Bound<'_, PyAny>) -> PyResult<Pick> {
    if let Ok(i) = what.extract::<usize>() {
        return Ok(Pick::Index(i));
    }
    what.extract::<String>()
        .map(Pick::Name)
        .map_err(|_| PyRuntimeError::new_err("expected an index or a name"))
}

#[pymethods]
impl PyEffect {
    /// Reads an effect.
    #[staticmethod]
    fn from_bytes(py: Python<'_>, data: Vec<u8>) -> PyResult<PyEffect> {
        py.detach(|| Effect::from_bytes(data))
            .map(|inner| PyEffect { inner })
            .map_err(|e| raise(py, e))
    }

    /// The effect's bytes.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.inner.bytes())
    }

    /// fxc's listing of the effect.
    fn disassemble(&self, py: Python<'_>) -> PyResult<String> {
        py.detach(|| self.inner.disassemble())
            .map_err(|e| raise(py, e))
    }

    /// The techniques as JSON.
    fn techniques_json(&self, py: Python<'_>) -> PyResult<String> {
        self.inner.techniques_json().map_err(|e| raise(py, e))
    }

    /// The parameters as JSON.
    fn parameters_json(&self, py: Python<'_>) -> PyResult<String> {
        self.inner.parameters_json().map_err(|e| raise(py, e))
    }

    /// Sets a parameter.
    fn set(&mut self, py: Python<'_>, name: &str, values: Vec<f32>) -> PyResult<()> {
        self.inner.set(name, values).map_err(|e| raise(py, e))
    }

    /// The (vertex, pixel) shaders of a pass, with the pass's constants.
    fn pass_shaders(
        &self,
        py: Python<'_>,
        technique: &Bound<'_, PyAny>,
        pass: &Bound<'_, PyAny>,
    ) -> PyResult<(Option<PyShader>, Option<PyShader>)> {
        let (t, p) = (pick(technique)?, pick(pass)?);
        let (vs, ps) = py
            .detach(|| self.inner.pass_shaders(&t, &p))
            .map_err(|e| raise(py, e))?;
        Ok((
            vs.map(|inner| PyShader { inner }),
            ps.map(|inner| PyShader { inner }),
        ))
    }
}

/// Every shader and effect inside `data`, as JSON.
#[pyfunction]
fn rip_json(py: Python<'_>, data: &[u8]) -> String {
    py.detach(|| d3dbc_bind::rip_json(data))
}

/// The native module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyShader>()?;
    m.add_class::<PyEffect>()?;
    m.add_function(wrap_pyfunction!(assemble, m)?)?;
    m.add_function(wrap_pyfunction!(rip_json, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
