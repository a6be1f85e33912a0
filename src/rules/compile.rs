//! The rules compiler: [`Rules::from_spec`] checks a resolved [`RulesSpec`] for a player
//! count (the `validate_*` checks of `validate.rs`) and builds the engine's tables from it
//! (`compile_*`): the deck, the hand size, the per-face effect table, card points and
//! start-card effects.
//!
//! Settings keyed by card selector are resolved by precedence: general selectors first, more
//! specific ones on top (see [`super::selector`]).

use super::selector::{apply_by_precedence, selector_entries, selector_mask_named, selectors_union};
use super::validate::{
    validate_end_and_options, validate_joker_bluff, validate_joker_lock, validate_jokers_have_rules,
    validate_match_target, validate_play, validate_players, validate_uncapped_end, validate_wild_instapik,
};
use super::{CardRule, ChainRule, MAX_PLAYERS, Rules, RulesError, WildRule, settings::Settings, spec::*};
use crate::card::{Card, NUM_FACES, Rank};
use crate::card_set::{CardCounts, MAX_CARDS, Pile};
use std::collections::BTreeMap;

impl Rules {
    /// Validate `spec` for `num_players` and compile it.
    pub fn from_spec(spec: RulesSpec, num_players: usize) -> Result<Rules, RulesError> {
        let s = &spec;
        // A resolved table's `variants` only labels the overlays already applied; a state or
        // table written by hand could still list one twice.
        super::deserialize::check_listed_once(s.variants.iter().map(String::as_str))?;
        super::ranges::check_ranges(s, num_players)?;
        let n = validate_players(s, num_players)?;
        let (packs, deck) = compile_deck(s, n)?;
        let hand_size = compile_hand_size(s, n, packs, &deck)?;
        validate_play(s)?;
        validate_end_and_options(s, n)?;
        let (card, chain_groups) = compile_cards(s)?;
        validate_joker_bluff(s, &card)?;
        validate_wild_instapik(s, &card)?;
        validate_jokers_have_rules(&deck, &card)?;
        let points = compile_points(s, n)?;
        validate_match_target(s, &points)?;
        validate_uncapped_end(s, &points, &deck, &card)?;
        let double_mask = selectors_union("score.double_per", &s.score.double_per)?;
        let rank_blocked = selectors_union("match.rank_blocked", &s.matching.rank_blocked)?;
        let start = compile_start(s, &deck)?;
        let mut settings = Settings::compile(&spec)?;
        if !card.iter().any(|r| r.give.is_some()) {
            // The two last-card timings differ only where a give card can leave one card.
            settings.last_card_timing = LastCardTiming::HoldingOne;
        }
        // A plain card adds nothing to a play unless a table-wide rule acts on every play:
        // stalin's rogue pile, countdown wilds, wild_instapik, multi-card plays other than
        // equal ranks, the compulsory draw after a play, four of a kind. (Identical cards,
        // equal ranks and the cap on plays are checked at the play, see `Game::play_plain`.)
        let plain_table = !s.matching.extra.contains(&MatchExtra::RoguePile)
            && !settings.countdown
            && !settings.wild_instapik
            && matches!(settings.multi_mode, super::MultiMode::Off | super::MultiMode::EqualRank)
            && settings.draw_end_of_turn == 0
            && !settings.four_of_a_kind;
        let default_mask = (0..NUM_FACES).filter(|&i| card[i] == CardRule::default()).fold(0, |m, i| m | 1 << i);
        let plain_mask = if plain_table { default_mask } else { 0 };
        let series_target = if s.series.play_match {
            // In range: check_ranges bounds target_per_player * n by MAX_SERIES_TARGET.
            s.series.target_per_player.map(|t| t.saturating_mul(n as u32)).or(s.series.target)
        } else {
            None
        };
        let lock_mask = (0..NUM_FACES).filter(|&i| card[i].joker_lock).fold(0, |m, i| m | 1 << i);
        let (match_suit, match_rank) = match_tables(settings.any_court, rank_blocked, lock_mask);
        // check_players bounds n by the preset's maximum, at most MAX_PLAYERS (10): fits u8.
        Ok(Rules {
            num_players: n as u8,
            packs,
            pack: {
                let mut pack = Pile::new();
                pack.set_from_counts(&deck);
                pack
            },
            deck,
            hand_size,
            card,
            points,
            has_points: points.iter().any(|&x| x != 0),
            chain_groups,
            rank_blocked,
            start,
            series_target,
            double_mask,
            arithmetic: s.matching.extra.contains(&MatchExtra::Arithmetic),
            rogue: s.matching.extra.contains(&MatchExtra::RoguePile),
            lock_mask,
            match_suit,
            match_rank,
            wild_mask: (0..NUM_FACES).filter(|&i| card[i].wild.is_some()).fold(0, |m, i| m | 1 << i),
            free_wild_mask: (0..NUM_FACES)
                .filter(|&i| {
                    card[i].wild.is_some_and(|w| !w.requires_match && !w.only_if_no_other && w.forbidden_on == 0)
                })
                .fold(0, |m, i| m | 1 << i),
            nonsolo_wild_mask: (0..NUM_FACES)
                .filter(|&i| card[i].wild.is_some_and(|w| !w.solo))
                .fold(0, |m, i| m | 1 << i),
            solo_wild_mask: (0..NUM_FACES).filter(|&i| card[i].wild.is_some_and(|w| w.solo)).fold(0, |m, i| m | 1 << i),
            oino_wild_mask: (0..NUM_FACES)
                .filter(|&i| card[i].wild.is_some_and(|w| w.only_if_no_other))
                .fold(0, |m, i| m | 1 << i),
            run_wild_mask: (0..NUM_FACES)
                .filter(|&i| card[i].wild.is_some_and(|w| !w.solo && !w.only_if_no_other && !w.requires_match))
                .fold(0, |m, i| m | 1 << i),
            transparent_mask: (0..NUM_FACES)
                .filter(|&i| card[i].wild.is_some_and(|w| w.follow == WildFollow::Transparent))
                .fold(0, |m, i| m | 1 << i),
            has_mirror: card.iter().any(|r| r.mirror),
            has_follow: card.iter().any(|r| r.follow.is_some()),
            moves_cards_openly: card
                .iter()
                .any(|r| r.give.is_some() || r.pass_hands.is_some() || r.swap_hand || r.pick_up_pile > 0),
            plain_mask,
            default_mask,
            settings,
            spec,
        })
    }
}

