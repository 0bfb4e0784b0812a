// A frozen copy of the Knizia word finder as it was before the finder that walks each
// prefix once (cpp/src/knizia/words.cpp, commit 045466a): a depth-first search that
// records every card assignment of every word and keeps the best per word at the end.
// It is the reference the tests and benchmarks/finder_worst.cpp compare the new finder
// with (results must be identical); it is slow on big tables (its time and memory grow
// with the assignments). Header-only, internal names in namespace reference.
#pragma once

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "diabolo/core/cardset.hpp"
#include "diabolo/knizia/knizia.hpp"

namespace diabolo::knizia::reference {

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
    std::array<uint8_t, kMaxTable> doubles{};  // kinds of double letters
    int double_count = 0;
    std::array<uint32_t, 26> double_seconds{};  // for each first letter, the second letters of its doubles

    explicit Kinds(const std::vector<Card>& table) {
        letter_kind.fill(-1);
        std::array<uint8_t, kMaxTable> kind_of{};
        for (std::size_t pos = 0; pos < table.size(); ++pos) kind_of[pos] = static_cast<uint8_t>(kind_for(table[pos]));
        for (int k = 0, at = 0; k < count; at += size[static_cast<std::size_t>(k)], ++k)
            first[static_cast<std::size_t>(k)] = static_cast<uint8_t>(at);
        for (int d = 0; d < double_count; ++d) {
            const Card& card = cards[doubles[static_cast<std::size_t>(d)]];
            double_seconds[static_cast<std::size_t>(card.first - 'A')] |= 1u << (card.second - 'A');
        }
        std::array<uint8_t, kMaxTable> filled{};
        for (std::size_t pos = 0; pos < table.size(); ++pos) {
            const uint8_t k = kind_of[pos];
            positions[first[k] + filled[k]++] = static_cast<uint8_t>(pos);
        }
    }

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

using Arc = Lexicon::Arc;

/// An automaton over the letters of one word, walked like the lexicon's: node i has
/// read i letters, and arc i leads to node i + 1.
class WordAutomaton {
public:
    /// `word` has at most kMaxWord letters, A-Z.
    explicit WordAutomaton(std::string_view word) : root_{node_mask(word, 0), 0, 0} {
        for (std::size_t i = 0; i < word.size(); ++i) {
            arcs_[i] = Arc{node_mask(word, i + 1), static_cast<uint32_t>(i + 1), 0};  // one word: rank 0
        }
    }
    const Arc& root() const noexcept { return root_; }
    const Arc& arc(uint32_t index) const noexcept { return arcs_[index]; }
    const Arc& next(const Arc& node, int) const noexcept { return arcs_[node.first]; }

private:
    static uint32_t node_mask(std::string_view word, std::size_t read) noexcept {
        return read < word.size() ? 1u << (word[read] - 'A') : Lexicon::kTerminalBit;
    }
    Arc root_;
    std::array<Arc, kMaxWord> arcs_{};
};

/// An assignment of table cards to a word, compared as K10.4 says: more cards, fewer
/// jokers, then the sorted positions, lowest first; then (engine decision) the
/// positions in word order, lowest first, among assignments in which a joker stands
/// for a letter only once every plain card of that letter is used earlier in the word.
struct Candidate {
    const uint8_t* cards;  // positions in word order
    int count;
    int jokers;

    bool better_than(const Candidate& other) const {
        if (count != other.count) return count > other.count;
        if (jokers != other.jokers) return jokers < other.jokers;
        std::array<uint8_t, kMaxWord> mine, theirs;
        std::copy(cards, cards + count, mine.begin());
        std::copy(other.cards, other.cards + count, theirs.begin());
        std::sort(mine.begin(), mine.begin() + count);
        std::sort(theirs.begin(), theirs.begin() + count);
        if (!std::equal(mine.begin(), mine.begin() + count, theirs.begin())) {
            return std::lexicographical_compare(mine.begin(), mine.begin() + count, theirs.begin(),
                                                theirs.begin() + count);
        }
        // The same cards in another order (two jokers swapping roles): the positions in
        // word order decide, lowest first, so the answer is unique.
        return std::lexicographical_compare(cards, cards + count, other.cards, other.cards + count);
    }
};

/// A growing buffer that takes a word's letters or cards with one copy of a fixed
/// kMaxWord bytes (a few wide moves, no call): it keeps that much room at its end.
template <class T>
class Buffer {
public:
    Buffer() = default;
    uint32_t size() const noexcept { return static_cast<uint32_t>(used_); }
    const T* data() const noexcept { return storage_.data(); }
    void append(const std::array<T, kMaxWord>& from, int count) {
        if (used_ + kMaxWord > storage_.size())
            storage_.resize(std::max<std::size_t>(4 * kMaxWord, 2 * storage_.size()));
        std::memcpy(storage_.data() + used_, from.data(), sizeof from);
        used_ += static_cast<std::size_t>(count);
    }
    /// The contents, as a vector of size(); the buffer is left empty.
    std::vector<T> release() {
        storage_.resize(used_);
        used_ = 0;
        return std::move(storage_);
    }

private:
    std::vector<T> storage_;
    std::size_t used_ = 0;
};

/// What a search records: each way it found to form a word, stored flat.
struct Found {
    std::vector<FoundWords::Entry> entries;
    Buffer<char> letters;
    Buffer<uint8_t> positions;

