"""File glue: New, Open, Save, Save As, Open Recent, Export, autosave and crash recovery.

Everything on disk goes through the io layer (its atomic save, its ``ProjectFileError``
messages); this module only decides when, asks the user (through an injectable
:class:`~rigeditor.app.dialogs.Dialogs`) and keeps the Document in step.

Autosave: every ``autosave_ms`` while the document has unsaved changes, the project is
saved to ``<data_dir>/autosave/<pid>.rigproj`` (``data_dir`` defaults to the platform's
application data folder). A session marker ``<data_dir>/sessions/<pid>.json`` says a
session is running; a clean exit removes both. At the next start a marker whose
process is gone, with an autosave beside it, is a crash: the user is offered recovery.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from PySide6.QtCore import QObject, QSettings, QStandardPaths, QTimer, Signal

from rigeditor.app.dialogs import Dialogs
from rigeditor.io import EXTENSION as PROJECT_SUFFIX
from rigeditor.io import ProjectFileError, load_project, save_project
from rigeditor.model.examples import arm

PROJECT_FILTER = f"RigEditor projects (*{PROJECT_SUFFIX});;All files (*)"
EXPORTS = {
    # kind: (menu label, file filter, default suffix)
    "csv": ("Curves (CSV)…", "CSV (*.csv)", ".csv"),
    "json": ("Curves (JSON)…", "JSON (*.json)", ".json"),
    "spine": ("Spine JSON…", "Spine JSON (*.json)", ".spine.json"),
    "png": ("Plot (PNG)…", "PNG image (*.png)", ".png"),
}
MAX_RECENT = 8
FILE_ERRORS = (ProjectFileError, OSError)


def file_errors() -> tuple[type[BaseException], ...]:
    """Exceptions whose message is shown to the user."""
    return FILE_ERRORS


def describe(exc: BaseException, path) -> str:
    """The io layer's message as is (it names the file); others get the path in front."""
    return str(exc) if isinstance(exc, ProjectFileError) else f"{path}: {exc}"


def export(kind: str, project, bake, path) -> None:
    """Write ``bake`` of ``project`` through the io layer (atomically, or nothing)."""
    path = Path(path)
    if kind == "csv":
        from rigeditor.io.export_csv import export_curves_csv

        export_curves_csv(project, bake, path)
    elif kind == "json":
        from rigeditor.io.export_json import export_curves_json

        export_curves_json(project, bake, path)
    elif kind == "spine":
        from rigeditor.io.export_spine import export_spine_json

        export_spine_json(project, bake, path)
    elif kind == "png":
        from rigeditor.app.plot_export import plot_png
        from rigeditor.io.atomic import export_write

        export_write(path, plot_png(project.name, bake))
    else:
        raise ValueError(f"export: unknown kind {kind!r}")


def default_data_dir() -> Path:
    return Path(QStandardPaths.writableLocation(QStandardPaths.AppDataLocation))


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


