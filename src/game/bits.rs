//! Face bitsets: one bit per face (bit `i` = face `i`), built from hands and masks of suits,
//! ranks and court cards. The fast paths of matching and legal actions work on these.

use crate::action;
use crate::card::{Card, NUM_FACES, Rank, Suit};
use crate::card_set::CardCounts;

/// Face bits of every card in `h`.
pub(super) fn face_bits(h: &CardCounts) -> u64 {
    h.bits()
}

#[inline]
pub(super) fn bit(c: Card) -> u64 {
    1u64 << c.index()
}

/// The 13 faces of one suit (clubs; shift by `13 * suit` for the others).
pub(super) const SUIT_BITS: u64 = Suit::Clubs.bits();
/// The four suited faces of one rank (aces; shift by the rank index for the others).
pub(super) const RANK_BITS: u64 = Rank::Ace.bits();
/// Every suited jack, queen and king.
pub(super) const COURT_BITS: u64 = (RANK_BITS << 10) | (RANK_BITS << 11) | (RANK_BITS << 12);
const _: () = assert!(action::PLAY == 0 && NUM_FACES <= 64, "play ids are the first word of a mask");

#[cfg(test)]
mod bit_tests {
    use super::*;
    use crate::seed::derive_seed;

    #[test]
    fn face_bits_mark_exactly_the_faces_held() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200 {
            x = derive_seed(x, 1);
            let mut h = CardCounts::new();
            let mut counts = [0u8; NUM_FACES];
            for k in 0..(x % 40) {
                let i = (derive_seed(x, k) % NUM_FACES as u64) as usize;
                h.add(Card(i as u8));
                counts[i] += 1;
            }
            // Take some copies out again: a face is held while any copy is left.
            for k in 0..(x % 7) {
                let i = (derive_seed(x, 100 + k) % NUM_FACES as u64) as usize;
                if h.remove(Card(i as u8)) {
                    counts[i] -= 1;
                }
            }
            let want = counts.iter().enumerate().fold(0u64, |b, (i, &k)| b | u64::from(k != 0) << i);
            assert_eq!(face_bits(&h), want);
        }
    }
}