/// [`Rules::match_suit`] and [`Rules::match_rank`]: per face, what matches it by suit and by
/// rank when it is the card to match.
fn match_tables(any_court: bool, rank_blocked: u64, lock_mask: u64) -> ([u64; NUM_FACES], [u64; NUM_FACES]) {
    let courts = Rank::Jack.bits() | Rank::Queen.bits() | Rank::King.bits();
    let mut by_suit = [0; NUM_FACES];
    let mut by_rank = [0; NUM_FACES];
    for c in Card::all() {
        if let Some(s) = c.suit() {
            by_suit[c.index()] = s.bits();
        }
        if let Some(r) = c.rank() {
            let mut ranks = r.bits();
            if any_court && r.is_court() {
                ranks |= courts;
            }
            by_rank[c.index()] = (ranks & !rank_blocked) | if r == Rank::King { lock_mask } else { 0 };
        }
    }
    (by_suit, by_rank)
}

/// A key of a per-player-count table (`deck.packs_by_players`, ...) as a player count.
fn player_count_key(table: &str, key: &str) -> Result<usize, RulesError> {
    match key.parse::<usize>() {
        Ok(k) if (1..=MAX_PLAYERS).contains(&k) => Ok(k),
        _ => Err(RulesError::invalid(
            format!("{table}.{key}"),
            format!("keys must be player counts from 1 to {MAX_PLAYERS} (written as strings, e.g. \"6\"), got {key:?}"),
        )),
    }
}

/// The entries of a per-player-count table as `(player count, key, value)` in increasing
/// numeric order (keys are strings, so `"10"` sorts before `"4"` in the table itself); two keys
/// for one count (`"4"` and `"04"`) are an error naming the table.
fn player_count_entries<'a, T>(
    table: &str,
    map: &'a std::collections::BTreeMap<String, T>,
) -> Result<Vec<(usize, &'a str, &'a T)>, RulesError> {
    let mut v = Vec::with_capacity(map.len());
    for (k, x) in map {
        v.push((player_count_key(table, k)?, k.as_str(), x));
    }
    v.sort_by_key(|e| e.0);
    if let Some(w) = v.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(RulesError::invalid(table, format!("two keys name {} players", w[0].0)));
    }
    Ok(v)
}

// ----- players, deck, deal -------------------------------------------------------------

