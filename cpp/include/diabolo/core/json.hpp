// JSON for every game: views, states and options are Boost.JSON values built in the core,
// so every language gets the same text. Reading goes through a Reader that names the
// path of what is wrong ("state JSON: hands[2][0]: expected a string").
//
// Boost.JSON (header-only, from the boost-headers package at build time) rather than
// nlohmann-json: on a 1.4 KB Schacht state it parses in 2.8 us and writes in 1.5 us,
// nlohmann-json 3.12 in 16 to 18 us (7 us with its SAX interface) and 4.4 us, and the
// state's JSON round trip has to stay within a few microseconds (docs: performance).
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/storage_ptr.hpp>
#include <boost/json/string.hpp>
#include <boost/json/value.hpp>

#include "diabolo/core/errors.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <forward_list>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace diabolo::json {

using Value = boost::json::value;
using Object = boost::json::object;
using Array = boost::json::array;

/// The longest JSON text read, and the deepest nesting (states nest 4 levels).
constexpr std::size_t kMaxTextBytes = std::size_t{64} << 20;
constexpr std::size_t kMaxDepth = 64;

/// Parses `text` into a Boost.JSON value (move data, options given as text); states are
/// read through a Document instead. StateFormatError "<what> is not valid JSON: ..." (or
/// too long, or nested too deeply) otherwise. NaN and Infinity are read as numbers, as
/// Python's json module does.
Value parse(std::string_view text, const char* what = "state JSON");

/// Whether `value` is an integer that fits in 64 signed bits, and which.
bool as_int64(const Value& value, long long& out) noexcept;

/// Compact JSON text (no spaces), keys in insertion order.
std::string serialize(const Value& value);

/// A JSON text parsed for reading, as tokens in document order: Boost.JSON's
/// basic_parser (its SAX interface) writes them, so reading a state builds no tree of
/// values and allocates once. Each container knows how many items it holds and where it
/// ends; strings point into the text unless they hold escapes. A key given twice in one
/// object is an error (Python's json module would keep the last). The text must outlive
/// the Document.
class Document {
public:
    enum class Kind : uint8_t {
        Null,
        Bool,
        Int64,
        Uint64,
        Double,
        String,
        Key,
        List,
        Map
    };  // List, Map: a JSON array, object
    struct Token {
        const char* data;  // String, Key: the characters
        union {
            long long int64;
            unsigned long long uint64;
            double real;
            bool flag;
            uint64_t prefix;        // Key: its first 8 bytes, zero-padded, the first lowest
            mutable uint32_t hint;  // Map: the key where the next search starts
        };
        uint32_t next;  // the index of the token after this one and everything inside it
        uint32_t size;  // String, Key: bytes; List: items; Map: keys
        Kind kind;
        bool flat;  // List: every item is a single token, so item i is at index + 1 + i
    };

    /// Parses `text`; StateFormatError "<what> is not valid JSON: ..." (or too long, or
    /// nested too deeply) otherwise. NaN and Infinity are read as numbers, as Python's
    /// json module does.
    explicit Document(std::string_view text, const char* what = "state JSON");
    Document(const Document&) = delete;
    Document& operator=(const Document&) = delete;

    const Token& operator[](uint32_t index) const noexcept { return tokens_[index]; }
    const char* what() const noexcept { return what_; }
    /// The index of item `item` of the array at `array`, walking from the last item
    /// asked for, so reading an array's items in order costs one step per item.
    uint32_t item(uint32_t array, uint32_t item) const noexcept {
        return tokens_[array].flat ? array + 1 + item : walk(array, item);
    }
    /// The value at `index` as a Boost.JSON value (for options, which are read as values).
    Value value(uint32_t index) const;
    /// Where the token `target` is: "hands[2][0]", "rows.R.left", or "" at the root.
    std::string path(uint32_t target) const;