    Candidate candidate(const FoundWords::Entry& e) const {
        return Candidate{positions.data() + e.positions, e.count, e.jokers};
    }

    /// Sorts the entries by word (`words` bounds the ranks) and keeps each word once,
    /// with its best assignment (K10.4).
    void keep_best(uint32_t words) {
        sort_by_index(words);
        std::size_t kept = 0;
        for (const FoundWords::Entry& e : entries) {
            if (kept > 0 && entries[kept - 1].index == e.index) {
                if (candidate(e).better_than(candidate(entries[kept - 1]))) entries[kept - 1] = e;
            } else {
                entries[kept++] = e;
            }
        }
        entries.resize(kept);
    }

private:
    /// Few entries (a game's table, one called word): a stable insertion sort. Many (a
    /// table with a joker forms a thousand words or more): a stable least-significant-
    /// digit radix sort, a few passes where a comparison sort would mispredict most of
    /// its comparisons. Its digits are as wide as the lexicon's word count needs.
    void sort_by_index(uint32_t words) {
        const auto by_index = [](const FoundWords::Entry& a, const FoundWords::Entry& b) { return a.index < b.index; };
        if (entries.size() <= 64) {
            for (std::size_t i = 1; i < entries.size(); ++i) {
                const FoundWords::Entry e = entries[i];
                std::size_t j = i;
                for (; j > 0 && by_index(e, entries[j - 1]); --j) entries[j] = entries[j - 1];
                entries[j] = e;
            }
            return;
        }
        int bits = 1;
        while (bits < 32 && (words >> bits) != 0) ++bits;
        const int passes = (bits + 10) / 11;
        const int digit = (bits + passes - 1) / passes;
        const uint32_t mask = (1u << digit) - 1;
        // The passes go back and forth between the entries and a scratch array (left
        // uninitialised: every slot is written before it is read).
        const std::unique_ptr<FoundWords::Entry[]> scratch(new FoundWords::Entry[entries.size()]);
        FoundWords::Entry* from = entries.data();
        FoundWords::Entry* to = scratch.get();
        std::vector<uint32_t> start(std::size_t{mask} + 1);
        for (int shift = 0; shift < passes * digit; shift += digit) {
            std::fill(start.begin(), start.end(), 0u);
            for (std::size_t i = 0; i < entries.size(); ++i) ++start[(from[i].index >> shift) & mask];
            uint32_t sum = 0;
            for (uint32_t& s : start) sum += std::exchange(s, sum);
            for (std::size_t i = 0; i < entries.size(); ++i) to[start[(from[i].index >> shift) & mask]++] = from[i];
            std::swap(from, to);
        }
        if (from != entries.data()) std::copy(from, from + entries.size(), entries.data());
    }
};

/// A depth-first walk of an automaton that spends table cards on its letters (K3.3),
/// recording every way it finds to form a word (Found::keep_best then keeps the best
/// per word, K10.4). The walk is the game's move generation, so it is lean: a child is entered only if
/// a card left can continue it or it ends a word long enough to call, which the arc in
/// hand tells without reading the child's own arcs.
template <class Automaton>
class Search {
public:
    /// With `stop_at_first`, the walk ends at the first word it records.
    Search(const Automaton& automaton, const Kinds& kinds, int min_cards, bool stop_at_first = false)
        : automaton_(automaton), kinds_(kinds), min_cards_(min_cards), stop_at_first_(stop_at_first) {
        for (int letter = 0; letter < 26; ++letter) {
            if (kinds.letter_kind[at(letter)] >= 0) plain_letters_ |= 1u << letter;
        }
        double_letters_ = doubles_left();
        jokers_ = kinds.joker >= 0 ? kinds.size[at(kinds.joker)] : 0;
        double_jokers_ = kinds.double_joker >= 0 ? kinds.size[at(kinds.double_joker)] : 0;
        visit(automaton_.root(), 0);
    }

