"""Iterative IK for chains of any length: FABRIK and CCD, warm-started over frames.

Conventions: y-up model space, radians counter-clockwise from +x. A pose is a vector
of B *local* angles: bone 0's angle is absolute in the root's space, bone i's is
relative to bone i-1. Every solution is checked by forward kinematics of the
returned angles, so ``residual = |end - target|`` is measured, never assumed.

Frame i starts from frame i-1's solution (the first from ``initial``), so a smoothly
moving target costs a few iterations per frame and the pose follows it instead of
jumping to another solution. A budget running out leaves the pose near the warm
start and shows as ``converged=False`` with its residual. A frame returns the nearest
pose it reached (``_keep_best``), so a bigger budget never misses by more. Every
angle update is an increment wrapped into [-pi, pi], so angles stay unwrapped
across iterations and frames (no 2pi jumps in exported curves).

Singular poses are guarded where they occur: a direction from coincident points
keeps the bone's current one (so a target on the root gives no NaN), and a chain
lying along the target's line, which neither method can bend, restarts from an
even counter-clockwise arc of the right chord. Iterating stops early once an
iteration turns no joint (a fixed point).

CCD turns one joint at a time, so it crawls where every joint is nearly at its own
best angle and the chain is not (a fold, a bone turned back along the target's line,
near full extension): a sweep that brings the end less than a tenth nearer is
followed by an escape that moves all joints together and is kept only if it brings
the end nearer still (``_escape``).

Known limits, reported rather than hidden: with binding joint limits both methods
can converge slowly or stall with the chain curled against its limits (FABRIK's
per-pass constraint step more often than CCD); both slow down within about a
thousandth of full extension. A stalled frame reports its residual, and the first
frame that escapes the stall moves far.

The frame loop is sequential by nature (warm starts); inside it the chain is
walked with Python complex numbers and the math module, because for a handful of
bones the cost is interpreter overhead and numpy's per-call overhead would dominate.
Where numba is installed the same loop runs compiled (``chains_jit``, 15-22x faster,
the same results; see :func:`compiled_loop`); this one is the fallback and reference.
"""
from __future__ import annotations

import cmath
import math
import operator
import contextvars
from dataclasses import dataclass

import numpy as np

from rigeditor.core.chain_inputs import checked_inputs
from rigeditor.core.lazy_kernel import WAIT_S, LazyKernel

__all__ = ["ChainSolution", "forward_kinematics", "solve_fabrik", "solve_ccd", "frame_check"]

_CHECK: contextvars.ContextVar = contextvars.ContextVar("frame_check", default=None)


def frame_check(check) -> None:
    """Call ``check()`` (or nothing: None) before each frame that the solves of this
    thread (and the tasks it hands to ``blocks.run_tasks``) take from now on. A
    background evaluation uses it to stop a superseded range (the check raises) and to
    hand the interpreter to the UI thread between frames: the Python loop holds the
    interpreter lock while it runs (the compiled one releases it; it is then called
    frame by frame)."""
    _CHECK.set(check)


_KERNEL = LazyKernel("rigeditor.core.chains_jit", "rigeditor-jit")

BIG_SOLVE = 1_000_000
"""frames x bones x max_iterations from which the Python loop would take about a second
or more (3-5 us per bone and iteration, a third of the budget spent): such a solve
waits up to WAIT_S for the compiled loop (0.5-0.6 s from its cache, 0.1 us per bone and
iteration) rather than start in Python; a smaller one, such as the frame under the
hand, never waits."""


def compiled_loop(wait: bool | float = False):
    """``chains_jit.solve_frames`` (the frame loop compiled by numba), or None: numba
    not installed or failing to load, ``RIGEDITOR_JIT=0``, or not loaded yet after
    ``wait`` (``lazy_kernel.LazyKernel.get``). The Python loop serves until it is
    ready, with the same bits: so a rig without an iterative chain never imports numba,
    and opening one never waits for a compile."""
    return _KERNEL.get(wait)


