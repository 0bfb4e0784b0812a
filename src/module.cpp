// The compiled module diabolo._core: one pybind11 module holding every game of the
// catalogue (diabolo/games.hpp). A game with a binding file of its own (src/<game>.cpp)
// is bound by it; any other by the contract alone (src/bind_plain_game.hpp).
#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "bind_plain_game.hpp"
#include "common.hpp"
#include "diabolo/games.hpp"

namespace diabolo::bindings {

void bind_schacht(py::module_& m);
void bind_duvelen(py::module_& m);
void bind_knizia(py::module_& m);

namespace {

template <class R>
void bind_game(py::module_& m) {
    if constexpr (std::is_same_v<R, schacht::Rules>) bind_schacht(m);
    else if constexpr (std::is_same_v<R, duvelen::Rules>) bind_duvelen(m);
    else if constexpr (std::is_same_v<R, knizia::Rules>) bind_knizia(m);
    else bind_plain_game<R>(m);
}

/// A bot of `game` by kind, with options as JSON text: the game's make_bot (what the C API
/// makes), as the bot class of its kind.
py::object make_bot(const py::object& game, const std::string& kind, const py::handle& options) {
    py::object made = py::none();
    for_each_game(Games{}, [&](auto tag) {
        using R = typename decltype(tag)::Rules;
        if (!made.is_none() || !py::isinstance<typename R::Game>(game)) return;
        json::Value parsed;
        try {
            parsed = parse_text(options, "a bot's options");
        } catch (const StateFormatError& error) {
            throw OptionError(error.what());
        }
        std::unique_ptr<const typename R::Bot> bot = R::make_bot(game.cast<const typename R::Game&>(), kind, parsed);
        made = py::cast(std::shared_ptr<typename R::Bot>(const_cast<typename R::Bot*>(bot.release())));
    });
    if (made.is_none())
        throw OptionError("make_bot needs a game of diabolo.load, got " + py::repr(game).cast<std::string>());
    return made;
}

}  // namespace

}  // namespace diabolo::bindings

PYBIND11_MODULE(_core, m) {
    using namespace diabolo;
    m.doc() = "The compiled diabolo engine. Use it through the diabolo package.";
    bindings::register_errors(m);
    for_each_game(Games{}, [&](auto tag) { bindings::bind_game<typename decltype(tag)::Rules>(m); });
    m.def(
        "catalogue", [] { return bindings::to_python(catalogue_json()); },
        "Every game's entry in the catalogue (diabolo.catalogue() reads it).\n\n>>> from diabolo import _core\n"
        ">>> [entry['name'] for entry in _core.catalogue()]\n['duvelen', 'highcard', 'knizia', 'schacht']");
    m.def("make_bot", &bindings::make_bot, pybind11::arg("game"), pybind11::arg("kind"),
          pybind11::arg("options") = "{}",
          "A bot of ``game`` by kind, its options as JSON text: the C API's factory.\n\n>>> import diabolo\n"
          ">>> diabolo._core.make_bot(diabolo.load('schacht'), 'ismcts', '{\"iterations\": 50}').iterations\n50");
    bindings::guard_construction(m);
}
