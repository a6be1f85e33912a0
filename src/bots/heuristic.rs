//! A documented human strategy for every preset.
//!
//! [`HeuristicBot`] reads only the acting player's information: the legal actions, its own
//! hand, the top card and active suit, the pending chain, the rules' effect table and the
//! other players' hand sizes. It is deterministic (no random tie-breaks: ties go to the lower
//! action id), so it needs no seed; the one exception, the loop guard of rule 10, draws from
//! the game's own seed and decision count, so the same game still gets the same answers.
//!
//! Its rules, by decision phase:
//!
//! 1. **Go out** whenever a legal play empties the hand.
//! 2. **Announce** "last card" (when the rules have the action) before a play from a
//!    two-card hand.
//! 3. **Answer chains when possible** (`chain` phase): pass a pending penalty on with a draw
//!    card of the chain (the largest amount first), else cancel it with a cancel card, and
//!    only accept the penalty when the hand has no answer.
//! 4. **Never draw voluntarily with a good play in hand** (`play`, `after_draw`): every legal
//!    play is scored and the best is played. A "good" play is any play but a wild card (a
//!    card with a wild rule, and in the countdown presets the player's own wild rank, its
//!    score); the only voluntary draw is to **save a wild card** when a wild is the only
//!    play and the only wild held (with two or more, playing one still keeps one), the hand
//!    holds at least [`SAVE_WILD_MIN_HAND`] cards, the next player is not low on cards, and a
//!    draw is possible.
//! 5. The score of a play prefers, in this order of weight:
//!    * **keep wild and answer cards for when they are needed**: wild cards score
//!      -[`WILD_KEEP`] and cards that answer or cancel a draw chain -[`ANSWER_KEEP`] (none of
//!      this when the hand is down to two cards);
//!    * **attack with draw cards when the next player is low on cards** (at most
//!      [`LOW_HAND`] cards): draw cards score +[`ATTACK`], skips +[`ATTACK`]/2 (with two
//!      players a skip is an extra turn and always scores +[`EXTRA_TURN`]);
//!    * **win the race of hand sizes** (what a card does, read from its rules):
//!      +[`PER_CARD`] for each card a rival must take, up to what the stock and the pile
//!      could produce (a draw from the waste pile; the pile picked up; one card for an
//!      identical card, which every other player pays: the race is against each rival, not
//!      against their sum), +[`PER_CARD`] per card the player's hand is larger than the one
//!      it receives when every hand moves a seat, and +[`EXTRA_TURN`] for another turn at
//!      once (an identical card; with two players, a card that makes the other lose its
//!      turn). A card that makes every other player draw, and a penalty nobody can pass on,
//!      earn no more than any card: sought after, they kept heuristic tables from finishing
//!      on drawn house rules and gained nothing measurable against random play;
//!    * **plan a run** where a turn is a sequence of cards whose order decides how many can
//!      follow (`multi.mode` a run, pairs or up to three; not `equal_rank`): +[`PER_CARD`]
//!      for each further card the turn can shed after this one (found by trying the
//!      continuations rule 7 would play, at most [`RUN_BUDGET`] of them);
//!    * **shed high-penalty cards first**: + the card's penalty points (its face value in
//!      presets without points);
//!    * keep control of the suit: +[`FOLLOW_SUIT`] per card left of the played card's suit
//!      and +[`FOLLOW_RANK`] per card left of its rank; a run card (Switch queen) adds
//!      [`FOLLOW_SUIT`] again per card of its suit, which it lets the player shed;
//!    * avoid handing the next player a free play: -[`FREE_PLAY`].
//! 6. **Nominate the suit held most** (`nominate`): count the non-wild cards of each suit
//!    (ties: more penalty points, then the suit order C, D, H, S); when nominating is
//!    optional, keep the current suit if it is already that suit.
//! 7. **Continue** a turn (`continue`: queen runs, equal ranks, follow-on cards) with the best
//!    scored continuation unless it is a card to keep (rule 5); otherwise end the turn.
//! 8. **Hand over, keep, swap and ask** by what a card is worth to the hand holding it: a
//!    wild most, then a card that answers, cancels, shields or mirrors a penalty, then any
//!    other special card, then a card of a suit held often. `give`: the card worth least,
//!    better one of a suit the receiver has declined (public: it drew or passed on that
//!    suit); `keep` (the five-card rule): the card worth most; `target` (swap hands): the
//!    seat with the fewest cards if it holds fewer, else keep the hand; `ask`: the rank (or
//!    card) of which the fewest copies are unseen, neither in the hand nor on the pile.
//! 9. Otherwise: draw if allowed, else pass, else accept.
//! 10. **Loop guard.** A deterministic player at every seat can go round in a circle: the
//!     same positions again and again, for ever when the rules set no decision limit (38's
//!     at four players with seed 25: queens and cards handed on, twelve decisions a lap; a
//!     stock turned over without a shuffle, which deals the same cards again in the same
//!     order). Once the hand in progress has seen more than [`LOOP_GUARD`] plays (more than
//!     twice the longest hand of the presets' heuristic games), or the game more than
//!     [`DECISION_LOOP_GUARD`] decisions (circles in which no card stays played: a
//!     challenged joker taken back, a draw kept under the five-card rule), one decision in
//!     [`LOOP_BREAK`] with a choice is a legal action drawn uniformly, after rule 1 (going
//!     out is never passed up). The draw is a hash of the game's seed and its decision count
//!     ([`derive_seed`]): the decision count grows every step, so a position that comes
//!     back gets another draw and the circle is broken, and a game replayed from its seed
//!     plays the same.