    /// Every way found to form a word, in the order found; .index is the word's rank.
    Found& found() noexcept { return found_; }

private:
    static std::size_t at(int i) noexcept { return static_cast<std::size_t>(i); }
    bool have(int kind) const noexcept { return taken_[at(kind)] < kinds_.size[at(kind)]; }
    uint32_t first_letter_bit(int kind) const noexcept { return 1u << (kinds_.cards[at(kind)].first - 'A'); }

    void visit(const Arc& node, uint32_t rank) {
        if (node.is_word() && used_ >= min_cards_) {
            record(rank);
            if (done_) return;
        }
        const uint32_t letters = node.letters();
        // What a child must show to be worth entering once a card is spent on it.
        const uint32_t finish = used_ + 1 >= min_cards_ ? Lexicon::kTerminalBit : 0u;
        const uint32_t plain_reach = plain_letters_ | double_letters_ | finish;
        const uint32_t any_reach = Lexicon::kLetterBits | finish;
        const bool joker_left = jokers_ + double_jokers_ > 0;
        const uint32_t joker_reach = jokers_ + double_jokers_ > 1 ? any_reach : plain_reach;
        const uint32_t single_jokers = jokers_ > 0 ? ~0u : 0u;
        // The children to enter, for a plain card or for a joker, are listed first
        // without a branch per child (the processor could not predict them), then
        // entered. An entry is the child's arc index and its letter.
        std::array<uint32_t, 26> plain, joker;
        int plains = 0, jokers = 0;
        if (!joker_left) {
            // Only letters with a plain card left: a few of the node's arcs.
            for (uint32_t rest = letters & plain_letters_; rest; rest &= rest - 1) {
                const uint32_t letter = static_cast<uint32_t>(lowest_bit64(rest));
                const uint32_t index = node.first + static_cast<uint32_t>(popcount64(letters & ((1u << letter) - 1)));
                plain[at(plains)] = index << 5 | letter;
                plains += (automaton_.arc(index).mask & plain_reach) != 0;
            }
        } else {
            uint32_t index = node.first;  // every arc, in letter order
            for (uint32_t rest = letters; rest; rest &= rest - 1, ++index) {
                const uint32_t letter = static_cast<uint32_t>(lowest_bit64(rest));
                const uint32_t mask = automaton_.arc(index).mask;
                // A joker never stands for a letter whose plain card is still free (K3.3(e)):
                // swapping the two gives the same cards, so the walk skips that branch.
                const bool has_plain = (plain_letters_ & (1u << letter)) != 0;
                plain[at(plains)] = index << 5 | letter;
                plains += has_plain & ((mask & any_reach) != 0);
                joker[at(jokers)] = index << 5 | letter;
                jokers += !has_plain & ((mask & joker_reach & single_jokers) != 0);
            }
        }
        for (int i = 0; i < plains && !done_; ++i) {
            const Arc& child = automaton_.arc(plain[at(i)] >> 5);
            const int letter = static_cast<int>(plain[at(i)] & 31);
            take<Card::Kind::Letter>(kinds_.letter_kind[at(letter)], child, rank + child.step, letter);
        }
        for (int i = 0; i < jokers && !done_; ++i) {
            const Arc& child = automaton_.arc(joker[at(i)] >> 5);
            take<Card::Kind::Joker>(kinds_.joker, child, rank + child.step, static_cast<int>(joker[at(i)] & 31));
        }
        if (double_jokers_ > 0) {
            uint32_t index = node.first;
            for (uint32_t rest = letters; rest && !done_; rest &= rest - 1, ++index) {
                const Arc& child = automaton_.arc(index);
                take_double_joker(child, rank + child.step, lowest_bit64(rest), joker_reach);
            }
        }
        if (double_letters_ & letters) take_doubles(node, rank, joker_left ? any_reach : plain_reach);
    }

