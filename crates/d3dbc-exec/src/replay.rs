//! Replaying the execution oracles: one record's probes checked against what a runner
//! drew ([`ProbeBook`], shared with the GPU runner), the CPU replay ([`replay`]) and the
//! pass/fail count the oracle examples print ([`ProbeTally`]).

use crate::render::{Options, Renderer};

/// The outcome of one probe of a replayed oracle record.
#[derive(Clone, Debug)]
pub struct ProbeOutcome {
    /// The probe.
    pub probe: crate::oracle::Probe,
    /// `None` = passed; otherwise the first failing pixel and the value read there, or
    /// the render error.
    pub failure: Option<String>,
}

/// The pass/fail count of the oracle examples (CPU and GPU): [`ProbeTally::record`] prints
/// one line per failing probe (label, expected value, what was read), [`ProbeTally::summary`]
/// the last line, `probes: P passed, F failed`.
#[derive(Clone, Copy, Debug, Default)]
pub struct ProbeTally {
    /// Probes that passed.
    pub passed: usize,
    /// Probes that failed.
    pub failed: usize,
}

impl ProbeTally {
    /// Counts `outcomes`, printing each failure to standard output.
    pub fn record(&mut self, outcomes: impl IntoIterator<Item = ProbeOutcome>) {
        for o in outcomes {
            match o.failure {
                None => self.passed += 1,
                Some(f) => {
                    self.failed += 1;
                    println!(
                        "FAIL {}: expected {:?} (channels from {}), {}",
                        o.probe.label,
                        o.probe.expect_f32(),
                        o.probe.first_channel,
                        f
                    );
                }
            }
        }
    }

    /// `probes: P passed, F failed`.
    pub fn summary(&self) -> String {
        format!("probes: {} passed, {} failed", self.passed, self.failed)
    }
}

/// Renders an oracle record on the CPU and checks every probe.
pub fn replay(rec: &crate::oracle::Record, opts: Options) -> Vec<ProbeOutcome> {
    let mut book = ProbeBook::new(rec);
    let regions = rec.probes.iter().map(|p| p.rect).collect();
    let run = Renderer::run_scene(&rec.scene, opts, Some(regions), |n, r| {
        book.after_draws(n, |t| r.targets.get(t).map(|img| move |x, y| img.get(x, y)));
    });
    book.finish(run.err().map(|e| e.to_string()))
}

/// Collects the probes of one oracle record as a runner (this crate's renderer, or the
/// GPU runner) reaches them: both replay a record through the same book.
pub struct ProbeBook<'a> {
    rec: &'a crate::oracle::Record,
    /// Per probe: not reached yet (`None`), passed (`Some(None)`) or failed.
    results: Vec<Option<Option<String>>>,
}

impl<'a> ProbeBook<'a> {
    /// An empty book for `rec`'s probes.
    pub fn new(rec: &'a crate::oracle::Record) -> Self {
        ProbeBook {
            rec,
            results: vec![None; rec.probes.len()],
        }
    }

    /// Checks the probes taken after `n` draws; `target(i)` reads render target `i`
    /// (`None` when there is no such target).
    pub fn after_draws<R: Fn(u32, u32) -> [f32; 4]>(
        &mut self,
        n: usize,
        target: impl Fn(usize) -> Option<R>,
    ) {
        for (i, p) in self.rec.probes.iter().enumerate() {
            if p.after_draws != n {
                continue;
            }
            let Some(read) = target(p.target as usize) else {
                self.results[i] = Some(Some(format!("no render target {}", p.target)));
                continue;
            };
            self.results[i] = Some(match p.check(read) {
                Ok(()) => None,
                Err(((x, y), got)) => Some(format!("at ({x}, {y}) got {got:?}")),
            });
        }
    }

    /// One outcome per probe; a probe never reached fails with the run's error, if any.
    pub fn finish(self, err: Option<String>) -> Vec<ProbeOutcome> {
        self.rec
            .probes
            .iter()
            .zip(self.results)
            .map(|(p, r)| ProbeOutcome {
                probe: p.clone(),
                failure: match r {
                    Some(f) => f,
                    None => Some(err.clone().unwrap_or_else(|| "probe never reached".into())),
                },
            })
            .collect()
    }
}
