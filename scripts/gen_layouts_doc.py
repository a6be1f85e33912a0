#!/usr/bin/env python3
"""Write the rules-encoding section of docs/layouts.md from the engine's layout.

The section between ``<!-- rules-encoding:begin -->`` and ``<!-- rules-encoding:end -->``
is generated: the column names and bounds come from ``eights.rules.encoding`` (the engine's
``rules::encode``), the words from :data:`CARD` and :data:`TABLE` below, which must name every
column (the check fails otherwise).

    python scripts/gen_layouts_doc.py            # rewrite the section of docs/layouts.md
    python scripts/gen_layouts_doc.py --check    # exit 1 if it is stale

``tests/python/layout/test_docs.py`` runs the check.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

import eights
from eights.rules import encoding

DOC = Path(__file__).resolve().parents[1] / "docs" / "layouts.md"
BEGIN, END = "<!-- rules-encoding:begin -->", "<!-- rules-encoding:end -->"

#: Per-card columns: name -> what it holds (the rules field it comes from).
CARD = {
    "copies": "copies of the card in the pack / 4 (`deck.packs`, `deck.jokers`)",
    "points": "the card's points / 100 (`score.values`)",
    "wild": "the card is wild (`wild`)",
    "wild_also_normal": "inside a run it may be an ordinary card (`wild.also_normal`)",
    "wild_requires_match": "the wild must itself match (`wild.requires_match`)",
    "wild_only_if_no_other": "playable only when no other card is (`wild.only_if_no_other`)",
    "wild_solo": "must be the only card of its turn (`wild.solo`)",
    "wild_follow=transparent": "the card under it is matched (`wild.follow`)",
    "wild_follow=free": "any card may follow it (`wild.follow`)",
    "wild_forbidden_count": "cards it may not be played on / 54 (`wild.forbidden_on`)",
    "wilds_forbidden_here": "wild cards that may not be played on this card / 54 (`wild.forbidden_on`)",
    "nominate=required": "its player names the suit (`wild.nominate` / `nominate`)",
    "nominate=optional": "may name a suit; else the card's own suit stands",
    "nominate=optional_keep_suit": "may name a suit; else the suit in force before it stands",
    "nominate=only_if_matching": "may name a different suit only if it matched",
    "skip": "players skipped / 4 (`skip`)",
    "reverse": "reverses the direction (`reverse`)",
    "chain_amount": "cards of the draw chain it starts / 16 (`draw_chain.amount`)",
    "chain_group=0": "its chain group, slot 0..3 in the engine's group order (`draw_chain.group`)",
    "chain_group=1": "",
    "chain_group=2": "",
    "chain_group=3": "",
    "chain_answer=same_rank": "what answers its chain (`chain.answer`, `draw_chain.answer`)",
    "chain_answer=any_draw_card": "",
    "chain_answer=none": "",
    "chain_multi_answer=same_rank": "what answers when one turn adds several (`draw_chain.multi_answer`)",
    "chain_multi_answer=any_draw_card": "",
    "chain_multi_answer=none": "",
    "chain_accumulate=sum": "how an answer grows the penalty (`chain.accumulate`, `draw_chain.accumulate`)",
    "chain_accumulate=increment": "",
    "chain_accumulate=fixed": "",
    "draw_and_lose_turn": "the next player draws this many and misses the turn / 16",
    "draw_keep_turn": "the next player draws this many then plays / 16",
    "cancels_group=0": "chain groups it cancels, by slot (`cancel`)",
    "cancels_group=1": "",
    "cancels_group=2": "",
    "cancels_group=3": "",
    "shields_group=0": "chain groups it shields against, by slot (`shield.against`)",
    "shields_group=1": "",
    "shields_group=2": "",
    "shields_group=3": "",
    "shield_pass_through": "the chain passes on to the next player (`shield.pass_through`)",
    "shield_same_suit": "the shield must be of the top card's suit (`shield.same_suit`)",
    "free_play_next": "the next player may play any card (`free_play_next`)",
    "follow=same_suit_any": "may be covered by more cards of its suit (`follow`)",
    "follow=one_matching": "may be covered by one matching card (`follow`)",
    "ends_turn": "placing it ends the turn (`ends_turn`)",
    "extra_turn": "its player plays again (`extra_turn`)",
    "others_draw": "every other player draws this many / 16 (`others_draw`)",
    "give=each_other": "its player gives a card to each other player (`give`)",
    "give=one": "its player gives a card to the next player (`give`)",
    "waste_draw": "the next player draws this many from the shuffled discard pile / 16 (`waste_draw`)",
    "marriage": "a K and Q of one suit may be played together (`marriage`)",
    "next_picture": "the next player must play a J, Q or K (`next_picture`)",
    "next_even": "only even spot cards may follow (`next_even`)",
    "second_suit": "its player names a second suit (`second_suit`)",
    "swap_hand": "its player may swap hands (`swap_hand`)",
    "ask_rank": "its player asks for a rank (`ask_rank`)",
    "pick_up_pile": "the next player picks up this many cards under it / 16 (`pick_up_pile`)",
    "must_cover": "it must be covered by its suit (`must_cover`)",
    "pass_hands=left": "every player passes their hand this way (`pass_hands`)",
    "pass_hands=right": "",
    "pass_hands=direction": "",
    "mirror": "mirrors a pending penalty of its suit (`mirror`)",
    "joker_lock": "playable only on a K, and a K must follow (`joker_lock`)",
    "repeat=once": "copies played together act once (`repeat`)",
    "last_special=draws_apply": "as the winner's last card (`last_special`; `ignored` is all zeros)",
    "last_special=as_during_hand": "",
    "last_special=chain_continues": "",
    "last_special=cannot_go_out": "",
    "start=ignore": "as the start card (`start.effect`, `start.cards`; `as_played_by_dealer` is all zeros)",
    "start=redraw": "",
    "start=dealer_nominates_blind": "",
    "start=free_play": "",
    "rank_blocked": "matches by suit only (`match.rank_blocked`)",
    "doubles_hand_value": "each held copy doubles the hand's value (`score.double_per`)",
    "multi_excluded": "cannot be played several at once (`multi.excluded`)",
    "pure_wild": "as its player's countdown wild it acts only as a wild (`countdown.pure_wild`)",
}

#: Table-wide values: name -> what it holds.
TABLE = {
    "num_players": "players / 10",
    "packs": "packs in the deck / 4",
    "deck_size": "cards in the deck / 216",
    "hand_size": "cards dealt to each player / 16 (`deal.hand_size`)",
    "dealer_extra": "extra cards for the dealer / 16 (`deal.dealer_extra`)",
    "no_start_card": "no start card: the first player leads (`deal.starter`)",
    "first_player=dealer_chooses": "who plays first (`order.first`; `dealer_left` is all zeros)",
    "first_player=previous_loser": "",
    "first_player=agreed": "",
    "initial_direction=ccw": "play starts anticlockwise (`order.initial_direction`)",
    "next_dealer=winner": "who deals next (`order.next_dealer`; `clockwise` is all zeros)",
    "next_dealer=fixed": "",
    "joker_colours_distinct": "red and black jokers differ (`deck.joker_colours_distinct`)",
    "any_court": "a court card matches any court card (`match.any_court`)",
    "rank_closed_after_wild": "after a wild only the suit or the follower's own wild (`match.after_wild`)",
    "countdown": "scores count down and set each player's wild rank (`countdown`)",
    "countdown_start": "the countdown's start score / 16",
    "draw_voluntary": "a player may draw instead of playing (`draw.voluntary`)",
    "draw_mode=until_playable": "how many cards a draw takes (`draw.mode`; `one` is all zeros)",
    "draw_mode=until_playable_or_hand": "",
    "draw_mode=up_to": "",
    "draw_limit": "`draw.limit` / 16",
    "draw_after=may_play_drawn": "what may follow a draw (`draw.after`; `end_turn` is all zeros)",
    "draw_after=may_play_any": "",
    "draw_after=must_play_drawn_if_playable": "",
    "draw_after=must_play_when_found": "",
    "draw_end_of_turn": "cards drawn at the end of every turn / 4 (`draw.end_of_turn`)",
    "pass_when=stock_empty": "when a player may pass (`pass.when`; `never` is all zeros)",
    "pass_when=after_one_draw": "",
    "pass_when=after_draw_limit": "",
    "pass_is_final": "a pass on an empty stock is final for the hand (`pass.all_pass`)",
    "explicit_pass": "a forced pass is a decision (`pass.explicit`)",
    "stock_exhausted=turn_over_no_shuffle": "an empty stock (`stock.exhausted`; reshuffle is all zeros)",
    "stock_exhausted=no_reshuffle": "",
    "stock_exhausted=keep_five": "",
    "refill_at_once": "the stock is refilled as its last card goes (`stock.refill_at_once`)",
    "chain_increment": "`chain.increment` / 8",
    "chain_accept_ends_turn": "taking a penalty ends the turn (`chain.accept_ends_turn`)",
    "chain_after=attack_suit_only": "after an attack only its suit may follow (`chain.after`)",
    "chain_needs_stock": "a draw card on an empty stock starts no penalty (`chain.needs_stock`)",
    "pickup_counts_as_pass": "a penalty that empties the stock counts as a pass (`chain.pickup_counts_as_pass`)",
    "chain_groups": "draw-chain groups / 4",
    "multi_mode=equal_rank": "several cards in a turn (`multi.mode`; `off` is all zeros)",
    "multi_mode=pairs_with_cover": "",
    "multi_mode=zodiac_run": "",
    "multi_mode=up_to_3_or_all": "",
    "multi_mode=matching_run": "",
    "multi_effects=top_only": "which cards of a multiple act (`multi.effects`; `cumulate_all` is all zeros)",
    "multi_effects=top_card_only": "",
    "multi_effects=top_only_in_runs": "",
    "identical_bonus": "an identical card makes the others draw (`multi.identical_bonus`)",
    "last_card=auto": "the last-card call (`last_card.mode`; `off` is all zeros)",
    "last_card=action": "",
    "last_card_penalty": "`last_card.penalty` / 8",
    "end_blocked": "a blocked hand ends and is scored (`end.blocked`)",
    "blocked_extra_passes": "`end.blocked_extra_passes` / 4",
    "four_of_a_kind": "four of a kind ends the hand (`end.four_of_a_kind`)",
    "max_plays_set": "the hand ends after a number of plays (`end.max_plays`)",
    "max_plays": "`end.max_plays` / 256",
    "play_for_second": "play goes on for second place (`end.play_for_second`)",
    "max_decisions": "the decision cap / 8192 (`limits.max_decisions`)",
    "two_player_reverse=as_skip": "a reverse with two players (`two_player.reverse`; `noop` is all zeros)",
    "two_player_reverse=ordinary_card": "",
    "joker_bluff": "`options.joker_bluff`",
    "replay_drawn_pickup": "`options.replay_drawn_pickup`",
    "silly_hat": "`options.silly_hat`",
    "allow_500": "`options.allow_500`",
    "wild_instapik": "`options.wild_instapik`",
    "score=winner_collects": "scoring (`score.mode`; `penalty` is all zeros)",
    "score=per_card": "",
    "score=countdown": "",
    "score=none": "",
    "score_blocked=nobody": "a blocked hand's scoring (`score.blocked`; `all_score` is all zeros)",
    "score_blocked=lowest_collects": "",
    "winner_bonus": "`score.winner_bonus` / 100",
    "double_last_rank": "`score.double_last_rank`",
    "double_trouble": "`score.double_trouble`",
    "halve_per_identical_pair": "`score.halve_per_identical_pair`",
    "match": "an episode is a match of hands (`series.match`)",
    "match_target": "the match target / 1000 (`series.target`, `series.target_per_player`)",
    "max_hands_set": "the match has a hand limit (`series.max_hands`)",
    "max_hands": "`series.max_hands` / 64",
    "series_winner=first_to_reach": "who wins the match (`series.winner`; `lowest` is all zeros)",
    "series_winner=last_below": "",
    "arithmetic": "stalin's arithmetic matching (`match.extra`)",
    "rogue_pile": "stalin's rogue pile (`match.extra`)",
    "last_card_timing=on_penultimate_play": (
        "the last-card call is owed for the play of the second-to-last card only, not when a give "
        "leaves one card (`last_card.timing`; set only under `last_card.mode = action` with a give card; "
        "added after the columns above, so that they keep their offsets)"
    ),
    "pass_only_when_unable": (
        "only a player who cannot play may pass (`pass.voluntary = false`; added after the columns above, so "
        "that they keep their offsets)"
    ),
    "no_refill_after_out": (
        "the stock is not refilled once a player holds no cards (`stock.no_refill_after_out`; added after the "
        "columns above, so that they keep their offsets)"
    ),
    "nomination_lapses": (
        "a named suit binds the next player's turn only (`match.nomination_lapses`; added last, so that the "
        "columns before it keep their offsets)"
    ),
}


def _bounds(low: float, high: float) -> str:
    return f"{low:g}..{high:g}"


def section() -> str:
    """The generated section (between the markers, markers included)."""
    missing = [n for n in encoding.CARD_FEATURE_NAMES if n not in CARD]
    missing += [n for n in encoding.TABLE_FEATURE_NAMES if n not in TABLE]
    if missing:
        raise SystemExit(f"describe these columns in scripts/gen_layouts_doc.py: {missing}")
    low, high = encoding.bounds()
    k = len(encoding.CARD_FEATURE_NAMES)
    out = [
        BEGIN,
        "",
        "## Rules encoding",
        "",
        f"A float32 vector of `eights.RULES_SIZE` = {eights.RULES_SIZE} values (`Rules.encode(num_players)`,",
        '`Game.rules_encoding()`, and the `"rules"` part of the observations with `obs_rules=True`):',
        f"54 rows of {k} per-card values (one row per card in index order, jokers last), then",
        f"{len(encoding.TABLE_FEATURE_NAMES)} table-wide values. A column `group=value` is one of a one-hot",
        "group whose default choice is all zeros; numbers are divided by the scale shown (the",
        "bounds are those of `eights.rules.encoding.bounds()`). Rule sets encode alike exactly when",
        "they play alike (names and prose aside), checked over every preset, every documented variant",
        "and thousands of drawn rule sets (`tests/suite/rules_encoding.rs`); chain groups past the fourth",
        "share its slot, and `wild.forbidden_on` is encoded by its counts (exact when the wild cards",
        "that have such a list share one).",
        "",
        f"### Per card ({k} values per row)",
        "",
        "| column | values | contents |",
        "|---|---|---|",
    ]
    for i, name in enumerate(encoding.CARD_FEATURE_NAMES):
        out.append(f"| {i} `{name}` | {_bounds(low[i], high[i])} | {CARD[name]} |")
    out += [
        "",
        f"### Table-wide ({len(encoding.TABLE_FEATURE_NAMES)} values)",
        "",
        "| offset | name | values | contents |",
    ]
    out.append("|---|---|---|---|")
    base = 54 * k
    for j, name in enumerate(encoding.TABLE_FEATURE_NAMES):
        i = base + j
        out.append(f"| {i} | `{name}` | {_bounds(low[i], high[i])} | {TABLE[name]} |")
    out += ["", END]
    assert np.isfinite(low).all() and np.isfinite(high).all()
    return "\n".join(out)


def generate(text: str) -> str:
    """``text`` (docs/layouts.md) with its section replaced (appended when absent)."""
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        return head + section() + tail
    return text.rstrip("\n") + "\n\n" + section() + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="exit 1 if docs/layouts.md is stale")
    args = ap.parse_args()
    text = DOC.read_text(encoding="utf-8")
    new = generate(text)
    if args.check:
        if new != text:
            print("docs/layouts.md is out of date: run python scripts/gen_layouts_doc.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
