"""Tests for the iterative chain solvers (rigeditor.core.chains).

Every check recomputes what it needs independently (bone vectors summed in a plain
loop, distances with math.hypot) rather than trusting the solver's own fields.
"""

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rigeditor.core.chains import forward_kinematics, solve_ccd, solve_fabrik
from rigeditor.core.twobone import solve_two_bone

SOLVERS = [solve_fabrik, solve_ccd]
solvers = pytest.mark.parametrize("solve", SOLVERS, ids=["fabrik", "ccd"])

finite = dict(allow_nan=False, allow_infinity=False)
lengths_st = st.lists(st.floats(0.5, 2.0, **finite), min_size=2, max_size=6).map(np.array)
angle_st = st.floats(-math.pi, math.pi, **finite)


def plain_fk(lengths, angles, root):
    """Joints of one pose by summing bone vectors one at a time."""
    x, y = float(root[0]), float(root[1])
    heading, out = 0.0, [(x, y)]
    for length, local in zip(lengths, angles):
        heading += local
        x += length * math.cos(heading)
        y += length * math.sin(heading)
        out.append((x, y))
    return np.array(out)


def wrapped(a):
    return np.remainder(np.asarray(a) + np.pi, 2 * np.pi) - np.pi


def assert_honest(sol, lengths, root, target, tolerance):
    """joints are the FK of angles, residual is |end - target|, converged matches."""
    angles = np.atleast_2d(sol.angles)
    roots = np.broadcast_to(root, (len(angles), 2))
    targets = np.broadcast_to(target, (len(angles), 2))
    for i, pose in enumerate(angles):
        joints = plain_fk(lengths, pose, roots[i])
        np.testing.assert_allclose(np.reshape(sol.joints, (-1,) + joints.shape)[i], joints, atol=1e-9)
        res = math.hypot(*(joints[-1] - targets[i]))
        assert abs(np.ravel(sol.residual)[i] - res) <= 1e-9
        assert bool(np.ravel(sol.converged)[i]) == (np.ravel(sol.residual)[i] <= tolerance)
    assert np.all(np.isfinite(sol.angles)) and np.all(np.isfinite(sol.joints))


# ------------------------------------------------------------ forward kinematics

