//! Rules in words: [`describe`] writes a [`RulesSpec`] as a person would read it.
//!
//! The text follows the order in which a player meets the rules: players and deck, the deal
//! and the start card, matching and wild cards, each special card, draw penalties, drawing
//! and passing, the stock, multi-card plays, the last card, the end of a hand and scoring,
//! match play, and finally the documented variants and simplifications. It is plain text
//! with `## ` section headings and `- ` bullets, so it prints well and reads as Markdown.
//!
//! Output is deterministic: every map in the spec is ordered, and cards are listed in rank
//! order (A, 2, ..., K, jokers), general selectors before more specific ones.
//!
//! [`special_cards`] gives the per-card part on its own (used by the generated preset
//! documentation), and [`variant_changes`] renders a `variant.*` overlay as dotted
//! `field = value` settings.

use super::compile::parse_selector;
use super::spec::*;
use crate::card::{Card, Rank, Suit};
use serde_json::Value;
use std::fmt::Write as _;

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

/// The rules of `spec` in words. See the module documentation.
pub fn describe(spec: &RulesSpec) -> String {
    let s = spec;
    let mut out = String::new();
    let title = if s.title.is_empty() { s.name.clone() } else { s.title.clone() };
    let head = if s.name.is_empty() || s.name == title { title } else { format!("{title} ({})", s.name) };
    let _ = writeln!(out, "{head}");
    let _ = writeln!(out, "{}", "=".repeat(head.chars().count()));
    if !s.source.is_empty() {
        let _ = writeln!(out, "\nSource: {}", s.source.trim());
    }
    if !s.description.trim().is_empty() {
        let _ = writeln!(out, "\n{}", s.description.trim());
    }

    section(&mut out, "Players and deck", &players_and_deck(s));
    section(&mut out, "Deal and start card", &deal_and_start(s));
    section(&mut out, "Matching and wild cards", &matching(s));
    let specials = special_cards(s);
    let lines: Vec<String> = if specials.is_empty() {
        vec!["No card has a special effect.".into()]
    } else {
        specials.iter().map(|c| format!("{} [{}]: {}.", c.label, c.selector, c.effects.join("; "))).collect()
    };
    section(&mut out, "Special cards", &lines);
    let chain = chain_rules(s);
    if !chain.is_empty() {
        section(&mut out, "Draw penalties", &chain);
    }
    section(&mut out, "Drawing and passing", &drawing(s));
    section(&mut out, "Multiple cards", &multi(s));
    section(&mut out, "Last card", &last_card(s));
    section(&mut out, "End of a hand and scoring", &end_and_score(s));
    section(&mut out, "Match", &series(s));
    let opts = options(s);
    if !opts.is_empty() {
        section(&mut out, "Options", &opts);
    }
    if !s.variants.is_empty() {
        section(&mut out, "Variants in play", &[format!("{}.", s.variants.join(", "))]);
    }
    if !s.variant.is_empty() {
        let mut lines = vec![];
        for (name, overlay) in &s.variant {
            let changes = variant_changes(overlay);
            lines.push(if changes.is_empty() { name.clone() } else { format!("{name}: {}", changes.join(", ")) });
        }
        let _ = writeln!(out, "\n## Documented variants\n\nApply with variants = [\"name\", ...]:\n");
        for l in &lines {
            let _ = writeln!(out, "- {l}");
        }
    }
    if !s.simplifications.is_empty() {
        section(&mut out, "Simplifications", &s.simplifications);
    }
    out
}

fn section(out: &mut String, title: &str, lines: &[String]) {
    let _ = writeln!(out, "\n## {title}\n");
    for l in lines {
        let _ = writeln!(out, "- {l}");
    }
}

fn number_word(n: u32) -> String {
    const WORDS: [&str; 11] = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
    WORDS.get(n as usize).map_or_else(|| n.to_string(), |w| (*w).to_string())
}

fn cards_word(n: u32) -> String {
    if n == 1 { "one card".into() } else { format!("{n} cards") }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn rank_name(r: Rank) -> (&'static str, &'static str) {
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

fn suit_name(s: Suit) -> &'static str {
    match s {
        Suit::Clubs => "clubs",
        Suit::Diamonds => "diamonds",
        Suit::Hearts => "hearts",
        Suit::Spades => "spades",
    }
}

/// A selector's name: `(plural, with an article)`, e.g. `("eights", "an eight")`.
fn selector_names(sel: &str) -> (String, String) {
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
fn another(s: &str) -> String {
    match s.strip_prefix("a ").or_else(|| s.strip_prefix("an ")) {
        Some(rest) => format!("another {rest}"),
        None => s.to_string(),
    }
}

fn join_or(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        _ => format!("{} or {}", items[..items.len() - 1].join(", "), items[items.len() - 1]),
    }
}

fn join_and(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        _ => format!("{} and {}", items[..items.len() - 1].join(", "), items[items.len() - 1]),
    }
}

/// Sort key of a selector: lowest rank it names (jokers last), then specificity, then text.
fn selector_key(sel: &str) -> (usize, u8, String) {
    match parse_selector(sel) {
        Some((mask, lvl)) => {
            let low = (0..54).filter(|i| mask & (1u64 << i) != 0).map(|i| if i >= 52 { 13 } else { i % 13 }).min();
            (low.unwrap_or(14), lvl, sel.to_string())
        }
        None => (15, 9, sel.to_string()),
    }
}

fn cards_in_order(spec: &RulesSpec) -> Vec<(&String, &CardSpec)> {
    let mut v: Vec<_> = spec.cards.iter().collect();
    v.sort_by_key(|(sel, _)| selector_key(sel));
    v
}

