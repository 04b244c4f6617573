"""fcsn: global frictional contact problems by semismooth Newton (Python API).

Solves, in FCLib's global notation (local frame order N, T1, T2 per contact),

    M v = H r + f,   u = H^T v + w,   K*_a ∋ u_a + mu_a ||u_T,a|| e_N  ⟂  r_a ∈ K_a

with the C++ library (MUMPS LU, analysis kept across solves). Convergence is
judged by the unit-free measures of include/fcsn/error_measures.h:
max(e_cone, e_dual, e_comp, e_eq) <= tolerance.

    import fcsn
    p = fcsn.read_fclib("problem.hdf5")            # M, H: scipy.sparse.csc_matrix
    result = fcsn.solve(p.M, p.H, p.f, p.w, p.mu, tolerance=1e-8)
    result.converged, result.status, result.v, result.r, result.e_eq

    solver = fcsn.Solver(formulation="ac")          # time stepping
    for step in steps:
        result = solver.solve(M, H, f, w, mu, guess=result if step else None)
        # result.summary.analyses == 0 once the pattern is known

Matrices: scipy.sparse csc, csr or coo (matrices or arrays) with int32 or int64
indices are viewed without copying; other sparse formats and dense numpy
arrays are converted to CSC first (a copy). Values must be float64 (others are
converted, a copy). The solver keeps its own CSC copy of M and H, refreshed
(O(nnz), no allocation) at each solve while the sparsity pattern stays the
same. Options are the fields of fcsn.SolverOptions (the C++ SolverOptions,
1:1): keyword arguments name top-level fields, nested ones are given as dicts,
e.g. tolerance=1e-8, formulation="jm", linear_solver={"type": "eigen"}.

Errors (invalid problem, options or file) raise ValueError with the library's
one-line message; a solve that does not converge returns a result whose status
says why.

Stopping and progress: the C++ solve runs with the GIL released, so other
Python threads go on meanwhile; Solver.request_stop() (from another thread)
ends it with status "aborted" and the best point. Ctrl-C stops the solve at
its next check (also during the setup; with a custom SIGINT handler, or any
other signal whose Python handler raises, at its next iteration), and the
exception (KeyboardInterrupt) propagates with the best point as exc.result,
a Result. So does an exception raised by an
iteration_callback or a log. time_limit_seconds covers the whole solve,
setup included. verbose=True prints a progress line per phase and per
iteration to sys.stdout; log=fn receives those lines instead.
"""

import sys
import textwrap

import numpy as np
import scipy.sparse

from ._fcsn import (
    AUTO_KRYLOV_REUSE,
    HybridOptions,
    IterationRecord,
    LinearSolverOptions,
    LineSearchOptions,
    NsgsOptions,
    RhoOptions,
    SetupSummary,
    SolverOptions,
    SolverSummary,
    Timings,
)
from . import _fcsn

__version__ = _fcsn.__version__
build_info = _fcsn.build_info
option_table = _fcsn.option_table

__all__ = [
    "AUTO_KRYLOV_REUSE",
    "build_info",
    "extrapolate_guess",
    "FclibProblem",
    "Guess",
    "HybridOptions",
    "IterationRecord",
    "LinearSolverOptions",
    "LineSearchOptions",
    "NsgsOptions",
    "Result",
    "RhoOptions",
    "SetupSummary",
    "Solver",
    "SolverOptions",
    "SolverSummary",
    "Timings",
    "make_options",
    "MoreauJean",
    "option_table",
    "read_fclib",
    "remap_contact_guess",
    "solve",
    "write_fclib",
]


class Guess:
    """A point (v, u, r) stored in an FCLib file (/solution or /guesses)."""

    def __init__(self, v, u, r):
        self.v, self.u, self.r = v, u, r

    def __repr__(self):
        return f"Guess(n={self.v.size}, m={self.r.size})"


