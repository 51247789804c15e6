"""Spine's IK timeline keys of ``stretch`` and ``compress`` as a chain's stepped flag
tracks (``model.data.ik_flags``).

Each key of an IK timeline carries the flags (its JSON reader takes an absent one as
off) and holds them to the next key; before the first key the constraint's setup
flags hold. Spine's two-bone IK has no compress, so only one-bone chains take it.
"""
from __future__ import annotations

from rigeditor.io.spine.read_keys import frame_of
from rigeditor.model.data.ik_flags import FLAG_TRACKS
from rigeditor.model.data.timeline import Channel, Key


def flag_tracks(c, keys: list[dict], fps: float, one_bone: bool) -> dict:
    """{chain field: Channel} for the flags the keys of constraint ``c`` change (none
    when every key says the setup flag)."""
    out = {}
    for flag, track in FLAG_TRACKS.items():
        if flag == "compress" and not one_bone:
            continue
        setup = bool(getattr(c, flag))
        values = [bool(k.get(flag, False)) for k in keys]
        if all(v == setup for v in values):
            continue
        made = [Key(frame_of(float(k.get("time", 0.0)), fps, step=True), (1.0 if v else 0.0,), "constant")
                for k, v in zip(keys, values)]
        out[track] = Channel((0.0,), tuple({k.frame: k for k in made}.values()))  # the last at one time wins
    return out


def keyed_on(skel, name: str, flag: str) -> bool:
    """Whether an animation keys ``flag`` on for IK constraint ``name``."""
    return any(isinstance(k, dict) and bool(k.get(flag, False))
               for anim in skel.animations.values() for k in ((anim.get("ik") or {}).get(name) or []))
