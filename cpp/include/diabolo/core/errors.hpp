// The error types of the engine. The Python bindings map each one to the
// Python class of the same name (diabolo.errors), all subclasses of ValueError.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace diabolo {

/// Base of every error the engine raises on bad input.
struct DiaboloError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

/// A move that the rules forbid now. `clause` names the rule broken ("S3.2").
/// The state is unchanged when this is thrown.
struct IllegalMoveError : DiaboloError {
    IllegalMoveError(std::string clause_, const std::string& message)
        : DiaboloError(clause_ + ": " + message), clause(std::move(clause_)) {}
    std::string clause;
};

/// A move that was legal on the table its player saw (an older version of the state) but
/// lost a race: another move came first and made it illegal (docs: realtime, "Live play").
/// The state is unchanged when this is thrown.
struct StaleMoveError : IllegalMoveError {
    using IllegalMoveError::IllegalMoveError;
};

/// Text that is not valid notation for the game.
struct NotationError : DiaboloError {
    using DiaboloError::DiaboloError;
};

/// A game option with a wrong name, type or value.
struct OptionError : DiaboloError {
    using DiaboloError::DiaboloError;
};

/// A serialised state, or a given deal, that is not well formed or breaks an invariant.
struct StateFormatError : DiaboloError {
    using DiaboloError::DiaboloError;
};

/// A seat number that does not exist, or a missing seat where one is needed.
struct PlayerError : DiaboloError {
    using DiaboloError::DiaboloError;
};

/// Work that the rules allow but that would pass one of the engine's documented limits
/// (docs: reliability), such as a word search on a table of a custom deck that could take
/// minutes. Nothing has changed when this is thrown.
struct LimitError : DiaboloError {
    using DiaboloError::DiaboloError;
};

/// `text` in single quotes for an error message, with every byte outside printable
/// ASCII written as \xNN: messages stay valid UTF-8 whatever the caller passed.
inline std::string quoted(std::string_view text) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out = "'";
    for (const char c : text.substr(0, 80)) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte < 0x7f) {
            out += c;
        } else {
            out += "\\x";
            out += kHex[byte >> 4];
            out += kHex[byte & 15];
        }
    }
    return out + (text.size() > 80 ? "...'" : "'");
}

/// Seat values of `current_player` that are not seats (the same as OpenSpiel's).
constexpr int kSimultaneous = -2;
constexpr int kTerminal = -4;

}  // namespace diabolo
