//! Hands of a match: dealing, hand values, the end of a hand, the match winner and the
//! returns.

use super::*;

/// The faces that count double when `last` is the last card played (`score.double_last_rank`):
/// the cards of its rank, every card after a joker, and under Double Trouble
/// (`score.double_trouble`) the cards of its group: 2 - 5, 6 - 9 or the face cards J, Q, K ("If
/// the last card played is a face card then all face cards count double"). A ten or an ace
/// has no group: "The doubling rules remain the same when the last card is a 10, Ace or Joker".
fn doubled_faces(last: Card, trouble: bool) -> u64 {
    let Some(r) = last.rank() else {
        return !0;
    };
    let (lo, hi) = match r.index() {
        1..=4 if trouble => (1, 4),
        5..=8 if trouble => (5, 8),
        10..=12 if trouble => (10, 12),
        i => (i, i),
    };
    (lo..=hi).fold(0, |m, i| m | RANK_BITS << i)
}

impl Game {
    pub(super) fn deal_hand(&mut self, prefix: &[Card]) {
        let r = self.rules.clone();
        if Game::tracks_seen(&r) {
            // A new hand: nothing seen yet (the box is kept across resets, no allocation).
            **self.seen.get_or_insert_with(Default::default) = SeenCards::default();
        }
        let n = self.n as usize;
        if r.settings.wild_instapik {
            self.wild_rank = Some(self.draw_wild_rank());
        }
        let mut pack = r.pack;
        shuffle(pack.as_mut_slice(), &mut self.rng);
        let cards = pack.as_mut_slice();
        for (k, &c) in prefix.iter().enumerate() {
            if let Some(j) = (k..cards.len()).find(|&j| cards[j] == c) {
                cards.swap(k, j);
            }
        }
        for h in self.hands.iter_mut() {
            h.clear();
        }
        let first_seat = (self.dealer as usize + 1) % n;
        // One card at a time round the table from the dealer's left: the `j`-th seat from
        // there gets cards `j`, `j + n`, `j + 2n`, ... of the pack.
        let mut idx = r.hand_size as usize * n;
        for j in 0..n {
            self.hands[(first_seat + j) % n].extend(cards[..idx].iter().skip(j).step_by(n).copied());
        }
        for _ in 0..r.settings.dealer_extra {
            self.hands[self.dealer as usize].add(cards[idx]);
            idx += 1;
        }
        self.rogue.clear();
        if r.rogue {
            idx = self.deal_rogue(cards, idx);
        }
        let lead = r.settings.lead;
        let start = cards[idx];
        if !lead {
            idx += 1;
        }
        // The first card after the deal is the first drawn: the top of the stock.
        self.stock.set_top_down(&cards[idx..]);
        self.discard.clear();
        self.rank_run = RankRun::default();
        self.nominated = None;
        self.direction = r.settings.initial_direction;
        self.chain = Chain::default();
        self.free_play = false;
        self.restrict = Restrict::None;
        self.turn = Turn::default();
        self.pass_streak = 0;
        self.plays = 0;
        self.done = 0;
        self.interlude = Interlude::default();
        self.kept.clear();
        self.challenge = None;
        self.missed = 0;
        self.declined = [0; MAX_PLAYERS];
        self.voids = [0; MAX_PLAYERS];
        self.went_out = None;
        self.placed = 0;
        self.hat = None;
        self.phase = Phase::Play;
        if lead {
            // deal.starter = none: no start card; the first player leads any card. With
            // order.first = previous_loser the previous hand's loser leads (the first hand of a
            // match, or a single hand, falls back to the dealer's choice: the dealer's left
            // clockwise, the dealer's right anticlockwise).
            self.current = match (r.settings.first_player, self.loser) {
                (crate::rules::FirstPlayer::PreviousLoser, Some(l)) => l,
                _ => self.advance(self.dealer, 1),
            };
            return;
        }
        self.turn_start_card(start);
    }

    /// zodiac's Wild Instapik, before the deal: "remove all J, Q, K and A cards and shuffle the
    /// deck. The dealer must "burn" the top card ... The next card dealt from the top of the
    /// deck is the assigned "wild card"." Its rank is uniform over 2 to 10 (four cards of each
    /// of the nine ranks, and the burnt card is unseen), so one draw of the game's generator
    /// picks it; all the cards then go back into the pack.
    pub(super) fn draw_wild_rank(&mut self) -> Rank {
        Rank::from_index(self.rng.random_range(1..10usize)).expect("ranks 2 to 10")
    }

