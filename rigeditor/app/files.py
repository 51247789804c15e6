"""File glue: New, Open, Save, Save As, Open Recent, Export, autosave and crash recovery.

Everything on disk goes through the io layer (its atomic save, its ``ProjectFileError``
messages); this module only decides when, asks the user (through an injectable
:class:`~rigeditor.app.dialogs.Dialogs`) and keeps the Document in step.

Autosave: a few seconds after the last change (``autosave_delay_ms``, restarted by
every change) and every ``autosave_ms`` while the document has unsaved changes, the
project is saved to the session's autosave in the data folder (see
:mod:`rigeditor.app.sessions`: the session holds a lock the kernel drops when the
process dies). A clean exit removes the autosave and the session's files. At the next
start a session whose lock is free is a crash: the user is offered its work; work
that is declined or cannot be read is moved to the data folder's "recovered" folder,
and the message says where.
"""
from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QObject, QSettings, QTimer, Signal

from rigeditor.app.guard import Guarded
from rigeditor.app import sessions
from rigeditor.app.dialogs import Dialogs
from rigeditor.io import EXTENSION as PROJECT_SUFFIX
from rigeditor.io import ProjectFileError, load_project, save_project
from rigeditor.io.project_file import keep_older_file, read_project
from rigeditor.io.art.images import save_with_pictures
from rigeditor.model.data.project import Project

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


def export(kind: str, project, bake, path, images=None, project_file=None) -> None:
    """Write ``bake`` of ``project`` through the io layer (atomically, or nothing): the
    open animation, except Spine JSON, which holds every animation (the others are
    evaluated here). images: the project file's folder, where the atlas finds the
    pictures. project_file: the open project's file, which no output may replace."""
    path = Path(path)
    if kind == "csv":
        from rigeditor.io.curves.write_csv import export_curves_csv

        export_curves_csv(project, bake, path)
    elif kind == "json":
        from rigeditor.io.curves.write_json import export_curves_json

        export_curves_json(project, bake, path)
    elif kind == "spine":
        from rigeditor.io.spine.write import animation_label, export_spine_json
        from rigeditor.model import evaluate
        from rigeditor.model.data import clips

        # Every animation in one skeleton, in the project's order, as `rigeditor bake` writes it.
        names = clips.names(project)
        items = [(n, project, bake) if n == project.animation else (n, p := clips.switch(project, n), evaluate(p))
                 for n in names]
        (label, first, first_bake), *more = items
        export_spine_json(first, first_bake, path, animation=animation_label(project, label), more=more,
                          images=images, protect={project_file: "the project file"} if project_file else None)
    elif kind == "png":
        from rigeditor.app.plot_export import plot_png
        from rigeditor.io.atomic import export_write

        export_write(path, plot_png(project.name, bake))
    else:
        raise ValueError(f"export: unknown kind {kind!r}")


def _folder_state(folder: Path) -> dict[str, tuple[int, int, int]]:
    """{file name: (inode, mtime in ns, size)} of the files in ``folder`` ({} when it is missing)."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return {}
    out = {}
    for e in entries:
        try:
            if e.is_file():
                st = e.stat()
                out[e.name] = (st.st_ino, st.st_mtime_ns, st.st_size)
        except OSError:
            continue
    return out


def written_since(folder: Path, before: dict) -> list[str]:
    """Names of the files of ``folder`` created or replaced since ``before``
    (:func:`_folder_state`): an atomic write is a new file, so a rewrite counts too."""
    return sorted(name for name, state in _folder_state(folder).items() if before.get(name) != state)


def exported_message(path: Path, names: list[str]) -> str:
    """The status bar's word after an export: every file written, ``path`` first."""
    names = sorted(set(names) | {path.name}, key=lambda n: (n != path.name, n))
    files = "file" if len(names) == 1 else f"{len(names)} files"
    return f"Exported {files} to {path.parent}: {', '.join(names)}"


