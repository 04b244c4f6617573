"""pytest suite of the fcsn Python package (python/fcsn).

Run by ctest (tests/python/CMakeLists.txt) with PYTHONPATH on the built
package, FCSN_CLI the C++ command and FCSN_SHARED_DIR the shared data; by hand:
    PYTHONPATH=build/python FCSN_CLI=build/bin/fcsn /usr/bin/python3 -m pytest tests/python
"""

import json
import math
import os
import pathlib
import subprocess

import numpy as np
import pytest
import scipy.sparse

import fcsn

REPO = pathlib.Path(__file__).resolve().parents[2]
SHARED = pathlib.Path(os.environ.get("FCSN_SHARED_DIR", REPO / ".." / "shared"))
DATA = SHARED / "data" / "gfc3d"
CLI = pathlib.Path(os.environ.get("FCSN_CLI", REPO / "build" / "bin" / "fcsn"))

# Small shared problems of every kind: full M, upper-triangle M (CubeH8),
# rigid and hyperstatic (Box_Stacks).
FILES = ["GFC3D_TwoRods1.hdf5", "GFC3D_OneContact.hdf5", "CubeH8.hdf5",
         "Box_Stacks-i0122-82-5.hdf5"]


def problem_path(name):
    path = DATA / name
    if not path.exists():
        pytest.skip(f"shared data {path} not found (set FCSN_SHARED_DIR)")
    return path


def close(a, b):
    """Equal up to round-off of the measures (they are O(1e-16) at best)."""
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-15)


def test_the_package_under_test_is_the_installed_one():
    """scripts/test_python_package.sh sets FCSN_PYTHON_SITE to the pip target
    folder: the suite must not pick up a module of the build or source tree."""
    site = os.environ.get("FCSN_PYTHON_SITE")
    if not site:
        pytest.skip("FCSN_PYTHON_SITE not set (not run on a pip install)")
    assert pathlib.Path(fcsn.__file__).resolve().is_relative_to(
        pathlib.Path(site).resolve())


def test_version_is_the_projects():
    cmake = (REPO / "CMakeLists.txt").read_text()
    assert f"project(fcsn VERSION {fcsn.__version__} " in cmake


def test_build_info_names_versions_and_the_loaded_blas():
    info = fcsn.build_info()
    assert info["version"] == fcsn.__version__
    assert info["mumps_version"].startswith("5.")
    assert info["mumps_flavor"] in ("seq", "mpi")
    # The module's OpenBLAS is found from inside the extension, which Python
    # loads privately (linalg/blas_threads.cc).
    if info["blas"]:
        assert "OpenBLAS" in info["blas"] and info["blas_kernel"]
        assert info["blas_threads"] >= 1
    assert isinstance(info["blas_kernel_below_cpu"], bool)


def test_read_fclib_gives_scipy_and_numpy():
    p = fcsn.read_fclib(problem_path("GFC3D_TwoRods1.hdf5"))
    assert scipy.sparse.isspmatrix_csc(p.M) and scipy.sparse.isspmatrix_csc(p.H)
    assert p.M.shape == (54, 54) and p.H.shape == (54, 9)
    assert p.f.shape == (54,) and p.w.shape == (9,) and p.mu.shape == (3,)
    assert p.nc == 3 and p.n == 54
    assert abs(p.M - p.M.T).max() <= 1e-12 * abs(p.M).max()
    assert not p.m_upper_triangle


def test_read_fclib_upper_triangle_storage():
    path = problem_path("CubeH8.hdf5")
    full = fcsn.read_fclib(path)
    assert full.m_stored_as_upper_triangle and not full.m_upper_triangle
    assert abs(full.M - full.M.T).max() == 0.0
    stored = fcsn.read_fclib(path, m_storage="as-stored")
    assert scipy.sparse.tril(stored.M, k=-1).nnz == 0
    upper = scipy.sparse.triu(full.M)
    assert abs(stored.M - upper).max() == 0.0


