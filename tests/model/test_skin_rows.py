"""A mesh's skin transforms, all its bones at once, are each bone's own: the bone's
world carried into the character space, times the inverse of its bind; a bone-less
(None) holder is the character space itself."""
import numpy as np
from hypothesis import given, settings, strategies as st

from rigeditor.core.geometry import Affine
from rigeditor.model.evaluation.skin_bake import skin_rows


def _affine(rng, n):
    return Affine(*(rng.uniform(-2.0, 2.0, n) for _ in range(4)), *(rng.uniform(-50, 50, n) for _ in range(2)))


def _matrix(t: Affine, f: int) -> np.ndarray:
    return np.array([[t.a[f], t.b[f], t.tx[f]], [t.c[f], t.d[f], t.ty[f]], [0.0, 0.0, 1.0]])


@settings(max_examples=30, deadline=None)
@given(bones=st.integers(1, 6), frames=st.integers(1, 4), seed=st.integers(0, 2**31 - 1), none_at=st.integers(-1, 5))
def test_each_bones_skin_is_its_world_in_character_space_after_its_bind(bones, frames, seed, none_at):
    rng = np.random.default_rng(seed)
    character = Affine(*(np.full(frames, v) for v in (1.5, -0.4, 0.4, 1.5, 10.0, -3.0)))
    worlds = [None if k == none_at else _affine(rng, frames) for k in range(bones)]
    binds = np.array([[[1.2, 0.3, 4.0], [-0.2, 0.9, -1.0]]] * bones) + rng.uniform(-0.1, 0.1, (bones, 2, 3))
    skins = skin_rows(worlds, binds, character, frames)
    assert skins.shape == (frames, bones, 2, 3)
    to_char = np.linalg.inv(_matrix(character, 0))
    for k, w in enumerate(worlds):
        bind = np.vstack([binds[k], [0.0, 0.0, 1.0]])
        for f in range(frames):
            world = np.eye(3) if w is None else to_char @ _matrix(w, f)
            want = (world @ np.linalg.inv(bind))[:2]
            assert np.allclose(skins[f, k], want, rtol=1e-9, atol=1e-9), (k, f)
