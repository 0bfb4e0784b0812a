// The lexicon: K2 normalisation, DAWG construction (incremental minimisation of a
// trie over sorted words, after Daciuk et al. 2000) and a binary form that loads with
// a few copies.
#include "diabolo/knizia/lexicon.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <utility>

#include "diabolo/core/cardset.hpp"

namespace diabolo {

namespace {

/// Upper-case letters for U+00C0 .. U+017F (Latin-1 Supplement and Latin Extended-A);
/// an empty string marks a character that is not a letter (K2.1, K10.8).
const char* latin_letters(uint32_t code) noexcept {
    static const char* const kLatin1[64] = {
        "A", "A", "A", "A", "AE", "A", "AE", "C", "E", "E", "E", "E", "I",  "I", "I",  "I",   // C0-CF
        "D", "N", "O", "O", "O",  "O", "OE", "",  "O", "U", "U", "U", "UE", "Y", "TH", "SS",  // D0-DF
        "A", "A", "A", "A", "AE", "A", "AE", "C", "E", "E", "E", "E", "I",  "I", "I",  "I",   // E0-EF
        "D", "N", "O", "O", "O",  "O", "OE", "",  "O", "U", "U", "U", "UE", "Y", "TH", "Y"};  // F0-FF
    struct Range {
        uint32_t first, last;
        const char* letters;
    };
    static const Range kExtendedA[] = {
        {0x100, 0x105, "A"}, {0x106, 0x10D, "C"}, {0x10E, 0x111, "D"},  {0x112, 0x11B, "E"},  {0x11C, 0x123, "G"},
        {0x124, 0x127, "H"}, {0x128, 0x131, "I"}, {0x132, 0x133, "IJ"}, {0x134, 0x135, "J"},  {0x136, 0x138, "K"},
        {0x139, 0x142, "L"}, {0x143, 0x14B, "N"}, {0x14C, 0x151, "O"},  {0x152, 0x153, "OE"}, {0x154, 0x159, "R"},
        {0x15A, 0x161, "S"}, {0x162, 0x167, "T"}, {0x168, 0x173, "U"},  {0x174, 0x175, "W"},  {0x176, 0x178, "Y"},
        {0x179, 0x17E, "Z"}, {0x17F, 0x17F, "S"}};
    if (code >= 0xC0 && code <= 0xFF) return kLatin1[code - 0xC0];
    for (const Range& r : kExtendedA) {
        if (code >= r.first && code <= r.last) return r.letters;
    }
    if (code == 0x1E9E) return "SS";  // capital sharp s
    return "";
}

constexpr uint32_t kMalformed = 0xFFFFFFFFu;

/// Decodes the UTF-8 code point at text[i] and moves i past it (always forward), or
/// returns kMalformed.
uint32_t decode(std::string_view text, std::size_t& i) noexcept {
    const auto lead = static_cast<unsigned char>(text[i]);
    int extra = 0;
    uint32_t code = 0;
    if (lead < 0x80) {
        ++i;
        return lead;
    }
    if ((lead >> 5) == 0x6) {
        extra = 1;
        code = lead & 0x1Fu;
    } else if ((lead >> 4) == 0xE) {
        extra = 2;
        code = lead & 0x0Fu;
    } else if ((lead >> 3) == 0x1E) {
        extra = 3;
        code = lead & 0x07u;
    } else {
        ++i;
        return kMalformed;
    }
    for (int k = 1; k <= extra; ++k) {
        const std::size_t at = i + static_cast<std::size_t>(k);
        if (at >= text.size() || (static_cast<unsigned char>(text[at]) >> 6) != 2) {
            i = at;
            return kMalformed;
        }
        code = (code << 6) | (static_cast<unsigned char>(text[at]) & 0x3Fu);
    }
    i += static_cast<std::size_t>(extra) + 1;
    return code;
}

/// White space that K10.8 trims: ASCII, no-break and the typographic spaces.
bool is_space(uint32_t c) noexcept {
    return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xA0 || (c >= 0x2000 && c <= 0x200B) || c == 0x202F ||
           c == 0x205F || c == 0x3000 || c == 0xFEFF;
}

constexpr uint32_t kCombiningDiaeresis = 0x308;
bool is_combining_mark(uint32_t c) noexcept { return c >= 0x300 && c <= 0x36F; }

}  // namespace

std::optional<std::string> normalise_word(std::string_view text) {
    std::vector<uint32_t> codes;
    codes.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) codes.push_back(decode(text, i));
    std::size_t first = 0, last = codes.size();
    while (first < last && is_space(codes[first])) ++first;
    while (last > first && is_space(codes[last - 1])) --last;
    if (first == last) return std::nullopt;
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = first; i < last; ++i) {
        const uint32_t code = codes[i];
        if (code >= 'a' && code <= 'z') {
            out += static_cast<char>(code - 'a' + 'A');
        } else if (code >= 'A' && code <= 'Z') {
            out += static_cast<char>(code);
        } else if (is_combining_mark(code) && i > first && !is_combining_mark(codes[i - 1])) {
            // A decomposed accent (as macOS writes them): an umlaut on A, O or U is
            // the E of K2.1 (A + U+0308 is Ä, so AE); any other mark is dropped (K10.8).
            const uint32_t base = codes[i - 1] | 0x20u;
            if (code == kCombiningDiaeresis && (base == 'a' || base == 'o' || base == 'u')) out += 'E';
        } else {
            const char* letters = code == kMalformed ? "" : latin_letters(code);
            if (*letters == '\0') return std::nullopt;  // K2.2: not purely alphabetic
            out += letters;
        }
    }
    return out;
}

