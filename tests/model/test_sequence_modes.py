"""The sequence frame shown per time, for every mode, against a brute force that plays
the frames out as lists (forward, backward, there and back)."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from rigeditor.model.data.sequences import MODES, SequenceKey, frame_index, key_text, parse_key


def played(mode: str, count: int, index: int, steps: int) -> int:
    """The frame shown after ``steps`` whole delays from a key at ``index``: the
    frames laid out as the mode plays them and walked one by one."""
    forward = list(range(count))
    backward = forward[::-1]
    there_and_back = forward + forward[-2:0:-1]  # 0 1 2 1 | 0 1 2 1 ...
    back_and_there = backward + backward[-2:0:-1]  # 2 1 0 1 | 2 1 0 1 ...
    k = index + (0 if mode == "hold" else steps)
    if mode == "hold":
        return min(k, count - 1)
    if mode == "once":
        return forward[min(k, count - 1)]
    if mode == "onceReverse":
        return backward[min(k, count - 1)]
    if mode == "loop":
        return forward[k % count]
    if mode == "loopReverse":
        return backward[k % count]
    if mode == "pingpong":
        return there_and_back[k % len(there_and_back)] if count > 1 else 0
    return back_and_there[k % len(back_and_there)] if count > 1 else 0


@settings(max_examples=300, deadline=None)
@given(mode=st.sampled_from(MODES), count=st.integers(1, 8), index=st.integers(0, 20),
       delay=st.sampled_from([0.5, 1.0, 2.0, 3.0, 7.5]), steps=st.integers(0, 60),
       into=st.floats(0.01, 0.98))
def test_every_mode_shows_the_frame_playing_it_out_shows(mode, count, index, delay, steps, into):
    key = SequenceKey(mode, index, delay, "wing")
    elapsed = np.array([(steps + into) * delay])
    assert int(frame_index(key, count, elapsed)[0]) == played(mode, count, index, steps)


def test_a_frame_starts_on_its_time_exactly():
    # 9 frames after the key at 3 frames a picture: the fourth picture (index 3), not the third.
    key = SequenceKey("loop", 0, 3.0, "wing")
    assert frame_index(key, 5, np.array([9.0, 8.999]))[:].tolist() == [3, 2]


def test_no_delay_holds_the_first_frame():
    assert frame_index(SequenceKey("loop", 2, 0.0, "w"), 5, np.array([0.0, 10.0])).tolist() == [2, 2]


@given(mode=st.sampled_from(MODES), index=st.integers(0, 99), delay=st.floats(0, 1e6),
       name=st.text(min_size=1).filter(lambda s: s.strip() == s and s))
def test_a_key_reads_back_as_written(mode, index, delay, name):
    key = SequenceKey(mode, index, delay, name)
    assert parse_key(key_text(key)) == key
