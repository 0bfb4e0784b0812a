// Every multi-threaded path of the core (batch play, matches, real-time simulation,
// ISMCTS) on 1, 2 and 8 threads: the results must not depend on the thread count, and
// the ThreadSanitizer build of these tests (-DDIABOLO_TSAN=ON) must find no race.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "check.hpp"
#include "diabolo/core/batch.hpp"
#include "diabolo/core/match.hpp"
#include "diabolo/core/parallel.hpp"
#include "diabolo/duvelen/duvelen.hpp"
#include "diabolo/knizia/knizia.hpp"
#include "diabolo/schacht/schacht.hpp"

using namespace diabolo;

namespace {

constexpr int kThreadCounts[] = {2, 8};

}  // namespace

TEST(threads_schacht_random_play_matches_and_search) {
    schacht::Options o;
    o.players = 4;
    const schacht::Game config = schacht::Game::from_options(o);
    const RandomPlayResult one = play_random<schacht::Rules>(config, 40, 9, 1);
    const schacht::RandomBot random;
    const schacht::HeuristicBot heuristic;
    const std::vector<const schacht::Bot*> bots = {&heuristic, &random, &heuristic, &random};
    const MatchResult match = play_match<schacht::Rules>(config, bots, 24, 3, 1);
    schacht::SearchOptions search;
    search.iterations = 60;
    const schacht::Position start = schacht::new_game(config, 5);
    const int actor = schacht::next_actor(start);
    search.threads = 1;
    const schacht::SearchResult alone = schacht::ismcts(start, actor, search, 11);
    for (const int threads : kThreadCounts) {
        const RandomPlayResult many = play_random<schacht::Rules>(config, 40, 9, threads);
        CHECK(many.scores == one.scores && many.moves == one.moves);
        const MatchResult parallel = play_match<schacht::Rules>(config, bots, 24, 3, threads);
        CHECK(parallel.scores == match.scores && parallel.moves == match.moves);
        search.threads = threads;
        const schacht::SearchResult trees = schacht::ismcts(start, actor, search, 11);
        CHECK(trees.moves == alone.moves);
        CHECK(std::find(trees.moves.begin(), trees.moves.end(), trees.best) != trees.moves.end());
    }
}

TEST(threads_duvelen_random_play_and_simulation) {
    duvelen::Options o;
    o.players = 3;
    const duvelen::Game config = duvelen::Game::from_options(o);
    const duvelen::GreedyBot greedy(duvelen::default_reaction());
    const duvelen::LookaheadBot lookahead(duvelen::default_reaction());
    const std::vector<const duvelen::Bot*> bots = {&greedy, &lookahead, &greedy};
    const RandomPlayResult one = play_random<duvelen::Rules>(config, 12, 4, 1);
    const realtime::Batch alone = realtime::simulate_many<duvelen::Rules>(config, bots, 12, 4, 1, realtime::Limits{});
    for (const int threads : kThreadCounts) {
        const RandomPlayResult many = play_random<duvelen::Rules>(config, 12, 4, threads);
        CHECK(many.scores == one.scores && many.moves == one.moves);
        const realtime::Batch batch =
            realtime::simulate_many<duvelen::Rules>(config, bots, 12, 4, threads, realtime::Limits{});
        CHECK(batch.scores == alone.scores && batch.actions == alone.actions && batch.time == alone.time);
    }
    // A match: game g is game g of simulate_many with the bots of that game's seats, so
    // the games where bot b sits in seat b (g % 3 == 0) agree; any thread count.
    const MatchResult match = play_match<duvelen::Rules>(config, bots, 12, 4, 1);
    for (int g = 0; g < 12; g += 3) {
        for (int seat = 0; seat < 3; ++seat)
            CHECK(match.scores[static_cast<std::size_t>(g * 3 + seat)] ==
                  alone.scores[static_cast<std::size_t>(g * 3 + seat)]);
    }
    for (const int threads : kThreadCounts) {
        const MatchResult many = play_match<duvelen::Rules>(config, bots, 12, 4, threads);
        CHECK(many.scores == match.scores && many.moves == match.moves);
    }
}

