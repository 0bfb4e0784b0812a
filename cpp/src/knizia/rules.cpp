// Diabolo (Knizia): rules, notation and invariants of the game. Clause numbers refer
// to docs/games/knizia.rst.
#include <algorithm>
#include <array>
#include <cstring>
#include <type_traits>

#include "diabolo/core/index.hpp"
#include "diabolo/core/scores.hpp"
#include "diabolo/knizia/knizia.hpp"
#include "events.hpp"

namespace diabolo::knizia {

static_assert(std::is_trivially_copyable_v<Position>, "clone must stay a memcpy");

namespace {

uint8_t bit(int seat) noexcept { return static_cast<uint8_t>(1u << seat); }
uint8_t all_seats(const Position& s) noexcept { return static_cast<uint8_t>((1u << s.players()) - 1); }

/// Cards sort as letters A-Z, double letters, `?`, `??`.
bool card_less(const Card& a, const Card& b) noexcept {
    if (a.kind != b.kind) return a.kind < b.kind;
    if (a.first != b.first) return a.first < b.first;
    return a.second < b.second;
}

int parse_number(std::string_view text, const std::string& what) {
    if (text.empty() || text.size() > 3) throw NotationError(what);
    int value = 0;
    for (const char c : text) {
        if (c < '0' || c > '9') throw NotationError(what);
        value = value * 10 + (c - '0');
    }
    if (value >= kMaxTable) throw NotationError(what);
    return value;
}

std::string_view trim(std::string_view text) noexcept {
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!text.empty() && space(text.front())) text.remove_prefix(1);
    while (!text.empty() && space(text.back())) text.remove_suffix(1);
    return text;
}

}  // namespace

// ---- moves and notation (K7) ------------------------------------------------------------

Move Move::take(int position) noexcept {
    Move move{MoveKind::Take};
    move.position = static_cast<uint8_t>(position);
    return move;
}

Move Move::claim(std::string_view word, const std::vector<int>& cards) {
    if (word.empty() || word.size() > static_cast<std::size_t>(kMaxWord)) {
        throw NotationError("a called word has 1.." + std::to_string(kMaxWord) + " letters, got " +
                            std::to_string(word.size()));
    }
    if (cards.size() > word.size()) {
        throw NotationError("a call names at most one card per letter: " + std::to_string(cards.size()) +
                            " cards for " + quoted(word));
    }
    Move move{MoveKind::Claim};
    for (const char c : word) {
        if (c < 'A' || c > 'Z') throw NotationError("a called word is written with letters A-Z, got " + quoted(word));
        move.letters[move.length++] = c;
    }
    uint64_t seen[2] = {0, 0};
    for (const int card : cards) {
        if (card < 0 || card >= kMaxTable) {
            throw NotationError("table positions are 0.." + std::to_string(kMaxTable - 1) + ", got " +
                                std::to_string(card));
        }
        uint64_t& word_bits = seen[card >> 6];
        if (word_bits & (1ULL << (card & 63)))
            throw NotationError("a call names table position " + std::to_string(card) + " twice");
        word_bits |= 1ULL << (card & 63);
        move.cards[move.card_count++] = static_cast<uint8_t>(card);
    }
    return move;
}

bool operator==(const Move& a, const Move& b) noexcept {
    if (a.kind != b.kind) return false;
    switch (a.kind) {
        case MoveKind::Take: return a.position == b.position;
        case MoveKind::Claim:
            return a.word() == b.word() && a.card_count == b.card_count &&
                   std::equal(a.cards.begin(), a.cards.begin() + a.card_count, b.cards.begin());
        default: return true;
    }
}

std::string Rules::format_move(const Move& move) {
    switch (move.kind) {
        case MoveKind::Reveal: return "reveal";
        case MoveKind::Pass: return "pass";
        case MoveKind::Take: return "take@" + std::to_string(move.position);
        case MoveKind::Claim: {
            std::string text(move.word());
            for (int i = 0; i < move.card_count; ++i) text += (i ? "," : "@") + std::to_string(move.cards[at(i)]);
            return text;
        }
    }
    return "";
}

Move parse_move(std::string_view raw) {
    const std::string_view text = trim(raw);
    if (text == "reveal") return Move::reveal();
    if (text == "pass") return Move::pass();
    if (text.substr(0, 5) == "take@") {
        return Move::take(parse_number(text.substr(5), "not a move: " + quoted(raw) +
                                                           "; a take is 'take@' and a table position 0.." +
                                                           std::to_string(kMaxTable - 1) + " (K7)"));
    }
    const std::size_t sign = text.find('@');
    const std::string_view word_text = text.substr(0, sign);
    const std::optional<std::string> word = normalise_word(word_text);
    if (!word || word->empty()) {
        throw NotationError("not a move: " + quoted(raw) +
                            "; moves are 'reveal', 'pass', 'take@5', or a called word of "
                            "letters like 'LAGER' or 'POST@3,7,9' (K7)");
    }
    std::vector<int> cards;
    if (sign != std::string_view::npos) {
        std::string_view rest = text.substr(sign + 1);
        const std::string what = "not a move: " + quoted(raw) + "; a call's cards are table positions 0.." +
                                 std::to_string(kMaxTable - 1) +
                                 " after '@', separated by commas, like 'POST@3,7,9' (K7)";
        while (true) {
            const std::size_t comma = rest.find(',');
            cards.push_back(parse_number(rest.substr(0, comma), what));
            if (comma == std::string_view::npos) break;
            rest.remove_prefix(comma + 1);
        }
    }
    return Move::claim(*word, cards);
}

