// Diabolo (Knizia): card notation, the word finder and claim checks (K3.3, K3.4,
// K6.1, K6.2, K10.4). One depth-first search serves both: it walks an automaton (the
// lexicon's DAWG, or the letters of a single called word) while spending table cards.
#include <algorithm>
#include <array>
#include <cstring>

#include "diabolo/common/cardset.hpp"
#include "diabolo/knizia.hpp"

namespace diabolo::knizia {

Card parse_card(std::string_view text) {
    const auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
    if (text == "?") return Card{Card::Kind::Joker, 0, 0};
    if (text == "??") return Card{Card::Kind::DoubleJoker, 0, 0};
    if (text.size() == 1 && upper(text[0])) return Card{Card::Kind::Letter, text[0], 0};
    if (text.size() == 2 && upper(text[0]) && upper(text[1])) return Card{Card::Kind::Double, text[0], text[1]};
    throw NotationError("not a card: " + quoted(text) +
                        "; cards are a capital letter ('A'), a double letter ('EI'), a joker ('?') or a double joker ('?\?') (K1.2)");
}

std::string format_card(const Card& card) {
    switch (card.kind) {
        case Card::Kind::Letter: return std::string(1, card.first);
        case Card::Kind::Double: return std::string{card.first, card.second};
        case Card::Kind::Joker: return "?";
        case Card::Kind::DoubleJoker: return "??";
    }
    return "";
}

const char* reason_text(Reason reason) noexcept {
    switch (reason) {
        case Reason::None: return "";
        case Reason::NotAWord: return "not a word";
        case Reason::TooFewCards: return "too few cards";
        case Reason::LettersMissing: return "letters missing";
        case Reason::DoubleLetterSplit: return "double letter split or reversed";
    }
    return "";
}

namespace {

/// The table grouped by kind of card: each kind with its positions, lowest first.
/// Fixed size: no allocation (the finder runs at every step of a game).
struct Kinds {
    int count = 0;                               // kinds on the table
    std::array<Card, kMaxTable> cards;           // one per kind
    std::array<uint8_t, kMaxTable> first{};      // each kind's first entry in `positions`
    std::array<uint8_t, kMaxTable> size{};       // cards of each kind
    std::array<uint8_t, kMaxTable> positions{};  // table positions grouped by kind, lowest first
    std::array<int, 26> letter_kind{};           // kind of each single letter, or -1
    int joker = -1, double_joker = -1;
    std::array<uint8_t, kMaxTable> doubles{};    // kinds of double letters
    int double_count = 0;

    explicit Kinds(const std::vector<Card>& table) {
        letter_kind.fill(-1);
        std::array<uint8_t, kMaxTable> kind_of{};
        for (std::size_t pos = 0; pos < table.size(); ++pos) kind_of[pos] = static_cast<uint8_t>(kind_for(table[pos]));
        for (int k = 0, at = 0; k < count; at += size[static_cast<std::size_t>(k)], ++k) first[static_cast<std::size_t>(k)] = static_cast<uint8_t>(at);
        std::array<uint8_t, kMaxTable> filled{};
        for (std::size_t pos = 0; pos < table.size(); ++pos) {
            const uint8_t k = kind_of[pos];
            positions[first[k] + filled[k]++] = static_cast<uint8_t>(pos);
        }
    }
    int position(int kind, int i) const noexcept { return positions[first[static_cast<std::size_t>(kind)] + static_cast<std::size_t>(i)]; }

private:
    /// The kind of `card`, a new one if it is the first of its kind; counts it.
    int kind_for(const Card& card) {
        int* slot = nullptr;
        switch (card.kind) {
            case Card::Kind::Letter: slot = &letter_kind[static_cast<std::size_t>(card.first - 'A')]; break;
            case Card::Kind::Joker: slot = &joker; break;
            case Card::Kind::DoubleJoker: slot = &double_joker; break;
            case Card::Kind::Double:
                for (int d = 0; d < double_count; ++d) {
                    if (cards[doubles[static_cast<std::size_t>(d)]] == card) {
                        ++size[doubles[static_cast<std::size_t>(d)]];
                        return doubles[static_cast<std::size_t>(d)];
                    }
                }
                doubles[static_cast<std::size_t>(double_count++)] = static_cast<uint8_t>(count);
                break;
        }
        if (slot != nullptr && *slot >= 0) {
            ++size[static_cast<std::size_t>(*slot)];
            return *slot;
        }
        if (slot != nullptr) *slot = count;
        cards[static_cast<std::size_t>(count)] = card;
        size[static_cast<std::size_t>(count)] = 1;
        return count++;
    }
};

/// An automaton over the letters of one word: node i has read i letters.
struct WordAutomaton {
    std::string_view word;
    uint32_t root() const noexcept { return 0; }
    uint32_t letters(uint32_t node) const noexcept {
        return node < word.size() ? 1u << (word[node] - 'A') : 0u;
    }
    bool is_word(uint32_t node) const noexcept { return node == word.size(); }
    uint32_t child(uint32_t node, int letter) const noexcept {
        return node < word.size() && word[node] - 'A' == letter ? node + 1 : Lexicon::kNone;
    }
    uint32_t rank_step(uint32_t, int) const noexcept { return 0; }  // one word: rank 0
    // Node i has one edge (number i) to node i + 1.
    uint32_t first_edge(uint32_t node) const noexcept { return node; }
    uint32_t edge_target(uint32_t edge) const noexcept { return edge + 1; }
    uint32_t edge_step(uint32_t) const noexcept { return 0; }
};

/// An assignment of table cards to a word, compared as K10.4 says: more cards, fewer
/// jokers, then the sorted positions, lowest first; then (engine decision) the
/// positions in word order, lowest first, among assignments in which a joker stands
/// for a letter only once every plain card of that letter is used earlier in the word.
/// Fixed size: no allocation.
struct Candidate {
    std::array<uint8_t, kMaxWord> cards;  // positions in word order; only [0, count) is set
    uint8_t count = 0;
    uint8_t jokers = 0;

