//! The game engine: state, phases, legal actions, step and scoring.
//!
//! A [`Game`] holds one table: hands as per-face counts, the stock and discard pile as
//! fixed-capacity piles, the nominated suit, direction, pending draw chain, the state of the
//! turn in progress, match scores and one seeded xoshiro256++ generator. Nothing here
//! allocates after construction: [`Game::legal_actions`] fills an [`ActionMask`] and
//! [`Game::step`] mutates in place. The rules are read from [`Rules`] as compiled once: the
//! per-card table [`Rules::card`] and the table-wide [`Rules::settings`]; the engine never
//! reads the serde specification during play.
//!
//! Seats are numbered clockwise `0..n`; the dealer of the first hand is seat `n-1`, so seat 0
//! (the dealer's left) acts first unless the start card says otherwise. A turn is broken into
//! single decisions, each in one [`Phase`] (in the order of the observation's one-hot):
//!
//! | phase         | who decides                          | legal actions                                   | rules |
//! |---------------|--------------------------------------|-------------------------------------------------|-------|
//! | `play`        | the player to act                    | matching cards, `draw`, `pass` (when allowed), `announce` | |
//! | `chain`       | the target of a draw penalty; in the mirror window, the player asked | answering, cancelling or shielding cards, `accept`; in the window `play Q`, `pass` or `accept` | `chain.*`, `mirror` |
//! | `nominate`    | the player of a suit changer         | `suit X` (and `end` when nomination is optional); a second suit after one_card's seven | `nominate`, `second_suit` |
//! | `continue`    | a player mid-turn                    | follow-on, run, pair or equal-rank cards, `end` when the turn may stop | `multi.*`, `follow` |
//! | `after_draw`  | a player who just drew               | the cards the draw rule allows, `pass`, `draw`  | `draw.*` |
//! | `give`        | the player of a give card            | `give X`, once per recipient                    | `give` |
//! | `target`      | the player of a swap card            | `target +k`, `end`                              | `swap_hand` |
//! | `ask`         | the player of an ask card            | `ask R`                                         | `ask_rank` |
//! | `keep`        | a player holding more than five      | `keep X`, five times                            | `stock.exhausted = keep_five` |
//! | `challenge`   | the player after a bluffable joker   | `challenge`, `no_challenge`                     | `options.joker_bluff` |
//! | `second_suit` | nobody: a reserved slot of the layout | none                                           | |
//! | `game_over`   | nobody                               | none                                            | |
//!
//! With `options.joker_bluff` (kings_reverse), a joker that may normally be played only when no
//! other card is playable may be played at any time; whether it was legal is recorded
//! ([`Bluff`]) and the next player decides in the `challenge` phase. Without a challenge they
//! take the joker's penalty as usual. A challenged illegal joker goes back to its player's hand
//! (the previous top card, nomination and constraints are restored), that player draws the
//! penalty and misses their next turn, and the challenger plays; a challenged legal joker makes
//! the challenger draw the penalty plus two and lose the turn. A joker played as the last card
//! is always legal and is never challenged.
//!
//! Decisions outside the normal turn order are an [`Interlude`]: larby_switch's mirror window
//! after a three (each other player holding a queen of its suit is asked in turn order, in the
//! `chain` phase: `play Q` mirrors, `pass` declines; the player then made to pick up for
//! everyone may mirror back with any queen or `accept`), and the `keep` choices of the
//! five-card rule at the start of a turn. When an interlude closes, the turn it interrupted
//! (or the turn that follows the three) starts.
//!
//! Besides the draw chain, the state holds the one-turn constraint a card puts on the next
//! player ([`Restrict`]), the countdown scores (a player's wild rank), stalin's rogue pile,
//! and the players out of the hand after a final pass.
//!
//! # Where things live
//!
//! | file           | owns |
//! |----------------|------|
//! | `table.rs`     | [`Game`] itself: its fields, construction, reset, new rules; [`SeenCards`] |
//! | `state.rs`     | the state types: [`Phase`], [`GameError`], [`Turn`], [`Chain`], [`Bluff`], [`Interlude`], [`Restrict`], [`FollowState`] |
//! | `bits.rs`      | face bitsets of hands, suits, ranks and court cards |
//! | `query.rs`     | read-only getters, the card count, the text rendering |
//! | `seats.rs`     | moving round the table, players out of the hand, the finishing order |
//! | `matching.rs`  | what may be played on what; what answers, shields or mirrors a chain |
//! | `follow.rs`    | follow-on plays within a turn (runs, pairs, marriages, equal ranks) |
//! | `legal.rs`     | [`Game::legal_actions`]: a `match` on the phase, one function per phase |
//! | `play.rs`      | [`Game::step`], [`Game::apply`] and placing a card |
//! | `effects.rs`   | the effects of a placed card, continuation, nomination, give and ask |
//! | `resolve.rs`   | resolving a completed play, as a few named steps; placing a card on the pile with its run of one rank |
//! | `run.rs`       | [`RankRun`], the run of one rank on the discard pile (`end.four_of_a_kind`) |
//! | `turn.rs`      | turns without a play: start of a turn, draw, accept, pass |
//! | `stock.rs`     | drawing, refilling the stock, "every other player draws k", the last-card penalty |
//! | `challenge.rs` | the joker challenge |
//! | `interlude.rs` | the mirror window and the five-card rule |
//! | `hand.rs`      | dealing, hand values, the end of a hand, the match winner, returns |
//! | `knowledge.rs` | what players know, kept up to date: the seen cards, declined suits and [`Voids`] |
//! | `determinize.rs` | [`KnownCards`], determinization |
//! | `saved.rs`     | the types [`Position`] and [`Snapshot`] |
//! | `snapshot.rs`  | building a game from a [`Position`] or a [`Snapshot`], taking a snapshot, and their checks (one deck-count check) |
//! | `checks.rs`    | the field checks of a loaded snapshot |
//! | `testing.rs`   | helpers of the engine's own tests |
//!
//! This file defines nothing: it declares the files, re-exports their public names and
//! imports the names that the other engine files share by a glob import of this module.
//! The files it re-exports from (`table`, `state`, `bits`, `knowledge`, `determinize`,
//! `run`, `saved`) and `testing` import what they use from the file that defines it (`Game` from
//! `table`), never through this module, so that no import circle runs through it.
//!
//! # Adding a mechanic
//!
//! 1. Rules: add the field to the specification (`rules/spec/`, the file of its table), then compile it once:
//!    a per-card effect into [`crate::rules::CardRule`], a table-wide one into
//!    [`crate::rules::settings::Settings`] (a plain value: enum, flag, number or face mask;
//!    a bad value is a `RulesError` at load time, never a silent no-op during play).
//! 2. Engine: put the mechanic in ONE file of `game/` (a new one if it owns state or a phase
//!    of its own), as an `impl Game` block with `pub(super)` functions. Hook it in where it
//!    acts: a placed card's effect in `effects.rs` (collected into [`Turn`]) and its
//!    consequence as a step of `resolve.rs`; a new decision as a [`Phase`] with its arm in
//!    `legal.rs` and in `play.rs`'s `apply`. Read only `self.rules.card` and
//!    `self.rules.settings`, never `self.rules.spec`.
//! 3. State that must survive a snapshot goes into [`Turn`] or [`Game`] and [`Snapshot`] (`saved.rs`, with
//!    `#[serde(default)]` so older snapshots still load), checked in `snapshot.rs`. A new phase
//!    changes the observation layout: use the reserved `second_suit` slot or widen it on purpose.
//! 4. Tests: a scenario test for the mechanic, and the golden self-play file must not change
//!    for presets that do not use it.