int action_of(const Move& move, const Lexicon& lexicon) noexcept {
    switch (move.kind) {
        case MoveKind::Reveal: return kRevealAction;
        case MoveKind::Pass: return kPassAction;
        case MoveKind::Take: return kFirstTakeAction + move.position;
        case MoveKind::Claim: {
            const auto index = lexicon.index_of(move.word());
            return index ? kFirstClaimAction + static_cast<int>(*index) : -1;
        }
    }
    return -1;
}

Move move_of_action(int action, const Lexicon& lexicon) {
    if (action == kRevealAction) return Move::reveal();
    if (action == kPassAction) return Move::pass();
    if (action >= kFirstTakeAction && action < kFirstClaimAction) return Move::take(action - kFirstTakeAction);
    const long long index = static_cast<long long>(action) - kFirstClaimAction;
    if (index < 0 || index >= static_cast<long long>(lexicon.size())) {
        throw NotationError("action ids are 0.." +
                            std::to_string(kFirstClaimAction + static_cast<long long>(lexicon.size()) - 1) +
                            " for this lexicon, got " + std::to_string(action));
    }
    const std::string word = lexicon.word_at(static_cast<uint32_t>(index));
    if (word.size() > static_cast<std::size_t>(kMaxWord)) {
        throw NotationError("action " + std::to_string(action) + " names a word longer than " +
                            std::to_string(kMaxWord) + " letters");
    }
    return Move::claim(word);
}

// ---- options ---------------------------------------------------------------------------------

Config Config::from_options(const Options& o) {
    if (o.players < kMinPlayers || o.players > kMaxPlayers) {
        throw OptionError("players must be 2..6 (K1.1), got " + std::to_string(o.players));
    }
    if (o.rounds < 0 || o.rounds > kMaxRounds)
        throw OptionError("rounds must be 1..64 (K4.2), got " + std::to_string(o.rounds));
    if (o.min_cards < 1 || o.min_cards > kMaxWord) {
        throw OptionError("min_cards must be 1.." + std::to_string(kMaxWord) + " (K3.3), got " +
                          std::to_string(o.min_cards));
    }
    if (o.handicap < 0 || o.handicap > 1000)
        throw OptionError("handicap must be 0..1000 cards (K4.3), got " + std::to_string(o.handicap));
    if (o.deck.kinds.size() != o.deck.counts.size()) throw OptionError("a deck needs one count per kind of card");
    if (o.deck.kinds.empty() || o.deck.kinds.size() > static_cast<std::size_t>(kMaxKinds)) {
        throw OptionError("a deck has 1.." + std::to_string(kMaxKinds) + " kinds of card (K10.7), got " +
                          std::to_string(o.deck.kinds.size()));
    }
    Config c;
    c.players = static_cast<uint8_t>(o.players);
    c.rounds = static_cast<uint8_t>(o.rounds ? o.rounds : (o.players <= 3 ? 2 * o.players : o.players));  // K4.2
    c.min_cards = static_cast<uint8_t>(o.min_cards);
    c.variant = o.variant;
    c.handicap = static_cast<uint16_t>(o.handicap);
    c.stale_calls = o.stale_calls;
    std::vector<std::size_t> order(o.deck.kinds.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return card_less(o.deck.kinds[a], o.deck.kinds[b]); });
    int total = 0;
    for (const std::size_t i : order) {
        const Card& card = o.deck.kinds[i];
        const int count = o.deck.counts[i];
        if (c.kind_count > 0 && c.kinds[at(c.kind_count - 1)] == card) {
            throw OptionError("the deck names the card '" + format_card(card) + "' twice (K10.7)");
        }
        if (count < 1 || count > kMaxDeck) {
            throw OptionError("the deck's count of '" + format_card(card) + "' must be 1.." + std::to_string(kMaxDeck) +
                              ", got " + std::to_string(count));
        }
        total += count;
        c.kinds[at(c.kind_count)] = card;
        c.counts[at(c.kind_count)] = static_cast<uint8_t>(count);
        ++c.kind_count;
    }
    if (total > kMaxDeck)
        throw OptionError("a deck has at most " + std::to_string(kMaxDeck) + " cards, got " + std::to_string(total));
    c.deck_size = static_cast<uint8_t>(total);
    return c;
}

Options Config::to_options() const {
    Options o;
    o.players = players;
    o.rounds = rounds;
    o.min_cards = min_cards;
    o.variant = variant;
    o.handicap = handicap;
    o.stale_calls = stale_calls;
    for (int k = 0; k < kind_count; ++k) {
        o.deck.kinds.push_back(kinds[at(k)]);
        o.deck.counts.push_back(counts[at(k)]);
    }
    return o;
}