@pytest.mark.parametrize("name", FILES)
def test_solve_matches_the_cli(name, tmp_path):
    path = problem_path(name)
    if not CLI.exists():
        pytest.skip(f"{CLI} not built (set FCSN_CLI)")
    out = tmp_path / "solved.hdf5"
    run = subprocess.run([str(CLI), "solve", str(path), "--json", "--output",
                          str(out)], capture_output=True, text=True, check=False)
    assert run.returncode in (0, 1), run.stderr
    cli = json.loads(run.stdout)

    p = fcsn.read_fclib(path)
    result = fcsn.solve(p.M, p.H, p.f, p.w, p.mu)
    assert result.status == cli["status"]
    assert result.converged == cli["converged"]
    assert result.iterations == cli["iterations"]
    assert result.nsgs_sweeps == cli["nsgs_sweeps"]
    for key in ("e_cone", "e_dual", "e_comp", "e_eq", "error"):
        assert close(getattr(result, key), cli[key]), key
    assert len(result.history) == len(cli["history"])
    written = fcsn.read_fclib(out).solution
    scale_v = max(np.abs(written.v).max(), 1e-300)
    scale_r = max(np.abs(written.r).max(), 1e-300)
    assert np.abs(result.v - written.v).max() <= 1e-12 * scale_v
    assert np.abs(result.r - written.r).max() <= 1e-12 * scale_r
    np.testing.assert_allclose(result.u, p.H.T @ result.v + p.w,
                               rtol=1e-12, atol=1e-12 * np.abs(result.u).max())
    assert len(result.contact_status) == p.nc
    assert set(result.contact_status) <= {"take-off", "stick", "slip"}


def test_solver_keeps_the_analysis_across_solves():
    p = fcsn.read_fclib(problem_path("CubeH8.hdf5"))
    solver = fcsn.Solver(solver="nsn", tolerance=1e-10)
    first = solver.solve(p.M, p.H, p.f, p.w, p.mu)
    # A new step: same patterns, new values (the arrays are new objects).
    second = solver.solve(1.5 * p.M, p.H.copy(), 0.5 * p.f, p.w, p.mu,
                          guess=first)
    assert first.converged and second.converged
    assert first.summary.analyses == 1
    assert second.summary.analyses == 0
    assert solver.pattern_rebuilds == 1
    # A changed pattern is rebuilt (and analysed) again.
    grown = p.M.tolil()
    grown[0, p.n - 1] = grown[p.n - 1, 0] = 1e-9 * abs(p.M).max()
    third = solver.solve(grown.tocsc(), p.H, p.f, p.w, p.mu)
    assert third.converged and third.summary.analyses == 1
    assert solver.pattern_rebuilds == 2


def test_exact_guess_needs_no_newton_iteration():
    p = fcsn.read_fclib(problem_path("GFC3D_OneContact.hdf5"))
    solver = fcsn.Solver(solver="nsn")
    first = solver.solve(p.M, p.H, p.f, p.w, p.mu)
    again = solver.solve(p.M, p.H, p.f, p.w, p.mu, guess=(first.v, first.r))
    assert first.converged and first.iterations > 0
    assert again.converged and again.iterations == 0


def test_csr_coo_dense_and_int64_inputs_give_the_same_answer():
    p = fcsn.read_fclib(problem_path("GFC3D_TwoRods1.hdf5"))
    ref = fcsn.solve(p.M, p.H, p.f, p.w, p.mu, solver="nsn")
    assert ref.converged

    def int64(a):
        a = a.copy()
        a.indices = a.indices.astype(np.int64)
        a.indptr = a.indptr.astype(np.int64)
        return a

    variants = [(p.M.tocsr(), p.H.tocsr()), (p.M.tocoo(), p.H.tocoo()),
                (p.M.toarray(), p.H.toarray()), (int64(p.M), int64(p.H.tocsr())),
                (scipy.sparse.csc_array(p.M), scipy.sparse.coo_array(p.H)),
                (p.M.todok(), p.H.tolil())]
    for M, H in variants:
        result = fcsn.solve(M, H, p.f, p.w, p.mu, solver="nsn")
        assert result.iterations == ref.iterations, type(M)
        np.testing.assert_array_equal(result.v, ref.v)
        np.testing.assert_array_equal(result.r, ref.r)


