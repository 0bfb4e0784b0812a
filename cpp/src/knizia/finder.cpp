// Diabolo (Knizia): the word finder and the claim check (K3.3, K3.4, K6.1, K6.2, K10.4):
// which words a table forms and with which cards.
//
// THE FINDER. find_words, forms_a_word and check_word walk an automaton depth first (the
// lexicon's DAWG, or the letters of one called word) while spending table cards on its
// letters. A way to spend them on a word, an assignment, is fixed by its tiling: the
// letters that two-letter cards cover (a double letter card in printed order, or a double
// joker over any two consecutive letters; K3.3 d, f). Every other letter is a single and
// takes a plain card of its letter while one is left, else a joker (K3.3 e: a joker never
// stands for a letter whose plain card is free), each kind's cards given out lowest
// position first, in word order. Two walks, both exact (the same words, the same cards in
// word order, the same jokers):
//
// - The tiling walk enters a prefix once per tiling of it, records every assignment and
//   keeps the best per word at the end (K10.4). The tables of a game have few tilings per
//   word, and this is the fastest walk there. A big table has many (double letters,
//   double jokers over any two letters, jokers: 30 cards of the German deck took 2.6 s
//   and 1.7 GB, 60 cards more than 4 GB): after kTilingBudget prefixes entered and
//   assignments recorded the tiling walk gives up and the prefix walk starts over.
//
// - The prefix walk enters each prefix once, with its minimal tilings: those from which no
//   tile can be taken away (the two letters would need cards that are not there), a tile
//   open at the last letter (waiting for its second letter) included. It reaches each
//   word once, in word order. The best assignment of a word has the most cards (K10.4),
//   i.e. the fewest tiles, so its tiling is minimal, and the walk keeps every minimal
//   tiling of every prefix: walking on, a tiling gives the next letter a single card while
//   one is left; only when none is left does it get one more tile, in every way that frees
//   a card (fix()): over two singles read already, one of them a letter short of cards,
//   or open at this letter. Let M be a minimal tiling of a prefix with one more letter. Its
//   part on the prefix is a tiling of the prefix, which holds a minimal one S, kept there.
//   If S gives the letter a single card, S is a tiling of the longer prefix within M, so
//   S = M. Else M frees a card where S lacks one: one of M's tiles not in S does (M has
//   enough cards), and adding it to S, as fix() does, gives a tiling within M: M again.
//   Tilings that stop being minimal are dropped (keep_if_minimal: a tile can be taken
//   away), equal ones kept once (drop_repeats). A prefix mostly has one tiling (no tile is
//   needed while plain cards and jokers last): it is walked in place (visit_one); several
//   are walked together (visit).
//
// WORST CASE. The tiling walk: at most kTilingBudget steps (about 100 ms and 70 MB), then
// the prefix walk. The prefix walk: time O(P * F * 26) and memory O(W * L + L * F), with W
// the words found, L their length (at most kMaxWord), P the prefixes of lexicon words that
// the table can tile (the prefixes of the W words, and dead ends), and F the most minimal
// tilings of a prefix. F is 1 until a prefix has more letters than the table has plain
// cards and jokers for; past that it counts the ways to place the few tiles that make up
// the difference, at most O(L^k) for k tiles (k at most the table's two-letter cards).
// Neither grows with the assignments: a word with a thousand tilings costs one visit per
// prefix. But F itself can grow without bound on custom decks: sixty double letter cards
// and sixteen jokers with words of 64 letters give each prefix millions of minimal tilings.
// So the prefix walk counts its steps and the tilings it holds, and throws LimitError past
// kMaxFinderWork or kMaxFinderTilings (knizia.hpp): at most about 15 s and 150 MB. Measured
// with the German list (356,000 words, 733,000 prefixes) and the reconstructed German deck:
// the whole deck (66 cards, 355,857 words) 0.07 s and 31 MB in the prefix walk, 0.15 s and
// 64 MB with the tiling walk tried first (before: more than 4 GB); F reaches a few thousand
// on tables of 30 to 50 cards, which take up to about 1.5 s and 110 million steps (in 600
// random tables). benchmarks/finder_worst.cpp measures all this.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>

#include "cards.hpp"
#include "diabolo/core/cardset.hpp"
#include "diabolo/core/index.hpp"
#include "diabolo/core/parallel.hpp"
#include "diabolo/knizia/knizia.hpp"

