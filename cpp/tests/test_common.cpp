// Tests of the shared core: RNG portability, card sets and the JSON reader.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "check.hpp"
#include "diabolo/core/cardset.hpp"
#include "diabolo/core/errors.hpp"
#include "diabolo/core/json.hpp"
#include "diabolo/core/portable_math.hpp"
#include "diabolo/core/rng.hpp"

using namespace diabolo;

TEST(rng_stream_is_fixed) {
    // These values pin the stream: a change here changes every seeded game.
    Pcg32 rng(42);
    const uint32_t first = rng.next();
    Pcg32 again(42);
    CHECK(again.next() == first);
    Pcg32 other(43);
    CHECK(other.next() != first);
}

TEST(rng_below_is_in_range_and_covers) {
    Pcg32 rng(7);
    std::vector<int> seen(10, 0);
    for (int i = 0; i < 10000; ++i) {
        const uint32_t x = rng.below(10);
        CHECK(x < 10);
        ++seen[x];
    }
    for (int count : seen) CHECK(count > 850 && count < 1150);
}

TEST(shuffle_is_a_permutation) {
    std::vector<int> items(70);
    std::iota(items.begin(), items.end(), 0);
    Pcg32 rng(1);
    rng.shuffle(items.data(), items.size());
    std::vector<int> sorted = items;
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < 70; ++i) CHECK(sorted[static_cast<std::size_t>(i)] == i);
    bool moved = false;
    for (int i = 0; i < 70; ++i) moved |= items[static_cast<std::size_t>(i)] != i;
    CHECK(moved);
}

TEST(cardset_bits_across_the_word_boundary) {
    CardSet set = CardSet::range(60, 8);
    CHECK(set.count() == 8);
    CHECK(set.test(63) && set.test(64) && set.test(67) && !set.test(68));
    CHECK(set.bits(60, 8) == 0xFF);
    CHECK(set.lowest() == 60);
    set.reset(60);
    CHECK(set.pop_lowest() == 61);
    CHECK(CardSet::shifted_right(CardSet::single(100), 40) == CardSet::single(60));
    CHECK(CardSet::shifted_left(CardSet::single(3), 70) == CardSet::single(73));
}

TEST(portable_math_is_close_to_libm) {
    // Accuracy against libm; the bits themselves are pinned below.
    for (double x = -30.0; x <= 30.0; x += 0.0625) {
        CHECK(std::fabs(portable::exp(x) - std::exp(x)) <= 1e-14 * std::exp(x));
        CHECK(std::fabs(portable::tanh(x) - std::tanh(x)) <= 1e-15);
        CHECK(std::fabs(portable::logistic(x) - 1.0 / (1.0 + std::exp(-x))) <= 1e-15);
    }
    for (double x = 1e-300; x < 1e300; x *= 3.7)
        CHECK(std::fabs(portable::log(x) - std::log(x)) <= 1e-15 * std::fabs(std::log(x)) + 1e-300);
    for (int n = 1; n < 100000; n += 7)
        CHECK(std::fabs(portable::log(n) - std::log(n)) <= 1e-15 * std::log(n) + 1e-300);
    CHECK(portable::log(1.0) == 0.0);
    CHECK(portable::exp(0.0) == 1.0);
}

TEST(portable_math_bits_are_pinned) {
    // The same bits on every platform and compiler: a change here changes bot decisions.
    CHECK(portable::exp(1.0) == 0x1.5bf0a8b14576bp+1);
    CHECK(portable::exp(-2.5) == 0x1.50385c094f423p-4);
    CHECK(portable::log(10.0) == 0x1.26bb1bbb55516p+1);
    CHECK(portable::log(12345.0) == 0x1.2d78e26ae18e8p+3);
    CHECK(portable::tanh(0.3333333333333333) == 0x1.493aa293c8802p-2);
    CHECK(portable::logistic(-1.25) == 0x1.c81702a88e0d5p-3);
}

/// The message of the StateFormatError that `read` throws, or "" if it throws none.
template <class Read>
std::string read_error(Read read) {
    try {
        read();
    } catch (const StateFormatError& e) {
        return e.what();
    }
    return "";
}