def test_forward_kinematics_by_hand():
    joints = forward_kinematics([1.0, 2.0], [math.pi / 2, -math.pi / 2], [1.0, 2.0])
    np.testing.assert_allclose(joints, [[1, 2], [1, 3], [3, 3]], atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(lengths=lengths_st, data=st.data())
def test_forward_kinematics_sums_bone_vectors(lengths, data):
    shape = data.draw(st.sampled_from([(), (3,), (2, 4)]))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    angles = rng.uniform(-7, 7, shape + (len(lengths),))
    root = rng.uniform(-50, 50, shape + (2,))
    joints = forward_kinematics(lengths, angles, root)
    assert joints.shape == shape + (len(lengths) + 1, 2)
    for idx in np.ndindex(*shape):
        np.testing.assert_allclose(joints[idx], plain_fk(lengths, angles[idx], root[idx]), atol=1e-9)
    # one root (2,) broadcasts over every frame: the same chain, translated
    one_root = root.reshape(-1, 2)[0]
    shared = forward_kinematics(lengths, angles, one_root)
    np.testing.assert_allclose(shared - one_root, joints - root[..., None, :], atol=1e-9)


# ------------------------------------------------------------ reachable targets

@solvers
@settings(max_examples=60, deadline=None)
@given(lengths=lengths_st, where=st.floats(0.1, 0.9), phi=angle_st, data=st.data())
def test_converges_on_targets_well_inside_reach(solve, lengths, where, phi, data):
    total = lengths.sum()
    inner = max(0.0, 2 * lengths.max() - total)  # the longest bone can fold back only so far
    assume(inner + 0.1 * total < 0.9 * total)
    d = inner + 0.1 * total + where * (0.8 * total - inner)
    root = np.array([data.draw(st.floats(-10, 10)), data.draw(st.floats(-10, 10))])
    target = root + d * np.array([math.cos(phi), math.sin(phi)])
    initial = [data.draw(angle_st)] + [data.draw(st.floats(-1, 1)) for _ in lengths[1:]]
    tol = 1e-5 * total
    sol = solve(lengths, root, target, initial=initial, tolerance=tol, max_iterations=5000)
    assert sol.converged and sol.residual <= tol
    assert sol.angles.shape == (len(lengths),) and sol.joints.shape == (len(lengths) + 1, 2)
    assert sol.residual.shape == sol.iterations.shape == sol.converged.shape == ()
    assert_honest(sol, lengths, root, target, tol)


@solvers
def test_converged_warm_start_spends_no_iteration(solve):
    lengths, target = [1.0, 1.5, 0.7], [1.2, 1.9]
    first = solve(lengths, [0, 0], target, tolerance=1e-8, max_iterations=1000)
    again = solve(lengths, [0, 0], target, initial=first.angles, tolerance=1e-8)
    assert first.converged and again.iterations == 0
    np.testing.assert_array_equal(again.angles, first.angles)


@solvers
def test_each_frame_starts_from_the_previous_solution(solve):
    lengths = [1.0, 0.8, 0.6, 0.4]
    t = np.linspace(0, 1, 6)
    targets = np.stack([1.5 + 0.3 * t, 0.8 * t], axis=1)
    initial = [0.3, 0.2, 0.2, 0.2]
    batch = solve(lengths, [0, 0], targets, initial=initial, tolerance=1e-6, max_iterations=50)
    pose = initial
    for i, target in enumerate(targets):
        one = solve(lengths, [0, 0], target, initial=pose, tolerance=1e-6, max_iterations=50)
        np.testing.assert_array_equal(batch.angles[i], one.angles)
        assert batch.iterations[i] == one.iterations
        pose = one.angles


# ------------------------------------------------------------ unreachable targets

@solvers
@settings(max_examples=40, deadline=None)
@given(lengths=lengths_st, beyond=st.floats(0.0, 3.0), phi=angle_st,
       initial=st.lists(angle_st, min_size=6, max_size=6))
def test_out_of_reach_gives_the_straight_chain_aimed_at_the_target(solve, lengths, beyond, phi, initial):
    total = lengths.sum()
    root = np.array([3.0, -2.0])
    direction = np.array([math.cos(phi), math.sin(phi)])
    target = root + (total + beyond * total) * direction
    tol = 1e-3
    sol = solve(lengths, root, target, initial=initial[: len(lengths)], tolerance=tol)
    assert sol.iterations <= 1
    # every joint on the ray from the root toward the target, at its arc length
    expected = root + np.concatenate([[0.0], np.cumsum(lengths)])[:, None] * direction
    np.testing.assert_allclose(sol.joints, expected, atol=1e-9 * total)
    assert abs(sol.residual - beyond * total) <= 1e-9 * total
    # the straight pose is the one nearest the warm start: no 2pi jump
    assert np.all(np.abs(sol.angles - np.asarray(initial[: len(lengths)])) <= math.pi + 1e-12)
    assert_honest(sol, lengths, root, target, tol)


@solvers
def test_out_of_reach_with_limits_clamps_the_straight_pose(solve):
    lengths = [1.0, 1.0, 1.0]
    limits = [[-0.5, 0.5], [0.2, 1.0], [-1.0, -0.3]]  # straight (0) is illegal for joints 1, 2
    target = [0.0, 10.0]  # straight up: pi/2, beyond the root's bound
    sol = solve(lengths, [0, 0], target, limits=limits)
    assert sol.iterations == 1
    np.testing.assert_allclose(sol.angles, [0.5, 0.2, -0.3])
    assert_honest(sol, lengths, [0, 0], target, 1e-3)


# ------------------------------------------------------------ joint limits

@solvers
@settings(max_examples=50, deadline=None)
@given(
    lengths=lengths_st,
    data=st.data(),
    budget=st.integers(1, 4),
)
def test_limits_are_never_exceeded(solve, lengths, data, budget):
    n = len(lengths)
    lows = data.draw(st.lists(st.floats(-2.5, 0.5), min_size=n, max_size=n))
    widths = data.draw(st.lists(st.sampled_from([0.0, 0.3]) | st.floats(0.0, 3.0), min_size=n, max_size=n))
    limits = np.array([[lo, lo + w] for lo, w in zip(lows, widths)])
    initial = data.draw(st.lists(st.floats(-10, 10), min_size=n, max_size=n))
    total = lengths.sum()
    targets = np.array(data.draw(st.lists(
        st.tuples(st.floats(-1.5 * total, 1.5 * total), st.floats(-1.5 * total, 1.5 * total)),
        min_size=1, max_size=5)))
    # A budget of 1..4 iterations returns the 1st..4th iterate: every one is legal.
    sol = solve(lengths, [0.0, 0.0], targets, initial=initial, limits=limits, max_iterations=budget)
    assert np.all(sol.angles >= limits[:, 0]) and np.all(sol.angles <= limits[:, 1])
    assert_honest(sol, lengths, [0.0, 0.0], targets, 1e-3)


# ------------------------------------------------------------ temporal continuity

@solvers
@settings(max_examples=15, deadline=None)
@given(
    lengths=st.lists(st.floats(0.5, 1.5), min_size=2, max_size=8).map(np.array),
    base=angle_st,
    turning=st.floats(1.0, 2.5),
    side=st.sampled_from([-1.0, 1.0]),
    seed=st.integers(0, 2**32 - 1),
)
def test_smooth_target_gives_smooth_angles(solve, lengths, base, turning, side, seed):
    # A gently curved rest pose whose end starts the path, so every frame is a warm start.
    n, total = len(lengths), lengths.sum()
    wobble = np.random.default_rng(seed).uniform(-0.1, 0.1, n - 1)
    initial = np.r_[base, side * turning / (n - 1) + wobble]
    start = forward_kinematics(lengths, initial, [0.0, 0.0])[-1]
    s = np.linspace(0.0, 2 * np.pi, 200)
    c, si = math.cos(base), math.sin(base)
    loop = 0.1 * total * np.stack([np.sin(s), 0.5 * np.sin(2 * s)], axis=1)  # a lissajous figure-eight
    targets = start + loop @ np.array([[c, si], [-si, c]])
    dist = np.hypot(*targets.T)
    # away from the root and from full extension, where CCD crawls (hundreds of sweeps),
    # and outside the inner circle a long first bone cannot fold into (unreachable)
    inner = max(0.0, 2 * lengths.max() - total)
    assume(dist.max() < 0.9 * total and dist.min() > max(0.2 * total, inner + 0.05 * total))
    tol = 1e-4 * total
    sol = solve(lengths, [0.0, 0.0], targets, initial=initial, tolerance=tol, max_iterations=1000)
    assert sol.converged.all()
    # Bound. Between frames the end moves by at most s = |target step| + 2 tol (each
    # frame lands anywhere within tol). Turning joint k by da moves the end along an arc
    # of radius |end - joint k|; on a gently curved chain that radius is at least the
    # shortest bone l_min (the last joint's arm is the last bone, earlier arms are
    # longer), so following the target turns a bone by about s / l_min. A local angle
    # is the difference of two bone directions: x2. The solvers' updates are not the
    # minimal motion (CCD turns joints one after another and partly undoes itself): x2.
    # So |da| <= 4 s / l_min; with bones within a factor 3 of each other l_min >= L/(3B),
    # i.e. at most 12 B s / L. A branch jump is ~1 rad, several times this bound here.
    step = np.hypot(*np.diff(targets, axis=0).T).max()
    bound = 4.0 * (step + 2 * tol) / lengths.min()
    changes = np.abs(np.diff(np.vstack([initial, sol.angles]), axis=0))
    assert changes.max() <= bound, (changes.max(), bound)


@solvers
def test_angles_unwrap_across_turns(solve):
    lengths = [1.0, 1.0, 1.0]
    s = np.linspace(0.0, 3 * 2 * np.pi, 600)  # three laps around the root
    targets = 2.0 * np.stack([np.cos(s), np.sin(s)], axis=1)
    sol = solve(lengths, [0, 0], targets, initial=[-0.5, 0.5, 0.5], tolerance=1e-6, max_iterations=200)
    assert sol.converged.all()
    assert np.abs(np.diff(sol.angles, axis=0)).max() < 0.2
    # The root angle winds with the target (three turns, not wrapped into (-pi, pi]):
    # it stays within half a turn of the target's own unwrapped direction.
    assert np.abs(sol.angles[:, 0] - np.unwrap(np.arctan2(targets[:, 1], targets[:, 0]))).max() < np.pi
    assert sol.angles[-1, 0] > 5 * np.pi


@solvers
def test_exhausted_budget_is_reported_not_hidden(solve):
    lengths = [1.0] * 6
    s = np.linspace(0.0, np.pi, 40)
    targets = np.stack([3.5 + 1.5 * np.cos(s), 1.5 * np.sin(s)], axis=1)  # a fast move
    initial = [0.2] * 6
    tol = 1e-9
    sol = solve(lengths, [0, 0], targets, initial=initial, tolerance=tol, max_iterations=1)
    assert np.all(sol.iterations == 1) and not sol.converged.any()
    assert_honest(sol, lengths, [0, 0], targets, tol)
    # the residual is the budget's doing: more iterations get closer
    more = solve(lengths, [0, 0], targets, initial=initial, tolerance=tol, max_iterations=50)
    assert np.mean(more.residual) < np.mean(sol.residual)


# ------------------------------------------------------------ two-bone consistency

@solvers
@settings(max_examples=40, deadline=None)
@given(upper=st.floats(0.5, 2.0), lower=st.floats(0.5, 2.0), where=st.floats(0.1, 0.9),
       phi=angle_st, bend=st.sampled_from([-1, 1]))
def test_two_bones_match_the_analytic_solution(solve, upper, lower, where, phi, bend):
    inner, outer = abs(upper - lower), upper + lower
    d = inner + where * (outer - inner)  # keep 10% away from both reach bounds
    root = np.array([1.0, -2.0])
    target = root + d * np.array([math.cos(phi), math.sin(phi)])
    analytic = solve_two_bone(upper, lower, root, target, bend=bend)
    # Warm start on the bend's side: bend +1 has the upper bone clockwise of the target line.
    initial = [phi - bend * 0.5, bend * 1.0]
    sol = solve([upper, lower], root, target, initial=initial, tolerance=1e-10, max_iterations=5000)
    assert sol.converged
    assert np.sign(sol.angles[1]) == bend
    assert abs(wrapped(sol.angles[0] - analytic.shoulder_angle)) < 1e-6
    assert abs(sol.angles[1] - analytic.elbow_angle) < 1e-6
    np.testing.assert_allclose(sol.joints[-1], analytic.end, atol=1e-9)


# ------------------------------------------------------------ degenerate inputs

GOOD = dict(lengths=[1.0, 1.0], root=[0.0, 0.0], target=[1.0, 1.0])
BAD = [
    ("lengths", dict(lengths=[1.0, 0.0])),
    ("lengths", dict(lengths=[1.0, -1.0])),
    ("lengths", dict(lengths=[1.0, math.nan])),
    ("lengths", dict(lengths=[1.0, math.inf])),
    ("lengths", dict(lengths=[[1.0, 1.0]])),
    ("lengths", dict(lengths=[])),
    ("lengths", dict(lengths="long")),
    ("root", dict(root=[math.nan, 0.0])),
    ("root", dict(root=[0.0, 0.0, 0.0])),
    ("root", dict(root=[[[0.0, 0.0]]])),
    ("target", dict(target=[math.inf, 0.0])),
    ("target", dict(target=[[1.0, 1.0, 1.0]])),
    ("target", dict(root=[[0.0, 0.0]] * 3, target=[[1.0, 1.0]] * 2)),
    ("initial", dict(initial=[0.0])),
    ("initial", dict(initial=[0.0, math.nan])),
    ("limits", dict(limits=[[-1.0, 1.0]])),
    ("limits", dict(limits=[[-1.0, 1.0], [1.0, -1.0]])),
    ("limits", dict(limits=[[-1.0, 1.0], [math.nan, 1.0]])),
    ("limits", dict(limits=[[-math.inf, 1.0], [-1.0, 1.0]])),
    ("tolerance", dict(tolerance=0.0)),
    ("tolerance", dict(tolerance=-1e-3)),
    ("tolerance", dict(tolerance=math.nan)),
    ("tolerance", dict(tolerance="tight")),
    ("max_iterations", dict(max_iterations=0)),
    ("max_iterations", dict(max_iterations=-5)),
    ("max_iterations", dict(max_iterations=2.5)),
]


@solvers
@pytest.mark.parametrize("name, change", BAD, ids=[f"{n}-{i}" for i, (n, _) in enumerate(BAD)])
def test_bad_input_raises_naming_the_argument(solve, name, change):
    args = {**GOOD, **change}
    with pytest.raises(ValueError, match=f"^{name}"):
        solve(args.pop("lengths"), args.pop("root"), args.pop("target"), **args)


@pytest.mark.parametrize("name, args", [
    ("angles", ([1.0, 1.0], [0.0], [0.0, 0.0])),
    ("root", ([1.0, 1.0], [0.0, 0.0], [0.0])),
    ("lengths", ([[1.0]], [0.0], [0.0, 0.0])),
])
def test_forward_kinematics_rejects_wrong_shapes(name, args):
    with pytest.raises(ValueError, match=f"^{name}"):
        forward_kinematics(*args)


@solvers
@pytest.mark.parametrize("lengths", [[1.0], [1.0, 1.0], [2.0, 0.5], [1.0, 1.0, 1.0], [0.5, 1.0, 0.7, 0.3]])
@pytest.mark.parametrize("initial", ["straight", "bent"])
def test_target_on_the_root_stays_finite(solve, lengths, initial):
    start = np.zeros(len(lengths)) if initial == "straight" else np.full(len(lengths), 0.7)
    root = np.array([2.0, -1.0])
    sol = solve(lengths, root, root, initial=start, max_iterations=100)
    assert_honest(sol, lengths, root, root, 1e-3)
    # nothing can bring the end closer than the inner reach
    assert sol.residual >= max(0.0, 2 * max(lengths) - sum(lengths)) - 1e-9
    if len(lengths) == 1:
        np.testing.assert_array_equal(sol.angles, start)  # no direction: the warm start stays
    # a path through the root, straight chain included, stays finite too
    path = root + np.linspace(-1, 1, 21)[:, None] * [1.0, 0.0]
    through = solve(lengths, root, path, initial=start, max_iterations=20)
    assert_honest(through, lengths, root, path, 1e-3)


@solvers
def test_straight_chain_bends_when_the_target_comes_back_along_its_line(solve):
    # The default pose is straight along +x and out-of-reach frames leave the chain
    # straight; a target on that line, inside reach, is the singular case for both
    # methods (no joint rotation pulls the end along the line).
    lengths = [1.0, 0.8, 1.2, 1.0]
    x = np.r_[np.linspace(3.0, 5.0, 11), np.linspace(5.0, 2.0, 16)]
    targets = np.stack([x, np.zeros_like(x)], axis=1)
    sol = solve(lengths, [0.0, 0.0], targets, tolerance=1e-6, max_iterations=500)
    assert sol.converged[x < 4.0].all()
    # Frame 0 and the first frame back inside restart as an even counter-clockwise
    # arc with the right chord: converged at once, one equal positive turn per joint.
    back = 1 + int(np.flatnonzero((x[:-1] >= 4.0) & (x[1:] < 4.0))[0])
    for i in (0, back):
        assert sol.iterations[i] == 1
        turns = sol.angles[i, 1:]
        assert np.all(turns > 0) and np.ptp(turns) < 1e-12
    assert np.abs(np.diff(sol.angles, axis=0)).max() < 1.0


@pytest.mark.parametrize("scale", [1e-150, 1e-9, 1e149])
@pytest.mark.parametrize("solver", [solve_ccd, solve_fabrik])
def test_iterative_solvers_mean_the_same_at_every_scale(solver, scale):
    # Guards are relative to the chain's length: the same chain drawn in another
    # unit converges in the same iterations to the same relative residual.
    lengths = np.array([1.0, 0.8, 0.6, 0.4])
    targets = np.array([[1.5, 1.2], [0.3, 0.2], [-1.0, 0.5]])
    unit = solver(lengths, np.zeros(2), targets, tolerance=1e-9, max_iterations=200)
    scaled = solver(lengths * scale, np.zeros(2), targets * scale, tolerance=1e-9 * scale, max_iterations=200)
    assert np.array_equal(unit.iterations, scaled.iterations)
    assert np.all(scaled.residual <= 1e-9 * scale)
    assert np.allclose(scaled.angles, unit.angles, atol=1e-9)