/// Everything a card spec field can say, with whether it is active.
struct Phrases {
    items: Vec<(&'static str, bool, String)>,
}

impl Phrases {
    fn push(&mut self, field: &'static str, active: bool, text: impl Into<String>) {
        self.items.push((field, active, text.into()));
    }
}

fn reverse_phrase(spec: &RulesSpec) -> String {
    let two = match spec.two_player.reverse {
        TwoPlayerReverse::Noop => "no effect with two players",
        TwoPlayerReverse::AsSkip => "with two players it skips the opponent instead",
        TwoPlayerReverse::OrdinaryCard => "an ordinary card with two players",
    };
    format!("reverses the direction of play ({two})")
}

fn skip_phrase(spec: &RulesSpec, k: u8) -> String {
    let base = if k == 1 {
        "the next player misses a turn".to_string()
    } else {
        format!("the next {} players miss their turn", number_word(k.into()))
    };
    match spec.two_player.skip {
        TwoPlayerSkip::SamePlayerAgain if k == 1 => format!("{base} (with two players the same player plays again)"),
        TwoPlayerSkip::RestrictedContinue => {
            format!("{base} (with two players the same player continues with its rank or suit, or draws)")
        }
        _ => base,
    }
}

fn nominate_phrase(n: Nominate) -> Option<&'static str> {
    match n {
        Nominate::Required => Some("its player names the suit to follow"),
        Nominate::Optional => Some("its player may name a new suit or keep the current one"),
        Nominate::OnlyIfMatching => {
            Some("its player may name a different suit only if the card matched the previous card")
        }
        Nominate::None => None,
    }
}

fn last_special_phrase(l: LastSpecial) -> &'static str {
    match l {
        LastSpecial::Ignored => "the hand ends at once and its effect is ignored",
        LastSpecial::DrawsApply => "its draws are made, then the hand is scored",
        LastSpecial::AsDuringHand => "it acts as during the hand",
        LastSpecial::ChainContinues => "its draw chain goes on and the hand ends once the penalty is taken",
        LastSpecial::CannotGoOut => "a player cannot go out with it",
    }
}

/// Members of a chain group as readable names with articles.
fn chain_group_members(spec: &RulesSpec, group: &str) -> Vec<String> {
    cards_in_order(spec)
        .into_iter()
        .filter_map(|(sel, cs)| {
            let dc = cs.draw_chain.as_ref().filter(|d| d.amount > 0)?;
            (dc.group.as_deref().unwrap_or(sel) == group).then(|| selector_names(sel).1)
        })
        .collect()
}

/// Everything the card spec says, field by field, in a fixed order.
fn phrases(spec: &RulesSpec, sel: &str, cs: &CardSpec) -> Phrases {
    let mut p = Phrases { items: vec![] };
    wild_phrases(&mut p, cs);
    penalty_phrases(&mut p, spec, sel, cs);
    defence_phrases(&mut p, spec, cs);
    hand_phrases(&mut p, cs);
    play_phrases(&mut p, spec, cs);
    p
}

/// Wild cards and suit changers.
fn wild_phrases(p: &mut Phrases, cs: &CardSpec) {
    if let Some(w) = &cs.wild {
        if w.enabled {
            let mut t = String::from("wild");
            if w.requires_match {
                t += ", but it must itself match the top card by suit or rank";
            } else if w.only_if_no_other {
                t += ": playable on any card, but only when its player has no other playable card";
            } else {
                t += ": playable on any card";
            }
            let forbidden: Vec<String> = w.forbidden_on.iter().map(|f| selector_names(f).1).collect();
            if !forbidden.is_empty() {
                t += &format!(" except on {}", join_or(&forbidden));
            }
            if w.solo {
                t += "; it must be the only card of its turn";
            }
            if w.also_normal {
                t += "; inside a run it may be played as an ordinary card";
            }
            match (nominate_phrase(w.nominate), w.follow) {
                (_, WildFollow::Free) if w.nominate == Nominate::None => {
                    t += "; the next player may play any card on it"
                }
                (_, WildFollow::Transparent) => t += "; the next player matches the card under it",
                (Some(n), _) => t += &format!("; {n}"),
                (None, _) => t += "; no suit is named: the next card follows its own suit or rank",
            }
            p.push("wild", true, t);
        } else {
            p.push("wild", false, "not wild");
        }
    }
    if let Some(n) = cs.nominate {
        match nominate_phrase(n) {
            Some(t) => p.push("nominate", true, format!("changes the suit (it must match like any card): {t}")),
            None => p.push("nominate", false, "does not change the suit"),
        }
    }
}

/// Skips, reversals and draw penalties on the next player.
fn penalty_phrases(p: &mut Phrases, spec: &RulesSpec, sel: &str, cs: &CardSpec) {
    if let Some(k) = cs.skip {
        p.push("skip", k > 0, if k > 0 { skip_phrase(spec, k) } else { "does not skip".into() });
    }
    if let Some(r) = cs.reverse {
        p.push("reverse", r, if r { reverse_phrase(spec) } else { "does not reverse".into() });
    }
    if let Some(dc) = &cs.draw_chain {
        if dc.amount > 0 {
            p.push("draw_chain", true, draw_chain_phrase(spec, sel, dc));
        } else {
            p.push("draw_chain", false, "no draw penalty");
        }
    }
    if let Some(k) = cs.draw_and_lose_turn {
        p.push(
            "draw_and_lose_turn",
            k > 0,
            if k > 0 {
                format!("the next player draws {} and misses their turn (no answer allowed)", k)
            } else {
                "no draw".into()
            },
        );
    }
    if let Some(k) = cs.draw_keep_turn {
        p.push(
            "draw_keep_turn",
            k > 0,
            if k > 0 { format!("the next player draws {k} and then plays as usual") } else { "no draw".into() },
        );
    }
}

/// A draw chain card: what the next player draws and how they may answer.
fn draw_chain_phrase(spec: &RulesSpec, sel: &str, dc: &DrawChainSpec) -> String {
    let group = dc.group.clone().unwrap_or_else(|| sel.to_string());
    let answer = match dc.answer.unwrap_or(spec.chain.answer) {
        ChainAnswer::SameRank => {
            let members = chain_group_members(spec, &group);
            let names: Vec<String> = if members.is_empty() { vec![selector_names(sel).1] } else { members };
            let mut names = names;
            names[0] = another(&names[0]);
            format!("unless they answer with {}", join_or(&names))
        }
        ChainAnswer::AnyDrawCard => "unless they answer with any draw-penalty card".into(),
        ChainAnswer::None => "(it cannot be answered)".into(),
    };
    let grows = match dc.accumulate {
        Some(Accumulate::Fixed) => "; an answer does not raise the penalty",
        Some(Accumulate::Sum) if spec.chain.accumulate != Accumulate::Sum => "; each answer adds its amount",
        Some(Accumulate::Increment) if spec.chain.accumulate != Accumulate::Increment => {
            "; each answer adds the chain increment"
        }
        _ => "",
    };
    format!("the next player draws {} {answer}{grows}", dc.amount)
}