use super::policy::Policy;
use crate::action::{self, ActionMask};
use crate::card::{Card, Suit};
use crate::card_set::{CardCounts, Faces};
use crate::game::{Game, Phase, derive_seed};
use crate::rules::Side;

/// Smallest hand with which a lone playable wild is saved by drawing instead (rule 4).
pub const SAVE_WILD_MIN_HAND: usize = 4;
/// A player with at most this many cards is "low on cards".
pub const LOW_HAND: usize = 2;
/// Penalty for playing a wild card (rule 5).
pub const WILD_KEEP: f64 = 60.0;
/// Penalty for playing a draw or cancel card while it is not needed.
pub const ANSWER_KEEP: f64 = 20.0;
/// Bonus for a draw card or skip against a next player low on cards.
pub const ATTACK: f64 = 40.0;
/// Bonus for a skip that gives an extra turn (two players).
pub const EXTRA_TURN: f64 = 8.0;
/// Bonus per card left of the played card's suit.
pub const FOLLOW_SUIT: f64 = 4.0;
/// Bonus per card left of the played card's rank.
pub const FOLLOW_RANK: f64 = 2.0;
/// Worth of one card in the race of hand sizes: a card another player must take, one fewer
/// in the hand after hands move.
pub const PER_CARD: f64 = 8.0;
/// Penalty for giving the next player a free play.
pub const FREE_PLAY: f64 = 10.0;
/// Plays in one hand after which the loop guard acts (rule 10). The longest hands of the
/// presets' heuristic games have fewer than 900 (`bitch` at four players).
pub const LOOP_GUARD: u32 = 2000;
/// Decisions in a game after which the loop guard acts too (rule 10), whatever the plays:
/// twice the default decision cap (`limits.max_decisions`, 5000), so that only games whose
/// rules lift or raise the cap meet it. `plays` alone misses the circles in which no card
/// stays played: `kings_reverse` with `joker_bluff` at four players (a bluffed joker
/// challenged back into the hand, again and again) and `larby_switch` at two (a lone
/// playable wild saved by drawing, the card kept back under the five-card rule).
pub const DECISION_LOOP_GUARD: u32 = 10_000;
/// Once the loop guard acts, one decision in this many (by the hash of rule 10) is a legal
/// action drawn uniformly.
pub const LOOP_BREAK: u64 = 4;

/// The heuristic bot (see the module documentation for its rules).
#[derive(Clone, Debug, Default)]
pub struct HeuristicBot;

impl HeuristicBot {
    pub fn new() -> Self {
        HeuristicBot
    }

