"""The order chains solve in, and which of them can run side by side.

Chains solve by ``Chain.order`` (Spine's constraint order; 0 for every chain a
RigEditor rig makes), then parents first. A chain ordered before a chain that drives
one of its ancestors solves against that ancestor's keyed pose, and the later solve
carries its solved local pose along, as Spine's runtimes play it (they run constraints
strictly by order): its end then leaves its target, which its bake says. So does a
chain whose bones a later chain drives too (Spine's IK switch: two constraints on one
limb, their mixes keyed): the later one starts from its solve.
"""
from __future__ import annotations


def solve_order(project, chains, order: list[str]) -> list:
    """``chains`` in the order they solve: by ``order`` (Spine's), then the bone order
    of their first bone (parents first). ``order``: the bone order (names)."""
    column = {name: k for k, name in enumerate(order)}
    return sorted(chains, key=lambda c: (c.order, column[c.bones[0]]))


_memo: dict = {}


def carried(project, chains) -> frozenset[str]:
    """Names of the chains (in solve order) that a later chain moves: one that drives
    an ancestor of their first bone, or one of their own bones. Remembered per bones and
    chains (read-only)."""
    key = (id(project.bones), tuple(map(id, chains)))
    hit = _memo.get(key)
    if hit is not None and hit[0] is project.bones and all(a is b for a, b in zip(hit[1], chains)):
        return hit[2]
    out = set()
    for i, chain in enumerate(chains):
        moved = ancestors(project, chain.bones[0]) | set(chain.bones)
        if any(moved.intersection(later.bones) for later in chains[i + 1:]):
            out.add(chain.name)
    if len(_memo) > 64:
        _memo.clear()
    _memo[key] = (project.bones, tuple(chains), frozenset(out))
    return frozenset(out)


def waves(project, chains) -> list[list]:
    """Group ``chains`` (in solve order) so none depends on another of its group: a
    chain waits for every earlier chain above it or on its own bones (it starts from
    that one's solve) and for every earlier chain below it (its own solve places those
    again)."""
    out: list[list] = []
    level: dict[str, int] = {}  # per bone of the chains placed so far: its chain's wave
    placed: list[tuple[frozenset, int]] = []  # per chain placed so far: (its first bone's ancestors, wave)
    for chain in chains:
        above = ancestors(project, chain.bones[0])
        mine = set(chain.bones)
        depth = max((level[b] + 1 for b in above | mine if b in level), default=0)
        depth = max([depth] + [w + 1 for up, w in placed if mine & up])
        level.update((b, depth) for b in chain.bones)
        placed.append((frozenset(above), depth))
        while len(out) <= depth:
            out.append([])
        out[depth].append(chain)
    return out


def ancestors(project, bone: str) -> set[str]:
    out, parent = set(), project.bone(bone).parent
    while parent is not None:
        out.add(parent)
        parent = project.bone(parent).parent
    return out
