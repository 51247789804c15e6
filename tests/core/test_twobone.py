"""The analytic two-bone solver against the reference text's numbers and against
forward kinematics written independently here."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rigeditor.core.twobone import TwoBoneSolution, soft_distance, solve_two_bone


def fk(upper, lower, shoulder, shoulder_angle, elbow_angle):
    """Forward kinematics from scratch, scalar, counter-clockwise angles."""
    ex = shoulder[0] + upper * math.cos(shoulder_angle)
    ey = shoulder[1] + upper * math.sin(shoulder_angle)
    tot = shoulder_angle + elbow_angle
    return (ex, ey), (ex + lower * math.cos(tot), ey + lower * math.sin(tot))


def interior_deg(sol):
    return 180.0 - abs(math.degrees(float(sol.elbow_angle)))


# ---------------------------------------------------------------- shared cases

def test_every_shared_case(two_bone_cases):
    c = two_bone_cases
    a, b, shoulder = c["upper"], c["lower"], c["shoulder"]
    assert solve_two_bone(a, b, shoulder, [1, 0]).solve_distance >= c["reach"]["inner"]
    for case in c["cases"]:
        for bend in (1, -1):
            sol = solve_two_bone(a, b, shoulder, case["target"], bend=bend)
            assert float(sol.solve_distance) == pytest.approx(case["solve_distance"], abs=1e-6), case["name"]
            assert interior_deg(sol) == pytest.approx(case["elbow_interior_deg"], abs=0.01), case["name"]
            assert float(sol.residual) == pytest.approx(case["residual"], abs=1e-6), case["name"]
            _, end = fk(a, b, shoulder, float(sol.shoulder_angle), float(sol.elbow_angle))
            assert np.allclose(end, sol.end, atol=1e-9)
            assert np.all(np.isfinite(sol.end)) and np.all(np.isfinite(sol.elbow))


def test_worked_example_offsets_and_mirror_solutions(two_bone_cases):
    c = two_bone_cases
    case = next(k for k in c["cases"] if "shoulder_offset_deg" in k)
    a, b = c["upper"], c["lower"]
    up = solve_two_bone(a, b, c["shoulder"], case["target"], bend=1)
    down = solve_two_bone(a, b, c["shoulder"], case["target"], bend=-1)
    phi = math.atan2(case["target"][1], case["target"][0])
    for sol, sign in ((up, 1), (down, -1)):
        # bend +1 puts the upper bone clockwise of the target line (see module doc).
        assert math.degrees(phi - float(sol.shoulder_angle)) * sign == pytest.approx(case["shoulder_offset_deg"], abs=0.01)
        assert math.cos(math.pi - abs(float(sol.elbow_angle))) == pytest.approx(case["cos_elbow"], abs=1e-12)
        assert sign * float(sol.elbow_angle) > 0
    assert np.allclose(up.end, down.end, atol=1e-9)
    assert np.allclose(up.end, case["target"], atol=1e-9)
    # Mirror images across the target line: the elbows sit on opposite sides.
    cross = lambda e: case["target"][0] * e[1] - case["target"][1] * e[0]
    assert cross(up.elbow) * cross(down.elbow) < 0


@pytest.mark.parametrize("index", [0, 1, 2])
def test_shared_sequences_keep_the_saved_side(two_bone_cases, index):
    c = two_bone_cases
    seq = c["sequences"][index]
    targets = np.array(seq["targets"], dtype=float)
    sol = solve_two_bone(c["upper"], c["lower"], c["shoulder"], targets, bend=seq["bend"])
    assert np.all(np.isfinite(sol.elbow_angle)) and np.all(np.isfinite(sol.end))
    # The saved bend picks the side on every frame: the elbow angle's sign never changes.
    signs = np.sign(sol.elbow_angle[np.abs(sol.elbow_angle) > 1e-6])
    assert np.all(signs == seq["bend"]), seq["name"]
    # No mirror flip: a flip would swing the upper bone by twice the shoulder offset
    # (about 77 deg in the worked example); the targets here move it by a few degrees.
    if "shoulder" not in seq["name"]:  # that one crosses the shoulder: the arm must turn over
        assert np.abs(np.diff(sol.shoulder_angle)).max() < math.radians(20), seq["name"]


def test_through_the_shoulder_keeps_the_last_direction(two_bone_cases):
    c = two_bone_cases
    seq = next(s for s in c["sequences"] if "shoulder" in s["name"])
    targets = np.array(seq["targets"], dtype=float)
    sol = solve_two_bone(c["upper"], c["lower"], c["shoulder"], targets, bend=seq["bend"])
    zero = np.flatnonzero(np.hypot(*targets.T) == 0)
    last_good = zero[0] - 1
    # The folded end sits on the inner circle along the last good direction (+y here).
    direction = targets[last_good] / np.linalg.norm(targets[last_good])
    for k in zero:
        assert np.allclose(sol.end[k], direction * c["reach"]["inner"], atol=1e-6)
        assert sol.end[k][0] != pytest.approx(c["reach"]["inner"])  # not snapped to +x


def test_zero_distance_first_frame_uses_prev_direction():
    sol = solve_two_bone(150, 125, [0, 0], [[0, 0], [0, 0]], prev_direction=[0, -2])
    assert np.allclose(sol.end, [[0, -25], [0, -25]], atol=1e-6)
    default = solve_two_bone(150, 125, [0, 0], [0, 0])
    assert np.allclose(default.end, [25, 0], atol=1e-6)


def test_zero_distance_across_block_boundary_borrows_from_previous_block():
    n = 40_000  # more than one block
    targets = np.tile([[0.0, 100.0]], (n, 1))
    targets[20_000:20_010] = 0.0
    sol = solve_two_bone(150, 125, [0, 0], targets)
    assert np.allclose(sol.end[20_000:20_010], [0, 25], atol=1e-6)


# ---------------------------------------------------------------- properties

lengths = st.floats(0.5, 500.0)
angles = st.floats(-math.pi, math.pi)


@settings(max_examples=300, deadline=None)
@given(a=lengths, b=lengths, t=st.floats(0.0, 1.0), ang=angles, bend=st.sampled_from([1, -1]),
       sx=st.floats(-100, 100), sy=st.floats(-100, 100))
def test_reachable_targets_are_reached(a, b, t, ang, bend, sx, sy):
    inner, outer = abs(a - b), a + b
    d = inner + (outer - inner) * (0.001 + 0.998 * t)
    target = [sx + d * math.cos(ang), sy + d * math.sin(ang)]
    sol = solve_two_bone(a, b, [sx, sy], target, bend=bend)
    assert float(sol.residual) <= 1e-9 * (a + b) + 1e-12 * (abs(sx) + abs(sy))
    assert bend * float(sol.elbow_angle) >= 0
    _, end = fk(a, b, (sx, sy), float(sol.shoulder_angle), float(sol.elbow_angle))
    assert math.dist(end, target) <= 1e-9 * (a + b) + 1e-12 * (abs(sx) + abs(sy))


@settings(max_examples=300, deadline=None)
@given(a=lengths, b=lengths, extra=st.floats(1e-3, 1000.0), ang=angles, bend=st.sampled_from([1, -1]))
def test_out_of_reach_residual_is_the_distance_beyond_reach(a, b, extra, ang, bend):
    raw = a + b + extra
    sol = solve_two_bone(a, b, [0, 0], [raw * math.cos(ang), raw * math.sin(ang)], bend=bend)
    assert float(sol.residual) == pytest.approx(extra, rel=1e-9, abs=1e-9 * (a + b))
    # Fully extended toward the target.
    assert abs(float(sol.elbow_angle)) < 1e-3
    assert math.cos(float(sol.shoulder_angle) - ang) > 1 - 1e-9


@settings(max_examples=200, deadline=None)
@given(L=st.floats(1.0, 1000.0), frac=st.floats(0.01, 0.3), d=st.floats(0.0, 5000.0))
def test_soft_reach_never_reaches_the_limit(L, frac, d):
    s = frac * L
    out = float(soft_distance(d, 0.0, L, s))
    assert out <= d + 1e-12
    assert out <= L
    if L - s <= d < L + 30 * s:  # beyond that the gap exp(-30) s is below float resolution
        assert out < L


@settings(max_examples=100, deadline=None)
@given(L=st.floats(1.0, 1000.0), frac=st.floats(0.01, 0.3))
def test_soft_reach_is_c1_at_the_knee(L, frac):
    s = frac * L
    knee = L - s
    h = 1e-6 * L
    below, at, above = (float(soft_distance(x, 0.0, L, s)) for x in (knee - h, knee, knee + h))
    assert at == pytest.approx(knee, rel=1e-12)
    # One-sided finite differences agree with slope 1 on both sides.
    assert (at - below) / h == pytest.approx(1.0, abs=1e-6)
    assert (above - at) / h == pytest.approx(1.0, abs=1e-4)


def test_soft_reach_keeps_a_bend_and_reports_its_residual():
    a, b = 150.0, 125.0
    s = 0.05 * (a + b)
    sol = solve_two_bone(a, b, [0, 0], [[300.0, 0.0], [274.0, 0.0], [100.0, 0.0]], softness=s)
    assert np.all(np.abs(sol.elbow_angle[:2]) > math.radians(5))  # never snaps straight
    assert sol.residual[0] > 25.0 and sol.residual[1] > 0.1  # short of the target, and said so
    assert sol.residual[2] < 1e-9  # far from the bound, untouched
    # The inner bound is softened too (mirror image).
    inner = solve_two_bone(a, b, [0, 0], [26.0, 0.0], softness=s)
    assert float(inner.solve_distance) > 26.0


@settings(max_examples=200, deadline=None)
@given(ang=angles, dist=st.floats(0.0, 400.0), lo_s=st.floats(-3.0, 3.0), w_s=st.floats(0.0, 3.0),
       lo_e=st.floats(-3.0, 3.0), w_e=st.floats(0.0, 3.0), bend=st.sampled_from([1, -1]),
       strategy=st.sampled_from(["accept", "stretch", "move_root"]))
def test_limits_are_never_exceeded(ang, dist, lo_s, w_s, lo_e, w_e, bend, strategy):
    limits = ((lo_s, lo_s + w_s), (lo_e, min(lo_e + w_e, math.pi)))
    sol = solve_two_bone(150, 125, [0, 0], [dist * math.cos(ang), dist * math.sin(ang)], bend=bend,
                         limits=limits, on_limit=strategy, max_root_offset=30.0)
    e = float(sol.elbow_angle)
    assert limits[1][0] - 1e-12 <= e <= limits[1][1] + 1e-12
    s = float(sol.shoulder_angle)
    # The shoulder bound lives on the circle: some turn of s lies inside it.
    k = math.floor((limits[0][1] - s) / (2 * math.pi))
    assert limits[0][0] - 1e-9 <= s + 2 * math.pi * k <= limits[0][1] + 1e-9
    assert 0.9 - 1e-12 <= float(sol.stretch) <= 1.1 + 1e-12
    assert float(np.hypot(*sol.root_offset)) <= 30.0 + 1e-9
    _, end = fk(150 * float(sol.stretch), 125 * float(sol.stretch), sol.root_offset, s, e)
    assert np.allclose(end, sol.end, atol=1e-9)


def test_accept_reports_the_gap_left_by_a_limit():
    # The worked example needs about 87 deg of elbow; allow only 45.
    limits = ((-math.pi, math.pi), (0.0, math.radians(45)))
    sol = solve_two_bone(150, 125, [0, 0], [200, 0], limits=limits)
    assert bool(sol.limited)
    assert math.degrees(float(sol.elbow_angle)) == pytest.approx(45.0)
    _, end = fk(150, 125, (0, 0), float(sol.shoulder_angle), float(sol.elbow_angle))
    assert float(sol.residual) == pytest.approx(math.dist(end, (200, 0)), abs=1e-9)
    assert float(sol.residual) > 1.0


def test_stretch_reaches_just_beyond_full_reach_and_stops_at_its_bound():
    near = solve_two_bone(150, 125, [0, 0], [290, 0], on_limit="stretch", max_stretch=0.1)
    assert float(near.residual) < 1e-6
    assert float(near.stretch) == pytest.approx(290 / 275, rel=1e-9)
    far = solve_two_bone(150, 125, [0, 0], [400, 0], on_limit="stretch", max_stretch=0.1)
    assert float(far.stretch) == pytest.approx(1.1)
    assert float(far.residual) == pytest.approx(400 - 1.1 * 275, rel=1e-9)


def test_move_root_leans_within_its_bound():
    sol = solve_two_bone(150, 125, [0, 0], [[290, 0], [400, 0]], on_limit="move_root",
                         max_root_offset=20.0, root_time_constant=0.0)
    assert sol.residual[0] < 1e-6 and np.allclose(sol.root_offset[0], [15, 0], atol=1e-6)
    assert np.allclose(sol.root_offset[1], [20, 0], atol=1e-6)
    assert sol.residual[1] == pytest.approx(400 - 275 - 20, rel=1e-9)


def test_move_root_offset_is_smoothed_over_frames():
    # The target pops out of reach for one frame: the body must not jerk with it.
    targets = np.tile([[260.0, 0.0]], (41, 1))
    targets[20] = [300.0, 0.0]
    raw = solve_two_bone(150, 125, [0, 0], targets, on_limit="move_root", max_root_offset=30.0, root_time_constant=0.0)
    smooth = solve_two_bone(150, 125, [0, 0], targets, on_limit="move_root", max_root_offset=30.0, root_time_constant=3.0)
    assert raw.root_offset[20, 0] == pytest.approx(25.0, abs=1e-6)
    assert smooth.root_offset[20, 0] < raw.root_offset[20, 0]
    assert np.abs(np.diff(smooth.root_offset[:, 0])).max() < 0.5 * np.abs(np.diff(raw.root_offset[:, 0])).max()
    assert np.all(np.hypot(*smooth.root_offset.T) <= 30.0 + 1e-9)
    # Residual stays honest: FK with the smoothed offset, not the ideal one.
    assert smooth.residual[20] > 1.0


FIELDS = list(TwoBoneSolution.__dataclass_fields__)


def assert_frames_match(frames, one_at_a_time, ks):
    """Every field of every frame ``ks`` of ``frames`` equals the frame solved alone, bit
    for bit: the pose on screen while a range is solved must not move when it lands."""
    for k, one in zip(ks, one_at_a_time):
        for name in FIELDS:
            got, want = np.asarray(getattr(one, name)), getattr(frames, name)[k]
            assert got.shape == want.shape and np.array_equal(got, want), (k, name, got, want)


def limit_pairs():
    bound = st.tuples(st.floats(-7.0, 7.0), st.floats(0.0, 7.0)).map(lambda p: (p[0], p[0] + p[1]))
    return st.none() | st.tuples(bound, bound)


@settings(max_examples=300, deadline=None)
@given(a=lengths, b=lengths, sx=st.floats(-100, 100), sy=st.floats(-100, 100),
       frames=st.lists(st.tuples(angles, st.sampled_from(["any", "outer", "inner", "near", "far"]),
                                 st.floats(0.0, 1.3), st.sampled_from([1.0, -1.0]), st.floats(0.0, 0.6)),
                       min_size=1, max_size=12),
       first_on_shoulder=st.booleans(), soft_per_frame=st.booleans(), limits=limit_pairs(),
       strategy=st.sampled_from(["accept", "stretch", "move_root"]))
def test_vectorised_equals_one_frame_at_a_time(a, b, sx, sy, frames, first_on_shoulder, soft_per_frame, limits,
                                               strategy):
    # Targets everywhere: in reach, on both reach bounds, about the zero-distance guard,
    # far away, and the first one on the shoulder (it takes prev_direction; a later
    # frame there takes the direction of the frames before it, by design: not compared).
    inner, outer = abs(a - b), a + b
    where = {"outer": lambda f: outer, "inner": lambda f: inner, "near": lambda f: 1e-9 * outer * (0.5 + f),
             "far": lambda f: 10 * outer * f, "any": lambda f: outer * f}
    targets = np.array([[sx + where[w](f) * math.cos(ang), sy + where[w](f) * math.sin(ang)]
                        for ang, w, f, _, _ in frames])
    if first_on_shoulder:
        targets[0] = sx, sy
    bend = np.array([fr[3] for fr in frames])
    soft = np.array([fr[4] * outer for fr in frames]) if soft_per_frame else frames[0][4] * outer
    kw = dict(limits=limits, on_limit=strategy, max_root_offset=0.1 * outer, root_time_constant=0.0,
              prev_direction=(0.0, -2.0))
    many = solve_two_bone(a, b, [sx, sy], targets, bend=bend, softness=soft, **kw)
    ones = [solve_two_bone(a, b, [sx, sy], targets[k], bend=bend[k], softness=soft[k] if soft_per_frame else soft, **kw)
            for k in range(len(frames))]
    alone = [k for k in range(len(frames)) if k == 0 or many.distance[k] > 1e-9 * outer]
    assert_frames_match(many, [ones[k] for k in alone], alone)


def test_a_long_range_equals_its_frames_one_at_a_time():
    # Several blocks solved on the thread pool, against the plain frame path.
    rng = np.random.default_rng(7)
    targets = rng.uniform(-320, 320, (50_000, 2))
    bend = rng.choice([-1.0, 1.0], 50_000)
    many = solve_two_bone(150, 125, [3, -4], targets, bend=bend, softness=10.0)
    ks = rng.integers(0, 50_000, 40)
    assert_frames_match(many, [solve_two_bone(150, 125, [3, -4], targets[k], bend=bend[k], softness=10.0)
                               for k in ks], ks)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        (dict(upper=float("nan")), "upper"),
        (dict(lower=-1.0), "lower"),
        (dict(upper=0.0), "upper"),
        (dict(target=[float("inf"), 0.0]), "target"),
        (dict(shoulder=[0.0, float("nan")]), "shoulder"),
        (dict(bend=0), "bend"),
        (dict(bend=2), "bend"),
        (dict(on_limit="wiggle"), "on_limit"),
        (dict(on_limit="move_root"), "max_root_offset"),
        (dict(softness=-1.0), "softness"),
        (dict(limits=((1.0, 0.0), (0.0, 1.0))), "limits"),
        (dict(limits=((0.0, float("nan")), (0.0, 1.0))), "limits"),
        (dict(max_stretch=2.0), "max_stretch"),
        (dict(target=[1.0, 2.0, 3.0]), "target"),
    ],
)
def test_garbage_in_raises_value_error_naming_the_argument(kwargs, name):
    args = dict(upper=150.0, lower=125.0, shoulder=[0.0, 0.0], target=[200.0, 0.0])
    args.update(kwargs)
    with pytest.raises(ValueError, match=name):
        solve_two_bone(args.pop("upper"), args.pop("lower"), args.pop("shoulder"), args.pop("target"), **args)


@pytest.mark.parametrize("upper, lower", [(3.0, 1.0), (1.0, 3.0), (50.0, 40.0)])
def test_a_target_inside_the_inner_reach_folds_the_limb_flat(upper, lower):
    # Nearer than |upper - lower| the limb folds back on itself: the forearm lies on the
    # upper bone (elbow angle +-pi) and the end on the line to the target, at the inner
    # reach; a longer upper bone points at the target, a shorter one away from it.
    # (A guard of 1e-9 at the inner bound once left a 1e-4 rad shoulder offset there.)
    inner = abs(upper - lower)
    direction = np.array([math.cos(0.7), math.sin(0.7)])
    shoulder = np.array([2.0, -1.0])
    for bend in (1, -1):
        sol = solve_two_bone(upper, lower, shoulder, shoulder + 0.25 * inner * direction, bend=bend)
        # (The square root's small factor comes from the unscaled lengths, exactly 0 at
        # the bound: the normalised ones' difference left 1e-8 of rounding, the guard 1e-4.)
        assert abs(float(sol.elbow_angle)) == pytest.approx(math.pi, abs=1e-12)
        pointing = direction if upper > lower else -direction
        assert float(sol.shoulder_angle) == pytest.approx(math.atan2(pointing[1], pointing[0]), abs=1e-12)
        np.testing.assert_allclose(np.ravel(sol.end), shoulder + inner * direction, atol=1e-12 * (upper + lower))
