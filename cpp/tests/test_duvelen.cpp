// Tests of the Duvelen core: deals, the worked example (D5.6), the block rule, and
// random games under the invariant checker (which the sanitizer build runs too).
#include <cstring>
#include <string>
#include <vector>

#include "check.hpp"
#include "diabolo/core/json.hpp"
#include "diabolo/core/rng.hpp"
#include "diabolo/duvelen/duvelen.hpp"

using namespace diabolo;
using namespace diabolo::duvelen;

namespace {

/// A deck with the named cards first (in that order), then the rest ascending.
Deck deck_starting(const std::vector<std::string>& first) {
    Deck deck{};
    uint64_t used = 0;
    std::size_t next = 0;
    for (const auto& text : first) {
        const int card = parse_card(text);
        deck[next++] = static_cast<uint8_t>(card);
        used |= card_bit(card);
    }
    for (int card = 0; card < kDeckCards; ++card) {
        if (!(used & card_bit(card))) deck[next++] = static_cast<uint8_t>(card);
    }
    return deck;
}

Game config_of(int players, int rounds = 1) {
    Options o;
    o.players = players;
    o.rounds = rounds;
    return Game::from_options(o);
}

}  // namespace

TEST(duvelen_notation_round_trips) {
    for (const char* text :
         {"R2:7h>3", "S:Ah>new", "W:10s>32", "R2>3", "turn", "recycle", "recycle^", "stop", "pass"}) {
        CHECK(Rules::format_move(parse_move(text)) == text);
    }
    CHECK_THROWS(NotationError, parse_move("R5:7h>3"));
    CHECK_THROWS(NotationError, parse_move("R2:7x>3"));
    CHECK_THROWS(NotationError, parse_move("R2:7h>33"));
    CHECK_THROWS(NotationError, parse_move("R2:7h>0"));
    CHECK_THROWS(NotationError, parse_card("11h"));
}

TEST(duvelen_deal_follows_D2_5) {
    std::vector<Deck> decks = {deck_starting({"5h", "Ah"}), deck_starting({})};
    const Position s = new_game(config_of(2), 1, &decks);
    CHECK(s.seats[0].stok_top() == parse_card("5h"));
    CHECK(s.seats[0].stok_count == 13);
    CHECK(s.seats[0].draaistok_count() == 35);
    CHECK(s.seats[0].waste_count == 0);
    // Seat 1's deck is in order: Ah..Kh form the Stok, Ad..4d the Rij.
    CHECK(s.seats[1].rij[0] == parse_card("Ad"));
    const std::vector<Move> moves = legal_moves(s, 1);
    CHECK(Rules::format_move(moves[0]) == "S:Ah>new");
    CHECK(Rules::format_move(moves[1]) == "R1:Ad>new");
}

TEST(duvelen_plays_refill_and_complete_a_herenhoop) {
    // Seat 0's Rij holds Ah..4h and its Stok starts 5h..Kh: playing R1..R4 then S up to K.
    std::vector<Deck> decks = {deck_starting({"5h", "6h", "7h", "8h", "9h", "10h", "Jh", "Qh", "Kh", "Ad", "2d", "3d",
                                              "4d", "Ah", "2h", "3h", "4h"}),
                               deck_starting({})};
    Position s = new_game(config_of(2), 1, &decks);
    apply(s, parse_move("R1:Ah>new"), 0);
    CHECK(s.seats[0].rij[0] == parse_card("5h"));  // D3.4: refilled from the Stok
    apply(s, parse_move("R2:2h>1"), 0);
    apply(s, parse_move("R3:3h>1"), 0);
    apply(s, parse_move("R4:4h>1"), 0);
    apply(s, parse_move("R1:5h>1"), 0);
    CHECK_THROWS(IllegalMoveError, apply(s, parse_move("R1:5h>1"), 0));  // D3.10: R1 holds another card now
    // Short forms name the source only: the refilled slots now hold 6h, 7h, 8h, 9h.
    for (const char* move : {"R2>1", "R3>1", "R4>1", "R1>1"}) apply(s, parse_move(move), 0);
    CHECK(s.piles[0].top == 9);
    // Each play refilled its slot from the Stok: 10h, Jh, Qh, Kh came up in turn.
    for (const char* move : {"R2:10h>1", "R3:Jh>1", "R4:Qh>1"}) apply(s, parse_move(move), 0);
    CHECK(s.wanted & card_bit(parse_card("Kh")));
    CHECK(s.seats[0].stok_top() == parse_card("4d"));  // Ad, 2d, 3d refilled R2-R4
    apply(s, parse_move("R1:Kh>1"), 0);                // D3.9: seat 0 holds the Herenhoop
    CHECK(s.piles[0].holder == 0 && s.herenhoop_count == 1);
    CHECK(!(s.wanted & card_bit(parse_card("Kh"))));
    CHECK(check_invariants(s).empty());
}