class FileController(QObject):
    """recentChanged(): the recent-files list changed. ``window`` parents dialogs."""

    recentChanged = Signal()

    def __init__(self, doc, window=None, *, settings: QSettings | None = None, dialogs=None,
                 data_dir: Path | None = None, autosave_ms: int = 60_000):
        super().__init__(window)
        self.doc = doc
        self.window = window
        self.settings = settings if settings is not None else QSettings()
        self.dialogs = dialogs or Dialogs()
        self.data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
        self.pid = os.getpid()
        self._timer = QTimer(self)
        self._timer.setInterval(autosave_ms)
        self._timer.timeout.connect(self.autosave)

    # ------------------------------------------------------------------ documents
    def display_name(self) -> str:
        return self.doc.path.name if self.doc.path else f"{self.doc.project.name} (unsaved)"

    def maybe_save(self) -> bool:
        """Before the document goes away: True to go on (saved or discarded)."""
        if not self.doc.is_modified():
            return True
        answer = self.dialogs.ask_save_changes(self.window, self.display_name())
        if answer == "save":
            return self.save()
        return answer == "discard"

    def new(self) -> bool:
        if not self.maybe_save():
            return False
        self.doc.replace_document(arm(), None)
        return True

    def open(self, path=None) -> bool:
        if not self.maybe_save():
            return False
        if path is None:
            path = self.dialogs.open_file(self.window, "Open project", self._last_dir(), PROJECT_FILTER)
            if not path:
                return False
        return self.load(path)

    def load(self, path) -> bool:
        """Open ``path`` (no question asked); a bad file shows the io layer's message and
        leaves the current document as it was."""
        path = Path(path)
        try:
            project = load_project(path)
        except file_errors() as exc:
            self.dialogs.error(self.window, "Cannot open project", describe(exc, path))
            return False
        self.doc.replace_document(project, path)
        self._remember(path)
        return True

    def save(self) -> bool:
        if self.doc.path is None:
            return self.save_as()
        return self._write(self.doc.path)

    def save_as(self, path=None) -> bool:
        if path is None:
            start = str(Path(self._last_dir()) / f"{self.doc.project.name}{PROJECT_SUFFIX}")
            path = self.dialogs.save_file(self.window, "Save project as", start, PROJECT_FILTER)
            if not path:
                return False
            if not Path(path).suffix:
                path = str(path) + PROJECT_SUFFIX
        return self._write(Path(path))

    def _write(self, path: Path) -> bool:
        try:
            save_project(self.doc.project, path)
        except file_errors() as exc:
            self.dialogs.error(self.window, "Cannot save project", describe(exc, path))
            return False
        self.doc.mark_saved(path)
        self._remember(path)
        self._drop_autosave()
        return True

    def export(self, kind: str, path=None) -> bool:
        label, filters, suffix = EXPORTS[kind]
        if path is None:
            start = str(Path(self._last_dir()) / f"{self.doc.project.name}{suffix}")
            path = self.dialogs.save_file(self.window, f"Export {label.rstrip('…')}", start, filters)
            if not path:
                return False
        try:
            export(kind, self.doc.project, self.doc.settled_bake(), Path(path))
        except (*FILE_ERRORS, ImportError, ValueError) as exc:
            self.dialogs.error(self.window, "Export failed", describe(exc, path))
            return False
        return True

    # ------------------------------------------------------------------ recent files
    def recent_files(self) -> list[str]:
        value = self.settings.value("recentFiles", [])
        if isinstance(value, str):
            value = [value] if value else []
        return [str(v) for v in (value or [])]

    def clear_recent(self) -> None:
        self.settings.setValue("recentFiles", [])
        self.recentChanged.emit()

    def _remember(self, path: Path) -> None:
        path = str(Path(path).resolve())
        files = [path] + [f for f in self.recent_files() if f != path]
        self.settings.setValue("recentFiles", files[:MAX_RECENT])
        self.settings.setValue("lastDir", str(Path(path).parent))
        self.settings.sync()
        self.recentChanged.emit()

    def _last_dir(self) -> str:
        return str(self.settings.value("lastDir", "") or Path.home())

    # ------------------------------------------------------------------ autosave, recovery
    @property
    def autosave_path(self) -> Path:
        return self.data_dir / "autosave" / f"{self.pid}{PROJECT_SUFFIX}"

    @property
    def marker_path(self) -> Path:
        return self.data_dir / "sessions" / f"{self.pid}.json"

    def begin_session(self) -> None:
        """Write this session's marker and start the autosave timer."""
        self._write_marker()
        self._timer.start()

    def end_session(self) -> None:
        """A clean exit: no marker, no autosave left behind."""
        self._timer.stop()
        self._drop_autosave()
        self.marker_path.unlink(missing_ok=True)

    def autosave(self) -> Path | None:
        """Save a copy to the data folder when there are unsaved changes (none left
        behind when there are none: undone back to the saved state)."""
        if not self.doc.is_modified():
            self._drop_autosave()
            return None
        try:
            self.autosave_path.parent.mkdir(parents=True, exist_ok=True)
            save_project(self.doc.project, self.autosave_path)
        except file_errors() as exc:
            if self.window is not None and hasattr(self.window, "statusBar"):
                self.window.statusBar().showMessage(f"Autosave failed: {exc}", 10_000)
            return None
        self._write_marker()
        return self.autosave_path

    def crashed_sessions(self) -> list[dict]:
        """Markers of sessions whose process is gone (newest first)."""
        out = []
        for marker in (self.data_dir / "sessions").glob("*.json"):
            try:
                info = json.loads(marker.read_text(encoding="utf-8"))
                pid = int(info["pid"])
            except (OSError, ValueError, KeyError, TypeError):
                marker.unlink(missing_ok=True)
                continue
            if pid == self.pid or _alive(pid):
                continue
            info["marker"] = str(marker)
            out.append(info)
        out.sort(key=lambda i: Path(i["marker"]).stat().st_mtime, reverse=True)
        return out

    def offer_recovery(self) -> bool:
        """Ask to recover the newest crashed session with an autosave; clean up the rest.
        Returns True when a project was recovered (it opens as unsaved changes)."""
        recovered = False
        for info in self.crashed_sessions():
            if recovered:
                break  # older crashes wait for the next start
            autosave = Path(info.get("autosave") or "")
            if autosave.name and autosave.is_file():
                original = info.get("path")
                when = autosave.stat().st_mtime
                from datetime import datetime

                stamp = datetime.fromtimestamp(when).strftime("%Y-%m-%d %H:%M")
                what = f"'{Path(original).name}'" if original else "an unsaved project"
                if self.dialogs.confirm(self.window, "Recover unsaved work",
                                        f"RigEditor did not close cleanly. Recover the changes to {what} "
                                        f"autosaved at {stamp}?"):
                    try:
                        project = load_project(autosave)
                    except file_errors() as exc:
                        self.dialogs.error(self.window, "Cannot recover", describe(exc, autosave))
                    else:
                        self.doc.replace_document(project, Path(original) if original else None)
                        self.doc.mark_unsaved()  # recovered work is unsaved work
                        recovered = True
                        self.autosave()
            if autosave.name and autosave != self.autosave_path:
                autosave.unlink(missing_ok=True)
            Path(info["marker"]).unlink(missing_ok=True)
        return recovered

    def _write_marker(self) -> None:
        try:
            self.marker_path.parent.mkdir(parents=True, exist_ok=True)
            info = {"pid": self.pid, "autosave": str(self.autosave_path),
                    "path": str(self.doc.path) if self.doc.path else None}
            self.marker_path.write_text(json.dumps(info), encoding="utf-8")
        except OSError:
            pass

    def _drop_autosave(self) -> None:
        self.autosave_path.unlink(missing_ok=True)

