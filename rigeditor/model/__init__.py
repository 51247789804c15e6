"""Pure data and the one evaluation path. No Qt, no files."""
from rigeditor.model.bake import CAUSES, Bake, ChainBake
from rigeditor.model.evaluate import evaluate
from rigeditor.model.project import (
    CHARACTER, SOLVERS, WORLD, Bone, Chain, LimitStrategy, Project, Space, Target, Timeline,
)
from rigeditor.model.timeline import INTERPOLATIONS, Channel, Key, StepChannel, constant, keyed

__all__ = [
    "CAUSES", "Bake", "ChainBake", "evaluate", "CHARACTER", "SOLVERS", "WORLD", "Bone", "Chain",
    "LimitStrategy", "Project", "Space", "Target", "Timeline", "INTERPOLATIONS", "Channel", "Key",
    "StepChannel", "constant", "keyed",
]
