"""Slot colour in the one evaluation path: light and dark colours per frame, each
component keyed on its own, clamped as Spine clamps; edits refuse bad values."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rigeditor import edits
from rigeditor.model.data.attachments import Art, ImageAttachment, Slot
from rigeditor.model.data.project import Bone, Project, Timeline
from rigeditor.model.data.timeline import Channel, Key
from rigeditor.model.evaluation.evaluate import evaluate
from rigeditor.model.validation.project import problems


def _project(**slot) -> Project:
    art = Art((Slot("glow", "arm", (ImageAttachment("glow", "glow.png", 10, 10),), **slot),
               Slot("plain", "arm", (ImageAttachment("plain", "plain.png", 10, 10),))))
    return Project(name="c", bones=(Bone("arm", None, 10.0),), timeline=Timeline(30.0, 0, 20), art=art)


def test_an_unkeyed_slot_is_white_and_has_no_dark_colour():
    art = evaluate(_project()).art
    assert art.color.shape == (21, 2, 4) and art.dark.shape == (21, 2, 3)
    assert np.all(art.color == 1.0) and np.all(art.dark == 0.0)
    assert art.blend == ("normal", "normal")


def test_each_component_follows_its_own_keys():
    # red falls linearly from 1 to 0 over frames 0..10; alpha holds 0.5 then steps to 1 at 10.
    red = Channel((1.0,), (Key(0, (1.0,)), Key(10, (0.0,))))
    alpha = Channel((0.5,), (Key(0, (0.5,), "constant"), Key(10, (1.0,))))
    art = evaluate(_project(red=red, alpha=alpha)).art
    np.testing.assert_allclose(art.color[:11, 0, 0], 1.0 - np.arange(11) / 10.0, atol=1e-12)
    np.testing.assert_allclose(art.color[:, 0, 1:3], 1.0)  # green, blue untouched
    assert np.all(art.color[:10, 0, 3] == 0.5) and np.all(art.color[10:, 0, 3] == 1.0)
    assert np.all(art.color[:, 1] == 1.0)  # the other slot stays white


def test_a_dark_colour_shows_only_with_two_colour_tint_on():
    dark = dict(dark_red=Channel((0.2,)), dark_green=Channel((0.4,)), dark_blue=Channel((0.6,)))
    off = evaluate(_project(**dark)).art
    on = evaluate(_project(**dark, dark=True)).art
    assert np.all(off.dark == 0.0)
    np.testing.assert_allclose(on.dark[:, 0], np.tile([0.2, 0.4, 0.6], (21, 1)))


def test_an_overshooting_curve_is_clamped_to_0_1():
    # A bezier from 0.2 to 0.9 whose handles overshoot far above 1 between the keys.
    green = Channel((0.2,), (Key(0, (0.2,), "bezier", (3.0, 2.0)), Key(10, (0.9,), "linear", (-3.0, 2.0))))
    art = evaluate(_project(green=green)).art
    raw = green.sample(np.arange(21.0))[:, 0]
    assert raw.max() > 1.0  # the curve itself overshoots...
    np.testing.assert_allclose(art.color[:, 0, 1], np.clip(raw, 0, 1))  # ...the colour does not
    assert art.color[:, 0, 1].max() == 1.0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 20), st.floats(0, 1)), min_size=1, max_size=6, unique_by=lambda k: k[0]))
def test_linear_keys_give_the_straight_lines_between_them(points):
    points = sorted(points)
    blue = Channel((points[0][1],), tuple(Key(f, (v,)) for f, v in points))
    art = evaluate(_project(blue=blue)).art
    frames = np.arange(21.0)
    expect = np.interp(frames, [f for f, _ in points], [v for _, v in points])  # holds outside, as Spine
    np.testing.assert_allclose(art.color[:, 0, 2], expect, atol=1e-9)


def test_edits_set_colours_and_keys_and_refuse_what_is_out_of_range():
    p = _project()
    p = edits.set_slot_color(p, "glow", (1.0, 0.5, 0.25, 0.8), dark=(0.1, 0.2, 0.3), blend="additive")
    s = p.art.slot("glow")
    assert (s.red.default, s.alpha.default, s.dark_blue.default, s.dark, s.blend) == (
        (1.0,), (0.8,), (0.3,), True, "additive")
    p = edits.key_slot_color(p, "glow", 10, (0.0, 0.5, 0.25, 0.8))
    p = edits.key_slot_color(p, "glow", 0, (1.0, 0.5, 0.25, 0.8), dark=(0.1, 0.2, 0.3))
    art = evaluate(p).art
    assert art.color[5, 0, 0] == pytest.approx(0.5)  # halfway from 1 to 0
    assert problems(p) == []
    assert ("slot", "glow", "red") in {t.path for t in edits.keyed_tracks(p)}
    with pytest.raises(edits.EditError, match="Slot 'glow'.*green must be between 0 and 1, got 1.5"):
        edits.set_slot_color(p, "glow", (1.0, 1.5, 1.0, 1.0))
    with pytest.raises(edits.EditError, match="blend mode must be one of normal, additive, multiply, screen"):
        edits.set_slot_color(p, "glow", blend="overlay")
    with pytest.raises(edits.EditError, match="no dark colour"):
        edits.key_slot_color(_project(), "glow", 3, dark=(0, 0, 0))


def test_validation_names_the_slot_and_component():
    bad = _project(alpha=Channel((2.0,)), blend="glow")
    assert set(problems(bad)) >= {"slots[0].color.alpha.default: must be between 0 and 1, got 2.0",
                               "slots[0].blend: must be one of normal, additive, multiply, screen, got 'glow'"}


def test_colour_keys_travel_with_their_animation():
    from rigeditor.model.data import clips

    p = edits.key_slot_color(_project(), "glow", 0, (0.2, 0.2, 0.2, 1.0))
    p = edits.add_animation(p, "other")
    other = clips.switch(p, "other")
    assert not other.art.slot("glow").red.keys  # the new animation has no colour keys
    back = clips.switch(other, p.animation)
    assert back.art.slot("glow").red.keys == p.art.slot("glow").red.keys
