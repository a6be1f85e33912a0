//! What may be played on what in a normal turn: matching the top card, wilds, locks, one-turn
//! constraints, stalin's rogue pile, and what answers, cancels, shields or mirrors a chain.

use super::*;

/// stalin arithmetic by rank index of the top card and of the card under it: the faces whose
/// spot value (A=1 … T=10) is the sum or the product of the two values; none where either is
/// a picture card.
const ARITHMETIC: [[u64; 13]; 13] = {
    let mut t = [[0u64; 13]; 13];
    let mut a = 0;
    while a < 10 {
        let mut b = 0;
        while b < 10 {
            let (x, y) = (a as u32 + 1, b as u32 + 1);
            let mut m = 0;
            if x + y <= 10 {
                m |= RANK_BITS << (x + y - 1);
            }
            if x * y <= 10 {
                m |= RANK_BITS << (x * y - 1);
            }
            t[a][b] = m;
            b += 1;
        }
        a += 1;
    }
    t
};

impl Game {
    /// Does `c` match the top card by suit (active suit) or rank?
    pub(super) fn matches_top(&self, c: Card) -> bool {
        let Some(top) = self.match_card() else {
            return true;
        };
        if self.rules.lock_mask & (bit(c) | bit(top)) != 0 {
            // A locking joker (`joker_lock`) goes only on a K, and only a K (of its colour) follows it.
            return self.lock_bits(top) & bit(c) != 0;
        }
        // The active suit (as `active_suit()`, without looking for the match card again).
        if let (Some(s), Some(a)) = (c.suit(), self.nominated.or_else(|| top.suit())) {
            if s == a {
                return true;
            }
        }
        if self.rules.arithmetic && Self::arithmetic(c, Some(top), self.discard.from_top(1)) {
            return true;
        }
        if self.rules.rank_blocked & bit(c) != 0 {
            return false;
        }
        if self.rank_closed() {
            // Countdown: after a wild only the called suit or the follower's own wild.
            return false;
        }
        match (c.rank(), top.rank()) {
            (Some(a), Some(b)) => a == b || (self.rules.settings.any_court && a.is_court() && b.is_court()),
            _ => false,
        }
    }

    /// After a wild, is matching by rank closed (only the nominated suit or the follower's own
    /// wild may follow: `match.after_wild = nominated_suit_or_own_wild`)?
    #[inline]
    pub(super) fn rank_closed(&self) -> bool {
        self.nominated.is_some() && self.rules.settings.rank_closed_after_wild
    }

    /// The faces of player `p`'s own countdown wild rank (as [`Game::own_wild`]), as a bitset.
    #[inline]
    pub(super) fn own_wild_bits(&self, p: usize) -> u64 {
        if !self.rules.settings.countdown {
            return 0;
        }
        match self.scores[p] {
            s @ 1..=13 => RANK_BITS << (s - 1),
            _ => 0,
        }
    }

    /// The faces [`Game::arithmetic`] allows on `top` with `under` below it, as a bitset:
    /// the spot ranks whose value is the sum or the product of the two cards' values.
    #[inline]
    pub(super) fn arithmetic_bits(top: Card, under: Option<Card>) -> u64 {
        match (top.rank(), under.and_then(Card::rank)) {
            (Some(a), Some(b)) => ARITHMETIC[a.index()][b.index()],
            _ => 0,
        }
    }

    /// Is `c` player `p`'s own countdown wild (rank = score; 1 = ace)?
    pub fn own_wild(&self, c: Card, p: usize) -> bool {
        self.rules.settings.countdown
            && self.scores[p] >= 1
            && c.rank().is_some_and(|r| r.index() as i32 == self.scores[p] - 1)
    }

    /// stalin arithmetic: a spot card whose value (A=1 … T=10) is the sum or product of the
    /// two top cards, none of the three being a picture card.
    #[inline]
    pub(super) fn arithmetic(c: Card, top: Option<Card>, under: Option<Card>) -> bool {
        top.is_some_and(|t| Self::arithmetic_bits(t, under) & bit(c) != 0)
    }

