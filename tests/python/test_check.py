"""fcsn.check: the library's criterion at a given answer, and the per-contact
labels of a solve (both sides of the law)."""
import os
import pathlib

import numpy as np
import pytest
import scipy.sparse as sp

import fcsn

REPO = pathlib.Path(__file__).resolve().parents[2]
SHARED = pathlib.Path(os.environ.get("FCSN_SHARED_DIR", REPO / ".." / "shared"))
DATA = SHARED / "data" / "gfc3d"


def shared(name):
    path = DATA / name
    if not path.exists():
        pytest.skip(f"shared data {path} not found (set FCSN_SHARED_DIR)")
    return fcsn.read_fclib(path)


def test_check_agrees_with_the_solve():
    problem = shared("GFC3D_TwoRods1.hdf5")
    result = fcsn.Solver(tolerance=1e-10).solve(
        problem.M, problem.H, problem.f, problem.w, problem.mu)
    assert result.converged
    measures = fcsn.check(problem, result, tol=1e-10)
    assert measures["converged"]
    assert measures["error"] == pytest.approx(result.summary.error, rel=1e-6,
                                              abs=1e-15)
    assert measures["velocity_floor"] > 0
    assert measures["velocity_scale"] >= measures["velocity_floor"]
    assert result.summary.velocity_floor == pytest.approx(
        measures["velocity_floor"], rel=1e-6)


def test_check_rejects_a_perturbed_answer():
    problem = shared("GFC3D_TwoRods1.hdf5")
    result = fcsn.solve(problem.M, problem.H, problem.f, problem.w,
                        problem.mu)
    r = result.r + 0.01 * np.linalg.norm(result.r)
    measures = fcsn.check(problem, (result.v, r), tol=1e-8)
    assert not measures["converged"]
    assert measures["error"] > 1e-8


class _OneBlock:
    """A unit mass on a plane (frame N = z, T1 = x, T2 = y), pushed along x
    harder than friction holds: it slides."""
    def __init__(self, push):
        self.M = sp.identity(3, format="csc")
        self.H = sp.csc_matrix(np.array([[0.0, 1.0, 0.0],
                                         [0.0, 0.0, 1.0],
                                         [1.0, 0.0, 0.0]]))
        self.f = np.array([push, 0.0, -1.0])
        self.w = np.zeros(3)
        self.mu = np.array([0.5])


def test_labels_of_a_sliding_and_a_sticking_block():
    for push, label in ((2.0, "slip"), (0.1, "stick")):
        block = _OneBlock(push)
        result = fcsn.solve(block.M, block.H, block.f, block.w, block.mu)
        assert result.converged
        assert result.contact_status == [label]
        assert fcsn.check(block, result)["converged"]
