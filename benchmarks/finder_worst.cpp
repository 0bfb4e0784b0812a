// The Knizia word finder (diabolo::knizia::find_words) against the finder it replaced
// (cpp/tests/knizia_finder_reference.hpp, a frozen copy), in one binary: speed on the
// tables of real games, time and memory on big tables (up to the whole German deck), and
// exact agreement on random tables. "new" is find_words as it runs (the tiling walk within
// its budget, else the prefix walk; see cpp/src/knizia/finder.cpp), "prefix" the prefix
// walk alone (its budget set to 0). POSIX only (fork, getrusage). Not part of the build;
// from the repository root:
//
//   cmake -S cpp -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build --target diabolo_core
//   c++ -std=c++17 -O3 -DNDEBUG -Icpp/include -Icpp/tests benchmarks/finder_worst.cpp
//       build/libdiabolo_core.a -lpthread -o finder_worst
//   zcat "$(python -c 'import diabolo; print(diabolo.Lexicon.load("de").source)')" > de.txt
//
//   ./finder_worst de.txt small [tables] [passes]   12-card tables: old, new and prefix,
//                                                   interleaved; the median pass per table
//   ./finder_worst de.txt big SIZE [seeds] [old]    tables of SIZE cards (66: the whole deck), each
//                                                   run in a child process: time and peak memory
//                                                   (with `old` the old finder too, capped at 8 GB)
//   ./finder_worst de.txt compare [tables] [seed]   random tables of 0..66 cards: old == new and
//                                                   old == prefix (find_words, forms_a_word)
//   ./finder_worst de.txt legal [seeds] [reps]      the legal claims (Rules::legal_actions) at
//                                                   tables of 0..66 cards with every joker of the
//                                                   deck first: find_words' words (the path before)
//                                                   against formable_words, checked equal; the
//                                                   worst table per size, best of reps each; the
//                                                   letter index's build time and size
//   ./finder_worst de.txt formable [seeds] [reps] [size]
//                                                   formable_words alone at the tables of `legal`
//                                                   (all sizes, or one size: for a profiler)
//
// Tables are drawn from the reconstructed German deck (python/diabolo/decks/de.json).
// Environment, for profiling: FINDER_PROFILE=old|new|prefix runs one finder over the small
// tables (FINDER_SET=0..2: one set); FINDER_MIN_CARDS=13 times the walks without records;
// FINDER_NO_DOUBLES=1 adds a set of tables without double letters; FINDER_VERBOSE=1 prints
// each compared table.
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "diabolo/core/rng.hpp"
#include "diabolo/knizia/knizia.hpp"
#include "knizia_finder_reference.hpp"

using namespace diabolo;
using namespace diabolo::knizia;
using Clock = std::chrono::steady_clock;

namespace {

/// find_words with the prefix walk alone (no tiling walk first).
FoundWords prefix_walk(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards) {
    return detail::find_words(lexicon, table, min_cards, 0);
}

}  // namespace

