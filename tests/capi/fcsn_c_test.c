/* Tests of the C API (fcsn/fcsn_c.h), compiled as C99.
 *
 * Analytic physics (house style §7.11): three unit point masses, each resting
 * on the plane z = 0 through one contact (M = I, H = the permutation taking
 * (x, y, z) to the local frame (N, T1, T2) = (z, x, y)), mu = 0.5, one
 * implicit step with free term f = (f_x, f_y, f_z) per mass:
 *   stick:    f = ( 0.3, 0, -1)  ->  v = 0,            r = (1, -0.3, 0)
 *   slip:     f = ( 2.0, 0, -1)  ->  v = (1.5, 0, 0),  r = (1, -0.5, 0)
 *   take-off: f = ( 0.0, 0,  1)  ->  v = (0, 0, 1),    r = 0
 * Then: 1-based indices and duplicate entries give the same answer; new
 * values on the same pattern are solved without a new analysis; invalid
 * input is rejected with a code and a sentence; no call crashes on NULL.
 */
#include "fcsn/fcsn_c.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

#define CHECK_NEAR(a, b, tol)                                       \
  do {                                                              \
    double a_ = (a), b_ = (b);                                      \
    if (!(fabs(a_ - b_) <= (tol))) {                                \
      fprintf(stderr,                                               \
              "%s:%d: CHECK_NEAR failed: %s = %.17g, %s = %.17g\n", \
              __FILE__,                                             \
              __LINE__,                                             \
              #a,                                                   \
              a_,                                                   \
              #b,                                                   \
              b_);                                                  \
      ++failures;                                                   \
    }                                                               \
  } while (0)

enum { kN = 9, kNc = 3, kM = 9 };

/* M = I (0-based CSC). */
static const int32_t m_col_ptr[kN + 1] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
static const int32_t m_rows[kN] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
static const double m_values[kN] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
/* H: column 3a (N) <- dof 3a+2 (z), 3a+1 (T1) <- 3a (x), 3a+2 (T2) <- 3a+1. */
static const int32_t h_col_ptr[kM + 1] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
static const int32_t h_rows[kM] = {2, 0, 1, 5, 3, 4, 8, 6, 7};
static const double h_values[kM] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
static const double f_values[kN] = {0.3, 0, -1, 2.0, 0, -1, 0, 0, 1};
static const double mu_values[kNc] = {0.5, 0.5, 0.5};

static fcsn_problem ThreeMasses(void) {
  fcsn_problem p;
  memset(&p, 0, sizeof(p));
  p.n = kN;
  p.nc = kNc;
  p.index_base = 0;
  p.M.col_ptr = m_col_ptr;
  p.M.row_index = m_rows;
  p.M.values = m_values;
  p.H.col_ptr = h_col_ptr;
  p.H.row_index = h_rows;
  p.H.values = h_values;
  p.f = f_values;
  p.w = NULL; /* zero */
  p.mu = mu_values;
  return p;
}

static fcsn_settings TightSettings(void) {
  fcsn_settings s;
  fcsn_default_settings(&s);
  s.tolerance = 1e-12;
  return s;
}

/* Checks the analytic answer of ThreeMasses() with the free term scaled by
 * `scale` and M = `mass` I (then v = scale/mass * v_1, r = scale * r_1). */
