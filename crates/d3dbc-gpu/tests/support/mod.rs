//! Shared by the GPU integration tests: opening the adapter.

/// A GPU, or `None` (skipped visibly) when there is no adapter outside CI; under CI
/// (`CI=true`) a missing adapter fails.
#[allow(dead_code)]
pub fn gpu() -> Option<d3dbc_gpu::Gpu> {
    gpu_with(d3dbc_gpu::Backend::from_env())
}

/// [`gpu`] with translation back end `backend`.
#[allow(dead_code)]
pub fn gpu_with(backend: d3dbc_gpu::Backend) -> Option<d3dbc_gpu::Gpu> {
    match d3dbc_gpu::Gpu::with_backend(backend) {
        Ok(g) => Some(g),
        Err(e) => {
            no_device(&e);
            None
        }
    }
}

/// Says that the running test is skipped for want of a GPU adapter (`why`), past the
/// harness's capture so that a reader of `cargo test` sees it; under CI (`CI=true`) a
/// missing adapter fails instead.
pub fn no_device(why: &dyn std::fmt::Display) {
    let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    assert!(
        !ci,
        "no GPU adapter under CI ({why}): install mesa-vulkan-drivers"
    );
    use std::io::Write;
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    let _ = writeln!(
        std::io::stderr().lock(),
        "SKIPPED {test}: no GPU adapter ({why})"
    );
}
