//! Stepping: checking and applying an action, and placing a card on the discard pile.

use super::*;

impl Game {
    /// Apply action `id` for the player to act. An illegal action returns an error and
    /// leaves the game unchanged.
    pub fn step(&mut self, id: usize) -> Result<(), GameError> {
        if self.terminal {
            return Err(GameError::GameOver(""));
        }
        if self.truncated {
            return Err(GameError::GameOver(" (truncated at the decision limit)"));
        }
        if id >= NUM_ACTIONS {
            return Err(GameError::OutOfRange(id as i64));
        }
        let mut mask = ActionMask::default();
        self.legal_actions(&mut mask);
        if !mask.contains(id) {
            return Err(self.illegal(id, &mask));
        }
        self.apply(id);
        Ok(())
    }

    pub(super) fn illegal(&self, id: usize, mask: &ActionMask) -> GameError {
        let legal: Vec<String> = mask.iter().filter_map(Action::from_id).map(|a| a.to_string()).collect();
        GameError::IllegalAction {
            action: Action::from_id(id).map_or_else(|| id.to_string(), |a| format!("'{a}' ({id})")),
            phase: self.phase().name(),
            player: self.current as usize,
            legal: legal.join(", "),
        }
    }

    /// Apply a legal action id (unchecked; [`Game::step`] checks).
    pub fn apply(&mut self, id: usize) {
        let action = Action::from_id(id).expect("legal ids decode");
        let window = self.interlude.kind == InterludeKind::MirrorThree;
        match action {
            Action::Play(c) if window => self.mirror_play(c),
            Action::Pass if window => self.mirror_pass(),
            Action::Accept if window => self.mirror_accept(),
            Action::Keep(c) => self.keep_card(c),
            Action::Play(c) => self.play_card(c),
            Action::Nominate(s) => {
                let top = self.discard.top().expect("a card was placed");
                if self.rules.card[top.index()].second_suit && !self.turn.is_start {
                    self.turn.restrict = Restrict::Also(s as u8);
                } else {
                    self.nominated = Some(s);
                }
                self.resolve_play();
            }
            Action::Target(k) => {
                // A swap card (`swap_hand`): swap hands with the seat k places clockwise.
                let p = self.current as usize;
                let q = (p + k as usize) % self.n as usize;
                self.hands.swap(p, q);
                self.declined.swap(p, q);
                self.voids.swap(p, q);
                let (hp, hq) = (face_bits(&self.hands[p]), face_bits(&self.hands[q]));
                if let Some(s) = self.seen.as_deref_mut() {
                    // Knowledge follows the hands; each of the two knows the hand it gave away.
                    for o in s.bits.iter_mut() {
                        o.swap(p, q);
                    }
                    s.bits[p][q] = hq;
                    s.bits[q][p] = hp;
                }
                self.turn.swap_done = true;
                self.finish_play();
            }
            Action::AskRank(r) => self.ask(r.index() as u8),
            Action::AskQueenOfSpades => self.ask(13),
            Action::AskJoker => self.ask(14),
            Action::EndTurn => match self.phase {
                Phase::Target => {
                    self.turn.swap_done = true;
                    self.finish_play();
                }
                Phase::Nominate => self.resolve_play(),
                _ => self.finish_play(),
            },
            Action::Draw => self.draw_action(),
            Action::Accept => self.accept(),
            Action::Pass => self.pass(),
            Action::Announce => self.turn.announced = true,
            Action::Give(c) => self.give_card(c),
            Action::Challenge => self.resolve_challenge(true),
            Action::NoChallenge => self.resolve_challenge(false),
        }
        // Saturating: a restored state may start anywhere below the limit of its type.
        self.decisions = self.decisions.saturating_add(1);
        let max = self.rules.settings.max_decisions;
        if !self.terminal && max > 0 && self.decisions >= max {
            self.truncated = true;
        }
    }

    pub(super) fn play_card(&mut self, c: Card) {
        if self.plain_play_applies(c) {
            self.play_plain(c);
        } else {
            self.play_general(c);
        }
    }