def test_coo_duplicates_are_summed():
    p = fcsn.read_fclib(problem_path("GFC3D_TwoRods1.hdf5"))
    c = p.M.tocoo()
    halves = scipy.sparse.coo_matrix(
        (np.concatenate([0.5 * c.data, 0.5 * c.data]),
         (np.concatenate([c.row, c.row]), np.concatenate([c.col, c.col]))),
        shape=c.shape)
    a = fcsn.solve(p.M, p.H, p.f, p.w, p.mu, solver="nsn")
    b = fcsn.solve(halves, p.H, p.f, p.w, p.mu, solver="nsn")
    np.testing.assert_array_equal(a.v, b.v)


def one_line_value_error(call, *words):
    with pytest.raises(ValueError) as info:
        call()
    message = str(info.value)
    assert "\n" not in message, message
    for word in words:
        assert word in message, message


def test_bad_inputs_raise_value_error():
    p = fcsn.read_fclib(problem_path("GFC3D_TwoRods1.hdf5"))
    f_nan = p.f.copy()
    f_nan[3] = np.nan
    one_line_value_error(lambda: fcsn.solve(p.M, p.H, f_nan, p.w, p.mu), "f", "NaN")
    one_line_value_error(lambda: fcsn.solve(p.M, p.H, p.f, p.w[:-1], p.mu), "w has")
    one_line_value_error(lambda: fcsn.solve(p.M, p.H, p.f, p.w, -p.mu), "negative")
    one_line_value_error(lambda: fcsn.solve(p.M[:, :-1], p.H, p.f, p.w, p.mu),
                         "square")
    bad = p.M.copy()
    bad.indices = bad.indices.copy()
    bad.indices[0] = p.n + 5
    one_line_value_error(lambda: fcsn.solve(bad, p.H, p.f, p.w, p.mu), "outside")
    bad = p.M.copy()
    bad.indptr = bad.indptr.copy()
    bad.indptr[2], bad.indptr[3] = bad.indptr[3], bad.indptr[2] - 1
    one_line_value_error(lambda: fcsn.solve(bad, p.H, p.f, p.w, p.mu), "decrease")
    one_line_value_error(lambda: fcsn.solve(p.M, p.H, p.f, p.w, p.mu,
                                            guess=(p.f[:-1], p.w)), "guess v")
    one_line_value_error(lambda: fcsn.solve(p.M, p.H, p.f, p.w, p.mu,
                                            formulation="xx"), "formulation", "ac")
    one_line_value_error(lambda: fcsn.solve(p.M, p.H, p.f, p.w, p.mu,
                                            tolerance=-1.0), "tolerance")
    one_line_value_error(lambda: fcsn.Solver(no_such_option=1), "no_such_option")
    one_line_value_error(lambda: fcsn.Solver(rho={"nope": 1}), "rho.nope")
    one_line_value_error(lambda: fcsn.read_fclib(DATA / "missing.hdf5"),
                         "missing.hdf5")
    one_line_value_error(lambda: fcsn.read_fclib(__file__), "test_fcsn.py")


def test_options_are_the_cpp_fields():
    o = fcsn.make_options(formulation="jm", tolerance=1e-8,
                          linear_solver={"type": "eigen", "ordering": "amd"},
                          rho={"rule": "constant", "value": 2.0})
    assert o.formulation == "jm" and o.tolerance == 1e-8
    assert o.linear_solver.type == "eigen" and o.linear_solver.ordering == "amd"
    assert o.rho.rule == "constant" and o.rho.value == 2.0
    defaults = fcsn.SolverOptions()
    assert defaults.solver == "hybrid" and defaults.formulation == "ac"
    # make_options copies: the given options are left unchanged.
    fcsn.make_options(defaults, tolerance=1e-4)
    assert defaults.tolerance == 1e-10
    p = fcsn.read_fclib(problem_path("GFC3D_Example1.hdf5"))
    result = fcsn.solve(p.M, p.H, p.f, p.w, p.mu, options=o)
    assert result.converged and result.error <= 1e-8
    assert all(record.phase in ("newton", "nsgs") for record in result.history)