/// Answers to a pending draw penalty: cancel, shield, mirror.
fn defence_phrases(p: &mut Phrases, spec: &RulesSpec, cs: &CardSpec) {
    if let Some(targets) = &cs.cancel {
        if targets.is_empty() {
            p.push("cancel", false, "cancels nothing");
        } else if targets.iter().any(|t| t == "any") {
            p.push("cancel", true, "played on any pending draw penalty, it cancels it: nobody draws");
        } else {
            let names: Vec<String> = targets
                .iter()
                .map(|g| {
                    let m = chain_group_members(spec, g);
                    if m.is_empty() { g.clone() } else { join_or(&m) }
                })
                .collect();
            p.push(
                "cancel",
                true,
                format!("played on a pending penalty from {}, it cancels it: nobody draws", join_or(&names)),
            );
        }
    }
    if let Some(sh) = &cs.shield {
        let against = if sh.against.is_empty() { "any".to_string() } else { sh.against.join(", ") };
        let through = if sh.pass_through {
            " without ending it: the penalty, unchanged, passes on to the next player"
        } else {
            ""
        };
        let suit = if sh.same_suit { " (only on a top card of its own suit)" } else { "" };
        p.push("shield", true, format!("shields its player from a pending {against} penalty{suit}{through}"));
    }
    if let Some(m) = cs.mirror {
        p.push(
            "mirror",
            m,
            if m {
                "mirrors a pending draw penalty when played straight on its card of the same suit (or on a mirroring card): \
                 the direction reverses and the penalty goes back to the previous player (an even number played together \
                 sends it back to their player, who takes it at once); after a card that makes the others draw, another \
                 player holding one of its suit may mirror it, and the card's player draws for everyone"
            } else {
                "no mirror"
            },
        );
    }
}

/// Effects on the other hands: draws, gifts, passing, swapping, asking, picking up.
fn hand_phrases(p: &mut Phrases, cs: &CardSpec) {
    if let Some(k) = cs.others_draw {
        p.push(
            "others_draw",
            k > 0,
            if k > 0 { format!("every other player draws {}", cards_word(k.into())) } else { "no draw".into() },
        );
    }
    if let Some(g) = cs.give {
        p.push(
            "give",
            true,
            match g {
                Give::EachOther => "its player gives one card of their choice to each other player, in order of play",
                Give::One => "its player gives the next player one card of their choice",
            },
        );
    }
    if let Some(f) = cs.free_play_next {
        p.push("free_play_next", f, if f { "the next player may play any card" } else { "no free play" });
    }
    if let Some(f) = cs.next_picture {
        p.push(
            "next_picture",
            f,
            if f { "the next player must play a picture card of any suit, or draw" } else { "no picture rule" },
        );
    }
    if let Some(f) = cs.second_suit {
        p.push(
            "second_suit",
            f,
            if f { "its player names a second suit the next player may follow" } else { "no second suit" },
        );
    }
    if let Some(side) = cs.pass_hands {
        let to = match side {
            Side::Left => "to the left",
            Side::Right => "to the right",
            Side::Direction => "in the direction of play",
        };
        p.push("pass_hands", true, format!("every player passes their hand one seat {to}"));
    }
    if let Some(f) = cs.swap_hand {
        p.push("swap_hand", f, if f { "its player may swap hands with another player" } else { "no swap" });
    }
    if let Some(f) = cs.ask_rank {
        p.push("ask_rank", f, if f { "its player asks the next player for a rank" } else { "no ask" });
    }
    if let Some(k) = cs.pick_up_pile {
        p.push(
            "pick_up_pile",
            k > 0,
            if k > 0 { format!("the next player picks up the {k} cards under it") } else { "no pick-up".into() },
        );
    }
    if let Some(f) = cs.must_cover {
        p.push("must_cover", f, if f { "it must be covered by another card of its suit" } else { "no cover needed" });
    }
}

/// What may follow the card, and how it acts when repeated or played last.
fn play_phrases(p: &mut Phrases, spec: &RulesSpec, cs: &CardSpec) {
    if let Some(f) = cs.follow {
        match f {
            Follow::SameSuitAny => p.push(
                "follow",
                true,
                "its player may add any number of cards of its suit on top (only the top card acts)",
            ),
            Follow::OneMatching => p.push(
                "follow",
                true,
                "its player may cover it with one card matching it by suit or rank (another of its rank chains on)",
            ),
            Follow::None => p.push("follow", false, "no follow-on"),
        }
    }
    if let Some(f) = cs.ends_turn {
        p.push("ends_turn", f, if f { "playing it ends the turn" } else { "does not end the turn" });
    }
    if let Some(f) = cs.extra_turn {
        p.push("extra_turn", f, if f { "its player then takes another turn" } else { "no extra turn" });
    }
    if let Some(f) = cs.marriage {
        p.push(
            "marriage",
            f,
            if f { "a king and queen of the same suit may be played together (marriage)" } else { "no marriage" },
        );
    }
    if let Some(f) = cs.joker_lock {
        let colour = if spec.deck.joker_colours_distinct { " of the joker's colour" } else { "" };
        p.push(
            "joker_lock",
            f,
            if f {
                format!(
                    "may only be played on a king, and the next card on it must be a king{colour} (or the player draws)"
                )
            } else {
                "no lock".to_string()
            },
        );
    }
    if let Some(k) = cs.waste_draw {
        p.push(
            "waste_draw",
            k > 0,
            if k > 0 {
                format!("the next player draws {k} from the shuffled discard pile (no skip)")
            } else {
                "no draw".into()
            },
        );
    }
    if let Some(f) = cs.slap {
        p.push("slap", f, if f { "slap (a real-time race: no effect here)" } else { "no slap" });
    }
    if let Some(r) = cs.repeat {
        match r {
            Repeat::Once => p.push("repeat", true, "several played together act only once"),
            Repeat::Each => p.push("repeat", false, "each copy played together acts"),
        }
    }
    if let Some(l) = cs.last_special {
        p.push(
            "last_special",
            l != spec.last_special,
            format!("as the winner's last card, {}", last_special_phrase(l)),
        );
    }
}