int Config::kind_of(const Card& card) const noexcept {
    for (int k = 0; k < kind_count; ++k) {
        if (kinds[at(k)] == card) return k;
    }
    return -1;
}

bool operator==(const Config& a, const Config& b) noexcept {
    return a.players == b.players && a.rounds == b.rounds && a.min_cards == b.min_cards && a.variant == b.variant &&
           a.handicap == b.handicap && a.stale_calls == b.stale_calls && a.kind_count == b.kind_count &&
           std::equal(a.kinds.begin(), a.kinds.begin() + a.kind_count, b.kinds.begin()) &&
           std::equal(a.counts.begin(), a.counts.begin() + a.kind_count, b.counts.begin());
}

// ---- deals --------------------------------------------------------------------------------------

std::vector<Card> Position::table_cards() const {
    std::vector<Card> cards;
    cards.reserve(table_count);
    for (int i = 0; i < table_count; ++i) cards.push_back(config.card(table[at(i)]));
    return cards;
}

void check_deal(const Config& c, const Deal& deal) {
    if (deal.size() != c.deck_size) {
        throw StateFormatError("a deal holds every card of the deck once: " + std::to_string(c.deck_size) +
                               " cards, got " + std::to_string(deal.size()) + " (K10.7)");
    }
    std::array<int, kMaxKinds> seen{};
    for (const uint8_t kind : deal) {
        if (kind >= c.kind_count) throw StateFormatError("a deal names a card the deck does not have (K10.7)");
        ++seen[kind];
    }
    for (int k = 0; k < c.kind_count; ++k) {
        if (seen[at(k)] != c.counts[at(k)]) {
            throw StateFormatError("a deal holds every card of the deck once: " + std::to_string(c.counts[at(k)]) +
                                   " x '" + format_card(c.card(k)) + "', got " + std::to_string(seen[at(k)]) +
                                   " (K10.7)");
        }
    }
}

namespace {

/// Starts round `s.round`: a fresh deal, an empty table and empty piles (K3.1).
void start_round(Position& s, const Deal* given) {
    s.phase = Phase::Play;
    s.deck_next = 0;
    s.table_count = 0;
    s.passed = 0;
    s.penalty_count = 0;
    s.taken = {};
    s.drawn = {};
    s.pile = {};
    s.last_call = LastCall{};
    if (given != nullptr) {
        std::copy(given->begin(), given->end(), s.deck.begin());
        return;
    }
    int n = 0;
    for (int k = 0; k < s.config.kind_count; ++k) {
        for (int i = 0; i < s.config.counts[at(k)]; ++i) s.deck[at(n++)] = static_cast<uint8_t>(k);
    }
    Pcg32 rng(derive_seed(s.seed, s.round), 0x6B6E697AULL);
    rng.shuffle(s.deck.data(), static_cast<std::size_t>(n));
}

}  // namespace

Position new_game(const Config& config, const Lexicon& lexicon, uint64_t seed, const std::vector<Deal>* deals) {
    Position s;
    s.config = config;
    s.lexicon = &lexicon;
    s.seed = seed;
    if (deals != nullptr) {
        for (const Deal& deal : *deals) {
            if (!deal.empty()) check_deal(config, deal);  // an empty deal: shuffled from the seed
        }
    }
    start_round(s, deals != nullptr && !deals->empty() && !deals->front().empty() ? &deals->front() : nullptr);
    return s;
}

void redeal(Position& s, const Deal& deal) {
    check_deal(s.config, deal);
    std::copy(deal.begin(), deal.end(), s.deck.begin());
}

// ---- the rules ---------------------------------------------------------------------------------

bool any_word(const Position& s) { return forms_a_word(*s.lexicon, s.table_cards(), s.config.min_cards); }

Check evaluate_call(const Position& s, const Move& claim) {
    const std::string_view word = claim.word();
    const std::vector<Card> table = s.table_cards();
    if (claim.card_count == 0) return check_word(*s.lexicon, word, table, s.config.min_cards);
    // The caller named the cards (K3.4): they must spell the word in that order.
    if (!s.lexicon->contains(word)) return Check{Reason::NotAWord, std::nullopt};
    if (claim.card_count < s.config.min_cards) return Check{Reason::TooFewCards, std::nullopt};
    std::vector<Card> named;
    bool on_table = true;
    for (int i = 0; i < claim.card_count; ++i) {
        const int position = claim.cards[at(i)];
        if (position >= s.table_count) on_table = false;
        else named.push_back(table[at(position)]);
    }
    if (on_table) {
        std::size_t letter = 0;
        int jokers = 0;
        bool spelled = true;
        for (const Card& card : named) {
            const std::size_t width = (card.kind == Card::Kind::Double || card.kind == Card::Kind::DoubleJoker) ? 2 : 1;
            if (letter + width > word.size()) {
                spelled = false;
                break;
            }
            if (card.kind == Card::Kind::Letter) spelled = word[letter] == card.first;
            else if (card.kind == Card::Kind::Double)
                spelled = word[letter] == card.first && word[letter + 1] == card.second;
            else ++jokers;  // K3.3(e), (f)
            if (!spelled) break;
            letter += width;
        }
        if (spelled && letter == word.size())
            return Check{Reason::None, FoundWord{std::string(word), claim.positions(), jokers}};
    }
    // Not spelled: would the named cards on the table form it with double letters split?
    const Check loose = check_word(*s.lexicon, word, named, 1);
    if (loose.reason == Reason::DoubleLetterSplit) return Check{Reason::DoubleLetterSplit, std::nullopt};
    return Check{Reason::LettersMissing, std::nullopt};
}

