//! Writing fx_2_0 effects: a small builder for the subset tools and tests need —
//! float and int parameters with defaults (and float annotations), arrays of shaders,
//! techniques, passes, and states that are DWORD or float constants, parameter
//! references, embedded shaders or shaders picked from an array by a parameter's
//! component (`VertexShader = vs_arr[i]`). The output follows the
//! layout [`Effect::parse`](super::Effect::parse) reads (and D3DX loads): the body's
//! data (names, type descriptions, values) first, then the tables, then the shaders as
//! resources of their states.

use super::states::STATES;

/// A state value.
#[derive(Clone, Debug)]
pub enum StateSpec {
    /// A DWORD (enumeration/integer states; booleans as 0/1).
    Dword(u32),
    /// Floats (float states, light/material vectors, shader constants).
    Float(Vec<f32>),
    /// The value of a parameter (`State = <name>;`).
    Parameter(String),
    /// Shader bytecode (`VertexShader`/`PixelShader`).
    Shader(Vec<u32>),
    /// A shader of the shader-array parameter `array`, the element component
    /// `component` of parameter `index` names (`VertexShader = array[index.x]`): an
    /// array selector whose preshader moves that component to its output.
    Selector {
        /// The shader-array parameter.
        array: String,
        /// The scalar or vector parameter holding the index.
        index: String,
        /// Which of its components (0 = x).
        component: u32,
    },
}

/// A parameter's float annotations (name, value).
type Annotations = Vec<(String, f32)>;

/// A parameter under construction.
#[derive(Clone, Debug)]
enum ParamSpec {
    /// `float`..`float4` (type 3) or `int`..`int4` (type 2): components as DWORDs.
    Numeric { ty: u32, words: Vec<u32> },
    /// An array of vertex (16) or pixel (15) shaders.
    Shaders { ty: u32, code: Vec<Vec<u32>> },
}

/// A pass under construction.
#[derive(Clone, Debug, Default)]
pub struct PassSpec {
    name: String,
    states: Vec<(u32, u32, StateSpec)>,
}

impl PassSpec {
    /// A pass named `name`.
    pub fn new(name: &str) -> Self {
        PassSpec {
            name: name.into(),
            states: Vec::new(),
        }
    }

    /// Adds state `state` (its D3D name, as in [`STATES`]) with `index`.
    ///
    /// # Panics
    /// When `state` is not a state name D3DX knows.
    pub fn state(mut self, state: &str, index: u32, value: StateSpec) -> Self {
        let op = STATES
            .iter()
            .position(|s| s.name == state)
            .unwrap_or_else(|| panic!("unknown state {state}"));
        self.states.push((op as u32, index, value));
        self
    }
}

/// An effect under construction.
#[derive(Clone, Debug, Default)]
pub struct EffectBuilder {
    params: Vec<(String, ParamSpec, Annotations)>,
    techniques: Vec<(String, Vec<PassSpec>)>,
}

struct Out {
    body: Vec<u8>,
}

impl Out {
    fn u32(&mut self, v: u32) {
        self.body.extend_from_slice(&v.to_le_bytes());
    }
    fn at(&self) -> u32 {
        self.body.len() as u32
    }
    fn name(&mut self, s: &str) -> u32 {
        let at = self.at();
        let n = s.len() as u32 + 1;
        self.u32(n);
        self.body.extend_from_slice(s.as_bytes());
        self.body.push(0);
        while !self.body.len().is_multiple_of(4) {
            self.body.push(0);
        }
        at
    }
    /// A typedef of a numeric vector/scalar (`columns` 1–4), a one-column matrix of
    /// `columns` rows (class 3), or object type `ty` (with `elements`).
    fn typedef(&mut self, ty: u32, class: u32, name: &str, columns: u32) -> u32 {
        self.typedef_array(ty, class, name, columns, 0)
    }