    /// Does the short path [`Game::play_plain`] give the same result as the general one for
    /// playing `c` now?
    #[inline]
    fn plain_play_applies(&self, c: Card) -> bool {
        let hand = &self.hands[self.current as usize];
        let s = &self.rules.settings;
        self.phase == Phase::Play
            && self.rules.plain_mask & bit(c) != 0
            && hand.len() >= 2
            && !self.chain.active
            && self.wild_rank.is_none()
            && self.turn.is_fresh()
            // `multi.identical_bonus`: a card identical to the top card is a play of its own.
            && !(s.identical_bonus && self.discard.top() == Some(c))
            // `multi.mode = equal_rank`: a card the player could follow with another of its
            // rank opens a continuation.
            && !(s.multi_mode == MultiMode::EqualRank
                && s.multi_excluded & bit(c) == 0
                && c.rank().is_some_and(|r| {
                    let others = hand.bits() & !bit(c) | if hand.count(c) > 1 { bit(c) } else { 0 };
                    others & (RANK_BITS << r.index()) & !self.rules.solo_wild_mask != 0
                }))
    }

    /// Place `c` and carry out everything it and the rules make of the play.
    fn play_general(&mut self, c: Card) {
        let p = self.current as usize;
        let phase = self.phase;
        let matched = phase != Phase::Chain && self.matches_top(c);
        // With no one-turn constraint, no free play and no wild rule on `c`, `playable(c)` is
        // `matches_top(c)`, which `matched` already holds.
        let rogue = self.rules.rogue && phase == Phase::Play && {
            let plainly = self.restrict == Restrict::None && !self.free_play && self.wild_of(c, p).is_none();
            !(if plainly { matched } else { self.playable(c) })
        };
        if rogue {
            // stalin: the card goes on the rogue pile, which ends the play.
            self.hands[p].remove(c);
            self.forget_card(p, c);
            self.void_played(p, c);
            self.rogue.push(c);
            self.pass_streak = 0;
            self.turn.cards += 1;
            let r = self.rules.card[c.index()];
            if r.reverse {
                self.turn.reverses += 1;
            }
            self.resolve_card(c);
            return;
        }
        let shields = phase == Phase::Chain && self.shields_chain(c);
        let prev_top = self.discard.top();
        let wild_power = self
            .wild_of(c, p)
            .is_some_and(|w| !(self.wild_barred(&w, prev_top) || (w.also_normal && self.turn.cards > 0)));
        self.turn.wild_power = wild_power;
        // options.joker_bluff: a joker that is normally playable only without another playable
        // card; record whether it was legal for a challenge.
        self.turn.bluff = (phase == Phase::Play && self.rules.settings.joker_bluff)
            .then(|| self.wild_of(c, p))
            .flatten()
            .filter(|w| w.only_if_no_other)
            .map(|_| Bluff {
                by: p as u8,
                legal: self.playable(c),
                amount: 0,
                prev_nominated: self.nominated.map(|s| s as u8),
                prev_free_play: self.free_play,
                prev_restrict: self.restrict,
            });
        self.turn.identical = self.rules.settings.identical_bonus && prev_top == Some(c);
        self.turn.kept_suit = match self.card_nominate(c) {
            Some(Nominate::OptionalKeepSuit) => self.active_suit().map(|s| s as u8),
            _ => None,
        };
        if self.place_from_hand(p, c) {
            return;
        }
        self.nominated = None;
        self.pass_streak = 0;
        self.free_play = false;
        self.turn.top_matched = matched;
        // A cancelling card acts on a pending chain whether it answers it or follows an answer
        // in the same play (blackjack_forum_house: JS then JH on a pending two).
        let on_chain = phase == Phase::Chain || (phase == Phase::Continue && self.chain.active);
        if on_chain && self.cancel_or_shield(c, shields) {
            return;
        }
        self.record_effects(c);
        self.after_placement(c);
    }

    /// `p` places `c` from their hand on the discard pile (the steps the general and the plain
    /// path share). Returns true if the cap on plays (`end.max_plays`) ended the hand there:
    /// then everyone scores their cards, and `p` wins only if that was their last card.
    fn place_from_hand(&mut self, p: usize, c: Card) -> bool {
        self.restrict = Restrict::None;
        self.hands[p].remove(c);
        self.forget_card(p, c);
        self.clear_declined(p, c);
        self.void_played(p, c);
        self.discard.push(c);
        self.plays += 1;
        if self.rules.settings.max_plays.is_some_and(|m| self.plays >= m) {
            let out = self.hands[p].is_empty().then_some(p as u8);
            self.end_hand(out, out.is_none());
            return true;
        }
        self.count_into_run(c);
        false
    }

