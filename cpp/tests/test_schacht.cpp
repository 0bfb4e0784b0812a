// Tests of the Schacht core: the rulebook example (S5.8) and random games under the
// invariant checker, which the sanitizer build runs too.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "check.hpp"
#include "diabolo/core/batch.hpp"
#include "diabolo/core/json.hpp"
#include "diabolo/core/match.hpp"
#include "diabolo/core/rng.hpp"
#include "diabolo/schacht/schacht.hpp"

using namespace diabolo;
using namespace diabolo::schacht;

namespace {

std::vector<Card> parse_cards(const std::vector<std::string>& texts) {
    std::vector<Card> cards;
    for (const auto& t : texts) cards.push_back(parse_card(t));
    return cards;
}

}  // namespace

TEST(notation_round_trips_every_action) {
    for (int action = 0; action < kNumActions; ++action) {
        const Move move = Move::from_action(action);
        CHECK(move.action() == action);
        CHECK(parse_move(Rules::format_move(move)) == move);
    }
    CHECK(Rules::format_move(parse_move("G5<")) == "G5<");
    CHECK_THROWS(NotationError, parse_move("G6<"));
    CHECK_THROWS(NotationError, parse_move("Q1>"));
    CHECK_THROWS(NotationError, parse_move(""));
    CHECK_THROWS(NotationError, Move::from_action(kNumActions));
}

TEST(options_are_validated) {
    Options o;
    o.players = 6;
    CHECK_THROWS(OptionError, Game::from_options(o));
    o.strict_players = false;
    CHECK(Game::from_options(o).players == 6);
    o = Options{};
    o.value_counts = {6, 3, 3, 2, 2};
    CHECK_THROWS(OptionError, Game::from_options(o));
    o = Options{};
    o.players = 5;
    CHECK(Game::from_options(o).rows_to_end == 3);
    CHECK(Game::from_options(o).rounds == 5);
}

TEST(worked_example_S5_8_purple_positive_with_doublers) {
    // Purple: left 5+1, right 1+2+4 -> positive. A holds P5, B holds P4+P2; both bet.
    Options o;
    o.players = 3;
    Position s = new_game(Game::from_options(o), 1);
    s.phase = Phase::Doubler;
    s.current_player = kSimultaneous;
    s.rows = {};
    Row& purple = s.rows[3];
    purple.left = {5, 1, 0};
    purple.left_count = 2;
    purple.right = {1, 2, 4};
    purple.right_count = 3;
    s.hands[0] = CardSet{};
    s.hands[1] = CardSet{};
    s.hands[2] = CardSet{};
    add_card(s.hands[0], parse_card("P5"));
    add_card(s.hands[1], parse_card("P4"));
    add_card(s.hands[1], parse_card("P2"));
    add_card(s.hands[2], parse_card("R1"));
    s.scoring_colour = 3;
    s.game.rounds = 1;
    apply_unchecked(s, Move::bet(), 0);
    apply_unchecked(s, Move::bet(), 1);
    CHECK(s.phase == Phase::Doubler);
    apply_unchecked(s, Move::hold(), 2);
    CHECK(s.scores[0] == 0);
    CHECK(s.scores[1] == 12);
    CHECK(s.scores[2] == 0);
    CHECK(s.doubler_available == 0b100);
}

TEST(given_deal_is_dealt_left_of_the_dealer) {
    Options o;
    o.players = 3;
    const Game game = Game::from_options(o);
    std::vector<Card> deck = cards_of(game.full_deck());
    const Position s = new_game(game, 0, &deck);
    // Seat 1 (left of dealer 0) gets the first six cards and draws the 19th.
    CHECK(count_of(s.hands[1], parse_card("R1")) == 4);
    CHECK(count_of(s.hands[1], parse_card("R2")) == 2);
    CHECK(count_of(s.hands[1], parse_card("Y2")) == 1);  // the draw: card 19 of the deck
    CHECK(s.current_player == 1);
    CHECK(s.hands[1].count() == 7);
    CHECK(s.pile_size() == 70 - 18 - 1);
    deck.pop_back();
    CHECK_THROWS(StateFormatError, new_game(game, 0, &deck));
}

