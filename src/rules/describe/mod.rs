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
//!
//! Files: this one holds [`describe`]; `words` the words shared by the others (numbers,
//! ranks, suits, selectors, lists); `cards` the effect table in words, `sections` the other
//! sections of the text, `variants` the rendering of an overlay.

use super::spec::*;
use std::fmt::Write as _;

mod cards;
mod sections;
mod variants;
mod words;

use cards::absent_jokers;
pub use cards::special_cards;
use sections::{
    chain_rules, deal_and_start, drawing, end_and_score, last_card, matching, multi, options, players_and_deck, series,
};
pub use variants::variant_changes;
pub(crate) use words::rank_name;
pub use words::{SpecialCard, selector_label};

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
        specials
            .iter()
            .map(|c| {
                // Said, not left to contradict the deck's line.
                let absent = if absent_jokers(s, &c.selector) { " (no joker is in play: deck.jokers = 0)" } else { "" };
                format!("{} [{}]: {}{absent}.", c.label, c.selector, c.effects.join("; "))
            })
            .collect()
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
        for (name, overlay) in s.variant.iter() {
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

// Tests only (moved with the file): the unwraps load embedded presets and look up selectors
// those presets define; no user input reaches them.
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
    fn player_counts_the_deal_cannot_seat_are_left_out_with_the_reason() {
        // 20 cards each: 41 cards for two players, 61 for three against one pack of 52 (two
        // packs of 104 from six players: 121 needed). The unwraps load the embedded preset with
        // a fixed, valid override: no input reaches them.
        let spec = load_spec("crazy_eights", Some(&json!({"deal": {"hand_size": 20, "hand_size_by_players": {}}})));
        let d = describe(&spec.unwrap());
        assert!(d.contains("- 2 players only (2 to 10 in its range; with 3, "), "{d}");
        assert!(d.contains("needs 61 cards"), "{d}");
        let spec = load_spec("crazy_eights", Some(&json!({"deal": {"hand_size": 12, "hand_size_by_players": {}}})));
        // 12 each: 4 players need 49 of 52; 5 need 61; from 6, two packs: 8 need 97 of 104, 9 need 109.
        let d = describe(&spec.unwrap());
        assert!(d.contains("- 2 to 4 and 6 to 8 players only (2 to 10 in its range; with 5, "), "{d}");
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
                    "Q": {"nominate": "optional_keep_suit"},
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
            "may name a new suit or let the card's own suit stand",
            "may name a new suit or leave the suit that was in force before it",
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
