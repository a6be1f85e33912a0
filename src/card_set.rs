//! Multisets and piles of cards, with no heap allocation.
//!
//! * [`CardCounts`]: a hand or any unordered multiset, stored as one count per face
//!   (`[u8; 54]`) plus the total, so decks of several packs need no special case, and the
//!   set of faces held as a 64-bit mask kept in step with the counts (bit `i` = face `i`).
//! * [`Pile`]: an ordered stack (stock or discard pile) in a fixed-capacity array.
//!   Index 0 is the bottom; the last element is the top (the next card drawn from a
//!   stock, the card to follow on a discard pile).
//! * [`CountedPile`]: a [`Pile`] that also keeps its [`CardCounts`] in step, for the discard
//!   pile, whose copies per face every observation shows.

use crate::card::{Card, NUM_FACES};

/// Most cards any supported deck holds: four packs with two jokers each.
pub const MAX_CARDS: usize = 216;

/// The chunks in which `rand`'s slice shuffle (0.10, `IncreasingUniform`) draws its swap
/// indices: from position `i = 1` on, one value `random_range(..bound)` yields the indices of
/// the next `count` positions (mixed radix `i + 1, i + 2, ...`, the last position taking what
/// is left). The schedule depends only on the positions, so it is computed once, here,
/// instead of on every shuffle.
const SHUFFLE_CHUNKS: [(u32, u8); shuffle_chunk_count()] = shuffle_chunks();

const fn shuffle_chunk(m: u32) -> (u32, u8) {
    let mut product = m;
    let mut current = m + 1;
    loop {
        match product.checked_mul(current) {
            Some(p) => {
                product = p;
                current += 1;
            }
            None => return (product, (current - m) as u8),
        }
    }
}

const fn shuffle_chunk_count() -> usize {
    let (mut m, mut k) = (2u32, 0);
    while m as usize <= MAX_CARDS {
        m += shuffle_chunk(m).1 as u32;
        k += 1;
    }
    k
}

const fn shuffle_chunks() -> [(u32, u8); shuffle_chunk_count()] {
    let mut out = [(0, 0); shuffle_chunk_count()];
    let (mut m, mut k) = (2u32, 0);
    while k < out.len() {
        out[k] = shuffle_chunk(m);
        m += out[k].1 as u32;
        k += 1;
    }
    out
}

/// Shuffle `v` with exactly the draws and swaps of `rand::seq::SliceRandom::shuffle`, so the
/// same generator gives the same permutation (a test compares the two at every length up to
/// [`MAX_CARDS`]), at less cost: the chunk schedule comes from a table rather than being
/// worked out with a loop of checked multiplications per chunk. Longer slices use `rand`'s.
pub fn shuffle<T, R: rand::Rng + ?Sized>(v: &mut [T], rng: &mut R) {
    use rand::RngExt;
    let len = v.len();
    if len > MAX_CARDS {
        rand::seq::SliceRandom::shuffle(v, rng);
        return;
    }
    // Position 0 swaps with itself and draws nothing.
    let mut i = 1;
    for &(bound, count) in SHUFFLE_CHUNKS.iter() {
        if i >= len {
            break;
        }
        let mut chunk: u32 = rng.random_range(..bound);
        let last = i + count as usize - 1;
        while i < last.min(len) {
            let d = i as u32 + 1;
            v.swap(i, (chunk % d) as usize);
            chunk /= d;
            i += 1;
        }
        if i == last && i < len {
            v.swap(i, chunk as usize);
            i += 1;
        }
    }
}

/// A multiset of cards: a count per face. It fills one 64-byte cache line exactly and is
/// aligned to one, so reading a hand touches a single line.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct CardCounts {
    counts: [u8; NUM_FACES],
    total: u16,
    /// Bit `i` set iff `counts[i] > 0`.
    bits: u64,
}

impl Default for CardCounts {
    fn default() -> Self {
        CardCounts { counts: [0; NUM_FACES], total: 0, bits: 0 }
    }
}

impl CardCounts {
    /// The empty multiset.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many copies of `c` are held.
    #[inline]
    pub fn count(&self, c: Card) -> u8 {
        self.counts[c.index()]
    }

    /// Number of cards in the multiset.
    #[inline]
    pub fn len(&self) -> usize {
        self.total as usize
    }

    /// True when empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// True when at least one copy of `c` is held.
    #[inline]
    pub fn contains(&self, c: Card) -> bool {
        self.bits & (1 << c.index()) != 0
    }

    /// The faces held, as a bitset (bit `i` = face `i`, whatever its count).
    #[inline]
    pub fn bits(&self) -> u64 {
        self.bits
    }

    /// Copies held of the faces in the bitset `mask` (bit `i` = face `i`).
    #[inline]
    pub fn count_in(&self, mask: u64) -> u32 {
        Faces(self.bits & mask).map(|c| u32::from(self.counts[c.index()])).sum()
    }