TEST(json_reader_reads_nested_lists_in_any_order) {
    const std::string text = R"({"a": [[1, 2], [], [3, [4, 5]], 6], "b": {"c": "x", "d": null}})";
    const json::Document document(text, "test");
    const json::Reader root(document);
    const json::Reader a = root.at("a");
    CHECK(a.size() == 4);
    CHECK(a.at(3).integer(0, 9) == 6);  // backwards after forwards: the walk starts again
    CHECK(a.at(0).at(1).integer(0, 9) == 2);
    CHECK(a.at(2).at(1).at(0).integer(0, 9) == 4);
    CHECK(a.at(1).size() == 0);
    CHECK(root.at("b").at("c").text() == "x" && root.at("b").at("d").is_null());
    CHECK(root.at("b").value() == json::parse(R"({"c": "x", "d": null})"));
    CHECK(root.at("b").compact() == R"({"c":"x","d":null})" && root.at("a").compact() == "[[1,2],[],[3,[4,5]],6]");
    CHECK(read_error([&] { a.at(2).at(1).at(1).text(); }) == "test: a[2][1][1]: expected a string");
    CHECK(read_error([&] { a.at(4); }) == "test: a: expected at least 5 items");
    CHECK(read_error([&] { root.at("b").at("e"); }) == "test: missing key 'e' in b");
    CHECK(read_error([&] { root.at("b").at("d").integer(0, 1); }) == "test: b.d: expected an integer");
}

TEST(json_reader_unescapes_keys_and_strings) {
    const std::string text = R"({"\u0061bcdefghij": "\u00e9t\u00e9 \"q\"", "abcdefghik": 1})";
    const json::Document document(text, "test");
    const json::Reader root(document);
    CHECK(root.at("abcdefghij").text() == "\xc3\xa9t\xc3\xa9 \"q\"");  // keys equal in their first 8 bytes
    CHECK(root.at("abcdefghik").integer(0, 1) == 1);
}

TEST(json_tape_holds_the_value_written_as_value_and_as_text) {
    // Nested and empty containers, a string longer than a few words that grows the tape's
    // characters, and escapes; keys are not counted as items.
    json::Tape tape(2, 4);
    const std::string long_text(300, 'w');
    tape.begin_object().key("a").begin_array().value(1).begin_array().end_array().begin_object().end_object();
    tape.value(-7LL).null().value(true).end_array().key("b").value(long_text).key("q").value("say \"hi\"\n");
    tape.key("n").begin_object().key("x").value(false).end_object().end_object();
    const json::Value expected = json::parse(R"({"a": [1, [], {}, -7, null, true], "b": ")" + long_text +
                                             R"(", "q": "say \"hi\"\n", "n": {"x": false}})");
    CHECK(tape.value() == expected);
    CHECK(tape.text() ==
          R"({"a":[1,[],{},-7,null,true],"b":")" + long_text + R"(","q":"say \"hi\"\u000a","n":{"x":false}})");
    CHECK(json::parse(tape.text()) == expected);
    CHECK(tape.tokens()[0].kind == json::Tape::Kind::Object && tape.tokens()[0].size == 4);
    CHECK(tape.tokens()[2].kind == json::Tape::Kind::Array && tape.tokens()[2].size == 6);
    CHECK(json::Tape().value().is_null() && json::Tape().text() == "null");  // nothing written
}

TEST(json_reader_refuses_what_is_not_one_document) {
    CHECK(read_error([] { json::Document("{\"a\": 1, \"a\": 2}", "test"); }) ==
          "test: the key 'a' is given twice in one object");
    CHECK(read_error([] { json::Document("{} []", "test"); }).find("test is not valid JSON") == 0);
    // Text with a byte above 0x7F is checked as UTF-8 (ASCII needs no check).
    CHECK(json::Reader(json::Document("{\"\xc3\xa9\": \"\xc3\xa9t\xc3\xa9\"}", "test")).at("\xc3\xa9").text() ==
          "\xc3\xa9t\xc3\xa9");
    CHECK(read_error([] { json::Document("{\"a\": \"\xff\"}", "test"); }).find("test is not valid JSON") == 0);
    CHECK(read_error([] { json::Document("{\"a\": \"\xc3\"}", "test"); }).find("test is not valid JSON") == 0);
    CHECK(read_error([] { json::Document(std::string(65, '[') + std::string(65, ']'), "test"); }) ==
          "test is not valid JSON: nested more than 64 levels deep");
    // Many keys: the hash of each is checked, and equal hashes compared in full.
    std::string many = "{";
    for (int i = 0; i < 500; ++i) many += (i ? ",\"k" : "\"k") + std::to_string(i) + "\": " + std::to_string(i);
    const json::Document document(many + "}", "test");
    for (int i = 499; i >= 0; i -= 7) CHECK(json::Reader(document).at("k" + std::to_string(i)).integer(0, 999) == i);
    CHECK(read_error([&] { json::Document(many + ",\"k250\": 0}", "test"); }) ==
          "test: the key 'k250' is given twice in one object");
}
