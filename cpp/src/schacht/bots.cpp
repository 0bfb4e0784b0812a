// Diabolo (Schacht): the random bot and the heuristic bot. Both read only what their
// seat may know (docs/games/schacht.rst S7): its hand, the rows, and the cards shown,
// revealed or discarded.
#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "diabolo/core/cardset.hpp"
#include "diabolo/core/index.hpp"
#include "diabolo/core/json.hpp"
#include "diabolo/core/portable_math.hpp"
#include "diabolo/schacht/schacht.hpp"
#include "no_move.hpp"

namespace diabolo::schacht {

namespace {

/// What a seat knows about each colour.
struct View {
    int players = 0;
    std::array<int, kColours> mine{};       // the seat's hand sum (S5.3)
    std::array<double, kColours> others{};  // the best other seat's expected hand sum
    std::array<int, kColours> balance{};    // angel sum - devil sum (S5.2)
    std::array<int, kColours> placed{};     // cards in the row (S3.1)
    bool doubler = false;
};

View view_of(const Position& s, int player) noexcept {
    View v;
    v.players = s.players();
    v.doubler = (s.doubler_available >> player) & 1u;
    // Unseen cards that may be in another hand: the deck minus the rows, every discard,
    // this hand and what is known of the other hands; none of a colour revealed at
    // scoring (S5.3: every hand's cards of it are known then). Each set is counted by a
    // pass over its few cards, one after the other: a union of two sets would keep only
    // the larger count of each kind (the sets count copies as thermometer codes).
    std::array<int, kKinds> unseen;
    for (int kind = 0; kind < kKinds; ++kind) unseen[at(kind)] = s.game.value_counts[at(kind % kValues)];
    for (int c = 0; c < kColours; ++c) {
        const Row& row = s.rows[at(c)];
        for (int i = 0; i < row.left_count; ++i) --unseen[at(c * kValues + row.left[at(i)] - 1)];
        for (int i = 0; i < row.right_count; ++i) --unseen[at(c * kValues + row.right[at(i)] - 1)];
        v.balance[at(c)] = row.angel_sum() - row.devil_sum();
        v.placed[at(c)] = row.size();
    }
    v.mine = colour_sums(s.hands[at(player)]);
    for (CardSet set = s.hands[at(player)]; !set.empty();) --unseen[at(set.pop_lowest() / kMaxCopies)];
    int unseen_cards = s.pile_size();  // the pile holds unseen cards too
    for (int seat = 0; seat < s.players(); ++seat) {
        if (seat != player) {
            const CardSet known = known_cards(s, seat);
            for (CardSet set = known; !set.empty();) --unseen[at(set.pop_lowest() / kMaxCopies)];
            unseen_cards += s.hands[at(seat)].count() - known.count();
        }
        for (CardSet set = s.discarded[at(seat)]; !set.empty();) --unseen[at(set.pop_lowest() / kMaxCopies)];
    }
    std::array<int, kColours> unseen_sum{};
    for (int c = 0; c < kColours; ++c) {
        if ((s.revealed_colours >> c) & 1u) continue;
        for (int value = 1; value <= kValues; ++value) unseen_sum[at(c)] += value * unseen[at(c * kValues + value - 1)];
    }
    for (int seat = 0; seat < s.players(); ++seat) {
        if (seat == player) continue;
        const CardSet known = known_cards(s, seat);
        const std::array<int, kColours> known_sum = colour_sums(known);
        const int hidden = s.hands[at(seat)].count() - known.count();
        const double share = unseen_cards > 0 ? static_cast<double>(hidden) / unseen_cards : 0.0;
        for (int c = 0; c < kColours; ++c) {
            const double expected = known_sum[at(c)] + share * unseen_sum[at(c)];
            v.others[at(c)] = std::max(v.others[at(c)], expected);
        }
    }
    return v;
}

/// The chance that a hand sum of `mine` is the highest, against the best other seat's
/// expected `others` (a logistic guess; nothing wins with 0, S5.6).
double lead_chance(int mine, double others, const HeuristicWeights& w) noexcept {
    if (mine <= 0) return 0.0;
    return portable::logistic((mine - others * w.rival_factor - w.lead_offset) / w.lead_scale);
}

constexpr int kMaxBalance = kSideCards * kValues;  // |angel sum - devil sum| of an open row (S3.2)

using SoftSigns = std::array<double, 2 * kMaxBalance + 1>;

/// tanh(b / scale) for every balance b of an open row (S3.2: an angel sum minus a devil
/// sum of at most 3 cards of 1..5 each): a table made once per set of constants.
SoftSigns soft_signs(double scale) noexcept {
    SoftSigns table{};
    for (int b = -kMaxBalance; b <= kMaxBalance; ++b) table[at(b + kMaxBalance)] = portable::tanh(b / scale);
    return table;
}

/// How likely the colour ends positive (+1) or negative (-1): fixed once the row is
/// closed, else a soft sign of its balance (cards still come), from the bot's table.
double outcome(int balance, int placed, const SoftSigns& soft_sign) noexcept {
    if (placed >= kRowCards) return balance > 0 ? 1.0 : (balance < 0 ? -1.0 : 0.0);
    return soft_sign[at(std::clamp(balance, -kMaxBalance, kMaxBalance) + kMaxBalance)];
}

/// One colour's part of a view's value, and what the seat itself gains there.
struct ColourValue {
    double part = 0.0;
    double mine = 0.0;
};

/// The heuristic's constants and its table of soft signs.
struct Evaluation {
    const HeuristicWeights& weights;
    const SoftSigns& soft_sign;
};

/// The seat's own expected gain in colour c, and the leading other seat's, given the
/// seat's chance `lead` to lead the colour.
std::pair<double, double> gains(const View& v, int c, const Evaluation& e, double lead) noexcept {
    const double sign = outcome(v.balance[at(c)], v.placed[at(c)], e.soft_sign);
    return {sign * lead * v.mine[at(c)], sign * (1.0 - lead) * v.others[at(c)]};
}

std::pair<double, double> gains(const View& v, int c, const Evaluation& e) noexcept {
    return gains(v, c, e, lead_chance(v.mine[at(c)], v.others[at(c)], e.weights));
}

ColourValue colour_value(const View& v, int c, const Evaluation& e, double lead) noexcept {
    const double rivals = v.players > 1 ? 1.0 / (v.players - 1) : 0.0;
    const auto [mine, theirs] = gains(v, c, e, lead);
    // What the leading other seat gains here is a loss in a race for the top total:
    // pushing a colour others lead to the devil side is worth as much as it hurts them.
    return ColourValue{mine - (1.0 + rivals) * e.weights.theirs * theirs, mine};
}

/// The value of a view from its colours' parts, summed in colour order.
double value_of(const std::array<ColourValue, kColours>& colours, bool doubler, const HeuristicWeights& w) noexcept {
    double total = 0.0, best_positive = 0.0;
    for (const ColourValue& colour : colours) {
        total += colour.part;
        best_positive = std::max(best_positive, colour.mine);
    }
    if (doubler) total += w.doubler * best_positive;  // S5.3: the doubler may double one of them
    return total;
}

/// The view after `player` makes `move` (placing or discarding one of its cards).
View after(View v, const Move& move) noexcept {
    const int c = move.card.colour(), value = move.card.value();
    v.mine[at(c)] -= value;
    if (move.kind == MoveKind::Place) {
        v.balance[at(c)] += move.side == Side::Right ? value : -value;
        ++v.placed[at(c)];
    }
    return v;
}

/// S5.3: bet on the colour being scored if it is the best chance among the positive
/// colours still to score (layout order), and more likely than not led by this hand.
bool should_bet(const Position& s, int player, const HeuristicWeights& w) noexcept {
    const View v = view_of(s, player);
    const int scoring = s.scoring_colour;
    const double here = lead_chance(v.mine[at(scoring)], v.others[at(scoring)], w);
    if (here < w.bet_threshold) return false;
    const double gain = here * v.mine[at(scoring)];
    for (int c = scoring + 1; c < kColours; ++c) {
        if (v.balance[at(c)] > 0 && lead_chance(v.mine[at(c)], v.others[at(c)], w) * v.mine[at(c)] > gain) return false;
    }
    return true;
}

/// A set of the heuristic's constants with its table of soft signs.
struct Constants {
    HeuristicWeights weights;
    SoftSigns soft_sign = soft_signs(weights.sign_scale);

