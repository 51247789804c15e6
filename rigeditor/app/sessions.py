"""Editing sessions on disk: which ones crashed, and where their autosaves go.

Each running editor has a session id (random, never a PID: PIDs are reused after a
reboot) and, under the data folder:

- ``sessions/<id>.lock``: a file the session holds an exclusive ``flock`` on (a
  byte-range lock on Windows). The kernel drops the lock when the process dies,
  however it dies (``kill -9`` included), so "the lock can be taken" means "crashed".
- ``sessions/<id>.json``: the marker: the autosave's path, the project's own path and,
  for an unsaved example, the folder of its pictures.
- ``autosave/<id>.rigproj``: the autosave.

Autosaves that are not recovered (declined, or unreadable by this version) are moved
to ``recovered/``, never deleted; the user opens them with File > Open.

The data folder is the platform's application data folder, or ``$RIGEDITOR_DATA_DIR``
when that is set (tests and portable installs).
"""
from __future__ import annotations

import json
import os
import shutil
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from rigeditor.io import EXTENSION as PROJECT_SUFFIX

DATA_DIR_ENV = "RIGEDITOR_DATA_DIR"
RECOVERED = "recovered"

try:
    import fcntl

    def _lock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)
except ImportError:  # Windows
    import msvcrt

    def _lock(fd: int) -> None:
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)

    def _unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)


def default_data_dir() -> Path:
    """``$RIGEDITOR_DATA_DIR``, else the platform's application data folder."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    from PySide6.QtCore import QStandardPaths

    return Path(QStandardPaths.writableLocation(QStandardPaths.AppDataLocation))


class SessionLock:
    """An exclusive lock on ``path``, held until :meth:`release` or the process's death."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> bool:
        """Take the lock without waiting; False when another process (or another
        lock object in this one) holds it."""
        if self._fd is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            _lock(fd)
        except OSError:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def release(self, *, remove: bool = False) -> None:
        if self._fd is None:
            return
        if remove:  # while still held: nobody can be between "locked" and "gone"
            self.path.unlink(missing_ok=True)
        try:
            _unlock(self._fd)
        finally:
            os.close(self._fd)
            self._fd = None


def new_session_id() -> str:
    return uuid.uuid4().hex


@dataclass
class Crashed:
    """A session whose process is gone. Its lock is held by us until :meth:`forget`
    or :meth:`release`, so two editors starting together never both recover it."""

    marker: Path
    autosave: Path
    original: Path | None
    lock: SessionLock | None
    images: Path | None = None  # an unsaved example's pictures (not beside any project file)

    def forget(self) -> None:
        """The crash is dealt with: marker and lock go (the autosave is handled apart)."""
        self.marker.unlink(missing_ok=True)
        if self.lock is not None:
            self.lock.release(remove=True)

    def release(self) -> None:
        """Leave it for the next start."""
        if self.lock is not None:
            self.lock.release()


def crashed_sessions(data_dir: Path, own_id: str) -> list[Crashed]:
    """Sessions in ``data_dir`` whose editor is no longer running, newest first.

    Crashed = its lock can be taken. A marker without a lock file comes from an
    older version that kept only the PID: crashed when no process has that PID. An
    unreadable marker still names its autosave (``autosave/<id>.rigproj``).
    """
    out = []
    for marker in (Path(data_dir) / "sessions").glob("*.json"):
        if marker.stem == own_id:
            continue
        lock = SessionLock(marker.with_suffix(".lock"))
        if lock.path.exists():
            if not lock.acquire():
                continue  # that editor is running (and may be writing its marker)
        else:
            lock = None
        info = _read_marker(marker)
        if lock is None and _pid_alive(info.get("pid")):
            continue
        autosave = info.get("autosave") or Path(data_dir) / "autosave" / f"{marker.stem}{PROJECT_SUFFIX}"
        original, images = info.get("path"), info.get("images")
        out.append(Crashed(marker, Path(autosave), Path(original) if original else None, lock,
                           Path(images) if images else None))
    out.sort(key=lambda c: _mtime(c.marker), reverse=True)
    return out


def _read_marker(marker: Path) -> dict:
    try:
        info = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(info, dict):
        return {}
    return {k: v for k, v in info.items()
            if (k == "pid" and isinstance(v, int)) or (k != "pid" and isinstance(v, str))}


def keep(autosave: Path, data_dir: Path, original: Path | None) -> Path:
    """Move an autosave that was not recovered into ``<data_dir>/recovered/`` under a
    readable name (the project's name and the autosave's time). Returns where it is
    now; if it cannot be moved it stays where it was, and that path is returned."""
    folder = Path(data_dir) / RECOVERED
    stamp = time.strftime("%Y-%m-%d %H.%M.%S", time.localtime(_mtime(autosave)))
    stem = f"{original.stem if original else 'unsaved project'} (autosaved {stamp})"
    target = folder / f"{stem}{autosave.suffix}"
    n = 2
    while target.exists():
        target = folder / f"{stem} {n}{autosave.suffix}"
        n += 1
    try:
        folder.mkdir(parents=True, exist_ok=True)
        shutil.move(str(autosave), str(target))
    except OSError:
        return autosave
    return target


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _pid_alive(pid) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, not ours
        return True
    return True
