// What each game says of itself, once, beside its rules (`Rules::kInfo`), and the list of
// the games (diabolo/games.hpp): everything that lists games reads these, the Python
// module and diabolo.catalogue(), the C API (diabolo_games, diabolo_catalogue), JavaScript
// through it, the environments, OpenSpiel, the server and its browser client.
#pragma once

#include <string_view>
#include <vector>

namespace diabolo {

/// A game's entry in the catalogue.
struct GameInfo {
    const char* name;   // the id, as load("schacht") takes it
    const char* title;  // for people: "Diabolo (Schacht)"
    int min_players;    // the seats its default options allow
    int max_players;
    int min_players_any;  // the seats some options allow (Schacht: 2-8 without strict_players)
    int max_players_any;
    bool real_time;        // played without turns (the same as Rules::kRealTime)
    bool listed;           // false for a game that exists for the tests (contract suites) only
    const char* bots;      // the kinds of its bots, comma-separated and sorted
    const char* lexicon;   // the option naming a word list, the game's resource ("" if none)
    const char* stand_in;  // the bot kind that plays on for a person who leaves a game under way
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

/// The bot kinds of a game's entry, in order ("heuristic,ismcts,learned,random" as three views).
inline std::vector<std::string_view> bot_kinds(const GameInfo& info) {
    std::vector<std::string_view> kinds;
    for (std::string_view rest = info.bots; !rest.empty();) {
        const std::size_t comma = rest.find(',');
        kinds.push_back(rest.substr(0, comma));
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    return kinds;
}

/// Whether a game of `R` is made with a word list besides its options (kInfo.lexicon).
template <class R>
constexpr bool takes_lexicon() {
    return R::kInfo.lexicon[0] != '\0';
}

}  // namespace diabolo