    /// The heuristic's choice among the legal actions `m` of the player to act.
    pub fn choose(&self, g: &Game, m: &ActionMask) -> Option<usize> {
        if m.is_empty() {
            return None;
        }
        let p = g.current_player()?;
        let hand = g.hand(p);
        let play_bits = m.play_bits();
        let mut buf = [Card(0); 54];
        let mut k = 0;
        for c in Faces::new(play_bits) {
            buf[k] = c;
            k += 1;
        }
        let plays = &buf[..k];
        // Rule 1: go out.
        if hand.len() == 1 && plays.len() == 1 {
            return Some(action::PLAY + plays[0].index());
        }
        // Rule 10: the loop guard (one comparison in every hand shorter than the guard).
        if (g.plays() > LOOP_GUARD || g.decisions() > DECISION_LOOP_GUARD)
            && let Some(a) = loop_break(g, m)
        {
            return Some(a);
        }
        match g.phase() {
            Phase::Chain => {
                let rules = g.rules();
                let best = plays.iter().max_by_key(|c| {
                    let r = &rules.card[c.index()];
                    (r.chain.map_or(0, |ch| 1 + ch.amount as i32), rules.points[c.index()])
                });
                match best {
                    Some(_) if m.contains(action::ANNOUNCE) && hand.len() == 2 => Some(action::ANNOUNCE),
                    Some(c) => Some(action::PLAY + c.index()),
                    None => Some(action::ACCEPT).filter(|&a| m.contains(a)).or_else(|| m.nth(0)),
                }
            }
            Phase::Nominate => {
                let best = HandStats::new(g, p, hand, true).best_suit;
                if m.contains(action::END_TURN) && g.active_suit() == Some(best) {
                    return Some(action::END_TURN);
                }
                let a = action::NOMINATE + best.index();
                Some(if m.contains(a) { a } else { m.nth(0)? })
            }
            Phase::Give if m.contains(action::ANNOUNCE) => Some(action::ANNOUNCE),
            Phase::Give => {
                let to = g.advance(p as u8, g.turn().gave as usize + 1) as usize;
                best_face(m, action::GIVE, |c| give_score(g, p, hand, to, c))
            }
            Phase::Keep => best_face(m, action::KEEP, |c| keep_value(g, p, hand, c)),
            Phase::Target => Some(swap_target(g, p, m)),
            Phase::Ask => ask_rank(g, p, m),
            Phase::Continue if plays.len() == 1 => {
                let c = plays[0];
                Some(if is_kept(g, p, hand, c) && m.contains(action::END_TURN) {
                    action::END_TURN
                } else {
                    action::PLAY + c.index()
                })
            }
            Phase::Continue => {
                let st = HandStats::new(g, p, hand, play_bits & g.wild_faces(p) != 0);
                let plan = plans_turns(g);
                let best = plays
                    .iter()
                    .map(|&c| (score(g, &st, p, hand, c) + if plan { run_bonus(g, p, c) } else { 0.0 }, c))
                    .filter(|(_, c)| !is_kept(g, p, hand, *c))
                    .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.index().cmp(&a.1.index())));
                match best {
                    Some((_, c)) => Some(action::PLAY + c.index()),
                    None => Some(action::END_TURN).filter(|&a| m.contains(a)).or_else(|| m.nth(0)),
                }
            }
            _ => {
                // A lone play needs no scoring.
                let best = if plays.len() == 1 {
                    Some((0.0, plays[0]))
                } else {
                    let st = HandStats::new(g, p, hand, play_bits & g.wild_faces(p) != 0);
                    let plan = plans_turns(g);
                    plays
                        .iter()
                        .map(|&c| (score(g, &st, p, hand, c) + if plan { run_bonus(g, p, c) } else { 0.0 }, c))
                        .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.index().cmp(&a.1.index())))
                };
                if let Some((_, c)) = best {
                    let wild = g.wild_faces(p);
                    let only_wilds = play_bits & !wild == 0;
                    let lone_wild = Faces::new(hand.bits() & wild).map(|x| hand.count(x)).sum::<u8>() == 1;
                    let next = g.advance(p as u8, 1) as usize;
                    let save = only_wilds
                        && lone_wild
                        && hand.len() >= SAVE_WILD_MIN_HAND
                        && g.hand(next).len() > LOW_HAND
                        && m.contains(action::DRAW);
                    if save {
                        return Some(action::DRAW);
                    }
                    if m.contains(action::ANNOUNCE) && hand.len() == 2 {
                        return Some(action::ANNOUNCE);
                    }
                    return Some(action::PLAY + c.index());
                }
                [action::DRAW, action::PASS, action::ACCEPT, action::END_TURN]
                    .into_iter()
                    .find(|&a| m.contains(a))
                    .or_else(|| m.nth(0))
            }
        }
    }
}

impl Policy for HeuristicBot {
    fn act(&mut self, g: &Game) -> Option<usize> {
        let mut m = ActionMask::default();
        g.legal_actions(&mut m);
        self.choose(g, &m)
    }
    fn name(&self) -> String {
        "heuristic".into()
    }
}

/// What the scoring needs about the acting player's hand, worked out once per decision so
/// that scoring a card costs O(1): the faces wild for it, copies of non-wild cards per suit,
/// whether the next player is low on cards, and (when asked for) the suit held most.
struct HandStats {
    has_points: bool,
    /// The faces wild for the player ([`Game::wild_faces`]).
    wild: u64,
    /// Whether the next player is low on cards ([`LOW_HAND`]).
    next_low: bool,
    suit_count: [u32; 4],
    /// Copies per rank, wild or not.
    rank_count: [u8; 13],
    /// The suit with the most non-wild cards (ties: more points, then C, D, H, S); clubs
    /// when not asked for.
    best_suit: Suit,
}