    bool better_than(const Candidate& other) const {
        if (count != other.count) return count > other.count;
        if (jokers != other.jokers) return jokers < other.jokers;
        std::array<uint8_t, kMaxWord> mine, theirs;
        std::copy(cards.begin(), cards.begin() + count, mine.begin());
        std::copy(other.cards.begin(), other.cards.begin() + count, theirs.begin());
        std::sort(mine.begin(), mine.begin() + count);
        std::sort(theirs.begin(), theirs.begin() + count);
        if (!std::equal(mine.begin(), mine.begin() + count, theirs.begin())) {
            return std::lexicographical_compare(mine.begin(), mine.begin() + count, theirs.begin(), theirs.begin() + count);
        }
        // The same cards in another order (two jokers swapping roles): the positions in
        // word order decide, lowest first, so the answer is unique.
        return std::lexicographical_compare(cards.begin(), cards.begin() + count, other.cards.begin(), other.cards.begin() + count);
    }
};

/// The best candidate found for a word; its letters are in the search's letter buffer.
struct Found {
    uint32_t rank = 0;
    uint32_t letters = 0;  // offset into the letter buffer
    uint32_t length = 0;
    Candidate best;
};

template <class Automaton>
class Search {
public:
    Search(const Automaton& automaton, const Kinds& kinds, int min_cards)
        : automaton_(automaton), kinds_(kinds), min_cards_(min_cards) {
        for (int k = 0; k < kinds.count; ++k) left_[static_cast<std::size_t>(k)] = kinds.size[static_cast<std::size_t>(k)];
        for (int letter = 0; letter < 26; ++letter) {
            if (kinds.letter_kind[static_cast<std::size_t>(letter)] >= 0) plain_letters_ |= 1u << letter;
        }
    }

    /// Runs the search: found() then holds the best candidate of every word, in the
    /// order they were found; order() lists them in rank (= word) order.
    void run() {
        visit(automaton_.root(), 0);
        order_.reserve(found_.size());
        for (std::size_t i = 0; i < found_.size(); ++i) order_.push_back((uint64_t{found_[i].rank} << 32) | i);
        std::sort(order_.begin(), order_.end());
    }
    const std::vector<Found>& found() const { return found_; }
    /// Each entry's low 32 bits index found(), in rank order.
    const std::vector<uint64_t>& order() const { return order_; }

