//! Cards: the 54 card faces and their notation.
//!
//! A [`Card`] is a face index in `0..54`: `suit * 13 + rank` for the 52 standard faces
//! (suits C, D, H, S; ranks A, 2, …, 9, T, J, Q, K), then `RJ` = 52 and `BJ` = 53.
//! Several packs hold several copies of the same face; copies are counted (by the card sets
//! one layer up), never told apart. This module depends on nothing else in the crate.
//!
//! Notation is rank then suit: `8H`, `TD`, `QS`, `AC`, plus `RJ` and `BJ`. Parsing also
//! accepts `10D` for `TD` and lower case.
//!
//! ```
//! use eights::card::{Card, Rank, Suit};
//! let c: Card = "8H".parse().unwrap();
//! assert_eq!(c.index(), 33);
//! assert_eq!(c.rank(), Some(Rank::Eight));
//! assert_eq!(c.suit(), Some(Suit::Hearts));
//! assert_eq!("10D".parse::<Card>().unwrap().to_string(), "TD");
//! assert!(Card::RED_JOKER.is_joker());
//! ```

use std::fmt;
use std::str::FromStr;

/// Number of distinct card faces (52 standard cards and two jokers).
pub const NUM_FACES: usize = 54;

/// A suit. The discriminant is the suit index used in card indices.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Suit {
    Clubs = 0,
    Diamonds = 1,
    Hearts = 2,
    Spades = 3,
}

impl Suit {
    /// All suits in index order.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The suit with index `i` (0..4).
    pub fn from_index(i: usize) -> Option<Suit> {
        Suit::ALL.get(i).copied()
    }

    /// Suit index 0..4.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Its 13 faces as a bitset (bit `i` = face `i`).
    #[inline]
    pub const fn bits(self) -> u64 {
        ((1 << 13) - 1) << (13 * self as u32)
    }

    /// One-letter notation: C, D, H or S.
    pub fn letter(self) -> char {
        ['C', 'D', 'H', 'S'][self as usize]
    }

    /// Unicode suit symbol.
    pub fn symbol(self) -> char {
        ['♣', '♦', '♥', '♠'][self as usize]
    }

    /// Diamonds and hearts are red.
    pub fn is_red(self) -> bool {
        matches!(self, Suit::Diamonds | Suit::Hearts)
    }

    /// Parse one letter (C, D, H, S; any case) or a suit word.
    pub fn parse(s: &str) -> Option<Suit> {
        match s.trim().to_ascii_uppercase().as_str() {
            "C" | "CLUBS" | "♣" => Some(Suit::Clubs),
            "D" | "DIAMONDS" | "♦" => Some(Suit::Diamonds),
            "H" | "HEARTS" | "♥" => Some(Suit::Hearts),
            "S" | "SPADES" | "♠" => Some(Suit::Spades),
            _ => None,
        }
    }
}

/// A rank. The discriminant is the rank index used in card indices.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Rank {
    Ace = 0,
    Two,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
}

impl Rank {
    /// All ranks in index order (A low).
    pub const ALL: [Rank; 13] = [
        Rank::Ace,
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
    ];

    /// The rank with index `i` (0..13).
    pub fn from_index(i: usize) -> Option<Rank> {
        Rank::ALL.get(i).copied()
    }

    /// Rank index 0..13.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Its four suited faces as a bitset (bit `i` = face `i`).
    #[inline]
    pub const fn bits(self) -> u64 {
        (1 | 1 << 13 | 1 << 26 | 1 << 39) << self as u32
    }

    /// One-letter notation: A 2 3 4 5 6 7 8 9 T J Q K.
    pub fn letter(self) -> char {
        b"A23456789TJQK"[self as usize] as char
    }

    /// J, Q and K.
    pub fn is_court(self) -> bool {
        matches!(self, Rank::Jack | Rank::Queen | Rank::King)
    }

    /// Face value with A=1 and T=10; courts 10.
    pub fn face_value(self) -> u32 {
        (self as u32 + 1).min(10)
    }

    /// Parse a rank token: `A`, `2`..`9`, `T` or `10`, `J`, `Q`, `K` (any case).
    pub fn parse(s: &str) -> Option<Rank> {
        let r = match s.trim().as_bytes() {
            [b'A' | b'a' | b'1'] => Rank::Ace,
            [b'T' | b't'] | [b'1', b'0'] => Rank::Ten,
            [b'J' | b'j'] => Rank::Jack,
            [b'Q' | b'q'] => Rank::Queen,
            [b'K' | b'k'] => Rank::King,
            &[d @ b'2'..=b'9'] => Rank::ALL[(d - b'1') as usize],
            _ => return None,
        };
        Some(r)
    }
}

