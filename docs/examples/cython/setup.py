"""Builds flat_mc_cython.pyx against the installed diabolo (its C API library and
Cython declarations): ``python setup.py build_ext --inplace``."""

from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

import diabolo

library = diabolo.get_library_dir()
search = Extension(
    "flat_mc_cython",
    ["flat_mc_cython.pyx"],
    include_dirs=[diabolo.get_include()],
    library_dirs=[library],
    runtime_library_dirs=[library],
    libraries=["diabolo"],
    extra_compile_args=["-O2"],
)
# The folder that holds the diabolo package, where `cimport diabolo.capi` finds capi.pxd
# (an editable install does not put it on sys.path).
package_parent = str(Path(diabolo.__file__).resolve().parent.parent)
setup(ext_modules=cythonize([search], include_path=[package_parent], language_level=3))
