// Diabolo (Knizia): formable_words, the claims a table allows.
//
// formable_words answers, for every word of the lexicon, only whether the table forms it
// with at least min_cards cards (K3.3), not how (K10.4): what the legal action ids need.
// A word is formed when the letters that need no card of their own letter fit: a single
// takes a plain card of its letter while one is left (K3.3 c), the rest of the singles
// take jokers (K3.3 e), and two-letter tiles take letters off the singles: a double letter
// card over its two letters in printed order (K3.3 d), a double joker over any two
// consecutive ones (K3.3 f). With n_l the word's count of letter l and p_l the plain cards
// of l, the singles alone need d1 = sum max(0, n_l - p_l) jokers; a tile lowers that by the
// letters it covers that were short of plain cards (0, 1 or 2), and costs a card (a word of
// L letters with t tiles takes L - t cards, which must stay >= min_cards): tiles covering
// c_l positions of letter l take min(c_l, s_l) jokers off, s_l = max(0, n_l - p_l), as if
// some s_l of its positions were short and the rest plain. Most words are settled from their
// letter counts and the two-letter sequences they hold (classify(), a pass over bytes per
// block of words that compilers vectorise, and double_jokers_suffice()); of the rest, which
// need tiles, most by bounds on the tiles from masks of their positions (Tiler) and the
// others by an exact search, one word at a time (TileSearch). The legal claims do not depend on
// which cards a word takes, so this gives find_words' words, without their walk over the
// lexicon.

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

namespace {

/// What a table offers for a word's letters (K3.3), for formable_words.
struct Supply {
    /// The double letter cards of one kind: its letters (0..25), its cards on the table and
    /// the letter index's slot of its sequence (LetterIndex::kNoSlot if none).
    struct DoubleKind {
        uint8_t first, second, cards, slot;
    };
    std::array<uint8_t, 26> plain{};       // plain cards per letter
    uint32_t no_plain = 0;                 // the letters (bit l) that no plain card shows
    std::array<uint8_t, 26> with_plain{};  // the letters some plain card shows
    int plain_letters = 0;
    int jokers = 0, double_jokers = 0;
    int kinds = 0;                        // double letter kinds
    std::array<uint8_t, 26 * 26> kind{};  // 1 + the double letter kind of two letters (first * 26 + second), 0 none
    std::array<uint8_t, kMaxTable + 1> left{};    // cards of each double letter kind, by 1 + kind
    std::array<DoubleKind, kMaxTable> doubles{};  // by kind
    std::array<int, 26> minus_plain{};            // -plain, where a word's letters start counting
    /// The slots (LetterIndex::slot) of the sequences of two letters that no plain card shows,
    /// 8 by byte: a double joker over such a pair takes two jokers off the singles.
    std::array<uint8_t, Lexicon::LetterIndex::kSlots / 8> bare_pairs{};
    /// Double letter kinds AB (A != B, with a slot) no two of which can overlap in a word:
    /// AB at i and CD at j share a position only if j = i + 1 and B = C, j = i - 1 and
    /// D = A, or j = i and AB = CD. So one card of each kind a word holds lies on its own two
    /// letters (see classify(): the sure gain).
    std::array<uint8_t, kMaxTable> disjoint{};
    int disjoint_kinds = 0;

    Supply(const std::vector<Card>& table, const Lexicon::LetterIndex& index) {
        for (const Card& card : table) {
            switch (card.kind) {
                case Card::Kind::Letter: ++plain[at(card.first - 'A')]; break;
                case Card::Kind::Joker: ++jokers; break;
                case Card::Kind::DoubleJoker: ++double_jokers; break;
                case Card::Kind::Double: {
                    const int sequence = (card.first - 'A') * 26 + (card.second - 'A');
                    uint8_t& k = kind[at(sequence)];
                    if (k == 0) {
                        doubles[at(kinds)] = {static_cast<uint8_t>(card.first - 'A'),
                                              static_cast<uint8_t>(card.second - 'A'), 0, index.slot[at(sequence)]};
                        k = static_cast<uint8_t>(++kinds);
                    }
                    ++left[k];
                    ++doubles[at(k - 1)].cards;
                    break;
                }
            }
        }
        for (int l = 0; l < 26; ++l) {
            if (plain[at(l)] == 0) no_plain |= 1u << l;
            else with_plain[at(plain_letters++)] = static_cast<uint8_t>(l);
            minus_plain[at(l)] = -static_cast<int>(plain[at(l)]);
        }
        for (int k = 0; k < kinds; ++k) {
            const DoubleKind d = doubles[at(k)];
            bool apart = d.first != d.second && d.slot != Lexicon::LetterIndex::kNoSlot;
            for (int o = 0; o < disjoint_kinds && apart; ++o) {
                const DoubleKind e = doubles[disjoint[at(o)]];
                apart = d.second != e.first && e.second != d.first;
            }
            if (apart) disjoint[at(disjoint_kinds++)] = static_cast<uint8_t>(k);
        }
        for (int sequence = 0; sequence < 26 * 26; ++sequence) {
            const uint8_t s = index.slot[at(sequence)];
            if (s != Lexicon::LetterIndex::kNoSlot && (no_plain >> (sequence / 26) & no_plain >> (sequence % 26) & 1u))
                bare_pairs[s / 8] = static_cast<uint8_t>(bare_pairs[s / 8] | 1u << (s % 8));
        }
    }
};

/// The exact test of one word: whether tiles can take enough letters short of plain cards
/// off the singles that the jokers cover the rest, with at most `tiles` tiles (min_cards).
/// A depth-first search over the word's positions, left to right: at each position a tile
/// starts there or the letter is a single. Only tiles that cover a letter still short of
/// plain cards are tried (any other can go: it frees nothing and costs a card), and of
/// those a double letter card before a double joker when one is left (a solution with the
/// double joker there and every such card later in the word swaps the two). Bounds on what
/// tiles can still take cut the search, and a memo of the states that failed (see
/// number_states()): it is mostly a walk down the word. `work` counts the steps of every
/// search of the table, shared by the threads that test its words; one TileSearch tests the
/// words of one thread.
class TileSearch {
public:
    TileSearch(const Supply& supply, std::atomic<uint64_t>& work) : supply_(supply), left_(supply.left), work_(work) {}

