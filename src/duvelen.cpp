// Python bindings of Duvelen: DuvelenGame, DuvelenState, DuvelenMove.
// Only conversion lives here; the rules are in cpp/src/duvelen/.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "common.hpp"
#include "diabolo/duvelen/duvelen.hpp"

namespace diabolo::bindings {

using namespace diabolo::duvelen;

namespace {

constexpr const char* kFormat = "diabolo.duvelen/1";
constexpr const char* kPhaseNames[] = {"play", "after_stop", "game_over"};
constexpr const char* kMoveKinds[] = {"play", "turn", "recycle", "recycle^", "stop", "pass"};
constexpr const char* kSourceNames[] = {"S", "R1", "R2", "R3", "R4", "W"};
constexpr const char* kBlockNames[] = {"rotate_stok", "end_round"};

py::object card_or_none(int card) { return card < 0 ? py::object(py::none()) : py::object(py::str(format_card(card))); }
std::string suit_letter(int suit) { return std::string(1, kSuitLetters[suit]); }

py::dict options_dict(const Game& c) {
    py::dict d;
    d["players"] = c.players;
    d["rounds"] = c.rounds;
    d["on_block"] = kBlockNames[static_cast<int>(c.on_block)];
    d["max_actions"] = c.max_actions;
    return d;
}

Game config_from_kwargs(const py::dict& kwargs) {
    Options o;
    for (auto item : kwargs) {
        const std::string key = utf8_text<OptionError>(item.first, "an option name");
        const py::handle value = item.second;
        if (key == "players") o.players = to_int(value, "players");
        else if (key == "rounds") o.rounds = to_int(value, "rounds");
        else if (key == "max_actions") {
            const int cap = to_int(value, "max_actions");
            if (cap < 1 || cap > 100000000) throw OptionError("max_actions must be 1..100000000 (D4.5), got " + std::to_string(cap));
            o.max_actions = static_cast<int>(cap);
        } else if (key == "on_block") {
            const std::string text = PyUnicode_Check(value.ptr()) ? utf8_text<OptionError>(value, "on_block") : "";
            if (text == "rotate_stok") o.on_block = OnBlock::RotateStok;
            else if (text == "end_round") o.on_block = OnBlock::EndRound;
            else throw OptionError("on_block must be 'rotate_stok' or 'end_round' (D4.5), got " + py::repr(value).cast<std::string>());
        } else {
            throw OptionError("unknown option '" + key + "' for duvelen; the options are players, rounds, on_block, max_actions");
        }
    }
    return Game::from_options(o);
}

Move to_move(const py::handle& value) {
    if (PyLong_Check(value.ptr()) && !PyBool_Check(value.ptr())) return Move::of_action(to_action(value, kNumActions));
    if (PyUnicode_Check(value.ptr())) return parse_move(utf8_text<NotationError>(value, "a move"));
    if (py::isinstance<Move>(value)) return value.cast<Move>();
    if (as_integer(value)) return Move::of_action(to_action(value, kNumActions));  // numpy integers
    throw NotationError("a Duvelen move is a DuvelenMove, an action id or notation text like 'R2:7h>3', got " +
                        py::repr(value).cast<std::string>());
}

/// The player a query is about. Duvelen has no player to move (D3), so one must be named.
int query_player(const Position& s, const py::object& player) {
    if (player.is_none()) throw PlayerError("Duvelen is played simultaneously (D3): name the player");
    return to_seat(player, s.players());
}

std::vector<Deck> decks_from(const py::handle& value, int players) {
    if (!py::isinstance<py::sequence>(value) || PyUnicode_Check(value.ptr())) {
        throw StateFormatError("decks must be one list of 52 cards per seat (D2.5)");
    }
    const auto seq = py::reinterpret_borrow<py::sequence>(value);
    if (static_cast<int>(py::len(seq)) != players) {
        throw StateFormatError("decks must hold one deck per seat (D2.5): " + std::to_string(players) + " decks, got " +
                               std::to_string(py::len(seq)));
    }
    std::vector<Deck> decks;
    for (std::size_t seat = 0; seat < seq.size(); ++seat) {
        const std::string what = "decks[" + std::to_string(seat) + "]";
        const py::handle cards = seq[seat];
        if (!py::isinstance<py::sequence>(cards) || PyUnicode_Check(cards.ptr()) || py::len(cards) != kDeckCards) {
            throw StateFormatError(what + " must list all 52 cards of a deck, like '10h' (D2.5)");
        }
        Deck deck{};
        std::size_t i = 0;
        for (auto card : py::reinterpret_borrow<py::sequence>(cards)) {
            try {
                deck[i++] = static_cast<uint8_t>(parse_card(utf8_text<StateFormatError>(card, what)));
            } catch (const NotationError& e) {
                throw StateFormatError(what + ": " + e.what());
            }
        }
        check_deck(deck);
        decks.push_back(deck);
    }
    return decks;
}

// ---- observation (D8.3) ------------------------------------------------------------------

py::list piles_list(const Position& s, bool complete) {
    std::vector<const Pile*> chosen;
    std::vector<int> ids;
    for (int id = 1; id <= s.pile_count; ++id) {
        const Pile& pile = s.piles[static_cast<std::size_t>(id - 1)];
        if ((pile.holder >= 0) == complete) {
            chosen.push_back(&pile);
            ids.push_back(id);
        }
    }
    if (complete) {  // Herenhopen in the order they were completed
        std::vector<std::size_t> order(chosen.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return chosen[a]->completed < chosen[b]->completed; });
        std::vector<const Pile*> sorted;
        for (std::size_t i : order) sorted.push_back(chosen[i]);
        chosen = sorted;
    }
    py::list out;
    for (std::size_t i = 0; i < chosen.size(); ++i) {
        const Pile& pile = *chosen[i];
        py::dict d;
        if (complete) d["holder"] = pile.holder;
        else d["id"] = ids[i];
        d["suit"] = suit_letter(pile.suit);
        if (!complete) d["top"] = pile.top;
        d["owners"] = std::vector<int>(pile.owners.begin(), pile.owners.begin() + pile.top);
        out.append(d);
    }
    return out;
}

py::list int_list(const std::array<int32_t, kMaxSeats>& values, int players) {
    py::list out;
    for (int p = 0; p < players; ++p) out.append(values[static_cast<std::size_t>(p)]);
    return out;
}

py::dict observation(const Position& s, int player) {
    py::dict d;
    d["player"] = player;
    d["round"] = s.round;
    d["rounds"] = s.game.rounds;
    d["current_player"] = s.current_player();
    d["phase"] = kPhaseNames[static_cast<int>(s.phase)];
    d["stop_called_by"] = s.stop_called_by >= 0 ? py::object(py::int_(s.stop_called_by)) : py::object(py::none());
    d["piles"] = piles_list(s, false);
    d["herenhopen"] = piles_list(s, true);
    py::list seats;
    for (int p = 0; p < s.players(); ++p) {
        const Seat& seat = s.seats[static_cast<std::size_t>(p)];
        py::dict v;
        v["stok_top"] = card_or_none(seat.stok_top());
        v["stok_count"] = seat.stok_count;
        py::list rij;
        for (uint8_t card : seat.rij) rij.append(card_or_none(card == kNoCard ? -1 : card));
        v["rij"] = rij;
        v["waste_top"] = card_or_none(seat.waste_top());
        v["waste_count"] = seat.waste_count;
        v["draaistok_count"] = seat.draaistok_count();
        v["passed"] = py::bool_((s.passed >> p) & 1u);
        seats.append(v);
    }
    d["seats"] = seats;
    d["scores"] = int_list(s.scores, s.players());
    d["round_scores"] = int_list(round_scores(s), s.players());
    py::list legal;
    for (const Move& move : legal_moves(s, player)) legal.append(format_move(move));
    d["legal"] = legal;
    return d;
}

// ---- JSON ----------------------------------------------------------------------------------

py::list card_texts(const uint8_t* cards, int count) {
    py::list out;
    for (int i = 0; i < count; ++i) out.append(format_card(cards[i]));
    return out;
}

py::dict to_data(const State& t) {
    const Position& s = t.state;
    py::dict d;
    d["format"] = kFormat;
    d["options"] = options_dict(s.game);
    d["seed"] = py::int_(s.seed);
    d["round"] = s.round;
    d["phase"] = kPhaseNames[static_cast<int>(s.phase)];
    d["stop_called_by"] = s.stop_called_by >= 0 ? py::object(py::int_(s.stop_called_by)) : py::object(py::none());
    d["actions"] = s.actions;
    py::list piles;
    for (int id = 0; id < s.pile_count; ++id) {
        const Pile& pile = s.piles[static_cast<std::size_t>(id)];
        py::dict p;
        p["suit"] = suit_letter(pile.suit);
        p["owners"] = std::vector<int>(pile.owners.begin(), pile.owners.begin() + pile.top);
        p["holder"] = pile.holder >= 0 ? py::object(py::int_(pile.holder)) : py::object(py::none());
        p["completed"] = pile.completed;
        piles.append(p);
    }
    d["piles"] = piles;
    py::list seats;
    for (int p = 0; p < s.players(); ++p) {
        const Seat& seat = s.seats[static_cast<std::size_t>(p)];
        py::dict v;
        v["stok"] = card_texts(seat.stok.data(), seat.stok_count);
        py::list rij;
        for (uint8_t card : seat.rij) rij.append(card_or_none(card == kNoCard ? -1 : card));
        v["rij"] = rij;
        v["waste"] = card_texts(seat.cycle.data(), seat.waste_count);
        v["draaistok"] = card_texts(seat.cycle.data() + seat.waste_count, seat.draaistok_count());
        v["passed"] = py::bool_((s.passed >> p) & 1u);
        seats.append(v);
    }
    d["seats"] = seats;
    d["scores"] = int_list(s.scores, s.players());
    py::list history;
    for (const Step& step : t.history) history.append(std::to_string(step.player) + ":" + format_move(step.move));
    d["history"] = history;
    return d;
}

int read_card(const Reader& r) {
    try {
        return parse_card(r.text());
    } catch (const NotationError& e) {
        r.fail(e.what());
    }
}

int read_cards(const Reader& r, uint8_t* out, int capacity) {
    if (r.size() > static_cast<std::size_t>(capacity)) r.fail("too many cards");
    for (std::size_t i = 0; i < r.size(); ++i) out[i] = static_cast<uint8_t>(read_card(r.at(i)));
    return static_cast<int>(r.size());
}

State from_data(const py::handle& data) {
    const Reader root(data, "");
    if (root.at("format").text() != kFormat) root.at("format").fail(std::string("expected '") + kFormat + "'");
    const Reader opts = root.at("options");
    if (!py::isinstance<py::dict>(opts.handle())) opts.fail("expected an object");
    State t;
    Position& s = t.state;
    try {
        s.game = config_from_kwargs(py::reinterpret_borrow<py::dict>(opts.handle()));
    } catch (const OptionError& e) {
        opts.fail(e.what());
    }
    const int n = s.players();
    s.seed = root.at("seed").seed();
    s.round = static_cast<uint8_t>(root.at("round").integer(0, kMaxRounds - 1));
    s.phase = static_cast<Phase>(root.at("phase").choice({"play", "after_stop", "game_over"}));
    const Reader stop = root.at("stop_called_by");
    s.stop_called_by = static_cast<int8_t>(stop.is_null() ? -1 : stop.integer(0, n - 1));
    s.actions = static_cast<uint32_t>(root.at("actions").integer(0, 100000000));
    const Reader piles = root.at("piles");
    if (piles.size() > static_cast<std::size_t>(kMaxPiles)) piles.fail("too many piles");
    s.pile_count = static_cast<uint8_t>(piles.size());
    s.wanted = 0;
    for (int suit = 0; suit < kSuits; ++suit) s.wanted |= card_bit(card_index(suit, 1));
    for (std::size_t i = 0; i < piles.size(); ++i) {
        const Reader p = piles.at(i);
        Pile& pile = s.piles[i];
        const std::string suit = p.at("suit").text();
        const char* found = suit.size() == 1 ? std::strchr(kSuitLetters, suit[0]) : nullptr;
        if (found == nullptr || suit[0] == '\0') p.at("suit").fail("expected a suit h, d, c or s");
        pile.suit = static_cast<uint8_t>(found - kSuitLetters);
        const Reader owners = p.at("owners");
        if (owners.size() < 1 || owners.size() > static_cast<std::size_t>(kRanks)) owners.fail("a pile holds 1..13 cards");
        pile.top = static_cast<uint8_t>(owners.size());
        for (std::size_t r = 0; r < owners.size(); ++r) pile.owners[r] = static_cast<uint8_t>(owners.at(r).integer(0, n - 1));
        const Reader holder = p.at("holder");
        pile.holder = static_cast<int8_t>(holder.is_null() ? -1 : holder.integer(0, n - 1));
        pile.completed = static_cast<uint8_t>(p.at("completed").integer(0, kMaxPiles));
        if (pile.holder >= 0) {
            ++s.herenhoop_count;
        } else if (pile.top < kRanks) {
            ++s.tops[static_cast<std::size_t>(card_index(pile.suit, pile.top))];
            s.wanted |= card_bit(card_index(pile.suit, pile.top + 1));
        }
    }
    const Reader seats = root.at("seats");
    if (seats.size() != static_cast<std::size_t>(n)) seats.fail("expected one entry per seat");
    for (int p = 0; p < n; ++p) {
        const Reader v = seats.at(static_cast<std::size_t>(p));
        Seat& seat = s.seats[static_cast<std::size_t>(p)];
        seat.stok_count = static_cast<uint8_t>(read_cards(v.at("stok"), seat.stok.data(), kStokCards));
        const Reader rij = v.at("rij");
        if (rij.size() != static_cast<std::size_t>(kRijSlots)) rij.fail("expected 4 slots");
        for (std::size_t i = 0; i < rij.size(); ++i) {
            seat.rij[i] = rij.at(i).is_null() ? kNoCard : static_cast<uint8_t>(read_card(rij.at(i)));
        }
        seat.waste_count = static_cast<uint8_t>(read_cards(v.at("waste"), seat.cycle.data(), kCycleCards));
        const int rest = read_cards(v.at("draaistok"), seat.cycle.data() + seat.waste_count, kCycleCards - seat.waste_count);
        seat.cycle_count = static_cast<uint8_t>(seat.waste_count + rest);
        for (int i = 0; i < seat.cycle_count; ++i) seat.cycle_mask |= card_bit(seat.cycle[static_cast<std::size_t>(i)]);
        if (v.at("passed").boolean()) s.passed = static_cast<uint8_t>(s.passed | (1u << p));
    }
    const Reader scores = root.at("scores");
    if (scores.size() != static_cast<std::size_t>(n)) scores.fail("expected one entry per seat");
    for (int p = 0; p < n; ++p) s.scores[static_cast<std::size_t>(p)] = static_cast<int32_t>(scores.at(static_cast<std::size_t>(p)).integer(-100000000, 100000000));
    const Reader history = root.at("history");
    for (std::size_t i = 0, size = history_size(history); i < size; ++i) {
        const std::string entry = history.at(i).text();
        const auto colon = entry.find(':');
        if (colon != 1 || entry[0] < '0' || entry[0] >= '0' + n) history.at(i).fail("expected 'seat:move' like '1:R2:7h>3'");
        try {
            t.history.push_back(Step{entry[0] - '0', parse_move(entry.substr(2))});
        } catch (const NotationError& e) {
            history.at(i).fail(e.what());
        }
    }
    const std::string problem = t.check();
    if (!problem.empty()) throw StateFormatError("state JSON describes an impossible state: " + problem);
    return t;
}

// ---- bots and simulation -----------------------------------------------------------------

realtime::Reaction reaction_from(const py::handle& value) {
    return bindings::reaction_from(value, default_reaction(), kReactionKindNames, kReactionKinds, "Duvelen");
}

/// A bot written in Python: anything with choose(state, player) -> move or None. It is
/// called with the GIL held (simulations with Python bots keep it).
class PythonBot : public Bot {
public:
    explicit PythonBot(py::object bot)
        : Bot(reaction_from(py::getattr(bot, "reaction", py::none()))), bot_(std::move(bot)) {}
    std::optional<Move> choose(const Position& state, int player, Pcg32&) const override {
        State view;
        view.state = state;
        const py::object move = bot_.attr("choose")(view, player);
        if (move.is_none()) return std::nullopt;
        return to_move(move);
    }

private:
    py::object bot_;
};

py::tuple run_tuple(const State& start, const Run& run) {
    State final;
    final.state = run.state;
    final.history = start.history;
    py::list log;
    for (const auto& step : run.log) {
        if (step.accepted) final.history.push_back(Step{step.player, step.move});
        log.append(py::make_tuple(step.time, step.player, step.move, step.accepted));
    }
    return py::make_tuple(final, log, run.accepted, run.rejected, run.time);
}


}  // namespace

