"""The project: plain, immutable data. Nothing here knows Qt or files.

Units: model units for lengths and positions (y-up), radians for angles, frames for
time (``Timeline.fps`` converts). Every edit makes a new Project (``dataclasses.replace``
and the ``with_*`` helpers), so undo is keeping the old one.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

from rigeditor.model.data.events import Events
from rigeditor.core.filters import Smoothing
from rigeditor.core.limits import LIMIT_STRATEGIES
from rigeditor.model.data.attachments import Art
from rigeditor.model.data.constraints import TransformConstraint
from rigeditor.model.data.path_constraint import PathConstraint
from rigeditor.model.data.physics import PhysicsConstraint
from rigeditor.model.data.timeline import Channel, StepChannel, constant

WORLD = "world"
CHARACTER = "character"
SOLVERS = ("analytic", "fabrik", "ccd", "aim")  # aim: one bone pointed at its target


@dataclass(frozen=True)
class Timeline:
    """fps: frames per second (> 0); start, end: inclusive frame range. exact_end:
    None, or the frame (end - 1 < exact_end < end) the animation really ends on, an
    imported Spine animation whose last key falls between frames (``duration``)."""

    fps: float = 24.0
    start: int = 0
    end: int = 48
    exact_end: float | None = None

    @property
    def frames(self):
        import numpy as np

        return np.arange(self.start, self.end + 1, dtype=float)


@dataclass(frozen=True)
class Space:
    """A coordinate space with an animated transform relative to ``parent``.

    ``character`` is the rig root (walking moves it); other spaces are scene objects
    (a door, a cup, a platform). position: (x, y); rotation: radians; scale: (sx, sy),
    a negative sx mirrors; shear: (x, y) radians, as a bone's (``Bone.shear``), so a
    space can be any affine frame (an imported Spine bone's, sheared or unevenly scaled).
    """

    name: str
    parent: str = WORLD
    position: Channel = field(default_factory=lambda: constant(0.0, 0.0))
    rotation: Channel = field(default_factory=lambda: constant(0.0))
    scale: Channel = field(default_factory=lambda: constant(1.0, 1.0))
    shear: Channel = field(default_factory=lambda: constant(0.0, 0.0))


POINT_LENGTH = 1e-3
"""Model units: a bone this short or shorter is a point, Spine's length 0 (a RigEditor
bone keeps a length to be drawn and picked); constraints measure it as 0
(``Bone.measured_length``)."""


@dataclass(frozen=True)
class Bone:
    """A bone: its origin sits at ``rest_offset`` in the parent bone's frame (origin at
    the parent's joint, +x along the parent), or in character space for a root bone.

    length: > 0, model units. rest_rotation: radians relative to the parent.
    rotation: animated FK rotation added to the rest rotation (radians).
    translate: animated (x, y) added to the rest offset, in the parent's frame (model
    units). scale: animated (sx, sy) of the bone's own frame (non-zero; negative
    mirrors): like Spine's default ``inherit: normal``, it scales the bone's length,
    its children's offsets and its pictures; 0 collapses an axis (legal, as in Spine).
    The local transform is ``T(rest_offset + translate) . R(rest_rotation + rotation) . S(scale)``.
    shear: animated (x, y) radians, Spine's shear: x turns the bone's x axis, y its y
    axis (``model.inherit.local_matrix``). inherit: stepped, one of
    ``inherit.INHERIT_MODES``: what the bone takes from its parent's frame (Spine's
    inherit modes; ``normal`` everything).
    """

    name: str
    parent: str | None
    length: float
    rest_offset: tuple[float, float] = (0.0, 0.0)
    rest_rotation: float = 0.0
    rotation: Channel = field(default_factory=lambda: constant(0.0))
    translate: Channel = field(default_factory=lambda: constant(0.0, 0.0))
    scale: Channel = field(default_factory=lambda: constant(1.0, 1.0))
    shear: Channel = field(default_factory=lambda: constant(0.0, 0.0))
    inherit: StepChannel = field(default_factory=lambda: StepChannel("normal"))

    @property
    def measured_length(self) -> float:
        """The length constraints measure, as Spine does: 0 for a point (POINT_LENGTH)."""
        return 0.0 if self.length <= POINT_LENGTH else float(self.length)

    @property
    def translated(self) -> bool:
        """Whether the bone's translate is keyed or set off (0, 0)."""
        return bool(self.translate.keys or any(self.translate.default))

    @property
    def spine_frame(self) -> bool:
        """Whether the bone needs Spine's frame rules (shear, or another inherit mode)."""
        return bool(self.shear.keys or any(self.shear.default) or self.inherit.keys
                    or self.inherit.default != "normal")


