"""A key edit in the open animation cannot change what the stored animations' checks
find, so a pose drag checks the open animation alone (Document passes stored=False)."""
from hypothesis import given, settings, strategies as st

from rigeditor.edits import animations
from rigeditor.edits.posing import set_target_key, turn_bone
from rigeditor.examples.rigs import walk
from rigeditor.model.data.clips import switch
from rigeditor.model.validation.project import problems

# Any value, bad ones too: what the open animation finds, the full check finds, and
# nothing more (the stored animations are opened with their own keys).
values = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([1e300, -1e12])


def _with_stored():
    project = animations.duplicate(walk(), walk().animation, "run")
    project = switch(project, "run")
    return set_target_key(project, "foot_l", 12, (40.0, -5.0))  # the two now differ


@settings(max_examples=40, deadline=None)
@given(frame=st.integers(0, 40), x=values, y=values, turn=values)
def test_the_stored_animations_find_nothing_new_after_a_key_edit(frame, x, y, turn):
    project = _with_stored()
    for edited in (set_target_key(project, "foot_r", frame, (x, y)),
                   turn_bone(project, "head", frame, turn, "animate")):
        assert problems(edited) == problems(edited, stored=False)
        assert not problems(project)


def test_a_bad_key_in_the_open_animation_is_still_found_without_the_stored_ones():
    edited = set_target_key(_with_stored(), "foot_r", 3, (float("inf"), 0.0))
    assert any("foot_r" in p or "targets[" in p for p in problems(edited, stored=False))
