/* Tests of the C API's iteration callback, progress log and stop request
 * (fcsn/fcsn_c.h: fcsn_set_callback, fcsn_set_log, fcsn_request_stop),
 * compiled as C99, on the three point masses of fcsn_c_test.c (stick, slip,
 * take-off; M = I, mu = 0.5), solved by Newton from v = 0, r = 0.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fcsn/fcsn_c.h"

static int failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

enum { kN = 9, kNc = 3, kM = 9 };

static const int32_t m_col_ptr[kN + 1] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
static const int32_t m_rows[kN] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
static const double m_values[kN] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
static const int32_t h_col_ptr[kM + 1] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
static const int32_t h_rows[kM] = {2, 0, 1, 5, 3, 4, 8, 6, 7};
static const double h_values[kM] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
static const double f_values[kN] = {0.3, 0, -1, 2.0, 0, -1, 0, 0, 1};
static const double mu_values[kNc] = {0.5, 0.5, 0.5};

static fcsn_solver* NewSolver(void) {
  fcsn_problem p;
  fcsn_settings s;
  fcsn_solver* solver = NULL;
  memset(&p, 0, sizeof(p));
  p.n = kN;
  p.nc = kNc;
  p.M.col_ptr = m_col_ptr;
  p.M.row_index = m_rows;
  p.M.values = m_values;
  p.H.col_ptr = h_col_ptr;
  p.H.row_index = h_rows;
  p.H.values = h_values;
  p.f = f_values;
  p.mu = mu_values;
  fcsn_default_settings(&s);
  s.solver = FCSN_SOLVER_NEWTON;
  s.cold_start = FCSN_COLD_START_ZERO;
  s.tolerance = 1e-12;
  CHECK(fcsn_setup(&solver, &p, &s) == FCSN_OK);
  return solver;
}

/* What the callback saw; stop_at: the call count at which it returns 1. */
typedef struct Seen {
  int calls;
  int last_iteration;
  int in_order;
  int stop_at;
} Seen;

static int OnIteration(const fcsn_iteration* it, void* user_data) {
  Seen* seen = (Seen*)user_data;
  if (it->phase == 0 && it->iteration < seen->last_iteration)
    seen->in_order = 0;
  seen->last_iteration = it->iteration;
  ++seen->calls;
  if (!(it->e_eq >= 0.0) || it->take_off + it->stick + it->slip != kNc)
    seen->in_order = 0;
  return seen->stop_at > 0 && seen->calls >= seen->stop_at;
}

static int FiniteSolution(const fcsn_solver* solver) {
  double v[kN], u[kM], r[kM];
  int i;
  if (fcsn_get_solution(solver, v, u, r) != FCSN_OK) return 0;
  for (i = 0; i < kN; ++i)
    if (!isfinite(v[i])) return 0;
  for (i = 0; i < kM; ++i)
    if (!isfinite(u[i]) || !isfinite(r[i])) return 0;
  return 1;
}

static void TestCallbackSeesEveryIteration(void) {
  fcsn_solver* solver = NewSolver();
  Seen seen = {0, 0, 1, 0};
  fcsn_info info;
  CHECK(fcsn_set_callback(solver, OnIteration, &seen) == FCSN_OK);
  CHECK(fcsn_solve(solver, NULL, NULL) == FCSN_OK);
  CHECK(fcsn_get_info(solver, &info) == FCSN_OK);
  CHECK(info.status == FCSN_STATUS_CONVERGED);
  CHECK(seen.calls == info.iterations + 1);
  CHECK(seen.in_order);
  fcsn_free(solver);
}

