"""What a round trip must keep, item by item: the differences between two projects as
readable lines (empty: the same project to within ``TOL``)."""
from __future__ import annotations

import numpy as np

from rigeditor.model.data import clips
from rigeditor.model.data.mesh_attachment import MeshAttachment
from rigeditor.model.data.timeline import Channel, control_points

TOL = 1e-6
"""Key times (frames), values (model units, radians) and handles agree within this."""


def channel_differences(where: str, a, b, tol: float = TOL) -> list[str]:
    """Keys (count, times, values, interpolation), the default when unkeyed, and every
    bezier segment's handles, as the curve editor shows them (automatic ones resolved)."""
    if not isinstance(a, Channel):  # a stepped channel: (frame, name) keys
        if a.default != b.default or len(a.keys) != len(b.keys) or any(
                abs(fa - fb) > tol or va != vb for (fa, va), (fb, vb) in zip(a.keys, b.keys)):
            return [f"{where}: {a.default!r} {a.keys!r} != {b.default!r} {b.keys!r}"]
        return []
    if len(a.keys) != len(b.keys):
        return [f"{where}: {len(a.keys)} keys became {len(b.keys)}"]
    if not a.keys:
        return [] if np.allclose(a.default, b.default, rtol=0, atol=tol) else [
            f"{where}: default {a.default} became {b.default}"]
    out = []
    for i, (ka, kb) in enumerate(zip(a.keys, b.keys)):
        if abs(ka.frame - kb.frame) > tol or ka.interp != kb.interp \
                or not np.allclose(ka.value, kb.value, rtol=0, atol=tol):
            out.append(f"{where}[{i}]: {ka.frame} {ka.value} {ka.interp} became {kb.frame} {kb.value} {kb.interp}")
    if out or len(a.keys) < 2:
        return out[:3]
    pa, pb = control_points(a), control_points(b)
    for s, key in enumerate(a.keys[:-1]):
        if key.interp != "bezier":
            continue
        ha = np.concatenate([[pa.x1[s], pa.x2[s]], pa.y1[s], pa.y2[s]])
        hb = np.concatenate([[pb.x1[s], pb.x2[s]], pb.y1[s], pb.y2[s]])
        if not np.allclose(ha, hb, rtol=0, atol=tol):
            out.append(f"{where}[{s}]: handles {ha.round(6)} became {hb.round(6)}")
    return out[:3]


def _item_channels(kind: str, a, b, where: str) -> list[str]:
    out = []
    for attr in clips.TRACKS[kind]:
        out += channel_differences(f"{where}.{attr}", getattr(a, attr), getattr(b, attr))
    return out


def _by_name(items):
    return {x.name: x for x in items}


def _same(where, a, b, tol=TOL) -> list[str]:
    if isinstance(a, (tuple, list)) and all(isinstance(x, str) for x in a):
        a, b = list(a), list(b) if isinstance(b, (tuple, list)) else b
    if isinstance(a, (int, float, tuple, list, np.ndarray)) and not isinstance(a, (str, bool)) \
            and not (isinstance(a, list) and all(isinstance(x, str) for x in a)):
        try:
            if np.shape(a) == np.shape(b) and np.allclose(np.asarray(a, float), np.asarray(b, float),
                                                           rtol=0, atol=tol):
                return []
        except (TypeError, ValueError):
            pass
    elif a == b:
        return []
    return [f"{where}: {a!r} became {b!r}"]


