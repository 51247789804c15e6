"""Live read-outs of the selected chain at the current frame: what the solve is doing.

Plain functions (``current_chain``, ``chain_readout``, ``reach_state``,
``joints_at_limit``) shared with the status bar, and the inspector's "Live" section.
"""
from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel

from rigeditor.app import style
from rigeditor.app.steady_label import SteadyLabel
from rigeditor.model import CAUSES

LIMIT_EPS = 1e-6
"""A joint within this many radians of a bound counts as sitting on it."""


def reach_state(cb, i: int) -> str:
    """Where the target of row ``i`` of a ChainBake lies for the chain's reach:
    'out of reach', 'soft' (in the soft-reach band) or 'in reach'. Whether a joint
    limit binds is a separate read-out (:func:`joints_at_limit`)."""
    inner, outer = cb.reach
    d, soft = float(cb.distance[i]), float(cb.softness[i])
    if d > outer or d < inner:
        return "out of reach"
    if soft > 0 and (d > outer - soft or d < inner + soft):
        return "soft"
    return "in reach"


REACH_COLORS = {"in reach": style.CAUSE_COLORS["none"], "soft": style.CAUSE_COLORS["soft_reach"],
                "out of reach": style.CAUSE_COLORS["out_of_reach"]}


def current_chain(doc) -> str | None:
    """The chain the selection points at: a chain, the chain of a bone, or of a target."""
    p = doc.project
    for kind, name in doc.selection:
        if kind == "chain":
            return name
        if kind == "bone" and p.chain_of_bone(name) is not None:
            return p.chain_of_bone(name).name
        if kind == "target" and p.chain_for_target(name):
            return p.chain_for_target(name)[0].name
    return None


def joints_at_limit(doc, chain: str) -> list[str]:
    """Bones of ``chain`` whose rotation sits on one of its limits at the current frame
    (the pose shown, after the mix)."""
    c, bake, i = doc.project.chain(chain), doc.bake, doc.row
    out = []
    for k, bone in enumerate(c.bones):
        lim = c.limit(k)
        if lim is None:
            continue
        try:
            b = bake.bone(bone)
        except ValueError:  # not in the bake
            continue
        lo, hi = lim
        angle = float(b.local_rotation[i])
        mid = 0.5 * (lo + hi)  # the two-bone shoulder may come back in another turn
        wrapped = mid + math.remainder(angle - mid, 2.0 * math.pi)
        if min(abs(angle - lo), abs(angle - hi), abs(wrapped - lo), abs(wrapped - hi)) <= LIMIT_EPS:
            out.append(bone)
    return out


def chain_readout(doc, chain: str, *, limits: bool = True) -> dict:
    """Read-outs of ``chain`` at the current frame (plain numbers and names).

    residual (model units) and its cause; reach state; sensitivity (degrees per
    unit); stretch (1 = none); root_offset (model units); solver; iterations spent
    and the budget (iterative solvers); converged: 'yes', 'budget' (the iterations
    ran out) or 'no' (an unexplained residual); at_limit: bones on a limit (left
    out, None, with ``limits=False``: the status bar does not show them).
    """
    cb = doc.bake.chains[chain]
    c = doc.project.chain(chain)
    i = doc.row
    cause = CAUSES[int(cb.cause[i])]
    if not bool(cb.converged[i]):
        converged = "no"
    elif cause == "budget":
        converged = "budget"
    else:
        converged = "yes"
    return {
        "residual": float(cb.residual[i]), "cause": cause, "cause_label": style.CAUSE_LABELS[cause],
        "reach": reach_state(cb, i), "sensitivity": float(cb.sensitivity[i]),
        "stretch": float(cb.stretch[i]), "root_offset": float(math.hypot(*cb.root_offset[i])),
        "solver": c.solver, "iterations": int(np.asarray(cb.iterations)[i]),
        "max_iterations": int(c.max_iterations), "converged": converged,
        "at_limit": joints_at_limit(doc, chain) if limits else None,
    }