/// The effect table in words, one entry per selector that does something, in rank order.
///
/// A setting that does nothing (`skip = 0`, `follow = "none"`, an empty `cancel`, ...) is
/// left out, unless it overrides what a more general selector gives the same cards: then it
/// is said (`"does not skip"`). Selectors with nothing to say are left out.
pub fn special_cards(spec: &RulesSpec) -> Vec<SpecialCard> {
    let ordered = cards_in_order(spec);
    let mut out = Vec::new();
    for (sel, cs) in &ordered {
        let (mask, lvl) = parse_selector(sel).unwrap_or((0, 0));
        // What more general selectors give the same cards.
        let general: Vec<&CardSpec> = ordered
            .iter()
            .filter(|(s2, _)| parse_selector(s2).is_some_and(|(m2, l2)| l2 < lvl && m2 & mask != 0))
            .map(|(_, c)| *c)
            .collect();
        let general_active: Vec<&'static str> =
            general.iter().flat_map(|g| phrases(spec, sel, g).items.into_iter().filter(|i| i.1).map(|i| i.0)).collect();
        let effects: Vec<String> = phrases(spec, sel, cs)
            .items
            .into_iter()
            .filter(|(field, active, _)| *active || general_active.contains(field))
            .map(|(_, _, t)| t)
            .collect();
        if !effects.is_empty() {
            out.push(SpecialCard { selector: sel.to_string(), label: selector_label(sel), effects });
        }
    }
    out
}

fn by_players(map: &std::collections::BTreeMap<String, u8>, what: impl Fn(u8) -> String, from: bool) -> Vec<String> {
    let mut v: Vec<(u32, u8)> = map.iter().filter_map(|(k, &x)| k.parse().ok().map(|k| (k, x))).collect();
    v.sort();
    v.into_iter()
        .map(
            |(k, x)| {
                if from { format!("{} from {k} players", what(x)) } else { format!("{} with {k} players", what(x)) }
            },
        )
        .collect()
}

fn players_and_deck(s: &RulesSpec) -> Vec<String> {
    let mut v = Vec::new();
    v.push(if s.players.min == s.players.max {
        format!("{} players.", capitalize(&number_word(s.players.min.into())))
    } else {
        format!("{} to {} players.", s.players.min, s.players.max)
    });
    let packs = |p: u8| match p {
        1 => "one 52-card pack".to_string(),
        p => format!("{} 52-card packs shuffled together", number_word(p.into())),
    };
    let mut deck = capitalize(&packs(s.deck.packs));
    match s.deck.jokers {
        0 => deck += ", no jokers",
        2 => deck += ", with two jokers per pack (one red, one black)",
        j => deck += &format!(", with {j} jokers per pack"),
    }
    let extra = by_players(&s.deck.packs_by_players, packs, true);
    if !extra.is_empty() {
        deck += &format!("; {}", extra.join("; "));
    }
    v.push(format!("{deck}."));
    if s.deck.joker_colours_distinct {
        v.push("The red and the black joker have different rules.".into());
    }
    v
}

fn start_effect_phrase(e: StartEffect) -> &'static str {
    match e {
        StartEffect::AsPlayedByDealer => {
            "acts as if the dealer had just played it (a nomination is made after the dealer sees their hand)"
        }
        StartEffect::Ignore => "only sets the suit and rank: its special effect does not apply",
        StartEffect::Redraw => "is shuffled back into the stock and another card is turned",
        StartEffect::DealerNominatesBlind => "is followed by a suit the dealer names without looking at their hand",
        StartEffect::FreePlay => "lets the first player play any card",
    }
}

fn deal_and_start(s: &RulesSpec) -> Vec<String> {
    let mut v = Vec::new();
    let mut deal = format!("Each player is dealt {}", cards_word(s.deal.hand_size.into()));
    let extra = by_players(&s.deal.hand_size_by_players, |h| h.to_string(), false);
    if !extra.is_empty() {
        deal += &format!(" ({})", extra.join(", "));
    }
    if s.deal.dealer_extra > 0 {
        deal += &format!("; the dealer takes {} more", s.deal.dealer_extra);
    }
    v.push(format!("{deal}."));
    match s.deal.starter {
        Starter::TurnUp => {
            v.push("The top card of the stock is turned up to start the discard pile.".into());
            v.push(format!("A start card {}.", start_effect_phrase(s.start.effect)));
            let mut cards: Vec<(&String, &StartEffect)> = s.start.cards.iter().collect();
            cards.sort_by_key(|(sel, _)| selector_key(sel));
            for (sel, e) in cards {
                if *e != s.start.effect {
                    v.push(format!("If the start card is {}, it {}.", selector_names(sel).1, start_effect_phrase(*e)));
                }
            }
        }
        Starter::None => v.push("There is no start card: the first player leads any card.".into()),
    }
    let dir = match s.order.initial_direction {
        Direction::Cw => "clockwise",
        Direction::Ccw => "anticlockwise",
    };
    v.push(match s.order.first {
        FirstPlayer::DealerLeft => format!("The player to the dealer's left plays first; play goes {dir}."),
        FirstPlayer::DealerChooses => format!("The dealer chooses the direction of play (here {dir})."),
        FirstPlayer::PreviousLoser => format!(
            "In a match the loser of the previous hand leads and chooses the direction of play (here \
             {dir}); the first hand is led by the dealer's left clockwise, or the dealer's right \
             anticlockwise. The loser is the last player out, or else the player left with the most cards."
        ),
        FirstPlayer::Agreed => format!("The players agree who plays first (here the dealer's left); play goes {dir}."),
    });
    v.push(
        match s.order.next_dealer {
            NextDealer::Clockwise => "The deal passes clockwise after each hand.",
            NextDealer::Winner => "The winner of a hand deals the next.",
            NextDealer::Fixed => "The same player deals every hand.",
        }
        .into(),
    );
    v
}