TEST(threads_knizia_random_play_and_simulation) {
    // Bots share one lexicon (read only) across threads.
    const auto lexicon = std::make_shared<const Lexicon>(
        Lexicon::from_words({"Tor", "Rot", "Ort", "Tore", "Rote", "Rest", "Rast", "Rate", "Stern", "Star", "Nest",
                             "Ernst", "Nase", "Rasen", "Aster", "Taste", "Senat", "Osten"}));
    knizia::Options o;
    o.players = 3;
    o.deck.kinds = {knizia::parse_card("A"), knizia::parse_card("E"), knizia::parse_card("N"), knizia::parse_card("O"),
                    knizia::parse_card("R"), knizia::parse_card("S"), knizia::parse_card("T"), knizia::parse_card("ST"),
                    knizia::parse_card("?"), knizia::parse_card("??")};
    o.deck.counts = {3, 4, 2, 2, 3, 3, 4, 1, 1, 1};
    const knizia::Game game = knizia::Game::make(o, lexicon);
    const knizia::WordBot word(knizia::default_reaction(), knizia::kDefaultPerLetter, knizia::Vocabulary{});
    const knizia::WordBot lookahead(knizia::default_reaction(), knizia::kDefaultPerLetter, knizia::Vocabulary{}, true);
    const std::vector<const knizia::Bot*> bots = {&word, &lookahead, &word};
    const RandomPlayResult one = play_random<knizia::Rules>(game, 12, 6, 1);
    const realtime::Batch alone = realtime::simulate_many<knizia::Rules>(game, bots, 12, 6, 1, realtime::Limits{});
    for (const int threads : kThreadCounts) {
        const RandomPlayResult many = play_random<knizia::Rules>(game, 12, 6, threads);
        CHECK(many.scores == one.scores && many.moves == one.moves);
        const realtime::Batch batch =
            realtime::simulate_many<knizia::Rules>(game, bots, 12, 6, threads, realtime::Limits{});
        CHECK(batch.scores == alone.scores && batch.actions == alone.actions && batch.time == alone.time);
    }
}

