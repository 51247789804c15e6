"""Path constraints in evaluate(): bones on a slot's Bezier path, checked against the
curve itself (dense sampling, finite differences) and forward kinematics by hand."""
import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rigeditor.model.data.attachments import Art, Slot
from rigeditor.model.data.path_attachment import PathAttachment
from rigeditor.model.data.path_constraint import PathConstraint
from rigeditor.model.data.project import Bone, Project, Timeline
from rigeditor.model.data.timeline import Channel, Key, StepChannel, constant
from rigeditor.model.evaluation.evaluate import evaluate
from rigeditor.model.validation.project import problems

# An open path of three points (handle, point, handle each), a closed one of four.
CURVY = ((-40, -30), (0, 0), (40, 30), (60, 80), (100, 100), (140, 90), (170, 40), (200, 0), (230, -30))
LOOP = ((-20, 60), (0, 0), (20, -60), (80, -90), (120, -80), (160, -70), (200, 0), (180, 60), (160, 120),
        (80, 150), (40, 140), (0, 130))


def straight(length=300.0, angle=0.4, points=3):
    """A straight open path from the origin, handles a third of the way to each
    neighbour: the curve runs along the line at constant speed."""
    d = np.array([math.cos(angle), math.sin(angle)])
    step = length / (points - 1)
    out = []
    for k in range(points):
        p = d * step * k
        out += [tuple(p - d * step / 3), tuple(p), tuple(p + d * step / 3)]
    return tuple(tuple(float(v) for v in p) for p in out), d


def rig(vertices, *, closed=False, lengths=None, bones=(30.0, 25.0, 20.0), holder=(0.0, 0.0, 0.0), **settings):
    """A holder bone carrying slot ``track`` with path ``p``; a chain of bones b0..
    under each other, constrained to it by ``pc``."""
    points = len(vertices) // 3
    path = PathAttachment("p", tuple(vertices), closed=closed, constant_speed=lengths is None,
                          lengths=tuple(lengths or [0.0] * points))
    chain = [Bone(f"b{i}", f"b{i - 1}" if i else None, L, (5.0, 2.0) if i else (-50.0, 10.0), 0.3 * i)
             for i, L in enumerate(bones)]
    hx, hy, hr = holder
    art = Art((Slot("track", "holder", (), StepChannel("p"), paths=(path,)),))
    pc = PathConstraint("pc", tuple(b.name for b in chain), "track", **settings)
    p = Project(timeline=Timeline(30.0, 0, 4), bones=(Bone("holder", None, 10.0, (hx, hy), hr), *chain),
                paths=(pc,), art=art)
    assert problems(p) == []
    return p


def world(bake, name):
    w = bake.bone_bakes[bake.bones.index(name)].world
    return np.array([np.broadcast_to(v, bake.frames.shape) for v in (w.a, w.b, w.c, w.d, w.tx, w.ty)]).T


def bezier(vertices, closed, t):
    """Dense points (and derivatives) of the path, curve by curve: (points, tangents)."""
    v = np.asarray(vertices, float)
    n = len(v) // 3
    pts, der = [], []
    for k in range(n if closed else n - 1):
        q = [v[3 * k + 1], v[3 * k + 2], v[(3 * k + 3) % len(v)], v[(3 * k + 4) % len(v)]]
        s = t[:, None]
        pts.append((1 - s) ** 3 * q[0] + 3 * (1 - s) ** 2 * s * q[1] + 3 * (1 - s) * s * s * q[2] + s ** 3 * q[3])
        der.append(3 * (1 - s) ** 2 * (q[1] - q[0]) + 6 * (1 - s) * s * (q[2] - q[1]) + 3 * s * s * (q[3] - q[2]))
    return np.concatenate(pts), np.concatenate(der)


def nearest_on(vertices, closed, point):
    """(distance to the path, tangent angle there) by brute force over 200,001 samples a curve."""
    pts, der = bezier(vertices, closed, np.linspace(0, 1, 200_001))
    k = int(np.argmin(np.hypot(*(pts - point).T)))
    return float(np.hypot(*(pts[k] - point))), math.atan2(der[k][1], der[k][0])


def angle(w):
    return math.atan2(w[2], w[0])


def test_a_straight_path_lays_the_bones_at_their_lengths_plus_the_spacing():
    vertices, d = straight()
    p = rig(vertices, position=constant(0.1), spacing=constant(4.0))  # percent, length spacing, tangent
    bake = evaluate(p)
    start = 0.1 * 300.0
    for i, L in enumerate((30.0, 25.0, 20.0)):
        w = world(bake, f"b{i}")[0]
        assert w[4:] == pytest.approx(d * start, abs=1e-9)
        assert angle(w) == pytest.approx(0.4, abs=1e-12)
        start += L + 4.0


