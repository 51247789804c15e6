"""Linear blend skinning: one frame and 10,000 frames of a 2,000-vertex mesh, beside a
plain per-vertex Python loop and the memory-bandwidth floor, measured in one run; then
meshing and automatic weights on the example arm.

The floor is the time to write the deformed vertices once (F x V x 2 float64) at the
bandwidth of a large numpy copy (bytes read + written per second). The range path walks
the frames in 32 MB blocks (what the diagnostics do); "materialised" keeps every frame.
"""
from __future__ import annotations

import time

import numpy as np
from _common import best_time, table

from rigeditor.core.mesh import mesh_from_alpha
from rigeditor.core.mesh.shapes import ExampleArm
from rigeditor.core.skinning import deform, deform_chunks, skin_operator, skin_transforms, worst_area_ratio
from rigeditor.core.weights import automatic_weights, to_padded

FRAMES = 10_000


def python_loop(vertices, idx, w, skins):
    """The textbook formula, one vertex and one influence at a time."""
    out = []
    for (x, y), bones, weights in zip(vertices, idx, w):
        px = py = 0.0
        for b, wt in zip(bones, weights):
            (a, bb, tx), (c, d, ty) = skins[b]
            px += wt * (a * x + bb * y + tx)
            py += wt * (c * x + d * y + ty)
        out.append((px, py))
    return out


def rotations_about(points, angles):
    """(F, B, 2, 3) rotations by angles (F, B) about per-bone points (B, 2)."""
    c, s = np.cos(angles), np.sin(angles)
    px, py = points[:, 0], points[:, 1]
    m = np.empty(angles.shape + (2, 3))
    m[..., 0, 0], m[..., 0, 1], m[..., 1, 0], m[..., 1, 1] = c, -s, s, c
    m[..., 0, 2] = px - c * px + s * py
    m[..., 1, 2] = py - s * px - c * py
    return m


def bandwidth():
    src = np.ones(64 << 20 >> 3 << 2)  # 256 MB
    dst = np.empty_like(src)
    t = best_time(lambda: np.copyto(dst, src), repeat=5)
    return 2 * src.nbytes / t


def main():
    t0 = time.perf_counter()
    arm = mesh_from_alpha(ExampleArm.alpha(), tolerance=1.0, spacing=12.0, joints=[ExampleArm.elbow, ExampleArm.wrist],
                          joint_spacing=6.0, joint_radius=50.0)
    t_mesh_first = time.perf_counter() - t0
    t_mesh = best_time(lambda: mesh_from_alpha(ExampleArm.alpha(), tolerance=1.0, spacing=12.0,
                                               joints=[ExampleArm.elbow, ExampleArm.wrist], joint_spacing=6.0,
                                               joint_radius=50.0), repeat=3)
    dense = mesh_from_alpha(ExampleArm.alpha(), tolerance=0.5, spacing=2.9)
    t_dense = best_time(lambda: mesh_from_alpha(ExampleArm.alpha(), tolerance=0.5, spacing=2.9), repeat=1)
    t_w = best_time(lambda: automatic_weights(arm.vertices, arm.triangles, ExampleArm.bones, blend_width=40.0), repeat=3)
    w_dense = automatic_weights(dense.vertices, dense.triangles, ExampleArm.bones, blend_width=40.0)
    t_wd = best_time(lambda: automatic_weights(dense.vertices, dense.triangles, ExampleArm.bones, blend_width=40.0), repeat=1)
    print("Meshing and automatic weights (bounded biharmonic, 3 bones, blend width 40 px), example arm 340x200 px")
    table([
        (f"{len(arm.vertices):,}", f"{len(arm.triangles):,}", f"{t_mesh * 1e3:.0f} ms ({t_mesh_first * 1e3:.0f} first, with scipy import)", f"{t_w * 1e3:.0f} ms"),
        (f"{len(dense.vertices):,}", f"{len(dense.triangles):,}", f"{t_dense * 1e3:.0f} ms", f"{t_wd * 1e3:.0f} ms"),
    ], ("vertices", "triangles", "mesh_from_alpha", "automatic_weights"))

    v, t = dense.vertices, dense.triangles
    idx, w = to_padded(w_dense)
    bind = np.tile(np.eye(3)[:2], (3, 1, 1))
    rng = np.random.default_rng(0)
    pivots = np.array([ExampleArm.shoulder, ExampleArm.elbow, ExampleArm.wrist])
    skins = skin_transforms(rotations_about(pivots, rng.uniform(-1, 1, (FRAMES, 3))), bind)
    g = skin_operator(v, idx, w, 3)
    n = len(v)

    world1 = rotations_about(pivots, rng.uniform(-1, 1, (1, 3)))[0]
    one = best_time(lambda: deform(g, skin_transforms(world1, bind)), repeat=2000)
    skins_list = skins[0].tolist()
    vl, il, wl = v.tolist(), idx.tolist(), w.tolist()
    loop_one = best_time(lambda: python_loop(vl, il, wl, skins_list), repeat=5)
    assert np.allclose(python_loop(vl, il, wl, skins_list), deform(g, skins[0]), atol=1e-9)

    def walk():
        for _ in deform_chunks(g, skins):
            pass

    rng_t = best_time(walk, repeat=3)
    whole = best_time(lambda: deform(g, skins), repeat=2)
    diag = best_time(lambda: worst_area_ratio(v, t, g, skins), repeat=2)
    bw = bandwidth()
    out_bytes = FRAMES * n * 2 * 8
    floor_range = out_bytes / bw
    floor_one = n * 2 * 8 / bw
    print(f"\nLinear blend skinning, {n:,} vertices, 3 bones, 4 influences; copy bandwidth {bw / 1e9:.1f} GB/s")
    table([
        ("1 frame", f"{one * 1e3:.3f} ms", f"{loop_one * 1e3:.1f} ms", f"{loop_one / one:.0f}x", f"{floor_one * 1e6:.2f} us", f"{one / floor_one:.0f}x", "< 0.2 ms"),
        (f"{FRAMES:,} frames, 32 MB blocks", f"{rng_t:.3f} s", f"{loop_one * FRAMES:.0f} s (1 frame x {FRAMES:,})", f"{loop_one * FRAMES / rng_t:.0f}x", f"{floor_range * 1e3:.0f} ms", f"{rng_t / floor_range:.1f}x", "< 0.5 s"),
        (f"{FRAMES:,} frames, materialised ({out_bytes / 1e6:.0f} MB)", f"{whole:.3f} s", "", f"{loop_one * FRAMES / whole:.0f}x", f"{floor_range * 1e3:.0f} ms", f"{whole / floor_range:.1f}x", ""),
        (f"{FRAMES:,} frames, worst area ratio", f"{diag:.3f} s", "", "", "", "", ""),
    ], ("case", "vectorised", "Python loop", "speed-up", "bandwidth floor", "over floor", "goal"))


if __name__ == "__main__":
    main()
