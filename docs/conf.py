"""Sphinx configuration of the diabolo documentation.

Only Sphinx's built-in theme (alabaster) and built-in extensions are used, and nothing
is fetched from the network (no intersphinx). Build with warnings as errors::

    python -m sphinx -W --keep-going -b html docs build/docs-html
    python -m sphinx -W --keep-going -b doctest docs build/docs-doctest

The package must be importable (``pip install .``): autodoc reads the docstrings of the
compiled engine, and the doctest builder runs every ``>>>`` example of the pages and of
the docstrings that autodoc pulls in.
"""

from __future__ import annotations

import doctest

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
# The classes are compiled (pybind11): their signatures come from the first line of each
# docstring, which pybind11 writes, and autodoc_docstring_signature (on by default) reads.
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_class_signature = "separated"
autodoc_default_options: dict[str, bool | str] = {
    "member-order": "bysource",
}

# ---- doctest ------------------------------------------------------------------------
# Every example imports what it uses, but the docstrings of the compiled classes are
# shown on their own (autodoc), so ``diabolo`` is made available to all of them.
doctest_global_setup = "import diabolo\nfrom diabolo.schacht import SchachtMove"
# Sphinx's default flags without IGNORE_EXCEPTION_DETAIL, so that the error messages
# shown in the docs are checked too; NORMALIZE_WHITESPACE as in pytest's configuration.
doctest_default_flags = doctest.ELLIPSIS | doctest.DONT_ACCEPT_TRUE_FOR_1 | doctest.NORMALIZE_WHITESPACE