namespace {

/// Hands each legal move of `player` to `visit`, in the order legal_moves lists them:
/// visit(kind, position, word), where position is set for take@i and word (its letters
/// and lexicon index) for a claim. Without `claims` the word finder does not run.
template <class Visit>
void for_each_legal(const Position& s, int player, bool claims, Visit&& visit) {
    if (s.phase == Phase::GameOver || player < 0 || player >= s.players()) return;
    if (s.phase == Phase::Penalty) {  // K10.2
        if (s.penalty[0] == player) {
            for (int i = 0; i < s.table_count; ++i) visit(MoveKind::Take, i, nullptr);
        }
        return;
    }
    if (player == s.dealer() && s.deck_count() > 0) visit(MoveKind::Reveal, 0, nullptr);  // K3.1
    if (claims) {
        const FoundWords words = find_words(*s.lexicon, s.table_cards(), s.config.min_cards);
        for (std::size_t i = 0; i < words.size(); ++i) {
            const FoundWordView word = words[i];
            visit(MoveKind::Claim, 0, &word);
        }
    }
    visit(MoveKind::Pass, 0, nullptr);  // K10.5
}

}  // namespace

uint32_t Rules::pending_seats(const Position& s) noexcept {
    if (s.phase == Phase::GameOver) return 0;
    if (s.phase == Phase::Penalty) return 1u << s.penalty[0];  // K10.2
    return (1u << s.players()) - 1;                            // K3.2: pass is always open
}

std::vector<Move> legal_moves(const Position& s, int player, bool name_cards, bool claims) {
    std::vector<Move> moves;
    for_each_legal(s, player, claims, [&](MoveKind kind, int position, const FoundWordView* word) {
        switch (kind) {
            case MoveKind::Reveal: moves.push_back(Move::reveal()); break;
            case MoveKind::Pass: moves.push_back(Move::pass()); break;
            case MoveKind::Take: moves.push_back(Move::take(position)); break;
            case MoveKind::Claim:
                moves.push_back(
                    name_cards ? Move::claim(word->word, std::vector<int>(word->cards, word->cards + word->card_count))
                               : Move::claim(word->word));
                break;
        }
    });
    return moves;
}

namespace {

/// Whether the word finder's walk of the automaton with the table's cards (find_words) is
/// the cheaper way to the legal claims: microseconds at a small table or with a short list,
/// but seconds at a big table with jokers and a long list, where formable_words, which
/// tests every word of the list, takes about a millisecond and at most about fifteen on one
/// core. The limits are the table sizes up to which the walk took under half a millisecond
/// with the German list, by jokers (? one, ?? two); random playouts and bots see such tables
/// at almost every move. A list of a few thousand words is walked at any table.
bool walk_is_cheaper(const Lexicon& lexicon, const std::vector<Card>& table) {
    constexpr std::size_t kShortList = 4096;
    if (lexicon.size() <= kShortList) return true;
    int jokers = 0;
    for (const Card& card : table)
        jokers += card.kind == Card::Kind::Joker ? 1 : card.kind == Card::Kind::DoubleJoker ? 2 : 0;
    constexpr std::size_t kMostCards[] = {20, 12, 8, 4};
    return table.size() <= kMostCards[std::min(jokers, 3)];
}

/// Writes the legal action ids of `player` before the claims to `out` (at most
/// kMaxTable + 2) and returns how many; `claims`: whether claims follow, in the word order.
int ids_before_claims(const Position& s, int player, int32_t* out, bool& claims) {
    claims = false;
    if (s.phase == Phase::GameOver || player < 0 || player >= s.players()) return 0;
    int count = 0;
    if (s.phase == Phase::Penalty) {  // K10.2
        if (s.penalty[0] == player) {
            for (int i = 0; i < s.table_count; ++i) out[count++] = kFirstTakeAction + i;
        }
        return count;
    }
    if (player == s.dealer() && s.deck_count() > 0) out[count++] = kRevealAction;  // K3.1
    out[count++] = kPassAction;  // always open while a round is played (K10.5)
    claims = true;
    return count;
}

/// The claims' ids through put(id), ascending, when the word finder's walk is the cheaper
/// way to them (else false): which words the table forms (K3.3); apply finds a claim's best
/// assignment (K10.4) again.
template <class Put>
bool walked_claims(const Position& s, const std::vector<Card>& table, Put put) {
    if (!walk_is_cheaper(*s.lexicon, table)) return false;
    const FoundWords words = find_words(*s.lexicon, table, s.config.min_cards);
    for (std::size_t i = 0; i < words.size(); ++i) put(kFirstClaimAction + static_cast<int>(words[i].index));
    return true;
}

}  // namespace

