//! Read-only views of a game: getters for the state, the card count check and the text
//! rendering.

use super::*;

impl Game {
    /// The compiled rules.
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    pub fn num_players(&self) -> usize {
        self.n as usize
    }

    /// The player to decide, or `None` when the game is over or truncated.
    pub fn current_player(&self) -> Option<usize> {
        (!self.terminal && !self.truncated).then_some(self.current as usize)
    }

    pub fn phase(&self) -> Phase {
        if self.terminal { Phase::GameOver } else { self.phase }
    }

    pub fn hand(&self, p: usize) -> &CardCounts {
        &self.hands[p]
    }

    pub fn top_card(&self) -> Option<Card> {
        self.discard.top()
    }

    /// The suit the next play must follow: the nominated suit, else the suit of the card to
    /// match.
    pub fn active_suit(&self) -> Option<Suit> {
        self.nominated.or_else(|| self.match_card().and_then(Card::suit))
    }

    /// The card the next play is matched against: the top card, or for a transparent wild
    /// (one_card joker) the card under it. `None` on an empty pile (any card may be led).
    pub fn match_card(&self) -> Option<Card> {
        let top = self.discard.top()?;
        if self.rules.transparent_mask & bit(top) == 0 {
            return Some(top);
        }
        let mut k = 1;
        while let Some(c) = self.discard.from_top(k) {
            if self.rules.transparent_mask & bit(c) != 0 {
                k += 1;
                continue;
            }
            return Some(c);
        }
        None
    }

    pub fn nominated_suit(&self) -> Option<Suit> {
        self.nominated
    }

    /// Cards the player to act must draw if they accept the pending chain (0 if none).
    pub fn pending_draw(&self) -> u16 {
        if let Some(b) = self.challenge.filter(|_| self.phase == Phase::Challenge) {
            // Without a challenge the player to act takes the joker's penalty.
            b.amount
        } else if self.chain.active {
            self.chain.amount
        } else if self.interlude.kind == InterludeKind::MirrorThree && self.interlude.victim.is_some() {
            self.mirror_amount()
        } else {
            0
        }
    }

    /// The decisions outside the normal turn in progress (mirror window, keep choices).
    pub fn interlude(&self) -> &Interlude {
        &self.interlude
    }

    /// The joker awaiting the challenge decision, if any (`options.joker_bluff`).
    pub fn challenge(&self) -> Option<&Bluff> {
        self.challenge.as_ref()
    }

    /// Seats that miss their next turn, one bit per seat.
    pub fn missed(&self) -> u16 {
        self.missed
    }

    /// Cards kept so far by the player choosing in the `keep` phase.
    pub fn kept(&self) -> CardCounts {
        self.kept.counts()
    }

    pub fn chain(&self) -> &Chain {
        &self.chain
    }

    pub fn direction(&self) -> i8 {
        self.direction
    }

    pub fn stock(&self) -> &Pile {
        &self.stock
    }

    pub fn discard(&self) -> &Pile {
        &self.discard
    }

    /// Copies per face in the discard pile (kept in step with [`Game::discard`]).
    #[inline]
    pub fn discard_counts(&self) -> &CardCounts {
        self.discard.counts()
    }

    pub fn is_terminal(&self) -> bool {
        self.terminal
    }

    pub fn is_truncated(&self) -> bool {
        self.truncated
    }

    /// Winner of the episode (the match winner when playing a match).
    pub fn winner(&self) -> Option<usize> {
        self.winner.map(usize::from)
    }

    pub fn scores(&self) -> &[i32] {
        &self.scores[..self.n as usize]
    }

    pub fn hand_points(&self) -> &[i32] {
        &self.hand_points[..self.n as usize]
    }

    /// Seats in the order they went out in the current (or last) hand: the first place as
    /// soon as they are out, then, under `end.play_for_second`, the second and third places
    /// when the hand ends. Empty while nobody is out, and after a blocked hand without a winner.
    pub fn finishing_order(&self) -> &[u8] {
        &self.places[..self.placed as usize]
    }

    /// Seats out of the hand, one bit per seat (a final pass, or placed under
    /// `end.play_for_second`).
    pub fn out_of_hand(&self) -> u16 {
        self.done
    }