    fn typedef_array(
        &mut self,
        ty: u32,
        class: u32,
        name: &str,
        columns: u32,
        elements: u32,
    ) -> u32 {
        let name_off = self.name(name);
        let sem_off = self.name("");
        let at = self.at();
        self.u32(ty);
        self.u32(class);
        self.u32(name_off);
        self.u32(sem_off);
        self.u32(elements);
        match class {
            0 => {
                self.u32(1);
                self.u32(columns);
            }
            1 => {
                self.u32(columns);
                self.u32(1);
            }
            2 | 3 => {
                self.u32(columns);
                self.u32(1);
            }
            _ => {}
        }
        at
    }
}

/// The numeric class of `n` components: scalar, vector, or (more than 4) a one-column
/// matrix as fxc types long constant lists (`VertexShaderConstant4[4] = {…9 values}`).
fn numeric_class(n: u32) -> u32 {
    match n {
        0 | 1 => 0,
        2..=4 => 1,
        _ => 3,
    }
}

/// An fx_2_0 preshader (`FX` 2.0 token stream) that moves component `component` of the
/// scalar/vector parameter `name` (type `ty`: 2 int, 3 float; `columns` components),
/// staged in `c0`, to output `c0.x`: the program of an array selector.
fn selector_program(name: &str, ty: u32, columns: u32, component: u32) -> Vec<u32> {
    use crate::ctab::{Constant, Ctab, ParameterClass, ParameterType, RegisterSet, TypeInfo};
    const PRESHADER_2_0: u32 = 0x4658_0200;
    let ctab = Ctab {
        creator: "d3dbc".into(),
        target: "fx_2_0".into(),
        version: PRESHADER_2_0,
        flags: 0x100,
        constants: vec![Constant {
            name: name.into(),
            register_set: RegisterSet::Float4,
            register_index: 0,
            register_count: 1,
            ty: TypeInfo {
                class: if columns > 1 {
                    ParameterClass::Vector
                } else {
                    ParameterClass::Scalar
                },
                ty: if ty == 2 {
                    ParameterType::Int
                } else {
                    ParameterType::Float
                },
                rows: 1,
                columns: columns as u16,
                elements: 1,
                members: Vec::new(),
            },
            default_value: None,
            explicit_register: false,
        }],
    }
    .encode();
    let comment = |payload: &[u32], out: &mut Vec<u32>| {
        out.push(0xFFFE | (payload.len() as u32) << 16);
        out.extend_from_slice(payload);
    };
    let mut out = vec![PRESHADER_2_0];
    comment(&ctab, &mut out);
    comment(&[super::preshader::FOURCC_CLIT, 0], &mut out);
    // One `mov` of one component: input (no relative address) c[component], output c0.
    let fxlc = [
        super::preshader::FOURCC_FXLC,
        1,
        0x1000_0001,
        1,
        0,
        2,
        component,
        0,
        4,
        0,
    ];
    comment(&fxlc, &mut out);
    out.push(0x0000_FFFF);
    out
}

impl EffectBuilder {
    /// An empty effect.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a `float`/`float2..4` parameter with a default value (1–4 components).
    pub fn float_parameter(mut self, name: &str, default: &[f32]) -> Self {
        let n = default.len().clamp(1, 4);
        let words = (0..n)
            .map(|i| default.get(i).copied().unwrap_or(0.0).to_bits())
            .collect();
        self.params
            .push((name.into(), ParamSpec::Numeric { ty: 3, words }, Vec::new()));
        self
    }

    /// Adds an `int`/`int2..4` parameter with a default value (1–4 components).
    pub fn int_parameter(mut self, name: &str, default: &[i32]) -> Self {
        let n = default.len().clamp(1, 4);
        let words = (0..n)
            .map(|i| default.get(i).copied().unwrap_or(0) as u32)
            .collect();
        self.params
            .push((name.into(), ParamSpec::Numeric { ty: 2, words }, Vec::new()));
        self
    }

