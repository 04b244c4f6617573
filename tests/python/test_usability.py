"""pytest suite of the fcsn package's conveniences: docstrings, reprs, dir(),
pickling, write_fclib and Solver.setup (run like test_fcsn.py)."""

import inspect
import pickle

import numpy as np
import pytest
import scipy.sparse

import fcsn

OPTION_CLASSES = [fcsn.SolverOptions, fcsn.RhoOptions, fcsn.LineSearchOptions,
                  fcsn.LinearSolverOptions, fcsn.NsgsOptions,
                  fcsn.HybridOptions]
RECORD_CLASSES = [fcsn.SolverSummary, fcsn.IterationRecord, fcsn.Timings,
                  fcsn.SetupSummary]


class Block:
    """One unit mass pressed on a plane (normal first) and pushed sideways
    harder than friction holds: it slips, r = (1, -0.3, 0)."""
    M = scipy.sparse.identity(3, format="csc")
    H = scipy.sparse.identity(3, format="csc")
    f = np.array([-1.0, 0.5, 0.0])
    w = np.zeros(3)
    mu = np.array([0.3])
    m_upper_triangle = False


def solved():
    return fcsn.solve(Block.M, Block.H, Block.f, Block.w, Block.mu,
                      tolerance=1e-12)


def properties(cls):
    return {name: value for name, value in vars(cls).items()
            if isinstance(value, property) and not name.startswith("_")}


@pytest.mark.parametrize("cls", OPTION_CLASSES + RECORD_CLASSES)
def test_every_class_and_attribute_is_documented(cls):
    assert cls.__doc__ and len(cls.__doc__) > 20
    fields = properties(cls)
    assert fields
    for name, prop in fields.items():
        assert prop.__doc__ and len(prop.__doc__) > 10, f"{cls.__name__}.{name}"


@pytest.mark.parametrize("cls", OPTION_CLASSES)
def test_option_docs_give_the_defaults_and_the_choices(cls):
    defaults = cls()
    for name, prop in properties(cls).items():
        value = getattr(defaults, name)
        if isinstance(value, (bool, int, float, str)):
            assert f"Default: {value!r}." in prop.__doc__, name
    assert "One of: metis, scotch" in fcsn.LinearSolverOptions.ordering.__doc__


def test_every_public_function_and_method_is_documented():
    for name in fcsn.__all__:
        item = getattr(fcsn, name)
        if inspect.isclass(item) or callable(item):
            assert item.__doc__, name
    for method in (fcsn.Solver.solve, fcsn.Solver.setup, fcsn.write_fclib,
                   fcsn.read_fclib, fcsn.make_options, fcsn.solve):
        assert method.__doc__, method.__name__
    for name, item in vars(fcsn._fcsn).items():
        if not name.startswith("_") and callable(item):
            assert item.__doc__, name


def test_help_of_solver_lists_the_options():
    text = fcsn.Solver.__doc__
    assert "tolerance: Converged iff" in text and "Default: 1e-10." in text
    assert "linear_solver: fcsn.LinearSolverOptions." in text


def test_options_repr_shows_what_changed():
    assert repr(fcsn.SolverOptions()) == "SolverOptions()"
    options = fcsn.make_options(tolerance=1e-8, formulation="jm",
                                linear_solver={"type": "eigen"})
    assert repr(options) == ("SolverOptions(formulation='jm', tolerance=1e-08, "
                             "linear_solver=LinearSolverOptions(type='eigen'))")
    assert repr(fcsn.RhoOptions()) == "RhoOptions()"


def test_result_and_record_reprs_are_readable():
    result = solved()
    assert result.converged
    assert repr(result).startswith("Result(status='converged', iterations=")
    assert repr(result).endswith("n=3, nc=1)")
    summary = repr(result.summary)
    assert summary.startswith("SolverSummary(status='converged', iterations=")
    assert ", error=" in summary and summary.endswith(", ...)")
    last = result.history[-1]
    record = repr(last)
    assert record.startswith(f"IterationRecord(phase={last.phase!r}, iteration=")
    assert "e_cone=" in record and "rho_boost=" in record
    assert repr(result.summary.timings).startswith("Timings(total=")


def test_dir_of_a_result_shows_the_summary_fields():
    names = dir(solved())
    for name in ("status", "iterations", "converged", "error", "history", "v",
                 "r", "summary"):
        assert name in names


def test_results_pickle():
    result = solved()
    copy = pickle.loads(pickle.dumps(result))
    np.testing.assert_array_equal(copy.v, result.v)
    np.testing.assert_array_equal(copy.r, result.r)
    assert copy.contact_status == result.contact_status == ["slip"]
    for name in ("status", "message", "iterations", "error", "e_eq",
                 "factorizations", "ordering_used"):
        assert getattr(copy.summary, name) == getattr(result.summary, name)
    assert copy.summary.timings.total == result.summary.timings.total
    assert len(copy.history) == len(result.history)
    assert repr(copy.history[-1]) == repr(result.history[-1])
    setup = fcsn.Solver().setup(Block)
    assert repr(pickle.loads(pickle.dumps(setup))) == repr(setup)


def test_write_fclib_round_trip(tmp_path):
    result = solved()
    path = tmp_path / "block.hdf5"
    fcsn.write_fclib(path, Block, result, title="block", description="slides")
    back = fcsn.read_fclib(path)
    assert back.title == "block" and back.description == "slides"
    assert abs(back.M - Block.M).max() == 0 and abs(back.H - Block.H).max() == 0
    for name in ("f", "w", "mu"):
        np.testing.assert_array_equal(getattr(back, name), getattr(Block, name))
    np.testing.assert_array_equal(back.solution.v, result.v)
    np.testing.assert_array_equal(back.solution.u, result.u)
    np.testing.assert_array_equal(back.solution.r, result.r)
    # A file written from what was read reads back the same.
    again = tmp_path / "again.hdf5"
    fcsn.write_fclib(again, back, (result.v, result.r))
    twice = fcsn.read_fclib(again)
    assert abs(twice.M - back.M).max() == 0 and twice.guess is None
    np.testing.assert_allclose(twice.solution.u, Block.H.T @ result.v + Block.w)


def test_write_fclib_errors_are_value_errors(tmp_path):
    with pytest.raises(ValueError, match="solution v has 2 entries"):
        fcsn.write_fclib(tmp_path / "x.hdf5", Block, (np.zeros(2), np.zeros(3)))
    with pytest.raises(ValueError):
        fcsn.write_fclib(tmp_path / "missing" / "x.hdf5", Block)
    assert not (tmp_path / "x.hdf5").exists()


def test_setup_does_the_analysis_ahead():
    solver = fcsn.Solver()
    setup = solver.setup(Block.M, Block.H, Block.f, Block.w, Block.mu)
    assert setup.ready and setup.status == "ready" and setup.message == ""
    assert setup.analyses >= 1 and setup.timings.total >= 0
    result = solver.solve(Block.M, Block.H, Block.f, Block.w, Block.mu)
    assert result.converged and result.summary.analyses == 0
    assert solver.setup(Block).analyses == 0


def test_setup_rejects_invalid_input():
    with pytest.raises(ValueError, match="mu"):
        fcsn.Solver().setup(Block.M, Block.H, Block.f, Block.w, -Block.mu)