    /// Whether the table forms `word` (A-Z, length 1..kMaxWord) with at least `min_cards`
    /// cards, given that its singles need `excess` > 0 jokers more than the table has.
    bool formable(const char* word, int length, int excess, int min_cards) {
        word_ = word;
        length_ = length;
        // short_[l]: singles of letter l that no plain card takes (tiles take them off while
        // it is > 0); only letters with short_ > 0 gain from a tile.
        short_ = supply_.minus_plain;
        for (int i = 0; i < length; ++i) ++short_[at(letter(i))];
        const int tiles = length - min_cards;
        // From the right: the short letters a suffix can give (each letter's count there, at
        // most its short count), and disjoint neighbours both short (a path's maximum
        // matching of its suffix, greedily): what tiles from there can take.
        shorts_[at(length)] = pairs_[at(length)] = 0;
        pairs_[at(length + 1)] = 0;
        std::array<int, 26> suffix{};
        for (int i = length - 1; i >= 0; --i) {
            const bool is_short = short_[at(letter(i))] > 0;
            shorts_[at(i)] = shorts_[at(i + 1)] + (++suffix[at(letter(i))] <= short_[at(letter(i))] ? 1 : 0);
            const bool pair =
                is_short && i + 1 < length && short_[at(letter(i + 1))] > (letter(i) == letter(i + 1) ? 1 : 0);
            pairs_[at(i)] = std::max(pairs_[at(i + 1)], pair ? 1 + pairs_[at(i + 2)] : 0);
        }
        // The double letter cards that can take a short letter of this word (each kind at most
        // as often as the table has it), and the short letters they can take at most.
        std::fill_n(seen_.begin(), supply_.kinds + 1, uint8_t{0});
        int cards = 0, reach = 0;
        for (int i = 0; i + 1 < length; ++i) {
            const int a = letter(i), b = letter(i + 1);
            const uint8_t k = supply_.kind[at(a * 26 + b)];
            const int value = (short_[at(a)] > 0 ? 1 : 0) + (short_[at(b)] > (a == b ? 1 : 0) ? 1 : 0);
            if (k == 0 || value == 0 || seen_[k] >= supply_.left[k]) continue;
            ++seen_[k];
            ++cards;
            reach += value;
        }
        if (std::min(2 * tiles, 2 * supply_.double_jokers + reach) < excess) return false;
        double_jokers_ = supply_.double_jokers;
        cards_ = cards;
        number_states();
        steps_ = 0;
        before_ = work_.load(std::memory_order_relaxed);
        const bool found = search(0, excess, tiles);
        // The total is every word's steps whatever the threads: over the limit or not alike.
        if (work_.fetch_add(steps_, std::memory_order_relaxed) + steps_ > kMaxFinderWork) too_much_work();
        return found;
    }

private:
    int letter(int i) const noexcept { return word_[i] - 'A'; }

    /// Numbers the states search() can reach for this word, so that it knows a failed one
    /// again: different tilings of a prefix often leave the same state (a double joker over
    /// positions 0-1 or 1-2 of three letters of no plain card). What search() does from a
    /// position depends, besides the jokers still missing, on the double jokers and cards of
    /// each kind left and on short_ of the letters that have plain cards (a letter with none
    /// is short at every position not under a tile, whatever was laid); the tiles left follow
    /// from the double jokers and cards left. Those make a number in mixed radix, kept up to
    /// date as tiles are laid (state_; the key adds the position). A state that failed with
    /// some jokers missing fails with more. No memo (memo_ false) if the numbers do not fit 64
    /// bits: custom decks of many kinds only.
    void number_states() {
        uint64_t radix = 1;
        bool fits = true;
        const auto digit = [&](uint64_t values) {
            const uint64_t weight = radix;
            if (radix > ~uint64_t{0} / values) fits = false;
            else radix *= values;
            return weight;
        };
        position_weight_ = digit(static_cast<uint64_t>(length_) + 1);
        double_joker_weight_ = digit(static_cast<uint64_t>(double_jokers_) + 1);
        letter_weight_.fill(0);
        for (int l = 0; l < 26; ++l)
            if (short_[at(l)] > 0 && supply_.plain[at(l)] > 0)
                letter_weight_[at(l)] = digit(static_cast<uint64_t>(short_[at(l)]) + 1);
        for (int k = 1; k <= supply_.kinds; ++k)
            kind_weight_[at(k)] = seen_[at(k)] > 0 ? digit(static_cast<uint64_t>(left_[at(k)]) + 1) : 0;
        state_ = double_joker_weight_ * static_cast<uint64_t>(double_jokers_);
        for (int l = 0; l < 26; ++l)
            state_ += letter_weight_[at(l)] * static_cast<uint64_t>(std::max(short_[at(l)], 0));
        for (int k = 1; k <= supply_.kinds; ++k) state_ += kind_weight_[at(k)] * left_[at(k)];
        memo_ = fits;
        if (memo_slots_.empty()) memo_slots_.resize(kMemoSlots);  // at the first search of the table
        if (++stamp_ == 0) std::fill(memo_slots_.begin(), memo_slots_.end(), Failure{0, 0, 0}), stamp_ = 1;
    }

    static constexpr int kMemoBits = 10;
    static constexpr std::size_t kMemoSlots = std::size_t{1} << kMemoBits;
    struct Failure {
        uint64_t key;
        uint32_t stamp;  // the word's stamp_ when it was kept
        int excess;      // the least excess that failed from there
    };

    /// The memo's slot for `key`: the one that holds it, else the one to keep it in.
    Failure& slot(uint64_t key) { return memo_slots_[key * 0x9E3779B97F4A7C15ull >> (64 - kMemoBits)]; }