# Guard for coincident points, relative to the chain's total length: below it a
# direction is undefined and the bone keeps its current one (no division by zero).
_EPS = 1e-12

PROGRESS = 0.9
"""A CCD sweep that leaves the residual above this fraction of what it was (less than
a tenth nearer) is crawling: it is followed by an escape (``_escape``), kept only if
it takes the residual below this fraction of the sweep's."""
_DAMPING = 1e-9  # the escape's damping, relative to the trace of J J^T (model units^2)
_HALVINGS = 10  # the escape's step tried at 1, 1/2, ... 1/512
_NEAR_LINE = 0.25  # radians: a crawling chain this near the target's line may restart as an arc


@dataclass(frozen=True)
class ChainSolution:
    """Result of :func:`solve_fabrik` / :func:`solve_ccd`, per frame.

    angles: (…, B) local angles, radians (unwrapped; within ``limits`` if given).
    joints: (…, B+1, 2) forward kinematics of ``angles``: root, inner joints, end.
    residual: (…) |end - target|, model units, >= 0.
    iterations: (…) int, solver iterations spent on the frame, <= max_iterations
        (0 = warm start already within tolerance; 1 for an out-of-reach target,
        solved in one step; an arc restart counts as one).
    converged: (…) bool, residual <= tolerance.
    The frame axis is present only when root or target had one.
    """

    angles: np.ndarray
    joints: np.ndarray
    residual: np.ndarray
    iterations: np.ndarray
    converged: np.ndarray


def forward_kinematics(lengths, angles, root):
    """Joint positions (…, B+1, 2) of local ``angles`` (…, B), radians.

    lengths: (B,) bone lengths, model units. root: (2,) or (…, 2), broadcast
    against the angles' leading axes. Row 0 is the root, row B the end effector.
    """
    lengths = np.asarray(lengths, dtype=float)
    angles = np.asarray(angles, dtype=float)
    root = np.asarray(root, dtype=float)
    if lengths.ndim != 1:
        raise ValueError(f"lengths: expected shape (B,), got {lengths.shape}")
    if angles.ndim < 1 or angles.shape[-1] != lengths.shape[0]:
        raise ValueError(f"angles: expected shape (..., {lengths.shape[0]}), got {angles.shape}")
    if root.ndim < 1 or root.shape[-1] != 2:
        raise ValueError(f"root: expected shape (2,) or (..., 2), got {root.shape}")
    absolute = np.cumsum(angles, axis=-1)
    steps = np.stack((lengths * np.cos(absolute), lengths * np.sin(absolute)), axis=-1)
    joints = np.cumsum(steps, axis=-2)
    joints = np.concatenate((np.zeros_like(joints[..., :1, :]), joints), axis=-2)
    return joints + root[..., None, :]


def solve_fabrik(lengths, root, target, *, initial=None, limits=None, tolerance=1e-3, max_iterations=64):
    """FABRIK (forward and backward reaching IK) with per-joint angle limits.

    lengths: (B,) bone lengths > 0, model units. root, target: (2,) or (N, 2); with
    a frame axis, frame i starts from frame i-1's solution. initial: (B,) local
    angles the first frame starts from (default: straight along +x), clamped into
    ``limits``. limits: None or (B, 2) local (min, max) bounds in radians, min <= max
    (bone 0's in the root's space). tolerance: residual accepted as converged (> 0,
    model units). max_iterations: budget per frame (>= 1); one iteration is a
    backward plus a forward pass.
    A target at or beyond full reach gets the straight chain aimed at it (clamped
    into the limits) in one step. Limits are applied per joint inside both passes
    (the standard angular constraint step), so every iterate, and the result,
    respects them. Where a direction is undefined (a target on the root, coincident
    joints) the bone keeps its current one: never a NaN.
    """
    return _solve(_fabrik_frame, lengths, root, target, initial, limits, tolerance, max_iterations)


