// Diabolo (Knizia): card notation, the word finder and claim checks (K3.3, K3.4,
// K6.1, K6.2, K10.4). One depth-first search serves both: it walks an automaton (the
// lexicon's DAWG, or the letters of a single called word) while spending table cards.
#include <algorithm>
#include <array>
#include <cstring>
#include <unordered_map>

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
struct Kinds {
    std::vector<Card> cards;                  // one per kind
    std::vector<std::vector<int>> positions;  // of each kind
    std::array<int, 26> letter_kind{};        // kind index of each single letter, or -1
    int joker = -1, double_joker = -1;
    std::vector<int> doubles;                 // kind indices of double letters

    explicit Kinds(const std::vector<Card>& table) {
        letter_kind.fill(-1);
        for (int pos = 0; pos < static_cast<int>(table.size()); ++pos) {
            const Card& card = table[static_cast<std::size_t>(pos)];
            auto found = std::find(cards.begin(), cards.end(), card);
            if (found == cards.end()) {
                cards.push_back(card);
                positions.emplace_back();
                found = cards.end() - 1;
                const int kind = static_cast<int>(cards.size() - 1);
                switch (card.kind) {
                    case Card::Kind::Letter: letter_kind[static_cast<std::size_t>(card.first - 'A')] = kind; break;
                    case Card::Kind::Double: doubles.push_back(kind); break;
                    case Card::Kind::Joker: joker = kind; break;
                    case Card::Kind::DoubleJoker: double_joker = kind; break;
                }
            }
            positions[static_cast<std::size_t>(found - cards.begin())].push_back(pos);
        }
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
    std::array<uint8_t, kMaxTable> cards{};  // positions in word order
    uint8_t count = 0;
    uint8_t jokers = 0;

    std::array<uint8_t, kMaxTable> sorted() const {
        std::array<uint8_t, kMaxTable> out = cards;
        std::sort(out.begin(), out.begin() + count);
        return out;
    }
    bool better_than(const Candidate& other) const {
        if (count != other.count) return count > other.count;
        if (jokers != other.jokers) return jokers < other.jokers;
        const auto mine = sorted();
        const auto theirs = other.sorted();
        if (!std::equal(mine.begin(), mine.begin() + count, theirs.begin())) {
            return std::lexicographical_compare(mine.begin(), mine.begin() + count, theirs.begin(), theirs.begin() + count);
        }
        // The same cards in another order (two jokers swapping roles): the positions in
        // word order decide, lowest first, so the answer is unique.
        return std::lexicographical_compare(cards.begin(), cards.begin() + count, other.cards.begin(), other.cards.begin() + count);
    }
};

/// The best candidate found for each word, keyed by the word's rank in the automaton.
struct Found {
    std::string word;
    Candidate best;
};

template <class Automaton>
class Search {
public:
    Search(const Automaton& automaton, const Kinds& kinds, int min_cards)
        : automaton_(automaton), kinds_(kinds), min_cards_(min_cards), left_(kinds.cards.size()) {
        for (std::size_t k = 0; k < kinds.cards.size(); ++k) left_[k] = static_cast<int>(kinds.positions[k].size());
        for (int letter = 0; letter < 26; ++letter) {
            if (kinds.letter_kind[static_cast<std::size_t>(letter)] >= 0) plain_letters_ |= 1u << letter;
        }
    }

    /// Runs the search: found() holds the best candidate per word, order() their order.
    void run() {
        visit(automaton_.root(), 0);
        std::sort(order_.begin(), order_.end());
    }
    /// (rank, index into found()) for every word, in rank (= word) order.
    const std::vector<std::pair<uint32_t, uint32_t>>& order() const { return order_; }
    const std::vector<Found>& found() const { return found_; }

private:
    /// Takes table card `kind` for the letters `text` (one or two) leading to `node`.
    void use(int kind, uint32_t node, uint32_t rank, const char* text, int length) {
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
        for (const int kind : kinds_.doubles) {  // K3.3(d): both letters, in printed order
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
        std::array<uint8_t, kMaxTable> taken{};
        for (int i = 0; i < used_count_; ++i) {
            const uint8_t kind = used_[static_cast<std::size_t>(i)];
            candidate.cards[candidate.count++] = static_cast<uint8_t>(kinds_.positions[kind][taken[kind]++]);
            candidate.jokers = static_cast<uint8_t>(candidate.jokers + (kinds_.cards[kind].is_joker() ? 1 : 0));
        }
        const auto slot = index_.find(rank);
        if (slot == index_.end()) {
            index_.emplace(rank, static_cast<uint32_t>(found_.size()));
            order_.emplace_back(rank, static_cast<uint32_t>(found_.size()));
            found_.push_back(Found{std::string(word_.data(), static_cast<std::size_t>(word_length_)), candidate});
        } else if (candidate.better_than(found_[slot->second].best)) {
            found_[slot->second].best = candidate;
        }
    }

    const Automaton& automaton_;
    const Kinds& kinds_;
    int min_cards_;
    std::vector<int> left_;
    uint32_t plain_letters_ = 0;                      // letters of which a plain card is left
    std::array<uint8_t, kMaxTable> used_{};           // kinds taken, in word order
    int used_count_ = 0;
    std::array<char, 2 * kMaxTable> word_{};          // the letters so far
    int word_length_ = 0;
    std::unordered_map<uint32_t, uint32_t> index_;  // rank -> index into found_
    std::vector<Found> found_;
    std::vector<std::pair<uint32_t, uint32_t>> order_;
};

Match to_match(const Found& found) {
    const Candidate& c = found.best;
    return Match{found.word, std::vector<int>(c.cards.begin(), c.cards.begin() + c.count), c.jokers};
}

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
    return to_match(search.found().front());
}

}  // namespace

std::vector<Match> find_words(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards) {
    check_table_size(table);
    const Kinds kinds(table);
    Search<Lexicon> search(lexicon, kinds, min_cards);
    search.run();
    std::vector<Match> matches;
    matches.reserve(search.found().size());
    for (const auto& [rank, index] : search.order()) matches.push_back(to_match(search.found()[index]));
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
