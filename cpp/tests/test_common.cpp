// Tests of the shared core: RNG portability and card sets.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "check.hpp"
#include "diabolo/core/cardset.hpp"
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