namespace {

const std::vector<std::pair<std::string, int>> kGermanDeck = {
    {"A", 4},  {"B", 1},  {"C", 1},  {"D", 2},  {"E", 5},  {"F", 1}, {"G", 2}, {"H", 1}, {"I", 2},
    {"J", 1},  {"K", 1},  {"L", 3},  {"M", 2},  {"N", 3},  {"O", 1}, {"P", 1}, {"Q", 1}, {"R", 3},
    {"S", 4},  {"T", 3},  {"U", 3},  {"V", 1},  {"W", 1},  {"X", 1}, {"Y", 1}, {"Z", 1}, {"CH", 2},
    {"EI", 1}, {"EN", 3}, {"ER", 2}, {"IE", 1}, {"ST", 1}, {"?", 4}, {"??", 2}};

std::vector<Card> deck(bool jokers = true) {
    std::vector<Card> cards;
    for (const auto& [text, count] : kGermanDeck) {
        const Card card = parse_card(text);
        if (!jokers && card.is_joker()) continue;
        for (int i = 0; i < count; ++i) cards.push_back(card);
    }
    return cards;
}

void shuffle(std::vector<Card>& cards, Pcg32& rng) {
    for (std::size_t i = cards.size(); i > 1; --i) std::swap(cards[i - 1], cards[rng.below(static_cast<uint32_t>(i))]);
}

/// The first `size` cards of a shuffled deck: the table of a game whose dealer kept revealing.
std::vector<Card> revealed(int size, uint64_t seed) {
    Pcg32 rng(seed, 11);
    std::vector<Card> cards = deck();
    shuffle(cards, rng);
    cards.resize(static_cast<std::size_t>(size));
    return cards;
}

std::string show(const std::vector<Card>& table) {
    std::string text;
    for (const Card& card : table) text += (text.empty() ? "" : " ") + format_card(card);
    return text;
}

Lexicon load(const char* path) {
    std::ifstream in(path);
    if (!in) {
        std::cerr << "cannot read " << path << "\n";
        std::exit(2);
    }
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return Lexicon::from_words(lines);
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

/// Whether the new finder's answer equals the old one's; prints the first difference.
bool same_as_old(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards, uint64_t budget, bool quiet);

/// Whether the finder (as it runs, and with the prefix walk alone) gives what the old one did.
bool same(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards, bool quiet = false) {
    const bool as_runs = same_as_old(lexicon, table, min_cards, detail::kTilingBudget, quiet);
    return same_as_old(lexicon, table, min_cards, 0, quiet) && as_runs;
}

bool same_as_old(const Lexicon& lexicon, const std::vector<Card>& table, int min_cards, uint64_t budget, bool quiet) {
    const FoundWords now = detail::find_words(lexicon, table, min_cards, budget);
    const std::vector<reference::Found1> then = reference::find_words(lexicon, table, min_cards);
    bool ok = now.size() == then.size();
    for (std::size_t i = 0; ok && i < now.size(); ++i) {
        const FoundWordView v = now[i];
        const reference::Found1 mine{v.index, std::string(v.word), std::vector<int>(v.cards, v.cards + v.card_count),
                                     v.jokers};
        if (!(mine == then[i])) {
            ok = false;
            if (!quiet) {
                std::cerr << "differ at " << v.word << " / " << then[i].word << ": new";
                for (int c : mine.cards) std::cerr << " " << c;
                std::cerr << " (" << mine.jokers << "), old";
                for (int c : then[i].cards) std::cerr << " " << c;
                std::cerr << " (" << then[i].jokers << ")\n";
            }
        }
    }
    if (!ok && !quiet)
        std::cerr << "table [" << show(table) << "] min_cards " << min_cards << ": " << now.size() << " vs "
                  << then.size() << " words\n";
    if (detail::forms_a_word(lexicon, table, min_cards, budget) != !then.empty()) {
        ok = false;
        if (!quiet) std::cerr << "forms_a_word differs on [" << show(table) << "]\n";
    }
    return ok;
}

// ---- small: the tables of real games ------------------------------------------------------------

int small(const Lexicon& lexicon, int count, int passes) {
    // As bench.py knizia: 12 letter cards (no joker), and 11 letter cards plus one `?`;
    // and, beyond it, 12 cards of the whole deck (jokers and double jokers as they come).
    struct Set {
        const char* name;
        std::vector<std::vector<Card>> tables;
    };
    std::vector<Set> sets = {{"12 letter cards", {}}, {"11 letter cards + ?", {}}, {"12 cards of the whole deck", {}}};
    if (std::getenv("FINDER_NO_DOUBLES")) sets.push_back({"11 single letters + ?", {}});
    Pcg32 rng(2024, 3);
    for (int i = 0; i < count; ++i) {
        std::vector<Card> letters = deck(false);
        shuffle(letters, rng);
        sets[0].tables.emplace_back(letters.begin(), letters.begin() + 12);
        std::vector<Card> one(letters.begin(), letters.begin() + 11);
        one.insert(one.begin() + rng.below(12), parse_card("?"));
        sets[1].tables.push_back(one);
        std::vector<Card> all = deck();
        shuffle(all, rng);
        sets[2].tables.emplace_back(all.begin(), all.begin() + 12);
        if (sets.size() > 3) {
            std::vector<Card> singles;
            for (const Card& card : letters) {
                if (card.kind == Card::Kind::Letter && singles.size() < 11) singles.push_back(card);
            }
            singles.insert(singles.begin() + rng.below(12), parse_card("?"));
            sets[3].tables.push_back(singles);
        }
    }
    if (const char* only = std::getenv("FINDER_PROFILE")) {  // one finder only, for a profiler: old, new, prefix
        volatile std::size_t sink = 0;
        const uint64_t budget = only[0] == 'p' ? 0 : detail::kTilingBudget;
        const char* which = std::getenv("FINDER_SET");  // "0", "1" or "2": that set only
        for (int pass = 0; pass < passes; ++pass) {
            for (const Set& set : sets) {
                if (which && &set - sets.data() != std::atoi(which)) continue;
                for (const auto& table : set.tables) {
                    sink = sink + (only[0] == 'o' ? reference::find_words_raw(lexicon, table, 3)
                                                  : detail::find_words(lexicon, table, 3, budget).size());
                }
            }
        }
        return 0;
    }
    int bad = 0;
    for (const Set& set : sets) {
        for (const auto& table : set.tables) bad += same(lexicon, table, 3) ? 0 : 1;
    }
    std::printf("%d tables per set, all checked old == new (%d differ); median over %d passes, interleaved\n", count,
                bad, passes);
    std::printf("%-28s %12s %12s %8s %14s %8s %10s %12s\n", "tables", "old us/table", "new us/table", "new/old",
                "prefix us/tab", "pre/old", "words", "assignments");
    for (const Set& set : sets) {
        std::vector<double> old_times, new_times, prefix_times;
        std::size_t words = 0, assignments = 0;
        for (const auto& table : set.tables) {
            std::size_t a = 0;
            words += reference::find_words(lexicon, table, 3, &a).size();
            assignments += a;
        }
        volatile std::size_t sink = 0;
        const int min_cards = std::getenv("FINDER_MIN_CARDS") ? std::atoi(std::getenv("FINDER_MIN_CARDS")) : 3;
        for (int pass = 0; pass < passes; ++pass) {
            auto start = Clock::now();
            for (const auto& table : set.tables) sink = sink + reference::find_words_raw(lexicon, table, min_cards);
            old_times.push_back(seconds_since(start));
            start = Clock::now();
            for (const auto& table : set.tables) sink = sink + find_words(lexicon, table, min_cards).size();
            new_times.push_back(seconds_since(start));
            start = Clock::now();
            for (const auto& table : set.tables) sink = sink + prefix_walk(lexicon, table, min_cards).size();
            prefix_times.push_back(seconds_since(start));
        }
        std::sort(old_times.begin(), old_times.end());
        std::sort(new_times.begin(), new_times.end());
        std::sort(prefix_times.begin(), prefix_times.end());
        const double o = old_times[old_times.size() / 2] / static_cast<double>(set.tables.size()) * 1e6;
        const double n = new_times[new_times.size() / 2] / static_cast<double>(set.tables.size()) * 1e6;
        const double w = prefix_times[prefix_times.size() / 2] / static_cast<double>(set.tables.size()) * 1e6;
        std::printf("%-28s %12.1f %12.1f %8.3f %14.1f %8.3f %10.1f %12.1f\n", set.name, o, n, n / o, w, w / o,
                    static_cast<double>(words) / static_cast<double>(set.tables.size()),
                    static_cast<double>(assignments) / static_cast<double>(set.tables.size()));
    }
    return bad == 0 ? 0 : 1;
}

// ---- big: time and memory in a child process ----------------------------------------------------

struct Run {
    bool finished = false;
    double seconds = 0;
    long peak_kb = 0;
    std::size_t words = 0;
};

/// Runs `work` in a child process (address space capped at `cap_mb`): wall time and the
/// child's peak resident set.
template <class Work>
Run in_child(Work work, long cap_mb) {
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) std::exit(3);
    const pid_t pid = fork();
    if (pid == 0) {
        close(pipe_fds[0]);
        rlimit limit{static_cast<rlim_t>(cap_mb) << 20, static_cast<rlim_t>(cap_mb) << 20};
        setrlimit(RLIMIT_AS, &limit);
        double result[2] = {0, 0};
        try {
            const auto start = Clock::now();
            result[1] = static_cast<double>(work());
            result[0] = seconds_since(start);
        } catch (...) {
            _exit(1);
        }
        if (write(pipe_fds[1], result, sizeof result) != sizeof result) _exit(1);
        _exit(0);
    }
    close(pipe_fds[1]);
    double result[2] = {0, 0};
    const bool got = read(pipe_fds[0], result, sizeof result) == sizeof result;
    close(pipe_fds[0]);
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    Run run;
    run.finished = got && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    run.seconds = result[0];
    run.words = static_cast<std::size_t>(result[1]);
    run.peak_kb = usage.ru_maxrss;
    return run;
}

int big(const Lexicon& lexicon, int size, int seeds, bool old) {
    const Run idle = in_child([] { return 0; }, 1 << 16);
    std::printf("child with the lexicon loaded, doing nothing: peak RSS %.1f MB (subtracted below)\n",
                static_cast<double>(idle.peak_kb) / 1024);
    std::printf("%-5s %-5s %8s %10s %12s %10s %12s %10s %12s\n", "cards", "seed", "words", "new s", "new MB",
                "prefix s", "prefix MB", "old s", "old MB");
    for (int seed = 0; seed < seeds; ++seed) {
        const std::vector<Card> table = revealed(size, static_cast<uint64_t>(seed));
        const Run now = in_child([&] { return find_words(lexicon, table, 3).size(); }, 1 << 16);
        const Run prefix = in_child([&] { return prefix_walk(lexicon, table, 3).size(); }, 1 << 16);
        std::printf("%-5d %-5d %8zu %10.3f %12.1f %10.3f %12.1f", size, seed, now.words, now.seconds,
                    static_cast<double>(now.peak_kb - idle.peak_kb) / 1024, prefix.seconds,
                    static_cast<double>(prefix.peak_kb - idle.peak_kb) / 1024);
        if (old) {
            const Run then = in_child([&] { return reference::find_words(lexicon, table, 3).size(); }, 8192);
            if (then.finished)
                std::printf(" %10.3f %12.1f", then.seconds, static_cast<double>(then.peak_kb - idle.peak_kb) / 1024);
            else std::printf(" %10s %12.1f", "out of mem", static_cast<double>(then.peak_kb - idle.peak_kb) / 1024);
            if (then.finished && then.words != now.words) std::printf("  WORD COUNTS DIFFER");
        }
        std::printf("\n");
        std::fflush(stdout);
    }
    return 0;
}

// ---- compare: random tables, old == new ---------------------------------------------------------

int compare(const Lexicon& german, int count, uint64_t seed) {
    Pcg32 rng(seed, 5);
    // The old finder needs minutes and gigabytes past about 30 cards with the whole list:
    // bigger tables are compared on a random part of it (every word of the list keeps its
    // own tilings, so the part is as hard per word).
    std::vector<std::string> all;
    for (uint32_t i = 0; i < german.size(); ++i) all.push_back(german.word_at(i));
    int bad = 0, tables = 0;
    const auto start = Clock::now();
    for (int i = 0; i < count; ++i) {
        const int size = static_cast<int>(rng.below(67));
        std::vector<Card> table = deck();
        shuffle(table, rng);
        table.resize(static_cast<std::size_t>(size));
        const int min_cards = rng.below(4) == 0 ? static_cast<int>(rng.below(6)) : 3;
        if (size <= 24) {
            bad += same(german, table, min_cards) ? 0 : 1;
        } else {
            // Fewer words the bigger the table: 2**(-(size - 24) / 4) of the list (1/3 at
            // 30 cards, 1/1500 at 66), which keeps the old finder's run within seconds.
            const double share = std::pow(2.0, -(size - 24) / 5.0);
            std::vector<std::string> part;
            for (const auto& word : all) {
                if (rng.uniform() < share) part.push_back(word);
            }
            bad += same(Lexicon::from_words(part), table, min_cards) ? 0 : 1;
        }
        ++tables;
        if (std::getenv("FINDER_VERBOSE")) std::printf("table %d: %d cards, %.1f s\n", i, size, seconds_since(start));
        if ((i + 1) % 100 == 0) {
            std::printf("%d tables, %d differ, %.0f s\n", tables, bad, seconds_since(start));
            std::fflush(stdout);
        }
    }
    std::printf("%d random tables of 0..66 cards compared with the old finder: %d differ\n", tables, bad);
    return bad == 0 ? 0 : 1;
}

// ---- legal: the legal claims, find_words against formable_words --------------------------------

/// The first `size` cards of a shuffled deck with its jokers (4 `?`, 2 `??`) revealed first:
/// the hardest tables for the legal claims of that size.
std::vector<Card> jokers_first(int size, uint64_t seed) {
    Pcg32 rng(seed, 13);
    std::vector<Card> jokers, rest;
    for (const Card& card : deck()) (card.is_joker() ? jokers : rest).push_back(card);
    shuffle(rest, rng);
    jokers.insert(jokers.end(), rest.begin(), rest.end());
    jokers.resize(static_cast<std::size_t>(size));
    return jokers;
}

/// The best of `reps` runs of `work`, in seconds.
template <class Work>
double best_of(int reps, Work work) {
    double best = 1e9;
    for (int rep = 0; rep < reps; ++rep) {
        const auto start = Clock::now();
        work();
        best = std::min(best, seconds_since(start));
    }
    return best;
}

int legal(const Lexicon& lexicon, int seeds, int reps) {
    auto start = Clock::now();
    const Lexicon::LetterIndex& index = lexicon.letter_index();
    std::printf("letter index: built in %.1f ms, %.1f MB\n", seconds_since(start) * 1e3,
                static_cast<double>(index.bytes()) / (1 << 20));
    std::printf("%-5s %9s %14s %14s %9s   (worst of %d tables per size, best of %d runs each)\n", "cards", "claims",
                "find_words ms", "formable ms", "ratio", seeds, reps);
    int bad = 0;
    double worst_new = 0;
    for (int size = 0; size <= 66; ++size) {
        double old_worst = 0, new_worst = 0;
        std::size_t claims = 0;
        for (int seed = 0; seed < seeds; ++seed) {
            const std::vector<Card> table = jokers_first(size, static_cast<uint64_t>(seed) * 1000 + 7);
            std::vector<uint32_t> before, after;
            const double o = best_of(reps, [&] {
                const FoundWords found = find_words(lexicon, table, 3);
                before.clear();
                for (std::size_t i = 0; i < found.size(); ++i) before.push_back(found[i].index);
            });
            const double n = best_of(reps, [&] { after = formable_words(lexicon, table, 3); });
            if (before != after) {
                ++bad;
                std::printf("DIFFER at [%s]\n", show(table).c_str());
            }
            old_worst = std::max(old_worst, o);
            new_worst = std::max(new_worst, n);
            claims = std::max(claims, after.size());
        }
        worst_new = std::max(worst_new, new_worst);
        std::printf("%-5d %9zu %14.2f %14.3f %9.4f\n", size, claims, old_worst * 1e3, new_worst * 1e3,
                    new_worst / std::max(old_worst, 1e-9));
        std::fflush(stdout);
    }
    std::printf("worst formable_words: %.3f ms; %d tables differ\n", worst_new * 1e3, bad);
    return bad == 0 ? 0 : 1;
}

/// formable_words alone, at the tables of legal(): the worst table per size, best of reps each.
int formable(const Lexicon& lexicon, int seeds, int reps, int only) {
    lexicon.letter_index();
    std::printf("%-5s %9s %14s   (worst of %d tables per size, best of %d runs each)\n", "cards", "claims",
                "formable ms", seeds, reps);
    double worst = 0;
    for (int size = only < 0 ? 0 : only; size <= (only < 0 ? 66 : only); ++size) {
        double size_worst = 0;
        std::size_t claims = 0;
        for (int seed = 0; seed < seeds; ++seed) {
            const std::vector<Card> table = jokers_first(size, static_cast<uint64_t>(seed) * 1000 + 7);
            std::vector<uint32_t> words;
            size_worst = std::max(size_worst, best_of(reps, [&] { words = formable_words(lexicon, table, 3); }));
            claims = std::max(claims, words.size());
        }
        worst = std::max(worst, size_worst);
        std::printf("%-5d %9zu %14.3f\n", size, claims, size_worst * 1e3);
        std::fflush(stdout);
    }
    std::printf("worst formable_words: %.3f ms\n", worst * 1e3);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: finder_worst WORDS.txt small|big|compare|legal|formable ...\n";
        return 2;
    }
    const auto start = Clock::now();
    const Lexicon lexicon = load(argv[1]);
    std::printf("lexicon: %zu words, %zu DAWG nodes, built in %.2f s\n", lexicon.size(), lexicon.node_count(),
                seconds_since(start));
    const std::string mode = argv[2];
    const auto arg = [&](int i, long fallback) { return argc > i ? std::atol(argv[i]) : fallback; };
    if (mode == "small") return small(lexicon, static_cast<int>(arg(3, 200)), static_cast<int>(arg(4, 7)));
    if (mode == "big")
        return big(lexicon, static_cast<int>(arg(3, 66)), static_cast<int>(arg(4, 3)),
                   argc > 5 && std::string(argv[5]) == "old");
    if (mode == "legal") return legal(lexicon, static_cast<int>(arg(3, 5)), static_cast<int>(arg(4, 3)));
    if (mode == "formable")
        return formable(lexicon, static_cast<int>(arg(3, 5)), static_cast<int>(arg(4, 3)),
                        static_cast<int>(arg(5, -1)));
    if (mode == "compare") return compare(lexicon, static_cast<int>(arg(3, 500)), static_cast<uint64_t>(arg(4, 1)));
    std::cerr << "unknown mode " << mode << "\n";
    return 2;
}
