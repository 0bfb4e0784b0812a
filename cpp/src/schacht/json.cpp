// Diabolo (Schacht): what each seat sees (S7.4), the state and the options as JSON. The
// keys are an interface that frontends rely on (docs/games/schacht.rst, "Observations"
// and "Saving a game").
#include <string_view>
#include <tuple>

#include "diabolo/core/json.hpp"
#include "diabolo/schacht/schacht.hpp"
#include "views.hpp"

namespace diabolo::schacht {

using namespace std::string_view_literals;

namespace {

constexpr const char* kFormat = "diabolo.schacht/1";
// string_views, not C strings: a view writes them without measuring them (strlen was 1% of a view).
constexpr std::string_view kPhaseNames[] = {"play", "doubler", "game_over"};
constexpr std::string_view kMoveKinds[] = {"place", "discard", "bet", "hold"};

using views::colour_letter;
using views::write_card;
using views::write_cards;
using views::write_move_text;
using views::write_rows;
using views::write_seat_bools;

/// Writes "seat:move" ("2:G5<", at most 2 + kLongestMove bytes) at `out`, without building strings: a
/// state's history is most of its JSON. Returns the bytes written.
std::size_t write_history_entry(const Step& step, char* out) {
    std::size_t n = 0;
    out[n++] = static_cast<char>('0' + step.player);  // seats are 0..7
    out[n++] = ':';
    return n + views::write_move_notation(step.move, out + n);
}

CardSet read_cards(const json::Reader& r) {
    CardSet set{};
    for (std::size_t i = 0; i < r.size(); ++i) {
        Card card{};
        try {
            card = parse_card(r.at(i).text());
        } catch (const NotationError& e) {
            r.at(i).fail(e.what());
        }
        if (count_of(set, card) >= kMaxCopies) r.fail("too many copies of " + format_card(card));
        add_card(set, card);
    }
    return set;
}

uint8_t read_seat_bits(const json::Reader& r, int players) {
    if (r.size() != static_cast<std::size_t>(players)) r.fail("expected one entry per seat");
    unsigned bits = 0;
    for (int seat = 0; seat < players; ++seat) {
        if (r.at(at(seat)).boolean()) bits |= 1u << seat;
    }
    return static_cast<uint8_t>(bits);
}

int read_colour(const json::Reader& r) {
    const std::string_view letter = r.text();
    const int colour = letter.size() == 1 ? views::colour_of_letter(letter[0]) : -1;
    if (colour < 0) r.fail("expected a colour letter R, Y, G, P or B");
    return colour;
}

std::vector<Card> read_deck(const json::Reader& r) {
    std::vector<Card> deck;
    for (std::size_t i = 0, n = r.size(); i < n; ++i) {
        try {
            deck.push_back(parse_card(r.at(i).text()));
        } catch (const NotationError& e) {
            r.at(i).fail(e.what());
        }
    }
    return deck;
}

}  // namespace

json::Value options_json(const Game& game) {
    const auto& v = game.value_counts;
    return json::Object{{"players", game.players},
                        {"rounds", game.rounds},
                        {"rows_to_end", game.rows_to_end},
                        {"value_counts", json::Array{v[0], v[1], v[2], v[3], v[4]}},
                        {"strict_players", game.strict_players != 0}};
}

Game Rules::game_from_json(const json::Value& options) {
    const json::OptionReader r(options, "schacht",
                               {"players", "rounds", "rows_to_end", "value_counts", "strict_players"});
    Options o;
    // Range checks see the whole value (2**32 + 3 is out of range, never 3); 0 means
    // "the default" only inside Options, so it is refused here.
    if (r.has("strict_players")) o.strict_players = r.boolean("strict_players");
    if (r.has("players")) {
        const long long players = r.integer("players");
        // Game::from_options names the allowed range; past an int the value itself is kept.
        o.players = players < 0 || players > kMaxSeats ? -1 : static_cast<int>(players);
        try {
            if (o.players < 0) Game::from_options(o);
        } catch (const OptionError& e) {
            std::string message = e.what();
            throw OptionError(message.substr(0, message.rfind("got ") + 4) + std::to_string(players));
        }
    }
    if (r.has("rounds")) o.rounds = r.integer_in("rounds", 1, kMaxRounds, "S6.1");
    if (r.has("rows_to_end")) o.rows_to_end = r.integer_in("rows_to_end", 1, kColours, "S4.1");
    if (r.has("value_counts")) {
        const json::Value& counts = r.value("value_counts");
        if (!counts.is_array() || counts.get_array().size() != kValues) {
            throw OptionError("value_counts must be 5 ints: copies of the values 1..5 per colour (S1.3)");
        }
        for (int v = 0; v < kValues; ++v) {
            const json::Value& n = counts.get_array()[at(v)];
            const std::string name = "value_counts[" + std::to_string(v) + "]";
            long long copies = 0;
            if (!json::as_int64(n, copies))
                throw OptionError(name + (n.is_uint64() ? " is out of range: " : " must be an int, got ") +
                                  json::shown(n));
            if (copies < 0 || copies > kMaxCopies) {
                throw OptionError(name + " (copies of value " + std::to_string(v + 1) +
                                  " per colour) must be 0..5, got " + std::to_string(copies));
            }
            o.value_counts[at(v)] = static_cast<int>(copies);
        }
    }
    return Game::from_options(o);
}

/// Every option, in the order and form options_json gives them.
void write_options(json::Writer& w, const Game& g) {
    w.begin_object();
    w.key("players")
        .value(int{g.players})
        .key("rounds")
        .value(int{g.rounds})
        .key("rows_to_end")
        .value(int{g.rows_to_end});
    w.key("value_counts").begin_array();
    for (const uint8_t n : g.value_counts) w.value(int{n});
    w.end_array().key("strict_players").value(g.strict_players != 0).end_object();
}

std::string Rules::to_json(const State& t) {
    const Position& s = t.position;
    const Game& g = s.game;
    json::Writer w(1024 + 8 * t.history.size());
    w.begin_object();
    w.key("format").value(kFormat);
    w.key("options");
    write_options(w, g);
    w.key("seed").value(static_cast<unsigned long long>(s.seed));
    w.key("round").value(int{s.round}).key("dealer").value(int{s.dealer});
    w.key("phase").value(kPhaseNames[static_cast<int>(s.phase)]);
    w.key("current_player").value(int{s.current_player});
    w.key("scoring_colour");
    if (s.phase == Phase::Doubler && s.scoring_colour >= 0) w.value(colour_letter(s.scoring_colour));
    else w.null();
    w.key("revealed_colours").begin_array();
    for (int c = 0; c < kColours; ++c) {
        if (s.revealed_colours & (1u << c)) w.value(colour_letter(c));
    }
    w.end_array();
    w.key("doubler_available");
    write_seat_bools(w, s, s.doubler_available);
    w.key("decided");
    write_seat_bools(w, s, s.decided);
    w.key("bets");
    write_seat_bools(w, s, s.bets);
    w.key("pile").begin_array();
    for (int i = s.pile_next; i < s.pile_end; ++i) write_card(w, Card{s.pile[at(i)]});
    w.end_array();
    for (const auto& [key, sets] :
         {std::pair{"hands", &s.hands}, std::pair{"shown", &s.shown}, std::pair{"discarded", &s.discarded}}) {
        w.key(key).begin_array();
        for (int seat = 0; seat < s.players(); ++seat) write_cards(w, (*sets)[at(seat)]);
        w.end_array();
    }
    w.key("rows");
    write_rows(w, s);
    w.key("scores");
    write_seat_list(w, s.scores, s.players());
    w.key("history").begin_array();
    for (const Step& step : t.history)
        w.plain_in_place(2 + views::kLongestMove, [&step](char* out) { return write_history_entry(step, out); });
    w.end_array();
    w.key("decks").begin_array();
    for (const auto& deck : t.decks) {
        if (deck.empty()) {
            w.null();
            continue;
        }
        w.begin_array();
        for (Card card : deck) write_card(w, card);
        w.end_array();
    }
    w.end_array();
    w.end_object();
    return std::move(w.text());
}

namespace {

/// The state of `text`; if `expected` is given, a state of other options is refused.
State read_state(std::string_view text, const Game* expected) {
    const json::Document document(text);
    const json::Reader root(document);
    if (root.at("format").text() != kFormat) root.at("format").fail(std::string("expected '") + kFormat + "'");
    const Game game = json::read_options(
        root.at("options"), expected, [](const json::Value& options) { return Rules::game_from_json(options); },
        write_options);
    State t;
    Position& s = t.position;
    s.game = game;
    const int n = game.players;
    s.seed = root.at("seed").seed();
    s.round = static_cast<uint8_t>(root.at("round").integer(0, kMaxRounds - 1));
    s.dealer = static_cast<uint8_t>(root.at("dealer").integer(0, n - 1));
    s.phase = static_cast<Phase>(root.at("phase").choice({"play", "doubler", "game_over"}));
    s.current_player = static_cast<int8_t>(root.at("current_player").integer(kTerminal, n - 1));
    const json::Reader colour = root.at("scoring_colour");
    s.scoring_colour = static_cast<int8_t>(colour.is_null() ? -1 : read_colour(colour));
    const json::Reader revealed = root.at("revealed_colours");
    for (std::size_t i = 0; i < revealed.size(); ++i)
        s.revealed_colours = static_cast<uint8_t>(s.revealed_colours | (1u << read_colour(revealed.at(i))));
    s.doubler_available = read_seat_bits(root.at("doubler_available"), n);
    s.decided = read_seat_bits(root.at("decided"), n);
    s.bets = read_seat_bits(root.at("bets"), n);
    const json::Reader pile = root.at("pile");
    if (pile.size() > static_cast<std::size_t>(kMaxDeck)) pile.fail("too many cards");
    s.pile_end = static_cast<uint8_t>(pile.size());
    for (std::size_t i = 0; i < pile.size(); ++i) {
        try {
            s.pile[i] = parse_card(pile.at(i).text()).kind;
        } catch (const NotationError& e) {
            pile.at(i).fail(e.what());
        }
    }
    // Keys in the order to_json writes them: each is found at the first look.
    const json::Reader hands = root.at("hands"), shown = root.at("shown"), discarded = root.at("discarded");
    for (const json::Reader& list : {hands, shown, discarded}) {
        if (list.size() != static_cast<std::size_t>(n)) list.fail("expected one entry per seat");
    }
    for (int seat = 0; seat < n; ++seat) {
        const auto k = at(seat);
        s.hands[k] = read_cards(hands.at(k));
        s.shown[k] = read_cards(shown.at(k));
        s.discarded[k] = read_cards(discarded.at(k));
    }
    const json::Reader rows = root.at("rows");
    for (int c = 0; c < kColours; ++c) {
        const json::Reader row = rows.at(colour_letter(c));
        Row& out = s.rows[at(c)];
        for (auto [key, values, count] :
             {std::tuple{"left", &out.left, &out.left_count}, std::tuple{"right", &out.right, &out.right_count}}) {
            const json::Reader side = row.at(key);
            if (side.size() > static_cast<std::size_t>(kSideCards)) side.fail("a side holds at most 3 cards (S3.2)");
            *count = static_cast<uint8_t>(side.size());
            for (std::size_t i = 0; i < side.size(); ++i)
                (*values)[i] = static_cast<uint8_t>(side.at(i).integer(1, kValues));
        }
    }
    const json::Reader scores = root.at("scores");
    if (scores.size() != static_cast<std::size_t>(n)) scores.fail("expected one entry per seat");
    for (int seat = 0; seat < n; ++seat)
        s.scores[at(seat)] = static_cast<int16_t>(scores.at(at(seat)).integer(-30000, 30000));
    t.history = json::read_history<Step>(root.at("history"), n, "1:G5<",
                                         [](std::string_view move) { return parse_move(move); });
    t.recall_turns();  // the turns are not written: the history holds them
    const json::Reader decks = root.at("decks");
    if (decks.size() > game.rounds) decks.fail("more given deals than rounds");
    for (std::size_t i = 0; i < decks.size(); ++i) {
        if (decks.at(i).is_null()) {
            t.decks.emplace_back();
            continue;
        }
        t.decks.push_back(read_deck(decks.at(i)));
        try {
            check_deck(game, t.decks.back());
        } catch (const StateFormatError& e) {
            decks.at(i).fail(e.what());
        }
    }
    const std::string problem = t.check();
    if (!problem.empty()) throw StateFormatError("state JSON describes an impossible state: " + problem);
    return t;
}

}  // namespace

State state_from_json(std::string_view text) { return read_state(text, nullptr); }

namespace {

/// A move as data (see move_json()).
template <class W>
void write_move(W& w, const Move& move) {
    w.begin_object().key("kind").value(kMoveKinds[static_cast<int>(move.kind)]);
    if (move.kind == MoveKind::Place || move.kind == MoveKind::Discard) {
        w.key("card");
        write_card(w, move.card);
    }
    if (move.kind == MoveKind::Place) w.key("side").value(move.side == Side::Left ? "left"sv : "right"sv);
    w.end_object();
}

/// The view of seat `p`, or with p = kEveryone the public view: the same keys without
/// the seat's own ("hand", "doubler_decision", "legal"), and "player" null (S7).
void view(const Position& s, int p, json::Tape& w) {
    const bool seat = p != kEveryone;
    w.begin_object().key("player");
    if (seat) w.value(p);
    else w.null();
    w.key("round").value(int{s.round});
    w.key("rounds").value(int{s.game.rounds});
    w.key("dealer").value(int{s.dealer});
    w.key("current_player").value(int{s.current_player});
    w.key("phase").value(kPhaseNames[static_cast<int>(s.phase)]);
    if (seat) {
        w.key("hand");
        write_cards(w, s.hands[at(p)]);
    }
    w.key("hand_sizes").begin_array();
    for (int i = 0; i < s.players(); ++i) w.value(s.hands[at(i)].count());
    w.end_array().key("rows");
    write_rows(w, s);
    w.key("draw_pile").value(s.pile_size());
    w.key("doubler_available");
    write_seat_bools(w, s, s.doubler_available);
    if (seat) {
        w.key("doubler_decision");
        const bool decided = s.phase == Phase::Doubler && ((s.decided >> p) & 1u);
        if (decided) w.value((s.bets >> p) & 1u ? "bet"sv : "hold"sv);
        else w.null();
    }
    w.key("scores");
    write_seat_list(w, s.scores, s.players());
    w.key("scoring_colour");
    if (s.phase == Phase::Doubler && s.scoring_colour >= 0) w.value(colour_letter(s.scoring_colour));
    else w.null();
    w.key("revealed").begin_object();
    for (const auto& [key, sets] : {std::pair{"shown", &s.shown}, std::pair{"discarded", &s.discarded}}) {
        w.key(key).begin_array();
        for (int i = 0; i < s.players(); ++i) write_cards(w, (*sets)[at(i)]);
        w.end_array();
    }
    w.key("scoring").begin_object();
    for (int c = 0; c < kColours; ++c) {
        if (!(s.revealed_colours & (1u << c))) continue;
        w.key(colour_letter(c)).begin_array();
        for (int i = 0; i < s.players(); ++i) write_cards(w, s.hands[at(i)] & colour_mask(c));
        w.end_array();
    }
    w.end_object().end_object().key("turns");
    if (s.round_record_known()) {  // S7.1: who placed or discarded what this round, in order
        w.begin_array();
        for (int i = 0; i < s.turn_count; ++i) {
            w.begin_object().key("seat").value(int{s.turns[at(i)].seat}).key("move");
            write_move_text(w, Move::of_action(s.turns[at(i)].action));
            w.end_object();
        }
        w.end_array();
    } else {
        w.null();
    }
    if (seat) {
        std::array<uint8_t, kNumActions> actions{};
        const int n = Rules::legal_actions(s, p, actions);
        w.key("legal").begin_array();
        for (int i = 0; i < n; ++i) write_move_text(w, Move::of_action(actions[at(i)]));
        w.end_array().key("legal_moves").begin_array();
        for (int i = 0; i < n; ++i) write_move(w, Move::of_action(actions[at(i)]));
        w.end_array();
    }
    w.end_object();
}

}  // namespace

void observation(const Position& s, int p, json::Tape& out) { view(s, p, out); }

void public_observation(const Position& s, json::Tape& out) { view(s, kEveryone, out); }

const char* phase_name(Phase phase) noexcept { return kPhaseNames[static_cast<int>(phase)].data(); }
const char* kind_name(MoveKind kind) noexcept { return kMoveKinds[static_cast<int>(kind)].data(); }

json::Value move_json(const Move& move) {
    json::Tape tape;
    write_move(tape, move);
    return tape.value();
}

Move move_from_json(const json::Value& data) {
    const std::string shape =
        "a Schacht move as data is like {\"kind\": \"place\", \"card\": \"G5\", \"side\": \"left\"}";
    if (!data.is_object()) throw NotationError(shape + ", got " + json::shown(data));
    const json::Object& o = data.get_object();
    const auto text = [&](const char* key) -> std::string_view {
        const json::Value* v = o.if_contains(key);
        if (v == nullptr || !v->is_string())
            throw NotationError(shape + ": '" + key + "' must be a string, got " + json::shown(data));
        return std::string_view(v->get_string().data(), v->get_string().size());
    };
    const std::string_view kind = text("kind");
    const std::size_t keys = kind == "place" ? 3 : kind == "discard" ? 2 : 1;
    Move move;
    if (kind == "bet") move = Move::bet();
    else if (kind == "hold") move = Move::hold();
    else if (kind == "discard") move = Move::discard(parse_card(text("card")));
    else if (kind == "place") {
        const std::string_view side = text("side");
        if (side != "left" && side != "right")
            throw NotationError(shape + ": 'side' is 'left' or 'right', got " + json::shown(data));
        move = Move::place(parse_card(text("card")), side == "left" ? Side::Left : Side::Right);
    } else {
        throw NotationError(shape + ": 'kind' is 'place', 'discard', 'bet' or 'hold', got " + json::shown(data));
    }
    if (o.size() != keys) throw NotationError(shape + ": unexpected keys in " + json::shown(data));
    return move;
}

json::Value Rules::options_json(const Game& game) { return schacht::options_json(game); }

void Rules::observation(const Position& position, int player, json::Tape& out) {
    schacht::observation(position, player, out);
}

State Rules::state_from_json(const Game& game, std::string_view text) { return read_state(text, &game); }

json::Value Rules::move_json(const Move& move) { return schacht::move_json(move); }

void Rules::public_observation(const Position& position, json::Tape& out) {
    schacht::public_observation(position, out);
}

json::Value Rules::visibility() { return schacht::visibility(); }

Events Rules::last_events(const State& state) { return state.last_events(); }

static_assert(implements_contract<Rules>());

namespace {

/// A deck of a given deal: a list of cards like "G5" that is the game's deck (S2.4).
std::vector<Card> given_deck(const Game& game, const json::Value& value, const std::string& what) {
    if (!value.is_array()) throw StateFormatError(what + " must be a list of cards like 'G5' (S2.4)");
    std::vector<Card> deck;
    for (const json::Value& item : value.get_array()) {
        if (!item.is_string()) {
            throw StateFormatError(what + "[" + std::to_string(deck.size()) +
                                   "] must be a string, a card like 'G5', got " + json::shown(item));
        }
        try {
            deck.push_back(parse_card(json::text_of(item)));
        } catch (const NotationError& e) {
            throw StateFormatError(what + ": " + e.what());
        }
    }
    check_deck(game, deck);
    return deck;
}

}  // namespace

State Rules::new_dealt_state(const Game& game, uint64_t seed, const json::Value& deal) {
    const json::Object& given = json::deal_object(deal, {"deck", "decks"}, "S2.4");
    const json::Value* deck = given.if_contains("deck");
    const json::Value* decks = given.if_contains("decks");
    if (deck != nullptr && decks != nullptr)
        throw StateFormatError("give either \"deck\" (round 0) or \"decks\" (one per round), not both");
    std::vector<std::vector<Card>> rounds;
    if (deck != nullptr) rounds.push_back(given_deck(game, *deck, "deck"));
    if (decks != nullptr) {
        if (!decks->is_array()) throw StateFormatError("decks must be a list of decks, one per round (S2.4)");
        for (const json::Value& item : decks->get_array()) {
            const std::string what = "decks[" + std::to_string(rounds.size()) + "]";
            rounds.push_back(item.is_null() ? std::vector<Card>{} : given_deck(game, item, what));
        }
    }
    return State::start(game, seed, std::move(rounds));
}

}  // namespace diabolo::schacht