// ---- construction ----------------------------------------------------------------------

namespace {

struct BuildNode {
    bool terminal = false;
    std::vector<std::pair<uint8_t, uint32_t>> children;  // in letter order
};

class Builder {
public:
    Builder() { nodes_.emplace_back(); }

    void add(const std::string& word) {  // words arrive sorted and unique
        std::size_t common = 0;
        while (common < word.size() && common < previous_.size() && word[common] == previous_[common]) ++common;
        minimize(common);
        uint32_t node = unchecked_.empty() ? 0 : unchecked_.back().child;
        for (std::size_t i = common; i < word.size(); ++i) {
            const uint32_t next = fresh();
            const auto letter = static_cast<uint8_t>(word[i] - 'A');
            nodes_[node].children.emplace_back(letter, next);
            unchecked_.push_back({node, letter, next});
            node = next;
        }
        nodes_[node].terminal = true;
        previous_ = word;
    }

    /// The finished automaton, numbered so that every edge goes to a higher number
    /// (a topological order: no cycle can be loaded back either).
    void finish(std::vector<uint32_t>& masks, std::vector<uint32_t>& firsts, std::vector<uint32_t>& edges) {
        minimize(0);
        std::vector<uint32_t> order;
        std::vector<uint8_t> state(nodes_.size(), 0);  // 0 new, 1 open, 2 done
        std::vector<std::pair<uint32_t, std::size_t>> stack = {{0, 0}};
        state[0] = 1;
        while (!stack.empty()) {
            auto& [node, next] = stack.back();
            if (next < nodes_[node].children.size()) {
                // Children last letter first: in reverse postorder the first letter's
                // subtree then follows its parent, as a search in letter order wants.
                const auto& children = nodes_[node].children;
                const uint32_t child = children[children.size() - 1 - next++].second;
                if (state[child] == 0) {
                    state[child] = 1;
                    stack.emplace_back(child, 0);
                }
            } else {
                state[node] = 2;
                order.push_back(node);
                stack.pop_back();
            }
        }
        std::reverse(order.begin(), order.end());
        std::vector<uint32_t> number(nodes_.size(), Lexicon::kNone);
        for (uint32_t i = 0; i < order.size(); ++i) number[order[i]] = i;
        masks.assign(order.size(), 0);
        firsts.assign(order.size(), 0);
        edges.clear();
        for (uint32_t i = 0; i < order.size(); ++i) {
            const BuildNode& n = nodes_[order[i]];
            uint32_t mask = n.terminal ? (1u << 31) : 0u;
            firsts[i] = static_cast<uint32_t>(edges.size());
            for (const auto& [letter, child] : n.children) {
                mask |= 1u << letter;
                edges.push_back(number[child]);
            }
            masks[i] = mask;
        }
    }

private:
    struct Pending {
        uint32_t parent;
        uint8_t letter;
        uint32_t child;
    };

    uint32_t fresh() {
        if (!free_.empty()) {
            const uint32_t id = free_.back();
            free_.pop_back();
            return id;
        }
        nodes_.emplace_back();
        return static_cast<uint32_t>(nodes_.size() - 1);
    }

    std::string signature(uint32_t id) const {
        const BuildNode& n = nodes_[id];
        std::string key(1, n.terminal ? 'T' : 'N');
        for (const auto& [letter, child] : n.children) {
            key += static_cast<char>(letter);
            key.append(reinterpret_cast<const char*>(&child), sizeof child);
        }
        return key;
    }

