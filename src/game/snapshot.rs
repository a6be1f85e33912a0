//! Positions and snapshots: building a game from a mid-hand [`Position`], and taking and
//! loading the serialized [`Snapshot`] of a whole game with its consistency checks (the
//! types are in `saved`, the field checks in `checks`).

use super::saved::{Position, Snapshot, VoidRecord};
use super::state::KeptCards;
use super::state::{Bluff, Chain, GameError, InterludeKind, Phase, Turn};
use super::table::Game;
use crate::card::{Card, Rank, Suit};
use crate::card_set::{CardCounts, CountedPile, Pile, shuffle};
use crate::rules::{AllPass, LastSpecial, MAX_PLAYERS, Rules};
use std::sync::Arc;

impl Game {
    pub(super) fn check_deck(&self, deck: &[Card]) -> Result<(), GameError> {
        let d = &self.rules.deck;
        count_in_deck(d, deck).map(|_| ()).map_err(|(c, k)| {
            GameError::InvalidDeck(format!(
                "{c} listed {k} times but the deck holds {} (deck: {} pack(s), {} joker(s))",
                d.count(c),
                self.rules.packs,
                d.count(Card::RED_JOKER) + d.count(Card::BLACK_JOKER)
            ))
        })
    }

    /// Build a mid-hand position (see [`Position`]). Every listed card must exist in the
    /// deck; unlisted cards go to the stock when `stock` is `None`, and are out of play when
    /// it is given.
    pub fn from_position(rules: Arc<Rules>, pos: &Position) -> Result<Game, GameError> {
        let n = rules.num_players as usize;
        let bad = |m: String| Err(GameError::InvalidPosition(m));
        if pos.hands.len() != n {
            return bad(format!("hands: expected {n} hands (one per seat), got {}", pos.hands.len()));
        }
        if pos.discard.is_empty() && !rules.settings.lead {
            return bad("discard: the discard pile needs at least its top card".into());
        }
        if pos.current_player >= n {
            return bad(format!("current_player must be in [0, {}], got {}", n - 1, pos.current_player));
        }
        if pos.direction != 1 && pos.direction != -1 {
            return bad(format!("direction must be 1 or -1, got {}", pos.direction));
        }
        let dealer = pos.dealer.unwrap_or(n - 1);
        if dealer >= n {
            return bad(format!("dealer must be in [0, {}], got {dealer}", n - 1));
        }
        let all = pos
            .hands
            .iter()
            .flatten()
            .chain(pos.discard.iter())
            .chain(pos.stock.iter().flatten())
            .chain(pos.rogue.iter());
        let used = match count_in_deck(&rules.deck, all) {
            Ok(used) => used,
            Err((c, k)) => return bad(format!("{c} appears {k} times but the deck holds {}", rules.deck.count(c))),
        };
        let mut g = Game::blank(rules.clone(), pos.seed);
        match (rules.settings.wild_instapik, pos.wild_rank) {
            (false, Some(_)) => return bad("wild_rank is only for rules with options.wild_instapik".into()),
            (true, Some(r)) if !is_instapik_rank(r) => {
                return bad(format!("wild_rank must be a number rank from 2 to 10, got {}", r.letter()));
            }
            (true, Some(r)) => g.wild_rank = Some(r),
            (true, None) => g.wild_rank = Some(g.draw_wild_rank()),
            (false, None) => {}
        }
        // pos.hands has n <= MAX_PLAYERS entries (checked above); hands holds MAX_PLAYERS.
        for (p, h) in pos.hands.iter().enumerate() {
            g.hands[p] = h.iter().copied().collect();
        }
        for h in g.hands.iter_mut().skip(n) {
            h.clear();
        }
        g.discard = CountedPile::from_bottom_up(&pos.discard);
        g.position_rank_run().map_err(GameError::InvalidPosition)?;
        // Every card of the pile but the start card at its bottom was played: a pile of its
        // top card alone is a hand no one has played in yet (a start card under
        // `start.effect = "ignore"` keeps no special property then). The pile holds cards
        // of the deck (checked above), a few hundred at most: the count fits u32.
        g.plays = pos.discard.len().saturating_sub(1) as u32;
        g.rogue = Pile::from_bottom_up(&pos.rogue);
        g.stock.clear();
        match &pos.stock {
            Some(s) => {
                for &c in s.iter().rev() {
                    g.stock.push(c);
                }
            }
            None => {
                for c in rules.deck.faces() {
                    for _ in used.count(c)..rules.deck.count(c) {
                        g.stock.push(c);
                    }
                }
                shuffle(g.stock.as_mut_slice(), &mut g.rng);
            }
        }
        check_empty_seats(&rules, &pos.hands, g.stock.is_empty())?;
        g.nominated = pos.nominated_suit;
        g.direction = pos.direction;
        // Both checked above to be below n <= MAX_PLAYERS (10): they fit u8.
        g.current = pos.current_player as u8;
        g.dealer = dealer as u8;
        g.turn = Turn::default();
        g.free_play = false;
        g.chain = Chain::default();
        g.phase = Phase::Play;
        g.pass_streak = 0;
        g.went_out = None;
        if let Some(sc) = &pos.scores {
            check_scores(sc, n)?;
            // sc.len() == n <= MAX_PLAYERS (checked there).
            g.scores[..n].copy_from_slice(sc);
        }
        if pos.pending_draw > 0 {
            let Some(&top) = pos.discard.last() else {
                return bad("pending_draw needs a draw-chain card on top of the discard pile".into());
            };
            // Card indices are below NUM_FACES, the length of `card`.
            let Some(ch) = rules.card[top.index()].chain else {
                return bad(format!(
                    "pending_draw needs a draw-chain card on top; {top} starts no chain in this preset"
                ));
            };
            g.chain = Chain {
                active: true,
                amount: pos.pending_draw,
                group: ch.group,
                answer: ch.answer.into(),
                origin: Some(top),
            };
            g.phase = Phase::Chain;
        }
        // A position is a state like any other: it must pass every check of a loaded
        // snapshot (ranges, consistency, a legal action for the player to act), so that any
        // position accepted here can be saved, loaded and played to its end.
        Game::from_snapshot(g.snapshot()).map_err(|e| match e {
            GameError::InvalidState(m) => GameError::InvalidPosition(m),
            e => GameError::InvalidPosition(e.to_string()),
        })?;
        Ok(g)
    }

