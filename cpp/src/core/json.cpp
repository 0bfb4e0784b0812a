// The one translation unit that compiles Boost.JSON (header-only use); the Document and its Reader.
#include "diabolo/core/json.hpp"

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/parser.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/src.hpp>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstdint>
#include <cstring>

#include "diabolo/core/errors.hpp"

namespace diabolo::json {

bool as_int64(const Value& value, long long& out) noexcept {
    if (value.is_int64()) {
        out = value.get_int64();
        return true;
    }
    // Unsigned C++ integers are stored as uint64; the text of a small number reads as int64.
    if (value.is_uint64() && value.get_uint64() <= static_cast<uint64_t>(INT64_MAX)) {
        out = static_cast<long long>(value.get_uint64());
        return true;
    }
    return false;
}

namespace {

[[noreturn]] void too_long(const char* what, std::size_t bytes) {
    throw StateFormatError(std::string(what) + " is " + std::to_string(bytes) + " bytes long; at most " +
                           std::to_string(kMaxTextBytes));
}

[[noreturn]] void not_json(const char* what, const boost::system::error_code& error) {
    const std::string reason = error == boost::json::error::too_deep
                                   ? "nested more than " + std::to_string(kMaxDepth) + " levels deep"
                                   : error.message();
    throw StateFormatError(std::string(what) + " is not valid JSON: " + reason);
}

}  // namespace

Value parse(std::string_view text, const char* what) {
    if (text.size() > kMaxTextBytes) too_long(what, text.size());
    boost::json::parse_options options;
    options.max_depth = kMaxDepth;
    options.allow_infinity_and_nan = true;
    unsigned char temporary[4096];  // the parser's own stack: no allocation for ordinary documents
    boost::json::parser parser(boost::json::storage_ptr(), options, temporary, sizeof temporary);
    boost::system::error_code error;
    parser.write(text.data(), text.size(), error);
    if (error) not_json(what, error);
    return parser.release();
}

std::string serialize(const Value& value) { return boost::json::serialize(value); }

namespace {

/// The value at tokens[i] and everything inside it, as a Boost.JSON value; i moves past them.
Value tape_value(const Tape& tape, std::size_t& i, const boost::json::storage_ptr& storage) {
    const Tape::Token& token = tape.tokens()[i++];
    switch (token.kind) {
        case Tape::Kind::Null: return Value(nullptr, storage);
        case Tape::Kind::Bool: return Value(token.flag, storage);
        case Tape::Kind::Int: return Value(token.integer, storage);
        case Tape::Kind::String: {
            const std::string_view text = tape.text_of(token);
            return Value(boost::json::string_view(text.data(), text.size()), storage);
        }
        case Tape::Kind::Array: {
            Array array(storage);
            array.reserve(token.size);
            for (uint32_t k = 0; k < token.size; ++k) array.push_back(tape_value(tape, i, storage));
            return array;
        }
        case Tape::Kind::Object: {
            Object object(storage);
            object.reserve(token.size);
            for (uint32_t k = 0; k < token.size; ++k) {
                const std::string_view key = tape.text_of(tape.tokens()[i++]);
                object.emplace(boost::json::string_view(key.data(), key.size()), tape_value(tape, i, storage));
            }
            return object;
        }
    }
    return Value(nullptr, storage);
}

/// Writes the value at tokens[i] and everything inside it; i moves past them.
void write_tape(const Tape& tape, std::size_t& i, Writer& w) {
    const Tape::Token& token = tape.tokens()[i++];
    switch (token.kind) {
        case Tape::Kind::Null: w.null(); return;
        case Tape::Kind::Bool: w.value(token.flag); return;
        case Tape::Kind::Int: w.value(token.integer); return;
        case Tape::Kind::String: w.value(tape.text_of(token)); return;
        case Tape::Kind::Array:
            w.begin_array();
            for (uint32_t k = 0; k < token.size; ++k) write_tape(tape, i, w);
            w.end_array();
            return;
        case Tape::Kind::Object:
            w.begin_object();
            for (uint32_t k = 0; k < token.size; ++k) {
                w.key(tape.text_of(tape.tokens()[i++]));
                write_tape(tape, i, w);
            }
            w.end_object();
            return;
    }
}

}  // namespace

Value Tape::value(const boost::json::storage_ptr& storage) const {
    std::size_t i = 0;
    return tokens_.empty() ? Value(nullptr, storage) : tape_value(*this, i, storage);
}

std::string Tape::text() const {
    Writer w(2 * used_ + 8 * tokens_.size());
    std::size_t i = 0;
    if (tokens_.empty()) w.null();
    else write_tape(*this, i, w);
    return std::move(w.text());
}

namespace {

using Kind = Document::Kind;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
constexpr bool kLittleEndian = false;
#else
constexpr bool kLittleEndian = true;  // and so is every MSVC target
#endif

/// A key's first 8 bytes as a number, zero-padded, the first byte lowest: most keys differ there. Built in a
/// register: a short memcpy into a number stalls the load that follows it.
uint64_t key_prefix(std::string_view key) noexcept {
    uint64_t prefix = 0;
    const std::size_t n = std::min<std::size_t>(key.size(), sizeof prefix);
    for (std::size_t i = 0; i < n; ++i) prefix |= uint64_t{static_cast<unsigned char>(key[i])} << (8 * i);
    return prefix;
}

/// Whether every byte of `text` is below 0x80, 8 bytes at a time.
bool is_ascii(std::string_view text) noexcept {
    uint64_t high = 0;
    std::size_t i = 0;
    for (; i + 8 <= text.size(); i += 8) {
        uint64_t word = 0;
        std::memcpy(&word, text.data() + i, sizeof word);
        high |= word;
    }
    for (; i < text.size(); ++i) high |= static_cast<unsigned char>(text[i]);
    return (high & 0x8080808080808080u) == 0;
}

/// Whether the key token `key` is `name`, whose key_prefix is `prefix`.
bool same_key(const Document::Token& key, std::string_view name, uint64_t prefix) noexcept {
    return key.size == name.size() && key.prefix == prefix &&
           (name.size() <= sizeof key.prefix ||
            std::memcmp(key.data + sizeof key.prefix, name.data() + sizeof key.prefix,
                        name.size() - sizeof key.prefix) == 0);
}

}  // namespace

/// The handler of Boost.JSON's basic_parser that writes a Document's tokens.
struct Document::Builder {
    static constexpr std::size_t max_array_size = UINT32_MAX;
    static constexpr std::size_t max_object_size = UINT32_MAX;
    static constexpr std::size_t max_string_size = UINT32_MAX;
    static constexpr std::size_t max_key_size = UINT32_MAX;