    struct Builder;

private:
    uint32_t walk(uint32_t array, uint32_t item) const noexcept;
    std::vector<Token> tokens_;
    std::forward_list<std::string> unescaped_;  // strings and keys that held escapes (empty: no allocation)
    const char* what_;
    mutable uint32_t cursor_array_ = UINT32_MAX, cursor_item_ = 0, cursor_index_ = 0;
};

/// Reads a parsed Document and reports the path of what is wrong as StateFormatError:
/// "<what>: <path>: <message>". A Reader is a document and an index; the path is found
/// only when something is wrong.
class Reader {
public:
    explicit Reader(const Document& document) noexcept : document_(&document), index_(0) {}

    /// A required key of an object ("missing key 'k' in path" otherwise).
    Reader at(std::string_view key) const;
    /// An item of a list.
    Reader at(std::size_t index) const {
        if (index >= size()) fail("expected at least " + std::to_string(index + 1) + " items");
        return Reader(*document_, document_->item(index_, static_cast<uint32_t>(index)));
    }
    bool has(std::string_view key) const;
    bool is_null() const noexcept { return token().kind == Document::Kind::Null; }
    /// The length of a list ("expected a list" otherwise).
    std::size_t size() const {
        if (token().kind != Document::Kind::List) fail("expected a list");
        return token().size;
    }
    /// An integer in [low, high] (not a bool, not a float).
    long long integer(long long low, long long high) const;
    bool boolean() const;
    std::string_view text() const {
        if (token().kind != Document::Kind::String) fail("expected a string");
        return std::string_view(token().data, token().size);
    }
    /// A seed: an integer in [0, 2**64).
    uint64_t seed() const;
    /// The index of the text among `names`: reads an enum whose values are 0, 1, 2, ...
    int choice(std::initializer_list<const char*> names) const;
    /// This reader, if it reads an object ("expected an object" otherwise).
    const Reader& object() const;
    /// The value read, as a Boost.JSON value.
    Value value() const { return document_->value(index_); }
    /// The value read as compact JSON text, as Writer writes it: comparing it with the
    /// text of a known value is cheaper than reading it (a state's options).
    std::string compact() const;
    [[noreturn]] void fail(const std::string& message) const;
    /// Where this value is in the document: "hands[2][0]", "rows.R.left", or "" at the root.
    std::string path() const { return document_->path(index_); }

private:
    Reader(const Document& document, uint32_t index) noexcept : document_(&document), index_(index) {}
    const Document::Token& token() const noexcept { return (*document_)[index_]; }
    /// The index of the value of `key`, or 0 if the object has no such key.
    uint32_t find(std::string_view key) const;
    const Document* document_;
    uint32_t index_;
};