    /// Whether tiles starting at `pos` or later, at most `tiles` of them, can take `excess`
    /// more short letters.
    bool search(int pos, int excess, int tiles) {
        if (excess <= 0) return true;
        if (++steps_ + before_ > kMaxFinderWork)
            too_much_work();  // custom decks only: many two-letter cards, long words
        if (tiles == 0 || pos + 1 >= length_) return false;
        const int most = std::min(tiles, double_jokers_ + cards_);  // tiles that can still be laid
        if (std::min(shorts_[at(pos)], most + std::min(most, pairs_[at(pos)])) < excess) return false;
        const uint64_t key = state_ + position_weight_ * static_cast<uint64_t>(pos);
        if (memo_) {
            const Failure& seen = slot(key);
            if (seen.stamp == stamp_ && seen.key == key && excess >= seen.excess) return false;
        }
        const int a = letter(pos), b = letter(pos + 1);
        const int take_a = short_[at(a)] > 0 ? 1 : 0;
        const int take_b = short_[at(b)] - (a == b ? take_a : 0) > 0 ? 1 : 0;
        if (take_a + take_b > 0) {
            const uint8_t k = supply_.kind[at(a * 26 + b)];
            const bool card = k != 0 && left_[k] > 0;
            if (card || double_jokers_ > 0) {
                const uint64_t tile = card ? kind_weight_[k] : double_joker_weight_;
                const uint64_t taken = letter_weight_[at(a)] * static_cast<uint64_t>(take_a) +
                                       letter_weight_[at(b)] * static_cast<uint64_t>(take_b);
                if (card) --left_[k], --cards_;
                else --double_jokers_;
                short_[at(a)] -= take_a;
                short_[at(b)] -= take_b;
                state_ -= tile + taken;
                const bool found = search(pos + 2, excess - take_a - take_b, tiles - 1);
                state_ += tile + taken;
                short_[at(a)] += take_a;
                short_[at(b)] += take_b;
                if (card) ++left_[k], ++cards_;
                else ++double_jokers_;
                if (found) return true;
            }
        }
        if (search(pos + 1, excess, tiles)) return true;
        if (memo_) {
            Failure& seen = slot(key);
            if (seen.stamp == stamp_ && seen.key == key) seen.excess = std::min(seen.excess, excess);
            else seen = {key, stamp_, excess};
        }
        return false;
    }

    const Supply& supply_;
    std::array<uint8_t, kMaxTable + 1> left_;  // double letter cards left, by 1 + kind
    std::array<uint8_t, kMaxTable + 1> seen_{};
    std::array<int, 26> short_{};
    std::array<int, kMaxWord + 2> shorts_{}, pairs_{};
    const char* word_ = nullptr;
    int length_ = 0;
    int double_jokers_ = 0;        // left
    int cards_ = 0;                // double letter cards that may still take a short letter
    std::atomic<uint64_t>& work_;  // steps searched, over every word of the table
    uint64_t before_ = 0;          // work_ when this word's search began (a lower bound with threads)
    uint64_t steps_ = 0;           // this word's
    // number_states()' numbering, and the states whose search failed (memo_slots_ whose
    // stamp is this word's stamp_).
    bool memo_ = false;
    uint64_t state_ = 0, position_weight_ = 0, double_joker_weight_ = 0;
    std::array<uint64_t, 26> letter_weight_{};
    std::array<uint64_t, kMaxTable + 1> kind_weight_{};
    std::vector<Failure> memo_slots_;
    uint32_t stamp_ = 0;

