"""The allocator tuning is accepted where it exists and is idempotent."""
import sys

from rigeditor.core.memory import tune_allocator


def test_tuning_is_accepted_on_glibc_and_harmless_to_repeat():
    first = tune_allocator()
    assert tune_allocator() == first
    if sys.platform.startswith("linux"):
        import platform

        if platform.libc_ver()[0] == "glibc":
            assert first is True