void bind_duvelen(py::module_& m) {
    py::class_<Bot, std::shared_ptr<Bot>>(m, "DuvelenBot", "A Duvelen bot implemented in C++.")
        .def("choose", [](const Bot& bot, const State& t, const py::object& player, const py::object& seed) -> py::object {
            Pcg32 rng(to_seed(seed));
            const std::optional<Move> move = bot.choose(t.state, to_seat(player, t.state.players()), rng);
            return move ? py::cast(*move) : py::none();
        }, py::arg("state"), py::arg("player"), py::arg("seed") = 0,
           "The move this bot makes for ``player`` now, or None to wait for the table to change.");
    py::class_<RandomBot, Bot, std::shared_ptr<RandomBot>>(m, "DuvelenRandomBot", R"doc(
Plays any legal move, uniformly at random (the seed of the run decides which).

>>> from diabolo.duvelen import RandomBot
>>> RandomBot().name
'random'
)doc")
        .def(py::init([](const py::object& reaction) { return std::make_shared<RandomBot>(reaction_from(reaction)); }),
             py::arg("reaction") = py::none())
        .def_property_readonly("name", [](const RandomBot&) { return "random"; }, "``'random'``.");
    py::class_<GreedyBot, Bot, std::shared_ptr<GreedyBot>>(m, "DuvelenGreedyBot", R"doc(
Calls Stop as soon as it may; otherwise plays whenever it can (its Stok first, then its
Rij, then its waste), else turns or recycles. After Stop it plays or passes, then waits.

>>> import diabolo
>>> from diabolo.duvelen import GreedyBot
>>> state = diabolo.load("duvelen", players=2).new_state(seed=1)
>>> str(GreedyBot().choose(state, 0)) in {str(m) for m in state.legal_moves(0)}
True
)doc")
        .def(py::init([](const py::object& reaction) { return std::make_shared<GreedyBot>(reaction_from(reaction)); }),
             py::arg("reaction") = py::none())
        .def_property_readonly("name", [](const GreedyBot&) { return "greedy"; }, "``'greedy'``.");
    py::class_<LookaheadBot, Bot, std::shared_ptr<LookaheadBot>>(m, "DuvelenLookaheadBot", R"doc(
Calls Stop when it can, and otherwise picks the play after which its round score (D5)
plus the number of plays it then has is highest: one move of look-ahead. So it empties
its Stok and Rij first, completes Herenhoops and keeps its chains going. With no play it
turns, recycles or passes like GreedyBot.

>>> import diabolo
>>> from diabolo.duvelen import LookaheadBot
>>> state = diabolo.load("duvelen", players=2).new_state(seed=1)
>>> LookaheadBot().name
'lookahead'
)doc")
        .def(py::init([](const py::object& reaction) { return std::make_shared<LookaheadBot>(reaction_from(reaction)); }),
             py::arg("reaction") = py::none())
        .def_property_readonly("name", [](const LookaheadBot&) { return "lookahead"; }, "``'lookahead'``.");

    m.def("duvelen_simulate", [](const State& start, const py::sequence& bots, const py::object& seed, double max_time,
                                 const py::object& max_events) {
        const realtime::Limits limits = limits_from(max_time, max_events);
        std::vector<std::shared_ptr<Bot>> owned;
        bool all_native = true;
        for (auto bot : bots) {
            if (py::isinstance<Bot>(bot)) {
                owned.push_back(cpp_bot<Bot>(bot));
            } else {
                if (!py::hasattr(bot, "choose")) throw OptionError("a bot needs a choose(state, player) method");
                owned.push_back(std::make_shared<PythonBot>(py::reinterpret_borrow<py::object>(bot)));
                all_native = false;
            }
        }
        std::vector<const Bot*> seats;
        for (const auto& bot : owned) seats.push_back(bot.get());
        const uint64_t s = to_seed(seed);
        Run run;
        if (all_native) {
            py::gil_scoped_release release;
            run = simulate(start.state, seats, s, limits);
        } else {
            run = simulate(start.state, seats, s, limits);
        }
        return run_tuple(start, run);
    });

    m.def("duvelen_simulate_many", [](const Game& c, const py::sequence& bots, const py::object& games,
                                      const py::object& seed, const py::object& threads, double max_time,
                                      const py::object& max_events) {
        const realtime::Limits limits = limits_from(max_time, max_events);
        std::vector<std::shared_ptr<Bot>> owned;
        for (auto bot : bots) {
            if (!py::isinstance<Bot>(bot)) throw OptionError("simulate_many runs C++ bots only; use simulate for Python bots");
            owned.push_back(cpp_bot<Bot>(bot));
        }
        std::vector<const Bot*> seats;
        for (const auto& bot : owned) seats.push_back(bot.get());
        const Batch batch = batch_args(games, seed, threads);
        SimulationBatch result;
        SignalCheck signals;
        {
            py::gil_scoped_release release;
            result = simulate_many(c, seats, batch.games, batch.seed, batch.threads, limits, signals.interrupt());
        }
        signals.raise_if_interrupted();
        return batch_dict(result, batch.games, c.players);
    });

    py::class_<Move> move_class(m, "DuvelenMove", R"doc(
A move of Duvelen: frozen, hashable, ``str()`` is its notation (D7).

A play names its source, card and target pile (``'R2:7h>3'``), so a play sent before
the table changed can never play another card (D3.10). The short form ``'R2>3'`` and
the action ids name only the source and the pile: the card is whatever lies there
when the move is applied.

>>> from diabolo.duvelen import DuvelenMove
>>> move = DuvelenMove.parse("R2:7h>3")
>>> move.kind, move.source, move.card, move.target, move.action
('play', 'R2', '7h', 3, 69)
>>> str(DuvelenMove.from_action(69)), str(DuvelenMove.parse("S:Ah>new"))
('R2>3', 'S:Ah>new')
)doc");
    move_class
        .def_static("parse", [](const py::object& text) { return parse_move(utf8_text<NotationError>(text, "notation")); }, py::arg("text"),
                    "The move written as ``text`` (D7); raises NotationError.\n\n>>> DuvelenMove.parse('recycle^').kind\n'recycle^'")
        .def_static("from_action", [](const py::object& action) { return Move::of_action(to_action(action, kNumActions)); },
                    py::arg("action"), "The (short-form) move of an action id 0..202.\n\n>>> str(DuvelenMove.from_action(198))\n'turn'")
        .def_property_readonly("action", &Move::action, "The stable, positional action id (0..202).")
        .def_property_readonly("kind", [](const Move& mv) { return kMoveKinds[static_cast<int>(mv.kind)]; },
                               "``'play'``, ``'turn'``, ``'recycle'``, ``'recycle^'``, ``'stop'`` or ``'pass'``.")
        .def_property_readonly("source", [](const Move& mv) -> py::object {
            if (mv.kind != MoveKind::Play) return py::none();
            return py::str(kSourceNames[static_cast<int>(mv.source)]);
        }, "``'S'``, ``'R1'``..``'R4'`` or ``'W'`` for a play, else None.")
        .def_property_readonly("card", [](const Move& mv) -> py::object {
            return mv.kind == MoveKind::Play && mv.card != kNoCard ? py::object(py::str(format_card(mv.card))) : py::object(py::none());
        }, "The card a play names (``'7h'``), or None (short form, or not a play).")
        .def_property_readonly("target", [](const Move& mv) -> py::object {
            if (mv.kind != MoveKind::Play) return py::none();
            return mv.target == 0 ? py::object(py::str("new")) : py::object(py::int_(mv.target));
        }, "The pile number a play goes to, ``'new'`` for an Ace, or None.")
        ;
    bind_move_values(move_class, "DuvelenMove", &format_move, &parse_move);

    py::class_<State> state_class(m, "DuvelenState", R"doc(
A position of Duvelen, with the moves that led to it.

There are no turns (D3): ``current_player`` is ``diabolo.SIMULTANEOUS`` until the game is
over, every query names its player, and ``apply(move, player=p)`` applies moves in the
order they arrive. A play that lost a race raises IllegalMoveError and changes nothing.

>>> import diabolo
>>> state = diabolo.load("duvelen", players=2).new_state(seed=3)
>>> state.current_player == diabolo.SIMULTANEOUS
True
>>> state.apply("turn", player=0)
>>> state.observation(1)["seats"][0]["waste_count"]
3
)doc");
    state_class
        .def_property_readonly("game", [](const State& t) { return t.state.game; }, "The game (rules and options) of this state.")
        .def_property_readonly("current_player", [](const State& t) { return t.state.current_player(); },
                               "``diabolo.SIMULTANEOUS`` while a round is played, ``diabolo.TERMINAL`` at game over.")
        .def_property_readonly("phase", [](const State& t) { return kPhaseNames[static_cast<int>(t.state.phase)]; },
                               "``'play'``, ``'after_stop'`` or ``'game_over'`` (D8.3).")
        .def_property_readonly("round", [](const State& t) { return t.state.round; }, "The round, from 0 (D1.3).")
        .def_property_readonly("is_terminal", [](const State& t) { return t.state.is_terminal(); }, "True once the game is over.")
        .def_property_readonly("scores", [](const State& t) {
            return std::vector<int>(t.state.scores.begin(), t.state.scores.begin() + t.state.players());
        }, "Totals of the finished rounds per seat (D5).")
        .def_property_readonly("round_scores", [](const State& t) {
            const auto points = round_scores(t.state);
            return std::vector<int>(points.begin(), points.begin() + t.state.players());
        }, "The current round scored as if it ended now (D5); at game over, the last round's.")
        .def("returns", [](const State& t) {
            return std::vector<double>(t.state.scores.begin(), t.state.scores.begin() + t.state.players());
        }, "Totals of the finished rounds per seat as floats.")
        .def_property_readonly("winners", [](const State& t) { return winners(t.state); },
                               "Seats with the highest total; ties share the win.")
        .def_property_readonly("history", [](const State& t) {
            py::list out;
            for (const Step& step : t.history) out.append(py::make_tuple(step.player, step.move));
            return out;
        }, "Every move so far as ``(seat, move)`` pairs in arrival order, plays in long form.")
        .def("legal_moves", [](const State& t, const py::object& player) {
            return legal_moves(t.state, query_player(t.state, player));
        }, py::arg("player") = py::none(), "Legal moves of ``player`` now, in the canonical order of the rules page "
           "(``player`` is required: Duvelen has no player to move).")
        .def("legal_actions", [](const State& t, const py::object& player) {
            std::vector<int> actions;
            for (const Move& move : legal_moves(t.state, query_player(t.state, player))) actions.push_back(move.action());
            return actions;
        }, py::arg("player") = py::none(), "Legal action ids of ``player`` (the positional ids of :meth:`legal_moves`).")
        .def("legal_action_mask", [](const State& t, const py::object& player) {
            py::array_t<bool> mask(kNumActions);
            bool* data = mask.mutable_data();
            std::fill(data, data + kNumActions, false);
            for (const Move& move : legal_moves(t.state, query_player(t.state, player))) data[move.action()] = true;
            return mask;
        }, py::arg("player") = py::none(), "A numpy bool array of length ``num_actions``, True at legal action ids.")
        .def("apply", [](State& t, const py::object& move, const py::object& player) {
            t.apply(to_move(move), query_player(t.state, player));
        }, py::arg("move"), py::arg("player") = py::none(),
           "Applies ``player``'s move (a DuvelenMove, an action id or notation) in arrival order. Raises "
           "IllegalMoveError naming the clause, and changes nothing, if it is not legal now (for instance "
           "because it lost a race, D3.10).")
        .def("observation", [](const State& t, const py::object& player) {
            return observation(t.state, to_seat(player, t.state.players()));
        }, py::arg("player"), "What ``player`` may know, as a JSON-ready dict with the keys of D8.3 (see the rules page).")
        .def("observation_tensor", [](const State& t, const py::object& player) {
            const int p = to_seat(player, t.state.players());
            py::array_t<float> out(observation_tensor_size(t.state.game));
            observation_tensor(t.state, p, out.mutable_data());
            return out;
        }, py::arg("player"), "What ``player`` may know as a float32 numpy array of ``game.observation_tensor_shape``.")
        .def("resample", [](const State& t, const py::object& player, const py::object& seed) {
            to_seat(player, t.state.players());
            return t.resample(to_seed(seed));
        }, py::arg("player"), py::arg("seed"),
           "Determinisation (D8.2): every seat's face-down cards reshuffled among that seat's hidden places. "
           "Nobody knows the order of face-down cards, so the result is the same for every ``player``.")
        .def("__str__", [](const State& t) { return render(t.state); })
        .def("__repr__", [](const State& t) {
            return "<DuvelenState round " + std::to_string(t.state.round) + " " + kPhaseNames[static_cast<int>(t.state.phase)] + ">";
        })
        ;
    bind_state_values(state_class, [](const State& t) { return dump_json(to_data(t)); },
                      [](const std::string& text) { return from_data(load_json(text)); });

    py::class_<Game> game_class(m, "DuvelenGame", R"doc(
Duvelen with its rule options. Get one with ``diabolo.load("duvelen", ...)``.

Options (all keyword, validated, OptionError when wrong):

- ``players``: 2-8 (D1.2).
- ``rounds``: rounds in the game, default 1 (D1.3).
- ``on_block``: ``'rotate_stok'`` (default) or ``'end_round'`` (D4.5).
- ``max_actions``: actions per round before it is cut off and scored, default 100,000 (D4.5).

>>> import diabolo
>>> game = diabolo.load("duvelen", players=3)
>>> game.num_actions, game.on_block
(203, 'rotate_stok')
)doc");
    game_class
        .def(py::init([](const py::kwargs& kwargs) { return config_from_kwargs(kwargs); }))
        .def_property_readonly("name", [](const Game&) { return "duvelen"; }, "The game's id: ``'duvelen'``.")
        .def_property_readonly("players", [](const Game& c) { return c.players; }, "Number of seats.")
        .def_property_readonly("rounds", [](const Game& c) { return c.rounds; }, "Rounds in a game (D1.3).")
        .def_property_readonly("on_block", [](const Game& c) { return kBlockNames[static_cast<int>(c.on_block)]; }, "What a block does (D4.5).")
        .def_property_readonly("max_actions", [](const Game& c) { return c.max_actions; }, "The action cap of a round (D4.5).")
        .def_property_readonly("options", &options_dict, "Every option with its value.")
        .def_property_readonly("num_actions", [](const Game&) { return kNumActions; }, "Number of action ids: 203.")
        .def_property_readonly("observation_tensor_shape", [](const Game& c) { return py::make_tuple(observation_tensor_size(c)); },
                               "Shape of :meth:`DuvelenState.observation_tensor`.")
        .def("new_state", [](const Game& c, const py::object& seed, const py::object& decks) {
            if (decks.is_none()) return State::start(c, to_seed(seed));
            const std::vector<Deck> given = decks_from(decks, c.players);
            return State::start(c, to_seed(seed), &given);
        }, py::arg("seed") = 0, py::arg("decks") = py::none(),
           "A new game. Round 0 is dealt from ``decks`` (one list of 52 cards per seat, D2.5) if given; "
           "every other round is shuffled from ``seed``.\n\n>>> diabolo.load('duvelen').new_state(seed=1).phase\n'play'")
        .def("state_from_json", [](const Game& c, const py::object& text) {
            State t = from_data(load_json(utf8_text<StateFormatError>(text, "state JSON")));
            if (!(t.state.game == c)) throw StateFormatError("state JSON: its options differ from this game's");
            return t;
        }, py::arg("text"), "The state written by :meth:`DuvelenState.to_json`; StateFormatError if it is not a valid state.")
        .def("__repr__", [](const Game& c) {
            return "diabolo.load('duvelen', players=" + std::to_string(c.players) + ", rounds=" + std::to_string(c.rounds) +
                   ", on_block='" + kBlockNames[static_cast<int>(c.on_block)] + "', max_actions=" + std::to_string(c.max_actions) + ")";
        })
        .def("move", [](const Game&, const py::object& move) { return to_move(move); }, py::arg("move"),
             "The DuvelenMove for notation text or an action id.\n\n>>> str(diabolo.load('duvelen').move(201))\n'stop'")
        .def("play_random", [](const Game& c, const py::object& games, const py::object& seed, const py::object& threads) {
            return random_play(c, games, seed, threads, &play_random_games);
        }, py::arg("games"), py::arg("seed") = 0, py::arg("threads") = 1,
           "Plays ``games`` whole games in C++ without the GIL: at each step a random seat with legal moves "
           "makes a uniformly random one (no timing; see diabolo.realtime for that). Returns numpy arrays "
           "``scores`` (games x players) and ``moves``; game i depends only on (seed, i).\n\n"
           ">>> diabolo.load('duvelen', players=2).play_random(3, seed=1)['scores'].shape\n(3, 2)")
        ;
    bind_game_values(game_class, &options_dict, &config_from_kwargs);

}

}  // namespace diabolo::bindings