/// The pack count for `n` players and the full deck it makes. Every pack count and joker
/// count of the spec is in its range already (`check_ranges`).
fn compile_deck(s: &RulesSpec, n: usize) -> Result<(u8, CardCounts), RulesError> {
    let mut packs = s.deck.packs;
    // The largest threshold at or below `n` wins (entries in increasing numeric order).
    for (from, _, &p) in player_count_entries("deck.packs_by_players", &s.deck.packs_by_players)? {
        if n >= from {
            packs = p;
        }
    }
    debug_assert!((1..=super::ranges::MAX_PACKS).contains(&packs) && matches!(s.deck.jokers, 0 | 2));
    let mut deck = CardCounts::new();
    for c in Card::all() {
        let k = if c.is_joker() { packs * s.deck.jokers / 2 } else { packs };
        for _ in 0..k {
            deck.add(c);
        }
    }
    debug_assert!(deck.len() <= MAX_CARDS);
    Ok((packs, deck))
}

/// The hand size for `n` players, checked against the deck (every hand size of the spec is
/// at least 1 already, `check_ranges`). An error names the field the size came from.
fn compile_hand_size(s: &RulesSpec, n: usize, packs: u8, deck: &CardCounts) -> Result<u8, RulesError> {
    let mut hand_size = s.deal.hand_size;
    let mut field = "deal.hand_size".to_string();
    for (k, key, &h) in player_count_entries("deal.hand_size_by_players", &s.deal.hand_size_by_players)? {
        if k == n {
            hand_size = h;
            field = format!("deal.hand_size_by_players.{key}");
        }
    }
    let needed = hand_size as usize * n + s.deal.dealer_extra as usize + usize::from(s.deal.starter == Starter::TurnUp);
    if needed > deck.len() {
        return Err(RulesError::invalid(
            field,
            format!(
                "dealing {hand_size} cards to {n} players needs {needed} cards but the deck ({packs} pack(s)) has {}",
                deck.len()
            ),
        ));
    }
    Ok(hand_size)
}

// ----- the effect table ----------------------------------------------------------------

/// The `cards` table with the options that are shorthands for effect-table entries
/// (`options.public_rules`, `options.zodiac_card`) written in, and the zodiac card's face.
fn expand_card_options(s: &RulesSpec) -> Result<(BTreeMap<String, CardSpec>, u64), RulesError> {
    let mut cards_table = s.cards.clone();
    for rule in &s.options.public_rules {
        let (sel, patch) = match rule.as_str() {
            "ace_reverse" => ("A", CardSpec { reverse: Some(true), ..Default::default() }),
            "five_even" => ("5", CardSpec { next_even: Some(true), ..Default::default() }),
            "six_skip_two" => ("6", CardSpec { skip: Some(2), ..Default::default() }),
            "seven_extra_turn" => ("7", CardSpec { extra_turn: Some(true), ..Default::default() }),
            other => {
                return Err(RulesError::invalid(
                    "options.public_rules",
                    format!(
                        "unknown rule {other:?}; the menu is: ace_reverse, five_even, six_skip_two, seven_extra_turn"
                    ),
                ));
            }
        };
        overlay_card(cards_table.entry(sel.to_string()).or_default(), &patch);
    }
    let mut zodiac_mask = 0u64;
    if let Some(z) = &s.options.zodiac_card {
        let card: Card = z
            .parse()
            .map_err(|e: crate::card::CardParseError| RulesError::invalid("options.zodiac_card", e.to_string()))?;
        zodiac_mask = 1 << card.index();
        let patch =
            CardSpec { draw_and_lose_turn: Some(7), last_special: Some(LastSpecial::DrawsApply), ..Default::default() };
        overlay_card(cards_table.entry(card.to_string()).or_default(), &patch);
    }
    Ok((cards_table, zodiac_mask))
}

/// The compiled effect table and the chain group names (ids are indices).
fn compile_cards(s: &RulesSpec) -> Result<([CardRule; NUM_FACES], Vec<String>), RulesError> {
    let (cards_table, zodiac_mask) = expand_card_options(s)?;
    let entries = selector_entries("cards", cards_table.iter().map(|(sel, cs)| (sel, (sel, cs))), 0)?;
    let mut merged: Vec<CardSpec> = vec![CardSpec::default(); NUM_FACES];
    // The selector that gave each face its draw chain: the default chain group name.
    let mut chain_sel: Vec<Option<&String>> = vec![None; NUM_FACES];
    apply_by_precedence(entries, |i, &(sel, cs)| {
        overlay_card(&mut merged[i], cs);
        if cs.draw_chain.is_some() {
            chain_sel[i] = Some(sel);
        }
    });
    let (chain_group, chain_groups) = compile_chain_groups(&merged, &chain_sel)?;
    let mut card = [CardRule::default(); NUM_FACES];
    // `merged` has NUM_FACES (54) entries: i fits u8 and indexes `card` and `chain_group`.
    for (i, cs) in merged.iter().enumerate() {
        card[i] = compile_card(s, Card(i as u8), cs, chain_group[i], &chain_groups, zodiac_mask)?;
    }
    Ok((card, chain_groups))
}

