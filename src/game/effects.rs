//! The effects of a placed card: collecting them into the turn, offering a continuation,
//! nominating, giving and asking before the play resolves.

use super::*;

impl Game {
    /// Collect the effects of placed card `c` into the turn.
    pub(super) fn record_effects(&mut self, c: Card) {
        if self.turn.cancelled && self.chain.active {
            // A cancel under top-only effects, now covered: it acts no more (see
            // `cancel_or_shield`); the pending chain stands, for `c` to answer.
            self.turn.cancelled = false;
        }
        if self.record_is_bare(c) {
            self.record_bare(c);
        } else {
            self.record_effects_general(c);
        }
    }

    /// Is `c` a card with no rule at all (`CardRule::default()`), no wild this hand (no
    /// `options.wild_instapik` move) and no `pure_wild` face, so that
    /// [`Game::record_bare`] records exactly what [`Game::record_effects_general`] would?
    #[inline]
    fn record_is_bare(&self, c: Card) -> bool {
        self.rules.default_mask & bit(c) != 0 && self.wild_rank.is_none() && self.rules.settings.pure_wild & bit(c) == 0
    }

    /// Under top-only effects, does placing a card clear the effects recorded before it?
    #[inline]
    pub(super) fn top_only(&self) -> bool {
        let in_run = matches!(self.turn.follow, Some((FollowState::SameSuitAny | FollowState::OneMatching, _)));
        match self.rules.settings.multi_effects {
            MultiEffects::TopOnly | MultiEffects::TopCardOnly => true,
            MultiEffects::TopOnlyInRuns => in_run,
            MultiEffects::CumulateAll => false,
        }
    }

    /// Top-only effects: a new card clears what the cards before it recorded (the chain's
    /// additions too unless `keep_chain`).
    #[inline]
    fn clear_for_top_only(t: &mut Turn, keep_chain: bool) {
        t.skips = 0;
        t.reverses = 0;
        if !keep_chain {
            t.chain_add = 0;
            t.chain_cards = 0;
        }
        t.waste_draw = 0;
        // Unanswerable draw penalties act wherever the card lies in a run (zodiac card).
        t.draw_keep = 0;
        t.restrict = Restrict::None;
        t.others_draw = 0;
        t.free_play_next = false;
        t.extra_turn = false;
        t.ace_skip = false;
    }

    /// [`Game::record_effects_general`] for a card without effects (see
    /// [`Game::record_is_bare`]): it only counts, and under top-only effects clears.
    fn record_bare(&mut self, c: Card) {
        let top_only = self.top_only();
        let t = &mut self.turn;
        t.last = Some(c);
        if top_only {
            // No chain rule on `c`: nothing keeps the chain's additions.
            Self::clear_for_top_only(t, false);
        }
        t.cards += 1;
        t.first.get_or_insert(c);
    }

    /// [`Game::record_effects`] for any card.
    pub(super) fn record_effects_general(&mut self, c: Card) {
        let r = &self.rules.card[c.index()];
        let strict = self.rules.settings.multi_effects == MultiEffects::TopCardOnly;
        let top_only = self.top_only();
        let mirror = r.mirror && self.chain.active && !self.turn.is_start;
        let prev_chain = self.turn.last.and_then(|l| self.rules.card[l.index()].chain);
        // Under top-only effects, draw cards directly on top of each other still add up (not
        // under `top_card_only`).
        let keep_chain = !strict && matches!((r.chain, prev_chain), (Some(a), Some(b)) if a.group == b.group);
        let pure_wild = self.rules.settings.pure_wild & bit(c) != 0 && self.own_wild(c, self.current as usize);
        let free_wild = self.card_wild(c).is_some_and(|w| w.follow == WildFollow::Free);
        let t = &mut self.turn;
        t.last = Some(c);
        if pure_wild {
            // bitch: a card that is the player's own wild acts only as a wild.
            t.cards += 1;
            t.first.get_or_insert(c);
            return;
        }
        if top_only {
            Self::clear_for_top_only(t, keep_chain);
        }
        let once = r.repeat == Repeat::Once;
        if r.skip > 0 {
            t.skips = if once { t.skips.max(r.skip) } else { t.skips + r.skip };
            if c.rank() == Some(crate::card::Rank::Ace) {
                t.ace_skip = true;
            }
        }
        if r.reverse {
            t.reverses = if once { 1 } else { t.reverses + 1 };
        }
        if r.pass_hands.is_some() {
            t.pass_hands = r.pass_hands;
        }
        if r.next_picture {
            t.restrict = Restrict::Picture;
        }
        if r.next_even {
            t.restrict = Restrict::Even;
        }
        // Saturating: a restored turn may hold any u16 amount already.
        t.draw_lose = t.draw_lose.saturating_add(r.draw_lose as u16);
        t.draw_keep = t.draw_keep.saturating_add(r.draw_keep as u16);
        t.others_draw = t.others_draw.saturating_add(r.others_draw as u16);
        t.waste_draw = t.waste_draw.saturating_add(r.waste_draw as u16);
        t.pick_up = t.pick_up.saturating_add(r.pick_up_pile as u16);
        if r.free_play_next || free_wild {
            t.free_play_next = true;
        }
        if r.extra_turn {
            t.extra_turn = true;
        }
        if mirror {
            // A mirroring card on a pending chain: each mirror reverses the direction; the chain stays.
            t.mirrors += 1;
            t.reverses += 1;
            t.answered = true;
        }
        t.cards += 1;
        t.first.get_or_insert(c);
        // `chain.needs_stock`: with nothing to draw, a draw card starts no penalty.
        let void = self.rules.settings.chain_needs_stock && !self.chain.active && !self.can_draw();
        if let Some(ch) = r.chain.filter(|_| !void) {
            self.record_chain(c, ch, once, strict);
        }
    }

