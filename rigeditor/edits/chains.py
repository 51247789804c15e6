"""IK chains and their targets: a chain from a run of bones, its solver and settings, the bend, the target's space."""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from rigeditor.edits.errors import EditError
from rigeditor.edits.names import _check_new_name, names_of, unique_name
from rigeditor.model.data.project import SOLVERS, SPINE_SCALE, Chain, Project, Target
from rigeditor.model.data.timeline import StepChannel, constant


def default_solver(n_bones: int) -> str:
    """The solver a new chain of ``n_bones`` gets: aim for one, analytic for two, FABRIK for more."""
    return "aim" if n_bones == 1 else "analytic" if n_bones == 2 else "fabrik"


def solvers_for(n_bones: int) -> tuple[str, ...]:
    """The solvers a chain of ``n_bones`` may use (aim drives exactly one, analytic two)."""
    if n_bones == 1:
        return ("aim",)
    return tuple(s for s in SOLVERS if s != "aim" and (s != "analytic" or n_bones == 2))


def chain_run(project: Project, bones) -> tuple[str, ...]:
    """The selected ``bones`` (any order) as a chain's run, root to tip.

    Refused, with a message for the user, unless there is one (an aim chain) or they form a
    single parent → child run (no gap, no branch), each starts at its parent's tip,
    and none is already driven by a chain.
    """
    names = list(dict.fromkeys(bones))
    if not names:
        raise EditError("An IK chain needs one bone or more connected bones: select a parent → child run.")
    known = set(names_of(project, "bone"))
    for n in names:
        if n not in known:
            raise EditError(f"There is no bone named '{n}'.")
    chosen = set(names)
    starts = [n for n in names if project.bone(n).parent not in chosen]
    if len(starts) != 1:
        if len(names) == 2:
            a, b = names
            raise EditError(f"An IK chain needs two connected bones: '{a}' and '{b}' are not parent and child.")
        pieces = ", ".join(f"'{n}'" for n in starts) or "nowhere"
        raise EditError("An IK chain needs one parent → child run of bones, each the child of the "
                           f"previous; the selected bones fall apart into pieces starting at {pieces}.")
    run = [starts[0]]
    while len(run) < len(names):
        kids = [b.name for b in project.children(run[-1]) if b.name in chosen]
        if len(kids) != 1:  # one start and no gap: every chosen bone hangs below it
            raise EditError(f"'{run[-1]}' has {len(kids)} selected children ({', '.join(kids)}): "
                               "an IK chain is a single run, not a branch.")
        run.append(kids[0])
    for upper_name, lower_name in zip(run, run[1:]):
        upper, lower = project.bone(upper_name), project.bone(lower_name)
        if not (math.isclose(lower.rest_offset[0], upper.length, rel_tol=1e-9)
                and abs(lower.rest_offset[1]) <= 1e-9 * upper.length):
            raise EditError(f"'{lower.name}' does not start at the tip of '{upper.name}' "
                               f"(offset {tuple(lower.rest_offset)}, tip at ({upper.length:g}, 0)).")
    for n in run:
        c = project.chain_of_bone(n)
        if c is not None:
            raise EditError(f"'{n}' is already driven by IK chain '{c.name}'.")
    return tuple(run)


def add_chain(project: Project, bones, space: str, frame: int, *, name: str | None = None,
              target: str | None = None, solver: str | None = None) -> tuple[Project, str]:
    """Add an IK chain over ``bones``, a parent → child run given in any order (see
    :func:`chain_run`); returns (project, chain name).

    solver: default analytic for two bones, FABRIK for more (see :func:`default_solver`).
    Its new target sits at the chain's end effector as posed at ``frame`` (so adding
    the chain does not move the bones there), declared in ``space``. The bend starts
    as the side the bones curl to in the rest pose (+1 when straight); from then on it
    is state, never re-derived (the iterative solvers do not use it). Default names:
    ``<first bone>_ik`` for the chain, ``<last bone>_target`` for its target.
    """
    from rigeditor.model.evaluation.evaluate import evaluate  # a one-frame evaluation

    if isinstance(bones, str):
        raise EditError("add_chain takes the chain's bones as a sequence of names.")
    run = chain_run(project, bones)
    solver = default_solver(len(run)) if solver is None else solver
    if solver not in solvers_for(len(run)):
        raise EditError(_solver_refusal(solver, len(run)))
    if space not in project.space_names():
        raise EditError(f"There is no space named '{space}'.")
    frames = np.array([float(frame)])
    bake = evaluate(project, frames)
    tip = bake.bone(run[-1]).tip[0]
    local = bake.spaces[space].take(0).inverse().apply(tip)
    position = tuple(float(v) for v in np.asarray(local).reshape(2))
    if name is None:
        name = unique_name(names_of(project, "chain"), f"{run[0]}_ik")
    name = _check_new_name(project, "chain", name)
    if target is None:
        target = unique_name(names_of(project, "target"), f"{run[-1]}_target")  # what it pulls: that bone's end
    target = _check_new_name(project, "target", target)
    curl = sum(project.bone(n).rest_rotation for n in run[1:])
    bend = -1.0 if curl < 0 else 1.0
    t = Target(target, StepChannel(space), constant(*position))
    c = Chain(name, run, target, solver=solver, bend=constant(bend))
    return replace(project, targets=project.targets + (t,), chains=project.chains + (c,)), name