@pytest.mark.parametrize("closed", [False, True])
def test_tangent_mode_puts_each_origin_on_the_curve_turned_along_it(closed):
    vertices = LOOP if closed else CURVY
    bake = evaluate(rig(vertices, closed=closed, position=constant(0.2), spacing=constant(6.0)))
    for i in range(3):
        w = world(bake, f"b{i}")[0]
        dist, tangent = nearest_on(vertices, closed, w[4:])
        assert dist < 1e-3
        assert math.remainder(angle(w) - tangent, 2 * math.pi) == pytest.approx(0.0, abs=1e-3)


@pytest.mark.parametrize("mode", ["chain", "chainScale"])
def test_chain_modes_point_each_bone_at_its_point_on_the_path(mode):
    """chainScale: every origin on the path, each bone scaled so its tip is the next
    origin. chain: bones keep their lengths: each turns toward its point on the path
    and the next bone starts at its tip."""
    spacing = 40.0
    bake = evaluate(rig(CURVY, rotate_mode=mode, spacing_mode="fixed", spacing=constant(spacing),
                        position=constant(0.1)))
    origins = [world(bake, f"b{i}")[0] for i in range(3)]
    assert nearest_on(CURVY, False, origins[0][4:])[0] < 1e-3
    for i, L in enumerate((30.0, 25.0)):
        a, nxt = origins[i], origins[i + 1]
        tip = a[4:] + L * np.array([a[0], a[2]])  # forward kinematics of the bone's x axis
        assert tip == pytest.approx(nxt[4:], abs=1e-9)
        if mode == "chainScale":
            assert nearest_on(CURVY, False, nxt[4:])[0] < 1e-3
        else:
            assert np.hypot(a[0], a[2]) == pytest.approx(1.0, abs=1e-12)


def test_beyond_an_open_paths_start_the_bone_sits_on_the_start_handles_line():
    vertices, _ = straight(angle=0.0)
    curvy = ((-10.0, -10.0), (0.0, 0.0), (10.0, 10.0)) + CURVY[3:]  # leaves its start at 45 degrees
    bake = evaluate(rig(curvy, position_mode="fixed", position=constant(-20.0), bones=(5.0,)))
    w = world(bake, "b0")[0]
    assert w[4:] == pytest.approx(-20.0 * np.array([math.sqrt(0.5), math.sqrt(0.5)]), abs=1e-9)
    assert angle(w) == pytest.approx(math.pi / 4, abs=1e-12)


def test_a_closed_path_wraps_around():
    one = world(evaluate(rig(LOOP, closed=True, position=constant(0.3))), "b0")
    wrapped = world(evaluate(rig(LOOP, closed=True, position=constant(1.3))), "b0")
    below = world(evaluate(rig(LOOP, closed=True, position=constant(-0.7))), "b0")
    assert wrapped == pytest.approx(one, abs=1e-9)
    assert below == pytest.approx(one, abs=1e-9)


def test_percent_spacing_shares_the_path_and_proportional_follows_the_lengths():
    vertices, d = straight(length=300.0)
    bake = evaluate(rig(vertices, spacing_mode="percent", spacing=constant(0.25)))
    xs = [float(np.dot(world(bake, f"b{i}")[0, 4:], d)) for i in range(3)]
    assert xs == pytest.approx([0.0, 75.0, 150.0], abs=1e-9)
    bake = evaluate(rig(vertices, spacing_mode="proportional", spacing=constant(1.0), rotate_mode="chainScale"))
    xs = [float(np.dot(world(bake, f"b{i}")[0, 4:], d)) for i in range(3)]
    # spacing 1: the bones' origins and the last tip share the 300 units as the
    # bones' lengths 30 : 25 : 20
    unit = 300.0 / 75.0
    assert xs == pytest.approx([0.0, 30.0 * unit, 55.0 * unit], abs=1e-9)


def test_the_mixes_move_part_of_the_way():
    vertices, _ = straight()
    own = world(evaluate(replace(rig(vertices), paths=())), "b0")[0]
    full = world(evaluate(rig(vertices, position=constant(0.2))), "b0")[0]
    half = world(evaluate(rig(vertices, position=constant(0.2), mix_x=constant(0.5), mix_y=constant(0.25),
                              mix_rotate=constant(0.0))), "b0")[0]
    assert half[4] == pytest.approx(own[4] + 0.5 * (full[4] - own[4]), abs=1e-9)
    assert half[5] == pytest.approx(own[5] + 0.25 * (full[5] - own[5]), abs=1e-9)
    assert half[:4] == pytest.approx(own[:4], abs=1e-12)