    Builder(Document& into, std::string_view source) : document(into), text(source) {}

    Document& document;
    std::string_view text;
    std::array<uint32_t, kMaxDepth + 1> open{};  // the containers not yet closed
    std::array<uint64_t, kMaxDepth + 1> seen{};  // per open object, a bit per hash of its keys
    std::size_t depth = 0;
    std::string duplicate;  // a key given twice in one object
    std::string pending;    // the parts of a string with escapes
    bool partial = false;

    Token& push(Kind kind) {
        std::vector<Token>& tokens = document.tokens_;
        const auto index = static_cast<uint32_t>(tokens.size());
        Token& token = tokens.emplace_back();
        token.kind = kind;
        token.next = index + 1;
        return token;
    }
    bool begin(Kind kind) {
        seen[depth] = 0;
        open[depth++] = static_cast<uint32_t>(document.tokens_.size());
        push(kind);
        return true;
    }
    bool end(std::size_t items) {
        const uint32_t start = open[--depth];
        Token& token = document.tokens_[start];
        token.next = static_cast<uint32_t>(document.tokens_.size());
        token.size = static_cast<uint32_t>(items);
        token.flat = token.kind == Kind::List && token.next == start + 1 + items;
        if (token.kind == Kind::Map) token.hint = start + 1;
        return true;
    }
    bool text_part(boost::json::string_view part) {
        pending.append(part.data(), part.size());
        partial = true;
        return true;
    }
    Token& text_token(Kind kind, boost::json::string_view last) {
        std::string_view chars(last.data(), last.size());
        const bool in_text = chars.data() >= text.data() && chars.data() + chars.size() <= text.data() + text.size();
        if (partial || !in_text) {  // unescaped by the parser into its own buffer: kept here
            pending.append(chars);
            chars = document.unescaped_.emplace_front(std::move(pending));
            pending.clear();
            partial = false;
        }
        Token& token = push(kind);
        token.data = chars.data();
        token.size = static_cast<uint32_t>(chars.size());
        return token;
    }

