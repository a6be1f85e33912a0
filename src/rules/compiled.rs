//! The engine-ready rule set: [`Rules`], compiled once for a player count from a
//! [`RulesSpec`] (see [`Rules::from_spec`]), with one [`CardRule`] per face and the table-wide
//! [`Settings`]; and the compact per-face rule features.

use super::error::RulesError;
use super::load::load_spec;
use super::settings::Settings;
use super::spec::*;
use crate::card::{Card, NUM_FACES, Suit};
use crate::card_set::{CardCounts, Pile};
use serde_json::Value;

/// Most players any preset allows (defined with the specification, whose ranges use it).
pub use super::spec::MAX_PLAYERS;

/// A draw chain carried by a card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChainRule {
    /// Answer rule when one turn adds two or more of these cards.
    pub multi_answer: Option<ChainAnswer>,
    pub amount: u8,
    /// Chain group id (index into [`Rules::chain_groups`]).
    pub group: u8,
    pub answer: ChainAnswer,
    /// How an answer with this card grows the pending penalty.
    pub accumulate: Accumulate,
}

/// A wild card's compiled behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WildRule {
    /// Inside a run it is an ordinary card (zodiac 8s).
    pub also_normal: bool,
    pub requires_match: bool,
    pub only_if_no_other: bool,
    /// Faces on which it may not be played.
    pub forbidden_on: u64,
    pub solo: bool,
    pub follow: WildFollow,
}

/// Everything one card face does under a rule set: the compiled effect table entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CardRule {
    pub wild: Option<WildRule>,
    /// Nomination after placing it (wilds and suit changers); `None` for no nomination.
    pub nominate: Option<Nominate>,
    pub skip: u8,
    pub reverse: bool,
    pub chain: Option<ChainRule>,
    pub draw_lose: u8,
    pub draw_keep: u8,
    /// Chain groups cancelled (bit per group; all bits for "any").
    pub cancel: u32,
    pub free_play_next: bool,
    pub follow: Option<Follow>,
    pub ends_turn: bool,
    pub extra_turn: bool,
    pub others_draw: u8,
    /// Cards its player hands to opponents.
    pub give: Option<Give>,
    /// The next player draws this many from the shuffled waste pile.
    pub waste_draw: u8,
    /// K and Q of one suit may be played together.
    pub marriage: bool,
    /// The next player must play a picture card (J, Q or K) or draw.
    pub next_picture: bool,
    /// Chain groups this card shields against (the attack ends, nobody draws).
    pub shield: u32,
    /// Shield pass-through: the chain goes on, unchanged, to the player after the shielding one.
    pub shield_through: bool,
    /// The shield must be of the top card's suit.
    pub shield_same_suit: bool,
    /// Its player names a second suit the next player may follow.
    pub second_suit: bool,
    /// The player may swap hands with another player.
    pub swap_hand: bool,
    /// The player names a rank (or QS, or joker) the next player must play.
    pub ask_rank: bool,
    /// The next player picks up this many cards under it and loses the turn.
    pub pick_up_pile: u8,
    /// The card must be covered by one of its suit (or a wild).
    pub must_cover: bool,
    /// After it only even spot cards may follow (rose_mau menu).
    pub next_even: bool,
    /// Every player passes their hand one seat this way.
    pub pass_hands: Option<Side>,
    /// Mirrors a pending draw chain or an `others_draw` card of its suit.
    pub mirror: bool,
    /// Playable only on a K, and only a K (of its colour) may follow it.
    pub joker_lock: bool,
    pub repeat: Repeat,
    pub last_special: LastSpecial,
}

impl CardRule {
    /// True when the card has any special effect.
    pub fn is_special(&self) -> bool {
        *self != CardRule { repeat: self.repeat, last_special: self.last_special, ..CardRule::default() }
    }
}