def test_the_path_rides_its_slots_bone_and_the_bones_below_follow():
    vertices, d = straight(angle=0.0)
    bake = evaluate(rig(vertices, position=constant(0.1), holder=(7.0, -3.0, 0.5)))
    w = world(bake, "b0")[0]
    turn = np.array([math.cos(0.5), math.sin(0.5)])
    assert w[4:] == pytest.approx(np.array([7.0, -3.0]) + 30.0 * turn, abs=1e-9)
    assert angle(w) == pytest.approx(0.5, abs=1e-12)


def test_a_weighted_path_is_the_weighted_sum_of_its_bones_frames():
    plain = rig(CURVY, position=constant(0.3), holder=(4.0, 5.0, 0.25))
    # the same path, weighted half to the holder (its own frame) and half to the world
    # (the character space: the holder's image of each vertex, written there)
    h = math.cos(0.25), math.sin(0.25)
    to_world = lambda x, y: (4.0 + h[0] * x - h[1] * y, 5.0 + h[1] * x + h[0] * y)  # noqa: E731
    inf = tuple(((0, x, y, 0.5), (1, *to_world(x, y), 0.5)) for x, y in CURVY)
    path = PathAttachment("p", (), bones=("holder", None), influences=inf, lengths=(0.0,) * 3)
    weighted = replace(plain, art=replace(plain.art, slots=(replace(plain.art.slots[0], paths=(path,)),)))
    assert problems(weighted) == []
    for b in ("b0", "b1", "b2"):
        assert world(evaluate(weighted), b) == pytest.approx(world(evaluate(plain), b), abs=1e-9)


def test_authored_lengths_place_bones_when_constant_speed_is_off():
    vertices, d = straight(length=200.0, points=3)
    # authored lengths of 50 and 100 (the first curve counted as half as long): a
    # position of 50 units is the end of the first curve, 100 units at t = 0.5 of
    # the second
    bake = evaluate(rig(vertices, lengths=(50.0, 100.0, 100.0), position_mode="fixed", position=constant(75.0),
                        bones=(5.0,)))
    assert world(bake, "b0")[0, 4:] == pytest.approx(d * 150.0, abs=1e-9)


def test_a_slot_that_shows_no_path_leaves_the_bones_alone():
    p = rig(CURVY, position=constant(0.3))
    hidden = replace(p, art=replace(p.art, slots=(replace(p.art.slots[0], attachment=StepChannel("")),)))
    assert world(evaluate(hidden), "b1") == pytest.approx(world(evaluate(replace(p, paths=())), "b1"), abs=0)


def test_keyed_position_moves_the_bones_and_one_frame_equals_its_row_of_the_range():
    vertices, d = straight()
    p = rig(vertices, position=Channel((0.0,), (Key(0, (0.0,)), Key(4, (0.4,)))), spacing=constant(2.0))
    bake = evaluate(p)
    xs = np.dot(world(bake, "b0")[:, 4:], d)
    assert xs == pytest.approx(300.0 * np.linspace(0, 0.4, 5), abs=1e-9)
    for f in range(5):
        one = evaluate(p, np.array([float(f)]))
        for b in ("b0", "b1", "b2"):
            assert np.array_equal(world(one, b)[0], world(bake, b)[f])


@settings(max_examples=40, deadline=None)
@given(st.floats(0.0, 0.6), st.floats(-3.0, 12.0), st.floats(-3.0, 3.0), st.sampled_from(["fixed", "length"]))
def test_on_a_straight_path_consecutive_origins_are_their_spacing_apart(position, spacing, turn, mode):
    vertices, d = straight(angle=turn)
    bake = evaluate(rig(vertices, position=constant(position), spacing=constant(spacing), spacing_mode=mode))
    xs = [float(np.dot(world(bake, f"b{i}")[0, 4:], d)) for i in range(3)]
    gaps = [spacing + 30.0, spacing + 25.0] if mode == "length" else [spacing, spacing]
    assert np.diff(xs) == pytest.approx(gaps, abs=1e-7)


@pytest.mark.parametrize("path_first", [True, False])
def test_path_and_transform_constraints_run_in_their_order(path_first):
    """A transform constraint pinning a bone onto b1: run after the path constraint it
    sees b1 on the path; run before, b1 where its own pose puts it."""
    from rigeditor import edits

    vertices, d = straight()
    p = rig(vertices, position=constant(0.2), order=0 if path_first else 1)
    p = replace(p, bones=p.bones + (Bone("pin", None, 5.0, (300.0, 300.0)),))
    p = edits.add_transform(p, ["pin"], "b1", name="tc")
    p = edits.set_transform(p, "tc", order=1 if path_first else 0)
    bake = evaluate(p)
    pin = world(bake, "pin")[0]
    if path_first:
        assert pin == pytest.approx(world(bake, "b1")[0], abs=1e-9)
    else:
        own = world(evaluate(replace(p, paths=(), transforms=())), "b1")[0]
        assert pin == pytest.approx(own, abs=1e-9)
        assert not np.allclose(pin, world(bake, "b1")[0])