    /// Add one copy of `c`.
    #[inline]
    pub fn add(&mut self, c: Card) {
        self.counts[c.index()] += 1;
        self.total += 1;
        self.bits |= 1 << c.index();
    }

    /// Remove one copy of `c`; returns false (and changes nothing) if none is held.
    #[inline]
    pub fn remove(&mut self, c: Card) -> bool {
        let k = &mut self.counts[c.index()];
        if *k == 0 {
            return false;
        }
        *k -= 1;
        self.total -= 1;
        if *k == 0 {
            self.bits &= !(1 << c.index());
        }
        true
    }

    /// Remove everything.
    pub fn clear(&mut self) {
        *self = Self::default();
    }

    /// The per-face counts.
    pub fn counts(&self) -> &[u8; NUM_FACES] {
        &self.counts
    }

    /// Distinct faces held, in index order (each face once, whatever its count).
    #[inline]
    pub fn faces(&self) -> Faces {
        Faces(self.bits)
    }

    /// Every copy, in index order.
    pub fn iter(&self) -> impl Iterator<Item = Card> + '_ {
        self.faces().flat_map(move |c| std::iter::repeat_n(c, self.counts[c.index()] as usize))
    }
}

/// The faces of a bitset in index order (see [`CardCounts::faces`]).
#[derive(Clone, Copy, Debug)]
pub struct Faces(u64);

impl Faces {
    /// The faces whose bits are set in `bits` (bit `i` = face `i`).
    #[inline]
    pub fn new(bits: u64) -> Self {
        Faces(bits)
    }
}

impl Iterator for Faces {
    type Item = Card;

    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Card(i as u8))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let k = self.0.count_ones() as usize;
        (k, Some(k))
    }
}

impl std::fmt::Debug for CardCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl FromIterator<Card> for CardCounts {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        let mut c = CardCounts::new();
        c.extend(iter);
        c
    }
}

/// Add every card of the iterator (a hand dealt at once: the total and the face bits are
/// written once at the end rather than per card).
impl Extend<Card> for CardCounts {
    fn extend<I: IntoIterator<Item = Card>>(&mut self, iter: I) {
        let (mut bits, mut total) = (0u64, self.total);
        for c in iter {
            self.counts[c.index()] += 1;
            bits |= 1 << c.index();
            total += 1;
        }
        self.total = total;
        self.bits |= bits;
    }
}

/// An ordered pile of at most [`MAX_CARDS`] cards; the last card is the top.
#[derive(Clone, Copy)]
#[repr(C)]
pub struct Pile {
    /// First, so the length and the bottom cards share a cache line.
    len: u16,
    cards: [Card; MAX_CARDS],
}

impl Default for Pile {
    fn default() -> Self {
        Pile { cards: [Card(0); MAX_CARDS], len: 0 }
    }
}

impl PartialEq for Pile {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl std::fmt::Debug for Pile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl Pile {
    /// An empty pile.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of cards.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// True when empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Put `c` on top. Panics only if more than [`MAX_CARDS`] cards are stacked, which the
    /// deck size validation rules out.
    #[inline]
    pub fn push(&mut self, c: Card) {
        self.cards[self.len as usize] = c;
        self.len += 1;
    }

    /// Take the top card.
    #[inline]
    pub fn pop(&mut self) -> Option<Card> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.cards[self.len as usize])
    }

    /// The top card.
    #[inline]
    pub fn top(&self) -> Option<Card> {
        self.cards.get((self.len as usize).wrapping_sub(1)).copied()
    }

    /// The card `k` places below the top (`0` is the top).
    pub fn from_top(&self, k: usize) -> Option<Card> {
        self.len().checked_sub(k + 1).map(|i| self.cards[i])
    }

    /// Cards bottom to top.
    #[inline]
    pub fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    /// Mutable cards bottom to top.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Card] {
        &mut self.cards[..self.len as usize]
    }

    /// Remove every card.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keep only the bottom `n` cards.
    pub fn truncate(&mut self, n: usize) {
        self.len = self.len.min(n as u16);
    }

    /// Replace the contents with every copy of `counts`, in face order (one pass, the length
    /// written once).
    pub fn set_from_counts(&mut self, counts: &CardCounts) {
        let mut len = 0;
        for c in counts.faces() {
            let k = counts.count(c) as usize;
            self.cards[len..len + k].fill(c);
            len += k;
        }
        self.len = len as u16;
    }

    /// Replace the contents with `cards` listed top to bottom (the first is the new top).
    pub fn set_top_down(&mut self, cards: &[Card]) {
        let dst = &mut self.cards[..cards.len()];
        for (d, &c) in dst.iter_mut().rev().zip(cards) {
            *d = c;
        }
        self.len = cards.len() as u16;
    }

    /// Put `cards` on top, bottom first (as many [`Pile::push`]es).
    pub fn extend_from_slice(&mut self, cards: &[Card]) {
        let at = self.len as usize;
        self.cards[at..at + cards.len()].copy_from_slice(cards);
        self.len += cards.len() as u16;
    }

    /// Build a pile from cards listed bottom to top.
    pub fn from_bottom_up(cards: &[Card]) -> Self {
        let mut p = Pile::new();
        for &c in cards {
            p.push(c);
        }
        p
    }
}

