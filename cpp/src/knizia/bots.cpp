// Diabolo (Knizia): bots and the real-time simulation of whole games (K6.3).
#include <algorithm>

#include "diabolo/core/json.hpp"
#include "diabolo/core/parallel.hpp"
#include "diabolo/knizia/knizia.hpp"

namespace diabolo::knizia {

int reaction_kind(const Move& move) noexcept {
    switch (move.kind) {
        case MoveKind::Reveal: return 0;
        case MoveKind::Claim: return 1;
        case MoveKind::Take: return 2;
        case MoveKind::Pass: return 3;
    }
    return 0;
}

realtime::Reaction default_reaction() noexcept {
    realtime::Reaction reaction;
    reaction.delays[0] = {1.0, 0.2};  // reveal the next card: the dealer's pace (K3.1)
    reaction.delays[1] = {1.2, 0.4};  // see a word and call it; plus a time per letter
    reaction.delays[2] = {1.0, 0.3};  // pick a card as another's penalty (K3.5)
    reaction.delays[3] = {3.0, 0.5};  // give up on the table (K10.5)
    reaction.minimum = 0.15;
    return reaction;
}

int64_t Bot::reaction_time(const Move& move, Pcg32& rng) const noexcept {
    const int64_t base = reaction_.sample(reaction_kind(move), rng);
    return move.kind == MoveKind::Claim ? base + per_letter_ * move.length : base;
}

std::optional<Move> RandomBot::choose(const Position& state, int player, Pcg32& rng) const {
    const std::vector<Move> moves = legal_moves(state, player);
    if (moves.empty()) return std::nullopt;
    return moves[rng.below(static_cast<uint32_t>(moves.size()))];
}

bool Vocabulary::knows(std::string_view word) const noexcept {
    if (static_cast<int>(word.size()) > max_length) return false;
    if (coverage >= 1.0) return true;
    uint64_t hash = memory ^ 0x9E3779B97F4A7C15ULL;  // FNV-style mix of the letters, then a finaliser
    for (const char c : word) hash = (hash ^ static_cast<uint8_t>(c)) * 0x100000001B3ULL;
    hash = mix64(hash);
    return static_cast<double>(hash >> 11) * 0x1.0p-53 < coverage;
}

namespace {

/// The card a bot takes as another's penalty: the most versatile one (K3.5).
int most_versatile(const Position& s) noexcept {
    int best = 0, best_rank = -1;
    for (int i = 0; i < s.table_count; ++i) {
        int rank = 0;
        switch (s.config.card(s.table[static_cast<std::size_t>(i)]).kind) {
            case Card::Kind::DoubleJoker: rank = 3; break;
            case Card::Kind::Joker: rank = 2; break;
            case Card::Kind::Double: rank = 1; break;
            case Card::Kind::Letter: rank = 0; break;
        }
        if (rank > best_rank) best = i, best_rank = rank;
    }
    return best;
}

/// The words on the table that a bot with `vocabulary` can call: the finder walks the
/// bot's own list (the game's lexicon if it has none), so each word found is in it,
/// and the bot knows those within its length and share (K6.3).
FoundWords findable_words(const Vocabulary& vocabulary, const Position& s, const std::vector<Card>& table) {
    return find_words(vocabulary.words ? *vocabulary.words : *s.lexicon, table, s.config.min_cards);
}
std::vector<FoundWordView> known_words(const Vocabulary& vocabulary, const FoundWords& found) {
    std::vector<FoundWordView> known;
    for (std::size_t i = 0; i < found.size(); ++i) {
        if (vocabulary.knows(found[i].word)) known.push_back(found[i]);
    }
    return known;
}

}  // namespace

std::optional<Move> WordBot::choose(const Position& s, int player, Pcg32&) const {
    if (s.is_terminal()) return std::nullopt;
    if (s.phase == Phase::Penalty) {
        if (s.penalty[0] != player) return std::nullopt;
        return Move::take(most_versatile(s));
    }
    // The words it knows, most cards first (ties: word order).
    const std::vector<Card> table = s.table_cards();
    const FoundWords found = findable_words(vocabulary_, s, table);
    std::vector<FoundWordView> known = known_words(vocabulary_, found);
    std::stable_sort(known.begin(), known.end(),
                     [](const FoundWordView& a, const FoundWordView& b) { return a.card_count > b.card_count; });
    if (!known.empty() && !lookahead_) return Move::claim(known.front().word);
    const FoundWordView* best = nullptr;
    double best_value = -1e300;
    for (std::size_t i = 0; i < known.size() && i < 16; ++i) {
        // What the others could take next from the cards this call leaves (K3.6).
        const uint8_t* cards_end = known[i].cards + known[i].card_count;
        std::vector<Card> rest;
        for (std::size_t pos = 0; pos < table.size(); ++pos) {
            if (std::find(known[i].cards, cards_end, static_cast<int>(pos)) == cards_end) rest.push_back(table[pos]);
        }
        int threat = 0;
        const FoundWords replies = find_words(*s.lexicon, rest, s.config.min_cards);
        for (std::size_t r = 0; r < replies.size(); ++r) threat = std::max(threat, replies[r].card_count);
        // A call arrives later the longer the word (K6.3), and a call that arrives after
        // another took its cards gives every other seat a card (K3.5).
        const double value = known[i].card_count - 0.6 * threat - 0.5 * static_cast<double>(known[i].word.size());
        if (value > best_value) best = &known[i], best_value = value;
    }
    if (best) return Move::claim(best->word);
    if (player == s.dealer() && s.deck_count() > 0) return Move::reveal();
    if (s.deck_count() == 0 && !((s.passed >> player) & 1u)) return Move::pass();
    return std::nullopt;  // wait for the next card
}

SearchBot::SearchBot(realtime::Reaction reaction, double per_letter, Vocabulary vocabulary, int worlds, double horizon)
    : Bot(reaction, per_letter),
      own_(reaction, per_letter, std::move(vocabulary), true),
      others_(reaction, per_letter, Vocabulary{}, true),
      worlds_(worlds),
      horizon_(realtime::microseconds(horizon)) {
    realtime::check_search_budget(worlds, kMaxSearchWorlds, horizon, kMaxSearchHorizon);
}

namespace {

/// What a seat has gained, in cards: this round's pile and the totals (K4.1), a victory
/// tile counting ten cards (K4.3).
int64_t cards_of(const Position& s, int seat) noexcept {
    const int per_score = s.config.variant == Variant::Standard ? 1 : 10;
    const auto k = static_cast<std::size_t>(seat);
    return s.pile[k] + int64_t{per_score} * s.scores[k];
}

}  // namespace

std::vector<std::optional<Move>> SearchBot::candidates(const Position& s, int player, Pcg32& rng) const {
    std::vector<std::optional<Move>> moves{own_.choose(s, player, rng)};
    const auto add = [&](const std::optional<Move>& move) {
        if (std::find(moves.begin(), moves.end(), move) == moves.end()) moves.push_back(move);
    };
    const FoundWords found = findable_words(own_.vocabulary(), s, s.table_cards());
    std::vector<FoundWordView> known = known_words(own_.vocabulary(), found);
    // The claims with most cards (a letter less breaks a tie: it arrives sooner, K6.3),
    // then the shortest: the quickest to arrive.
    constexpr std::size_t kMostCards = 8, kShortest = 4;
    const auto weight = [](const FoundWordView& w) { return 16 * w.card_count - static_cast<int>(w.word.size()); };
    std::stable_sort(known.begin(), known.end(),
                     [&](const FoundWordView& a, const FoundWordView& b) { return weight(a) > weight(b); });
    for (std::size_t i = 0; i < known.size() && i < kMostCards; ++i) add(Move::claim(known[i].word));
    std::stable_sort(known.begin(), known.end(),
                     [](const FoundWordView& a, const FoundWordView& b) { return a.word.size() < b.word.size(); });
    for (std::size_t i = 0; i < known.size() && i < kShortest; ++i) add(Move::claim(known[i].word));
    if (known.empty()) return moves;  // nothing to call: as the lookahead does (reveal, pass or wait)
    if (player == s.dealer() && s.deck_count() > 0) add(Move::reveal());
    // Waiting for the others' calls or the next card; never for the dealer, nor once the
    // deck is used up: the round could wait for this seat forever (K3.7).
    if (player != s.dealer() && s.deck_count() > 0) add(std::nullopt);
    return moves;
}

std::optional<Move> SearchBot::choose(const Position& s, int player, Pcg32& rng) const {
    if (s.is_terminal() || s.phase == Phase::Penalty) return own_.choose(s, player, rng);
    const std::vector<std::optional<Move>> moves = candidates(s, player, rng);
    if (moves.size() < 2) return moves.front();
    std::array<const Bot*, realtime::kMaxSeats> bots{};
    for (int p = 0; p < s.players(); ++p) bots[static_cast<std::size_t>(p)] = p == player ? &own_ : &others_;
    const auto world = [&](uint64_t seed) { return resample(s, seed); };
    // The most cards gained over the worlds; ties: the earlier candidate, the lookahead's choice first.
    return moves[realtime::best_sum(
        realtime::flat_search<Rules>(moves, player, bots, worlds_, horizon_, rng, world, cards_of))];
}

std::optional<Move> Rules::try_apply(Position& state, const Move& move, int player) noexcept {
    try {
        return knizia::apply(state, move, player);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

int Rules::random_player(const Position& position, Pcg32& rng) noexcept {
    uint32_t seats = Rules::pending_seats(position);
    if (seats == 0) return -1;
    for (uint32_t skip = rng.below(static_cast<uint32_t>(popcount64(seats))); skip > 0; --skip) seats &= seats - 1;
    return lowest_bit64(seats);
}

void check_bot_options(double per_letter, const Vocabulary& vocabulary) {
    if (!(per_letter >= 0.0 && per_letter <= 60.0))
        throw OptionError("per_letter must be 0..60 seconds, got " + std::to_string(per_letter));
    if (vocabulary.max_length < 1 || vocabulary.max_length > kMaxWord)
        throw OptionError("max_length must be 1.." + std::to_string(kMaxWord) + " letters (K6.3), got " +
                          std::to_string(vocabulary.max_length));
    if (!(vocabulary.coverage >= 0.0 && vocabulary.coverage <= 1.0))
        throw OptionError("coverage must be a share in [0, 1], got " + std::to_string(vocabulary.coverage));
}

std::unique_ptr<const Bot> Rules::make_bot(const Game&, std::string_view kind, const json::Value& options) {
    const json::OptionReader r(options, "the bot",
                               {"per_letter", "max_length", "coverage", "memory", "worlds", "horizon"});
    const double per_letter = r.has("per_letter") ? r.number_in("per_letter", -1e300, 1e300) : kDefaultPerLetter;
    if (kind == "random") {
        if (r.has("max_length") || r.has("coverage") || r.has("memory") || r.has("worlds") || r.has("horizon"))
            throw OptionError("the random bot knows no words: it takes only per_letter");
        check_bot_options(per_letter, Vocabulary{});
        return std::make_unique<RandomBot>(default_reaction(), per_letter);
    }
    if (kind != "word" && kind != "lookahead" && kind != "search") {
        throw OptionError("no bot " + quoted(std::string(kind)) + " for knizia; the bots are " + kInfo.bots);
    }
    Vocabulary words;  // the game's lexicon
    if (r.has("max_length")) words.max_length = json::int_option(r, "max_length");
    if (r.has("coverage")) words.coverage = r.number_in("coverage", -1e300, 1e300);
    if (r.has("memory")) words.memory = static_cast<uint64_t>(r.integer_in("memory", 0, INT32_MAX, "K6.3"));
    check_bot_options(per_letter, words);
    if (kind == "search") {
        const int worlds = r.has("worlds") ? json::int_option(r, "worlds") : kDefaultSearchWorlds;
        const double horizon = r.has("horizon") ? r.number_in("horizon", -1e300, 1e300) : kDefaultSearchHorizon;
        return std::make_unique<SearchBot>(default_reaction(), per_letter, std::move(words), worlds, horizon);
    }
    if (r.has("worlds") || r.has("horizon"))
        throw OptionError("worlds and horizon are options of the search bot, not of " + quoted(std::string(kind)));
    return std::make_unique<WordBot>(default_reaction(), per_letter, std::move(words), kind == "lookahead");
}

}  // namespace diabolo::knizia
