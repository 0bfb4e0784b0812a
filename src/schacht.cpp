// Python bindings of Diabolo (Schacht): SchachtGame, SchachtState, SchachtMove.
// Only conversion lives here; the rules are in cpp/src/schacht/.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common.hpp"
#include "diabolo/schacht/schacht.hpp"

namespace diabolo::bindings {

using namespace diabolo::schacht;

namespace {

constexpr const char* kFormat = "diabolo.schacht/1";
constexpr const char* kPhaseNames[] = {"play", "doubler", "game_over"};
constexpr const char* kMoveKinds[] = {"place", "discard", "bet", "hold"};

// ---- conversions ---------------------------------------------------------------------

py::list card_list(CardSet set) {
    py::list out;
    for (Card card : cards_of(set)) out.append(format_card(card));
    return out;
}

std::string colour_letter(int colour) { return std::string(1, kColourLetters[colour]); }

py::object colour_or_none(int colour) {
    return colour < 0 ? py::object(py::none()) : py::object(py::str(colour_letter(colour)));
}

py::list seat_bools(const Position& s, uint8_t bits) {
    py::list out;
    for (int seat = 0; seat < s.players(); ++seat) out.append(py::bool_((bits >> seat) & 1u));
    return out;
}

/// colour letter -> {"left": values in the order placed, "right": ..., "closed": bool}
py::dict rows_dict(const Position& s) {
    py::dict rows;
    for (int c = 0; c < kColours; ++c) {
        const Row& row = s.rows[static_cast<std::size_t>(c)];
        py::dict r;
        r["left"] = std::vector<int>(row.left.begin(), row.left.begin() + row.left_count);
        r["right"] = std::vector<int>(row.right.begin(), row.right.begin() + row.right_count);
        r["closed"] = row.closed();
        rows[colour_letter(c).c_str()] = r;
    }
    return rows;
}

py::dict options_dict(const Game& c) {
    py::dict d;
    d["players"] = c.players;
    d["rounds"] = c.rounds;
    d["rows_to_end"] = c.rows_to_end;
    const auto& v = c.value_counts;
    d["value_counts"] = py::make_tuple(v[0], v[1], v[2], v[3], v[4]);
    d["strict_players"] = py::bool_(c.strict_players != 0);
    return d;
}

Game config_from_kwargs(const py::dict& kwargs) {
    Options o;
    for (auto item : kwargs) {
        const std::string key = utf8_text<OptionError>(item.first, "an option name");
        const py::handle value = item.second;
        if (key == "players") o.players = to_int(value, "players");
        else if (key == "rounds") o.rounds = to_int(value, "rounds");
        else if (key == "rows_to_end") o.rows_to_end = to_int(value, "rows_to_end");
        else if (key == "strict_players") {
            if (!PyBool_Check(value.ptr())) throw OptionError("strict_players must be True or False");
            o.strict_players = value.ptr() == Py_True;
        } else if (key == "value_counts") {
            if (!py::isinstance<py::sequence>(value) || py::isinstance<py::str>(value) || py::len(value) != kValues) {
                throw OptionError("value_counts must be 5 ints: copies of the values 1..5 per colour (S1.3)");
            }
            const auto seq = py::reinterpret_borrow<py::sequence>(value);
            for (int v = 0; v < kValues; ++v) {
                o.value_counts[static_cast<std::size_t>(v)] = to_int(seq[static_cast<std::size_t>(v)], "value_counts[" + std::to_string(v) + "]");
            }
        } else {
            throw OptionError("unknown option '" + key + "' for schacht; the options are players, rounds, "
                              "rows_to_end, value_counts, strict_players");
        }
    }
    // Range checks see the raw values (0 means "default" only inside Game).
    if (kwargs.contains("rounds") && o.rounds == 0) throw OptionError("rounds must be at least 1, got 0");
    if (kwargs.contains("rows_to_end") && o.rows_to_end == 0) throw OptionError("rows_to_end must be 1..5, got 0");
    return Game::from_options(o);
}

/// A seat of this game; PlayerError names the valid seats otherwise.
int to_player(const Position& s, const py::handle& value) { return to_seat(value, s.players()); }

std::optional<int> optional_player(const Position& s, const py::object& value) {
    if (value.is_none()) return std::nullopt;
    return to_player(s, value);
}

/// The legal action ids of the seat a query is about (default: the player to move);
/// nobody has any once the game is over.
int query_actions(const Position& s, const py::object& player, std::array<uint8_t, kNumActions>& out) {
    if (player.is_none() && s.is_terminal()) return 0;
    return legal_actions(s, acting_player(s, optional_player(s, player)), out);
}

Move move_of_action(const py::handle& value) { return Move::of_action(to_action(value, kNumActions)); }

Move to_move(const py::handle& value) {
    // Cheapest checks first: action ids are the fast path of search loops.
    if (PyLong_Check(value.ptr()) && !PyBool_Check(value.ptr())) return move_of_action(value);
    if (PyUnicode_Check(value.ptr())) return parse_move(utf8_text<NotationError>(value, "a move"));
    if (py::isinstance<Move>(value)) return value.cast<Move>();
    if (as_integer(value)) return Move::of_action(to_action(value, kNumActions));  // numpy integers
    throw NotationError("a Schacht move is a SchachtMove, an action id or notation text like 'G5<', got " +
                        py::repr(value).cast<std::string>());
}

std::vector<Card> deck_from(const py::handle& value, const std::string& what) {
    if (!py::isinstance<py::sequence>(value) || py::isinstance<py::str>(value)) {
        throw StateFormatError(what + " must be a list of cards like 'G5' (S2.4)");
    }
    std::vector<Card> deck;
    for (auto item : py::reinterpret_borrow<py::sequence>(value)) {
        if (!PyUnicode_Check(item.ptr())) throw StateFormatError(what + " must hold card strings like 'G5', got " + py::repr(item).cast<std::string>());
        try {
            deck.push_back(parse_card(utf8_text<StateFormatError>(item, what)));
        } catch (const NotationError& e) {
            throw StateFormatError(what + ": " + e.what());
        }
    }
    return deck;
}

// ---- JSON ----------------------------------------------------------------------------

std::string format_step(const Step& step) { return std::to_string(step.player) + ":" + format_move(step.move); }

py::dict to_data(const State& t) {
    const Position& s = t.state;
    py::dict d;
    d["format"] = kFormat;
    d["options"] = options_dict(s.game);
    d["seed"] = py::int_(s.seed);
    d["round"] = s.round;
    d["dealer"] = s.dealer;
    d["phase"] = kPhaseNames[static_cast<int>(s.phase)];
    d["current_player"] = s.current_player;
    d["scoring_colour"] = colour_or_none(s.phase == Phase::Doubler ? s.scoring_colour : -1);
    py::list revealed;
    for (int c = 0; c < kColours; ++c) {
        if (s.revealed_colours & (1u << c)) revealed.append(colour_letter(c));
    }
    d["revealed_colours"] = revealed;
    d["doubler_available"] = seat_bools(s, s.doubler_available);
    d["decided"] = seat_bools(s, s.decided);
    d["bets"] = seat_bools(s, s.bets);
    py::list pile;
    for (int i = s.pile_next; i < s.pile_end; ++i) pile.append(format_card(Card{s.pile[static_cast<std::size_t>(i)]}));
    d["pile"] = pile;
    py::list hands, shown, discarded, scores;
    for (int seat = 0; seat < s.players(); ++seat) {
        const auto k = static_cast<std::size_t>(seat);
        hands.append(card_list(s.hands[k]));
        shown.append(card_list(s.shown[k]));
        discarded.append(card_list(s.discarded[k]));
        scores.append(s.scores[k]);
    }
    d["hands"] = hands;
    d["shown"] = shown;
    d["discarded"] = discarded;
    d["rows"] = rows_dict(s);
    d["scores"] = scores;
    py::list history;
    for (const Step& step : t.history) history.append(format_step(step));
    d["history"] = history;
    py::list decks;
    for (const auto& deck : t.decks) {
        if (deck.empty()) {
            decks.append(py::none());
            continue;
        }
        py::list cards;
        for (Card card : deck) cards.append(format_card(card));
        decks.append(cards);
    }
    d["decks"] = decks;
    return d;
}

CardSet read_cards(const Reader& r) {
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

uint8_t read_seat_bits(const Reader& r, int players) {
    if (r.size() != static_cast<std::size_t>(players)) r.fail("expected one entry per seat");
    uint8_t bits = 0;
    for (int seat = 0; seat < players; ++seat) {
        if (r.at(static_cast<std::size_t>(seat)).boolean()) bits = static_cast<uint8_t>(bits | (1u << seat));
    }
    return bits;
}

int read_colour(const Reader& r) {
    const std::string letter = r.text();
    const char* found = letter.size() == 1 ? std::strchr(kColourLetters, letter[0]) : nullptr;
    if (found == nullptr || letter[0] == '\0') r.fail("expected a colour letter R, Y, G, P or B");
    return static_cast<int>(found - kColourLetters);
}

State from_data(const py::handle& data) {
    const Reader root(data, "");
    if (root.at("format").text() != kFormat) root.at("format").fail(std::string("expected '") + kFormat + "'");
    const Reader opts = root.at("options");
    if (!py::isinstance<py::dict>(opts.handle())) opts.fail("expected an object");
    Game game;
    try {
        game = config_from_kwargs(py::reinterpret_borrow<py::dict>(opts.handle()));
    } catch (const OptionError& e) {
        opts.fail(e.what());
    }
    State t;
    Position& s = t.state;
    s.game = game;
    const int n = game.players;
    s.seed = root.at("seed").seed();
    s.round = static_cast<uint8_t>(root.at("round").integer(0, kMaxRounds - 1));
    s.dealer = static_cast<uint8_t>(root.at("dealer").integer(0, n - 1));
    s.phase = static_cast<Phase>(root.at("phase").choice({"play", "doubler", "game_over"}));
    s.current_player = static_cast<int8_t>(root.at("current_player").integer(kTerminal, n - 1));
    const Reader colour = root.at("scoring_colour");
    s.scoring_colour = static_cast<int8_t>(colour.is_null() ? -1 : read_colour(colour));
    const Reader revealed = root.at("revealed_colours");
    for (std::size_t i = 0; i < revealed.size(); ++i) s.revealed_colours = static_cast<uint8_t>(s.revealed_colours | (1u << read_colour(revealed.at(i))));
    s.doubler_available = read_seat_bits(root.at("doubler_available"), n);
    s.decided = read_seat_bits(root.at("decided"), n);
    s.bets = read_seat_bits(root.at("bets"), n);
    const Reader pile = root.at("pile");
    if (pile.size() > static_cast<std::size_t>(kMaxDeck)) pile.fail("too many cards");
    s.pile_end = static_cast<uint8_t>(pile.size());
    for (std::size_t i = 0; i < pile.size(); ++i) {
        try {
            s.pile[i] = parse_card(pile.at(i).text()).kind;
        } catch (const NotationError& e) {
            pile.at(i).fail(e.what());
        }
    }
    for (const char* key : {"hands", "shown", "discarded", "scores"}) {
        if (root.at(key).size() != static_cast<std::size_t>(n)) root.at(key).fail("expected one entry per seat");
    }
    for (int seat = 0; seat < n; ++seat) {
        const auto k = static_cast<std::size_t>(seat);
        s.hands[k] = read_cards(root.at("hands").at(k));
        s.shown[k] = read_cards(root.at("shown").at(k));
        s.discarded[k] = read_cards(root.at("discarded").at(k));
        s.scores[k] = static_cast<int16_t>(root.at("scores").at(k).integer(-30000, 30000));
    }
    const Reader rows = root.at("rows");
    for (int c = 0; c < kColours; ++c) {
        const Reader row = rows.at(colour_letter(c).c_str());
        Row& out = s.rows[static_cast<std::size_t>(c)];
        for (auto [key, values, count] : {std::tuple{"left", &out.left, &out.left_count}, std::tuple{"right", &out.right, &out.right_count}}) {
            const Reader side = row.at(key);
            if (side.size() > static_cast<std::size_t>(kSideCards)) side.fail("a side holds at most 3 cards (S3.2)");
            *count = static_cast<uint8_t>(side.size());
            for (std::size_t i = 0; i < side.size(); ++i) (*values)[i] = static_cast<uint8_t>(side.at(i).integer(1, kValues));
        }
    }
    const Reader history = root.at("history");
    for (std::size_t i = 0, size = history_size(history); i < size; ++i) {
        const std::string entry = history.at(i).text();
        const auto colon = entry.find(':');
        if (colon != 1 || entry[0] < '0' || entry[0] >= '0' + n) history.at(i).fail("expected 'seat:move' like '1:G5<'");
        try {
            t.history.push_back(Step{entry[0] - '0', parse_move(entry.substr(2))});
        } catch (const NotationError& e) {
            history.at(i).fail(e.what());
        }
    }
    const Reader decks = root.at("decks");
    if (decks.size() > game.rounds) decks.fail("more given deals than rounds");
    for (std::size_t i = 0; i < decks.size(); ++i) {
        if (decks.at(i).is_null()) {
            t.decks.emplace_back();
            continue;
        }
        t.decks.push_back(deck_from(decks.at(i).handle(), "decks[" + std::to_string(i) + "]"));
        check_deck(game, t.decks.back());
    }
    const std::string problem = t.check();
    if (!problem.empty()) throw StateFormatError("state JSON describes an impossible state: " + problem);
    return t;
}

// ---- observation (S7.4) ----------------------------------------------------------------

py::dict observation(const Position& s, int p) {
    py::dict d;
    d["player"] = p;
    d["round"] = s.round;
    d["rounds"] = s.game.rounds;
    d["dealer"] = s.dealer;
    d["current_player"] = s.current_player;
    d["phase"] = kPhaseNames[static_cast<int>(s.phase)];
    d["hand"] = card_list(s.hands[static_cast<std::size_t>(p)]);
    py::list sizes, scores, shown, discarded;
    for (int seat = 0; seat < s.players(); ++seat) {
        const auto k = static_cast<std::size_t>(seat);
        sizes.append(s.hands[k].count());
        scores.append(s.scores[k]);
        shown.append(card_list(s.shown[k]));
        discarded.append(card_list(s.discarded[k]));
    }
    d["hand_sizes"] = sizes;
    d["rows"] = rows_dict(s);
    d["draw_pile"] = s.pile_size();
    d["doubler_available"] = seat_bools(s, s.doubler_available);
    const bool deciding = s.phase == Phase::Doubler && ((s.decided >> p) & 1u);
    d["doubler_decision"] = deciding ? py::object(py::str((s.bets >> p) & 1u ? "bet" : "hold")) : py::object(py::none());
    d["scores"] = scores;
    d["scoring_colour"] = colour_or_none(s.phase == Phase::Doubler ? s.scoring_colour : -1);
    py::dict scoring;
    for (int c = 0; c < kColours; ++c) {
        if (!(s.revealed_colours & (1u << c))) continue;
        py::list per_seat;
        for (int seat = 0; seat < s.players(); ++seat) per_seat.append(card_list(s.hands[static_cast<std::size_t>(seat)] & colour_mask(c)));
        scoring[colour_letter(c).c_str()] = per_seat;
    }
    py::dict revealed;
    revealed["shown"] = shown;
    revealed["discarded"] = discarded;
    revealed["scoring"] = scoring;
    d["revealed"] = revealed;
    py::list legal;
    for (const Move& move : legal_moves(s, p)) legal.append(format_move(move));
    d["legal"] = legal;
    return d;
}

// ---- the Python classes --------------------------------------------------------------

State new_state(const Game& game, const py::object& seed, const py::object& deck, const py::object& decks) {
    std::vector<std::vector<Card>> given;
    if (!deck.is_none() && !decks.is_none()) throw StateFormatError("give either deck= (round 0) or decks= (one per round), not both");
    if (!deck.is_none()) {
        given.push_back(deck_from(deck, "deck"));
        check_deck(game, given.back());
    }
    if (!decks.is_none()) {
        if (!py::isinstance<py::sequence>(decks) || py::isinstance<py::str>(decks)) throw StateFormatError("decks must be a list of decks, one per round (S2.4)");
        std::size_t i = 0;
        for (auto item : py::reinterpret_borrow<py::sequence>(decks)) {
            given.push_back(item.is_none() ? std::vector<Card>{} : deck_from(item, "decks[" + std::to_string(i) + "]"));
            if (!item.is_none()) check_deck(game, given.back());
            ++i;
        }
    }
    return State::start(game, to_seed(seed), std::move(given));
}

}  // namespace

// ---- bots, search and matches -------------------------------------------------------------

/// The seat a bot decides for: `player`, or the seat whose decision is due.
int bot_player(const Position& s, const py::object& player) {
    const int seat = player.is_none() ? next_actor(s) : to_player(s, player);
    if (seat < 0) throw IllegalMoveError("S6.1", "the game is over");
    std::array<uint8_t, kNumActions> legal{};
    if (legal_actions(s, seat, legal) == 0) throw IllegalMoveError("S2.3", "seat " + std::to_string(seat) + " has no move now");
    return seat;
}

void bind_bots(py::module_& m) {
    py::class_<Bot, std::shared_ptr<Bot>>(m, "SchachtBot", "A Schacht bot implemented in C++.")
        .def("choose", [](const Bot& bot, const State& t, const py::object& player, const py::object& seed) {
            const int seat = bot_player(t.state, player);
            Pcg32 rng(to_seed(seed));
            const Position state = t.state;
            py::gil_scoped_release release;
            return bot.choose(state, seat, rng);
        }, py::arg("state"), py::arg("player") = py::none(), py::arg("seed") = 0,
           "The move this bot makes for ``player`` (default: the seat whose decision is due), from what that "
           "seat may know; ``seed`` fixes its random choices.");
    py::class_<RandomBot, Bot, std::shared_ptr<RandomBot>>(m, "SchachtRandomBot", R"doc(
Any legal move, uniformly at random.

>>> from diabolo.schacht import RandomBot
>>> RandomBot().name
'random'
)doc")
        .def(py::init([]() { return std::make_shared<RandomBot>(); }))
        .def_property_readonly("name", [](const RandomBot&) { return "random"; }, "``'random'``.");
    py::class_<HeuristicBot, Bot, std::shared_ptr<HeuristicBot>>(m, "SchachtHeuristicBot", R"doc(
Plays the colour-steering game: keeps the colours it is long in positive (the angel
side), pushes the colours others lead negative (the devil side), discards what hurts it
least, and bets its doubler on the positive colour it most likely leads with the most.
A one-move look-ahead over its estimate of every colour's outcome, from what it knows.

>>> import diabolo
>>> from diabolo.schacht import HeuristicBot
>>> state = diabolo.load("schacht").new_state(seed=1)
>>> HeuristicBot().choose(state) in state.legal_moves()
True
)doc")
        .def(py::init([]() { return std::make_shared<HeuristicBot>(); }))
        .def_property_readonly("name", [](const HeuristicBot&) { return "heuristic"; }, "``'heuristic'``.");
    py::class_<SearchResult>(m, "SchachtSearchResult", "The answer of an ISMCTS search: the root moves with visits and values.")
        .def_readonly("moves", &SearchResult::moves, "The searching seat's legal moves, in action-id order.")
        .def_property_readonly("visits", [](const SearchResult& r) { return to_numpy(r.visits, {static_cast<py::ssize_t>(r.visits.size())}); },
                               "Visits of each move (numpy int64).")
        .def_property_readonly("values", [](const SearchResult& r) { return to_numpy(r.values, {static_cast<py::ssize_t>(r.values.size())}); },
                               "Mean reward of each move for the searching seat, in [-1, 1] (numpy float64).")
        .def_readonly("iterations", &SearchResult::iterations, "Iterations run, over all threads.")
        .def_readonly("best", &SearchResult::best, "The most visited move.")
        .def("__repr__", [](const SearchResult& r) {
            return "<SchachtSearchResult best " + format_move(r.best) + " after " + std::to_string(r.iterations) + " iterations>";
        });
    py::class_<IsmctsBot, Bot, std::shared_ptr<IsmctsBot>>(m, "SchachtIsmctsBot", R"doc(
Information-set Monte Carlo tree search (ISMCTS) in C++, without the GIL.

Every iteration deals the cards the seat cannot see anew (``state.resample(player, ...)``),
so the search never reads hidden cards. The tree holds the seat's own moves (UCB with
availability counts), biased at the root towards the heuristic's ranking of the moves
(``prior``, fading with visits); the other seats and the rollouts to the end of the
round play by the heuristic (or at random). ``iterations`` are split over ``threads``
trees whose root statistics are summed; ``seconds`` > 0 gives each thread a time budget
instead.

>>> import diabolo
>>> from diabolo.schacht import IsmctsBot
>>> state = diabolo.load("schacht").new_state(seed=1)
>>> result = IsmctsBot(iterations=200).search(state, seed=3)
>>> result.iterations, result.best in result.moves, int(result.visits.sum())
(200, True, 200)
)doc")
        .def(py::init([](const py::object& iterations, double seconds, const py::object& threads, double exploration,
                         bool heuristic_rollouts, double prior) {
            SearchOptions o;
            o.iterations = to_int(iterations, "iterations");
            o.seconds = seconds;
            o.threads = to_int(threads, "threads");
            o.exploration = exploration;
            o.heuristic_rollouts = heuristic_rollouts;
            o.prior = prior;
            check_search_options(o);
            return std::make_shared<IsmctsBot>(o);
        }), py::arg("iterations") = 1000, py::arg("seconds") = 0.0, py::arg("threads") = 1, py::arg("exploration") = 0.5,
            py::arg("heuristic_rollouts") = true, py::arg("prior") = 1.0)
        .def("search", [](const IsmctsBot& bot, const State& t, const py::object& player, const py::object& seed) {
            const int seat = bot_player(t.state, player);
            const uint64_t s = to_seed(seed);
            const Position state = t.state;
            py::gil_scoped_release release;
            return ismcts(state, seat, bot.options(), s);
        }, py::arg("state"), py::arg("player") = py::none(), py::arg("seed") = 0,
           "Searches for ``player`` (default: the seat whose decision is due) and returns the root statistics.")
        .def_property_readonly("name", [](const IsmctsBot&) { return "ismcts"; }, "``'ismcts'``.")
        .def_property_readonly("iterations", [](const IsmctsBot& b) { return b.options().iterations; }, "Iterations per search.")
        .def_property_readonly("threads", [](const IsmctsBot& b) { return b.options().threads; }, "Trees searched in parallel.");

