// Diabolo (Knizia): the events the rules write while they replay a move (docs/frontend.rst,
// "Knizia"). All are public (K5.1), from the position as it stands when they happen.
#pragma once

#include "diabolo/core/events.hpp"
#include "diabolo/knizia/knizia.hpp"

namespace diabolo::knizia::events {

void revealed(EventLog& log, const Position& s, int seat);
void passed(EventLog& log, int seat);
/// After the call was recorded; `positions` are the table positions a valid call took, in
/// word order, and `cards` those cards (before they left the table).
void called(EventLog& log, const Position& s, int seat, const std::vector<int>& positions,
            const std::vector<Card>& cards);
void penalty(EventLog& log, const Position& s);
void took(EventLog& log, int seat, int position, const Card& card);
/// K10.2: the taker at the head of the penalty got the deck's top card, or nothing.
void took_from_deck(EventLog& log, const Position& s, int seat, bool drawn);
/// After the round's points were added to the scores, which were `before`.
void round_ended(EventLog& log, const Position& s, const std::array<int32_t, kMaxPlayers>& before);
void round_started(EventLog& log, const Position& s);

}  // namespace diabolo::knizia::events