mod bits;
mod challenge;
pub mod checks;
mod determinize;
mod effects;
mod follow;
mod hand;
mod interlude;
mod knowledge;
mod legal;
mod matching;
mod play;
mod query;
mod resolve;
mod run;
mod saved;
mod seats;
mod snapshot;
mod state;
mod stock;
mod table;
#[cfg(test)]
mod testing;
mod turn;

use bits::*;
pub use determinize::KnownCards;
pub use knowledge::Voids;
pub use run::RankRun;
pub use saved::{Position, Snapshot};
pub use state::*;
pub use table::{Game, SeenCards};
#[cfg(test)]
pub(crate) use testing::{random_pick, random_step, test_tables};

// The names the engine files (challenge, effects, ..., turn) share by their glob import.
use crate::action::{self, Action, ActionMask, NUM_ACTIONS};
use crate::card::{Card, NUM_FACES, Rank, Suit};
use crate::card_set::{CardCounts, Pile, shuffle};
use crate::rules::{
    Accumulate, BlockedScoring, DrawAfter, DrawMode, Exhausted, Follow, LastCardMode, LastCardTiming, LastSpecial,
    MAX_PLAYERS, MultiEffects, MultiMode, Nominate, Repeat, Rules, ScoreMode, SeriesWinner, StartEffect,
    TwoPlayerReverse, WildFollow, WildRule,
};
use rand::RngExt;
#[cfg(test)]
use rand::SeedableRng;
#[cfg(test)]
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::Arc;

pub use crate::seed::derive_seed;