/// Chain groups in face order, so ids are stable: a draw chain's group is its `group`, or
/// else the selector that gave it. Returns each face's group id and the group names.
fn compile_chain_groups(
    merged: &[CardSpec],
    chain_sel: &[Option<&String>],
) -> Result<([Option<u8>; NUM_FACES], Vec<String>), RulesError> {
    let mut ids = [None; NUM_FACES];
    let mut groups: Vec<String> = Vec::new();
    for i in 0..NUM_FACES {
        if let Some(dc) = merged[i].draw_chain.as_ref().filter(|dc| dc.amount > 0) {
            let name = dc.group.clone().unwrap_or_else(|| chain_sel[i].cloned().unwrap_or_default());
            let id = match groups.iter().position(|g| *g == name) {
                Some(id) => id,
                None if groups.len() >= 31 => return Err(RulesError::invalid("cards", "at most 31 chain groups")),
                None => {
                    groups.push(name);
                    groups.len() - 1
                }
            };
            // At most 31 groups (refused above): fits u8.
            ids[i] = Some(id as u8);
        }
    }
    Ok((ids, groups))
}

/// Chain groups named in `targets` as a bit set (all bits for `"any"`).
fn chain_group_mask(field: String, targets: &[String], groups: &[String]) -> Result<u32, RulesError> {
    let mut mask = 0u32;
    for t in targets {
        if t == "any" {
            mask = u32::MAX;
        } else {
            let g = groups.iter().position(|x| x == t).ok_or_else(|| {
                RulesError::invalid(&field, format!("unknown chain group {t:?}; groups: {}", groups.join(", ")))
            })?;
            mask |= 1 << g;
        }
    }
    Ok(mask)
}

/// One face's entry of the effect table, from its merged card spec.
fn compile_card(
    s: &RulesSpec,
    face: Card,
    cs: &CardSpec,
    chain_group: Option<u8>,
    groups: &[String],
    zodiac_mask: u64,
) -> Result<CardRule, RulesError> {
    let f = |k: &str| format!("cards.{face}.{k}");
    validate_joker_lock(face, cs)?;
    let mut r =
        CardRule { mirror: cs.mirror == Some(true), joker_lock: cs.joker_lock == Some(true), ..Default::default() };
    compile_wild(cs, face, zodiac_mask, &mut r)?;
    r.skip = cs.skip.unwrap_or(0);
    r.reverse = cs.reverse.unwrap_or(false);
    if let (Some(dc), Some(group)) = (cs.draw_chain.as_ref().filter(|dc| dc.amount > 0), chain_group) {
        r.chain = Some(ChainRule {
            amount: dc.amount,
            group,
            answer: dc.answer.unwrap_or(s.chain.answer),
            multi_answer: dc.multi_answer,
            accumulate: dc.accumulate.unwrap_or(s.chain.accumulate),
        });
    }
    r.draw_lose = cs.draw_and_lose_turn.unwrap_or(0);
    r.draw_keep = cs.draw_keep_turn.unwrap_or(0);
    if let Some(targets) = &cs.cancel {
        r.cancel = chain_group_mask(f("cancel"), targets, groups)?;
    }
    r.free_play_next = cs.free_play_next.unwrap_or(false);
    r.second_suit = cs.second_suit.unwrap_or(false);
    r.swap_hand = cs.swap_hand.unwrap_or(false);
    r.ask_rank = cs.ask_rank.unwrap_or(false);
    r.pick_up_pile = cs.pick_up_pile.unwrap_or(0);
    r.must_cover = cs.must_cover.unwrap_or(false);
    if let Some(sh) = &cs.shield {
        r.shield_through = sh.pass_through;
        r.shield_same_suit = sh.same_suit;
        r.shield = chain_group_mask(f("shield.against"), &sh.against, groups)?;
    }
    r.follow = cs.follow.filter(|f| *f != Follow::None);
    r.next_picture = cs.next_picture.unwrap_or(false);
    r.next_even = cs.next_even.unwrap_or(false);
    r.pass_hands = cs.pass_hands;
    r.give = cs.give;
    r.waste_draw = cs.waste_draw.unwrap_or(0);
    r.marriage = cs.marriage.unwrap_or(false);
    r.ends_turn = cs.ends_turn.unwrap_or(false);
    r.extra_turn = cs.extra_turn.unwrap_or(false);
    r.others_draw = cs.others_draw.unwrap_or(0);
    r.repeat = cs.repeat.unwrap_or_default();
    // The table-wide `last_special` is the default of the cards with an effect (a "special
    // card", its field's documentation): a plain card ends a hand as it always does unless its
    // own entry says otherwise.
    let default = if r.is_special() { s.last_special } else { LastSpecial::Ignored };
    r.last_special = cs.last_special.unwrap_or(default);
    if r.last_special == LastSpecial::AsDuringHand && r.give.is_none() {
        return Err(RulesError::unsupported(f("last_special"), "its behaviour lands with the remaining presets"));
    }
    Ok(r)
}