    pub fn dealer(&self) -> usize {
        self.dealer as usize
    }

    pub fn decisions(&self) -> u32 {
        self.decisions
    }

    /// Cards played so far in the hand in progress (what `end.max_plays` counts).
    pub fn plays(&self) -> u32 {
        self.plays
    }

    pub fn hands_played(&self) -> u32 {
        self.hands_played
    }

    pub fn free_play(&self) -> bool {
        self.free_play
    }

    /// The one-turn constraint on the player to act.
    pub fn restrict(&self) -> Restrict {
        self.restrict
    }

    pub fn turn(&self) -> &Turn {
        &self.turn
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The rogue pile, bottom to top.
    pub fn rogue(&self) -> &Pile {
        &self.rogue
    }

    /// The rank that is wild this hand under `options.wild_instapik` (zodiac's Wild Instapik:
    /// drawn before the deal, known to every player); `None` under every other rule set.
    pub fn wild_rank(&self) -> Option<Rank> {
        self.wild_rank
    }

    /// Per-face rule features of this hand, as [`Rules::features`], with the wild and
    /// nomination columns of the eights and the hand's wild rank swapped under
    /// `options.wild_instapik` (the same as [`Rules::features`] otherwise).
    pub fn rules_features(&self, out: &mut [f32]) {
        self.rules.features(out);
        if self.wild_rank.is_none() {
            return;
        }
        let w = crate::rules::RULE_FEATURES;
        for i in 0..NUM_FACES {
            let c = Card(i as u8);
            let src = self.wild_source(c);
            if src != c {
                let r = &self.rules.card[src.index()];
                out[i * w + 1] = f32::from(r.wild.is_some() as u8);
                out[i * w + 2] = f32::from(r.nominate.is_some() as u8);
            }
        }
    }

    /// A text picture of the table with suit symbols (every hand shown).
    pub fn render(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let n = self.n as usize;
        let _ = writeln!(
            s,
            "{} · {} players · hand {} · decision {}",
            self.rules.spec.name,
            n,
            self.hands_played + u32::from(!self.terminal),
            self.decisions
        );
        let top = self.discard.top().map_or("-".to_string(), |c| c.symbol());
        let suit = match (self.nominated, self.active_suit()) {
            (Some(x), _) => format!("  suit {} nominated", x.symbol()),
            _ => String::new(),
        };
        let _ = writeln!(
            s,
            "Top: {top}{suit}   Stock: {}   Discard: {}   Direction: {}",
            self.stock.len(),
            self.discard.len(),
            if self.direction > 0 { "clockwise" } else { "anticlockwise" }
        );
        if self.chain.active {
            let _ = writeln!(s, "Pending: draw {}", self.chain.amount);
        }
        if self.free_play {
            let _ = writeln!(s, "Free play: any card may be played");
        }
        for p in 0..n {
            let marker = if self.current_player() == Some(p) { "▶" } else { " " };
            let cards: Vec<String> = self.hands[p].iter().map(|c| c.symbol()).collect();
            let dealer = if p == self.dealer as usize { " (dealer)" } else { "" };
            let _ = writeln!(s, "{marker} P{p}{dealer} [{}]: {}", self.hands[p].len(), cards.join(" "));
        }
        if self.terminal {
            match self.winner {
                Some(w) => {
                    let _ = writeln!(s, "Game over: P{w} wins. Hand points: {:?}", self.hand_points());
                }
                None => {
                    let _ = writeln!(s, "Game over: no winner. Hand points: {:?}", self.hand_points());
                }
            }
        } else if self.truncated {
            let _ = writeln!(s, "Truncated at the decision limit");
        } else {
            let _ = writeln!(s, "P{} to act ({})", self.current, self.phase.name());
        }
        s
    }

    /// Every card of the deck is in exactly one place (hands, stock, discard pile).
    pub fn card_count(&self) -> CardCounts {
        let mut all = CardCounts::new();
        for p in 0..self.n as usize {
            for c in self.hands[p].iter() {
                all.add(c);
            }
        }
        for &c in self.stock.as_slice().iter().chain(self.discard.as_slice()).chain(self.rogue.as_slice()) {
            all.add(c);
        }
        all
    }
}
