//! Resolving a completed play: going out, penalties, direction, skips, chains and who
//! plays next. [`Game::resolve_play`] runs these steps in order; each returns early when the
//! hand ends or an interlude or challenge takes over. Last, placing a card on the discard
//! pile and the run of one rank it extends (`end.four_of_a_kind`).

use super::*;

impl Game {
    pub(super) fn ends_hand_on_out(&self, top: Card) -> bool {
        let ls = self.rules.card[top.index()].last_special;
        !(ls == LastSpecial::CannotGoOut
            || (ls == LastSpecial::ChainContinues && (self.turn.chain_add > 0 || self.turn.answered)))
    }

    /// Resolve the completed play of the player to act, whose card is the top of the discard
    /// pile (see [`Game::resolve_card`]).
    pub(super) fn resolve_play(&mut self) {
        // No input reaches this panic: every caller has just placed a card on the discard pile
        // (a rogue-pile play calls `resolve_card` with its card instead).
        let top = self.discard.top().expect("a card was placed");
        self.resolve_card(top);
    }

    /// Resolve the completed play of the player to act, `top` the card placed last (on the
    /// discard pile, or on stalin's rogue pile): the hand may end, the effects collected in the
    /// turn apply, and the next turn (or a challenge or mirror window) starts.
    pub(super) fn resolve_card(&mut self, top: Card) {
        let p = self.current;
        self.deal_countdown_hand(p as usize);
        let t = self.turn;
        // A countdown player who went out was dealt a new hand (`turn.redealt`): empty only when
        // the stock had no card left, and that player's score is not yet 0, so play goes on.
        let out = self.hands[p as usize].is_empty() && !t.is_start && !t.redealt;
        let cannot_out = out && self.rules.card[top.index()].last_special == LastSpecial::CannotGoOut;
        if out && !cannot_out && self.for_second() {
            self.leave_for_second(p, &t);
            return;
        }
        if out && !cannot_out {
            if self.go_out(p, top, &t) {
                return;
            }
        } else if !t.is_start && !t.redealt && t.pass_hands.is_none() {
            // (A new countdown hand of one card left no one a chance to call "last card".)
            // When the hands are passed, the player does not hold the one card when the next
            // person plays: it goes on with the hand. The engine asks only the player to act,
            // in their turn, so a hand that comes to one card by a pass is taken as called.
            self.last_card_penalty(p as usize, t.announced, t.gave);
        }
        if self.end_of_play_draw(p, &t) {
            return;
        }
        let skips = self.turn_direction(p, &t);
        // A mirror window on an others-draw card: before the others pick up, those holding a
        // mirroring card may answer.
        let window = if t.others_draw > 0 && self.rules.has_mirror { self.mirror_candidate(p, top, 1) } else { None };
        if t.others_draw > 0 && window.is_none() {
            self.others_draw(p, t.others_draw as usize);
        }
        if let Some(side) = t.pass_hands {
            self.pass_hands(p, side, cannot_out);
        }
        if cannot_out {
            // thirty_eights: a player cannot go out on an ace or an eight; they draw one card.
            self.draw_cards(p as usize, 1);
        }
        let next = self.next_seat(p, skips, &t);
        self.settle_chain(p, &t);
        if let Some(w) = self.went_out.filter(|_| !self.chain.active) {
            // A player went out on a chain card and the chain went on; a card that cancels or
            // stops it ends the chain as an accepted draw does, and so the hand.
            self.end_hand(Some(w), false);
            return;
        }
        if let Some(k) = window.filter(|_| !self.chain.active) {
            self.open_mirror_window(p, top, k, next, t.others_draw);
            return;
        } else if window.is_some() {
            self.others_draw(p, t.others_draw as usize);
        }
        let t = if self.chain.active && t.draw_lose > 0 {
            // zodiac: a run with the Zodiac card ended on an attacking ace. The next player
            // draws seven and forfeits the turn, so has no turn to answer the ace in: they
            // draw its penalty too, as when such a run goes out (docs/fidelity.md, D27).
            let k = t.draw_lose.saturating_add(self.chain.amount);
            self.chain = Chain::default();
            Turn { draw_lose: k, ..t }
        } else {
            t
        };
        if self.chain.active {
            self.current = next;
            self.phase = Phase::Chain;
            self.begin_turn();
            return;
        }
        self.hand_over(next, &t);
    }