int Rules::legal_actions(const Position& s, int player, int32_t* out) {
    bool claims = false;
    int count = ids_before_claims(s, player, out, claims);
    if (!claims) return count;
    const std::vector<Card> table = s.table_cards();
    if (walked_claims(s, table, [&](int id) { out[count++] = id; })) return count;
    return count + formable_words(*s.lexicon, table, s.config.min_cards, kFirstClaimAction, out + count);
}

std::vector<int> Rules::legal_actions(const Position& s, int player) {
    std::array<int32_t, kMaxTable + 2> first;
    bool claims = false;
    const int count = ids_before_claims(s, player, first.data(), claims);
    std::vector<int> ids(first.begin(), first.begin() + count);
    if (!claims) return ids;
    const std::vector<Card> table = s.table_cards();
    if (walked_claims(s, table, [&](int id) { ids.push_back(id); })) return ids;
    // Many claims: written in place, in a vector with room for every word.
    static_assert(std::is_same_v<int, int32_t>, "action ids are int32_t");
    ids.resize(static_cast<std::size_t>(kFirstClaimAction) + s.lexicon->size());
    ids.resize(static_cast<std::size_t>(
        count + formable_words(*s.lexicon, table, s.config.min_cards, kFirstClaimAction, ids.data() + count)));
    return ids;
}

void Rules::compact_view(const Game& game, const int32_t* legal, int count, int claims, int32_t* view) {
    std::fill(view, view + compact_actions(game, claims), -1);
    const int32_t* first_claim = std::lower_bound(legal, legal + count, kFirstClaimAction);
    for (const int32_t* id = legal; id != first_claim; ++id) view[*id] = *id;
    const std::vector<uint8_t>& lengths = game.lexicon->letter_index().lengths;
    const auto length = [&](int32_t id) { return lengths[static_cast<std::size_t>(id - kFirstClaimAction)]; };
    std::vector<int32_t> ranked(first_claim, legal + count);
    const auto kept = std::min<std::ptrdiff_t>(claims, static_cast<std::ptrdiff_t>(ranked.size()));
    std::partial_sort(ranked.begin(), ranked.begin() + kept, ranked.end(),
                      [&](int32_t a, int32_t b) { return length(a) != length(b) ? length(a) > length(b) : a < b; });
    std::copy(ranked.begin(), ranked.begin() + kept, view + kFirstClaimAction);
}

std::optional<IllegalMoveError> Rules::why_illegal(const Position& s, const Move& move, int player) {
    if (player < 0 || player >= s.players())
        return IllegalMoveError("K1.1", "there is no seat " + std::to_string(player), "no_such_seat",
                                {{"seat", std::to_string(player)}});
    if (s.phase == Phase::GameOver) return IllegalMoveError("K4.2", "the game is over", "game_over");
    if (s.phase == Phase::Penalty) {
        if (move.kind != MoveKind::Take) {
            return IllegalMoveError("K10.2",
                                    "the game waits for seat " + std::to_string(s.penalty[0]) +
                                        " to take a card for the invalid call (K3.5)",
                                    "penalty_pending", {{"seat", std::to_string(s.penalty[0])}});
        }
        if (player != s.penalty[0]) {
            return IllegalMoveError(
                "K10.2",
                "seat " + std::to_string(s.penalty[0]) + " takes a card now, not seat " + std::to_string(player),
                "not_your_penalty", {{"taker", std::to_string(s.penalty[0])}, {"seat", std::to_string(player)}});
        }
        if (move.position >= s.table_count) {
            return IllegalMoveError(
                "K3.5",
                "there is no table position " + std::to_string(move.position) + "; the table has " +
                    std::to_string(s.table_count) + " cards",
                "no_such_position",
                {{"position", std::to_string(move.position)}, {"table", std::to_string(s.table_count)}});
        }
        return std::nullopt;
    }
    switch (move.kind) {
        case MoveKind::Take:
            return IllegalMoveError("K3.5", "a card is taken only as the penalty of an invalid call", "no_penalty");
        case MoveKind::Reveal:
            if (player != s.dealer())
                return IllegalMoveError("K3.1",
                                        "only the dealer (seat " + std::to_string(s.dealer()) + ") reveals cards",
                                        "not_the_dealer", {{"dealer", std::to_string(s.dealer())}});
            if (s.deck_count() == 0) return IllegalMoveError("K3.1", "the deck is used up", "deck_empty");
            return std::nullopt;
        case MoveKind::Pass: return std::nullopt;
        case MoveKind::Claim: {
            if (s.config.stale_calls == StaleCalls::Penalty) return std::nullopt;  // K10.3: it draws the penalty
            const Check check = evaluate_call(s, move);
            if (check.reason == Reason::None) return std::nullopt;
            return IllegalMoveError("K3.3",
                                    quoted(move.word()) + " is not a valid claim: " + reason_text(check.reason) +
                                        " (the stale_calls option rejects invalid calls, K10.3)",
                                    "invalid_claim",
                                    {{"word", std::string(move.word())}, {"reason", reason_text(check.reason)}});
        }
    }
    return std::nullopt;
}

