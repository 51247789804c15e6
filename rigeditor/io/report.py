"""The per-chain report of a Bake: what an animator or a pipeline wants to know.

Per chain: residual (max with its frame and cause, mean), frames per cause and which
frames they are (where the end misses its target and why), frames
where a joint limit binds, frames where the limits exclude the saved bend side (the
elbow bends the other way, said so), unkeyed elbow flips (``ChainBake.flip``: the side
changed while the bend stayed), the largest angle sensitivity, and, while the target holds
still in its declared space (``hold``), the end's drift in that space
(``hold_drift``: should be nil) and its world motion (``hold_world_motion``: foot
sliding for a foot held in a moving space, riding along for a hand on a hip). A report
*fails* on what ``fail_on`` names (``GATES``; by default ``residual`` and ``flip``): an
unexplained residual (cause "unexplained"), an unkeyed elbow flip, a crack open at a
joint (over ``MIN_AREA`` px² on some frame), a mesh triangle collapsed; pipelines gate
on that. A largest value that is zero at the precision shown is said as "none", with no
frame (every frame ties).
"""
from __future__ import annotations

import numpy as np

from rigeditor.model.evaluation.bake import CAUSES, Bake
from rigeditor.io.report_art import (
    collapse_entries, collapse_failures, collapse_lines, crack_entries, crack_failures, crack_lines,
)
from rigeditor.io.report_text import frame_ranges, frames_where, json_number, short

DRIFT_TOLERANCE = 1e-6
"""Model units of end motion on a hold frame below which the end counts as still."""
GATES = ("residual", "flip", "crack", "collapse")
"""What a report can fail on: an unexplained residual, an unkeyed elbow flip, a crack
open at a joint, a collapsed mesh triangle."""
DEFAULT_GATES = ("residual", "flip")
"""What a report fails on unless told otherwise (cracks and collapse are listed)."""


def build_report(bake: Bake, name: str = "", cracks=(), fail_on=DEFAULT_GATES) -> dict:
    """The report as plain data (JSON-ready); ``report["ok"]`` is the gate. cracks: the
    crack check's joints (``rigeditor.model.diagnostics.cracks``). fail_on: the ``GATES`` that fail
    the report; the others are reported only. ``report["failures"]`` says what failed,
    where and on which frames, one line each (``report["checks"]``: the same per chain and
    seam, with what was found but not gated)."""
    unknown = [g for g in fail_on if g not in GATES]
    if unknown:
        raise ValueError(f"fail_on: unknown check {unknown[0]!r} (known: {', '.join(GATES)})")
    frames = bake.frames
    chains, checks = {}, []
    for chain, cb in bake.chains.items():
        entry = _chain(cb, frames)
        chains[chain] = entry
        found = []
        if entry["unexplained_frames"]:
            found.append(("residual", f"chain {chain}: unexplained residual on frames "
                                      f"{frame_ranges(entry['unexplained_frames'])}"))
        if entry["flip_frames"]:
            found.append(("flip", f"chain {chain}: unkeyed elbow flip on frames {frame_ranges(entry['flip_frames'])}"))
        checks.append(_check("chain", chain, f"chain {chain}", found, fail_on))
    crack = crack_entries(cracks, frames) if cracks else {}
    collapse = collapse_entries(bake)
    checks += [_check("crack", key, f"crack {title}", found, fail_on) for key, title, found in crack_failures(crack)]
    checks += [_check("collapse", key, f"collapse {title}", found, fail_on)
               for key, title, found in collapse_failures(collapse)]
    failures = [f["message"] for c in checks for f in c["found"] if f["fails"]]
    return {
        "project": name,
        "frames": {"start": json_number(frames[0]) if len(bake) else None,
                   "end": json_number(frames[-1]) if len(bake) else None, "count": len(bake), "fps": bake.fps},
        "units": {"residual": "model units", "sensitivity": "deg per model unit", "drift": "model units"},
        "chains": chains,
        **({"cracks": crack} if crack else {}),
        **({"collapse": collapse} if collapse else {}),
        "fail_on": [g for g in GATES if g in fail_on],
        "checks": checks,
        "ok": not failures,
        "failures": failures,
    }


def _check(kind: str, name: str, title: str, found, fail_on) -> dict:
    """One chain or seam as the gate sees it ("chain", "crack", "collapse"; ``name``: its
    key in the report, ``title``: in words): each thing found, which check found it (a
    ``GATES`` name), what and where, and whether it fails the report."""
    return {"kind": kind, "name": name, "title": title,
            "found": [{"check": gate, "message": line, "fails": gate in fail_on} for gate, line in found]}


