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
};

/// Candidate assignments compared as K10.4 says: more cards, fewer jokers, then the
/// sorted positions, lowest first.
struct Candidate {
    std::vector<int> cards;   // in word order
    std::vector<int> sorted;
    int jokers = 0;
    bool better_than(const Candidate& other) const {
        if (cards.size() != other.cards.size()) return cards.size() > other.cards.size();
        if (jokers != other.jokers) return jokers < other.jokers;
        return sorted < other.sorted;
    }
};

template <class Automaton>
class Search {
public:
    Search(const Automaton& automaton, const Kinds& kinds, int min_cards)
        : automaton_(automaton), kinds_(kinds), min_cards_(min_cards), left_(kinds.cards.size()) {
        for (std::size_t k = 0; k < kinds.cards.size(); ++k) left_[k] = static_cast<int>(kinds.positions[k].size());
    }

    /// Runs the search; found() holds the best candidate per word.
    void run() { visit(automaton_.root()); }
    const std::unordered_map<std::string, Candidate>& found() const { return best_; }

private:
    void use(int kind, uint32_t node, const char* letters) {
        --left_[static_cast<std::size_t>(kind)];
        used_.push_back(kind);
        const std::size_t length = word_.size();
        word_ += letters;
        visit(node);
        word_.resize(length);
        used_.pop_back();
        ++left_[static_cast<std::size_t>(kind)];
    }

    void visit(uint32_t node) {
        if (automaton_.is_word(node) && static_cast<int>(used_.size()) >= min_cards_) record();
        const uint32_t next = automaton_.letters(node);
        for (uint32_t rest = next; rest; rest &= rest - 1) {
            const int letter = lowest_bit64(rest);
            const int kind = kinds_.letter_kind[static_cast<std::size_t>(letter)];
            const char text[2] = {static_cast<char>('A' + letter), 0};
            if (kind >= 0 && left_[static_cast<std::size_t>(kind)] > 0) use(kind, automaton_.child(node, letter), text);
            if (kinds_.joker >= 0 && left_[static_cast<std::size_t>(kinds_.joker)] > 0) {
                use(kinds_.joker, automaton_.child(node, letter), text);  // K3.3(e)
            }
            if (kinds_.double_joker >= 0 && left_[static_cast<std::size_t>(kinds_.double_joker)] > 0) {  // K3.3(f)
                const uint32_t middle = automaton_.child(node, letter);
                for (uint32_t second = automaton_.letters(middle); second; second &= second - 1) {
                    const int other = lowest_bit64(second);
                    const char pair[3] = {static_cast<char>('A' + letter), static_cast<char>('A' + other), 0};
                    use(kinds_.double_joker, automaton_.child(middle, other), pair);
                }
            }
        }
        for (const int kind : kinds_.doubles) {  // K3.3(d): both letters, in printed order
            if (left_[static_cast<std::size_t>(kind)] == 0) continue;
            const Card& card = kinds_.cards[static_cast<std::size_t>(kind)];
            if (!(next & (1u << (card.first - 'A')))) continue;
            const uint32_t middle = automaton_.child(node, card.first - 'A');
            const uint32_t last = automaton_.child(middle, card.second - 'A');
            const char pair[3] = {card.first, card.second, 0};
            if (last != Lexicon::kNone) use(kind, last, pair);
        }
    }

    /// The lowest positions of each kind used, given out in word order.
    void record() {
        Candidate candidate;
        std::array<int, kMaxTable> taken{};
        for (const int kind : used_) {
            const auto k = static_cast<std::size_t>(kind);
            candidate.cards.push_back(kinds_.positions[k][static_cast<std::size_t>(taken[k]++)]);
            candidate.jokers += kinds_.cards[k].is_joker() ? 1 : 0;
        }
        candidate.sorted = candidate.cards;
        std::sort(candidate.sorted.begin(), candidate.sorted.end());
        const auto found = best_.find(word_);
        if (found == best_.end()) best_.emplace(word_, std::move(candidate));
        else if (candidate.better_than(found->second)) found->second = std::move(candidate);
    }

    const Automaton& automaton_;
    const Kinds& kinds_;
    int min_cards_;
    std::vector<int> left_;
    std::vector<int> used_;
    std::string word_;
    std::unordered_map<std::string, Candidate> best_;
};

Match to_match(const std::string& word, const Candidate& c) { return Match{word, c.cards, c.jokers}; }

void check_table_size(const std::vector<Card>& table) {
    if (table.size() > static_cast<std::size_t>(kMaxTable)) {
        throw NotationError("a table holds at most " + std::to_string(kMaxTable) + " cards, got " + std::to_string(table.size()));
    }
}

/// The best way to form `word` from `table` with any number of cards, if there is one.
std::optional<Candidate> best_assignment(std::string_view word, const std::vector<Card>& table) {
    const WordAutomaton automaton{word};
    const Kinds kinds(table);
    Search<WordAutomaton> search(automaton, kinds, 0);
    search.run();
    const auto found = search.found().find(std::string(word));
    if (found == search.found().end()) return std::nullopt;
    return found->second;
}

}  // namespace

std::vector<Match> find_words(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards) {
    check_table_size(table);
    const Kinds kinds(table);
    Search<Lexicon> search(lexicon, kinds, min_cards);
    search.run();
    std::vector<Match> matches;
    matches.reserve(search.found().size());
    for (const auto& [word, candidate] : search.found()) matches.push_back(to_match(word, candidate));
    std::sort(matches.begin(), matches.end(), [](const Match& a, const Match& b) { return a.word < b.word; });
    return matches;
}

Check check_word(const Lexicon& lexicon, std::string_view word, const std::vector<Card>& table, int min_cards) {
    check_table_size(table);
    if (!lexicon.contains(word)) return Check{Reason::NotAWord, std::nullopt};
    if (static_cast<int>(word.size()) < min_cards) return Check{Reason::TooFewCards, std::nullopt};
    if (const auto best = best_assignment(word, table)) {
        if (best->cards.size() < static_cast<std::size_t>(min_cards)) return Check{Reason::TooFewCards, std::nullopt};
        return Check{Reason::None, to_match(std::string(word), *best)};
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