    bool on_document_begin(boost::system::error_code&) { return true; }
    bool on_document_end(boost::system::error_code&) { return true; }
    bool on_array_begin(boost::system::error_code&) { return begin(Kind::List); }
    bool on_array_end(std::size_t n, boost::system::error_code&) { return end(n); }
    bool on_object_begin(boost::system::error_code&) { return begin(Kind::Map); }
    bool on_object_end(std::size_t n, boost::system::error_code&) { return end(n); }
    bool on_string_part(boost::json::string_view s, std::size_t, boost::system::error_code&) { return text_part(s); }
    bool on_string(boost::json::string_view s, std::size_t, boost::system::error_code&) {
        text_token(Kind::String, s);
        return true;
    }
    bool on_key_part(boost::json::string_view s, std::size_t, boost::system::error_code&) { return text_part(s); }
    bool on_key(boost::json::string_view s, std::size_t, boost::system::error_code& error) {
        Token& key = text_token(Kind::Key, s);
        const std::string_view name(key.data, key.size);
        key.prefix = prefix_of(name);
        // Keys are unique, so that a key is found at its first match. Only a key whose
        // hash bit is already set is compared with the object's keys before it.
        const uint64_t bit = uint64_t{1} << ((key.prefix * 0x9E3779B97F4A7C15u + key.size) >> 58);
        const uint32_t object = open[depth - 1];
        if (seen[depth - 1] & bit) {
            const auto last = static_cast<uint32_t>(document.tokens_.size() - 1);
            for (uint32_t other = object + 1; other < last; other = document.tokens_[other + 1].next) {
                if (same_key(document.tokens_[other], name, key.prefix)) {
                    duplicate = std::string(name);
                    error = boost::json::error::syntax;
                    return false;
                }
            }
        }
        seen[depth - 1] |= bit;
        ++document.tokens_[object].size;  // the keys so far
        return true;
    }
    /// key_prefix(name), read as one word where 8 bytes of the text are there to read.
    uint64_t prefix_of(std::string_view name) const noexcept {
        const auto start = reinterpret_cast<std::uintptr_t>(name.data());
        const auto begin = reinterpret_cast<std::uintptr_t>(text.data());
        if (!kLittleEndian || start < begin || start + 8 > begin + text.size()) return key_prefix(name);
        uint64_t word = 0;
        std::memcpy(&word, name.data(), sizeof word);
        return name.size() >= 8 ? word : word & ((uint64_t{1} << (8 * name.size())) - 1);
    }
    bool on_number_part(boost::json::string_view, boost::system::error_code&) { return true; }
    bool on_int64(int64_t i, boost::json::string_view, boost::system::error_code&) {
        push(Kind::Int64).int64 = i;
        return true;
    }
    bool on_uint64(uint64_t u, boost::json::string_view, boost::system::error_code&) {
        push(Kind::Uint64).uint64 = u;
        return true;
    }
    bool on_double(double d, boost::json::string_view, boost::system::error_code&) {
        push(Kind::Double).real = d;
        return true;
    }
    bool on_bool(bool b, boost::system::error_code&) {
        push(Kind::Bool).flag = b;
        return true;
    }
    bool on_null(boost::system::error_code&) {
        push(Kind::Null);
        return true;
    }
    bool on_comment_part(boost::json::string_view, boost::system::error_code&) { return true; }
    bool on_comment(boost::json::string_view, boost::system::error_code&) { return true; }
};

Document::Document(std::string_view text, const char* what) : what_(what) {
    if (text.size() > kMaxTextBytes) too_long(what, text.size());
    tokens_.reserve(text.size() / 4 + 8);
    boost::json::parse_options options;
    options.max_depth = kMaxDepth;
    options.allow_infinity_and_nan = true;
    options.allow_invalid_utf8 = is_ascii(text);  // ASCII is valid UTF-8: the parser need not check it
    boost::json::basic_parser<Builder> parser(options, Builder(*this, text));
    boost::system::error_code error;
    const std::size_t read = parser.write_some(false, text.data(), text.size(), error);
    if (!error && read < text.size()) error = boost::json::error::extra_data;
    if (!parser.handler().duplicate.empty())
        throw StateFormatError(std::string(what) + ": the key " + quoted(parser.handler().duplicate) +
                               " is given twice in one object");
    if (error) not_json(what, error);
}

uint32_t Document::walk(uint32_t array, uint32_t item) const noexcept {
    uint32_t index = array + 1, at = 0;
    if (cursor_array_ == array && cursor_item_ <= item) index = cursor_index_, at = cursor_item_;
    for (; at < item; ++at) index = tokens_[index].next;
    cursor_array_ = array, cursor_item_ = item, cursor_index_ = index;
    return index;
}

Value Document::value(uint32_t index) const {
    const Token& token = tokens_[index];
    switch (token.kind) {
        case Kind::Null: return nullptr;
        case Kind::Bool: return token.flag;
        case Kind::Int64: return token.int64;
        case Kind::Uint64: return token.uint64;
        case Kind::Double: return token.real;
        case Kind::String:
        case Kind::Key: return text(std::string_view(token.data, token.size));
        case Kind::List: {
            Array array;
            array.reserve(token.size);
            for (uint32_t i = index + 1; i < token.next; i = tokens_[i].next) array.push_back(value(i));
            return array;
        }
        case Kind::Map: break;
    }
    Object object;
    for (uint32_t key = index + 1; key < token.next; key = tokens_[key + 1].next)
        object.emplace(boost::json::string_view(tokens_[key].data, tokens_[key].size),
                       value(key + 1));  // keys are unique
    return object;
}

std::string Document::path(uint32_t target) const {
    std::string path;
    uint32_t index = 0;
    while (index != target) {
        const Token& token = tokens_[index];
        if (token.kind == Kind::Map) {
            uint32_t key = index + 1;
            while (tokens_[key + 1].next <= target) key = tokens_[key + 1].next;
            if (!path.empty()) path += '.';
            path.append(tokens_[key].data, tokens_[key].size);
            index = key + 1;
        } else {
            uint32_t item = index + 1, at = 0;
            for (; tokens_[item].next <= target; ++at) item = tokens_[item].next;
            path += "[" + std::to_string(at) + "]";
            index = item;
        }
    }
    return path;
}

void Reader::fail(const std::string& message) const {
    const std::string where = path();
    throw StateFormatError(std::string(document_->what()) + ": " + (where.empty() ? message : where + ": " + message));
}

const Reader& Reader::object() const {
    if (token().kind != Kind::Map) fail("expected an object");
    return *this;
}

uint32_t Reader::find(std::string_view key) const {
    object();
    const Document::Token& object = token();
    // Keys are unique and mostly read in the order written: the search starts at the key
    // after the one found last in this object, and goes round once.
    const uint32_t first = index_ + 1, end = object.next;
    const uint64_t prefix = key_prefix(key);
    uint32_t at = object.hint;
    for (uint32_t n = 0; n < object.size; ++n) {
        const uint32_t after = (*document_)[at + 1].next;
        if (same_key((*document_)[at], key, prefix)) {
            object.hint = after == end ? first : after;
            return at + 1;
        }
        at = after == end ? first : after;
    }
    return 0;
}

namespace {

void write_compact(const Document& document, uint32_t index, Writer& w) {
    const Document::Token& token = document[index];
    switch (token.kind) {
        case Kind::Null: w.null(); return;
        case Kind::Bool: w.value(token.flag); return;
        case Kind::Int64: w.value(token.int64); return;
        case Kind::Uint64: w.value(token.uint64); return;
        case Kind::Double: w.raw(json::serialize(Value(token.real))); return;
        case Kind::String:
        case Kind::Key: w.value(std::string_view(token.data, token.size)); return;
        case Kind::List:
            w.begin_array();
            for (uint32_t i = index + 1; i < token.next; i = document[i].next) write_compact(document, i, w);
            w.end_array();
            return;
        case Kind::Map:
            w.begin_object();
            for (uint32_t key = index + 1; key < token.next; key = document[key + 1].next) {
                w.key(std::string_view(document[key].data, document[key].size));
                write_compact(document, key + 1, w);
            }
            w.end_object();
            return;
    }
}

}  // namespace

std::string Reader::compact() const {
    Writer w(256);
    write_compact(*document_, index_, w);
    return std::move(w.text());
}

bool Reader::has(std::string_view key) const { return find(key) != 0; }

Reader Reader::at(std::string_view key) const {
    const uint32_t found = find(key);
    if (found == 0) {
        const std::string where = path();
        throw StateFormatError(std::string(document_->what()) + ": missing key '" + std::string(key) + "'" +
                               (where.empty() ? "" : " in " + where));
    }
    return Reader(*document_, found);
}

long long Reader::integer(long long low, long long high) const {
    const Document::Token& t = token();
    const bool small = t.kind == Kind::Int64 || (t.kind == Kind::Uint64 && t.uint64 <= INT64_MAX);
    if (!small && t.kind != Kind::Uint64) fail("expected an integer");
    const long long v = t.kind == Kind::Int64 ? t.int64 : static_cast<long long>(t.uint64);
    if (!small || v < low || v > high)
        fail("expected an integer in " + std::to_string(low) + ".." + std::to_string(high));
    return v;
}

bool Reader::boolean() const {
    if (token().kind != Kind::Bool) fail("expected true or false");
    return token().flag;
}

uint64_t Reader::seed() const {
    const Document::Token& t = token();
    if (t.kind == Kind::Uint64) return t.uint64;
    if (t.kind == Kind::Int64 && t.int64 >= 0) return static_cast<uint64_t>(t.int64);
    fail("seed must be an int in [0, 2**64), got " + json::serialize(value()));
}

int Reader::choice(std::initializer_list<const char*> names) const {
    const std::string_view given = text();
    std::string expected;
    int index = 0;
    for (const char* name : names) {
        if (given == name) return index;
        const bool last = ++index == static_cast<int>(names.size());
        expected += std::string(index == 1 ? "" : last ? " or " : ", ") + "'" + name + "'";
    }
    fail("expected " + expected);
}

}  // namespace diabolo::json

