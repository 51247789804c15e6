"""The arm example dressed with layered art: torso, upper arm, forearm, and a hand
that closes into a fist while it passes behind the torso (an attachment key and a
draw-order key). Image paths are relative to the project file; the pictures are
drawn by ``rigeditor.examples.art_files`` (no third-party art)."""
from __future__ import annotations

from dataclasses import replace

from rigeditor.model.data.attachments import Art, DrawOrderKey, ImageAttachment, Slot
from rigeditor.examples.rigs import arm
from rigeditor.model.data.project import Project
from rigeditor.model.data.timeline import StepChannel

ART_DIR = "arm_art"
SIZES = {"torso": (90, 200), "upper_arm": (176, 46), "forearm": (146, 38), "hand_open": (54, 44),
         "hand_fist": (40, 40)}
"""Image sizes in pixels (width, height)."""


def _image(name, **place) -> ImageAttachment:
    w, h = SIZES[name]
    return ImageAttachment(name, f"{ART_DIR}/{name}.png", float(w), float(h), **place)


def dressed_arm() -> Project:
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


WALK_DIR = "walk_art"
WALK_SIZES = {"torso": (78, 44), "head": (40, 40), "upper_arm": (46, 16), "forearm": (44, 14),
              "thigh": (64, 20), "shin": (66, 26)}
"""Image sizes of the dressed walk in pixels (width along the bone, height across)."""


def dressed_walk() -> Project:
    """The walk example in clothes: a torso on the spine, a head, the left arm (on the
    hip) and both legs, each picture on its bone; the far leg (right) at the back. The
    two legs share their pictures (one file each for thigh and shin)."""
    from rigeditor.examples.rigs import walk

    def image(kind, name=None, **place):
        w, h = WALK_SIZES[kind]
        return ImageAttachment(name or kind, f"{WALK_DIR}/{kind}.png", float(w), float(h), **place)

    def slot(name, bone, attachment):
        return Slot(name, bone, (attachment,), StepChannel(attachment.name))

    slots = (
        slot("thigh_r", "thigh_r", image("thigh", x=25.0, tint=(0.8, 0.8, 0.85, 1.0))),
        slot("shin_r", "shin_r", image("shin", x=27.0, y=3.0, tint=(0.8, 0.8, 0.85, 1.0))),
        slot("torso", "spine", image("torso", x=30.0)),
        slot("head", "head", image("head", x=16.0)),
        slot("thigh_l", "thigh_l", image("thigh", x=25.0)),
        slot("shin_l", "shin_l", image("shin", x=27.0, y=3.0)),
        slot("upper_arm_l", "upper_arm_l", image("upper_arm", x=17.0)),
        slot("forearm_l", "forearm_l", image("forearm", x=17.0)),
    )
    return replace(walk(), name="dressed_walk", art=Art(slots))
