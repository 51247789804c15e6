"""Keys between the file (dicts, degrees where ``angle``) and the model (``Key``,
radians): shared by the conversion of the rig's channels and of the stored animations.
Degrees are written rounded to 1e-9 degree, so loading and saving again gives the same
text."""
from __future__ import annotations

import math

from rigeditor.io.schema.project import frame_number
from rigeditor.model.data.timeline import Key


def file_value(v, scale=1.0) -> tuple[float, ...]:
    if isinstance(v, list):
        return tuple(float(x) * scale for x in v)
    return (float(v) * scale,)


def _handle(h, scale):
    return None if h is None else (float(h[0]),) + tuple(float(x) * scale for x in h[1:])


def keys_from_file(raw, dim: int, scale=1.0, interp="linear") -> tuple[Key, ...]:
    """Model keys from validated key dicts of dimension ``dim`` (values times ``scale``)."""
    if scale != 1.0:
        return tuple(Key(k["frame"], file_value(k["value"], scale), k.get("interp", interp),
                         _handle(k.get("out_handle"), scale), _handle(k.get("in_handle"), scale))
                     for k in raw)
    if dim == 1:
        # The lean paths: a file may hold 100,000 keys, and validated values are floats.
        return tuple(Key(k["frame"], (k["value"],), k.get("interp", interp),
                         _tuple(k.get("out_handle")), _tuple(k.get("in_handle"))) for k in raw)
    return tuple(Key(k["frame"], tuple(k["value"]), k.get("interp", interp),
                     _tuple(k.get("out_handle")), _tuple(k.get("in_handle"))) for k in raw)


def _tuple(h):
    return None if h is None else tuple(h)


def file_degrees(radians: float) -> float:
    return round(math.degrees(radians), 9) + 0.0  # + 0.0: never write -0.0


def keys_data(keys, angle: bool = False) -> list[dict]:
    """Model keys as the file's key dicts (``angle``: values and handle dv in degrees)."""
    conv = file_degrees if angle else float

    def value(v):
        return conv(v[0]) if len(v) == 1 else [conv(x) for x in v]

    def handle(h):
        return [float(h[0])] + [conv(x) for x in h[1:]]

    out = []
    for k in keys:
        key = {"frame": frame_number(k.frame), "value": value(k.value), "interp": k.interp}
        if k.out_handle is not None:
            key["out_handle"] = handle(k.out_handle)
        if k.in_handle is not None:
            key["in_handle"] = handle(k.in_handle)
        out.append(key)
    return out
