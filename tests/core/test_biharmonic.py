"""The fast bounded biharmonic solve: coarse-to-fine warm starts give the exact KKT point,
the two-bone shortcut solves the second problem, progress reports and cancel stops."""
from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import minimize

from rigeditor.core import biharmonic
from rigeditor.core.mesh import edges_of, mesh_from_alpha
from rigeditor.core.mesh.shapes import ExampleArm, ExampleFingers
from rigeditor.core.weights import automatic_weights, bone_handles, bounded_biharmonic, cotangent_laplacian, lumped_mass


def _q(v, t):
    k = cotangent_laplacian(v, t)
    return (k @ sp.diags(1 / lumped_mass(v, t)) @ k).tocsr()


def _assert_kkt(v, t, labels, w):
    """KKT of min ½ wᵀQw with the handles fixed and 0 <= w <= 1: the gradient vanishes
    strictly inside, is >= 0 at 0 and <= 0 at 1. The problem is strictly convex, so this
    point is the one minimiser."""
    q = _q(v, t)
    free = labels < 0
    scale = abs(q).max()
    for j in range(w.shape[1]):
        np.testing.assert_array_equal(w[labels == j, j], 1.0)
        np.testing.assert_array_equal(w[(labels >= 0) & (labels != j), j], 0.0)
        g = (q @ w[:, j])[free]
        wj = w[free, j]
        assert np.all((wj >= 0) & (wj <= 1))
        assert np.all(np.abs(g[(wj > 1e-9) & (wj < 1 - 1e-9)]) < 1e-7 * scale)
        assert np.all(g[wj <= 1e-9] > -1e-7 * scale) and np.all(g[wj >= 1 - 1e-9] < 1e-7 * scale)


@pytest.fixture(scope="module")
def fine_arm():
    m = mesh_from_alpha(ExampleArm.alpha(), tolerance=1.0, spacing=3.0)
    assert len(m.vertices) > biharmonic.COARSEST  # big enough to be warm-started from a coarser mesh
    return m.vertices, m.triangles, bone_handles(m.vertices, ExampleArm.bones, 2.5, 40.0)


def test_the_warm_started_solve_meets_the_optimality_conditions(fine_arm):
    v, t, labels = fine_arm
    w, steps = bounded_biharmonic(v, t, labels)
    _assert_kkt(v, t, labels, w)
    assert np.any(w[labels < 0] == 0.0) and np.any(w[labels < 0] == 1.0)  # the bounds are active


def _factorised(monkeypatch):
    """Records the fill (L + U non-zeros) of every sparse factorisation: the solve's work."""
    import scipy.sparse.linalg as sla

    fill, real = [], sla.splu

    def counting(a, **kw):
        lu = real(a, **kw)
        fill.append(lu.L.nnz + lu.U.nnz)
        return lu

    monkeypatch.setattr(sla, "splu", counting)
    return fill


@pytest.fixture(scope="module")
def mid_arm():
    # ~7,700 vertices: three levels (7.7k, 2.6k, 0.9k), where predicting pays
    m = mesh_from_alpha(ExampleArm.alpha(), tolerance=0.5, spacing=1.5)
    e = edges_of(m.triangles)
    radius = 0.75 * float(np.mean(np.hypot(*(m.vertices[e[:, 1]] - m.vertices[e[:, 0]]).T)))
    return m.vertices, m.triangles, radius


def test_the_coarse_prediction_saves_work_and_changes_nothing(mid_arm, monkeypatch):
    v, t, radius = mid_arm
    labels = bone_handles(v, ExampleArm.bones, radius, 40.0)
    fill = _factorised(monkeypatch)
    warm, _ = bounded_biharmonic(v, t, labels)
    warm_fill = sum(fill)
    fill.clear()
    monkeypatch.setattr(biharmonic, "COARSEST", 10**9)  # every level cold
    cold, _ = bounded_biharmonic(v, t, labels)
    np.testing.assert_allclose(warm, cold, atol=1e-9)
    assert warm_fill < 0.6 * sum(fill)


