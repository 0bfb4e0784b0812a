// Events: what a move changed at the table, in order, each with who may see it
// (docs/frontend.rst lists every game's events).
//
// A checked move (Rules::apply) causes events: a card placed, drawn, shown, a row closed,
// a colour scored, a round ended with its final table... Engine-driven steps that are
// not moves (automatic draws, refills, Duvelen's D4.3 flip) are events of the move that
// caused them. An event is public, or private to one seat; a private event may have a
// public counterpart that everyone else sees instead ("seat 2 drew a card"). A client
// fed only the events its seat sees can keep its seat's view up to date, and a
// spectator's client the public view (tests/contract/test_events.py checks both).
//
// Events are written on demand: a State keeps the position before its last move, and
// Rules::last_events replays that move with an EventLog. So apply() costs nothing more
// for the frontends and searches that never ask for events.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "diabolo/core/json.hpp"
#include "diabolo/core/scores.hpp"

namespace diabolo {

/// The audience of a public event, and the viewer of a spectator.
constexpr int kEveryone = -1;

/// One event: its data ({"type": "placed", "seat": 1, ...}), and who sees it.
struct Event {
    int visible_to = kEveryone;  // kEveryone: public; else the one seat that sees `data`
    json::Value data;
    json::Value redacted;  // what everyone else sees of a private event; null: nothing
};

using Events = std::vector<Event>;

/// What `viewer` (a seat, or kEveryone for a spectator) sees of `event`: its data, its
/// redacted form, or nothing (nullptr).
inline const json::Value* seen_by(const Event& event, int viewer) noexcept {
    if (event.visible_to == kEveryone || event.visible_to == viewer) return &event.data;
    return event.redacted.is_null() ? nullptr : &event.redacted;
}

/// The events as `viewer` (a seat, or kEveryone for a spectator) sees them, in order.
inline std::vector<json::Value> events_seen_by(const Events& events, int viewer) {
    std::vector<json::Value> seen;
    seen.reserve(events.size());
    for (const Event& event : events) {
        if (const json::Value* shown = seen_by(event, viewer)) seen.push_back(*shown);
    }
    return seen;
}

/// Collects the events of one move while the rules replay it.
class EventLog {
public:
    /// A public event of `type` with its fields.
    json::Object& add(const char* type) { return push(kEveryone, type); }
    /// An event only `seat` sees; redacted() then sets what the others see.
    json::Object& add_private(int seat, const char* type) { return push(seat, type); }
    /// The public counterpart of the last private event, of the same type.
    json::Object& redacted() {
        Event& last = events_.back();
        json::Object& out = last.redacted.emplace_object();
        out.emplace("type", last.data.at("type"));
        return out;
    }
    std::size_t size() const noexcept { return events_.size(); }
    /// Drops the events from `index` on (a deal replaced by a given one).
    void truncate(std::size_t index) { events_.resize(index); }
    /// The index of the last event of `type`, or size() if there is none.
    std::size_t last_of(const char* type) const {
        for (std::size_t i = events_.size(); i-- > 0;) {
            if (events_[i].data.at("type").get_string() == type) return i;
        }
        return events_.size();
    }
    Events take() && { return std::move(events_); }

private:
    json::Object& push(int audience, const char* type) {
        Event& event = events_.emplace_back();
        event.visible_to = audience;
        json::Object& data = event.data.emplace_object();
        data.emplace("type", type);
        return data;
    }
    Events events_;
};

/// The events of the last move applied to `state` (a game's State, with `before` and
/// `history`): `play(position, move, player, log)` replays it on a copy of the position
/// before it. None for a state with no move to replay.
template <class State, class Play>
Events replay_last_move(const State& state, Play&& play) {
    if (!state.before || state.history.empty()) return {};
    EventLog log;
    auto position = *state.before;
    play(position, state.history.back().move, state.history.back().player, log);
    return std::move(log).take();
}

/// The values of seats 0..players-1 (scores, points, piles) as a JSON list, in views
/// (with their storage) and events alike.
template <class Values>
json::Value seat_list(const Values& values, int players, const boost::json::storage_ptr& storage = {}) {
    json::Array out(storage);
    for (int seat = 0; seat < players; ++seat) out.emplace_back(values[static_cast<std::size_t>(seat)]);
    return out;
}

/// The same written by a json::Writer or a json::Tape.
template <class W, class Values>
void write_seat_list(W& w, const Values& values, int players) {
    w.begin_array();
    for (int seat = 0; seat < players; ++seat) w.value(values[static_cast<std::size_t>(seat)]);
    w.end_array();
}

/// The end of the game, the same in every game: each seat's total and the winners, the
/// seats with the highest total (S6.2, D1.3, K4.2).
template <class Scores>
void game_ended(EventLog& log, const Scores& scores, int players) {
    json::Object& e = log.add("game_ended");
    e.emplace("scores", seat_list(scores, players));
    json::Array winners;
    for (const int seat : best_seats(scores, players)) winners.emplace_back(seat);
    e.emplace("winners", std::move(winners));
}

/// Keeps a copy of `position` in `kept` (a State's position before its last move): in
/// place when no other state shares it, else in a new block, so that a clone of a state
/// copies a pointer and the state it was cloned from keeps its own.
template <class Position>
void remember_position(std::shared_ptr<Position>& kept, const Position& position) {
    if (kept && kept.use_count() == 1) *kept = position;
    else kept = std::make_shared<Position>(position);
}

/// Keeps `state.position` as the position before the move about to be applied (its
/// history already records the move): `before`, which last_events() replays from, and
/// the first time `origin`, which live::state_at replays from.
template <class State>
void keep_position_before_move(State& state) {
    remember_position(state.before, state.position);
    if (state.origin) return;
    state.origin = std::make_shared<const typename std::decay_t<decltype(state.position)>>(state.position);
    state.origin_version = state.history.size() - 1;
}

/// Who may see what, as data, so that a server never hard-codes which keys to strip:
///   {"observation": {key: "public" | "private"},
///    "moves": {kind: "public" | "secret"},      secret: others learn it only when the
///                                               rules reveal it (by an event)
///    "events": {type: "public" | "private" | "private_with_public_form"}}
/// A private observation key is left out of the public view; a private event is seen by
/// its seat alone, and one with a public form shows the others that form instead.
using VisibilityList = std::initializer_list<std::pair<const char*, const char*>>;
inline json::Value visibility_table(VisibilityList observation, VisibilityList moves, VisibilityList events) {
    json::Object table;
    for (const auto& [name, list] :
         {std::pair{"observation", observation}, std::pair{"moves", moves}, std::pair{"events", events}}) {
        json::Object& part = table.emplace(name, json::Object()).first->value().get_object();
        for (const auto& [key, who] : list) part.emplace(key, who);
    }
    return table;
}

}  // namespace diabolo
