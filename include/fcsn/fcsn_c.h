/* fcsn/fcsn_c.h: the C API of fcsn (C99; OSQP-style).
 *
 * Solves the FCLib global frictional contact problem (fcsn/problem.h)
 *
 *   M v = H r + f,   u = H^T v + w,   K*_a ∋ u_a + mu_a ||u_T,a|| e_N ⟂ r_a ∈ K_a
 *
 * M: n x n, H: n x 3 nc (columns 3a, 3a+1, 3a+2 belong to contact a, local
 * frame (N, T1, T2)), K_a = { ||r_T|| <= mu_a r_N }, with the C++ fcsn::Solver:
 * the same algorithms, options and convergence test
 * max(e_cone, e_dual, e_comp, e_eq) <= tolerance (fcsn/error_measures.h).
 *
 * Life cycle: an opaque handle.
 *
 *   fcsn_settings settings;
 *   fcsn_default_settings(&settings);
 *   settings.tolerance = 1e-8;
 *   fcsn_solver* solver = NULL;
 *   int err = fcsn_setup(&solver, &problem, &settings);  // copies the data
 *   if (err != FCSN_OK) { ... fcsn_error_string(err), fcsn_validate() ... }
 *   for (each time step) {
 *     fcsn_update_values(solver, M_values, H_values, f, w, NULL);  // same
 *     fcsn_solve(solver, v_prev, r_prev);   // patterns: analysis kept
 *     fcsn_get_info(solver, &info);         // info.status, iterations, errors
 *     fcsn_get_solution(solver, v, u, r);
 *     fcsn_get_contact_status(solver, status);
 *   }
 *   fcsn_free(solver);
 *
 * Conventions:
 *  - Matrices are compressed sparse column (CSC) with int32 indices:
 *    col_ptr[cols + 1], row_index[nnz], values[nnz], nnz = col_ptr[cols] -
 *    index_base. Rows within a column may come in any order; duplicate entries
 *    are summed. index_base is 0 (C) or 1 (Fortran, e.g. LMGC90) and applies to
 *    col_ptr and row_index of both M and H.
 *  - The data are copied into the solver at fcsn_setup and fcsn_update_values;
 *    the caller's arrays may be freed afterwards. (Zero-copy views of the
 *    caller's arrays are planned; they will be an addition, not a change.)
 *  - Every function returns an fcsn_error code (FCSN_OK on success) unless
 *    stated otherwise. No function throws, aborts, or prints. A solve that
 *    runs returns FCSN_OK whatever its outcome; the outcome is
 *    fcsn_info.status (an fcsn_solve_status).
 *  - Functions on one handle must not run concurrently (except
 *    fcsn_request_stop); distinct handles are independent.
 *  - Progress and stopping: fcsn_set_callback (called after every iteration,
 *    may stop the solve), fcsn_set_log (progress lines, like `fcsn solve
 *    --verbose`), fcsn_request_stop (from another thread) and
 *    fcsn_settings.time_limit_seconds (the whole solve, setup included).
 */
#ifndef FCSN_FCSN_C_H_
#define FCSN_FCSN_C_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Error codes returned by the functions (what went wrong with a call). */
typedef enum fcsn_error {
  FCSN_OK = 0,               /* "ok" */
  FCSN_INVALID_ARGUMENT = 1, /* NULL pointer, bad size or CSC arrays */
  FCSN_INVALID_PROBLEM = 2,  /* data rejected (e.g. mu < 0, NaN, M not n x n) */
  FCSN_INVALID_SETTINGS = 3, /* a settings field out of range */
  FCSN_NOT_SOLVED = 4,       /* a result was asked for before any solve */
  FCSN_OUT_OF_MEMORY = 5,    /* an allocation failed */
  FCSN_INTERNAL_ERROR = 6    /* an unexpected failure inside fcsn (a bug) */
} fcsn_error;

