"""``python -m diabolo``: the ``diabolo`` command line (see :mod:`diabolo.cli`)."""

from __future__ import annotations

import sys

from diabolo.cli import main

if __name__ == "__main__":
    sys.exit(main())
