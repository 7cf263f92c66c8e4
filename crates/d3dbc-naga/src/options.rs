//! Translation options: the definitions shared by every back end, re-exported from
//! [`d3dbc::target::options`] so that existing users keep compiling.

pub use d3dbc::target::options::*;