    /// May red card `c` go on stalin's rogue pile (suit, rank or arithmetic against its top)?
    pub(super) fn rogue_ok(&self, c: Card) -> bool {
        if !self.rules.rogue || !c.is_red() || c.is_joker() {
            return false;
        }
        let Some(top) = self.rogue.top() else { return true };
        c.suit() == top.suit()
            || c.rank() == top.rank()
            || (self.rules.arithmetic && Self::arithmetic(c, Some(top), self.rogue.from_top(1)))
    }

    /// The face whose wild rule and nomination `c` carries this hand. Under
    /// `options.wild_instapik` a card of the hand's wild rank carries the eight's of its suit
    /// and an eight carries that rank's (none: validation keeps the spot ranks other than 8
    /// free of wild rules); otherwise, and for every other card, `c` itself.
    #[inline]
    pub(super) fn wild_source(&self, c: Card) -> Card {
        if self.wild_rank.is_none() {
            return c;
        }
        match (self.wild_rank, c.rank(), c.suit()) {
            (Some(w), Some(r), Some(s)) if r == w => Card::new(s, Rank::Eight),
            (Some(w), Some(Rank::Eight), Some(s)) => Card::new(s, w),
            _ => c,
        }
    }

    /// The preset's wild rule of `c` this hand (see `Game::wild_source`).
    #[inline]
    pub fn card_wild(&self, c: Card) -> Option<WildRule> {
        self.rules.card[self.wild_source(c).index()].wild
    }

    /// The nomination `c` asks for this hand (see `Game::wild_source`).
    #[inline]
    pub fn card_nominate(&self, c: Card) -> Option<Nominate> {
        self.rules.card[self.wild_source(c).index()].nominate
    }

    /// The nomination `c` asks of its player `p`: a countdown player's own wild always
    /// nominates ("required"); any other card as its rules say.
    pub(super) fn nomination(&self, c: Card, p: usize) -> Option<Nominate> {
        if self.own_wild(c, p) { Some(Nominate::Required) } else { self.card_nominate(c) }
    }

    /// The faces with a wild rule this hand ([`crate::rules::Rules::wild_mask`] with the eights'
    /// bits moved to the hand's wild rank under `options.wild_instapik`), as a bitset.
    #[inline]
    pub(super) fn wild_bits(&self) -> u64 {
        let m = self.rules.wild_mask;
        let Some(w) = self.wild_rank else { return m };
        let (e, k) = (Rank::Eight.index(), w.index());
        let (eights, wilds) = (RANK_BITS << e, RANK_BITS << k);
        (m & !(eights | wilds)) | (((m & eights) >> e) << k) | (((m & wilds) >> k) << e)
    }

    /// The faces that are wild for player `p` this hand, as a bitset (bit `c` for face `c`):
    /// those with a wild rule ([`Game::card_wild`]) and the player's own countdown wild rank
    /// ([`Game::own_wild`]).
    #[inline]
    pub fn wild_faces(&self, p: usize) -> u64 {
        self.wild_bits() | self.own_wild_bits(p)
    }

    /// The wild behaviour of `c` for player `p`: the preset's, or the player's own countdown wild.
    pub fn wild_of(&self, c: Card, p: usize) -> Option<WildRule> {
        if self.own_wild(c, p) {
            return Some(WildRule {
                also_normal: false,
                requires_match: false,
                only_if_no_other: false,
                forbidden_on: 0,
                solo: false,
                follow: WildFollow::Normal,
            });
        }
        self.card_wild(c)
    }

    /// Does the card `top` bar the wild rule `w` (`wild.forbidden_on`; zodiac: "you can play a
    /// single 8 at any time ... (except for the Zodiac card)")? Not after a free play, and not
    /// while `top` is the start card turned up under `start.effect = "ignore"`, which nobody
    /// has covered yet (no card played this hand): such a card sets suit and rank only
    /// (zodiac: "its special properties DO NOT APPLY").
    #[inline]
    pub(super) fn wild_barred(&self, w: &WildRule, top: Option<Card>) -> bool {
        top.is_some_and(|t| {
            w.forbidden_on & bit(t) != 0
                && !self.free_play
                && !(self.plays == 0 && self.rules.start[t.index()] == StartEffect::Ignore)
        })
    }

    /// May `c` be played in a normal turn, ignoring `only_if_no_other`?
    pub(super) fn playable_basic(&self, c: Card) -> bool {
        self.playable_basic_by(c, self.current as usize)
    }

