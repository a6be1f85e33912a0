//! The words shared by the description's files: numbers, ranks, suits, selectors, lists,
//! and the effect-table entry in words ([`SpecialCard`]).

use crate::card::{Card, Rank, Suit};

/// One entry of the effect table in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecialCard {
    /// The selector as written in the `cards` table (`"8"`, `"black J"`, `"QS"`).
    pub selector: String,
    /// A readable name of the cards it selects (`"Eights"`, `"Black jacks"`).
    pub label: String,
    /// The effects, one phrase each.
    pub effects: Vec<String>,
}

pub(super) fn number_word(n: u32) -> String {
    const WORDS: [&str; 11] = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
    WORDS.get(n as usize).map_or_else(|| n.to_string(), |w| (*w).to_string())
}

pub(super) fn cards_word(n: u32) -> String {
    if n == 1 { "one card".into() } else { format!("{n} cards") }
}

pub(super) fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

pub(crate) fn rank_name(r: Rank) -> (&'static str, &'static str) {
    match r {
        Rank::Ace => ("ace", "aces"),
        Rank::Two => ("two", "twos"),
        Rank::Three => ("three", "threes"),
        Rank::Four => ("four", "fours"),
        Rank::Five => ("five", "fives"),
        Rank::Six => ("six", "sixes"),
        Rank::Seven => ("seven", "sevens"),
        Rank::Eight => ("eight", "eights"),
        Rank::Nine => ("nine", "nines"),
        Rank::Ten => ("ten", "tens"),
        Rank::Jack => ("jack", "jacks"),
        Rank::Queen => ("queen", "queens"),
        Rank::King => ("king", "kings"),
    }
}

pub(super) fn suit_name(s: Suit) -> &'static str {
    match s {
        Suit::Clubs => "clubs",
        Suit::Diamonds => "diamonds",
        Suit::Hearts => "hearts",
        Suit::Spades => "spades",
    }
}

/// A selector's name: `(plural, with an article)`, e.g. `("eights", "an eight")`.
pub(super) fn selector_names(sel: &str) -> (String, String) {
    let t = sel.trim();
    let lower = t.to_ascii_lowercase();
    let article = |w: &str| if w.starts_with(['a', 'e', 'i', 'o', 'u']) { format!("an {w}") } else { format!("a {w}") };
    match lower.as_str() {
        "joker" | "jokers" => return ("jokers".into(), "a joker".into()),
        "any" => return ("all cards".into(), "any card".into()),
        "rj" => return ("the red joker".into(), "the red joker".into()),
        "bj" => return ("the black joker".into(), "the black joker".into()),
        "pending_draw" => return ("a pending draw penalty".into(), "a pending draw penalty".into()),
        _ => {}
    }
    for colour in ["red", "black"] {
        if let Some(r) = lower.strip_prefix(colour).and_then(|r| r.strip_prefix(' ')).and_then(Rank::parse) {
            let (one, many) = rank_name(r);
            return (format!("{colour} {many}"), format!("a {colour} {one}"));
        }
    }
    if let Some(r) = Rank::parse(t) {
        let (one, many) = rank_name(r);
        return (many.into(), article(one));
    }
    if let Ok(c) = t.parse::<Card>() {
        if let (Some(r), Some(s)) = (c.rank(), c.suit()) {
            let name = format!("the {} of {}", rank_name(r).0, suit_name(s));
            return (name.clone(), name);
        }
    }
    (t.to_string(), t.to_string())
}

/// A readable plural name of the cards a selector names (`"Eights"`, `"Black jacks"`).
pub fn selector_label(sel: &str) -> String {
    capitalize(&selector_names(sel).0)
}

/// "a two" -> "another two"; "an eight" -> "another eight".
pub(super) fn another(s: &str) -> String {
    match s.strip_prefix("a ").or_else(|| s.strip_prefix("an ")) {
        Some(rest) => format!("another {rest}"),
        None => s.to_string(),
    }
}

pub(super) fn join_or(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        _ => format!("{} or {}", items[..items.len() - 1].join(", "), items[items.len() - 1]),
    }
}

pub(super) fn join_and(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        _ => format!("{} and {}", items[..items.len() - 1].join(", "), items[items.len() - 1]),
    }
}