/* Outcome of a solve (fcsn_info.status), 1:1 with fcsn::SolverStatus. */
typedef enum fcsn_solve_status {
  FCSN_STATUS_CONVERGED = 0,          /* max(e_cone,e_dual,e_comp,e_eq)<=tol */
  FCSN_STATUS_MAX_ITERATIONS = 1,     /* iteration budget spent */
  FCSN_STATUS_TIME_LIMIT = 2,         /* wall-clock budget spent */
  FCSN_STATUS_LINE_SEARCH_FAILED = 3, /* no acceptable step */
  FCSN_STATUS_LINEAR_SOLVER_FAILED = 4, /* factorization or solve failed */
  FCSN_STATUS_INVALID_INPUT = 5,        /* problem or settings rejected */
  FCSN_STATUS_NUMERICAL_ISSUE = 6,      /* NaN/Inf in an iterate */
  FCSN_STATUS_STALLED = 7,              /* no progress of the merit */
  FCSN_STATUS_ROUND_OFF_LIMIT = 8,      /* measures at round-off level > tol */
  FCSN_STATUS_ABORTED = 9,              /* callback or fcsn_request_stop */
  FCSN_STATUS_UNSOLVED = 10             /* no solve yet */
} fcsn_solve_status;

/* Per-contact status of the returned (v, r), from both sides of the law
 * (fcsn/contact_status.h: ClassifySolution). */
typedef enum fcsn_contact_status {
  FCSN_CONTACT_TAKE_OFF = 0, /* no reaction at the tolerance: open */
  FCSN_CONTACT_STICK = 1,    /* r_a inside the cone, no visible slip */
  FCSN_CONTACT_SLIP = 2      /* visible slip, or r_a on the cone boundary */
} fcsn_contact_status;

/* Top-level algorithm (fcsn::SolverType). */
typedef enum fcsn_solver_type {
  FCSN_SOLVER_HYBRID = 0, /* NSGS warm start, Newton, NSGS fallback (default) */
  FCSN_SOLVER_NEWTON = 1, /* global semismooth Newton in (v, r) */
  FCSN_SOLVER_NSGS = 2    /* nonsmooth Gauss-Seidel on the Delassus problem */
} fcsn_solver_type;

/* Per-contact residual of the Newton method (fcsn::Formulation). */
typedef enum fcsn_formulation {
  FCSN_FORMULATION_ALART_CURNIER = 0,     /* default */
  FCSN_FORMULATION_JEAN_MOREAU = 1,       /* Christensen-Pang */
  FCSN_FORMULATION_NATURAL_MAP = 2,       /* r - P_K(r - rho û) */
  FCSN_FORMULATION_FISCHER_BURMEISTER = 3 /* SOC Fischer-Burmeister */
} fcsn_formulation;

/* Sparse linear solver of the Newton steps (fcsn::LinearSolverType). */
typedef enum fcsn_linear_solver {
  FCSN_LINEAR_SOLVER_MUMPS = 0, /* default */
  FCSN_LINEAR_SOLVER_EIGEN = 1, /* Eigen SparseLU */
  FCSN_LINEAR_SOLVER_DENSE = 2  /* dense LU, small problems only */
} fcsn_linear_solver;

/* Starting iterate of a solve given no guess, or a guess whose v and r are
 * all exactly 0 (fcsn::ColdStart, fcsn/options.h). */
typedef enum fcsn_cold_start {
  FCSN_COLD_START_ZERO = 0,        /* v = 0, r = 0 */
  FCSN_COLD_START_FREE_FLIGHT = 1, /* v = M^-1 f, r = 0 */
  FCSN_COLD_START_BONDED = 2,      /* resting contacts closed and sticking */
  FCSN_COLD_START_AUTO = 3,        /* resting, approaching closed (default) */
  FCSN_COLD_START_APPROACHING = 4  /* contacts the free flight closes: closed */
} fcsn_cold_start;

/* Settings; fcsn_default_settings() fills in the C++ defaults
 * (fcsn/options.h, the defaults of `fcsn solve`). No verbosity: the library
 * never prints (fcsn_set_log hands progress lines to the caller). The choices are ints holding the enum values above (an int
 * field can hold any value a C caller stores; out-of-range values are
 * rejected with FCSN_INVALID_SETTINGS). */