static void CheckThreeMasses(fcsn_solver* solver, double scale, double mass) {
  double v[kN], u[kM], r[kM];
  int status[kNc];
  fcsn_info info;
  const double tol = 1e-9 * scale;
  CHECK(fcsn_get_info(solver, &info) == FCSN_OK);
  CHECK(info.status == FCSN_STATUS_CONVERGED);
  CHECK(info.e_eq <= 1e-12 && info.e_cone <= 1e-12);
  CHECK(info.stick == 1 && info.slip == 1 && info.take_off == 1);
  CHECK(fcsn_get_solution(solver, v, u, r) == FCSN_OK);
  CHECK(fcsn_get_contact_status(solver, status) == FCSN_OK);
  /* stick */
  CHECK_NEAR(v[0], 0.0, tol);
  CHECK_NEAR(v[2], 0.0, tol);
  CHECK_NEAR(r[0], 1.0 * scale, tol);
  CHECK_NEAR(r[1], -0.3 * scale, tol);
  CHECK(status[0] == FCSN_CONTACT_STICK);
  /* slip: ||r_T|| = mu r_N, opposite to the sliding velocity */
  CHECK_NEAR(v[3], 1.5 * scale / mass, tol);
  CHECK_NEAR(v[5], 0.0, tol);
  CHECK_NEAR(r[3], 1.0 * scale, tol);
  CHECK_NEAR(r[4], -0.5 * scale, tol);
  CHECK_NEAR(u[4], 1.5 * scale / mass, tol); /* u_T1 = v_x */
  CHECK(status[1] == FCSN_CONTACT_SLIP);
  /* take-off */
  CHECK_NEAR(v[8], 1.0 * scale / mass, tol);
  CHECK_NEAR(u[6], 1.0 * scale / mass, tol); /* u_N = v_z */
  CHECK_NEAR(r[6], 0.0, tol);
  CHECK(status[2] == FCSN_CONTACT_TAKE_OFF);
}

static void TestStrings(void) {
  CHECK(strcmp(fcsn_status_string(FCSN_STATUS_CONVERGED), "converged") == 0);
  CHECK(strcmp(fcsn_status_string(FCSN_STATUS_MAX_ITERATIONS),
               "max-iterations") == 0);
  CHECK(strcmp(fcsn_status_string(FCSN_STATUS_ABORTED), "aborted") == 0);
  CHECK(strcmp(fcsn_status_string(FCSN_STATUS_UNSOLVED), "unsolved") == 0);
  CHECK(strcmp(fcsn_status_string(-1), "unknown") == 0);
  CHECK(strcmp(fcsn_status_string(99), "unknown") == 0);
  CHECK(strcmp(fcsn_error_string(FCSN_OK), "ok") == 0);
  CHECK(strcmp(fcsn_error_string(FCSN_INVALID_PROBLEM), "invalid-problem") ==
        0);
  CHECK(strcmp(fcsn_error_string(42), "unknown") == 0);
  CHECK(strcmp(fcsn_contact_status_string(FCSN_CONTACT_SLIP), "slip") == 0);
  CHECK(strcmp(fcsn_contact_status_string(FCSN_CONTACT_TAKE_OFF), "take-off") ==
        0);
  CHECK(strlen(fcsn_version()) > 0);
}

static void TestDefaults(void) {
  fcsn_settings s;
  fcsn_default_settings(&s);
  CHECK(s.solver == FCSN_SOLVER_HYBRID);
  CHECK(s.formulation == FCSN_FORMULATION_ALART_CURNIER);
  CHECK(s.linear_solver == FCSN_LINEAR_SOLVER_MUMPS);
  CHECK(s.tolerance == 1e-10);
  CHECK(s.max_iterations == 100);
  CHECK(s.nsgs_max_sweeps > 0);
  CHECK(isinf(s.time_limit_seconds) && s.time_limit_seconds > 0);
  CHECK(s.cold_start == FCSN_COLD_START_AUTO);
  CHECK(s.krylov_reuse_iterations == FCSN_KRYLOV_REUSE_AUTO);
  fcsn_default_settings(NULL); /* no crash */
}

static void TestAnalyticSolveEverySolverAndFormulation(void) {
  const fcsn_problem p = ThreeMasses();
  int solver_type, formulation;
  for (solver_type = 0; solver_type < 3; ++solver_type) {
    for (formulation = 0; formulation < 4; ++formulation) {
      fcsn_settings s = TightSettings();
      fcsn_solver* solver = NULL;
      s.solver = solver_type;
      s.formulation = formulation;
      CHECK(fcsn_setup(&solver, &p, &s) == FCSN_OK);
      if (solver == NULL) continue;
      CHECK(fcsn_solve(solver, NULL, NULL) == FCSN_OK);
      CheckThreeMasses(solver, 1.0, 1.0);
      fcsn_free(solver);
    }
  }
}

/* Every cold start reaches the same answer. On ThreeMasses (w = 0: auto is
 * bonded) the free-flight start v = M^-1 f takes 1 Newton iteration and the
 * default 2, so a cold_start that never reached the solver fails here. */