TEST(threads_an_interrupted_batch_stops_and_keeps_what_it_did) {
    // One thread: the caller asks before each block, so it stops after exactly 3 blocks
    // (100,000 items in blocks of 256).
    std::vector<int> alone(100'000, 0);
    int asked = 0;
    in_parallel(
        static_cast<int>(alone.size()), 1,
        [&](int first, int last) {
            for (int i = first; i < last; ++i) ++alone[static_cast<std::size_t>(i)];
        },
        [&] { return ++asked > 3; });
    CHECK(asked == 4);
    CHECK(std::count(alone.begin(), alone.end(), 1) == 3 * 256);
    for (const int threads : kThreadCounts) {
        std::vector<std::atomic<int>> done(100'000);
        asked = 0;
        in_parallel(
            static_cast<int>(done.size()), threads,
            [&](int first, int last) {
                for (int i = first; i < last; ++i) done[static_cast<std::size_t>(i)].fetch_add(1);
            },
            [&] { return ++asked > 3; });
        CHECK(asked <= 4);
        for (const auto& count : done) CHECK(count.load() <= 1);  // no item twice
        // Without an interrupt every item is done once.
        std::vector<std::atomic<int>> all(1000);
        in_parallel(static_cast<int>(all.size()), threads, [&](int first, int last) {
            for (int i = first; i < last; ++i) all[static_cast<std::size_t>(i)].fetch_add(1);
        });
        for (const auto& count : all) CHECK(count.load() == 1);
    }
}

TEST(threads_an_exception_in_any_thread_reaches_the_caller) {
    // Work that throws in some block, on whichever thread takes it: the batch stops and the
    // caller gets the exception (an exception leaving a thread would end the process).
    for (const int threads : {1, 2, 8}) {
        for (const int bad : {0, 500, 99'999}) {
            std::atomic<int> done{0};
            bool thrown = false;
            try {
                in_parallel(100'000, threads, [&](int first, int last) {
                    if (first <= bad && bad < last) throw LimitError("block of item " + std::to_string(bad));
                    done.fetch_add(last - first);
                });
            } catch (const LimitError& e) {
                thrown = std::string(e.what()) == "block of item " + std::to_string(bad);
            }
            CHECK(thrown);
            CHECK(done.load() < 100'000);
        }
    }
}

TEST(threads_a_team_runs_batch_after_batch_of_any_size) {
    // A search runs a batch per round on one Team: batches of 0, 1, a few and many items,
    // one after another with nothing in between (the workers still awake) and after a pause
    // (the workers asleep), each item done exactly once per batch; an exception in one
    // batch reaches the caller and the next batch runs as usual.
    for (const int threads : {1, 2, 8}) {
        Team team(threads);
        CHECK(team.threads() == threads);
        std::vector<std::atomic<int>> done(5000);
        std::vector<int> wanted(5000, 0);
        for (int round = 0; round < 200; ++round) {
            const int items = round % 7 == 0 ? 0 : round % 5 == 0 ? 1 : round % 3 == 0 ? 5000 : 37;
            team.run(items, [&](int first, int last) {
                for (int i = first; i < last; ++i) done[static_cast<std::size_t>(i)].fetch_add(1);
            });
            for (int i = 0; i < items; ++i) ++wanted[static_cast<std::size_t>(i)];
            CHECK(done[0].load() == wanted[0]);  // the batch is over when run returns
            if (round % 50 == 49) std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        for (std::size_t i = 0; i < done.size(); ++i) CHECK(done[i].load() == wanted[i]);
        bool thrown = false;
        try {
            team.run(1000, [&](int first, int last) {
                if (first <= 600 && 600 < last) throw LimitError("item 600");
            });
        } catch (const LimitError& e) {
            thrown = std::string(e.what()) == "item 600";
        }
        CHECK(thrown);
        std::atomic<int> after{0};
        team.run(1000, [&](int first, int last) { after.fetch_add(last - first); });
        CHECK(after.load() == 1000);
    }
    bool refused = false;
    try {
        Team none(0);
    } catch (const OptionError&) {
        refused = true;
    }
    CHECK(refused);
}

TEST(threads_a_search_bot_keeps_its_threads_and_searches_as_ismcts_does) {
    // IsmctsBot keeps a team between its searches (KeptTeam): each search gives what
    // ismcts() gives with a team of its own, and so do searches of one bot (and its copy,
    // which shares the team) from two threads at once, one of them on a team of its own.
    schacht::Options o;
    o.players = 4;
    const schacht::Game config = schacht::Game::from_options(o);
    schacht::SearchOptions search;
    search.iterations = 80;
    search.heuristic_rollouts = false;
    std::vector<schacht::Position> starts;
    for (uint64_t seed = 0; seed < 6; ++seed) starts.push_back(schacht::new_game(config, seed));
    for (const int threads : {2, 3}) {
        search.threads = threads;
        const schacht::IsmctsBot bot(search);
        const schacht::IsmctsBot copy = bot;
        std::vector<schacht::SearchResult> alone;
        for (std::size_t i = 0; i < starts.size(); ++i)
            alone.push_back(schacht::ismcts(starts[i], schacht::next_actor(starts[i]), search, i));
        const auto same = [&](const schacht::IsmctsBot& b, std::size_t i) {
            const schacht::SearchResult kept = b.search(starts[i], schacht::next_actor(starts[i]), i);
            return kept.visits == alone[i].visits && kept.values == alone[i].values && kept.best == alone[i].best;
        };
        for (int pass = 0; pass < 2; ++pass)
            for (std::size_t i = 0; i < starts.size(); ++i) CHECK(same(bot, i));
        std::atomic<int> agreed{0};
        std::thread other([&] {
            for (std::size_t i = 0; i < starts.size(); ++i) agreed += same(copy, i) ? 1 : 0;
        });
        for (std::size_t i = 0; i < starts.size(); ++i) agreed += same(bot, i) ? 1 : 0;
        other.join();
        CHECK(agreed.load() == 2 * static_cast<int>(starts.size()));
    }
}
