"""Every row of the option table (fcsn/option_table.h) reaches Python: as an
attribute on its class (by its dotted path), through SolverOptions.set/get
and through make_options' nested dicts; the CLI's `fcsn options` lists the
same rows (run like test_fcsn.py)."""

import json
import os
import subprocess

import numpy as np
import pytest
import scipy.sparse

import fcsn


def _attribute(options, name):
    *groups, field = name.split(".")
    target = options
    for group in groups:
        target = getattr(target, group)
    return target, field


def _other_value(row):
    """A value of the row other than its default that validate() accepts
    (None when none of the candidates is)."""
    default = fcsn.SolverOptions().get(row["name"])
    if row["type"] == "flag":
        candidates = [not default]
    elif row["type"] == "choice":
        candidates = row["range"].removeprefix("one of: ").split(", ")
    elif row["type"] == "text":
        candidates = ["fcsn-option-test"]
    else:
        convert = int if row["type"] == "integer" else float
        finite = default not in (float("inf"), float("-inf"))
        candidates = ([default + 1, default - 1, default * 2, default / 2]
                      if finite else []) + [1.0, 0.5, 0.0]
        candidates = [convert(x) for x in candidates if convert(x) == x]
    for value in candidates:
        if value == default:
            continue
        options = fcsn.SolverOptions()
        options.set(row["name"], value)
        if options.validate() == "":
            return value
    return None


def test_every_row_reaches_its_attribute_set_get_and_make_options():
    rows = fcsn.option_table()
    assert len(rows) > 50
    assert len({row["name"] for row in rows}) == len(rows)
    for row in rows:
        value = _other_value(row)
        assert value is not None, row["name"]
        by_name = fcsn.SolverOptions()
        by_name.set(row["name"], value)
        assert by_name.get(row["name"]) == value, row["name"]
        target, field = _attribute(by_name, row["name"])
        assert getattr(target, field) == value, row["name"]
        assert row["doc"] and row["doc"] in type(target).__dict__[field].__doc__
        by_attribute = fcsn.SolverOptions()
        target, field = _attribute(by_attribute, row["name"])
        setattr(target, field, value)
        assert by_attribute.get(row["name"]) == value, row["name"]
        *groups, last = row["name"].split(".")
        kwargs = {last: value}
        for group in reversed(groups):
            kwargs = {group: kwargs}
        made = fcsn.make_options(**kwargs)
        assert made.get(row["name"]) == value, row["name"]


def test_set_and_get_refuse_unknown_names_and_wrong_types():
    options = fcsn.SolverOptions()
    with pytest.raises(ValueError, match="rho.nope"):
        options.set("rho.nope", 1.0)
    with pytest.raises(ValueError):
        options.set("solver", 1.0)
    with pytest.raises(ValueError):
        options.set("max_iterations", 1.5)
    with pytest.raises(ValueError):
        options.get("nope")
    assert options.get("solver") == "hybrid"
    assert options.get("rho.initial_boost") == 30.0


@pytest.mark.skipif(not os.environ.get("FCSN_CLI"), reason="FCSN_CLI not set")
def test_the_cli_lists_the_same_rows():
    out = subprocess.run([os.environ["FCSN_CLI"], "options", "--json"],
                         check=True, capture_output=True, text=True).stdout
    cli_rows = json.loads(out)["options"]
    assert [r["name"] for r in cli_rows] == \
        [r["name"] for r in fcsn.option_table()]


@pytest.mark.skipif(not os.environ.get("FCSN_CLI"), reason="FCSN_CLI not set")
def test_summary_attributes_are_the_report_rows():
    """The JSON report's keys (fcsn/summary_table.h rows and a few of the
    CLI's own) include every SolverSummary attribute, and each row of the
    report is an attribute: both derive from the same rows."""
    shared = os.environ.get("FCSN_SHARED_DIR", "")
    problem = os.path.join(shared, "data", "gfc3d", "CubeH8.hdf5")
    if not os.path.exists(problem):
        pytest.skip("no shared problems")
    out = subprocess.run([os.environ["FCSN_CLI"], "solve", "--json",
                          "--no-history", problem],
                         capture_output=True, text=True).stdout
    report = json.loads(out)
    summary = fcsn.solve(scipy.sparse.identity(3, format="csc"),
                         scipy.sparse.identity(3, format="csc"),
                         np.array([-1.0, 0.5, 0.0]), np.zeros(3),
                         np.array([0.3])).summary
    state = summary.__getstate__()
    for name in state:
        if name != "history":
            assert name in report, name
    # The CLI's own keys: the file, sizes, the options it solved with.
    cli_only = {"file", "n", "m", "nc", "options", "converged", "error",
                "time_s", "tol", "solver", "formulation", "local_solver",
                "line_search", "cold_start", "linear_solver", "ordering",
                "adaptive_block_ordering", "precision", "low_rank_tolerance",
                "out_of_core"}
    for key in report:
        if key not in cli_only:
            assert key in state, key
    timings = summary.timings.__getstate__()
    assert set(report["timings"]) == set(timings)
