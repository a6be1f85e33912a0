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
//! | `state.rs`     | the state types: [`Phase`], [`GameError`], [`Turn`], [`Chain`], [`Bluff`], [`Interlude`], [`Restrict`], [`FollowState`] |
//! | `bits.rs`      | face bitsets of hands, suits, ranks and court cards |
//! | `query.rs`     | read-only getters, the card count, the text rendering |
//! | `seats.rs`     | moving round the table, players out of the hand, the finishing order |
//! | `matching.rs`  | what may be played on what; what answers, shields or mirrors a chain |
//! | `follow.rs`    | follow-on plays within a turn (runs, pairs, marriages, equal ranks) |
//! | `legal.rs`     | [`Game::legal_actions`]: a `match` on the phase, one function per phase |
//! | `play.rs`      | [`Game::step`], [`Game::apply`] and placing a card |
//! | `effects.rs`   | the effects of a placed card, continuation, nomination, give and ask |
//! | `resolve.rs`   | resolving a completed play, as a few named steps |
//! | `turn.rs`      | turns without a play: start of a turn, draw, accept, pass |
//! | `stock.rs`     | drawing, refilling the stock, "every other player draws k", the last-card penalty |
//! | `challenge.rs` | the joker challenge |
//! | `interlude.rs` | the mirror window and the five-card rule |
//! | `hand.rs`      | dealing, hand values, the end of a hand, the match winner, returns |
//! | `knowledge.rs` | [`SeenCards`], [`KnownCards`], determinization |
//! | `snapshot.rs`  | [`Position`], [`Snapshot`] and their checks (one deck-count check) |
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
//! 3. State that must survive a snapshot goes into [`Turn`] or [`Game`] and [`Snapshot`] (with
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
mod seats;
mod snapshot;
mod state;
mod stock;
mod turn;

use bits::*;
pub use determinize::KnownCards;
use interlude::KeptCards;
pub use knowledge::{SeenCards, Voids};
pub use snapshot::{Position, Snapshot};
pub use state::*;

use crate::action::{self, Action, ActionMask, NUM_ACTIONS};
use crate::card::{Card, NUM_FACES, Rank, Suit};
use crate::card_set::{CardCounts, CountedPile, Pile, shuffle};
use crate::rules::{
    Accumulate, BlockedScoring, ChainAnswer, DrawAfter, DrawMode, Exhausted, Follow, LastCardMode, LastCardTiming,
    LastSpecial, MAX_PLAYERS, MultiEffects, MultiMode, Nominate, Repeat, Rules, RulesSpec, ScoreMode, SeriesWinner,
    StartEffect, TwoPlayerReverse, WildFollow, WildRule,
};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One table of a Crazy Eights-family game. See the module documentation.
///
/// The fields are laid out in a fixed order (`repr(C)`) so that what one decision reads and
/// writes sits in few cache lines, and the whole game in 28 lines (1,792 bytes; a batch holds
/// thousands): first, in four lines, the turn, the phase and the other scalars every step
/// touches, then the per-seat scores and record of declined plays, placed so that a table of
/// two players reads only the first three lines (the scores and the first two records end
/// the third); then the hands, one line each (a table of `n` players uses the first `n`); the
/// discard pile (counts, length and bottom cards) and the stock; last the state only some
/// rules or only a new hand use. [`Game::hot_ranges`] names the ranges a decision reads, so a
/// batch can fetch a game's lines before stepping it. Moving a field changes speed, never
/// behaviour.
#[derive(Clone)]
#[repr(C)]
pub struct Game {
    rules: Arc<Rules>,
    turn: Turn,
    chain: Chain,
    /// Cards played in this hand (`end.max_plays`).
    plays: u32,
    decisions: u32,
    restrict: Restrict,
    n: u8,
    current: u8,
    phase: Phase,
    direction: i8,
    nominated: Option<Suit>,
    free_play: bool,
    terminal: bool,
    truncated: bool,
    /// The rank that is wild this hand under `options.wild_instapik` (it takes over the
    /// eights' wild rule); `None` in every other rule set.
    wild_rank: Option<Rank>,
    pass_streak: u8,
    /// Players out of the hand after a final pass (`pass.all_pass = pass_is_final`).
    done: u16,
    /// Seats that miss their next turn (a challenged illegal joker), one bit per seat.
    missed: u16,
    /// The interlude in progress, if any (a mirror window, a keep phase): read at every draw.
    interlude: Interlude,
    /// Per seat, suit bits (bit `s` for suit index `s`): the suit in force when the hand that
    /// seat holds drew or passed instead of playing this hand, and not played from it since
    /// ([`Game::declined_suits`]; the observation's `declined`).
    declined: [u8; MAX_PLAYERS],
    /// Whether declined plays are recorded in `voids`: off in a determinized copy (a search's
    /// world), which nobody determinizes again, so its playouts skip the bookkeeping.
    record_voids: bool,
    /// Read at every step by the observation.
    scores: [i32; MAX_PLAYERS],
    /// What the public record rules out of each hand ([`Game::voids`]): per seat, the faces
    /// it held none of when it declined to play, and how many of them it may hold now (the
    /// unseen cards it took since, less those faces it played), in one word (the faces in the
    /// low bits, the room in the top byte: `knowledge::pack_void`). Read or written at every
    /// draw and play, so it sits with the scalars, in the first hot range.
    voids: [u64; MAX_PLAYERS],
    hands: [CardCounts; MAX_PLAYERS],
    /// The discard pile, with its copies per face (the observation's `played`).
    discard: CountedPile,
    stock: Pile,
    /// stalin's rogue pile (red cards only), bottom to top.
    rogue: Pile,
    /// Cards chosen so far by the player in the `keep` phase (a subset of their hand).
    kept: KeptCards,
    dealer: u8,
    went_out: Option<u8>,
    /// Seats in the order they went out this hand (`places[..placed]`): the winner, and under
    /// `end.play_for_second` the second and third places.
    places: [u8; MAX_PLAYERS],
    placed: u8,
    /// The loser of the previous hand of a match (`order.first = previous_loser`).
    loser: Option<u8>,
    hand_winner: Option<u8>,
    winner: Option<u8>,
    hat: Option<u8>,
    /// The joker awaiting a challenge decision (phase `challenge`).
    challenge: Option<Bluff>,
    hands_played: u32,
    hand_points: [i32; MAX_PLAYERS],
    seed: u64,
    rng: Xoshiro256PlusPlus,
    /// Cards each player has seen go into another hand, in presets where cards move openly
    /// between players (give, pass or swap hands, pick up the pile); `None` in the others.
    /// Touched only under rules that move cards openly ([`Game::forget_card`] asks the rules
    /// first), so it sits with the cold state.
    seen: Option<Box<SeenCards>>,
}

