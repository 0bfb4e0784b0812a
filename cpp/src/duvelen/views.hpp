// Duvelen: the parts of the JSON views that the views (json.cpp) and the events
// (events.cpp) share, and the events the rules write while they replay a move.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "diabolo/core/events.hpp"
#include "diabolo/core/index.hpp"
#include "diabolo/core/json.hpp"
#include "diabolo/duvelen/duvelen.hpp"

namespace diabolo::duvelen {

namespace views {

json::Value card_or_null(int card);
/// The piles in the centre (by number) or the Herenhopen (in completion order), as in
/// observation() (D8.3).
json::Value piles_json(const Position& s, bool complete);
/// Every seat's face-up cards and counts, as in observation() (D8.3).
json::Value seats_json(const Position& s);

// The same written by a json::Tape (the views) or a json::Writer.

template <class W>
void write_card_or_null(W& w, int card) {
    if (card < 0) w.null();
    else w.value(format_card(card));
}

/// A suit's letter: "h".
inline std::string_view suit_letter(int suit) { return {&kSuitLetters[suit], 1}; }

/// The ids of the piles in the centre (by number) or of the Herenhopen (in completion order).
std::vector<int> pile_ids(const Position& s, bool complete);

template <class W>
void write_piles(W& w, const Position& s, bool complete) {
    w.begin_array();
    for (const int id : pile_ids(s, complete)) {
        const Pile& pile = s.piles[at(id - 1)];
        w.begin_object();
        if (complete) w.key("holder").value(int{pile.holder});
        else w.key("id").value(id);
        w.key("suit").value(suit_letter(pile.suit));
        if (!complete) w.key("top").value(int{pile.top});
        w.key("owners").begin_array();
        for (int r = 0; r < pile.top; ++r) w.value(int{pile.owners[at(r)]});
        w.end_array().end_object();
    }
    w.end_array();
}

template <class W>
void write_seats(W& w, const Position& s) {
    w.begin_array();
    for (int p = 0; p < s.players(); ++p) {
        const Seat& seat = s.seats[at(p)];
        w.begin_object().key("stok_top");
        write_card_or_null(w, seat.stok_top());
        w.key("stok_count").value(int{seat.stok_count}).key("rij").begin_array();
        for (const uint8_t card : seat.rij) write_card_or_null(w, card == kNoCard ? -1 : card);
        w.end_array().key("waste_top");
        write_card_or_null(w, seat.waste_top());
        w.key("waste_count").value(int{seat.waste_count}).key("draaistok_count").value(seat.draaistok_count());
        w.key("passed").value(((s.passed >> p) & 1u) != 0).end_object();
    }
    w.end_array();
}

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