TEST(duvelen_worked_example_D5_6) {
    Position s = new_game(config_of(2), 3);
    // Build the scoring position directly: seat 0 has 3 cards left in its Stok, a
    // Herenhoop with 4 own cards, and 15 own cards in the centre or seat 1's Herenhoop.
    s.seats[0].stok_count = 3;
    s.pile_count = 3;
    Pile own{};
    own.suit = 0;
    own.top = 13;
    own.holder = 0;
    own.completed = 1;
    for (int r = 0; r < 13; ++r) own.owners[static_cast<std::size_t>(r)] = r < 4 ? 0 : 1;
    Pile theirs{};
    theirs.suit = 1;
    theirs.top = 13;
    theirs.holder = 1;
    theirs.completed = 2;
    for (int r = 0; r < 13; ++r) theirs.owners[static_cast<std::size_t>(r)] = r < 10 ? 0 : 1;
    Pile centre{};
    centre.suit = 2;
    centre.top = 5;
    centre.holder = -1;
    for (int r = 0; r < 5; ++r) centre.owners[static_cast<std::size_t>(r)] = 0;
    s.piles[0] = own;
    s.piles[1] = theirs;
    s.piles[2] = centre;
    CHECK(round_scores(s)[0] == -6 + 8 + 15);
}

TEST(duvelen_random_games_keep_every_invariant) {
    for (int players = 2; players <= 6; players += 2) {
        Options o;
        o.players = players;
        o.rounds = 2;
        o.max_actions = 3000;
        const Game game = Game::from_options(o);
        for (uint64_t g = 0; g < 12; ++g) {
            Position s = new_game(game, g);
            Pcg32 rng(g, 5);
            int steps = 0;
            while (!s.is_terminal() && steps < 20000) {
                const std::string problem = check_invariants(s);
                CHECK(problem.empty());
                if (!problem.empty()) {
                    std::cerr << problem << "\n" << Rules::render(s);
                    return;
                }
                const int player = static_cast<int>(rng.below(static_cast<uint32_t>(players)));
                const std::vector<Move> moves = legal_moves(s, player);
                if (moves.empty()) continue;
                const Move move = moves[rng.below(static_cast<uint32_t>(moves.size()))];
                CHECK(!Rules::why_illegal(s, move, player).has_value());
                CHECK(check_invariants(resample(s, g)).empty());
                const Position remembered = resample(s, g, Memory::WasteTops);
                CHECK(check_invariants(remembered).empty());
                for (int q = 0; q < players; ++q) {  // what has been a waste's top stays put
                    const Seat& seat = s.seats[static_cast<std::size_t>(q)];
                    for (int i = 0; i < seat.cycle_count; ++i) {
                        const uint8_t card = seat.cycle[static_cast<std::size_t>(i)];
                        if (seat.seen & card_bit(card)) {
                            CHECK(remembered.seats[static_cast<std::size_t>(q)].cycle[static_cast<std::size_t>(i)] ==
                                  card);
                        }
                    }
                }
                apply(s, move, player);
                ++steps;
            }
            CHECK(s.is_terminal());
            CHECK(check_invariants(s).empty());
        }
    }
}

TEST(duvelen_greedy_simulations_finish_and_replay) {
    const Game game = config_of(4, 2);
    const GreedyBot greedy(default_reaction());
    const RandomBot random(default_reaction());
    const std::vector<const Bot*> bots = {&greedy, &greedy, &random, &greedy};
    for (uint64_t seed = 0; seed < 10; ++seed) {
        const Position start = new_game(game, seed);
        const auto run = realtime::simulate<Rules>(start, bots, seed, realtime::Limits{});
        CHECK(run.state.is_terminal());
        CHECK(run.accepted > 0);
        // Replaying the accepted moves in order reproduces the final state exactly.
        Position replay = start;
        double last = 0.0;
        for (const auto& step : run.log) {
            CHECK(step.time >= last);
            last = step.time;
            if (step.accepted) apply(replay, step.move, step.player);
        }
        CHECK(std::memcmp(&replay, &run.state, sizeof(Position)) == 0);
    }
    const realtime::Batch one = realtime::simulate_many<Rules>(game, bots, 12, 7, 1, realtime::Limits{});
    const realtime::Batch two = realtime::simulate_many<Rules>(game, bots, 12, 7, 2, realtime::Limits{});
    CHECK(one.scores == two.scores && one.actions == two.actions && one.time == two.time);
}