    /// `end.play_for_second`: the first player out takes first place and leaves the hand; the
    /// going-out card's own effects are ignored and the next player still in plays on. The
    /// second player out takes second place and ends the hand.
    fn leave_for_second(&mut self, p: u8, t: &Turn) {
        self.place(p);
        self.done |= 1 << p;
        if self.placed >= 2 {
            let last = (0..self.n).find(|&q| self.done & (1 << q) == 0).expect("one player is left");
            self.place(last);
            let first = self.places[0];
            self.end_hand(Some(first), false);
            return;
        }
        self.turn = Turn::default();
        self.chain = Chain::default();
        self.free_play = false;
        // After a shield the attacking ace's suit is still to be followed (it is the ace's
        // rule, not the shield's effect).
        self.restrict = if t.cancelled { t.restrict } else { Restrict::None };
        self.current = self.step_in(p, 1);
        self.phase = Phase::Play;
        self.begin_turn();
    }

    /// `p` went out on `top`: the hand ends (after the card's draws under `draws_apply`),
    /// unless a draw chain goes on (`chain_continues`). Returns whether the hand ended.
    fn go_out(&mut self, p: u8, top: Card, t: &Turn) -> bool {
        match self.rules.card[top.index()].last_special {
            LastSpecial::ChainContinues if t.chain_add > 0 || t.answered => {
                self.went_out.get_or_insert(p);
                false
            }
            // A player who went out earlier on a chain card that still runs ends the hand too,
            // and is the one who went out first.
            LastSpecial::DrawsApply => {
                self.ending_draws(p, t);
                self.end_hand(Some(self.went_out.unwrap_or(p)), false);
                true
            }
            _ => {
                if t.draw_lose > 0 && self.run_draws_apply(t) {
                    // An unanswerable draw penalty acts wherever its card lies in a run (the
                    // zodiac card, which the top card does not clear): in a run that takes the
                    // player out too, when the card's own draws apply on going out.
                    self.ending_draws(p, t);
                }
                self.end_hand(Some(self.went_out.unwrap_or(p)), false);
                true
            }
        }
    }

    /// Whether a card of this turn's play (the top `t.cards` of the discard pile) makes its
    /// victim draw and lose the turn and has `last_special = draws_apply`.
    fn run_draws_apply(&self, t: &Turn) -> bool {
        let pile = self.discard.as_slice();
        pile[pile.len().saturating_sub(t.cards as usize)..].iter().any(|c| {
            let r = &self.rules.card[c.index()];
            r.draw_lose > 0 && r.last_special == LastSpecial::DrawsApply
        })
    }

    /// `last_special = draws_apply`: the play that ends the hand still makes the next player
    /// draw its penalty (sevens_and_eights: two per seven).
    fn ending_draws(&mut self, p: u8, t: &Turn) {
        let target = self.advance(p, 1 + t.skips as usize) as usize;
        let k = t.draw_lose + t.draw_keep + t.chain_add + if t.answered { self.chain.amount } else { 0 };
        self.draw_cards(target, k as usize);
    }