    /// K3.3(f): a double joker for `letter` (which leads to `middle`) and any next letter.
    void take_double_joker(const Arc& middle, uint32_t rank, int letter, uint32_t reach) {
        uint32_t index = middle.first;
        for (uint32_t rest = middle.letters(); rest && !done_; rest &= rest - 1, ++index) {
            const Arc& after = automaton_.arc(index);
            if (after.mask & reach)
                take<Card::Kind::DoubleJoker>(kinds_.double_joker, after, rank + after.step, letter,
                                              lowest_bit64(rest));
        }
    }

    /// K3.3(d): a double letter card spends both its letters, in printed order.
    void take_doubles(const Arc& node, uint32_t rank, uint32_t reach) {
        for (uint32_t firsts = double_letters_ & node.letters(); firsts && !done_; firsts &= firsts - 1) {
            const int first = lowest_bit64(firsts);
            const Arc& middle = automaton_.next(node, first);
            if (!(middle.letters() & kinds_.double_seconds[at(first)])) continue;
            for (int d = 0; d < kinds_.double_count && !done_; ++d) {
                const int kind = kinds_.doubles[at(d)];
                const int second = kinds_.cards[at(kind)].second - 'A';
                if (kinds_.cards[at(kind)].first - 'A' != first || !have(kind) || !(middle.letters() & (1u << second)))
                    continue;
                const Arc& after = automaton_.next(middle, second);
                if (after.mask & reach)
                    take<Card::Kind::Double>(kind, after, rank + middle.step + after.step, first, second);
            }
        }
    }

    /// Takes the lowest free card of `kind`, a card of kind `K`, for `letter` (and
    /// `second`, if not -1), which lead to `node`, and walks on from there.
    template <Card::Kind K>
    void take(int kind, const Arc& node, uint32_t rank, int letter, int second = -1) {
        const int length = second < 0 ? 1 : 2;
        if (length_ + length > kMaxWord) return;  // no call is that long (K7)
        const std::size_t k = at(kind);
        cards_[at(used_++)] = kinds_.positions[kinds_.first[k] + taken_[k]];  // the lowest free card of the kind
        word_[at(length_)] = static_cast<char>('A' + letter);
        if (second >= 0) word_[at(length_ + 1)] = static_cast<char>('A' + second);
        length_ += length;
        const bool last = ++taken_[k] == kinds_.size[k];
        const uint32_t double_before = double_letters_;
        if (K == Card::Kind::Letter) plain_letters_ &= ~((1u << letter) & (0u - static_cast<uint32_t>(last)));
        if (K == Card::Kind::Double && last) double_letters_ = doubles_left();
        if (K == Card::Kind::Joker) --jokers_;
        if (K == Card::Kind::DoubleJoker) --double_jokers_;
        if (K == Card::Kind::Joker || K == Card::Kind::DoubleJoker) ++jokers_used_;
        // A child no card left can continue is recorded without walking its arcs.
        const uint32_t reach = jokers_ + double_jokers_ > 0 ? Lexicon::kLetterBits : plain_letters_ | double_letters_;
        if (node.letters() & reach) visit(node, rank);
        else if (node.is_word() && used_ >= min_cards_) record(rank);
        if (K == Card::Kind::Letter) plain_letters_ |= 1u << letter;  // it had a card left
        double_letters_ = double_before;
        if (K == Card::Kind::Joker) ++jokers_;
        if (K == Card::Kind::DoubleJoker) ++double_jokers_;
        if (K == Card::Kind::Joker || K == Card::Kind::DoubleJoker) --jokers_used_;
        --taken_[k];
        length_ -= length;
        --used_;
    }

    uint32_t doubles_left() const noexcept {
        uint32_t bits = 0;
        for (int d = 0; d < kinds_.double_count; ++d) {
            if (have(kinds_.doubles[at(d)])) bits |= first_letter_bit(kinds_.doubles[at(d)]);
        }
        return bits;
    }

    /// Records the word spelled so far with the cards taken for it: the lowest free
    /// card of each kind, so each kind's cards are given out lowest first, in word order.
    void record(uint32_t rank) {
        found_.entries.push_back(FoundWords::Entry{rank, found_.letters.size(), found_.positions.size(),
                                                   static_cast<uint8_t>(length_), static_cast<uint8_t>(used_),
                                                   static_cast<uint8_t>(jokers_used_)});
        found_.letters.append(word_, length_);
        found_.positions.append(cards_, used_);
        done_ = stop_at_first_;
    }