def solve_ccd(lengths, root, target, *, initial=None, limits=None, tolerance=1e-3, max_iterations=64):
    """Cyclic coordinate descent; same arguments and result as :func:`solve_fabrik`.

    One iteration rotates each joint, from the end back to the root, so the end
    points at the target, clamping the joint into its limits after each update.
    """
    return _solve(_ccd_frame, lengths, root, target, initial, limits, tolerance, max_iterations)


def _solve(frame_solver, lengths, root, target, initial, limits, tolerance, max_iterations):
    lengths, roots, targets, batched, start, limits, tolerance, max_iterations = checked_inputs(
        lengths, root, target, initial, limits, tolerance, max_iterations)
    bones = lengths.tolist()
    reach = math.fsum(bones)
    lo = hi = None
    if limits is not None:
        lo, hi = limits[:, 0].tolist(), limits[:, 1].tolist()
    eps = _EPS * reach
    check = _CHECK.get()
    loop = compiled_loop(wait=WAIT_S if len(targets) * len(bones) * max_iterations >= BIG_SOLVE else False)
    if loop is not None:
        angles, iterations = _solve_compiled(loop, frame_solver is _fabrik_frame, lengths, roots, targets, start,
                                             limits, tolerance, max_iterations, eps, reach, check)
    else:
        angles, iterations = _solve_python(frame_solver, bones, roots, targets, start.tolist(), lo, hi,
                                           tolerance, max_iterations, eps, reach, check)
    joints = forward_kinematics(lengths, angles, roots)
    residual = np.hypot(*(joints[:, -1] - targets).T)
    result = ChainSolution(angles, joints, residual, iterations, residual <= tolerance)
    if batched:
        return result
    return ChainSolution(result.angles[0], result.joints[0], result.residual[0],
                         result.iterations[0], result.converged[0])


def _solve_compiled(loop, fabrik, lengths, roots, targets, start, limits, tolerance, max_iterations, eps, reach,
                    check):
    """The frame loop compiled (``chains_jit.solve_frames``): one call for the range,
    or one a frame when a frame check is installed (the worker's: between frames)."""
    # Exactly the types chains_jit.warm compiled for (writeable C-ordered float64 arrays,
    # int64, float, bool): any other (a read-only view...) would compile anew, for
    # seconds, in the calling thread. The copies cost (N, 2) floats.
    n, b = len(targets), len(lengths)

    def c(values):
        return np.array(values, dtype=np.float64, order="C")
    lengths, pose = c(lengths), c(start)
    lo, hi = (c(limits[:, 0]), c(limits[:, 1])) if limits is not None else (np.zeros(b), np.zeros(b))
    roots, targets = c(roots), c(targets)
    angles, iterations = np.empty((n, b)), np.empty(n, dtype=np.int64)
    fabrik = bool(fabrik)
    args = (lo, hi, limits is not None, float(tolerance), int(max_iterations), float(eps), float(reach))
    if check is None:
        loop(fabrik, lengths, roots, targets, pose, *args, angles, iterations)
    else:
        for f in range(n):
            check()
            loop(fabrik, lengths, roots[f:f + 1], targets[f:f + 1], pose, *args, angles[f:f + 1], iterations[f:f + 1])
    return angles, iterations


