// Diabolo (Schacht): the observation tensor, a fixed-length float vector of what one
// player may know (S7). Seats appear relative to the observer: index 0 is the observer.
#include <array>

#include "diabolo/core/tensor.hpp"
#include "diabolo/schacht/schacht.hpp"

namespace diabolo::schacht {

namespace {

constexpr int kPerSeat = 1 + 1 + kMaxDeck + kMaxDeck + 1;   // hand size, doubler, known, discarded, score
constexpr int kRowFeatures = kColours * (2 * kValues + 3);  // value counts per side, closed, two sums

}  // namespace

int Rules::observation_tensor_size(const Game& game) noexcept {
    const int n = game.players;
    return kMaxDeck + kRowFeatures + n * kPerSeat + 3 + kColours + 2 + 2 * n + 3;
}

namespace {

// The share of a row side's cards of one value, count / kSideCards, for each count: a
// table, since a division for each of the 50 entries was a large part of the tensor's cost.
constexpr std::array<float, kSideCards + 1> kSideShare{0.0f / kSideCards, 1.0f / kSideCards, 2.0f / kSideCards,
                                                       3.0f / kSideCards};
static_assert(kSideCards == 3, "kSideShare lists the shares of 0..3 cards");

/// How many cards of each value the first `count` cards of a row side hold, as 4-bit
/// counts: value v's count is (counts >> 4 * v) & 15. Kept in a register and without a
/// branch on `count`, which varies from row to row (a table in memory and mispredicted
/// branches were a large part of the tensor's cost). Values are 1..kValues: & 7 only keeps
/// the shift in range.
uint32_t value_counts(const std::array<uint8_t, kSideCards>& side, int count) noexcept {
    uint32_t counts = 0;
    for (int k = 0; k < kSideCards; ++k)
        counts += static_cast<uint32_t>(k < count) << (4 * (side[static_cast<std::size_t>(k)] & 7u));
    return counts;
}

template <class Writer>
void write_observation(const Position& s, int player, Writer& w) noexcept {
    const int n = s.players();
    const auto relative = [&](int seat) { return seat >= 0 ? (seat - player + n) % n : -1; };
    const float rounds = static_cast<float>(s.game.rounds);
    w.slots(s.hands[static_cast<std::size_t>(player)], kMaxDeck);
    for (const Row& row : s.rows) {
        const uint32_t left = value_counts(row.left, row.left_count);
        const uint32_t right = value_counts(row.right, row.right_count);
        for (int value = 1; value <= kValues; ++value) {
            w.scalar(kSideShare[left >> (4 * value) & 15u]);
            w.scalar(kSideShare[right >> (4 * value) & 15u]);
        }
        w.scalar(row.closed() ? 1.0f : 0.0f);
        w.scalar(static_cast<float>(row.devil_sum()) / 15.0f);
        w.scalar(static_cast<float>(row.angel_sum()) / 15.0f);
    }
    for (int i = 0; i < n; ++i) {
        const int seat = (player + i) % n;
        const auto k = static_cast<std::size_t>(seat);
        w.scalar(static_cast<float>(s.hands[k].count()) / 13.0f);
        w.scalar((s.doubler_available >> seat) & 1u ? 1.0f : 0.0f);
        w.slots(known_cards(s, seat), kMaxDeck);
        w.slots(s.discarded[k], kMaxDeck);
        w.scalar(static_cast<float>(s.scores[k]) / 100.0f, rounds * kMinRoundScore / 100.0f,
                 rounds * kMaxRoundScore / 100.0f);
    }
    w.one_hot(static_cast<int>(s.phase), 3);
    w.one_hot(s.phase == Phase::Doubler ? s.scoring_colour : -1, kColours);
    w.scalar((s.decided >> player) & 1u ? 1.0f : 0.0f);
    w.scalar((s.bets >> player) & 1u ? 1.0f : 0.0f);
    w.one_hot(relative(s.current_player), n);
    w.one_hot(relative(s.dealer), n);
    w.scalar(static_cast<float>(s.round) / static_cast<float>(s.game.rounds));
    w.scalar(static_cast<float>(s.pile_size()) / static_cast<float>(s.game.deck_size()));
    w.scalar(static_cast<float>(s.closed_rows()) / static_cast<float>(s.game.rows_to_end));
}

}  // namespace

void Rules::observation_tensor(const Position& s, int player, float* out) noexcept {
    TensorWriter<float> w(out, Rules::observation_tensor_size(s.game));
    write_observation(s, player, w);
}

void Rules::observation_bytes(const Position& s, int player, uint8_t* out) noexcept {
    TensorWriter<uint8_t> w(out, Rules::observation_tensor_size(s.game));
    write_observation(s, player, w);
}

void Rules::observation_tensor_bounds(const Game& game, float* low, float* high) {
    TensorBounds w(low, high);
    write_observation(State::start(game, 0, {}).position, 0, w);
}

}  // namespace diabolo::schacht