TEST(random_games_keep_every_invariant) {
    for (int players = 3; players <= 5; ++players) {
        Options o;
        o.players = players;
        const Game game = Game::from_options(o);
        for (uint64_t g = 0; g < 120; ++g) {
            Position s = new_game(game, g);
            Pcg32 rng(g, 99);
            int steps = 0;
            while (!s.is_terminal() && steps < 5000) {
                const std::string problem = check_invariants(s);
                CHECK(problem.empty());
                if (!problem.empty()) {
                    std::cerr << problem << "\n";
                    return;
                }
                int player = s.current_player;
                if (player == kSimultaneous)
                    player = lowest_bit64(static_cast<unsigned>(s.doubler_available & ~s.decided));
                const std::vector<Move> moves = legal_moves(s, player);
                CHECK(!moves.empty());
                for (int seat = 0; seat < s.players(); ++seat) {
                    // is_legal tests one move directly: it must agree with the list, and
                    // every move it refuses gets a diagnosis.
                    std::array<uint8_t, kNumActions> legal{};
                    const int n = Rules::legal_actions(s, seat, legal);
                    for (int action = 0; action < kNumActions; ++action) {
                        const Move any = Move::of_action(action);
                        const bool listed = std::find(legal.begin(), legal.begin() + n, action) != legal.begin() + n;
                        CHECK(is_legal(s, any, seat) == listed);
                        CHECK(listed == !Rules::why_illegal(s, any, seat).has_value());
                    }
                }
                const Move move = moves[rng.below(static_cast<uint32_t>(moves.size()))];
                CHECK(!Rules::why_illegal(s, move, player).has_value());
                const Position resampled = Rules::resample(s, player, g);
                CHECK(check_invariants(resampled).empty());
                apply(s, move, player);
                ++steps;
            }
            CHECK(s.is_terminal());
            CHECK(check_invariants(s).empty());
        }
    }
}

TEST(check_invariants_names_broken_card_sets) {
    const Position start = new_game(Game::from_options(Options{}), 3);
    Position s = start;
    const int lowest = s.hands[0].lowest();  // the first copy of its kind: copy 2 moves up a slot
    s.hands[0].reset(lowest);
    s.hands[0].set(lowest + 1);
    CHECK(check_invariants(s) == "card set of seat 0 is not in canonical form");
    s = start;
    s.shown[1] = CardSet::single(s.hands[0].lowest());
    CHECK(check_invariants(s) == "a shown card is not in the hand");
}

TEST(batch_results_do_not_depend_on_threads) {
    const Game game = Game::from_options(Options{});
    const RandomPlayResult one = play_random<Rules>(game, 50, 5, 1);
    const RandomPlayResult two = play_random<Rules>(game, 50, 5, 2);
    CHECK(one.scores == two.scores);
    CHECK(one.moves == two.moves);
}

TEST(random_action_draws_what_the_legal_list_would) {
    // Every seat of every position of 600 random games (3 to 5 players, relaxed 2 and 6 to
    // 8, in every phase), and of each position with its rows' sides filled at random (a side
    // full, or the row closed: placements on one side, and discards when every colour held is
    // closed): random_action gives the id that legal_actions' list gives at the same draw,
    // and leaves the generator where the list's draw leaves it.
    int compared = 0, one_side = 0, discards = 0, doublers = 0;
    const auto compare = [&](const Position& s, uint64_t seed) {
        for (int seat = -1; seat <= s.players(); ++seat) {
            std::array<uint8_t, kNumActions> ids{};
            const int count = Rules::legal_actions(s, seat, ids);
            Pcg32 listed(seed, static_cast<uint64_t>(seat + 1)), direct = listed;
            const int expected = count == 0 ? -1 : ids[listed.below(static_cast<uint32_t>(count))];
            CHECK(Rules::random_action(s, seat, direct) == expected);
            CHECK(direct.next() == listed.next());
            ++compared;
            if (count == 0) continue;
            discards += ids[0] >= kDiscardBase && ids[0] < kBetAction;
            doublers += ids[0] == kBetAction;
            one_side += ids[0] < kDiscardBase && (count == 1 || ids[1] != ids[0] + 1);
        }
    };
    for (int players = 2; players <= 8; ++players) {
        Options o;
        o.players = players;
        o.strict_players = players >= 3 && players <= 5;
        const Game game = Game::from_options(o);
        for (uint64_t seed = 0; seed < (o.strict_players ? 120u : 60u); ++seed) {
            Position s = Rules::position(Rules::new_state(game, seed));
            Pcg32 walk(seed, 11);
            while (!s.is_terminal()) {
                compare(s, walk.next());
                Position filled = s;
                for (Row& row : filled.rows) {
                    const uint32_t how = walk.below(4);  // as it is, left full, right full, closed
                    if (how == 1 || how == 3) row.left_count = kSideCards;
                    if (how == 2) row.right_count = kSideCards;
                    if (how == 3) row.right_count = kRowCards - kSideCards;
                }
                compare(filled, walk.next());
                const int actor = next_actor(s);
                apply_unchecked(s, Move::of_action(Rules::random_action(s, actor, walk)), actor);
            }
        }
    }
    CHECK(compared > 500000);
    CHECK(one_side > 10000);
    CHECK(discards > 1000);
    CHECK(doublers > 10000);
}