    /// Replaces the unchecked nodes below depth `down_to` by equivalent registered ones.
    void minimize(std::size_t down_to) {
        while (unchecked_.size() > down_to) {
            const Pending p = unchecked_.back();
            unchecked_.pop_back();
            std::string key = signature(p.child);
            const auto found = register_.find(key);
            if (found != register_.end()) {
                nodes_[p.parent].children.back().second = found->second;
                nodes_[p.child] = BuildNode{};
                free_.push_back(p.child);
            } else {
                register_.emplace(std::move(key), p.child);
            }
        }
    }

    std::vector<BuildNode> nodes_;
    std::vector<uint32_t> free_;
    std::vector<Pending> unchecked_;
    std::unordered_map<std::string, uint32_t> register_;
    std::string previous_;
};

constexpr char kMagic[8] = {'D', 'I', 'A', 'B', 'L', 'E', 'X', '1'};

void put32(std::string& out, uint32_t v) {
    for (int k = 0; k < 4; ++k) out += static_cast<char>((v >> (8 * k)) & 0xFF);
}

uint32_t get32(const std::string& data, std::size_t at) {
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k)
        v |= static_cast<uint32_t>(static_cast<unsigned char>(data[at + static_cast<std::size_t>(k)])) << (8 * k);
    return v;
}

}  // namespace

Lexicon::Lexicon() = default;

Lexicon Lexicon::from_words(const std::vector<std::string>& entries) {
    std::vector<std::string> words;
    words.reserve(entries.size());
    for (const std::string& entry : entries) {
        if (auto word = normalise_word(entry)) words.push_back(std::move(*word));
    }
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    Builder builder;
    for (const std::string& word : words) builder.add(word);
    std::vector<uint32_t> masks, firsts, targets;
    builder.finish(masks, firsts, targets);
    if (words.size() > kMaxWords) throw OptionError("a lexicon holds at most " + std::to_string(kMaxWords) + " words");
    Lexicon lexicon;
    lexicon.assemble(masks, firsts, targets);
    return lexicon;
}

std::string Lexicon::to_bytes() const {
    // Every node but the root is some arc's target (from_bytes checks it), so the arcs
    // give back each node's letters and first arc.
    std::vector<uint32_t> masks(node_count_, 0), firsts(node_count_, 0);
    masks[0] = root_.mask;
    firsts[0] = root_.first;
    for (std::size_t e = 0; e < arcs_.size(); ++e) {
        masks[targets_[e]] = arcs_[e].mask;
        firsts[targets_[e]] = arcs_[e].first;
    }
    std::string out(kMagic, sizeof kMagic);
    put32(out, static_cast<uint32_t>(words_));
    put32(out, static_cast<uint32_t>(node_count_));
    put32(out, static_cast<uint32_t>(arcs_.size()));
    for (const std::vector<uint32_t>* array : {&std::as_const(masks), &std::as_const(firsts), &targets_}) {
        for (const uint32_t v : *array) put32(out, v);
    }
    return out;
}

Lexicon Lexicon::from_bytes(const std::string& data) {
    const auto fail = [](const std::string& why) { return StateFormatError("not a diabolo lexicon: " + why); };
    if (data.size() < sizeof kMagic + 12 || std::memcmp(data.data(), kMagic, sizeof kMagic) != 0)
        throw fail("bad header");
    const uint32_t words = get32(data, 8);
    const uint32_t nodes = get32(data, 12);
    const uint32_t edges = get32(data, 16);
    if (nodes == 0 || data.size() != 20 + 4ull * (2ull * nodes + edges)) throw fail("wrong size");
    std::vector<uint32_t> masks(nodes), firsts(nodes), targets(edges);
    std::vector<bool> reached(nodes, false);
    reached[0] = true;
    std::size_t at = 20;
    for (auto* array : {&masks, &firsts, &targets}) {
        for (uint32_t& v : *array) {
            v = get32(data, at);
            at += 4;
        }
    }
    // The arcs lie node by node, each node's in letter order right after the previous
    // node's: every arc belongs to exactly one node (to_bytes writes no other layout).
    std::size_t owned = 0;  // an index into targets: 32 bits on wasm32, where edges < 2^32 too
    for (uint32_t node = 0; node < nodes; ++node) {
        const uint32_t mask = masks[node];
        if (mask & ~(kLetterBits | kTerminalBit)) throw fail("bad node");
        if (firsts[node] != owned) throw fail("the arcs of node " + std::to_string(node) + " are out of place");
        const std::size_t end = owned + static_cast<std::size_t>(popcount64(mask & kLetterBits));
        if (end > edges) throw fail("edge out of range");
        for (std::size_t e = owned; e < end; ++e) {
            // Every edge goes to a higher node number: the automaton has no cycle.
            if (targets[e] <= node || targets[e] >= nodes) throw fail("bad edge");
            reached[targets[e]] = true;
        }
        owned = end;
    }
    if (owned != edges) throw fail("arcs that no node owns");
    if (std::find(reached.begin(), reached.end(), false) != reached.end()) throw fail("a node no edge leads to");
    Lexicon lexicon;
    lexicon.assemble(masks, firsts, targets);
    if (lexicon.words_ != words) {
        throw fail("the header counts " + std::to_string(words) + " words, the automaton holds " +
                   std::to_string(lexicon.words_));
    }
    return lexicon;
}

