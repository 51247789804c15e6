"""Atomic file writes: the old file stays intact unless the new one is complete.

The data goes to a temporary file in the same folder (so the rename never crosses a
file system), is flushed and fsynced, then renamed over the target with os.replace,
which is atomic on POSIX and Windows. A failure at any step removes the temporary
file and raises :class:`ProjectFileError` saying why; the previous file is untouched.
"""
from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

from rigeditor.io.errors import ExportError, ProjectFileError


def atomic_write(path, data: bytes, *, error=ProjectFileError, action: str = "save") -> None:
    """Write ``data`` to ``path`` atomically; raise ``error(path, ["save: why"])`` on failure."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    mode = None
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        pass  # no previous file (or it cannot be seen): the open below says why
    try:
        try:
            # 0o666 filtered by the umask, like any new file; an existing file keeps its mode.
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            if mode is not None:
                os.chmod(tmp, mode)
            os.replace(tmp, path)
        except BaseException as exc:
            # Also on KeyboardInterrupt or the command line's SIGTERM exception, which
            # may arrive anywhere, even just after the open: the random name is ours
            # unless the open itself found it taken.
            if not isinstance(exc, FileExistsError):
                _remove(tmp)
            raise
    except OSError as exc:
        kept = "the previous file is unchanged" if mode is not None else "no file was created"
        raise error(path, [f"{action}: {exc.strerror or exc} (nothing was written; {kept})"]) from None
    _sync_folder(path.parent)


def export_write(path, data: bytes) -> None:
    """Atomic write of an export: failures raise :class:`ExportError`."""
    atomic_write(path, data, error=ExportError, action="write")


def _remove(tmp: Path) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable; not every platform can open a folder."""
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