    /// [`Game::playable_basic`] for a card held by seat `p` (its own wilds), were `p` to act.
    pub(super) fn playable_basic_by(&self, c: Card, p: usize) -> bool {
        match self.restrict {
            Restrict::Picture => return c.rank().is_some_and(|r| r.is_court()),
            Restrict::Even => {
                let even = c.rank().is_some_and(|r| matches!(r.index(), 1 | 3 | 5 | 7 | 9));
                return even && self.matches_top(c);
            }
            Restrict::Suit(s) => {
                return c.suit().is_some_and(|x| x.index() == s as usize) || self.wild_of(c, p).is_some();
            }
            Restrict::Also(s) => {
                if c.suit().is_some_and(|x| x.index() == s as usize) {
                    return true;
                }
            }
            Restrict::Ask(k) => {
                return match k {
                    0..=12 => c.rank().is_some_and(|r| r.index() == k as usize),
                    13 => c == Card::new(Suit::Spades, crate::card::Rank::Queen),
                    _ => c.is_joker(),
                };
            }
            Restrict::None => {}
        }
        if let Some(w) = self.wild_of(c, p) {
            if self.wild_barred(&w, self.discard.top()) {
                return w.also_normal && self.matches_top(c);
            }
            if w.requires_match && !self.free_play {
                return self.matches_top(c);
            }
            return true;
        }
        self.free_play || self.matches_top(c)
    }

    /// May `c` (held by the player to act) be played in a normal turn?
    pub(super) fn playable(&self, c: Card) -> bool {
        if !self.playable_basic(c) {
            return false;
        }
        if let Some(w) = &self.wild_of(c, self.current as usize) {
            if w.only_if_no_other && !self.free_play {
                let hand = &self.hands[self.current as usize];
                return !hand.faces().any(|o| {
                    o != c && !self.card_wild(o).is_some_and(|w| w.only_if_no_other) && self.playable_basic(o)
                });
            }
        }
        true
    }

    pub(super) fn has_playable(&self) -> bool {
        self.playable_bits() != 0
    }

    /// The faces that match the top card (as [`Game::matches_top`]), as a bitset.
    pub(super) fn matching_bits(&self) -> u64 {
        let r = &*self.rules;
        match self.discard.top() {
            // The common case from tables: a top that is the card to match (not transparent),
            // not a locking joker, no arithmetic. The same bits as the general path below.
            Some(top) if (r.lock_mask | r.transparent_mask) & bit(top) == 0 && !r.arithmetic => {
                let i = top.index();
                match self.nominated {
                    None => r.match_suit[i] | r.match_rank[i],
                    Some(a) if r.settings.rank_closed_after_wild => SUIT_BITS << (13 * a.index()),
                    Some(a) => (SUIT_BITS << (13 * a.index())) | r.match_rank[i],
                }
            }
            _ => self.matching_bits_general(),
        }
    }

    /// [`Game::matching_bits`] for any top: transparent cards, locking jokers, arithmetic.
    #[inline(never)]
    fn matching_bits_general(&self) -> u64 {
        let Some(top) = self.match_card() else {
            return u64::MAX;
        };
        if self.rules.lock_mask & bit(top) != 0 {
            return self.lock_bits(top);
        }
        let mut m = 0;
        if let Some(a) = self.nominated.or_else(|| top.suit()) {
            m |= SUIT_BITS << (13 * a.index());
        }
        if self.rules.arithmetic {
            m |= Self::arithmetic_bits(top, self.discard.from_top(1));
        }
        if let Some(r) = top.rank().filter(|_| !self.rank_closed()) {
            let mut ranks = RANK_BITS << r.index();
            if self.rules.settings.any_court && r.is_court() {
                ranks |= COURT_BITS;
            }
            m |= ranks & !self.rules.rank_blocked;
            if r == crate::card::Rank::King {
                m |= self.rules.lock_mask;
            }
        }
        m
    }

