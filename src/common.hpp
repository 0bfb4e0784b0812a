// Helpers shared by the bindings of every game: error translation, argument
// checks and reading JSON-like dicts with errors that name the bad key.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <new>
#include <string>

namespace diabolo::bindings {

namespace py = pybind11;

/// pybind11 allocates the C++ value of an object made by `cls.__new__(cls)` lazily and
/// leaves it unconstructed until __init__ or __setstate__ runs. Making that memory hold a
/// default-constructed T means such an object is a valid default value, never garbage.
template <class T>
void construct_lazily_allocated_values() {
    py::detail::get_type_info(typeid(T))->operator_new = [](std::size_t size) -> void* {
        return new (::operator new(size)) T{};
    };
}

/// Maps the C++ errors to the classes of diabolo.errors (called once at import).
void register_errors(py::module_& m);

/// A seed: a Python int in [0, 2**64); OptionError otherwise.
uint64_t to_seed(const py::handle& value, const char* what = "seed");

/// A seat 0..players-1; PlayerError naming the valid seats otherwise.
int to_seat(const py::handle& value, int players);

/// An action id: an int (not a bool) in [0, num_actions); NotationError otherwise.
int to_action(const py::handle& value, int num_actions);

/// A Python int that is not a bool; OptionError naming `what` otherwise.
long long to_int(const py::handle& value, const std::string& what);

/// The UTF-8 text of a Python str; throws `Error` (a diabolo error type) naming `what`
/// for anything else, including a str that cannot be encoded (lone surrogates).
template <class Error>
std::string utf8_text(const py::handle& value, const std::string& what) {
    if (!PyUnicode_Check(value.ptr())) {
        throw Error(what + " must be a str, got " + py::str(py::type::of(value).attr("__name__")).cast<std::string>());
    }
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(value.ptr(), &size);
    if (data == nullptr) {
        PyErr_Clear();
        throw Error(what + " is not valid text (it holds an unpaired surrogate)");
    }
    return std::string(data, static_cast<std::size_t>(size));
}

/// Reads JSON-like data and reports the path of what is wrong as StateFormatError.
class Reader {
public:
    Reader(py::handle value, std::string path) : value_(value), path_(std::move(path)) {}
    Reader at(const char* key) const;      // a required key of a dict
    Reader at(std::size_t index) const;    // an item of a list
    bool has(const char* key) const;
    bool is_null() const { return value_.is_none(); }
    std::size_t size() const;              // length of a list
    long long integer(long long low, long long high) const;
    bool boolean() const;
    std::string text() const;
    py::handle handle() const { return value_; }
    [[noreturn]] void fail(const std::string& message) const;

private:
    py::dict dict() const;
    py::list list() const;
    py::handle value_;
    std::string path_;
};

/// json.dumps / json.loads of the standard library.
std::string dump_json(const py::object& data);
py::object load_json(const std::string& text);

}  // namespace diabolo::bindings