/// The suit of every byte value as a face index (`None` for jokers and past them): one load
/// instead of a division on the engine's hottest paths.
const SUIT_OF: [Option<Suit>; 256] = {
    let mut t = [None; 256];
    let mut i = 0;
    while i < 52 {
        t[i] = Some(Suit::ALL[i / 13]);
        i += 1;
    }
    t
};

/// The rank of every byte value as a face index (`None` for jokers and past them).
const RANK_OF: [Option<Rank>; 256] = {
    let mut t = [None; 256];
    let mut i = 0;
    while i < 52 {
        t[i] = Some(Rank::ALL[i % 13]);
        i += 1;
    }
    t
};

/// A card face, `0..54`. See the module documentation for the index.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(pub u8);

impl Card {
    /// The red joker, index 52.
    pub const RED_JOKER: Card = Card(52);
    /// The black joker, index 53.
    pub const BLACK_JOKER: Card = Card(53);

    /// The standard card of `suit` and `rank`.
    pub const fn new(suit: Suit, rank: Rank) -> Card {
        Card(suit as u8 * 13 + rank as u8)
    }

    /// The card with face index `i`, if `i < 54`.
    pub fn from_index(i: usize) -> Option<Card> {
        (i < NUM_FACES).then_some(Card(i as u8))
    }

    /// Face index 0..54.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// RJ or BJ.
    #[inline]
    pub fn is_joker(self) -> bool {
        self.0 >= 52
    }

    /// The suit; jokers have none.
    #[inline]
    pub fn suit(self) -> Option<Suit> {
        SUIT_OF[self.0 as usize]
    }

    /// The rank; jokers have none.
    #[inline]
    pub fn rank(self) -> Option<Rank> {
        RANK_OF[self.0 as usize]
    }

    /// Red cards are diamonds, hearts and the red joker.
    pub fn is_red(self) -> bool {
        match self.suit() {
            Some(s) => s.is_red(),
            None => self == Card::RED_JOKER,
        }
    }

    /// Text with a suit symbol, e.g. `8♥`, `10♦` is written `T♦`; jokers `RJ🃏`-free: `RJ`.
    pub fn symbol(self) -> String {
        match (self.rank(), self.suit()) {
            (Some(r), Some(s)) => format!("{}{}", r.letter(), s.symbol()),
            _ => self.to_string(),
        }
    }

    /// Iterate over all 54 faces in index order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..NUM_FACES as u8).map(Card)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            52 => f.write_str("RJ"),
            53 => f.write_str("BJ"),
            _ => {
                let (r, s) = (self.rank().unwrap(), self.suit().unwrap());
                write!(f, "{}{}", r.letter(), s.letter())
            }
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A card string that is not valid notation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "invalid card {0:?}: expected rank A,2-9,T (or 10),J,Q,K followed by suit C,D,H,S (e.g. \"8H\", \"TD\"), or RJ / BJ"
)]
pub struct CardParseError(pub String);

impl FromStr for Card {
    type Err = CardParseError;

    fn from_str(s: &str) -> Result<Card, CardParseError> {
        let t = s.trim().to_ascii_uppercase();
        match t.as_str() {
            "RJ" => return Ok(Card::RED_JOKER),
            "BJ" => return Ok(Card::BLACK_JOKER),
            _ => {}
        }
        let err = || CardParseError(s.to_string());
        if t.len() < 2 || !t.is_ascii() {
            return Err(err());
        }
        let (r, su) = t.split_at(t.len() - 1);
        let rank = Rank::parse(r).filter(|_| r != "1").ok_or_else(err)?;
        let suit = Suit::parse(su).ok_or_else(err)?;
        Ok(Card::new(suit, rank))
    }
}

impl serde::Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_examples() {
        for (s, i) in [
            ("AC", 0),
            ("KC", 12),
            ("TD", 22),
            ("8H", 33),
            ("JH", 36),
            ("AS", 39),
            ("QS", 50),
            ("KS", 51),
            ("RJ", 52),
            ("BJ", 53),
        ] {
            let c: Card = s.parse().unwrap();
            assert_eq!(c.index(), i, "{s}");
            assert_eq!(c.to_string(), s);
        }
    }

    #[test]
    fn parse_round_trips_every_face() {
        for c in Card::all() {
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
        }
        assert_eq!("10d".parse::<Card>().unwrap(), "TD".parse().unwrap());
    }

    #[test]
    fn rejects_bad_notation() {
        for s in ["", "8", "1H", "8X", "ZZ", "11H", "JJ", "8HH"] {
            assert!(s.parse::<Card>().is_err(), "{s} should be rejected");
        }
    }

    #[test]
    fn jokers_have_no_suit_or_rank() {
        assert_eq!(Card::RED_JOKER.suit(), None);
        assert_eq!(Card::BLACK_JOKER.rank(), None);
        assert!(Card::RED_JOKER.is_red());
        assert!(!Card::BLACK_JOKER.is_red());
    }
}
