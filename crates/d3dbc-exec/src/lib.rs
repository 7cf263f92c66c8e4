//! # d3dbc-exec
//!
//! The CPU reference executor for Direct3D 9 shaders (SM1.0–3.0): the shared [`Draw`]
//! description of rendering work ([`draw`]), the execution oracles' loader and probe
//! checker ([`oracle`]), an interpreter over 2×2 quads, a rasterizer and texture
//! samplers. Device-dependent choices come from [`d3dbc::Semantics`].
#![warn(missing_docs)]

pub mod draw;
pub mod oracle;
pub mod pretransformed;
pub mod quick;

pub use draw::{Draw, Op, Scene};
pub mod exec;
pub mod render;
pub mod texture;

pub use render::{Image, Options, RenderError, Renderer};