@dataclass(frozen=True)
class Target:
    """An IK target: a position declared in a space. Both can be keyed; the space is
    stepped (see ``ops.switch_target_space`` for switching without a pop)."""

    name: str
    space: StepChannel = field(default_factory=lambda: StepChannel(WORLD))
    position: Channel = field(default_factory=lambda: constant(0.0, 0.0))


@dataclass(frozen=True)
class LimitStrategy:
    """What a chain does when a joint limit binds or the target is out of reach.

    kind: "accept" | "stretch" | "move_root". max_stretch: fraction in [0, 0.5]
    (0.1 = +/-10 %). max_root_offset: model units >= 0. root_time_constant: frames >= 0,
    the smoothing of the root offset over time.
    """

    kind: str = "accept"
    max_stretch: float = 0.10
    max_root_offset: float = 0.0
    root_time_constant: float = 2.0


SPINE_SCALE = ("stretch", "compress", "uniform")
"""Spine's IK scaling flags (``Chain.spine_scale``)."""

SOFT_REACH = ("exponential", "quadratic")
MAX_SOFTNESS = 100.0
"""The largest softness, as a fraction of the chain's length: Spine's (quadratic) softness
is in units and may exceed the chain; RigEditor's exponential one stops at 0.5."""
"""How a chain's softness eases its reach (``Chain.soft_reach``)."""


@dataclass(frozen=True)
class Chain:
    """An IK constraint over ``bones`` (root to tip, each the child of the previous).

    solver: "analytic" (two bones) | "fabrik" | "ccd" (two or more) | "aim" (one bone,
    turned to point at the target, as Spine's one-bone IK). bend: +1/-1, keyed stepped;
    +1 turns the second bone counter-clockwise. softness: fraction of the chain's
    length in [0, 0.5] (typical 0.03-0.08). mix: 0 = FK pose, 1 = IK pose.
    limits: per bone (min, max) radians relative to the parent (the first bone's
    parent is the chain's shoulder space), or None. tolerance (model units) and
    max_iterations are for the iterative solvers. soft_reach: how softness eases the
    reach (SOFT_REACH): "exponential" (RigEditor's: never quite reaches full length, an
    inner zone too) or "quadratic" (Spine's: the target is drawn in from softness s
    below full reach, reached again s beyond it; ``twobone.quadratic_reach``).
    order: where the chain solves among all constraints, chains included (lower first,
    as Spine's ``order``; of one order, parents first). A chain ordered before a chain
    above it solves against that one's keyed pose (``evaluation.chain_order``).
    spine_scale: Spine's IK scaling, a subset of SPINE_SCALE (analytic and aim chains
    with the accept strategy and no limits): "stretch": beyond reach the first bone's
    frame scales along its x axis by distance / reach, unbounded, carrying the bones
    below; "compress" (aim only): a target nearer than the bone's length scales it
    down the same way; "uniform": its y axis scales with x. RigEditor's own bounded
    stretch is ``strategy`` "stretch". spine_stretch, spine_compress: Spine's keyed
    flags, stepped keys of 1 (on) or 0 (off); before the first key (and without keys)
    the flag in spine_scale holds (``model.data.ik_flags``).
    """

    name: str
    bones: tuple[str, ...]
    target: str
    solver: str = "analytic"
    bend: Channel = field(default_factory=lambda: constant(1.0))
    softness: Channel = field(default_factory=lambda: constant(0.0))
    mix: Channel = field(default_factory=lambda: constant(1.0))
    limits: tuple[tuple[float, float] | None, ...] = ()
    strategy: LimitStrategy = field(default_factory=LimitStrategy)
    smoothing: Smoothing = field(default_factory=Smoothing)
    tolerance: float = 1e-3
    max_iterations: int = 64
    soft_reach: str = "exponential"
    order: int = 0  # among all constraints, as Spine's order (see constraints.TransformConstraint)
    spine_scale: tuple[str, ...] = ()
    spine_stretch: Channel = field(default_factory=lambda: constant(0.0))
    spine_compress: Channel = field(default_factory=lambda: constant(0.0))

    def limit(self, i: int):
        return self.limits[i] if i < len(self.limits) else None


@dataclass(frozen=True)
class Animation:
    """A named animation (clip) over the shared rig: its frame range (inclusive) and
    the keys of every keyed track, ``{(kind, item, attribute): keys}`` (see
    ``model.clips``). The open animation's keys live on the items themselves (what
    evaluate reads); its entry here keeps only its name (its range is the timeline's)."""

    name: str
    start: int = 0
    end: int = 48
    tracks: dict = field(default_factory=dict, hash=False)
    exact_end: float | None = None  # as Timeline.exact_end