/// Writes compact JSON text straight into a string, for the state JSON, which is written
/// far more often than read (saves, pickles, equality). Keys and strings are escaped as
/// RFC 8259 requires; the tests read every text written back with the parser. The text
/// grows in a buffer written byte by byte (most items are a few bytes: appending each
/// to a std::string cost more than writing it).
class Writer {
public:
    /// A writer whose buffer holds `expected` bytes before it grows.
    explicit Writer(std::size_t expected = 1024) { out_.resize(expected); }
    Writer& begin_object() { return open('{'); }
    Writer& end_object() { return close('}'); }
    Writer& begin_array() { return open('['); }
    Writer& end_array() { return close(']'); }
    /// The key of the next value in an object.
    Writer& key(std::string_view name) {
        value(name);
        put(':');
        first_ = true;  // the value follows without a comma
        return *this;
    }
    /// A key spelled in the engine's code, which needs no escapes: copied whole, not
    /// looked at byte by byte (a state's text is a third keys). Written out rather than
    /// through plain_in_place and put(':'), which made to_json an eighth slower.
    template <std::size_t N>
    Writer& key(const char (&name)[N]) {
        separate();
        room(N + 2);
        out_[size_++] = '"';
        std::memcpy(&out_[size_], name, N - 1);
        size_ += N - 1;
        out_[size_++] = '"';
        out_[size_++] = ':';
        first_ = true;
        return *this;
    }
    Writer& value(std::string_view text) {
        separate();
        room(text.size() + 2);
        out_[size_++] = '"';
        const std::size_t start = size_;
        for (const char c : text) {
            const auto byte = static_cast<unsigned char>(c);
            if (byte < 0x20 || c == '"' || c == '\\') {
                size_ = start;  // written again, with escapes
                return escaped(text);
            }
            out_[size_++] = c;
        }
        out_[size_++] = '"';
        return *this;
    }
    Writer& value(const char* text) { return value(std::string_view(text)); }
    /// A string that needs no escapes, such as a card or a move in notation, that
    /// `write(out)` writes straight into the text (at most `most` bytes) and returns its
    /// length: no copy, and no look at each byte.
    template <class Write>
    Writer& plain_in_place(std::size_t most, Write write) {
        separate();
        room(most + 2);
        out_[size_++] = '"';
        size_ += write(&out_[size_]);
        out_[size_++] = '"';
        return *this;
    }
    Writer& value(long long number);
    Writer& value(int number) { return value(static_cast<long long>(number)); }
    Writer& value(unsigned long long number);
    Writer& value(bool flag) { return raw(flag ? std::string_view("true") : std::string_view("false")); }
    Writer& null() { return raw("null"); }
    /// A value already written as JSON text (a number as serialize writes it).
    Writer& raw(std::string_view text) {
        separate();
        room(text.size());
        for (const char c : text) out_[size_++] = c;
        return *this;
    }
    /// The text written: the writer is done with it.
    std::string& text() noexcept {
        out_.resize(size_);
        return out_;
    }

private:
    void room(std::size_t bytes) {
        if (size_ + bytes > out_.size()) out_.resize(2 * (size_ + bytes));
    }
    void put(char c) {
        room(1);
        out_[size_++] = c;
    }
    void separate() {
        if (!first_) put(',');
        first_ = false;
    }
    Writer& open(char bracket) {
        separate();
        put(bracket);
        first_ = true;
        return *this;
    }
    Writer& close(char bracket) {
        put(bracket);
        first_ = false;
        return *this;
    }
    /// The rest of value(text) for a text that needs escapes, after its opening quote.
    Writer& escaped(std::string_view text);
    std::string out_;  // the text, then spare bytes: out_.size() is the buffer's size
    std::size_t size_ = 0;
    bool first_ = true;  // no comma before the next item
};

/// A JSON value as a flat list of tokens in document order, written with Writer's calls.
/// A view (observation, public_observation) is written once into a Tape, then made into
/// what its reader needs: Python objects in the bindings, a Boost.JSON value, text. No
/// tree of values is built in between: building Boost.JSON's tree and walking it were
/// a third of an observation's cost from Python. An array or object knows its size when
/// it is closed (the bindings size their lists from it); a key is a String token before
/// its value. Integers only: views hold no floats.
class Tape {
public:
    enum class Kind : uint8_t { Null, Bool, Int, String, Array, Object };
    struct Token {
        Kind kind;
        bool flag;      // Bool
        uint32_t size;  // String: bytes; Array: items; Object: keys
        union {
            long long integer;  // Int
            std::size_t start;  // String: its first byte in the tape's characters
        };
    };

    /// Readable bytes after every string's last (a reader may load whole words).
    static constexpr std::size_t kPadding = 32;