namespace diabolo::knizia {

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

/// A growing buffer that takes a word's letters or cards with one copy of a fixed
/// kMaxWord bytes (a few wide moves, no call): it keeps that much room at its end.
template <class T>
class Buffer {
public:
    Buffer() = default;
    uint32_t size() const noexcept { return static_cast<uint32_t>(used_); }
    const T* data() const noexcept { return storage_.data(); }
    void append(const std::array<T, kMaxWord>& from, int count) {
        std::memcpy(room(), from.data(), sizeof from);
        used_ += static_cast<std::size_t>(count);
    }
    /// Where the next kMaxWord items go: write there, then commit() how many count.
    T* room() {
        if (used_ + kMaxWord > storage_.size())
            storage_.resize(std::max<std::size_t>(4 * kMaxWord, 2 * storage_.size()));
        return storage_.data() + used_;
    }
    void commit(int count) noexcept { used_ += static_cast<std::size_t>(count); }
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

/// What a walk records: each way it found to form a word (the tiling walk), or each word
/// once with its best assignment (the prefix walk), stored flat.
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

/// The tiling walk (see the top of this file): a depth-first walk of an automaton that
/// spends table cards on its letters (K3.3), recording every way it finds to form a word
/// (Found::keep_best then keeps the best per word, K10.4). It enters a prefix once per
/// tiling of it, which costs nothing on the tables of a game (few tilings) and everything
/// on big tables: it gives up after `budget` cards taken. Lean: a child is entered only if
/// a card left can continue it or it ends a word long enough to call, which the arc in
/// hand tells without reading the child's own arcs.
template <class Automaton>
class TilingWalk {
public:
    /// With `stop_at_first`, the walk ends at the first word it records; after `budget`
    /// prefixes entered and assignments recorded together, it gives up (exhausted()).
    TilingWalk(const Automaton& automaton, const Kinds& kinds, int min_cards, bool stop_at_first, uint64_t budget)
        : automaton_(automaton), kinds_(kinds), min_cards_(min_cards), stop_at_first_(stop_at_first), budget_(budget) {
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
    /// Whether the walk gave up: it needed more than its budget.
    bool exhausted() const noexcept { return exhausted_; }

private:
    /// Counts a prefix entered or an assignment recorded; whether the budget ran out.
    bool spend_budget() noexcept {
        if (budget_ > 0) {
            --budget_;
            return false;
        }
        exhausted_ = done_ = true;
        return true;
    }

    bool have(int kind) const noexcept { return taken_[at(kind)] < kinds_.size[at(kind)]; }
    uint32_t first_letter_bit(int kind) const noexcept { return 1u << (kinds_.cards[at(kind)].first - 'A'); }

    void visit(const Arc& node, uint32_t rank) {
        if (spend_budget()) return;
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
        if (spend_budget()) return;
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
    uint64_t budget_;                         // prefixes entered and assignments recorded left
    bool exhausted_ = false;                  // the budget ran out
    bool done_ = false;                       // stop_at_first_ and a word was found, or exhausted_
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

// ---- the prefix walk ------------------------------------------------------------------------

/// A way to tile a prefix of the walk: the letters that two-letter cards (a double letter
/// or a double joker) cover, by the position where each such tile starts. Every other
/// letter is a single and takes, in word order, a plain card of its letter while one is
/// left and a joker after that (K3.3(e): a joker stands for a letter only once its plain
/// cards are spent), so the tiles decide the whole assignment; the other fields follow
/// from them and the prefix, and are kept for speed.
struct Tiling {
    uint64_t pairs = 0;               // positions where a two-letter tile starts
    uint64_t djs = 0;                 // those of them that are double jokers (the others: double letters)
    CardSet spent;                    // double letter kinds (by index) with no card left
    uint32_t plain = 0;               // letters of which a plain card is left for a single
    uint32_t jokered = 0;             // letters with more singles than plain cards: jokers stand for the rest
    uint32_t firsts = 0;              // first letters of the double letter kinds with a card left
    uint32_t doubled = 0;             // letters of the double letter kinds with a card left that occur over two singles
    uint8_t jokers = 0;               // jokers (`?`) spent: singles beyond the plain cards of their letter
    uint8_t double_jokers = 0;        // double jokers spent
    uint8_t tiles = 0;                // two-letter tiles (the bits of pairs)
    uint8_t open = 0;                 // 0, or a tile starts at the last letter and waits for its second:
                                      // kOpenJoker, or 1 + the index of its double letter kind
    std::array<uint8_t, 26> cover{};  // letters covered by two-letter tiles, per letter
    uint32_t next = 0;                // on the pool: every letter it may continue with (reach())
};

constexpr uint8_t kOpenJoker = 0xFF;
constexpr uint8_t kNoDouble = 0xFF;
constexpr uint32_t kAll = Lexicon::kLetterBits;

inline int popcount32(uint32_t x) noexcept { return popcount64(x); }
inline uint64_t covered(const Tiling& t) noexcept { return t.pairs | t.pairs << 1; }

/// The prefix walk (see the top of this file): a depth-first search of an automaton (the
/// lexicon's DAWG, or the letters of one called word) that enters each prefix once, with
/// the tilings of it that can still matter, and records each word it reaches once, with
/// its best assignment (K10.4). It is the game's move generation, so it is lean: a child
/// is entered only if a tiling can continue it or it ends a word, which the arc in hand
/// tells without reading the child's own arcs.
template <class Automaton>
class PrefixWalk {
public:
    /// With `stop_at_first`, the walk ends at the first word it records.
    PrefixWalk(const Automaton& automaton, const Kinds& kinds, int min_cards, bool stop_at_first = false)
        : automaton_(automaton), kinds_(kinds), min_cards_(min_cards), stop_at_first_(stop_at_first) {
        Tiling start;
        for (int letter = 0; letter < 26; ++letter) {
            const int kind = kinds.letter_kind[at(letter)];
            if (kind < 0) continue;
            plain_[at(letter)] = kinds.size[at(kind)];
            plain_first_[at(letter)] = kinds.first[at(kind)];
            start.plain |= 1u << letter;
        }
        if (kinds.joker >= 0) {
            jokers_ = kinds.size[at(kinds.joker)];
            joker_first_ = kinds.first[at(kinds.joker)];
        }
        if (kinds.double_joker >= 0) {
            double_jokers_ = kinds.size[at(kinds.double_joker)];
            double_joker_first_ = kinds.first[at(kinds.double_joker)];
        }
        doubles_ = kinds.double_count;
        for (int d = 0; d < doubles_; ++d) {
            const int kind = kinds.doubles[at(d)];
            const Card& card = kinds.cards[at(kind)];
            first_letter_[at(d)] = static_cast<uint8_t>(card.first - 'A');
            second_letter_[at(d)] = static_cast<uint8_t>(card.second - 'A');
            double_size_[at(d)] = kinds.size[at(kind)];
            double_first_[at(d)] = kinds.first[at(kind)];
            start.firsts |= 1u << (card.first - 'A');
            double_seconds_[at(card.first - 'A')] |= 1u << (card.second - 'A');
            double_index_[at((card.first - 'A') * 26 + (card.second - 'A'))] = static_cast<uint8_t>(d);
            by_first_[at(card.first - 'A')].set(d);
        }
        pool_.reserve(64);
        cur_ = start;
        visit_one(automaton_.root(), 0, 0, reach_closed(cur_, 0));
    }

    /// The words found, in the automaton's order (a word's rank is its index in the sorted
    /// lexicon), each with its best assignment.
    Found found;

private:
    int letter_at(int position) const noexcept { return word_[at(position)] - 'A'; }

    /// Counts `steps` of work (a prefix entered, a tiling made or compared); LimitError past
    /// kMaxFinderWork steps or kMaxFinderTilings tilings held, before the walk takes minutes
    /// or gigabytes (see the top of this file).
    void spend_work(uint64_t steps) {
        work_ += steps;
        if (work_ > kMaxFinderWork || pool_.size() > kMaxFinderTilings) {
            throw LimitError("the word finder would need more than " + std::to_string(kMaxFinderWork) + " steps or " +
                             std::to_string(kMaxFinderTilings) +
                             " partial tilings on this table (K3.3): its cards can tile words in too many ways (many "
                             "jokers with double letter cards); the engine's limit keeps a search within seconds");
        }
    }

    static bool single_at(const Tiling& t, int position) noexcept { return !(covered(t) >> position & 1); }

    // ---- one tiling: the common case on the tables of a game ------------------------------

    /// Enters the prefix of `length` letters that leads to `node`, with its one tiling in
    /// cur_ (changed in place and restored); `next` holds every letter it can continue with.
    void visit_one(const Arc& node, uint32_t rank, int length, uint32_t next) {
        spend_work(1);
        if (node.is_word()) {
            record_one(rank, length);
            if (done_) return;
        }
        if (length >= kMaxWord) return;  // no call is longer (K7)
        const uint32_t letters = node.letters();
        if (cur_.open != 0) {  // the tile started at the last letter takes the next one
            const uint8_t open = cur_.open;
            cur_.open = 0;
            for (uint32_t rest = letters & next; rest && !done_; rest &= rest - 1) {
                const int letter = lowest_bit64(rest);
                const Arc& child =
                    automaton_.arc(node.first + static_cast<uint32_t>(popcount32(letters & ((1u << letter) - 1))));
                push(letter, length);
                ++cur_.cover[at(letter)];
                const uint32_t after = reach_closed(cur_, length + 1);
                if (child.letters() & after) visit_one(child, rank + child.step, length + 1, after);
                else if (child.is_word()) record_one(rank + child.step, length + 1);
                --cur_.cover[at(letter)];
                pop(letter, length);
            }
            cur_.open = open;
            return;
        }
        // The children are listed first, each with what it takes and the letters its tiling
        // can read next, then entered: a child only if its tiling can continue it or it ends
        // a word long enough to call, which the arc in hand tells without reading the child's
        // own arcs. A listed child: its arc index << 8, what its letter takes, the letter.
        constexpr uint32_t kJoker = 32, kOver = 64, kFromHere = 128, kLast = 192;
        const Tiling& t = cur_;
        const uint32_t finish = length + 1 >= min_cards_ + t.tiles ? Lexicon::kTerminalBit : 0u;
        const int last = length > 0 ? letter_at(length - 1) : 0;
        // The second letters of the double letter cards left that can take the last letter.
        const uint32_t after_last = length > 0 && single_at(t, length - 1) ? seconds_left(t, last) : 0u;
        const bool double_joker_left = t.double_jokers < double_jokers_;
        const bool jokers_left = t.jokers < jokers_ || double_joker_left;
        const bool jokers_left_after_one = t.jokers + 1 < jokers_ || double_joker_left;
        // Letters whose cards a double letter card over two singles frees (all of them if it
        // frees a joker).
        const uint32_t freed = t.doubled & t.jokered ? kAll : t.doubled;
        std::array<uint32_t, 26> list, reach_after;
        int listed = 0;
        const auto list_child = [&](int letter, uint32_t index) {
            const uint32_t bit = 1u << letter;
            const bool has_plain = (t.plain & bit) != 0;
            const bool joker = !has_plain && t.jokers < jokers_;
            const uint32_t mask = automaton_.arc(index).mask;
            list[at(listed)] = index << 8 | (joker ? kJoker : 0u) | static_cast<uint32_t>(letter);
            if (has_plain || joker) {
                // What the child's tiling can read next, or a little more (the double letter
                // cards after it may be spent): anything while a joker is left or a double
                // letter card over two singles frees one; else the letters with a plain card
                // left, double letter cards, and a double letter card over singles.
                const uint32_t doubled = after_last & bit ? 1u << last | bit : 0u;
                const bool last_plain = count_[at(letter)] + 1 - t.cover[at(letter)] == plain_[at(letter)];
                const bool any = (has_plain ? jokers_left : jokers_left_after_one) ||
                                 ((t.jokered | (joker ? bit : 0u)) & (t.doubled | doubled)) != 0;
                const uint32_t r = any ? kAll
                                       : (t.plain & ~(last_plain ? bit : 0u)) | t.firsts | t.doubled | doubled |
                                             double_seconds_[at(letter)];
                reach_after[at(listed)] = r;
                listed += (mask & (r | finish)) != 0;
                return;
            }
            // No single card: a two-letter tile over singles read already, one of them the
            // last letter or a letter short of cards (which frees a card), or one that starts
            // here (a double letter card whose second letter can follow, or a double joker).
            const bool over = double_joker_left || (freed & bit);
            const bool over_last = (after_last & bit) != 0;
            const bool from_here = (t.firsts & bit) && (mask & double_seconds_[at(letter)]);  // or a little more
            list[at(listed)] |= over_last && !over && !from_here
                                    ? kLast  // only the double letter card over the last letter and this one
                                : over || over_last ? kOver
                                                    : kFromHere;
            listed += over || over_last || from_here;
        };
        if ((letters & next) == letters) {  // every arc, in order
            uint32_t index = node.first;
            for (uint32_t rest = letters; rest; rest &= rest - 1) list_child(lowest_bit64(rest), index++);
        } else {
            for (uint32_t rest = letters & next; rest; rest &= rest - 1) {
                const int letter = lowest_bit64(rest);
                list_child(letter, node.first + static_cast<uint32_t>(popcount32(letters & ((1u << letter) - 1))));
            }
        }
        for (int i = 0; i < listed && !done_; ++i) {
            const Arc& child = automaton_.arc(list[at(i)] >> 8);
            const int letter = static_cast<int>(list[at(i)] & 31);
            const uint32_t how = list[at(i)] & kLast;
            if (how != 0) {
                tile(child, rank, length, letter, how == kLast ? 0 : how == kOver ? 1 : 2);
                continue;
            }
            // A single card: a plain one while one is left, else a joker.
            const uint32_t bit = 1u << letter;
            const uint32_t plain = cur_.plain, jokered = cur_.jokered, doubled = cur_.doubled;
            const int jokers = cur_.jokers;
            const bool joker = (list[at(i)] & kJoker) != 0;
            const int singles = count_[at(letter)] + 1 - cur_.cover[at(letter)];
            if (singles == plain_[at(letter)]) cur_.plain &= ~bit;
            if (joker) {
                cur_.jokered |= bit;
                ++cur_.jokers;
            }
            if (after_last & bit) cur_.doubled |= 1u << last | bit;
            cards_[at(length - cur_.tiles)] =
                kinds_.positions[at(joker ? joker_first_ + jokers : plain_first_[at(letter)] + singles - 1)];
            push(letter, length);
            if (child.letters() & reach_after[at(i)])
                visit_one(child, rank + child.step, length + 1, reach_after[at(i)]);
            else if (child.is_word()) record_one(rank + child.step, length + 1);
            pop(letter, length);
            cur_.plain = plain;
            cur_.jokered = jokered;
            cur_.doubled = doubled;
            cur_.jokers = static_cast<uint8_t>(jokers);
        }
    }

    /// visit_one() for a child whose letter has no single card left: `how` 0, the double
    /// letter card over the last letter and it; 1, the tilings fix() finds; 2, a double
    /// letter card over it and the next letter.
    void tile(const Arc& child, uint32_t rank, int length, int letter, int how) {
        push(letter, length);
        if (how == 0 && length > 0) {
            const Tiling saved = cur_;
            const uint8_t d = double_of(letter_at(length - 1), letter);
            const uint8_t card = cards_[at(length - 1 - cur_.tiles)];
            cards_[at(length - 1 - cur_.tiles)] = kinds_.positions[at(double_first_[d] + used(cur_, d))];
            cover(cur_, letter, length, length - 1, d);
            const uint32_t after = reach_closed(cur_, length + 1);
            if (child.letters() & after) visit_one(child, rank + child.step, length + 1, after);
            else if (child.is_word()) record_one(rank + child.step, length + 1);
            cur_ = saved;
            cards_[at(length - 1 - cur_.tiles)] = card;
        } else if (how == 1) {
            const std::size_t from = pool_.size();
            fix(cur_, letter, length, child.letters());
            spend_work(pool_.size() - from);
            walk_on(child, rank, length + 1, from);
        } else {
            doubles_from_here(child, rank, length, letter);
        }
        pop(letter, length);
    }

    /// cur_ has no single card left for `letter`, just read at `position` (it leads to
    /// `child`), and no two-letter tile over letters read before can free one: only a
    /// double letter card can take it, with the next letter. The tilings of the prefix with
    /// this letter would be one per such card, each waiting for its own second letter, so
    /// the walk goes straight on to each second letter, one tiling each.
    void doubles_from_here(const Arc& child, uint32_t rank, int position, int letter) {
        if (position + 1 >= kMaxWord) return;  // no second letter can follow
        // cur_ changes in place (and back): its tiles, covered letters, and the double
        // letter cards left.
        const CardSet spent = cur_.spent;
        const uint32_t firsts = cur_.firsts, doubled = cur_.doubled;
        for (uint32_t rest = seconds_left(cur_, letter) & child.letters(); rest && !done_;
             rest &= rest - 1) {  // in word order
            const int second = lowest_bit64(rest);
            const uint8_t d = double_of(letter, second);
            const Arc& after = automaton_.next(child, second);
            cards_[at(position - cur_.tiles)] = kinds_.positions[at(double_first_[d] + used(cur_, d))];
            push(second, position + 1);
            cur_.pairs |= bit64(position);
            ++cur_.tiles;
            ++cur_.cover[at(letter)];
            ++cur_.cover[at(second)];
            if (spend(cur_, d)) recount(cur_, position + 2);
            const uint32_t next = reach_closed(cur_, position + 2);
            if (after.letters() & next) visit_one(after, rank + child.step + after.step, position + 2, next);
            else if (after.is_word()) record_one(rank + child.step + after.step, position + 2);
            cur_.pairs &= ~bit64(position);
            --cur_.tiles;
            --cur_.cover[at(letter)];
            --cur_.cover[at(second)];
            cur_.spent = spent;
            cur_.firsts = firsts;
            cur_.doubled = doubled;
            pop(second, position + 1);
        }
    }

    /// Records the word of `length` letters spelled so far if cur_ forms it with at least
    /// min_cards cards.
    void record_one(uint32_t rank, int length) {
        if (cur_.open != 0) return;
        const int cards = length - cur_.tiles;
        if (cards < min_cards_) return;
        uint8_t* const out = found.positions.room();
        std::memcpy(out, cards_.data(), sizeof cards_);
        add(rank, length, cards, cur_.jokers + cur_.double_jokers);
    }

    /// Walks on from `child`, reached with a prefix of `length` letters, with the tilings
    /// pool_[from, end of the pool) (none: the walk ends here), which it takes off the pool.
    void walk_on(const Arc& child, uint32_t rank, int length, std::size_t from) {
        const std::size_t end = pool_.size();
        if (end == from) return;
        if (end - from == 1) {
            const Tiling saved = cur_;
            const std::array<uint8_t, kMaxWord> cards = cards_;
            cur_ = pool_[from];
            pool_.resize(from);
            assign(cur_, length, cards_.data());
            const uint32_t after = reach(cur_, length);
            if (child.letters() & after) visit_one(child, rank + child.step, length, after);
            else if (child.is_word()) record_one(rank + child.step, length);
            cur_ = saved;
            cards_ = cards;
            return;
        }
        uint32_t after = 0;
        for (std::size_t i = from; i < end; ++i) after |= pool_[i].next = reach(pool_[i], length);
        if (child.letters() & after) visit(child, rank + child.step, length, from, end, after);
        else if (child.is_word()) record(rank + child.step, length, from, end);
        pool_.resize(from);
    }

    // ---- several tilings, on the pool ----------------------------------------------------

    /// visit_one() for a prefix with the tilings pool_[begin, end).
    void visit(const Arc& node, uint32_t rank, int length, std::size_t begin, std::size_t end, uint32_t next) {
        if (node.is_word()) {
            record(rank, length, begin, end);
            if (done_) return;
        }
        if (length >= kMaxWord) return;  // no call is longer (K7)
        const uint32_t letters = node.letters();
        for (uint32_t rest = letters & next; rest && !done_; rest &= rest - 1) {
            const int letter = lowest_bit64(rest);
            const Arc& child =
                automaton_.arc(node.first + static_cast<uint32_t>(popcount32(letters & ((1u << letter) - 1))));
            push(letter, length);
            const std::size_t from = pool_.size();
            extend(begin, end, letter, length, child.letters());
            walk_on(child, rank, length + 1, from);
            pop(letter, length);
        }
    }

    /// Appends to the pool the tilings of the prefix extended by `letter` at `position`
    /// (already read into the path) that grow from pool_[begin, end): the minimal ones
    /// (see the top of this file). `next` is what the automaton can read after `letter`.
    void extend(std::size_t begin, std::size_t end, int letter, int position, uint32_t next) {
        spend_work(end - begin);
        const std::size_t from = pool_.size();
        int fixed = 0;  // tilings fixed
        const uint32_t bit = 1u << letter;
        // Each tiling is copied to the end of the pool and changed there (a copy changed on
        // the stack and copied again would wait for its changes: store forwarding stalls).
        for (std::size_t i = begin; i < end; ++i) {
            if (!(pool_[i].next & bit)) continue;  // it cannot read the letter
            const Tiling from_tiling = pool_[i];   // (the pool may move)
            if (from_tiling.open != 0) {  // the tile started at the last letter takes this one, or the tiling ends
                if (from_tiling.open == kOpenJoker || second_letter_[at(from_tiling.open - 1)] == letter) {
                    Tiling& t = pool_.emplace_back(from_tiling);
                    t.open = 0;
                    ++t.cover[at(letter)];
                }
                continue;
            }
            const int singles = count_[at(letter)] - from_tiling.cover[at(letter)];  // this one included
            if (singles > plain_[at(letter)] && from_tiling.jokers >= jokers_) {
                const std::size_t before = pool_.size();
                fix(from_tiling, letter, position, next);
                fixed += pool_.size() > before ? 1 : 0;
                continue;
            }
            Tiling& t = pool_.emplace_back(from_tiling);
            if (position > 0 && single_at(t, position - 1) && (seconds_left(t, letter_at(position - 1)) & bit)) {
                t.doubled |= 1u << letter_at(position - 1) | bit;
            }
            if (singles > plain_[at(letter)]) {
                ++t.jokers;
                t.jokered |= bit;
            } else if (singles == plain_[at(letter)]) {
                t.plain &= ~bit;
            }
        }
        spend_work(pool_.size() - from);
        // Different tilings fixed with different tiles can end with the same tiles: once each.
        if (fixed > 1) drop_repeats(from);
    }

    /// `t` has no single card left for the letter at `position`: appends each tiling that
    /// adds one two-letter tile to `t` over singles read so far (if `over`), one of them a
    /// letter that lacks a card (which frees a card for it), or that starts a tile at this
    /// letter (`next` is what the automaton can read after it).
    void fix(const Tiling& t, int letter, int position, uint32_t next, bool over = true) {
        const bool double_joker = t.double_jokers < double_jokers_;
        if (over) {
            const uint64_t singles = low_mask(position + 1) & ~covered(t);
            uint64_t short_of = 0;  // singles of the letters that lack a card
            for (uint32_t rest = t.jokered | 1u << letter; rest; rest &= rest - 1)
                short_of |= letter_mask_[at(lowest_bit64(rest))];
            short_of &= singles;
            for (uint64_t starts = singles & (singles >> 1) & (short_of | (short_of >> 1)); starts;
                 starts &= starts - 1) {
                const int start = lowest_bit64(starts);
                if (double_joker) {
                    cover(pool_.emplace_back(t), letter, position, start, kOpenJoker);
                    keep_if_minimal(start);
                }
                const uint8_t d = double_of(letter_at(start), letter_at(start + 1));
                if (d != kNoDouble && !t.spent.test(d)) {
                    cover(pool_.emplace_back(t), letter, position, start, d);
                    keep_if_minimal(start);
                }
            }
        }
        if (position + 1 >= kMaxWord || next == 0) return;  // no second letter can follow
        const auto open = [&]() -> Tiling& {                // a copy of t with a tile open here
            Tiling& u = pool_.emplace_back(t);
            u.pairs |= bit64(position);
            ++u.tiles;
            ++u.cover[at(letter)];
            return u;
        };
        if (double_joker) {
            Tiling& u = open();
            u.djs |= bit64(position);
            ++u.double_jokers;
            u.open = kOpenJoker;
            keep_if_minimal(position);
        }
        if (!(t.firsts & (1u << letter))) return;
        for (int d = 0; d < doubles_; ++d) {
            if (first_letter_[at(d)] != letter || !(next & (1u << second_letter_[at(d)])) || t.spent.test(d)) continue;
            Tiling& u = open();
            u.open = static_cast<uint8_t>(1 + d);
            if (spend(u, static_cast<uint8_t>(d))) recount(u, position);
            keep_if_minimal(position);
        }
    }

    /// `t` with the letter at `position` read as a single (one joker too many) and a tile
    /// over the singles at `start` and `start + 1`: a double joker (`d` kOpenJoker) or
    /// double letter kind `d`.
    void cover(Tiling& t, int letter, int position, int start, uint8_t d) const {
        t.pairs |= bit64(start);
        ++t.tiles;
        if (d == kOpenJoker) {
            t.djs |= bit64(start);
            ++t.double_jokers;
        } else {
            spend(t, d);
        }
        int jokers = t.jokers + 1;
        t.jokered |= 1u << letter;
        for (const int l : {letter_at(start), letter_at(start + 1)}) {
            const int p = plain_[at(l)];
            const int before = count_[at(l)] - t.cover[at(l)]++;  // singles, the letter at `position` included
            jokers -= before > p ? 1 : 0;
            if (before - 1 < p) t.plain |= 1u << l;
            if (before - 1 > p) t.jokered |= 1u << l;
            else t.jokered &= ~(1u << l);
        }
        t.jokers = static_cast<uint8_t>(jokers);
        recount(t, position + 1);
    }

    /// Cards of double letter kind `d` that `t` takes.
    int used(const Tiling& t, uint8_t d) const noexcept {
        if (t.pairs == 0) return 0;
        const uint64_t here = letter_mask_[first_letter_[d]] & (letter_mask_[second_letter_[d]] >> 1);
        return popcount64(t.pairs & ~t.djs & here) + (t.open == 1 + d ? 1 : 0);
    }

    /// Notes that `t` (its tiles set) took a card of double letter kind `d`; whether that
    /// was the last.
    bool spend(Tiling& t, uint8_t d) const noexcept {
        if (double_size_[d] > 1) {
            const uint64_t here = letter_mask_[first_letter_[d]] & (letter_mask_[second_letter_[d]] >> 1);
            if (popcount64(t.pairs & ~t.djs & here) + (t.open == 1 + d ? 1 : 0) < double_size_[d]) return false;
        }
        t.spent.set(d);
        if ((by_first_[first_letter_[d]] & ~t.spent).empty()) t.firsts &= ~(1u << first_letter_[d]);
        return true;
    }

    /// Sets t.doubled for the first `length` letters.
    void recount(Tiling& t, int length) const noexcept {
        const uint64_t singles = low_mask(length) & ~covered(t);
        const uint64_t inner = singles & (singles >> 1);
        t.doubled = 0;
        for (int d = 0; d < doubles_; ++d) {
            if (!t.spent.test(d) &&
                (letter_mask_[first_letter_[at(d)]] & (letter_mask_[second_letter_[at(d)]] >> 1) & inner)) {
                t.doubled |= 1u << first_letter_[at(d)] | 1u << second_letter_[at(d)];
            }
        }
    }

    /// Keeps the last tiling of the pool, which fix() made with a new tile at `added`, unless
    /// a tile of it can go: then a part of it is a tiling too, which can only do better (see
    /// the top of this file). Removing a tile makes its two letters singles, which need a
    /// joker each beyond the plain cards of their letter; the new tile cannot go (fix()
    /// needed it).
    void keep_if_minimal(int added) {
        const Tiling& f = pool_.back();
        for (uint64_t tiles = f.pairs & ~bit64(added); tiles; tiles &= tiles - 1) {
            const int start = lowest_bit64(tiles);
            const int first = letter_at(start), second = letter_at(start + 1);
            const int a = count_[at(first)] - f.cover[at(first)];  // singles, with the letter just read
            const int b = count_[at(second)] - f.cover[at(second)] + (first == second ? 1 : 0);
            if (f.jokers + (a >= plain_[at(first)] ? 1 : 0) + (b >= plain_[at(second)] ? 1 : 0) <= jokers_) {
                pool_.pop_back();
                return;
            }
        }
    }

    /// Keeps one of the tilings of pool_[from, end) with the same tiles (the first).
    void drop_repeats(std::size_t from) {
        const std::size_t end = pool_.size();
        uint64_t depth = 1;  // of the sort: about log2 of its size
        while ((end - from) >> depth) ++depth;
        spend_work((end - from) * depth);
        order_.clear();
        for (std::size_t i = from; i < end; ++i) order_.push_back(static_cast<uint32_t>(i));
        const auto key = [this](uint32_t i) {
            const Tiling& t = pool_[i];
            return std::make_tuple(t.pairs, t.djs, t.open, i);
        };
        std::sort(order_.begin(), order_.end(), [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
        needed_.assign(end - from, 1);
        for (std::size_t k = 1; k < order_.size(); ++k) {
            const Tiling& a = pool_[order_[k - 1]];
            const Tiling& b = pool_[order_[k]];
            if (a.pairs == b.pairs && a.djs == b.djs && a.open == b.open) needed_[order_[k] - from] = 0;
        }
        std::size_t kept = from;
        for (std::size_t i = from; i < end; ++i) {
            if (needed_[i - from]) pool_[kept++] = pool_[i];
        }
        pool_.resize(kept);
    }

    /// The second letters of the double letter kinds with a card left whose first is `first`.
    uint32_t seconds_left(const Tiling& t, int first) const noexcept {
        if (t.spent.empty()) return double_seconds_[at(first)];
        CardSet spent = t.spent & by_first_[at(first)];
        if (spent.empty()) return double_seconds_[at(first)];
        uint32_t seconds = double_seconds_[at(first)];
        while (!spent.empty()) seconds &= ~(1u << second_letter_[at(spent.pop_lowest())]);
        return seconds;
    }

    /// Every letter that tiling `t` of the first `length` letters may continue with (more
    /// is allowed, never less).
    uint32_t reach(const Tiling& t, int length) const {
        if (t.open == 0) return reach_closed(t, length);
        return t.open == kOpenJoker ? kAll : 1u << second_letter_[at(t.open - 1)];
    }

    /// reach() of a tiling with no tile open: a letter with a single card left, or a double
    /// letter card left: at the next letter (its first), after the last letter if that is
    /// a single (its second), or over two singles read already (which frees their cards).
    uint32_t reach_closed(const Tiling& t, int length) const {
        if (t.jokers < jokers_ || t.double_jokers < double_jokers_ || (t.jokered & t.doubled)) return kAll;
        uint32_t letters = t.plain | t.firsts | t.doubled;
        if (length > 0 && single_at(t, length - 1)) letters |= seconds_left(t, letter_at(length - 1));
        return letters;
    }

    /// Records the word of `length` letters spelled so far if a tiling in pool_[begin,
    /// end) forms it with at least min_cards cards, with the best of them (K10.4).
    void record(uint32_t rank, int length, std::size_t begin, std::size_t end) {
        int best_cards = -1, best_jokers = 0;
        std::size_t best = end, ties = 0;
        for (std::size_t i = begin; i < end; ++i) {
            const Tiling& t = pool_[i];
            if (t.open != 0) continue;
            const int cards = length - t.tiles;
            const int jokers = t.jokers + t.double_jokers;
            if (cards > best_cards || (cards == best_cards && jokers < best_jokers)) {
                best_cards = cards;
                best_jokers = jokers;
                best = i;
                ties = 0;
            } else if (cards == best_cards && jokers == best_jokers) {
                ++ties;
            }
        }
        if (best == end || best_cards < min_cards_) return;
        uint8_t* const out = found.positions.room();
        assign(pool_[best], length, out);
        if (ties > 0) {
            // Several tilings spend as many cards and jokers: the lowest sorted positions,
            // then the lowest positions in word order (K10.4 and the engine's tie-break).
            std::array<uint8_t, kMaxWord> cards{}, other{};
            std::copy(out, out + best_cards, cards.begin());
            CardSet set = set_of(cards.data(), best_cards);
            for (std::size_t i = best + 1; i < end; ++i) {
                const Tiling& t = pool_[i];
                if (t.open != 0 || length - t.tiles != best_cards || t.jokers + t.double_jokers != best_jokers)
                    continue;
                assign(t, length, other.data());
                const CardSet other_set = set_of(other.data(), best_cards);
                const CardSet differ = set ^ other_set;
                // Equal sizes: the lower sorted list holds the lowest position in one only.
                const bool better = !differ.empty()
                                        ? other_set.test(differ.lowest())
                                        : std::lexicographical_compare(other.begin(), other.begin() + best_cards,
                                                                       cards.begin(), cards.begin() + best_cards);
                if (better) {
                    cards = other;
                    set = other_set;
                }
            }
            std::copy(cards.begin(), cards.begin() + best_cards, out);
        }
        add(rank, length, best_cards, best_jokers);
    }

    /// Records the word spelled so far, its cards written at found.positions.room().
    void add(uint32_t rank, int length, int cards, int jokers) {
        // Field by field: the entry built whole and copied would wait for its parts (a
        // store forwarding stall), at every word.
        FoundWords::Entry& e = found.entries.emplace_back();
        e.index = rank;
        e.letters = found.letters.size();
        e.positions = found.positions.size();
        e.length = static_cast<uint8_t>(length);
        e.count = static_cast<uint8_t>(cards);
        e.jokers = static_cast<uint8_t>(jokers);
        found.letters.append(word_, length);
        found.positions.commit(cards);
        done_ = stop_at_first_;
    }

    static CardSet set_of(const uint8_t* cards, int count) noexcept {
        CardSet set;
        for (int i = 0; i < count; ++i) set.set(cards[i]);
        return set;
    }

    /// The table positions `t` takes for the first `length` letters, in word order: each
    /// kind's cards lowest first (a tile open at the last letter included).
    void assign(const Tiling& t, int length, uint8_t* cards) const {
        std::array<uint8_t, 26> plain{};
        std::array<uint8_t, kMaxTable> doubles;
        std::fill_n(doubles.begin(), doubles_, uint8_t{0});
        int jokers = 0, double_jokers = 0, count = 0;
        for (int i = 0; i < length; ++count) {
            int first, taken;
            if (t.pairs >> i & 1) {
                if (t.djs >> i & 1) {
                    first = double_joker_first_;
                    taken = double_jokers++;
                } else {
                    const uint8_t d = i + 1 < length ? double_of(letter_at(i), letter_at(i + 1))
                                                     : static_cast<uint8_t>(t.open - 1);  // or open
                    first = double_first_[d];
                    taken = doubles[d]++;
                }
                i += 2;
            } else {
                const int letter = letter_at(i);
                if (plain[at(letter)] < plain_[at(letter)]) {
                    first = plain_first_[at(letter)];
                    taken = plain[at(letter)]++;
                } else {
                    first = joker_first_;
                    taken = jokers++;
                }
                i += 1;
            }
            cards[count] = kinds_.positions[at(first + taken)];
        }
    }

    void push(int letter, int position) noexcept {
        word_[at(position)] = static_cast<char>('A' + letter);
        letter_mask_[at(letter)] |= bit64(position);
        ++count_[at(letter)];
    }

    void pop(int letter, int position) noexcept {
        --count_[at(letter)];
        letter_mask_[at(letter)] &= ~bit64(position);
    }

    /// The double letter kind of `first` and `second`, if there is one.
    uint8_t double_of(int first, int second) const noexcept {
        return double_seconds_[at(first)] >> second & 1 ? double_index_[at(first * 26 + second)] : kNoDouble;
    }

    const Automaton& automaton_;
    const Kinds& kinds_;
    int min_cards_;
    bool stop_at_first_;
    bool done_ = false;  // stop_at_first_ and a word was found
    // The table: plain cards per letter, jokers, double jokers and double letters, each
    // kind with where its positions start in kinds_.positions.
    std::array<uint8_t, 26> plain_{}, plain_first_{};
    int jokers_ = 0, double_jokers_ = 0;
    uint8_t joker_first_ = 0, double_joker_first_ = 0;
    int doubles_ = 0;
    std::array<uint8_t, kMaxTable> first_letter_{}, second_letter_{}, double_size_{}, double_first_{};
    std::array<uint32_t, 26> double_seconds_{};  // for each first letter, the second letters of its kinds
    std::array<CardSet, 26> by_first_{};         // for each first letter, its kinds
    std::array<uint8_t, 26 * 26> double_index_;  // the kind of two letters, where double_seconds_ has one
    // The path: the letters read, where each letter occurs and how often, the double letter
    // kind over each letter and the next, and the cards when every letter is a single.
    std::array<char, kMaxWord> word_{};
    std::array<uint64_t, 26> letter_mask_{};
    std::array<uint8_t, 26> count_{};
    std::array<uint8_t, kMaxWord> cards_{};  // the positions cur_ takes, in word order
    // The tiling of the prefix when it has one (visit_one), else the tilings of every
    // prefix on the path, the deepest last (visit).
    Tiling cur_;
    std::vector<Tiling> pool_;
    std::vector<uint8_t> needed_;  // drop_repeats' marks
    std::vector<uint32_t> order_;  // and order
    uint64_t work_ = 0;            // spend_work()'s count
};

/// The best way to form `word` from `table` with any number of cards, if there is one.
std::optional<FoundWord> best_assignment(std::string_view word, const std::vector<Card>& table,
                                         uint64_t tiling_budget) {
    if (word.size() > static_cast<std::size_t>(kMaxWord)) return std::nullopt;  // no call is that long (K7)
    const WordAutomaton automaton(word);
    const Kinds kinds(table);
    const auto match = [&](Found& found) -> std::optional<FoundWord> {
        if (found.entries.empty()) return std::nullopt;
        const FoundWords::Entry& e = found.entries.front();
        const uint8_t* cards = found.positions.data() + e.positions;
        return FoundWord{std::string(word), std::vector<int>(cards, cards + e.count), e.jokers};
    };
    {
        TilingWalk<WordAutomaton> walk(automaton, kinds, 0, false, tiling_budget);
        if (!walk.exhausted()) {
            if (!walk.found().entries.empty()) walk.found().keep_best(1);
            return match(walk.found());
        }
    }
    PrefixWalk<WordAutomaton> walk(automaton, kinds, 0);
    return match(walk.found);
}

}  // namespace

namespace detail {

FoundWords find_words(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards, uint64_t tiling_budget) {
    check_table_size(table);
    const Kinds kinds(table);
    {
        TilingWalk<Lexicon> walk(lexicon, kinds, min_cards, false, tiling_budget);
        if (!walk.exhausted()) {
            Found& found = walk.found();
            found.keep_best(
                static_cast<uint32_t>(lexicon.size()));  // word order: a word's rank is its index in the sorted lexicon
            return FoundWords(std::move(found.entries), found.letters.release(), found.positions.release());
        }
    }
    PrefixWalk<Lexicon> walk(lexicon, kinds, min_cards);  // each word once, in word order
    Found& found = walk.found;
    return FoundWords(std::move(found.entries), found.letters.release(), found.positions.release());
}

bool forms_a_word(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards, uint64_t tiling_budget) {
    check_table_size(table);
    const Kinds kinds(table);
    {
        TilingWalk<Lexicon> walk(lexicon, kinds, min_cards, true, tiling_budget);
        if (!walk.exhausted()) return !walk.found().entries.empty();
    }
    return !PrefixWalk<Lexicon>(lexicon, kinds, min_cards, true).found.entries.empty();
}

Check check_word(const Lexicon& lexicon, std::string_view word, const std::vector<Card>& table, int min_cards,
                 uint64_t tiling_budget) {
    check_table_size(table);
    if (!lexicon.contains(word)) return Check{Reason::NotAWord, std::nullopt};
    if (static_cast<int>(word.size()) < min_cards) return Check{Reason::TooFewCards, std::nullopt};
    if (const auto best = best_assignment(word, table, tiling_budget)) {
        if (best->card_count() < min_cards) return Check{Reason::TooFewCards, std::nullopt};
        return Check{Reason::None, *best};
    }
    // Would the word fit if double letters could be split or reversed? Split, a table can
    // hold more than kMaxTable cards: only the cards the word can use are kept (a letter's
    // cards up to its count in the word, jokers up to its length, double jokers up to half
    // of it), and if single cards alone then fit, it fits; else fewer than 1.5 times its
    // length are left, at most kMaxWord * 3 / 2 <= kMaxTable.
    if (word.size() > static_cast<std::size_t>(kMaxWord)) return Check{Reason::LettersMissing, std::nullopt};
    std::array<int, 26> need{}, have{};
    for (const char c : word) ++need[static_cast<std::size_t>(c - 'A')];
    const int length = static_cast<int>(word.size());
    int jokers = 0, double_jokers = 0;
    std::vector<Card> split;
    const auto add_letter = [&](char letter) {
        const std::size_t l = static_cast<std::size_t>(letter - 'A');
        if (have[l] < need[l]) {
            ++have[l];
            split.push_back(Card{Card::Kind::Letter, letter, 0});
        }
    };
    for (const Card& card : table) {
        switch (card.kind) {
            case Card::Kind::Letter: add_letter(card.first); break;
            case Card::Kind::Double:
                add_letter(card.first);
                add_letter(card.second);
                break;
            case Card::Kind::Joker:
                if (jokers < length) split.push_back(card), ++jokers;
                break;
            case Card::Kind::DoubleJoker:
                if (2 * double_jokers < length) split.push_back(card), ++double_jokers;
                break;
        }
    }
    int short_of = 0;  // letters without a plain card
    for (std::size_t l = 0; l < 26; ++l) short_of += need[l] - have[l];
    if (short_of <= jokers || best_assignment(word, split, tiling_budget))
        return Check{Reason::DoubleLetterSplit, std::nullopt};
    return Check{Reason::LettersMissing, std::nullopt};
}

}  // namespace detail

FoundWords find_words(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards) {
    return detail::find_words(lexicon, table, min_cards, detail::kTilingBudget);
}

bool forms_a_word(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards) {
    return detail::forms_a_word(lexicon, table, min_cards, detail::kTilingBudget);
}

Check check_word(const Lexicon& lexicon, std::string_view word, const std::vector<Card>& table, int min_cards) {
    return detail::check_word(lexicon, word, table, min_cards, detail::kTilingBudget);
}

}  // namespace diabolo::knizia