typedef struct fcsn_settings {
  int solver;                /* fcsn_solver_type; FCSN_SOLVER_HYBRID */
  int formulation;           /* fcsn_formulation; ALART_CURNIER */
  int linear_solver;         /* fcsn_linear_solver; FCSN_LINEAR_SOLVER_MUMPS */
  double tolerance;          /* in (0, 1); 1e-10 */
  int max_iterations;        /* Newton iterations, >= 0; 100 */
  int nsgs_max_sweeps;       /* sweeps of a pure NSGS solve, >= 0; 10000 */
  double time_limit_seconds; /* > 0 per solve, setup included; INFINITY */
  int mpi_comm; /* MPI flavour only: MPI_Comm_c2f(comm); FCSN_MPI_COMM_WORLD */
  int cold_start; /* fcsn_cold_start; FCSN_COLD_START_AUTO */
  /* FGMRES iterations on the previous factors of J before refactorizing,
     in [0, 100] (0: off), or FCSN_KRYLOV_REUSE_AUTO (default: 10 when
     n + m >= 5000, off below; 10 at every size for the first direction
     of a solve from a guess on the previous converged solve's factors) */
  int krylov_reuse_iterations;
} fcsn_settings;

/* fcsn_settings.krylov_reuse_iterations choosing the budget from the size
   (fcsn::kAutoKrylovReuse). */
#define FCSN_KRYLOV_REUSE_AUTO (-1)

/* fcsn_settings.mpi_comm standing for MPI_COMM_WORLD (fcsn::kMpiCommWorld). */
#define FCSN_MPI_COMM_WORLD (-987654)

/* Compressed sparse column matrix (sizes given by fcsn_problem). */
typedef struct fcsn_csc {
  const int32_t* col_ptr;   /* cols + 1 entries; NULL: no entries */
  const int32_t* row_index; /* nnz entries */
  const double* values;     /* nnz entries */
} fcsn_csc;

typedef struct fcsn_problem {
  int n;            /* velocity unknowns: M is n x n */
  int nc;           /* contacts: H is n x 3 nc */
  int index_base;   /* 0 or 1, for col_ptr and row_index of M and H */
  fcsn_csc M;       /* n x n */
  fcsn_csc H;       /* n x 3 nc */
  const double* f;  /* n */
  const double* w;  /* 3 nc; NULL: zero */
  const double* mu; /* nc, >= 0 */
} fcsn_problem;

/* Result of the last solve (fcsn::SolverSummary). */
typedef struct fcsn_info {
  int status;         /* fcsn_solve_status */
  int iterations;     /* Newton iterations */
  int nsgs_sweeps;    /* NSGS sweeps (hybrid and NSGS) */
  int analyses;       /* symbolic factorizations in this solve */
  int factorizations; /* numeric factorizations in this solve */
  /* Error measures of the returned (v, r) (fcsn/error_measures.h). */
  double e_cone;
  double e_dual;
  double e_comp;
  double e_eq;
  double e_nat; /* reported only */
  double solve_time_seconds;
  int take_off; /* contacts per status (fcsn_get_contact_status) */
  int stick;
  int slip;
} fcsn_info;

typedef struct fcsn_solver fcsn_solver; /* opaque */

/* "0.1.0": the library's version. */
const char* fcsn_version(void);
/* "ok", "invalid-argument", ... for an fcsn_error; "unknown" otherwise. */
const char* fcsn_error_string(int error);
/* "converged", "max-iterations", ... (as the CLI) for an fcsn_solve_status;
 * "unsolved" for FCSN_STATUS_UNSOLVED; "unknown" otherwise. */
const char* fcsn_status_string(int status);
/* "take-off", "stick", "slip"; "unknown" otherwise. */
const char* fcsn_contact_status_string(int contact_status);

/* Fills *settings with the defaults. */
void fcsn_default_settings(fcsn_settings* settings);

/* Checks problem and settings (NULL settings: defaults) without creating a
 * solver: FCSN_OK, or the error fcsn_setup would return, with one readable
 * sentence saying why written to message (at most message_size bytes,
 * NUL-terminated; message may be NULL). */