static void TestColdStarts(void) {
  const fcsn_problem p = ThreeMasses();
  int cold_start, iterations[5] = {0, 0, 0, 0, 0};
  for (cold_start = 0; cold_start < 5; ++cold_start) {
    fcsn_settings s = TightSettings();
    fcsn_solver* solver = NULL;
    fcsn_info info;
    s.solver = FCSN_SOLVER_NEWTON;
    s.cold_start = cold_start;
    CHECK(fcsn_setup(&solver, &p, &s) == FCSN_OK);
    if (solver == NULL) continue;
    CHECK(fcsn_solve(solver, NULL, NULL) == FCSN_OK);
    CheckThreeMasses(solver, 1.0, 1.0);
    CHECK(fcsn_get_info(solver, &info) == FCSN_OK);
    iterations[cold_start] = info.iterations;
    fcsn_free(solver);
  }
  printf("fcsn_c_test: Newton iterations by cold start: %d %d %d %d %d\n",
         iterations[0],
         iterations[1],
         iterations[2],
         iterations[3],
         iterations[4]);
  CHECK(iterations[FCSN_COLD_START_AUTO] == iterations[FCSN_COLD_START_BONDED]);
  CHECK(iterations[FCSN_COLD_START_FREE_FLIGHT] !=
        iterations[FCSN_COLD_START_AUTO]);
}

/* The same problem, 1-based, columns with rows out of order and M's
 * diagonal split into duplicate entries (summed). */