namespace {

void to_pile(Position& s, int seat, uint8_t kind, bool blind) {
    auto& counts = blind ? s.drawn[at(seat)] : s.taken[at(seat)];
    ++counts[kind];
    ++s.pile[at(seat)];
}

/// Removes table position `position`; the rest of the line closes up (K3.6).
uint8_t take_from_table(Position& s, int position) {
    const uint8_t kind = s.table[at(position)];
    std::memmove(s.table.data() + position, s.table.data() + position + 1,
                 static_cast<std::size_t>(s.table_count - position - 1));
    s.table[at(--s.table_count)] = 0;
    return kind;
}

/// K10.2: with the table empty, the takers at the head get the deck's top card. Here and
/// below, `log` is null except when a move is replayed for its events.
void settle_penalty(Position& s, EventLog* log) {
    while (s.penalty_count > 0 && s.table_count == 0) {
        const int seat = s.penalty[0];
        std::memmove(s.penalty.data(), s.penalty.data() + 1, static_cast<std::size_t>(s.penalty_count - 1));
        s.penalty[at(--s.penalty_count)] = 0;
        const bool drawn = s.deck_count() > 0;
        if (drawn) to_pile(s, seat, s.deck[s.deck_next++], true);
        if (log) events::took_from_deck(*log, s, seat, drawn);
    }
    s.phase = s.penalty_count > 0 ? Phase::Penalty : Phase::Play;
}

/// Scores the round (K4); the game ends (K4.2, K4.3) or the next round starts.
void end_round(Position& s, EventLog* log) {
    const int n = s.players();
    const auto before = s.scores;
    if (s.config.variant == Variant::Standard) {
        for (int p = 0; p < n; ++p) s.scores[at(p)] += s.pile[at(p)];  // K4.1
        if (log) events::round_ended(*log, s, before);
        if (s.round + 1 >= s.config.rounds) {  // K4.2
            s.phase = Phase::GameOver;
            if (log) game_ended(*log, s.scores, s.players());
            return;
        }
    } else {  // K4.3
        std::array<int, kMaxPlayers> counted{};
        int best = -1'000'000;
        for (int p = 0; p < n; ++p) {
            counted[at(p)] = s.pile[at(p)] - (s.scores[at(p)] > 0 ? s.config.handicap : 0);
            best = std::max(best, counted[at(p)]);
        }
        bool won = false;
        for (int p = 0; p < n; ++p) {
            if (counted[at(p)] == best) ++s.scores[at(p)];
            won = won || s.scores[at(p)] >= 2;
        }
        if (log) events::round_ended(*log, s, before);
        if (won || s.round + 1 >= kMaxRounds) {
            s.phase = Phase::GameOver;
            if (log) game_ended(*log, s.scores, s.players());
            return;
        }
    }
    ++s.round;
    start_round(s, nullptr);
    if (log) events::round_started(*log, s);
}

/// K3.7, K10.5: with the deck used up, the round ends when no word can be formed from
/// the table or every seat's pass stands.
void check_round_end(Position& s, EventLog* log) {
    if (s.phase != Phase::Play || s.deck_count() > 0) return;
    if (s.passed == all_seats(s) || !any_word(s)) end_round(s, log);
}

void record_call(Position& s, int player, const Move& claim, const Check& check) {
    s.last_call.seat = static_cast<int8_t>(player);
    s.last_call.valid = check.reason == Reason::None;
    s.last_call.reason = check.reason;
    s.last_call.length = claim.length;
    s.last_call.word = claim.letters;
}

/// apply(), writing the move's events into `log` unless it is null.
Move play(Position& s, const Move& move, int player, EventLog* log) {
    if (auto error = Rules::why_illegal(s, move, player)) throw *error;
    // The word finder may refuse a table past its limit (LimitError): a call is checked
    // before the state changes, and the state is put back if the end of a round cannot be
    // decided (the finder runs there only with at most a few cards left in the deck).
    const std::optional<Check> check =
        move.kind == MoveKind::Claim ? std::optional<Check>(evaluate_call(s, move)) : std::nullopt;
    const std::optional<Position> before = s.deck_count() <= s.players() ? std::optional<Position>(s) : std::nullopt;
    Move applied = move;
    s.passed = static_cast<uint8_t>(s.passed & ~bit(player));  // K10.5: a move lifts the seat's pass
    switch (move.kind) {
        case MoveKind::Reveal:  // K3.1
            s.table[s.table_count++] = s.deck[s.deck_next++];
            if (log) events::revealed(*log, s, player);
            break;
        case MoveKind::Pass:
            s.passed = static_cast<uint8_t>(s.passed | bit(player));
            if (log) events::passed(*log, player);
            break;
        case MoveKind::Take: {  // K3.5
            const uint8_t kind = take_from_table(s, move.position);
            to_pile(s, player, kind, false);
            std::memmove(s.penalty.data(), s.penalty.data() + 1, static_cast<std::size_t>(s.penalty_count - 1));
            s.penalty[at(--s.penalty_count)] = 0;
            if (log) events::took(*log, player, move.position, s.config.card(kind));
            settle_penalty(s, log);
            break;
        }
        case MoveKind::Claim: {
            record_call(s, player, move, *check);
            if (check->reason == Reason::None) {  // K3.4
                applied = Move::claim(move.word(), check->match->cards);
                std::vector<Card> cards;
                for (const int position : check->match->cards) cards.push_back(s.config.card(s.table[at(position)]));
                if (log) events::called(*log, s, player, check->match->cards, cards);
                std::vector<int> positions = check->match->cards;
                std::sort(positions.rbegin(), positions.rend());
                for (const int position : positions) to_pile(s, player, take_from_table(s, position), false);
                s.passed = 0;  // K10.5
            } else {           // K3.5
                if (log) events::called(*log, s, player, {}, {});
                for (int i = 1; i < s.players(); ++i)
                    s.penalty[at(i - 1)] = static_cast<uint8_t>((player + i) % s.players());
                s.penalty_count = static_cast<uint8_t>(s.players() - 1);
                if (log) events::penalty(*log, s);
                settle_penalty(s, log);
            }
            break;
        }
    }
    try {
        check_round_end(s, log);
    } catch (const LimitError&) {
        if (before) s = *before;
        throw;
    }
    return applied;
}

}  // namespace