    /// Draw-chain card `c` placed: it answers the pending chain (which grows by its rule), or
    /// starts or adds to the chain this turn will set.
    /// Under `strict` (`multi.effects = top_card_only`), or for a card that acts `once`, a
    /// second draw card of the same play adds nothing to the penalty: a play that already
    /// answered the pending chain adds no more (`chain_cards` is cleared by every card under
    /// top-only effects, so the turn's `answered` flag is what marks it).
    fn record_chain(&mut self, c: Card, ch: crate::rules::ChainRule, once: bool, strict: bool) {
        let t = &mut self.turn;
        // A card that acts once however many are played (`repeat = "once"`) adds nothing after
        // a card of the same play has answered the pending chain, as it adds nothing to a chain
        // it starts.
        let repeated = (strict || once) && t.answered;
        t.chain_cards += 1;
        if t.chain_cards >= 2 {
            if let Some(ma) = ch.multi_answer {
                t.multi_answer = Some(ma.into());
            }
        }
        if self.chain.active {
            // Answering a pending chain.
            t.answered = true;
            if repeated {
                return;
            }
            self.chain.amount = match ch.accumulate {
                Accumulate::Sum => self.chain.amount.saturating_add(ch.amount as u16),
                Accumulate::Increment => self.chain.amount.saturating_add(self.rules.settings.chain_increment as u16),
                Accumulate::Fixed => self.chain.amount.max(ch.amount as u16),
            };
            self.chain.answer = ch.answer.into();
        } else {
            let fixed = ch.accumulate == Accumulate::Fixed;
            t.chain_add = if (once || fixed) && t.chain_add > 0 {
                t.chain_add.max(ch.amount as u16)
            } else {
                t.chain_add + ch.amount as u16
            };
            t.chain_group = ch.group;
            t.chain_answer = ch.answer.into();
            t.chain_origin = Some(c);
        }
    }

    /// After placing `c`: offer a continuation, or finish the play.
    pub(super) fn after_placement(&mut self, c: Card) {
        let p = self.current as usize;
        let r = self.rules.card[c.index()];
        if self.turn.is_start {
            self.finish_play();
            return;
        }
        // Update the continuation source.
        let multi = self.rules.settings.multi_mode;
        self.turn.follow = match (r.follow, self.turn.follow) {
            _ if r.must_cover => Some((FollowState::Cover, c)),
            (_, Some((FollowState::Cover, _))) => None,
            (_, Some((FollowState::PairStart, _))) => Some((FollowState::PairMid, c)),
            (_, Some((FollowState::PairMid, src))) => {
                Some((if c.rank() == src.rank() { FollowState::PairMid } else { FollowState::PairStart }, c))
            }
            (_, Some((FollowState::ZodiacRun, src))) => Some((FollowState::ZodiacRun, src)),
            (_, None) if multi == MultiMode::PairsWithCover => Some((FollowState::PairStart, c)),
            (_, None) if multi == MultiMode::ZodiacRun => Some((FollowState::ZodiacRun, c)),
            (_, None) if multi == MultiMode::UpTo3OrAll => Some((FollowState::UpTo3, c)),
            (_, Some((FollowState::UpTo3, src))) => Some((FollowState::UpTo3, src)),
            (_, Some((FollowState::MatchingRun, src))) => Some((FollowState::MatchingRun, src)),
            (Some(Follow::SameSuitAny), Some((FollowState::SameSuitAny, src))) => {
                // Several sevens may lead a larby run: the last of them sets the suit.
                let lead = multi == MultiMode::EqualRank && c.rank() == src.rank() && self.turn_all_rank(src);
                Some((FollowState::SameSuitAny, if lead { c } else { src }))
            }
            (Some(Follow::SameSuitAny), _) => Some((FollowState::SameSuitAny, c)),
            (Some(Follow::OneMatching), _) => Some((FollowState::OneMatching, c)),
            (_, Some((FollowState::SameSuitAny, src))) => Some((FollowState::SameSuitAny, src)),
            (_, Some((FollowState::OneMatching, _))) => None,
            (_, Some((FollowState::EqualRank, src))) => Some((FollowState::EqualRank, src)),
            (_, Some((FollowState::Marriage, _))) => None,
            (_, None) if r.marriage && self.turn.cards == 1 => Some((FollowState::Marriage, c)),
            (_, None) if multi == MultiMode::MatchingRun => Some((FollowState::MatchingRun, c)),
            (_, None) => {
                let excluded = self.rules.settings.multi_excluded & bit(c) != 0;
                let ranked = c.rank().is_some() || self.rules.lock_mask & bit(c) != 0;
                (multi == MultiMode::EqualRank && ranked && !excluded).then_some((FollowState::EqualRank, c))
            }
        };
        let solo = self
            .wild_of(c, p)
            .is_some_and(|w| w.solo && !(w.also_normal && (self.turn.cards > 1 || self.turn.top_matched)));
        if self.hands[p].is_empty() || r.ends_turn || solo {
            self.finish_play();
            return;
        }
        let can_continue = self.turn.follow.is_some() && self.can_continue(self.hands[p].bits());
        if can_continue {
            self.phase = Phase::Continue;
        } else {
            if r.must_cover {
                // A card that must be covered (`must_cover`), with no cover card: the card stays and the player draws one.
                self.draw_cards(p, 1);
            }
            self.finish_play();
        }
    }