static void TestCallbackStopsTheSolve(void) {
  fcsn_solver* solver = NewSolver();
  Seen seen = {0, 0, 1, 1};
  fcsn_info info;
  fcsn_settings s;
  CHECK(fcsn_set_callback(solver, OnIteration, &seen) == FCSN_OK);
  CHECK(fcsn_solve(solver, NULL, NULL) == FCSN_OK);
  CHECK(fcsn_get_info(solver, &info) == FCSN_OK);
  CHECK(info.status == FCSN_STATUS_ABORTED);
  CHECK(info.iterations == 0);
  CHECK(seen.calls == 1);
  CHECK(FiniteSolution(solver));
  /* Kept across new settings; removed with NULL. */
  fcsn_default_settings(&s);
  s.solver = FCSN_SOLVER_NEWTON;
  s.cold_start = FCSN_COLD_START_ZERO;
  CHECK(fcsn_update_settings(solver, &s) == FCSN_OK);
  seen.calls = 0;
  CHECK(fcsn_solve(solver, NULL, NULL) == FCSN_OK);
  CHECK(fcsn_get_info(solver, &info) == FCSN_OK);
  CHECK(info.status == FCSN_STATUS_ABORTED && seen.calls == 1);
  CHECK(fcsn_set_callback(solver, NULL, NULL) == FCSN_OK);
  CHECK(fcsn_solve(solver, NULL, NULL) == FCSN_OK);
  CHECK(fcsn_get_info(solver, &info) == FCSN_OK);
  CHECK(info.status == FCSN_STATUS_CONVERGED);
  fcsn_free(solver);
}

/* Lines of the progress log. */
typedef struct Log {
  int lines;
  int newton_rows;
  int setup_first;
  int end_last;
} Log;

static void OnLine(const char* line, void* user_data) {
  Log* log = (Log*)user_data;
  int iteration = -1;
  if (log->lines == 0) log->setup_first = strncmp(line, "setup: ", 7) == 0;
  log->end_last = strncmp(line, "end: ", 5) == 0;
  if (sscanf(line, " newton %d", &iteration) == 1) ++log->newton_rows;
  ++log->lines;
}

static void TestLogHasOneRowPerIteration(void) {
  fcsn_solver* solver = NewSolver();
  Log log = {0, 0, 0, 0};
  fcsn_info info;
  CHECK(fcsn_solve(solver, NULL, NULL) == FCSN_OK); /* no log: no call */
  CHECK(fcsn_set_log(solver, OnLine, &log) == FCSN_OK);
  CHECK(fcsn_solve(solver, NULL, NULL) == FCSN_OK);
  CHECK(fcsn_get_info(solver, &info) == FCSN_OK);
  CHECK(info.status == FCSN_STATUS_CONVERGED);
  CHECK(log.setup_first && log.end_last);
  CHECK(log.newton_rows == info.iterations + 1);
  fcsn_free(solver);
}

static void TestRequestStop(void) {
  fcsn_solver* solver = NewSolver();
  fcsn_info info;
  CHECK(fcsn_request_stop(NULL) == FCSN_INVALID_ARGUMENT);
  CHECK(fcsn_set_callback(NULL, OnIteration, NULL) == FCSN_INVALID_ARGUMENT);
  CHECK(fcsn_set_log(NULL, OnLine, NULL) == FCSN_INVALID_ARGUMENT);
  /* Made between solves: the next solve stops at its first check. */
  CHECK(fcsn_request_stop(solver) == FCSN_OK);
  CHECK(fcsn_solve(solver, NULL, NULL) == FCSN_OK);
  CHECK(fcsn_get_info(solver, &info) == FCSN_OK);
  CHECK(info.status == FCSN_STATUS_ABORTED);
  CHECK(strstr(fcsn_message(solver), "stopped on request") != NULL);
  CHECK(FiniteSolution(solver));
  /* Cleared when that solve returned. */
  CHECK(fcsn_solve(solver, NULL, NULL) == FCSN_OK);
  CHECK(fcsn_get_info(solver, &info) == FCSN_OK);
  CHECK(info.status == FCSN_STATUS_CONVERGED);
  fcsn_free(solver);
}

int main(void) {
  TestCallbackSeesEveryIteration();
  TestCallbackStopsTheSolve();
  TestLogHasOneRowPerIteration();
  TestRequestStop();
  if (failures > 0) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("fcsn_c_callback_test: all checks passed\n");
  return 0;
}
