"""Keys and interpolation: every kind hits its keys, bezier matches an independent
de Casteljau evaluation, stepped values hold."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rigeditor.model.data.timeline import Channel, Key, StepChannel, constant, keyed


def test_unkeyed_channel_is_its_default():
    assert np.array_equal(constant(3.0, 4.0).sample([0, 10, -5]), [[3, 4]] * 3)


@pytest.mark.parametrize("interp", ["constant", "linear", "bezier"])
def test_every_interpolation_hits_its_keys_exactly(interp):
    ch = keyed([(0, 1.0), (7, -2.5), (20, 4.0), (21, 4.0), (40, 0.25)], interp)
    for key in ch.keys:
        assert ch.sample([key.frame])[0, 0] == key.value[0]
    # Outside the keyed range the ends hold.
    assert ch.sample([-10])[0, 0] == 1.0 and ch.sample([99])[0, 0] == 0.25


def test_constant_holds_and_linear_is_linear():
    hold = keyed([(0, 1.0), (10, 3.0)], "constant")
    assert np.all(hold.sample(np.arange(0, 10))[:, 0] == 1.0)
    lin = keyed([(0, 1.0), (10, 3.0)], "linear")
    assert lin.sample([2.5])[0, 0] == pytest.approx(1.5)


def _de_casteljau(p, t):
    pts = [np.asarray(q, dtype=float) for q in p]
    while len(pts) > 1:
        pts = [(1 - t) * a + t * b for a, b in zip(pts, pts[1:])]
    return pts[0]


@settings(max_examples=60, deadline=None)
@given(v0=st.floats(-100, 100), v1=st.floats(-100, 100), gap=st.integers(2, 40),
       odt=st.floats(0, 1), idt=st.floats(0, 1), odv=st.floats(-50, 50), idv=st.floats(-50, 50),
       u=st.floats(0.01, 0.99))
def test_bezier_matches_an_independent_evaluation(v0, v1, gap, odt, idt, odv, idv, u):
    ch = Channel((0.0,), (Key(0, (v0,), "bezier", out_handle=(odt * gap, odv)),
                          Key(gap, (v1,), "linear", in_handle=(-idt * gap, idv))))
    frame = u * gap
    # Independent: find t with x(t) = frame by dense bisection on de Casteljau's x.
    ctrl = [(0.0, v0), (odt * gap, v0 + odv), (gap - idt * gap, v1 + idv), (gap, v1)]
    lo, hi = 0.0, 1.0
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if _de_casteljau(ctrl, mid)[0] < frame else (lo, mid)
    expected = _de_casteljau(ctrl, 0.5 * (lo + hi))[1]
    assert ch.sample([frame])[0, 0] == pytest.approx(expected, abs=1e-7 * (1 + abs(v0) + abs(v1) + abs(odv) + abs(idv)))


def test_automatic_bezier_is_smooth_through_a_key():
    ch = keyed([(0, 0.0), (10, 10.0), (20, 0.0)], "bezier")
    f = np.array([9.999, 10.0, 10.001])
    y = ch.sample(f)[:, 0]
    left, right = (y[1] - y[0]) / 0.001, (y[2] - y[1]) / 0.001
    assert left == pytest.approx(right, abs=1e-2)  # one slope through the key (here flat: a peak)


def test_equal_keys_hold_exactly_even_with_bezier():
    ch = keyed([(0, (3.0, -7.0)), (30, (3.0, -7.0))], "bezier")
    values = ch.sample(np.arange(31))
    assert np.all(values == [3.0, -7.0])


def test_key_editing_helpers():
    ch = keyed([(0, 1.0), (10, 2.0)])
    ch2 = ch.with_key(Key(5, (9.0,))).moved_key(10, 12).without_key(0)
    assert [k.frame for k in ch2.keys] == [5, 12]
    assert ch2.value_at(12) == (2.0,)


def test_step_channel_holds_values_between_keys():
    sc = StepChannel("world", ((10, "door"), (20, "world")))
    codes = sc.sample([0, 9, 10, 15, 20, 30])
    names = sc.values()
    assert [names[c] for c in codes] == ["world", "world", "door", "door", "world", "world"]
    assert sc.value_at(12) == "door"


def test_a_key_added_inside_a_bezier_path_keeps_it_smooth():
    from rigeditor.edits.posing import key_channel

    ch = keyed([(0, 0.0), (10, 10.0), (20, 0.0)], "bezier")
    added = key_channel(ch, 5, ch.value_at(5))
    assert next(k for k in added.keys if k.frame == 5).interp == "bezier"
    # The new key sits on the old curve; the curve through it has no corner there.
    y = added.sample(np.array([4.999, 5.0, 5.001]))[:, 0]
    assert (y[1] - y[0]) / 0.001 == pytest.approx((y[2] - y[1]) / 0.001, rel=1e-2)
    first = key_channel(constant(3.0), 7, (4.0,))
    assert first.default == (4.0,) and first.keys[0].interp == "linear"


@settings(max_examples=60, deadline=None)
@given(keys=st.lists(st.tuples(st.integers(2, 40), st.floats(-100, 100), st.floats(0.0, 1.0), st.floats(-1.0, 0.0),
                               st.floats(-80, 80), st.floats(-80, 80), st.sampled_from(["bezier", "linear", "constant"]),
                               st.booleans()), min_size=2, max_size=6),
       extra=st.lists(st.floats(0.0, 1.0), max_size=20))
def test_a_frame_sampled_alone_equals_it_sampled_with_others(keys, extra):
    # The editor evaluates the frame under the hand alone, then the whole range: the
    # value on screen must not move when the range lands (handles off the thirds make
    # the curve's time a Newton solve, which must not depend on the other frames; a
    # frame alone takes a scalar path that must do the same arithmetic).
    frame, ks = 0, []
    for gap, v, odt, idt, odv, idv, interp, auto in keys:
        frame += gap
        handles = {} if auto else dict(out_handle=(odt * gap, odv, -odv), in_handle=(idt * gap, idv, 0.5 * idv))
        ks.append(Key(frame, (v, 0.3 * v - 1.0), interp, **handles))
    ch = Channel((0.0, 0.0), tuple(ks))
    frames = np.concatenate([np.arange(ks[0].frame - 1, frame + 2, dtype=float),
                             ks[0].frame + np.array(extra) * (frame - ks[0].frame)])
    together = ch.sample(frames)
    for i, f in enumerate(frames):
        assert np.array_equal(ch.sample(np.array([f]))[0], together[i]), f
