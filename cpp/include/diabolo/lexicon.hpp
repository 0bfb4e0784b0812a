// A word list stored as a DAWG (a minimal acyclic automaton over A-Z): membership in
// a few dozen nanoseconds, and the prefix walk that word finders need. Words are
// normalised per rules/knizia.md K2 and K10.8 before they are stored or looked up.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diabolo/common/errors.hpp"

namespace diabolo {

/// K2, K10.8: upper case A-Z only; Ä->AE, Ö->OE, Ü->UE, ß and ẞ->SS, other accents
/// stripped (é->E), white space trimmed. Nothing if anything else remains (digits,
/// hyphens, apostrophes, other scripts): such entries are not words (K2.2).
std::optional<std::string> normalise_word(std::string_view utf8);

class Lexicon {
public:
    static constexpr uint32_t kNone = 0xFFFFFFFFu;

    Lexicon();
    /// Builds from raw entries (normalised here; entries that are not words are dropped).
    static Lexicon from_words(const std::vector<std::string>& entries);
    /// Reads the binary form written by to_bytes; StateFormatError if it is not one.
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
    std::size_t node_count() const noexcept { return nodes_.size(); }
    /// A 64-bit hash of the automaton: equal lexicons have equal fingerprints, and
    /// different ones almost surely differ (saved states name their lexicon by it).
    uint64_t fingerprint() const noexcept { return fingerprint_; }

    // The automaton, for word finders: nodes are indices, root() is the empty prefix.
    uint32_t root() const noexcept { return 0; }
    /// Bits 0..25: the letters that continue the prefix of `node`.
    uint32_t letters(uint32_t node) const noexcept { return nodes_[node].mask & kLetterBits; }
    bool is_word(uint32_t node) const noexcept { return (nodes_[node].mask & kTerminalBit) != 0; }
    /// The node after `letter` (0..25), or kNone.
    uint32_t child(uint32_t node, int letter) const noexcept;
    /// How much taking `letter` from `node` adds to a word's rank: the words that end
    /// at `node` or continue with an earlier letter. The ranks along a word's path sum
    /// to its index in sorted order (a perfect hash of the words, 0 .. size() - 1).
    uint32_t rank_step(uint32_t node, int letter) const noexcept;

    /// The edges of a node in letter order, for walks that visit every child: edge e of
    /// `node` (e counts the node's letters from the lowest) is first_edge(node) + e.
    uint32_t first_edge(uint32_t node) const noexcept { return nodes_[node].first; }
    uint32_t edge_target(uint32_t edge) const noexcept { return edges_[edge].target; }
    uint32_t edge_step(uint32_t edge) const noexcept { return edges_[edge].step; }

private:
    static constexpr uint32_t kLetterBits = (1u << 26) - 1;
    static constexpr uint32_t kTerminalBit = 1u << 31;
    // A node's fields, and an edge's, lie together: a search reads them together, and
    // the automaton is larger than a core's cache.
    struct Node {
        uint32_t mask;   // letter bits and the terminal bit
        uint32_t first;  // index of its first edge
    };
    struct Edge {
        uint32_t target;  // the child node; a node's edges are in letter order
        uint32_t step;    // its rank_step (derived, not stored in bytes)
    };
    std::vector<Node> nodes_;
    std::vector<Edge> edges_;

    /// Takes the automaton's arrays and numbers the words (fills the steps).
    void assemble(const std::vector<uint32_t>& masks, const std::vector<uint32_t>& firsts, const std::vector<uint32_t>& targets);
    std::size_t words_ = 0;
    uint64_t fingerprint_ = 0;
};

}  // namespace diabolo