fn matching(s: &RulesSpec) -> Vec<String> {
    let mut v = vec!["A card may be played on the top card of the discard pile if it matches its suit or rank.".into()];
    if s.matching.any_court {
        v.push("Any court card (J, Q, K) matches any court card.".into());
    }
    if !s.matching.rank_blocked.is_empty() {
        let names: Vec<String> = s.matching.rank_blocked.iter().map(|r| selector_names(r).0).collect();
        v.push(format!("{} match by suit only, never by rank.", capitalize(&join_and(&names))));
    }
    for e in &s.matching.extra {
        v.push(
            match e {
                MatchExtra::Arithmetic => {
                    "A card also matches when its value is the sum or product of the two top cards."
                }
                MatchExtra::Sequence => "A card also matches as the next higher or lower card of the same suit.",
                MatchExtra::RoguePile => "A second (rogue) pile takes red cards only.",
            }
            .into(),
        );
    }
    let wilds: Vec<String> = cards_in_order(s)
        .into_iter()
        .filter(|(_, c)| c.wild.as_ref().is_some_and(|w| w.enabled))
        .map(|(sel, _)| selector_names(sel).0)
        .collect();
    if wilds.is_empty() {
        v.push("There are no wild cards.".into());
    } else {
        v.push(format!("Wild cards: {} (see the special cards).", join_and(&wilds)));
        v.push(
            match s.matching.after_wild {
                AfterWild::NominatedSuitOrWild => {
                    "After a wild card with a named suit, play that suit or another wild card."
                }
                AfterWild::NominatedSuitOrOwnWild => {
                    "After a wild card, play the named suit or your own wild card only."
                }
            }
            .into(),
        );
    }
    v
}

fn has_chain(s: &RulesSpec) -> bool {
    s.cards.values().any(|c| c.draw_chain.as_ref().is_some_and(|d| d.amount > 0))
}

fn chain_rules(s: &RulesSpec) -> Vec<String> {
    if !has_chain(s) {
        return vec![];
    }
    let c = &s.chain;
    let mut v = vec![
        match c.answer {
            ChainAnswer::SameRank => "A draw penalty is answered only by a card of the same kind (same rank or group).",
            ChainAnswer::AnyDrawCard => "Any draw-penalty card answers any draw penalty.",
            ChainAnswer::None => "A draw penalty cannot be answered.",
        }
        .to_string(),
    ];
    v.push(match c.accumulate {
        Accumulate::Sum => "Each answer adds its own amount: the next player faces the sum.".into(),
        Accumulate::Increment => format!("Each answer adds {} to the penalty.", c.increment),
        Accumulate::Fixed => "The penalty does not grow when answered: it passes on unchanged.".into(),
    });
    v.push(if c.accept_ends_turn {
        "A player who takes the penalty draws the cards and their turn ends.".into()
    } else {
        "A player who takes the penalty draws the cards and then plays on.".into()
    });
    let wild = |c: &CardSpec| c.wild.as_ref().is_some_and(|w| w.enabled);
    let wild_draw = |c: &CardSpec| wild(c) && c.draw_chain.as_ref().is_some_and(|d| d.amount > 0);
    if c.wild_blocked && s.cards.values().any(wild) {
        v.push(if s.cards.values().any(wild_draw) {
            "Wild cards cannot be played on a pending penalty, except a wild draw card on a penalty of its own kind."
                .into()
        } else {
            "Wild cards cannot be played on a pending penalty.".into()
        });
    }
    if c.needs_stock {
        v.push("A draw card played when the stock is empty is a normal card: nobody draws.".into());
    }
    if c.pickup_counts_as_pass {
        v.push("A penalty drawn in full down to the last card of the stock counts as a pass.".into());
    }
    if c.after == ChainAfter::AttackSuitOnly {
        v.push("After a penalty is taken, the next card must follow the attacking card's suit.".into());
    }
    v.push(if c.can_circle {
        "A penalty may come round to the player who started it.".into()
    } else {
        "A penalty cannot come back round to the player who started it.".into()
    });
    v
}

fn drawing(s: &RulesSpec) -> Vec<String> {
    let d = &s.draw;
    let mut v = vec![if d.voluntary {
        "A player may draw instead of playing, even when able to play.".to_string()
    } else {
        "A player who can play must play; only a player who cannot play draws.".to_string()
    }];
    v.push(match d.mode {
        DrawMode::One => "Drawing takes one card from the stock.".into(),
        DrawMode::UntilPlayable => "A player who draws keeps drawing until they draw a playable card or the stock is empty.".into(),
        DrawMode::UntilPlayableOrHand => format!(
            "A player who draws keeps drawing until they can play or hold {} cards (a player who starts the turn with that many draws one).",
            d.limit
        ),
        DrawMode::UpTo => format!("A player may draw one card at a time, up to {} in a turn.", d.limit),
    });
    v.push(
        match d.after {
            DrawAfter::EndTurn => "A drawn card cannot be played that turn: drawing ends the turn.",
            DrawAfter::MayPlayDrawn => "A drawn card may be played at once if it is legal; no other card may.",
            DrawAfter::MayPlayAny => "After drawing, the player may play any legal card or end the turn.",
            DrawAfter::MustPlayDrawnIfPlayable => "A drawn card that is playable must be played at once.",
            DrawAfter::MustPlayWhenFound => "Once drawing gives the player a playable card, they must play.",
        }
        .into(),
    );
    if d.end_of_turn > 0 {
        v.push(format!("Every player draws {} at the end of each turn.", cards_word(d.end_of_turn.into())));
    }
    v.push(
        match s.passing.when {
            PassWhen::Never => {
                "A player who does not play must draw; a player may pass only when nothing can be drawn."
            }
            PassWhen::StockEmpty => "A player who cannot (or will not) play passes when the stock is empty.",
            PassWhen::AfterOneDraw => "A player must draw one card before passing.",
            PassWhen::AfterDrawLimit => "A player who still cannot play after drawing as far as allowed passes.",
        }
        .into(),
    );
    v.push(
        match s.passing.all_pass {
            AllPass::BlockedHandEnds => "If every player passes in turn, the hand is blocked.",
            AllPass::PassIsFinal => "A player who passes is done for the hand; play goes on without them.",
        }
        .into(),
    );
    if s.passing.explicit {
        v.push("A player left with nothing to do but pass passes as a decision of their own.".into());
    }
    v.push(
        match s.stock.exhausted {
            Exhausted::ReshuffleAllButTop => {
                "When the stock runs out, the discard pile except its top card is shuffled to form a new stock."
            }
            Exhausted::TurnOverNoShuffle => {
                "When the stock runs out, the discard pile except its top card is turned over without shuffling."
            }
            Exhausted::NoReshuffle => "The stock is not replenished: once it is empty, play goes on without drawing.",
            Exhausted::KeepFive => {
                "When a turn starts with fewer than five cards in the stock, every player holding more than five keeps five of their choice and the rest are shuffled into the stock; a stock that still runs out is refilled from the discard pile under its top card."
            }
        }
        .into(),
    );
    if s.stock.refill_at_once && s.stock.exhausted != Exhausted::NoReshuffle {
        v.push("The stock is refilled as soon as its last card is drawn.".into());
    }
    v
}

