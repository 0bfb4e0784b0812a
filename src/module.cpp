// The compiled module diabolo._core: one pybind11 module holding every game.
#include <pybind11/pybind11.h>

#include "common.hpp"

namespace diabolo::bindings {
void bind_schacht(py::module_& m);
void bind_duvelen(py::module_& m);
void bind_knizia(py::module_& m);
}  // namespace diabolo::bindings

PYBIND11_MODULE(_core, m) {
    m.doc() = "The compiled diabolo engine. Use it through the diabolo package.";
    diabolo::bindings::register_errors(m);
    diabolo::bindings::bind_schacht(m);
    diabolo::bindings::bind_duvelen(m);
    diabolo::bindings::bind_knizia(m);
    diabolo::bindings::guard_construction(m);
}