    [[noreturn]] static void too_much_work() {
        throw LimitError("the word test would need more than " + std::to_string(kMaxFinderWork) +
                         " steps on this table (K3.3): its cards can tile words in too many ways");
    }
};

using Block = std::array<uint8_t, Lexicon::LetterIndex::kBlock>;

/// What the block pass tells of each word of a block (see classify()).
struct Shortfalls {
    std::array<Block, 26> shorts;  // s_l = max(0, n_l - p_l) by letter
    Block need;                    // jokers the singles need: sum over letters of max(0, n_l - p_l)
    Block bound;                   // the same less what the double letter cards the word can hold could take
    Block usable;                  // double letter cards the word can hold
    Block bare;  // 1 if the word holds two adjacent letters that no plain card shows (Supply::bare_pairs)
    Block held;  // the kinds of Supply::disjoint the word holds: one card each lies apart
    Block sure;  // short letters those cards take: sum over letters of min(s_l, c_l), c_l of them on l
    /// The tight letters: those with plain cards that the word is short of (s_l > 0), letter l
    /// at bit l % 8 of tight[l / 8] (bytes: the pass that makes them vectorises).
    std::array<Block, 4> tight;
};

/// Shortfalls::held and sure: one card of each kind of Supply::disjoint whose sequence the
/// word holds, laid on it (no two overlap), takes min(s_l, c_l) short letters l off the
/// singles, c_l the cards laid on letter l (K3.3 d).
void sure_gain(const uint8_t* sequences, const Supply& supply, Shortfalls& out) {
    constexpr std::size_t block = Lexicon::LetterIndex::kBlock;
    std::array<Block, 26> on;
    Block held{}, sure{};
    for (int o = 0; o < supply.disjoint_kinds; ++o) {
        const Supply::DoubleKind kind = supply.doubles[supply.disjoint[at(o)]];
        on[kind.first].fill(0), on[kind.second].fill(0);
    }
    for (int o = 0; o < supply.disjoint_kinds; ++o) {
        const Supply::DoubleKind kind = supply.doubles[supply.disjoint[at(o)]];
        const uint8_t* holds = sequences + kind.slot / 8 * block;
        const int shift = kind.slot % 8;
        Block& first = on[kind.first];
        Block& second = on[kind.second];
        for (std::size_t j = 0; j < block; ++j) {
            const auto h = static_cast<uint8_t>(holds[j] >> shift & 1);
            held[j] = static_cast<uint8_t>(held[j] + h);
            first[j] = static_cast<uint8_t>(first[j] + h);
            second[j] = static_cast<uint8_t>(second[j] + h);
        }
    }
    uint32_t done = 0;
    for (int o = 0; o < supply.disjoint_kinds; ++o) {
        const Supply::DoubleKind kind = supply.doubles[supply.disjoint[at(o)]];
        for (const uint8_t l : {kind.first, kind.second}) {
            if (done >> l & 1) continue;
            done |= 1u << l;
            const Block& shorts = out.shorts[l];
            const Block& c = on[l];
            for (std::size_t j = 0; j < block; ++j)
                sure[j] = static_cast<uint8_t>(sure[j] + (shorts[j] < c[j] ? shorts[j] : c[j]));
        }
    }
    out.held = held;
    out.sure = sure;
}

/// The shortfalls of one block of words. A card of a kind AB lies on the letters AB of the
/// word (K3.3 d), so the word holds the sequence (its slot bit, when it has a slot) and takes
/// at most u = min(cards AB, n_A, n_B) of them (n_A / 2 if A = B): they take at most
/// cap_l = the sum of u over the kinds with letter l (twice for AA) letters l, of which
/// min(s_l, cap_l) short ones (s_l = max(0, n_l - p_l)); `bound` is need less that sum.
/// Plain loops over bytes without a branch into local arrays (no aliasing to rule out),
/// which compilers vectorise on every platform (SSE2, NEON, wasm SIMD) and which give the
/// same integers where they do not. Every value stays below 256 for the words that count
/// (at most kMaxWord letters; cap_l <= 2 * kMaxTable).
void classify(const uint8_t* counts, const uint8_t* sequences, const Supply& supply, Shortfalls& out) {
    constexpr std::size_t block = Lexicon::LetterIndex::kBlock;
    Block need{}, usable{};
    std::array<Block, 26> cap;
    for (std::size_t l = 0; l < 26; ++l) {
        const uint8_t* row = counts + l * block;
        const uint8_t plain = supply.plain[l];
        Block& shorts = out.shorts[l];
        for (std::size_t j = 0; j < block; ++j) {
            const uint8_t count = row[j];
            shorts[j] = static_cast<uint8_t>((count > plain ? count : plain) - plain);
            need[j] = static_cast<uint8_t>(need[j] + shorts[j]);
        }
    }
    std::array<Block, 4> tight{};
    for (int o = 0; o < supply.plain_letters; ++o) {
        const int l = supply.with_plain[at(o)];
        const Block& shorts = out.shorts[at(l)];
        Block& bits = tight[at(l / 8)];
        const auto letter = static_cast<uint8_t>(1u << (l % 8));
        for (std::size_t j = 0; j < block; ++j) bits[j] = static_cast<uint8_t>(bits[j] | (shorts[j] != 0 ? letter : 0));
    }
    out.tight = tight;
    for (int k = 0; k < supply.kinds; ++k)
        cap[supply.doubles[at(k)].first].fill(0), cap[supply.doubles[at(k)].second].fill(0);
    for (int k = 0; k < supply.kinds; ++k) {
        const Supply::DoubleKind kind = supply.doubles[at(k)];
        const uint8_t* a = counts + kind.first * block;
        const uint8_t* b = counts + kind.second * block;
        const bool same = kind.first == kind.second;
        Block u;
        for (std::size_t j = 0; j < block; ++j) {
            const uint8_t most = same ? static_cast<uint8_t>(a[j] >> 1) : (a[j] < b[j] ? a[j] : b[j]);
            u[j] = most < kind.cards ? most : kind.cards;
        }
        if (kind.slot != Lexicon::LetterIndex::kNoSlot) {
            const uint8_t* holds = sequences + kind.slot / 8 * block;
            const auto bit = static_cast<uint8_t>(1u << (kind.slot % 8));
            for (std::size_t j = 0; j < block; ++j) u[j] = (holds[j] & bit) != 0 ? u[j] : 0;
        }
        Block& first = cap[kind.first];
        Block& second = cap[kind.second];
        for (std::size_t j = 0; j < block; ++j) {
            first[j] = static_cast<uint8_t>(first[j] + u[j]);
            usable[j] = static_cast<uint8_t>(usable[j] + u[j]);
        }
        for (std::size_t j = 0; j < block; ++j) second[j] = static_cast<uint8_t>(second[j] + u[j]);
    }
    Block bound = need;
    uint32_t done = 0;
    for (int k = 0; k < supply.kinds; ++k) {
        for (const uint8_t l : {supply.doubles[at(k)].first, supply.doubles[at(k)].second}) {
            if (done >> l & 1) continue;
            done |= 1u << l;
            const Block& shorts = out.shorts[l];
            const Block& c = cap[l];
            for (std::size_t j = 0; j < block; ++j)
                bound[j] = static_cast<uint8_t>(bound[j] - (shorts[j] < c[j] ? shorts[j] : c[j]));
        }
    }
    Block bare{};
    for (std::size_t r = 0; r < Lexicon::LetterIndex::kSlots / 8; ++r) {
        const uint8_t* row = sequences + r * block;
        const uint8_t mask = supply.bare_pairs[r];
        for (std::size_t j = 0; j < block; ++j) bare[j] = static_cast<uint8_t>(bare[j] | (row[j] & mask));
    }
    sure_gain(sequences, supply, out);
    out.need = need;
    out.bound = bound;
    out.usable = usable;
    out.bare = bare;
}

/// The most letters a word may have for Tiler: covers()' sets of gains (0..length) fit 64 bits.
constexpr int kMaxTiledWord = 32;

/// What Tiler finds for a word.
enum class Tiling : uint8_t { formed, unformed, undecided };

/// Decides most words whose singles need `excess` > 0 jokers more than the table has, from
/// masks of their positions: whether tiles take `excess` short letters off the singles (see
/// the top of the file). A letter with no plain card is short at each of its positions
/// (`bare`); a letter l with some, when the word is short of it (tight), gains min(covered,
/// s_l) from the tiles over its positions (s_l at shorts[l * kBlock], kBlock words to a
/// block; the tight letters as bits of `tight_letters`, from classify()). decide() finds a word:
/// - formed when covers() finds the tiles for a choice of s_l positions of each tight letter
///   taken as short (first under a card, then beside a bare letter; else each choice in
///   turn, at most kMaxChoices), on the card spots the table has enough cards for (of a kind
///   the word holds more often than the table, only as many spots as it has cards): a tiling
///   that exists (K3.3 d, f);
/// - unformed when covers() finds no tiling that takes enough even with every card spot free
///   of the card count and every position of a tight letter short (each gains at most 1), or,
///   for any split of the tight letters, with those of one part short at every position and
///   those of the other counted as s_l at once (min(c, s) <= c and <= s), or when every
///   choice failed and no kind is held beyond its cards (then the choices are exact);
/// - undecided otherwise, and for the words min_cards limits in tiles (fewer than half their
///   length), more than two double jokers or more than kMaxTiledWord letters: the exact search.
/// Words come in lexicon order, and most share all but two of their letters with the word
/// before (12 letters on average in German, 10 in common): a Tiler keeps the masks of the
/// word it decided last and the steps covers() took on it, and redoes only what follows the
/// common prefix. One Tiler decides the words of one thread.
class Tiler {
public:
    explicit Tiler(const Supply& supply) : supply_(supply) {}

