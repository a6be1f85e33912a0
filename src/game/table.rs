//! The [`Game`] itself: its fields in their cache-friendly order, construction, reset in
//! place and new rules between episodes; and [`SeenCards`], the record of cards seen going
//! into other hands that a game keeps where cards move openly.

use super::run::RankRun;
use super::state::KeptCards;
use super::state::{Bluff, Chain, GameError, Interlude, Phase, Restrict, Turn};
use crate::card::{Card, NUM_FACES, Rank, Suit};
use crate::card_set::{CardCounts, CountedPile, Pile};
use crate::rules::{MAX_PLAYERS, Rules};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
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
    pub(super) rules: Arc<Rules>,
    pub(super) turn: Turn,
    pub(super) chain: Chain,
    /// Cards played in this hand (`end.max_plays`).
    pub(super) plays: u32,
    pub(super) decisions: u32,
    pub(super) restrict: Restrict,
    pub(super) n: u8,
    pub(super) current: u8,
    pub(super) phase: Phase,
    pub(super) direction: i8,
    pub(super) nominated: Option<Suit>,
    pub(super) free_play: bool,
    pub(super) terminal: bool,
    pub(super) truncated: bool,
    /// The rank that is wild this hand under `options.wild_instapik` (it takes over the
    /// eights' wild rule); `None` in every other rule set.
    pub(super) wild_rank: Option<Rank>,
    pub(super) pass_streak: u8,
    /// The cards of the top card's rank placed on the pile one after another, the top card
    /// last (`end.four_of_a_kind`; kept through a reshuffle).
    pub(super) rank_run: RankRun,
    /// Players out of the hand after a final pass (`pass.all_pass = pass_is_final`).
    pub(super) done: u16,
    /// Seats that miss their next turn (a challenged illegal joker), one bit per seat.
    pub(super) missed: u16,
    /// The interlude in progress, if any (a mirror window, a keep phase): read at every draw.
    pub(super) interlude: Interlude,
    /// Per seat, suit bits (bit `s` for suit index `s`): the suit in force when the hand that
    /// seat holds drew or passed instead of playing this hand, and not played from it since
    /// ([`Game::declined_suits`]; the observation's `declined`).
    pub(super) declined: [u8; MAX_PLAYERS],
    /// Whether declined plays are recorded in `voids`: off in a determinized copy (a search's
    /// world), which nobody determinizes again, so its playouts skip the bookkeeping.
    pub(super) record_voids: bool,
    /// Read at every step by the observation.
    pub(super) scores: [i32; MAX_PLAYERS],
    /// What the public record rules out of each hand ([`Game::voids`]): per seat, the faces
    /// it held none of when it declined to play, and how many of them it may hold now (the
    /// unseen cards it took since, less those faces it played), in one word (the faces in the
    /// low bits, the room in the top byte: `knowledge::pack_void`). Read or written at every
    /// draw and play, so it sits with the scalars, in the first hot range.
    pub(super) voids: [u64; MAX_PLAYERS],
    pub(super) hands: [CardCounts; MAX_PLAYERS],
    /// The discard pile, with its copies per face (the observation's `played`).
    pub(super) discard: CountedPile,
    pub(super) stock: Pile,
    /// stalin's rogue pile (red cards only), bottom to top.
    pub(super) rogue: Pile,
    /// Cards chosen so far by the player in the `keep` phase (a subset of their hand).
    pub(super) kept: KeptCards,
    pub(super) dealer: u8,
    pub(super) went_out: Option<u8>,
    /// Seats in the order they went out this hand (`places[..placed]`): the winner, and under
    /// `end.play_for_second` the second and third places.
    pub(super) places: [u8; MAX_PLAYERS],
    pub(super) placed: u8,
    /// The loser of the previous hand of a match (`order.first = previous_loser`).
    pub(super) loser: Option<u8>,
    pub(super) hand_winner: Option<u8>,
    pub(super) winner: Option<u8>,
    pub(super) hat: Option<u8>,
    /// The joker awaiting a challenge decision (phase `challenge`).
    pub(super) challenge: Option<Bluff>,
    pub(super) hands_played: u32,
    pub(super) hand_points: [i32; MAX_PLAYERS],
    pub(super) seed: u64,
    pub(super) rng: Xoshiro256PlusPlus,
    /// Cards each player has seen go into another hand, in presets where cards move openly
    /// between players (give, pass or swap hands, pick up the pile); `None` in the others.
    /// Touched only under rules that move cards openly ([`Game::forget_card`] asks the rules
    /// first), so it sits with the cold state.
    pub(super) seen: Option<Box<SeenCards>>,
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
            rank_run: RankRun::default(),
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
            rank_run,
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
        *rank_run = RankRun::default();
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

/// `bits[o][q]`: the faces observer `o` knows seat `q` holds (at least one copy each). A bit
/// is set when `o` sees the card go into `q`'s hand (a card `o` gave to `q`, a hand `o` passed
/// or swapped to `q`, cards `q` picked up from the discard pile), moves with `q`'s hand when
/// hands are passed or swapped, and is cleared for every observer when `q` plays or gives a
/// copy of that face (which copy left is not known). So a set bit is always true of the real
/// hands; [`Game::determinize`] keeps those cards in place. Only faces are tracked: with
/// several packs a player knows at least one copy is there. A game restored from a snapshot
/// or a position starts with nothing seen (less information, never wrong).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeenCards {
    pub bits: [[u64; MAX_PLAYERS]; MAX_PLAYERS],
}

#[allow(dead_code)]
const _: () = assert!(NUM_FACES == 54);

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