def _solve_python(frame_solver, bones, roots, targets, pose, lo, hi, tolerance, max_iterations, eps, reach, check):
    """The frame loop in Python: the fallback without numba, and its reference."""
    poses, iterations = [], []
    # Points are complex numbers x + iy inside the loops: rotating is a
    # multiplication, with no numpy call per joint. Angles use math.atan2, not
    # cmath.phase, which raises OverflowError when the angle underflows (2 + 5e-324j).
    for root_z, target_z in zip((roots[:, 0] + 1j * roots[:, 1]).tolist(),
                                (targets[:, 0] + 1j * targets[:, 1]).tolist()):
        if check is not None:
            check()
        offset = target_z - root_z
        distance, aim = abs(offset), math.atan2(offset.imag, offset.real)
        if distance >= reach - eps:  # eps: a target at full reach is not left to crawl there
            _straight(pose, aim, lo, hi)
            spent = 1
        else:
            # A chain lying along the target's line (straight, as after an out-of-reach
            # frame, or folded) cannot bend by either method: every direction stays on
            # the line. Such a pose restarts from an even counter-clockwise arc with
            # the right chord (one iteration's worth), before solving and again if the
            # solve itself ends stuck on the line (FABRIK flattens two bones whose
            # elbow starts on it).
            spent = 0
            if distance > eps and _on_line(pose, aim):
                _arc(pose, bones, aim, distance, lo, hi)
                spent = 1
            spent += frame_solver(pose, bones, root_z, target_z, lo, hi, tolerance, max_iterations - spent, eps)
            if spent < max_iterations and distance > eps and _on_line(pose, aim):
                least = abs(_chain(bones, pose, root_z)[0][-1] - target_z)
                if least > tolerance:  # the arc may land farther, with no budget left to gain it back
                    kept = pose[:]
                    _arc(pose, bones, aim, distance, lo, hi)
                    spent += 1 + frame_solver(pose, bones, root_z, target_z, lo, hi, tolerance,
                                              max_iterations - spent - 1, eps)
                    _keep_best(pose, kept, least, abs(_chain(bones, pose, root_z)[0][-1] - target_z),
                               reach + abs(root_z))
        poses.append(pose[:])
        iterations.append(spent)
    return (np.array(poses, dtype=float).reshape(len(targets), len(bones)),
            np.array(iterations, dtype=np.int64))


def _step(current, candidate, k, lo, hi):
    """Joint k's new local angle for the direction ``candidate`` (radians, any turn).

    The result is ``current`` plus a turn of at most pi, so angles stay unwrapped,
    then clamped into the joint's limits: the angle moves continuously from inside
    its range, so a joint that would leave it stops at the bound it would cross.
    """
    value = current + math.remainder(candidate - current, math.tau)
    if lo is not None:
        value = min(max(value, lo[k]), hi[k])
    return value


def _straight(pose, aim, lo, hi):
    """Straight chain aimed at ``aim`` (radians), clamped into the limits, in place."""
    pose[0] = _step(pose[0], aim, 0, lo, hi)
    for k in range(1, len(pose)):
        pose[k] = _step(pose[k], 0.0, k, lo, hi)


def _stalled(pose, before):
    """True when an iteration turned no joint by more than 1e-12 rad: a fixed point
    (typically a chain held by its limits) that more iterations would not leave."""
    return max(map(abs, map(operator.sub, pose, before))) <= 1e-12


def _keep_best(pose, best, least, residual, scale):
    """Put ``best`` (its residual ``least``) back into ``pose`` (its ``residual``) when
    the pose ended farther, by more than rounding: 1e-14 of ``scale`` (reach plus the
    root's distance from the origin, model units; ties measure a few 1e-16 of it)."""
    if residual > least + 1e-14 * scale:
        pose[:] = best


def _on_line(pose, aim):
    """True when every bone lies on the line through the root at angle ``aim``."""
    return len(pose) > 1 and abs(math.remainder(pose[0] - aim, math.pi)) <= 1e-9 and all(
        abs(math.remainder(local, math.pi)) <= 1e-9 for local in pose[1:])


def _near_line(pose, aim):
    """True when every bone's direction is within _NEAR_LINE of the line at angle
    ``aim`` (along it or turned back on it)."""
    heading = 0.0
    for local in pose:
        heading += local
        if abs(math.remainder(heading - aim, math.pi)) > _NEAR_LINE:
            return False
    return True


def _arc(pose, bones, aim, distance, lo, hi):
    """Re-pose as an even arc (one turn per joint, counter-clockwise) whose chord is
    ``distance`` and points along ``aim``, clamped into the limits, in place."""
    def chord(turn):
        z, heading = 0j, 0.0
        for length in bones:
            z += cmath.rect(length, heading)
            heading += turn
        return z

    # The chord shrinks as the turn grows from 0 (straight) to 2pi/B (a closed
    # polygon for equal bones): bisect to double precision.
    low, high = 0.0, math.tau / len(bones)
    for _ in range(52):
        mid = 0.5 * (low + high)
        low, high = (mid, high) if abs(chord(mid)) > distance else (low, mid)
    end = chord(low)
    pose[0] = _step(pose[0], aim - math.atan2(end.imag, end.real), 0, lo, hi)
    for k in range(1, len(pose)):
        pose[k] = _step(pose[k], low, k, lo, hi)