    Tiling decide(const char* word, int length, int excess, int min_cards, const uint8_t* shorts,
                  uint32_t tight_letters) {
        constexpr std::size_t block = Lexicon::LetterIndex::kBlock;
        if (length - min_cards < length / 2 || supply_.double_jokers > 2 || length > kMaxTiledWord)
            return Tiling::undecided;
        take(word, length);
        const uint64_t held = held_spots();  // card spots the lower bound may use
        const uint64_t under_card = held | held << 1, beside_bare = bare_ << 1 | bare_ >> 1;
        uint64_t tight = 0, first = bare_;  // a choice of short positions
        int count = 0, choices = 1;         // tight letters (tight_), and the choices of their short positions
        for (uint32_t rest = tight_letters; rest != 0; rest &= rest - 1) {
            const int l = lowest_bit64(rest);
            const uint64_t positions = at_letter_[at(l)];
            const int short_ = shorts[static_cast<std::size_t>(l) * block];
            tight_[at(count++)] = {positions, short_};
            choices = std::min(choices * kChoose[supply_.plain[at(l)] + short_][short_], kMaxChoices + 1);
            tight |= positions;
            uint64_t left = positions;  // s_l of them, under a card first, then beside a bare letter
            for (int picks = short_; picks > 0; --picks) {
                uint64_t pick = left & under_card;
                pick = pick != 0 ? pick : left & beside_bare;
                pick = pick != 0 ? pick : left;
                pick &= 0 - pick;
                first |= pick;
                left &= ~pick;
            }
        }
        if (covers(first, held, excess, first_)) return Tiling::formed;
        if (!covers(bare_ | tight, cards_, excess, relaxed_)) return Tiling::unformed;
        for (uint32_t split = 0; count <= 4 && split + 1 < (1u << count); ++split) {
            uint64_t short_ = bare_;
            int counted = 0;
            for (int t = 0; t < count; ++t) {
                if ((split >> t & 1) != 0) short_ |= tight_[at(t)].positions;
                else counted += tight_[at(t)].short_;
            }
            if (excess > counted && !covers(short_, cards_, excess - counted, other_)) return Tiling::unformed;
        }
        if (choices > kMaxChoices) return Tiling::undecided;
        if (any_choice(0, count, bare_, held, excess)) return Tiling::formed;
        // Every choice failed: with no kind held beyond its cards, no tiling takes enough.
        return held == cards_ ? Tiling::unformed : Tiling::undecided;
    }

private:
    /// What covers() holds before a spot: for each count of double jokers laid (0..2), the
    /// gains (bit g: g short positions covered) some tiling reaches with the spot's first
    /// position free, and with it under a tile from the spot before.
    struct State {
        std::array<uint64_t, 3> free, under;
    };
    /// The steps of covers() on the masks it was last given: the states before the first
    /// `known` + 1 spots.
    struct Steps {
        uint64_t shorts = 0, cards = 0;
        int known = 0;
        std::array<State, kMaxTiledWord> before{};
        Steps() { before[0].free[0] = 1; }  // nothing laid, nothing covered
    };
    /// The most choices of short positions any_choice() tries; kChoose[n][k] = n choose k (n < 64),
    /// at most kMaxChoices + 1.
    static constexpr int kMaxChoices = 32;
    static constexpr auto kChoose = [] {
        std::array<std::array<int, 65>, 65> choose{};
        for (int n = 0; n <= 64; ++n) {
            choose[n][0] = 1;
            for (int k = 1; k <= n; ++k)
                choose[n][k] = std::min(choose[n - 1][k - 1] + choose[n - 1][k], kMaxChoices + 1);
        }
        return choose;
    }();
    struct Tight {
        uint64_t positions;
        int short_;  // s_l
    };

    /// Whether covers() takes `excess` for some choice of s_l short positions of each tight
    /// letter from the t-th on, `short_` holding the choices before it: each choice once.
    bool any_choice(int t, int count, uint64_t short_, uint64_t held, int excess) {
        if (t == count) return covers(short_, held, excess, choices_);
        const Tight tight = tight_[at(t)];
        // The subsets of s_l of its positions: s_l of the n bits, in increasing order (Gosper).
        const int n = popcount64(tight.positions);
        for (uint64_t pick = low_mask(tight.short_); pick < (uint64_t{1} << n);) {
            uint64_t chosen = 0, rest = tight.positions;
            for (uint64_t bits = pick; bits != 0; bits >>= 1, rest &= rest - 1)
                if ((bits & 1) != 0) chosen |= rest & (0 - rest);
            if (any_choice(t + 1, count, short_ | chosen, held, excess)) return true;
            const uint64_t low = pick & (0 - pick), carry = pick + low;
            pick = (((carry ^ pick) >> 2) / low) | carry;
        }
        return false;
    }

