"""Physics constraints over time: a bone that lags, springs back and sways.

Written from Spine 4.2's documented behaviour and checked against its runtime (never
its code). Physics is sequential: the state at a frame depends on every frame before
it, so it is stepped from the animation's start, frame after frame of the timeline
(at the project's fps), as a game plays the animation:

- every frame the game time moves on by 1/fps s (``dt``); the constraint keeps the
  time it has not yet stepped and steps its springs every 1/``step`` s of it;
- on the first frame, and on a frame a reset key falls on (after the frame before, up
  to this one), the motion starts from rest: the bone's position is remembered, no
  spring moves;
- x, y: the bone's own world motion since the frame before, times inertia and limited
  to ``limit`` * dt per axis, is added (opposite) to an offset that springs back
  (velocity += (wind - offset * strength) / mass * step, damping ** (60 step) kept
  per step; gravity pulls y down); the bone moves by the offset * mix * weight;
- rotate / shear x: the bone's x axis swings toward where its tip was (the tip of the
  frame before, the bone's own motion limited as above), its angle offset springs
  back the same way, pulled by wind and gravity at the tip's lever (length over the
  reference scale); rotate turns both axes, shear x the x axis alone;
- scale x: the tip's drag along the bone over the bone's length stretches it;
  the same spring;
- mix 0 freezes the constraint: no step, its time stands still.

The game's clock is the sampling (a game's physics depends on its frame rate: the
bone's motion is read once an update). Frames evenly spaced from the timeline's start,
``s`` project frames apart, are a game at fps / ``s`` updating at every one of them: the
editor and a default bake sample the project's grid (``s`` = 1, the project's fps), and
``bake --fps 30`` of a 60 fps project is a 30 fps game (``s`` = 2), as spine-core plays
it at 30 fps. Any other frames (a single frame, a range that starts later, uneven
times) are one update from the state at the project's grid frame before, over the time
between: a frame on the grid is then the grid's. The stepping of every sampling is
remembered per project and spacing (the last few; every CHECKPOINT-th state and what
the updates read): a single frame costs a look-up and at most four updates.

The stepping is one loop over plain floats a constraint and range (``run``): it is
sequential, so numpy buys nothing, and a function call or a packed state an update
cost more than the arithmetic. Where numba is installed a long range runs the same
loop compiled (``physics_jit``, the same bits, 3-7x less a physics bone-frame).
"""
from __future__ import annotations

import math
import threading
from itertools import accumulate

import numpy as np

from rigeditor.core.geometry import Affine
from rigeditor.model.evaluation.constraints import physics_jit
from rigeditor.model.evaluation.constraints.placement import below, kept, place_below

_FIELDS = ("fresh", "ux", "uy", "cx", "cy", "tx", "ty", "xo", "xv", "yo", "yv", "ro", "rv", "so", "sv",
           "remaining", "last", "time")
"""A constraint's state after an update: fresh (1: start from rest at the next update),
the bone's position remembered (u), where the bone ended (c) and its tip vector (t),
the offsets and velocities of x, y, rotation and scale, the time not yet stepped, the
game time of its last update and the game time now (seconds)."""
_AT = {name: i for i, name in enumerate(_FIELDS)}
_TIME = _AT["time"]
_KEEP = 8  # projects whose states are remembered
_histories: dict[int, tuple] = {}
_lock = threading.Lock()  # the editor evaluates ranges on a worker thread too
_EPS = 1e-9  # frames: a reset key this close to a frame falls on it


def rest_state(time: float = 0.0, last: float = 0.0) -> tuple:
    """The state before the first update: at rest, starting fresh."""
    s = [0.0] * len(_FIELDS)
    s[_AT["fresh"]], s[_AT["time"]], s[_AT["last"]] = 1.0, time, last
    return tuple(s)


def _reset(s) -> tuple:
    """Back to rest; the time already run stays (stepping starts again from here)."""
    return rest_state(s[_AT["time"]], s[_AT["time"]])


def update(c, length: float, s, time: float, k, w) -> tuple[tuple, list[float]]:
    """One update of constraint ``c`` at game time ``time`` (s): state ``s`` before ->
    (state after, the bone's world frame after). ``k``: (inertia, strength, damping,
    mass, wind, gravity, mix) at this frame; ``w``: the bone's world frame before
    (a, b, c, d, x, y), model units; ``length``: the bone's length."""
    states, out = run(c, length, s, [time], [(v,) for v in k], [(v,) for v in w], None, 0)
    return states[-1], [col[0] for col in out]


