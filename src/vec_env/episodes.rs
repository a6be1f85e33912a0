//! Where each episode's rules come from in a batch ([`RulesSource`]): one rule set, a list of
//! rule sets drawn at every episode, or a rule space drawn at every episode; and the rules
//! encodings written into the outputs when a game is dealt ([`Episodes`]).
//!
//! The draw of an episode is a function of its deal seed alone ([`rules_seed`]), so a game's
//! rules, like its cards, do not depend on the thread count or on the other games.

use super::config::VecEnvError;
use crate::game::{Game, derive_seed};
use crate::rules::space::RuleSpace;
use crate::rules::{RULES_SIZE, Rules};
use std::sync::Arc;

/// Salt of the rules draw of an episode.
const RULES_SALT: u64 = 0x0A1E_5EED_0000_0004;

/// The seed of the rules draw of the episode dealt from `episode_seed`: the index of a list
/// is `rules_seed % len`, a rule space draws with [`RuleSpace::sample`]`(rules_seed)`.
pub fn rules_seed(episode_seed: u64) -> u64 {
    derive_seed(episode_seed ^ RULES_SALT, 0)
}

/// Where each episode's rules come from.
#[derive(Clone, Debug)]
pub enum RulesSource {
    /// One rule set for every episode.
    One(Arc<Rules>),
    /// A list of rule sets (all for the batch's player count), one drawn uniformly per
    /// episode.
    List(Vec<Arc<Rules>>),
    /// A rule space drawn per episode; `index` is the position of the batch's player count in
    /// the space's counts.
    Space { space: Arc<RuleSpace>, index: usize },
}

impl RulesSource {
    /// A rule space for `num_players`, which must be one of the space's player counts.
    pub fn space(space: Arc<RuleSpace>, num_players: usize) -> Result<RulesSource, VecEnvError> {
        let counts = &space.config().num_players;
        let index = counts.iter().position(|&n| n == num_players).ok_or_else(|| {
            VecEnvError::Config(format!(
                "the rule space draws rules for {counts:?} players, not {num_players}: build it with num_players \
                 including {num_players}"
            ))
        })?;
        Ok(RulesSource::Space { space, index })
    }

    /// The rules of the first episode source: the batch's games are built with them.
    pub fn first(&self) -> Result<Arc<Rules>, VecEnvError> {
        match self {
            RulesSource::One(r) => Ok(r.clone()),
            RulesSource::List(v) => {
                v.first().cloned().ok_or_else(|| VecEnvError::Config("the list of rule sets is empty".into()))
            }
            RulesSource::Space { space, index } => Ok(space.sample_rules(0, *index)),
        }
    }

    /// Check that every rule set is for `n` players.
    pub(super) fn check(&self, n: u8) -> Result<(), VecEnvError> {
        if let RulesSource::List(v) = self {
            if let Some((i, r)) = v.iter().enumerate().find(|(_, r)| r.num_players != n) {
                return Err(VecEnvError::Config(format!(
                    "rule set {i} of the list ({}) is for {} players, the batch for {n}",
                    r.spec.name, r.num_players
                )));
            }
        }
        Ok(())
    }

    /// The rules of the episode dealt from `episode_seed`, with its rules id; `None` for one
    /// rule set (the game keeps its own).
    pub fn episode(&self, episode_seed: u64) -> Option<(Arc<Rules>, u64)> {
        let s = rules_seed(episode_seed);
        match self {
            RulesSource::One(_) => None,
            RulesSource::List(v) => {
                let k = (s % v.len() as u64) as usize;
                Some((v[k].clone(), k as u64))
            }
            RulesSource::Space { space, index } => Some((space.sample_rules(s, *index), s)),
        }
    }
}

/// A batch's [`RulesSource`] with the encodings of its fixed rule sets, computed once.
#[derive(Debug)]
pub(super) struct Episodes {
    pub(super) source: RulesSource,
    /// The encoding of each rule set of `One` and `List` (empty for a space).
    encodings: Vec<Vec<f32>>,
}

impl Episodes {
    pub(super) fn new(source: RulesSource) -> Episodes {
        let fixed: Vec<&Arc<Rules>> = match &source {
            RulesSource::One(r) => vec![r],
            RulesSource::List(v) => v.iter().collect(),
            RulesSource::Space { .. } => vec![],
        };
        let encodings = fixed
            .into_iter()
            .map(|r| {
                let mut e = vec![0.0; RULES_SIZE];
                r.encode(&mut e);
                e
            })
            .collect();
        Episodes { source, encodings }
    }

    /// Write the encoding of `game`'s rules (rules id `id`) into `out`.
    pub(super) fn write(&self, game: &Game, id: u64, out: &mut [f32]) {
        match self.encodings.get(id as usize).filter(|_| !matches!(self.source, RulesSource::Space { .. })) {
            Some(e) => out.copy_from_slice(e),
            None => game.rules().encode(out),
        }
    }
}
