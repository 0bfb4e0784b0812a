// Duvelen: the observation tensor, a fixed-length float vector of the public table
// (D8.1). Seats appear relative to the observer: block 0 is the observer.
#include <algorithm>
#include <vector>

#include "diabolo/core/tensor.hpp"
#include "diabolo/duvelen/duvelen.hpp"

namespace diabolo::duvelen {

namespace {

constexpr int kCentre = 2 * kDeckCards;       // pile tops per card, wanted cards
constexpr int kPerSeat = 3 * kDeckCards + 8;  // visible, stok top, waste top, 8 scalars

}  // namespace

int Rules::observation_tensor_size(const Game& game) noexcept {
    const int n = game.players;
    return kCentre + n * kPerSeat + 3 + n + 2;
}

namespace {

template <class Writer>
void write_observation(const Position& s, int player, Writer& w) noexcept {
    const int n = s.players();
    const float rounds = static_cast<float>(s.game.rounds);
    for (int card = 0; card < kDeckCards; ++card) {
        w.scalar(static_cast<float>(s.tops[static_cast<std::size_t>(card)]) / static_cast<float>(n));
    }
    w.bits(s.wanted, kDeckCards);
    const auto points = round_scores(s);
    for (int i = 0; i < n; ++i) {
        const int p = (player + i) % n;
        const Seat& seat = s.seats[static_cast<std::size_t>(p)];
        int held = 0;
        for (int id = 0; id < s.pile_count; ++id) held += s.piles[static_cast<std::size_t>(id)].holder == p ? 1 : 0;
        w.bits(seat.available(), kDeckCards);
        w.one_hot(seat.stok_top(), kDeckCards);
        w.one_hot(seat.waste_top(), kDeckCards);
        w.scalar(static_cast<float>(seat.stok_count) / kStokCards);
        w.scalar(static_cast<float>(seat.waste_count) / kCycleCards);
        w.scalar(static_cast<float>(seat.draaistok_count()) / kCycleCards);
        w.scalar(static_cast<float>(std::count(seat.rij.begin(), seat.rij.end(), kNoCard)) / kRijSlots);
        w.scalar((s.passed >> p) & 1u ? 1.0f : 0.0f);
        w.scalar(static_cast<float>(held) / kSuits, 0.0f, static_cast<float>(n));  // up to 4 piles per deck
        w.scalar(static_cast<float>(points[static_cast<std::size_t>(p)]) / 50.0f, kMinRoundScore / 50.0f,
                 kMaxRoundScore / 50.0f);
        w.scalar(static_cast<float>(s.scores[static_cast<std::size_t>(p)]) / 100.0f, rounds * kMinRoundScore / 100.0f,
                 rounds * kMaxRoundScore / 100.0f);
    }
    w.one_hot(static_cast<int>(s.phase), 3);
    w.one_hot(s.stop_called_by >= 0 ? (s.stop_called_by - player + n) % n : -1, n);
    w.scalar(static_cast<float>(s.round) / static_cast<float>(s.game.rounds));
    w.scalar(static_cast<float>(s.actions) / static_cast<float>(s.game.max_actions));
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
    write_observation(State::start(game, 0).position, 0, w);
}

}  // namespace diabolo::duvelen