    const Automaton& automaton_;
    const Kinds& kinds_;
    int min_cards_;
    bool stop_at_first_;
    bool done_ = false;                       // stop_at_first_ and a word was found
    std::array<uint8_t, kMaxTable> taken_{};  // cards of each kind taken for the word so far
    uint32_t plain_letters_ = 0;              // letters of which a plain card is left
    uint32_t double_letters_ = 0;             // first letters of the double cards left
    int jokers_ = 0, double_jokers_ = 0;      // joker cards left
    int jokers_used_ = 0;                     // joker cards taken for the word so far
    std::array<uint8_t, kMaxWord> cards_{};   // positions taken, in word order
    int used_ = 0;                            // cards taken
    std::array<char, kMaxWord> word_{};       // the letters so far
    int length_ = 0;
    Found found_;
};

/// The best way to form `word` from `table` with any number of cards, if there is one.
inline std::optional<FoundWord> best_assignment(std::string_view word, const std::vector<Card>& table) {
    if (word.size() > static_cast<std::size_t>(kMaxWord)) return std::nullopt;  // no call is that long (K7)
    const WordAutomaton automaton(word);
    const Kinds kinds(table);
    Search<WordAutomaton> search(automaton, kinds, 0);
    Found& found = search.found();
    if (found.entries.empty()) return std::nullopt;
    found.keep_best(1);
    const FoundWords::Entry& e = found.entries.front();
    const uint8_t* cards = found.positions.data() + e.positions;
    return FoundWord{std::string(word), std::vector<int>(cards, cards + e.count), e.jokers};
}

/// One word found: its rank, letters, best assignment (positions in word order) and jokers.
struct Found1 {
    uint32_t index;
    std::string word;
    std::vector<int> cards;
    int jokers;
    bool operator==(const Found1& o) const {
        return index == o.index && word == o.word && cards == o.cards && jokers == o.jokers;
    }
};

/// find_words of the old finder, as a plain list; `assignments` (if given) receives the
/// number of assignments it recorded before keeping the best per word.
inline std::vector<Found1> find_words(const Lexicon& lexicon, const std::vector<Card>& table,
                                      int min_cards = kDefaultMinCards, std::size_t* assignments = nullptr) {
    const Kinds kinds(table);
    Search<Lexicon> search(lexicon, kinds, min_cards);
    Found& found = search.found();
    if (assignments) *assignments = found.entries.size();
    found.keep_best(static_cast<uint32_t>(lexicon.size()));
    std::vector<Found1> out;
    out.reserve(found.entries.size());
    for (const FoundWords::Entry& e : found.entries) {
        const uint8_t* cards = found.positions.data() + e.positions;
        out.push_back(Found1{e.index, std::string(found.letters.data() + e.letters, e.length),
                             std::vector<int>(cards, cards + e.count), e.jokers});
    }
    return out;
}

/// The old find_words up to the FoundWords it returned (which only moves these buffers in),
/// for timing.
inline std::size_t find_words_raw(const Lexicon& lexicon, const std::vector<Card>& table,
                                  int min_cards = kDefaultMinCards) {
    const Kinds kinds(table);
    Search<Lexicon> search(lexicon, kinds, min_cards);
    Found& found = search.found();
    found.keep_best(static_cast<uint32_t>(lexicon.size()));
    const std::vector<char> letters = found.letters.release();
    const std::vector<uint8_t> positions = found.positions.release();
    return found.entries.size() + letters.size() + positions.size();
}

inline bool forms_a_word(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards = kDefaultMinCards) {
    const Kinds kinds(table);
    return !Search<Lexicon>(lexicon, kinds, min_cards, true).found().entries.empty();
}

inline Check check_word(const Lexicon& lexicon, std::string_view word, const std::vector<Card>& table,
                        int min_cards = kDefaultMinCards) {
    if (!lexicon.contains(word)) return Check{Reason::NotAWord, std::nullopt};
    if (static_cast<int>(word.size()) < min_cards) return Check{Reason::TooFewCards, std::nullopt};
    if (const auto best = best_assignment(word, table)) {
        if (best->card_count() < min_cards) return Check{Reason::TooFewCards, std::nullopt};
        return Check{Reason::None, *best};
    }
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

}  // namespace diabolo::knizia::reference