    m.def("schacht_play_match", [](const Game& c, const py::sequence& bots, const py::object& games, const py::object& seed,
                                   const py::object& threads, const py::object& first) {
        const long long first_game = to_int64(first, "first");
        if (first_game < 0 || first_game > 1'000'000'000) throw OptionError("first must be 0..1000000000");
        std::vector<std::shared_ptr<Bot>> owned;
        for (auto bot : bots) owned.push_back(cpp_bot<Bot>(bot));
        std::vector<const Bot*> seats;
        for (const auto& bot : owned) seats.push_back(bot.get());
        const Batch batch = batch_args(games, seed, threads);
        MatchResult result;
        SignalCheck signals;
        {
            py::gil_scoped_release release;
            result = play_match(c, seats, batch.games, batch.seed, batch.threads, static_cast<int>(first_game), signals.interrupt());
        }
        signals.raise_if_interrupted();
        py::dict out;
        out["scores"] = to_numpy(result.scores, {batch.games, result.bots});
        out["moves"] = to_numpy(result.moves, {batch.games});
        return out;
    });
}

void bind_schacht(py::module_& m) {
    bind_bots(m);
    py::class_<Move> move_class(m, "SchachtMove", R"doc(
A move of Diabolo (Schacht): frozen, hashable, ``str()`` is its notation (S8).

Make one with :meth:`parse` or :meth:`from_action`; ``state.legal_moves()`` returns them.

>>> from diabolo.schacht import SchachtMove
>>> move = SchachtMove.parse("G5<")
>>> move.kind, move.card, move.side, move.action
('place', 'G5', 'left', 28)
>>> str(SchachtMove.from_action(75))
'bet'
)doc");
    move_class
        .def_static("parse", [](const py::object& text) { return parse_move(utf8_text<NotationError>(text, "notation")); }, py::arg("text"),
                    "The move written as ``text`` (``'G5<'``, ``'P2>'``, ``'xG5'``, ``'bet'``, ``'hold'``); "
                    "raises NotationError.\n\n>>> SchachtMove.parse('xG5').kind\n'discard'")
        .def_static("from_action", [](const py::object& action) { return move_of_action(action); }, py::arg("action"),
                    "The move with this action id (0..76); raises NotationError.\n\n>>> str(SchachtMove.from_action(1))\n'R1>'")
        .def_property_readonly("action", &Move::action, "The stable action id (0..76).\n\n>>> SchachtMove.parse('R1>').action\n1")
        .def_property_readonly("kind", [](const Move& mv) { return kMoveKinds[static_cast<int>(mv.kind)]; },
                               "``'place'``, ``'discard'``, ``'bet'`` or ``'hold'``.\n\n>>> SchachtMove.parse('hold').kind\n'hold'")
        .def_property_readonly("card", [](const Move& mv) -> py::object {
            if (mv.kind != MoveKind::Place && mv.kind != MoveKind::Discard) return py::none();
            return py::str(format_card(mv.card));
        }, "The card placed or discarded (``'G5'``), or None.\n\n>>> SchachtMove.parse('P2>').card\n'P2'")
        .def_property_readonly("side", [](const Move& mv) -> py::object {
            if (mv.kind != MoveKind::Place) return py::none();
            return py::str(mv.side == Side::Left ? "left" : "right");
        }, "``'left'`` (devil) or ``'right'`` (angel) for a placement, else None.\n\n>>> SchachtMove.parse('P2>').side\n'right'")
        ;
    bind_move_values(move_class, "SchachtMove", &format_move, &parse_move);

    py::class_<State> state_class(m, "SchachtState", R"doc(
A position of Diabolo (Schacht), with the moves that led to it.

Get one from :meth:`SchachtGame.new_state`. States are values: :meth:`clone`, ``copy``,
``pickle`` and :meth:`to_json` all give independent, equal copies.

>>> import diabolo
>>> state = diabolo.load("schacht", players=3).new_state(seed=7)
>>> state.current_player, state.phase
(1, 'play')
>>> move = state.legal_moves()[0]
>>> state.apply(move)
>>> state.history[-1][1] == move
True
)doc");
    state_class
        .def_property_readonly("game", [](const State& t) { return t.state.game; }, "The game (rules and options) of this state.")
        .def_property_readonly("current_player", [](const State& t) { return t.state.current_player; },
                               "The seat to move, or ``diabolo.SIMULTANEOUS`` during doubler decisions (S5.3), "
                               "or ``diabolo.TERMINAL`` at game over.\n\n>>> diabolo.load('schacht').new_state(seed=1).current_player\n1")
        .def_property_readonly("phase", [](const State& t) { return kPhaseNames[static_cast<int>(t.state.phase)]; },
                               "``'play'``, ``'doubler'`` or ``'game_over'`` (S7.4).")
        .def_property_readonly("round", [](const State& t) { return t.state.round; }, "The round, from 0 (S7.4).")
        .def_property_readonly("dealer", [](const State& t) { return t.state.dealer; }, "The dealer's seat: round % players (S2.2).")
        .def_property_readonly("is_terminal", [](const State& t) { return t.state.is_terminal(); }, "True once the game is over (S6.1).")
        .def_property_readonly("scores", [](const State& t) {
            return std::vector<int>(t.state.scores.begin(), t.state.scores.begin() + t.state.players());
        }, "Game totals per seat so far (S6.2).")
        .def("returns", [](const State& t) {
            return std::vector<double>(t.state.scores.begin(), t.state.scores.begin() + t.state.players());
        }, "Game totals per seat as floats: the payoff for learning code (S6.2).\n\n"
           ">>> diabolo.load('schacht', players=3).new_state(seed=1).returns()\n[0.0, 0.0, 0.0]")
        .def_property_readonly("winners", [](const State& t) { return winners(t.state); },
                               "Seats with the highest total; ties share the win (S6.2).")
        .def_property_readonly("history", [](const State& t) {
            py::list out;
            for (const Step& step : t.history) out.append(py::make_tuple(step.player, step.move));
            return out;
        }, "Every move so far as ``(seat, move)`` pairs, oldest first.")
        .def("legal_moves", [](const State& t, const py::object& player) {
            std::array<uint8_t, kNumActions> actions{};
            const int n = query_actions(t.state, player, actions);
            std::vector<Move> moves;
            for (int i = 0; i < n; ++i) moves.push_back(Move::of_action(actions[static_cast<std::size_t>(i)]));
            return moves;
        }, py::arg("player") = py::none(),
           "Legal moves of ``player`` (default: the player to move), in action-id order; empty when "
           "that seat has nothing to do now.\n\n>>> [str(m) for m in diabolo.load('schacht').new_state(seed=1).legal_moves()][:3]\n"
           "['R1<', 'R1>', 'Y3<']")
        .def("legal_actions", [](const State& t, const py::object& player) {
            std::array<uint8_t, kNumActions> actions{};
            const int n = query_actions(t.state, player, actions);
            return std::vector<int>(actions.begin(), actions.begin() + n);
        }, py::arg("player") = py::none(), "Legal action ids of ``player``, ascending (see :meth:`legal_moves`).")
        .def("legal_action_mask", [](const State& t, const py::object& player) {
            std::array<uint8_t, kNumActions> actions{};
            const int n = query_actions(t.state, player, actions);
            py::array_t<bool> mask(kNumActions);
            bool* data = mask.mutable_data();
            std::fill(data, data + kNumActions, false);
            for (int i = 0; i < n; ++i) data[actions[static_cast<std::size_t>(i)]] = true;
            return mask;
        }, py::arg("player") = py::none(), "A numpy bool array of length ``num_actions``, True at legal action ids.")
        .def("apply", [](State& t, const py::object& move, const py::object& player) {
            t.apply(to_move(move), optional_player(t.state, player));
        }, py::arg("move"), py::arg("player") = py::none(),
           "Plays ``move`` (a SchachtMove, an action id or notation) for ``player`` (default: the player "
           "to move). Raises IllegalMoveError naming the clause, and changes nothing, if the move is not legal.")
        .def("observation", [](const State& t, const py::object& player) {
            return observation(t.state, to_player(t.state, player));
        }, py::arg("player"), "What ``player`` may know, as a JSON-ready dict with the keys of S7.4 (see the rules page).")
        .def("observation_tensor", [](const State& t, const py::object& player) {
            const int p = to_player(t.state, player);
            py::array_t<float> out(observation_tensor_size(t.state.game));
            observation_tensor(t.state, p, out.mutable_data());
            return out;
        }, py::arg("player"), "What ``player`` may know as a float32 numpy array of ``game.observation_tensor_shape``.")
        .def("resample", [](const State& t, const py::object& player, const py::object& seed) {
            return t.resample(to_player(t.state, player), to_seed(seed));
        }, py::arg("player"), py::arg("seed"),
           "Determinisation (S7.3): a state that looks the same to ``player``, with every card that player "
           "cannot see dealt anew from ``seed``. Depends only on what ``player`` knows and on ``seed``.")
        .def("__str__", [](const State& t) { return render(t.state); })
        .def("__repr__", [](const State& t) {
            return "<SchachtState round " + std::to_string(t.state.round) + " " + kPhaseNames[static_cast<int>(t.state.phase)] +
                   " current_player=" + std::to_string(t.state.current_player) + ">";
        })
        ;
    bind_state_values(state_class, &to_data, &from_data);

    py::class_<Game> game_class(m, "SchachtGame", R"doc(
Diabolo (Michael Schacht, 2006) with its rule options. Get one with ``diabolo.load``.

Options (all keyword, validated, OptionError when wrong):

- ``players``: 3-5 (S1.1); 2-8 with ``strict_players=False``.
- ``rounds``: rounds in the game, default one per player (S6.1).
- ``rows_to_end``: closed rows that end a round, default 2, or 3 with 5+ players (S4.1).
- ``value_counts``: copies of the values 1..5 per colour, default ``(4, 3, 3, 2, 2)`` (S1.3).
- ``strict_players``: True (default) holds ``players`` to 3-5; False allows 2-8 for experiments (S1.1).

>>> import diabolo
>>> game = diabolo.load("schacht", players=4)
>>> game.num_actions, game.rounds, game.rows_to_end
(77, 4, 2)
)doc");
    game_class
        .def(py::init([](const py::kwargs& kwargs) { return config_from_kwargs(kwargs); }))
        .def_property_readonly("name", [](const Game&) { return "schacht"; }, "The game's id: ``'schacht'``.")
        .def_property_readonly("players", [](const Game& c) { return c.players; }, "Number of seats.")
        .def_property_readonly("rounds", [](const Game& c) { return c.rounds; }, "Rounds in a game (S6.1).")
        .def_property_readonly("rows_to_end", [](const Game& c) { return c.rows_to_end; }, "Closed rows that end a round (S4.1).")
        .def_property_readonly("value_counts", [](const Game& c) {
            const auto& v = c.value_counts;
            return py::make_tuple(v[0], v[1], v[2], v[3], v[4]);
        }, "Copies of each value per colour (S1.3).\n\n>>> diabolo.load('schacht').value_counts\n(4, 3, 3, 2, 2)")
        .def_property_readonly("strict_players", [](const Game& c) { return c.strict_players != 0; }, "Whether players is held to 3-5 (S1.1).")
        .def_property_readonly("options", &options_dict, "Every option with its value, defaults filled in.")
        .def_property_readonly("deck_size", &Game::deck_size, "Cards in the deck (70 by default).")
        .def_property_readonly("num_actions", [](const Game&) { return kNumActions; }, "Number of action ids: 77.")
        .def_property_readonly("observation_tensor_shape", [](const Game& c) { return py::make_tuple(observation_tensor_size(c)); },
                               "Shape of :meth:`SchachtState.observation_tensor`.")
        .def("new_state", &new_state, py::arg("seed") = 0, py::arg("deck") = py::none(), py::arg("decks") = py::none(),
             "A new game. Round r is shuffled from ``seed`` unless a deal is given: ``deck`` (round 0) or "
             "``decks`` (one list per round, None for a shuffled round), each all cards in notation, dealt "
             "as S2.4 says.\n\n>>> diabolo.load('schacht').new_state(seed=3).round\n0")
        .def("state_from_json", [](const Game& c, const py::object& text) {
            State t = from_data(load_json(utf8_text<StateFormatError>(text, "state JSON")));
            if (!(t.state.game == c)) throw StateFormatError("state JSON: its options differ from this game's");
            return t;
        }, py::arg("text"), "The state written by :meth:`SchachtState.to_json`; StateFormatError if the text "
                            "is not a valid state of this game.")
        .def("move", [](const Game&, const py::object& move) { return to_move(move); }, py::arg("move"),
             "The SchachtMove for notation text or an action id.\n\n>>> diabolo.load('schacht').move('bet').action\n75")
        .def("play_random", [](const Game& c, const py::object& games, const py::object& seed, const py::object& threads) {
            return random_play(c, games, seed, threads, &play_random_games);
        }, py::arg("games"), py::arg("seed") = 0, py::arg("threads") = 1,
           "Plays ``games`` whole games with uniformly random legal moves in C++, without the GIL, on "
           "``threads`` threads. Returns numpy arrays: ``scores`` (games x players) and ``moves`` (per game). "
           "Game i depends only on (seed, i), so results do not depend on ``threads``.\n\n"
           ">>> result = diabolo.load('schacht', players=3).play_random(100, seed=5, threads=2)\n"
           ">>> result['scores'].shape, result['moves'].shape\n((100, 3), (100,))")
        .def("__repr__", [](const Game& c) {
            return "diabolo.load('schacht', players=" + std::to_string(c.players) + ", rounds=" + std::to_string(c.rounds) +
                   ", rows_to_end=" + std::to_string(c.rows_to_end) + ")";
        })
        ;
    bind_game_values(game_class, &options_dict, &config_from_kwargs);

}

}  // namespace diabolo::bindings