CONVERGED_TEXT = {"yes": "yes", "budget": "no — iteration budget spent", "no": "no — unexplained residual"}
CONVERGED_COLORS = {"yes": style.CAUSE_COLORS["none"], "budget": style.CAUSE_COLORS["budget"],
                    "no": style.CAUSE_COLORS["unexplained"]}


def _css(color) -> str:
    return f"color: {color.name()}; font-weight: bold;"


WRAPPED = {"limits", "converged"}
"""Read-outs whose text can run long (bone names, explanations); the others are a
number and a word or two."""


def readout_section(f, chain: str) -> None:
    """The "Live" group of ``chain`` in Form ``f``: residual and cause, reach, joints on
    a limit, iterations (iterative solvers), converged, sensitivity,
    stretch and root offset, updated on every frame and bake."""
    c = f.doc.project.chain(chain)
    iterative = c.solver != "analytic"
    form = f.group(f"Live · {chain}")
    rows = [("residual", "Residual"), ("reach", "Reach"), ("limits", "Limits")]
    rows += [("iterations", "Iterations")] if iterative else []
    rows += [("converged", "Converged"), ("sensitivity", "Sensitivity"), ("stretch", "Stretch"),
             ("root_offset", "Root offset")]
    labels = {}
    for key, title in rows:
        lab = f.add(f"readout.{key}", QLabel())
        lab.setTextInteractionFlags(Qt.TextSelectableByMouse)
        # Numbers that change on every drag move stay on one line, in a holder that
        # stops their layout requests (steady_label); the long texts wrap.
        lab.setWordWrap(key in WRAPPED)
        labels[key] = lab
        form.addRow(title, lab if key in WRAPPED else SteadyLabel(lab))
    bold = labels["sensitivity"].font()
    bold.setBold(True)
    labels["sensitivity"].setFont(bold)
    if iterative:
        labels["iterations"].setToolTip("Solver iterations spent on this frame / the chain's budget "
                                        "(0: the previous frame's pose already held)")

    def sync():
        doc = f.doc
        if chain not in doc.bake.chains or chain not in [x.name for x in doc.project.chains]:
            return
        r = chain_readout(doc, chain)
        labels["residual"].setText(f"{r['residual']:.3f} u — {r['cause_label']}")
        set_style(labels["residual"], _css(style.CAUSE_COLORS[r["cause"]]))
        labels["reach"].setText(r["reach"])
        set_style(labels["reach"], _css(REACH_COLORS[r["reach"]]))
        bound, c = r["at_limit"], doc.project.chain(chain)
        if bound:
            labels["limits"].setText("at limit: " + ", ".join(bound))
        elif any(c.limit(k) is not None for k in range(len(c.bones))):
            labels["limits"].setText("free")
        else:
            labels["limits"].setText("none set")
        set_style(labels["limits"], _css(style.CAUSE_COLORS["limit"]) if bound else "")
        if iterative:
            labels["iterations"].setText(f"{r['iterations']} / {r['max_iterations']}")
        labels["converged"].setText(CONVERGED_TEXT[r["converged"]])
        set_style(labels["converged"], _css(CONVERGED_COLORS[r["converged"]]))
        labels["sensitivity"].setText(f"{r['sensitivity']:.2f} °/u")
        # A colour that changes on every move: the palette, not a style sheet (which
        # re-polishes the label each time).
        set_color(labels["sensitivity"], style.sensitivity_color(r["sensitivity"]))
        labels["stretch"].setText(f"{(r['stretch'] - 1.0) * 100.0:+.1f} %")
        labels["root_offset"].setText(f"{r['root_offset']:.2f} u")
    f.on_sync(sync)


def set_color(label, color) -> None:
    """Set a label's text colour through its palette, only when it changes."""
    pal = label.palette()
    if pal.color(QPalette.WindowText) != color:
        pal.setColor(QPalette.WindowText, color)
        label.setPalette(pal)


def set_style(widget, css: str) -> None:
    """Set a widget's style sheet only when it changes: every setStyleSheet re-polishes
    the widget, which cost milliseconds per mouse move while dragging."""
    if widget.styleSheet() != css:
        widget.setStyleSheet(css)