TEST(duvelen_the_tops_of_a_seats_waste_are_remembered_and_resample_keeps_them) {
    // D3.7, D8.2: a turn shows its last card only; Seat::seen holds every card that has
    // been the seat's waste top, and a recycle (D3.8) brings others up. The contract's
    // resample forgets it (D8.2); resample(..., Memory::WasteTops) deals only the rest anew.
    Position s = new_game(config_of(2), 4);
    Seat& seat = s.seats[0];
    CHECK(seat.seen == 0);
    apply(s, Move::of_kind(MoveKind::Turn), 0);
    CHECK(seat.seen == card_bit(seat.cycle[2]));
    uint64_t tops = 0;
    for (int i = 2; i < kCycleCards; i += kTurnCards) tops |= card_bit(seat.cycle[static_cast<std::size_t>(i)]);
    while (seat.draaistok_count() > 0) apply(s, Move::of_kind(MoveKind::Turn), 0);
    tops |= card_bit(seat.waste_top());  // 35 cards: the last turn has two
    CHECK(seat.seen == tops);
    apply(s, Move::of_kind(MoveKind::RecycleUp), 0);  // the cards shift by one: a new top
    CHECK(seat.seen == (tops | card_bit(seat.waste_top())) && seat.waste_count == kTurnCards);
    CHECK(s.seats[1].seen == 0);
    bool dealt_anew = false;
    for (uint64_t seed = 0; seed < 8; ++seed) {
        const Position remembered = resample(s, seed, Memory::WasteTops);
        for (int i = 0; i < seat.cycle_count; ++i) {
            const uint8_t card = seat.cycle[static_cast<std::size_t>(i)];
            CHECK(!(seat.seen & card_bit(card)) || remembered.seats[0].cycle[static_cast<std::size_t>(i)] == card);
        }
        CHECK(remembered.seats[0].seen == seat.seen);
        const Position forgotten = resample(s, seed);
        dealt_anew = dealt_anew || std::memcmp(&forgotten.seats[0].cycle, &seat.cycle, sizeof(seat.cycle)) != 0;
        CHECK(forgotten.seats[0].seen == card_bit(seat.waste_top()));
    }
    CHECK(dealt_anew);
    // The memory survives the state's JSON, and a state written without it has seen its
    // waste's top.
    State t = State::start(config_of(2), 4);
    t.apply(Move::of_kind(MoveKind::Turn), 1);
    const std::string text = Rules::to_json(t);
    CHECK(text.find("\"seen\"") != std::string::npos);
    CHECK(state_from_json(text).position.seats[1].seen == t.position.seats[1].seen);
    std::string old = text;
    for (std::size_t at = old.find(",\"seen\""); at != std::string::npos; at = old.find(",\"seen\"")) {
        old.erase(at, old.find(']', at) + 1 - at);
    }
    CHECK(state_from_json(old).position.seats[1].seen == t.position.seats[1].seen);
    // A memory of a card outside the cycle is refused.
    std::string bad = text;
    const std::size_t seen_at = bad.find("\"seen\":[]");
    CHECK(seen_at != std::string::npos);
    bad.replace(seen_at, 9, "\"seen\":[\"" + format_card(t.position.seats[0].stok[0]) + "\"]");
    CHECK_THROWS(StateFormatError, state_from_json(bad));
}

TEST(duvelen_search_bot_games_do_not_depend_on_threads) {
    // The same seeds give the same games on 1 and 2 threads (the search bot made through
    // the contract's one factory).
    const Game game = config_of(3, 2);
    const auto search = Rules::make_bot(game, "search", json::parse(R"({"worlds": 4, "horizon": 3})", "options"));
    const auto lookahead = Rules::make_bot(game, "lookahead", json::parse("{}", "options"));
    const std::vector<const Bot*> bots = {search.get(), lookahead.get(), search.get()};
    const realtime::Batch one = realtime::simulate_many<Rules>(game, bots, 6, 5, 1, realtime::Limits{});
    const realtime::Batch two = realtime::simulate_many<Rules>(game, bots, 6, 5, 2, realtime::Limits{});
    CHECK(one.scores == two.scores && one.actions == two.actions && one.time == two.time);
}

TEST(duvelen_search_bot_games_finish_and_its_options_are_checked) {
    // Every game ends, and the search is made through the contract's one factory with its
    // options checked. One thread: the ThreadSanitizer build leaves this part out.
    const Game game = config_of(3, 2);
    const auto search = Rules::make_bot(game, "search", json::parse(R"({"worlds": 4, "horizon": 3})", "options"));
    const auto lookahead = Rules::make_bot(game, "lookahead", json::parse("{}", "options"));
    const std::vector<const Bot*> bots = {search.get(), lookahead.get(), search.get()};
    for (int i = 0; i < 6; ++i) {
        const Position start = new_game(game, derive_seed(5, static_cast<uint64_t>(i)));
        CHECK(realtime::simulate<Rules>(start, bots, 11, realtime::Limits{}, false).state.is_terminal());
    }
    CHECK_THROWS(OptionError, Rules::make_bot(game, "search", json::parse(R"({"worlds": 0})", "o")));
    CHECK_THROWS(OptionError, Rules::make_bot(game, "search", json::parse(R"({"worlds": 257})", "o")));
    CHECK_THROWS(OptionError, Rules::make_bot(game, "search", json::parse(R"({"horizon": 31})", "o")));
    CHECK_THROWS(OptionError, Rules::make_bot(game, "lookahead", json::parse(R"({"worlds": 4})", "o")));
}
