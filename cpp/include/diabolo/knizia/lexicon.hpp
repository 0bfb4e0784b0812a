// A word list stored as a DAWG (a minimal acyclic automaton over A-Z): membership in
// a few dozen nanoseconds, and the prefix walk that word finders need. Words are
// normalised per docs/games/knizia.rst K2 and K10.8 before they are stored or looked up.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "diabolo/core/cardset.hpp"
#include "diabolo/core/errors.hpp"

namespace diabolo {

/// K2, K10.8: upper case A-Z only; Ä->AE, Ö->OE, Ü->UE, ß and ẞ->SS, other accents
/// stripped (é->E), white space trimmed. Nothing if anything else remains (digits,
/// hyphens, apostrophes, other scripts): such entries are not words (K2.2).
std::optional<std::string> normalise_word(std::string_view utf8);

class Lexicon {
public:
    static constexpr uint32_t kNone = 0xFFFFFFFFu;
    /// The most words a lexicon holds (2**30, beyond any language's list): word ranks and
    /// action ids stay well inside 32 bits.
    static constexpr uint32_t kMaxWords = 1u << 30;

    Lexicon();
    /// Builds from raw entries (normalised here; entries that are not words are dropped).
    static Lexicon from_words(const std::vector<std::string>& entries);
    /// Reads the binary form written by to_bytes, checked completely (layout, every arc,
    /// the word count against the automaton); StateFormatError if it is not one.
    static Lexicon from_bytes(const std::string& data);
    std::string to_bytes() const;

    /// Whether the normalised word `upper` (A-Z only) is in the lexicon.
    bool contains(std::string_view upper) const noexcept;
    /// The word's index in sorted order (0 .. size() - 1), or nothing if it is not a word.
    std::optional<uint32_t> index_of(std::string_view upper) const noexcept;
    /// The word with that index in sorted order; index < size().
    std::string word_at(uint32_t index) const;
    /// Number of distinct words.
    std::size_t size() const noexcept { return words_; }
    std::size_t node_count() const noexcept { return node_count_; }
    /// Where the words came from (a file path, "words", "bytes") and the language code it
    /// was loaded by ("" if none): shown to people, not part of the words.
    const std::string& source() const noexcept { return source_; }
    const std::string& language() const noexcept { return language_; }
    /// Names where the words came from; before the lexicon is shared.
    void set_origin(std::string source, std::string language) {
        source_ = std::move(source);
        language_ = std::move(language);
    }
    /// A 64-bit hash of the automaton: equal lexicons have equal fingerprints, and
    /// different ones almost surely differ (saved states name their lexicon by it).
    uint64_t fingerprint() const noexcept { return fingerprint_; }

    static constexpr uint32_t kLetterBits = (1u << 26) - 1;
    static constexpr uint32_t kTerminalBit = 1u << 31;

    /// The automaton as word finders walk it. An arc holds what a search needs next:
    /// the node it leads to (its letters and where their arcs lie) and its rank step, so
    /// that choosing a child reads only its parent's arcs, which lie together.
    struct Arc {
        uint32_t mask;   // the node's letters (bits 0..25) and kTerminalBit if it ends a word
        uint32_t first;  // index of the arc of the node's lowest letter; the others follow in letter order
        uint32_t step;   // what taking this arc adds to a word's rank: the words that end at
                         // its parent or continue with an earlier letter. The steps along a
                         // word's path sum to its index in sorted order (a perfect hash).
        uint32_t letters() const noexcept { return mask & kLetterBits; }
        bool is_word() const noexcept { return (mask & kTerminalBit) != 0; }
    };
    /// The empty prefix (its step is 0).
    const Arc& root() const noexcept { return root_; }
    /// Arc `index`; a node's arcs are node.first, node.first + 1, ... in letter order.
    const Arc& arc(uint32_t index) const noexcept { return arcs_[index]; }
    /// The arc of `letter` (0..25) out of `node`; the letter must be one of node.letters().
    const Arc& next(const Arc& node, int letter) const noexcept {
        return arcs_[node.first + static_cast<uint32_t>(popcount64(node.mask & ((1u << letter) - 1)))];
    }

    /// Every word's letters and letter counts, by index (sorted order): what a finder that
    /// tests each word against a table reads (knizia::formable_words) instead of walking the
    /// automaton. Built from the automaton on first use (the German list: about 16 MB and a
    /// tenth of a second), once however many threads ask (std::call_once), and shared by the
    /// copies of a lexicon, whose words never change.
    struct LetterIndex {
        /// Words per block of counts: a block's counts of one letter are kBlock adjacent bytes,
        /// so a pass over a letter is a loop over bytes that compilers vectorise.
        static constexpr std::size_t kBlock = 64;
        std::size_t words = 0;
        /// The count of letter l (0..25) in word i = b * kBlock + j: counts[(b * 26 + l) * kBlock + j],
        /// at most 255 (longer words are marked by their length); 0 past the last word.
        std::vector<uint8_t> counts;
        std::vector<uint8_t> lengths;  // letters per word, 255 for 255 or more
        std::vector<uint32_t> starts;  // word i is letters[starts[i] .. starts[i + 1]), A-Z
        std::vector<char> letters;
        /// The two-letter sequences (first * 26 + second) that have a slot: the kSlots found in
        /// most words (fewer if the words hold fewer), so that the double letter cards of a deck
        /// built for the language have one. Slot of a sequence, or kNoSlot.
        static constexpr std::size_t kSlots = 64;
        static constexpr uint8_t kNoSlot = 0xFF;
        std::array<uint8_t, 26 * 26> slot{};
        /// Whether word i = b * kBlock + j holds the sequence of slot s somewhere: bit s % 8 of
        /// sequences[(b * kSlots / 8 + s / 8) * kBlock + j]; by block as counts are.
        std::vector<uint8_t> sequences;
        std::size_t bytes() const noexcept {
            return counts.size() + lengths.size() + starts.size() * sizeof(uint32_t) + letters.size() +
                   sequences.size();
        }
    };
    const LetterIndex& letter_index() const;

private:
    /// The node reached by `upper` (A-Z only), or nullptr.
    const Arc* walk(std::string_view upper, uint32_t* rank) const noexcept;
    /// Takes the automaton's arrays (the binary form's, their layout checked), counts and
    /// numbers the words; StateFormatError if a node ends no word or there are too many.
    void assemble(const std::vector<uint32_t>& masks, const std::vector<uint32_t>& firsts,
                  const std::vector<uint32_t>& targets);

    Arc root_{0, 0, 0};
    std::vector<Arc> arcs_;
    std::vector<uint32_t> targets_;  // each arc's node number: only the binary form needs it
    std::size_t node_count_ = 1;
    std::size_t words_ = 0;
    uint64_t fingerprint_ = 0;
    struct LetterIndexSlot {
        std::once_flag built;
        LetterIndex index;
    };
    std::shared_ptr<LetterIndexSlot> letter_index_ = std::make_shared<LetterIndexSlot>();
    std::string source_ = "words";
    std::string language_;
};

}  // namespace diabolo