// ---- bots and search ----------------------------------------------------------------

TEST(bots_only_choose_legal_moves) {
    Options o;
    o.players = 4;
    const Game game = Game::from_options(o);
    const RandomBot random;
    const HeuristicBot heuristic;
    SearchOptions quick;
    quick.iterations = 40;
    const IsmctsBot search(quick);
    const LearnedBot learned;
    const std::vector<const Bot*> bots = {&random, &heuristic, &search, &learned};
    for (uint64_t g = 0; g < 6; ++g) {
        Position s = new_game(game, g);
        Pcg32 rng(g, 9);
        for (int actor = next_actor(s); actor >= 0; actor = next_actor(s)) {
            for (const Bot* bot : bots) CHECK(is_legal(s, bot->choose(s, actor, rng), actor));
            apply(s, bots[rng.below(4)]->choose(s, actor, rng), actor);
        }
        CHECK(s.is_terminal());
    }
}

TEST(bots_and_search_never_read_hidden_cards) {
    // A twin that differs from the state only in what seat p cannot see (the other hands,
    // the pile, later shuffles): the bots' choices and the search's statistics for p must
    // not change (S7.3).
    Options o;
    o.players = 4;
    const Game game = Game::from_options(o);
    const HeuristicBot heuristic;
    SearchOptions quick;
    quick.iterations = 200;
    quick.threads = 2;
    for (uint64_t g = 0; g < 4; ++g) {
        Position s = new_game(game, g);
        Pcg32 rng(g, 3);
        for (int step = 0; step < 12 + static_cast<int>(g) * 5 && !s.is_terminal(); ++step) {
            const int actor = next_actor(s);
            std::array<uint8_t, kNumActions> legal{};
            const int n = Rules::legal_actions(s, actor, legal);
            apply(s, Move::of_action(legal[rng.below(static_cast<uint32_t>(n))]), actor);
        }
        const int p = next_actor(s);
        if (p < 0) continue;
        const Position twin = Rules::resample(s, p, 1000 + g);
        CHECK(!(twin.hands == s.hands) || twin.pile != s.pile);  // the hidden cards really differ
        Pcg32 a(7), b(7);
        CHECK(heuristic.choose(s, p, a) == heuristic.choose(twin, p, b));
        std::array<float, kNumActions * kMoveFeatures> features{}, twin_features{};
        move_features(s, p, features.data());
        move_features(twin, p, twin_features.data());
        CHECK(features == twin_features);
        for (const bool tree : {false, true}) {
            quick.tree = tree;
            const SearchResult one = ismcts(s, p, quick, 42);
            const SearchResult two = ismcts(twin, p, quick, 42);
            CHECK(one.visits == two.visits && one.values == two.values && one.best == two.best);
            // The tree runs every iteration; the flat search all but fewer than one round's
            // survivors (it never splits a determinisation between them).
            const auto moves = static_cast<int64_t>(one.moves.size());
            CHECK(tree ? one.iterations == 200 : one.iterations <= 200 && one.iterations > 200 - moves);
        }
    }
}

TEST(flat_search_halves_the_moves_and_gives_the_same_result_for_any_threads) {
    Options o;
    o.players = 4;
    const Game game = Game::from_options(o);
    Position s = new_game(game, 8);
    const int p = next_actor(s);
    std::array<uint8_t, kNumActions> legal{};
    const int n = Rules::legal_actions(s, p, legal);
    CHECK(n > 4);  // a first turn: 7 cards, each on either side
    SearchOptions flat;
    flat.iterations = 700;
    const SearchResult alone = ismcts(s, p, flat, 5);
    // Sequential halving: the best move was rolled out in every round, so it has the most
    // visits; a move dropped in the first round has the fewest, and the visits sum to
    // the iterations.
    const auto most = *std::max_element(alone.visits.begin(), alone.visits.end());
    const auto least = *std::min_element(alone.visits.begin(), alone.visits.end());
    const auto best = std::find(alone.moves.begin(), alone.moves.end(), alone.best) - alone.moves.begin();
    CHECK(alone.visits[static_cast<std::size_t>(best)] == most && least > 0 && least * 3 < most);
    CHECK(std::accumulate(alone.visits.begin(), alone.visits.end(), int64_t{0}) == alone.iterations);
    for (const int threads : {2, 3}) {
        flat.threads = threads;
        const SearchResult many = ismcts(s, p, flat, 5);
        CHECK(many.visits == alone.visits && many.values == alone.values && many.best == alone.best);
    }
    // A budget too small for a deal of every move still never overspends, and spends all
    // but fewer than the last round's survivors.
    flat.threads = 1;
    for (const int budget : {1, 5, n - 1, n, n + 1, 20, 27}) {
        flat.iterations = budget;
        const SearchResult small = ismcts(s, p, flat, 5);
        CHECK(small.iterations <= budget && small.iterations > budget / 2);
        CHECK(std::accumulate(small.visits.begin(), small.visits.end(), int64_t{0}) == small.iterations);
    }
}