def test_the_fast_solve_gives_the_plain_active_set_s_answer(mid_arm, monkeypatch):
    # Six bones (three overlap, so no bone is derived) with every shortcut on, against the
    # plain active set: cold, every step a new factorisation, no bands, nothing derived or
    # predicted. Both are the one KKT point: they agree to 1e-8 (measured: 1.2e-12).
    v, t, radius = mid_arm
    labels = bone_handles(v, _six_bones(), radius, 40.0)
    fast, _ = bounded_biharmonic(v, t, labels)
    _assert_kkt(v, t, labels, fast)
    for name, value in [("COARSEST", 10**9), ("_BAND_RINGS", 0), ("_derived_last", lambda *args: None)]:
        monkeypatch.setattr(biharmonic, name, value)
    monkeypatch.setattr(biharmonic._Dirichlet, "MAX_NEW", -1)
    plain, _ = bounded_biharmonic(v, t, labels)
    np.testing.assert_allclose(fast, plain, atol=1e-8)


def test_a_band_settled_step_changes_the_steps_not_the_answer(fine_arm, monkeypatch):
    v, t, labels = fine_arm
    banded, steps = bounded_biharmonic(v, t, labels)
    monkeypatch.setattr(biharmonic, "_BAND_RINGS", 0)
    plain, plain_steps = bounded_biharmonic(v, t, labels)
    np.testing.assert_allclose(banded, plain, atol=1e-9)
    assert sum(steps) < sum(plain_steps)


def test_bordering_the_last_factorisation_gives_what_a_new_one_gives(fine_arm, monkeypatch):
    # The active set's small last steps reuse the previous factorisation through a Schur
    # complement; refactorising every step must give the same weights and steps.
    v, t, labels = fine_arm
    bordered, steps = bounded_biharmonic(v, t, labels)
    monkeypatch.setattr(biharmonic._Dirichlet, "MAX_NEW", -1)
    fresh, fresh_steps = bounded_biharmonic(v, t, labels)
    np.testing.assert_allclose(bordered, fresh, atol=1e-9)
    assert steps == fresh_steps


def test_a_prediction_across_a_gap_still_gives_the_exact_answer(monkeypatch):
    # Clusters a few pixels wide can bridge the 6 px gap between the fingers on the
    # coarse levels; the fine answer must not notice.
    m = mesh_from_alpha(ExampleFingers.alpha(), tolerance=1.0, spacing=3.0)
    v, t = m.vertices, m.triangles
    labels = bone_handles(v, ExampleFingers.bones, 2.5)
    monkeypatch.setattr(biharmonic, "COARSEST", 200)
    warm, _ = bounded_biharmonic(v, t, labels)
    _assert_kkt(v, t, labels, warm)
    finger_a = (v[:, 0] < ExampleFingers.gap[0]) & (v[:, 1] < 150)
    assert np.all(warm[finger_a, 2] == 0.0)


def test_the_objective_matches_a_generic_bounded_minimiser(monkeypatch):
    # A small mesh solved coarse to fine (the threshold lowered) against L-BFGS-B on the
    # same quadratic: nothing feasible is lower, and the minimisers agree.
    m = mesh_from_alpha(ExampleArm.alpha(), tolerance=1.0, spacing=16.0)
    v, t = m.vertices, m.triangles
    labels = bone_handles(v, ExampleArm.bones, 6.0, 40.0)
    monkeypatch.setattr(biharmonic, "COARSEST", 40)
    w, _ = bounded_biharmonic(v, t, labels)
    q = _q(v, t)
    free = np.nonzero(labels < 0)[0]
    for j in range(3):
        def energy(x, j=j):
            full = np.where(labels == j, 1.0, 0.0)
            full[free] = x
            g = q @ full
            return 0.5 * full @ g, g[free]

        ref = minimize(energy, np.full(len(free), 0.5), jac=True, method="L-BFGS-B", bounds=[(0, 1)] * len(free),
                       options=dict(maxiter=20000, ftol=1e-15, gtol=1e-12))
        ours = energy(w[free, j])[0]
        assert ours <= ref.fun + 1e-9 * abs(ref.fun)
        np.testing.assert_allclose(w[free, j], ref.x, atol=2e-3)