/// A validated rule set for a given player count, ready for the engine.
#[derive(Debug, Clone)]
pub struct Rules {
    /// The resolved specification it was built from.
    pub spec: RulesSpec,
    pub num_players: u8,
    pub packs: u8,
    /// Copies of each face in the full deck.
    pub deck: CardCounts,
    /// The full deck in face order: the pack every deal copies and shuffles.
    pub pack: Pile,
    pub hand_size: u8,
    pub card: [CardRule; NUM_FACES],
    pub points: [i32; NUM_FACES],
    /// Some face scores penalty points (`points` is not all zero).
    pub has_points: bool,
    /// Names of chain groups, by id.
    pub chain_groups: Vec<String>,
    /// Faces that match only by suit (`match.rank_blocked`).
    pub rank_blocked: u64,
    /// Start-card effect per face.
    pub start: [StartEffect; NUM_FACES],
    pub series_target: Option<u32>,
    /// Faces that double a hand's value when held (`score.double_per`).
    pub double_mask: u64,
    /// `match.extra` contains arithmetic (stalin).
    pub arithmetic: bool,
    /// `match.extra` contains the rogue pile (stalin).
    pub rogue: bool,
    /// Faces carrying `joker_lock` (larby_switch jokers).
    pub lock_mask: u64,
    /// Per face, the faces that match it by suit when it is the card to match and no suit is
    /// nominated (its suit's 13 faces; none for a joker): a table for the matching fast path.
    pub match_suit: [u64; NUM_FACES],
    /// Per face, the faces that match it by rank when it is the card to match: its rank's
    /// faces (any court with `match.any_court`) less `rank_blocked`, and on a king the
    /// locking jokers; none for a joker.
    pub match_rank: [u64; NUM_FACES],
    /// Faces with a wild rule (`card[i].wild` is set), for the bitset fast path of legal plays.
    pub wild_mask: u64,
    /// Faces whose wild rule has no condition (not `requires_match`, not `only_if_no_other`,
    /// nothing `forbidden_on`): playable on anything when no one-turn constraint applies.
    pub free_wild_mask: u64,
    /// Faces whose wild rule is not `solo`, and those whose rule is (follow-on plays).
    pub nonsolo_wild_mask: u64,
    pub solo_wild_mask: u64,
    /// Faces whose wild rule is `only_if_no_other`.
    pub oino_wild_mask: u64,
    /// Faces whose wild rule may continue a matching run (`multi.mode = matching_run`):
    /// not `solo`, not `only_if_no_other`, not `requires_match`.
    pub run_wild_mask: u64,
    /// Faces whose play in a fresh turn may be only "place it and pass the turn on" (see
    /// `Game::play_plain`): cards with no effect at all (`CardRule::default()`), in a rule
    /// set whose table-wide settings add nothing to such a play; 0 in the others.
    pub plain_mask: u64,
    /// Faces with no card rule at all (`CardRule::default()`), whatever the table settings.
    pub default_mask: u64,
    /// Faces that are transparent wilds (the card under them is matched).
    pub transparent_mask: u64,
    /// Some card carries `mirror`.
    pub has_mirror: bool,
    /// Some card carries a follow-on (`follow`).
    pub has_follow: bool,
    /// Some card moves cards openly between players (give, pass or swap hands, pick up the
    /// pile), so the game keeps what each seat has seen.
    pub moves_cards_openly: bool,
    /// The table-wide settings compiled for play.
    pub settings: Settings,
}

impl Rules {
    /// Load a preset with overrides and compile it for `num_players`.
    pub fn load(preset: &str, num_players: usize, overrides: Option<&Value>) -> Result<Rules, RulesError> {
        Rules::from_spec(load_spec(preset, overrides)?, num_players)
    }

    /// The nominated suits a nominating card allows (any suit).
    pub fn suits(&self) -> [Suit; 4] {
        Suit::ALL
    }

    /// Compact per-face rule features, row-major `NUM_FACES x RULE_FEATURES`: see
    /// [`RULE_FEATURE_NAMES`].
    pub fn features(&self, out: &mut [f32]) {
        assert_eq!(out.len(), NUM_FACES * RULE_FEATURES);
        for i in 0..NUM_FACES {
            let r = &self.card[i];
            let row = &mut out[i * RULE_FEATURES..(i + 1) * RULE_FEATURES];
            // i < NUM_FACES (54) fits u8; points are bounded by MAX_CARD_POINTS, exact in f32.
            row[0] = f32::from(self.deck.count(Card(i as u8)));
            row[1] = f32::from(r.wild.is_some() as u8);
            row[2] = f32::from(r.nominate.is_some() as u8);
            row[3] = f32::from(r.skip);
            row[4] = f32::from(r.reverse as u8);
            row[5] = r.chain.map_or(0.0, |c| f32::from(c.amount));
            row[6] = f32::from(r.draw_lose);
            row[7] = f32::from((r.cancel != 0) as u8);
            row[8] = f32::from(r.free_play_next as u8);
            row[9] = f32::from(r.follow.is_some() as u8);
            row[10] = f32::from(r.ends_turn as u8);
            row[11] = self.points[i] as f32;
        }
    }
}