class FclibProblem:
    """A problem read by read_fclib: M, H (scipy.sparse.csc_matrix), f, w, mu
    (numpy), m_upper_triangle (pass it on to solve), guess (the first
    /guesses entry or None), guesses, solution (or None), title, description,
    m_stored_as_upper_triangle (what the file stores)."""

    def __init__(self, parts):
        self.M = _scipy_csc(parts["M"])
        self.H = _scipy_csc(parts["H"])
        self.f, self.w, self.mu = parts["f"], parts["w"], parts["mu"]
        self.m_upper_triangle = parts["m_upper_triangle"]
        self.m_stored_as_upper_triangle = parts["m_stored_as_upper_triangle"]
        self.guesses = [Guess(*g) for g in parts["guesses"]]
        self.guess = self.guesses[0] if self.guesses else None
        s = parts["solution"]
        self.solution = Guess(*s) if s is not None else None
        self.title, self.description = parts["title"], parts["description"]

    @property
    def n(self):
        return self.M.shape[0]

    @property
    def nc(self):
        return self.mu.size

    def __repr__(self):
        return f"FclibProblem(n={self.n}, nc={self.nc}, title={self.title!r})"


class Result:
    """What a solve returns: v, u = H^T v + w, r (numpy), contact_status (one
    of "take-off", "stick", "slip" per contact) and the C++ summary
    (fcsn.SolverSummary), whose main fields are repeated here: status (str),
    converged, iterations, message, e_cone, e_dual, e_comp, e_eq, e_nat,
    error (their max over the criterion's four), history."""

    def __init__(self, v, u, r, summary, contact_status):
        self.v, self.u, self.r = v, u, r
        self.summary = summary
        self.contact_status = contact_status

    def __getattr__(self, name):
        if name in Result._FROM_SUMMARY:
            return getattr(self.summary, name)
        raise AttributeError(f"'Result' object has no attribute '{name}'")

    _FROM_SUMMARY = frozenset([
        "status", "converged", "iterations", "message", "e_cone", "e_dual",
        "e_comp", "e_eq", "e_nat", "siconos_error", "error", "history",
        "analyses", "factorizations", "nsgs_sweeps", "timings",
    ])

    def __dir__(self):
        return sorted(set(super().__dir__()) | Result._FROM_SUMMARY)

    def __repr__(self):
        return (f"Result(status={self.status!r}, iterations={self.iterations}, "
                f"error={self.error:.3g}, n={self.v.size}, "
                f"nc={len(self.contact_status)})")


def read_fclib(path, m_storage="auto"):
    """Reads an FCLib global problem (HDF5). m_storage: "auto" (default),
    "as-stored" or "symmetrized", as `fcsn solve --m-storage`."""
    return FclibProblem(_fcsn.read_fclib(str(path), m_storage))


def make_options(options=None, **kwargs):
    """A fcsn.SolverOptions: a copy of `options` (or the defaults) with the
    keyword arguments applied (nested structs as dicts). verbose=True sets
    log to print each progress line to sys.stdout. ValueError names an
    unknown or invalid field."""
    result = SolverOptions() if options is None else options.__copy__()
    if kwargs.pop("verbose", False) and "log" not in kwargs:
        kwargs["log"] = _print_line
    for key, value in kwargs.items():
        _set_field(result, key, value, "")
    why = result.validate()
    if why:
        raise ValueError(why)
    return result


