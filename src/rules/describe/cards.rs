//! The effect table in words: what each selector of the `cards` table does, as phrases,
//! with settings that only restate a more general selector left out.

use super::words::*;
use crate::card::Card;
use crate::rules::selector::parse_selector;
use crate::rules::spec::*;

/// Whether `sel` names jokers only while the deck holds none (`deck.jokers = 0`): a preset
/// may give jokers their effects for a variant that adds them, and such an entry acts on
/// nothing until then.
pub(super) fn absent_jokers(spec: &RulesSpec, sel: &str) -> bool {
    let jokers = (1u64 << Card::RED_JOKER.index()) | (1u64 << Card::BLACK_JOKER.index());
    spec.deck.jokers == 0 && parse_selector(sel).is_some_and(|(m, _)| m != 0 && m & !jokers == 0)
}

/// Sort key of a selector: lowest rank it names (jokers last), then specificity, then text.
pub(super) fn selector_key(sel: &str) -> (usize, u8, String) {
    match parse_selector(sel) {
        Some((mask, lvl)) => {
            let low = (0..54).filter(|i| mask & (1u64 << i) != 0).map(|i| if i >= 52 { 13 } else { i % 13 }).min();
            (low.unwrap_or(14), lvl, sel.to_string())
        }
        None => (15, 9, sel.to_string()),
    }
}

pub(super) fn cards_in_order(spec: &RulesSpec) -> Vec<(&String, &CardSpec)> {
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

fn skip_phrase(k: u8) -> String {
    let base = if k == 1 {
        "the next player misses a turn".to_string()
    } else {
        format!("the next {} players miss their turn", number_word(k.into()))
    };
    if k == 1 { format!("{base} (with two players the same player plays again)") } else { base }
}

fn nominate_phrase(n: Nominate) -> Option<&'static str> {
    match n {
        Nominate::Required => Some("its player names the suit to follow"),
        Nominate::Optional => Some("its player may name a new suit or let the card's own suit stand"),
        Nominate::OptionalKeepSuit => {
            Some("its player may name a new suit or leave the suit that was in force before it")
        }
        Nominate::OnlyIfMatching => {
            Some("its player may name a different suit only if the card matched the previous card")
        }
        Nominate::None => None,
    }
}

pub(super) fn last_special_phrase(l: LastSpecial) -> &'static str {
    match l {
        LastSpecial::Ignored => "the hand ends at once and its effect is ignored",
        LastSpecial::DrawsApply => "its draws are made, then the hand is scored",
        LastSpecial::AsDuringHand => "it acts as during the hand",
        LastSpecial::ChainContinues => {
            "its draw chain goes on and the hand ends when the chain does (the penalty taken, or the chain broken); \
             the player who went out scores the cards the chain left them, as the others do"
        }
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
        p.push("skip", k > 0, if k > 0 { skip_phrase(k) } else { "does not skip".into() });
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
        ChainAnswer::None => "(no draw card answers it)".into(),
    };
    let grows = match dc.accumulate {
        Some(Accumulate::Fixed) => "; as an answer it adds nothing: the penalty becomes its amount if that is more",
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
        // The groups by their cards, as a cancel names them (a group's own name is internal).
        let groups: Vec<String> = sh
            .against
            .iter()
            .map(|g| {
                let m = chain_group_members(spec, g);
                if m.is_empty() { g.clone() } else { join_or(&m) }
            })
            .collect();
        let against = if groups.is_empty() {
            "any pending penalty".to_string()
        } else {
            format!("a pending penalty from {}", join_or(&groups))
        };
        let through = if sh.pass_through {
            " without ending it: the penalty, unchanged, passes on to the next player"
        } else {
            ""
        };
        let suit = if sh.same_suit { " (only on a top card of its own suit)" } else { "" };
        p.push("shield", true, format!("shields its player from {against}{suit}{through}"));
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
    if let Some(r) = cs.repeat {
        match r {
            Repeat::Once => p.push("repeat", true, "several played together act only once"),
            Repeat::Each => p.push("repeat", false, "each copy played together acts"),
        }
    }
    if let Some(l) = cs.last_special {
        // Said only of a card that does something: an ordinary card has no effect to apply.
        let acts = p.items.iter().any(|(_, active, _)| *active);
        p.push(
            "last_special",
            acts && l != spec.last_special,
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
