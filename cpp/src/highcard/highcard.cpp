// High card, the test-only game (diabolo/highcard/highcard.hpp has its rules H1-H7).
#include "diabolo/highcard/highcard.hpp"
#include "diabolo/core/index.hpp"

#include <algorithm>
#include <numeric>

#include "diabolo/core/cardset.hpp"
#include "diabolo/core/events.hpp"
#include "diabolo/core/json.hpp"
#include "diabolo/core/scores.hpp"
#include "diabolo/core/tensor.hpp"

namespace diabolo::highcard {

namespace {

constexpr const char* kFormat = "diabolo.highcard/1";
constexpr Cards kAllCards = (1u << kCards) - 1u;

constexpr Cards bit(int card) noexcept { return static_cast<Cards>(1u << (card - 1)); }

json::Array card_list(Cards cards, const boost::json::storage_ptr& storage = {}) {
    json::Array out(storage);
    for (int card = 1; card <= kCards; ++card) {
        if (cards & bit(card)) out.emplace_back(card);
    }
    return out;
}

/// Deals round `position.round` from `deck` (H2): 3 cards a seat in seat order, the rest unseen.
void deal(Position& p, const std::array<int, kCards>& deck) noexcept {
    p.hands = {};
    p.unseen = 0;
    for (int i = 0; i < kCards; ++i) {
        const int seat = i / kHand;
        if (seat < p.players()) p.hands[at(seat)] |= bit(deck[static_cast<std::size_t>(i)]);
        else p.unseen |= bit(deck[static_cast<std::size_t>(i)]);
    }
    p.trick = {};
    p.tricks = 0;
    p.leader = p.to_move = p.round % p.players();
}

std::array<int, kCards> shuffled(uint64_t seed, int round) noexcept {
    std::array<int, kCards> deck{};
    std::iota(deck.begin(), deck.end(), 1);
    Pcg32 rng(derive_seed(seed, static_cast<uint64_t>(round)));
    rng.shuffle(deck.data(), deck.size());
    return deck;
}

int played(const Position& p) noexcept {
    int n = 0;
    for (int seat = 0; seat < p.players(); ++seat) n += p.trick[at(seat)] != 0;
    return n;
}

}  // namespace

Position new_game(const Game& game, uint64_t seed, const std::array<int, kCards>* deck) {
    Position p;
    p.game = game;
    p.seed = seed;
    deal(p, deck ? *deck : shuffled(seed, 0));
    return p;
}

std::optional<IllegalMoveError> Rules::why_illegal(const Position& p, const Move& move, int player) {
    if (player < 0 || player >= p.players()) throw PlayerError("there is no seat " + std::to_string(player));
    if (p.phase == Phase::GameOver) return IllegalMoveError("H5", "the game is over", "game_over");
    if (player != p.to_move)
        return IllegalMoveError("H3", "it is seat " + std::to_string(p.to_move) + "'s turn", "not_your_turn");
    if (move.card < 1 || move.card > kCards || (p.hands[at(player)] & bit(move.card)) == 0)
        return IllegalMoveError("H3", "card " + std::to_string(move.card) + " is not in your hand", "card_not_in_hand");
    return std::nullopt;
}

void play(Position& p, const Move& move, int player, EventLog* log) noexcept {
    p.hands[at(player)] = static_cast<Cards>(p.hands[at(player)] & ~bit(move.card));
    p.trick[at(player)] = static_cast<int8_t>(move.card);
    if (log) {
        json::Object& e = log->add("card_played");
        e.emplace("seat", player);
        e.emplace("card", move.card);
    }
    if (played(p) < p.players()) {
        p.to_move = (player + 1) % p.players();
        return;
    }
    int winner = 0, points = 0;  // H4
    for (int seat = 0; seat < p.players(); ++seat) {
        points += p.trick[at(seat)];
        if (p.trick[at(seat)] > p.trick[at(winner)]) winner = seat;
    }
    p.scores[at(winner)] += points;
    p.trick = {};
    p.leader = p.to_move = winner;
    if (log) {
        json::Object& e = log->add("trick_won");
        e.emplace("seat", winner);
        e.emplace("points", points);
    }
    if (++p.tricks < kHand) return;
    if (++p.round == p.game.rounds) {
        p.phase = Phase::GameOver;
        if (log) game_ended(*log, p.scores, p.players());
        return;
    }
    deal(p, shuffled(p.seed, p.round));
    if (!log) return;
    log->add("round_started").emplace("round", p.round);
    for (int seat = 0; seat < p.players(); ++seat) {
        json::Object& e = log->add_private(seat, "dealt");
        e.emplace("seat", seat);
        e.emplace("hand", card_list(p.hands[at(seat)]));
        log->redacted().emplace("seat", seat);
    }
}

void State::apply(const Move& move, int player) {
    if (auto error = Rules::why_illegal(position, move, player)) throw *error;
    const std::array<int32_t, kMaxSeats> before_scores = position.scores;
    history.push_back(Step{player, move});
    keep_position_before_move(*this);
    play(position, move, player);
    for (int seat = 0; seat < position.players(); ++seat)
        rewards[at(seat)] = position.scores[at(seat)] - before_scores[at(seat)];
}

State State::resample(int player, uint64_t seed) const {
    State out = *this;
    out.position = Rules::resample(position, player, seed);
    return out;
}

std::string Rules::format_move(const Move& move) { return std::to_string(move.card); }

Move parse_move(std::string_view text) {
    int card = 0;
    for (const char c : text) {
        if (c < '0' || c > '9' || card > kCards) card = kCards + 1;
        else card = card * 10 + (c - '0');
    }
    if (text.empty() || text.size() > 2 || card < 1 || card > kCards)
        throw NotationError("a move is a card's number 1..12, got " + quoted(std::string(text)), "H6");
    return Move{card};
}

Move RandomBot::choose(const Position& p, int player, Pcg32& rng) const {
    std::array<int32_t, kCards> ids{};
    const int n = Rules::legal_actions(p, player, ids.data());
    if (n == 0) throw IllegalMoveError("H3", "seat " + std::to_string(player) + " has no move now", "no_move");
    return Move{ids[rng.below(static_cast<uint32_t>(n))] + 1};
}

Move HighestBot::choose(const Position& p, int player, Pcg32&) const {
    std::array<int32_t, kCards> ids{};
    const int n = Rules::legal_actions(p, player, ids.data());
    if (n == 0) throw IllegalMoveError("H3", "seat " + std::to_string(player) + " has no move now", "no_move");
    return Move{ids[static_cast<std::size_t>(n - 1)] + 1};
}

// ---- the contract ----------------------------------------------------------------------------

Game Rules::game_from_json(const json::Value& options) {
    const json::OptionReader r(options, "highcard", {"players", "rounds"});
    Game game;
    if (r.has("players")) game.players = r.integer_in("players", kMinPlayers, kMaxSeats, "H1");
    if (r.has("rounds")) game.rounds = r.integer_in("rounds", 1, kMaxRounds, "H1");
    return game;
}

json::Value Rules::options_json(const Game& game) {
    json::Object out;
    out.emplace("players", game.players);
    out.emplace("rounds", game.rounds);
    return out;
}

State Rules::new_state(const Game& game, uint64_t seed) {
    State state;
    state.position = new_game(game, seed);
    return state;
}

State Rules::new_dealt_state(const Game& game, uint64_t seed, const json::Value& deal) {
    const json::Value* given = json::deal_object(deal, {"deck"}, "H7").if_contains("deck");
    if (given == nullptr) return new_state(game, seed);
    std::array<int, kCards> deck{};
    Cards seen = 0;
    if (!given->is_array() || given->get_array().size() != static_cast<std::size_t>(kCards))
        throw StateFormatError("deck must list the 12 cards 1..12 once each (H7)");
    for (std::size_t i = 0; i < deck.size(); ++i) {
        long long card = 0;
        if (!json::as_int64(given->get_array()[i], card) || card < 1 || card > kCards || (seen & bit(int(card))))
            throw StateFormatError("deck[" + std::to_string(i) + "] must be a card 1..12 not listed before (H7)");
        deck[i] = static_cast<int>(card);
        seen |= bit(deck[i]);
    }
    State state;
    state.position = new_game(game, seed, &deck);
    return state;
}

const char* Rules::phase(const Position& p) noexcept { return p.phase == Phase::Play ? "play" : "game_over"; }

std::string Rules::render(const Position& p) {
    std::string out =
        "round " + std::to_string(p.round + 1) + "/" + std::to_string(p.game.rounds) + ", " + phase(p) + "\n";
    for (int seat = 0; seat < p.players(); ++seat) {
        out += "seat " + std::to_string(seat) + ": " + std::to_string(p.scores[at(seat)]) + " points, hand";
        for (int card = 1; card <= kCards; ++card) {
            if (p.hands[at(seat)] & bit(card)) out += " " + std::to_string(card);
        }
        if (p.trick[at(seat)] != 0) out += ", played " + std::to_string(p.trick[at(seat)]);
        out += "\n";
    }
    return out;
}

int Rules::current_player(const Position& p) noexcept { return p.phase == Phase::GameOver ? kTerminal : p.to_move; }

int Rules::legal_actions(const Position& p, int player, int32_t* out) noexcept {
    if (p.phase == Phase::GameOver || player != p.to_move) return 0;
    int n = 0;
    for (int card = 1; card <= kCards; ++card) {
        if (p.hands[at(player)] & bit(card)) out[n++] = card - 1;
    }
    return n;
}

Move Rules::move_of_action(const Game&, int action) {
    if (action < 0 || action >= kCards)
        throw NotationError("action ids are 0..11, got " + std::to_string(action), "H6");
    return Move{action + 1};
}

Position Rules::resample(const Position& p, int player, uint64_t seed) {
    // What `player` cannot see (the others' hands and the unseen cards) dealt anew, each
    // hand keeping its size.
    Position out = p;
    Cards pool = p.unseen;
    for (int seat = 0; seat < p.players(); ++seat) {
        if (seat != player) pool |= p.hands[at(seat)];
    }
    std::array<int, kCards> cards{};
    int n = 0;
    for (int card = 1; card <= kCards; ++card) {
        if (pool & bit(card)) cards[static_cast<std::size_t>(n++)] = card;
    }
    Pcg32 rng(seed);
    rng.shuffle(cards.data(), static_cast<std::size_t>(n));
    int next = 0;
    for (int seat = 0; seat < p.players(); ++seat) {
        if (seat == player) continue;
        const int size = popcount64(p.hands[at(seat)]);
        out.hands[at(seat)] = 0;
        for (int i = 0; i < size; ++i) out.hands[at(seat)] |= bit(cards[static_cast<std::size_t>(next++)]);
    }
    out.unseen = 0;
    while (next < n) out.unseen |= bit(cards[static_cast<std::size_t>(next++)]);
    return out;
}

namespace {

template <class T>
void write_tensor(const Position& p, int player, T* out) noexcept {
    TensorWriter<T> w(out, Rules::observation_tensor_size(p.game));
    Cards gone = 0;  // cards played in finished tricks of this round: not in a hand, not unseen, not on the table
    Cards table = 0;
    for (int seat = 0; seat < p.players(); ++seat) {
        if (p.trick[at(seat)] != 0) table |= bit(p.trick[at(seat)]);
    }
    Cards held = p.unseen | table;
    for (int seat = 0; seat < p.players(); ++seat) held |= p.hands[at(seat)];
    gone = static_cast<Cards>(kAllCards & ~held);
    for (const Cards cards : {p.hands[at(player)], table, gone}) {
        for (int card = 1; card <= kCards; ++card) w.scalar((cards & bit(card)) ? 1.0f : 0.0f);
    }
    w.one_hot(p.phase == Phase::Play ? p.to_move : -1, kMaxSeats);
}

void view(const Position& p, int player, json::Tape& w) {
    w.begin_object().key("player");
    if (player >= 0) w.value(player);
    else w.null();
    w.key("round").value(p.round).key("phase").value(Rules::phase(p));
    w.key("current_player").value(Rules::current_player(p)).key("hand_sizes").begin_array();
    for (int seat = 0; seat < p.players(); ++seat) w.value(popcount64(p.hands[at(seat)]));
    w.end_array().key("trick").begin_array();
    for (int seat = 0; seat < p.players(); ++seat) {
        if (p.trick[at(seat)] != 0) w.value(int{p.trick[at(seat)]});
        else w.null();
    }
    w.end_array().key("scores");
    write_seat_list(w, p.scores, p.players());
    if (player >= 0) {
        w.key("hand").begin_array();
        for (int card = 1; card <= kCards; ++card) {
            if (p.hands[at(player)] & bit(card)) w.value(card);
        }
        w.end_array().key("legal").begin_array();
        std::array<int32_t, kCards> ids{};
        const int n = Rules::legal_actions(p, player, ids.data());
        for (int i = 0; i < n; ++i) w.value(std::to_string(ids[static_cast<std::size_t>(i)] + 1));
        w.end_array();
    }
    w.end_object();
}

}  // namespace

void Rules::observation_tensor(const Position& p, int player, float* out) noexcept { write_tensor(p, player, out); }

void Rules::observation_bytes(const Position& p, int player, uint8_t* out) noexcept { write_tensor(p, player, out); }

void Rules::observation_tensor_bounds(const Game& game, float* low, float* high) noexcept {
    const int size = observation_tensor_size(game);
    std::fill(low, low + size, 0.0f);
    std::fill(high, high + size, 1.0f);
}

void Rules::observation(const Position& p, int player, json::Tape& out) {
    if (player < 0 || player >= p.players()) throw PlayerError("there is no seat " + std::to_string(player));
    view(p, player, out);
}

void Rules::public_observation(const Position& p, json::Tape& out) { view(p, kEveryone, out); }

json::Value Rules::visibility() {
    return visibility_table({{"player", "public"},
                             {"round", "public"},
                             {"phase", "public"},
                             {"current_player", "public"},
                             {"hand_sizes", "public"},
                             {"trick", "public"},
                             {"scores", "public"},
                             {"hand", "private"},
                             {"legal", "private"}},
                            {{"play", "public"}},
                            {{"card_played", "public"},
                             {"trick_won", "public"},
                             {"round_started", "public"},
                             {"dealt", "private_with_public_form"},
                             {"game_ended", "public"}});
}

Events Rules::last_events(const State& state) {
    return replay_last_move(
        state, [](Position& p, const Move& move, int player, EventLog& log) { play(p, move, player, &log); });
}

std::string Rules::to_json(const State& state) {
    const Position& p = state.position;
    json::Object out;
    out.emplace("format", kFormat);
    out.emplace("options", options_json(p.game));
    out.emplace("seed", p.seed);
    out.emplace("round", p.round);
    out.emplace("phase", phase(p));
    out.emplace("to_move", p.to_move);
    out.emplace("leader", p.leader);
    json::Array hands, trick;
    for (int seat = 0; seat < p.players(); ++seat) {
        hands.emplace_back(card_list(p.hands[at(seat)]));
        trick.emplace_back(int{p.trick[at(seat)]});
    }
    out.emplace("hands", std::move(hands));
    out.emplace("unseen", card_list(p.unseen));
    out.emplace("trick", std::move(trick));
    out.emplace("tricks", p.tricks);
    out.emplace("scores", seat_list(p.scores, p.players()));
    json::Array history;
    for (const Step& step : state.history)
        history.emplace_back(json::Value(std::to_string(step.player) + ":" + Rules::format_move(step.move)));
    out.emplace("history", std::move(history));
    return json::serialize(out);
}

State Rules::state_from_json(const Game& game, std::string_view text) {
    const json::Document document(text);
    const json::Reader root = json::Reader(document).object();
    if (root.at("format").text() != kFormat) root.at("format").fail(std::string("expected ") + quoted(kFormat));
    if (root.at("options").compact() != json::serialize(options_json(game)))
        root.at("options").fail("its options differ from this game's");
    State state;
    Position& p = state.position;
    p.game = game;
    p.seed = root.at("seed").seed();
    p.round = static_cast<int>(root.at("round").integer(0, game.rounds));
    p.phase = root.at("phase").choice({"play", "game_over"}) == 0 ? Phase::Play : Phase::GameOver;
    if ((p.phase == Phase::GameOver) != (p.round == game.rounds)) root.at("phase").fail("does not match the round");
    p.to_move = static_cast<int>(root.at("to_move").integer(0, game.players - 1));
    p.leader = static_cast<int>(root.at("leader").integer(0, game.players - 1));
    p.tricks = static_cast<int>(root.at("tricks").integer(0, kHand));
    Cards all = 0;
    const auto cards = [&](const json::Reader& list) {
        Cards out = 0;
        for (std::size_t i = 0; i < list.size(); ++i) {
            const int card = static_cast<int>(list.at(i).integer(1, kCards));
            if ((all | out) & bit(card)) list.at(i).fail("card " + std::to_string(card) + " is listed twice");
            out |= bit(card);
        }
        all |= out;
        return out;
    };
    const json::Reader hands = root.at("hands"), trick = root.at("trick"), scores = root.at("scores");
    for (const json::Reader* list : {&hands, &trick, &scores}) {
        if (list->size() != static_cast<std::size_t>(game.players)) list->fail("expected one entry per seat");
    }
    for (int seat = 0; seat < game.players; ++seat) {
        p.hands[at(seat)] = cards(hands.at(at(seat)));
        const int card = static_cast<int>(trick.at(at(seat)).integer(0, kCards));
        if (card != 0 && (all & bit(card)))
            trick.at(at(seat)).fail("card " + std::to_string(card) + " is listed twice");
        if (card != 0) all |= bit(card);
        p.trick[at(seat)] = static_cast<int8_t>(card);
        p.scores[at(seat)] = static_cast<int32_t>(scores.at(at(seat)).integer(0, max_utility(game)));
    }
    p.unseen = cards(root.at("unseen"));
    if (p.phase == Phase::Play) {
        const int in_trick = played(p);
        if (p.to_move != (p.leader + in_trick) % game.players)
            root.at("to_move").fail("is not the seat after the trick");
        for (int seat = 0; seat < game.players; ++seat) {
            const int size = popcount64(p.hands[at(seat)]) + (p.trick[at(seat)] != 0);
            if (size != kHand - p.tricks) hands.at(at(seat)).fail("does not hold the cards left to play");
        }
        if (popcount64(p.unseen) != kCards - kHand * game.players)
            root.at("unseen").fail("must hold the undealt cards");
    }
    const json::Reader history = root.at("history");
    for (std::size_t i = 0; i < history.size(); ++i) {
        const std::string_view step = history.at(i).text();
        const std::size_t colon = step.find(':');
        if (colon == std::string_view::npos || colon == 0 || colon > 1 || step[0] < '0' ||
            step[0] >= '0' + game.players)
            history.at(i).fail("a step is 'seat:card'");
        try {
            state.history.push_back(Step{step[0] - '0', highcard::parse_move(step.substr(colon + 1))});
        } catch (const NotationError& error) {
            history.at(i).fail(error.what());
        }
    }
    return state;
}

Move Rules::parse_move(std::string_view text) {
    return with_notation_clause(kNotationClause, [&] { return highcard::parse_move(text); });
}

json::Value Rules::move_json(const Move& move) {
    json::Object out;
    out.emplace("kind", "play");
    out.emplace("card", move.card);
    return out;
}

Move Rules::move_from_json(const json::Value& data) {
    return with_notation_clause(kNotationClause, [&] {
        const std::string like = "a highcard move as data is like {\"kind\": \"play\", \"card\": 7}: ";
        if (!data.is_object() || !data.get_object().contains("kind") || !data.at("kind").is_string())
            throw NotationError(like + "'kind' must be a string, got " + json::shown(data));
        if (data.at("kind") != "play") throw NotationError(like + "unknown kind in " + json::shown(data));
        if (data.get_object().size() != 2 || !data.get_object().contains("card"))
            throw NotationError(like + "a play has 'kind' and 'card' alone, got " + json::shown(data));
        long long card = 0;
        if (!json::as_int64(data.at("card"), card) || card < 1 || card > kCards)
            throw NotationError(like + "'card' must be 1..12, got " + json::shown(data));
        return Move{static_cast<int>(card)};
    });
}

void Rules::scores(const Position& p, int32_t* out) noexcept { std::copy_n(p.scores.begin(), p.players(), out); }

void Rules::rewards(const State& state, int32_t* out) noexcept {
    std::copy_n(state.rewards.begin(), state.position.players(), out);
}

uint32_t Rules::pending_seats(const Position& p) noexcept { return p.phase == Phase::GameOver ? 0u : 1u << p.to_move; }

std::unique_ptr<const Bot> Rules::make_bot(const Game&, std::string_view kind, const json::Value& options) {
    json::OptionReader(options, "the bot", {});
    if (kind == "random") return std::make_unique<RandomBot>();
    if (kind == "highest") return std::make_unique<HighestBot>();
    throw OptionError("no bot " + quoted(std::string(kind)) + " for highcard; the bots are " + kInfo.bots);
}

static_assert(implements_contract<Rules>());

}  // namespace diabolo::highcard