    /// The room of a tape by default: a seat's view of any game but Knizia's with its claims
    /// (a Schacht view of 4 seats is 256 tokens on average and up to 330: growing copied the tokens).
    static constexpr std::size_t kDefaultTokens = 512, kDefaultBytes = 1024;
    /// A tape with room for `tokens` tokens and `bytes` bytes of strings before it grows.
    explicit Tape(std::size_t tokens = kDefaultTokens, std::size_t bytes = kDefaultBytes) {
        tokens_.reserve(tokens);
        chars_.resize(bytes + kPadding);
    }
    /// Empty again, keeping its room: a tape written over and over allocates nothing.
    void clear() noexcept {
        tokens_.clear();
        used_ = 0;
        open_.clear();
    }
    /// The tokens and bytes of strings it holds room for.
    std::size_t token_room() const noexcept { return tokens_.capacity(); }
    std::size_t byte_room() const noexcept { return chars_.size() - kPadding; }
    Tape& begin_object() { return open(Kind::Object); }
    Tape& end_object() { return close(); }
    Tape& begin_array() { return open(Kind::Array); }
    Tape& end_array() { return close(); }
    /// The key of the next value in an object.
    Tape& key(std::string_view name) {
        push_text(name);
        return *this;
    }
    Tape& value(std::string_view text) {
        count();
        push_text(text);
        return *this;
    }
    Tape& value(const char* text) { return value(std::string_view(text)); }
    /// A string that `write(out)` writes in place (at most `most` bytes) and whose length it
    /// returns, as Writer::plain_in_place: helpers templated on the writer serve both.
    template <class Write>
    Tape& plain_in_place(std::size_t most, Write write) {
        count();
        room(most);
        const std::size_t size = write(&chars_[used_]);
        push(Kind::String, static_cast<uint32_t>(size)).start = used_;
        used_ += size;
        return *this;
    }
    template <class Integer, std::enable_if_t<std::is_integral_v<Integer> && !std::is_same_v<Integer, bool>, int> = 0>
    Tape& value(Integer number) {
        count();
        push(Kind::Int, 0).integer = static_cast<long long>(number);
        return *this;
    }
    Tape& value(bool flag) {
        count();
        push(Kind::Bool, 0).flag = flag;
        return *this;
    }
    Tape& null() {
        count();
        push(Kind::Null, 0);
        return *this;
    }

    /// The tokens written, the value first (the tape holds one value once it is closed).
    const std::vector<Token>& tokens() const noexcept { return tokens_; }
    /// The characters of a String token.
    std::string_view text_of(const Token& token) const noexcept { return {chars_.data() + token.start, token.size}; }
    /// The value as a Boost.JSON value in `storage`.
    Value value(const boost::json::storage_ptr& storage = {}) const;
    /// The value as compact JSON text, as Writer writes it: serialize(value()) writes the
    /// same but for control characters, which it escapes by name ("\n" for "\u000a").
    std::string text() const;

private:
    Token& push(Kind kind, uint32_t size) {
        Token& token = tokens_.emplace_back();
        token.kind = kind;
        token.size = size;
        return token;
    }
    void room(std::size_t bytes) {
        if (used_ + bytes + kPadding > chars_.size()) chars_.resize(2 * (used_ + bytes) + kPadding);
    }
    void push_text(std::string_view text) {
        room(text.size());
        std::memcpy(&chars_[used_], text.data(), text.size());
        push(Kind::String, static_cast<uint32_t>(text.size())).start = used_;
        used_ += text.size();
    }
    /// One more item in the array or object open (an object counts its values, not its keys).
    void count() noexcept {
        if (!open_.empty()) ++tokens_[open_.back()].size;
    }
    Tape& open(Kind kind) {
        count();
        open_.push_back(static_cast<uint32_t>(tokens_.size()));
        push(kind, 0);
        return *this;
    }
    Tape& close() {
        open_.pop_back();
        return *this;
    }
    std::vector<Token> tokens_;
    std::string chars_;           // the strings' bytes, then spare bytes: chars_.size() is the buffer's size
    std::size_t used_ = 0;        // bytes of chars_ in use
    std::vector<uint32_t> open_;  // the arrays and objects not yet closed, by token index
};

/// The most moves a state's history holds: the history is a record of the moves, read
/// for its form but not replayed, so it is bounded instead.
constexpr std::size_t kMaxHistory = 1'000'000;

