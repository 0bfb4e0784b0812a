// Diabolo (Schacht): the events of a move (docs/frontend.rst, "Schacht") and the parts of
// the views they share with json.cpp. Only the seat concerned sees its own cards and its
// doubler decision (S7): a draw or a deal shows the others how many cards, a decision
// shows them nothing until the colour is scored (S5.3).
#include "views.hpp"

namespace diabolo::schacht {

namespace views {

json::Value card_list(CardSet set) {
    json::Array out;
    out.reserve(static_cast<std::size_t>(set.count()));
    while (!set.empty()) {  // slot order: colour, then value, one per copy
        const Card card{static_cast<uint8_t>(set.pop_lowest() / kMaxCopies)};
        char text[2];
        write_card_notation(card, text);
        out.emplace_back(boost::json::string_view(text, 2));
    }
    return out;
}

json::Value rows_json(const Position& s) {
    json::Tape tape;
    write_rows(tape, s);
    return tape.value();
}

}  // namespace views

namespace events {

namespace {

json::Value card_text(Card card) { return json::Value(json::view(format_card(card))); }

}  // namespace

void round_started(EventLog& log, const Position& s) {  // S2.1, S6.1
    json::Object& e = log.add("round_started");
    e.emplace("round", int{s.round});
    e.emplace("dealer", int{s.dealer});
    e.emplace("draw_pile", s.pile_size());
    for (int i = 0; i < s.players(); ++i) {  // dealt from the seat left of the dealer
        const int seat = (s.dealer + 1 + i) % s.players();
        json::Object& dealt = log.add_private(seat, "dealt");
        dealt.emplace("seat", seat);
        dealt.emplace("cards", views::card_list(s.hands[at(seat)]));
        json::Object& count = log.redacted();
        count.emplace("seat", seat);
        count.emplace("count", s.hands[at(seat)].count());
    }
}

void drew(EventLog& log, int seat, Card card) {  // S2.3
    json::Object& e = log.add_private(seat, "drew");
    e.emplace("seat", seat);
    e.emplace("card", card_text(card));
    log.redacted().emplace("seat", seat);
}

void turn(EventLog& log, int seat) { log.add("turn").emplace("seat", seat); }

void placed(EventLog& log, const Position& s, int seat, const Move& move) {  // S2.3, S3.1
    json::Object& e = log.add("placed");
    e.emplace("seat", seat);
    e.emplace("card", card_text(move.card));
    e.emplace("side", move.side == Side::Left ? "left" : "right");
    const int colour = move.card.colour();
    if (s.rows[at(colour)].closed()) log.add("row_closed").emplace("colour", views::colour_letter(colour));
}

void discarded(EventLog& log, const Position& s, int seat, Card card) {  // S3.3
    json::Object& e = log.add("discarded");
    e.emplace("seat", seat);
    e.emplace("card", card_text(card));
    e.emplace("shown", views::card_list(s.hands[at(seat)]));
}

void play_ended(EventLog& log, const Position& s, RoundEnd reason) {  // S4.1
    json::Object& e = log.add("play_ended");
    e.emplace("round", int{s.round});
    e.emplace("reason", reason == RoundEnd::RowsClosed ? "rows_closed" : "no_cards");
}

void doubler_asked(EventLog& log, const Position& s) {  // S5.3
    json::Object& e = log.add("doubler_asked");
    e.emplace("colour", views::colour_letter(s.scoring_colour));
    json::Array seats;
    for (int seat = 0; seat < s.players(); ++seat) {
        if ((s.doubler_available >> seat) & 1u) seats.emplace_back(seat);
    }
    e.emplace("seats", std::move(seats));
}

void doubler_decided(EventLog& log, int seat, bool bet) {  // S5.3, S7.1: no counterpart
    json::Object& e = log.add_private(seat, "doubler_decided");
    e.emplace("seat", seat);
    e.emplace("decision", bet ? "bet" : "hold");
}

void colour_scored(EventLog& log, const Position& s, int colour, const int* points) {  // S5.1-S5.6
    const Row& row = s.rows[at(colour)];
    const int angel = row.angel_sum(), devil = row.devil_sum();
    json::Object& e = log.add("colour_scored");
    e.emplace("colour", views::colour_letter(colour));
    e.emplace("angel", angel);
    e.emplace("devil", devil);
    e.emplace("outcome", angel > devil ? "positive" : angel < devil ? "negative" : "even");
    if (angel == devil) {  // S5.5: nobody reveals
        e.emplace("hands", nullptr);
    } else {
        json::Array hands;
        for (int seat = 0; seat < s.players(); ++seat)
            hands.emplace_back(views::card_list(s.hands[at(seat)] & colour_mask(colour)));
        e.emplace("hands", std::move(hands));
    }
    json::Array bets;
    for (int seat = 0; seat < s.players(); ++seat) {
        if ((s.bets >> seat) & 1u) bets.emplace_back(seat);
    }
    e.emplace("bets", std::move(bets));
    e.emplace("points", seat_list(points, s.players()));
}

void round_ended(EventLog& log, const Position& s) {  // S5, S6.1
    json::Object& e = log.add("round_ended");
    e.emplace("round", int{s.round});
    e.emplace("rows", views::rows_json(s));
    json::Array sizes;
    for (int seat = 0; seat < s.players(); ++seat) sizes.emplace_back(s.hands[at(seat)].count());
    e.emplace("hand_sizes", std::move(sizes));
    e.emplace("scores", seat_list(s.scores, s.players()));
}

}  // namespace events

json::Value visibility() {
    return visibility_table({{"player", "public"},
                             {"round", "public"},
                             {"rounds", "public"},
                             {"dealer", "public"},
                             {"current_player", "public"},
                             {"phase", "public"},
                             {"hand", "private"},
                             {"hand_sizes", "public"},
                             {"rows", "public"},
                             {"draw_pile", "public"},
                             {"doubler_available", "public"},
                             {"doubler_decision", "private"},
                             {"scores", "public"},
                             {"scoring_colour", "public"},
                             {"revealed", "public"},
                             {"turns", "public"},
                             {"legal", "private"},
                             {"legal_moves", "private"}},
                            {{"place", "public"}, {"discard", "public"}, {"bet", "secret"}, {"hold", "secret"}},
                            {{"round_started", "public"},
                             {"dealt", "private_with_public_form"},
                             {"drew", "private_with_public_form"},
                             {"turn", "public"},
                             {"placed", "public"},
                             {"row_closed", "public"},
                             {"discarded", "public"},
                             {"play_ended", "public"},
                             {"doubler_asked", "public"},
                             {"doubler_decided", "private"},
                             {"colour_scored", "public"},
                             {"round_ended", "public"},
                             {"game_ended", "public"}});
}

}  // namespace diabolo::schacht
