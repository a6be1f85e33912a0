//! Face bitsets: one bit per face (bit `i` = face `i`), built from hands and masks of suits,
//! ranks and court cards. The fast paths of matching and legal actions work on these.

use super::*;

/// Face bits of every card in `h`.
pub(super) fn face_bits(h: &CardCounts) -> u64 {
    held_bits(h.counts())
}

#[inline]
pub(super) fn bit(c: Card) -> u64 {
    1u64 << c.index()
}

/// Bitset of the faces with a non-zero count (bit `i` = face `i`), eight counts at a time.
#[inline]
pub(super) fn held_bits(counts: &[u8; NUM_FACES]) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut bits = 0u64;
    let mut word = [0u8; 8];
    for (k, chunk) in counts.chunks(8).enumerate() {
        word[..chunk.len()].copy_from_slice(chunk);
        word[chunk.len()..].fill(0);
        let w = u64::from_le_bytes(word);
        // High bit of each byte set iff the byte is non-zero, then gathered into 8 bits.
        let t = (((w & LOW7) + LOW7) | w) & HIGH;
        bits |= (t.wrapping_mul(0x0002_0408_1020_4081) >> 56) << (8 * k);
    }
    bits
}

/// The 13 faces of one suit (clubs; shift by `13 * suit` for the others).
pub(super) const SUIT_BITS: u64 = (1 << 13) - 1;
/// The four suited faces of one rank (aces; shift by the rank index for the others).
pub(super) const RANK_BITS: u64 = 1 | 1 << 13 | 1 << 26 | 1 << 39;
/// Every suited jack, queen and king.
pub(super) const COURT_BITS: u64 = (RANK_BITS << 10) | (RANK_BITS << 11) | (RANK_BITS << 12);
const _: () = assert!(action::PLAY == 0 && NUM_FACES <= 64, "play ids are the first word of a mask");

#[cfg(test)]
mod bit_tests {
    use super::*;
    use crate::game::derive_seed;

    #[test]
    fn held_bits_marks_exactly_the_nonzero_counts() {
        let mut counts = [0u8; NUM_FACES];
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200 {
            x = derive_seed(x, 1);
            for (i, c) in counts.iter_mut().enumerate() {
                *c = [0, 0, 1, 2, 4, 128, 255, 0][((x >> (i % 60)) & 7) as usize];
            }
            let want = counts.iter().enumerate().fold(0u64, |b, (i, &k)| b | u64::from(k != 0) << i);
            assert_eq!(held_bits(&counts), want);
        }
    }
}
