//! The deal and seating columns of the rules encoding: players, the deck, the hand, the
//! start card, who begins and deals, and the table-wide options of the deal.

use super::{DRAWS, Out};
use crate::rules::{FirstPlayer, MAX_PLAYERS, NextDealer, Rules};

impl Rules {
    /// Players, deck, hand size, the start card, seating and the countdown.
    pub(super) fn encode_deal(&self, o: &mut impl Out) {
        let s = &self.settings;
        o.num_in("num_players", self.num_players.into(), 10.0, 2.0, MAX_PLAYERS as f32);
        o.num_in("packs", self.packs.into(), 4.0, 1.0, 4.0);
        o.num("deck_size", self.deck.len() as f64, 216.0, 216.0);
        o.num("hand_size", self.hand_size.into(), DRAWS, super::BYTE);
        o.num("dealer_extra", s.dealer_extra.into(), DRAWS, super::BYTE);
        o.flag("no_start_card", s.lead);
        o.flag("first_player=dealer_chooses", s.first_player == FirstPlayer::DealerChooses);
        o.flag("first_player=previous_loser", s.first_player == FirstPlayer::PreviousLoser);
        o.flag("first_player=agreed", s.first_player == FirstPlayer::Agreed);
        o.flag("initial_direction=ccw", s.initial_direction < 0);
        o.flag("next_dealer=winner", s.next_dealer == NextDealer::Winner);
        o.flag("next_dealer=fixed", s.next_dealer == NextDealer::Fixed);
        o.flag("joker_colours_distinct", s.joker_colours_distinct);
        o.flag("any_court", s.any_court);
        o.flag("rank_closed_after_wild", s.rank_closed_after_wild);
        o.flag("countdown", s.countdown);
        o.num("countdown_start", s.countdown_start.into(), 16.0, 13.0);
    }
}
