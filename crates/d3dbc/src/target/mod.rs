//! What every translation back end shares (`d3dbc-naga` through naga, `d3dbc-spirv`
//! writing SPIR-V directly): the options that select the code ([`options`]), the
//! interface a host binds against ([`interface`]: bindings, constant-buffer layout,
//! varying locations, the driver uniform layout), the pre-pass view both start from
//! ([`scan`]: declarations, subroutine order), the errors both report ([`Error`]) and
//! the rules both link a vertex/pixel pair by ([`link`]). One definition here, so that the two
//! back ends cannot drift apart and a host switches between them without touching its
//! pipeline layout. It lives in the format crate, beside [`crate::Semantics`] and the
//! register facts ([`crate::regs`]) it builds on, because both back ends and the GPU
//! runner already depend on this crate and nothing else.

mod error;
pub mod float_controls;
pub mod interface;
pub mod link;
pub mod options;
pub mod scan;

pub use error::Error;
pub use interface::Interface;
pub use options::{PipelineState, TextureKind, TranslateOptions};
