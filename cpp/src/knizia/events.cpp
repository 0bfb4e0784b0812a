// Diabolo (Knizia): the events of a move (docs/frontend.rst, "Knizia"). Every event is
// public: the table, the calls and the piles' sizes are seen by all (K5.1); a card drawn
// blind from the deck (K3.5) is seen by nobody, so its event names no card.
#include "events.hpp"

#include "diabolo/core/index.hpp"
#include "diabolo/core/json.hpp"

namespace diabolo::knizia {

namespace events {

namespace {

json::Value card_text(const Card& card) { return json::Value(json::view(format_card(card))); }

}  // namespace

void revealed(EventLog& log, const Position& s, int seat) {  // K3.1
    json::Object& e = log.add("revealed");
    e.emplace("seat", seat);
    e.emplace("card", card_text(s.config.card(s.table[at(s.table_count - 1)])));
    e.emplace("deck_count", s.deck_count());
}

void passed(EventLog& log, int seat) { log.add("passed").emplace("seat", seat); }  // K10.5

void called(EventLog& log, const Position& s, int seat, const std::vector<int>& positions,
            const std::vector<Card>& cards) {  // K3.3-K3.5
    json::Object& e = log.add("called");
    e.emplace("seat", seat);
    e.emplace("word", boost::json::string_view(s.last_call.word.data(), s.last_call.length));
    e.emplace("valid", s.last_call.valid);
    if (s.last_call.valid) {
        e.emplace("reason", nullptr);
        json::Array where, taken;
        for (const int position : positions) where.emplace_back(position);
        for (const Card& card : cards) taken.emplace_back(card_text(card));
        e.emplace("positions", std::move(where));
        e.emplace("cards", std::move(taken));
    } else {
        e.emplace("reason", reason_text(s.last_call.reason));
        e.emplace("positions", nullptr);
        e.emplace("cards", nullptr);
    }
}

void penalty(EventLog& log, const Position& s) {  // K3.5
    json::Array seats;
    for (int i = 0; i < s.penalty_count; ++i) seats.emplace_back(int{s.penalty[at(i)]});
    log.add("penalty").emplace("seats", std::move(seats));
}

void took(EventLog& log, int seat, int position, const Card& card) {  // K3.5
    json::Object& e = log.add("took");
    e.emplace("seat", seat);
    e.emplace("position", position);
    e.emplace("card", card_text(card));
}

void took_from_deck(EventLog& log, const Position& s, int seat, bool drawn) {  // K10.2
    json::Object& e = log.add("took_from_deck");
    e.emplace("seat", seat);
    e.emplace("drawn", drawn);
    e.emplace("deck_count", s.deck_count());
}

void round_ended(EventLog& log, const Position& s, const std::array<int32_t, kMaxPlayers>& before) {  // K4
    json::Object& e = log.add("round_ended");
    e.emplace("round", int{s.round});
    e.emplace("piles", seat_list(s.pile, s.players()));
    std::array<int32_t, kMaxPlayers> points{};
    for (int p = 0; p < s.players(); ++p) points[at(p)] = s.scores[at(p)] - before[at(p)];
    e.emplace("points", seat_list(points, s.players()));
    e.emplace("scores", seat_list(s.scores, s.players()));
    json::Array table;
    for (int i = 0; i < s.table_count; ++i) table.emplace_back(card_text(s.config.card(s.table[at(i)])));
    e.emplace("table", std::move(table));
}

void round_started(EventLog& log, const Position& s) {  // K3.1, K4.2
    json::Object& e = log.add("round_started");
    e.emplace("round", int{s.round});
    e.emplace("dealer", s.dealer());
    e.emplace("deck_count", s.deck_count());
    e.emplace("scores", seat_list(s.scores, s.players()));
}

}  // namespace events

json::Value visibility() {
    return visibility_table({{"player", "public"},
                             {"round", "public"},
                             {"rounds", "public"},
                             {"dealer", "public"},
                             {"phase", "public"},
                             {"table", "public"},
                             {"deck_count", "public"},
                             {"piles", "public"},
                             {"scores", "public"},
                             {"last_call", "public"},
                             {"penalty", "public"},
                             {"passed", "public"},
                             {"legal", "private"},
                             {"legal_moves", "private"}},
                            {{"reveal", "public"}, {"pass", "public"}, {"take", "public"}, {"claim", "public"}},
                            {{"revealed", "public"},
                             {"passed", "public"},
                             {"called", "public"},
                             {"penalty", "public"},
                             {"took", "public"},
                             {"took_from_deck", "public"},
                             {"round_ended", "public"},
                             {"round_started", "public"},
                             {"game_ended", "public"}});
}

}  // namespace diabolo::knizia