int fcsn_validate(const fcsn_problem* problem,
                  const fcsn_settings* settings,
                  char* message,
                  size_t message_size);

/* Copies the problem and creates a solver in *solver (NULL on error). NULL
 * settings: defaults. Does the structure-only work (pattern of the Newton
 * matrix, ordering, symbolic analysis) once, for all later solves. */
int fcsn_setup(fcsn_solver** solver,
               const fcsn_problem* problem,
               const fcsn_settings* settings);

/* New values on the patterns given at setup: M_values and H_values have the
 * nnz of the setup's M and H, in the same order; f has n entries, w 3 nc,
 * mu nc. A NULL array keeps its current values. The next solve reuses the
 * symbolic analysis. On error the solver keeps its previous data. */
int fcsn_update_values(fcsn_solver* solver,
                       const double* M_values,
                       const double* H_values,
                       const double* f,
                       const double* w,
                       const double* mu);

/* New settings for the next solve (the analysis is kept). */
int fcsn_update_settings(fcsn_solver* solver, const fcsn_settings* settings);

/* Every solver option by its name, the rows of fcsn/option_table.h that
 * `fcsn options` lists with their ranges and defaults ("tolerance",
 * "rho.initial_boost", "linear_solver.ordering", ...): numbers and flags
 * (0 or 1) as doubles, choices ("split-exact") and text as strings. A set
 * that names no option, gives a value of the wrong type or leaves the
 * options out of range is refused with FCSN_INVALID_SETTINGS (the sentence
 * in fcsn_message) and changes nothing. Effective from the next solve; the
 * analysis is kept unless a linear_solver option changes. fcsn_update_settings
 * resets every option to the settings' values. */
int fcsn_set_option(fcsn_solver* solver, const char* name, double value);
int fcsn_set_option_text(fcsn_solver* solver,
                         const char* name,
                         const char* value);
int fcsn_get_option(const fcsn_solver* solver, const char* name, double* value);
/* The value as text, at most size bytes, NUL-terminated. */
int fcsn_get_option_text(const fcsn_solver* solver,
                         const char* name,
                         char* value,
                         size_t size);
/* The number of options, and the name of option index in [0, count) (NULL
 * outside); the names live as long as the process. */
int fcsn_option_count(void);
const char* fcsn_option_name(int index);

/* Solves from the guess (v_guess: n, r_guess: 3 nc; both NULL: no guess,
 * the solver's own start; one NULL: FCSN_INVALID_ARGUMENT). The guess may be
 * the arrays of the previous fcsn_get_solution (warm start). FCSN_OK when the
 * solve ran: its outcome is fcsn_info.status. */
int fcsn_solve(fcsn_solver* solver,
               const double* v_guess,
               const double* r_guess);

/* M distributed over the MPI ranks of settings.mpi_comm (C++:
 * fcsn::Solver::Solve with fcsn::LocalMatrixEntries, fcsn/solver.h): this
 * process' entries of M as triplets, in global indices with the index_base
 * of the problem given to fcsn_setup,
 *
 *   M = sum over ranks of sum over k < nnz of values[k] e_rows[k] e_cols[k]^T,
 *
 * any partition (a rank may hold nothing: nnz = 0, NULL arrays), repeated
 * entries summed, also across ranks; both triangles (no upper-triangle form). */
typedef struct fcsn_local_triplets {
  int32_t nnz;          /* entries on this rank, >= 0 */
  const int32_t* rows;  /* nnz global row indices */
  const int32_t* cols;  /* nnz global column indices */
  const double* values; /* nnz values */
} fcsn_local_triplets;

/* fcsn_solve with M given as this rank's entries local_M: the solver's
 * problem (fcsn_setup, fcsn_update_values) gives n, H, f, w and mu,
 * replicated on every rank, with an M without entries (M.col_ptr = NULL).
 * Collective: every rank of settings.mpi_comm calls it with the same problem,
 * settings and guess. Scope: settings.solver = FCSN_SOLVER_NEWTON and the
 * MUMPS linear solver; anything else gives info.status
 * FCSN_STATUS_INVALID_INPUT. A bad local_M on one rank (NULL, nnz < 0, NULL
 * arrays, an index outside the matrix, a value not finite) is the solve's
 * failure on every rank: FCSN_OK, info.status FCSN_STATUS_INVALID_INPUT and
 * the same fcsn_message, naming the first failing rank. In the seq flavour
 * there is one process and local_M holds all of M. */