class Solver:
    """fcsn::Solver: keeps the symbolic analysis (and the converted pattern of
    M and H) from one solve to the next while the sparsity patterns stay the
    same.

    Solver(options=None, **kwargs): options is a fcsn.SolverOptions (or
    None for the defaults); keyword arguments set its fields, nested ones as
    dicts, e.g. Solver(tolerance=1e-8, linear_solver={"type": "eigen"}).
    help(fcsn.SolverOptions) and its nested classes document every field.
    ValueError names an unknown or invalid option."""

    def __init__(self, options=None, **kwargs):
        self._solver = _fcsn.Solver(make_options(options, **kwargs))

    @property
    def options(self):
        return self._solver.options

    @options.setter
    def options(self, options):
        self._solver.options = options

    @property
    def pattern_rebuilds(self):
        """How many times the CSC copy of M and H was rebuilt (pattern
        changes); value-only refreshes do not count."""
        return self._solver.pattern_rebuilds

    def setup(self, M, H=None, f=None, w=None, mu=None,
              m_upper_triangle=None):
        """Does the structure-only work (pattern of J, ordering, symbolic
        analysis) for the patterns of M and H ahead of the first solve, e.g.
        before a time loop; solves with the same patterns then count no
        analysis. setup(problem) takes an FclibProblem (or any object with
        M, H, f, w, mu); setup(M, H, f, w, mu) the arrays of solve. Returns
        a fcsn.SetupSummary (status "ready", or why not); invalid input
        raises ValueError."""
        if H is None:
            problem = M
            M, H, f, w, mu = (problem.M, problem.H, problem.f, problem.w,
                              problem.mu)
            if m_upper_triangle is None:
                m_upper_triangle = getattr(problem, "m_upper_triangle", False)
        return self._solver.setup(
            _matrix_spec("M", M), _matrix_spec("H", H), _vector("f", f),
            _vector("w", w), _vector("mu", mu), bool(m_upper_triangle))

    def solve(self, M, H, f, w, mu, guess=None, m_upper_triangle=False):
        """Solves one problem. guess: None, an object with v and r (a Result,
        a Guess) or a pair (v, r). w=None means w = 0. m_upper_triangle: M
        holds only the upper triangle of a symmetric matrix. Ctrl-C during
        the solve raises KeyboardInterrupt with exc.result, the Result of
        the best point so far (see the module's "Stopping and progress")."""
        v0, r0 = _guess_arrays(guess)
        try:
            parts = self._solver.solve(
                _matrix_spec("M", M), _matrix_spec("H", H), _vector("f", f),
                _vector("w", w), _vector("mu", mu), bool(m_upper_triangle),
                v0, r0)
        except BaseException as exc:
            # Ctrl-C, or an exception of the callback or the log, during
            # the solve: the best point rides along as exc.result.
            parts = exc.__dict__.pop("_fcsn_parts", None)
            if parts is not None:
                exc.result = Result(*parts)
            raise
        return Result(*parts)

    def request_stop(self):
        """Asks the solve running in another thread to stop at its next
        check: it returns status "aborted" with the best point. Thread-safe;
        made while no solve runs, it stops the next solve at once."""
        self._solver.request_stop()


def solve(M, H, f, w, mu, guess=None, m_upper_triangle=False, options=None,
          **kwargs):
    """Solves one problem with a new Solver (see Solver.solve, make_options)."""
    return Solver(options, **kwargs).solve(
        M, H, f, w, mu, guess=guess, m_upper_triangle=m_upper_triangle)


def write_fclib(path, problem, solution=None, title="", description=""):
    """Writes problem (an FclibProblem, or any object with M, H, f, w, mu
    and optionally m_upper_triangle) to the FCLib HDF5 file path, with the
    library's writer: M and H as triplets, the file replaced atomically.
    solution: None, an object with v and r (and u, else H^T v + w is
    written: a Result, a Guess) or a pair (v, r). title and description go
    to /fclib_global/info. ValueError says what is wrong (sizes, values, an
    unwritable path)."""
    parts = None
    if solution is not None:
        if isinstance(solution, (tuple, list)):
            v, r = _guess_arrays(solution)
            u = None
        else:
            v, r = _guess_arrays(solution)
            u = getattr(solution, "u", None)
            u = None if u is None else _vector("solution u", u)
        parts = (v, u, r)
    _fcsn.write_fclib(
        str(path), _matrix_spec("M", problem.M), _matrix_spec("H", problem.H),
        _vector("f", problem.f), _vector("w", problem.w),
        _vector("mu", problem.mu),
        bool(getattr(problem, "m_upper_triangle", False)), parts, str(title),
        str(description))


def check(problem, solution, tol=None):
    """The convergence criterion of the library (include/fcsn/error_measures.h)
    at a given answer, with a factorization of M of its own: problem is an
    FclibProblem or any object with M, H, f, w, mu (and optionally
    m_upper_triangle); solution an object with v and r (a Result, a Guess)
    or a pair (v, r). Returns a dict: e_cone, e_dual, e_comp, e_eq (unit-free),
    error (their max), velocity_scale s_u and velocity_floor s_eps (velocity
    units), floor_from_diagonal (M not regular), e_nat and siconos_error
    (reported only), and converged (error <= tol; tol defaults to the
    solver's default tolerance)."""
    v, r = _guess_arrays(solution)
    out = _fcsn.check(
        _matrix_spec("M", problem.M), _matrix_spec("H", problem.H),
        _vector("f", problem.f), _vector("w", problem.w),
        _vector("mu", problem.mu),
        bool(getattr(problem, "m_upper_triangle", False)), v, r)
    if tol is None:
        tol = make_options().tolerance
    out["converged"] = out["error"] <= tol
    return out