TEST(matches_rotate_seats_and_do_not_depend_on_threads) {
    Options o;
    o.players = 3;
    const Game game = Game::from_options(o);
    const RandomBot random;
    const HeuristicBot heuristic;
    const std::vector<const Bot*> bots = {&heuristic, &random, &random};
    const MatchResult one = play_match<Rules>(game, bots, 30, 5, 1);
    const MatchResult two = play_match<Rules>(game, bots, 30, 5, 2);
    CHECK(one.scores == two.scores && one.moves == two.moves);
    double heuristic_mean = 0, random_mean = 0;
    for (int g = 0; g < one.games; ++g) {
        heuristic_mean += one.scores[static_cast<std::size_t>(g * 3)];
        random_mean += one.scores[static_cast<std::size_t>(g * 3 + 1)];
    }
    CHECK(heuristic_mean > random_mean);  // the heuristic is far stronger than chance
}

TEST(state_json_round_trips_and_names_what_is_wrong) {
    Options o;
    o.players = 4;
    const Game game = Game::from_options(o);
    for (uint64_t g = 0; g < 20; ++g) {
        State t = State::start(game, g, {});
        Pcg32 rng(g, 17);
        std::array<uint8_t, kNumActions> actions{};
        for (int step = 0; step < 150 && !t.position.is_terminal(); ++step) {
            const int actor = next_actor(t.position);
            const int n = Rules::legal_actions(t.position, actor, actions);
            t.apply(Move::of_action(actions[rng.below(static_cast<uint32_t>(n))]), actor);
            const std::string text = Rules::to_json(t);
            const State back = state_from_json(text);
            CHECK(Rules::to_json(back) == text);
            CHECK(Rules::render(back.position) == Rules::render(t.position));  // the whole table, every hand shown
            for (int seat = 0; seat < 4; ++seat)
                CHECK(legal_moves(back.position, seat) == legal_moves(t.position, seat));
        }
    }
    const std::string text = Rules::to_json(State::start(game, 3, {}));
    std::string broken = text;
    broken.replace(broken.find("\"hands\":[[\"") + 11, 2, "X9");
    try {
        state_from_json(broken);
        CHECK(false);
    } catch (const StateFormatError& e) {
        CHECK(std::string(e.what()).rfind("state JSON: hands[0][0]: ", 0) == 0);
    }
    CHECK_THROWS(StateFormatError, state_from_json(text.substr(0, text.size() - 1)));
    CHECK_THROWS(StateFormatError, state_from_json("{}"));
}

TEST(observation_shows_only_what_the_seat_may_know) {
    Options o;
    const State t = State::start(Game::from_options(o), 5, {});
    json::Tape tape;
    observation(t.position, 2, tape);
    const json::Value view = tape.value();
    const json::Object& d = view.as_object();
    CHECK(d.at("player").as_int64() == 2);
    CHECK(d.at("hand").as_array().size() == 6);
    CHECK(!d.contains("hands") && !d.contains("pile") && !d.contains("seed"));  // S7.1: secrets stay out
    CHECK(d.at("draw_pile").as_int64() == t.position.pile_size());
}

TEST(learned_bot_weights_are_checked) {
    const Game game = Game::from_options(Options{});
    const auto made = [&](const char* options) {
        return Rules::make_bot(game, "learned", json::parse(options, "options"));
    };
    CHECK_THROWS(OptionError, made(R"({"weights": [1, 2]})"));
    CHECK_THROWS(OptionError, made(R"({"weights": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, true]})"));
    CHECK_THROWS(OptionError, made(R"({"weights": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1e7]})"));
    CHECK_THROWS(OptionError, made(R"({"depth": 3})"));
    const auto zero = made(R"({"weights": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]})");
    CHECK(dynamic_cast<const LearnedBot&>(*zero).weights() == LearnedWeights{});
    CHECK(dynamic_cast<const LearnedBot&>(*made("{}")).weights() == kLearnedWeights);
}