    /// The masks of `word`, from those of the word before where their letters agree: by letter
    /// its positions (at_letter_), those of letters no plain card shows (bare_), and the
    /// spots (the first of two positions) where a double letter card of the table fits (cards_).
    void take(const char* word, int length) {
        // The letters this word shares with the one before, 8 at a time while both have 8 more.
        const int most = std::min(length, length_);
        int common = 0;
        for (; common + 8 <= most; common += 8) {
            uint64_t a = 0, b = 0;
            std::memcpy(&a, word + common, 8);
            std::memcpy(&b, word_ + common, 8);
            if (a != b) break;
        }
        while (common < most && word[common] == word_[common]) ++common;
        for (int i = common; i < length_; ++i) at_letter_[at(word_[i] - 'A')] &= ~(uint32_t{1} << i);
        bare_ &= low_mask(common);
        cards_ &= low_mask(std::max(common - 1, 0));
        for (int i = common; i < length; ++i) {
            const int c = word[i] - 'A';
            at_letter_[at(c)] |= uint32_t{1} << i;
            bare_ |= uint64_t{supply_.no_plain >> c & 1} << i;
            if (i > 0) cards_ |= uint64_t{supply_.kind[at((word[i - 1] - 'A') * 26 + c)] != 0} << (i - 1);
        }
        word_ = word;
        length_ = length;
    }

    /// cards_, less the spots of a kind the word holds more often than the table has its
    /// cards beyond as many as it has (those over two bare letters first).
    uint64_t held_spots() const {
        uint64_t kinds = 0, repeated = 0;  // bit 1 + kind (63 for all past 62)
        for (uint64_t rest = cards_; rest != 0; rest &= rest - 1) {
            const int i = lowest_bit64(rest);
            const uint64_t kind = uint64_t{1}
                                  << std::min<int>(supply_.kind[at((word_[i] - 'A') * 26 + (word_[i + 1] - 'A'))], 63);
            repeated |= kinds & kind;
            kinds |= kind;
        }
        uint64_t held = cards_;
        for (int k = 0; k < supply_.kinds && repeated != 0; ++k) {
            const Supply::DoubleKind kind = supply_.doubles[at(k)];
            const uint64_t spots = at_letter_[kind.first] & at_letter_[kind.second] >> 1;
            if ((spots & (spots - 1)) == 0 || popcount64(spots) <= kind.cards) continue;
            held &= ~spots;
            const uint64_t both = spots & bare_ & bare_ >> 1;
            int left = kind.cards;
            for (uint64_t rest = both; rest != 0 && left > 0; rest &= rest - 1, --left) held |= rest & (0 - rest);
            for (uint64_t rest = spots & ~both; rest != 0 && left > 0; rest &= rest - 1, --left)
                held |= rest & (0 - rest);
        }
        return held;
    }

    /// Whether disjoint tiles cover at least `least` >= 1 of the `shorts` positions of the
    /// word taken: a tile over positions i, i + 1 is a double letter card where bit i of
    /// `cards` is set (any number of them) or a double joker anywhere (at most the table's,
    /// 0..2). A dynamic programme over the spots left to right on the gains each count of
    /// double jokers reaches (State: a set of gains in a 64-bit word, a word has at most
    /// kMaxTiledWord letters): a tile shifts a set by the short positions it covers, and
    /// two ways to one state join by a union, so a spot is a few independent operations per
    /// count. It starts after the spots whose masks `steps` held too (spot i reads bits i
    /// and i + 1 of `shorts`, bit i of `cards`), and stops at the first tile that reaches
    /// `least`: gains only grow. A tile that covers no short position is never needed (it takes
    /// nothing and blocks its neighbours), so the spots where it would lie pass at one step.
    bool covers(uint64_t shorts, uint64_t cards, int least, Steps& steps) const {
        // Double jokers the table has: a state past them stays empty.
        const uint64_t one_more = supply_.double_jokers >= 1 ? ~uint64_t{0} : 0;
        const uint64_t two_more = supply_.double_jokers >= 2 ? ~uint64_t{0} : 0;
        const int spots = length_ - 1;
        const uint64_t changed = (shorts ^ steps.shorts) | (cards ^ steps.cards);
        const int from = std::min({steps.known, spots, changed == 0 ? spots : std::max(lowest_bit64(changed) - 1, 0)});
        steps.shorts = shorts;
        steps.cards = cards;
        steps.known = from;
        State state = steps.before[at(from)];
        // Gains reached before this spot are in its state: free joins every state before it.
        if (((state.free[0] | state.free[1] | state.free[2] | state.under[0] | state.under[1] | state.under[2]) >>
             least) != 0)
            return true;
        const uint64_t useful = shorts | shorts >> 1;  // the spots whose tile covers a short position
        for (int i = from; i < spots; ++i) {
            if ((useful >> i & 1) == 0) {
                // No tiling needs a tile here (it takes nothing and uses a tile), nor at the
                // spots up to the next useful one: the state stays as it is after this one.
                for (int d = 0; d < 3; ++d) state.free[at(d)] |= state.under[at(d)];
                state.under = {};
                const uint64_t ahead = useful >> i;
                const int next = ahead == 0 ? spots : std::min(spots, i + lowest_bit64(ahead));
                for (int k = i + 1; k <= next; ++k) steps.before[at(k)] = state;
                steps.known = next;
                i = next - 1;
                continue;
            }
            const int covered = static_cast<int>((shorts >> i & 1) + (shorts >> (i + 1) & 1));
            const uint64_t card = 0 - (cards >> i & 1);
            const uint64_t gained0 = state.free[0] << covered, gained1 = state.free[1] << covered,
                           gained2 = state.free[2] << covered;
            const std::array<uint64_t, 3> tiled{gained0 & card, (gained1 & card) | (gained0 & one_more),
                                                (gained2 & card) | (gained1 & two_more)};
            for (int d = 0; d < 3; ++d) state.free[at(d)] |= state.under[at(d)];
            state.under = tiled;
            steps.before[at(i + 1)] = state;
            steps.known = i + 1;
            if (((tiled[0] | tiled[1] | tiled[2]) >> least) != 0) return true;
        }
        return false;
    }