    /// stalin: from the dealer's left, the first player holding a red card starts the rogue
    /// pile with their lowest red card; if nobody holds one, the first red card of the pack
    /// after the deal (`cards[idx..]`) is turned for it. Returns the index of the next card.
    fn deal_rogue(&mut self, cards: &mut [Card], mut idx: usize) -> usize {
        let n = self.n as usize;
        let first_seat = (self.dealer as usize + 1) % n;
        let from_hand = (0..n)
            .map(|k| (first_seat + k) % n)
            .find_map(|s| self.hands[s].faces().find(|c| c.is_red() && !c.is_joker()).map(|c| (s, c)));
        match from_hand {
            Some((s, c)) => {
                self.hands[s].remove(c);
                self.rogue.push(c);
            }
            None => {
                if let Some(j) = (idx..cards.len()).find(|&j| cards[j].is_red() && !cards[j].is_joker()) {
                    let c = cards[j];
                    cards[idx..=j].rotate_right(1);
                    self.rogue.push(c);
                    idx += 1;
                }
            }
        }
        idx
    }

    /// Turn the start card `start` (redrawn while its effect says so) and apply its effect.
    fn turn_start_card(&mut self, start: Card) {
        let r = self.rules.clone();
        let mut start = start;
        let mut guard = 0;
        while r.start[start.index()] == StartEffect::Redraw && guard < 64 {
            self.stock.push(start);
            shuffle(self.stock.as_mut_slice(), &mut self.rng);
            start = self.stock.pop().expect("stock holds the returned card");
            guard += 1;
        }
        self.put_on_pile(start);
        let first = self.advance(self.dealer, 1);
        match r.start[start.index()] {
            StartEffect::Ignore | StartEffect::Redraw => self.current = first,
            StartEffect::FreePlay => {
                self.free_play = true;
                self.current = first;
            }
            StartEffect::DealerNominatesBlind => {
                if self.card_nominate(start).is_some() {
                    self.nominated = Some(Suit::ALL[self.rng.random_range(0..4usize)]);
                }
                self.current = first;
            }
            StartEffect::AsPlayedByDealer => {
                self.current = self.dealer;
                self.turn.is_start = true;
                self.record_effects(start);
                if r.card[start.index()].must_cover {
                    self.start_cover(start);
                } else {
                    self.finish_play();
                }
            }
        }
    }

    /// A start card that must be covered (`must_cover`), as if the dealer played it: the
    /// dealer covers it as their own play (phase `continue`) or, holding no cover card, draws
    /// one; then the first player plays.
    fn start_cover(&mut self, start: Card) {
        let p = self.current as usize;
        self.turn.follow = Some((FollowState::Cover, start));
        if self.can_continue(self.hands[p].bits()) {
            self.turn.is_start = false;
            self.phase = Phase::Continue;
        } else {
            self.draw_cards(p, 1);
            self.finish_play();
        }
    }

    /// Hand value of seat `p` under the preset's values and modifiers.
    pub fn hand_value(&self, p: usize) -> i32 {
        let s = &self.rules.settings;
        let hand = &self.hands[p];
        if self.rules.double_mask == 0 && !s.halve_per_identical_pair && !s.double_last_rank {
            // No modifier: each face's value times its count.
            return hand.faces().map(|c| self.rules.points[c.index()] * i32::from(hand.count(c))).sum();
        }
        let doubled = match self.discard.top() {
            Some(l) if s.double_last_rank => doubled_faces(l, s.double_trouble),
            _ => 0,
        };
        let mut total = 0;
        let (mut doubles, mut halves) = (0u32, 0u32);
        // Face by face, each face's value times its count (the modifiers depend on the face).
        for c in hand.faces() {
            let k = hand.count(c);
            if self.rules.double_mask & bit(c) != 0 {
                doubles += u32::from(k);
            }
            if s.halve_per_identical_pair {
                halves += u32::from(k / 2);
            }
            let mut v = self.rules.points[c.index()];
            if doubled & bit(c) != 0 {
                v *= 2;
            }
            total += v * i32::from(k);
        }
        if doubles + halves > 0 {
            // Double per deuce, halve per identical pair, rounding down once at the end.
            let scaled = (total as i64) << doubles.min(30);
            total = (scaled >> halves.min(62)) as i32;
        }
        total
    }