def remap_contact_guess(previous_ids, previous, ids):
    """The warm start of a step whose contact set changed: previous (a
    Result or Guess of the last step, or (v, r)) carried to the contacts of
    the new step by integer ids (e.g. node id x obstacle id, unique in each
    list). A contact keeps r and u of the previous contact with the same id;
    a new contact starts at 0; a vanished one is dropped; v is kept. Returns
    a fcsn.Guess (u None when previous has none) to pass as guess=.
    ValueError on sizes that do not match the ids or a repeated id."""
    v, u, r = _solution_parts("previous", previous)
    return Guess(*_fcsn.remap_contact_guess(
        _ids(previous_ids), (v, u, r), _ids(ids)))


def extrapolate_guess(older, previous):
    """previous + (previous - older) for v, u and r: the linear predictor
    of a time loop whose contact set is fixed (a ramping load then starts
    closer to the next solution). older, previous: Results or Guesses of
    the last two steps. Returns a fcsn.Guess; ValueError when their sizes
    differ (a changed contact set: use remap_contact_guess)."""
    return Guess(*_fcsn.extrapolate_guess(
        _solution_parts("older", older), _solution_parts("previous", previous)))


class MoreauJean:
    """The theta-method step problem of a linear structure with contact
    (C++ fcsn::MoreauJean, include/fcsn/time_stepping.h, which derives it):

        M_hat v_{k+1} = H r + f,   M_hat = M + theta h C + theta^2 h^2 K,
        f = M v_k + p_k - h K q_k - (theta (1 - theta) h^2 K + (1 - theta) h C) v_k,
        q_{k+1} = q_k + h ((1 - theta) v_k + theta v_{k+1}),

    with C = C_given + rayleigh_alpha M + rayleigh_beta K and p_k the
    external impulse. M, K, C: scipy.sparse or dense n x n (K, C optional);
    h > 0, theta in (0, 1]. M_hat (iteration_matrix, scipy CSC) is formed
    once and keeps its pattern, so fcsn.Solver analyses it once. ValueError
    on options out of range, wrong sizes or non-finite entries.

    Per step: p = external_impulse(F_k, F_k1); f = free_term(q, v, p);
    w = gap_free_term(H, gaps, q, v); result = solver.solve(M_hat, H, f, w,
    mu, guess=result); q, v = advance(result.v, q, v)."""

    def __init__(self, M, K=None, C=None, h=1e-3, theta=0.5,
                 rayleigh_alpha=0.0, rayleigh_beta=0.0):
        options = _fcsn.MoreauJeanOptions()
        options.h, options.theta = float(h), float(theta)
        options.rayleigh_alpha = float(rayleigh_alpha)
        options.rayleigh_beta = float(rayleigh_beta)
        self._stepper = _fcsn.MoreauJean()
        self._stepper.setup(options, _csc_parts("M", M),
                            None if K is None else _csc_parts("K", K),
                            None if C is None else _csc_parts("C", C))
        data, indices, indptr, rows, cols = self._stepper.iteration_matrix()
        self.iteration_matrix = scipy.sparse.csc_matrix(
            (data, indices, indptr), shape=(rows, cols))
        self.h, self.theta = options.h, options.theta

    def external_impulse(self, force_begin, force_end):
        """p = h ((1 - theta) F(t_k) + theta F(t_{k+1}))."""
        return self._stepper.external_impulse(force_begin, force_end)

    def free_term(self, q, v, impulse):
        """f of the step from the state (q_k, v_k) and the impulse p_k."""
        return self._stepper.free_term(q, v, impulse)

    def gap_free_term(self, H, gaps, q, v):
        """w of the step: w_a = (g_a / h) e_N with g_a = gaps[a] + [H^T q~]_N,a
        at the predicted displacement q~ = q + (1 - theta) h v; gaps: one per
        contact (their values at q = 0)."""
        return self._stepper.gap_free_term(_csc_parts("H", H), gaps, q, v)

    def predicted_displacement(self, q, v):
        """q~ = q + (1 - theta) h v, where the gaps of the step are evaluated."""
        return self._stepper.predicted_displacement(q, v)

    def advance(self, v_next, q, v):
        """(q_{k+1}, v_{k+1}) after the solve; q and v are not modified."""
        return self._stepper.advance(v_next, q, v)


