"""Sphinx configuration of the diabolo documentation.

Only Sphinx's built-in theme (alabaster) and built-in extensions are used, and nothing
is fetched from the network (no intersphinx). Build with warnings as errors::

    python -m sphinx -W --keep-going -b html docs build/docs-html
    python -m sphinx -W --keep-going -b doctest docs build/docs-doctest

The package must be importable (``pip install .``): autodoc reads the docstrings of the
compiled engine, and the doctest builder runs every example of the pages. The docstrings'
examples run once, in ``tests/test_doctests.py``, which finds them in every public module
and class, not only those the pages pull in: the doctest builder leaves them out.
"""

from __future__ import annotations

import doctest
import re

from sphinx.application import Sphinx

import diabolo

project = "diabolo"
author = "The diabolo developers"
project_copyright = "2026, The diabolo developers"
release = diabolo.__version__
version = ".".join(release.split(".")[:2])

extensions: list[str] = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
]

root_doc = "index"
exclude_patterns: list[str] = ["_build"]
templates_path: list[str] = []
language = "en"

html_theme = "alabaster"
html_title = f"diabolo {release}"
html_static_path: list[str] = []

# ---- autodoc ------------------------------------------------------------------------
# The game classes are compiled (pybind11), so there is no source order to follow:
# members are grouped (methods, then properties) and sorted by name.
autodoc_member_order = "groupwise"
autodoc_typehints = "signature"
autodoc_class_signature = "mixed"

# pybind11 writes each signature into the first line of the docstring, where autodoc
# reads it (autodoc_docstring_signature), with the extension module's names:
# "new_state(self: diabolo._core.SchachtGame, seed: object = 0, ...)". The classes are
# public in diabolo.<game>, and ``self`` is noise, so both are rewritten.
_SELF = re.compile(r"^\(self(?::\s*[\w.]+)?(?:,\s*|(?=\)))")
_CORE_CLASS = re.compile(r"\bdiabolo\._core\.(\w+)")


def _public_name(match: re.Match[str]) -> str:
    """``diabolo._core.SchachtState`` -> ``diabolo.schacht.SchachtState``."""
    cls = getattr(diabolo._core, match.group(1), None)
    module = getattr(cls, "__module__", "diabolo._core")
    return f"{module}.{match.group(1)}"


def _clean_signature(
    app: Sphinx,
    what: str,
    name: str,
    obj: object,
    options: object,
    signature: str | None,
    return_annotation: str | None,
) -> tuple[str, str | None] | None:
    """Rewrites pybind11 signatures as described above (autodoc-process-signature)."""
    if signature is None or not name.startswith("diabolo."):
        return None
    signature = _CORE_CLASS.sub(_public_name, _SELF.sub("(", signature))
    if return_annotation is not None:
        return_annotation = _CORE_CLASS.sub(_public_name, return_annotation)
    return signature, return_annotation


def _docstring_examples_run_elsewhere(
    app: Sphinx, what: str, name: str, obj: object, options: object, lines: list[str]
) -> None:
    """Under the doctest builder, autodoc pulls in no docstring (autodoc-process-docstring):
    tests/test_doctests.py runs their examples, so each runs once."""
    if app.builder.name == "doctest":
        lines.clear()


def setup(app: Sphinx) -> None:
    """Connects the signature clean-up to autodoc, and keeps the docstrings' examples out
    of the doctest builder."""
    app.connect("autodoc-process-signature", _clean_signature)
    app.connect("autodoc-process-docstring", _docstring_examples_run_elsewhere)


# ---- doctest ------------------------------------------------------------------------
# Every example imports what it uses, but the docstrings of the compiled classes are
# shown on their own (autodoc), so ``diabolo`` is made available to all of them.
doctest_global_setup = "import diabolo\nfrom diabolo.schacht import SchachtMove"
# Sphinx's default flags without IGNORE_EXCEPTION_DETAIL, so that the error messages
# shown in the docs are checked too; NORMALIZE_WHITESPACE as in pytest's configuration.
doctest_default_flags = doctest.ELLIPSIS | doctest.DONT_ACCEPT_TRUE_FOR_1 | doctest.NORMALIZE_WHITESPACE
