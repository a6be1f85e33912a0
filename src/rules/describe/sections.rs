//! The sections of `describe` other than the special cards: players and
//! deck, deal and start card, matching, draw penalties, drawing, multiple cards, the last
//! card, the end of a hand and scoring, the match, and the options.

use super::cards::{absent_jokers, cards_in_order, last_special_phrase, selector_key};
use super::words::*;
use crate::card::Rank;
use crate::rules::selector::parse_selector;
use crate::rules::spec::*;

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

/// The player counts of `players.min..=players.max`, less those the rules cannot seat (a deal
/// the deck cannot serve, a count a rule refuses): each is compiled, and the first refused
/// count is named with the reason. `hand_size = 20` in crazy_eights' range of 2 to 10 said
/// "2 to 10 players", and 3 players were then refused.
fn players_line(s: &RulesSpec) -> String {
    let (min, max) = (s.players.min, s.players.max);
    let range = if min == max { capitalize(&number_word(min.into())) } else { format!("{min} to {max}") };
    let mut seated = Vec::new();
    let mut refused = None;
    for n in min..=max {
        match crate::rules::Rules::from_spec(s.clone(), n.into()) {
            Ok(_) => seated.push(n),
            Err(e) => {
                refused.get_or_insert((n, e.to_string()));
            }
        }
    }
    match refused {
        None => format!("{range} players."),
        Some((n, why)) if seated.is_empty() => {
            format!("{range} players in its range, but none can be seated: with {n}, {why}.")
        }
        Some((n, why)) => format!("{} players only ({range} in its range; with {n}, {why}).", count_runs(&seated)),
    }
}

/// Counts in words as runs: `2`, `2 to 4`, `2 to 4 and 7`.
fn count_runs(counts: &[u8]) -> String {
    let mut runs: Vec<(u8, u8)> = Vec::new();
    for &n in counts {
        match runs.last_mut() {
            Some((_, hi)) if *hi + 1 == n => *hi = n,
            _ => runs.push((n, n)),
        }
    }
    let words: Vec<String> =
        runs.iter().map(|&(a, b)| if a == b { a.to_string() } else { format!("{a} to {b}") }).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => words.concat(),
    }
}