def rig_differences(a, b) -> list[str]:
    """Spaces, bones, targets and chains of the open animation."""
    out = []
    for kind, pool, static in (
            ("space", "spaces", ("parent",)),
            ("bone", "bones", ("parent", "length", "rest_offset", "rest_rotation")),
            ("target", "targets", ()),
            ("chain", "chains", ("bones", "target", "solver", "limits", "strategy", "smoothing", "soft_reach",
                                 "spine_scale", "tolerance", "max_iterations"))):
        ia, ib = _by_name(getattr(a, pool)), _by_name(getattr(b, pool))
        if set(ia) != set(ib):
            out.append(f"{pool}: {sorted(ia)} became {sorted(ib)}")
        for name in sorted(set(ia) & set(ib)):
            for field in static:
                va, vb = getattr(ia[name], field), getattr(ib[name], field)
                if field == "limits":
                    va = [None if x is None else tuple(x) for x in va]
                    vb = [None if x is None else tuple(x) for x in vb]
                    same = len(va) == len(vb) and all(
                        (x is None and y is None) or (x is not None and y is not None and np.allclose(x, y, atol=TOL))
                        for x, y in zip(va, vb))
                    out += [] if same else [f"{pool}.{name}.limits: {va} became {vb}"]
                else:
                    out += _same(f"{pool}.{name}.{field}", va, vb)
            out += _item_channels(kind, ia[name], ib[name], f"{pool}.{name}")
    return out


def art_differences(a, b) -> list[str]:
    """Slots (bone, attachments shown), every attachment's placement and tint, meshes'
    vertices, UVs, triangles and weights per bone; the draw order keys."""
    out = []
    sa, sb = _by_name(a.art.slots), _by_name(b.art.slots)
    if [s.name for s in a.art.slots] != [s.name for s in b.art.slots]:
        out.append(f"slots: {list(sa)} became {list(sb)}")
    for name in sorted(set(sa) & set(sb)):
        x, y = sa[name], sb[name]
        out += _same(f"slots.{name}.bone", x.bone, y.bone)
        out += channel_differences(f"slots.{name}.attachment", x.attachment, y.attachment)
        ax, ay = {(t.skin, t.name): t for t in x.attachments}, {(t.skin, t.name): t for t in y.attachments}
        if set(ax) != set(ay):
            out.append(f"slots.{name}.attachments: {sorted(ax)} became {sorted(ay)}")
        for key in sorted(set(ax) & set(ay)):
            p, q = ax[key], ay[key]
            at = f"slots.{name}.{key[1]}"
            for field in ("width", "height", "tint", "opacity", "kind"):
                out += _same(f"{at}.{field}", getattr(p, field), getattr(q, field), 1e-6)
            # where the picture sits in the bone frame (its centre and axes)
            out += _same(f"{at}.placement", np.asarray(p.local().fields(), float),
                         np.asarray(q.local().fields(), float), 1e-5)
            if isinstance(p, MeshAttachment):
                out += _mesh(at, p, q)
    order = lambda art: [(k.frame, tuple(k.order)) for k in art.draw_order]
    if order(a.art) != order(b.art):
        out.append(f"draw_order: {order(a.art)} became {order(b.art)}")
    return out


def _weights(m: MeshAttachment) -> list[dict]:
    return [{m.bones[i]: round(float(w), 6) for i, w in zip(ix, ws) if w > 0} for ix, ws in zip(m.indices, m.weights)] \
        if m.bones else []


def _mesh(at, p, q) -> list[str]:
    if not isinstance(q, MeshAttachment):
        return [f"{at}: a mesh became a picture"]
    out = []
    for field in ("vertices", "uvs", "triangles"):
        out += _same(f"{at}.{field}", getattr(p, field), getattr(q, field), 1e-4)
    wa, wb = _weights(p), _weights(q)
    if len(wa) != len(wb) or any(set(u) != set(v) or any(abs(u[k] - v[k]) > 1e-5 for k in u)
                                 for u, v in zip(wa, wb)):
        out.append(f"{at}.weights differ")
    return out


def project_differences(a, b) -> list[str]:
    """Everything a round trip keeps: the timeline's rate, every animation's range and
    its rig, art and meshes."""
    out = _same("timeline.fps", a.timeline.fps, b.timeline.fps)
    names, others = clips.names(a), clips.names(b)
    out += _same("animations", names, others)
    for name, other in zip(names, others):  # (in order, so the rest is compared too)
        pa, pb = clips.switch(a, name), clips.switch(b, other)
        out += _same(f"animations.{name}.range", (pa.timeline.start, pa.timeline.end),
                     (pb.timeline.start, pb.timeline.end))
        out += [f"{name}: {line}" for line in rig_differences(pa, pb) + art_differences(pa, pb)]
    return out