/// A [`Pile`] with its copies per face kept in step ([`CountedPile::counts`]), so readers
/// of the per-face contents (the observation's `played` slice) need not walk the cards.
/// It reads as a [`Pile`] (`Deref`); every change goes through its own methods, which keep
/// the counts exact, and a shuffle only reorders the cards.
#[derive(Clone, Copy, Default, PartialEq)]
#[repr(C)]
pub struct CountedPile {
    counts: CardCounts,
    pile: Pile,
}

impl std::ops::Deref for CountedPile {
    type Target = Pile;
    #[inline]
    fn deref(&self) -> &Pile {
        &self.pile
    }
}

impl std::fmt::Debug for CountedPile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.pile.fmt(f)
    }
}

impl CountedPile {
    /// An empty pile.
    pub fn new() -> Self {
        Self::default()
    }

    /// A pile of `cards` listed bottom to top.
    pub fn from_bottom_up(cards: &[Card]) -> Self {
        CountedPile { pile: Pile::from_bottom_up(cards), counts: cards.iter().copied().collect() }
    }

    /// Copies per face of the cards in the pile.
    #[inline]
    pub fn counts(&self) -> &CardCounts {
        &self.counts
    }

    /// Put `c` on top ([`Pile::push`]).
    #[inline]
    pub fn push(&mut self, c: Card) {
        self.pile.push(c);
        self.counts.add(c);
    }

    /// Take the top card.
    #[inline]
    pub fn pop(&mut self) -> Option<Card> {
        let c = self.pile.pop()?;
        self.counts.remove(c);
        Some(c)
    }

    /// Remove every card.
    pub fn clear(&mut self) {
        self.pile.clear();
        self.counts.clear();
    }