    /// The compulsory draw after every play (`draw.end_of_turn`) and the four-of-a-kind end.
    /// Returns whether the hand ended.
    fn end_of_play_draw(&mut self, p: u8, t: &Turn) -> bool {
        if self.rules.settings.draw_end_of_turn > 0 && !t.is_start {
            // stalin: every play ends with a compulsory draw (a player who went out has won).
            self.draw_cards(p as usize, self.rules.settings.draw_end_of_turn as usize);
        }
        if self.rules.settings.four_of_a_kind && !t.is_start && self.four_of_a_kind() {
            // Four cards of one rank played one after another end the hand; everyone scores.
            // "It does not matter which of the two options [...] he uses to end the hand": the
            // ending card's draws apply as when going out.
            let top = self.discard.top().expect("a card was placed");
            if self.rules.card[top.index()].last_special == LastSpecial::DrawsApply {
                self.ending_draws(p, t);
            }
            self.end_hand(None, true);
            return true;
        }
        false
    }

    /// Apply the turn's reverses (a skip with two players under `two_player.reverse =
    /// as_skip`) and the silly hat of an ace skip; returns the number of seats skipped.
    fn turn_direction(&mut self, p: u8, t: &Turn) -> usize {
        let mut skips = t.skips as usize;
        let reversed = t.reverses % 2 == 1;
        if reversed {
            if self.n == 2 {
                if self.rules.settings.two_player_reverse == TwoPlayerReverse::AsSkip {
                    skips += 1;
                }
            } else {
                self.direction = -self.direction;
            }
        }
        if skips > 0 && t.ace_skip && self.rules.settings.silly_hat {
            self.hat = Some(self.advance(p, skips));
        }
        skips
    }

    /// Every hand moves one seat; a fixed side ignores the direction. A player who cannot go
    /// out on the card is skipped: the seat before passes to the seat after.
    fn pass_hands(&mut self, p: u8, side: crate::rules::Side, cannot_out: bool) {
        let n = self.n as usize;
        let old = self.hands;
        let old_declined = self.declined;
        let old_voids = self.voids;
        let old_seen = self.seen.as_deref().copied();
        let seat = |g: &Game, i: usize| -> usize {
            match side {
                crate::rules::Side::Right => (i + n - 1) % n,
                crate::rules::Side::Left => (i + 1) % n,
                crate::rules::Side::Direction => g.advance(i as u8, 1) as usize,
            }
        };
        // Hands move among the players still in the hand (`end.play_for_second`).
        let step = |g: &Game, i: usize| -> usize {
            let mut to = seat(g, i);
            for _ in 0..n {
                if g.left_hand() & (1 << to) == 0 {
                    break;
                }
                to = seat(g, to);
            }
            to
        };
        for (i, hand) in old.iter().enumerate().take(n) {
            if (cannot_out && i == p as usize) || self.left_hand() & (1 << i) != 0 {
                continue;
            }
            let mut to = step(self, i);
            if cannot_out && to == p as usize {
                to = step(self, to);
            }
            self.hands[to] = *hand;
            self.declined[to] = old_declined[i];
            self.voids[to] = old_voids[i];
            if let (Some(s), Some(before)) = (self.seen.as_deref_mut(), old_seen.as_ref()) {
                // Knowledge follows the hand; the passer knows the hand it passed.
                for o in 0..n {
                    s.bits[o][to] = before.bits[o][i];
                }
                s.bits[i][to] = face_bits(hand);
            }
        }
    }

    /// The seat that plays next after `p`'s play: past the skips, again `p` after an identical
    /// card (everyone else draws one) or an extra turn, past players out of the hand. A
    /// waste-pile draw for that seat happens here.
    fn next_seat(&mut self, p: u8, skips: usize, t: &Turn) -> u8 {
        let mut next = self.step_in(p, 1 + skips);
        if t.identical {
            // advanced_switch identical card: every other player draws one in turn order and
            // the player goes again, as the next person to play on their own card.
            self.others_draw(p, 1);
            next = self.step_in(p, skips);
        }
        if t.extra_turn {
            next = p;
        }
        next = self.skip_done(next);
        if t.waste_draw > 0 {
            self.waste_draw(next as usize, t.waste_draw as usize);
        }
        next
    }