void Lexicon::assemble(const std::vector<uint32_t>& masks, const std::vector<uint32_t>& firsts,
                       const std::vector<uint32_t>& targets) {
    node_count_ = masks.size();
    targets_ = targets;
    letter_index_ = std::make_shared<LetterIndexSlot>();  // of these words, built when asked
    // Nodes are in topological order (edges go forward), so counts fill in backwards.
    // Counts are capped at kMaxWords + 1 (a few nodes can spell more words than any
    // list holds); every node but an empty root must lead to a word.
    std::vector<uint32_t> below(masks.size(), 0);  // words in each node's sub-automaton
    std::vector<uint32_t> steps(targets.size(), 0);
    for (std::size_t n = masks.size(); n-- > 0;) {
        uint64_t total = (masks[n] & kTerminalBit) ? 1u : 0u;
        const int fanout = popcount64(masks[n] & kLetterBits);
        for (int e = 0; e < fanout; ++e) {
            const uint32_t edge = firsts[n] + static_cast<uint32_t>(e);
            steps[edge] = static_cast<uint32_t>(total);
            total = std::min<uint64_t>(total + below[targets[edge]], uint64_t{kMaxWords} + 1);
        }
        if (total == 0 && n > 0)
            throw StateFormatError("not a diabolo lexicon: node " + std::to_string(n) + " ends no word");
        below[n] = static_cast<uint32_t>(total);
    }
    if (below[0] > kMaxWords)
        throw StateFormatError("not a diabolo lexicon: more than " + std::to_string(kMaxWords) + " words");
    words_ = below[0];
    root_ = Arc{masks[0], firsts[0], 0};
    arcs_.resize(targets.size());
    for (std::size_t e = 0; e < targets.size(); ++e) arcs_[e] = Arc{masks[targets[e]], firsts[targets[e]], steps[e]};
    uint64_t hash = 0xCBF29CE484222325ULL;  // FNV-1a over the words' count, nodes and edges
    const auto mix = [&hash](uint64_t value) { hash = (hash ^ value) * 0x100000001B3ULL; };
    mix(words_);
    for (std::size_t n = 0; n < masks.size(); ++n) mix((uint64_t{masks[n]} << 32) | firsts[n]);
    for (const uint32_t target : targets) mix(target);
    fingerprint_ = hash;
}

const Lexicon::Arc* Lexicon::walk(std::string_view upper, uint32_t* rank) const noexcept {
    const Arc* node = &root_;
    for (const char c : upper) {
        if (c < 'A' || c > 'Z' || !(node->mask & (1u << (c - 'A')))) return nullptr;
        node = &next(*node, c - 'A');
        if (rank != nullptr) *rank += node->step;
    }
    return node;
}

std::optional<uint32_t> Lexicon::index_of(std::string_view upper) const noexcept {
    uint32_t index = 0;
    const Arc* node = walk(upper, &index);
    if (node == nullptr || !node->is_word()) return std::nullopt;
    return index;
}

std::string Lexicon::word_at(uint32_t index) const {
    std::string word;
    const Arc* node = &root_;
    while (!(node->is_word() && index == 0)) {
        // The last arc whose step does not pass the index leads towards the word.
        const int fanout = popcount64(node->letters());
        int chosen = 0;
        while (chosen + 1 < fanout && arcs_[node->first + static_cast<uint32_t>(chosen + 1)].step <= index) ++chosen;
        uint32_t rest = node->letters();
        for (int i = 0; i < chosen; ++i) rest &= rest - 1;
        word += static_cast<char>('A' + lowest_bit64(rest));
        node = &arcs_[node->first + static_cast<uint32_t>(chosen)];
        index -= node->step;
    }
    return word;
}