namespace diabolo::json {

std::string shown(const Value& value) {
    std::string text = json::serialize(value);
    if (text.size() <= 80) return text;
    std::size_t cut = 77;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 sequence
    return text.substr(0, cut) + "...";
}

const Object& deal_object(const Value& deal, std::initializer_list<const char*> keys, const char* clause) {
    std::string names;
    for (const char* key : keys) names += std::string(names.empty() ? "" : " and ") + "\"" + key + "\"";
    if (!deal.is_object())
        throw StateFormatError("a deal must be an object with " + names + " (" + clause + "), got " + shown(deal));
    for (const auto& item : deal.get_object()) {
        const std::string_view key(item.key().data(), item.key().size());
        if (std::none_of(keys.begin(), keys.end(), [&](const char* name) { return key == name; }))
            throw StateFormatError("a deal has only " + names + " (" + clause + "), got \"" + std::string(key) + "\"");
    }
    return deal.get_object();
}

OptionReader::OptionReader(const Value& options, const char* game, std::initializer_list<const char*> names) {
    if (!options.is_object())
        throw OptionError(std::string(game) + " options must be an object of option name to value");
    options_ = &options.get_object();
    for (const auto& item : *options_) {
        const std::string_view key(item.key().data(), item.key().size());
        bool known = false;
        for (const char* name : names) known = known || key == name;
        if (known) continue;
        std::string all;  // the message is built only when it is needed (states are read often)
        for (const char* name : names) all += std::string(all.empty() ? "" : ", ") + name;
        throw OptionError("unknown option " + quoted(key) + " for " + game + "; the options are " + all);
    }
}

bool OptionReader::has(std::string_view name) const {
    return options_->contains(boost::json::string_view(name.data(), name.size()));
}

const Value& OptionReader::value(std::string_view name) const {
    return options_->at(boost::json::string_view(name.data(), name.size()));
}

long long OptionReader::integer(std::string_view name) const {
    const Value& v = value(name);
    long long result = 0;
    if (as_int64(v, result)) return result;
    if (v.is_uint64()) throw OptionError(std::string(name) + " is out of range: " + std::to_string(v.get_uint64()));
    throw OptionError(std::string(name) + " must be an int, got " + shown(v));
}

int OptionReader::integer_in(std::string_view name, long long low, long long high, const char* clause) const {
    const long long value = integer(name);
    if (value < low || value > high) {
        throw OptionError(std::string(name) + " must be " + std::to_string(low) + ".." + std::to_string(high) + " (" +
                          clause + "), got " + std::to_string(value));
    }
    return static_cast<int>(value);
}

bool OptionReader::boolean(std::string_view name) const {
    const Value& v = value(name);
    if (!v.is_bool()) throw OptionError(std::string(name) + " must be True or False, got " + shown(v));
    return v.get_bool();
}

int int_option(const OptionReader& reader, std::string_view name) {
    const long long value = reader.integer(name);
    if (value < INT32_MIN || value > INT32_MAX)
        throw OptionError(std::string(name) + " is out of range, got " + std::to_string(value));
    return static_cast<int>(value);
}

double OptionReader::number_in(std::string_view name, double low, double high) const {
    const Value& v = value(name);
    const double number = v.is_double()   ? v.get_double()
                          : v.is_int64()  ? static_cast<double>(v.get_int64())
                          : v.is_uint64() ? static_cast<double>(v.get_uint64())
                                          : low - 1.0;
    if (!(v.is_number() && number >= low && number <= high)) {
        throw OptionError(std::string(name) + " must be a number in [" + json::serialize(Value(low)) + ", " +
                          json::serialize(Value(high)) + "], got " + shown(v));
    }
    return number;
}

std::string_view OptionReader::text(std::string_view name) const {
    const Value& v = value(name);
    if (!v.is_string()) throw OptionError(std::string(name) + " must be a str, got " + shown(v));
    return std::string_view(v.get_string().data(), v.get_string().size());
}

}  // namespace diabolo::json

namespace diabolo::json {

Writer& Writer::escaped(std::string_view text) {
    static constexpr char kHex[] = "0123456789abcdef";
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        room(6);
        if (byte >= 0x20 && c != '"' && c != '\\') {
            out_[size_++] = c;
        } else if (byte >= 0x20) {
            out_[size_++] = '\\';
            out_[size_++] = c;
        } else {
            for (const char e : {'\\', 'u', '0', '0', kHex[byte >> 4], kHex[byte & 15]}) out_[size_++] = e;
        }
    }
    put('"');
    return *this;
}

Writer& Writer::value(long long number) {
    separate();
    room(24);
    size_ = static_cast<std::size_t>(std::to_chars(&out_[size_], &out_[size_] + 24, number).ptr - out_.data());
    return *this;
}

Writer& Writer::value(unsigned long long number) {
    separate();
    room(24);
    size_ = static_cast<std::size_t>(std::to_chars(&out_[size_], &out_[size_] + 24, number).ptr - out_.data());
    return *this;
}

}  // namespace diabolo::json
