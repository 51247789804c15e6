"""Every slot's picture placed at once (art_bake.bake_art works on all slots as rows):
each slot's frame and corners are its bone's world frame times its attachment's own
frame, exactly as placing that slot alone gives, on every frame; slots showing
nothing keep the identity and zero corners."""
import numpy as np
import pytest

from rigeditor.core.geometry import Affine
from rigeditor.examples.art import dressed_walk
from rigeditor.model import CHARACTER, evaluate
from rigeditor.model.data.skins import pick


def _expected(project, bake, s, row):
    slot = project.art.slots[s]
    value = slot.attachment.values()[slot.attachment.sample(bake.frames[row:row + 1])[0]]
    code = pick(slot.attachments, value, project.art.active_skins)
    if code < 0:
        return code, Affine.identity(), np.zeros((4, 2))
    holder = bake.spaces[CHARACTER] if slot.bone is None else bake.bone(slot.bone).world
    a = slot.attachments[code]
    world = holder.take(row).compose(a.local())
    x, y = a.corners()[:, 0], a.corners()[:, 1]
    f = [float(v) for v in world.fields()]
    return code, world, np.stack([f[0] * x + f[1] * y + f[4], f[2] * x + f[3] * y + f[5]], axis=-1)


@pytest.mark.parametrize("frames", [None, [17.0]])
def test_each_slot_is_placed_as_it_would_be_alone(frames):
    project = dressed_walk()
    bake = evaluate(project, frames)
    art = bake.art
    assert len(project.art.slots) >= 5
    for row in range(len(bake)):
        for s in range(len(project.art.slots)):
            code, world, corners = _expected(project, bake, s, row)
            assert art.attachment[row, s] == code
            got = [np.broadcast_to(np.asarray(v), art.attachment.shape)[row, s] for v in art.image_world.fields()]
            assert got == [float(v) for v in world.fields()], (row, s)
            assert np.array_equal(art.corners[row, s], corners), (row, s)