impl HandStats {
    /// The stats of player `p` holding `hand`; `best_suit` only when `need_best_suit` (a
    /// nomination, or a wild among the plays scored).
    fn new(g: &Game, p: usize, hand: &CardCounts, need_best_suit: bool) -> HandStats {
        let wild = g.wild_faces(p);
        let next = g.advance(p as u8, 1) as usize;
        let plain = hand.bits() & !wild;
        let mut st = HandStats {
            has_points: g.rules().has_points,
            wild,
            next_low: g.hand(next).len() <= LOW_HAND,
            suit_count: [0; 4],
            rank_count: [0; 13],
            best_suit: Suit::Clubs,
        };
        // The suited faces (not the jokers).
        for c in Faces::new(hand.bits() & ((1 << 52) - 1)) {
            let (i, k) = (c.index(), hand.count(c));
            st.rank_count[i % 13] += k;
            if plain & (1 << i) != 0 {
                st.suit_count[i / 13] += u32::from(k);
            }
        }
        if need_best_suit {
            let top = st.suit_count.iter().copied().max().unwrap_or(0);
            let mut best = (Suit::Clubs, f64::NEG_INFINITY);
            for su in Suit::ALL.into_iter().filter(|su| st.suit_count[su.index()] == top) {
                // Points are whole numbers, so the sum is exact in any order.
                let pts = Faces::new(plain & su.bits()).map(|c| st.value(g, c) * f64::from(hand.count(c))).sum();
                if pts > best.1 {
                    best = (su, pts);
                }
            }
            st.best_suit = best.0;
        }
        st
    }

    /// Penalty points of `c`, or its face value in presets that score no points.
    fn value(&self, g: &Game, c: Card) -> f64 {
        let pts = g.rules().points[c.index()];
        if pts != 0 || self.has_points { pts as f64 } else { c.rank().map_or(0.0, |r| r.face_value() as f64) }
    }

    /// Whether `c` is wild for the player ([`is_wild`]).
    #[inline]
    fn is_wild(&self, c: Card) -> bool {
        self.wild & (1 << c.index()) != 0
    }

    /// Non-wild cards of `suit` in the hand, other than copies of `c`.
    fn same_suit(&self, hand: &CardCounts, c: Card, suit: Option<Suit>) -> f64 {
        suit.map_or(0.0, |su| {
            let mut k = self.suit_count[su.index()];
            if c.suit() == Some(su) && !self.is_wild(c) {
                k -= hand.count(c) as u32;
            }
            k as f64
        })
    }
}

/// Rule 10, once the hand has seen more than [`LOOP_GUARD`] plays or the game more than
/// [`DECISION_LOOP_GUARD`] decisions: one decision with a choice
/// in [`LOOP_BREAK`] (by the hash of the game's seed and decision count), a legal action drawn
/// uniformly by the same hash; `None` for the heuristic's own choice. Kept out of line, off
/// the path of every ordinary decision.
/// The `net` bot's loop guard draws the same way.
#[cold]
#[inline(never)]
pub(crate) fn loop_break(g: &Game, m: &ActionMask) -> Option<usize> {
    let h = derive_seed(g.seed(), u64::from(g.decisions()));
    if m.len() > 1 && h % LOOP_BREAK == 0 { m.nth(((h / LOOP_BREAK) % m.len() as u64) as usize) } else { None }
}

/// The legal action `base + c` (over the faces `c`) with the highest `value` (ties: the lower
/// id), or the first legal action when none of that kind is legal.
fn best_face(m: &ActionMask, base: usize, value: impl Fn(Card) -> f64) -> Option<usize> {
    m.iter()
        .filter(|&id| (base..base + 54).contains(&id))
        .map(|id| (value(Card((id - base) as u8)), id))
        .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)))
        .map(|(_, id)| id)
        .or_else(|| m.nth(0))
}

/// How much player `p` wants to hold `c` (rule 8): a wild most, then a card that answers,
/// cancels, shields or mirrors a penalty, then any other special card, and a card of a suit
/// the hand holds many of.
fn keep_value(g: &Game, p: usize, hand: &CardCounts, c: Card) -> f64 {
    let r = &g.rules().card[c.index()];
    let mut v = 0.0;
    if is_wild(g, p, c) {
        v += WILD_KEEP;
    } else if r.chain.is_some() || r.cancel != 0 || r.shield != 0 || r.mirror {
        v += ANSWER_KEEP;
    } else if r.is_special() {
        v += ANSWER_KEEP / 2.0;
    }
    if let Some(su) = c.suit() {
        let same = hand.faces().filter(|&x| x.suit() == Some(su)).map(|x| u32::from(hand.count(x))).sum::<u32>();
        v += FOLLOW_SUIT * f64::from(same.saturating_sub(1));
    }
    v
}

/// The score of handing `c` to seat `to` (rule 8): the card `p` least wants to keep, best one
/// of a suit `to` has declined (public: it drew or passed on that suit), which it is less
/// likely to be able to follow.
fn give_score(g: &Game, p: usize, hand: &CardCounts, to: usize, c: Card) -> f64 {
    let declined = c.suit().is_some_and(|su| g.declined_suits(to) & (1 << su.index()) != 0);
    -keep_value(g, p, hand, c) + if declined { FOLLOW_SUIT * 2.0 } else { 0.0 }
}

