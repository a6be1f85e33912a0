//! A documented human strategy for every preset.
//!
//! [`HeuristicBot`] reads only the acting player's information: the legal actions, its own
//! hand, the top card and active suit, the pending chain, the rules' effect table and the
//! other players' hand sizes. It is deterministic (no random tie-breaks: ties go to the lower
//! action id), so it needs no seed.
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
//!    play is scored and the best is played. A "good" play is any play but a wild card; the
//!    only voluntary draw is to **save a wild card** when a wild is the only play, the hand
//!    holds at least [`SAVE_WILD_MIN_HAND`] cards, the next player is not low on cards, and a
//!    draw is possible.
//! 5. The score of a play prefers, in this order of weight:
//!    * **keep wild and answer cards for when they are needed**: wild cards score
//!      -[`WILD_KEEP`] and draw or cancel cards -[`ANSWER_KEEP`] (none of this when the hand
//!      is down to two cards);
//!    * **attack with draw cards when the next player is low on cards** (at most
//!      [`LOW_HAND`] cards): draw cards score +[`ATTACK`], skips +[`ATTACK`]/2 (with two
//!      players a skip is an extra turn and always scores +[`EXTRA_TURN`]);
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
//! 8. Otherwise: draw if allowed, else pass, else accept.

use super::Policy;
use crate::action::{self, ActionMask};
use crate::card::{Card, Suit};
use crate::card_set::CardCounts;
use crate::game::{Game, Phase};

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
/// Penalty for giving the next player a free play.
pub const FREE_PLAY: f64 = 10.0;

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
        let mut buf = [Card(0); 54];
        let mut k = 0;
        for id in m.iter().take_while(|&id| id < action::PLAY + 54) {
            buf[k] = Card((id - action::PLAY) as u8);
            k += 1;
        }
        let plays = &buf[..k];
        // Rule 1: go out.
        if hand.len() == 1 && plays.len() == 1 {
            return Some(action::PLAY + plays[0].index());
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
                let best = HandStats::new(g, hand).best_suit;
                if m.contains(action::END_TURN) && g.active_suit() == Some(best) {
                    return Some(action::END_TURN);
                }
                let a = action::NOMINATE + best.index();
                Some(if m.contains(a) { a } else { m.nth(0)? })
            }
            Phase::Continue if plays.len() == 1 => {
                let c = plays[0];
                Some(if is_kept(g, hand, c) && m.contains(action::END_TURN) {
                    action::END_TURN
                } else {
                    action::PLAY + c.index()
                })
            }
            Phase::Continue => {
                let st = HandStats::new(g, hand);
                let best = plays
                    .iter()
                    .map(|&c| (score(g, &st, p, hand, c), c))
                    .filter(|(_, c)| !is_kept(g, hand, *c))
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
                    let st = HandStats::new(g, hand);
                    plays
                        .iter()
                        .map(|&c| (score(g, &st, p, hand, c), c))
                        .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.index().cmp(&a.1.index())))
                };
                if let Some((_, c)) = best {
                    let only_wilds = plays.iter().all(|&x| g.card_wild(x).is_some());
                    let next = g.advance(p as u8, 1) as usize;
                    let save = only_wilds
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

/// What the scoring needs about the acting player's hand, counted once per decision so that
/// scoring a card costs O(1): copies of non-wild cards per suit and their points, copies per
/// rank, and the suit held most.
struct HandStats {
    has_points: bool,
    suit_count: [u32; 4],
    suit_pts: [f64; 4],
    rank_count: [u32; 13],
    best_suit: Suit,
}

impl HandStats {
    fn new(g: &Game, hand: &CardCounts) -> HandStats {
        let rules = g.rules();
        let has_points = rules.points.iter().any(|&x| x != 0);
        let mut st = HandStats {
            has_points,
            suit_count: [0; 4],
            suit_pts: [0.0; 4],
            rank_count: [0; 13],
            best_suit: Suit::Clubs,
        };
        for c in hand.faces() {
            let k = hand.count(c) as u32;
            if let Some(r) = c.rank() {
                st.rank_count[r.index()] += k;
            }
            if let Some(su) = c.suit().filter(|_| g.card_wild(c).is_none()) {
                st.suit_count[su.index()] += k;
                // Copy by copy, in card order, as a plain sum over the hand would.
                for _ in 0..k {
                    st.suit_pts[su.index()] += st.value(g, c);
                }
            }
        }
        // The suit with the most non-wild cards (ties: more points, then C, D, H, S).
        let mut best = (Suit::Clubs, -1i64, f64::NEG_INFINITY);
        for su in Suit::ALL {
            let (k, pts) = (st.suit_count[su.index()] as i64, st.suit_pts[su.index()]);
            if k > best.1 || (k == best.1 && pts > best.2) {
                best = (su, k, pts);
            }
        }
        st.best_suit = best.0;
        st
    }

    /// Penalty points of `c`, or its face value in presets that score no points.
    fn value(&self, g: &Game, c: Card) -> f64 {
        let pts = g.rules().points[c.index()];
        if pts != 0 || self.has_points { pts as f64 } else { c.rank().map_or(0.0, |r| r.face_value() as f64) }
    }

    /// Non-wild cards of `suit` in the hand, other than copies of `c`.
    fn same_suit(&self, g: &Game, hand: &CardCounts, c: Card, suit: Option<Suit>) -> f64 {
        suit.map_or(0.0, |su| {
            let mut k = self.suit_count[su.index()];
            if c.suit() == Some(su) && g.card_wild(c).is_none() {
                k -= hand.count(c) as u32;
            }
            k as f64
        })
    }
}

/// A wild, draw or cancel card to keep rather than play now (rule 5).
fn is_kept(g: &Game, hand: &CardCounts, c: Card) -> bool {
    let r = &g.rules().card[c.index()];
    hand.len() > 2 && (g.card_wild(c).is_some() || r.chain.is_some() || r.cancel != 0)
}

/// The score of playing `c` from `hand` by player `p` (rule 5).
fn score(g: &Game, st: &HandStats, p: usize, hand: &CardCounts, c: Card) -> f64 {
    let rules = g.rules();
    let r = &rules.card[c.index()];
    let n = g.num_players();
    let next = g.advance(p as u8, 1) as usize;
    let next_low = g.hand(next).len() <= LOW_HAND;
    let mut s = st.value(g, c);
    let left_suit = st.same_suit(g, hand, c, c.suit());
    let left_rank = c.rank().map_or(0.0, |rk| (st.rank_count[rk.index()] - hand.count(c) as u32) as f64);
    // The card's wild rule this hand (zodiac's Wild Instapik moves the eights' to another rank).
    let wild = g.card_wild(c).is_some();
    if !wild {
        s += FOLLOW_SUIT * left_suit + FOLLOW_RANK * left_rank;
    } else {
        // A wild names the best suit: its follow-up is the suit held most.
        s += FOLLOW_SUIT * st.same_suit(g, hand, c, Some(st.best_suit));
    }
    if r.follow.is_some() {
        s += FOLLOW_SUIT * left_suit;
    }
    let keep = hand.len() > 2;
    if wild && keep {
        s -= WILD_KEEP;
    }
    if r.chain.is_some() || r.draw_lose > 0 || r.draw_keep > 0 {
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
    s
}
