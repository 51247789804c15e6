"""Save As into another folder through the editor: every picture goes along (those
beside the project too), the document points at the copies, and a different picture
already in the target folder is left as it is and not shown in place of the project's."""
from pathlib import Path

import numpy as np
from PIL import Image

from fakes import window_with_dialogs
from rigeditor.io import load_project
from rigeditor.io.art.images import missing_images
from rigeditor.io.art.png_folder import import_images


def _png(path: Path, rgb) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(np.full((6, 4, 4), [*rgb, 255], np.uint8), "RGBA").save(path)
    return path.read_bytes()


def test_save_as_elsewhere_takes_pictures_beside_the_project_and_never_uses_a_stranger(qtbot, tmp_path):
    hand = _png(tmp_path / "art" / "hand.png", (200, 0, 0))
    (tmp_path / "proj").mkdir()
    import_images(tmp_path / "art", tmp_path / "proj" / "walk.rigproj")
    out = tmp_path / "share" / "walk" / "walk.rigproj"
    # Other projects' hands where "../art/hand.png" and "art/hand.png" lead from the new file.
    stranger = _png(tmp_path / "share" / "art" / "hand.png", (0, 0, 200))
    neighbour = _png(out.parent / "art" / "hand.png", (0, 200, 0))
    w, doc, dialogs = window_with_dialogs(qtbot, tmp_path, save_file=str(out))
    assert w.files.load(tmp_path / "proj" / "walk.rigproj")
    assert doc.project.art.slots[0].attachments[0].path == "../art/hand.png"

    w.save_as_action.trigger()

    assert dialogs.asked("error") == []
    assert doc.path == out and not doc.is_modified()
    assert (tmp_path / "share" / "art" / "hand.png").read_bytes() == stranger
    assert (out.parent / "art" / "hand.png").read_bytes() == neighbour
    path = doc.project.art.slots[0].attachments[0].path
    assert (out.parent / path).read_bytes() == hand
    assert missing_images(doc.project, doc.images) == []
    saved = load_project(out)
    assert saved.art.slots[0].attachments[0].path == path and missing_images(saved, out.parent) == []


FIXTURE = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "v3_auto_handles.rigproj"


def test_an_older_file_says_what_changed_once_and_its_first_save_keeps_it_beside(qtbot, tmp_path):
    from rigeditor.io.project_file import read_project

    path = tmp_path / "wave.rigproj"
    path.write_bytes(FIXTURE.read_bytes())
    (tmp_path / "wave.v3.rigproj").write_bytes(b"kept from last year")  # a backup is never replaced
    notes = read_project(FIXTURE).notes
    w, doc, dialogs = window_with_dialogs(qtbot, tmp_path)

    assert w.files.load(path)
    (title, message), = dialogs.asked("info")
    assert notes[0] in message and "wave.v3.rigproj" in message
    assert notes[0] in w.statusBar().currentMessage()

    assert w.files.save()
    assert (tmp_path / "wave.v3.rigproj").read_bytes() == b"kept from last year"
    assert (tmp_path / "wave.v3-2.rigproj").read_bytes() == FIXTURE.read_bytes()
    assert "wave.v3-2.rigproj" in w.statusBar().currentMessage()
    # The file is current now: a second save and a second open keep and say nothing more.
    assert w.files.save() and w.files.load(path)
    assert len(list(tmp_path.glob("wave.v*.rigproj"))) == 2 and len(dialogs.asked("info")) == 1
    assert read_project(path).schema_version > 3


def test_save_as_to_a_full_disk_leaves_no_pictures_folder_and_says_so(qtbot, tmp_path, monkeypatch):
    """The pictures were copied first, then the project's write failed: "nothing was
    written" with a new pictures folder left behind."""
    import errno
    import os

    _png(tmp_path / "art" / "hand.png", (200, 0, 0))
    _png(tmp_path / "art" / "foot.png", (0, 200, 0))
    (tmp_path / "proj").mkdir()
    import_images(tmp_path / "art", tmp_path / "proj" / "walk.rigproj")
    out = tmp_path / "share" / "walk.rigproj"
    out.parent.mkdir()
    w, doc, dialogs = window_with_dialogs(qtbot, tmp_path, save_file=str(out))
    assert w.files.load(tmp_path / "proj" / "walk.rigproj")
    real = os.fsync

    def fsync(fd):  # the disk is full when the project file itself is written
        if ".walk.rigproj." in os.readlink(f"/proc/self/fd/{fd}"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    w.save_as_action.trigger()
    monkeypatch.undo()
    (title, message), = dialogs.asked("error")
    assert title == "Cannot save project" and "No space left on device (nothing was written" in message
    assert list(out.parent.iterdir()) == []  # no pictures folder, no temporary file
    assert doc.path == tmp_path / "proj" / "walk.rigproj"