def _csc_parts(name, a):
    """(data, indices, indptr, rows, cols) of a as a canonical CSC matrix
    (float64, int32 indices sorted and unique per column): a copy."""
    a = scipy.sparse.csc_matrix(a, dtype=np.float64, copy=True)
    a.sum_duplicates()
    if a.shape[0] > np.iinfo(np.int32).max or a.nnz > np.iinfo(np.int32).max:
        raise ValueError(f"{name} is too large for 32-bit indices")
    return (a.data, a.indices.astype(np.int32), a.indptr.astype(np.int32),
            a.shape[0], a.shape[1])


def _print_line(line):
    """The log of verbose=True: sys.stdout as it is at each line."""
    print(line, file=sys.stdout, flush=True)


def _ids(ids):
    return [int(i) for i in np.asarray(ids, dtype=np.int64).reshape(-1)]


def _solution_parts(name, x):
    """(v, u or None, r) of a Result, a Guess or a pair (v, r)."""
    if isinstance(x, (tuple, list)):
        v, r = _guess_arrays(x)
        return v, None, r
    u = getattr(x, "u", None)
    if u is not None:
        u = _vector(f"{name} u", u)
    return _vector(f"{name} v", x.v), u, _vector(f"{name} r", x.r)


def _options_help():
    """The top-level options with their docstrings, for help(fcsn.Solver)."""
    lines = ["", "", "Options (fcsn.SolverOptions fields):"]
    for name, prop in vars(SolverOptions).items():
        if isinstance(prop, property) and not name.startswith("_"):
            lines.append(textwrap.fill(
                prop.__doc__ or "", width=76, initial_indent=f"    {name}: ",
                subsequent_indent="        "))
    return "\n".join(lines)


Solver.__doc__ += _options_help()


def _set_field(target, key, value, path):
    name = path + key
    if key.startswith("_") or not hasattr(target, key):
        raise ValueError(f"unknown option '{name}'")
    if isinstance(value, dict):
        nested = getattr(target, key)
        for sub_key, sub_value in value.items():
            _set_field(nested, sub_key, sub_value, name + ".")
        return
    try:
        setattr(target, key, value)
    except TypeError as e:
        raise ValueError(f"option '{name}' = {value!r}: {e}") from None


def _scipy_csc(parts):
    data, indices, indptr, shape = parts
    return scipy.sparse.csc_matrix((data, indices, indptr), shape=shape,
                                   copy=False)


def _indices(x):
    x = np.asarray(x)
    if x.dtype in (np.int32, np.int64) and x.flags.c_contiguous:
        return x
    return np.ascontiguousarray(x, dtype=np.int64)


def _values(name, x):
    x = np.asarray(x)
    if np.iscomplexobj(x):
        raise ValueError(f"{name} has complex values")
    if x.dtype == np.float64 and x.flags.c_contiguous:
        return x
    try:
        return np.ascontiguousarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} does not hold numbers") from None


def _matrix_spec(name, a):
    """(format, rows, cols, data, a, b) for the C++ view, without copying a
    csc/csr/coo matrix whose arrays are already float64 and int32/int64."""
    if scipy.sparse.issparse(a):
        if a.format not in ("csc", "csr", "coo"):
            a = a.tocsc()
    else:
        dense = np.asarray(a)
        if dense.ndim != 2:
            raise ValueError(
                f"{name} must be a matrix (scipy.sparse or 2-D numpy), "
                f"got {dense.ndim} dimension(s)")
        a = scipy.sparse.csc_matrix(_values(name, dense))
    rows, cols = a.shape
    data = _values(name, a.data)
    if a.format == "coo":
        return ("coo", rows, cols, data, _indices(a.row), _indices(a.col))
    return (a.format, rows, cols, data, _indices(a.indices),
            _indices(a.indptr))


def _vector(name, x):
    if x is None:
        return np.zeros(0)
    x = _values(name, x)
    if x.ndim != 1:
        if x.ndim == 2 and 1 in x.shape:
            return x.reshape(-1)
        raise ValueError(f"{name} must be a vector, got shape {x.shape}")
    return x


def _guess_arrays(guess):
    if guess is None:
        return None, None
    if isinstance(guess, (tuple, list)):
        if len(guess) != 2:
            raise ValueError("guess must be (v, r) or have .v and .r")
        v, r = guess
    else:
        v, r = guess.v, guess.r
    return _vector("guess v", v), _vector("guess r", r)
