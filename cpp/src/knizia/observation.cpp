// Diabolo (Knizia): the observation tensor, a fixed-length float vector of the public
// table (K5.1, K8). Seats appear relative to the observer: block 0 is the observer.
#include <array>
#include <vector>

#include "diabolo/core/tensor.hpp"
#include "diabolo/knizia/knizia.hpp"

namespace diabolo::knizia {

namespace {

constexpr int kPerSeat = 5;  // pile, score, pass, at the head of the penalty, in the penalty

}  // namespace

int observation_tensor_size(const Config& config) noexcept {
    return config.kind_count + 1 + 3 + config.players + config.players * kPerSeat + 1;
}

namespace {

template <class Writer>
void write_observation(const Position& s, int player, Writer& w) noexcept {
    const int n = s.players();
    const float deck = static_cast<float>(s.config.deck_size);
    std::array<int, kMaxKinds> on_table{};
    for (int i = 0; i < s.table_count; ++i) ++on_table[s.table[static_cast<std::size_t>(i)]];
    for (int k = 0; k < s.config.kind_count; ++k) {  // the table by kind of card, as a share of the deck's
        w.scalar(static_cast<float>(on_table[static_cast<std::size_t>(k)]) /
                 static_cast<float>(s.config.counts[static_cast<std::size_t>(k)]));
    }
    w.scalar(static_cast<float>(s.deck_count()) / deck);
    w.one_hot(static_cast<int>(s.phase), 3);
    w.one_hot((s.dealer() - player + n) % n, n);
    for (int i = 0; i < n; ++i) {
        const int p = (player + i) % n;
        bool waiting = false;
        for (int j = 0; j < s.penalty_count; ++j) waiting = waiting || s.penalty[static_cast<std::size_t>(j)] == p;
        w.scalar(static_cast<float>(s.pile[static_cast<std::size_t>(p)]) / deck);
        // Totals as a share of every card of the game; tiles out of the two that win.
        w.scalar(static_cast<float>(s.scores[static_cast<std::size_t>(p)]) /
                 (s.config.variant == Variant::Standard ? deck * static_cast<float>(s.config.rounds) : 2.0f));
        w.scalar((s.passed >> p) & 1u ? 1.0f : 0.0f);
        w.scalar(s.penalty_count > 0 && s.penalty[0] == p ? 1.0f : 0.0f);
        w.scalar(waiting ? 1.0f : 0.0f);
    }
    // The victory-tiles variant ends when a seat has two tiles, at the latest after kMaxRounds.
    const float rounds = static_cast<float>(s.config.variant == Variant::Standard ? s.config.rounds : kMaxPlayers + 1);
    w.scalar(static_cast<float>(s.round) / rounds, 0.0f,
             s.config.variant == Variant::Standard ? 1.0f : static_cast<float>(kMaxRounds) / rounds);
}

}  // namespace

void Rules::observation_tensor(const Position& s, int player, float* out) noexcept {
    TensorWriter<float> w(out, knizia::observation_tensor_size(s.config));
    write_observation(s, player, w);
}

void Rules::observation_bytes(const Position& s, int player, uint8_t* out) noexcept {
    TensorWriter<uint8_t> w(out, knizia::observation_tensor_size(s.config));
    write_observation(s, player, w);
}

void Rules::observation_tensor_bounds(const Game& game, float* low, float* high) {
    TensorBounds w(low, high);
    write_observation(new_game(game.config, *game.lexicon, 0), 0, w);
}

}  // namespace diabolo::knizia