Move apply(Position& s, const Move& move, int player) { return play(s, move, player, nullptr); }

std::vector<int> winners(const Position& s) { return best_seats(s.scores, s.players()); }

// ---- determinisation and invariants ------------------------------------------------------------

Position resample(const Position& state, uint64_t seed) {
    Position s = state;
    // The unseen cards: the rest of the deck and the blind draws, in a canonical order
    // (by kind), so the result depends only on public facts and the seed (K5.1).
    std::array<int, kMaxKinds> unseen{};
    for (int i = s.deck_next; i < s.config.deck_size; ++i) ++unseen[s.deck[at(i)]];
    for (int p = 0; p < s.players(); ++p) {
        for (int k = 0; k < s.config.kind_count; ++k) unseen[at(k)] += s.drawn[at(p)][at(k)];
    }
    std::array<uint8_t, kMaxDeck> pool{};
    int n = 0;
    for (int k = 0; k < s.config.kind_count; ++k) {
        for (int i = 0; i < unseen[at(k)]; ++i) pool[at(n++)] = static_cast<uint8_t>(k);
    }
    Pcg32 rng(seed, 0x5E5A3B1EULL);
    rng.shuffle(pool.data(), static_cast<std::size_t>(n));
    int next = 0;
    for (int p = 0; p < s.players(); ++p) {
        int count = 0;
        for (int k = 0; k < s.config.kind_count; ++k) count += s.drawn[at(p)][at(k)];
        s.drawn[at(p)] = {};
        for (int i = 0; i < count; ++i) ++s.drawn[at(p)][pool[at(next++)]];
    }
    for (int i = s.deck_next; i < s.config.deck_size; ++i) s.deck[at(i)] = pool[at(next++)];
    const uint64_t high = rng.next();  // the shuffles of later rounds are unknown too
    s.seed = (high << 32) | rng.next();
    return s;
}

std::string check_invariants(const Position& s) {
    const Config& c = s.config;
    if (s.lexicon == nullptr) return "no lexicon";
    try {
        if (!(Config::from_options(c.to_options()) == c)) return "options are not normalised";
    } catch (const OptionError& e) {
        return std::string("options: ") + e.what();
    }
    if (s.deck_next > c.deck_size) return "deck position beyond the deck";
    if (s.table_count > c.deck_size) return "more table cards than the deck has";
    std::array<int, kMaxKinds> seen{};
    for (int i = s.deck_next; i < c.deck_size; ++i) {
        if (s.deck[at(i)] >= c.kind_count) return "an unknown card in the deck";
        ++seen[s.deck[at(i)]];
    }
    for (int i = 0; i < s.table_count; ++i) {
        if (s.table[at(i)] >= c.kind_count) return "an unknown card on the table";
        ++seen[s.table[at(i)]];
    }
    for (int p = 0; p < kMaxPlayers; ++p) {
        int pile = 0;
        for (int k = 0; k < kMaxKinds; ++k) {
            const int cards = s.taken[at(p)][at(k)] + s.drawn[at(p)][at(k)];
            if (cards > 0 && (p >= c.players || k >= c.kind_count)) return "cards in a pile that does not exist";
            if (k < c.kind_count) seen[at(k)] += cards;
            pile += cards;
        }
        if (pile != s.pile[at(p)]) return "a pile's count differs from its cards";
    }
    for (int k = 0; k < c.kind_count; ++k) {  // every card in one place
        if (seen[at(k)] != c.counts[at(k)]) {
            return "the deck, table and piles hold " + std::to_string(seen[at(k)]) + " '" + format_card(c.card(k)) +
                   "' cards, the deck has " + std::to_string(c.counts[at(k)]);
        }
    }
    if (s.passed & ~all_seats(s)) return "a pass by a seat that does not exist";
    if (s.penalty_count > c.players - 1) return "too many seats in the penalty";
    for (int i = 0; i < s.penalty_count; ++i) {
        if (s.penalty[at(i)] >= c.players) return "a penalty seat that does not exist";
    }
    if ((s.phase == Phase::Penalty) != (s.penalty_count > 0)) return "the phase does not match the penalty";
    if (s.phase == Phase::Penalty && s.table_count == 0) return "a penalty with an empty table";
    if (s.last_call.seat >= c.players || s.last_call.length > kMaxWord) return "a last call that cannot be";
    if (s.last_call.seat >= 0) {
        // K3.3, K3.5: a call is valid exactly when no reason refutes it, and "not a word"
        // is the reason exactly when the lexicon lacks it.
        const std::string_view word = s.last_call.text();
        if (word.empty() || std::any_of(word.begin(), word.end(), [](char ch) { return ch < 'A' || ch > 'Z'; }))
            return "a last call that is no word of A-Z";
        if (s.last_call.valid != (s.last_call.reason == Reason::None))
            return "a last call both valid and refuted, or neither";
        if (s.lexicon != nullptr && (s.last_call.reason == Reason::NotAWord) == s.lexicon->contains(word)) {
            return "a last call whose word the lexicon " +
                   std::string(s.lexicon->contains(word) ? "holds, called not a word" : "lacks, not called so");
        }
    }
    if (s.round >= kMaxRounds || (c.variant == Variant::Standard && s.round >= c.rounds)) return "round out of range";
    for (int p = 0; p < c.players; ++p) {
        if (s.scores[at(p)] < 0) return "a negative score";
    }
    return "";
}