/// The wild rule and the nomination of a face (a wild card nominates through
/// `wild.nominate`, a suit changer through `nominate`).
fn compile_wild(cs: &CardSpec, face: Card, zodiac_mask: u64, r: &mut CardRule) -> Result<(), RulesError> {
    if let Some(w) = cs.wild.as_ref().filter(|w| w.enabled) {
        let mut forbidden = zodiac_mask;
        for sel in &w.forbidden_on {
            if sel == "pending_draw" {
                continue; // always true while a chain is pending (chain.wild_blocked)
            }
            forbidden |= selector_mask_named(|| format!("cards.{face}.wild.forbidden_on"), sel)?.0;
        }
        r.wild = Some(WildRule {
            also_normal: w.also_normal,
            requires_match: w.requires_match,
            only_if_no_other: w.only_if_no_other,
            forbidden_on: forbidden,
            solo: w.solo,
            follow: w.follow,
        });
        if w.nominate != Nominate::None {
            r.nominate = Some(w.nominate);
        }
    }
    if let Some(nm) = cs.nominate.filter(|&nm| nm != Nominate::None) {
        if r.wild.is_some() {
            return Err(RulesError::invalid(
                format!("cards.{face}.nominate"),
                "a wild card nominates through wild.nominate",
            ));
        }
        r.nominate = Some(nm);
    }
    Ok(())
}

// ----- points and the start card ------------------------------------------------------

/// Card points: `score.values`, with `score.values_by_players` for `n` players on top.
fn compile_points(s: &RulesSpec, n: usize) -> Result<[i32; NUM_FACES], RulesError> {
    let mut vals = selector_entries("score.values", &s.score.values, 0)?;
    for (k, _, table) in player_count_entries("score.values_by_players", &s.score.values_by_players)? {
        if k == n {
            vals.extend(selector_entries(&format!("score.values_by_players.{k}"), table, 3)?);
        }
    }
    let mut points = [0i32; NUM_FACES];
    apply_by_precedence(vals, |i, &&v| points[i] = v);
    Ok(points)
}

/// The start-card effect of every face; some card of the deck must be playable as one.
fn compile_start(s: &RulesSpec, deck: &CardCounts) -> Result<[StartEffect; NUM_FACES], RulesError> {
    let mut start = [s.start.effect; NUM_FACES];
    apply_by_precedence(selector_entries("start.cards", &s.start.cards, 0)?, |i, &&e| start[i] = e);
    // `start` has NUM_FACES (54) entries: i fits u8.
    if start.iter().enumerate().all(|(i, e)| *e == StartEffect::Redraw || deck.count(Card(i as u8)) == 0) {
        return Err(RulesError::invalid("start.cards", "every card in the deck would be redrawn"));
    }
    Ok(start)
}

/// Copy the fields `src` sets over those of `dst`.
pub(super) fn overlay_card(dst: &mut CardSpec, src: &CardSpec) {
    macro_rules! take {
        ($($f:ident),*) => { $( if src.$f.is_some() { dst.$f = src.$f.clone(); } )* };
    }
    take!(
        wild,
        nominate,
        skip,
        reverse,
        draw_chain,
        draw_and_lose_turn,
        draw_keep_turn,
        cancel,
        shield,
        mirror,
        others_draw,
        give,
        free_play_next,
        next_picture,
        second_suit,
        pass_hands,
        swap_hand,
        ask_rank,
        pick_up_pile,
        must_cover,
        extra_turn,
        follow,
        ends_turn,
        marriage,
        joker_lock,
        waste_draw,
        next_even,
        repeat,
        last_special
    );
}
