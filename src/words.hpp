// The word game's materials as the game's binding uses them (src/words.cpp).
#pragma once

#include <memory>

#include "common.hpp"
#include "diabolo/knizia/knizia.hpp"
#include "diabolo/knizia/lexicon.hpp"

namespace diabolo::bindings {

using SharedLexicon = std::shared_ptr<Lexicon>;

/// The lexicon option: a diabolo.Lexicon, or a language code to load.
SharedLexicon lexicon_option(const py::handle& value);

/// The deck option: a Deck, a language code, or a mapping of counts (None: the
/// lexicon's language, else 'de').
knizia::Deck deck_option(const py::handle& value, const Lexicon& lexicon);

/// Binds Lexicon, Deck, the word finder and normalise_word.
void bind_words(py::module_& m);

}  // namespace diabolo::bindings
