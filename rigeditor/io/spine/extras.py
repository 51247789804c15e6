"""``skeleton.rigeditor``: RigEditor's own data in a Spine export, what the runtimes do
not read (written by ``write_roundtrip``, taken back by ``read_roundtrip``). Here: its
name and the digest that ties it to the Spine data it was written with."""
from __future__ import annotations

import hashlib
import json

KEY = "rigeditor"
FORMAT = "rigeditor-spine-extras"
VERSION = 1


def digest(doc: dict) -> str:
    """SHA-256 (hex) of every section of the skeleton JSON ``doc`` but ``skeleton``, as
    canonical JSON (sorted keys): the same for the data written and the data read."""
    body = {k: v for k, v in doc.items() if k != "skeleton"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def carried(doc: dict) -> dict:
    """{KEY: (the object, whether the Spine data is still what it was written with)},
    or {} when the skeleton has none."""
    data = doc["skeleton"].get(KEY)
    if data is None:
        return {}
    try:
        intact = isinstance(data, dict) and data.get("digest") == digest(doc)
    except (TypeError, ValueError):  # a value JSON cannot write back (not from RigEditor)
        intact = False
    return {KEY: (data, intact)}
