//! # d3dbc-exec
//!
//! The CPU reference executor for Direct3D 9 shaders (SM1.0–3.0), in layers where
//! nothing below imports from above:
//!
//! 1. [`draw`]: the shared [`Draw`]/[`Scene`] description of rendering work (the
//!    execution oracles load into it: `oracle`, with feature `oracle`);
//! 2. [`format`](mod@format): texel formats — decoding, quantising to a target, the sRGB curves,
//!    D3DCOLOR;
//! 3. [`texture`]: decoded textures and the samplers;
//! 4. [`exec`]: the interpreter over groups of four 2×2 quads;
//! 5. [`render`](mod@render): vertex fetch, homogeneous clipping, triangle setup, output merger
//!    ([`render::merge`], which owns the [`render::Framebuffer`]), pixel shading,
//!    rasterization and primitive assembly, and the [`Renderer`] that runs a scene;
//! 6. `replay` (feature `oracle`): replaying an oracle record's probes (the CPU's and the
//!    GPU runner's).
//!
//! [`quick`] and [`pretransformed`] build draws on top. Device-dependent choices come
//! from [`d3dbc::Semantics`].
//!
//! The front door: run one shader with [`run_pixel`] / [`run_vertex`], or
//! draw a [`Draw`] with [`render()`].
//!
//! ```
//! use d3dbc_exec::{run_pixel, Inputs};
//!
//! let ps = d3dbc::asm::assemble("ps_2_0\ndcl t0\nmul oC0, t0, c0\n", &Default::default())
//!     .unwrap();
//! let inputs = Inputs::default()
//!     .input("t0", [0.5, 0.25, 1.0, 1.0])
//!     .constant(0, [2.0, 2.0, 2.0, 1.0]);
//! let out = run_pixel(&ps, &inputs).unwrap();
//! assert_eq!(out.get("oC0"), Some([1.0, 0.5, 2.0, 1.0]));
//! ```
#![warn(missing_docs)]

pub mod diagnose;
pub mod divergence;
pub mod draw;
pub mod effect;
pub mod equivalence;
#[cfg(feature = "oracle")]
pub mod oracle;
/// Without the feature, the loader's state decoding still serves [`effect`].
#[cfg(not(feature = "oracle"))]
#[allow(dead_code)]
mod oracle;
pub mod pretransformed;
pub mod quick;

pub use draw::{Draw, Op, Scene};
pub mod exec;
pub mod format;
mod invoke;
pub mod render;
#[cfg(feature = "oracle")]
pub mod replay;
pub mod texture;
pub mod trace;
pub mod translate;

pub use invoke::{render, run_pixel, run_vertex, Inputs, Outputs, RunError};
pub use render::{Image, Options, RenderError, Renderer};
