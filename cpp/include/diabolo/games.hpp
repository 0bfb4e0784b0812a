// The games of the engine: one line each. The Python module, the C API (and JavaScript
// through it) and the generic tests read this list; each game says the rest of what it is
// in its Rules::kInfo (core/catalogue.hpp). "How to add a game" in docs/contract.rst lists
// what a new game brings besides this line.
#pragma once

#include "diabolo/core/catalogue.hpp"
#include "diabolo/core/json.hpp"
#include "diabolo/duvelen/duvelen.hpp"
#include "diabolo/highcard/highcard.hpp"
#include "diabolo/knizia/knizia.hpp"
#include "diabolo/schacht/schacht.hpp"

namespace diabolo {

using Games = GameList<duvelen::Rules, highcard::Rules, knizia::Rules, schacht::Rules>;

/// The catalogue as data: each game's entry, test-only games included ("listed" false),
/// as the C API's diabolo_catalogue and Python's diabolo.catalogue() give it.
inline json::Value catalogue_json() {
    json::Array games;
    for_each_game(Games{}, [&](auto tag) {
        const GameInfo& info = decltype(tag)::Rules::kInfo;
        static_assert(decltype(tag)::Rules::kInfo.stand_in[0] != '\0',
                      "kInfo.stand_in: the bot kind that plays on for a person who leaves");
        json::Array bots;
        for (const std::string_view kind : bot_kinds(info)) bots.emplace_back(boost::json::string(kind));
        json::Object game;
        game["name"] = info.name;
        game["title"] = info.title;
        game["min_players"] = info.min_players;
        game["max_players"] = info.max_players;
        game["min_players_any"] = info.min_players_any;
        game["max_players_any"] = info.max_players_any;
        game["real_time"] = info.real_time;
        game["listed"] = info.listed;
        game["bots"] = std::move(bots);
        game["lexicon"] = info.lexicon[0] != '\0' ? json::Value(info.lexicon) : json::Value(nullptr);
        game["stand_in"] = info.stand_in;
        games.emplace_back(std::move(game));
    });
    return games;
}

}  // namespace diabolo
