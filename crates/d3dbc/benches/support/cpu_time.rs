//! The calling thread's CPU time, for comparisons on a shared machine (wall time
//! measures the neighbours). Included by path from `d3dbc-peers`' bench and example.

use std::time::Duration;

/// CPU time this thread has run (`CLOCK_THREAD_CPUTIME_ID`).
#[cfg(target_os = "linux")]
pub fn thread_cpu() -> Duration {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut ts = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec of the C layout on 64-bit Linux, and
    // CLOCK_THREAD_CPUTIME_ID is a clock every Linux has. CPU time is what a comparison
    // on a shared machine needs.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Wall time since the first call (no thread CPU clock off Linux).
#[cfg(not(target_os = "linux"))]
pub fn thread_cpu() -> Duration {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}