    /// A plain card (see [`crate::rules::Rules::plain_mask`]) played at the start of a turn,
    /// with no chain pending, by a player who keeps at least one card: the steps of the
    /// general path (`play_card`, `record_effects`, `after_placement`, `finish_play`,
    /// `resolve_play`) that do anything for such a card, in the same order. The card has no
    /// wild rule, nomination, continuation, draw, skip, give, swap or ask; nobody goes out; the
    /// turn's record, which the general path fills and then resets, stays at its default. Under
    /// `multi.mode = equal_rank` the player holds no other card of its rank (no continuation).
    fn play_plain(&mut self, c: Card) {
        let p = self.current as usize;
        if self.place_from_hand(p, c) {
            return;
        }
        self.nominated = None;
        self.pass_streak = 0;
        self.free_play = false;
        // resolve_play: the last-card penalty, then the turn passes to the next seat still in.
        self.last_card_penalty(p, false, 0);
        let next = self.skip_done(self.step_in(p as u8, 1));
        self.current = next;
        self.phase = Phase::Play;
        self.begin_turn();
    }

    /// `c` placed on a pending chain: a shield that passes the chain on, or a cancelling or
    /// shielding card that ends it (nobody draws, the card does not attack). Returns whether
    /// the card was one of those (its placement is then complete).
    fn cancel_or_shield(&mut self, c: Card, shields: bool) -> bool {
        let r = self.rules.card[c.index()];
        let group = 1u32 << self.chain.group;
        let cancels = r.cancel & group != 0 && r.chain.is_none_or(|ch| ch.group != self.chain.group);
        if !shields && !cancels {
            return false;
        }
        if shields && r.shield_through && !cancels {
            // A pass-through shield: the player is shielded; the chain, unchanged, moves on to
            // the next player. The card has no other effect.
        } else if cancels && !shields && self.top_only() {
            // Under top-only effects a cancel acts only if it stays on top: the chain stands
            // until the play ends (`settle_chain` ends it then), and a card of the same play
            // placed on this one takes the cancel back (`record_effects`).
            self.turn.cancelled = true;
        } else {
            // A cancel or a shield: the chain ends, nobody draws, the card does not attack.
            if shields && self.rules.settings.chain_after == crate::rules::ChainAfter::AttackSuitOnly {
                if let Some(s) = self.chain.origin.and_then(Card::suit) {
                    self.turn.restrict = Restrict::Suit(s as u8);
                }
            }
            self.chain = Chain::default();
            self.turn.cancelled = true;
            // A chain this play answered is gone with it: a draw card laid after the cancel
            // starts a new one (cumulative effects: JS, JH, JC on a pending two make 5).
            self.turn.answered = false;
            self.turn.chain_cards = 0;
            self.turn.multi_answer = None;
        }
        self.turn.cards += 1;
        self.turn.first.get_or_insert(c);
        self.after_placement(c);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::derive_seed;

    /// Along random games of every preset (smallest and largest table), each play that takes
    /// the short path leaves exactly the state the general path leaves: the whole snapshot
    /// (piles in order, generator, turn, scores, ...) and what every seat has seen.
    #[test]
    fn plain_plays_leave_the_state_the_general_path_leaves() {
        let mut checked = 0;
        let mut presets_with_plain = 0;
        for (preset, n, rules) in test_tables() {
            presets_with_plain += usize::from(rules.plain_mask != 0);
            let mut g = Game::new(rules.clone(), derive_seed(11, n as u64));
            let mut bot = Xoshiro256PlusPlus::seed_from_u64(n as u64);
            let mut mask = ActionMask::default();
            let mut episode = 0;
            for _ in 0..4000 {
                g.legal_actions(&mut mask);
                let Some(a) = random_pick(&mut bot, &mask) else {
                    episode += 1;
                    g.reset(derive_seed(11, episode), &[]).unwrap();
                    continue;
                };
                match Action::from_id(a) {
                    Some(Action::Play(c)) if g.interlude.kind == InterludeKind::None && g.plain_play_applies(c) => {
                        let mut general = g.clone();
                        general.play_general(c);
                        g.play_plain(c);
                        assert_eq!(g.snapshot(), general.snapshot(), "{preset} {n}p");
                        for o in 0..n {
                            assert_eq!(g.seen_cards(o), general.seen_cards(o), "{preset} {n}p");
                        }
                        checked += 1;
                    }
                    _ => g.apply(a),
                }
            }
        }
        assert!(presets_with_plain >= 10, "the short path applies to few rule sets: {presets_with_plain}");
        assert!(checked > 10_000, "only {checked} plain plays checked");
    }
}
