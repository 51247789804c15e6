"""The allocator tuning is accepted where it exists and is idempotent."""
import sys

from rigeditor.core.memory import available_bytes, cgroup_room, tune_allocator


def test_tuning_is_accepted_on_glibc_and_harmless_to_repeat():
    first = tune_allocator()
    assert tune_allocator() == first
    if sys.platform.startswith("linux"):
        import platform

        if platform.libc_ver()[0] == "glibc":
            assert first is True


# ---- the memory left: MemAvailable and cgroup limits, read from fake trees

def _tree(tmp_path, cgroup_lines, files, meminfo_kb=8_000_000):
    """A fake /proc and /sys/fs/cgroup under tmp_path; ``files``: {relative path: text}."""
    proc, root = tmp_path / "proc", tmp_path / "cgroup"
    (proc / "self").mkdir(parents=True)
    (proc / "meminfo").write_text(f"MemTotal: 16000000 kB\nMemFree: 100 kB\nMemAvailable: {meminfo_kb} kB\n")
    (proc / "self" / "cgroup").write_text("".join(line + "\n" for line in cgroup_lines))
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return str(proc), str(root)


def test_without_a_limit_the_memory_available_is_meminfos(tmp_path):
    proc, root = _tree(tmp_path, ["0::/"], {"memory.max": "max\n", "memory.current": "123\n"})
    assert available_bytes(proc, root) == 8_000_000 * 1024
    assert cgroup_room(proc, root) is None


def test_a_cgroup_v1_limit_lowers_the_memory_available(tmp_path):
    # 600 MB limit, 200 MB used of which 50 MB is page cache the kernel takes back first.
    group = "memory/process_api/abc"
    proc, root = _tree(tmp_path, ["4:memory:/process_api/abc", "1:cpu:/", "0::/"], {
        f"{group}/memory.limit_in_bytes": "600000000\n",
        f"{group}/memory.usage_in_bytes": "200000000\n",
        f"{group}/memory.stat": "cache 60000000\nrss 140000000\ninactive_file 50000000\n",
        "memory/memory.limit_in_bytes": "9223372036854771712\n",  # the root: no limit
        "memory/memory.usage_in_bytes": "7000000000\n",
    })
    assert available_bytes(proc, root) == 600_000_000 - 200_000_000 + 50_000_000


def test_a_cgroup_v1_limit_binds_from_a_parent_group_and_in_a_container(tmp_path):
    parent = {"memory/slice/memory.limit_in_bytes": "300000000\n", "memory/slice/memory.usage_in_bytes": "100000000\n",
              "memory/slice/job/memory.limit_in_bytes": "9223372036854771712\n",
              "memory/slice/job/memory.usage_in_bytes": "90000000\n"}
    proc, root = _tree(tmp_path / "a", ["3:cpu,memory:/slice/job"], parent)
    assert available_bytes(proc, root) == 200_000_000
    # A container sees its own group at the mount's root, not under the host's path.
    inside = {"memory/memory.limit_in_bytes": "600000000\n", "memory/memory.usage_in_bytes": "500000000\n"}
    proc, root = _tree(tmp_path / "b", ["4:memory:/docker/0123abcd"], inside)
    assert available_bytes(proc, root) == 100_000_000


def test_a_cgroup_v2_limit_at_any_level_lowers_the_memory_available(tmp_path):
    proc, root = _tree(tmp_path, ["0::/user.slice/app.scope"], {
        "user.slice/memory.max": "1000000000\n", "user.slice/memory.current": "900000000\n",
        "user.slice/app.scope/memory.max": "max\n", "user.slice/app.scope/memory.current": "800000000\n",
        "user.slice/app.scope/memory.stat": "anon 700000000\ninactive_file 30000000\n",
    })
    assert available_bytes(proc, root) == 100_000_000
    # Over its limit (the kernel reclaims or kills): nothing is available, never negative.
    proc, root = _tree(tmp_path / "over", ["0::/"], {"memory.max": "100\n", "memory.current": "500\n"})
    assert available_bytes(proc, root) == 0


def test_the_tightest_of_meminfo_and_the_limits_wins(tmp_path):
    proc, root = _tree(tmp_path, ["0::/"], {"memory.max": "99000000000\n", "memory.current": "0\n"},
                       meminfo_kb=1000)
    assert available_bytes(proc, root) == 1000 * 1024