    /// Matching around a locking joker (`joker_lock`): on a joker, the kings that may follow it (of the
    /// joker's colour when `deck.joker_colours_distinct`); on a king, the locking jokers too.
    pub(super) fn lock_bits(&self, top: Card) -> u64 {
        const KINGS: u64 = RANK_BITS << 12;
        // Suit order C, D, H, S: diamonds and hearts are red.
        const RED: u64 = (SUIT_BITS << 13) | (SUIT_BITS << 26);
        if self.rules.lock_mask & bit(top) != 0 {
            if !self.rules.settings.joker_colours_distinct {
                return KINGS;
            }
            return if top.is_red() { KINGS & RED } else { KINGS & !RED };
        }
        let mut m = 0;
        if let Some(r) = top.rank() {
            m |= RANK_BITS << r.index();
            if r == crate::card::Rank::King {
                m |= self.rules.lock_mask;
            }
        }
        if let Some(a) = self.active_suit() {
            m |= SUIT_BITS << (13 * a.index());
        }
        m
    }

    /// The faces held by the player to act that [`Game::playable`] allows, as a bitset
    /// (bit `i` = face `i`). Non-wild cards need only the matching bitset; wild cards, which
    /// have per-card conditions, are checked one by one.
    pub(super) fn playable_bits(&self) -> u64 {
        let held = self.hands[self.current as usize].bits();
        if self.restrict != Restrict::None {
            // One-turn constraints: check card by card.
            let mut out = 0u64;
            let mut x = held;
            while x != 0 {
                let i = x.trailing_zeros() as usize;
                x &= x - 1;
                if self.playable(Card(i as u8)) {
                    out |= 1 << i;
                }
            }
            return out;
        }
        // Cards with per-card conditions (the preset's wilds and, in countdown presets, the
        // player's own wild rank) are checked one by one; the others need only the matching
        // bitset.
        let own = self.own_wild_bits(self.current as usize);
        let wilds = self.wild_bits() | own;
        let plain = held & !wilds;
        let mut out = if self.free_play { plain } else { plain & self.matching_bits() };
        // Wilds without a condition (and the player's own countdown wild) go on anything; under
        // `options.wild_instapik` the wild faces move, so they take the card-by-card path.
        let free = own | if self.wild_rank.is_none() { self.rules.free_wild_mask } else { 0 };
        out |= held & free;
        let mut x = held & wilds & !free;
        if x != 0 && self.wild_rank.is_none() {
            // The conditional wilds: each one's own conditions card by card, then
            // `only_if_no_other` for the whole hand at once: such a wild is playable (outside
            // free play) only when no face other than those wilds is.
            let mut basic = 0;
            for c in crate::card_set::Faces::new(x) {
                if self.playable_basic(c) {
                    basic |= bit(c);
                }
            }
            let oino = self.rules.oino_wild_mask;
            if self.free_play {
                return out | basic;
            }
            let others = (out | basic) & !oino;
            out |= basic & !oino;
            if others == 0 {
                out |= basic & oino;
            }
            return out;
        }
        while x != 0 {
            let i = x.trailing_zeros() as usize;
            x &= x - 1;
            if self.playable(Card(i as u8)) {
                out |= 1 << i;
            }
        }
        out
    }

    /// May `c` answer or cancel the pending chain?
    pub(super) fn answers_chain(&self, c: Card) -> bool {
        let r = &self.rules.card[c.index()];
        if self.rules.settings.pure_wild & bit(c) != 0 && self.own_wild(c, self.current as usize) {
            // bitch: the player's own wild that acts only as a wild ("2 are pick up 2 unless you
            // are on 2's") is no draw card for that player, and a wild cannot go on a pending
            // chain. (It was played as an answer that added nothing: the chain passed on.)
            return false;
        }
        if let Some(s) = self.nominated {
            // A chain started by a wild draw card: only the called suit answers, or another
            // wild draw card of the chain's group (thirty_eights: "If several jokers are played
            // in succession, the cards to be drawn accumulate").
            let wild_answer = self.card_wild(c).is_some() && r.chain.is_some_and(|ch| ch.group == self.chain.group);
            if c.suit() != Some(s) && r.cancel == 0 && !wild_answer {
                return false;
            }
        }
        if r.cancel & (1u32 << self.chain.group) != 0 || self.shields_chain(c) {
            return true;
        }
        if r.mirror && self.mirrors_top(c) {
            return true;
        }
        match r.chain {
            Some(ch) => match self.chain.answer {
                ChainAnswerState::SameRank => ch.group == self.chain.group,
                ChainAnswerState::AnyDrawCard => true,
                ChainAnswerState::None => false,
            },
            None => false,
        }
    }

