"""RigEditor: a 2D rigging editor whose IK tells the truth about every solve."""
from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("rigeditor")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+source"
