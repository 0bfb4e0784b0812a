// Diabolo (Knizia): what each seat sees (K8, K10.6), the state, the options and the deck
// as JSON. The keys are an interface that frontends rely on (docs/games/knizia.rst,
// "Observations" and "Saving a game").
#include <cinttypes>
#include <cstdio>
#include <string>

#include "diabolo/core/contract.hpp"
#include "diabolo/core/events.hpp"
#include "diabolo/core/index.hpp"
#include "diabolo/core/json.hpp"
#include "diabolo/knizia/knizia.hpp"

namespace diabolo::knizia {

namespace {

constexpr const char* kFormat = "diabolo.knizia/1";
constexpr const char* kPhaseNames[] = {"play", "penalty", "game_over"};
constexpr const char* kMoveKinds[] = {"reveal", "pass", "take", "claim"};
constexpr const char* kVariantNames[] = {"standard", "victory_tiles"};
constexpr const char* kStaleNames[] = {"penalty", "reject"};

using json::text_of;

std::string fingerprint_text(const Lexicon& lexicon) {
    char text[17];
    std::snprintf(text, sizeof text, "%016" PRIx64, lexicon.fingerprint());
    return text;
}

template <class Enum, std::size_t N>
Enum enum_option(const json::OptionReader& r, const char* name, const char* const (&names)[N], const char* clause) {
    const json::Value& value = r.value(name);
    for (std::size_t i = 0; value.is_string() && i < N; ++i) {
        if (text_of(value) == names[i]) return static_cast<Enum>(i);
    }
    std::string allowed;
    for (std::size_t i = 0; i < N; ++i) allowed += std::string(i ? ", " : "") + "'" + names[i] + "'";
    throw OptionError(std::string(name) + " must be one of " + allowed + " (" + clause + "), got " +
                      json::shown(value));
}

/// The lexicon of the options: `given`, whose fingerprint a "lexicon" object must name,
/// or one built from a "lexicon" list of words.
std::shared_ptr<const Lexicon> lexicon_of(const json::OptionReader& r, std::shared_ptr<const Lexicon> given) {
    const json::Value* option = r.has("lexicon") ? &r.value("lexicon") : nullptr;
    if (given) {
        if (option == nullptr) return given;
        const json::Value* fingerprint =
            option->is_object() ? option->get_object().if_contains("fingerprint") : nullptr;
        if (fingerprint != nullptr && fingerprint->is_string() && text_of(*fingerprint) == fingerprint_text(*given))
            return given;
        throw OptionError("lexicon: the options name another lexicon than the one given: " + json::shown(*option));
    }
    if (option == nullptr || !option->is_array()) {
        throw OptionError(
            "lexicon: give the words as a list (\"lexicon\": [\"TOR\", \"ROT\"]), or a loaded lexicon with the "
            "options (K1.4)");
    }
    std::vector<std::string> words;
    for (const json::Value& word : option->get_array()) {
        if (!word.is_string()) throw OptionError("lexicon: a word must be a string, got " + json::shown(word));
        words.emplace_back(text_of(word));
    }
    return std::make_shared<const Lexicon>(Lexicon::from_words(words));
}

// ---- reading a state ------------------------------------------------------------------------------

uint8_t read_kind(const json::Reader& r, const Config& c) {
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

void read_piles(const json::Reader& piles, Position& s) {
    const Config& c = s.config;
    if (piles.size() != at(c.players)) piles.fail("expected one entry per seat");
    for (int p = 0; p < c.players; ++p) {
        const json::Reader pile = piles.at(at(p));
        for (const bool taken : {true, false}) {
            const json::Reader cards = pile.at(taken ? "taken" : "drawn");
            if (cards.size() > c.deck_size) cards.fail("more cards than the deck has");
            auto& counts = taken ? s.taken[at(p)] : s.drawn[at(p)];
            for (std::size_t i = 0; i < cards.size(); ++i) {
                ++counts[read_kind(cards.at(i), c)];
                ++s.pile[at(p)];
            }
        }
    }
}

void read_last_call(const json::Reader& call, Position& s) {
    if (call.is_null()) return;
    s.last_call.seat = static_cast<int8_t>(call.at("seat").integer(0, s.players() - 1));
    s.last_call.valid = call.at("valid").boolean();
    Move word;
    try {
        word = Move::claim(call.at("word").text());
    } catch (const NotationError& e) {
        call.at("word").fail(e.what());
    }
    s.last_call.length = word.length;
    s.last_call.word = word.letters;
    const json::Reader reason = call.at("reason");
    if (s.last_call.valid) {
        if (!reason.is_null()) reason.fail("a valid call has no reason");
        return;
    }
    const std::string_view text = reason.text();
    for (int r = 1; r <= 4; ++r) {
        if (text == reason_text(static_cast<Reason>(r))) s.last_call.reason = static_cast<Reason>(r);
    }
    if (s.last_call.reason == Reason::None) reason.fail("expected one of the reasons of K10.8");
}

void read_deals(const json::Reader& deals, State& t) {
    const Config& c = t.game.config;
    if (deals.size() > at(kMaxRounds)) deals.fail("too many deals");
    for (std::size_t r = 0; r < deals.size(); ++r) {
        const json::Reader deal = deals.at(r);
        if (deal.is_null()) {
            t.deals.emplace_back();  // shuffled from the seed
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
        t.deals.push_back(given);
    }
}

State state_from_document(const Game& game, const json::Reader& root) {
    if (root.at("format").text() != kFormat) root.at("format").fail(std::string("expected '") + kFormat + "'");
    if (!(root.at("options").value() == options_json(game)))
        root.at("options").fail("its options differ from this game's");
    State t;
    t.game = game;
    Position& s = t.position;
    const Config& c = game.config;
    s.config = c;
    s.lexicon = t.game.lexicon.get();
    s.seed = root.at("seed").seed();
    s.round = static_cast<uint8_t>(root.at("round").integer(0, kMaxRounds - 1));
    s.phase = static_cast<Phase>(root.at("phase").choice({"play", "penalty", "game_over"}));
    const json::Reader deck = root.at("deck");
    if (deck.size() > c.deck_size) deck.fail("more cards than the deck has");
    s.deck_next = static_cast<uint8_t>(c.deck_size - deck.size());
    for (std::size_t i = 0; i < deck.size(); ++i) s.deck[s.deck_next + i] = read_kind(deck.at(i), c);
    const json::Reader table = root.at("table");
    if (table.size() > c.deck_size) table.fail("more cards than the deck has");
    s.table_count = static_cast<uint8_t>(table.size());
    for (std::size_t i = 0; i < table.size(); ++i) s.table[i] = read_kind(table.at(i), c);
    read_piles(root.at("piles"), s);
    const json::Reader passed = root.at("passed");
    if (passed.size() != at(c.players)) passed.fail("expected one entry per seat");
    for (int p = 0; p < c.players; ++p) {
        if (passed.at(at(p)).boolean()) s.passed = static_cast<uint8_t>(s.passed | (1u << p));
    }
    const json::Reader penalty = root.at("penalty");
    if (penalty.size() >= at(c.players)) penalty.fail("at most one entry per other seat");
    s.penalty_count = static_cast<uint8_t>(penalty.size());
    for (std::size_t i = 0; i < penalty.size(); ++i)
        s.penalty[i] = static_cast<uint8_t>(penalty.at(i).integer(0, c.players - 1));
    read_last_call(root.at("last_call"), s);
    const json::Reader scores = root.at("scores");
    if (scores.size() != at(c.players)) scores.fail("expected one entry per seat");
    for (int p = 0; p < c.players; ++p) s.scores[at(p)] = static_cast<int32_t>(scores.at(at(p)).integer(0, 100000));
    read_deals(root.at("deals"), t);
    t.history = json::read_history<Step>(root.at("history"), c.players, "1:LAGER@0,1,2,3,4",
                                         [](std::string_view move) { return parse_move(move); });
    const std::string problem = t.check();
    if (!problem.empty()) throw StateFormatError("state JSON describes an impossible state: " + problem);
    return t;
}

// The parts of the state's text (json::Writer) and of the views (json::Tape) alike.

template <class W>
void write_cards(W& w, const Config& c, const uint8_t* kinds, int count) {
    w.begin_array();
    for (int i = 0; i < count; ++i) w.value(format_card(c.card(kinds[i])));
    w.end_array();
}

template <class W>
void write_passed(W& w, const Position& s) {
    w.begin_array();
    for (int p = 0; p < s.players(); ++p) w.value(((s.passed >> p) & 1u) != 0);
    w.end_array();
}

template <class W>
void write_penalty(W& w, const Position& s) {
    w.begin_array();
    for (int i = 0; i < s.penalty_count; ++i) w.value(int{s.penalty[at(i)]});
    w.end_array();
}

/// The round's last call, or null (K10.6).
template <class W>
void write_last_call(W& w, const Position& s) {
    if (s.last_call.seat < 0) {
        w.null();
        return;
    }
    w.begin_object().key("seat").value(int{s.last_call.seat}).key("word").value(s.last_call.text());
    w.key("valid").value(s.last_call.valid).key("reason");
    if (s.last_call.valid) w.null();
    else w.value(reason_text(s.last_call.reason));
    w.end_object();
}

/// A move as data (see move_json()).
template <class W>
void write_move(W& w, const Move& move) {
    w.begin_object().key("kind").value(kMoveKinds[static_cast<int>(move.kind)]);
    if (move.kind == MoveKind::Take) w.key("position").value(int{move.position});
    if (move.kind == MoveKind::Claim) {
        w.key("word").value(std::string_view(move.letters.data(), move.length)).key("cards");
        if (move.card_count == 0) {
            w.null();
        } else {
            w.begin_array();
            for (int i = 0; i < move.card_count; ++i) w.value(int{move.cards[at(i)]});
            w.end_array();
        }
    }
    w.end_object();
}

void write_options(json::Writer& w, const Game& game) {
    const Config& c = game.config;
    w.begin_object().key("players").value(int{c.players}).key("rounds");
    if (c.variant == Variant::Standard) w.value(int{c.rounds});
    else w.null();
    w.key("min_cards").value(int{c.min_cards}).key("variant").value(variant_name(c.variant));
    w.key("handicap").value(int{c.handicap}).key("stale_calls").value(stale_calls_name(c.stale_calls));
    w.key("lexicon").begin_object().key("language");
    if (game.lexicon->language().empty()) w.null();
    else w.value(game.lexicon->language());
    w.key("words").value(static_cast<unsigned long long>(game.lexicon->size()));
    w.key("fingerprint").value(fingerprint_text(*game.lexicon)).end_object();
    w.key("deck").begin_object().key("language").value(game.deck_language).key("cards").begin_object();
    for (int k = 0; k < c.kind_count; ++k) w.key(format_card(c.card(k))).value(int{c.counts[at(k)]});
    w.end_object().end_object().end_object();
}

}  // namespace

const char* phase_name(Phase phase) noexcept { return kPhaseNames[static_cast<int>(phase)]; }
const char* kind_name(MoveKind kind) noexcept { return kMoveKinds[static_cast<int>(kind)]; }
const char* variant_name(Variant variant) noexcept { return kVariantNames[static_cast<int>(variant)]; }
const char* stale_calls_name(StaleCalls stale_calls) noexcept { return kStaleNames[static_cast<int>(stale_calls)]; }

// ---- the deck and the options -----------------------------------------------------------------

json::Value deck_json(const Deck& deck) {
    json::Object cards;
    for (std::size_t k = 0; k < deck.kinds.size(); ++k) cards.emplace(format_card(deck.kinds[k]), deck.counts[k]);
    return json::Object{{"language", json::view(deck.language)}, {"cards", std::move(cards)}};
}

Deck deck_from_json(const json::Value& value) {
    const json::Object* o = value.is_object() ? &value.get_object() : nullptr;
    if (o == nullptr || o->size() != 2 || !o->contains("language") || !o->contains("cards"))
        throw OptionError("a deck file is a JSON object {\"language\": ..., \"cards\": {...}} (K10.7), got " +
                          json::shown(value));
    Deck deck;
    const json::Value& language = o->at("language");
    bool code = language.is_string() && language.get_string().size() <= 32;
    for (std::size_t i = 0; code && i < language.get_string().size(); ++i) {
        const char ch = language.get_string()[i];
        code =
            (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '_';
    }
    if (!code) {
        throw OptionError("a deck's language is a code like 'de' (letters, digits, '-' or '_'), or '', got " +
                          json::shown(language));
    }
    deck.language = std::string(text_of(language));
    const json::Value& cards = o->at("cards");
    if (!cards.is_object() || cards.get_object().empty()) {
        throw OptionError("a deck's cards are a mapping of card to count, like {\"E\": 5, \"?\": 4}, got " +
                          json::shown(cards));
    }
    for (const auto& item : cards.get_object()) {
        const std::string_view name(item.key().data(), item.key().size());
        try {
            deck.kinds.push_back(parse_card(name));
        } catch (const NotationError& e) {
            throw OptionError(std::string("deck: ") + e.what());
        }
        long long count = 0;
        if (!json::as_int64(item.value(), count) || count < 1) {
            throw OptionError("the count of '" + std::string(name) + "' must be a positive integer, got " +
                              json::shown(item.value()));
        }
        if (count > kMaxDeck) {
            throw OptionError("the deck's count of '" + std::string(name) + "' must be 1.." + std::to_string(kMaxDeck) +
                              ", got " + std::to_string(count));
        }
        deck.counts.push_back(static_cast<int>(count));
    }
    return deck;
}

json::Value options_json(const Game& game) {
    const Config& c = game.config;
    json::Object lexicon{
        {"language",
         game.lexicon->language().empty() ? json::Value(nullptr) : json::Value(json::view(game.lexicon->language()))},
        {"words", game.lexicon->size()},
        {"fingerprint", json::view(fingerprint_text(*game.lexicon))}};
    return json::Object{{"players", c.players},
                        {"rounds", c.variant == Variant::Standard ? json::Value(c.rounds) : json::Value(nullptr)},
                        {"min_cards", c.min_cards},
                        {"variant", variant_name(c.variant)},
                        {"handicap", c.handicap},
                        {"stale_calls", stale_calls_name(c.stale_calls)},
                        {"lexicon", std::move(lexicon)},
                        {"deck", deck_json(game.deck())}};
}

Game game_from_json(const json::Value& options, std::shared_ptr<const Lexicon> lexicon) {
    const json::OptionReader r(
        options, "knizia", {"players", "rounds", "min_cards", "variant", "handicap", "stale_calls", "lexicon", "deck"});
    Options o;
    if (r.has("players")) o.players = r.integer_in("players", kMinPlayers, kMaxPlayers, "K1.1");
    if (r.has("rounds") && !r.value("rounds").is_null()) o.rounds = r.integer_in("rounds", 1, kMaxRounds, "K4.2");
    if (r.has("min_cards")) o.min_cards = r.integer_in("min_cards", 1, kMaxWord, "K3.3");
    if (r.has("handicap")) o.handicap = r.integer_in("handicap", 0, 1000, "K4.3");
    if (r.has("variant")) o.variant = enum_option<Variant>(r, "variant", kVariantNames, "K4.3");
    if (r.has("stale_calls")) o.stale_calls = enum_option<StaleCalls>(r, "stale_calls", kStaleNames, "K10.3");
    if (o.variant == Variant::VictoryTiles && o.rounds != 0)
        throw OptionError("the victory_tiles variant plays until a seat has 2 tiles (K4.3): leave rounds out");
    if (!r.has("deck"))
        throw OptionError("deck: a Knizia game needs its deck, {\"language\": ..., \"cards\": {...}} (K10.7)");
    o.deck = deck_from_json(r.value("deck"));
    return Game::make(o, lexicon_of(r, std::move(lexicon)));
}

// ---- views, states and moves --------------------------------------------------------------------

json::Value table_json(const Position& s) {
    json::Tape tape;
    write_cards(tape, s.config, s.table.data(), s.table_count);
    return tape.value();
}

json::Value last_call_json(const Position& s) {
    json::Tape tape;
    write_last_call(tape, s);
    return tape.value();
}

namespace {

/// The view of `player`, or with player = kEveryone the public view: everything but
/// "legal", and "player" null (K5.1: there is no private hand). Without `claims` the
/// legal moves leave out the claims.
void view(const Position& s, int player, json::Tape& w, bool claims) {
    w.begin_object().key("player");
    if (player != kEveryone) w.value(player);
    else w.null();
    w.key("round").value(int{s.round}).key("rounds");
    if (s.config.variant == Variant::Standard) w.value(int{s.config.rounds});
    else w.null();
    w.key("dealer").value(s.dealer()).key("phase").value(phase_name(s.phase)).key("table");
    write_cards(w, s.config, s.table.data(), s.table_count);
    w.key("deck_count").value(s.deck_count()).key("piles");
    write_seat_list(w, s.pile, s.players());
    w.key("scores");
    write_seat_list(w, s.scores, s.players());
    w.key("last_call");
    write_last_call(w, s);
    w.key("penalty");
    write_penalty(w, s);
    w.key("passed");
    write_passed(w, s);
    if (player != kEveryone) {
        const std::vector<Move> moves = legal_moves(s, player, true, claims);
        w.key("legal").begin_array();
        for (const Move& move : moves) {
            Move bare = move;  // the notation of a claim is its word (K7); its data names the cards (K3.4)
            bare.card_count = 0;
            w.value(Rules::format_move(bare));
        }
        w.end_array().key("legal_moves").begin_array();
        for (const Move& move : moves) write_move(w, move);
        w.end_array();
    }
    w.end_object();
}

}  // namespace

void observation(const Position& s, int player, json::Tape& out, bool claims) { view(s, player, out, claims); }

void public_observation(const Position& s, json::Tape& out) { view(s, kEveryone, out, false); }

std::string Rules::to_json(const State& t) {
    const Position& s = t.position;
    const Config& c = s.config;
    json::Writer w(2048 + 16 * t.history.size());
    w.begin_object().key("format").value(kFormat).key("options");
    write_options(w, t.game);
    w.key("seed").value(static_cast<unsigned long long>(s.seed)).key("round").value(int{s.round});
    w.key("phase").value(phase_name(s.phase)).key("deck");
    write_cards(w, c, s.deck.data() + s.deck_next, s.deck_count());
    w.key("table");
    write_cards(w, c, s.table.data(), s.table_count);
    w.key("piles").begin_array();
    for (int p = 0; p < s.players(); ++p) {
        w.begin_object();
        for (const bool taken : {true, false}) {
            const auto& counts = taken ? s.taken[at(p)] : s.drawn[at(p)];
            w.key(taken ? "taken" : "drawn").begin_array();
            for (int kind = 0; kind < c.kind_count; ++kind) {
                for (int i = 0; i < counts[at(kind)]; ++i) w.value(format_card(c.card(kind)));
            }
            w.end_array();
        }
        w.end_object();
    }
    w.end_array().key("passed");
    write_passed(w, s);
    w.key("penalty");
    write_penalty(w, s);
    w.key("last_call");
    write_last_call(w, s);
    w.key("scores");
    write_seat_list(w, s.scores, s.players());
    w.key("deals").begin_array();
    for (const Deal& deal : t.deals) {
        if (deal.empty()) w.null();
        else write_cards(w, c, deal.data(), static_cast<int>(deal.size()));
    }
    w.end_array().key("history").begin_array();
    for (const Step& step : t.history) w.value(std::to_string(step.player) + ":" + Rules::format_move(step.move));
    w.end_array().end_object();
    return std::move(w.text());
}

State Rules::state_from_json(const Game& game, std::string_view text) {
    const json::Document document(text);
    return state_from_document(game, json::Reader(document));
}

json::Value move_json(const Move& move) {
    json::Tape tape;
    write_move(tape, move);
    return tape.value();
}

Move move_from_json(const json::Value& data) {
    const std::string shape =
        "a Knizia move as data is like {\"kind\": \"claim\", \"word\": \"POST\", \"cards\": [3, 7, 9, 2]}, "
        "{\"kind\": \"take\", \"position\": 5}, {\"kind\": \"reveal\"} or {\"kind\": \"pass\"}";
    if (!data.is_object()) throw NotationError(shape + ", got " + json::shown(data));
    const json::Object& o = data.get_object();
    const json::Value* kind = o.if_contains("kind");
    if (kind == nullptr || !kind->is_string())
        throw NotationError(shape + ": 'kind' must be a string, got " + json::shown(data));
    const std::string_view name = text_of(*kind);
    const auto only = [&](std::size_t keys) {
        if (o.size() != keys) throw NotationError(shape + ": unexpected keys in " + json::shown(data));
    };
    if (name == "reveal" || name == "pass") {
        only(1);
        return name == "reveal" ? Move::reveal() : Move::pass();
    }
    if (name == "take") {
        only(2);
        const json::Value* position = o.if_contains("position");
        long long i = -1;
        if (position == nullptr || !json::as_int64(*position, i) || i < 0 || i >= kMaxTable)
            throw NotationError(shape + ": 'position' is a table position 0..127, got " + json::shown(data));
        return Move::take(static_cast<int>(i));
    }
    if (name != "claim") throw NotationError(shape + ": unknown kind in " + json::shown(data));
    const json::Value* word = o.if_contains("word");
    if (word == nullptr || !word->is_string())
        throw NotationError(shape + ": 'word' must be a string, got " + json::shown(data));
    const json::Value* cards = o.if_contains("cards");
    only(cards != nullptr ? 3 : 2);
    std::vector<int> positions;
    if (cards != nullptr && !cards->is_null()) {
        if (!cards->is_array() || cards->get_array().size() > static_cast<std::size_t>(kMaxWord))
            throw NotationError(shape + ": 'cards' is a list of table positions, got " + json::shown(data));
        for (const json::Value& card : cards->get_array()) {
            long long i = -1;
            if (!json::as_int64(card, i) || i < 0 || i >= kMaxTable)
                throw NotationError(shape + ": 'cards' holds table positions 0..127, got " + json::shown(data));
            positions.push_back(static_cast<int>(i));
        }
    }
    // The word is normalised as notation is (K10.8): a called word is text a person typed.
    const std::optional<std::string> normal = normalise_word(text_of(*word));
    if (!normal || normal->empty() || normal->size() > static_cast<std::size_t>(kMaxWord))
        throw NotationError(shape + ": 'word' is a word of 1..64 letters, got " + json::shown(*word));
    return Move::claim(*normal, positions);
}

json::Value Rules::options_json(const Game& game) { return knizia::options_json(game); }

void Rules::observation(const Position& position, int player, json::Tape& out) {
    knizia::observation(position, player, out);
}

json::Value Rules::move_json(const Move& move) { return knizia::move_json(move); }

void Rules::public_observation(const Position& position, json::Tape& out) { knizia::public_observation(position, out); }

json::Value Rules::visibility() { return knizia::visibility(); }

Events Rules::last_events(const State& state) { return state.last_events(); }

static_assert(implements_contract<Rules>());

namespace {

/// One round's deal: the deck's cards in reveal order (K10.7).
Deal given_deal(const Config& c, const json::Value& value, const std::string& what) {
    if (!value.is_array()) {
        throw StateFormatError(what + " must be a list of the deck's " + std::to_string(c.deck_size) +
                               " cards in reveal order (K10.7)");
    }
    Deal deal;
    for (const json::Value& card : value.get_array()) {
        if (!card.is_string()) {
            throw StateFormatError(what + "[" + std::to_string(deal.size()) +
                                   "] must be a string, a card like 'A', got " + json::shown(card));
        }
        Card parsed;
        try {
            parsed = parse_card(text_of(card));
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

}  // namespace

State Rules::new_dealt_state(const Game& game, uint64_t seed, const json::Value& deal) {
    const json::Object& given = json::deal_object(deal, {"deck", "decks"}, "K10.7");
    const json::Value* deck = given.if_contains("deck");
    const json::Value* decks = given.if_contains("decks");
    if (deck != nullptr && decks != nullptr)
        throw StateFormatError("give deck (round 0) or decks (one per round), not both");
    std::vector<Deal> deals;
    if (deck != nullptr) deals.push_back(given_deal(game.config, *deck, "deck"));
    if (decks != nullptr) {
        if (!decks->is_array()) throw StateFormatError("decks must be a list of deals");
        for (const json::Value& item : decks->get_array()) {
            if (deals.size() == static_cast<std::size_t>(kMaxRounds))
                throw StateFormatError("decks: at most 64 rounds");
            const std::string what = "decks[" + std::to_string(deals.size()) + "]";
            deals.push_back(item.is_null() ? Deal{} : given_deal(game.config, item, what));
        }
    }
    return State::start(game, seed, &deals);
}

}  // namespace diabolo::knizia
