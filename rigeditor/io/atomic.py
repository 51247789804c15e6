"""Atomic file writes: the old files stay intact unless every new one is complete.

One mechanism for one file and for several (a Spine skeleton, its atlas and pages;
one CSV per animation), :func:`write_files`:

1. stage: each file's data goes to a hidden temporary file in its own folder (so the
   rename never crosses a file system), written, flushed and fsynced. The temporary
   file stays open with an ``flock`` on it until the end, which is how a later
   write tells the leftovers of a killed process (lock free) from a write in progress.
2. commit, with SIGINT and SIGTERM held: every existing target gets a hard link as its
   backup, then each temporary file is renamed over its target (``os.replace``,
   atomic on POSIX and Windows). A failed rename, or a signal that arrived meanwhile,
   puts every backup back and removes the new files: all or nothing.
3. the backups are removed and the folders synced.

A failure at any step removes what this call made (temporary files, and the folders
it created for the outputs when asked to) and raises ``error(first path, ...)``
saying which file failed and why. Leftover temporary files of a target (a process
killed with SIGKILL mid-write) are removed by the next write of that target once
their lock is free and they are a minute old.
"""
from __future__ import annotations

import errno
import os
import re
import secrets
import shutil
import signal
import stat
import threading
import time
from pathlib import Path

from rigeditor.io.errors import ExportError, ProjectFileError

try:
    import fcntl
except ImportError:  # Windows: an open file cannot be removed there anyway
    fcntl = None

STALE_S = 60.0
"""Age (seconds since the inode last changed) after which an unlocked temporary file
of ours is a leftover: far beyond the few milliseconds between creating and locking."""


def atomic_write(path, data: bytes, *, error=ProjectFileError, action: str = "save") -> None:
    """Write ``data`` to ``path`` atomically; raise ``error(path, ["save: why"])`` on failure."""
    write_files({Path(path): data}, error=error, action=action)


def export_write(path, data: bytes) -> None:
    """Atomic write of an export (its folder is created): failures raise :class:`ExportError`."""
    write_files({Path(path): data}, error=ExportError, action="write", make_folders=True)


def write_files(files, *, error=ExportError, action: str = "write", make_folders: bool = False) -> None:
    """Write ``files`` ({path: bytes}, the main output first) all together or not at all.

    make_folders: create missing folders of the outputs (removed again on failure).
    Raises ``error(first path, ["ACTION: [NAME: ]why (nothing was written; ...)"])``.
    """
    items = [(Path(p), bytes(d)) for p, d in files.items()]
    if not items:
        return
    main = items[0][0]
    if len({os.path.abspath(p) for p, _ in items}) != len(items):
        raise ValueError("write_files: the same path twice")
    existed = [p.exists() for p, _ in items]
    created: list[Path] = []
    staged: list[_Staged] = []
    failed = main
    try:
        try:
            if make_folders:
                created = _make_folders(p.parent for p, _ in items)
            for target, data in items:
                failed = target
                _remove_leftovers(target)
                staged.append(_Staged(target, data))
            failed = None
            _commit(staged)
        finally:
            for s in staged:
                s.close()
    except BaseException as exc:
        # Also on KeyboardInterrupt or the command line's SIGTERM exception, which may
        # arrive anywhere: what this call made goes, what was there stays.
        for s in staged:
            s.discard()
        for folder in created:
            shutil.rmtree(folder, ignore_errors=True)
        if not isinstance(exc, OSError):
            raise
        failed = getattr(exc, "target", failed)
        name = f"{failed.name}: " if len(items) > 1 and failed is not None else ""
        if len(items) == 1:
            kept = "the previous file is unchanged" if existed[0] else "no file was created"
        else:
            kept = "no file was replaced or created"
        raise error(main, [f"{action}: {name}{exc.strerror or exc} (nothing was written; {kept})"]) from None
    for folder in {p.parent for p, _ in items}:
        _sync_folder(folder)


