#include "common.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>
#include <memory>

#include "diabolo/core/errors.hpp"
#include "diabolo/core/rng.hpp"
#include "diabolo/diabolo.h"

namespace diabolo::bindings {

void register_errors(py::module_& m) {
    const py::module_ errors = py::module_::import("diabolo.errors");
    // Keep the classes alive for the life of the interpreter.
    static py::handle illegal = py::object(errors.attr("IllegalMoveError")).release();
    static py::handle stale = py::object(errors.attr("StaleMoveError")).release();
    static py::handle notation = py::object(errors.attr("NotationError")).release();
    static py::handle option = py::object(errors.attr("OptionError")).release();
    static py::handle format = py::object(errors.attr("StateFormatError")).release();
    static py::handle player = py::object(errors.attr("PlayerError")).release();
    static py::handle limit = py::object(errors.attr("LimitError")).release();
    static py::handle base = py::object(errors.attr("DiaboloError")).release();
    py::register_exception_translator([](std::exception_ptr error) {
        // Each error becomes an instance of its Python class with its code and params
        // (and clause), made by the class itself.
        const auto raise = [](py::handle cls, const DiaboloError& e, py::object clause) {
            py::dict params;
            for (const auto& [name, value] : e.params) params[py::str(name)] = value;
            py::object instance = clause.is_none()
                                      ? py::reinterpret_borrow<py::object>(cls)(e.what(), py::arg("code") = e.code,
                                                                                py::arg("params") = params)
                                      : py::reinterpret_borrow<py::object>(cls)(
                                            e.what(), clause, py::arg("code") = e.code, py::arg("params") = params);
            PyErr_SetObject(cls.ptr(), instance.ptr());
        };
        try {
            if (error) std::rethrow_exception(error);
        } catch (const StaleMoveError& e) {
            raise(stale, e, py::str(e.clause));
        } catch (const IllegalMoveError& e) {
            raise(illegal, e, py::str(e.clause));
        } catch (const NotationError& e) {
            raise(notation, e, py::str(e.clause));
        } catch (const OptionError& e) {
            raise(option, e, py::none());
        } catch (const StateFormatError& e) {
            raise(format, e, py::none());
        } catch (const PlayerError& e) {
            raise(player, e, py::none());
        } catch (const LimitError& e) {
            raise(limit, e, py::none());
        } catch (const DiaboloError& e) {
            raise(base, e, py::none());
        }
    });
    m.attr("__version__") = DIABOLO_VERSION;
    m.attr("SIMULTANEOUS") = kSimultaneous;
    m.attr("TERMINAL") = kTerminal;
    m.def(
        "derive_seed",
        [](const py::object& seed, const py::object& index) {
            return derive_seed(to_seed(seed), to_seed(index, "index"));
        },
        py::arg("seed"), py::arg("index"),
        "The seed of game `index` of a batch seeded with `seed` (as the C++ batches derive it).");
}

namespace {

/// The type name of `value`, for error messages.
std::string type_name(const py::handle& value) {
    return py::str(py::type::of(value).attr("__name__")).cast<std::string>();
}

}  // namespace

py::object as_integer(const py::handle& value) {
    PyObject* object = value.ptr();
    if (PyBool_Check(object)) return py::object();  // True is not the seat or id 1
    if (PyLong_Check(object)) return py::reinterpret_borrow<py::object>(value);
    if (!PyIndex_Check(object)) return py::object();
    PyObject* index = PyNumber_Index(object);  // numpy integers and anything with __index__
    if (index == nullptr) {
        PyErr_Clear();  // numpy.bool_ refuses __index__
        return py::object();
    }
    return py::reinterpret_steal<py::object>(index);
}

uint64_t to_seed(const py::handle& value, const char* what) {
    const py::object integer = as_integer(value);
    if (!integer) throw OptionError(std::string(what) + " must be an int in [0, 2**64), got " + type_name(value));
    const unsigned long long seed = PyLong_AsUnsignedLongLong(integer.ptr());
    if (PyErr_Occurred()) {
        PyErr_Clear();
        throw OptionError(std::string(what) + " must be an int in [0, 2**64), got " +
                          py::repr(value).cast<std::string>());
    }
    return seed;
}

int to_seat(const py::handle& value, int players) {
    const py::object integer = as_integer(value);
    int overflow = 0;
    const long long seat = integer ? PyLong_AsLongLongAndOverflow(integer.ptr(), &overflow) : -1;
    if (!integer || overflow != 0 || seat < 0 || seat >= players) {
        PyErr_Clear();
        throw PlayerError("player must be a seat 0.." + std::to_string(players - 1) + ", got " +
                          py::repr(value).cast<std::string>());
    }
    return static_cast<int>(seat);
}

int to_action(const py::handle& value, int num_actions) {
    const py::object integer = as_integer(value);
    if (!integer) {
        throw NotationError("an action id is an int 0.." + std::to_string(num_actions - 1) + ", got " +
                            py::repr(value).cast<std::string>());
    }
    int overflow = 0;
    const long long action = PyLong_AsLongLongAndOverflow(integer.ptr(), &overflow);
    if (overflow != 0 || action < 0 || action >= num_actions) {
        PyErr_Clear();
        throw NotationError("action id " + py::repr(value).cast<std::string>() + " is out of range 0.." +
                            std::to_string(num_actions - 1));
    }
    return static_cast<int>(action);
}

long long to_int64(const py::handle& value, const std::string& what) {
    const py::object integer = as_integer(value);
    if (!integer) throw OptionError(what + " must be an int, got " + py::repr(value).cast<std::string>());
    int overflow = 0;
    const long long result = PyLong_AsLongLongAndOverflow(integer.ptr(), &overflow);
    if (overflow != 0 || (result == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        throw OptionError(what + " is out of range: " + py::repr(value).cast<std::string>());
    }
    return result;
}

double to_number(const py::handle& value, const std::string& what) {
    PyObject* object = value.ptr();
    // Any real number: int, float, numpy's integers and floats (not bool, str or complex).
    const PyNumberMethods* number = Py_TYPE(object)->tp_as_number;
    const bool real = !PyBool_Check(object) && !PyComplex_Check(object) && number != nullptr &&
                      (number->nb_float != nullptr || number->nb_index != nullptr);
    if (!real) throw OptionError(what + " must be a number, got " + py::repr(value).cast<std::string>());
    const py::object integer = as_integer(value);
    const double result = integer ? PyLong_AsDouble(integer.ptr()) : PyFloat_AsDouble(object);
    if (result == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        throw OptionError(what + " is out of range: " + py::repr(value).cast<std::string>());
    }
    return result;
}

int to_int(const py::handle& value, const std::string& what) {
    const long long result = to_int64(value, what);
    if (result < INT_MIN || result > INT_MAX)
        throw OptionError(what + " is out of range: " + py::repr(value).cast<std::string>());
    return static_cast<int>(result);
}

namespace {

/// A Python str of UTF-8 text; ASCII (every key and card of the views) is copied straight in.
PyObject* new_str(const char* data, std::size_t size) {
    bool ascii = true;
    for (std::size_t i = 0; i < size; ++i) ascii &= static_cast<unsigned char>(data[i]) < 0x80;
    if (!ascii) return PyUnicode_FromStringAndSize(data, static_cast<py::ssize_t>(size));
    PyObject* out = PyUnicode_New(static_cast<py::ssize_t>(size), 127);
    if (out != nullptr) std::memcpy(PyUnicode_1BYTE_DATA(out), data, size);
    return out;
}

/// The short strs of the views, made once: a view repeats a few hundred texts (its keys,
/// cards, moves, colours), and making and hashing each str anew for every key and value was
/// a fifth of the cost of a view as a dict (docs/performance.rst; a str keeps its hash once
/// computed, so a key is hashed once, not at every insert). A fixed table of kSlots, each holding the last text
/// that hashed to it, so at most kSlots strs stay alive, whatever texts come. Touched only
/// with the GIL held (to_python).
class ShortStrs {
public:
    /// A new reference to a str of the text, or nullptr with a Python error set.
    PyObject* get(const char* data, std::size_t size) {
        if (size > kLongest) return new_str(data, size);
        Key key{};
        std::memcpy(key.data(), data, size);
        return find(data, size, key);
    }
    /// The same for a text followed by at least json::Tape::kPadding readable bytes (a
    /// tape's strings): read as three words at once, without a copy of each byte.
    PyObject* get_padded(const char* data, std::size_t size) {
        if (size > kLongest) return new_str(data, size);
        Key key;
        std::memcpy(key.data(), data, sizeof key);
        const Key& mask = masks()[size];
        for (std::size_t w = 0; w < key.size(); ++w) key[w] &= mask[w];
        return find(data, size, key);
    }

private:
    static constexpr std::size_t kSlots = 2048, kLongest = 23;  // a text and its size fit three words
    using Key = std::array<uint64_t, 3>;                        // the text's bytes, zero-padded
    static_assert(json::Tape::kPadding >= sizeof(Key), "a tape's strings are read as whole keys");
    struct Slot {
        PyObject* str = nullptr;
        Key key{};
        std::size_t size = 0;
    };

    /// The word mask of a word's first `bytes` bytes (bytes < 8), as memcpy laid them.
    static constexpr uint64_t low_bytes(std::size_t bytes) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        return bytes == 0 ? 0 : ~uint64_t{0} << (8 * (8 - bytes));
#else
        return (uint64_t{1} << (8 * bytes)) - 1;
#endif
    }
    /// For each size up to kLongest, the masks of a key's words that keep a text of that
    /// size and clear the bytes after it (worked out for each text, they were a twelfth of
    /// the instructions of a view: callgrind, 64.0k -> 60.6k a Schacht view).
    static const std::array<Key, kLongest + 1>& masks() {
        static constexpr std::array<Key, kLongest + 1> of = [] {
            std::array<Key, kLongest + 1> out{};
            for (std::size_t size = 0; size <= kLongest; ++size) {
                for (std::size_t w = 0; w < out[size].size(); ++w) {
                    const std::size_t keep = std::min<std::size_t>(size - std::min(size, 8 * w), 8);  // bytes in word w
                    out[size][w] = keep == 8 ? ~uint64_t{0} : low_bytes(keep);
                }
            }
            return out;
        }();
        return of;
    }

    PyObject* find(const char* data, std::size_t size, const Key& key) {
        const uint64_t hash = (key[0] * 0x9E3779B97F4A7C15ull) ^ (key[1] * 0xC2B2AE3D27D4EB4Full) ^
                              ((key[2] + size) * 0x165667B19E3779F9ull);
        Slot& slot = slots_[static_cast<std::size_t>(hash >> 53) % kSlots];
        if (slot.str != nullptr && slot.key == key && slot.size == size) {
            Py_INCREF(slot.str);
            return slot.str;
        }
        PyObject* str = new_str(data, size);
        if (str == nullptr) return nullptr;
        Py_XDECREF(slot.str);
        slot = {str, key, size};
        Py_INCREF(str);
        return str;
    }

    std::array<Slot, kSlots> slots_{};
};

/// The table of to_python (never freed: its strs live as long as the interpreter).
ShortStrs& short_strs() {
    static ShortStrs* strs = new ShortStrs();
    return *strs;
}

/// The ints 0-255 of CPython (which makes each once), held for to_python: a view's ints
/// are counts, seats and card values, taken from here without a call into CPython each.
const std::array<PyObject*, 256>& small_ints() {
    static const std::array<PyObject*, 256>* ints = [] {
        auto* made = new std::array<PyObject*, 256>();
        for (std::size_t i = 0; i < made->size(); ++i) (*made)[i] = PyLong_FromSize_t(i);
        return made;
    }();
    return *ints;
}

/// An empty dict with room for `keys` keys: a view's top object holds about twenty, and
/// a dict made empty grows twice on the way (CPython's own constructors size theirs so).
PyObject* new_dict(std::size_t keys) {
#if PY_VERSION_HEX < 0x030E0000
    if (keys > 5) return _PyDict_NewPresized(static_cast<Py_ssize_t>(keys));
#endif
    return PyDict_New();
}

/// to_python's work: a new reference, or nullptr with a Python error set.
PyObject* new_object(const json::Value& value, bool tuples) {
    switch (value.kind()) {
        case boost::json::kind::null: Py_RETURN_NONE;
        case boost::json::kind::bool_:
            if (value.get_bool()) Py_RETURN_TRUE;
            Py_RETURN_FALSE;
        case boost::json::kind::int64: return PyLong_FromLongLong(value.get_int64());
        case boost::json::kind::uint64: return PyLong_FromUnsignedLongLong(value.get_uint64());
        case boost::json::kind::double_: return PyFloat_FromDouble(value.get_double());
        case boost::json::kind::string: {
            const boost::json::string& s = value.get_string();
            return short_strs().get(s.data(), s.size());
        }
        case boost::json::kind::array: {
            const json::Array& array = value.get_array();
            const auto size = static_cast<py::ssize_t>(array.size());
            PyObject* out = tuples ? PyTuple_New(size) : PyList_New(size);
            for (py::ssize_t i = 0; out != nullptr && i < size; ++i) {
                PyObject* item = new_object(array[static_cast<std::size_t>(i)], tuples);
                if (item == nullptr) Py_CLEAR(out);
                else if (tuples) PyTuple_SET_ITEM(out, i, item);
                else PyList_SET_ITEM(out, i, item);
            }
            return out;
        }
        case boost::json::kind::object: {
            PyObject* out = new_dict(value.get_object().size());
            for (const auto& item : value.get_object()) {
                if (out == nullptr) break;
                PyObject* key = short_strs().get(item.key().data(), item.key().size());
                PyObject* entry = key != nullptr ? new_object(item.value(), tuples) : nullptr;
                if (entry == nullptr || PyDict_SetItem(out, key, entry) != 0) Py_CLEAR(out);
                Py_XDECREF(key);
                Py_XDECREF(entry);
            }
            return out;
        }
    }
    Py_RETURN_NONE;
}

/// to_python's work on a tape. Leaves (strs, ints, bools, None: most of a view's tokens)
/// are made in the loop of the array or object that holds them rather than by a call each,
/// and the table of strs is found once per view rather than at each str.
class TapeReader {
public:
    TapeReader(const json::Tape& tape, ShortStrs& strs) : tape_(tape), strs_(strs), small_ints_(small_ints()) {}

    /// The value at tokens[i] and everything inside it, as a new reference (nullptr with
    /// a Python error set); i moves past them.
    PyObject* value() {
        const json::Tape::Token& token = tape_.tokens()[i_++];
        if (token.kind == json::Tape::Kind::Array) return array(token.size);
        if (token.kind == json::Tape::Kind::Object) return object(token.size);
        return leaf(token);
    }

private:
    PyObject* leaf(const json::Tape::Token& token) {
        switch (token.kind) {
            case json::Tape::Kind::Bool:
                if (token.flag) Py_RETURN_TRUE;
                Py_RETURN_FALSE;
            case json::Tape::Kind::Int:
                if (static_cast<unsigned long long>(token.integer) < small_ints_.size())
                    return Py_NewRef(small_ints_[static_cast<std::size_t>(token.integer)]);
                return PyLong_FromLongLong(token.integer);
            case json::Tape::Kind::String: {
                const std::string_view text = tape_.text_of(token);
                return strs_.get_padded(text.data(), text.size());
            }
            default: Py_RETURN_NONE;
        }
    }

    /// The next value: a leaf here, an array or object by value().
    PyObject* item() {
        const json::Tape::Token& token = tape_.tokens()[i_];
        if (token.kind == json::Tape::Kind::Array || token.kind == json::Tape::Kind::Object) return value();
        ++i_;
        return leaf(token);
    }

    PyObject* array(uint32_t size) {
        PyObject* out = PyList_New(static_cast<py::ssize_t>(size));
        for (py::ssize_t k = 0; out != nullptr && k < static_cast<py::ssize_t>(size); ++k) {
            PyObject* entry = item();
            if (entry == nullptr) Py_CLEAR(out);
            else PyList_SET_ITEM(out, k, entry);
        }
        return out;
    }

    PyObject* object(uint32_t size) {
        PyObject* out = new_dict(size);
        for (uint32_t k = 0; out != nullptr && k < size; ++k) {
            PyObject* key = leaf(tape_.tokens()[i_++]);  // a String
            PyObject* entry = key != nullptr ? item() : nullptr;
            if (entry == nullptr || PyDict_SetItem(out, key, entry) != 0) Py_CLEAR(out);
            Py_XDECREF(key);
            Py_XDECREF(entry);
        }
        return out;
    }

    const json::Tape& tape_;
    ShortStrs& strs_;
    const std::array<PyObject*, 256>& small_ints_;
    std::size_t i_ = 0;
};

thread_local std::unique_ptr<json::Tape> spare_tape;  // this thread's tape, while no view uses it

}  // namespace

ScratchTape::ScratchTape() : tape_(std::move(spare_tape)) {
    if (tape_) tape_->clear();
    else tape_ = std::make_unique<json::Tape>();
}

ScratchTape::~ScratchTape() {
    constexpr std::size_t kKept = 4;  // times the default room
    if (tape_->token_room() <= kKept * json::Tape::kDefaultTokens &&
        tape_->byte_room() <= kKept * json::Tape::kDefaultBytes)
        spare_tape = std::move(tape_);
}

py::object to_python(const json::Tape& tape) {
    PyObject* out = tape.tokens().empty() ? Py_NewRef(Py_None) : TapeReader(tape, short_strs()).value();
    if (out == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(out);
}

py::object to_python(const json::Value& value, bool tuples) {
    PyObject* out = new_object(value, tuples);
    if (out == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(out);
}

json::Value from_python(const py::handle& value, const std::string& what) {
    PyObject* object = value.ptr();
    if (object == Py_None) return nullptr;
    if (PyBool_Check(object)) return object == Py_True;
    if (PyUnicode_Check(object)) return json::text(utf8_text<OptionError>(value, what));
    if (const py::object integer = as_integer(value)) {
        int overflow = 0;
        const long long v = PyLong_AsLongLongAndOverflow(integer.ptr(), &overflow);
        if (overflow == 0 && !(v == -1 && PyErr_Occurred())) return v;
        PyErr_Clear();
        throw OptionError(what + " is out of range: " + py::repr(value).cast<std::string>());
    }
    if (PyFloat_Check(object)) return PyFloat_AS_DOUBLE(object);
    if (PyDict_Check(object)) {
        json::Object out;
        for (const auto item : py::reinterpret_borrow<py::dict>(value)) {
            const std::string key(utf8_text<OptionError>(item.first, "an option name"));
            out.emplace(key, from_python(item.second, key));
        }
        return out;
    }
    if (PySequence_Check(object) && !PyBytes_Check(object) && !PyByteArray_Check(object)) {
        json::Array out;
        std::size_t index = 0;
        for (const auto item : py::reinterpret_borrow<py::iterable>(value)) {
            out.emplace_back(from_python(item, what + "[" + std::to_string(index++) + "]"));
        }
        return out;
    }
    throw OptionError(what + " must be a number, text, a list or a dict, got " + py::repr(value).cast<std::string>());
}

json::Value deal_json(const py::object& deck, const py::object& decks) {
    json::Object deal;
    try {
        if (!deck.is_none()) deal.emplace("deck", from_python(deck, "deck"));
        if (!decks.is_none()) deal.emplace("decks", from_python(decks, "decks"));
    } catch (const OptionError& e) {
        throw StateFormatError(e.what());
    }
    return deal;
}

json::Value parse_text(const py::handle& text, const char* what) {
    return json::parse(utf8_text<StateFormatError>(text, what), what);
}

void refuse_uninitialised() {
    throw DiaboloError(
        "this object was made by __new__ without __init__ and holds no value; "
        "make it with its class, a game or a factory");
}

namespace {

/// pybind11 allocates an object's C++ value lazily, when a method first reads it; an
/// object made by __new__ alone gets there with no value constructed.
void* no_value(std::size_t) { refuse_uninitialised(); }

bool initialised(const py::handle& self) {
    if (py::detail::get_type_info(Py_TYPE(self.ptr())) == nullptr) return false;  // not ours: the original refuses it
    auto* instance = reinterpret_cast<py::detail::instance*>(self.ptr());
    return instance->get_value_and_holder().holder_constructed();
}

/// Wraps the constructor `name` of `cls` so that a second call on a live object raises.
/// The wrapper's own name is not `name`: pybind11 treats functions named __init__ or
/// __setstate__ as constructors and silently skips them on a live object.
void refuse_reinitialisation(const py::object& cls, const char* name) {
    const py::object original = cls.attr(name);
    const std::string what = py::str(cls.attr("__name__")).cast<std::string>() + "." + name;
    static const std::string wrapper_names[] = {"init_once", "setstate_once"};
    const char* wrapper_name = wrapper_names[std::string(name) == "__init__" ? 0 : 1].c_str();
    cls.attr(name) = py::cpp_function(
        [original, what](const py::handle& self, const py::args& args, const py::kwargs& kwargs) {
            if (initialised(self)) throw DiaboloError(what + " was called on an object that already holds a value");
            original(self, *args, **kwargs);
        },
        py::name(wrapper_name), py::is_method(cls),
        py::doc(py::str(original.attr("__doc__")).cast<std::string>().c_str()));
}

}  // namespace

void guard_construction(py::module_& m) {
    for (const auto item : m.attr("__dict__").cast<py::dict>()) {
        const py::handle value = item.second;
        if (!PyType_Check(value.ptr())) continue;
        py::detail::type_info* info = py::detail::get_type_info(reinterpret_cast<PyTypeObject*>(value.ptr()));
        if (info == nullptr) continue;
        info->operator_new = &no_value;
        const auto own = py::reinterpret_borrow<py::dict>(reinterpret_cast<PyTypeObject*>(value.ptr())->tp_dict);
        const py::object cls = py::reinterpret_borrow<py::object>(value);
        for (const char* name : {"__init__", "__setstate__"}) {
            if (own.contains(name)) refuse_reinitialisation(cls, name);
        }
    }
}

Batch batch_args(const py::object& games, const py::object& seed, const py::object& threads) {
    Batch batch;
    batch.seed = to_seed(seed);
    const long long count = to_int(games, "games");
    const long long workers = to_int(threads, "threads");
    if (count < 0 || count > 100'000'000) throw OptionError("games must be 0..100000000, got " + std::to_string(count));
    if (workers < 1 || workers > 256) throw OptionError("threads must be 1..256, got " + std::to_string(workers));
    batch.games = static_cast<int>(count);
    batch.threads = static_cast<int>(workers);
    return batch;
}

}  // namespace diabolo::bindings

namespace diabolo::bindings {

realtime::Reaction reaction_from(const py::handle& value, const realtime::Reaction& defaults, const char* const* names,
                                 int count, const std::string& game) {
    realtime::Reaction reaction = defaults;
    if (value.is_none()) return reaction;
    py::object delays;
    try {
        reaction.minimum = to_number(value.attr("minimum"), "a reaction's minimum");
        delays = py::dict(value.attr("delays"));
    } catch (const py::error_already_set&) {
        throw OptionError("reaction must be a diabolo.realtime.Reaction, got " + py::repr(value).cast<std::string>());
    }
    if (!(reaction.minimum > 0.0 && reaction.minimum <= realtime::kMaxMean)) {
        throw OptionError("a reaction's minimum must be in (0, 3600] seconds");
    }
    for (auto item : py::reinterpret_borrow<py::dict>(delays)) {
        const std::string kind(utf8_text<OptionError>(item.first, "a kind of action"));
        int index = -1;
        std::string kinds;
        for (int k = 0; k < count; ++k) {
            if (kind == names[k]) index = k;
            kinds += std::string(k ? ", " : "") + names[k];
        }
        if (index < 0)
            throw OptionError("unknown kind of action '" + kind + "' in a " + game + " reaction; the kinds are " +
                              kinds);
        std::pair<double, double> pair{0.0, -1.0};
        try {
            pair = item.second.cast<std::pair<double, double>>();
        } catch (const py::cast_error&) {
            // not a pair of numbers: refused below with the value given
        }
        if (!(pair.first > 0.0 && pair.first <= realtime::kMaxMean) ||
            !(pair.second >= 0.0 && pair.second <= realtime::kMaxSpread)) {
            throw OptionError("a reaction delay is (mean in (0, 3600], spread in [0, 300]) seconds; got " +
                              py::repr(item.second).cast<std::string>());
        }
        reaction.delays[static_cast<std::size_t>(index)] = realtime::Delay{pair.first, pair.second};
    }
    return reaction;
}

realtime::Limits limits_from(double max_time, const py::object& max_events) {
    if (!(max_time > 0.0)) throw OptionError("max_time must be a positive number of seconds");
    realtime::Limits limits;
    limits.max_time = max_time;
    limits.max_events = to_int64(max_events, "max_events");
    if (limits.max_events < 1) throw OptionError("max_events must be at least 1");
    return limits;
}

py::dict batch_dict(const realtime::Batch& batch, int games, int players) {
    py::dict out;
    out["scores"] = to_numpy(batch.scores, {games, players});
    out["actions"] = to_numpy(batch.actions, {games});
    out["rejected"] = to_numpy(batch.rejected, {games});
    out["time"] = to_numpy(batch.time, {games});
    return out;
}

}  // namespace diabolo::bindings