static void TestOneBasedUnsortedDuplicates(void) {
  static const int32_t m_ptr1[kN + 1] = {1, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  static const int32_t m_rows1[kN + 1] = {1, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  static const double m_vals1[kN + 1] = {0.25, 0.75, 1, 1, 1, 1, 1, 1, 1, 1};
  static const int32_t h_ptr1[kM + 1] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  static const int32_t h_rows1[kM] = {3, 1, 2, 6, 4, 5, 9, 7, 8};
  /* H with a zero column entry stored explicitly in column 0 (row 1, 1-based):
   * kept in the pattern, contributes nothing. */
  static const int32_t h_ptr_extra[kM + 1] = {1, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  static const int32_t h_rows_extra[kM + 1] = {3, 1, 1, 2, 6, 4, 5, 9, 7, 8};
  static const double h_vals_extra[kM + 1] = {1, 0, 1, 1, 1, 1, 1, 1, 1, 1};
  fcsn_problem p = ThreeMasses();
  fcsn_settings s = TightSettings();
  fcsn_solver* solver = NULL;
  p.index_base = 1;
  p.M.col_ptr = m_ptr1;
  p.M.row_index = m_rows1;
  p.M.values = m_vals1;
  p.H.col_ptr = h_ptr1;
  p.H.row_index = h_rows1;
  CHECK(fcsn_setup(&solver, &p, &s) == FCSN_OK);
  if (solver != NULL) {
    CHECK(fcsn_solve(solver, NULL, NULL) == FCSN_OK);
    CheckThreeMasses(solver, 1.0, 1.0);
    fcsn_free(solver);
  }
  p.H.col_ptr = h_ptr_extra;
  p.H.row_index = h_rows_extra;
  p.H.values = h_vals_extra;
  solver = NULL;
  CHECK(fcsn_setup(&solver, &p, &s) == FCSN_OK);
  if (solver != NULL) {
    CHECK(fcsn_solve(solver, NULL, NULL) == FCSN_OK);
    CheckThreeMasses(solver, 1.0, 1.0);
    fcsn_free(solver);
  }
}

/* Time-stepping use: new values on the same pattern, warm start, no new
 * symbolic analysis. */
static void TestUpdateValuesKeepsAnalysis(void) {
  const fcsn_problem p = ThreeMasses();
  fcsn_settings s = TightSettings();
  fcsn_solver* solver = NULL;
  double m2[kN], f2[kN], v[kN], r[kM];
  fcsn_info info;
  int i;
  s.solver = FCSN_SOLVER_NEWTON;
  CHECK(fcsn_setup(&solver, &p, &s) == FCSN_OK);
  if (solver == NULL) return;
  CHECK(fcsn_get_info(solver, &info) == FCSN_NOT_SOLVED);
  CHECK(info.status == FCSN_STATUS_UNSOLVED);
  CHECK(fcsn_get_solution(solver, v, NULL, r) == FCSN_NOT_SOLVED);
  CHECK(fcsn_solve(solver, NULL, NULL) == FCSN_OK);
  CheckThreeMasses(solver, 1.0, 1.0);
  CHECK(fcsn_get_solution(solver, v, NULL, r) == FCSN_OK);
  /* M = 2 I, f = 3 f: v = 1.5 v_1, r = 3 r_1. */
  for (i = 0; i < kN; ++i) {
    m2[i] = 2.0;
    f2[i] = 3.0 * f_values[i];
  }
  CHECK(fcsn_update_values(solver, m2, NULL, f2, NULL, NULL) == FCSN_OK);
  CHECK(fcsn_solve(solver, v, r) == FCSN_OK);
  CheckThreeMasses(solver, 3.0, 2.0);
  CHECK(fcsn_get_info(solver, &info) == FCSN_OK);
  CHECK(info.analyses == 0);
  CHECK(info.factorizations >= 1);
  fcsn_free(solver);
}

static void TestInvalidInput(void) {
  fcsn_problem p = ThreeMasses();
  fcsn_settings s = TightSettings();
  fcsn_solver* solver = NULL;
  char message[256];
  double bad_mu[kNc] = {0.5, -1.0, 0.5};
  double nan_f[kN];
  int32_t bad_rows[kN] = {0, 1, 2, 3, 4, 5, 6, 7, 9};
  int i;

  /* NULL arguments. */
  CHECK(fcsn_setup(NULL, &p, &s) == FCSN_INVALID_ARGUMENT);
  solver = (fcsn_solver*)&p; /* must be overwritten with NULL */
  CHECK(fcsn_setup(&solver, NULL, &s) == FCSN_INVALID_ARGUMENT);
  CHECK(solver == NULL);
  CHECK(fcsn_solve(NULL, NULL, NULL) == FCSN_INVALID_ARGUMENT);
  CHECK(fcsn_update_values(NULL, NULL, NULL, NULL, NULL, NULL) ==
        FCSN_INVALID_ARGUMENT);
  CHECK(fcsn_get_info(NULL, NULL) == FCSN_INVALID_ARGUMENT);
  CHECK(strcmp(fcsn_message(NULL), "") == 0);
  fcsn_free(NULL);

  /* mu < 0: rejected, the sentence names mu. */
  p.mu = bad_mu;
  CHECK(fcsn_setup(&solver, &p, &s) == FCSN_INVALID_PROBLEM);
  CHECK(solver == NULL);
  CHECK(fcsn_validate(&p, &s, message, sizeof(message)) ==
        FCSN_INVALID_PROBLEM);
  CHECK(strstr(message, "mu") != NULL);
  p = ThreeMasses();

  /* Row index out of range. */
  p.M.row_index = bad_rows;
  CHECK(fcsn_setup(&solver, &p, &s) == FCSN_INVALID_ARGUMENT);
  CHECK(fcsn_validate(&p, &s, message, sizeof(message)) ==
        FCSN_INVALID_ARGUMENT);
  CHECK(strstr(message, "row_index") != NULL);
  /* Truncated message, still NUL-terminated. */
  CHECK(fcsn_validate(&p, &s, message, 5) == FCSN_INVALID_ARGUMENT);
  CHECK(strlen(message) == 4);
  p = ThreeMasses();

  /* Bad index base, bad sizes. */
  p.index_base = 2;
  CHECK(fcsn_setup(&solver, &p, &s) == FCSN_INVALID_ARGUMENT);
  p = ThreeMasses();
  p.n = -1;
  CHECK(fcsn_setup(&solver, &p, &s) == FCSN_INVALID_ARGUMENT);
  p = ThreeMasses();

  /* Settings out of range. */
  s.tolerance = 2.0;
  CHECK(fcsn_setup(&solver, &p, &s) == FCSN_INVALID_SETTINGS);
  CHECK(fcsn_validate(&p, &s, message, sizeof(message)) ==
        FCSN_INVALID_SETTINGS);
  CHECK(strstr(message, "tolerance") != NULL);
  s = TightSettings();
  s.formulation = 7;
  CHECK(fcsn_setup(&solver, &p, &s) == FCSN_INVALID_SETTINGS);
  s = TightSettings();
  s.solver = -1;
  CHECK(fcsn_setup(&solver, &p, &s) == FCSN_INVALID_SETTINGS);
  s = TightSettings();
  s.linear_solver = 3;
  CHECK(fcsn_setup(&solver, &p, &s) == FCSN_INVALID_SETTINGS);
  s = TightSettings();
  s.cold_start = FCSN_COLD_START_APPROACHING + 1;
  CHECK(fcsn_validate(&p, &s, message, sizeof(message)) ==
        FCSN_INVALID_SETTINGS);
  CHECK(strstr(message, "cold_start") != NULL);
  s = TightSettings();
  s.krylov_reuse_iterations = -2;
  CHECK(fcsn_validate(&p, &s, message, sizeof(message)) ==
        FCSN_INVALID_SETTINGS);
  CHECK(strstr(message, "krylov_reuse_iterations") != NULL);
  s = TightSettings();
  CHECK(fcsn_validate(&p, &s, message, sizeof(message)) == FCSN_OK);
  CHECK(strcmp(message, "") == 0);

  /* A valid solver: bad updates are rejected and the data kept. */
  CHECK(fcsn_setup(&solver, &p, NULL) == FCSN_OK);
  if (solver == NULL) return;
  for (i = 0; i < kN; ++i) nan_f[i] = f_values[i];
  nan_f[4] = NAN;
  CHECK(fcsn_update_values(solver, NULL, NULL, nan_f, NULL, NULL) ==
        FCSN_INVALID_PROBLEM);
  CHECK(strstr(fcsn_message(solver), "f") != NULL);
  CHECK(fcsn_update_values(solver, NULL, NULL, NULL, NULL, bad_mu) ==
        FCSN_INVALID_PROBLEM);
  s.tolerance = -1.0;
  CHECK(fcsn_update_settings(solver, &s) == FCSN_INVALID_SETTINGS);
  s = TightSettings();
  CHECK(fcsn_update_settings(solver, &s) == FCSN_OK);
  CHECK(fcsn_solve(solver, f_values, NULL) == FCSN_INVALID_ARGUMENT);
  CHECK(fcsn_solve(solver, NULL, NULL) == FCSN_OK);
  CheckThreeMasses(solver, 1.0, 1.0);
  fcsn_free(solver);
}

/* Zero contacts is an ordinary input: M v = f. */
static void TestNoContacts(void) {
  fcsn_problem p = ThreeMasses();
  fcsn_solver* solver = NULL;
  fcsn_info info;
  double v[kN];
  p.nc = 0;
  p.H.col_ptr = NULL;
  p.mu = NULL;
  CHECK(fcsn_setup(&solver, &p, NULL) == FCSN_OK);
  if (solver == NULL) return;
  CHECK(fcsn_solve(solver, NULL, NULL) == FCSN_OK);
  CHECK(fcsn_get_info(solver, &info) == FCSN_OK);
  CHECK(info.status == FCSN_STATUS_CONVERGED);
  CHECK(fcsn_get_solution(solver, v, NULL, NULL) == FCSN_OK);
  CHECK_NEAR(v[3], 2.0, 1e-12);
  CHECK_NEAR(v[5], -1.0, 1e-12);
  fcsn_free(solver);
}

int main(void) {
  TestStrings();
  TestDefaults();
  TestAnalyticSolveEverySolverAndFormulation();
  TestColdStarts();
  TestOneBasedUnsortedDuplicates();
  TestUpdateValuesKeepsAnalysis();
  TestInvalidInput();
  TestNoContacts();
  if (failures != 0) {
    fprintf(stderr, "fcsn_c_test: %d check(s) failed\n", failures);
    return 1;
  }
  printf("fcsn_c_test: all checks passed\n");
  return 0;
}