    /// A serializable snapshot of the whole state.
    pub fn snapshot(&self) -> Snapshot {
        let n = self.n as usize;
        Snapshot {
            format: 1,
            rules: self.rules.spec.clone(),
            num_players: self.n,
            // n <= MAX_PLAYERS, the length of hands, scores and hand_points.
            hands: (0..n).map(|p| self.hands[p].iter().collect()).collect(),
            stock: self.stock.as_slice().iter().rev().copied().collect(),
            discard: self.discard.as_slice().to_vec(),
            rogue: self.rogue.as_slice().to_vec(),
            nominated: self.nominated.map(|s| s.letter().to_string()),
            direction: self.direction,
            current: self.current,
            dealer: self.dealer,
            phase: self.phase,
            chain: self.chain,
            free_play: self.free_play,
            restrict: self.restrict,
            turn: self.turn,
            pass_streak: self.pass_streak,
            rank_run: self.rules.settings.four_of_a_kind.then(|| self.rank_run.kept().collect()),
            plays: self.plays,
            done: self.done,
            interlude: self.interlude,
            kept: self.kept.counts().iter().collect(),
            challenge: self.challenge,
            missed: self.missed,
            declined: if self.declined[..n].iter().any(|&d| d != 0) { self.declined[..n].to_vec() } else { vec![] },
            voids: if self.voids[..n].iter().any(|&v| v != 0) {
                (0..n)
                    .map(|q| VoidRecord {
                        faces: crate::card_set::Faces::new(self.void_faces_of(q)).collect(),
                        room: self.void_room_of(q),
                    })
                    .collect()
            } else {
                vec![]
            },
            went_out: self.went_out,
            finishing_order: self.finishing_order().to_vec(),
            previous_loser: self.loser,
            scores: self.scores[..n].to_vec(),
            hand_points: self.hand_points[..n].to_vec(),
            hand_winner: self.hand_winner,
            winner: self.winner,
            terminal: self.terminal,
            truncated: self.truncated,
            decisions: self.decisions,
            hands_played: self.hands_played,
            hat: self.hat,
            wild_rank: self.wild_rank.map(|r| r.letter().to_string()),
            seed: self.seed,
            rng: self.rng.clone(),
        }
    }