    pub(super) fn end_hand(&mut self, winner: Option<u8>, blocked: bool) {
        let n = self.n as usize;
        // end.play_for_second: a hand blocked after the first player went out is still theirs.
        let winner = winner.or_else(|| self.finishing_order().first().copied());
        if let Some(w) = winner {
            self.place(w);
        }
        let s = self.rules.settings;
        let mut all_values = [0i32; MAX_PLAYERS];
        for (p, v) in all_values[..n].iter_mut().enumerate() {
            *v = self.hand_value(p);
        }
        let values = &all_values[..n];
        let mut pts = [0i32; MAX_PLAYERS];
        let lowest_unique = || {
            let min = *values.iter().min()?;
            unique_seat(values, |v| v == min)
        };
        let mut hand_winner = winner;
        match s.score_mode {
            ScoreMode::Penalty => {
                if winner.is_some() || s.score_blocked == BlockedScoring::AllScore {
                    pts[..n].copy_from_slice(values);
                }
                if blocked {
                    hand_winner = lowest_unique();
                }
            }
            ScoreMode::WinnerCollects | ScoreMode::PerCard => {
                let collector = match (winner, s.score_blocked) {
                    (Some(w), _) => Some(w),
                    (None, BlockedScoring::LowestCollects) => lowest_unique(),
                    _ => None,
                };
                if let Some(w) = collector {
                    pts[w as usize] = (0..n)
                        .filter(|&q| q != w as usize)
                        .map(
                            |q| if s.score_mode == ScoreMode::PerCard { self.hands[q].len() as i32 } else { values[q] },
                        )
                        .sum();
                    hand_winner = Some(w);
                }
            }
            ScoreMode::Countdown | ScoreMode::None => {}
        }
        if let Some(w) = hand_winner {
            pts[w as usize] = pts[w as usize].saturating_add(s.winner_bonus);
        }
        if let Some(h) = self.hat {
            pts[h as usize] -= 10;
        }
        for (score, pt) in self.scores[..n].iter_mut().zip(&pts[..n]) {
            *score = score.saturating_add(*pt);
        }
        self.hand_points = pts;
        self.hand_winner = hand_winner;
        self.hands_played = self.hands_played.saturating_add(1);
        self.next_hand_or_end(hand_winner);
    }

    /// After a hand: the match (or the single hand) ends with its winner, or the next dealer
    /// deals the next hand.
    fn next_hand_or_end(&mut self, hand_winner: Option<u8>) {
        let n = self.n as usize;
        if self.rules.settings.play_match {
            let sc = &self.scores[..n];
            let reached = match (self.rules.series_target, self.rules.settings.series_winner) {
                (None, _) => false,
                (Some(t), SeriesWinner::LastBelow) => sc.iter().filter(|&&x| x < t as i32).count() <= 1,
                (Some(t), _) => sc.iter().any(|&x| x >= t as i32),
            };
            let max_hands = self.rules.settings.max_hands.is_some_and(|m| self.hands_played >= m);
            // options.allow_500: reaching 500 wins at once; it is checked before the last-below
            // rule, so a hand that does both is won at 500.
            let at_500 = self.rules.settings.allow_500 && sc.iter().any(|&x| x >= crate::rules::ALLOW_500_SCORE);
            if at_500 {
                self.winner = self.highest_unique();
                self.finish();
            } else if reached || max_hands {
                self.winner = self.series_winner();
                self.finish();
            } else {
                self.loser = self.hand_loser(hand_winner);
                self.dealer = match self.rules.settings.next_dealer {
                    crate::rules::NextDealer::Clockwise => (self.dealer + 1) % self.n,
                    crate::rules::NextDealer::Winner => hand_winner.unwrap_or((self.dealer + 1) % self.n),
                    crate::rules::NextDealer::Fixed => self.dealer,
                };
                self.deal_hand(&[]);
            }
        } else {
            self.winner = hand_winner;
            self.finish();
        }
    }

