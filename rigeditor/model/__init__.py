"""Pure data and the one evaluation path. No Qt, no files."""
from rigeditor.model.evaluation.bake import CAUSES, Bake, ChainBake
from rigeditor.model.evaluation.evaluate import evaluate
from rigeditor.model.data.project import (
    CHARACTER, SOLVERS, WORLD, Bone, Chain, LimitStrategy, Project, Space, Target, Timeline,
)
from rigeditor.model.data.timeline import INTERPOLATIONS, Channel, Key, StepChannel, constant, keyed

__all__ = [
    "CAUSES", "Bake", "ChainBake", "evaluate", "CHARACTER", "SOLVERS", "WORLD", "Bone", "Chain",
    "LimitStrategy", "Project", "Space", "Target", "Timeline", "INTERPOLATIONS", "Channel", "Key",
    "StepChannel", "constant", "keyed",
]
