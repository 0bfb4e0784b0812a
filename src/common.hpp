// Helpers shared by the bindings of every game: error translation, argument
// checks, and Python data to and from the core's JSON.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "diabolo/core/errors.hpp"
#include "diabolo/core/json.hpp"
#include "diabolo/core/parallel.hpp"
#include "diabolo/core/realtime.hpp"

namespace diabolo::bindings {

namespace py = pybind11;

/// Makes every class of the module `m` safe against construction without __init__:
/// an object made by `cls.__new__(cls)` raises DiaboloError when used (instead of
/// reading memory that holds no C++ value), and calling __init__ or __setstate__ again
/// on a live object raises DiaboloError (instead of silently doing nothing). pybind11
/// has no public hook for either, so this is the one place that uses its internals:
/// the type record's lazy allocator and the instance's holder flag. Called once, after
/// every class is bound.
void guard_construction(py::module_& m);

/// Raises the DiaboloError of an object made by __new__ without __init__.
[[noreturn]] void refuse_uninitialised();

/// Maps the C++ errors to the classes of diabolo.errors (called once at import).
void register_errors(py::module_& m);

/// The Python int of an integer argument: an int (not a bool) or any object with
/// __index__ (numpy integers); a null object for anything else (bools, numpy.bool_,
/// floats, text).
py::object as_integer(const py::handle& value);

/// A seed: an integer (as_integer) in [0, 2**64); OptionError otherwise.
uint64_t to_seed(const py::handle& value, const char* what = "seed");

/// A seat 0..players-1; PlayerError naming the valid seats otherwise.
int to_seat(const py::handle& value, int players);

/// An action id: an integer (as_integer) in [0, num_actions); NotationError otherwise.
int to_action(const py::handle& value, int num_actions);

/// An integer (as_integer) that fits in 64 bits; OptionError naming `what` otherwise.
long long to_int64(const py::handle& value, const std::string& what);

/// An integer (as_integer) that fits in an int, checked on the whole integer
/// before any narrowing (2**32 + 3 is out of range, never 3); OptionError naming `what`
/// and the value given otherwise. The core checks the option's own range.
int to_int(const py::handle& value, const std::string& what);

/// A real number (an integer or anything with __float__, not a bool, complex or text);
/// OptionError naming `what` otherwise.
double to_number(const py::handle& value, const std::string& what);

/// The UTF-8 text of a Python str, valid while the str lives (Python keeps it with the
/// str); throws `Error` (a diabolo error type) naming `what` for anything else, including
/// a str that cannot be encoded (lone surrogates).
template <class Error>
std::string_view utf8_text(const py::handle& value, const std::string& what) {
    if (!PyUnicode_Check(value.ptr())) {
        throw Error(what + " must be a str, got " + py::str(py::type::of(value).attr("__name__")).cast<std::string>());
    }
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(value.ptr(), &size);
    if (data == nullptr) {
        PyErr_Clear();
        throw Error(what + " is not valid text (it holds an unpaired surrogate)");
    }
    return std::string_view(data, static_cast<std::size_t>(size));
}

/// The Python value of a JSON value: dict, list (a tuple with `tuples`, for values that
/// should be immutable, such as options), str, int, float, bool or None.
py::object to_python(const json::Value& value, bool tuples = false);
/// A view written into a tape (Rules::observation) as Python objects, as to_python makes
/// the same value: built straight from the tokens, with no tree of values in between.
py::object to_python(const json::Tape& tape);

/// An empty tape to write one view into: the one this thread keeps between views, or a
/// new one while that one is in use (a view made inside another: a finaliser that the
/// garbage collector runs while to_python allocates). A tape made for each view
/// allocated its tokens, bytes and stack every time, a tenth of the cost of a view; one
/// that grew past four times the default room (a Knizia view with its claims) is not kept.
class ScratchTape {
public:
    ScratchTape();
    ~ScratchTape();
    ScratchTape(const ScratchTape&) = delete;
    ScratchTape& operator=(const ScratchTape&) = delete;
    json::Tape& operator*() noexcept { return *tape_; }

private:
    std::unique_ptr<json::Tape> tape_;
};

/// The view that `write(tape)` writes, as Python objects (to_python of a ScratchTape).
template <class Write>
py::object view_to_python(Write&& write) {
    ScratchTape tape;
    write(*tape);
    return to_python(*tape);
}

/// The JSON value of Python data: dicts with str keys, lists, tuples and other sequences
/// (numpy arrays included), str, ints and anything with __index__, floats, bools and
/// None. OptionError naming `what` (the option, "players" or "value_counts[2]") for
/// anything else, and for integers beyond 64 bits.
json::Value from_python(const py::handle& value, const std::string& what);

/// The JSON of a move given as a dict ({"kind": ...}); NotationError for what is not data.
inline json::Value move_data(const py::handle& value) {
    try {
        return from_python(value, "a move");
    } catch (const OptionError& e) {
        throw NotationError(e.what());
    }
}

/// JSON text from Python: the UTF-8 of a str, parsed; StateFormatError otherwise.
/// The deal given to new_state(deck=, decks=) as the core reads it (Rules::new_dealt_state):
/// an object of the arguments that are not None. StateFormatError for what is not JSON.
json::Value deal_json(const py::object& deck, const py::object& decks);

json::Value parse_text(const py::handle& text, const char* what = "state JSON");

}  // namespace diabolo::bindings

