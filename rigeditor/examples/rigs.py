"""The built-in example projects, built as model objects in one place (the io layer
saves them to the top-level resources/examples/)."""
from __future__ import annotations

import math

from rigeditor.core.filters import Smoothing
from rigeditor.edits.posing import switch_target_space
from rigeditor.model.data.project import (
    CHARACTER, WORLD, Bone, Chain, LimitStrategy, Project, Space, Target, Timeline,
)
from rigeditor.model.data.timeline import StepChannel, constant, keyed


def arm() -> Project:
    """The reference's interactive demo: upper arm 150, forearm 125, a target to drag.

    The target is keyed once around the reach: inside, beyond full reach (the arm
    stops on the outer circle and says so), across the bone line and back.
    """
    path = [(0, (200.0, 60.0)), (12, (250.0, 120.0)), (24, (300.0, 0.0)),
            (36, (120.0, -80.0)), (48, (200.0, 60.0))]
    return Project(
        name="arm",
        timeline=Timeline(fps=24.0, start=0, end=48),
        spaces=(Space(CHARACTER),),
        bones=(
            Bone("upper_arm", None, 150.0),
            Bone("forearm", "upper_arm", 125.0, rest_offset=(150.0, 0.0)),
        ),
        targets=(Target("hand", StepChannel(WORLD), keyed(path, "bezier")),),
        chains=(Chain("arm", ("upper_arm", "forearm"), "hand", bend=constant(1.0)),),
    )


def _leg(side: str, hip_x: float):
    return (
        Bone(f"thigh_{side}", None, 50.0, rest_offset=(hip_x, 0.0), rest_rotation=-math.pi / 2),
        Bone(f"shin_{side}", f"thigh_{side}", 50.0, rest_offset=(50.0, 0.0), rest_rotation=0.3),
    )


def _step(plant_a, lift, plant_b, t0, t1, end):
    """Foot keys: planted at plant_a until t0, swings to plant_b by t1, planted after."""
    mid = (t0 + t1) // 2
    return [(0, (plant_a, 0.0)), (t0, (plant_a, 0.0)), (mid, ((plant_a + plant_b) / 2, lift)),
            (t1, (plant_b, 0.0)), (end, (plant_b, 0.0))]


def walk(foot_space: str = WORLD) -> Project:
    """A character walking two steps to the right (+x) over 48 frames.

    Each foot's target lives in world space and is planted during stance, so the foot
    stays put while the body moves; the left hand rests on the hip in character space
    and rides along. ``foot_space="character"`` builds the classic mistake (the same
    numbers declared in character space) for the sliding check to find.
    """
    hip_height = 95.0
    character = Space(CHARACTER, WORLD, position=keyed([(0, (0.0, hip_height)), (48, (60.0, hip_height))]))
    bones = (
        Bone("spine", None, 60.0, rest_rotation=math.pi / 2,
             rotation=keyed([(0, 0.04), (12, -0.04), (24, 0.04), (36, -0.04), (48, 0.04)], "bezier")),
        Bone("head", "spine", 20.0, rest_offset=(60.0, 0.0)),
        Bone("upper_arm_l", "spine", 35.0, rest_offset=(55.0, 0.0), rest_rotation=math.pi),
        Bone("forearm_l", "upper_arm_l", 30.0, rest_offset=(35.0, 0.0), rest_rotation=-0.5),
        *_leg("l", 0.0),
        *_leg("r", 0.0),
    )
    left = _step(-15.0, 12.0, 45.0, 8, 20, 48)
    right = _step(15.0, 12.0, 75.0, 28, 40, 48)
    if foot_space != WORLD:
        # Same world numbers at frame 0, but declared in the character's space.
        left = [(f, (x, y - hip_height)) for f, (x, y) in left]
        right = [(f, (x, y - hip_height)) for f, (x, y) in right]
    targets = (
        Target("foot_l", StepChannel(foot_space), keyed(left)),
        Target("foot_r", StepChannel(foot_space), keyed(right)),
        Target("hand_on_hip", StepChannel(CHARACTER), constant(15.0, 5.0)),
    )
    knee = dict(bend=constant(-1.0), softness=constant(0.0),
                limits=(None, (-math.radians(150), 0.0)))
    chains = (
        Chain("leg_l", ("thigh_l", "shin_l"), "foot_l", **knee),
        Chain("leg_r", ("thigh_r", "shin_r"), "foot_r", **knee),
        Chain("arm_l", ("upper_arm_l", "forearm_l"), "hand_on_hip", bend=constant(-1.0),
              softness=constant(0.04)),
    )
    return Project(name="walk" if foot_space == WORLD else f"walk ({foot_space} feet)",
                   timeline=Timeline(24.0, 0, 48), spaces=(character,), bones=bones,
                   targets=targets, chains=chains)


