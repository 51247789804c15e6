"""Why a chain's end is off its target: the floating-point bound two computations of
one end agree within, and the cause of each frame's residual (``CAUSES``)."""
from __future__ import annotations

import numpy as np

from rigeditor.model.evaluation.bake import CAUSES

_CAUSE = {name: i for i, name in enumerate(CAUSES)}


def rounding_bound(outer, distance, shoulder_world):
    """Model units within which two computations of the same end agree in floating
    point: relative to the chain's size, the target's distance and how far from the
    world origin the chain is carried (the pose goes through world space and back)."""
    far = np.hypot(shoulder_world[:, 0], shoulder_world[:, 1])
    return 1e-11 * (outer + distance + far)


def classify(residual, solver_residual, distance, inner, outer, softness, limited, mix, budget, *,
             tolerance, rounding, own=None):
    """Name the cause of each frame's residual (indices into CAUSES).

    A residual is explained when it is within ``tolerance`` of zero (or of floating-point
    size, ``rounding``), or a mix below 1 blends in the FK pose, or a limit binds, or the
    target lies in the soft zone or beyond the hard reach, or an iterative solver ran
    out of iterations (``budget``). Otherwise, or when the final pose disagrees with the
    solver's own forward kinematics by more than ``rounding`` (a floating-point bound,
    not the user's convergence tolerance), it is unexplained: a bug, never hidden.
    ``own``: the final pose's residual against the point the solver was given, where
    that is not the target (a target drawn in by quadratic soft reach); default residual.
    """
    cause = np.full(residual.shape, _CAUSE["unexplained"], dtype=np.int8)
    soft_zone = (softness > 0) & ((distance > outer - softness) | (distance < inner + softness))
    beyond = (distance > outer) | (distance < inner)
    agrees = np.abs((residual if own is None else own) - solver_residual) <= rounding
    explained = [
        (residual <= np.maximum(tolerance, rounding), "none"),
        (mix < 1.0, "mix"),
        (agrees & limited, "limit"),
        (agrees & beyond, "out_of_reach"),
        (agrees & soft_zone, "soft_reach"),
        (agrees & budget, "budget"),
    ]
    # Later entries must not overwrite earlier (more specific) ones: fill in reverse.
    for mask, name in reversed(explained):
        cause[mask] = _CAUSE[name]
    return cause
