"""The inspector's "Spine stretch" group of a one- or two-bone chain: Spine's IK
scaling flags (``Chain.spine_scale``), one check box each, each toggle one undo step."""
from __future__ import annotations

from PySide6.QtWidgets import QCheckBox

from rigeditor import edits

_LABELS = {
    "stretch": ("Stretch", "Beyond reach, the first bone's frame scales along its length to reach the target "
                           "(unbounded, carrying the bones below), as Spine does"),
    "compress": ("Compress", "A target nearer than the bone's length scales the bone down to it (one bone)"),
    "uniform": ("Uniform", "Scale the bone's width with its length"),
}


def spine_scale_section(f, name: str) -> None:
    doc = f.doc
    chain = doc.project.chain(name)
    form = f.group(f"Spine stretch · {name}")
    flags = ("stretch", "compress", "uniform") if chain.solver == "aim" else ("stretch", "uniform")
    for flag in flags:
        label, tip = _LABELS[flag]
        box = f.add(f"chain.{name}.spine_scale.{flag}", QCheckBox())
        box.setToolTip(tip)

        def toggled(on, flag=flag):
            if on == (flag in doc.project.chain(name).spine_scale):
                return  # a sync, not a user's toggle
            f.command("Spine stretch", f"{'Set' if on else 'Clear'} Spine {flag} of {name}",
                      lambda: edits.set_spine_scale(doc.project, name, flag, on), touched={f"chain:{name}"})
        box.toggled.connect(toggled)
        form.addRow(label, box)

        def sync(box=box, flag=flag):
            now = doc.project.chain(name).spine_scale
            box.blockSignals(True)
            box.setChecked(flag in now)
            box.setEnabled(flag != "uniform" or bool({"stretch", "compress"} & set(now)))
            box.blockSignals(False)
        f.on_sync(sync)