namespace {

/// Appends to `index` every word of the automaton in sorted order: a word that ends at a
/// node comes before the words that go on, and arcs lie in letter order (the order of the
/// ranks, Arc::step). A walk with its own stack: a list may hold a word of millions of
/// letters, which a recursion as deep would overflow the thread's stack with.
void index_words(const Lexicon& lexicon, Lexicon::LetterIndex& index) {
    struct Frame {
        uint32_t arc;   // the arc of the node's next letter to visit
        uint32_t rest;  // the node's letters still to visit
    };
    std::vector<Frame> path;
    std::string word;  // the letters of the arcs taken: one per frame below the root's
    const auto enter = [&](const Lexicon::Arc& node) {
        if (node.is_word()) {
            index.starts.push_back(static_cast<uint32_t>(index.letters.size()));
            index.letters.insert(index.letters.end(), word.begin(), word.end());
            ++index.words;
        }
        path.push_back({node.first, node.letters()});
    };
    enter(lexicon.root());
    while (!path.empty()) {
        Frame& top = path.back();
        if (top.rest == 0) {
            path.pop_back();
            if (!word.empty()) word.pop_back();
            continue;
        }
        const uint32_t arc = top.arc++;
        word.push_back(static_cast<char>('A' + lowest_bit64(top.rest)));
        top.rest &= top.rest - 1;
        enter(lexicon.arc(arc));  // may move the frames: `top` is not used after it
    }
}

/// The two letters at letters[k], letters[k + 1] as one number (first * 26 + second).
std::size_t sequence_at(const std::vector<char>& letters, std::size_t k) noexcept {
    return static_cast<std::size_t>(letters[k] - 'A') * 26 + static_cast<std::size_t>(letters[k + 1] - 'A');
}

/// Gives slots to the kSlots two-letter sequences found in most words (ties: the lower
/// sequence first, so every platform picks the same) and marks each word's.
void index_sequences(Lexicon::LetterIndex& index) {
    using Index = Lexicon::LetterIndex;
    constexpr std::size_t block = Index::kBlock;
    std::vector<uint32_t> words_with(26 * 26, 0), last(26 * 26, Lexicon::kNone);
    for (std::size_t i = 0; i < index.words; ++i) {
        for (std::size_t k = index.starts[i]; k + 1 < index.starts[i + 1]; ++k) {
            const std::size_t sequence = sequence_at(index.letters, k);
            if (last[sequence] != i) ++words_with[sequence];
            last[sequence] = static_cast<uint32_t>(i);
        }
    }
    std::vector<uint32_t> order(26 * 26);
    for (uint32_t q = 0; q < order.size(); ++q) order[q] = q;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return words_with[a] > words_with[b]; });
    index.slot.fill(Index::kNoSlot);
    for (std::size_t s = 0; s < Index::kSlots && words_with[order[s]] > 0; ++s)
        index.slot[order[s]] = static_cast<uint8_t>(s);
    index.sequences.assign((index.words + block - 1) / block * (Index::kSlots / 8) * block, 0);
    for (std::size_t i = 0; i < index.words; ++i) {
        uint8_t* bits = index.sequences.data() + (i / block) * (Index::kSlots / 8) * block + i % block;
        for (std::size_t k = index.starts[i]; k + 1 < index.starts[i + 1]; ++k) {
            const uint8_t s = index.slot[sequence_at(index.letters, k)];
            if (s != Index::kNoSlot) bits[s / 8 * block] = static_cast<uint8_t>(bits[s / 8 * block] | 1u << (s % 8));
        }
    }
}

}  // namespace

const Lexicon::LetterIndex& Lexicon::letter_index() const {
    LetterIndexSlot& slot = *letter_index_;
    std::call_once(slot.built, [&] {
        LetterIndex& index = slot.index;
        constexpr std::size_t block = LetterIndex::kBlock;
        index.starts.reserve(words_ + 1);
        index_words(*this, index);
        index.starts.push_back(static_cast<uint32_t>(index.letters.size()));
        const std::size_t blocks = (index.words + block - 1) / block;
        index_sequences(index);
        index.counts.assign(blocks * 26 * block, 0);
        index.lengths.assign(index.words, 0);
        for (std::size_t i = 0; i < index.words; ++i) {
            const std::size_t length = index.starts[i + 1] - index.starts[i];
            index.lengths[i] = static_cast<uint8_t>(std::min<std::size_t>(length, 255));
            uint8_t* counts = index.counts.data() + (i / block) * 26 * block + i % block;
            for (std::size_t k = index.starts[i]; k < index.starts[i + 1]; ++k) {
                uint8_t& count = counts[static_cast<std::size_t>(index.letters[k] - 'A') * block];
                count = static_cast<uint8_t>(count + (count < 255 ? 1 : 0));
            }
        }
    });
    return slot.index;
}

bool Lexicon::contains(std::string_view upper) const noexcept {
    const Arc* node = walk(upper, nullptr);
    return node != nullptr && node->is_word();
}

}  // namespace diabolo