def _chain(bones, pose, root):
    """Forward kinematics in complex numbers: B+1 joints and B absolute bone angles."""
    joints, headings = [root], []
    heading = 0.0
    for length, local in zip(bones, pose):
        heading += local
        root += cmath.rect(length, heading)
        joints.append(root)
        headings.append(heading)
    return joints, headings


def _fabrik_frame(pose, bones, root, target, lo, hi, tolerance, max_iterations, eps):
    """Iterate FABRIK on one frame, updating ``pose`` in place; returns iterations."""
    n = len(bones)
    joints, heading = _chain(bones, pose, root)
    # With binding limits an iteration can take the end farther: the frame keeps the
    # nearest iterate (``before`` is a fresh copy each iteration: no copy to keep it).
    best, least = pose, math.inf
    for iteration in range(max_iterations):
        residual = abs(joints[n] - target)
        if residual <= tolerance:
            return iteration  # the first iterate this near: none before was nearer
        before = pose[:]
        if residual < least:
            best, least = before, residual
        # Backward pass: pin the end on the target and pull each joint toward the
        # next one. With limits, bone k turns so that bone k+1's local angle stays
        # in range (the standard angular constraint step, applied per joint).
        p = joints[n] = target
        for k in range(n - 1, -1, -1):
            d = p - joints[k]
            aim = math.atan2(d.imag, d.real) if abs(d) > eps else heading[k]  # coincident: keep direction
            if lo is not None and k < n - 1:
                aim = heading[k + 1] - _step(pose[k + 1], heading[k + 1] - aim, k + 1, lo, hi)
            heading[k] = aim
            p -= cmath.rect(bones[k], aim)
            joints[k] = p
        # Forward pass: pin the root and aim each bone at the joint the backward
        # pass left; the local angles (the pose) are updated and clamped here, so
        # every iterate is a legal pose and its joints are its forward kinematics.
        p, parent = root, 0.0
        joints[0] = root
        for k in range(n):
            d = joints[k + 1] - p
            if abs(d) > eps:
                pose[k] = _step(pose[k], math.atan2(d.imag, d.real) - parent, k, lo, hi)
            parent += pose[k]
            heading[k] = parent
            p += cmath.rect(bones[k], parent)
            joints[k + 1] = p
        if _stalled(pose, before):
            _keep_best(pose, best, least, abs(joints[n] - target), math.fsum(bones) + abs(root))
            return iteration + 1
    _keep_best(pose, best, least, abs(joints[n] - target), math.fsum(bones) + abs(root))
    return max_iterations


def _ccd_frame(pose, bones, root, target, lo, hi, tolerance, max_iterations, eps):
    """Iterate CCD on one frame, updating ``pose`` in place; returns iterations."""
    n = len(bones)
    tiny = eps * math.fsum(bones)  # |arm| * |target - pivot| below it: one of them is ~0
    best, least, spent = pose, math.inf, max_iterations  # the nearest pose, as in _fabrik_frame
    for iteration in range(max_iterations):
        # Joints 0..k do not move while joints after k turn, so one forward
        # kinematics per sweep gives every pivot; only the end is carried along.
        joints, _ = _chain(bones, pose, root)
        end = joints[n]
        start = abs(end - target)
        if start <= tolerance:
            return iteration
        before = pose[:]
        if start < least:
            best, least = before, start
        for k in range(n - 1, -1, -1):
            pivot = joints[k]
            arm = end - pivot
            # w's angle (in [-pi, pi]) is the turn taking the arm onto target - pivot.
            w = (target - pivot) * arm.conjugate()
            size = abs(w)
            if size <= tiny:
                continue  # pivot on the end or on the target: no direction to turn to
            turn = math.atan2(w.imag, w.real)
            if lo is None:
                pose[k] += turn
                end = pivot + arm * (w / size)  # w / |w| is that turn's unit rotation
            else:
                new = min(max(pose[k] + turn, lo[k]), hi[k])
                end = pivot + arm * cmath.rect(1.0, new - pose[k])
                pose[k] = new
        residual = abs(end - target)
        if n > 1 and residual > tolerance and residual > PROGRESS * abs(joints[n] - target):
            _escape(pose, bones, root, target, lo, hi, tolerance, residual, eps)
        if _stalled(pose, before):
            spent = iteration + 1
            break
    if least < math.inf:
        _keep_best(pose, best, least, abs(_chain(bones, pose, root)[0][-1] - target),
                   math.fsum(bones) + abs(root))
    return spent


