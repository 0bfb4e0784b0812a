// Duvelen: the parts of the JSON views that the views (json.cpp) and the events
// (events.cpp) share, and the events the rules write while they replay a move.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "diabolo/core/events.hpp"
#include "diabolo/core/index.hpp"
#include "diabolo/core/json.hpp"
#include "diabolo/duvelen/duvelen.hpp"

namespace diabolo::duvelen {

namespace views {

using Storage = boost::json::storage_ptr;

json::Value card_or_null(int card, const Storage& sp = {});
std::string suit_letter(int suit);
/// The piles in the centre (by number) or the Herenhopen (in completion order), as in
/// observation() (D8.3).
json::Value piles_json(const Position& s, bool complete, const Storage& sp = {});
/// Every seat's face-up cards and counts, as in observation() (D8.3).
json::Value seats_json(const Position& s, const Storage& sp = {});

}  // namespace views

/// The events of the rules (docs/frontend.rst, "Duvelen"): all public (D8.1), written
/// into an EventLog while a move is replayed, from the position as it stands then.
namespace events {

enum class RoundEnd { Passes, NoPlays, Blocked, ActionCap };

void round_started(EventLog& log, const Position& s);
/// After `move` has left its source and landed on its pile.
void played(EventLog& log, const Position& s, const Move& move, int seat);
/// After the Draaistok's cards from `waste_before` on were turned onto the waste.
void turned(EventLog& log, const Position& s, int seat, int waste_before);
void recycled(EventLog& log, int seat, MoveKind kind);
void stop_called(EventLog& log, const Position& s, int seat);
void passed(EventLog& log, int seat);
void draaistok_flipped(EventLog& log, const Position& s, int seat);
void blocked(EventLog& log);
void stoks_rotated(EventLog& log, const Position& s);
/// Before the round's points are added to the totals.
void round_ended(EventLog& log, const Position& s, RoundEnd reason);

}  // namespace events

}  // namespace diabolo::duvelen
