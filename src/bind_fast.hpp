// The calls of a search or learning loop (current_player, is_terminal, legal_actions,
// apply, clone) and of saving and loading states (to_json, state_from_json), bound to
// CPython's own calling conventions instead of pybind11's dispatcher: a loop makes
// millions of them, and the dispatcher (its call record, keyword matching by name,
// overload loop and argument casters) cost more than the engine's work in most of them:
// `apply(a, player=p)` took about 3x the move itself. docs/performance.rst gives the figures.
//
// bind_contract writes their docstrings with the other members' (Calls::describe) and
// install() binds each as a method descriptor (METH_FASTCALL | METH_KEYWORDS) or a getset
// descriptor, with a text signature; the argument errors are Python's own.
#pragma once

#include <pybind11/pybind11.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bind_spec.hpp"
#include "common.hpp"
#include "diabolo/core/live.hpp"

namespace diabolo::bindings::fast {

/// The C++ value of an object of a bound class. The descriptors check the object's
/// class before the call; an object made by __new__ without __init__ has no value and
/// raises as pybind11's own path does (guard_construction).
template <class T>
T& value_of(PyObject* self) {
    const py::detail::value_and_holder held = reinterpret_cast<py::detail::instance*>(self)->get_value_and_holder();
    if (!held.holder_constructed()) refuse_uninitialised();
    return *static_cast<T*>(held.value_ptr());
}

/// Runs `body` (which returns a new reference), turning a C++ exception into the Python
/// one the module's translators choose (register_errors), as pybind11's dispatcher does.
template <class Body>
PyObject* guarded(Body&& body) noexcept {
    try {
        return body();
    } catch (py::error_already_set& error) {
        error.restore();
    } catch (...) {
        py::detail::try_translate_exceptions();
    }
    return nullptr;
}

/// A call's arguments by parameter, positional first and then by keyword; those not
/// given stay null. Python's own TypeErrors for a function of these parameters otherwise.
template <std::size_t N>
std::array<PyObject*, N> arguments(const char* function, const std::array<const char*, N>& names, std::size_t required,
                                   PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
    const auto refuse = [function](const std::string& why) { throw py::type_error(function + ("() " + why)); };
    std::array<PyObject*, N> out{};
    if (static_cast<std::size_t>(nargs) > N) {
        const std::string most =
            N == 0 ? "no arguments" : "at most " + std::to_string(N) + (N == 1 ? " argument" : " arguments");
        refuse("takes " + most + " (" + std::to_string(nargs) + " given)");
    }
    for (Py_ssize_t i = 0; i < nargs; ++i) out[static_cast<std::size_t>(i)] = args[i];
    const Py_ssize_t keywords = kwnames == nullptr ? 0 : PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t k = 0; k < keywords; ++k) {
        PyObject* key = PyTuple_GET_ITEM(kwnames, k);
        std::size_t at = 0;
        while (at < N && PyUnicode_CompareWithASCIIString(key, names[at]) != 0) ++at;
        if (at == N) refuse("got an unexpected keyword argument " + py::repr(key).cast<std::string>());
        if (out[at] != nullptr) refuse("got multiple values for argument '" + std::string(names[at]) + "'");
        out[at] = args[nargs + k];
    }
    for (std::size_t i = 0; i < required; ++i) {
        if (out[i] == nullptr) refuse("missing required argument '" + std::string(names[i]) + "'");
    }
    return out;
}

/// A Python list of action ids.
inline PyObject* id_list(const int32_t* ids, int count) {
    PyObject* list = PyList_New(count);
    if (list == nullptr) return nullptr;
    for (int i = 0; i < count; ++i) {
        PyObject* id = PyLong_FromLong(ids[i]);
        if (id == nullptr) {
            Py_DECREF(list);
            return nullptr;
        }
        PyList_SET_ITEM(list, i, id);
    }
    return list;
}

/// A method's definition, its text signature ("($self, /, player=None)") and its class.
struct Method {
    PyMethodDef def;
    const char* signature;
    bool of_game;  // a method of the game, else of the state
};

/// The optional argument as an object: None where it was not given.
inline py::object or_none(PyObject* argument) {
    return py::reinterpret_borrow<py::object>(argument != nullptr ? argument : Py_None);
}

template <class R>
struct Calls {
    using State = typename R::State;

    /// The game's binding options (GameSpec), written once when the module is imported.
    static inline std::optional<GameSpec<R>> spec;

    static PyObject* current_player(PyObject* self, void*) {
        return guarded([&] { return PyLong_FromLong(R::current_player(R::position(value_of<State>(self)))); });
    }

    static PyObject* is_terminal(PyObject* self, void*) {
        return guarded(
            [&] { return PyBool_FromLong(R::current_player(R::position(value_of<State>(self))) == kTerminal); });
    }

    static PyObject* legal_actions(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
        return guarded([&]() -> PyObject* {
            const auto [player] = arguments<1>("legal_actions", {"player"}, 0, args, nargs, kwnames);
            const State& state = value_of<State>(self);
            const int seat = detail::seat_of(*spec, R::position(state), or_none(player), R::players(R::game(state)));
            if (seat < 0) return PyList_New(0);
            const int n = R::num_actions(R::game(state));
            if (spec->legal_actions != nullptr || n > 256) {
                const std::vector<int> ids = detail::legal_ids(*spec, state, seat);
                return py::cast(ids).release().ptr();
            }
            std::array<int32_t, 256> ids;  // no allocation but the list's
            return id_list(ids.data(), R::legal_actions(R::position(state), seat, ids.data()));
        });
    }

