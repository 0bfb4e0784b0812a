// The one translation unit that compiles Boost.JSON (header-only use), and the Reader.
#include "diabolo/core/json.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/parser.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/src.hpp>

#include <charconv>
#include <climits>
#include <cstdint>

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

Value parse(std::string_view text, const char* what) { return parse(text, what, {}); }

Value parse(std::string_view text, const char* what, boost::json::storage_ptr storage) {
    if (text.size() > kMaxTextBytes) {
        throw StateFormatError(std::string(what) + " is " + std::to_string(text.size()) + " bytes long; at most " +
                               std::to_string(kMaxTextBytes));
    }
    boost::json::parse_options options;
    options.max_depth = kMaxDepth;
    options.allow_infinity_and_nan = true;
    unsigned char temporary[4096];  // the parser's own stack: no allocation for ordinary documents
    boost::json::parser parser(boost::json::storage_ptr(), options, temporary, sizeof temporary);
    boost::system::error_code error;
    parser.reset(std::move(storage));
    parser.write(text.data(), text.size(), error);
    Value value = error ? Value() : parser.release();
    if (error) {
        const std::string reason = error == boost::json::error::too_deep
                                       ? "nested more than " + std::to_string(kMaxDepth) + " levels deep"
                                       : error.message();
        throw StateFormatError(std::string(what) + " is not valid JSON: " + reason);
    }
    return value;
}

std::string serialize(const Value& value) { return boost::json::serialize(value); }

namespace {

/// Appends the path from `node` down to `target` to `path`; true if found.
bool find_path(const Value& node, const Value* target, std::string& path) {
    if (&node == target) return true;
    const std::size_t mark = path.size();
    if (node.is_object()) {
        for (const auto& item : node.get_object()) {
            if (!path.empty()) path += '.';
            path.append(item.key().data(), item.key().size());
            if (find_path(item.value(), target, path)) return true;
            path.resize(mark);
        }
    } else if (node.is_array()) {
        const Array& array = node.get_array();
        for (std::size_t i = 0; i < array.size(); ++i) {
            path += "[" + std::to_string(i) + "]";
            if (find_path(array[i], target, path)) return true;
            path.resize(mark);
        }
    }
    return false;
}

}  // namespace

std::string Reader::path() const {
    std::string out;
    find_path(*root_, value_, out);
    return out;
}

void Reader::fail(const std::string& message) const {
    const std::string where = path();
    throw StateFormatError(std::string(what_) + ": " + (where.empty() ? message : where + ": " + message));
}

const Object& Reader::object() const {
    if (!value_->is_object()) fail("expected an object");
    return value_->get_object();
}

bool Reader::has(std::string_view key) const {
    return object().contains(boost::json::string_view(key.data(), key.size()));
}

Reader Reader::at(std::string_view key) const {
    const Object& object = this->object();
    const auto found = object.find(boost::json::string_view(key.data(), key.size()));
    if (found == object.end()) {
        const std::string where = path();
        throw StateFormatError(std::string(what_) + ": missing key '" + std::string(key) + "'" +
                               (where.empty() ? "" : " in " + where));
    }
    return Reader(*this, found->value());
}

Reader Reader::at(std::size_t index) const {
    if (!value_->is_array()) fail("expected a list");
    const Array& array = value_->get_array();
    if (index >= array.size()) fail("expected at least " + std::to_string(index + 1) + " items");
    return Reader(*this, array[index]);
}

std::size_t Reader::size() const {
    if (!value_->is_array()) fail("expected a list");
    return value_->get_array().size();
}

long long Reader::integer(long long low, long long high) const {
    long long v = 0;
    if (!as_int64(*value_, v)) {
        if (value_->is_uint64()) fail("expected an integer in " + std::to_string(low) + ".." + std::to_string(high));
        fail("expected an integer");
    }
    if (v < low || v > high) fail("expected an integer in " + std::to_string(low) + ".." + std::to_string(high));
    return v;
}

bool Reader::boolean() const {
    if (!value_->is_bool()) fail("expected true or false");
    return value_->get_bool();
}

std::string_view Reader::text() const {
    if (!value_->is_string()) fail("expected a string");
    const boost::json::string& s = value_->get_string();
    return std::string_view(s.data(), s.size());
}

uint64_t Reader::seed() const {
    if (value_->is_uint64()) return value_->get_uint64();
    if (value_->is_int64() && value_->get_int64() >= 0) return static_cast<uint64_t>(value_->get_int64());
    fail("seed must be an int in [0, 2**64), got " + json::serialize(*value_));
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