def test_two_bones_take_one_solve_and_the_second_is_still_optimal():
    alpha = np.zeros((60, 200))
    alpha[10:50, 10:190] = 1.0
    m = mesh_from_alpha(alpha, tolerance=1.0, spacing=4.0)
    v, t = m.vertices, m.triangles
    bones = np.array([[(15.0, 30.0), (100.0, 30.0)], [(100.0, 30.0), (185.0, 30.0)]])
    labels = bone_handles(v, bones, 3.0, 40.0)
    w, steps = bounded_biharmonic(v, t, labels)
    assert steps[1] == 0 and steps[0] > 0
    _assert_kkt(v, t, labels, w)  # checks the derived column on its own problem


def test_progress_rises_to_one_and_cancel_stops_the_solve(fine_arm):
    v, t, labels = fine_arm
    seen = []
    bounded_biharmonic(v, t, labels, progress=seen.append)
    assert len(seen) >= 3 and seen[-1] == 1.0
    assert np.all(np.diff(seen) >= 0) and 0 <= seen[0] < 0.2
    asked = []

    def cancel():
        asked.append(1)
        return len(asked) >= 3

    with pytest.raises(biharmonic.Cancelled):
        automatic_weights(v, t, ExampleArm.bones, blend_width=40.0, cancel=cancel)
    assert len(asked) >= 3
    # a cancel that never says yes changes nothing
    w = automatic_weights(v, t, ExampleArm.bones, blend_width=40.0, cancel=lambda: False)
    np.testing.assert_array_equal(w, automatic_weights(v, t, ExampleArm.bones, blend_width=40.0))


def test_a_nonsense_prediction_still_gives_the_exact_answer(fine_arm, monkeypatch):
    # Clusters drawn at random make a coarse "mesh" that predicts nothing useful (or is
    # singular); the fine solve must still end at its own KKT point.
    v, t, labels = fine_arm
    real = biharmonic.cluster_mesh

    def scrambled(vertices, triangles, labels, ratio=3.0):
        vc, tc, lc, cluster = real(vertices, triangles, labels, ratio)
        return vc, tc, lc, np.random.default_rng(1).permutation(cluster)

    monkeypatch.setattr(biharmonic, "cluster_mesh", scrambled)
    w, _ = bounded_biharmonic(v, t, labels)
    _assert_kkt(v, t, labels, w)


def test_a_failing_bone_solve_raises_its_own_error(fine_arm, monkeypatch):
    v, t, labels = fine_arm
    real = biharmonic._active_set

    def failing(q, target, *args):
        if len(target) == len(labels) and target[labels == 1].any():  # bone 1 on the full mesh
            raise ValueError("bone 1 broke")
        return real(q, target, *args)

    monkeypatch.setattr(biharmonic, "_active_set", failing)
    with pytest.raises(ValueError, match="bone 1 broke"):
        bounded_biharmonic(v, t, labels)


def _six_bones():
    """The example arm's three bones each split at its middle: where the halves' blends
    overlap, a vertex sees three bones' weights, and these do not sum to 1."""
    bones = np.asarray(ExampleArm.bones, float)
    return np.array([seg for head, tail in bones for seg in ([head, (head + tail) / 2], [(head + tail) / 2, tail])])


def test_a_chain_s_last_bone_is_one_minus_the_others_and_optimal(fine_arm, monkeypatch):
    # Along the arm's three bones every vertex sees at most two weights, so 1 - w0 - w1
    # meets the last bone's own optimality conditions: it is taken without a solve, and
    # solving it gives the same weights.
    v, t, labels = fine_arm
    w, steps = bounded_biharmonic(v, t, labels)
    assert steps[2] == 0 and steps[0] > 0 and steps[1] > 0
    _assert_kkt(v, t, labels, w)
    monkeypatch.setattr(biharmonic, "_derived_last", lambda *args: None)
    solved, solved_steps = bounded_biharmonic(v, t, labels)
    assert solved_steps[2] > 0
    np.testing.assert_allclose(w, solved, atol=1e-8)


def test_where_three_bones_overlap_the_last_one_is_solved():
    m = mesh_from_alpha(ExampleArm.alpha(), tolerance=1.0, spacing=3.0)
    v, t = m.vertices, m.triangles
    labels = bone_handles(v, _six_bones(), 2.5, 40.0)
    w, steps = bounded_biharmonic(v, t, labels)
    assert steps[5] > 0
    assert np.abs(w.sum(axis=1) - 1).max() > 1e-3  # the sum really is not 1: 1 - others would be wrong
    _assert_kkt(v, t, labels, w)
