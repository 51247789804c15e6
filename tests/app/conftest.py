"""The suite imports test modules by path (--import-mode=importlib), so helper
modules beside the tests (fakes) are made importable here."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