def run(c, length: float, s, times, k, w, resets, every: int = 1) -> tuple[list[tuple], list[list[float]]]:
    """Updates of constraint ``c`` one after the other from state ``s``, at game times
    ``times`` (s): (the states after updates 0, ``every``, 2 ``every``... (0: the last
    alone); the bone's world frame after each, as six lists a, b, c, d, x, y).
    ``k``: the seven settings (inertia, strength, damping, mass, wind, gravity, mix),
    a sequence per update each; ``w``: the bone's world frame before each update, six
    sequences (a, b, c, d, x, y); ``resets``: per update, whether a reset falls just
    before it (None: none). One loop over plain floats with the state in locals: the
    physics is sequential, and a function call or a numpy scalar per step would cost
    more than the arithmetic (see docs/benchmarks.md); a long run goes to the same loop
    compiled, when numba has it loaded (``physics_jit``: the same results)."""
    if len(times) >= physics_jit.MIN_UPDATES:
        loop = physics_jit.compiled_run()
        if loop is not None:
            return physics_jit.run(loop, c, length, s, times, k, w, resets, every)
    fresh, ux, uy, cx, cy, tx, ty, xo, xv, yo, yv, ro, rv, so, sv, remaining, last, time = s
    on_x, on_y, on_turn, on_scale = c.x > 0, c.y > 0, c.rotate > 0 or c.shear_x > 0, c.scale_x > 0
    on_move = on_x or on_y
    wx, wy, w_rotate, w_shear, w_scale = c.x, c.y, c.rotate, c.shear_x, c.scale_x
    step, ref, limit = 1.0 / c.step, c.reference_scale, c.limit
    lever = length / ref
    atan2, cos_, sin_, hypot, ceil, tau = math.atan2, math.cos, math.sin, math.hypot, math.ceil, 2 * math.pi
    out = []
    states = []
    for i, (now, inertia, strength, damping, mass, wind, gravity, mix, a, b, cc, d, x, y) in enumerate(
            zip(times, *k, *w)):
        if resets is not None and resets[i]:  # back to rest; the time already run stays
            fresh, ux, uy, cx, cy, tx, ty, xo, xv, yo, yv, ro, rv, so, sv, remaining = 1.0, *(0.0,) * 15
            last = time
        time = now
        if mix == 0:  # frozen: only the game clock moves on
            out.append((a, b, cc, d, x, y))
            if every and i % every == 0:
                states.append((fresh, ux, uy, cx, cy, tx, ty, xo, xv, yo, yv, ro, rv, so, sv, remaining, last, time))
            continue
        dt = time - last
        if dt < 0.0:
            dt = 0.0
        remaining += dt
        last = time
        if fresh:
            fresh, ux, uy = 0.0, x, y
        else:
            left = remaining
            q = limit * dt
            keep = None
            if on_move:
                if on_x:
                    u = (ux - x) * inertia
                    xo += q if u > q else -q if u < -q else u
                    ux = x
                if on_y:
                    u = (uy - y) * inertia
                    yo += q if u > q else -q if u < -q else u
                    uy = y
                if left >= step:
                    keep = damping ** (60 * step)
                    m, fx, fy = step / mass, wind * ref, gravity * ref
                    while True:  # x and y apart or together: no test per step for a channel off
                        if on_y:
                            if on_x:
                                xv += (fx - xo * strength) * m
                                xo += xv * step
                                xv *= keep
                            yv -= (fy + yo * strength) * m
                            yo += yv * step
                            yv *= keep
                        else:
                            xv += (fx - xo * strength) * m
                            xo += xv * step
                            xv *= keep
                        left -= step
                        if left < step:
                            break
                if on_x:
                    x += xo * mix * wx
                if on_y:
                    y += yo * mix * wy
            if on_turn or on_scale:
                base = atan2(cc, a)
                dx, dy = cx - x, cy - y
                dx = q if dx > q else -q if dx < -q else dx  # the bone's own motion, limited
                dy = q if dy > q else -q if dy < -q else dy
                turn = (w_rotate + w_shear) * mix
                angle = base
                if on_turn:
                    r = atan2(dy + ty, dx + tx) - base - ro * turn
                    ro += (r - ceil(r / tau - 0.5) * tau) * inertia  # wrapped to (-pi, pi]
                    angle = ro * turn + base
                cos, sin = cos_(angle), sin_(angle)
                if on_scale:
                    reach = length * hypot(a, cc)
                    if reach > 0:
                        so += (dx * cos + dy * sin) * inertia / reach
                left = remaining
                if left >= step:
                    keep = damping ** (60 * step) if keep is None else keep
                    m = step / mass
                    while True:
                        left -= step
                        if on_scale:
                            sv += (wind * cos - gravity * sin - so * strength) * m
                            so += sv * step
                            sv *= keep
                        if on_turn:
                            rv -= ((wind * sin + gravity * cos) * lever + ro * strength) * m
                            ro += rv * step
                            rv *= keep
                        if left < step:
                            break
                        if on_turn:  # the next step pulls along the turned axis
                            angle = ro * turn + base
                            cos, sin = cos_(angle), sin_(angle)
            remaining = left
        cx, cy = x, y
        if on_turn:
            o = ro * mix
            if w_shear > 0:  # the y axis turns by the rotate share only, the x axis by both
                turn_y = o * w_rotate if w_rotate > 0 else 0.0
                co, si = cos_(turn_y), sin_(turn_y)
                b, d = co * b - si * d, si * b + co * d
                turn_x = turn_y + o * w_shear
                co, si = cos_(turn_x), sin_(turn_x)
            else:  # both axes by one turn
                turn = o * w_rotate
                co, si = cos_(turn), sin_(turn)
                b, d = co * b - si * d, si * b + co * d
            a, cc = co * a - si * cc, si * a + co * cc
        if on_scale:
            grow = 1 + so * mix * w_scale
            a, cc = a * grow, cc * grow
        tx, ty = length * a, length * cc
        out.append((a, b, cc, d, x, y))
        if every and i % every == 0:
            states.append((fresh, ux, uy, cx, cy, tx, ty, xo, xv, yo, yv, ro, rv, so, sv, remaining, last, time))
    if not every:
        states.append((fresh, ux, uy, cx, cy, tx, ty, xo, xv, yo, yv, ro, rv, so, sv, remaining, last, time))
    return states, [list(col) for col in zip(*out)] if out else [[] for _ in range(6)]


