"""The timeline's rows: each deform row sits under the last row of its item (a slot),
in order; rows of items with no other row follow at the end, grouped by item."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rigeditor.edits.tracks import Track, _under_their_items


def _one_by_one(tracks, rows):
    """Each row put in by itself after the last row (so far) of its item."""
    out = list(tracks)
    for row in rows:
        after = [i for i, t in enumerate(out) if t.item == row.item]
        out.insert(after[-1] + 1 if after else len(out), row)
    return out


items = st.sampled_from(["a", "b", "c", "d", "e"])


@settings(max_examples=200, deadline=None)
@given(st.lists(items, max_size=12), st.lists(items, max_size=8))
def test_deform_rows_land_under_their_slot_as_if_put_in_one_by_one(track_items, row_items):
    tracks = [Track(f"{n} · x{k}", ("slot", n, f"x{k}"), (0,)) for k, n in enumerate(track_items)]
    rows = [Track(f"{n} · deform {k}", ("slot", n, f"deform{k}"), (0,)) for k, n in enumerate(row_items)]
    assert _under_their_items(tracks, rows) == _one_by_one(tracks, rows)
