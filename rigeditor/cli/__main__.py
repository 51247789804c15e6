"""``python -m rigeditor.cli``: the command line."""
import sys

from rigeditor.cli import main

sys.exit(main())