    static PyObject* apply(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
        return guarded([&]() -> PyObject* {
            const auto [move, player, version] =
                arguments<3>("apply", {"move", "player", "version"}, 1, args, nargs, kwnames);
            State& state = value_of<State>(self);
            // At the end of the game the core refuses the move with its clause.
            const int seat =
                std::max(detail::seat_of(*spec, R::position(state), or_none(player), R::players(R::game(state))), 0);
            const typename R::Move m = detail::to_move(*spec, R::game(state), move);
            if (version == nullptr || version == Py_None) {
                R::apply(state, m, seat);
            } else {
                const long long seen = to_int64(version, "version");
                if (seen < 0) throw OptionError("version must be 0 or more, got " + std::to_string(seen));
                live::apply_seen<R>(state, m, seat, static_cast<std::size_t>(seen));
            }
            Py_RETURN_NONE;
        });
    }

    static PyObject* clone(PyObject* self, PyObject* const*, Py_ssize_t nargs, PyObject* kwnames) {
        return guarded([&]() -> PyObject* {
            arguments<0>("clone", {}, 0, nullptr, nargs, kwnames);
            return py::cast(State(value_of<State>(self))).release().ptr();
        });
    }

    static PyObject* to_json(PyObject* self, PyObject* const*, Py_ssize_t nargs, PyObject* kwnames) {
        return guarded([&]() -> PyObject* {
            arguments<0>("to_json", {}, 0, nullptr, nargs, kwnames);
            const std::string text = R::to_json(value_of<State>(self));
            return PyUnicode_FromStringAndSize(text.data(), static_cast<Py_ssize_t>(text.size()));
        });
    }

    static PyObject* state_from_json(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
        return guarded([&]() -> PyObject* {
            const auto [text] = arguments<1>("state_from_json", {"text"}, 1, args, nargs, kwnames);
            const std::string_view json = utf8_text<StateFormatError>(text, "state JSON");
            return py::cast(R::state_from_json(value_of<typename R::Game>(self), json)).release().ptr();
        });
    }

    static constexpr int kFlags = METH_FASTCALL | METH_KEYWORDS;
    template <class F>
    static PyCFunction function(F* f) {
        return reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(f));
    }

    // The definitions and their docstrings live as long as the module: CPython keeps
    // pointers to them.
    static inline std::array<Method, 5> methods{{
        {{"legal_actions", function(&legal_actions), kFlags, nullptr}, "($self, /, player=None)", false},
        {{"apply", function(&apply), kFlags, nullptr}, "($self, /, move, player=None, version=None)", false},
        {{"clone", function(&clone), kFlags, nullptr}, "($self, /)", false},
        {{"to_json", function(&to_json), kFlags, nullptr}, "($self, /)", false},
        {{"state_from_json", function(&state_from_json), kFlags, nullptr}, "($self, /, text)", true},
    }};
    static inline std::array<PyGetSetDef, 2> properties{{
        {"current_player", &current_player, nullptr, nullptr, nullptr},
        {"is_terminal", &is_terminal, nullptr, nullptr, nullptr},
    }};
    static inline std::deque<std::string> docs;

    /// Gives the call `name` its docstring, written by bind_contract with the other
    /// members' (a method's after its text signature, which help() and inspect.signature read).
    static void describe(const char* name, const std::string& text) {
        for (Method& method : methods) {
            if (std::strcmp(method.def.ml_name, name) == 0) {
                method.def.ml_doc = docs.emplace_back(name + (method.signature + ("\n--\n\n" + text))).c_str();
                return;
            }
        }
        for (PyGetSetDef& property : properties) {
            if (std::strcmp(property.name, name) == 0) {
                property.doc = docs.emplace_back(text).c_str();
                return;
            }
        }
        throw std::logic_error(std::string("no fast call named ") + name);
    }
};

/// Sets the descriptor (a new reference) as the attribute `name` of `cls`.
inline void put(const py::handle& cls, const char* name, PyObject* descriptor) {
    const auto owned = py::reinterpret_steal<py::object>(descriptor);
    if (!owned || PyObject_SetAttrString(cls.ptr(), name, owned.ptr()) != 0) throw py::error_already_set();
}

/// Binds the fast calls on the classes of `R` (after Calls<R>::describe gave their docstrings).
template <class R>
void install(py::class_<typename R::Game>& game, py::class_<typename R::State>& state, const GameSpec<R>& spec) {
    using C = Calls<R>;
    C::spec = spec;
    for (Method& method : C::methods) {
        const py::handle cls = method.of_game ? py::handle(game) : py::handle(state);
        put(cls, method.def.ml_name, PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(cls.ptr()), &method.def));
    }
    for (PyGetSetDef& property : C::properties)
        put(state, property.name, PyDescr_NewGetSet(reinterpret_cast<PyTypeObject*>(state.ptr()), &property));
}

}  // namespace diabolo::bindings::fast