    /// Rebuild a game from a snapshot, checking it for consistency.
    pub fn from_snapshot(s: Snapshot) -> Result<Game, GameError> {
        let n = s.num_players as usize;
        let rules = Arc::new(Rules::from_spec(s.rules.clone(), n).map_err(|e| GameError::InvalidState(e.to_string()))?);
        let bad = |m: &str| Err(GameError::InvalidState(m.to_string()));
        super::checks::check_fields(&s, &rules).map_err(GameError::InvalidState)?;
        if s.hands.len() != n || s.scores.len() != n || s.hand_points.len() != n {
            return bad("hands, scores and hand_points need one entry per player");
        }
        if s.current as usize >= n || s.dealer as usize >= n || (s.direction != 1 && s.direction != -1) {
            return bad("current, dealer or direction out of range");
        }
        if serde_json::to_value(&s.rng).is_ok_and(|v| v == serde_json::json!({"s": [0, 0, 0, 0]})) {
            return bad("rng: the all-zero state, which the generator never reaches (it would give 0 for ever)");
        }
        if s.discard.is_empty() && !rules.settings.lead {
            return bad("the discard pile needs at least its top card");
        }
        if s.discard.is_empty() && !s.terminal && !is_lead(&s) {
            return bad(
                "discard: an empty pile is a lead (deal.starter = \"none\"): phase play at the start of a turn, \
                 with no chain, interlude or challenge pending",
            );
        }
        if s.went_out.is_some_and(|w| w as usize >= n)
            || s.hat.is_some_and(|w| w as usize >= n)
            || s.previous_loser.is_some_and(|w| w as usize >= n)
        {
            return bad("seat out of range");
        }
        if s.chain.active && (s.chain.group as usize) >= rules.chain_groups.len().max(1) {
            return bad("chain group out of range");
        }
        let all = s.hands.iter().flatten().chain(s.stock.iter()).chain(s.discard.iter()).chain(s.rogue.iter());
        if count_in_deck(&rules.deck, all).is_err() {
            return bad("more copies of a card than the deck holds");
        }
        let wild_rank = match s.wild_rank.as_deref() {
            None => None,
            Some(x) => Some(Rank::parse(x).filter(|&r| is_instapik_rank(r)).ok_or_else(|| {
                GameError::InvalidState(format!("wild_rank: {x:?} is not a number rank from 2 to 10"))
            })?),
        };
        if wild_rank.is_some() != rules.settings.wild_instapik {
            return bad("wild_rank is set exactly under options.wild_instapik (the hand's wild rank)");
        }
        let mut g = Game::blank(rules, s.seed);
        g.wild_rank = wild_rank;
        for p in 0..MAX_PLAYERS {
            g.hands[p] = s.hands.get(p).map(|h| h.iter().copied().collect()).unwrap_or_default();
        }
        g.stock = Pile::from_bottom_up(&s.stock.iter().rev().copied().collect::<Vec<_>>());
        g.discard = CountedPile::from_bottom_up(&s.discard);
        g.rogue = Pile::from_bottom_up(&s.rogue);
        g.nominated =
            match s.nominated.as_deref() {
                None => None,
                Some(x) => Some(Suit::parse(x).ok_or_else(|| {
                    GameError::InvalidState(format!("nominated: unknown suit {x:?} (use C, D, H or S)"))
                })?),
            };
        g.direction = s.direction;
        g.current = s.current;
        g.dealer = s.dealer;
        g.phase = s.phase;
        g.chain = s.chain;
        g.free_play = s.free_play;
        g.restrict = s.restrict;
        g.turn = s.turn;
        g.pass_streak = s.pass_streak;
        g.rank_run = g.saved_rank_run(s.rank_run.as_deref()).map_err(GameError::InvalidState)?;
        if !s.terminal && s.phase == Phase::Play && s.turn.cards == 0 && g.four_of_a_kind() {
            return Err(GameError::InvalidState(
                "rank_run: four cards of one rank in a row end the hand, so a turn cannot begin on them".into(),
            ));
        }
        g.plays = s.plays;
        g.done = s.done;
        g.check_snapshot_turn(&s)?;
        g.interlude = s.interlude;
        // Fewer than five cards (check_snapshot_turn).
        g.kept = KeptCards::from_cards(&s.kept);
        g.challenge = s.challenge;
        g.missed = s.missed;
        g.declined[..s.declined.len()].copy_from_slice(&s.declined);
        for (q, v) in s.voids.iter().enumerate() {
            let faces = v.faces.iter().fold(0, |m, &c| m | 1 << c.index());
            g.voids[q] = if faces == 0 { 0 } else { super::knowledge::pack_void(faces, v.room) };
        }
        g.went_out = s.went_out;
        for &p in &s.finishing_order {
            g.place(p);
        }
        g.loser = s.previous_loser;
        g.scores = [0; MAX_PLAYERS];
        // s.scores and s.hand_points have n <= MAX_PLAYERS entries (checked above).
        g.scores[..n].copy_from_slice(&s.scores);
        g.hand_points = [0; MAX_PLAYERS];
        g.hand_points[..n].copy_from_slice(&s.hand_points);
        g.hand_winner = s.hand_winner;
        g.winner = s.winner;
        g.terminal = s.terminal;
        g.truncated = s.truncated;
        g.decisions = s.decisions;
        g.hands_played = s.hands_played;
        g.hat = s.hat;
        g.rng = s.rng;
        super::checks::check_game(&g).map_err(GameError::InvalidState)?;
        Ok(g)
    }