    const Supply& supply_;
    const char* word_ = "";  // the word taken last, and its masks
    int length_ = 0;
    std::array<uint32_t, 26> at_letter_{};
    uint64_t bare_ = 0, cards_ = 0;
    Steps first_, relaxed_, other_, choices_;  // covers()' steps: the first choice, the relaxed bound, the others
    std::array<Tight, 26> tight_{};
};

/// The tests on counts below work on 32-bit lanes, 1 for yes, without a branch (settle()).
using Lane = int32_t;
Lane yes(bool condition) { return condition ? 1 : 0; }

/// Whether `double_jokers` (at most the tiles min_cards allows) take `excess` > 0 jokers off
/// the singles whatever the word's letters' order; `need`: the jokers the singles need,
/// `bare`: the word holds two adjacent letters that no plain card shows. Take `need` of the
/// positions as short (s_l of each letter l's) and the rest as plain (see the top of the file).
/// Runs of short positions hold at least q = ceil((2 * need - length - 1) / 2) disjoint
/// pairs (at most length - need + 1 runs, a run of k has floor(k / 2) >= (k - 1) / 2), and
/// at least one if `bare`. Lay min(q, double_jokers) double jokers over such pairs (two
/// each), then each other over a pair (0 1)(2 3)... of a stretch between them holding an
/// uncovered short position (one each). Either all are laid, taking q + double_jokers
/// (q now the pairs laid), or the stretches' pairs run out, leaving at most one uncovered
/// short position a stretch: q + 1 jokers cover them.
Lane double_jokers_suffice(Lane length, Lane need, Lane excess, Lane double_jokers, Lane bare, Lane jokers) {
    const Lane q = std::min(double_jokers, std::max((2 * need - length) >> 1, bare));
    return yes(excess <= q + double_jokers) & yes(q + 1 <= jokers);
}

/// Whether the `held` cards of Shortfalls::held (taking `sure` short letters) and double
/// jokers take `excess` > 0 jokers off the singles within `tiles` tiles whatever the word's
/// letters' order; `need`: the jokers the singles need. Lay the cards: r = need - sure
/// short positions stay uncovered (take the ones under cards as short first). The free
/// positions (length - 2 held) lie in at most held + 1 stretches, so the runs of uncovered
/// short positions number at most (length - 2 held - r) + held + 1 and hold, as in
/// double_jokers_suffice(), q >= (2r - length + held) / 2 disjoint pairs: lay a double joker
/// over each of q of them (two each, at most d, the double jokers the tiles allow). Then e
/// more, each over an uncovered short position and a free neighbour (one each): before the
/// (j + 1)-th, at most held + q + j + 1 stretches hold at least r - 2q - (e - 1) uncovered
/// short positions (fewer than e taken so far); more than the stretches puts two free
/// positions in one stretch, one of them short. r >= held + 3q + 2e makes it so for every j < e.
Lane cards_suffice(Lane length, Lane need, Lane excess, Lane held, Lane sure, Lane tiles, Lane double_jokers) {
    const Lane d = std::min(double_jokers, tiles - held), r = need - sure;
    const Lane q = std::min(d, std::max((2 * r - length + held) >> 1, 0));
    const Lane e = excess - sure - 2 * q;
    return yes(held <= tiles) & (yes(e <= 0) | (yes(e <= d - q) & yes(r >= held + 3 * q + 2 * e)));
}

/// The words of one block that the tests on counts settle (see formable_words()): `formed`
/// those the table forms, `open` those that need Tiler or the exact search. One
/// pass over 32-bit lanes without a branch, which compilers vectorise as classify()'s (the
/// lanes are one width and every test a 0 or 1: GCC keeps mixed widths and bools scalar).
struct Verdicts {
    uint64_t formed = 0, open = 0;
};

Verdicts settle(const uint8_t* lengths, std::size_t count, const Shortfalls& shortfalls, const Supply& supply,
                int min_cards) {
    constexpr std::size_t block = Lexicon::LetterIndex::kBlock;
    const auto jokers = static_cast<Lane>(supply.jokers), double_jokers = static_cast<Lane>(supply.double_jokers);
    const auto minimum = static_cast<Lane>(min_cards);
    // Widened first: loops of one lane width vectorise.
    std::array<Lane, block> length_of, need, usable, bound, bare, held, sure, formed, open;
    length_of.fill(kMaxWord + 1);  // past the last word: too long to count
    std::copy_n(lengths, count, length_of.begin());
    std::copy(shortfalls.need.begin(), shortfalls.need.end(), need.begin());
    std::copy(shortfalls.usable.begin(), shortfalls.usable.end(), usable.begin());
    std::copy(shortfalls.bound.begin(), shortfalls.bound.end(), bound.begin());
    std::copy(shortfalls.bare.begin(), shortfalls.bare.end(), bare.begin());
    std::copy(shortfalls.held.begin(), shortfalls.held.end(), held.begin());
    std::copy(shortfalls.sure.begin(), shortfalls.sure.end(), sure.begin());
    for (std::size_t j = 0; j < block; ++j) {
        const Lane length = length_of[j];
        // Enough cards (K3.3 b), and no call is longer (K7).
        const Lane counts = yes(length >= minimum) & yes(length <= kMaxWord);
        const Lane excess = need[j] - jokers;              // jokers missing with singles alone
        const Lane tiles = length - minimum;               // the most tiles min_cards allows
        const Lane laid = std::min(double_jokers, tiles);  // double jokers the tiles allow
        // Each tile takes at most two short letters; the cards the word can hold take at most
        // what classify() counts, and each double joker two more.
        const Lane beyond =
            yes(excess > 2 * std::min(tiles, double_jokers + usable[j])) | yes(bound[j] > jokers + 2 * laid);
        // `excess` double jokers, each on a pair holding one of `excess` short positions (at
        // most s_l of letter l): the pairs (0 1)(2 3)... of a word of even length hold them; of
        // an odd one, the pairs on either side of an even position that holds none of them,
        // which there is when 2 * excess < length.
        const Lane settled =
            (yes(excess <= laid) & (yes((length & 1) == 0) | yes(jokers > 0) | yes(2 * excess < length))) |
            double_jokers_suffice(length, need[j], excess, laid, std::min<Lane>(bare[j], 1), jokers) |
            cards_suffice(length, need[j], excess, held[j], sure[j], tiles, double_jokers);
        formed[j] = counts & (yes(excess <= 0) | ((beyond ^ 1) & settled));
        open[j] = counts & yes(excess > 0) & (beyond ^ 1) & (settled ^ 1);
    }
    Verdicts verdicts;
    for (std::size_t j = 0; j < block; ++j) {
        verdicts.formed |= static_cast<uint64_t>(formed[j]) << j;
        verdicts.open |= static_cast<uint64_t>(open[j]) << j;
    }
    return verdicts;
}

/// Calls put(index) for each word of blocks [first_block, last_block) the table forms,
/// ascending (see formable_words()).
template <class Put>
void formable_in(const Lexicon::LetterIndex& index, const Supply& supply, int minimum, std::size_t first_block,
                 std::size_t last_block, Tiler& tiler, TileSearch& search, Put put) {
    constexpr std::size_t block = Lexicon::LetterIndex::kBlock;
    constexpr std::size_t rows = Lexicon::LetterIndex::kSlots / 8;
    Shortfalls shortfalls;
    for (std::size_t b = first_block; b < last_block; ++b) {
        const std::size_t first = b * block;
        classify(index.counts.data() + b * 26 * block, index.sequences.data() + b * rows * block, supply, shortfalls);
        const Verdicts verdicts =
            settle(index.lengths.data() + first, std::min(block, index.words - first), shortfalls, supply, minimum);
        for (uint64_t rest = verdicts.formed | verdicts.open; rest; rest &= rest - 1) {
            const int j = lowest_bit64(rest);
            const std::size_t i = first + static_cast<std::size_t>(j);
            if ((verdicts.open >> j & 1) != 0) {
                const char* letters = index.letters.data() + index.starts[i];
                const int length = index.lengths[i], excess = shortfalls.need[j] - supply.jokers;
                const uint32_t tight = shortfalls.tight[0][j] | shortfalls.tight[1][j] << 8 |
                                       shortfalls.tight[2][j] << 16 | uint32_t{shortfalls.tight[3][j]} << 24;
                const Tiling tiling = tiler.decide(letters, length, excess, minimum, &shortfalls.shorts[0][j], tight);
                if (tiling == Tiling::unformed ||
                    (tiling == Tiling::undecided && !search.formable(letters, length, excess, minimum)))
                    continue;
            }
            put(static_cast<uint32_t>(i));
        }
    }
}

/// The most threads that test one table's words, and the blocks of kBlock words each must
/// have at least: starting a thread costs tens of microseconds, a block a few.
constexpr int kFormableThreads = 4;
constexpr std::size_t kBlocksPerThread = 256;

/// Calls put(index) for each word the table forms, ascending (see formable_words()). A long
/// list is split into parts tested on up to kFormableThreads threads (the caller's one of
/// them), then put in order: the same words, and the same LimitError, on any thread count.
template <class Put>
void each_formable_word(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards, Put put) {
    check_table_size(table);
    const Lexicon::LetterIndex& index = lexicon.letter_index();
    const Supply supply(table, index);
    const int minimum = std::max(min_cards, 0);
    const std::size_t blocks = (index.words + Lexicon::LetterIndex::kBlock - 1) / Lexicon::LetterIndex::kBlock;
    std::atomic<uint64_t> work{0};
    // Asked once: glibc answers with a system call (or a read of /sys) at every call.
    static const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
    const int threads = static_cast<int>(std::min<std::size_t>(
        {static_cast<std::size_t>(std::min(kFormableThreads, kMaxThreads)), cores, blocks / kBlocksPerThread}));
    if (threads <= 1) {
        Tiler tiler(supply);
        TileSearch search(supply, work);
        formable_in(index, supply, minimum, 0, blocks, tiler, search, put);
        return;
    }
    constexpr std::size_t block = Lexicon::LetterIndex::kBlock;
    constexpr int kParts = 64;  // parts of the list: small enough to balance the threads
    const auto start = [&](int part) { return blocks * static_cast<std::size_t>(part) / kParts * block; };
    // A part's words go to its own stretch of one buffer, as long as the words it tests
    // (no growing vectors: a big table forms most of the list), then out in order.
    const std::unique_ptr<uint32_t[]> found(new uint32_t[blocks * block]);
    std::array<std::size_t, kParts> counts{};
    in_parallel(kParts, threads, [&](int first, int last) {
        Tiler tiler(supply);
        TileSearch search(supply, work);
        for (int part = first; part < last; ++part) {
            uint32_t* next = found.get() + start(part);
            formable_in(index, supply, minimum, start(part) / block, start(part + 1) / block, tiler, search,
                        [&](uint32_t i) { *next++ = i; });
            counts[static_cast<std::size_t>(part)] = static_cast<std::size_t>(next - (found.get() + start(part)));
        }
    });
    for (int part = 0; part < kParts; ++part)
        for (std::size_t k = 0; k < counts[static_cast<std::size_t>(part)]; ++k) put(found[start(part) + k]);
}

}  // namespace

std::vector<uint32_t> formable_words(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards) {
    std::vector<uint32_t> words;
    each_formable_word(lexicon, table, min_cards, [&](uint32_t i) { words.push_back(i); });
    return words;
}

int formable_words(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards, int32_t first_id,
                   int32_t* out) {
    int32_t* next = out;
    each_formable_word(lexicon, table, min_cards, [&](uint32_t i) { *next++ = first_id + static_cast<int32_t>(i); });
    return static_cast<int>(next - out);
}

}  // namespace diabolo::knizia
