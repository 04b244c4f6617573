/* fcsn_solve_distributed (fcsn/fcsn_c.h): M given as each rank's
 * triplets must give the ordinary fcsn_solve's result (same status and
 * iterations, v and r equal to 1e-8 relative), and a bad triplet on the last
 * rank only must fail the solve on every rank with a message naming it.
 * Compiled with FCSN_TEST_MPI in the mpi flavour and run under mpirun -np 2
 * (tests/mpi); alone otherwise (one process holds every entry). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fcsn/fcsn_c.h"

#ifdef FCSN_TEST_MPI
#include <mpi.h>
#endif

static int failures = 0;
static int rank = 0;
static int size = 1;

#define CHECK(cond)                                                          \
  do {                                                                       \
    if (!(cond)) {                                                           \
      fprintf(                                                               \
          stderr, "[rank %d] %s:%d: %s\n", rank, __FILE__, __LINE__, #cond); \
      ++failures;                                                            \
    }                                                                        \
  } while (0)

enum { kN = 9, kNc = 3, kM = 9, kMnz = 3 * kN - 2 };

/* M tridiagonal (2 on the diagonal, -0.5 beside it: SPD), CSC, 0-based. */
static int32_t m_col_ptr[kN + 1];
static int32_t m_rows[kMnz];
static double m_values[kMnz];
static int32_t m_cols[kMnz]; /* the column of each entry (for triplets) */
/* H: column 3a (N) <- dof 3a+2 (z), 3a+1 (T1) <- 3a (x), 3a+2 (T2) <- 3a+1. */
static const int32_t h_col_ptr[kM + 1] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
static const int32_t h_rows[kM] = {2, 0, 1, 5, 3, 4, 8, 6, 7};
static const double h_values[kM] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
static const double f_values[kN] = {0.3, 0, -1, 2.0, 0, -1, 0, 0, 1};
static const double mu_values[kNc] = {0.5, 0.5, 0.5};

static void BuildM(void) {
  int k = 0;
  for (int j = 0; j < kN; ++j) {
    m_col_ptr[j] = k;
    for (int i = j - 1; i <= j + 1; ++i) {
      if (i < 0 || i >= kN) continue;
      m_rows[k] = i;
      m_cols[k] = j;
      m_values[k] = i == j ? 2.0 : -0.5;
      ++k;
    }
  }
  m_col_ptr[kN] = k;
}

static fcsn_problem Problem(int with_m) {
  fcsn_problem p;
  memset(&p, 0, sizeof(p));
  p.n = kN;
  p.nc = kNc;
  p.index_base = 0;
  if (with_m) {
    p.M.col_ptr = m_col_ptr;
    p.M.row_index = m_rows;
    p.M.values = m_values;
  } /* else: no entries, M is distributed */
  p.H.col_ptr = h_col_ptr;
  p.H.row_index = h_rows;
  p.H.values = h_values;
  p.f = f_values;
  p.w = NULL;
  p.mu = mu_values;
  return p;
}

/* This rank's triplets: entry k to rank k % size; diagonal entries cut in
 * two halves on ranks k % size and (k + 1) % size. */
typedef struct {
  int32_t rows[2 * kMnz], cols[2 * kMnz];
  double values[2 * kMnz];
  int32_t nnz;
} Local;

static void Add(Local* l, int owner, int k, double fraction) {
  if (owner != rank) return;
  l->rows[l->nnz] = m_rows[k];
  l->cols[l->nnz] = m_cols[k];
  l->values[l->nnz] = fraction * m_values[k];
  ++l->nnz;
}

static void Share(Local* l) {
  l->nnz = 0;
  for (int k = 0; k < kMnz; ++k) {
    if (m_rows[k] == m_cols[k]) {
      Add(l, k % size, k, 0.5);
      Add(l, (k + 1) % size, k, 0.5);
    } else {
      Add(l, k % size, k, 1.0);
    }
  }
}

static double Distance(const double* a, const double* b, int n) {
  double d = 0.0, s = 0.0;
  for (int i = 0; i < n; ++i) {
    d += (a[i] - b[i]) * (a[i] - b[i]);
    s += b[i] * b[i];
  }
  return sqrt(d) / (sqrt(s) > 0.0 ? sqrt(s) : 1.0);
}

