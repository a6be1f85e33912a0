//! Tests of the `net` bot: legal moves, batch against single decisions, the rules cache,
//! bad weights files.
//!
//! Test code only (`#[cfg(test)]`): its `unwrap`s stop a failing test and no caller of the
//! library reaches them.

use super::*;
use crate::bots::policy::{Policy, RandomBot};
use crate::rules::load_spec;

fn rules(p: &str, n: usize) -> Arc<Rules> {
    Arc::new(Rules::from_spec(load_spec(p, None).unwrap(), n).unwrap())
}

#[test]
fn shipped_weights_parse_and_fit_in_two_megabytes() {
    assert!(WEIGHTS_FILE.len() <= 2 * 1024 * 1024);
    let net = weights().unwrap();
    assert!(net.width() > 0);
    assert!(net.metadata.contains_key("stages"));
}

#[test]
fn a_batch_of_mixed_rules_and_tables_agrees_with_single_decisions() {
    // Games of several rule sets and sizes, mid-play, decided in one batch and one by one.
    let net = weights().unwrap();
    let mut games = Vec::new();
    for (k, (p, n)) in
        [("crazy_eights", 2), ("one_card", 3), ("stalin", 4), ("rose_mau", 5), ("kings_reverse", 7)].iter().enumerate()
    {
        let r = rules(p, *n);
        for s in 0..4u64 {
            let mut g = Game::new(r.clone(), 100 * k as u64 + s);
            let mut bot = RandomBot::new(s);
            for _ in 0..(3 * s) {
                match bot.act(&g) {
                    Some(a) if g.current_player().is_some() => g.step(a).unwrap(),
                    _ => break,
                }
            }
            games.push(g);
        }
    }
    let mut scratch = NetScratch::default();
    let batched = net.act_games_into(games.iter(), &mut scratch).to_vec();
    let mut bot = NetBot::new();
    for (g, a) in games.iter().zip(&batched) {
        assert_eq!(*a, bot.act(g));
        if let Some(a) = a {
            let mut m = ActionMask::default();
            g.legal_actions(&mut m);
            assert!(m.contains(*a));
        }
    }
    // A reused scratch gives the same answers.
    assert_eq!(net.act_games_into(games.iter(), &mut scratch).to_vec(), batched);
}

/// The cache of rules parts fills in the middle of a batch (more distinct `Arc<Rules>` than
/// it holds, over two batches): the batch still answers as single decisions do. (It once
/// started over mid-batch, leaving earlier rows pointing past its end: a panic.)
#[test]
fn a_cache_that_fills_mid_batch_still_answers_every_row() {
    let net = weights().unwrap();
    let base = rules("crazy_eights", 2);
    let fresh = |k: u64| Game::new(Arc::new((*base).clone()), k);
    let mut scratch = NetScratch::default();
    let first: Vec<Game> = (0..RULES_CACHE_SIZE as u64 - 10).map(fresh).collect();
    net.act_games_into(first.iter(), &mut scratch);
    let second: Vec<Game> = (0..40).map(|k| fresh(10_000 + k)).collect();
    let batched = net.act_games_into(second.iter(), &mut scratch).to_vec();
    let mut bot = NetBot::new();
    for (g, a) in second.iter().zip(&batched) {
        assert_eq!(*a, bot.act(g));
    }
}

#[test]
fn a_bad_weights_file_is_an_error() {
    assert!(CardNet::parse(b"not a file").is_err());
    let e = crate::bots::net1::weights().map(|_| CardNet::parse(crate::bots::net1::WEIGHTS_FILE)).unwrap().unwrap_err();
    assert!(e.contains("eights-net-v2"), "{e}");
}

/// The shipped file with its header rewritten by `edit` (the tensors' bytes as they were).
/// Its unwraps read the compiled-in file, whose header is valid (the first test parses it):
/// no input reaches them, and one that failed would stop this test only.
fn with_header(edit: impl FnOnce(&mut serde_json::Value)) -> Vec<u8> {
    let n = u64::from_le_bytes(WEIGHTS_FILE[..8].try_into().unwrap()) as usize;
    let mut header: serde_json::Value = serde_json::from_slice(&WEIGHTS_FILE[8..8 + n]).unwrap();
    edit(&mut header);
    let mut text = serde_json::to_vec(&header).unwrap();
    text.resize(text.len().next_multiple_of(8), b' ');
    let mut out = (text.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(&text);
    out.extend_from_slice(&WEIGHTS_FILE[8 + n..]);
    out
}

/// A rules column listed twice is refused, as the Python loader refuses it: reading one column
/// into two inputs gives the network an input it was never trained on.
#[test]
fn a_rules_column_named_twice_is_an_error() {
    let unchanged = with_header(|_| {});
    assert!(CardNet::parse(&unchanged).is_ok(), "the rewritten header alone must still parse");
    // The shipped header lists its card columns (unwraps on the compiled-in file, as above).
    let twice = with_header(|h| {
        let list = h["__metadata__"]["card_columns"].as_str().unwrap().to_string();
        let first = list.split(',').next().unwrap().to_string();
        h["__metadata__"]["card_columns"] = serde_json::Value::String(format!("{list},{first}"));
    });
    let e = CardNet::parse(&twice).unwrap_err();
    assert!(e.contains("named twice") && e.contains("card_columns"), "{e}");
}
