"""The per-chain report of a Bake: what an animator or a pipeline wants to know.

Per chain: residual (max with its frame and cause, mean), frames per cause and which
frames they are (where the end misses its target and why), frames
where a joint limit binds, frames where the limits exclude the saved bend side (the
elbow bends the other way, said so), unkeyed elbow flips (``ChainBake.flip``: the side
changed while the bend stayed), the largest angle sensitivity, and, while the target holds
still in its declared space (``hold``), the end's drift in that space
(``hold_drift``: should be nil) and its world motion (``hold_world_motion``: foot
sliding for a foot held in a moving space, riding along for a hand on a hip). A report
*fails* when a residual is unexplained (cause "unexplained") or an elbow flips
unkeyed; pipelines gate on that.
"""
from __future__ import annotations

import numpy as np

from rigeditor.model.evaluation.bake import CAUSES, Bake
from rigeditor.io.report_art import collapse_entries, collapse_lines, crack_entries, crack_lines
from rigeditor.io.report_text import frame_ranges, frames_where, json_number, short

DRIFT_TOLERANCE = 1e-6
"""Model units of end motion on a hold frame below which the end counts as still."""


def build_report(bake: Bake, name: str = "", cracks=()) -> dict:
    """The report as plain data (JSON-ready); ``report["ok"]`` is the gate. cracks: the
    crack check's joints (``rigeditor.model.diagnostics.cracks``), reported but not a failure."""
    frames = bake.frames
    chains, failures = {}, []
    for chain, cb in bake.chains.items():
        entry = _chain(cb, frames)
        chains[chain] = entry
        if entry["unexplained_frames"]:
            failures.append(f"chain {chain}: unexplained residual on frames "
                            f"{frame_ranges(entry['unexplained_frames'])}")
        if entry["flip_frames"]:
            failures.append(f"chain {chain}: unkeyed elbow flip on frames {frame_ranges(entry['flip_frames'])}")
    return {
        "project": name,
        "frames": {"start": json_number(frames[0]) if len(bake) else None,
                   "end": json_number(frames[-1]) if len(bake) else None, "count": len(bake), "fps": bake.fps},
        "units": {"residual": "model units", "sensitivity": "deg per model unit", "drift": "model units"},
        "chains": chains,
        **({"cracks": crack_entries(cracks, frames)} if cracks else {}),
        **({"collapse": collapse} if (collapse := collapse_entries(bake)) else {}),
        "ok": not failures,
        "failures": failures,
    }


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
                     "max_frame": json_number(frames[worst]) if residual.size else None,
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
                        "max_frame": json_number(frames[s_worst]) if sens.size else None},
        "hold": {"frames": int(hold.sum()),
                 "drift_max": json_number(drift[d_worst]) if drift.size else 0.0,
                 "drift_max_frame": json_number(frames[d_worst]) if hold.any() else None,
                 "drift_frames": frames_where(frames, drift > DRIFT_TOLERANCE),
                 "world_motion_max": json_number(motion[m_worst]) if motion.size else 0.0,
                 "world_motion_max_frame": json_number(frames[m_worst]) if hold.any() else None,
                 "world_motion_frames": frames_where(frames, motion > DRIFT_TOLERANCE)},
    }


def format_report(report: dict) -> str:
    """The report as text for a terminal, one chain per block, the verdict last."""
    fr = report["frames"]
    lines = [f"{report['project']}: {len(report['chains'])} chain(s), frames {short(fr['start'])}-"
             f"{short(fr['end'])} ({fr['count']} at {short(fr['fps'])} fps)"]
    for name, c in report["chains"].items():
        r, s, h = c["residual"], c["sensitivity"], c["hold"]
        causes = ", ".join(f"{k} {v}" for k, v in c["causes"].items()) or "none"
        drift = ("no hold frames" if not h["frames"] else
                 f"max {h['drift_max']:.6f} at frame {short(h['drift_max_frame'])} over {h['frames']} hold "
                 f"frames; moving on {frame_ranges(h['drift_frames']) or 'none'}")
        motion = ("-" if not h["frames"] else
                  f"max {h['world_motion_max']:.6f} per frame at frame {short(h['world_motion_max_frame'])}; "
                  f"moving on {frame_ranges(h['world_motion_frames']) or 'none'}")
        lines += [
            f"chain {name}",
            f"  residual     max {r['max']:.6f} at frame {short(r['max_frame'])} ({r['max_cause']}), "
            f"mean {r['mean']:.6f}",
            f"  causes       {causes} (frames)",
            f"  misses       {'; '.join(f'{k} on {frame_ranges(v)}' for k, v in c['miss_frames'].items()) or 'none'}",
            f"  limits bind  {frame_ranges(c['limit_frames']) or 'none'}",
            f"  elbow flips  {frame_ranges(c['flip_frames']) or 'none'}",
            f"  bend forced  {frame_ranges(c['bend_overridden_frames']) or 'none'}"
            + (" (the limits exclude the saved bend side)" if c['bend_overridden_frames'] else ""),
            f"  sensitivity  max {s['max']:.4f} deg/unit at frame {short(s['max_frame'])}",
            f"  hold drift   {drift} (in the target's space)",
            f"  held, world  {motion} (sliding, if the target should be planted)",
        ]
    lines += crack_lines(report.get("cracks", {}))
    lines += collapse_lines(report.get("collapse", {}))
    lines.append("result: ok" if report["ok"] else "result: FAIL: " + "; ".join(report["failures"]))
    return "\n".join(lines)
