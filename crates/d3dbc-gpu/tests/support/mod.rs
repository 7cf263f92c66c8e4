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
            use std::io::Write;
            // Past the harness's capture, so a reader of `cargo test` sees it.
            let test = std::thread::current()
                .name()
                .unwrap_or("a test")
                .to_string();
            let _ = writeln!(
                std::io::stderr().lock(),
                "SKIPPED {test}: no GPU adapter ({e})"
            );
            None
        }
    }
}