    /// The draw chain after the play: cancelled, started, its answer rule set; the turn's
    /// one-turn effects pass to the next player; an even number of mirrors sends the penalty
    /// back to `p`, who takes it at once.
    fn settle_chain(&mut self, p: u8, t: &Turn) {
        if t.cancelled {
            self.chain = Chain::default();
        }
        if t.chain_add > 0 && !t.answered {
            self.chain = Chain {
                active: true,
                amount: t.chain_add,
                group: t.chain_group,
                answer: t.chain_answer,
                origin: t.chain_origin,
            };
        }
        if let Some(ma) = t.multi_answer {
            if self.chain.active {
                self.chain.answer = ma;
            }
        }
        self.turn = Turn::default();
        self.free_play = t.free_play_next;
        self.restrict = t.restrict;
        if t.mirrors > 0 && t.mirrors % 2 == 0 && self.chain.active {
            let k = self.chain.amount as usize;
            self.chain = Chain::default();
            self.draw_cards(p as usize, k);
        }
    }

    /// The turn passes to `next`: a pick-up of the pile, a joker challenge, the penalties that
    /// make `next` draw (and lose the turn), then `next`'s turn begins.
    fn hand_over(&mut self, mut next: u8, t: &Turn) {
        if t.pick_up > 0 {
            // The next player takes the cards under the top card and loses the turn.
            self.pick_up_pile(next as usize, t.pick_up);
            next = self.step_in(next, 1);
        }
        if let Some(b) = t.bluff.filter(|b| t.draw_lose > 0 && b.by != next) {
            // options.joker_bluff: the victim decides whether to challenge the joker first
            // (unless the joker's own player is the only one still in the hand: nobody can
            // challenge, and the penalty falls as for any joker).
            self.challenge = Some(Bluff { amount: t.draw_lose, ..b });
            self.current = next;
            self.phase = Phase::Challenge;
            return;
        }
        if t.draw_lose > 0 {
            self.draw_cards(next as usize, t.draw_lose as usize);
            next = self.step_in(next, 1);
            self.free_play = false;
        } else if t.draw_keep > 0 {
            self.draw_cards(next as usize, t.draw_keep as usize);
        }
        self.current = next;
        self.phase = Phase::Play;
        self.begin_turn();
    }

    /// `victim` takes up to `k` cards from under the top card, in view of everyone.
    fn pick_up_pile(&mut self, victim: usize, k: u16) {
        let top = self.discard.pop().expect("a card was placed");
        for _ in 0..k {
            match self.discard.pop() {
                Some(c) => {
                    self.hands[victim].add(c);
                    self.clear_declined(victim, c);
                    self.void_took(victim, c);
                    if let Some(s) = self.seen.as_deref_mut() {
                        // The discard pile is public: everyone sees what the victim takes.
                        for o in s.bits.iter_mut() {
                            o[victim] |= bit(c);
                        }
                    }
                }
                None => break,
            }
        }
        self.discard.push(top);
    }
}

// Placing a card on the pile, and the run of one rank it extends (`RankRun`, in `run.rs`).
impl Game {
    /// Four cards of one rank were placed on the pile one after another, the top card last
    /// (`end.four_of_a_kind`).
    pub(super) fn four_of_a_kind(&self) -> bool {
        self.rank_run.len() >= 4
    }

    /// Whether the play in progress (not the start card) completed four of a kind under
    /// `end.four_of_a_kind`: the hand ends when it resolves.
    pub(super) fn ends_on_four_of_a_kind(&self) -> bool {
        self.rules.settings.four_of_a_kind && !self.turn.is_start && self.four_of_a_kind()
    }

    /// Place `c` on the discard pile and, under `end.four_of_a_kind`, count it into the run
    /// of one rank (under other rules the run stays empty and costs a test).
    pub(super) fn put_on_pile(&mut self, c: Card) {
        self.discard.push(c);
        self.count_into_run(c);
    }