// ---- the record ---------------------------------------------------------------------------------

Game Game::make(const Options& options, std::shared_ptr<const Lexicon> lexicon) {
    if (!lexicon) throw OptionError("a Knizia game needs a lexicon (K1.4)");
    return Game{Config::from_options(options), std::move(lexicon), options.deck.language};
}

Deck Game::deck() const {
    Options o = config.to_options();
    o.deck.language = deck_language;
    return o.deck;
}

int Game::num_actions() const noexcept {
    return kFirstClaimAction + static_cast<int>(lexicon->size());  // at most 2**30 words
}

bool operator==(const Game& a, const Game& b) noexcept {
    return a.config == b.config && a.deck_language == b.deck_language &&
           (a.lexicon == b.lexicon || a.lexicon->fingerprint() == b.lexicon->fingerprint());
}

int Deck::size() const noexcept {
    int total = 0;
    for (const int count : counts) total += count;
    return total;
}

namespace {
std::vector<std::pair<Card, int>> sorted_cards(const Deck& deck) {
    std::vector<std::pair<Card, int>> cards;
    for (std::size_t k = 0; k < deck.kinds.size() && k < deck.counts.size(); ++k)
        cards.emplace_back(deck.kinds[k], deck.counts[k]);
    std::sort(cards.begin(), cards.end(), [](const auto& x, const auto& y) { return card_less(x.first, y.first); });
    return cards;
}
}  // namespace

bool operator==(const Deck& a, const Deck& b) { return a.language == b.language && sorted_cards(a) == sorted_cards(b); }

State State::start(const Game& game, uint64_t seed, const std::vector<Deal>* deals) {
    State t;
    t.game = game;
    if (deals != nullptr) t.deals = *deals;
    t.position = new_game(game.config, *t.game.lexicon, seed, deals);
    return t;
}

Move State::apply(const Move& move, int player) {
    const int round = position.round;
    Position next = position;
    const Move applied = knizia::apply(next, move, player);
    for (int p = 0; p < kMaxPlayers; ++p) rewards[at(p)] = next.scores[at(p)] - position.scores[at(p)];
    if (next.round != round && !next.is_terminal() && next.round < static_cast<int>(deals.size()) &&
        !deals[next.round].empty()) {
        redeal(next, deals[next.round]);
    }
    history.push_back(Step{player, applied});
    keep_position_before_move(*this);
    position = next;
    return applied;
}

Events State::last_events() const {
    return replay_last_move(
        *this, [](Position& s, const Move& move, int player, EventLog& log) { play(s, move, player, &log); });
}

int64_t Rules::max_game_length(const Game&) noexcept {
    return -1;  // a pass is always open and may be repeated (K10.5): no longest game
}

int64_t Rules::min_utility(const Game&) noexcept { return 0; }

int64_t Rules::max_utility(const Game& game) noexcept {
    // Standard: every card of every round in one pile (K4.1); victory tiles: the game
    // ends when a seat holds 2 (K4.3).
    return game.config.variant == Variant::Standard ? int64_t{game.config.deck_size} * game.config.rounds : 2;
}

std::string State::check() const {
    if (!(position.config == game.config) || position.lexicon != game.lexicon.get())
        return "the position is not of the state's game";
    std::string problem = check_invariants(position);
    if (!problem.empty()) return problem;
    for (const Step& step : history) {
        if (step.player < 0 || step.player >= position.players())
            return "a history entry of a seat that does not exist";
    }
    return "";
}

State State::resample(int, uint64_t seed) const {
    State t = *this;
    t.position = knizia::resample(position, seed);
    t.before.reset();  // neither its last move nor older versions are replayed from the real table
    t.origin.reset();
    t.deals.clear();  // a given deal of a later round is hidden too: the resampled game shuffles it
    return t;
}

}  // namespace diabolo::knizia