static void TestSameAsReplicated(void) {
  fcsn_settings settings;
  fcsn_default_settings(&settings);
  settings.solver = FCSN_SOLVER_NEWTON;
  fcsn_problem whole = Problem(1), without = Problem(0);
  fcsn_solver *replicated = NULL, *distributed = NULL;
  CHECK(fcsn_setup(&replicated, &whole, &settings) == FCSN_OK);
  CHECK(fcsn_setup(&distributed, &without, &settings) == FCSN_OK);
  if (replicated == NULL || distributed == NULL) return;
  Local local;
  Share(&local);
  fcsn_local_triplets t = {local.nnz, local.rows, local.cols, local.values};
  CHECK(fcsn_solve(replicated, NULL, NULL) == FCSN_OK);
  CHECK(fcsn_solve_distributed(distributed, &t, NULL, NULL) == FCSN_OK);
  fcsn_info a, b;
  CHECK(fcsn_get_info(replicated, &a) == FCSN_OK);
  CHECK(fcsn_get_info(distributed, &b) == FCSN_OK);
  CHECK(a.status == FCSN_STATUS_CONVERGED);
  CHECK(b.status == a.status);
  CHECK(b.iterations == a.iterations);
  double va[kN], ra[kM], vb[kN], rb[kM];
  CHECK(fcsn_get_solution(replicated, va, NULL, ra) == FCSN_OK);
  CHECK(fcsn_get_solution(distributed, vb, NULL, rb) == FCSN_OK);
  CHECK(Distance(vb, va, kN) <= 1e-8);
  CHECK(Distance(rb, ra, kM) <= 1e-8);
  fcsn_free(replicated);
  fcsn_free(distributed);
}

static void TestBadEntryOnLastRankFailsEveryRank(void) {
  fcsn_settings settings;
  fcsn_default_settings(&settings);
  settings.solver = FCSN_SOLVER_NEWTON;
  fcsn_problem without = Problem(0);
  fcsn_solver* solver = NULL;
  CHECK(fcsn_setup(&solver, &without, &settings) == FCSN_OK);
  if (solver == NULL) return;
  Local local;
  Share(&local);
  if (rank == size - 1) local.rows[0] = kN; /* outside 0..n-1 */
  fcsn_local_triplets t = {local.nnz, local.rows, local.cols, local.values};
  if (rank == size - 1 && local.nnz == 0) t.nnz = -1; /* still malformed */
  CHECK(fcsn_solve_distributed(solver, &t, NULL, NULL) == FCSN_OK);
  fcsn_info info;
  CHECK(fcsn_get_info(solver, &info) == FCSN_OK);
  CHECK(info.status == FCSN_STATUS_INVALID_INPUT);
  char expected[32];
  snprintf(expected, sizeof(expected), "rank %d", size - 1);
  CHECK(strstr(fcsn_message(solver), expected) != NULL);
  /* A NULL local_M on the last rank only: the same collective failure. */
  Share(&local);
  t.nnz = local.nnz;
  CHECK(fcsn_solve_distributed(
            solver, rank == size - 1 ? NULL : &t, NULL, NULL) == FCSN_OK);
  CHECK(fcsn_get_info(solver, &info) == FCSN_OK);
  CHECK(info.status == FCSN_STATUS_INVALID_INPUT);
  CHECK(strstr(fcsn_message(solver), expected) != NULL);
  fcsn_free(solver);
}

int main(int argc, char** argv) {
#ifdef FCSN_TEST_MPI
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
#else
  (void)argc;
  (void)argv;
#endif
  BuildM();
  TestSameAsReplicated();
  TestBadEntryOnLastRankFailsEveryRank();
  int worst = failures;
#ifdef FCSN_TEST_MPI
  MPI_Allreduce(&failures, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
#endif
  if (rank == 0) printf("%s\n", worst == 0 ? "PASSED" : "FAILED");
  return worst == 0 ? 0 : 1;
}