    /// Adds an array of shaders (`vertexshader name[n] = {asm {…}, …}`, or pixel
    /// shaders when the first token says so); an empty element is a NULL shader.
    pub fn shader_array_parameter(mut self, name: &str, shaders: Vec<Vec<u32>>) -> Self {
        let vertex = shaders
            .iter()
            .find_map(|c| c.first())
            .is_none_or(|v| v >> 16 == 0xFFFE);
        let ty = if vertex { 16 } else { 15 };
        self.params.push((
            name.into(),
            ParamSpec::Shaders { ty, code: shaders },
            Vec::new(),
        ));
        self
    }

    /// Adds a `float` annotation `name = value` to the parameter added last
    /// (`float f <float a = 1.0;>`).
    ///
    /// # Panics
    /// When no parameter was added yet.
    pub fn annotation(mut self, name: &str, value: f32) -> Self {
        let p = self
            .params
            .last_mut()
            .expect("an annotation needs a parameter");
        p.2.push((name.into(), value));
        self
    }

    /// Adds a technique with its passes.
    pub fn technique(mut self, name: &str, passes: Vec<PassSpec>) -> Self {
        self.techniques.push((name.into(), passes));
        self
    }

    /// The effect's bytes.
    pub fn build(&self) -> Vec<u8> {
        let mut o = Out { body: Vec::new() };
        // Parameters: typedefs and values (shader arrays: object ids, data below).
        let mut objects = 1u32; // object 0 is unused, as fxc leaves it
        let mut object_data: Vec<(u32, Vec<u8>)> = Vec::new();
        let mut params = Vec::new();
        for (name, spec, annotations) in &self.params {
            let (ty, val) = match spec {
                ParamSpec::Numeric { ty, words } => {
                    let n = words.len() as u32;
                    let t = o.typedef(*ty, numeric_class(n), name, n);
                    let val = o.at();
                    for w in words {
                        o.u32(*w);
                    }
                    (t, val)
                }
                ParamSpec::Shaders { ty, code } => {
                    let t = o.typedef_array(*ty, 4, name, 0, code.len() as u32);
                    let val = o.at();
                    for c in code {
                        o.u32(objects);
                        object_data
                            .push((objects, c.iter().flat_map(|w| w.to_le_bytes()).collect()));
                        objects += 1;
                    }
                    (t, val)
                }
            };
            let mut annots = Vec::new();
            for (aname, v) in annotations {
                let t = o.typedef(3, 0, aname, 1);
                let val = o.at();
                o.u32(v.to_bits());
                annots.push((t, val));
            }
            params.push((ty, val, annots));
        }
        // States: typedef and value per state; shaders get object ids.
        let mut techs = Vec::new();
        let mut resources: Vec<(u32, u32, u32, u32, Vec<u8>)> = Vec::new();
        for (ti, (tname, passes)) in self.techniques.iter().enumerate() {
            let tname_off = o.name(tname);
            let mut ps = Vec::new();
            for (pi, pass) in passes.iter().enumerate() {
                let pname_off = o.name(&pass.name);
                let mut states = Vec::new();
                for (si, (op, index, spec)) in pass.states.iter().enumerate() {
                    let sname = STATES[*op as usize].name;
                    let (ty, val) = match spec {
                        StateSpec::Dword(v) => {
                            let ty = o.typedef(2, 0, sname, 1);
                            let val = o.at();
                            o.u32(*v);
                            (ty, val)
                        }
                        StateSpec::Float(f) => {
                            let n = f.len().max(1) as u32;
                            let ty = o.typedef(3, numeric_class(n), sname, n);
                            let val = o.at();
                            for i in 0..n as usize {
                                o.u32(f.get(i).copied().unwrap_or(0.0).to_bits());
                            }
                            (ty, val)
                        }
                        StateSpec::Parameter(p) => {
                            // The reference's type is the parameter's: a float4.
                            let (t, n) = match self.params.iter().find(|(name, _, _)| name == p) {
                                Some((_, ParamSpec::Numeric { ty, words }, _)) => {
                                    (*ty, words.len() as u32)
                                }
                                _ => (3, 4),
                            };
                            let ty = o.typedef(t, numeric_class(n), sname, n);
                            let val = o.at();
                            for _ in 0..n {
                                o.u32(0);
                            }
                            let mut data = p.as_bytes().to_vec();
                            data.push(0);
                            resources.push((ti as u32, pi as u32, si as u32, 1, data));
                            (ty, val)
                        }
                        StateSpec::Shader(code) => {
                            let kind = if code.first().is_some_and(|v| v >> 16 == 0xFFFE) {
                                16
                            } else {
                                15
                            };
                            let ty = o.typedef(kind, 4, sname, 0);
                            let val = o.at();
                            o.u32(objects);
                            objects += 1;
                            let data = code.iter().flat_map(|w| w.to_le_bytes()).collect();
                            resources.push((ti as u32, pi as u32, si as u32, 0, data));
                            (ty, val)
                        }
                        StateSpec::Selector {
                            array,
                            index,
                            component,
                        } => {
                            let kind = match self.params.iter().find(|(n, _, _)| n == array) {
                                Some((_, ParamSpec::Shaders { ty, .. }, _)) => *ty,
                                _ => 16,
                            };
                            let (ity, columns) =
                                match self.params.iter().find(|(n, _, _)| n == index) {
                                    Some((_, ParamSpec::Numeric { ty, words }, _)) => {
                                        (*ty, words.len() as u32)
                                    }
                                    _ => (3, 1),
                                };
                            let ty = o.typedef(kind, 4, sname, 0);
                            let val = o.at();
                            o.u32(objects);
                            objects += 1;
                            // Usage 2: the array's name (length-prefixed, padded), then
                            // the selector's preshader.
                            let mut data = Vec::new();
                            let mut name = array.as_bytes().to_vec();
                            name.push(0);
                            while name.len() % 4 != 0 {
                                name.push(0);
                            }
                            data.extend_from_slice(&(name.len() as u32).to_le_bytes());
                            data.extend_from_slice(&name);
                            for w in selector_program(index, ity, columns, *component) {
                                data.extend_from_slice(&w.to_le_bytes());
                            }
                            resources.push((ti as u32, pi as u32, si as u32, 2, data));
                            (ty, val)
                        }
                    };
                    states.push((*op, *index, ty, val));
                }
                ps.push((pname_off, states));
            }
            techs.push((tname_off, ps));
        }
        // The tables.
        let table = o.at();
        o.u32(self.params.len() as u32);
        o.u32(self.techniques.len() as u32);
        o.u32(0);
        o.u32(objects);
        for (ty, val, annots) in &params {
            o.u32(*ty);
            o.u32(*val);
            o.u32(0);
            o.u32(annots.len() as u32);
            for (t, v) in annots {
                o.u32(*t);
                o.u32(*v);
            }
        }
        for (name_off, passes) in &techs {
            o.u32(*name_off);
            o.u32(0);
            o.u32(passes.len() as u32);
            for (pname_off, states) in passes {
                o.u32(*pname_off);
                o.u32(0);
                o.u32(states.len() as u32);
                for (op, index, ty, val) in states {
                    o.u32(*op);
                    o.u32(*index);
                    o.u32(*ty);
                    o.u32(*val);
                }
            }
        }
        o.u32(object_data.len() as u32);
        o.u32(resources.len() as u32);
        for (id, data) in &object_data {
            o.u32(*id);
            o.u32(data.len() as u32);
            o.body.extend_from_slice(data);
            while !o.body.len().is_multiple_of(4) {
                o.body.push(0);
            }
        }
        for (t, p, s, usage, data) in &resources {
            o.u32(*t);
            o.u32(*p);
            o.u32(u32::MAX);
            o.u32(*s);
            o.u32(*usage);
            o.u32(data.len() as u32);
            o.body.extend_from_slice(data);
            while !o.body.len().is_multiple_of(4) {
                o.body.push(0);
            }
        }
        let mut out = Vec::with_capacity(8 + o.body.len());
        out.extend_from_slice(&super::FX_2_0.to_le_bytes());
        out.extend_from_slice(&table.to_le_bytes());
        out.extend_from_slice(&o.body);
        out
    }
}