CHECKPOINT = 4
"""Updates between the states a stepped range keeps: a state of 18 floats an update
cost a fifth of the stepping; any other is at most 3 updates from one kept (16 made a
single frame 1.7x dearer for a few per cent more on the range)."""


class Stepped:
    """One constraint stepped over a game's clock: the states after every CHECKPOINT-th
    update and what the updates read (their times, settings, input frames, resets),
    so the state after any update is found again exactly."""

    def __init__(self, c, length, kept, times, settings, world, resets):
        self.c, self.length, self.kept = c, length, kept
        self.times, self.settings, self.world, self.resets = times, settings, world, resets

    def state(self, i: int) -> tuple:
        """The state after update ``i`` (the same bits as the stepping's)."""
        j = i - i % CHECKPOINT
        s = self.kept[j // CHECKPOINT]
        if j == i:
            return s
        part = slice(j + 1, i + 1)
        resets = None if self.resets is None else self.resets[part]
        return run(self.c, self.length, s, self.times[part], [_floats(v[part]) for v in self.settings],
                   [_floats(v[part]) for v in self.world], resets, 0)[0][-1]


def _floats(values):
    """Python floats for the Python loop (a compiled stepping keeps numpy rows)."""
    return values.tolist() if isinstance(values, np.ndarray) else values


def _settings(c, frames, arrays: bool = False):
    """(inertia, strength, damping, mass, wind, gravity, mix), a list of floats per
    frame each (``arrays``: one (7, N) float array)."""
    columns = [getattr(c, k).sample(frames)[:, 0] for k in
               ("inertia", "strength", "damping", "mass", "wind", "gravity", "mix")]
    return np.stack(columns).astype(np.float64) if arrays else [v.tolist() for v in columns]


def _resets(c, lo, hi) -> np.ndarray:
    """Per interval, whether a reset key lies in (lo, hi] (frames, arrays)."""
    keys = np.array(sorted(key.frame for key in c.reset.keys), dtype=float)
    return (np.searchsorted(keys, np.asarray(hi) + _EPS, side="right")
            > np.searchsorted(keys, np.asarray(lo) + _EPS, side="right"))


def clock_step(frames: np.ndarray, start: float) -> float | None:
    """Project frames between updates when ``frames`` are a game's clock: start,
    start + s, start + 2 s, ... (evenly spaced from the animation's start; a single
    frame at the start: s = 1); else None."""
    n = frames.shape[0]
    if n == 0 or frames[0] != start:
        return None
    if n == 1:
        return 1.0
    step = float(frames[-1] - frames[0]) / (n - 1)
    even = step > 0 and bool(np.all(np.abs(np.diff(frames) - step) <= _EPS * max(step, 1.0)))
    return step if even else None


def history(project, end: float, evaluate) -> dict:
    """{constraint name: states after each grid frame start..end} of ``project``
    (remembered; else ``evaluate(project, frames)``, the one evaluation path, runs
    over the grid and remembers them)."""
    with _lock:
        hit = _histories.get((id(project), 1.0))
    if hit is None or hit[0] is not project or hit[1] < end:
        start = project.timeline.start
        evaluate(project, np.arange(start, max(end, start) + 1, dtype=float))
        with _lock:
            hit = _histories[(id(project), 1.0)]
    return hit[2]


def _remember(project, step: float, end: float, states: dict) -> None:
    """Keep the states of one run of constraints on the clock of ``step`` frames; an
    evaluation's runs (constraints between IK chains or transform constraints) add to
    one entry."""
    key = (id(project), round(step, 9))
    with _lock:
        hit = _histories.get(key)
        if hit is not None and hit[0] is project and hit[1] == end:
            hit[2].update(states)
            return
        if hit is not None and hit[0] is project and hit[1] > end:
            return  # a longer grid is remembered already
        if len(_histories) >= _KEEP:
            _histories.pop(next(iter(_histories)))
        _histories[key] = (project, end, dict(states))


def apply_physics(project, pose, frames: np.ndarray, constraints, applied, evaluate) -> None:
    """Apply ``constraints`` (already in their order) to ``pose`` in place, at
    ``frames``: stepped through them when they are a game's clock from the timeline's
    start (one update a frame, the states remembered), else each frame one update from
    the project's grid frame before (``evaluate``: the evaluation that remembers the
    grid's states when not yet)."""
    start, fps = float(project.timeline.start), float(project.timeline.fps)
    n = pose.ones.shape[0]
    if n == 0:
        return
    step = clock_step(frames, start)
    grid = step is not None
    if grid:
        physics_jit.prepare(n * len(constraints))  # a long stepping waits for the compiled loop
    compiled = grid and n >= physics_jit.MIN_UPDATES and physics_jit.compiled_run() is not None
    past = None if grid else history(project, math.ceil(float(np.max(frames))), evaluate)
    states = {} if grid else None
    for c in constraints:
        name = c.bone
        k = pose.column[name]
        w = pose.world[k]
        world = [np.broadcast_to(np.asarray(v, float), (n,)) for v in (w.a, w.b, w.c, w.d, w.tx, w.ty)]
        settings = _settings(c, frames, arrays=compiled)
        if compiled:  # handed to the compiled loop as they are
            world = np.stack(world)
        else:  # Python floats: the Python loop's arithmetic on numpy scalars would cost twice
            world = [v.tolist() for v in world]
        length = project.bone(name).measured_length  # a point (Spine's length 0) has its tip on its origin
        if grid:
            dt = step / fps  # the game's clock: one update a sample
            times = list(accumulate([0.0] + [dt] * (n - 1)))  # summed as a game sums it
            resets = _resets(c, frames[:-1], frames[1:]).tolist() if c.reset.keys else None
            if resets is not None:
                resets.insert(0, False)
            kept_states, out = run(c, length, rest_state(), times, settings, world, resets, CHECKPOINT)
            states[c.name] = Stepped(c, length, kept_states, times, settings, world, resets)
        else:
            out = [[] for _ in range(6)]
            before = np.ceil(frames - _EPS) - 1  # the grid frame before each
            resets = _resets(c, before, frames) if c.reset.keys else np.zeros(n, bool)
            for i in range(n):
                f, g = float(frames[i]), float(before[i])
                if g < start:
                    s, time, reset = rest_state(), 0.0, False
                else:
                    s = past[c.name].state(int(g - start))
                    time, reset = s[_TIME] + (f - g) / fps, bool(resets[i])
                _, one = run(c, length, s, (time,), [(v[i],) for v in settings], [(v[i],) for v in world],
                             (reset,), False)
                for col, v in zip(out, one):
                    col.append(v[0])
        under = below(project, [name])
        kept_local = kept(applied, under)  # before the bone moves
        pose.world[k] = Affine(*(np.array(col) for col in out))
        pose.touched.add(name)
        applied.set.pop(name, None)
        applied.moved.add(name)
        place_below(pose, applied, under, kept_local)
    if grid:
        _remember(project, step, float(frames[-1]), states)