    /// Put the cards in a random order drawn from `rng` (exactly as shuffling
    /// [`Pile::as_mut_slice`] would); the counts do not change.
    pub fn shuffle<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) {
        shuffle(self.pile.as_mut_slice(), rng);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::{Rank, Suit};

    #[test]
    fn count_in_counts_every_copy_of_the_masked_faces() {
        let hand: CardCounts =
            ["3C", "3C", "KC", "3H", "RJ", "AS"].iter().map(|s| s.parse::<Card>().unwrap()).collect();
        assert_eq!(hand.count_in(Suit::Clubs.bits()), 3, "3C twice and KC");
        assert_eq!(hand.count_in(Rank::Three.bits()), 3, "3C twice and 3H");
        assert_eq!(hand.count_in(Suit::Diamonds.bits()), 0);
        assert_eq!(hand.count_in(u64::MAX), 6);
        assert_eq!(hand.count_in(1 << 52), 1, "the red joker");
    }

    #[test]
    fn suit_and_rank_bits_are_their_faces() {
        for su in Suit::ALL {
            let faces: Vec<Card> = Faces::new(su.bits()).collect();
            assert_eq!(faces, Rank::ALL.map(|r| Card::new(su, r)));
        }
        for r in Rank::ALL {
            let faces: Vec<Card> = Faces::new(r.bits()).collect();
            assert_eq!(faces, Suit::ALL.map(|su| Card::new(su, r)));
        }
    }

    #[test]
    fn extend_is_adding_one_card_at_a_time() {
        let first: Vec<Card> = ["3C", "KS"].iter().map(|s| s.parse().unwrap()).collect();
        let more: Vec<Card> = ["3C", "RJ", "AH", "KS", "KS", "BJ"].iter().map(|s| s.parse().unwrap()).collect();
        let mut one_by_one = CardCounts::new();
        for &c in first.iter().chain(&more) {
            one_by_one.add(c);
        }
        let mut extended: CardCounts = first.iter().copied().collect();
        extended.extend(more.iter().copied());
        assert_eq!(extended, one_by_one);
        assert_eq!((extended.len(), extended.count(more[3])), (8, 3));
        assert_eq!(extended.bits().count_ones(), 5, "3C, KS, RJ, AH, BJ");
        extended.extend(std::iter::empty());
        assert_eq!(extended, one_by_one);
    }

    #[test]
    fn counts_track_copies_and_total() {
        let c8h: Card = "8H".parse().unwrap();
        let mut h = CardCounts::new();
        h.add(c8h);
        h.add(c8h);
        assert_eq!(h.count(c8h), 2);
        assert_eq!(h.len(), 2);
        assert!(h.remove(c8h));
        assert!(h.remove(c8h));
        assert!(!h.remove(c8h));
        assert!(h.is_empty());
    }

    #[test]
    fn face_bits_follow_the_counts() {
        let cards: Vec<Card> = ["8H", "3C", "8H", "RJ"].iter().map(|s| s.parse().unwrap()).collect();
        let mut h: CardCounts = cards.iter().copied().collect();
        let faces: Vec<Card> = h.faces().collect();
        let mut want = vec![cards[1], cards[0], cards[3]];
        want.sort_by_key(|c| c.index());
        assert_eq!(faces, want);
        assert_eq!(h.bits().count_ones(), 3);
        h.remove(cards[0]);
        assert!(h.contains(cards[0]), "one 8H is left");
        h.remove(cards[0]);
        assert!(!h.contains(cards[0]));
        assert_eq!(h.faces().count(), 2);
        assert_eq!(h.iter().count(), 2);
        h.clear();
        assert_eq!(h.bits(), 0);
    }

    #[test]
    fn bulk_fills_match_pushes() {
        let cards: Vec<Card> = ["3C", "9C", "5C", "RJ", "3C"].iter().map(|s| s.parse().unwrap()).collect();
        let counts: CardCounts = cards.iter().copied().collect();
        let mut p = Pile::from_bottom_up(&cards[..2]);
        p.set_from_counts(&counts);
        let mut want = Pile::new();
        for c in counts.iter() {
            want.push(c);
        }
        assert_eq!(p, want);
        p.set_top_down(&cards);
        let mut want = Pile::new();
        for &c in cards.iter().rev() {
            want.push(c);
        }
        assert_eq!(p, want);
        assert_eq!(p.top(), Some(cards[0]));
        p.extend_from_slice(&cards[1..3]);
        for &c in &cards[1..3] {
            want.push(c);
        }
        assert_eq!(p, want);
    }

    #[test]
    fn pile_is_a_stack() {
        let cards: Vec<Card> = ["3C", "9C", "5C"].iter().map(|s| s.parse().unwrap()).collect();
        let mut p = Pile::from_bottom_up(&cards);
        assert_eq!(p.top(), Some(cards[2]));
        assert_eq!(p.from_top(2), Some(cards[0]));
        assert_eq!(p.pop(), Some(cards[2]));
        assert_eq!(p.len(), 2);
    }

    /// Counts of `p`'s cards, computed from the cards themselves.
    fn counted(p: &Pile) -> CardCounts {
        p.as_slice().iter().copied().collect()
    }

    /// The table-driven shuffle is `rand`'s, draw for draw: the same permutation and the
    /// generator left in the same state, at every length a pile can have and a few past it.
    #[test]
    fn shuffle_gives_rands_permutation_at_every_length() {
        use rand::{Rng, SeedableRng};
        for len in 0..=MAX_CARDS + 40 {
            for seed in 0..4 {
                let mut a: Vec<u16> = (0..len as u16).collect();
                let mut b = a.clone();
                let mut ra = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed * 1000 + len as u64);
                let mut rb = ra.clone();
                shuffle(&mut a, &mut ra);
                rand::seq::SliceRandom::shuffle(&mut b[..], &mut rb);
                assert_eq!(a, b, "length {len}, seed {seed}");
                assert_eq!(ra.next_u64(), rb.next_u64(), "generator after length {len}, seed {seed}");
            }
        }
    }

    #[test]
    fn counted_pile_keeps_its_counts_in_step() {
        use rand::SeedableRng;
        let cards: Vec<Card> = ["3C", "9C", "3C", "RJ", "KS"].iter().map(|s| s.parse().unwrap()).collect();
        let mut p = CountedPile::from_bottom_up(&cards);
        assert_eq!(p.counts(), &counted(&p));
        assert_eq!(p.counts().count(cards[0]), 2);
        assert_eq!(p.as_slice(), &cards[..]);
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        let mut plain: Pile = *p;
        p.shuffle(&mut rng.clone());
        rand::seq::SliceRandom::shuffle(plain.as_mut_slice(), &mut rng);
        assert_eq!(*p, plain, "the same permutation as shuffling the plain pile");
        assert_eq!(p.counts(), &counted(&p));
        while let Some(c) = p.pop() {
            assert_eq!(p.counts(), &counted(&p), "after popping {c}");
        }
        assert_eq!(p.pop(), None);
        assert!(p.counts().is_empty());
        for &c in &cards {
            p.push(c);
            assert_eq!(p.counts(), &counted(&p), "after pushing {c}");
        }
        p.clear();
        assert!(p.is_empty() && p.counts().is_empty());
    }
}
