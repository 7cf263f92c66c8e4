//! Peer implementations, measured in the same run as d3dbc's own code (the `peers`
//! bench): MojoShader, the translator FNA and other engine ports load D3D9 shaders with.
//! It is built from MojoShader 6333f74 (the revision FNA3D builds against), which
//! `cargo xtask peers` unpacks from the shared tools' tarball (checksum-pinned) into
//! `target/peers/MojoShader`; without them [`mojoshader::available`] is false and the
//! bench measures d3dbc alone.
//!
//! Nothing here is part of d3dbc: the crate is unpublished and only the benches use it.

/// MojoShader's `MOJOSHADER_parse`, through a C shim that takes and returns plain values.
pub mod mojoshader {
    /// A MOJOSHADER profile name: what `parse` translates to.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Profile {
        /// SPIR-V words (`"spirv"`), MojoShader's Vulkan path.
        Spirv,
        /// A disassembly listing (`"d3d"`).
        D3d,
        /// GLSL (`"glsl"`).
        Glsl,
    }

    impl Profile {
        #[cfg_attr(not(mojoshader), allow(dead_code))]
        fn name(self) -> &'static std::ffi::CStr {
            match self {
                Profile::Spirv => c"spirv",
                Profile::D3d => c"d3d",
                Profile::Glsl => c"glsl",
            }
        }
    }

    /// Whether MojoShader was built into this crate.
    pub const fn available() -> bool {
        cfg!(mojoshader)
    }

    #[cfg(mojoshader)]
    extern "C" {
        fn d3dbc_peer_mojoshader_parse(
            profile: *const std::ffi::c_char,
            buf: *const u8,
            len: u32,
            out_len: *mut usize,
        ) -> i32;
    }

    /// Translates D3D9 bytecode (little-endian DWORDs as bytes) with `profile`:
    /// `Some(output length in bytes)`, or `None` where MojoShader reports an error or
    /// was not built.
    pub fn parse(profile: Profile, bytecode: &[u8]) -> Option<usize> {
        #[cfg(mojoshader)]
        {
            let len = u32::try_from(bytecode.len()).ok()?;
            let mut out_len = 0usize;
            // SAFETY: the shim reads exactly `len` bytes from `bytecode`, which lives for
            // the call; the profile name is a NUL-terminated static string; `out_len` is
            // a valid, exclusive pointer for the call. MojoShader allocates and frees its
            // own result inside the call, so nothing it owns outlives it.
            let errors = unsafe {
                d3dbc_peer_mojoshader_parse(
                    profile.name().as_ptr(),
                    bytecode.as_ptr(),
                    len,
                    &mut out_len,
                )
            };
            (errors == 0).then_some(out_len)
        }
        #[cfg(not(mojoshader))]
        {
            let _ = (profile, bytecode);
            None
        }
    }
}
