//! Writing fx_2_0 effects: a small builder for the subset tools and tests need —
//! numeric parameters with defaults, techniques, passes, and states that are DWORD or
//! float constants, parameter references or embedded shaders. The output follows the
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
    params: Vec<(String, u32, Vec<f32>)>,
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
    /// A typedef of a float vector/scalar (`columns` 1–4) or object type `ty`.
    fn typedef(&mut self, ty: u32, class: u32, name: &str, columns: u32) -> u32 {
        let name_off = self.name(name);
        let sem_off = self.name("");
        let at = self.at();
        self.u32(ty);
        self.u32(class);
        self.u32(name_off);
        self.u32(sem_off);
        self.u32(0);
        if class <= 1 {
            if class == 1 {
                self.u32(columns);
                self.u32(1);
            } else {
                self.u32(1);
                self.u32(columns);
            }
        }
        at
    }
}

impl EffectBuilder {
    /// An empty effect.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a `float`/`float2..4` parameter with a default value (1–4 components).
    pub fn float_parameter(mut self, name: &str, default: &[f32]) -> Self {
        self.params.push((
            name.into(),
            default.len().clamp(1, 4) as u32,
            default.to_vec(),
        ));
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
        // Parameters: typedefs and values.
        let mut params = Vec::new();
        for (name, n, default) in &self.params {
            let class = if *n == 1 { 0 } else { 1 };
            let ty = o.typedef(3, class, name, *n);
            let val = o.at();
            for i in 0..*n as usize {
                o.u32(default.get(i).copied().unwrap_or(0.0).to_bits());
            }
            params.push((ty, val));
        }
        // States: typedef and value per state; shaders get object ids.
        let mut objects = 1u32; // object 0 is unused, as fxc leaves it
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
                            let n = f.len().clamp(1, 4) as u32;
                            let ty = o.typedef(3, if n == 1 { 0 } else { 1 }, sname, n);
                            let val = o.at();
                            for i in 0..n as usize {
                                o.u32(f.get(i).copied().unwrap_or(0.0).to_bits());
                            }
                            (ty, val)
                        }
                        StateSpec::Parameter(p) => {
                            // The reference's type is the parameter's: a float4.
                            let n = self
                                .params
                                .iter()
                                .find(|(name, _, _)| name == p)
                                .map_or(4, |x| x.1);
                            let ty = o.typedef(3, if n == 1 { 0 } else { 1 }, sname, n);
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
        for (ty, val) in &params {
            o.u32(*ty);
            o.u32(*val);
            o.u32(0);
            o.u32(0);
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
        o.u32(0); // strings
        o.u32(resources.len() as u32);
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
