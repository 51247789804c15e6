"""The label placer's batched path (every blocked label's candidate spots tested
against the obstacles in one call) picks exactly the spot placing the labels one by
one picks: same rectangles on random crowds, obstacles and view bounds (offscreen)."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rigeditor.app.scene.paint import Label, LabelPlacer, TextCache, label_font, overlaps

WORDS = ["hand", "foot_ik", "tail_tip", "0.31", "12.5", "limited", "world", "hip  root", "x"]
DIRECTIONS = [((1, -1), (1, 1), (-1, -1), (-1, 1), (0, -1), (0, 1)), ((0, -1), (0, 1)), ((1, 1), (-1, -1))]

_text = None


def text_cache():
    global _text
    if _text is None:
        _text = TextCache(label_font())
    return _text


label = st.tuples(st.sampled_from(WORDS), st.sampled_from(DIRECTIONS), st.sampled_from([8.0, 12.0, 15.0]),
                  st.floats(0, 160), st.floats(0, 120))
box = st.tuples(st.floats(-20, 180), st.floats(-20, 140), st.floats(1, 40), st.floats(1, 30))


def labels_of(spec):
    return [Label(f"l{k}", np.zeros(2), [(word, None)], gap=gap, directions=dirs)
            for k, (word, dirs, gap, _, _) in enumerate(spec)]


def placed(spec, obstacles, bounds, one_by_one):
    labels = labels_of(spec)
    anchors = np.array([(ax, ay) for *_, ax, ay in spec], dtype=float).reshape(-1, 2)
    LabelPlacer(text_cache(), obstacles, bounds=bounds).place_all(labels, anchors, one_by_one=one_by_one)
    return [(lb.rect.x(), lb.rect.y(), lb.rect.width(), lb.rect.height()) for lb in labels]


@settings(max_examples=150, deadline=None)
@given(st.lists(label, max_size=24), st.lists(box, max_size=30),
       st.one_of(st.none(), st.tuples(st.floats(-10, 40), st.floats(-10, 30), st.floats(120, 260), st.floats(90, 200))))
def test_batched_placement_picks_the_spot_one_by_one_placement_picks(qapp, spec, boxes, bounds):
    obstacles = np.array([(x, y, x + w, y + h) for x, y, w, h in boxes], dtype=float).reshape(-1, 4)
    assert placed(spec, obstacles, bounds, False) == placed(spec, obstacles, bounds, True)


def test_a_blocked_label_steps_round_one_placed_before_it_in_the_same_batch(qapp):
    """Two labels on one anchor whose first spots an obstacle covers: the second must
    avoid where the first went (the batch's own placements), and both paths agree."""
    spec = [("hand", DIRECTIONS[0], 12.0, 100.0, 80.0)] * 2
    obstacles = np.array([[100 + 11, 0, 300, 80]], dtype=float)  # covers the first spot (right, above)
    rects = placed(spec, obstacles, None, False)
    assert rects == placed(spec, obstacles, None, True)
    r = np.array([(x, y, x + w, y + h) for x, y, w, h in rects])
    assert not overlaps(r, obstacles).any()
    assert not overlaps(r[:1], r[1:]).any()  # apart, though both wanted the same spot