impl Game {
    /// The byte ranges `(offset, len)` of a `Game` of `n` players that one decision usually
    /// reads or writes: the scalars with the scores and the first `n` records of declined
    /// plays, the first `n` hands, the discard pile's counts and bottom cards, and the stock's
    /// length and bottom cards.
    pub fn hot_ranges(n: usize) -> [(usize, usize); 4] {
        use std::mem::{offset_of, size_of};
        let n = n.min(MAX_PLAYERS);
        [
            (0, offset_of!(Game, voids) + n * size_of::<u64>()),
            (offset_of!(Game, hands), n * size_of::<CardCounts>()),
            (offset_of!(Game, discard), 128),
            (offset_of!(Game, stock), 64),
        ]
    }
}

impl Game {
    /// A new game with the first hand dealt from `seed`.
    pub fn new(rules: Arc<Rules>, seed: u64) -> Game {
        let mut g = Game::blank(rules, seed);
        g.deal_hand(&[]);
        g
    }

    pub(super) fn blank(rules: Arc<Rules>, seed: u64) -> Game {
        let n = rules.num_players;
        let mut scores = [0; MAX_PLAYERS];
        if rules.settings.countdown {
            scores[..n as usize].fill(rules.settings.countdown_start as i32);
        }
        Game {
            rules,
            n,
            hands: [CardCounts::new(); MAX_PLAYERS],
            stock: Pile::new(),
            discard: CountedPile::new(),
            rogue: Pile::new(),
            nominated: None,
            direction: 1,
            current: 0,
            dealer: n - 1,
            phase: Phase::Play,
            chain: Chain::default(),
            free_play: false,
            restrict: Restrict::None,
            turn: Turn::default(),
            pass_streak: 0,
            plays: 0,
            done: 0,
            interlude: Interlude::default(),
            kept: KeptCards::default(),
            challenge: None,
            missed: 0,
            declined: [0; MAX_PLAYERS],
            went_out: None,
            places: [0; MAX_PLAYERS],
            placed: 0,
            loser: None,
            scores,
            hand_points: [0; MAX_PLAYERS],
            voids: [0; MAX_PLAYERS],
            record_voids: true,
            hand_winner: None,
            winner: None,
            terminal: false,
            truncated: false,
            decisions: 0,
            hands_played: 0,
            hat: None,
            wild_rank: None,
            seed,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            seen: None,
        }
    }