/// A swap card's target (rule 8): the seat with the fewest cards, if it holds fewer than
/// `p`; otherwise keep the hand (`end`) when allowed.
fn swap_target(g: &Game, p: usize, m: &ActionMask) -> usize {
    let n = g.num_players();
    // Only the seats the rules let it target (not a player who has left the hand).
    let best = (1..n).filter(|&k| m.contains(action::TARGET + k - 1)).map(|k| (g.hand((p + k) % n).len(), k)).min();
    match best {
        Some((len, k)) if len < g.hand(p).len() || !m.contains(action::END_TURN) => action::TARGET + k - 1,
        _ => action::END_TURN,
    }
}

/// An ask card's rank (rule 8): the rank (or queen of spades, or joker) of which the fewest
/// copies are unseen by `p` (neither in its hand nor in the discard pile), so the next player
/// is the least likely to hold it; ties go to the lower action id.
fn ask_rank(g: &Game, p: usize, m: &ActionMask) -> Option<usize> {
    let deck = &g.rules().deck;
    let (hand, pile) = (g.hand(p), g.discard_counts());
    let unseen = |c: Card| i32::from(deck.count(c)) - i32::from(hand.count(c)) - i32::from(pile.count(c));
    let mut per = [0i32; 15];
    for i in 0..54u8 {
        let c = Card(i);
        let k = match c.rank() {
            Some(r) => r.index(),
            None => 14,
        };
        per[k] += unseen(c);
    }
    per[13] = unseen(Card::new(Suit::Spades, crate::card::Rank::Queen));
    let id = |k: usize| match k {
        0..=12 => action::ASK + k,
        13 => action::ASK_QS,
        _ => action::ASK_JOKER,
    };
    (0..15).filter(|&k| m.contains(id(k))).min_by_key(|&k| (per[k], k)).map(id).or_else(|| m.nth(0))
}

/// Whether `c` is a wild card for player `p`: the rules' wild faces, and in the countdown
/// presets the player's own wild rank (its score).
#[inline]
fn is_wild(g: &Game, p: usize, c: Card) -> bool {
    g.own_wild(c, p) || g.card_wild(c).is_some()
}

/// A wild, draw or cancel card to keep rather than play now (rule 5).
fn is_kept(g: &Game, p: usize, hand: &CardCounts, c: Card) -> bool {
    let r = &g.rules().card[c.index()];
    hand.len() > 2 && (is_wild(g, p, c) || r.chain.is_some() || r.cancel != 0)
}

/// The score of playing `c` from `hand` by player `p` (rule 5).
fn score(g: &Game, st: &HandStats, p: usize, hand: &CardCounts, c: Card) -> f64 {
    let rules = g.rules();
    let r = &rules.card[c.index()];
    let n = g.num_players();
    let next_low = st.next_low;
    let mut s = st.value(g, c);
    let left_suit = st.same_suit(hand, c, c.suit());
    let left_rank = c.rank().map_or(0.0, |rk| (st.rank_count[rk.index()] - hand.count(c)) as f64);
    // The card's wild rule this hand (zodiac's Wild Instapik moves the eights' to another rank).
    let wild = st.is_wild(c);
    if !wild {
        s += FOLLOW_SUIT * left_suit + FOLLOW_RANK * left_rank;
    } else {
        // A wild names the best suit: its follow-up is the suit held most.
        s += FOLLOW_SUIT * st.same_suit(hand, c, Some(st.best_suit));
    }
    if r.follow.is_some() {
        s += FOLLOW_SUIT * left_suit;
    }
    let keep = hand.len() > 2;
    if wild && keep {
        s -= WILD_KEEP;
    }
    let pure = r.chain.is_none() && (r.draw_lose > 0 || r.draw_keep > 0) && !wild;
    if pure {
        // A penalty nobody can pass on: no answer card to keep; an attack on a low hand.
        if next_low {
            s += ATTACK;
        }
    } else if r.chain.is_some() || r.draw_lose > 0 || r.draw_keep > 0 {
        if next_low {
            s += ATTACK;
        } else if keep {
            s -= ANSWER_KEEP;
        }
    } else if r.cancel != 0 && keep {
        s -= ANSWER_KEEP;
    }
    if r.skip > 0 {
        if n == 2 {
            s += EXTRA_TURN;
        } else if next_low {
            s += ATTACK / 2.0;
        }
    }
    if r.free_play_next {
        s -= FREE_PLAY;
    }
    s + race_effects(g, p, hand, c)
}

