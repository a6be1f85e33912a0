//! Seed derivation: the one function that turns a base seed and an index into an independent
//! seed, used by every layer (games of a batch, episodes, rule-space draws, bot streams).

/// Derive the seed of item `i` (game `i` of a batch, episode `i`, attempt `i`...) from a base
/// seed (SplitMix64 finaliser), so batches of games are reproducible whatever order or thread
/// they run in.
pub fn derive_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed ^ i.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