fn multi(s: &RulesSpec) -> Vec<String> {
    let m = &s.multi;
    let mut v = vec![match m.mode {
        MultiMode::Off => "One card per play (apart from follow-on cards).".to_string(),
        MultiMode::EqualRank => {
            "Several cards of one rank may be played in one turn; the first must be legal and the last is the card to follow.".into()
        }
        MultiMode::MatchingRun => {
            "A turn may be a run of cards, each matching the card before it by suit or rank.".into()
        }
        MultiMode::PairsWithCover => "Pairs may be played and must be covered by a cover card.".into(),
        MultiMode::ZodiacRun => {
            "After the first card, further cards may match the top card's rank or be the next higher or lower card of its suit.".into()
        }
        MultiMode::UpTo3OrAll => "A player may play up to three cards, or their whole hand.".into(),
    }];
    if m.mode != MultiMode::Off {
        if !m.excluded.is_empty() {
            let names: Vec<String> = m.excluded.iter().map(|r| selector_names(r).0).collect();
            v.push(format!("{} cannot be played several at once.", capitalize(&join_and(&names))));
        }
        v.push(
            match m.effects {
                MultiEffects::CumulateAll => "Every card played acts (unless its own rule says once).",
                MultiEffects::TopOnly => "Only the top card acts.",
                MultiEffects::TopCardOnly => {
                    "Only the top card acts, draw cards included: several played together count as one."
                }
                MultiEffects::TopOnlyInRuns => {
                    "Copies of one rank played together all act (unless their own rule says once); in a run of one suit only the last card acts."
                }
            }
            .into(),
        );
        if m.identical_bonus {
            v.push("Playing a card identical to the last card makes every other player draw one.".into());
        }
    }
    v
}

fn last_card(s: &RulesSpec) -> Vec<String> {
    let l = &s.last_card;
    let mut v = vec![match l.mode {
        LastCardMode::Off => "No last-card announcement.".to_string(),
        LastCardMode::Auto => "The last-card announcement is always assumed to be made: there is no penalty.".into(),
        LastCardMode::Action => {
            let when = match l.timing {
                LastCardTiming::HoldingOne => "when left holding one card",
                LastCardTiming::OnPenultimatePlay => "before the play that leaves them one card",
            };
            format!(
                "A player must announce \"last card\" {when} (the announce action); otherwise they draw {} as a penalty (going out in the same turn is exempt).",
                cards_word(l.penalty.into())
            )
        }
    }];
    if l.mode == LastCardMode::Action && !l.exempt.is_empty() {
        v.push(format!("Also exempt: {}.", l.exempt.join("; ")));
    }
    v.push(format!("A special card played as the winner's last card: {}.", last_special_phrase(s.last_special)));
    v
}

fn end_and_score(s: &RulesSpec) -> Vec<String> {
    let mut v = hand_end(&s.end);
    v.extend(scoring(s));
    v
}

/// How a hand ends.
fn hand_end(e: &EndSpec) -> Vec<String> {
    let mut v = Vec::new();
    if e.empty_hand {
        v.push("The first player to get rid of all their cards wins the hand.".to_string());
    }
    if e.blocked {
        v.push("A blocked hand (nobody can play or draw) ends and is scored.".into());
    }
    if e.four_of_a_kind {
        v.push("Four cards of one rank played in a row on the pile end the hand.".into());
    }
    if e.countdown_zero {
        v.push("A player whose countdown score reaches zero wins.".into());
    }
    if e.play_for_second {
        v.push(
            "With three players, the first player to go out takes first place and leaves the hand; the \
             card they went out with has no effect. The other two play on (skips and reversals count only \
             players still in) until one of them goes out for second place. Rewards follow the finishing \
             order: +1, 0 and -1."
                .into(),
        );
    }
    v
}

/// The scoring mode, then card values and the other scoring settings.
fn scoring(s: &RulesSpec) -> Vec<String> {
    let sc = &s.score;
    let mut v = Vec::new();
    v.push(
        match sc.mode {
            ScoreMode::Penalty => {
                "Penalty scoring: every other player scores the value of the cards left in their hand; low scores are good."
            }
            ScoreMode::WinnerCollects => "The winner scores the value of the cards left in the other hands.",
            ScoreMode::PerCard => "The winner scores one point per card left in the other hands.",
            ScoreMode::Countdown => "Countdown scoring: going out lowers the player's score by one.",
            ScoreMode::None => "No points: a hand is only won or lost.",
        }
        .into(),
    );
    if sc.mode == ScoreMode::None {
        return v;
    }
    v.extend(card_values(s));
    if sc.double_last_rank {
        v.push(
            "Cards of the rank of the last card played count double (all cards when the last card is a joker).".into(),
        );
    }
    if sc.double_trouble {
        v.push("Double Trouble: doubling extends to the last card's group (2-5, 6-9, picture cards).".into());
    }
    if sc.winner_bonus != 0 {
        v.push(format!("The winner of a hand adds {} to their score.", sc.winner_bonus));
    }
    if s.end.blocked {
        v.push(
            match sc.blocked {
                BlockedScoring::AllScore => "In a blocked hand every player scores their own cards.",
                BlockedScoring::Nobody => "In a blocked hand nobody scores.",
                BlockedScoring::LowestCollects => {
                    "In a blocked hand the player with the lowest hand value collects the others' values."
                }
            }
            .into(),
        );
    }
    v
}

/// `score.values` and `score.values_by_players`, in rank order.
fn card_values(s: &RulesSpec) -> Vec<String> {
    let sc = &s.score;
    let mut v = Vec::new();
    if !sc.values.is_empty() {
        let listed: u64 = sc.values.keys().filter_map(|sel| parse_selector(sel)).fold(0, |m, (x, _)| m | x);
        let in_deck = if s.deck.jokers > 0 { (1u64 << 54) - 1 } else { (1u64 << 52) - 1 };
        let rest = if listed & in_deck == in_deck { "" } else { "; other cards 0" };
        v.push(format!("Card values: {}{rest}.", value_list(&sc.values)));
    }
    for (k, table) in &sc.values_by_players {
        v.push(format!("With {k} players: {}.", value_list(table)));
    }
    v
}