    MatchView view(const Found& found) const {
        const Candidate& c = found.best;
        return MatchView{std::string_view(letters_.data() + found.letters, found.length), c.cards.data(), c.count, c.jokers};
    }
    Match match(const Found& found) const {
        const MatchView v = view(found);
        return Match{std::string(v.word), std::vector<int>(v.cards, v.cards + v.card_count), v.jokers};
    }

private:
    /// Takes table card `kind` for the letters `text` (one or two) leading to `node`.
    void use(int kind, uint32_t node, uint32_t rank, const char* text, int length) {
        if (word_length_ + length > kMaxWord) return;  // no call is that long (K7)
        const uint32_t plain_before = plain_letters_;
        if (--left_[static_cast<std::size_t>(kind)] == 0 && kinds_.cards[static_cast<std::size_t>(kind)].kind == Card::Kind::Letter) {
            plain_letters_ &= ~(1u << (kinds_.cards[static_cast<std::size_t>(kind)].first - 'A'));
        }
        used_[used_count_++] = static_cast<uint8_t>(kind);
        std::memcpy(word_.data() + word_length_, text, static_cast<std::size_t>(length));
        word_length_ += length;
        visit(node, rank);
        word_length_ -= length;
        --used_count_;
        ++left_[static_cast<std::size_t>(kind)];
        plain_letters_ = plain_before;
    }

    bool have(int kind) const noexcept { return kind >= 0 && left_[static_cast<std::size_t>(kind)] > 0; }

    void visit(uint32_t node, uint32_t rank) {
        if (automaton_.is_word(node) && used_count_ >= min_cards_) record(rank);
        const uint32_t next = automaton_.letters(node);
        const bool joker = have(kinds_.joker);
        const bool double_joker = have(kinds_.double_joker);
        // With a joker in hand every child is a candidate; without, only the letters
        // of plain cards still on the table. Children come in letter order, so edge e
        // of this node is first + e: no bit counting in the loop.
        const uint32_t first = automaton_.first_edge(node);
        uint32_t edge = first;
        const uint32_t wanted = (joker || double_joker) ? next : (next & plain_letters_);
        for (uint32_t rest = next; rest & wanted; rest &= rest - 1, ++edge) {
            const int letter = lowest_bit64(rest);
            if (!(wanted & (1u << letter))) continue;
            const int kind = kinds_.letter_kind[static_cast<std::size_t>(letter)];
            const uint32_t after = automaton_.edge_target(edge);
            const uint32_t rank_after = rank + automaton_.edge_step(edge);
            const char text[2] = {static_cast<char>('A' + letter), 0};
            // K3.3(e). A joker never stands for a letter whose plain card is still free:
            // swapping the two gives the same cards, so the search skips that branch.
            if (have(kind)) use(kind, after, rank_after, text, 1);
            else if (joker) use(kinds_.joker, after, rank_after, text, 1);
            if (double_joker) {                                       // K3.3(f)
                uint32_t second_edge = automaton_.first_edge(after);
                for (uint32_t second = automaton_.letters(after); second; second &= second - 1, ++second_edge) {
                    const char pair[2] = {static_cast<char>('A' + letter), static_cast<char>('A' + lowest_bit64(second))};
                    use(kinds_.double_joker, automaton_.edge_target(second_edge),
                        rank_after + automaton_.edge_step(second_edge), pair, 2);
                }
            }
        }
        for (int d = 0; d < kinds_.double_count; ++d) {  // K3.3(d): both letters, in printed order
            const int kind = kinds_.doubles[static_cast<std::size_t>(d)];
            if (!have(kind)) continue;
            const Card& card = kinds_.cards[static_cast<std::size_t>(kind)];
            if (!(next & (1u << (card.first - 'A')))) continue;
            const uint32_t middle = automaton_.child(node, card.first - 'A');
            if (!(automaton_.letters(middle) & (1u << (card.second - 'A')))) continue;
            const uint32_t rank_after = rank + automaton_.rank_step(node, card.first - 'A') +
                                        automaton_.rank_step(middle, card.second - 'A');
            const char pair[2] = {card.first, card.second};
            use(kind, automaton_.child(middle, card.second - 'A'), rank_after, pair, 2);
        }
    }

    /// The lowest positions of each kind used, given out in word order.
    void record(uint32_t rank) {
        Candidate candidate;
        std::array<uint8_t, kMaxTable> taken;
        for (int i = 0; i < used_count_; ++i) taken[used_[static_cast<std::size_t>(i)]] = 0;
        for (int i = 0; i < used_count_; ++i) {
            const uint8_t kind = used_[static_cast<std::size_t>(i)];
            candidate.cards[candidate.count++] = static_cast<uint8_t>(kinds_.position(kind, taken[kind]++));
            candidate.jokers = static_cast<uint8_t>(candidate.jokers + (kinds_.cards[kind].is_joker() ? 1 : 0));
        }
        uint32_t& slot = slot_of(rank);
        if (slot == kEmpty) {
            slot = static_cast<uint32_t>(found_.size());
            found_.push_back(Found{rank, static_cast<uint32_t>(letters_.size()), static_cast<uint32_t>(word_length_), candidate});
            letters_.append(word_.data(), static_cast<std::size_t>(word_length_));
            if (found_.size() * 2 > slots_.size()) grow();
        } else if (candidate.better_than(found_[slot].best)) {
            found_[slot].best = candidate;
        }
    }

