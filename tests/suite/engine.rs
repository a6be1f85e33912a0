//! Engine checks of single rules that the conformance and golden tests do not pin down: one
//! hand-built position per rule, with the rule quoted or named by its rules field.

use eights::action::{self, Action};
use eights::card::Card;
use eights::game::{Game, Phase, Position};
use eights::rules::Rules;
use serde_json::json;
use std::sync::Arc;

fn cards(s: &str) -> Vec<Card> {
    s.split_whitespace().map(|c| c.parse().unwrap()).collect()
}

fn rules(preset: &str, n: usize, over: serde_json::Value) -> Arc<Rules> {
    Arc::new(Rules::load(preset, n, Some(&over)).unwrap())
}

fn pos(r: &Arc<Rules>, hands: &[&str], discard: &str, stock: &str) -> Game {
    let p = Position {
        hands: hands.iter().map(|h| cards(h)).collect(),
        discard: cards(discard),
        stock: Some(cards(stock)),
        direction: 1,
        ..Default::default()
    };
    Game::from_position(r.clone(), &p).unwrap()
}

fn play(g: &mut Game, a: &str) {
    let id = Action::parse(a).unwrap().id();
    g.step(id).unwrap_or_else(|e| panic!("{a}: {e}\n{}", g.render()));
}

/// crazy_eights_specials variant: "the Queen of Spades requires the next player to draw 5
/// cards" (`draw_and_lose_turn`: draw and lose the turn, no answer).
#[test]
fn queen_of_spades_variant_draws_five_and_loses_the_turn() {
    let r = rules("crazy_eights_specials", 3, json!({"variants": ["queen_of_spades_draw_5"]}));
    let mut g = pos(&r, &["QS 3C", "2S 9H", "4D 5D"], "4S", "AC AD AH 6C 6D 6H 7C");
    play(&mut g, "play QS");
    assert_eq!(g.hand(1).len(), 7, "P1 drew 5");
    assert_eq!(g.current_player(), Some(2), "P1 lost the turn");
    assert_eq!(g.pending_draw(), 0, "no chain to answer");
}

/// `last_card.mode = action`: without `announce`, the player left with one card draws
/// the penalty at once; with it, nothing happens.
#[test]
fn last_card_penalty_in_action_mode() {
    let r = rules("crazy_eights", 2, json!({"last_card": {"mode": "action"}}));
    let mut g = pos(&r, &["5C 9D", "KH KS"], "5H", "2C 3C 4C");
    play(&mut g, "play 5C");
    assert_eq!(g.hand(0).len(), 3, "1 card left plus a penalty of 2");
    let mut g = pos(&r, &["5C 9D", "KH KS"], "5H", "2C 3C 4C");
    assert!(g.legal_action_vec().contains(&action::ANNOUNCE));
    play(&mut g, "announce");
    play(&mut g, "play 5C");
    assert_eq!(g.hand(0).len(), 1);
    assert_eq!(g.current_player(), Some(1));
}

/// crazy_eights variant `no_reshuffle`: with an empty stock players pass; when all pass the
/// hand is blocked and every player scores their hand.
#[test]
fn blocked_hand_scores_every_hand() {
    let r = rules("crazy_eights", 2, json!({"variants": ["no_reshuffle"]}));
    let mut g = pos(&r, &["KC 2D", "3C 4D 5D"], "AS QS 9H", "");
    assert_eq!(g.legal_action_vec(), vec![action::PASS]);
    play(&mut g, "pass");
    play(&mut g, "pass");
    assert!(g.is_terminal());
    assert_eq!(g.hand_points(), &[12, 12]);
    assert_eq!(g.winner(), None, "a tie has no winner");
}

/// crazy_eights variant `match_to_100` (`series.match`): a match of hands to 100 points; the
/// dealer moves one seat clockwise each hand, scores accumulate, and the lowest total wins
/// once someone reaches 100.
#[test]
fn match_moves_the_dealer_and_accumulates() {
    let r = rules("crazy_eights", 2, json!({"series": {"match": true, "target": 100}}));
    // P1 is left with 3C 4C KH = 17 points: below the target, so a new hand is dealt.
    let mut g = pos(&r, &["5C", "3C 4C KH"], "5H", "2C 6C 6D 6H 7C 7D 7H 9C");
    play(&mut g, "play 5C");
    assert!(!g.is_terminal());
    assert_eq!(g.scores(), &[0, 17]);
    assert_eq!(g.hands_played(), 1);
    assert_eq!(g.dealer(), 0, "the deal moved one seat clockwise");
    assert_eq!(g.hand(0).len(), 7);
    assert_eq!(g.hand(1).len(), 7);
    // P1 left with 8H 8S KH = 110 points: the match ends and P0 (lowest) wins.
    let mut g = pos(&r, &["5C", "8H 8S KH"], "5H", "2C 6C 6D 6H 7C 7D 7H 9C");
    play(&mut g, "play 5C");
    assert!(g.is_terminal());
    assert_eq!(g.scores(), &[0, 110]);
    assert_eq!(g.winner(), Some(0));
}

/// A penalty larger than the cards that can be produced draws what exists.
#[test]
fn penalty_draws_what_exists() {
    let r = rules("crazy_eights_specials", 2, json!({}));
    let mut g = pos(&r, &["2C 9D", "KH"], "5C", "3H");
    play(&mut g, "play 2C");
    assert_eq!(g.phase(), Phase::Chain);
    play(&mut g, "accept");
    // The stock had 1 card and the discard pile under the top card was 5C: 2 cards exist.
    assert_eq!(g.hand(1).len(), 3);
}

/// Truncation: `limits.max_decisions` ends the episode with no winner.
#[test]
fn decision_limit_truncates() {
    let r = rules("crazy_eights", 2, json!({"limits": {"max_decisions": 3}}));
    let mut g = Game::new(r, 1);
    let mut bot = eights::bots::RandomBot::new(0);
    while let Some(a) = bot.act(&g) {
        g.step(a).unwrap();
    }
    assert!(g.is_truncated() || g.is_terminal());
    if g.is_truncated() {
        assert_eq!(g.decisions(), 3);
        assert!(g.step(action::DRAW).is_err());
        assert_eq!(g.winner(), None);
    }
}
