// What each game says of itself, once, beside its rules (`Rules::kInfo`), and the list of
// the games (diabolo/games.hpp): everything that lists games reads these, the Python
// module and diabolo.catalogue(), the C API (diabolo_games, diabolo_catalogue), JavaScript
// through it, the environments, OpenSpiel, the server and its browser client.
#pragma once

#include <string>
#include <string_view>

namespace diabolo {

/// A game's entry in the catalogue.
struct GameInfo {
    const char* name;   // the id, as load("schacht") takes it
    const char* title;  // for people: "Diabolo (Schacht)"
    int min_players;    // the seats its default options allow
    int max_players;
    bool real_time;       // played without turns (the same as Rules::kRealTime)
    bool listed;          // false for a game that exists for the tests (contract suites) only
    const char* bots;     // the kinds of its bots, comma-separated and sorted
    const char* lexicon;  // the option naming a word list, the game's resource ("" if none)
};

/// A list of games' Rules.
template <class... R>
struct GameList {};

/// A Rules as a value, to pass a game's type to a generic lambda: `[](auto game) {
/// using R = typename decltype(game)::Rules; ... }`.
template <class R>
struct GameTag {
    using Rules = R;
};

/// Calls `f(GameTag<R>{})` for each game of `List`, in order.
template <class... R, class F>
void for_each_game(GameList<R...>, F&& f) {
    (f(GameTag<R>{}), ...);
}

/// Whether `kinds` ("heuristic,ismcts,random") holds `kind`.
inline bool has_kind(std::string_view kinds, std::string_view kind) {
    while (!kinds.empty()) {
        const std::size_t comma = kinds.find(',');
        if (kinds.substr(0, comma) == kind) return true;
        if (comma == std::string_view::npos) break;
        kinds.remove_prefix(comma + 1);
    }
    return false;
}

}  // namespace diabolo
