//! A draw as a translated pipeline sees it: the translation options its state selects
//! ([`Draw::translate_options`]) and the driver uniform buffer the translated shaders
//! read ([`Draw::driver_uniforms`], layout [`d3dbc::target::interface::driver`]). The
//! GPU runner reads both from here, with the executor's own rules for user clip planes
//! and ps_1_x projection.

use d3dbc::target::interface::driver;
use d3dbc::target::options::{CompareFunc, FogDepth, FogMode, PipelineState, TranslateOptions};

use crate::draw::{self, Draw, Primitive, ShadeMode, TextureKind};

impl Draw {
    /// The translation options this draw's state selects (the viewport carries D3D9's
    /// half-pixel offset, so no position fix-up).
    pub fn translate_options(&self) -> TranslateOptions {
        let rs = &self.render_states;
        let sm1_sampler_kinds = (0..d3dbc::regs::VERTEX_SAMPLER_BASE)
            .map(|s| self.texture(s).map_or(TextureKind::Tex2d, |t| t.kind))
            .collect();
        let projected = (0..d3dbc::regs::MAX_TEXTURES)
            .map(|s| self.projection(s))
            .collect();
        let alpha_test = if rs.alpha_test {
            rs.alpha_func
        } else {
            CompareFunc::Always
        };
        let fog_depth = if rs.projection_44 != 1.0 {
            FogDepth::W
        } else {
            FogDepth::Z
        };
        // D3DRS_FOGTABLEMODE picks table fog; without it a shader's fog is vertex fog.
        let fog = if !rs.fog_enable {
            FogMode::None
        } else {
            match rs.fog_table_mode {
                draw::FogMode::None => FogMode::Vertex,
                draw::FogMode::Linear => FogMode::Linear,
                draw::FogMode::Exp => FogMode::Exp,
                draw::FogMode::Exp2 => FogMode::Exp2,
            }
        };
        TranslateOptions {
            semantics: Default::default(),
            pipeline: PipelineState {
                sm1_sampler_kinds,
                projected,
                alpha_test,
                fog,
                fog_depth,
                point_expansion: self.primitive == Primitive::PointList,
                point_sprites: rs.point_sprite,
                flat_shading: rs.shade == ShadeMode::Flat,
                // The enabled planes, in the driver uniforms' first clip-plane slots.
                clip_planes: self.user_clip_planes().count() as u8,
                // The viewport carries D3D9's half-pixel offset.
                position_fixup: false,
                ..Default::default()
            },
        }
    }

    /// The driver uniform buffer for this draw, one `vec4` per slot of
    /// [`d3dbc::target::interface::driver`].
    pub fn driver_uniforms(&self) -> Vec<[f32; 4]> {
        let mut u = vec![[0.0f32; 4]; driver::VEC4S as usize];
        let vp = &self.viewport;
        // POS_FIXUP stays zero: the half-pixel offset is in the viewport.
        let rs = &self.render_states;
        u[driver::ALPHA_REF as usize][0] = (rs.alpha_ref & 0xFF) as f32 / 255.0;
        u[driver::FOG_PARAMS as usize] = [rs.fog_start, rs.fog_end, rs.fog_density, 0.0];
        u[driver::FOG_COLOR as usize] = crate::format::d3dcolor(rs.fog_color);
        for s in 0..d3dbc::regs::MAX_TEXTURES {
            let st = self.stage(s);
            u[driver::BUMP_MAT as usize + s] = st.bump_mat;
            u[driver::BUMP_LUM as usize + s] = [st.bump_lscale, st.bump_loffset, 0.0, 0.0];
        }
        u[driver::POINT_SIZE as usize] = [rs.point_size, rs.point_size_min, rs.point_size_max, 0.0];
        u[driver::POINT_EXTENT as usize] = [
            2.0 / vp.width.max(1) as f32,
            -2.0 / vp.height.max(1) as f32,
            0.0,
            0.0,
        ];
        // The enabled planes packed from slot 0, as `translate_options` counts them
        // (plane 3 alone enabled is clip distance 0).
        for (k, (_, p)) in self.user_clip_planes().enumerate() {
            u[driver::CLIP_PLANE as usize + k] = p;
        }
        u
    }
}