    /// Under `end.four_of_a_kind`, count `c`, just placed on the pile, into the run. The
    /// hot path of a play calls it last, so that under other rules a play costs one test
    /// more and keeps nothing live across the call.
    #[inline]
    pub(super) fn count_into_run(&mut self, c: Card) {
        if self.rules.settings.four_of_a_kind {
            self.rank_run.push(c, self.rules.deck.count(c));
        }
    }

    /// The run the pile shows (see [`RankRun::of_pile`]); empty unless the rules have
    /// `end.four_of_a_kind`.
    pub(super) fn rank_run_on_pile(&self) -> RankRun {
        if !self.rules.settings.four_of_a_kind {
            return RankRun::default();
        }
        RankRun::of_pile(self.discard.as_slice(), &self.rules.deck)
    }

    /// A position's run of one rank, read off its pile; refused when the pile already shows
    /// four of a kind (the hand would have ended).
    pub(super) fn position_rank_run(&mut self) -> Result<(), String> {
        self.rank_run = self.rank_run_on_pile();
        if self.four_of_a_kind() {
            return Err("discard: its top four cards are of one rank, and under end.four_of_a_kind that ends \
                        the hand"
                .into());
        }
        Ok(())
    }

    /// The run a snapshot saved (`None`: an older snapshot, or rules without
    /// `end.four_of_a_kind`, which keep none), checked against the pile and the rules.
    pub(super) fn saved_rank_run(&self, saved: Option<&[Card]>) -> Result<RankRun, String> {
        match (saved, self.rules.settings.four_of_a_kind) {
            (None, _) => Ok(self.rank_run_on_pile()),
            (Some(cards), true) => RankRun::from_saved(cards, self.discard.as_slice(), &self.rules.deck),
            (Some(_), false) => Err("rank_run: only rules with end.four_of_a_kind keep a run of one rank; \
                                     these rules do not"
                .into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::cards;
    use super::*;

    /// Two players of `preset` on `pile`, the stock empty.
    fn on_pile(preset: &str, pile: &str) -> Game {
        let rules = Arc::new(Rules::load(preset, 2, None).unwrap());
        let pos = Position {
            hands: vec![cards("3H 4H"), cards("KD")],
            discard: cards(pile),
            stock: Some(vec![]),
            direction: 1,
            ..Position::default()
        };
        Game::from_position(rules, &pos).unwrap()
    }

    #[test]
    fn a_snapshot_keeps_the_run_and_an_older_one_reads_it_off_the_pile() {
        let mut g = on_pile("sevens_and_eights", "9C 5H 5D");
        assert_eq!(g.rank_run.cards().collect::<Vec<_>>(), cards("5H 5D"));
        g.rank_run = RankRun::of_pile(&cards("5S 5H 5D"), &g.rules.deck);
        let mut s = g.snapshot();
        assert_eq!(s.rank_run, Some(cards("5S 5H 5D")));
        assert_eq!(Game::from_snapshot(s.clone()).unwrap().rank_run, g.rank_run);
        s.rank_run = None;
        assert_eq!(Game::from_snapshot(s.clone()).unwrap().rank_run.len(), 2);
        s.rank_run = Some(cards("5H"));
        let e = Game::from_snapshot(s).err().unwrap().to_string();
        assert!(e.contains("rank_run"), "{e}");
    }

    #[test]
    fn rules_without_four_of_a_kind_keep_no_run() {
        let g = on_pile("crazy_eights", "5H 5D");
        assert!(g.rank_run.is_empty());
        let mut s = g.snapshot();
        assert_eq!(s.rank_run, None);
        s.rank_run = Some(cards("5H 5D"));
        let e = Game::from_snapshot(s).err().unwrap().to_string();
        assert!(e.contains("end.four_of_a_kind"), "{e}");
    }
}