pub(super) fn players_and_deck(s: &RulesSpec) -> Vec<String> {
    let mut v = vec![players_line(s)];
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

pub(super) fn deal_and_start(s: &RulesSpec) -> Vec<String> {
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

pub(super) fn matching(s: &RulesSpec) -> Vec<String> {
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
        .filter(|(sel, c)| c.wild.as_ref().is_some_and(|w| w.enabled) && !absent_jokers(s, sel))
        .map(|(sel, _)| selector_names(sel).0)
        .collect();
    if s.countdown.is_some() {
        // The countdown's own wild rank is each player's, read from their score (see Match).
        v.push(
            "Each player has a wild card of their own: the rank of their score (see the countdown, under Match)."
                .into(),
        );
    }
    if wilds.is_empty() {
        if s.countdown.is_none() {
            v.push("There are no wild cards.".into());
        }
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
    if s.matching.nomination_lapses {
        v.push(
            "A named suit binds only the next player who takes a turn: once that turn ends without a card played \
             (a draw, a pass, a pick-up paid), the card that named it is followed as an ordinary card (a joker keeps \
             the suit it named)."
                .into(),
        );
    }
    v
}

fn has_chain(s: &RulesSpec) -> bool {
    s.cards.values().any(|c| c.draw_chain.as_ref().is_some_and(|d| d.amount > 0))
}

pub(super) fn chain_rules(s: &RulesSpec) -> Vec<String> {
    if !has_chain(s) {
        return vec![];
    }
    let c = &s.chain;
    let mut v = vec![
        match c.answer {
            ChainAnswer::SameRank => "A draw penalty is answered only by a card of the same kind (same rank or group).",
            ChainAnswer::AnyDrawCard => "Any draw-penalty card answers any draw penalty.",
            ChainAnswer::None => "A draw penalty cannot be answered with another draw card.",
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

pub(super) fn drawing(s: &RulesSpec) -> Vec<String> {
    let d = &s.draw;
    let mut v = vec![if d.voluntary {
        "A player may draw instead of playing, even when able to play.".to_string()
    } else {
        "A player who can play must play; only a player who cannot play draws.".to_string()
    }];
    v.push(match d.mode {
        DrawMode::One => "Drawing takes one card from the stock.".into(),
        DrawMode::UntilPlayable => "A player who draws takes at least one card and keeps drawing until their hand holds a playable card or the stock is empty.".into(),
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
            PassWhen::StockEmpty if !s.passing.voluntary => {
                "A player who cannot play passes when the stock is empty; a player who can must play."
            }
            PassWhen::StockEmpty => "A player who cannot (or will not) play passes when the stock is empty.",
            PassWhen::AfterOneDraw => "A player must draw one card before passing, unless nothing can be drawn.",
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
    if !s.passing.voluntary && s.passing.when != PassWhen::StockEmpty {
        v.push("Only a player who cannot play may pass.".into());
    }
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
                "When a turn starts with fewer than five cards in the stock, every player holding more than five keeps five of their choice and the rest are shuffled into the stock (first, when no card outside the discard pile may be played on its top, that pile except its top card is shuffled into the stock); a stock that still runs out is refilled from the discard pile under its top card."
            }
        }
        .into(),
    );
    if s.stock.refill_at_once && s.stock.exhausted != Exhausted::NoReshuffle {
        v.push("The stock is refilled as soon as its last card is drawn.".into());
    }
    if s.stock.no_refill_after_out && s.stock.exhausted != Exhausted::NoReshuffle {
        v.push("Once a player holds no cards the stock is no longer refilled: draws owed after a player went out take what it holds.".into());
    }
    v
}

pub(super) fn multi(s: &RulesSpec) -> Vec<String> {
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
        // What the top card does not clear (the engine's clear_for_top_only): draw cards of one
        // kind directly on top of each other, and a draw that costs
        // the victim's turn, wherever it lies in a run (the zodiac card).
        let chains = s.cards.values().any(|c| c.draw_chain.as_ref().is_some_and(|d| d.amount > 0));
        let loses = s.options.zodiac_card.is_some() || s.cards.values().any(|c| c.draw_and_lose_turn.is_some());
        let mut kept = Vec::new();
        if chains && matches!(m.effects, MultiEffects::TopOnly | MultiEffects::TopOnlyInRuns) {
            kept.push("draw cards of one kind directly on top of each other add up".to_string());
        }
        if loses && matches!(m.effects, MultiEffects::TopOnly | MultiEffects::TopOnlyInRuns) {
            kept.push("a card that makes the next player draw and miss a turn acts wherever it lies".to_string());
        }
        let except = if kept.is_empty() { String::new() } else { format!(", except that {}", join_and(&kept)) };
        v.push(match m.effects {
            MultiEffects::CumulateAll => "Every card played acts (unless its own rule says once).".to_string(),
            MultiEffects::TopOnly => format!("Only the top card acts{except}."),
            MultiEffects::TopCardOnly => {
                "Only the top card acts, draw cards included: several played together count as one.".to_string()
            }
            MultiEffects::TopOnlyInRuns => format!(
                "Copies of one rank played together all act (unless their own rule says once); in a run of one \
                 suit only the last card acts{except}."
            ),
        });
        if m.identical_bonus {
            v.push("Playing a card identical to the last card makes every other player draw one.".into());
        }
    }
    v
}

pub(super) fn last_card(s: &RulesSpec) -> Vec<String> {
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
    // Cards with a rule of their own (the Zodiac card, as options write it in) say so themselves.
    let own = s.cards.values().any(|c| c.last_special.is_some_and(|l| l != s.last_special))
        || s.options.zodiac_card.is_some() && s.last_special != LastSpecial::DrawsApply;
    if s.countdown.is_some() {
        // A countdown player who goes out is dealt a new hand at once: the card acts.
        v.push(
            "A special card played as a player's last card acts as during the hand (its player is dealt a new \
             hand), unless it takes that player's score to zero and ends the game."
                .into(),
        );
        return v;
    }
    v.push(format!(
        "A special card played as the winner's last card: {}{}.",
        last_special_phrase(s.last_special),
        if own { ", unless the card's own rule says otherwise" } else { "" }
    ));
    v
}

pub(super) fn end_and_score(s: &RulesSpec) -> Vec<String> {
    let mut v = hand_end(&s.end, s.countdown.is_some());
    v.extend(scoring(s));
    v
}

/// How a hand ends.
fn hand_end(e: &EndSpec, countdown: bool) -> Vec<String> {
    let mut v = Vec::new();
    if countdown {
        v.push(
            "A player who gets rid of all their cards does not end play: their score drops by one and they are \
             dealt that many new cards. The first player to reach zero wins."
                .to_string(),
        );
    } else if e.empty_hand {
        v.push("The first player to get rid of all their cards wins the hand.".to_string());
    }
    if e.blocked {
        v.push(if countdown {
            "A blocked hand (every player has passed in turn) ends the game with no winner.".into()
        } else {
            "A blocked hand (every player has passed in turn) ends and is scored.".into()
        });
    }
    if e.four_of_a_kind {
        v.push(
            "Four cards of one rank played in a row on the pile end the hand. Unless the fourth was its \
             player's last card, the hand is scored as a blocked hand, that player included."
                .into(),
        );
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
    if matches!(sc.mode, ScoreMode::None | ScoreMode::Countdown) {
        return v; // no points: card values and the blocked hand's scoring do not apply
    }
    v.extend(card_values(s));
    if sc.double_last_rank {
        v.push(if s.deck.jokers > 0 {
            "Cards of the rank of the last card played count double (all cards when the last card is a joker).".into()
        } else {
            "Cards of the rank of the last card played count double.".into()
        });
    }
    if sc.double_trouble {
        v.push("Double Trouble: doubling extends to the last card's group (2-5, 6-9, picture cards J Q K); a ten, an ace or a joker last doubles as without it.".into());
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
    let in_deck = if s.deck.jokers > 0 { (1u64 << 54) - 1 } else { (1u64 << 52) - 1 };
    // A value of cards the deck does not hold (a joker's, under a variant without jokers) is
    // left out.
    let held = |table: &std::collections::BTreeMap<String, i32>| -> std::collections::BTreeMap<String, i32> {
        table
            .iter()
            .filter(|(sel, _)| parse_selector(sel).is_none_or(|(x, _)| x & in_deck != 0))
            .map(|(sel, p)| (sel.clone(), *p))
            .collect()
    };
    let values = held(&sc.values);
    if !values.is_empty() {
        let listed: u64 = values.keys().filter_map(|sel| parse_selector(sel)).fold(0, |m, (x, _)| m | x);
        let rest = if listed & in_deck == in_deck { "" } else { "; other cards 0" };
        v.push(format!("Card values: {}{rest}.", value_list(&values)));
    }
    for (k, table) in &sc.values_by_players {
        let table = held(table);
        if !table.is_empty() {
            v.push(format!("With {k} players: {}.", value_list(&table)));
        }
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

pub(super) fn series(s: &RulesSpec) -> Vec<String> {
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
    } else if s.countdown.is_some() {
        v.push("An episode is one countdown game, played until a player's score reaches zero.".into());
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
            "Countdown: every player starts at {} and is dealt that many cards; a player's own wild card is the \
             rank of their score (8 for 8, ..., 2 for 2, an ace for 1), and going out lowers the score by one and \
             deals that many cards anew{}.",
            c.start_score,
            if c.equal_rank_on_wild { "; a card of the wild's rank may follow a wild" } else { "" }
        ));
    }
    if s.limits.max_decisions > 0 {
        v.push(format!("The engine truncates an episode after {} decisions.", s.limits.max_decisions));
    }
    v
}

pub(super) fn options(s: &RulesSpec) -> Vec<String> {
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
        v.push(format!(
            "Zodiac card ({z}): the next player draws seven and loses their turn, also when it is the winner's \
             last card; a wild card cannot be played on a Zodiac card once played."
        ));
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