def test_cold_start_reaches_the_solver():
    # CubeH8 (w = 0): free flight skips the zero start's first step; an
    # unknown start is a ValueError.
    p = fcsn.read_fclib(problem_path("CubeH8.hdf5"))
    iterations = {}
    for start in ("zero", "free-flight"):
        o = fcsn.make_options(solver="nsn", cold_start=start)
        assert o.cold_start == start
        result = fcsn.solve(p.M, p.H, p.f, p.w, p.mu, options=o)
        assert result.converged
        iterations[start] = result.iterations
    assert iterations["free-flight"] == iterations["zero"] - 1
    assert fcsn.SolverOptions().cold_start == "auto"
    with pytest.raises(ValueError):
        fcsn.make_options(cold_start="warm")


def test_krylov_reuse_reaches_the_solver():
    # Auto by default (-1), which is off on a problem this small; on,
    # Example1 (Newton) reuses factors for some directions and converges.
    assert fcsn.AUTO_KRYLOV_REUSE == -1
    o = fcsn.SolverOptions()
    assert o.krylov_reuse_iterations == fcsn.AUTO_KRYLOV_REUSE
    p = fcsn.read_fclib(problem_path("GFC3D_Example1.hdf5"))
    off = fcsn.solve(p.M, p.H, p.f, p.w, p.mu,
                     options=fcsn.make_options(solver="nsn"))
    assert off.summary.reused_factor_directions == 0
    assert off.summary.krylov_iterations == 0
    o = fcsn.make_options(solver="nsn", krylov_reuse_iterations=20)
    assert o.krylov_reuse_iterations == 20
    on = fcsn.solve(p.M, p.H, p.f, p.w, p.mu, options=o)
    assert on.converged and on.error <= o.tolerance
    assert on.summary.krylov_iterations >= on.summary.reused_factor_directions


def test_an_all_zero_guess_is_no_guess():
    # CubeH8 rests (w = 0): the default auto start closes its contacts and
    # saves an iteration over the zero start; a guess of exactly zero counts
    # as none, so it starts the same way.
    p = fcsn.read_fclib(problem_path("CubeH8.hdf5"))
    o = fcsn.make_options(solver="nsn")
    none = fcsn.solve(p.M, p.H, p.f, p.w, p.mu, options=o)
    zero_guess = (np.zeros(p.M.shape[0]), np.zeros(p.H.shape[1]))
    zero = fcsn.solve(p.M, p.H, p.f, p.w, p.mu, options=o, guess=zero_guess)
    zero_start = fcsn.solve(p.M, p.H, p.f, p.w, p.mu,
                            options=fcsn.make_options(o, cold_start="zero"))
    assert none.converged and zero.converged and zero_start.converged
    assert zero.iterations == none.iterations < zero_start.iterations


def test_memory_options_reach_mumps_and_are_reported(tmp_path):
    # Block low-rank factors (tolerance 1e-8) written out of core into
    # tmp_path: converged, the factorization figures reported, no file left.
    o = fcsn.make_options(solver="nsn", linear_solver={
        "low_rank_tolerance": 1e-8, "out_of_core": True,
        "out_of_core_directory": str(tmp_path)})
    assert o.linear_solver.low_rank_tolerance == 1e-8
    assert o.linear_solver.out_of_core
    assert not o.linear_solver.adaptive_block_ordering
    assert fcsn.make_options(linear_solver={
        "adaptive_block_ordering": True}).linear_solver.adaptive_block_ordering
    p = fcsn.read_fclib(problem_path("CubeH8.hdf5"))
    result = fcsn.solve(p.M, p.H, p.f, p.w, p.mu, options=o)
    s = result.summary
    assert result.converged and s.factorizations > 0
    assert 0 < s.compressed_factor_entries <= s.factor_entries
    assert 0 < s.last_factorization_effective_flops <= s.last_factorization_flops
    assert s.estimated_memory_mb > 0 and s.factorization_memory_mb >= 0
    assert s.out_of_core_disk_mb > 0
    assert list(tmp_path.iterdir()) == []


def test_w_none_means_zero():
    p = fcsn.read_fclib(problem_path("GFC3D_TwoRods1.hdf5"))
    a = fcsn.solve(p.M, p.H, p.f, None, p.mu)
    b = fcsn.solve(p.M, p.H, p.f, np.zeros_like(p.w), p.mu)
    np.testing.assert_array_equal(a.v, b.v)


