//! The rules encoding against the rules it encodes, over every preset (at its smallest and
//! largest table), every documented variant and thousands of rule sets drawn from the rule
//! space: rule sets encode alike exactly when they play alike ([`Rules::same_play`]), and
//! rule sets that encode alike give the same seeded self-play (the cards, the actions and
//! the results), so that an agent told the encoding is told everything the rules decide.

use eights::bots::random_selfplay;
use eights::rules::space::{RuleSpace, SpaceConfig};
use eights::rules::{RULES_SIZE, Rules, load_spec, preset_names};
use serde_json::json;
use std::collections::HashMap;
use std::sync::Arc;

fn encoding(r: &Rules) -> Vec<u32> {
    let mut v = vec![0f32; RULES_SIZE];
    r.encode(&mut v);
    v.iter().map(|x| x.to_bits()).collect()
}

/// Every rule set of the check: presets, their variants, and draws from the space.
fn rule_sets(samples: u64) -> Vec<(String, Arc<Rules>)> {
    let mut out = Vec::new();
    for name in preset_names() {
        let spec = load_spec(name, None).unwrap();
        for n in [spec.players.min, spec.players.max] {
            out.push((format!("{name} {n}p"), Arc::new(Rules::from_spec(spec.clone(), n.into()).unwrap())));
        }
        for v in spec.variant.keys() {
            let s = load_spec(name, Some(&json!({ "variants": [v] }))).unwrap();
            let n = usize::from(s.players.min).max(if v == "allow_500" { 3 } else { 2 });
            if let Ok(r) = Rules::from_spec(s, n) {
                out.push((format!("{name}+{v} {n}p"), Arc::new(r)));
            }
        }
    }
    for counts in [vec![2], vec![3], vec![4, 6]] {
        let cfg = SpaceConfig { num_players: counts.clone(), house_prob: 0.8, mutations: 3.0, ..Default::default() };
        let space = RuleSpace::new(cfg).unwrap();
        for seed in 0..samples {
            let s = space.sample(seed);
            for (r, n) in s.rules.iter().zip(&counts) {
                out.push((format!("space{counts:?} seed {seed} ({}) {n}p", s.preset), r.clone()));
            }
        }
    }
    out
}

#[test]
fn rule_sets_encode_alike_exactly_when_they_play_alike() {
    let sets = rule_sets(1500);
    let mut by_encoding: HashMap<Vec<u32>, Vec<usize>> = HashMap::new();
    for (i, (_, r)) in sets.iter().enumerate() {
        by_encoding.entry(encoding(r)).or_default().push(i);
    }
    let mut shared = 0;
    for group in by_encoding.values() {
        let (first_name, first) = &sets[group[0]];
        for &j in &group[1..] {
            let (name, r) = &sets[j];
            assert!(first.same_play(r), "{first_name} and {name} encode alike but play differently");
            shared += 1;
        }
    }
    // The other direction: rule sets that play differently never share an encoding (a group
    // per encoding, checked above, so count the distinct plays among the groups' heads).
    let heads: Vec<usize> = by_encoding.values().map(|g| g[0]).collect();
    for (a, &i) in heads.iter().enumerate() {
        for &j in &heads[a + 1..] {
            assert!(
                !sets[i].1.same_play(&sets[j].1),
                "{} and {} play alike but encode differently",
                sets[i].0,
                sets[j].0
            );
        }
    }
    assert!(sets.len() > 4000, "{} rule sets", sets.len());
    assert!(shared > 0, "no two rule sets shared an encoding: the check compared nothing");
}

#[test]
fn rule_sets_that_encode_alike_give_the_same_seeded_selfplay() {
    // Alike but built differently: the same rules under other names and chain-group names,
    // and draws of the space that land on the same rules.
    let base = Rules::load("switch_blackjack", 3, None).unwrap();
    let renamed = Rules::load(
        "switch_blackjack",
        3,
        Some(&json!({"name": "other", "title": "Other", "description": "prose",
                      "cards": {"2": {"draw_chain": {"group": "deuces"}}}})),
    )
    .unwrap();
    assert_eq!(encoding(&base), encoding(&renamed));
    let mut pairs = vec![(Arc::new(base), Arc::new(renamed))];
    let space = RuleSpace::new(SpaceConfig { house_prob: 0.0, ..Default::default() }).unwrap();
    let mut seen: HashMap<Vec<u32>, Arc<Rules>> = HashMap::new();
    for seed in 0..300 {
        let r = space.sample(seed).rules[0].clone();
        match seen.get(&encoding(&r)) {
            Some(first) if pairs.len() < 12 => pairs.push((first.clone(), r)),
            Some(_) => {}
            None => {
                seen.insert(encoding(&r), r);
            }
        }
    }
    assert!(pairs.len() > 5, "{} pairs", pairs.len());
    for (a, b) in pairs {
        let (x, y) = (random_selfplay(a.clone(), 40, 9), random_selfplay(b, 40, 9));
        assert_eq!(
            (x.decisions, &x.wins, x.no_winner, x.truncated),
            (y.decisions, &y.wins, y.no_winner, y.truncated),
            "{}",
            a.spec.name
        );
    }
}

#[test]
fn a_change_of_one_effect_or_setting_changes_the_encoding() {
    let base = Rules::load("crazy_eights", 4, None).unwrap();
    let changes = [
        json!({"cards": {"7": {"skip": 2}}}),
        json!({"cards": {"7": {"others_draw": 1}}}),
        json!({"cards": {"8": {"wild": {"nominate": "optional_keep_suit"}}}}),
        json!({"cards": {"8": {"wild": {"forbidden_on": ["2"]}}}}),
        json!({"cards": {"2": {"draw_chain": {"amount": 2}}, "3": {"draw_chain": {"amount": 3}}, "4": {"cancel": ["2"]}}}),
        json!({"cards": {"2": {"draw_chain": {"amount": 2}}, "3": {"draw_chain": {"amount": 3}}, "4": {"cancel": ["3"]}}}),
        json!({"deal": {"hand_size": 6}}),
        json!({"draw": {"mode": "until_playable"}}),
        json!({"pass": {"when": "after_one_draw"}}),
        json!({"stock": {"exhausted": "turn_over_no_shuffle"}}),
        json!({"limits": {"max_decisions": 4000}}),
        json!({"score": {"values": {"K": 11}}}),
        json!({"series": {"match": true, "target": 200}}),
        json!({"last_card": {"mode": "action", "penalty": 2}}),
        json!({"order": {"initial_direction": "ccw"}}),
    ];
    let mut all = vec![encoding(&base)];
    for c in &changes {
        let r = Rules::load("crazy_eights", 4, Some(c)).unwrap();
        assert!(!r.same_play(&base), "{c}");
        let e = encoding(&r);
        assert!(!all.contains(&e), "{c} encodes like another rule set of the list");
        all.push(e);
    }
}