def door() -> Project:
    """A hand reaches for a door handle, grabs it at frame 20 and rides it open.

    Spaces: the door (hinge at (130, -60), swinging 1.2 rad between frames 20 and 60)
    and its handle (120 along the door). The hand target is in world space while
    reaching, then declared in the handle's space from frame 20 through the pop-free
    space switch; from there it stays on the handle however the door turns.
    """
    door_space = Space("door", WORLD, position=constant(130.0, -60.0),
                       rotation=keyed([(0, 0.0), (20, 0.0), (60, 1.2)], "bezier"))
    handle = Space("door_handle", "door", position=constant(120.0, 0.0))
    reach = keyed([(0, (150.0, -150.0)), (20, (254.0, -48.0))], "bezier")
    project = Project(
        name="door",
        timeline=Timeline(24.0, 0, 60),
        spaces=(Space(CHARACTER), door_space, handle),
        bones=(
            Bone("upper_arm", None, 150.0, rest_rotation=-0.6),
            Bone("forearm", "upper_arm", 125.0, rest_offset=(150.0, 0.0), rest_rotation=0.8),
        ),
        targets=(Target("hand", StepChannel(WORLD), reach),),
        chains=(Chain("arm", ("upper_arm", "forearm"), "hand", bend=constant(1.0),
                      softness=constant(0.05), strategy=LimitStrategy("accept"),
                      smoothing=Smoothing("none")),),
    )
    project = switch_target_space(project, "hand", 20, "door_handle")
    # Once held, the hand stays exactly on the grip: key the handle-space offset flat.
    hand = project.target("hand")
    grip = hand.position.keys[-1].value
    return project.with_target("hand", position=hand.position.with_key(
        type(hand.position.keys[-1])(60, grip, "linear")))


def tail(solver: str = "fabrik") -> Project:
    """A ten-bone tail (20 units a bone) whose tip follows a keyed figure-eight, with a
    limit at every joint: +/-70 deg at the base, +/-25 deg along the tail. Solved by
    FABRIK (or ``solver="ccd"``), warm-started frame to frame."""
    n = 10
    bones = [Bone("tail_0", None, 20.0, rest_rotation=math.pi)]
    bones += [Bone(f"tail_{i}", f"tail_{i - 1}", 20.0, rest_offset=(20.0, 0.0)) for i in range(1, n)]
    limits = [(math.pi - math.radians(70), math.pi + math.radians(70))]
    limits += [(-math.radians(25), math.radians(25))] * (n - 1)
    path = [(f, (-140.0 + 40.0 * math.sin(2 * math.pi * f / 48), 30.0 * math.sin(4 * math.pi * f / 48)))
            for f in range(0, 49, 6)]
    return Project(
        name="tail",
        timeline=Timeline(24.0, 0, 48),
        spaces=(Space(CHARACTER, WORLD, position=constant(0.0, 100.0)),),
        bones=tuple(bones),
        targets=(Target("tail_tip", StepChannel(CHARACTER), keyed(path, "bezier")),),
        chains=(Chain("tail", tuple(b.name for b in bones), "tail_tip", solver=solver,
                      limits=tuple(limits), tolerance=0.05, max_iterations=64),),
    )


EXAMPLES = {"arm": arm, "walk": walk, "door": door, "tail": tail}

DESCRIPTIONS = {
    "arm": "two bones and a hand target keyed inside, beyond and across the reach (the default)",
    "walk": "two steps: feet planted in world space, a hand on the hip in character space",
    "door": "a hand grabs a door handle at frame 20 and rides the door open (a space switch)",
    "tail": "a ten-bone tail solved by FABRIK, with a limit at every joint",
}
"""One line per example, for ``rigeditor examples`` and menus."""