@pytest.mark.parametrize("readme_path", ["python/README.md", "README.md"])
def test_readme_loop_is_a_copy_of_the_tested_example(readme_path):
    readme = (REPO / readme_path).read_text()
    block = readme.split("```python\n", 1)[1].split("```", 1)[0]
    example = [line.strip() for line in
               (REPO / "examples" / "python" / "sliding_bar.py").read_text().splitlines()]
    position = 0
    for line in filter(None, (line.strip() for line in block.splitlines())):
        assert line in example[position:], f"README line not in the example (in order): {line}"
        position = example.index(line, position) + 1


def test_inputs_are_viewed_without_copies():
    p = fcsn.read_fclib(problem_path("GFC3D_TwoRods1.hdf5"))
    for a in (p.M, p.M.tocsr(), p.M.tocoo(), scipy.sparse.csr_array(p.M)):
        spec = fcsn._matrix_spec("M", a)
        assert np.shares_memory(spec[3], a.data)
        if a.format == "coo":
            assert np.shares_memory(spec[4], a.row)
            assert np.shares_memory(spec[5], a.col)
        else:
            assert np.shares_memory(spec[4], a.indices)
            assert np.shares_memory(spec[5], a.indptr)
    assert np.shares_memory(fcsn._vector("f", p.f), p.f)


def test_upper_triangle_input_solves_the_symmetric_problem():
    path = problem_path("CubeH8.hdf5")
    full = fcsn.read_fclib(path)
    stored = fcsn.read_fclib(path, m_storage="as-stored")
    a = fcsn.solve(full.M, full.H, full.f, full.w, full.mu)
    b = fcsn.solve(stored.M, stored.H, stored.f, stored.w, stored.mu,
                   m_upper_triangle=True)
    assert a.converged and b.converged
    np.testing.assert_allclose(b.v, a.v, rtol=1e-8, atol=1e-10 * np.abs(a.v).max())
    # The triangle solved as stored is another problem (CubeH8 then slides).
    c = fcsn.solve(stored.M, stored.H, stored.f, stored.w, stored.mu)
    assert a.contact_status != c.contact_status
    one_line_value_error(
        lambda: fcsn.solve(full.M, full.H, full.f, full.w, full.mu,
                           m_upper_triangle=True), "below the diagonal")


def test_iteration_callback_sees_records_and_can_abort():
    p = fcsn.read_fclib(problem_path("CubeH8.hdf5"))
    seen = []
    result = fcsn.solve(p.M, p.H, p.f, p.w, p.mu, solver="nsn",
                        iteration_callback=seen.append)
    assert result.converged and len(seen) == len(result.history) > 1
    assert [r.iteration for r in seen] == [r.iteration for r in result.history]
    aborted = fcsn.solve(p.M, p.H, p.f, p.w, p.mu, solver="nsn",
                         iteration_callback=lambda record: True)
    assert aborted.status == "aborted" and not aborted.converged

    def fails(record):
        raise KeyError("from the callback")

    with pytest.raises(KeyError, match="from the callback"):
        fcsn.solve(p.M, p.H, p.f, p.w, p.mu, solver="nsn",
                   iteration_callback=fails)
    one_line_value_error(lambda: fcsn.Solver(iteration_callback=3), "callable")
    options = fcsn.make_options(iteration_callback=seen.append)
    assert options.iteration_callback == seen.append


def test_solver_options_change_through_the_setter_only():
    p = fcsn.read_fclib(problem_path("GFC3D_OneContact.hdf5"))
    solver = fcsn.Solver(solver="nsn", max_iterations=1)
    solver.options.max_iterations = 50      # a copy: no effect
    assert solver.options.max_iterations == 1
    assert solver.solve(p.M, p.H, p.f, p.w, p.mu).status == "max-iterations"
    solver.options = fcsn.make_options(solver.options, max_iterations=50)
    assert solver.solve(p.M, p.H, p.f, p.w, p.mu).converged
    with pytest.raises(ValueError, match="tolerance"):
        bad = fcsn.SolverOptions()
        bad.tolerance = 2.0
        solver.options = bad


