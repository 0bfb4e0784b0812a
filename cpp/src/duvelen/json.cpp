// Duvelen: what each seat sees (D8.3), the state and the options as JSON. The keys are an
// interface that frontends rely on (docs/games/duvelen.rst).
#include <algorithm>
#include <cstring>

#include "diabolo/core/events.hpp"
#include "diabolo/core/json.hpp"
#include "diabolo/duvelen/duvelen.hpp"
#include "views.hpp"

namespace diabolo::duvelen {

namespace {

constexpr const char* kFormat = "diabolo.duvelen/1";
constexpr const char* kPhaseNames[] = {"play", "after_stop", "game_over"};
constexpr const char* kBlockNames[] = {"rotate_stok", "end_round"};

using views::suit_letter;
using views::write_piles;
using views::write_seats;

void write_cards(json::Writer& w, const uint8_t* cards, int count) {
    w.begin_array();
    for (int i = 0; i < count; ++i) w.value(format_card(cards[i]));
    w.end_array();
}

int read_card(const json::Reader& r) {
    try {
        return parse_card(r.text());
    } catch (const NotationError& e) {
        r.fail(e.what());
    }
}

int read_cards(const json::Reader& r, uint8_t* out, int capacity) {
    if (r.size() > static_cast<std::size_t>(capacity)) r.fail("too many cards");
    for (std::size_t i = 0; i < r.size(); ++i) out[i] = static_cast<uint8_t>(read_card(r.at(i)));
    return static_cast<int>(r.size());
}

/// Every option, in the order and form options_json gives them.
void write_options(json::Writer& w, const Game& game) {
    w.begin_object();
    w.key("players").value(int{game.players}).key("rounds").value(int{game.rounds});
    w.key("on_block").value(kBlockNames[static_cast<int>(game.on_block)]);
    w.key("max_actions").value(static_cast<long long>(game.max_actions)).end_object();
}

/// The state of `text`; if `expected` is given, a state of other options is refused.
State read_state(std::string_view text, const Game* expected) {
    const json::Document document(text);
    const json::Reader root(document);
    if (root.at("format").text() != kFormat) root.at("format").fail(std::string("expected '") + kFormat + "'");
    State t;
    Position& s = t.position;
    s.game = json::read_options(
        root.at("options"), expected, [](const json::Value& options) { return Rules::game_from_json(options); },
        write_options);
    const int n = s.players();
    s.seed = root.at("seed").seed();
    s.round = static_cast<uint8_t>(root.at("round").integer(0, kMaxRounds - 1));
    s.phase = static_cast<Phase>(root.at("phase").choice({"play", "after_stop", "game_over"}));
    const json::Reader stop = root.at("stop_called_by");
    s.stop_called_by = static_cast<int8_t>(stop.is_null() ? -1 : stop.integer(0, n - 1));
    s.actions = static_cast<uint32_t>(root.at("actions").integer(0, 100000000));
    const json::Reader piles = root.at("piles");
    if (piles.size() > static_cast<std::size_t>(kMaxPiles)) piles.fail("too many piles");
    s.pile_count = static_cast<uint8_t>(piles.size());
    s.wanted = 0;
    for (int suit = 0; suit < kSuits; ++suit) s.wanted |= card_bit(card_index(suit, 1));
    for (std::size_t i = 0; i < piles.size(); ++i) {
        const json::Reader p = piles.at(i);
        Pile& pile = s.piles[i];
        const std::string_view suit = p.at("suit").text();
        const char* found = suit.size() == 1 && suit[0] != '\0' ? std::strchr(kSuitLetters, suit[0]) : nullptr;
        if (found == nullptr) p.at("suit").fail("expected a suit h, d, c or s");
        pile.suit = static_cast<uint8_t>(found - kSuitLetters);
        const json::Reader owners = p.at("owners");
        if (owners.size() < 1 || owners.size() > static_cast<std::size_t>(kRanks))
            owners.fail("a pile holds 1..13 cards");
        pile.top = static_cast<uint8_t>(owners.size());
        for (std::size_t r = 0; r < owners.size(); ++r)
            pile.owners[r] = static_cast<uint8_t>(owners.at(r).integer(0, n - 1));
        const json::Reader holder = p.at("holder");
        pile.holder = static_cast<int8_t>(holder.is_null() ? -1 : holder.integer(0, n - 1));
        pile.completed = static_cast<uint8_t>(p.at("completed").integer(0, kMaxPiles));
        if (pile.holder >= 0) {
            ++s.herenhoop_count;
        } else if (pile.top < kRanks) {
            ++s.tops[at(card_index(pile.suit, pile.top))];
            s.wanted |= card_bit(card_index(pile.suit, pile.top + 1));
        }
    }
    const json::Reader seats = root.at("seats");
    if (seats.size() != static_cast<std::size_t>(n)) seats.fail("expected one entry per seat");
    for (int p = 0; p < n; ++p) {
        const json::Reader v = seats.at(at(p));
        Seat& seat = s.seats[at(p)];
        seat.stok_count = static_cast<uint8_t>(read_cards(v.at("stok"), seat.stok.data(), kStokCards));
        const json::Reader rij = v.at("rij");
        if (rij.size() != static_cast<std::size_t>(kRijSlots)) rij.fail("expected 4 slots");
        for (std::size_t i = 0; i < rij.size(); ++i)
            seat.rij[i] = rij.at(i).is_null() ? kNoCard : static_cast<uint8_t>(read_card(rij.at(i)));
        seat.waste_count = static_cast<uint8_t>(read_cards(v.at("waste"), seat.cycle.data(), kCycleCards));
        const int rest =
            read_cards(v.at("draaistok"), seat.cycle.data() + seat.waste_count, kCycleCards - seat.waste_count);
        seat.cycle_count = static_cast<uint8_t>(seat.waste_count + rest);
        for (int i = 0; i < seat.cycle_count; ++i) seat.cycle_mask |= card_bit(seat.cycle[at(i)]);
        if (v.has("seen")) {
            std::array<uint8_t, kCycleCards> seen{};
            const int count = read_cards(v.at("seen"), seen.data(), kCycleCards);
            for (int i = 0; i < count; ++i) seat.seen |= card_bit(seen[at(i)]);
        } else if (seat.waste_count) {  // written before seats kept their memory: what shows
            seat.seen = card_bit(seat.waste_top());
        }
        if (v.at("passed").boolean()) s.passed = static_cast<uint8_t>(s.passed | (1u << p));
    }
    const json::Reader scores = root.at("scores");
    if (scores.size() != static_cast<std::size_t>(n)) scores.fail("expected one entry per seat");
    for (int p = 0; p < n; ++p) s.scores[at(p)] = static_cast<int32_t>(scores.at(at(p)).integer(-100000000, 100000000));
    t.history = json::read_history<Step>(root.at("history"), n, "1:R2:7h>3",
                                         [](std::string_view move) { return parse_move(move); });
    const std::string problem = t.check();
    if (!problem.empty()) throw StateFormatError("state JSON describes an impossible state: " + problem);
    return t;
}

}  // namespace

json::Value options_json(const Game& game) {
    return json::Object{{"players", int{game.players}},
                        {"rounds", int{game.rounds}},
                        {"on_block", kBlockNames[static_cast<int>(game.on_block)]},
                        {"max_actions", game.max_actions}};
}

Game Rules::game_from_json(const json::Value& options) {
    const json::OptionReader r(options, "duvelen", {"players", "rounds", "on_block", "max_actions"});
    Options o;
    if (r.has("players")) o.players = r.integer_in("players", kMinPlayers, kMaxSeats, "D1.2");
    if (r.has("rounds")) o.rounds = r.integer_in("rounds", 1, kMaxRounds, "D1.3");
    if (r.has("max_actions")) o.max_actions = r.integer_in("max_actions", 1, 100000000, "D4.5");
    if (r.has("on_block")) {
        const json::Value& value = r.value("on_block");
        const std::string_view text =
            value.is_string() ? std::string_view(value.get_string().data(), value.get_string().size()) : "";
        if (text == "rotate_stok") o.on_block = OnBlock::RotateStok;
        else if (text == "end_round") o.on_block = OnBlock::EndRound;
        else throw OptionError("on_block must be 'rotate_stok' or 'end_round' (D4.5), got " + json::shown(value));
    }
    return Game::from_options(o);
}

std::string Rules::to_json(const State& t) {
    const Position& s = t.position;
    json::Writer w(4096 + 12 * t.history.size());
    w.begin_object();
    w.key("format").value(kFormat);
    w.key("options");
    write_options(w, s.game);
    w.key("seed").value(static_cast<unsigned long long>(s.seed));
    w.key("round").value(int{s.round});
    w.key("phase").value(kPhaseNames[static_cast<int>(s.phase)]);
    w.key("stop_called_by");
    if (s.stop_called_by >= 0) w.value(int{s.stop_called_by});
    else w.null();
    w.key("actions").value(static_cast<long long>(s.actions));
    w.key("piles").begin_array();
    for (int id = 0; id < s.pile_count; ++id) {
        const Pile& pile = s.piles[at(id)];
        w.begin_object().key("suit").value(suit_letter(pile.suit)).key("owners").begin_array();
        for (int r = 0; r < pile.top; ++r) w.value(int{pile.owners[at(r)]});
        w.end_array().key("holder");
        if (pile.holder >= 0) w.value(int{pile.holder});
        else w.null();
        w.key("completed").value(int{pile.completed}).end_object();
    }
    w.end_array();
    w.key("seats").begin_array();
    for (int p = 0; p < s.players(); ++p) {
        const Seat& seat = s.seats[at(p)];
        w.begin_object().key("stok");
        write_cards(w, seat.stok.data(), seat.stok_count);
        w.key("rij").begin_array();
        for (const uint8_t card : seat.rij) {
            if (card == kNoCard) w.null();
            else w.value(format_card(card));
        }
        w.end_array().key("waste");
        write_cards(w, seat.cycle.data(), seat.waste_count);
        w.key("draaistok");
        write_cards(w, seat.cycle.data() + seat.waste_count, seat.draaistok_count());
        std::array<uint8_t, kCycleCards> seen{};
        int count = 0;
        for (int i = 0; i < seat.cycle_count; ++i) {
            if (seat.seen & card_bit(seat.cycle[at(i)])) seen[at(count++)] = seat.cycle[at(i)];
        }
        w.key("seen");
        write_cards(w, seen.data(), count);
        w.key("passed").value(((s.passed >> p) & 1u) != 0).end_object();
    }
    w.end_array();
    w.key("scores").begin_array();
    for (int p = 0; p < s.players(); ++p) w.value(static_cast<long long>(s.scores[at(p)]));
    w.end_array();
    w.key("history").begin_array();
    for (const Step& step : t.history) w.value(std::to_string(step.player) + ":" + Rules::format_move(step.move));
    w.end_array();
    w.end_object();
    return std::move(w.text());
}

State state_from_json(std::string_view text) { return read_state(text, nullptr); }

namespace {

constexpr const char* kMoveKinds[] = {"play", "turn", "recycle", "recycle^", "stop", "pass"};
constexpr const char* kSourceNames[] = {"S", "R1", "R2", "R3", "R4", "W"};

/// A move as data (see move_json()).
template <class W>
void write_move(W& w, const Move& move) {
    w.begin_object().key("kind").value(kMoveKinds[static_cast<int>(move.kind)]);
    if (move.kind == MoveKind::Play) {
        w.key("source").value(kSourceNames[static_cast<int>(move.source)]);
        if (move.card != kNoCard) w.key("card").value(format_card(move.card));
        w.key("target");
        if (move.target == 0) w.value("new");
        else w.value(int{move.target});
    }
    w.end_object();
}

/// The view of `player`, or with player = kEveryone the public view: everything but
/// "legal", and "player" null (D8.1: the table is the same for every seat).
void view(const Position& s, int player, json::Tape& w) {
    w.begin_object().key("player");
    if (player != kEveryone) w.value(player);
    else w.null();
    w.key("round").value(int{s.round}).key("rounds").value(int{s.game.rounds});
    w.key("current_player").value(s.current_player());
    w.key("phase").value(kPhaseNames[static_cast<int>(s.phase)]).key("stop_called_by");
    if (s.stop_called_by >= 0) w.value(int{s.stop_called_by});
    else w.null();
    w.key("piles");
    write_piles(w, s, false);
    w.key("herenhopen");
    write_piles(w, s, true);
    w.key("seats");
    write_seats(w, s);
    w.key("scores");
    write_seat_list(w, s.scores, s.players());
    w.key("round_scores");
    write_seat_list(w, round_scores(s), s.players());
    if (player != kEveryone) {
        const auto moves = legal_moves(s, player);
        w.key("legal").begin_array();
        for (const Move& move : moves) w.value(Rules::format_move(move));
        w.end_array().key("legal_moves").begin_array();
        for (const Move& move : moves) write_move(w, move);
        w.end_array();
    }
    w.end_object();
}

}  // namespace

void observation(const Position& s, int player, json::Tape& out) { view(s, player, out); }

void public_observation(const Position& s, json::Tape& out) { view(s, kEveryone, out); }

const char* phase_name(Phase phase) noexcept { return kPhaseNames[static_cast<int>(phase)]; }
const char* kind_name(MoveKind kind) noexcept { return kMoveKinds[static_cast<int>(kind)]; }

json::Value move_json(const Move& move) {
    json::Tape tape;
    write_move(tape, move);
    return tape.value();
}

Move move_from_json(const json::Value& data) {
    const std::string shape =
        "a Duvelen move as data is like {\"kind\": \"play\", \"source\": \"R2\", \"card\": \"7h\", \"target\": 3}";
    if (!data.is_object()) throw NotationError(shape + ", got " + json::shown(data));
    const json::Object& o = data.get_object();
    const json::Value* kind = o.if_contains("kind");
    if (kind == nullptr || !kind->is_string())
        throw NotationError(shape + ": 'kind' must be a string, got " + json::shown(data));
    const std::string_view name(kind->get_string().data(), kind->get_string().size());
    for (int k = 1; k < 6; ++k) {
        if (name != kMoveKinds[k]) continue;
        if (o.size() != 1) throw NotationError(shape + ": unexpected keys in " + json::shown(data));
        return Move::of_kind(static_cast<MoveKind>(k));
    }
    if (name != "play") throw NotationError(shape + ": unknown kind in " + json::shown(data));
    const json::Value* source = o.if_contains("source");
    int from = -1;
    for (int i = 0; source != nullptr && source->is_string() && i < kSources; ++i) {
        if (std::string_view(source->get_string().data(), source->get_string().size()) == kSourceNames[i]) from = i;
    }
    if (from < 0) throw NotationError(shape + ": 'source' is 'S', 'R1'..'R4' or 'W', got " + json::shown(data));
    const json::Value* target = o.if_contains("target");
    long long to = -1;
    if (target != nullptr && target->is_string() && target->get_string() == "new") to = 0;
    else if (target != nullptr && json::as_int64(*target, to) && (to < 1 || to > kMaxPiles)) to = -1;
    if (to < 0) throw NotationError(shape + ": 'target' is a pile number 1..32 or 'new', got " + json::shown(data));
    int card = kNoCard;
    const json::Value* given = o.if_contains("card");
    if (given != nullptr) {
        if (!given->is_string()) throw NotationError(shape + ": 'card' must be a string, got " + json::shown(data));
        card = parse_card(std::string_view(given->get_string().data(), given->get_string().size()));
    }
    if (o.size() != (given != nullptr ? 4u : 3u))
        throw NotationError(shape + ": unexpected keys in " + json::shown(data));
    return Move::play(static_cast<Source>(from), card, static_cast<int>(to));
}

json::Value Rules::options_json(const Game& game) { return duvelen::options_json(game); }

void Rules::observation(const Position& position, int player, json::Tape& out) {
    duvelen::observation(position, player, out);
}

State Rules::state_from_json(const Game& game, std::string_view text) { return read_state(text, &game); }

json::Value Rules::move_json(const Move& move) { return duvelen::move_json(move); }

void Rules::public_observation(const Position& position, json::Tape& out) {
    duvelen::public_observation(position, out);
}

json::Value Rules::visibility() { return duvelen::visibility(); }

Events Rules::last_events(const State& state) { return state.last_events(); }

static_assert(implements_contract<Rules>());

State Rules::new_dealt_state(const Game& game, uint64_t seed, const json::Value& deal) {
    const json::Value* given = json::deal_object(deal, {"decks"}, "D2.5").if_contains("decks");
    if (given == nullptr) return State::start(game, seed);
    if (!given->is_array()) throw StateFormatError("decks must be one list of 52 cards per seat (D2.5)");
    const json::Array& lists = given->get_array();
    if (static_cast<int>(lists.size()) != game.players) {
        throw StateFormatError("decks must hold one deck per seat (D2.5): " + std::to_string(game.players) +
                               " decks, got " + std::to_string(lists.size()));
    }
    std::vector<Deck> decks;
    for (const json::Value& cards : lists) {
        const std::string what = "decks[" + std::to_string(decks.size()) + "]";
        if (!cards.is_array() || cards.get_array().size() != static_cast<std::size_t>(kDeckCards))
            throw StateFormatError(what + " must list all 52 cards of a deck, like '10h' (D2.5)");
        Deck deck{};
        std::size_t i = 0;
        for (const json::Value& card : cards.get_array()) {
            if (!card.is_string()) {
                throw StateFormatError(what + "[" + std::to_string(i) + "] must be a string, a card like '10h', got " +
                                       json::shown(card));
            }
            try {
                deck[i++] = static_cast<uint8_t>(parse_card(json::text_of(card)));
            } catch (const NotationError& e) {
                throw StateFormatError(what + ": " + e.what());
            }
        }
        check_deck(deck);
        decks.push_back(deck);
    }
    return State::start(game, seed, &decks);
}

}  // namespace diabolo::duvelen