    /// The play is complete: nominate if the top card asks for it, then resolve.
    pub(super) fn finish_play(&mut self) {
        let p = self.current as usize;
        let top = self.discard.top().expect("a card was placed");
        let r = self.rules.card[top.index()];
        let mut going_out = self.hands[p].is_empty() && !self.turn.is_start;
        // Nomination: wilds only when played with their power; the countdown own wild always.
        let mode = self.nomination(top, p);
        let nominates = match mode {
            None => false,
            Some(m) => {
                let power = match self.wild_of(top, p) {
                    Some(w) => self.turn.is_start || (self.turn.wild_power && (!w.also_normal || self.turn.cards == 1)),
                    None => true,
                };
                power && (m != Nominate::OnlyIfMatching || (self.turn.top_matched && !self.turn.is_start))
            }
        };
        if going_out && self.rules.settings.countdown && !self.turn.redealt {
            // Countdown: going out lowers the score; at 0 the game is won, otherwise the
            // player is dealt that many new cards (`deal_countdown_hand`, once the card's own
            // decisions that need no hand are made) and play goes on.
            self.scores[p] -= 1;
            if self.scores[p] <= 0 {
                self.scores[p] = 0;
                self.end_hand(Some(p as u8), false);
                return;
            }
            self.turn.redealt = true;
            going_out = false;
        }
        if let Some(give) = r.give {
            if !self.turn.is_start && !self.turn.give_done {
                self.deal_countdown_hand(p);
                if going_out {
                    // Out with the give card itself: nothing to hand over. Played "as during the
                    // hand" (kings_reverse AS), every other player draws the card they would have got.
                    if r.last_special == LastSpecial::AsDuringHand {
                        self.others_draw(p as u8, 1);
                    }
                    self.end_hand(Some(p as u8), false);
                    return;
                }
                if self.hands[p].is_empty() {
                    // Out under countdown, and the empty stock dealt the new hand no card:
                    // there is nothing to hand over.
                    self.turn.give_done = true;
                } else {
                    self.turn.give_due = match give {
                        crate::rules::Give::EachOther => self.others_in_hand(p as u8),
                        crate::rules::Give::One => 1,
                    };
                    self.turn.gave = 0;
                    self.phase = Phase::Give;
                    return;
                }
            }
        }
        if !self.turn.is_start && !going_out && r.swap_hand && !self.turn.swap_done {
            self.deal_countdown_hand(p);
            self.phase = Phase::Target;
            return;
        }
        if !going_out && r.ask_rank && !self.turn.ask_done {
            self.deal_countdown_hand(p);
            // A start card asks too, the dealer asking (thirty_eights: "treated as if the
            // dealer played it").
            self.phase = Phase::Ask;
            return;
        }
        let nominates = nominates || (r.second_suit && !self.turn.is_start);
        // A card that ends the hand names no suit: going out, or the fourth of a rank in a row
        // (sevens_and_eights: "If he ends by playing a Jack [...] then nothing else happens").
        if nominates && !(going_out && self.ends_hand_on_out(top)) && !self.ends_on_four_of_a_kind() {
            self.phase = Phase::Nominate;
            if mode == Some(Nominate::OptionalKeepSuit) {
                // Until a suit is named, the suit in force before the card stands: `end`
                // leaves it (and the observation shows it meanwhile).
                self.nominated =
                    self.turn.kept_suit.and_then(|k| Suit::from_index(k as usize)).filter(|&s| top.suit() != Some(s));
            }
            return;
        }
        self.resolve_play();
    }