    /// Does `c` shield (`shield`) against the pending chain (its group, and the top card's suit when
    /// the shield must match it)?
    pub(super) fn shields_chain(&self, c: Card) -> bool {
        let r = &self.rules.card[c.index()];
        r.shield & (1u32 << self.chain.group) != 0
            && (!r.shield_same_suit || (c.suit().is_some() && c.suit() == self.discard.top().and_then(Card::suit)))
    }

    /// May mirroring card `c` (`mirror`) go on the top card of a pending chain? Directly on the chain
    /// card only with its suit; on a mirroring card, any mirror card.
    pub(super) fn mirrors_top(&self, c: Card) -> bool {
        let Some(top) = self.discard.top() else { return false };
        let t = &self.rules.card[top.index()];
        t.mirror || (t.chain.is_some() && c.suit().is_some() && c.suit() == top.suit())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::derive_seed;

    /// The arithmetic table agrees with the rule spelled out: for every card on every pair of
    /// top cards (jokers and pictures included), a spot card matches when its value is the sum
    /// or the product of the two values.
    #[test]
    fn arithmetic_table_agrees_with_the_rule() {
        let value = |x: Card| x.rank().filter(|r| !r.is_court()).map(|r| r.index() as u32 + 1);
        let mut hits = 0;
        for t in 0..NUM_FACES as u8 {
            for u in (0..NUM_FACES as u8).map(Some).chain([None]) {
                let (top, under) = (Card(t), u.map(Card));
                let mut want_bits = 0u64;
                for c in (0..NUM_FACES as u8).map(Card) {
                    let want = match (value(c), value(top), under.and_then(value)) {
                        (Some(v), Some(a), Some(b)) => v == a + b || v == a * b,
                        _ => false,
                    };
                    assert_eq!(Game::arithmetic(c, Some(top), under), want, "{c} on {top} over {under:?}");
                    assert!(!Game::arithmetic(c, None, under));
                    if want {
                        want_bits |= bit(c);
                        hits += 1;
                    }
                }
                assert_eq!(Game::arithmetic_bits(top, under), want_bits, "{top} over {under:?}");
            }
        }
        assert!(hits > 0);
    }

    /// Along random games of every preset (smallest and largest table), the bitset of
    /// playable faces is exactly the held faces `playable` accepts.
    #[test]
    fn playable_bits_agree_with_playable() {
        let mut checked = 0;
        for (preset, n, rules) in test_tables() {
            let mut g = Game::new(rules, derive_seed(9, n as u64));
            let mut bot = Xoshiro256PlusPlus::seed_from_u64(7 + n as u64);
            let mut mask = ActionMask::default();
            let mut episode = 0;
            for _ in 0..5000 {
                if !g.terminal && !g.truncated {
                    let held = g.hands[g.current as usize].bits();
                    let want =
                        crate::card_set::Faces::new(held).filter(|&c| g.playable(c)).fold(0u64, |m, c| m | bit(c));
                    assert_eq!(g.playable_bits(), want, "{preset} {n}p");
                    checked += 1;
                }
                random_step(&mut g, &mut bot, &mut mask, 9, &mut episode);
            }
        }
        assert!(checked > 100_000, "only {checked} positions checked");
    }

    /// Along random games of every preset (smallest and largest table), the matching bitset
    /// read from the rules' tables is the one the general path computes from the top card,
    /// nominated suits included.
    #[test]
    fn matching_tables_agree_with_the_general_path() {
        let (mut checked, mut nominated) = (0, 0);
        for (preset, n, rules) in test_tables() {
            let mut g = Game::new(rules, derive_seed(11, n as u64));
            let mut bot = Xoshiro256PlusPlus::seed_from_u64(13 + n as u64);
            let mut mask = ActionMask::default();
            let mut episode = 0;
            for _ in 0..5000 {
                assert_eq!(g.matching_bits(), g.matching_bits_general(), "{preset} {n}p");
                checked += 1;
                nominated += usize::from(g.nominated.is_some());
                random_step(&mut g, &mut bot, &mut mask, 11, &mut episode);
            }
        }
        assert!(checked > 100_000 && nominated > 1000, "{checked} positions, {nominated} with a suit nominated");
    }
}