    /// The turn-level checks of a snapshot against the restored tables (`self` holds its
    /// hands, piles and seats): interlude, kept cards, challenge, missed and placed seats.
    fn check_snapshot_turn(&self, s: &Snapshot) -> Result<(), GameError> {
        let n = self.n as usize;
        let il = s.interlude;
        let seats = [il.resume, il.origin, il.seat, il.mirror_by, il.victim.unwrap_or(0)];
        if seats.iter().any(|&x| x as usize >= n) || il.suit >= 4 {
            return bad_state("interlude seat or suit out of range");
        }
        let in_window = il.kind == InterludeKind::MirrorThree;
        if in_window != (s.phase == Phase::Chain && !s.chain.active && il.kind != InterludeKind::None)
            || (il.kind == InterludeKind::KeepFive) != (s.phase == Phase::Keep)
        {
            return bad_state("interlude kind does not fit the phase");
        }
        let kept: CardCounts = s.kept.iter().copied().collect();
        // current < n was checked by from_snapshot before this call.
        let keeper = &self.hands[self.current as usize];
        if kept.faces().any(|c| kept.count(c) > keeper.count(c)) || kept.len() >= 5 {
            return bad_state("kept cards must be fewer than five cards of the keeper's hand");
        }
        let bluff_ok = |b: &Bluff| {
            b.by as usize >= n
                || b.prev_nominated.is_some_and(|x| x >= 4)
                || !self.rules.settings.joker_bluff
                || !self.discard.top().is_some_and(|t| self.card_wild(t).is_some_and(|w| w.only_if_no_other))
        };
        if (s.phase == Phase::Challenge) != s.challenge.is_some()
            || s.challenge.as_ref().is_some_and(|b| bluff_ok(b) || b.by == s.current || b.amount == 0)
            || s.turn.bluff.as_ref().is_some_and(|b| bluff_ok(b) || b.by != s.current)
        {
            return bad_state("challenge does not fit the phase, the options or the top card");
        }
        if !s.declined.is_empty() && s.declined.len() != n {
            return bad_state("declined must list one entry per seat (or none)");
        }
        if s.declined.iter().any(|&d| d > 0xF) {
            return bad_state("declined entries are suit bits 0 to 3 (at most 15)");
        }
        if !s.voids.is_empty() && s.voids.len() != n {
            return bad_state("voids must list one record per seat (or none)");
        }
        if s.voids.iter().any(|v| v.faces.iter().any(|&c| !self.rules.deck.contains(c))) {
            return bad_state("voids: a record names a face the deck does not hold");
        }
        if u32::from(s.missed) >> n != 0 {
            return bad_state("missed turns name a seat out of range");
        }
        if u32::from(s.done) >> n != 0 {
            return bad_state("players out of the hand name a seat out of range");
        }
        let fo = &s.finishing_order;
        // i < fo.len() in the slices; seats are checked < n before `s.hands[p]` (n entries) below.
        if fo.len() > n || fo.iter().any(|&p| p as usize >= n) || (1..fo.len()).any(|i| fo[..i].contains(&fo[i])) {
            return bad_state("finishing_order must list distinct seats in range");
        }
        let for_second = self.rules.settings.play_for_second && n == 3;
        if !s.terminal
            && (fo.len() > usize::from(for_second)
                || fo.iter().any(|&p| !s.hands[p as usize].is_empty() || s.done & (1 << p) == 0))
        {
            return bad_state(
                "finishing_order mid-hand: only the first place under end.play_for_second, with an empty hand \
                 and marked out of the hand",
            );
        }
        if !s.terminal && !fo.is_empty() && s.current == fo[0] {
            return bad_state("the player to act is out of the hand");
        }
        if !s.terminal && u32::from(s.done) == (1u32 << n) - 1 {
            return bad_state("done: every seat is out of the hand, but the hand goes on");
        }
        if !s.terminal && self.rules.settings.play_for_second && self.rules.settings.all_pass != AllPass::PassIsFinal {
            // Under end.play_for_second only a seat that went out leaves the hand.
            let placed = fo.iter().fold(0u16, |m, &p| m | (1 << p));
            if s.done != placed {
                return bad_state(
                    "done: under end.play_for_second the seats out of the hand are those in finishing_order",
                );
            }
        }
        Ok(())
    }
}

