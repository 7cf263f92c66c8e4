//! Shared by the GPU integration tests: opening the adapter.

/// A GPU, or `None` (skipped visibly) when there is no adapter outside CI; under CI
/// (`CI=true`) a missing adapter fails.
pub fn gpu() -> Option<d3dbc_gpu::Gpu> {
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
