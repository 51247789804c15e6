"""The project section: name, frame rate and frame range."""
from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import QLabel, QLineEdit, QSpinBox

from rigeditor.app.inspector.fields import hbox
from rigeditor.model.validation.project import MAX_FPS, MIN_FPS


def project_section(f) -> None:
    doc = f.doc
    tl = lambda: doc.project.timeline  # noqa: E731
    form = f.group("Project")
    name = f.add("project.name", QLineEdit(doc.project.name))

    def set_name():
        if name.text().strip() and name.text().strip() != doc.project.name:
            doc.apply("Rename project", replace(doc.project, name=name.text().strip()))
    name.editingFinished.connect(set_name)
    form.addRow("Name", name)
    f.spin(form, "Frame rate", "project.fps", MIN_FPS, MAX_FPS,  # what a file may hold
           lambda: tl().fps, lambda v: f.apply("Set frame rate", replace(
               doc.project, timeline=replace(tl(), fps=v)), None, "timeline.fps"),
           suffix=" fps", decimals=2)
    start, end = QSpinBox(), QSpinBox()
    for w, attr in ((start, "start"), (end, "end")):
        f.add(f"project.{attr}", w)
        w.setRange(-100000, 100000)
        w.setKeyboardTracking(False)
    row, h = hbox(start, end)
    h.insertWidget(1, QLabel("to"))

    def set_range(attr, v):
        t = tl()
        # An edited end is a whole frame the animator chose: an imported end between
        # frames (exact_end) no longer applies, even if the end comes back to it.
        new = replace(t, **{attr: int(v)}, **({"exact_end": None} if attr == "end" else {}))
        if new.end < new.start or new == t:
            f.resync()
            return
        f.apply("Set frame range", replace(doc.project, timeline=new), None, f"timeline.{attr}")
    start.valueChanged.connect(lambda v: set_range("start", v))
    end.valueChanged.connect(lambda v: set_range("end", v))

    def sync():
        for w, v in ((start, tl().start), (end, tl().end)):
            if w.value() != v:
                w.blockSignals(True)
                w.setValue(v)
                w.blockSignals(False)
    f.on_sync(sync)
    form.addRow("Frames", row)