int fcsn_solve_distributed(fcsn_solver* solver,
                           const fcsn_local_triplets* local_M,
                           const double* v_guess,
                           const double* r_guess);

/* Results of the last solve (FCSN_NOT_SOLVED before the first). */
int fcsn_get_info(const fcsn_solver* solver, fcsn_info* info);
/* Copies v (n), u = H^T v + w (3 nc) and r (3 nc) of the last solve: the best
 * iterate, also when the solve did not converge. NULL arrays are skipped. */
int fcsn_get_solution(const fcsn_solver* solver,
                      double* v,
                      double* u,
                      double* r);
/* Copies the nc fcsn_contact_status values of the last solve (from r and
 * u = H^T v + w at the solve's tolerance). */
int fcsn_get_contact_status(const fcsn_solver* solver, int* status);

/* One readable sentence about the last call on solver that failed, or the
 * last solve's message; "" if none. Valid until the next call on solver. */
const char* fcsn_message(const fcsn_solver* solver);

/* One recorded iterate of a solve (fcsn::IterationRecord), handed to the
 * iteration callback. */
typedef struct fcsn_iteration {
  int phase;     /* 0: a Newton iteration, 1: an NSGS error check */
  int iteration; /* Newton iteration, or NSGS sweep, within the solve */
  double e_cone; /* error measures of the iterate (fcsn/error_measures.h) */
  double e_dual;
  double e_comp;
  double e_eq;
  double e_nat;
  double merit;       /* ||D G|| of the iterate (Newton), 0 for NSGS */
  double step_length; /* the step that led to it (Newton) */
  int take_off;       /* contacts per status of its r */
  int stick;
  int slip;
  double seconds; /* wall time since the start of the solve */
} fcsn_iteration;

/* Called after every Newton iteration and NSGS error check, on the thread
 * that runs fcsn_solve; a nonzero return stops the solve at once:
 * info.status FCSN_STATUS_ABORTED, and fcsn_get_solution gives the best
 * iterate. It must not call functions on the same handle. */
typedef int (*fcsn_iteration_callback)(const fcsn_iteration* iteration,
                                       void* user_data);
/* Sets (or, with NULL, removes) the solver's iteration callback; user_data
 * is passed back unchanged. Kept across fcsn_update_settings. */
int fcsn_set_callback(fcsn_solver* solver,
                      fcsn_iteration_callback callback,
                      void* user_data);

/* Receives the progress log, one NUL-terminated line (no newline) at a time:
 * the setup, each phase, one line per iteration (iteration, e_cone, e_dual,
 * e_comp, e_eq, merit, step length, take-off/stick/slip counts, seconds),
 * the end; the lines of `fcsn solve --verbose`. Called on the thread that
 * runs fcsn_solve; the line is valid during the call only. */
typedef void (*fcsn_log_callback)(const char* line, void* user_data);
/* Sets (or, with NULL, removes) the progress log; none by default. Kept
 * across fcsn_update_settings. */
int fcsn_set_log(fcsn_solver* solver, fcsn_log_callback log, void* user_data);

/* Asks the fcsn_solve running on solver in another thread (or a signal
 * handler) to stop: the one function that may be called while another runs
 * on the same handle (it only sets an atomic flag). The solve ends at its
 * next check (between the setup's stages, at every Newton iteration and NSGS
 * error check) with info.status FCSN_STATUS_ABORTED and the best iterate. A
 * request made while no solve runs stops the next solve at its first check;
 * every solve clears the request when it returns. */
int fcsn_request_stop(fcsn_solver* solver);

/* Releases the solver; NULL is allowed. */
void fcsn_free(fcsn_solver* solver);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* FCSN_FCSN_C_H_ */