def _escape(pose, bones, root, target, lo, hi, tolerance, residual, eps):
    """Leave a pose where CCD crawls, in place, only ever bringing the end nearer.

    CCD turns one joint at a time to its own best angle. Near a fold (a bone turned
    back onto its parent) or full extension every joint is already nearly at its best
    while the chain as a whole is not: the sweep is a coordinate descent at an almost
    stationary point and brings the end nearer by a vanishing amount a sweep. Moving
    every joint together gets out: a damped least-squares (Gauss-Newton) step on all
    joints, halved up to 9 times, then, if that gained too little, one FABRIK
    iteration. Both move the joints a little from where they are, so the pose keeps
    its branch (the warm start's elbow side). Near a collinear pose (a bone turned
    back along the target's line: a saddle, where the gradient itself vanishes) neither
    gains; then, as for a chain exactly on the line, the even arc (``_arc``). Each is
    kept only if it takes the residual below PROGRESS times ``residual`` (the end
    after the sweep), so the residual decreases strictly from sweep to sweep and the
    escape cannot undo a sweep.
    """
    joints, _ = _chain(bones, pose, root)
    end = joints[-1]
    # Column k of the Jacobian d end / d angle_k is the arm (end - joint k) turned a
    # quarter counter-clockwise: (-arm.y, arm.x). a, b, c: J J^T = [[a, b], [b, c]].
    columns, a, b, c = [], 0.0, 0.0, 0.0
    for k in range(len(bones)):
        cx, cy = -(end.imag - joints[k].imag), end.real - joints[k].real
        columns.append((cx, cy))
        a += cx * cx
        b += cx * cy
        c += cy * cy
    damping = _DAMPING * (a + c)  # keeps the step finite where J J^T is singular (a fold)
    a += damping
    c += damping
    det = a * c - b * b
    if det > 0.0:
        ex, ey = target.real - end.real, target.imag - end.imag
        yx, yy = (c * ex - b * ey) / det, (a * ey - b * ex) / det
        step = [cx * yx + cy * yy for cx, cy in columns]
        scale = 1.0
        for _ in range(_HALVINGS):
            trial = [angle + scale * turn for angle, turn in zip(pose, step)]
            if lo is not None:
                trial = [min(max(value, lo[k]), hi[k]) for k, value in enumerate(trial)]
            if abs(_chain(bones, trial, root)[0][-1] - target) < PROGRESS * residual:
                pose[:] = trial
                return
            scale *= 0.5
    trial = pose[:]
    _fabrik_frame(trial, bones, root, target, lo, hi, tolerance, 1, eps)
    if abs(_chain(bones, trial, root)[0][-1] - target) < PROGRESS * residual:
        pose[:] = trial
        return
    # Neither: the chain lies close to the target's line (bones along it or turned back
    # on it), the saddle the collinear restart leaves exactly on the line, only nearly.
    offset = target - root
    aim = math.atan2(offset.imag, offset.real)
    if _near_line(pose, aim):
        trial = pose[:]
        _arc(trial, bones, aim, abs(offset), lo, hi)
        if abs(_chain(bones, trial, root)[0][-1] - target) < PROGRESS * residual:
            pose[:] = trial