class _Staged:
    """One output's complete data in a locked temporary file beside its target."""

    def __init__(self, target: Path, data: bytes):
        self.target = target
        self.tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        self.backup: Path | None = None
        self.file = None
        mode = None
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except OSError:
            pass  # no previous file (or it cannot be seen): the open below says why
        # 0o666 filtered by the umask, like any new file; an existing file keeps its mode.
        fd = os.open(self.tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            self.file = os.fdopen(fd, "wb")
            self.file.write(data)
            self.file.flush()
            os.fsync(fd)
            if mode is not None:
                os.chmod(self.tmp, mode)
        except BaseException:
            # The random name is ours (the open found it free), whatever arrived.
            if self.file is None:
                os.close(fd)
            self.close()
            self.discard()
            raise

    def close(self) -> None:
        if self.file is not None:
            try:
                self.file.close()
            except OSError:
                pass
            self.file = None

    def discard(self) -> None:
        _remove(self.tmp)


def _commit(staged: list[_Staged]) -> None:
    """Rename every staged file over its target, or none (see the module's step 2)."""
    held = _HeldSignals()
    try:
        with held:
            done: list[_Staged] = []
            try:
                for s in staged:
                    if s.target.exists():
                        s.backup = s.target.with_name(f".{s.target.name}.{secrets.token_hex(4)}.tmp")
                        try:
                            os.link(s.target, s.backup)
                        except OSError:  # a file system without hard links: a copy, then
                            shutil.copy2(s.target, s.backup)
                    os.replace(s.tmp, s.target)
                    done.append(s)
                if held.caught:
                    raise InterruptedError(errno.EINTR, "interrupted")
            except OSError as exc:
                _roll_back(done)
                if not isinstance(exc, InterruptedError):
                    exc.target = s.target  # which file failed, for the message
                    raise
            finally:
                for s in staged:
                    if s.backup is not None:
                        _remove(s.backup)
    finally:
        held.deliver()  # KeyboardInterrupt (or SIGTERM's handler) now, after the roll-back


def _roll_back(done: list[_Staged]) -> None:
    for s in reversed(done):
        try:
            if s.backup is not None:
                os.replace(s.backup, s.target)
                s.backup = None
            else:
                os.unlink(s.target)
        except OSError:
            pass  # the rest still goes back


class _HeldSignals:
    """Within the block SIGINT and SIGTERM are only noted (main thread only: signal
    handlers can be set nowhere else); :meth:`deliver` hands them to the handlers
    that were in place, once those are back."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self):
        self.caught: list[int] = []
        self.previous: dict = {}

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            for sig in self.SIGNALS:
                try:
                    self.previous[sig] = signal.signal(sig, lambda s, f: self.caught.append(s))
                except (ValueError, OSError):
                    pass
        return self

    def __exit__(self, *exc):
        for sig, handler in self.previous.items():
            signal.signal(sig, handler)
        return False

    def deliver(self) -> None:
        for sig in dict.fromkeys(self.caught):
            handler = self.previous.get(sig)
            if callable(handler):
                handler(sig, None)
            elif handler != signal.SIG_IGN:
                signal.raise_signal(sig)


def _make_folders(folders) -> list[Path]:
    """Create the missing ``folders``; returns the outermost ones made, for removal."""
    made = []
    for folder in dict.fromkeys(folders):
        missing = None
        probe = folder
        while not probe.exists() and probe != probe.parent:
            missing, probe = probe, probe.parent
        if missing is not None:
            folder.mkdir(parents=True, exist_ok=True)
            made.append(missing)
    return made


def _remove_leftovers(target: Path) -> None:
    """Remove temporary files of ``target`` that a killed process left (their lock is
    free and they are older than STALE_S); a write in progress holds its lock."""
    if fcntl is None:
        return
    pattern = re.compile(rf"\.{re.escape(target.name)}\.[0-9a-f]{{8}}\.tmp")
    try:
        names = [n for n in os.listdir(target.parent or ".") if pattern.fullmatch(n)]
    except OSError:
        return
    for name in names:
        path = target.with_name(name)
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode) or time.time() - os.fstat(fd).st_ctime < STALE_S:
                continue
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.unlink(path)
        except OSError:
            pass  # locked: a write in progress
        finally:
            os.close(fd)


def _remove(tmp: Path) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass


def _sync_folder(folder: Path) -> None:
    """Make the renames themselves durable; not every platform can open a folder."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