    /// The new hand of a countdown player who went out this turn (`turn.redealt`), dealt once:
    /// before a give, a swap or an ask, which act on hands, and otherwise when the play
    /// resolves, so that a wild's suit is named as the card is played, before its player sees
    /// the new cards (the source: "When a wild card is played, the player nominates a suit").
    /// A hand still empty was dealt nothing (an empty stock: dealing again deals nothing), unless
    /// its cards were given away (`gave`) or swapped.
    pub(super) fn deal_countdown_hand(&mut self, p: usize) {
        let k = self.countdown_cards_owed(p) as usize;
        if k > 0 {
            self.draw_cards(p, k);
        }
    }

    /// The cards a countdown player who went out this turn is still to be dealt (its score):
    /// the new hand waits for the suit of the wild it went out on (0 for anyone else, and once
    /// dealt).
    pub fn countdown_cards_owed(&self, p: usize) -> u32 {
        let t = &self.turn;
        let owed = p == self.current as usize && t.redealt && t.gave == 0 && !t.swap_done && self.hands[p].is_empty();
        if owed { self.scores[p].max(0) as u32 } else { 0 }
    }

    /// An ask card (`ask_rank`): the next player must play the asked card (`k`: rank index, 13 = QS, 14 = joker).
    pub(super) fn ask(&mut self, k: u8) {
        self.turn.ask_done = true;
        self.turn.restrict = Restrict::Ask(k);
        self.finish_play();
    }

    /// Hand `c` to the next recipient of a give card (`give`), in order of play.
    pub(super) fn give_card(&mut self, c: Card) {
        let p = self.current;
        let q = self.nth_in_hand(p, self.turn.gave as usize + 1) as usize;
        self.hands[p as usize].remove(c);
        self.forget_card(p as usize, c);
        self.hands[q].add(c);
        // Given face down: unseen by the table.
        self.void_took_unseen(q, 1);
        if let Some(s) = self.seen.as_deref_mut() {
            // The giver knows where the card went.
            s.bits[p as usize][q] |= bit(c);
        }
        self.turn.gave += 1;
        if self.hands[p as usize].is_empty() {
            let top = self.discard.top().expect("a card was placed");
            if self.rules.card[top.index()].last_special == LastSpecial::AsDuringHand {
                // kings_reverse AS, case 2: the players who got no card draw one each.
                for k in self.turn.gave as usize + 1..=self.turn.give_due as usize {
                    let r = self.nth_in_hand(p, k) as usize;
                    self.draw_cards(r, 1);
                }
            }
            self.end_hand(Some(p), false);
            return;
        }
        if self.turn.gave >= self.turn.give_due {
            self.turn.give_done = true;
            self.finish_play();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::derive_seed;

    /// Along random games of every preset (smallest and largest table), at every decision,
    /// recording each bare face (see `record_is_bare`) by the short path leaves exactly the
    /// state the general path leaves: the turn record and the whole snapshot.
    #[test]
    fn bare_records_leave_the_state_the_general_path_leaves() {
        let mut checked = 0;
        let mut top_only_checked = 0;
        for (preset, n, rules) in test_tables() {
            let mut g = Game::new(rules.clone(), derive_seed(13, n as u64));
            let mut bot = Xoshiro256PlusPlus::seed_from_u64(n as u64);
            let mut mask = ActionMask::default();
            let mut episode = 0;
            for step in 0..1500 {
                g.legal_actions(&mut mask);
                let Some(a) = random_pick(&mut bot, &mask) else {
                    episode += 1;
                    g.reset(derive_seed(13, episode), &[]).unwrap();
                    continue;
                };
                // A few faces per decision, in turn, keep the test short.
                for i in (step % 9..NUM_FACES).step_by(9) {
                    let c = Card(i as u8);
                    if !g.record_is_bare(c) {
                        continue;
                    }
                    let (mut bare, mut general) = (g.clone(), g.clone());
                    bare.record_bare(c);
                    general.record_effects_general(c);
                    assert_eq!(bare.turn, general.turn, "{preset} {n}p {c}");
                    assert_eq!(bare.snapshot(), general.snapshot(), "{preset} {n}p {c}");
                    checked += 1;
                    top_only_checked += usize::from(g.top_only());
                }
                g.apply(a);
            }
        }
        assert!(checked > 10_000, "only {checked} bare records checked");
        assert!(top_only_checked > 1_000, "only {top_only_checked} under top-only effects");
    }
}
