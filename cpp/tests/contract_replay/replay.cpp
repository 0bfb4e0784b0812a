// The golden transcripts (tests/golden/transcripts, format in tests/transcripts.py) replayed
// from C++ through the contract (diabolo/core/contract.hpp) alone, with no C API between:
// each game's Rules, dispatched by name over the catalogue (diabolo/games.hpp). Every bot's
// answer, legal action, event, view and score must be the line's, the JSON character for
// character, as Python, C, C#, Rust, Cython and JavaScript replay them. Prints "NAME LINES"
// per file; exit 1 at the first difference, naming the file and line.
//   diabolo_contract_replay FILE...   (built and run by tests/test_cpp_core.py)
#include <cstdint>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "diabolo/core/events.hpp"
#include "diabolo/core/json.hpp"
#include "diabolo/games.hpp"

using namespace diabolo;

namespace {

struct Difference : std::runtime_error {
    using std::runtime_error::runtime_error;
};

void expect(bool same, const std::string& where) {
    if (!same) throw Difference(where);
}

/// The text after "<tag> " of a header line.
std::string header(const std::string& line, const std::string& tag) {
    expect(line.rfind(tag + " ", 0) == 0, "a " + tag + " line");
    return line.substr(tag.size() + 1);
}

std::string joined(const int32_t* values, int count, std::string text) {
    for (int i = 0; i < count; ++i) text += " " + std::to_string(values[i]);
    return text;
}

/// Replays the lines after the header for the game of R; returns the lines checked.
template <class R>
int replay(const std::vector<std::string>& lines, const std::string& name) {
    const typename R::Game game = R::game_from_json(json::parse(header(lines[2], "options"), "options"));
    typename R::State state =
        R::new_dealt_state(game, std::stoull(header(lines[4], "seed")), json::parse(header(lines[3], "deal"), "deal"));
    std::vector<int32_t> ids(static_cast<std::size_t>(R::num_actions(game)));
    std::unique_ptr<const typename R::Bot> bot;
    std::string kind;
    for (std::size_t i = 5; i < lines.size(); ++i) {
        const std::string& line = lines[i];
        const std::string where = name + ":" + std::to_string(i + 1) + ": " + line.substr(0, 120);
        std::istringstream fields(line);
        std::string tag, rest;
        int seat = 0;
        fields >> tag >> seat;
        std::getline(fields >> std::ws, rest);
        if (tag == "bot") {
            std::istringstream answer(line.substr(4));
            std::string bot_kind, action, delay, notation;
            int bot_seat = 0;
            uint64_t seed = 0;
            answer >> bot_kind >> bot_seat >> seed >> action >> delay >> notation;
            if (bot_kind != kind) bot = R::make_bot(game, kind = bot_kind, json::Object());
            Pcg32 rng(seed);
            const auto move = R::bot_move(*bot, R::position(state), bot_seat, rng);
            const std::string got = move ? std::to_string(R::action_of(game, *move)) + " " +
                                               std::to_string(R::bot_delay(*bot, *move, rng)) + " " +
                                               R::format_move(*move)
                                         : "-1 0 -";
            expect(got == action + " " + delay + " " + notation, where);
        } else if (tag == "legal") {
            const int count = R::legal_actions(R::position(state), seat, ids.data());
            expect(joined(ids.data(), count, "legal " + std::to_string(seat)) == line, where);
        } else if (tag == "move") {
            R::apply(state, R::parse_move(rest), seat);
        } else if (tag == "events") {
            json::Array seen;
            for (json::Value& event : events_seen_by(R::last_events(state), seat)) seen.emplace_back(std::move(event));
            expect(json::serialize(seen) == rest, where);
        } else if (tag == "view") {
            json::Tape view;
            if (seat == kEveryone) R::public_observation(R::position(state), view);
            else R::observation(R::position(state), seat, view);
            expect(view.text() == rest, where);
            expect(json::serialize(view.value()) == rest, where);  // the tape's value holds the same
        } else if (tag == "scores") {
            std::vector<int32_t> scores(static_cast<std::size_t>(R::players(game)));
            R::scores(R::position(state), scores.data());
            expect(joined(scores.data(), static_cast<int>(scores.size()), "scores") == line, where);
        } else if (line == "end") {
            return static_cast<int>(i) - 4;
        } else {
            throw Difference(where + ": an unknown line");
        }
    }
    throw Difference(name + ": no end line");
}

int replay_file(const std::string& path) {
    std::ifstream file(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(file, line);) lines.push_back(line);
    expect(lines.size() > 5 && lines[0] == "diabolo.transcript/1", path + ": not a transcript");
    const std::string game = header(lines[1], "game");
    int checked = -1;
    for_each_game(Games{}, [&](auto tag) {
        using R = typename decltype(tag)::Rules;
        if (game == R::kName) checked = replay<R>(lines, path);
    });
    expect(checked >= 0, path + ": no game " + game);
    return checked;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: diabolo_contract_replay FILE...\n";
        return 2;
    }
    try {
        for (int i = 1; i < argc; ++i) {
            const std::string path = argv[i];
            std::cout << path.substr(path.find_last_of("/\\") + 1) << " " << replay_file(path) << "\n";
        }
    } catch (const std::exception& e) {
        std::cerr << "differs: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
