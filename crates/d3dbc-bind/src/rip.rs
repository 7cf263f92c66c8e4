//! [`rip`](crate::rip): every shader and effect inside any bytes.

use serde::Serialize;

/// One shader or effect [`rip`] found.
#[derive(Clone, Debug, Serialize)]
pub struct Find {
    /// Byte offset in the input.
    pub offset: usize,
    /// Size in bytes.
    pub size: usize,
    /// `vso`, `pso` or `fxo`, as `d3dbc rip` names it.
    pub kind: &'static str,
    /// `vs_3_0`, `ps_2_x`, `fx_2_0`.
    pub version: String,
    /// CRC-32 (IEEE) of the bytes, what HelixMod and ReShade dumps are keyed by.
    pub crc32: u32,
}

/// Every shader and effect inside `data`, as `d3dbc rip` finds them.
pub fn rip(data: &[u8]) -> Vec<Find> {
    d3dbc::rip::scan(data)
        .into_iter()
        .map(|f| Find {
            offset: f.offset,
            size: f.size,
            kind: f.kind.extension(),
            version: f.version_name(),
            crc32: f.crc32,
        })
        .collect()
}

/// [`rip`] as a JSON array.
pub fn rip_json(data: &[u8]) -> String {
    serde_json::to_string(&rip(data)).unwrap_or_else(|_| "[]".into())
}