    // An open-addressing table from a word's rank to its entry in found_ (a word is
    // reached once per way of forming it, so most records look one up).
    static constexpr uint32_t kEmpty = 0xFFFFFFFFu;
    uint32_t& slot_of(uint32_t rank) {
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = (rank * 0x9E3779B1u) & mask;; i = (i + 1) & mask) {
            if (slots_[i] == kEmpty || found_[slots_[i]].rank == rank) return slots_[i];
        }
    }
    void grow() {
        slots_.assign(slots_.size() * 2, kEmpty);
        for (std::size_t i = 0; i < found_.size(); ++i) slot_of(found_[i].rank) = static_cast<uint32_t>(i);
    }

    const Automaton& automaton_;
    const Kinds& kinds_;
    int min_cards_;
    std::array<int, kMaxTable> left_{};               // cards of each kind still free
    uint32_t plain_letters_ = 0;                      // letters of which a plain card is left
    std::array<uint8_t, kMaxWord> used_{};            // kinds taken, in word order
    int used_count_ = 0;
    std::array<char, kMaxWord + 1> word_{};           // the letters so far
    int word_length_ = 0;
    std::vector<uint32_t> slots_ = std::vector<uint32_t>(256, kEmpty);  // grows with the words found
    std::vector<Found> found_;
    std::string letters_;                             // the letters of every found word
    std::vector<uint64_t> order_;                     // (rank << 32 | index into found_), sorted
};


void check_table_size(const std::vector<Card>& table) {
    if (table.size() > static_cast<std::size_t>(kMaxTable)) {
        throw NotationError("a table holds at most " + std::to_string(kMaxTable) + " cards, got " + std::to_string(table.size()));
    }
}

/// The best way to form `word` from `table` with any number of cards, if there is one.
std::optional<Match> best_assignment(std::string_view word, const std::vector<Card>& table) {
    const WordAutomaton automaton{word};
    const Kinds kinds(table);
    Search<WordAutomaton> search(automaton, kinds, 0);
    search.run();
    if (search.found().empty()) return std::nullopt;
    return search.match(search.found().front());
}

}  // namespace

void for_each_word(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards,
                   const std::function<void(const MatchView&)>& visit) {
    check_table_size(table);
    const Kinds kinds(table);
    Search<Lexicon> search(lexicon, kinds, min_cards);
    search.run();
    for (const uint64_t entry : search.order()) visit(search.view(search.found()[entry & 0xFFFFFFFFu]));
}

std::vector<Match> find_words(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards) {
    std::vector<Match> matches;
    for_each_word(lexicon, table, min_cards, [&](const MatchView& m) {
        matches.push_back(Match{std::string(m.word), std::vector<int>(m.cards, m.cards + m.card_count), m.jokers});
    });
    return matches;  // in rank order, which is word order
}

Check check_word(const Lexicon& lexicon, std::string_view word, const std::vector<Card>& table, int min_cards) {
    check_table_size(table);
    if (!lexicon.contains(word)) return Check{Reason::NotAWord, std::nullopt};
    if (static_cast<int>(word.size()) < min_cards) return Check{Reason::TooFewCards, std::nullopt};
    if (const auto best = best_assignment(word, table)) {
        if (best->card_count() < min_cards) return Check{Reason::TooFewCards, std::nullopt};
        return Check{Reason::None, *best};
    }
    // Would the word fit if double letters could be split or reversed?
    std::vector<Card> split;
    for (const Card& card : table) {
        if (card.kind != Card::Kind::Double) {
            split.push_back(card);
            continue;
        }
        split.push_back(Card{Card::Kind::Letter, card.first, 0});
        split.push_back(Card{Card::Kind::Letter, card.second, 0});
    }
    if (best_assignment(word, split)) return Check{Reason::DoubleLetterSplit, std::nullopt};
    return Check{Reason::LettersMissing, std::nullopt};
}

}  // namespace diabolo::knizia