namespace diabolo::bindings {

/// Python equality through C++ operator==; NotImplemented for other types.
template <class T>
py::object equal_values(const T& a, const py::object& b) {
    if (!py::isinstance<T>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
    return py::bool_(a == b.cast<const T&>());
}

/// What every move class offers: str() is the notation, repr, ==, hash and pickle
/// through the notation (so they are frozen values).
template <class Move, class Format, class Parse>
void bind_move_values(py::class_<Move>& cls, const std::string& name, Format format, Parse parse) {
    cls.def("__str__", format)
        .def("__repr__", [name, format](const Move& m) { return name + "('" + format(m) + "')"; })
        .def("__eq__", &equal_values<Move>)
        .def("__hash__", [name, format](const Move& m) { return py::hash(py::make_tuple(name, format(m))); })
        .def(py::pickle([format](const Move& m) { return py::make_tuple(format(m)); },
                        [parse](const py::tuple& t) { return parse(utf8_text<NotationError>(t[0], "notation")); }));
}

/// The C++ bot behind `bot` (a bound Bot subclass), shared so it outlives the call;
/// OptionError for anything else, or for a bot made without __init__.
template <class Bot>
std::shared_ptr<Bot> cpp_bot(const py::handle& bot) {
    try {
        return bot.cast<std::shared_ptr<Bot>>();
    } catch (const py::cast_error&) {
        throw OptionError("expected a bot implemented in C++, made by its class, got " +
                          py::repr(bot).cast<std::string>());
    }
}

/// The seats of a bit set, ascending.
inline std::vector<int> seat_list(uint32_t bits) {
    std::vector<int> seats;
    for (int seat = 0; bits != 0; ++seat, bits >>= 1) {
        if (bits & 1u) seats.push_back(seat);
    }
    return seats;
}

/// A numpy array of `shape` holding `values` (row-major).
template <class T, class Allocator>
py::array_t<T> to_numpy(const std::vector<T, Allocator>& values, const std::vector<py::ssize_t>& shape) {
    py::array_t<T> out(shape);
    std::copy(values.begin(), values.end(), out.mutable_data());
    return out;
}

/// Lets a batch that runs without the GIL stop at Ctrl-C: interrupt() is the batch's
/// Interrupt (it takes the GIL between blocks of games and runs Python's signal
/// handlers), and raise_if_interrupted(), back with the GIL, raises what they raised.
class SignalCheck {
public:
    Interrupt interrupt() {
        return [this] {
            py::gil_scoped_acquire gil;
            if (PyErr_CheckSignals() != 0) stopped_ = true;
            return stopped_;
        };
    }
    void raise_if_interrupted() const {
        if (stopped_) throw py::error_already_set();
    }

private:
    bool stopped_ = false;
};

/// Checked arguments of a batch call: games 0..100,000,000 and threads 1..256.
struct Batch {
    int games = 0;
    int threads = 1;
    uint64_t seed = 0;
};
Batch batch_args(const py::object& games, const py::object& seed, const py::object& threads);

/// A reaction-time model from a diabolo.realtime.Reaction (None: `defaults`); its kinds
/// are `names[0 .. count)` of the game `game`. OptionError for bad kinds and values.
realtime::Reaction reaction_from(const py::handle& value, const realtime::Reaction& defaults, const char* const* names,
                                 int count, const std::string& game);

/// The limits of a simulation: max_time > 0 seconds, max_events >= 1.
realtime::Limits limits_from(double max_time, const py::object& max_events);

/// The numpy arrays of a simulate_many result: scores (games x players), actions,
/// rejected and time.
py::dict batch_dict(const realtime::Batch& batch, int games, int players);

}  // namespace diabolo::bindings