    /// Start a new episode from `seed`. `deck` fixes the first cards of the shuffled pack:
    /// dealt one at a time from the dealer's left (seat 0) round the table, then the start
    /// card, then the stock in order (first listed = next drawn); the rest of the pack follows
    /// in seeded random order. On error nothing changes.
    pub fn reset(&mut self, seed: u64, deck: &[Card]) -> Result<(), GameError> {
        self.check_deck(deck)?;
        self.restart(seed);
        self.deal_hand(deck);
        Ok(())
    }

    /// Play the following episodes (from the next [`Game::reset`]) under `rules`, which must
    /// have this game's player count. The storage of what players have seen is kept: a rule
    /// set without open card moves parks it in `spare`, one with them takes it back, so that
    /// a batch of mixed rules allocates nothing once every game has held one. Until the next
    /// reset, the game in progress must not be played on.
    pub fn set_rules(&mut self, rules: Arc<Rules>, spare: &mut Option<Box<SeenCards>>) -> Result<(), GameError> {
        if rules.num_players != self.n {
            return Err(GameError::InvalidState(format!(
                "rules for {} players given to a game of {}",
                rules.num_players, self.n
            )));
        }
        if Game::tracks_seen(&rules) {
            if self.seen.is_none() {
                self.seen = spare.take();
            }
        } else if self.seen.is_some() {
            *spare = self.seen.take();
        }
        self.rules = rules;
        Ok(())
    }

    /// Put every field back as [`Game::blank`] leaves it, in place: the piles are emptied
    /// without clearing their storage, the rules and the seen-card box are kept. (The
    /// destructuring lists every field, so a new one cannot be forgotten here.)
    fn restart(&mut self, seed: u64) {
        let Game {
            rules,
            n,
            hands,
            stock,
            discard,
            rogue,
            nominated,
            direction,
            current,
            dealer,
            phase,
            chain,
            free_play,
            restrict,
            turn,
            pass_streak,
            plays,
            done,
            interlude,
            kept,
            challenge,
            missed,
            declined,
            went_out,
            places,
            placed,
            loser,
            scores,
            hand_points,
            voids,
            record_voids,
            hand_winner,
            winner,
            terminal,
            truncated,
            decisions,
            hands_played,
            hat,
            wild_rank,
            seed: game_seed,
            rng,
            seen: _,
        } = self;
        *n = rules.num_players;
        for h in hands.iter_mut() {
            h.clear();
        }
        stock.clear();
        discard.clear();
        rogue.clear();
        *nominated = None;
        *direction = 1;
        *current = 0;
        *dealer = *n - 1;
        *phase = Phase::Play;
        *chain = Chain::default();
        *free_play = false;
        *restrict = Restrict::None;
        *turn = Turn::default();
        *pass_streak = 0;
        *plays = 0;
        *done = 0;
        *interlude = Interlude::default();
        kept.clear();
        *challenge = None;
        *missed = 0;
        *declined = [0; MAX_PLAYERS];
        *went_out = None;
        *places = [0; MAX_PLAYERS];
        *placed = 0;
        *loser = None;
        *scores = [0; MAX_PLAYERS];
        if rules.settings.countdown {
            scores[..*n as usize].fill(rules.settings.countdown_start as i32);
        }
        *hand_points = [0; MAX_PLAYERS];
        *voids = [0; MAX_PLAYERS];
        *record_voids = true;
        *hand_winner = None;
        *winner = None;
        *terminal = false;
        *truncated = false;
        *decisions = 0;
        *hands_played = 0;
        *hat = None;
        *wild_rank = None;
        *game_seed = seed;
        *rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    }
}

pub use crate::seed::derive_seed;

#[allow(dead_code)]
const _: () = assert!(NUM_FACES == 54);

/// A uniform member of `m` (`None` when empty), for the engine's own random-play tests
/// (the bots live one layer up).
#[cfg(test)]
pub(crate) fn random_pick(rng: &mut Xoshiro256PlusPlus, m: &ActionMask) -> Option<usize> {
    if m.is_empty() { None } else { m.nth(rng.random_range(0..m.len())) }
}

/// The tables the engine's random-game tests walk: every preset at its smallest (at least 2)
/// and largest player count, with its rules.
#[cfg(test)]
pub(crate) fn test_tables() -> Vec<(&'static str, usize, Arc<Rules>)> {
    let mut out = Vec::new();
    for preset in crate::rules::preset_names() {
        let spec = crate::rules::load_spec(preset, None).unwrap();
        for n in [spec.players.min.max(2) as usize, spec.players.max as usize] {
            out.push((preset, n, Arc::new(Rules::load(preset, n, None).unwrap())));
        }
    }
    out
}

