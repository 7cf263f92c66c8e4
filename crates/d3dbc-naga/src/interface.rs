//! The interface of a translated shader: the definitions shared by every back end,
//! re-exported from [`d3dbc::target::interface`] so that existing users keep compiling.

pub use d3dbc::target::interface::*;
