//! An effect pass translated as the linked pair it draws with: [`translate_pass`] applies
//! pass `pass` of technique `technique` ([`d3dbc::fx::Effect::pass_shaders`]: parameter
//! values, array selectors), translates its vertex and pixel shaders, and links them by
//! [`link`]'s rules when the pass sets both (a pass with one programmable
//! stage translates that one alone).

use d3dbc::fx::apply::Values;
use d3dbc::fx::pass::NamedRegisters;
use d3dbc::fx::Effect;

use crate::{link, translate, Error, TranslateOptions, Translation};

/// Why a pass could not be translated.
#[derive(Debug, thiserror::Error)]
pub enum PassError {
    /// The pass cannot be applied (no such technique or pass, `BeginPass` fails, a
    /// shader that does not decode).
    #[error("{0}")]
    Effect(String),
    /// A stage's translation or the link failed.
    #[error("{stage} shader: {error}")]
    Translate {
        /// `vertex`, `pixel` or `linked`.
        stage: &'static str,
        /// Why.
        error: Error,
    },
}

/// One translated stage and the effect parameter behind each of its constant
/// registers.
pub struct StageTranslation {
    /// The translation (linked when the pass has both stages).
    pub translation: Translation,
    /// Which effect parameter (or preshader output) each constant register holds.
    pub constants: Vec<NamedRegisters>,
}

/// A pass's translated stages.
pub struct PassTranslation {
    /// The vertex shader (`None`: fixed-function vertex processing).
    pub vertex: Option<StageTranslation>,
    /// The pixel shader (`None`: fixed-function pixel processing).
    pub pixel: Option<StageTranslation>,
}

/// Translates pass `pass` of technique `technique` (indices; see
/// [`Effect::find_technique`]) with parameter `values`.
pub fn translate_pass(
    effect: &Effect,
    technique: usize,
    pass: usize,
    values: &Values,
    options: &TranslateOptions,
) -> Result<PassTranslation, PassError> {
    if effect
        .techniques
        .get(technique)
        .and_then(|t| t.passes.get(pass))
        .is_none()
    {
        return Err(PassError::Effect(format!(
            "no pass {pass} in technique {technique}"
        )));
    }
    let shaders = effect
        .pass_shaders(technique, pass, values)
        .map_err(PassError::Effect)?;
    let one = |s: &d3dbc::fx::pass::StageShader, stage: &'static str| {
        translate(&s.shader, options).map_err(|error| PassError::Translate { stage, error })
    };
    let mut vertex = shaders
        .vertex
        .as_ref()
        .map(|s| one(s, "vertex"))
        .transpose()?;
    let mut pixel = shaders
        .pixel
        .as_ref()
        .map(|s| one(s, "pixel"))
        .transpose()?;
    if let (Some(v), Some(p)) = (&mut vertex, &mut pixel) {
        link(v, p).map_err(|error| PassError::Translate {
            stage: "linked",
            error,
        })?;
    }
    let stage = |t: Option<Translation>, s: &Option<d3dbc::fx::pass::StageShader>| {
        t.zip(s.as_ref()).map(|(translation, s)| StageTranslation {
            translation,
            constants: s.constants.clone(),
        })
    };
    Ok(PassTranslation {
        vertex: stage(vertex, &shaders.vertex),
        pixel: stage(pixel, &shaders.pixel),
    })
}