/// A state's "history": entries "seat:move" ("1:G5<"), at most kMaxHistory, each move
/// read by `parse` (a NotationError names the entry); `example` is an entry of the game,
/// shown when one is malformed. Seats are 0..players-1 (at most 9, one digit).
template <class Step, class Parse>
std::vector<Step> read_history(const Reader& history, int players, const char* example, Parse parse) {
    const std::size_t moves = history.size();
    if (moves > kMaxHistory)
        history.fail("holds " + std::to_string(moves) + " moves; at most " + std::to_string(kMaxHistory));
    std::vector<Step> steps;
    steps.reserve(moves);
    for (std::size_t i = 0; i < moves; ++i) {
        const std::string_view entry = history.at(i).text();
        if (entry.size() < 2 || entry[1] != ':' || entry[0] < '0' || entry[0] >= '0' + players)
            history.at(i).fail(std::string("expected 'seat:move' like '") + example + "'");
        try {
            Step& step = steps.emplace_back();  // written in place: a Step built aside and copied stalled on it
            step.player = entry[0] - '0';
            step.move = parse(entry.substr(2));
        } catch (const NotationError& e) {
            history.at(i).fail(e.what());
        }
    }
    return steps;
}

/// The game of a state's "options": `from_json` of them, an OptionError reported at their
/// path. With `expected`, a state of other options is refused ("its options differ from
/// this game's"), and options written exactly as `write(writer, *expected)` writes them
/// (as to_json does) are taken without being read.
template <class Game, class FromJson, class Write>
Game read_options(const Reader& options, const Game* expected, FromJson from_json, Write write) {
    options.object();
    if (expected != nullptr) {
        Writer written(128);
        write(written, *expected);
        if (options.compact() == written.text()) return *expected;
    }
    Game game;
    try {
        game = from_json(options.value());
    } catch (const OptionError& e) {
        options.fail(e.what());
    }
    if (expected != nullptr && !(game == *expected)) options.fail("its options differ from this game's");
    return game;
}

/// A view of `text` for building values (a Boost.JSON string_view).
inline boost::json::string_view view(const std::string& text) {
    return boost::json::string_view(text.data(), text.size());
}

/// A JSON string of `text`.
inline Value text(std::string_view text) { return Value(boost::json::string(text)); }

}  // namespace diabolo::json

namespace diabolo::json {

/// Reads a game's options (an object of option name to value) with OptionErrors that
/// name the option: unknown names ("unknown option 'x' for schacht; the options are
/// ..."), wrong types ("players must be an int, got \"3\"").
class OptionReader {
public:
    /// OptionError unless `options` is an object whose keys are all among `names`.
    OptionReader(const Value& options, const char* game, std::initializer_list<const char*> names);
    bool has(std::string_view name) const;
    /// An integer (not a bool or a float); range checks are the caller's, on the whole
    /// 64-bit value, so 2**32 + 3 is never read as 3.
    long long integer(std::string_view name) const;
    /// integer(name) within [low, high]: OptionError "<name> must be low..high (<clause>),
    /// got <value>" otherwise, with the whole value.
    int integer_in(std::string_view name, long long low, long long high, const char* clause) const;
    bool boolean(std::string_view name) const;
    /// A number (an int or a float, not a bool) within [low, high]; OptionError otherwise.
    double number_in(std::string_view name, double low, double high) const;
    std::string_view text(std::string_view name) const;
    const Value& value(std::string_view name) const;

private:
    const Object* options_;
};

/// reader.integer(name) as an int, whose range the caller checks (with the same function
/// that checks the option when it comes from Python): OptionError for a value that does
/// not fit 32 bits.
int int_option(const OptionReader& reader, std::string_view name);

/// "<value as JSON>" for error messages, at most 80 bytes, cut between UTF-8 characters.
std::string shown(const Value& value);

/// The text of a JSON string (the caller checked is_string()).
inline std::string_view text_of(const Value& value) {
    return std::string_view(value.get_string().data(), value.get_string().size());
}

/// A given deal (the argument of Rules::new_dealt_state): a JSON object whose keys are
/// among `keys`; StateFormatError naming what is wrong, with the deal format's `clause`.
const Object& deal_object(const Value& deal, std::initializer_list<const char*> keys, const char* clause);

}  // namespace diabolo::json