/// Number of per-face rule features.
pub const RULE_FEATURES: usize = 12;
/// Names of the per-face rule features, in column order.
pub const RULE_FEATURE_NAMES: [&str; RULE_FEATURES] = [
    "copies_in_deck",
    "wild",
    "nominates",
    "skip",
    "reverse",
    "draw_chain_amount",
    "draw_and_lose_turn",
    "cancels_chain",
    "free_play_next",
    "follow_on",
    "ends_turn",
    "points",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::load::preset_names;
    use serde_json::json;

    #[test]
    fn every_preset_loads_for_its_player_counts() {
        for name in preset_names() {
            let spec = load_spec(name, None).unwrap();
            for n in spec.players.min..=spec.players.max {
                Rules::from_spec(spec.clone(), n as usize).unwrap_or_else(|e| panic!("{name} n={n}: {e}"));
            }
        }
    }

    #[test]
    fn deck_too_small_names_hand_size() {
        let e = Rules::load("crazy_eights", 5, Some(&json!({"deal": {"hand_size": 30}}))).unwrap_err();
        assert_eq!(e.field(), Some("deal.hand_size"), "{e}");
    }

    #[test]
    fn selectors_resolve_by_specificity() {
        let r = Rules::load("switch_blackjack", 3, None).unwrap();
        let js: Card = "JS".parse().unwrap();
        let jh: Card = "JH".parse().unwrap();
        assert_eq!(r.card[js.index()].chain.map(|c| c.amount), Some(7));
        assert!(r.card[jh.index()].chain.is_none());
        assert_ne!(r.card[jh.index()].cancel, 0);
    }

    #[test]
    fn crazy_eights_deck_doubles_from_six_players() {
        assert_eq!(Rules::load("crazy_eights", 5, None).unwrap().deck.len(), 52);
        assert_eq!(Rules::load("crazy_eights", 6, None).unwrap().deck.len(), 104);
        assert_eq!(Rules::load("crazy_eights", 2, None).unwrap().hand_size, 7);
        assert_eq!(Rules::load("crazy_eights", 3, None).unwrap().hand_size, 5);
    }

    #[test]
    fn unsupported_dimensions_are_named() {
        let over = json!({"options": {"speed_in": "priority_window"}});
        let e = Rules::load("crazy_eights", 2, Some(&over)).unwrap_err();
        assert!(matches!(e, RulesError::Unsupported { .. }), "{e}");
        assert_eq!(e.field(), Some("options.speed_in"));
    }

    #[test]
    fn jokers_without_a_rule_are_rejected() {
        // A preset that includes jokers must give them a rule.
        let e = Rules::load("crazy_eights", 3, Some(&json!({"deck": {"jokers": 2}}))).unwrap_err();
        assert!(matches!(e, RulesError::Invalid { .. }), "{e}");
        assert_eq!(e.field(), Some("deck.jokers"));
        let over = json!({"deck": {"jokers": 2}, "cards": {"joker": {"wild": {}}}});
        assert!(Rules::load("crazy_eights", 3, Some(&over)).is_ok());
    }

    #[test]
    fn joker_lock_belongs_to_jokers() {
        let e = Rules::load("larby_switch", 3, Some(&json!({"cards": {"5": {"joker_lock": true}}}))).unwrap_err();
        assert_eq!(e.field(), Some("cards.5C.joker_lock"), "{e}");
        let r = Rules::load("larby_switch", 3, Some(&json!({"variants": ["no_jokers"]}))).unwrap();
        assert_eq!(r.deck.count(Card::RED_JOKER), 0);
        let r = Rules::load("larby_switch", 6, None).unwrap();
        assert_eq!(r.deck.len(), 2 * 54);
    }

    #[test]
    fn explicit_hand_size_wins_over_the_per_player_table() {
        let r = Rules::load("crazy_eights", 2, Some(&json!({"deal": {"hand_size": 4}}))).unwrap();
        assert_eq!(r.hand_size, 4);
    }

    #[test]
    fn wild_instapik_needs_wild_eights_and_no_other_wild_number_rank() {
        let on = json!({"options": {"wild_instapik": true}});
        assert!(Rules::load("zodiac", 3, Some(&on)).is_ok());
        assert!(Rules::load("crazy_eights", 3, Some(&on)).is_ok());
        for (preset, over) in [
            ("crazy_eights", json!({"options": {"wild_instapik": true}, "variants": ["jacks_wild"]})),
            ("crazy_eights", json!({"options": {"wild_instapik": true}, "variants": ["sevens_wild"]})),
            ("crazy_eights_countdown", on.clone()),
        ] {
            let e = Rules::load(preset, 3, Some(&over)).unwrap_err();
            assert_eq!(e.field(), Some("options.wild_instapik"), "{preset} {over}: {e}");
        }
    }

    #[test]
    fn a_bad_rank_in_multi_excluded_is_an_error_at_load_time() {
        let mut spec = load_spec("crazy_eights", None).unwrap();
        spec.multi.excluded = vec!["K".into(), "Z".into()];
        match Settings::compile(&spec) {
            Err(RulesError::Invalid { field, message }) => {
                assert_eq!(field, "multi.excluded");
                assert!(message.contains("\"Z\""), "{message}");
            }
            other => panic!("expected an invalid multi.excluded, got {other:?}"),
        }
        let Err(err) = Rules::from_spec(spec, 2) else { panic!("rules with a bad multi.excluded loaded") };
        assert!(err.to_string().contains("multi.excluded"), "{err}");
    }
}