@dataclass(frozen=True)
class Project:
    """animations: every animation in list order (empty: one, named ``animation``,
    over the timeline); animation: the open one, whose keys are on the items."""

    name: str = "untitled"
    timeline: Timeline = field(default_factory=Timeline)
    spaces: tuple[Space, ...] = (Space(CHARACTER),)
    bones: tuple[Bone, ...] = ()
    targets: tuple[Target, ...] = ()
    chains: tuple[Chain, ...] = ()
    transforms: tuple[TransformConstraint, ...] = ()  # transform constraints (model.data.constraints)
    paths: tuple[PathConstraint, ...] = ()  # path constraints (model.data.path_constraint)
    physics: tuple[PhysicsConstraint, ...] = ()  # physics constraints (model.data.physics)
    art: Art = field(default_factory=Art)  # images on bones, slots, draw order
    animations: tuple[Animation, ...] = ()
    animation: str = "animation"
    events: Events = field(default_factory=Events)  # definitions, the open animation's keys (model.data.events)

    # ---- look-ups (names are unique per kind; validation guarantees it)
    def bone(self, name: str) -> Bone:
        return self._lookup("bone", name)

    def space(self, name: str) -> Space:
        return self._lookup("space", name)

    def target(self, name: str) -> Target:
        return self._lookup("target", name)

    def chain(self, name: str) -> Chain:
        return self._lookup("chain", name)

    def transform(self, name: str) -> TransformConstraint:
        return self._lookup("transform", name)

    def path(self, name: str) -> PathConstraint:
        return self._lookup("path", name)
    def physics_constraint(self, name: str) -> PhysicsConstraint:
        return self._lookup("physics", name)

    @cached_property
    def _by_name(self) -> dict:
        # Built on first look-up: an evaluation looks bones up thousands of times.
        # (Reversed: with a duplicate name the first item wins, as validation reports.)
        out = {kind: {item.name: item for item in reversed(getattr(self, kind + "s"))}
               for kind in ("bone", "space", "target", "chain", "transform", "path")}
        out["physics"] = {item.name: item for item in reversed(self.physics)}
        return out

    def _lookup(self, kind: str, name: str):
        try:
            return self._by_name[kind][name]
        except (KeyError, TypeError):
            raise KeyError(f"no {kind} named {name!r}") from None

    def space_names(self) -> list[str]:
        return [WORLD] + [s.name for s in self.spaces]

    def children(self, bone: str | None) -> list[Bone]:
        return list(self._children.get(bone, ()))

    @cached_property
    def _children(self) -> dict:
        out: dict = {}
        for b in self.bones:
            out.setdefault(b.parent, []).append(b)
        return out

    def chain_for_target(self, target: str) -> list[Chain]:
        return [c for c in self.chains if c.target == target]

    def chain_of_bone(self, bone: str) -> Chain | None:
        """The first chain that drives ``bone`` (None: none does)."""
        return next((c for c in self.chains if bone in c.bones), None)

    def chains_of_bone(self, bone: str) -> list[Chain]:
        """Every chain that drives ``bone`` (chains Spine plays may share bones)."""
        return [c for c in self.chains if bone in c.bones]

    # ---- edits: a new project with one item replaced
    def with_bone(self, name: str, /, **changes) -> "Project":
        return replace(self, bones=_replaced(self.bones, name, changes, "bone"))

    def with_space(self, name: str, /, **changes) -> "Project":
        return replace(self, spaces=_replaced(self.spaces, name, changes, "space"))

    def with_target(self, name: str, /, **changes) -> "Project":
        return replace(self, targets=_replaced(self.targets, name, changes, "target"))

    def with_chain(self, name: str, /, **changes) -> "Project":
        return replace(self, chains=_replaced(self.chains, name, changes, "chain"))

    def with_transform(self, name: str, /, **changes) -> "Project":
        return replace(self, transforms=_replaced(self.transforms, name, changes, "transform"))

    def with_path(self, name: str, /, **changes) -> "Project":
        return replace(self, paths=_replaced(self.paths, name, changes, "path"))
    def with_physics(self, name: str, /, **changes) -> "Project":
        return replace(self, physics=_replaced(self.physics, name, changes, "physics"))


def _find(items, name, kind):
    for item in items:
        if item.name == name:
            return item
    raise KeyError(f"no {kind} named {name!r}")


def _replaced(items, name, changes, kind):
    _find(items, name, kind)
    return tuple(replace(i, **changes) if i.name == name else i for i in items)


__all__ = [
    "WORLD", "CHARACTER", "SOLVERS", "POINT_LENGTH", "SPINE_SCALE", "LIMIT_STRATEGIES", "Animation", "Timeline", "Space", "Bone", "Target",
    "LimitStrategy", "Chain", "TransformConstraint", "PathConstraint", "PhysicsConstraint", "Project", "Smoothing",
]