    Evaluation evaluation() const noexcept { return Evaluation{weights, soft_sign}; }
};

/// The two sets of constants whose terms are move features: the heuristic's, and sharper
/// ones (near those that tuning by self-play found, benchmarks/tune_heuristic.cpp). Made
/// once, read only.
const std::array<Constants, 2>& feature_constants() {
    static const std::array<Constants, 2> constants{Constants{HeuristicWeights{}},
                                                    Constants{HeuristicWeights{1.5, 0.5, 2.0, 1.0, 0.5, 0.5, 0.5}}};
    return constants;
}

/// What the features of every move of one position compare against: the seat's view now
/// and each colour's gains in it under both sets of feature constants, computed once per
/// position, not once per move (a move changes the gains of its own colour only).
struct FeatureBase {
    View now;
    std::array<std::array<std::pair<double, double>, kColours>, 2> gains_now{};

    explicit FeatureBase(const View& view) noexcept : now(view) {
        for (int k = 0; k < 2; ++k) {
            const Evaluation e = feature_constants()[at(k)].evaluation();
            for (int c = 0; c < kColours; ++c) gains_now[at(k)][at(c)] = gains(now, c, e);
        }
    }

    /// best_positive under the plain constants, with colour `changed` gaining `mine`.
    double best_positive_with(int changed, double mine) const noexcept {
        double best = 0.0;
        for (int c = 0; c < kColours; ++c) best = std::max(best, c == changed ? mine : gains_now[0][at(c)].first);
        return best;
    }
};

/// Entries 0-11 of a placing or discarding move's features (move_features).
void play_features(const FeatureBase& base, const Move& move, float* f) noexcept {
    const View& now = base.now;
    const View next = after(now, move);
    const int c = move.card.colour();
    const double value = move.card.value();
    const bool place = move.kind == MoveKind::Place;
    const bool angel = place && move.side == Side::Right;
    for (int k = 0; k < 2; ++k) {
        const Evaluation e = feature_constants()[at(k)].evaluation();
        const auto [mine_before, theirs_before] = base.gains_now[at(k)][at(c)];
        const auto [mine_after, theirs_after] = gains(next, c, e);
        f[k] = static_cast<float>(mine_after - mine_before);
        f[2 + k] = static_cast<float>(theirs_after - theirs_before);
        if (k == 0 && now.doubler)
            f[4] = static_cast<float>(base.best_positive_with(c, mine_after) - base.best_positive_with(c, mine_before));
    }
    const Constants& plain = feature_constants()[0];
    f[5] = place ? 0.0f : 1.0f;
    f[6] = place ? 0.0f : static_cast<float>(value / kValues);
    f[7] = angel ? 1.0f : 0.0f;
    const bool closes = place && next.placed[at(c)] >= kRowCards;
    f[8] = closes ? 1.0f : 0.0f;
    f[9] = closes ? static_cast<float>(outcome(next.balance[at(c)], next.placed[at(c)], plain.soft_sign)) : 0.0f;
    if (place) {
        const double lead = lead_chance(now.mine[at(c)], now.others[at(c)], plain.weights);
        f[10] = static_cast<float>(angel ? lead : -lead);
    }
    f[11] = static_cast<float>(value / kValues);
}

/// Entries 12-16 of a bet's features (move_features).
void bet_features(const Position& s, int player, float* f) noexcept {
    const View v = view_of(s, player);
    const HeuristicWeights& w = feature_constants()[0].weights;
    const int scoring = s.scoring_colour;
    const double here = lead_chance(v.mine[at(scoring)], v.others[at(scoring)], w);
    double later = 0.0;
    for (int c = scoring + 1; c < kColours; ++c) {
        if (v.balance[at(c)] > 0)
            later = std::max(later, lead_chance(v.mine[at(c)], v.others[at(c)], w) * v.mine[at(c)]);
    }
    constexpr double kColourSum = kValues * (kValues + 1) / 2;  // a colour's cards of one copy: 1..5
    f[12] = 1.0f;
    f[13] = static_cast<float>(here);
    f[14] = static_cast<float>(here * v.mine[at(scoring)] / kColourSum);
    f[15] = static_cast<float>(later / kColourSum);
    f[16] = should_bet(s, player, w) ? 1.0f : 0.0f;
}

/// The legal actions of `player` into `actions`, and their number; IllegalMoveError if
/// the seat has none (a bot is asked only for a seat that must act, S2.3).
int legal_moves_of(const Position& s, int player, std::array<uint8_t, kNumActions>& actions) {
    const int n = Rules::legal_actions(s, player, actions);
    if (n == 0) throw no_move_error(player);
    return n;
}

}  // namespace

int next_actor(const Position& s) noexcept {
    if (s.current_player >= 0) return s.current_player;
    if (s.phase != Phase::Doubler) return -1;
    const unsigned pending = static_cast<unsigned>(s.doubler_available & ~s.decided);  // S5.3
    return pending ? lowest_bit64(pending) : -1;
}

uint32_t Rules::pending_seats(const Position& s) noexcept {
    if (s.current_player >= 0) return 1u << s.current_player;
    if (s.phase != Phase::Doubler) return 0;
    return static_cast<uint32_t>(s.doubler_available & ~s.decided);  // S5.3
}

Move RandomBot::choose(const Position& state, int player, Pcg32& rng) const {
    const int action = Rules::random_action(state, player, rng);
    if (action < 0) throw no_move_error(player);
    return Move::of_action(action);
}

HeuristicBot::HeuristicBot(const HeuristicWeights& weights)
    : weights_(weights), soft_sign_(soft_signs(weights.sign_scale)) {}

std::vector<double> HeuristicBot::move_values(const Position& state, int player) const {
    std::array<uint8_t, kNumActions> actions{};
    std::array<double, kNumActions> values{};
    const int n = move_values(state, player, actions, values);
    return std::vector<double>(values.begin(), values.begin() + n);
}

int HeuristicBot::move_values(const Position& state, int player, std::array<uint8_t, kNumActions>& actions,
                              std::array<double, kNumActions>& values) const noexcept {
    const int n = Rules::legal_actions(state, player, actions);
    if (n == 0) return 0;  // also a seat that does not exist: nothing of it is read
    if (state.phase == Phase::Doubler) {
        const bool bet = should_bet(state, player, weights_);
        for (int i = 0; i < n; ++i) values[at(i)] = (actions[at(i)] == kBetAction) == bet ? 1.0 : 0.0;
        return n;
    }
    // A move changes one colour of the view: the other colours' parts are computed once.
    const View now = view_of(state, player);
    const Evaluation e{weights_, soft_sign_};
    std::array<ColourValue, kColours> colours{};
    for (int c = 0; c < kColours; ++c)
        colours[at(c)] = colour_value(now, c, e, lead_chance(now.mine[at(c)], now.others[at(c)], weights_));
    // The chance to lead a colour depends on the hand left, not on the side: one per card.
    std::array<double, kKinds> lead{};
    uint32_t lead_known = 0;
    for (int i = 0; i < n; ++i) {
        const Move move = Move::of_action(actions[at(i)]);
        const int c = move.card.colour();
        const View next = after(now, move);
        if (!((lead_known >> move.card.kind) & 1u)) {
            lead[move.card.kind] = lead_chance(next.mine[at(c)], next.others[at(c)], weights_);
            lead_known |= 1u << move.card.kind;
        }
        std::array<ColourValue, kColours> changed = colours;
        changed[at(c)] = colour_value(next, c, e, lead[move.card.kind]);
        values[at(i)] = value_of(changed, now.doubler, weights_);
    }
    return n;
}

Move HeuristicBot::choose(const Position& state, int player, Pcg32&) const {
    std::array<uint8_t, kNumActions> actions{};
    std::array<double, kNumActions> values{};
    const int n = move_values(state, player, actions, values);
    if (n == 0) throw no_move_error(player);
    // The best value; ties keep the lowest action id.
    return Move::of_action(
        actions[at(static_cast<int>(std::max_element(values.begin(), values.begin() + n) - values.begin()))]);
}

// Trained and written by examples/train_learned.py (docs/strength.rst), on one line.
// clang-format off
// BEGIN LEARNED WEIGHTS
const LearnedWeights kLearnedWeights{1.031391, 0.255497, -0.576912, -0.741046, -0.346662, 0.369529, -0.097348, -0.173565, 0.142788, -0.131626, 0.000305, -0.010317, -0.496898, 0.111511, 0.080981, -0.049513, 1.036347};
// END LEARNED WEIGHTS
// clang-format on

LearnedWeights learned_weights(const json::Value& value) {
    const auto* list = value.if_array();
    if (list == nullptr || list->size() != kMoveFeatures)
        throw OptionError("weights must be a list of " + std::to_string(kMoveFeatures) + " numbers, got " +
                          json::shown(value));
    LearnedWeights weights{};
    for (int k = 0; k < kMoveFeatures; ++k) {
        const json::Value& entry = (*list)[at(k)];
        if (entry.is_bool() || !entry.is_number() || !(std::abs(entry.to_number<double>()) <= 1e6))
            throw OptionError("weights[" + std::to_string(k) + "] must be a number in -1e6..1e6, got " +
                              json::shown(entry));
        weights[at(k)] = entry.to_number<double>();
    }
    return weights;
}

void move_features(const Position& state, int player, float* out) noexcept {
    std::fill(out, out + kNumActions * kMoveFeatures, 0.0f);
    std::array<uint8_t, kNumActions> actions{};
    const int n = Rules::legal_actions(state, player, actions);
    if (n == 0) return;
    if (state.phase == Phase::Doubler) {
        bet_features(state, player, out + kBetAction * kMoveFeatures);
        return;
    }
    const FeatureBase base(view_of(state, player));
    for (int i = 0; i < n; ++i)
        play_features(base, Move::of_action(actions[at(i)]), out + actions[at(i)] * kMoveFeatures);
}

Move LearnedBot::choose(const Position& state, int player, Pcg32&) const {
    std::array<uint8_t, kNumActions> actions{};
    const int n = legal_moves_of(state, player, actions);
    std::array<float, kNumActions * kMoveFeatures> features;
    move_features(state, player, features.data());
    int best = actions[0];
    double best_value = -1e300;
    for (int i = 0; i < n; ++i) {
        const float* f = &features[at(actions[at(i)] * kMoveFeatures)];
        double value = 0.0;
        for (int k = 0; k < kMoveFeatures; ++k) value += weights_[at(k)] * f[k];
        if (value > best_value) best = actions[at(i)], best_value = value;  // ties keep the lowest id
    }
    return Move::of_action(best);
}

std::unique_ptr<const Bot> Rules::make_bot(const Game&, std::string_view kind, const json::Value& options) {
    if (kind == "random" || kind == "heuristic") {
        json::OptionReader(options, "the bot", {});
        if (kind == "random") return std::make_unique<RandomBot>();
        return std::make_unique<HeuristicBot>();
    }
    if (kind == "learned") {
        const json::OptionReader r(options, "the learned bot", {"weights"});
        return std::make_unique<LearnedBot>(r.has("weights") ? learned_weights(r.value("weights")) : kLearnedWeights);
    }
    if (kind != "ismcts") {
        throw OptionError("no bot " + quoted(std::string(kind)) + " for schacht; the bots are " + kInfo.bots);
    }
    // No "seconds": a time budget would make the bot's moves depend on the machine.
    const json::OptionReader r(
        options, "the ismcts bot",
        {"iterations", "threads", "exploration", "heuristic_rollouts", "prior", "tree", "belief"});
    SearchOptions o;
    if (r.has("iterations")) o.iterations = json::int_option(r, "iterations");
    if (r.has("threads")) o.threads = json::int_option(r, "threads");
    if (r.has("exploration")) o.exploration = r.number_in("exploration", -1e300, 1e300);
    if (r.has("heuristic_rollouts")) o.heuristic_rollouts = r.boolean("heuristic_rollouts");
    if (r.has("prior")) o.prior = r.number_in("prior", -1e300, 1e300);
    if (r.has("tree")) o.tree = r.boolean("tree");
    if (r.has("belief")) o.belief = r.boolean("belief");
    check_search_options(o);  // the ranges, as for Python's IsmctsBot
    return std::make_unique<IsmctsBot>(o);
}

}  // namespace diabolo::schacht