/// Whether a turn may be a run of several cards whose order decides how many can follow
/// (`multi.mode` other than `off` and `equal_rank`, where any copy of the rank follows).
fn plans_turns(g: &Game) -> bool {
    use crate::rules::MultiMode;
    !matches!(g.rules().settings.multi_mode, MultiMode::Off | MultiMode::EqualRank)
}

/// Most decisions a run search may try per card scored.
pub const RUN_BUDGET: u32 = 64;

/// [`PER_CARD`] for each further card player `p` can shed in this turn after playing `c`,
/// found by trying the continuations (up to [`RUN_BUDGET`] positions).
fn run_bonus(g: &Game, p: usize, c: Card) -> f64 {
    let mut d = g.clone();
    d.apply(action::PLAY + c.index());
    let mut budget = RUN_BUDGET;
    PER_CARD * f64::from(run_length(&d, p, &mut budget))
}

/// The most cards player `p` can still place in its turn from `g`.
fn run_length(g: &Game, p: usize, budget: &mut u32) -> u32 {
    if g.current_player() != Some(p) || g.phase() != Phase::Continue || *budget == 0 {
        return 0;
    }
    let mut m = ActionMask::default();
    g.legal_actions(&mut m);
    let mut best = 0;
    for id in m.iter().take_while(|&id| id < action::PLAY + 54) {
        if *budget == 0 {
            break;
        }
        if is_kept(g, p, g.hand(p), Card((id - action::PLAY) as u8)) {
            // The continuation rule (7) would not play it.
            continue;
        }
        *budget -= 1;
        let mut d = g.clone();
        d.apply(id);
        best = best.max(1 + run_length(&d, p, budget));
    }
    best
}

/// How many cards a draw could produce now: the stock, and the pile under the top card where
/// the rules turn it over when the stock runs out (or, `waste`, for a draw from that pile).
/// With both spent, a penalty makes the others take no more than the card it covers, which
/// the next penalty hands round again: it is worth no more than that.
fn drawable(g: &Game, waste: bool) -> f64 {
    let pile = g.discard().len().saturating_sub(1);
    let refill = waste || g.rules().settings.exhausted != crate::rules::Exhausted::NoReshuffle;
    (g.stock().len() + if refill { pile } else { 0 }) as f64
}