    /// The loser of the hand just ended (`order.first = previous_loser`): the last place of
    /// the finishing order when it is complete (`end.play_for_second`), otherwise the player
    /// other than the winner holding the most cards, ties going to the first in turn order
    /// from the winner (from the dealer when there is no winner).
    pub(super) fn hand_loser(&self, winner: Option<u8>) -> Option<u8> {
        let n = self.n as usize;
        if self.placed as usize == n {
            return Some(self.places[n - 1]);
        }
        let from = winner.unwrap_or(self.dealer);
        let mut best: Option<(usize, u8)> = None;
        for k in 1..=n {
            let q = self.advance(from, k);
            if Some(q) == winner {
                continue;
            }
            let len = self.hands[q as usize].len();
            if best.is_none_or(|(b, _)| len > b) {
                best = Some((len, q));
            }
        }
        best.map(|(_, q)| q)
    }

    /// The seat with the strictly highest match total (`options.allow_500`), if unique.
    pub(super) fn highest_unique(&self) -> Option<u8> {
        let sc = &self.scores[..self.n as usize];
        let best = *sc.iter().max()?;
        unique_seat(sc, |v| v == best)
    }

    pub(super) fn series_winner(&self) -> Option<u8> {
        let sc = &self.scores[..self.n as usize];
        if let (SeriesWinner::LastBelow, Some(t)) = (self.rules.settings.series_winner, self.rules.series_target) {
            return unique_seat(sc, |v| v < t as i32);
        }
        let best = match self.rules.settings.series_winner {
            SeriesWinner::Lowest | SeriesWinner::LastBelow => *sc.iter().min()?,
            SeriesWinner::FirstToReach => *sc.iter().max()?,
        };
        unique_seat(sc, |v| v == best)
    }

    pub(super) fn finish(&mut self) {
        self.terminal = true;
        self.interlude = Interlude::default();
        self.kept.clear();
        self.challenge = None;
        self.phase = Phase::GameOver;
        self.turn = Turn::default();
        self.chain = Chain::default();
    }

    /// Returns per seat. `score == false`: win/loss, winner +1 and the others -1/(n-1), all 0
    /// without a winner or before the end; under `end.play_for_second` +1 / 0 / -1 for the
    /// first, second and third places (a hand blocked after the first place: +1, -1/2, -1/2). `score == true`: zero-sum points, see
    /// [`Game::score_returns`].
    pub fn returns(&self, out: &mut [f64], score: bool) {
        let n = self.n as usize;
        out[..n].fill(0.0);
        if !self.terminal {
            return;
        }
        if score && !matches!(self.rules.settings.score_mode, ScoreMode::None | ScoreMode::Countdown) {
            self.score_returns(out);
            return;
        }
        if self.for_second() && self.placed as usize == n {
            // end.play_for_second: the reward is the finishing order, +1 / 0 / -1.
            for (k, &p) in self.finishing_order().iter().enumerate() {
                out[p as usize] = 1.0 - k as f64;
            }
            return;
        }
        if let Some(w) = self.winner {
            for (p, o) in out[..n].iter_mut().enumerate() {
                *o = if p == w as usize { 1.0 } else { -1.0 / (n as f64 - 1.0) };
            }
        }
    }

    /// Zero-sum score returns: each player's episode points against the table mean, divided
    /// by 100 and signed so that higher is better (penalty points count against).
    pub fn score_returns(&self, out: &mut [f64]) {
        let n = self.n as usize;
        let sc = &self.scores[..n];
        let mean = sc.iter().map(|&x| x as f64).sum::<f64>() / n as f64;
        let sign = if self.rules.settings.score_mode == ScoreMode::Penalty { -1.0 } else { 1.0 };
        for p in 0..n {
            out[p] = sign * (sc[p] as f64 - mean) / 100.0;
        }
    }
}

/// The one seat whose value satisfies `pick` (the unique lowest, highest or last below a
/// target), or `None` when there is none or several.
fn unique_seat(values: &[i32], pick: impl Fn(i32) -> bool) -> Option<u8> {
    let mut it = values.iter().enumerate().filter(|(_, v)| pick(**v));
    let first = it.next()?.0;
    it.next().is_none().then_some(first as u8)
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
                assert_eq!(g.snapshot(), fresh.snapshot(), "{preset} {n}p");
                for o in 0..n {
                    assert_eq!(g.seen_cards(o), fresh.seen_cards(o), "{preset} {n}p");
                }
            }
        }
    }
}
