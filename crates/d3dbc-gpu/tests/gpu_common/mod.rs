//! What the GPU tests share: the adapter, or a visible skip where there is none (never
//! under `CI=true`, where `.ci/run` installs lavapipe).

/// The first Vulkan adapter; `None` (after saying so) on a machine without one.
pub fn gpu_or_skip() -> Option<d3dbc_gpu::Gpu> {
    match d3dbc_gpu::Gpu::new() {
        Ok(g) => Some(g),
        Err(e) => {
            let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
            assert!(
                !ci,
                "no GPU adapter under CI ({e}): install mesa-vulkan-drivers"
            );
            eprintln!("SKIPPED: no GPU adapter ({e})");
            None
        }
    }
}
