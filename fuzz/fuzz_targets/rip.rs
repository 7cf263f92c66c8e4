//! Arbitrary bytes → `rip`'s scan. Nothing may panic or hang; every find lies inside the
//! input, finds do not overlap, and each find's CRC-32 is that of its bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let finds = d3dbc::rip::scan(data);
    let mut end = 0;
    for f in &finds {
        assert!(f.offset >= end && f.offset + f.size <= data.len());
        assert_eq!(f.crc32, d3dbc::rip::crc32(&data[f.offset..f.offset + f.size]));
        end = f.offset + f.size;
    }
});