/// The part of a play's score (rule 5) from effects that change the race of hand sizes:
/// cards the other players must take ([`PER_CARD`] each), hands passed round the table, and
/// another turn for the player ([`EXTRA_TURN`]).
fn race_effects(g: &Game, p: usize, hand: &CardCounts, c: Card) -> f64 {
    let r = &g.rules().card[c.index()];
    let identical = g.rules().settings.identical_bonus && g.top_card() == Some(c);
    if r.waste_draw == 0
        && r.pick_up_pile == 0
        && !r.next_picture
        && r.draw_lose == 0
        && r.pass_hands.is_none()
        && !identical
    {
        // A card with none of these effects (most cards): nothing to add.
        return 0.0;
    }
    let n = g.num_players();
    let mut taken = f64::from(r.waste_draw).min(drawable(g, true));
    if r.pick_up_pile > 0 {
        // The pile under the card, up to the card's limit.
        taken += g.discard().len().min(usize::from(r.pick_up_pile)) as f64;
    }
    if r.next_picture {
        // The next player plays a court card or draws one.
        taken += 0.5;
    }
    let mut again = n == 2 && r.draw_lose > 0;
    if identical {
        // An identical card: every other player draws one (one card behind for each rival)
        // and the player goes again.
        taken += drawable(g, false).min(1.0);
        again = true;
    }
    let mut s = PER_CARD * taken;
    if let Some(side) = r.pass_hands {
        // Every hand moves one seat: the player's own (less this card) leaves, another comes.
        let from = match side {
            Side::Right => (p + 1) % n,
            Side::Left => (p + n - 1) % n,
            Side::Direction => g.advance(p as u8, n - 1) as usize,
        };
        s += PER_CARD * (hand.len() as f64 - 1.0 - g.hand(from).len() as f64);
    }
    if again {
        s += EXTRA_TURN;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Action;
    use crate::game::Position;
    use crate::rules::Rules;
    use std::sync::Arc;

    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace().map(|x| x.parse().unwrap()).collect()
    }

    fn position(preset: &str, n: usize, hands: &[&str], discard: &str, scores: Option<Vec<i32>>) -> Game {
        let rules = Arc::new(Rules::load(preset, n, None).unwrap());
        let pos = Position {
            hands: hands.iter().map(|h| cards(h)).collect(),
            discard: cards(discard),
            current_player: 0,
            direction: 1,
            seed: 3,
            scores,
            ..Position::default()
        };
        Game::from_position(rules, &pos).unwrap()
    }

    fn choice(g: &Game) -> Action {
        Action::from_id(HeuristicBot::new().act(g).unwrap()).unwrap()
    }

    fn play(c: &str) -> Action {
        Action::Play(c.parse().unwrap())
    }

    /// In the countdown presets a player's wild rank is its score: at score 7 the sevens are
    /// its wilds, kept like eights in crazy_eights; at score 8 the same seven is a plain card.
    #[test]
    fn the_own_countdown_wild_is_kept_like_a_wild() {
        let hands = ["7S 4H KC QD 2C", "3C 4C 5C 6C"];
        let g = position("crazy_eights_countdown", 2, &hands, "9S", Some(vec![7, 8]));
        assert_eq!(choice(&g), Action::Draw, "the only play is its wild: it keeps it and draws");
        let g = position("crazy_eights_countdown", 2, &hands, "9S", Some(vec![8, 8]));
        assert_eq!(choice(&g), play("7S"), "at score 8 the seven is a plain spade");
    }

    /// One Left's king gives the opponent a card: never its wild ace while it holds a plain
    /// card, and preferably one of a suit the opponent has declined.
    #[test]
    fn a_give_hands_over_the_card_worth_least() {
        let mut g = position("one_left", 2, &["KH AC 9D 5C 6C", "4H 8S JS QS 2D"], "7H", None);
        g.step(play("KH").id()).unwrap();
        assert_eq!(g.phase(), Phase::Give);
        // 9D is alone in its suit, the clubs keep each other company: 9D goes.
        assert_eq!(choice(&g), Action::Give("9D".parse().unwrap()));
    }

    /// Advanced Switch fives pass every hand to the right (with two players: swap them). With
    /// the bigger hand the player passes it on; with the smaller it keeps it.
    #[test]
    fn hands_are_passed_on_when_they_are_the_bigger() {
        let big = ["5H 6H 9C TC JD 3D 4S", "8C 7D"];
        let g = position("advanced_switch", 2, &big, "5D", None);
        assert_eq!(choice(&g), play("5H"));
        let small = ["5H 6D 9C", "8C 7D 3S 4S KC QD 9S"];
        let g = position("advanced_switch", 2, &small, "5D", None);
        assert_eq!(choice(&g), play("6D"));
    }

    /// David Larby's Switch: "A three makes every other player pick up one per three." The
    /// three sets each rival back one card, as a card that only sheds itself would not; the
    /// heuristic does not seek it out (rule 5): it adds nothing, full hands or low.
    #[test]
    fn every_other_player_drawing_adds_nothing() {
        let three: Card = "3H".parse().unwrap();
        let full = position("larby_switch", 3, &["3H 5C 6C", "4D 6D 7D 9S", "4S 6S 7S TD"], "5H", None);
        assert_eq!(race_effects(&full, 0, full.hand(0), three), 0.0);
        let low = position("larby_switch", 3, &["3H 5C 6C", "4D 6D 7D 9S", "4S 6S"], "5H", None);
        assert_eq!(race_effects(&low, 0, low.hand(0), three), 0.0);
    }

    /// Advanced Switch: "Playing a card identical to the top card makes every other player
    /// draw one, and the player goes again". At four players that is one card behind for each
    /// rival, worth one card taken and another turn, not three cards.
    #[test]
    fn an_identical_card_is_one_card_for_each_rival() {
        let g = position("advanced_switch", 4, &["6H 9C TC", "4D 7D 9S", "4S 7S TD", "3C 6C KC"], "6H", None);
        let six: Card = "6H".parse().unwrap();
        assert_eq!(race_effects(&g, 0, g.hand(0), six), PER_CARD + EXTRA_TURN);
    }

    /// Rule 4: a wild that is the only play is saved by drawing only when it is the only wild
    /// held. Crazy eights, on the five of clubs: with one eight and no club the heuristic
    /// draws; with two eights it plays one and still keeps one.
    #[test]
    fn a_wild_is_saved_only_when_it_is_the_last() {
        let one = position("crazy_eights", 2, &["8H 3D 4D KS", "2C 7D 9S TD JH"], "5C", None);
        assert_eq!(choice(&one), Action::Draw);
        let two = position("crazy_eights", 2, &["8H 8S 3D KS", "2C 7D 9S TD JH"], "5C", None);
        assert!([play("8H"), play("8S")].contains(&choice(&two)), "a wild played, not a draw");
    }

    /// Grandad's Game: a turn is a run of cards each matching the one before. On the four of
    /// clubs, the heuristic opens with the card that lets it shed the most: 4D (then 9D, 9S)
    /// rather than the lone club.
    #[test]
    fn a_run_opens_with_the_card_that_sheds_the_most() {
        let g = position("grandads_game", 2, &["4D 9D 9S 6C 3H", "2H 3S 5S 6S 7S"], "4C", None);
        assert_eq!(choice(&g), play("4D"));
        assert_eq!(run_bonus(&g, 0, "4D".parse().unwrap()), 2.0 * PER_CARD);
        assert_eq!(run_bonus(&g, 0, "6C".parse().unwrap()), 0.0);
    }

    /// The position of `g` without its counters (decisions, plays): what the engine and a
    /// deterministic player act on.
    fn position_key(g: &Game) -> String {
        let mut v = serde_json::to_value(g.snapshot()).unwrap();
        let o = v.as_object_mut().unwrap();
        o.remove("decisions");
        o.remove("plays");
        v.to_string()
    }

    /// Heuristic players at every seat of a game without a decision limit: the decision at
    /// which a position first came back (with its first visit), found while the loop guard
    /// had not yet acted, and whether the game ended within `cap` decisions.
    fn self_play(
        preset: &str,
        n: usize,
        overrides: serde_json::Value,
        seed: u64,
        cap: u32,
    ) -> (Option<(u32, u32)>, bool) {
        let rules = Arc::new(Rules::load(preset, n, Some(&overrides)).unwrap());
        assert_eq!(rules.settings.max_decisions, 0);
        let mut g = Game::new(rules, seed);
        let mut bot = HeuristicBot::new();
        let mut seen = std::collections::HashMap::new();
        let mut lap = None;
        while !g.is_terminal() && g.decisions() < cap {
            if lap.is_none() && g.plays() <= LOOP_GUARD && g.decisions() <= DECISION_LOOP_GUARD {
                let at = g.decisions();
                if let Some(first) = seen.insert(position_key(&g), at) {
                    lap = Some((first, at));
                }
            }
            let a = bot.act(&g).expect("a game in progress has a legal action");
            g.step(a).unwrap();
        }
        (lap, g.is_terminal())
    }

    /// Rule 10. Games in which heuristic players at every seat go round in a circle: a
    /// position comes back before the loop guard acts, so without the guard (every decision
    /// a function of the position) they would replay the same lap for ever, the rules setting
    /// no decision limit. With the guard every one ends.
    #[test]
    fn the_loop_guard_ends_games_that_go_round_in_a_circle() {
        use serde_json::json;
        let cases = [
            // 38's as the preset has it: the queens go round the table.
            ("thirty_eights", 4, json!({"limits": {"max_decisions": 0}}), 25),
            // Drawn house rules with a stock turned over without a shuffle ("the kings give
            // their player another turn; each player is dealt 9 cards").
            (
                "crazy_eights_winner_collects",
                4,
                json!({
                    "cards": {"K": {"extra_turn": true}},
                    "deal": {"hand_size": 9},
                    "stock": {"exhausted": "turn_over_no_shuffle"},
                    "limits": {"max_decisions": 0},
                }),
                175,
            ),
            // Circles in which no card stays played, so `plays` never reaches the guard
            // (the decision count does): a bluffed joker challenged back into the hand ...
            ("kings_reverse", 4, json!({"variants": ["joker_bluff"], "limits": {"max_decisions": 0}}), 72),
        ];
        for (preset, n, overrides, seed) in cases {
            let (lap, ended) = self_play(preset, n, overrides, seed, 200_000);
            let (first, again) = lap.unwrap_or_else(|| panic!("{preset}: no position came back"));
            assert!(again > first, "{preset}");
            assert!(ended, "{preset}: the game did not end in 200,000 decisions");
        }
    }

    /// Rule 10's decision count. Under `larby_switch` at two players (no decision limit) the
    /// player whose only playable card is a wild saves it by drawing, and the five-card rule
    /// sends the card back: the hand's plays stay far below [`LOOP_GUARD`] (39 in 20 million
    /// decisions before the count was added), so only the game's decision count can start
    /// the guard; once it does, the game ends.
    #[test]
    fn the_loop_guard_ends_a_circle_in_which_no_card_stays_played() {
        // A test on a shipped preset: its unwraps and expects fire only on an engine bug,
        // never on an input.
        let rules = Arc::new(
            Rules::load("larby_switch", 2, Some(&serde_json::json!({"limits": {"max_decisions": 0}}))).unwrap(),
        );
        let mut g = Game::new(rules, 196);
        let mut bot = HeuristicBot::new();
        let mut most_plays = 0;
        while !g.is_terminal() && g.decisions() < 1_000_000 {
            most_plays = most_plays.max(g.plays());
            g.step(bot.act(&g).expect("a game in progress has a legal action")).unwrap();
        }
        assert!(g.is_terminal(), "the game did not end in 1,000,000 decisions");
        assert!(g.decisions() > DECISION_LOOP_GUARD, "it ended before the guard could act: {}", g.decisions());
        assert!(most_plays <= LOOP_GUARD, "the plays reached the guard: {most_plays}");
    }
}
