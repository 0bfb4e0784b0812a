// Python bindings of the lexicon and of Diabolo (Knizia): the word finder, KniziaGame,
// KniziaState, KniziaMove and the bots. Only conversion lives here; the rules are in
// cpp/src/knizia/ and cpp/src/knizia/lexicon.cpp.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "common.hpp"
#include "diabolo/knizia/knizia.hpp"
#include "diabolo/knizia/lexicon.hpp"

namespace diabolo::bindings {

using namespace diabolo::knizia;

namespace {

std::vector<Card> table_from(const py::handle& value) {
    if (!py::isinstance<py::sequence>(value) || PyUnicode_Check(value.ptr())) {
        throw NotationError("a table is a list of cards like ['O', 'ST', '?'] (K8)");
    }
    std::vector<Card> table;
    for (auto card : py::reinterpret_borrow<py::sequence>(value))
        table.push_back(parse_card(utf8_text<NotationError>(card, "a card")));
    if (table.size() > static_cast<std::size_t>(kMaxTable)) {
        throw NotationError("a table holds at most " + std::to_string(kMaxTable) + " cards, got " +
                            std::to_string(table.size()));
    }
    return table;
}

int min_cards_from(const py::handle& value) {
    const int n = to_int(value, "min_cards");
    if (n < 1 || n > kMaxWord)
        throw OptionError("min_cards must be 1.." + std::to_string(kMaxWord) + " (K3.3), got " + std::to_string(n));
    return static_cast<int>(n);
}

// ---- the game -----------------------------------------------------------------------------

constexpr const char* kFormat = "diabolo.knizia/1";
constexpr const char* kPhaseNames[] = {"play", "penalty", "game_over"};
constexpr const char* kMoveKinds[] = {"reveal", "pass", "take", "claim"};
constexpr const char* kVariantNames[] = {"standard", "victory_tiles"};
constexpr const char* kStaleNames[] = {"penalty", "reject"};

/// A game: the rule options with the lexicon and where it came from. No Python objects,
/// so states that share it may be copied without the GIL.
Options smallest_options() {
    Options o;
    o.players = kMinPlayers;
    o.deck.kinds = {Card{}};
    o.deck.counts = {1};
    return o;
}

struct Game {
    // The default value is a valid game (one card, no words), so a KState is one too.
    Config config = Config::from_options(smallest_options());
    std::shared_ptr<const Lexicon> lexicon = std::make_shared<const Lexicon>();
    std::string lexicon_source;
    std::string lexicon_language;  // empty unless the lexicon was loaded by language
    std::string deck_language;
};

/// A state of the Python API: the record, and the game that keeps its lexicon alive.
struct KState {
    std::shared_ptr<const Game> game = std::make_shared<const Game>();
    State table = State::start(game->config, *game->lexicon, 0);
    const Position& state() const noexcept { return table.state; }
};

py::object python_lexicon(const Game& g) {
    const py::object cls = py::module_::import("diabolo.lexicon").attr("Lexicon");
    py::object lexicon = cls(std::const_pointer_cast<Lexicon>(g.lexicon), g.lexicon_source);
    if (!g.lexicon_language.empty()) lexicon.attr("language") = g.lexicon_language;
    return lexicon;
}

py::dict deck_cards(const Config& c) {
    py::dict cards;
    for (int k = 0; k < c.kind_count; ++k)
        cards[py::str(format_card(c.card(k)))] = c.counts[static_cast<std::size_t>(k)];
    return cards;
}

py::object python_deck(const Game& g) {
    return py::module_::import("diabolo.knizia").attr("Deck")(deck_cards(g.config), g.deck_language);
}

py::dict options_dict(const Game& g) {
    py::dict d;
    d["players"] = g.config.players;
    d["rounds"] =
        g.config.variant == Variant::Standard ? py::object(py::int_(g.config.rounds)) : py::object(py::none());
    d["min_cards"] = g.config.min_cards;
    d["variant"] = kVariantNames[static_cast<int>(g.config.variant)];
    d["handicap"] = g.config.handicap;
    d["stale_calls"] = kStaleNames[static_cast<int>(g.config.stale_calls)];
    d["lexicon"] = python_lexicon(g);
    d["deck"] = python_deck(g);
    return d;
}

template <class Enum, std::size_t N>
Enum enum_option(const py::handle& value, const char* name, const char* const (&names)[N], const char* clause) {
    const std::string text = PyUnicode_Check(value.ptr()) ? utf8_text<OptionError>(value, name) : "";
    for (std::size_t i = 0; i < N; ++i) {
        if (text == names[i]) return static_cast<Enum>(i);
    }
    std::string allowed;
    for (std::size_t i = 0; i < N; ++i) allowed += std::string(i ? ", " : "") + "'" + names[i] + "'";
    throw OptionError(std::string(name) + " must be one of " + allowed + " (" + clause + "), got " +
                      py::repr(value).cast<std::string>());
}

/// The compiled lexicon of a diabolo.Lexicon; OptionError if it holds none (made
/// without __init__).
std::shared_ptr<const Lexicon> lexicon_core(const py::handle& lexicon) {
    try {
        return lexicon.attr("_core").cast<std::shared_ptr<Lexicon>>();
    } catch (const py::error_already_set&) {
    } catch (const py::cast_error&) {
    }
    throw OptionError(
        "this diabolo.Lexicon holds no words (it was made without Lexicon.load, from_file, from_words or from_bytes)");
}

/// The lexicon option: a diabolo.Lexicon, or a language code to load.
void read_lexicon(const py::handle& value, Game& g) {
    py::object lexicon = py::reinterpret_borrow<py::object>(value);
    const py::object cls = py::module_::import("diabolo.lexicon").attr("Lexicon");
    if (PyUnicode_Check(value.ptr())) lexicon = cls.attr("load")(value);
    if (!py::isinstance(lexicon, cls)) {
        throw OptionError("lexicon must be a diabolo.Lexicon or a language code like 'de' (K1.4), got " +
                          py::repr(value).cast<std::string>());
    }
    g.lexicon = lexicon_core(lexicon);
    g.lexicon_source = py::str(lexicon.attr("source"));
    const py::object language = py::getattr(lexicon, "language", py::none());
    g.lexicon_language = language.is_none() ? "" : utf8_text<OptionError>(language, "a lexicon's language");
}

/// The deck option: a diabolo.knizia.Deck, a language code, or a mapping of counts.
DeckSpec read_deck(const py::handle& value, Game& g) {
    const py::object cls = py::module_::import("diabolo.knizia").attr("Deck");
    py::object deck = py::reinterpret_borrow<py::object>(value);
    if (PyUnicode_Check(value.ptr())) deck = cls.attr("load")(value);
    else if (py::isinstance<py::dict>(value)) deck = cls(value);
    if (!py::isinstance(deck, cls)) {
        throw OptionError(
            "deck must be a diabolo.knizia.Deck, a language code like 'de' or a dict of card counts (K10.7), got " +
            py::repr(value).cast<std::string>());
    }
    g.deck_language = utf8_text<OptionError>(deck.attr("language"), "a deck's language");
    DeckSpec spec;
    for (auto item : py::reinterpret_borrow<py::dict>(py::dict(deck.attr("cards")))) {
        try {
            spec.kinds.push_back(parse_card(utf8_text<OptionError>(item.first, "a deck's card")));
        } catch (const NotationError& e) {
            throw OptionError(std::string("deck: ") + e.what());
        }
        spec.counts.push_back(to_int(item.second, "the count of a deck's card"));
    }
    return spec;
}

Game game_from_kwargs(const py::dict& kwargs) {
    Options o;
    Game g;
    py::object lexicon = py::str("de"), deck = py::none();
    for (auto item : kwargs) {
        const std::string key = utf8_text<OptionError>(item.first, "an option name");
        const py::handle value = item.second;
        if (key == "players") o.players = to_int(value, "players");
        else if (key == "rounds") o.rounds = value.is_none() ? 0 : to_int(value, "rounds");
        else if (key == "min_cards") o.min_cards = to_int(value, "min_cards");
        else if (key == "handicap") o.handicap = to_int(value, "handicap");
        else if (key == "variant") o.variant = enum_option<Variant>(value, "variant", kVariantNames, "K4.3");
        else if (key == "stale_calls")
            o.stale_calls = enum_option<StaleCalls>(value, "stale_calls", kStaleNames, "K10.3");
        else if (key == "lexicon") lexicon = py::reinterpret_borrow<py::object>(value);
        else if (key == "deck") deck = py::reinterpret_borrow<py::object>(value);
        else {
            throw OptionError("unknown option '" + key +
                              "' for knizia; the options are players, rounds, min_cards, variant, "
                              "handicap, stale_calls, lexicon, deck");
        }
    }
    if (o.rounds == 0 && kwargs.contains("rounds") && !kwargs["rounds"].is_none())
        throw OptionError("rounds must be 1..64 (K4.2), got 0");
    if (o.variant == Variant::VictoryTiles && o.rounds != 0) {
        throw OptionError("the victory_tiles variant plays until a seat has 2 tiles (K4.3): leave rounds out");
    }
    read_lexicon(lexicon, g);
    if (deck.is_none()) deck = py::str(g.lexicon_language.empty() ? "de" : g.lexicon_language);
    o.deck = read_deck(deck, g);
    g.config = Config::from_options(o);
    return g;
}

bool same_game(const Game& a, const Game& b) {
    if (!(a.config == b.config) || a.deck_language != b.deck_language) return false;
    return a.lexicon == b.lexicon || a.lexicon->fingerprint() == b.lexicon->fingerprint();
}

Move to_move(const py::handle& value, const Lexicon& lexicon) {
    const auto of_action = [&] {
        const int n = kFirstClaimAction + static_cast<int>(std::min<std::size_t>(lexicon.size(), 1u << 30));
        return move_of_action(to_action(value, n), lexicon);
    };
    if (PyLong_Check(value.ptr()) && !PyBool_Check(value.ptr())) return of_action();
    if (PyUnicode_Check(value.ptr())) return parse_move(utf8_text<NotationError>(value, "a move"));
    if (py::isinstance<Move>(value)) return value.cast<Move>();
    if (as_integer(value)) return of_action();  // numpy integers
    throw NotationError("a Knizia move is a KniziaMove, an action id or notation text like 'LAGER' or 'take@2', got " +
                        py::repr(value).cast<std::string>());
}

/// The player a query is about. The game is played simultaneously (K3.2): name one.
int query_player(const Position& s, const py::object& player) {
    if (player.is_none()) throw PlayerError("Diabolo (Knizia) is played simultaneously (K3.2): name the player");
    return to_seat(player, s.players());
}

Deal deal_from(const py::handle& value, const Config& c, const std::string& what) {
    if (!py::isinstance<py::sequence>(value) || PyUnicode_Check(value.ptr())) {
        throw StateFormatError(what + " must be a list of the deck's " + std::to_string(c.deck_size) +
                               " cards in reveal order (K10.7)");
    }
    Deal deal;
    for (auto card : py::reinterpret_borrow<py::sequence>(value)) {
        Card parsed;
        try {
            parsed = parse_card(utf8_text<StateFormatError>(card, what));
        } catch (const NotationError& e) {
            throw StateFormatError(what + ": " + e.what());
        }
        const int kind = c.kind_of(parsed);
        if (kind < 0) throw StateFormatError(what + ": the deck has no card '" + format_card(parsed) + "' (K10.7)");
        deal.push_back(static_cast<uint8_t>(kind));
        if (deal.size() > static_cast<std::size_t>(kMaxDeck)) break;
    }
    try {
        check_deal(c, deal);
    } catch (const StateFormatError& e) {
        throw StateFormatError(what + ": " + e.what());
    }
    return deal;
}

py::list card_list(const Config& c, const uint8_t* kinds, int count) {
    py::list out;
    for (int i = 0; i < count; ++i) out.append(format_card(c.card(kinds[i])));
    return out;
}

py::object last_call_dict(const Position& s) {
    if (s.last_call.seat < 0) return py::none();
    py::dict d;
    d["seat"] = s.last_call.seat;
    d["word"] = std::string(s.last_call.text());
    d["valid"] = s.last_call.valid;
    d["reason"] = s.last_call.valid ? py::object(py::none()) : py::object(py::str(reason_text(s.last_call.reason)));
    return d;
}

template <class T>
py::list seat_values(const std::array<T, kMaxPlayers>& values, int players) {
    py::list out;
    for (int p = 0; p < players; ++p) out.append(values[static_cast<std::size_t>(p)]);
    return out;
}

py::list passed_list(const Position& s) {
    py::list out;
    for (int p = 0; p < s.players(); ++p) out.append(py::bool_((s.passed >> p) & 1u));
    return out;
}

py::list penalty_list(const Position& s) {
    py::list out;
    for (int i = 0; i < s.penalty_count; ++i) out.append(s.penalty[static_cast<std::size_t>(i)]);
    return out;
}

// ---- observation (K8, K10.6) ------------------------------------------------------------------

py::dict observation(const Position& s, int player) {
    py::dict d;
    d["player"] = player;
    d["round"] = s.round;
    d["rounds"] =
        s.config.variant == Variant::Standard ? py::object(py::int_(s.config.rounds)) : py::object(py::none());
    d["dealer"] = s.dealer();
    d["phase"] = kPhaseNames[static_cast<int>(s.phase)];
    d["table"] = card_list(s.config, s.table.data(), s.table_count);
    d["deck_count"] = s.deck_count();
    d["piles"] = seat_values(s.pile, s.players());
    d["scores"] = seat_values(s.scores, s.players());
    d["last_call"] = last_call_dict(s);
    d["penalty"] = penalty_list(s);
    d["passed"] = passed_list(s);
    py::list legal;
    for (const Move& move : legal_moves(s, player)) legal.append(format_move(move));
    d["legal"] = legal;
    return d;
}

// ---- JSON --------------------------------------------------------------------------------------

py::dict options_data(const Game& g) {
    py::dict d = options_dict(g);
    py::dict lexicon;
    lexicon["language"] = g.lexicon_language.empty() ? py::object(py::none()) : py::object(py::str(g.lexicon_language));
    lexicon["words"] = g.lexicon->size();
    char fingerprint[17];
    std::snprintf(fingerprint, sizeof fingerprint, "%016llx",
                  static_cast<unsigned long long>(g.lexicon->fingerprint()));
    lexicon["fingerprint"] = std::string(fingerprint);
    d["lexicon"] = lexicon;
    py::dict deck;
    deck["language"] = g.deck_language;
    deck["cards"] = deck_cards(g.config);
    d["deck"] = deck;
    return d;
}

py::dict to_data(const KState& k) {
    const Position& s = k.state();
    const Config& c = s.config;
    py::dict d;
    d["format"] = kFormat;
    d["options"] = options_data(*k.game);
    d["seed"] = py::int_(s.seed);
    d["round"] = s.round;
    d["phase"] = kPhaseNames[static_cast<int>(s.phase)];
    d["deck"] = card_list(c, s.deck.data() + s.deck_next, s.deck_count());
    d["table"] = card_list(c, s.table.data(), s.table_count);
    py::list piles;
    for (int p = 0; p < s.players(); ++p) {
        py::dict pile;
        for (const char* part : {"taken", "drawn"}) {
            const auto& counts = std::string(part) == "taken" ? s.taken[static_cast<std::size_t>(p)]
                                                              : s.drawn[static_cast<std::size_t>(p)];
            py::list cards;
            for (int kind = 0; kind < c.kind_count; ++kind) {
                for (int i = 0; i < counts[static_cast<std::size_t>(kind)]; ++i)
                    cards.append(format_card(c.card(kind)));
            }
            pile[part] = cards;
        }
        piles.append(pile);
    }
    d["piles"] = piles;
    d["passed"] = passed_list(s);
    d["penalty"] = penalty_list(s);
    d["last_call"] = last_call_dict(s);
    d["scores"] = seat_values(s.scores, s.players());
    py::list deals;
    for (const Deal& deal : k.table.deals) {
        deals.append(deal.empty() ? py::object(py::none())
                                  : py::object(card_list(c, deal.data(), static_cast<int>(deal.size()))));
    }
    d["deals"] = deals;
    py::list history;
    for (const Step& step : k.table.history) history.append(std::to_string(step.player) + ":" + format_move(step.move));
    d["history"] = history;
    return d;
}

uint8_t read_kind(const Reader& r, const Config& c) {
    Card card;
    try {
        card = parse_card(r.text());
    } catch (const NotationError& e) {
        r.fail(e.what());
    }
    const int kind = c.kind_of(card);
    if (kind < 0) r.fail("the deck has no card '" + format_card(card) + "'");
    return static_cast<uint8_t>(kind);
}

/// Reads the state of `data` for game `g` (whose options it must carry).
KState from_data(const py::handle& data, const std::shared_ptr<const Game>& g) {
    const Reader root(data, "");
    if (root.at("format").text() != kFormat) root.at("format").fail(std::string("expected '") + kFormat + "'");
    const py::object mine = py::module_::import("json").attr("loads")(dump_json(options_data(*g)));
    if (!root.at("options").handle().equal(mine)) root.at("options").fail("its options differ from this game's");
    KState k;
    k.game = g;
    Position& s = k.table.state;
    const Config& c = g->config;
    s.config = c;
    s.lexicon = g->lexicon.get();
    const int n = c.players;
    s.seed = root.at("seed").seed();
    s.round = static_cast<uint8_t>(root.at("round").integer(0, kMaxRounds - 1));
    s.phase = static_cast<Phase>(root.at("phase").choice({"play", "penalty", "game_over"}));
    const Reader deck = root.at("deck");
    if (deck.size() > c.deck_size) deck.fail("more cards than the deck has");
    s.deck_next = static_cast<uint8_t>(c.deck_size - deck.size());
    for (std::size_t i = 0; i < deck.size(); ++i) s.deck[s.deck_next + i] = read_kind(deck.at(i), c);
    const Reader table = root.at("table");
    if (table.size() > c.deck_size) table.fail("more cards than the deck has");
    s.table_count = static_cast<uint8_t>(table.size());
    for (std::size_t i = 0; i < table.size(); ++i) s.table[i] = read_kind(table.at(i), c);
    const Reader piles = root.at("piles");
    if (piles.size() != static_cast<std::size_t>(n)) piles.fail("expected one entry per seat");
    for (int p = 0; p < n; ++p) {
        const Reader pile = piles.at(static_cast<std::size_t>(p));
        for (const char* part : {"taken", "drawn"}) {
            const Reader cards = pile.at(part);
            if (cards.size() > c.deck_size) cards.fail("more cards than the deck has");
            auto& counts = std::string(part) == "taken" ? s.taken[static_cast<std::size_t>(p)]
                                                        : s.drawn[static_cast<std::size_t>(p)];
            for (std::size_t i = 0; i < cards.size(); ++i) {
                ++counts[read_kind(cards.at(i), c)];
                ++s.pile[static_cast<std::size_t>(p)];
            }
        }
    }
    const Reader passed = root.at("passed");
    if (passed.size() != static_cast<std::size_t>(n)) passed.fail("expected one entry per seat");
    for (int p = 0; p < n; ++p) {
        if (passed.at(static_cast<std::size_t>(p)).boolean()) s.passed = static_cast<uint8_t>(s.passed | (1u << p));
    }
    const Reader penalty = root.at("penalty");
    if (penalty.size() >= static_cast<std::size_t>(n)) penalty.fail("at most one entry per other seat");
    s.penalty_count = static_cast<uint8_t>(penalty.size());
    for (std::size_t i = 0; i < penalty.size(); ++i)
        s.penalty[i] = static_cast<uint8_t>(penalty.at(i).integer(0, n - 1));
    const Reader call = root.at("last_call");
    if (!call.is_null()) {
        s.last_call.seat = static_cast<int8_t>(call.at("seat").integer(0, n - 1));
        s.last_call.valid = call.at("valid").boolean();
        Move word;
        try {
            word = Move::claim(call.at("word").text());
        } catch (const NotationError& e) {
            call.at("word").fail(e.what());
        }
        s.last_call.length = word.length;
        s.last_call.word = word.letters;
        const Reader reason = call.at("reason");
        if (s.last_call.valid) {
            if (!reason.is_null()) reason.fail("a valid call has no reason");
        } else {
            const std::string text = reason.text();
            for (int r = 1; r <= 4; ++r) {
                if (text == reason_text(static_cast<Reason>(r))) s.last_call.reason = static_cast<Reason>(r);
            }
            if (s.last_call.reason == Reason::None) reason.fail("expected one of the reasons of K10.8");
        }
    }
    const Reader scores = root.at("scores");
    if (scores.size() != static_cast<std::size_t>(n)) scores.fail("expected one entry per seat");
    for (int p = 0; p < n; ++p)
        s.scores[static_cast<std::size_t>(p)] =
            static_cast<int32_t>(scores.at(static_cast<std::size_t>(p)).integer(0, 100000));
    const Reader deals = root.at("deals");
    if (deals.size() > static_cast<std::size_t>(kMaxRounds)) deals.fail("too many deals");
    for (std::size_t r = 0; r < deals.size(); ++r) {
        const Reader deal = deals.at(r);
        if (deal.is_null()) {
            k.table.deals.emplace_back();  // shuffled from the seed
            continue;
        }
        if (deal.size() != c.deck_size) deal.fail("a deal holds every card of the deck once");
        Deal given;
        for (std::size_t i = 0; i < deal.size(); ++i) given.push_back(read_kind(deal.at(i), c));
        try {
            check_deal(c, given);
        } catch (const StateFormatError& e) {
            deal.fail(e.what());
        }
        k.table.deals.push_back(given);
    }
    const Reader history = root.at("history");
    for (std::size_t i = 0, size = history_size(history); i < size; ++i) {
        const std::string entry = history.at(i).text();
        const auto colon = entry.find(':');
        if (colon != 1 || entry[0] < '0' || entry[0] >= '0' + n)
            history.at(i).fail("expected 'seat:move' like '1:LAGER@0,1,2,3,4'");
        try {
            k.table.history.push_back(Step{entry[0] - '0', parse_move(entry.substr(2))});
        } catch (const NotationError& e) {
            history.at(i).fail(e.what());
        }
    }
    const std::string problem = k.table.check();
    if (!problem.empty()) throw StateFormatError("state JSON describes an impossible state: " + problem);
    return k;
}

// ---- bots and simulation -------------------------------------------------------------------

realtime::Reaction reaction_from(const py::handle& value) {
    return bindings::reaction_from(value, default_reaction(), kReactionKindNames, kReactionKinds, "Knizia");
}

double per_letter_from(const py::handle& value) {
    const double seconds = to_number(value, "per_letter");
    if (!(seconds >= 0.0 && seconds <= 60.0))
        throw OptionError("per_letter must be 0..60 seconds, got " + py::repr(value).cast<std::string>());
    return seconds;
}

/// A bot written in Python: anything with choose(state, player) -> move or None. It is
/// called with the GIL held (simulations with Python bots keep it).
class PythonBot : public Bot {
public:
    PythonBot(py::object bot, std::shared_ptr<const Game> game)
        : Bot(reaction_from(py::getattr(bot, "reaction", py::none())),
              per_letter_from(py::getattr(bot, "per_letter", py::float_(kDefaultPerLetter)))),
          bot_(std::move(bot)),
          game_(std::move(game)) {}
    std::optional<Move> choose(const Position& state, int player, Pcg32&) const override {
        KState view;
        view.table.state = state;
        view.game = game_;
        const py::object move = bot_.attr("choose")(view, player);
        if (move.is_none()) return std::nullopt;
        return to_move(move, *state.lexicon);
    }

private:
    py::object bot_;
    std::shared_ptr<const Game> game_;
};

py::tuple run_tuple(const KState& start, const Run& run) {
    KState final = start;
    final.table.state = run.state;
    py::list log;
    for (const auto& step : run.log) {
        if (step.accepted) final.table.history.push_back(Step{step.player, step.move});
        log.append(py::make_tuple(step.time, step.player, step.move, step.accepted));
    }
    return py::make_tuple(final, log, run.accepted, run.rejected, run.time);
}

void bind_game(py::module_& m) {
    py::class_<Bot, std::shared_ptr<Bot>>(m, "KniziaBot", "A Diabolo (Knizia) bot implemented in C++.")
        .def(
            "choose",
            [](const Bot& bot, const KState& k, const py::object& player, const py::object& seed) -> py::object {
                Pcg32 rng(to_seed(seed));
                const int p = to_seat(player, k.state().players());
                const Position state = k.state();
                std::optional<Move> move;
                {
                    py::gil_scoped_release release;
                    move = bot.choose(state, p, rng);
                }
                return move ? py::cast(*move) : py::none();
            },
            py::arg("state"), py::arg("player"), py::arg("seed") = 0,
            "The move this bot makes for ``player`` now, or None to wait for the table to change.")
        .def_property_readonly("per_letter", &Bot::per_letter,
                               "Seconds a called word takes per letter, on top of the claim delay.");
    py::class_<RandomBot, Bot, std::shared_ptr<RandomBot>>(m, "KniziaRandomBot", R"doc(
Makes any legal move, uniformly at random (the seed of the run decides which).

>>> from diabolo.knizia import RandomBot
>>> RandomBot().name
'random'
)doc")
        .def(py::init([](const py::object& reaction, const py::object& per_letter) {
                 return std::make_shared<RandomBot>(reaction_from(reaction), per_letter_from(per_letter));
             }),
             py::arg("reaction") = py::none(), py::arg("per_letter") = kDefaultPerLetter)
        .def_property_readonly("name", [](const RandomBot&) { return "random"; }, "``'random'``.");
    py::class_<WordBot, Bot, std::shared_ptr<WordBot>>(m, "KniziaWordBot", R"doc(
Calls the longest word it knows on the table; as dealer it reveals when it knows none;
with the deck used up it passes; as another's penalty it takes the most versatile card.

What it knows is its vocabulary (the game's lexicon unless ``vocabulary`` is given),
cut to words of at most ``max_length`` letters, of which it knows a share
``coverage`` (each word known or not by a fixed hash of the word and ``memory``).
Its claims take the reaction's claim delay plus ``per_letter`` seconds a letter (K6.3).
With ``lookahead`` it weighs each word it could call (the sixteen with most cards) by the
cards it takes, minus part of its length (a longer call arrives later) and part of the
longest word the others could then form from the cards left.

>>> from diabolo import Lexicon
>>> from diabolo.knizia import WordBot
>>> bot = WordBot(max_length=5, coverage=0.5)
>>> bot.max_length, bot.coverage
(5, 0.5)
)doc")
        .def(py::init([](const py::object& reaction, const py::object& per_letter, const py::object& vocabulary,
                         const py::object& max_length, const py::object& coverage, const py::object& memory,
                         bool lookahead) {
                 Vocabulary v;
                 if (!vocabulary.is_none()) {
                     const py::object cls = py::module_::import("diabolo.lexicon").attr("Lexicon");
                     if (!py::isinstance(vocabulary, cls))
                         throw OptionError("vocabulary must be a diabolo.Lexicon or None");
                     v.words = lexicon_core(vocabulary);
                 }
                 v.max_length = to_int(max_length, "max_length");
                 if (v.max_length < 1 || v.max_length > kMaxWord) throw OptionError("max_length must be 1..64 letters");
                 v.coverage = to_number(coverage, "coverage");
                 if (!(v.coverage >= 0.0 && v.coverage <= 1.0)) throw OptionError("coverage must be a share in [0, 1]");
                 v.memory = to_seed(memory, "memory");
                 return std::make_shared<WordBot>(reaction_from(reaction), per_letter_from(per_letter), v, lookahead);
             }),
             py::arg("reaction") = py::none(), py::arg("per_letter") = kDefaultPerLetter,
             py::arg("vocabulary") = py::none(), py::arg("max_length") = kMaxWord, py::arg("coverage") = 1.0,
             py::arg("memory") = 0, py::arg("lookahead") = false)
        .def_property_readonly(
            "name", [](const WordBot& b) { return b.lookahead() ? "lookahead-word" : "word"; },
            "``'word'``, or ``'lookahead-word'`` with ``lookahead``.")
        .def_property_readonly("lookahead", &WordBot::lookahead,
                               "Whether it weighs what its call leaves to the others.")
        .def_property_readonly(
            "max_length", [](const WordBot& b) { return b.vocabulary().max_length; }, "Longest word it knows.")
        .def_property_readonly(
            "coverage", [](const WordBot& b) { return b.vocabulary().coverage; }, "Share of the words it knows.")
        .def_property_readonly(
            "memory", [](const WordBot& b) { return b.vocabulary().memory; },
            "The seed of which words it knows when coverage is below 1.")
        .def_property_readonly(
            "vocabulary",
            [](const WordBot& b) -> py::object {
                if (!b.vocabulary().words) return py::none();
                const py::object cls = py::module_::import("diabolo.lexicon").attr("Lexicon");
                return cls(std::const_pointer_cast<Lexicon>(b.vocabulary().words), "vocabulary");
            },
            "Its own word list, or None (the game's lexicon).");

    m.def("knizia_simulate", [](const KState& start, const py::sequence& bots, const py::object& seed, double max_time,
                                const py::object& max_events) {
        const realtime::Limits limits = limits_from(max_time, max_events);
        std::vector<std::shared_ptr<Bot>> owned;
        bool all_native = true;
        for (auto bot : bots) {
            if (py::isinstance<Bot>(bot)) {
                owned.push_back(cpp_bot<Bot>(bot));
            } else {
                if (!py::hasattr(bot, "choose")) throw OptionError("a bot needs a choose(state, player) method");
                owned.push_back(std::make_shared<PythonBot>(py::reinterpret_borrow<py::object>(bot), start.game));
                all_native = false;
            }
        }
        std::vector<const Bot*> seats;
        for (const auto& bot : owned) seats.push_back(bot.get());
        const uint64_t s = to_seed(seed);
        Run run;
        if (all_native) {
            py::gil_scoped_release release;
            run = simulate(start.state(), seats, s, limits);
        } else {
            run = simulate(start.state(), seats, s, limits);
        }
        return run_tuple(start, run);
    });

    m.def("knizia_simulate_many",
          [](const Game& g, const py::sequence& bots, const py::object& games, const py::object& seed,
             const py::object& threads, double max_time, const py::object& max_events) {
              const realtime::Limits limits = limits_from(max_time, max_events);
              std::vector<std::shared_ptr<Bot>> owned;
              for (auto bot : bots) {
                  if (!py::isinstance<Bot>(bot))
                      throw OptionError("simulate_many runs C++ bots only; use simulate for Python bots");
                  owned.push_back(cpp_bot<Bot>(bot));
              }
              std::vector<const Bot*> seats;
              for (const auto& bot : owned) seats.push_back(bot.get());
              const Batch batch = batch_args(games, seed, threads);
              SimulationBatch result;
              SignalCheck signals;
              {
                  py::gil_scoped_release release;
                  result = simulate_many(g.config, *g.lexicon, seats, batch.games, batch.seed, batch.threads, limits,
                                         signals.interrupt());
              }
              signals.raise_if_interrupted();
              return batch_dict(result, batch.games, g.config.players);
          });

    py::class_<Move> move_class(m, "KniziaMove", R"doc(
A move of Diabolo (Knizia): frozen, hashable, ``str()`` is its notation (K7).

``reveal`` (the dealer turns the next card), ``pass``, ``take@i`` (a card taken as the
penalty of another's invalid call, K3.5), or a call: a word in capitals, optionally
with the table positions of its cards in word order (``POST@3,7,9``). Parsing
normalises the word (K10.8); the keywords are lower case, so write words in capitals.

>>> from diabolo.knizia import KniziaMove
>>> move = KniziaMove.parse("POST@3,7,9,2")
>>> move.kind, move.word, move.cards
('claim', 'POST', (3, 7, 9, 2))
>>> str(KniziaMove.parse("Straße")), KniziaMove.parse("take@5").position
('STRASSE', 5)
)doc");
    move_class
        .def_static(
            "parse", [](const py::object& text) { return parse_move(utf8_text<NotationError>(text, "notation")); },
            py::arg("text"),
            "The move written as ``text`` (K7); raises NotationError.\n\n>>> KniziaMove.parse('reveal').kind\n'reveal'")
        .def_property_readonly(
            "kind", [](const Move& mv) { return kMoveKinds[static_cast<int>(mv.kind)]; },
            "``'reveal'``, ``'pass'``, ``'take'`` or ``'claim'``.")
        .def_property_readonly(
            "word",
            [](const Move& mv) -> py::object {
                return mv.kind == MoveKind::Claim ? py::object(py::str(std::string(mv.word())))
                                                  : py::object(py::none());
            },
            "The called word (A-Z), or None.")
        .def_property_readonly(
            "cards",
            [](const Move& mv) -> py::object {
                if (mv.kind != MoveKind::Claim || mv.card_count == 0) return py::none();
                return py::tuple(py::cast(mv.positions()));
            },
            "The table positions a call names, in word order, or None (the best assignment, K10.4).")
        .def_property_readonly(
            "position",
            [](const Move& mv) -> py::object {
                return mv.kind == MoveKind::Take ? py::object(py::int_(mv.position)) : py::object(py::none());
            },
            "The table position of a take, or None.");
    bind_move_values(move_class, "KniziaMove", &format_move, &parse_move);

    py::class_<KState> state_class(m, "KniziaState", R"doc(
A position of Diabolo (Knizia), with the moves that led to it.

There are no turns (K3.2): ``current_player`` is ``diabolo.SIMULTANEOUS`` until the
game is over, every query names its player, and ``apply(move, player=p)`` applies
moves in the order they arrive. A call of a word that is not a valid claim is a move
too: it draws the penalty of K3.5 (or, with ``stale_calls='reject'``, raises).

>>> import diabolo
>>> from diabolo import Lexicon
>>> game = diabolo.load("knizia", players=2, lexicon=Lexicon.from_words(["Tor", "Rot"]), deck={"T": 1, "O": 1, "R": 1})
>>> state = game.new_state(deck=["T", "O", "R"])
>>> for _ in range(3):
...     state.apply("reveal", player=0)
>>> [str(m) for m in state.legal_moves(1)]
['ROT', 'TOR', 'pass']
>>> state.apply("TOR", player=1)
>>> state.is_terminal, state.scores
(False, [0, 3])
)doc");
    state_class
        .def_property_readonly(
            "game", [](const KState& k) { return *k.game; }, "The game (rules and options) of this state.")
        .def_property_readonly(
            "current_player", [](const KState& k) { return k.state().current_player(); },
            "``diabolo.SIMULTANEOUS`` while a round is played, ``diabolo.TERMINAL`` at game over.")
        .def_property_readonly(
            "phase", [](const KState& k) { return kPhaseNames[static_cast<int>(k.state().phase)]; },
            "``'play'``, ``'penalty'`` or ``'game_over'`` (K10.6).")
        .def_property_readonly(
            "round", [](const KState& k) { return k.state().round; }, "The round, from 0 (K10.1).")
        .def_property_readonly(
            "pending_seats", [](const KState& k) { return seat_list(pending_seats(k.state())); },
            "The seats that may act now, ascending: every seat while a round is played (each may pass or call at "
            "any time, K3.2), the seat at the head of a penalty (K10.2); empty at game over.\n\n"
            ">>> diabolo.load('knizia', players=2).new_state(seed=1).pending_seats\n[0, 1]")
        .def_property_readonly(
            "dealer", [](const KState& k) { return k.state().dealer(); }, "The dealer's seat (K10.1).")
        .def_property_readonly(
            "table",
            [](const KState& k) { return card_list(k.state().config, k.state().table.data(), k.state().table_count); },
            "The table line in notation, position 0 first (K8).")
        .def_property_readonly(
            "deck_count", [](const KState& k) { return k.state().deck_count(); }, "Cards left in the deck.")
        .def_property_readonly(
            "piles", [](const KState& k) { return seat_values(k.state().pile, k.state().players()); },
            "Cards each seat took this round (K4.1).")
        .def_property_readonly(
            "penalty", [](const KState& k) { return penalty_list(k.state()); },
            "Seats still to take a card for an invalid call, in order (K3.5).")
        .def_property_readonly(
            "last_call", [](const KState& k) { return last_call_dict(k.state()); },
            "None, or ``{'seat', 'word', 'valid', 'reason'}`` of the round's last call (K10.6).")
        .def_property_readonly(
            "is_terminal", [](const KState& k) { return k.state().is_terminal(); }, "True once the game is over.")
        .def_property_readonly(
            "scores", [](const KState& k) { return seat_values(k.state().scores, k.state().players()); },
            "Totals of the finished rounds per seat (K4.1), or victory tiles (K4.3).")
        .def(
            "returns",
            [](const KState& k) {
                return std::vector<double>(k.state().scores.begin(), k.state().scores.begin() + k.state().players());
            },
            "The scores as floats.")
        .def_property_readonly(
            "winners", [](const KState& k) { return winners(k.state()); },
            "Seats with the highest total (or the most tiles); ties share the win.")
        .def_property_readonly(
            "history",
            [](const KState& k) {
                py::list out;
                for (const Step& step : k.table.history) out.append(py::make_tuple(step.player, step.move));
                return out;
            },
            "Every move so far as ``(seat, move)`` pairs in arrival order; valid claims name their cards.")
        .def(
            "legal_moves",
            [](const KState& k, const py::object& player) {
                const int p = query_player(k.state(), player);
                const Position state = k.state();
                py::gil_scoped_release release;
                return legal_moves(state, p);
            },
            py::arg("player") = py::none(),
            "Legal moves of ``player`` now (K9): ``reveal`` for the dealer while cards "
            "remain, every valid claim in word order, ``pass``; during a penalty ``take@i`` for the seat at its head.")
        .def(
            "legal_actions",
            [](const KState& k, const py::object& player) {
                const int p = query_player(k.state(), player);
                return legal_actions(k.state(), p);
            },
            py::arg("player") = py::none(), "Legal action ids of ``player`` (see ``KniziaGame.num_actions``).")
        .def(
            "legal_action_mask",
            [](const KState& k, const py::object& player) {
                const int p = query_player(k.state(), player);
                const std::size_t n = kFirstClaimAction + k.game->lexicon->size();
                py::array_t<bool> mask(static_cast<py::ssize_t>(n));
                bool* data = mask.mutable_data();
                std::fill(data, data + n, false);
                for (const int action : legal_actions(k.state(), p)) data[action] = true;
                return mask;
            },
            py::arg("player") = py::none(), "A numpy bool array of length ``num_actions``, True at legal action ids.")
        .def(
            "apply",
            [](KState& k, const py::object& move, const py::object& player) {
                k.table.apply(to_move(move, *k.game->lexicon), query_player(k.state(), player));
            },
            py::arg("move"), py::arg("player") = py::none(),
            "Applies ``player``'s move (a KniziaMove, an action id or notation) in arrival order. A call that is not a "
            "valid claim draws the penalty (K3.5), or raises with ``stale_calls='reject'`` (K10.3). Raises "
            "IllegalMoveError naming the clause, and changes nothing, for a move the rules do not allow now.")
        .def(
            "observation",
            [](const KState& k, const py::object& player) {
                return observation(k.state(), to_seat(player, k.state().players()));
            },
            py::arg("player"),
            "What ``player`` may know, as a JSON-ready dict with the keys of K8 (see the rules page).")
        .def(
            "observation_tensor",
            [](const KState& k, const py::object& player) {
                const int p = to_seat(player, k.state().players());
                py::array_t<float> out(observation_tensor_size(k.state().config));
                observation_tensor(k.state(), p, out.mutable_data());
                return out;
            },
            py::arg("player"),
            "What ``player`` may know as a float32 numpy array of ``game.observation_tensor_shape``.")
        .def(
            "resample",
            [](const KState& k, const py::object& player, const py::object& seed) {
                to_seat(player, k.state().players());
                KState out = k;
                out.table = k.table.resample(to_seed(seed));
                return out;
            },
            py::arg("player"), py::arg("seed"),
            "Determinisation (K5.1): the deck order and the cards drawn blind into piles, dealt anew. Nobody "
            "knows them, so the result is the same for every ``player``.")
        .def("__str__", [](const KState& k) { return render(k.state()); })
        .def("__repr__",
             [](const KState& k) {
                 return "<KniziaState round " + std::to_string(k.state().round) + " " +
                        kPhaseNames[static_cast<int>(k.state().phase)] + ">";
             })
        .def(
            "clone", [](const KState& k) { return k; }, "An independent copy.")
        .def("__copy__", [](const KState& k) { return k; })
        .def(
            "__deepcopy__", [](const KState& k, const py::object&) { return k; }, py::arg("memo"))
        .def(
            "to_json", [](const KState& k) { return dump_json(to_data(k)); },
            "The whole state (deck order, seed and history included) as JSON text; the game's "
            "``state_from_json`` reads it back.")
        .def("__eq__",
             [](const KState& a, const py::object& b) -> py::object {
                 if (!py::isinstance<KState>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
                 const KState& other = b.cast<const KState&>();
                 return py::bool_(same_game(*a.game, *other.game) && to_data(a).equal(to_data(other)));
             })
        .def_property_readonly_static("__hash__", [](const py::object&) { return py::none(); })
        .def(py::pickle([](const KState& k) { return py::make_tuple(*k.game, dump_json(to_data(k))); },
                        [](const py::tuple& t) {
                            if (t.size() != 2) throw StateFormatError("a pickled KniziaState is (game, JSON)");
                            auto game = std::make_shared<const Game>(t[0].cast<Game>());
                            return from_data(load_json(utf8_text<StateFormatError>(t[1], "state JSON")), game);
                        }));

    py::class_<Game> game_class(m, "KniziaGame", R"doc(
Diabolo (Knizia) with its rule options. Get one with ``diabolo.load("knizia", ...)``.

Options (all keyword, validated, OptionError when wrong):

- ``players``: 2-6 (K1.1).
- ``lexicon``: a :class:`diabolo.Lexicon` or a language code, default ``'de'`` (K1.4).
- ``deck``: a :class:`diabolo.knizia.Deck`, a language code or a dict of card counts;
  default the deck of the lexicon's language, else ``'de'`` (K10.7).
- ``min_cards``: cards a word needs, default 3; 4 is the children's variant (K3.3).
- ``variant``: ``'standard'`` (totals, K4.2) or ``'victory_tiles'`` (K4.3).
- ``handicap``: cards a tile holder counts fewer in the victory-tiles variant, default 10.
- ``rounds``: rounds of the standard game; default one deal per seat with 4-6 players,
  two with 2-3 (K4.2).
- ``stale_calls``: ``'penalty'`` (default) or ``'reject'`` (K10.3).

>>> import diabolo
>>> from diabolo import Lexicon
>>> game = diabolo.load("knizia", players=3, lexicon=Lexicon.from_words(["Tor"]), deck="de")
>>> game.rounds, game.deck_size, game.num_actions
(6, 66, 131)
)doc");
    game_class.def(py::init([](const py::kwargs& kwargs) { return game_from_kwargs(kwargs); }))
        .def_property_readonly(
            "name", [](const Game&) { return "knizia"; }, "The game's id: ``'knizia'``.")
        .def_property_readonly(
            "players", [](const Game& g) { return g.config.players; }, "Number of seats.")
        .def_property_readonly(
            "rounds",
            [](const Game& g) -> py::object {
                return g.config.variant == Variant::Standard ? py::object(py::int_(g.config.rounds))
                                                             : py::object(py::none());
            },
            "Rounds of the standard game (K4.2); None in the victory-tiles variant.")
        .def_property_readonly(
            "min_cards", [](const Game& g) { return g.config.min_cards; }, "Cards a word needs (K3.3).")
        .def_property_readonly(
            "variant", [](const Game& g) { return kVariantNames[static_cast<int>(g.config.variant)]; }, "K4.2 or K4.3.")
        .def_property_readonly(
            "handicap", [](const Game& g) { return g.config.handicap; }, "The tile holders' handicap (K4.3).")
        .def_property_readonly(
            "stale_calls", [](const Game& g) { return kStaleNames[static_cast<int>(g.config.stale_calls)]; }, "K10.3.")
        .def_property_readonly("lexicon", &python_lexicon, "The lexicon calls are checked against.")
        .def_property_readonly("deck", &python_deck, "The deck (K10.7).")
        .def_property_readonly(
            "deck_size", [](const Game& g) { return g.config.deck_size; }, "Cards in the deck.")
        .def_property_readonly("options", &options_dict, "Every option with its value.")
        .def_property_readonly(
            "num_actions", [](const Game& g) { return kFirstClaimAction + g.lexicon->size(); },
            "Number of action ids: 130 + the lexicon's words (a claim's id is 130 + its word's index).")
        .def_property_readonly(
            "observation_tensor_shape", [](const Game& g) { return py::make_tuple(observation_tensor_size(g.config)); },
            "Shape of :meth:`KniziaState.observation_tensor`.")
        .def(
            "new_state",
            [](const Game& g, const py::object& seed, const py::object& deck, const py::object& decks) {
                if (!deck.is_none() && !decks.is_none())
                    throw StateFormatError("give deck (round 0) or decks (one per round), not both");
                std::vector<Deal> deals;
                if (!deck.is_none()) deals.push_back(deal_from(deck, g.config, "deck"));
                if (!decks.is_none()) {
                    if (!py::isinstance<py::sequence>(decks) || PyUnicode_Check(decks.ptr()))
                        throw StateFormatError("decks must be a list of deals");
                    int r = 0;
                    for (auto d : py::reinterpret_borrow<py::sequence>(decks)) {
                        if (r == kMaxRounds) throw StateFormatError("decks: at most 64 rounds");
                        if (d.is_none()) deals.emplace_back();  // this round is shuffled from the seed
                        else deals.push_back(deal_from(d, g.config, "decks[" + std::to_string(r) + "]"));
                        ++r;
                    }
                }
                KState k;
                k.game = std::make_shared<const Game>(g);
                k.table = State::start(g.config, *k.game->lexicon, to_seed(seed), &deals);
                return k;
            },
            py::arg("seed") = 0, py::arg("deck") = py::none(), py::arg("decks") = py::none(),
            "A new game. Round 0 is dealt from ``deck`` (every card of the deck in reveal order, K10.7) if given, "
            "round r from ``decks[r]`` unless it is None; every other round is shuffled from ``seed``.")
        .def(
            "state_from_json",
            [](const Game& g, const py::object& text) {
                return from_data(load_json(utf8_text<StateFormatError>(text, "state JSON")),
                                 std::make_shared<const Game>(g));
            },
            py::arg("text"),
            "The state written by :meth:`KniziaState.to_json`; StateFormatError if it is not a valid state of this "
            "game.")
        .def(
            "move", [](const Game& g, const py::object& move) { return to_move(move, *g.lexicon); }, py::arg("move"),
            "The KniziaMove for notation text or an action id.")
        .def(
            "action",
            [](const Game& g, const py::object& move) -> py::object {
                const int action = action_of(to_move(move, *g.lexicon), *g.lexicon);
                return action < 0 ? py::object(py::none()) : py::object(py::int_(action));
            },
            py::arg("move"), "The action id of a move (a claim by its word), or None for a word not in the lexicon.")
        .def(
            "play_random",
            [](const Game& g, const py::object& games, const py::object& seed, const py::object& threads) {
                const Lexicon& lexicon = *g.lexicon;  // kept alive by g
                return random_play(g.config, games, seed, threads,
                                   [&lexicon](const Config& c, int count, uint64_t first_seed, int workers,
                                              const Interrupt& interrupted) {
                                       return play_random_games(c, lexicon, count, first_seed, workers, interrupted);
                                   });
            },
            py::arg("games"), py::arg("seed") = 0, py::arg("threads") = 1,
            "Plays ``games`` whole games in C++ without the GIL: at each step a random seat with legal moves makes a "
            "uniformly random one. Returns numpy arrays ``scores`` (games x players) and ``moves``; game i depends "
            "only "
            "on (seed, i).")
        .def("__repr__",
             [](const Game& g) {
                 return "diabolo.load('knizia', players=" + std::to_string(g.config.players) +
                        ", min_cards=" + std::to_string(g.config.min_cards) + ", variant='" +
                        kVariantNames[static_cast<int>(g.config.variant)] + "', lexicon=<" +
                        std::to_string(g.lexicon->size()) + " words>, deck=<" + std::to_string(g.config.deck_size) +
                        " cards>)";
             })
        .def("__eq__",
             [](const Game& a, const py::object& b) -> py::object {
                 if (!py::isinstance<Game>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
                 return py::bool_(same_game(a, b.cast<const Game&>()));
             })
        .def("__hash__",
             [](const Game& g) {
                 return py::hash(py::make_tuple(g.config.players, g.config.deck_size, g.lexicon->size()));
             })
        .def(py::pickle([](const Game& g) { return options_dict(g); },
                        [](const py::dict& d) { return game_from_kwargs(d); }));
}

/// A match as an instance of diabolo.knizia.FoundWord, a NamedTuple (word, cards, jokers),
/// made directly through the tuple API: a third of the cost of calling the class.
PyObject* new_match(PyTypeObject* type, const FoundWordView& v) {
    py::tuple cards(v.card_count);
    for (int c = 0; c < v.card_count; ++c) PyTuple_SET_ITEM(cards.ptr(), c, PyLong_FromLong(v.cards[c]));
    PyObject* match = type->tp_alloc(type, 3);
    if (match == nullptr) throw py::error_already_set();
    PyTuple_SET_ITEM(match, 0, PyUnicode_FromStringAndSize(v.word.data(), static_cast<py::ssize_t>(v.word.size())));
    PyTuple_SET_ITEM(match, 1, cards.release().ptr());
    PyTuple_SET_ITEM(match, 2, PyLong_FromLong(v.jokers));
    // Neither tuple can be part of a reference cycle (they hold a str, ints and an
    // untracked tuple), so the cyclic collector need not walk thousands of them.
    PyObject_GC_UnTrack(PyTuple_GET_ITEM(match, 1));
    PyObject_GC_UnTrack(match);
    return match;
}

/// find_words' result: the C++ FoundWords, whose entries become FoundWord tuples only when read.
struct FoundWordsResult {
    knizia::FoundWords matches;
    py::type word_type;

    PyTypeObject* type() const { return reinterpret_cast<PyTypeObject*>(word_type.ptr()); }
    py::object at(py::ssize_t index) const {
        const auto size = static_cast<py::ssize_t>(matches.size());
        if (index < 0) index += size;
        if (index < 0 || index >= size) throw py::index_error("found-word index out of range");
        return py::reinterpret_steal<py::object>(new_match(type(), matches[static_cast<std::size_t>(index)]));
    }
    py::list to_list() const {
        py::list out(matches.size());
        for (std::size_t i = 0; i < matches.size(); ++i)
            PyList_SET_ITEM(out.ptr(), static_cast<py::ssize_t>(i), new_match(type(), matches[i]));
        return out;
    }
};

/// Checks that diabolo.knizia passed a NamedTuple type for the matches.
py::type word_type_from(const py::type& word_type) {
    if (!PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(word_type.ptr()), &PyTuple_Type)) {
        throw OptionError("a found-word type is a NamedTuple (word, cards, jokers)");
    }
    return word_type;
}

}  // namespace

void bind_knizia(py::module_& m) {
    py::class_<Lexicon, std::shared_ptr<Lexicon>>(m, "LexiconCore", "The compiled lexicon behind diabolo.Lexicon.")
        .def_static(
            "from_words",
            [](const py::iterable& entries) {
                std::vector<std::string> words;
                for (auto entry : entries) words.push_back(utf8_text<NotationError>(entry, "a lexicon entry"));
                py::gil_scoped_release release;
                return std::make_shared<Lexicon>(Lexicon::from_words(words));
            },
            py::arg("entries"))
        .def_static(
            "from_bytes", [](const py::bytes& data) { return std::make_shared<Lexicon>(Lexicon::from_bytes(data)); },
            py::arg("data"))
        .def("to_bytes", [](const Lexicon& lexicon) { return py::bytes(lexicon.to_bytes()); })
        .def(
            "contains",
            [](const Lexicon& lexicon, const py::object& word) {
                if (!PyUnicode_Check(word.ptr())) return false;
                const auto normal = normalise_word(utf8_text<NotationError>(word, "a word"));
                return normal.has_value() && lexicon.contains(*normal);
            },
            py::arg("word"))
        .def("__len__", &Lexicon::size)
        .def_property_readonly("node_count", &Lexicon::node_count);

    py::class_<FoundWordsResult>(m, "KniziaFoundWords",
                                 "The words a Knizia table forms (behind diabolo.knizia.FoundWords).")
        .def("__len__", [](const FoundWordsResult& f) { return f.matches.size(); })
        .def("at", &FoundWordsResult::at, py::arg("index"))
        .def("to_list", &FoundWordsResult::to_list);
    m.def("knizia_find_words",
          [](const py::object& table, const Lexicon& lexicon, const py::object& min_cards, const py::type& word_type) {
              const std::vector<Card> cards = table_from(table);
              const int minimum = min_cards_from(min_cards);
              FoundWordsResult found{knizia::FoundWords(), word_type_from(word_type)};
              {
                  py::gil_scoped_release release;
                  found.matches = find_words(lexicon, cards, minimum);
              }
              return found;
          });
    m.def("knizia_check_word",
          [](const py::object& word, const py::object& table, const Lexicon& lexicon, const py::object& min_cards,
             const py::type& word_type) -> py::tuple {
              const std::vector<Card> cards = table_from(table);
              const int minimum = min_cards_from(min_cards);
              const auto normal = normalise_word(utf8_text<NotationError>(word, "a word"));
              if (!normal) return py::make_tuple(reason_text(Reason::NotAWord), py::none());
              const Check check = check_word(lexicon, *normal, cards, minimum);
              if (!check.match) return py::make_tuple(reason_text(check.reason), py::none());
              const std::vector<uint8_t> positions(check.match->cards.begin(), check.match->cards.end());
              const FoundWordView view{check.match->word, positions.data(), check.match->card_count(),
                                       check.match->jokers, 0};
              return py::make_tuple(reason_text(check.reason),
                                    py::reinterpret_steal<py::object>(new_match(
                                        reinterpret_cast<PyTypeObject*>(word_type_from(word_type).ptr()), view)));
          });
    m.def("normalise_word", [](const py::object& word) -> py::object {
        const auto normal = normalise_word(utf8_text<NotationError>(word, "a word"));
        return normal ? py::object(py::str(*normal)) : py::object(py::none());
    });
    bind_game(m);
}

}  // namespace diabolo::bindings
