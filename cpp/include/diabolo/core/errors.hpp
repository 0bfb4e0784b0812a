// The error types of the engine. The Python bindings map each one to the
// Python class of the same name (diabolo.errors), all subclasses of ValueError.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace diabolo {

/// What an error says beside its English text, for a program or a translation: `name`
/// and its value, in the order the message uses them ({"colour", "G"}, {"seat", "2"}).
using ErrorParams = std::vector<std::pair<std::string, std::string>>;

/// Base of every error the engine raises on bad input. `code` names the error for a
/// program (stable across versions: docs/frontend.rst lists them); each class has its
/// own, and an illegal move one per rule it breaks.
struct DiaboloError : std::invalid_argument {
    explicit DiaboloError(const std::string& message, std::string code_ = "error", ErrorParams params_ = {})
        : std::invalid_argument(message), code(std::move(code_)), params(std::move(params_)) {}
    std::string code;
    ErrorParams params;
};

/// A move that the rules forbid now. `clause` names the rule broken ("S3.2"), `code` the
/// reason ("side_full"). The state is unchanged when this is thrown.
struct IllegalMoveError : DiaboloError {
    IllegalMoveError(std::string clause_, const std::string& message, std::string code_ = "illegal_move",
                     ErrorParams params_ = {})
        : DiaboloError(clause_ + ": " + message, std::move(code_), std::move(params_)),
          clause(std::move(clause_)),
          reason(message) {}
    std::string clause;
    std::string reason;  // the message without the clause in front
};

/// A move that was legal on the table its player saw (an older version of the state) but
/// lost a race: another move came first and made it illegal (docs: realtime, "Live play").
/// Its code is "stale_move"; its params hold the version seen, the version now and the
/// code and params of the rule the move breaks now. The state is unchanged.
struct StaleMoveError : IllegalMoveError {
    using IllegalMoveError::IllegalMoveError;
};

/// Text, data or an action id that is not a move or card of the game. `clause` names the
/// notation's clause of the game's rules ("S8", "D7", "K7").
struct NotationError : DiaboloError {
    explicit NotationError(const std::string& message, std::string clause_ = "")
        : DiaboloError(message, "bad_notation"), clause(std::move(clause_)) {}
    std::string clause;
};

/// Runs f(); a NotationError it throws without a clause leaves with `clause`.
template <class F>
auto with_notation_clause(const char* clause, F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (NotationError& error) {
        if (error.clause.empty()) error.clause = clause;
        throw;
    }
}

/// A game option with a wrong name, type or value.
struct OptionError : DiaboloError {
    explicit OptionError(const std::string& message) : DiaboloError(message, "bad_option") {}
};

/// A serialised state, or a given deal, that is not well formed or breaks an invariant.
struct StateFormatError : DiaboloError {
    explicit StateFormatError(const std::string& message) : DiaboloError(message, "bad_state") {}
};

/// A seat number that does not exist, or a missing seat where one is needed.
struct PlayerError : DiaboloError {
    explicit PlayerError(const std::string& message) : DiaboloError(message, "bad_player") {}
};

/// Work that the rules allow but that would pass one of the engine's documented limits
/// (docs: reliability), such as a word search on a table of a custom deck that could take
/// minutes. Nothing has changed when this is thrown.
struct LimitError : DiaboloError {
    explicit LimitError(const std::string& message) : DiaboloError(message, "limit") {}
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