class FileController(Guarded, QObject):
    """recentChanged(): the recent-files list changed. ``window`` parents dialogs."""

    recentChanged = Signal()

    def __init__(self, doc, window=None, *, settings: QSettings | None = None, dialogs=None,
                 data_dir: Path | None = None, autosave_ms: int = 60_000, autosave_delay_ms: int = 3_000):
        super().__init__(window)
        self.doc = doc
        self.window = window
        self.settings = settings if settings is not None else QSettings()
        self.dialogs = dialogs or Dialogs()
        self.data_dir = Path(data_dir) if data_dir is not None else sessions.default_data_dir()
        self.session = sessions.new_session_id()
        self._lock = sessions.SessionLock(self.data_dir / "sessions" / f"{self.session}.lock")
        self._timer = QTimer(self)
        self._timer.setInterval(autosave_ms)
        self._timer.timeout.connect(self.autosave)
        # Debounced: a few seconds after the last change, so a crash loses seconds, not a minute.
        self._soon = QTimer(self)
        self._soon.setSingleShot(True)
        self._soon.setInterval(autosave_delay_ms)
        self._soon.timeout.connect(self.autosave)
        doc.projectChanged.connect(self._changed)

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
        """An empty project (the character space, nothing else), in Setup mode: the
        scene says how to draw the first bone."""
        if not self.maybe_save():
            return False
        self.doc.replace_document(Project(), None)
        self.doc.set_mode("setup")
        return True

    def new_from_example(self, name: str) -> bool:
        """A copy of example ``name`` (see ``rigeditor.examples.files.EXAMPLE_NAMES``) as a
        new, unsaved project, its pictures read from the packaged example until it is saved."""
        if not self.maybe_save():
            return False
        from rigeditor.examples.files import example_folder, load_example

        try:
            project, images = load_example(name), example_folder(name)
        except file_errors() as exc:
            self.dialogs.error(self.window, "Cannot open example", describe(exc, name))
            return False
        if not self._replace(project, None, "Cannot open example", images):
            return False
        self.doc.set_mode("animate")
        return True

    def open(self, path=None) -> bool:
        if not self.maybe_save():
            return False
        if path is None:
            path = self.dialogs.open_file(self.window, "Open project", self._last_dir(), PROJECT_FILTER)
            if not path:
                return False
        return self.load(path)

    def import_psd(self, psd=None, out=None) -> bool:
        """A new project from a layered PSD (``rigeditor.io.art.psd``): asks for the
        PSD and where the project goes (its PNGs go beside it; the question starts in the
        PSD's folder), then opens it in Setup mode."""
        return self._import("PSD", psd, out)

    def import_images(self, folder=None, out=None) -> bool:
        """A new project from a folder of PNGs (``rigeditor.io.art.png_folder``; positions
        from its ``layout.json`` when there is one): asks for the folder and where the
        project goes (the pictures are referred to where they are), then opens it in
        Setup mode."""
        return self._import("images", folder, out)

    def import_spine(self, skeleton=None, out=None) -> bool:
        """A new project from a Spine 4.0-4.2 skeleton (``rigeditor.io.spine.read``,
        its atlas beside it): asks for the JSON and where the project goes (the pictures
        go beside it), opens it and lists what could not be imported."""
        def dropped(result):
            if result.warnings:
                self.dialogs.info(self.window, "Imported with warnings",
                                  "Not imported, or changed to fit (one line per kind):\n" + "\n".join(result.warnings))

        return self._import("Spine skeleton", skeleton, out, after=dropped)

    def _import(self, kind: str, source, out, after=None) -> bool:
        """Ask for what is not given, import ``source`` as a project at ``out``, open it;
        ``after(result)`` then sees what the importer returned."""
        if not self.maybe_save():
            return False
        if not source:
            if kind == "PSD":
                source = self.dialogs.open_file(self.window, "Import PSD", self._last_dir(),
                                                "Photoshop documents (*.psd);;All files (*)")
            elif kind == "Spine skeleton":
                source = self.dialogs.open_file(self.window, "Import Spine", self._last_dir(),
                                                "Spine skeletons (*.json);;All files (*)")
            else:
                source = self.dialogs.open_folder(self.window, "Import a folder of PNG images", self._last_dir())
        if not source:
            return False
        if out is None:
            # Beside what is imported (the pictures are usually kept with the PSD), not where the last project was.
            start = str(Path(source).resolve().parent / (Path(source).stem + PROJECT_SUFFIX))
            out = self.dialogs.save_file(self.window, "Save the imported project as", start, PROJECT_FILTER)
            if not out:
                return False
            if not Path(out).suffix:
                out = str(out) + PROJECT_SUFFIX
        if kind == "PSD":
            from rigeditor.io.art.psd import art_folder, import_psd as run  # psd-tools loads only now

            # The save dialog asked about the project file, not about the pictures' folder.
            folder = art_folder(out)
            if folder.exists() and not self.dialogs.confirm(
                    self.window, "Replace pictures?",
                    f"{folder} already exists. Its pictures with the names of the PSD's layers "
                    "will be replaced. Import anyway?"):
                return False
        elif kind == "Spine skeleton":
            from rigeditor.io.spine.read import import_spine as run
        else:
            from rigeditor.io.art.png_folder import import_images as run
        try:
            # The save dialog has asked before replacing the project file.
            result = run(source, out, force=True)
        except file_errors() as exc:
            self.dialogs.error(self.window, f"Cannot import {kind}", describe(exc, source))
            return False
        if not self.load(out):
            return False
        if kind != "Spine skeleton":
            self.doc.set_mode("setup")  # pictures without bones: rigging comes first
        if after is not None:
            after(result)
        return True

    def load(self, path) -> bool:
        """Open ``path`` (no question asked); a bad file shows the io layer's message and
        leaves the current document as it was."""
        path = Path(path)
        try:
            loaded = read_project(path)
        except file_errors() as exc:
            self.dialogs.error(self.window, "Cannot open project", describe(exc, path))
            return False
        if not self._replace(loaded.project, path, "Cannot open project"):
            return False
        self._remember(path)
        self.tell_conversion(path, loaded.notes, loaded.schema_version)
        return True

    def tell_conversion(self, path: Path, notes: list[str], version: int) -> None:
        """Say once, after opening ``path`` (of schema ``version``), what converting it
        changed (the io layer's notes), and that the first save keeps the older file."""
        if not notes:
            return
        self._status("; ".join(notes))
        self.dialogs.info(self.window, "Converted from an older version", "\n".join(notes) + (
            f"\n\nThe first save keeps the schema {version} file beside it as "
            f"{path.stem}.v{version}{PROJECT_SUFFIX} for older versions of RigEditor."))

    def _status(self, message: str) -> None:
        if self.window is not None and hasattr(self.window, "statusBar"):
            self.window.statusBar().showMessage(message, 15_000)

    def _replace(self, project, path, title: str, images=None) -> bool:
        """Make ``project`` the document; when it cannot be evaluated the document
        stays as it was and the user is told why."""
        try:
            self.doc.replace_document(project, path, images)
        except Exception as exc:  # noqa: BLE001 - evaluation of any project may fail; nothing changed
            where = f"{path}: " if path else ""
            self.dialogs.error(self.window, title, f"{where}the project cannot be evaluated: {exc}")
            return False
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
        project = self.doc.project
        try:
            backup = keep_older_file(path)  # an older version's file: older programs still open the backup
            if self.doc.images is not None:
                # The pictures go along (an example saved, Save As elsewhere), in one
                # transaction with the project: a full disk leaves no pictures folder.
                project = save_with_pictures(project, path, self.doc.images)
            else:
                save_project(project, path)
        except file_errors() as exc:
            self.dialogs.error(self.window, "Cannot save project", describe(exc, path))
            return False
        if backup is not None:
            self._status(f"Saved; the older file was kept as {backup.name}")
        self.doc.mark_saved(path, project)
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
        path = Path(path)
        before = _folder_state(path.parent)
        try:
            export(kind, self.doc.project, self.doc.settled_bake(), Path(path),
                   images=self.doc.images, project_file=self.doc.path)
        except (*FILE_ERRORS, ImportError, ValueError) as exc:
            self.dialogs.error(self.window, "Export failed", describe(exc, path))
            return False
        self._status(exported_message(path, written_since(path.parent, before)))
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
        return self.data_dir / "autosave" / f"{self.session}{PROJECT_SUFFIX}"

    @property
    def marker_path(self) -> Path:
        return self.data_dir / "sessions" / f"{self.session}.json"

    @property
    def recovered_dir(self) -> Path:
        """Where autosaves that were not recovered are kept."""
        return self.data_dir / sessions.RECOVERED

    def begin_session(self) -> None:
        """Take this session's lock, write its marker and start autosaving."""
        self._write_marker()
        self._timer.start()

    def end_session(self) -> None:
        """A clean exit: no marker, lock or autosave left behind."""
        self._timer.stop()
        self._soon.stop()
        self._drop_autosave()
        self.marker_path.unlink(missing_ok=True)
        self._lock.release(remove=True)

    def _changed(self) -> None:
        if self._timer.isActive():  # only in a running session
            self._soon.start()

    def autosave(self) -> Path | None:
        """Save a copy to the data folder when there are unsaved changes (none left
        behind when there are none: undone back to the saved state)."""
        self._soon.stop()
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

    def crashed_sessions(self) -> list[sessions.Crashed]:
        """Sessions whose editor is gone, newest first. Each comes with its lock
        held: call ``forget()`` or ``release()`` on every one."""
        return sessions.crashed_sessions(self.data_dir, self.session)

    def offer_recovery(self) -> bool:
        """Offer the crashed sessions' autosaves, newest first, until one is accepted:
        it opens as unsaved changes. Every other one (declined, unreadable, or left
        when one was opened: a window holds one project) is moved to
        :attr:`recovered_dir` and one message lists where each is. With two editors
        killed, the second's work used to wait, unmentioned, for the next start.
        Returns True when a project was recovered."""
        crashes = self.crashed_sessions()
        recovered, kept = False, []
        for crash in crashes:
            if not crash.autosave.is_file():
                crash.forget()
                continue
            stamp = datetime.fromtimestamp(crash.autosave.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
            what = f"'{crash.original.name}'" if crash.original else "an unsaved project"
            if not recovered and self.dialogs.confirm(
                    self.window, "Recover unsaved work",
                    f"RigEditor did not close cleanly. Recover the changes to {what} autosaved at {stamp}?"
                    + (f"\n({len(crashes)} editors did not close cleanly; this is the latest.)"
                       if len(crashes) > 1 and crash is crashes[0] else "")):
                recovered = self._recover(crash)
            else:
                kept.append(f"the changes to {what} autosaved at {stamp}:\n"
                            f"{sessions.keep(crash.autosave, self.data_dir, crash.original)}")
            crash.forget()
        if kept:
            self.dialogs.info(self.window, "Autosave kept",
                              "Kept " + "\n\n".join(kept) + "\n\nOpen a file (File > Open) to get its work back.")
        return recovered

    def _recover(self, crash) -> bool:
        try:
            project = load_project(crash.autosave)
            images = crash.images if crash.original is None and crash.images and crash.images.is_dir() else None
            self.doc.replace_document(project, crash.original, images)
        except Exception as exc:  # noqa: BLE001 - unreadable or not evaluable: keep it, say where
            kept = sessions.keep(crash.autosave, self.data_dir, crash.original)
            reason = describe(exc, crash.autosave) if isinstance(exc, FILE_ERRORS) else \
                f"{crash.autosave}: the project cannot be evaluated: {exc}"
            self.dialogs.error(self.window, "Cannot recover", f"{reason}\nThe autosave was kept in\n{kept}")
            return False
        self.doc.mark_unsaved()  # recovered work is unsaved work
        if self.autosave() is not None:  # the work now lives in this session's autosave
            crash.autosave.unlink(missing_ok=True)
        else:
            sessions.keep(crash.autosave, self.data_dir, crash.original)
        return True

    def _write_marker(self) -> None:
        try:
            if not self._lock.acquire():
                return
            info = {"session": self.session, "pid": os.getpid(), "autosave": str(self.autosave_path),
                    "path": str(self.doc.path) if self.doc.path else None,
                    # An unsaved example's pictures, so recovered work can still be saved with them.
                    "images": str(self.doc.images) if self.doc.path is None and self.doc.images else None}
            self.marker_path.write_text(json.dumps(info), encoding="utf-8")
        except OSError:
            pass

    def _drop_autosave(self) -> None:
        self.autosave_path.unlink(missing_ok=True)