/// `label value, ...` in rank order.
fn value_list(values: &std::collections::BTreeMap<String, i32>) -> String {
    let mut vals: Vec<(&String, &i32)> = values.iter().collect();
    vals.sort_by_key(|(sel, _)| selector_key(sel));
    let parts: Vec<String> = vals.iter().map(|(sel, p)| format!("{} {p}", value_label(sel))).collect();
    parts.join(", ")
}

/// Compact card name for value lists: `8`, `10`, `QS`, `joker`, `black J`.
fn value_label(sel: &str) -> String {
    match Rank::parse(sel) {
        Some(Rank::Ten) => "10".into(),
        Some(r) => r.letter().to_string(),
        None => sel.to_string(),
    }
}

fn series(s: &RulesSpec) -> Vec<String> {
    let sr = &s.series;
    let target = match (sr.target_per_player, sr.target) {
        (Some(t), _) => Some(format!("{t} points per player")),
        (None, Some(t)) => Some(format!("{t} points")),
        _ => None,
    };
    let winner = match sr.winner {
        SeriesWinner::Lowest => "the lowest total then wins",
        SeriesWinner::FirstToReach => "the first to reach it wins",
        SeriesWinner::LastBelow => "the last player below it wins",
    };
    let mut v = Vec::new();
    if sr.play_match {
        v.push(match &target {
            Some(t) => format!("An episode is a match: hands are played until a player reaches {t}; {winner}."),
            None => "An episode is a match of several hands.".into(),
        });
    } else {
        v.push(match &target {
            Some(t) if s.score.mode != ScoreMode::None => format!(
                "An episode is one hand (with series.match = true, hands are played until a player reaches {t}; {winner})."
            ),
            _ => "An episode is one hand.".into(),
        });
    }
    if let Some(h) = sr.max_hands {
        v.push(format!("A match ends after at most {h} hands."));
    }
    if let Some(c) = &s.countdown {
        v.push(format!(
            "Countdown: every player starts at {} and is dealt that many cards{}.",
            c.start_score,
            if c.equal_rank_on_wild { "; a card of the wild's rank may follow a wild" } else { "" }
        ));
    }
    if s.limits.max_decisions > 0 {
        v.push(format!("The engine truncates an episode after {} decisions.", s.limits.max_decisions));
    }
    v
}

fn options(s: &RulesSpec) -> Vec<String> {
    let o = &s.options;
    let mut v = Vec::new();
    if o.silly_hat {
        v.push("Silly Hat: the last player skipped by an ace scores -10 at the end of the hand.".into());
    }
    if o.joker_bluff {
        v.push(
            "Joker bluff: a joker that may normally be played only when no other card is playable may be played at \
             any time, and the next player chooses to challenge it or not. Not challenged, it acts as usual. \
             Challenged and illegal (another card was playable), it goes back to its player's hand, who draws its \
             penalty and misses their next turn, and the challenger plays on the previous top card. Challenged and \
             legal, the challenger draws its penalty plus 2 and loses the turn. A joker played as the last card is \
             always legal."
                .into(),
        );
    }
    if let Some(r) = o.replay_drawn_pickup {
        v.push(format!("A drawn pick-up card {} be laid after a penalty.", if r { "may" } else { "may not" }));
    }
    if let Some(z) = &o.zodiac_card {
        v.push(format!("Zodiac card: {z}."));
    }
    if o.wild_instapik {
        v.push(
            "Wild Instapik: before each hand a number rank from 2 to 10 is drawn at random (a card turned from the \
             pack without its aces and court cards, after one card is burnt), and every player knows it. For that \
             hand the cards of that rank are wild in place of the eights, with the eights' rule, and the eights are \
             ordinary cards (unless the rank drawn is 8)."
                .into(),
        );
    }
    if o.shield_same_suit {
        v.push("Shields must match the attacking card's suit.".into());
    }
    if o.allow_500 {
        v.push(
            "The 500 rule (three or more players): a player whose match total reaches 500 wins the match at once \
             (checked before the last-below rule; the highest total wins if several reach 500 in one hand, none \
             on a tie). Literal reading of the source: under penalty scoring the winner then holds the worst total."
                .into(),
        );
    }
    if !o.public_rules.is_empty() {
        v.push(format!("Public rules: {}.", o.public_rules.join(", ")));
    }
    if let Some(x) = &o.speed_in {
        v.push(format!("Out-of-turn plays: {x}."));
    }
    v
}

fn key_part(k: &str) -> String {
    if !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        k.to_string()
    } else {
        format!("{k:?}")
    }
}

fn value_text(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("{s:?}"),
        Value::Array(a) => format!("[{}]", a.iter().map(value_text).collect::<Vec<_>>().join(", ")),
        Value::Object(m) if m.is_empty() => "{}".into(),
        Value::Object(m) => {
            format!(
                "{{ {} }}",
                m.iter().map(|(k, x)| format!("{} = {}", key_part(k), value_text(x))).collect::<Vec<_>>().join(", ")
            )
        }
    }
}

fn flatten_into(prefix: &str, v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, x) in m {
                let p = if prefix.is_empty() { key_part(k) } else { format!("{prefix}.{}", key_part(k)) };
                flatten_into(&p, x, out);
            }
        }
        _ => out.push(format!("{prefix} = {}", value_text(v))),
    }
}