/// Cards from text, e.g. `"9H 2C RJ"` (tests).
#[cfg(test)]
pub(crate) fn cards(s: &str) -> Vec<Card> {
    s.split_whitespace().map(|x| x.parse().unwrap()).collect()
}

/// The faces of `cards(s)` as a bitset (tests).
#[cfg(test)]
pub(crate) fn faces(s: &str) -> u64 {
    cards(s).iter().fold(0, |m, &c| m | bits::bit(c))
}

/// One step of a random-game test: a uniform legal action, or, at the end of a game, a new
/// deal from `derive_seed(seed, episode)` with `episode` counted up.
#[cfg(test)]
pub(crate) fn random_step(
    g: &mut Game,
    rng: &mut Xoshiro256PlusPlus,
    mask: &mut ActionMask,
    seed: u64,
    episode: &mut u64,
) {
    g.legal_actions(mask);
    match random_pick(rng, mask) {
        Some(a) => g.apply(a),
        None => {
            *episode += 1;
            g.reset(derive_seed(seed, *episode), &[]).unwrap();
        }
    }
}

#[cfg(test)]
mod layout_tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    #[test]
    fn hot_ranges_cover_the_scalars_the_hands_in_use_and_the_pile_heads() {
        for n in [2, 4, MAX_PLAYERS] {
            let r = Game::hot_ranges(n);
            for (at, len) in r {
                assert!(at + len <= size_of::<Game>(), "{at}+{len} past the game");
            }
            let (at, len) = r[0];
            assert_eq!(at, 0);
            // The scalars, the scores and the record of declined plays (read or written at
            // every draw and play) of the seats in use.
            for f in [
                offset_of!(Game, turn),
                offset_of!(Game, phase),
                offset_of!(Game, interlude),
                offset_of!(Game, declined),
                offset_of!(Game, record_voids),
            ] {
                assert!(f < len);
            }
            assert!(offset_of!(Game, scores) + size_of::<[i32; MAX_PLAYERS]>() <= len);
            assert_eq!(len, offset_of!(Game, voids) + n * size_of::<u64>());
            assert_eq!(r[1], (offset_of!(Game, hands), n * size_of::<CardCounts>()));
            assert_eq!(r[2].0, offset_of!(Game, discard));
            assert_eq!(r[3].0, offset_of!(Game, stock));
        }
        // One cache line per hand, each starting a line.
        assert_eq!(size_of::<CardCounts>(), 64);
        assert_eq!(offset_of!(Game, hands) % 64, 0);
    }

    /// A batch holds thousands of games: a game is 28 cache lines (as at 41b16da, before the
    /// record of declined plays), and a two-player table reads the first three lines of the
    /// scalars and no more (the first hot range ends in the third line).
    #[test]
    fn a_game_is_28_lines_and_two_players_read_three_lines_of_scalars() {
        assert_eq!(size_of::<Game>(), 28 * 64);
        assert!(Game::hot_ranges(2)[0].1 <= 3 * 64);
        assert_eq!(offset_of!(Game, hands), 4 * 64);
    }
}

#[cfg(test)]
mod reset_tests {
    use super::*;

    /// A game reset in place after random play is the game a fresh `Game::new` deals from
    /// the same seed: the whole snapshot and what every seat has seen.
    #[test]
    fn reset_in_place_equals_a_new_game() {
        for (preset, n, rules) in test_tables() {
            let mut g = Game::new(rules.clone(), derive_seed(21, 0));
            let mut bot = Xoshiro256PlusPlus::seed_from_u64(n as u64);
            let mut mask = ActionMask::default();
            for k in 1..6u64 {
                for _ in 0..(37 * k) {
                    g.legal_actions(&mut mask);
                    match random_pick(&mut bot, &mask) {
                        Some(a) => g.apply(a),
                        None => break,
                    }
                }
                let seed = derive_seed(21, k);
                g.reset(seed, &[]).unwrap();
                let fresh = Game::new(rules.clone(), seed);
                assert_eq!(format!("{:?}", g.snapshot()), format!("{:?}", fresh.snapshot()), "{preset} {n}p");
                for o in 0..n {
                    assert_eq!(g.seen_cards(o), fresh.seen_cards(o), "{preset} {n}p");
                }
            }
        }
    }
}