def test_hostile_arrays_are_rejected_before_they_are_read():
    p = fcsn.read_fclib(problem_path("GFC3D_TwoRods1.hdf5"))
    M = p.M

    def solve_with(spec):
        return p_solver.solve(spec, fcsn._matrix_spec("H", p.H), p.f, p.w, p.mu,
                              False, None, None)

    p_solver = fcsn._fcsn.Solver(fcsn.SolverOptions())
    data, indices, indptr = M.data, M.indices, M.indptr
    one_line_value_error(lambda: solve_with(("csc", 54, 54, data, indices, indptr[:-1])),
                         "indptr has")
    long_ptr = indptr.copy()
    long_ptr[-1] = indices.size + 10
    one_line_value_error(lambda: solve_with(("csc", 54, 54, data, indices, long_ptr)),
                         "exceeds the length")
    c = M.tocoo()
    one_line_value_error(lambda: solve_with(("coo", 54, 54, c.data, c.row[:-1], c.col)),
                         "same length")
    one_line_value_error(lambda: solve_with(("csc", 54, 54, data.astype(np.float32),
                                             indices, indptr)), "float64")
    one_line_value_error(lambda: solve_with(("csc", 54, 54, data,
                                             indices.astype(np.int16), indptr)), "int32")
    one_line_value_error(lambda: solve_with(("bsr", 54, 54, data, indices, indptr)),
                         "csc, csr or coo")
    one_line_value_error(lambda: fcsn.solve(np.ones(3), p.H, p.f, p.w, p.mu), "matrix")
    one_line_value_error(lambda: fcsn.solve(M * 1j, p.H, p.f, p.w, p.mu), "complex")


def _write_fclib(path, M, H, f, w, mu, storage):
    """An FCLib global file written with h5py alone (an implementation independent of fcsn's
    writer): M and H as CSC (nz = -1), CSR (nz = -2) or triplets (nz = count)."""
    import h5py

    def put(group, A):
        if storage == "csc":
            A = scipy.sparse.csc_matrix(A)
            p, i, nz = A.indptr, A.indices, -1
        elif storage == "csr":
            A = scipy.sparse.csr_matrix(A)
            p, i, nz = A.indptr, A.indices, -2
        else:
            A = scipy.sparse.coo_matrix(A)
            p, i, nz = A.col, A.row, A.nnz  # FCLib triplets: i rows, p columns
        group["m"], group["n"] = np.int32(A.shape[0]), np.int32(A.shape[1])
        group["nz"], group["nzmax"] = np.int32(nz), np.int32(A.nnz)
        group["p"], group["i"] = p.astype(np.int32), i.astype(np.int32)
        group["x"] = A.data.astype(np.float64)

    with h5py.File(path, "w") as out:
        g = out.create_group("fclib_global")
        g["spacedim"] = np.int32(3)
        put(g.create_group("M"), M)
        put(g.create_group("H"), H)
        vectors = g.create_group("vectors")
        vectors["f"], vectors["w"], vectors["mu"] = f, w, mu


@pytest.mark.parametrize("storage", ["csc", "csr", "triplets"])
def test_reader_decodes_files_written_by_h5py(tmp_path, storage):
    pytest.importorskip("h5py")
    rng = np.random.default_rng(7)
    n, nc = 9, 3
    B = scipy.sparse.random(n, n, density=0.3, random_state=3)
    M = (B @ B.T + 5 * scipy.sparse.identity(n)).tocsc()
    H = scipy.sparse.random(n, 3 * nc, density=0.4, random_state=4).tocsc()
    f, w, mu = rng.normal(size=n), rng.normal(size=3 * nc), np.array([0.1, 0.5, 0.9])
    path = tmp_path / f"h5py_{storage}.hdf5"
    _write_fclib(path, M, H, f, w, mu, storage)
    p = fcsn.read_fclib(str(path))
    np.testing.assert_array_equal(p.M.toarray(), M.toarray())
    np.testing.assert_array_equal(p.H.toarray(), H.toarray())
    np.testing.assert_array_equal(p.f, f)
    np.testing.assert_array_equal(p.w, w)
    np.testing.assert_array_equal(p.mu, mu)
    assert fcsn.solve(p.M, p.H, p.f, p.w, p.mu).converged
