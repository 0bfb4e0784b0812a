// Diabolo (Schacht): the parts of the JSON views that the views (json.cpp) and the
// events (events.cpp) share, and the events the rules write while they replay a move.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "diabolo/core/events.hpp"
#include "diabolo/core/index.hpp"
#include "diabolo/core/json.hpp"
#include "diabolo/schacht/schacht.hpp"

namespace diabolo::schacht {

namespace views {

/// The cards of `set` in notation, sorted by colour then value: ["R1", "R4", "G5"], for
/// the events.
json::Value card_list(CardSet set);
/// colour letter -> {"left": values in the order placed, "right": ..., "closed": bool}
json::Value rows_json(const Position& s);

// The same parts written by a json::Writer (the state's text) or a json::Tape (the views).

template <class W>
void write_card(W& w, Card card) {
    w.plain_in_place(2, [card](char* out) {
        write_card_notation(card, out);
        return std::size_t{2};
    });
}

/// Writes `move` in notation (S8: "G5<", "xG5", "bet", "hold") at `out`, at most
/// kLongestMove bytes, without building a string; returns the bytes written.
constexpr std::size_t kLongestMove = 4;
inline std::size_t write_move_notation(const Move& move, char* out) noexcept {
    switch (move.kind) {
        case MoveKind::Place:
            write_card_notation(move.card, out);
            out[2] = move.side == Side::Left ? '<' : '>';
            return 3;
        case MoveKind::Discard:
            out[0] = 'x';
            write_card_notation(move.card, out + 1);
            return 3;
        case MoveKind::Bet: std::memcpy(out, "bet", 3); return 3;
        case MoveKind::Hold: std::memcpy(out, "hold", 4); return 4;
    }
    return 0;
}

/// A move's notation as a string value.
template <class W>
void write_move_text(W& w, const Move& move) {
    w.plain_in_place(kLongestMove, [&move](char* out) { return write_move_notation(move, out); });
}

template <class W>
void write_cards(W& w, CardSet set) {
    w.begin_array();
    while (!set.empty()) write_card(w, Card{static_cast<uint8_t>(set.pop_lowest() / kMaxCopies)});  // slot order
    w.end_array();
}

/// One bool per seat: bit s of `bits`.
template <class W>
void write_seat_bools(W& w, const Position& s, unsigned bits) {
    w.begin_array();
    for (int seat = 0; seat < s.players(); ++seat) w.value(((bits >> seat) & 1u) != 0);
    w.end_array();
}

/// A colour's letter: "R".
inline std::string_view colour_letter(int colour) { return {&kColourLetters[colour], 1}; }

/// The colour whose letter is `letter` (S8), -1 for none: through a table, as states and
/// histories are read card by card.
inline int colour_of_letter(char letter) {
    static constexpr std::array<int8_t, 256> colours = [] {
        std::array<int8_t, 256> of{};
        for (int8_t& colour : of) colour = -1;
        for (int c = 0; c < kColours; ++c) of[static_cast<uint8_t>(kColourLetters[c])] = static_cast<int8_t>(c);
        return of;
    }();
    return colours[static_cast<uint8_t>(letter)];
}

template <class W>
void write_rows(W& w, const Position& s) {
    w.begin_object();
    for (int c = 0; c < kColours; ++c) {
        const Row& row = s.rows[at(c)];
        w.key(colour_letter(c)).begin_object().key("left").begin_array();
        for (int i = 0; i < row.left_count; ++i) w.value(int{row.left[at(i)]});
        w.end_array().key("right").begin_array();
        for (int i = 0; i < row.right_count; ++i) w.value(int{row.right[at(i)]});
        w.end_array().key("closed").value(row.closed()).end_object();
    }
    w.end_object();
}

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
