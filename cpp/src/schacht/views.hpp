// Diabolo (Schacht): the parts of the JSON views that the views (json.cpp) and the
// events (events.cpp) share, and the events the rules write while they replay a move.
#pragma once

#include <cstddef>
#include <string>

#include "diabolo/core/events.hpp"
#include "diabolo/core/index.hpp"
#include "diabolo/core/json.hpp"
#include "diabolo/schacht/schacht.hpp"

namespace diabolo::schacht {

namespace views {

using Storage = boost::json::storage_ptr;

/// The cards of `set` in notation, sorted by colour then value: ["R1", "R4", "G5"].
json::Value card_list(CardSet set, const Storage& sp = {});
std::string colour_letter(int colour);
json::Value colour_or_null(int colour, const Storage& sp = {});
/// One bool per seat: bit s of `bits`.
json::Value seat_bools(const Position& s, unsigned bits, const Storage& sp = {});
/// colour letter -> {"left": values in the order placed, "right": ..., "closed": bool}
json::Value rows_json(const Position& s, const Storage& sp = {});

}  // namespace views

/// The events of the rules (docs/frontend.rst, "Schacht"), written into an EventLog
/// while a move is replayed. Each takes the position as it stands when the event happens.
namespace events {

enum class RoundEnd { RowsClosed, NoCards };

void round_started(EventLog& log, const Position& s);
void drew(EventLog& log, int seat, Card card);
void turn(EventLog& log, int seat);
void placed(EventLog& log, const Position& s, int seat, const Move& move);
void discarded(EventLog& log, const Position& s, int seat, Card card);
void play_ended(EventLog& log, const Position& s, RoundEnd reason);
void doubler_asked(EventLog& log, const Position& s);
void doubler_decided(EventLog& log, int seat, bool bet);
/// Before the colour's points are added: `points` holds each seat's points.
void colour_scored(EventLog& log, const Position& s, int colour, const int* points);
void round_ended(EventLog& log, const Position& s);

}  // namespace events

}  // namespace diabolo::schacht
