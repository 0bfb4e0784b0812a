// Duvelen: the events of a move (docs/frontend.rst, "Duvelen") and the parts of the views
// they share with json.cpp. Every event is public: nothing of the table is private to a
// seat (D8.1), and face-down cards show only when they turn up (D8.2).
#include <algorithm>
#include <vector>

#include "views.hpp"

namespace diabolo::duvelen {

namespace views {

json::Value card_or_null(int card) {
    return card < 0 ? json::Value(nullptr) : json::Value(json::view(format_card(card)));
}

std::vector<int> pile_ids(const Position& s, bool complete) {
    std::vector<int> ids;
    for (int id = 1; id <= s.pile_count; ++id) {
        if ((s.piles[at(id - 1)].holder >= 0) == complete) ids.push_back(id);
    }
    if (complete) {
        std::sort(ids.begin(), ids.end(),
                  [&](int a, int b) { return s.piles[at(a - 1)].completed < s.piles[at(b - 1)].completed; });
    }
    return ids;
}

json::Value piles_json(const Position& s, bool complete) {
    json::Tape tape;
    write_piles(tape, s, complete);
    return tape.value();
}

json::Value seats_json(const Position& s) {
    json::Tape tape;
    write_seats(tape, s);
    return tape.value();
}

}  // namespace views

namespace events {

using views::card_or_null;

namespace {

constexpr const char* kSourceNames[kSources] = {"S", "R1", "R2", "R3", "R4", "W"};

json::Value round_scores_json(const Position& s) { return seat_list(round_scores(s), s.players()); }

void stok_turned(EventLog& log, const Seat& seat, int p) {  // D3.5
    json::Object& e = log.add("stok_turned");
    e.emplace("seat", p);
    e.emplace("card", card_or_null(seat.stok_top()));
    e.emplace("stok_count", int{seat.stok_count});
}

/// The counts and the top of a seat's waste and Draaistok, after they changed.
void waste_fields(json::Object& e, const Seat& seat) {
    e.emplace("waste_top", card_or_null(seat.waste_top()));
    e.emplace("waste_count", int{seat.waste_count});
    e.emplace("draaistok_count", seat.draaistok_count());
}

}  // namespace

void round_started(EventLog& log, const Position& s) {  // D2
    json::Object& e = log.add("round_started");
    e.emplace("round", int{s.round});
    e.emplace("seats", views::seats_json(s));
    e.emplace("round_scores", round_scores_json(s));
}

void played(EventLog& log, const Position& s, const Move& move, int p) {  // D3.1-D3.6, D3.9
    const Pile& pile = s.piles[at(move.target == 0 ? s.pile_count - 1 : move.target - 1)];
    const int id = move.target == 0 ? s.pile_count : move.target;
    json::Object& e = log.add("played");
    e.emplace("seat", p);
    e.emplace("source", kSourceNames[static_cast<int>(move.source)]);
    e.emplace("card", json::view(format_card(move.card)));
    e.emplace("pile", id);
    e.emplace("new_pile", move.target == 0);
    e.emplace("round_scores", round_scores_json(s));
    const Seat& seat = s.seats[at(p)];
    switch (move.source) {
        case Source::Stok: stok_turned(log, seat, p); break;
        case Source::Waste: {  // D3.6
            json::Object& w = log.add("waste_uncovered");
            w.emplace("seat", p);
            waste_fields(w, seat);
            break;
        }
        default: {  // D3.4
            const int slot = static_cast<int>(move.source);
            const uint8_t card = seat.rij[at(slot - 1)];
            if (card == kNoCard) break;
            json::Object& r = log.add("refilled");
            r.emplace("seat", p);
            r.emplace("slot", slot);
            r.emplace("card", json::view(format_card(card)));
            stok_turned(log, seat, p);
        }
    }
    if (pile.holder >= 0) {  // D3.9
        json::Object& c = log.add("pile_completed");
        c.emplace("pile", id);
        c.emplace("holder", int{pile.holder});
        c.emplace("suit", views::suit_letter(pile.suit));
        json::Array owners;
        for (int r = 0; r < pile.top; ++r) owners.emplace_back(int{pile.owners[at(r)]});
        c.emplace("owners", std::move(owners));
    }
}

void turned(EventLog& log, const Position& s, int p, int waste_before) {  // D3.7
    const Seat& seat = s.seats[at(p)];
    json::Object& e = log.add("turned");
    e.emplace("seat", p);
    // Only the last card turned shows: the waste below its top is face down (D8.2).
    e.emplace("count", seat.waste_count - waste_before);
    waste_fields(e, seat);
}

void recycled(EventLog& log, int p, MoveKind kind) {  // D3.8
    json::Object& e = log.add("recycled");
    e.emplace("seat", p);
    e.emplace("direction", kind == MoveKind::Recycle ? "top_to_bottom" : "bottom_to_top");
}

void stop_called(EventLog& log, const Position& s, int p) {  // D4.1
    json::Object& e = log.add("stop_called");
    e.emplace("seat", p);
    e.emplace("round_scores", round_scores_json(s));
}

void passed(EventLog& log, int p) { log.add("passed").emplace("seat", p); }  // D4.4

void draaistok_flipped(EventLog& log, const Position& s, int p) {  // D4.3
    json::Object& e = log.add("draaistok_flipped");
    e.emplace("seat", p);
    waste_fields(e, s.seats[at(p)]);
}

void blocked(EventLog& log) { log.add("blocked"); }  // D4.5

void stoks_rotated(EventLog& log, const Position& s) {  // D4.5
    json::Array tops;
    for (int p = 0; p < s.players(); ++p) tops.emplace_back(card_or_null(s.seats[at(p)].stok_top()));
    log.add("stoks_rotated").emplace("stok_tops", std::move(tops));
}

void round_ended(EventLog& log, const Position& s, RoundEnd reason) {  // D4, D5
    constexpr const char* kReasons[] = {"passes", "no_plays", "blocked", "action_cap"};
    json::Object& e = log.add("round_ended");
    e.emplace("round", int{s.round});
    e.emplace("reason", kReasons[static_cast<int>(reason)]);
    const auto points = round_scores(s);
    e.emplace("points", seat_list(points, s.players()));
    auto totals = s.scores;
    for (int p = 0; p < s.players(); ++p) totals[at(p)] += points[at(p)];
    e.emplace("scores", seat_list(totals, s.players()));
    e.emplace("stop_called_by", s.stop_called_by >= 0 ? json::Value(int{s.stop_called_by}) : json::Value(nullptr));
    e.emplace("piles", views::piles_json(s, false));
    e.emplace("herenhopen", views::piles_json(s, true));
    e.emplace("seats", views::seats_json(s));
}

}  // namespace events

json::Value visibility() {
    return visibility_table({{"player", "public"},
                             {"round", "public"},
                             {"rounds", "public"},
                             {"current_player", "public"},
                             {"phase", "public"},
                             {"stop_called_by", "public"},
                             {"piles", "public"},
                             {"herenhopen", "public"},
                             {"seats", "public"},
                             {"scores", "public"},
                             {"round_scores", "public"},
                             {"legal", "private"},
                             {"legal_moves", "private"}},
                            {{"play", "public"},
                             {"turn", "public"},
                             {"recycle", "public"},
                             {"recycle^", "public"},
                             {"stop", "public"},
                             {"pass", "public"}},
                            {{"round_started", "public"},
                             {"played", "public"},
                             {"stok_turned", "public"},
                             {"refilled", "public"},
                             {"waste_uncovered", "public"},
                             {"pile_completed", "public"},
                             {"turned", "public"},
                             {"recycled", "public"},
                             {"stop_called", "public"},
                             {"passed", "public"},
                             {"draaistok_flipped", "public"},
                             {"blocked", "public"},
                             {"stoks_rotated", "public"},
                             {"round_ended", "public"},
                             {"game_ended", "public"}});
}

}  // namespace diabolo::duvelen