def _chain(cb, frames) -> dict:
    residual = np.asarray(cb.residual)
    worst = int(np.argmax(residual)) if residual.size else 0
    counts = np.bincount(np.asarray(cb.cause, dtype=int), minlength=len(CAUSES))
    sens = np.asarray(cb.sensitivity)
    s_worst = int(np.argmax(sens)) if sens.size else 0
    hold = np.asarray(cb.hold, dtype=bool)
    drift = np.where(hold, np.asarray(cb.hold_drift), 0.0)
    d_worst = int(np.argmax(drift)) if drift.size else 0
    motion = np.where(hold, np.asarray(cb.hold_world_motion), 0.0)
    m_worst = int(np.argmax(motion)) if motion.size else 0
    return {
        "residual": {"max": json_number(residual[worst]) if residual.size else 0.0,
                     "max_frame": _at(frames, residual, worst),
                     "max_cause": CAUSES[int(cb.cause[worst])] if residual.size else "none",
                     "mean": json_number(residual.mean()) if residual.size else 0.0},
        "causes": {CAUSES[i]: int(c) for i, c in enumerate(counts) if c and CAUSES[i] != "none"},
        # Where the end misses its target, per cause: the frames an animator goes to.
        "miss_frames": {CAUSES[i]: frames_where(frames, np.asarray(cb.cause) == i)
                        for i, c in enumerate(counts) if c and CAUSES[i] != "none"},
        "unexplained_frames": frames_where(frames, np.asarray(cb.cause) == CAUSES.index("unexplained")),
        "limit_frames": frames_where(frames, np.asarray(cb.limited, dtype=bool)),
        "flip_frames": frames_where(frames, np.asarray(cb.flip, dtype=bool)),
        "bend_overridden_frames": frames_where(frames, np.asarray(cb.bend_overridden, dtype=bool)),
        "sensitivity": {"max": json_number(sens[s_worst]) if sens.size else 0.0,
                        "max_frame": _at(frames, sens, s_worst)},
        "hold": {"frames": int(hold.sum()),
                 "drift_max": json_number(drift[d_worst]) if drift.size else 0.0,
                 "drift_max_frame": _at(frames, drift, d_worst) if hold.any() else None,
                 "drift_frames": frames_where(frames, drift > DRIFT_TOLERANCE),
                 "world_motion_max": json_number(motion[m_worst]) if motion.size else 0.0,
                 "world_motion_max_frame": _at(frames, motion, m_worst) if hold.any() else None,
                 "world_motion_frames": frames_where(frames, motion > DRIFT_TOLERANCE)},
    }


def _at(frames, values, worst):
    """The frame of the largest value, or None when there is none (all zero: every frame ties)."""
    return json_number(frames[worst]) if values.size and values[worst] != 0 else None


def format_report(report: dict) -> str:
    """The report as text for a terminal, one chain per block, the verdict last."""
    fr = report["frames"]
    lines = [f"{report['project']}: {len(report['chains'])} chain(s), frames {short(fr['start'])}-"
             f"{short(fr['end'])} ({fr['count']} at {short(fr['fps'])} fps)"]
    for name, c in report["chains"].items():
        r, s, h = c["residual"], c["sensitivity"], c["hold"]
        causes = ", ".join(f"{k} {v}" for k, v in c["causes"].items()) or "none"
        drift = ("no hold frames" if not h["frames"] else
                 f"{_max(h['drift_max'], h['drift_max_frame'], 6)} over {h['frames']} hold "
                 f"frames; moving on {frame_ranges(h['drift_frames']) or 'none'}")
        motion = ("-" if not h["frames"] else
                  f"{_max(h['world_motion_max'], h['world_motion_max_frame'], 6, ' per frame')}; "
                  f"moving on {frame_ranges(h['world_motion_frames']) or 'none'}")
        residual = _max(r["max"], r["max_frame"], 6)
        lines += [
            f"chain {name}",
            f"  residual     {residual} ({r['max_cause']}), mean {r['mean']:.6f}" if residual != "none" else
            "  residual     none (on target on every frame)",
            f"  causes       {causes} (frames)",
            f"  misses       {'; '.join(f'{k} on {frame_ranges(v)}' for k, v in c['miss_frames'].items()) or 'none'}",
            f"  limits bind  {frame_ranges(c['limit_frames']) or 'none'}",
            f"  elbow flips  {frame_ranges(c['flip_frames']) or 'none'}",
            f"  bend forced  {frame_ranges(c['bend_overridden_frames']) or 'none'}"
            + (" (the limits exclude the saved bend side)" if c['bend_overridden_frames'] else ""),
            f"  sensitivity  {_max(s['max'], s['max_frame'], 4, ' deg/unit')}",
            f"  hold drift   {drift} (in the target's space)",
            f"  held, world  {motion} (sliding, if the target should be planted)",
        ]
    lines += crack_lines(report.get("cracks", {}))
    lines += collapse_lines(report.get("collapse", {}))
    lines.append("result: ok" if report["ok"] else "result: FAIL: " + "; ".join(report["failures"]))
    # What was found but is not gated, said on the verdict's line: "ok" is not "clean".
    ungated = [f["message"] for c in report.get("checks", ()) for f in c["found"] if not f["fails"]]
    if ungated:
        lines[-1] += f" (reported, not failing: {'; '.join(ungated)}; --fail-on decides)"
    return "\n".join(lines)


def _max(value: float, frame, digits: int, unit: str = "") -> str:
    """The largest value as "max 1.250000 at frame 7", or "none" when it is zero at the
    digits shown: a frame named for a zero would be arbitrary (every frame ties)."""
    if frame is None or round(value, digits) == 0:
        return "none"
    return f"max {value:.{digits}f}{unit} at frame {short(frame)}"

