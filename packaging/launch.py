"""The bundle's entry point: the same as the ``rigeditor`` console script (rigeditor.cli:main)."""
import sys

from rigeditor.cli import main

if __name__ == "__main__":
    sys.exit(main())
