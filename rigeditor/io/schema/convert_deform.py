"""Deform keys between the file (``schema.deform``) and the model (``model.data.deform``)."""
from __future__ import annotations

from rigeditor.io.schema import deform as schema_deform
from rigeditor.io.schema.project import frame_number
from rigeditor.model.data.deform import LINEAR_CURVE, DeformKey, DeformTrack


def to_deforms(tracks: list[schema_deform.DeformTrack]) -> tuple[DeformTrack, ...]:
    return tuple(DeformTrack(t.slot, t.attachment, t.skin, to_keys(t.keys)) for t in tracks)


def to_keys(keys: list[schema_deform.DeformKey]) -> tuple[DeformKey, ...]:
    return tuple(DeformKey(k.frame, k.offsets, k.interpolation, tuple(k.curve) if k.curve else LINEAR_CURVE)
                 for k in keys)


def keys_data(keys) -> list[dict]:
    return [{"frame": frame_number(k.frame), "offsets": k.offsets.tolist(),
             **({"interpolation": k.interpolation} if k.interpolation != "linear" else {}),
             **({"curve": list(k.curve)} if k.interpolation == "bezier" else {})} for k in keys]


def deforms_data(deforms) -> dict:
    """{"deforms": [...]} as plain JSON data; {} when there are none (older readers)."""
    if not deforms:
        return {}
    return {"deforms": [{"slot": t.slot, "attachment": t.attachment, **({"skin": t.skin} if t.skin else {}),
                         "keys": keys_data(t.keys)} for t in deforms]}