/// A `variant.*` overlay (or any rules table) as dotted settings, e.g.
/// `["draw.mode = \"until_playable\"", "draw.after = \"may_play_drawn\""]`.
pub fn variant_changes(overlay: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if overlay.as_object().is_some_and(|m| !m.is_empty()) {
        flatten_into("", overlay, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{load_spec, preset_names};
    use serde_json::json;

    #[test]
    fn every_preset_is_described_deterministically() {
        for name in preset_names() {
            let spec = load_spec(name, None).unwrap();
            let a = describe(&spec);
            assert_eq!(a, describe(&spec.clone()), "{name}");
            assert!(a.contains(&spec.title), "{name}: title missing");
            for heading in ["## Players and deck", "## Special cards", "## Drawing and passing", "## Match"] {
                assert!(a.contains(heading), "{name}: {heading} missing");
            }
            for v in spec.variant.keys() {
                assert!(a.contains(&format!("- {v}: ")), "{name}: variant {v} missing");
            }
            for s in &spec.simplifications {
                assert!(a.contains(s.as_str()), "{name}: simplification missing");
            }
        }
    }

    #[test]
    fn crazy_eights_in_words() {
        let d = describe(&load_spec("crazy_eights", None).unwrap());
        assert!(d.starts_with("Crazy Eights (crazy_eights)\n===="), "{d}");
        assert!(d.contains("- 2 to 10 players."), "{d}");
        assert!(d.contains("One 52-card pack, no jokers; two 52-card packs shuffled together from 6 players."), "{d}");
        assert!(d.contains("Each player is dealt 5 cards (7 with 2 players)."), "{d}");
        assert!(d.contains("Eights [8]: wild: playable on any card; its player names the suit to follow."), "{d}");
        assert!(d.contains("A drawn card cannot be played that turn"), "{d}");
        assert!(d.contains("the discard pile except its top card is shuffled"), "{d}");
        assert!(
            d.contains("Card values: A 1, 2 2, 3 3, 4 4, 5 5, 6 6, 7 7, 8 50, 9 9, 10 10, J 10, Q 10, K 10."),
            "{d}"
        );
        assert!(
            d.contains("- draw_until_playable: draw.after = \"may_play_drawn\", draw.mode = \"until_playable\""),
            "{d}"
        );
        assert!(!d.contains("## Draw penalties"), "{d}");
    }

    #[test]
    fn specials_in_words() {
        let spec = load_spec("switch_blackjack", None).unwrap();
        let cards = special_cards(&spec);
        let find = |sel: &str| cards.iter().find(|c| c.selector == sel).unwrap_or_else(|| panic!("{sel}: {cards:?}"));
        assert_eq!(cards.first().map(|c| c.selector.as_str()), Some("A"));
        assert!(find("2").effects[0].contains("draws 2 unless they answer with another two"), "{:?}", find("2"));
        assert!(find("black J").effects[0].contains("draws 7 unless they answer with another black jack"));
        assert!(find("red J").effects[0].contains("penalty from a black jack"), "{:?}", find("red J"));
        assert!(find("3").effects[0].starts_with("reverses the direction"));
        assert!(find("8").effects[0].starts_with("the next player misses a turn"));
        assert!(find("Q").effects[0].contains("any number of cards of its suit"));
        assert!(find("A").effects.iter().any(|e| e == "playing it ends the turn"));
        assert_eq!(find("black J").label, "Black jacks");
        let d = describe(&spec);
        assert!(d.contains("## Draw penalties"), "{d}");
        assert!(d.contains("turned over without shuffling"), "{d}");
        assert!(d.contains("No points: a hand is only won or lost."), "{d}");
    }

    #[test]
    fn neutral_settings_are_left_out_unless_they_override() {
        // chase_the_ace removes the jack functions: the jacks have nothing to say.
        let spec = load_spec("chase_the_ace", None).unwrap();
        assert!(special_cards(&spec).iter().all(|c| !c.selector.contains('J')), "{:?}", special_cards(&spec));
        // The queen of spades overrides the queens' skip: that is said.
        let spec = load_spec("crazy_eights_specials", Some(&json!({"variants": ["queen_of_spades_draw_5"]}))).unwrap();
        let qs = special_cards(&spec).into_iter().find(|c| c.selector == "QS").unwrap();
        assert_eq!(qs.label, "The queen of spades");
        assert!(qs.effects.contains(&"does not skip".to_string()), "{qs:?}");
        assert!(qs.effects.iter().any(|e| e.contains("draws 5 and misses their turn")), "{qs:?}");
        let d = describe(&spec);
        assert!(d.contains("## Variants in play\n\n- queen_of_spades_draw_5.\n"), "{d}");
    }

    #[test]
    fn every_effect_and_mode_has_words() {
        let spec = load_spec(
            "crazy_eights",
            Some(&json!({
                "players": {"min": 2, "max": 2},
                "deck": {"jokers": 2},
                "draw": {"voluntary": false, "mode": "up_to", "limit": 3, "after": "may_play_any"},
                "pass": {"when": "after_draw_limit", "all_pass": "pass_is_final"},
                "stock": {"exhausted": "no_reshuffle"},
                "multi": {"mode": "equal_rank", "excluded": ["K"]},
                "chain": {"answer": "any_draw_card", "accumulate": "increment", "increment": 2, "accept_ends_turn": false},
                "last_card": {"mode": "action", "penalty": 2, "timing": "on_penultimate_play"},
                "series": {"match": true, "target": 100},
                "cards": {
                    "2": {"draw_chain": {"amount": 2}},
                    "3": {"draw_keep_turn": 3},
                    "4": {"others_draw": 1},
                    "5": {"give": "one"},
                    "6": {"extra_turn": true},
                    "7": {"draw_and_lose_turn": 2},
                    "9": {"free_play_next": true, "repeat": "once"},
                    "J": {"follow": "one_matching"},
                    "K": {"nominate": "optional"},
                    "red J": {"cancel": ["any"]},
                    "joker": {"wild": {"nominate": "none", "follow": "free", "solo": true}},
                },
            })),
        )
        .unwrap();
        let d = describe(&spec);
        for want in [
            "Two players.",
            "with two jokers per pack",
            "A player who can play must play",
            "up to 3 in a turn",
            "after drawing as far as allowed passes",
            "done for the hand",
            "The stock is not replenished",
            "Kings cannot be played several at once.",
            "Any draw-penalty card answers any draw penalty.",
            "Each answer adds 2 to the penalty.",
            "then plays on",
            "announce \"last card\" before the play that leaves them one card",
            "An episode is a match",
            "the next player draws 3 and then plays as usual",
            "every other player draws one card",
            "gives the next player one card",
            "takes another turn",
            "draws 2 and misses their turn",
            "several played together act only once",
            "cover it with one card matching it",
            "may name a new suit or keep the current one",
            "cancels it: nobody draws",
            "the next player may play any card on it",
            "it must be the only card of its turn",
        ] {
            assert!(d.contains(want), "missing {want:?} in:\n{d}");
        }
    }

    #[test]
    fn variant_changes_are_dotted() {
        let v = json!({"cards": {"black J": {"repeat": "once"}, "8": {"wild": {"enabled": false}}}, "multi": {"excluded": ["J"]}});
        assert_eq!(
            variant_changes(&v),
            vec![
                "cards.8.wild.enabled = false".to_string(),
                "cards.\"black J\".repeat = \"once\"".to_string(),
                "multi.excluded = [\"J\"]".to_string(),
            ]
        );
        assert!(variant_changes(&json!({})).is_empty());
    }
}
