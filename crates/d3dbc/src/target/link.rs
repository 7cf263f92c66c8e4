//! Linking a vertex shader to a pixel shader, as a D3D9 driver does when it builds a
//! pipeline (DXVK, wined3d): the rules both back ends apply (`d3dbc_naga::link` rewrites
//! two naga modules, `d3dbc_spirv::link` emits the pair), so a linked pair gets the same
//! locations, interpolation and defaults from either.
//!
//! The varyings move from the fixed map of [`super::interface::varying_location`]
//! (which lets any shader pair link, but spreads locations up to `16 + 16·usage + 15`,
//! past the inter-stage limit of most devices) to compact locations `0..N` for exactly
//! what the pixel shader reads:
//! - every location-bound input of the pixel shader gets a compact location, in the
//!   order of its fixed location (TEXCOORD0–7, COLOR0–1, FOG, then the rest), with the
//!   interpolation and sampling of its first declaration ([`LinkReads`]);
//! - the vertex shader keeps its built-ins (position, point size, clip distances) and, of
//!   its varyings, only those the pixel shader reads (D3D9 drops the others, as DXVK
//!   does), each with the pixel input's location, interpolation and sampling, since the
//!   two stages must agree on both;
//! - a varying the pixel shader reads and the vertex shader does not produce reads
//!   D3D9's default, the one the CPU executor uses ([`crate::regs::unwritten_varying`]),
//!   except that a vs_3_0 `POSITION0` output is also visible to a pixel shader that
//!   declares a `POSITION0` input ([`source`]). The vertex shader's FOG output keeps the
//!   fixed-function fog default where it writes no fog (below SM3 the specular alpha, 0
//!   when oD1 is not written either; 1 for a vs_3_0), since the same location feeds the
//!   fog factor of pixel shaders below 3.0; a ps_3_0 `dcl_fog` input behind a vs_3_0
//!   writing no fog reads that 1, where the CPU executor reads 0 (D3D9 leaves it
//!   undefined; no corpus pair does this);
//! - both interfaces' `varyings` list the linked locations ([`LinkRead::varying`]).

use crate::token::DeclUsage;
use crate::Version;

use super::interface::{varying_at, Varying};

/// One varying a pixel shader reads: its fixed location
/// ([`super::interface::varying_location`]), its compact location once linked, and its
/// interpolation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkRead {
    /// Location in the fixed map.
    pub fixed: u32,
    /// Compact location after linking.
    pub location: u32,
    /// Flat interpolation.
    pub flat: bool,
    /// Centroid sampling.
    pub centroid: bool,
}

impl LinkRead {
    /// The linked varying this read stands for, at its compact location (`None` for a
    /// fixed location no `(usage, index)` maps to).
    pub fn varying(&self) -> Option<Varying> {
        let (usage, usage_index) = varying_at(self.fixed)?;
        Some(Varying {
            usage,
            usage_index,
            location: self.location,
            flat: self.flat,
            centroid: self.centroid,
        })
    }
}

/// The varyings a pixel shader reads, gathered input by input, then given their compact
/// locations.
#[derive(Clone, Debug, Default)]
pub struct LinkReads(Vec<LinkRead>);

impl LinkReads {
    /// Records an input at fixed location `fixed`; a location already recorded keeps its
    /// first interpolation and sampling.
    pub fn record(&mut self, fixed: u32, flat: bool, centroid: bool) {
        if !self.0.iter().any(|r| r.fixed == fixed) {
            self.0.push(LinkRead {
                fixed,
                location: 0,
                flat,
                centroid,
            });
        }
    }

    /// The reads in fixed-location order, numbered `0..N`.
    pub fn compact(mut self) -> Vec<LinkRead> {
        self.0.sort_unstable_by_key(|r| r.fixed);
        for (n, r) in self.0.iter_mut().enumerate() {
            r.location = n as u32;
        }
        self.0
    }
}

/// The compact location of fixed location `fixed` among linked `reads`, if the pixel
/// shader reads it.
pub fn compact_location(reads: &[LinkRead], fixed: u32) -> Option<u32> {
    reads.iter().find(|r| r.fixed == fixed).map(|r| r.location)
}

/// Where a linked vertex output takes its value from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Source {
    /// The vertex shader's own output for the varying.
    Own,
    /// The final position: a vs_3_0 `POSITION0` output read as a varying.
    Position,
    /// A constant: D3D9's default for a varying the vertex shader does not write.
    Default([f32; 4]),
}

/// Where the output for fixed location `fixed` of a vertex shader of version `vs` comes
/// from, when the shader writes that varying itself (`written`) or not.
pub fn source(vs: Version, fixed: u32, written: bool) -> Source {
    match varying_at(fixed) {
        _ if written => Source::Own,
        Some((DeclUsage::Position, 0)) if vs.declares_varyings() => Source::Position,
        Some((usage, index)) => Source::Default(crate::regs::unwritten_varying(usage as u8, index)),
        None => Source::Default([0.0; 4]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::interface::varying_location;

    #[test]
    fn reads_keep_their_first_declaration_and_number_in_fixed_order() {
        let tex1 = varying_location(DeclUsage::TexCoord, 1);
        let col0 = varying_location(DeclUsage::Color, 0);
        let tex0 = varying_location(DeclUsage::TexCoord, 0);
        let mut r = LinkReads::default();
        r.record(col0, true, false);
        r.record(tex1, false, true);
        r.record(col0, false, false); // a second declaration of COLOR0: ignored
        r.record(tex0, false, false);
        let reads = r.compact();
        let got: Vec<(u32, u32, bool, bool)> = reads
            .iter()
            .map(|r| (r.fixed, r.location, r.flat, r.centroid))
            .collect();
        assert_eq!(
            got,
            [
                (tex0, 0, false, false),
                (tex1, 1, false, true),
                (col0, 2, true, false)
            ]
        );
        assert_eq!(compact_location(&reads, col0), Some(2));
        assert_eq!(compact_location(&reads, 99), None);
        let v = reads[2].varying().unwrap();
        assert_eq!(
            (v.usage, v.usage_index, v.location, v.flat),
            (DeclUsage::Color, 0, 2, true)
        );
    }

    #[test]
    fn sources_follow_what_the_vertex_shader_writes() {
        let vs2 = Version::vertex(2, 0);
        let vs3 = Version::vertex(3, 0);
        let pos = varying_location(DeclUsage::Position, 0);
        let col0 = varying_location(DeclUsage::Color, 0);
        let tex5 = varying_location(DeclUsage::TexCoord, 5);
        assert_eq!(source(vs2, tex5, true), Source::Own);
        assert_eq!(source(vs3, pos, false), Source::Position);
        assert_eq!(source(vs2, pos, false), Source::Default([0.0; 4]));
        // Unwritten COLOR0 reads the diffuse default.
        assert_eq!(source(vs3, col0, false), Source::Default([1.0; 4]));
        assert_eq!(source(vs3, tex5, false), Source::Default([0.0; 4]));
    }
}
