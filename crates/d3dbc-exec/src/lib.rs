//! # d3dbc-exec
//!
//! The CPU reference executor for Direct3D 9 shaders (SM1.0–3.0): the shared [`Draw`]
//! description of rendering work ([`draw`]), the execution oracles' loader and probe
//! checker ([`oracle`]), an interpreter over groups of 2×2 quads ([`exec`]), homogeneous clipping,
//! primitive assembly with D3D9 line and point rules and the fill modes, a triangle
//! rasterizer ([`render`]), the output merger ([`merge`]: alpha test, stencil, depth,
//! blending, sRGB write) and texture samplers ([`texture`]). Device-dependent choices
//! come from [`d3dbc::Semantics`].
#![warn(missing_docs)]

pub mod draw;
pub mod effect;
pub mod oracle;
pub mod pretransformed;
pub mod quick;

pub use draw::{Draw, Op, Scene};
pub(crate) mod clip;
pub mod exec;
pub mod merge;
pub(crate) mod prim;
pub mod render;
pub mod texture;

pub use render::{Image, Options, RenderError, Renderer};
