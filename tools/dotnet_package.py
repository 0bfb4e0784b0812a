"""Makes the Unity package of the .NET binding: copies bindings/dotnet to OUT with the native
library of this machine (from the installed Python package) in its Plugins folder.

    python tools/dotnet_package.py Packages/org.diabolo.engine
"""

from __future__ import annotations

import argparse
import platform
import shutil
import sys
from pathlib import Path

import diabolo

PACKAGE = Path(__file__).resolve().parent.parent / "bindings" / "dotnet"
# The library of each platform and the Plugins folder it goes to (bindings/dotnet/Plugins/README.md).
LIBRARIES = {
    "linux": ("libdiabolo.so", "Linux/x86_64"),
    "darwin": ("libdiabolo.dylib", "macOS"),
    "win32": ("diabolo.dll", "Windows/x86_64"),
}


def make(out: Path) -> Path:
    """Copies the package to `out` with this machine's library; returns the library's copy."""
    x86_64 = platform.machine().lower() in ("x86_64", "amd64")
    if sys.platform not in LIBRARIES or (sys.platform != "darwin" and not x86_64):
        raise SystemExit(f"no Plugins folder for {sys.platform} {platform.machine()}: see Plugins/README.md")
    name, folder = LIBRARIES[sys.platform]
    library = Path(diabolo.get_library_dir()) / name
    if not library.is_file():
        raise SystemExit(f"the installed package has no {library}")
    shutil.copytree(PACKAGE, out, dirs_exist_ok=True)
    target = out / "Plugins" / folder / name
    shutil.copy2(library, target)
    return target


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the package folder to write (a Unity project's Packages/<name>)")
    print(make(parser.parse_args().out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