def _solver_refusal(solver: str, n_bones: int) -> str:
    if solver not in SOLVERS:
        return f"Unknown solver {solver!r}: choose one of {', '.join(SOLVERS)}."
    return (f"The analytic solver drives exactly two bones; this chain has {n_bones}. "
            "Use FABRIK or CCD.")


def set_chain_solver(project: Project, chain: str, solver: str) -> Project:
    """Switch ``chain`` to ``solver`` ("analytic" only for a two-bone chain)."""
    c = project.chain(chain)
    if solver not in solvers_for(len(c.bones)):
        raise EditError(_solver_refusal(solver, len(c.bones)))
    return project.with_chain(chain, solver=solver)


def set_solver_settings(project: Project, chain: str, *, tolerance: float | None = None,
                        max_iterations: int | None = None) -> Project:
    """Set an iterative chain's tolerance (model units, > 0: the solve stops once the
    end is this close) and/or its iteration budget per frame (an integer >= 1)."""
    changes = {}
    if tolerance is not None:
        tolerance = float(tolerance)
        if not (math.isfinite(tolerance) and tolerance > 0):
            raise EditError(f"A tolerance must be a number > 0 (model units), got {tolerance!r}.")
        changes["tolerance"] = tolerance
    if max_iterations is not None:
        if isinstance(max_iterations, float) and not max_iterations.is_integer():
            raise EditError(f"An iteration budget is a whole number, got {max_iterations!r}.")
        max_iterations = int(max_iterations)
        if max_iterations < 1:
            raise EditError(f"An iteration budget must be at least 1, got {max_iterations}.")
        changes["max_iterations"] = max_iterations
    project.chain(chain)
    return project.with_chain(chain, **changes) if changes else project


def set_spine_scale(project: Project, chain: str, flag: str, on: bool) -> Project:
    """Switch one of Spine's IK scaling flags of ``chain`` on or off (``Chain.spine_scale``):
    "stretch" (beyond reach the first bone's frame scales to reach, unbounded),
    "compress" (one-bone chains: a nearer target scales the bone down), "uniform" (y
    scales with x). Refused where Spine has no such thing or it would fight the chain's
    own strategy or limits."""
    from rigeditor.model.validation.spine_ik import spine_scale_problems

    c = project.chain(chain)
    if flag not in SPINE_SCALE:
        raise EditError(f"Spine's IK scales by {', '.join(SPINE_SCALE)}, not {flag!r}.")
    chosen = set(c.spine_scale) | {flag} if on else set(c.spine_scale) - {flag}
    if not chosen & {"stretch", "compress"}:
        chosen.discard("uniform")  # uniform scaling of no scaling
    flags = tuple(f for f in SPINE_SCALE if f in chosen)
    problems = spine_scale_problems(replace(c, spine_scale=flags))
    if problems:
        why = problems[0].split(": ", 1)[1]
        raise EditError(f"Spine's IK scaling of '{chain}': {why}.")
    return project.with_chain(chain, spine_scale=flags)


def delete_chain(project: Project, chain: str, *, keep_target: bool = False) -> Project:
    """Delete a chain (its bones go back to FK); its target too unless another chain
    uses it or ``keep_target``."""
    c = project.chain(chain)
    chains = tuple(x for x in project.chains if x.name != chain)
    targets = project.targets
    if not keep_target and not any(x.target == c.target for x in chains):
        targets = tuple(t for t in targets if t.name != c.target)
    return replace(project, chains=chains, targets=targets)


def delete_target(project: Project, target: str) -> Project:
    """Delete a target no chain uses (refused with the chains' names otherwise)."""
    project.target(target)
    users = [c.name for c in project.chain_for_target(target)]
    if users:
        raise EditError(f"Target '{target}' drives IK chain(s) {', '.join(users)}; delete the chain instead.")
    return replace(project, targets=tuple(t for t in project.targets if t.name != target))


def flip_bend(project: Project, chain: str, frame: int, *, animate: bool) -> Project:
    """Mirror a chain's elbow: bend *= -1.

    animate and the bend is keyed: a stepped key at ``frame``. Otherwise the default
    flips; in setup with a keyed bend every key flips too (the rig's side changes
    everywhere, the keyed switches stay where they are).
    """
    from rigeditor.model.data.timeline import Key

    c = project.chain(chain)
    bend = c.bend
    if bend.keys and animate:
        now = bend.value_at(frame)[0]
        keys = [k for k in bend.keys if k.frame != int(frame)]
        keys.append(Key(int(frame), (-1.0 if now >= 0 else 1.0,), "constant"))
        new = replace(bend, keys=tuple(sorted(keys, key=lambda k: k.frame)))
    else:
        new = replace(bend, default=(-bend.default[0],),
                      keys=tuple(replace(k, value=(-k.value[0],)) for k in bend.keys))
    return project.with_chain(chain, bend=new)


def redeclare_target_space(project: Project, target: str, frame: int, space: str) -> Project:
    """Declare ``target`` in ``space`` keeping its numbers (it jumps in the world):
    the default space when the space is not keyed, else a space key at ``frame``."""
    if space not in project.space_names():
        raise EditError(f"There is no space named '{space}'.")
    t = project.target(target)
    if t.space.keys:
        return project.with_target(target, space=t.space.with_key(int(frame), space))
    return project.with_target(target, space=replace(t.space, default=space))