/// Whether a snapshot's turn is a lead: the play phase of a turn not yet begun, with nothing
/// pending (the only state in which rules without a start card have an empty pile).
fn is_lead(s: &Snapshot) -> bool {
    let t = &s.turn;
    s.phase == Phase::Play
        && !s.chain.active
        && s.interlude.kind == InterludeKind::None
        && s.challenge.is_none()
        && t.cards == 0
        && t.drawn == 0
        && t.first.is_none()
        && t.last.is_none()
}

/// A seat that plays its last card goes out, and the hand ends. Only when the stock is empty
/// can a seat sit with no cards in play: dealt a new hand from it (countdown), or unable to
/// draw after a card it cannot go out on. A position's empty hand is refused otherwise.
fn check_empty_seats(rules: &Rules, hands: &[Vec<Card>], stock_empty: bool) -> Result<(), GameError> {
    let may_sit_empty = stock_empty
        && (rules.settings.countdown
            || rules.deck.faces().any(|c| rules.card[c.index()].last_special == LastSpecial::CannotGoOut));
    match hands.iter().position(Vec::is_empty).filter(|_| !may_sit_empty) {
        Some(p) => Err(GameError::InvalidPosition(format!(
            "hands[{p}]: seat {p} has no cards, but a seat that plays its last card goes out and the hand \
             ends; give every seat at least one card"
        ))),
        None => Ok(()),
    }
}

/// A position's match scores: one per seat, each within the snapshot limit.
fn check_scores(scores: &[i32], n: usize) -> Result<(), GameError> {
    let bad = |m: String| Err(GameError::InvalidPosition(m));
    if scores.len() != n {
        return bad(format!("scores: expected {n} scores (one per seat), got {}", scores.len()));
    }
    let max = super::checks::MAX_SCORE;
    if let Some(x) = scores.iter().find(|x| x.unsigned_abs() > max.unsigned_abs()) {
        return bad(format!("scores: each must be in [-{max}, {max}], got {x}"));
    }
    Ok(())
}

/// A rank Wild Instapik may draw: a number card, 2 to 10.
fn is_instapik_rank(r: Rank) -> bool {
    (1..=9).contains(&r.index())
}

fn bad_state(m: &str) -> Result<(), GameError> {
    Err(GameError::InvalidState(m.to_string()))
}

/// Count `cards` against `deck`: the counts, or the first card listed more often than the
/// deck holds it, with the number of times it is listed in all. The one deck-count check of
/// decks, positions and snapshots.
fn count_in_deck<'a, I>(deck: &CardCounts, cards: I) -> Result<CardCounts, (Card, usize)>
where
    I: IntoIterator<Item = &'a Card> + Clone,
{
    let mut used = CardCounts::new();
    for &c in cards.clone() {
        used.add(c);
        if used.count(c) > deck.count(c) {
            // Counted apart: past the deck's copies the per-card counter would overflow.
            return Err((c, cards.into_iter().filter(|&&x| x == c).count()));
        }
    }
    Ok(used)
}
