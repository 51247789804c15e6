"""Command line entry point: ``rigeditor`` opens the editor."""
from __future__ import annotations

import sys


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    from rigeditor.app.main import run  # lazily: the headless commands never load Qt

    return run(argv)


if __name__ == "__main__":
    sys.exit(main())
