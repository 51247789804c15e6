"""The arm example dressed with layered art: torso, upper arm, forearm, and a hand
that closes into a fist while it passes behind the torso (an attachment key and a
draw-order key). Image paths are relative to the project file; the pictures are
drawn by ``rigeditor.io.example_art`` (no third-party art)."""
from __future__ import annotations

from dataclasses import replace

from rigeditor.model.attachments import Art, DrawOrderKey, ImageAttachment, Slot
from rigeditor.model.examples import arm
from rigeditor.model.timeline import StepChannel

ART_DIR = "arm_art"
SIZES = {"torso": (90, 200), "upper_arm": (176, 46), "forearm": (146, 38), "hand_open": (54, 44),
         "hand_fist": (40, 40)}
"""Image sizes in pixels (width, height)."""


def _image(name, **place) -> ImageAttachment:
    w, h = SIZES[name]
    return ImageAttachment(name, f"{ART_DIR}/{name}.png", float(w), float(h), **place)


def dressed_arm() -> "Project":  # noqa: F821
    """The arm example with art on its bones (slots back to front: torso, upper arm,
    forearm, hand); the hand closes from frame 24 to 40 and draws behind the torso
    from frame 30 to 42."""
    slots = (
        Slot("torso", None, (_image("torso", x=-40.0, y=-70.0),), StepChannel("torso")),
        Slot("upper_arm", "upper_arm", (_image("upper_arm", x=75.0),), StepChannel("upper_arm")),
        Slot("forearm", "forearm", (_image("forearm", x=60.0),), StepChannel("forearm")),
        Slot("hand", "forearm", (_image("hand_open", x=138.0, y=2.0), _image("hand_fist", x=132.0)),
             StepChannel("hand_open", ((24, "hand_fist"), (40, "hand_open")))),
    )
    setup = tuple(s.name for s in slots)
    behind = ("hand", "torso", "upper_arm", "forearm")
    art = Art(slots, (DrawOrderKey(30, behind), DrawOrderKey(42, setup)))
    return replace(arm(), name="dressed_arm", art=art)
