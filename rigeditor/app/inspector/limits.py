"""The joint-limits section of a chain: one row per bone (on/off, min, max), degrees.

The first bone's limit is its rotation in the chain's shoulder space (the parent's
frame), every other bone's is relative to the previous bone. The iterative solvers
keep angles unwrapped, so a range may cross ±180° (a tail pointing left: 110° to 250°).
"""
from __future__ import annotations

import math

from PySide6.QtWidgets import QCheckBox, QLabel

from rigeditor.app.inspector.fields import DEG, SpinField, hbox

LIMIT_RANGE_DEG = 720.0
"""Largest |bound| a limit field accepts, degrees."""
DEFAULT_BEND_DEG = 150.0
"""A new limit on a joint after the first: ± this much relative to the previous bone."""


def default_limit(project, chain: str, i: int) -> tuple[float, float]:
    """The limit a joint gets when its box is ticked, radians: the first bone a full
    turn centred on its rest rotation (no seam where it rests), the others ±150°."""
    c = project.chain(chain)
    if i == 0:
        rest = project.bone(c.bones[0]).rest_rotation
        return rest - math.pi, rest + math.pi
    return -math.radians(DEFAULT_BEND_DEG), math.radians(DEFAULT_BEND_DEG)


def limits_section(f, name: str) -> None:
    form = f.group(f"Joint limits · {name}")
    for i, bone in enumerate(f.doc.project.chain(name).bones):
        _limit_row(f, form, name, i, bone)


def _limit_row(f, form, name, i, bone):
    doc = f.doc
    box = f.add(f"chain.{name}.limit{i}.on", QCheckBox())
    lo = f.add(f"chain.{name}.limit{i}.min",
               SpinField(-LIMIT_RANGE_DEG, LIMIT_RANGE_DEG, suffix="°", scale=DEG, decimals=1))
    hi = f.add(f"chain.{name}.limit{i}.max",
               SpinField(-LIMIT_RANGE_DEG, LIMIT_RANGE_DEG, suffix="°", scale=DEG, decimals=1))
    row, h = hbox()
    h.addWidget(box)
    h.addWidget(lo, 1)
    h.addWidget(QLabel("to"))
    h.addWidget(hi, 1)

    def current():
        return doc.project.chain(name).limit(i)

    def write(value, field):
        c = doc.project.chain(name)
        limits = list(c.limits) + [None] * (len(c.bones) - len(c.limits))
        limits[i] = value
        while limits and limits[-1] is None:
            limits.pop()
        f.apply(f"Set limits of {bone}", doc.project.with_chain(name, limits=tuple(limits)),
                {f"chain:{name}"}, f"chains.{name}.limits[{i}].{field}")

    def toggled(on):
        if on and current() is None:
            write(default_limit(doc.project, name, i), "on")
        elif not on and current() is not None:
            write(None, "on")

    def set_bound(which, v):
        lim = current()
        if lim is None:
            return
        a, b = lim
        a, b = (v, max(b, v)) if which == 0 else (min(a, v), v)
        write((a, b), ("min", "max")[which])

    box.toggled.connect(toggled)
    lo.edited.connect(lambda v: set_bound(0, v))
    hi.edited.connect(lambda v: set_bound(1, v))

    def sync():
        lim = current()
        box.blockSignals(True)
        box.setChecked(lim is not None)
        box.blockSignals(False)
        lo.setEnabled(lim is not None)
        hi.setEnabled(lim is not None)
        if lim is not None:
            lo.set_model(lim[0])
            hi.set_model(lim[1])
    f.on_sync(sync)
    form.addRow(f"{bone}", row)
    rel = "in the shoulder space" if i == 0 else f"relative to {doc.project.chain(name).bones[i - 1]}"
    row.setToolTip(f"Allowed rotation of {bone}, {rel}")
