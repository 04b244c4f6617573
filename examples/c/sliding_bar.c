/* sliding_bar.c: the fcsn C API in an implicit time loop (C99).
 *
 * An elastic bar of kNodes point masses lies on the plane z = 0, one frictional
 * contact per node (mu = 0.3). Gravity holds it down; a horizontal force P(t)
 * at node 0 grows linearly to twice the friction capacity mu m g. Each step
 * of the implicit Euler scheme (step h, displacements d, velocities v)
 *
 *   (M + h^2 K) v_{k+1} = M v_k + h (F_ext - K d_k) + H r,   d_{k+1} = d_k + h v_{k+1}
 *
 * is one FCLib global problem with the fixed matrices M_hat = M + h^2 K and
 * H (u = H^T v: the contact velocities (N, T1, T2) = (v_z, v_x, v_y) of each
 * node); only f changes between steps (fcsn_update_values), and each solve
 * starts from the previous step's (v, r). K couples neighbouring nodes by
 * springs of stiffness k in x, y and z (a lumped elastic bar).
 *
 * Physics expected: all contacts stick while P < mu m g (minus inertia), then
 * slip starts at the pushed end and spreads, and once P exceeds the capacity
 * the whole bar slides. The program prints one line per step and exits with
 * status 1 if a solve fails or the bar did not end up sliding as a whole.
 *
 * Build against an installed fcsn:
 *   find_package(fcsn REQUIRED)  +  target_link_libraries(app PRIVATE fcsn::fcsn)
 * or: cc sliding_bar.c $(pkg-config --cflags --libs --static fcsn)
 */
#include <stdio.h>
#include <stdlib.h>

#include "fcsn/fcsn_c.h"

enum { kNodes = 8, kN = 3 * kNodes, kNc = kNodes, kM = 3 * kNc, kSteps = 40 };

/* Physical and time-stepping parameters. */
static const double kMass = 1.0, kStiffness = 1e3, kMu = 0.3, kG = 9.81,
                    kH = 0.01;

/* The problem's arrays (CSC, 0-based) and the state of the time loop. */
typedef struct {
  int32_t m_col_ptr[kN + 1], m_rows[3 * kN];
  double m_values[3 * kN];
  int32_t h_col_ptr[kM + 1], h_rows[kM];
  double h_values[kM], f[kN], w[kM], mu[kNc];
  double v[kN], r[kM], d[kN];
  int status[kNc];
} Bar;

/* M_hat = m I + h^2 k (L ⊗ I3), L the path Laplacian: column-wise CSC with
 * at most 3 entries per column (neighbour, self, neighbour). */
static void FillMassMatrix(Bar* bar) {
  const double spring = kH * kH * kStiffness;
  int nnz = 0, i, c;
  for (i = 0; i < kNodes; ++i) {
    for (c = 0; c < 3; ++c) {
      const int col = 3 * i + c;
      const int degree = (i > 0) + (i < kNodes - 1);
      bar->m_col_ptr[col] = nnz;
      if (i > 0) {
        bar->m_rows[nnz] = col - 3;
        bar->m_values[nnz++] = -spring;
      }
      bar->m_rows[nnz] = col;
      bar->m_values[nnz++] = kMass + spring * degree;
      if (i < kNodes - 1) {
        bar->m_rows[nnz] = col + 3;
        bar->m_values[nnz++] = -spring;
      }
    }
  }
  bar->m_col_ptr[kN] = nnz;
}

/* H: contact a, local (N, T1, T2) <- node a's (z, x, y); w = 0, mu, and the
 * zero start (v, r, d). */
static void FillContacts(Bar* bar) {
  int a, i;
  for (a = 0; a < kNc; ++a) {
    bar->h_col_ptr[3 * a + 0] = 3 * a + 0;
    bar->h_rows[3 * a + 0] = 3 * a + 2;
    bar->h_col_ptr[3 * a + 1] = 3 * a + 1;
    bar->h_rows[3 * a + 1] = 3 * a + 0;
    bar->h_col_ptr[3 * a + 2] = 3 * a + 2;
    bar->h_rows[3 * a + 2] = 3 * a + 1;
    bar->mu[a] = kMu;
  }
  bar->h_col_ptr[kM] = kM;
  for (i = 0; i < kM; ++i) {
    bar->h_values[i] = 1.0;
    bar->w[i] = 0.0;
    bar->r[i] = 0.0;
  }
  for (i = 0; i < kN; ++i) bar->v[i] = bar->d[i] = bar->f[i] = 0.0;
}

/* The C API's view of the bar's arrays (no copy). */
static fcsn_problem ProblemOf(Bar* bar) {
  fcsn_problem problem;
  problem.n = kN;
  problem.nc = kNc;
  problem.index_base = 0;
  problem.M.col_ptr = bar->m_col_ptr;
  problem.M.row_index = bar->m_rows;
  problem.M.values = bar->m_values;
  problem.H.col_ptr = bar->h_col_ptr;
  problem.H.row_index = bar->h_rows;
  problem.H.values = bar->h_values;
  problem.f = bar->f;
  problem.w = bar->w;
  problem.mu = bar->mu;
  return problem;
}

/* f = M v_k + h (F_ext - K d_k), K d from the Laplacian; F_ext is gravity
 * plus the push on node 0 in +x. */
static void AssembleRhs(Bar* bar, double push) {
  int i, c;
  for (i = 0; i < kNodes; ++i) {
    for (c = 0; c < 3; ++c) {
      const int k = 3 * i + c;
      double kd = 0.0, force = 0.0;
      if (i > 0) kd += kStiffness * (bar->d[k] - bar->d[k - 3]);
      if (i < kNodes - 1) kd += kStiffness * (bar->d[k] - bar->d[k + 3]);
      if (c == 2) force -= kMass * kG;
      if (c == 0 && i == 0) force += push;
      bar->f[k] = kMass * bar->v[k] + kH * (force - kd);
    }
  }
}

/* One time step: new f, warm-started solve from the previous (v, r), then
 * d += h v. Returns an fcsn error code (FCSN_OK on success). */
static int Step(fcsn_solver* solver, Bar* bar, double push, fcsn_info* info) {
  int i;
  int err;
  AssembleRhs(bar, push);
  err = fcsn_update_values(solver, NULL, NULL, bar->f, NULL, NULL);
  if (err == FCSN_OK) err = fcsn_solve(solver, bar->v, bar->r); /* warm */
  if (err == FCSN_OK) err = fcsn_get_info(solver, info);
  if (err == FCSN_OK) err = fcsn_get_solution(solver, bar->v, NULL, bar->r);
  if (err == FCSN_OK) err = fcsn_get_contact_status(solver, bar->status);
  if (err != FCSN_OK) return err;
  for (i = 0; i < kN; ++i) bar->d[i] += kH * bar->v[i];
  return FCSN_OK;
}

/* The time loop: push P grows linearly to twice the friction capacity.
 * Prints one line per step; returns 0, or 1 if a step failed. */
static int RunSteps(fcsn_solver* solver, Bar* bar) {
  const double capacity = kMu * kNodes * kMass * kG;
  fcsn_info info;
  int step, err, exit_code = 0;
  printf(
      "step  push/capacity  status     iter  stick slip take-off  x(node 0)\n");
  for (step = 1; step <= kSteps; ++step) {
    const double push = 2.0 * capacity * step / kSteps;
    err = Step(solver, bar, push, &info);
    if (err != FCSN_OK) {
      fprintf(stderr,
              "step %d: %s: %s\n",
              step,
              fcsn_error_string(err),
              fcsn_message(solver));
      return 1;
    }
    printf("%4d  %13.2f  %-9s  %4d  %5d %4d %8d  %9.3e\n",
           step,
           push / capacity,
           fcsn_status_string((int)info.status),
           info.iterations,
           info.stick,
           info.slip,
           info.take_off,
           bar->d[0]);
    if (info.status != FCSN_STATUS_CONVERGED) {
      fprintf(
          stderr, "step %d did not converge: %s\n", step, fcsn_message(solver));
      return 1;
    }
    if (step == 1 && info.stick != kNc) {
      fprintf(stderr, "step 1: expected every contact to stick\n");
      exit_code = 1;
    }
  }
  return exit_code;
}

/* The bar slides as a whole at the end: every contact slips, in +x. */
static int CheckSliding(const Bar* bar) {
  int a, exit_code = 0;
  for (a = 0; a < kNc; ++a) {
    if (bar->status[a] != FCSN_CONTACT_SLIP || bar->v[3 * a] <= 0.0) {
      fprintf(stderr,
              "contact %d: %s, v_x = %g: expected slip in +x\n",
              a,
              fcsn_contact_status_string(bar->status[a]),
              bar->v[3 * a]);
      exit_code = 1;
    }
  }
  return exit_code;
}

int main(void) {
  Bar bar;
  fcsn_problem problem;
  fcsn_settings settings;
  fcsn_solver* solver = NULL;
  int err, exit_code;

  FillMassMatrix(&bar);
  FillContacts(&bar);
  problem = ProblemOf(&bar);
  fcsn_default_settings(&settings);
  settings.tolerance = 1e-10;
  err = fcsn_setup(&solver, &problem, &settings);
  if (err != FCSN_OK) {
    char message[256];
    fcsn_validate(&problem, &settings, message, sizeof(message));
    fprintf(stderr, "fcsn_setup: %s: %s\n", fcsn_error_string(err), message);
    return 1;
  }
  exit_code = RunSteps(solver, &bar);
  if (exit_code == 0) exit_code = CheckSliding(&bar);
  fcsn_free(solver);
  if (exit_code == 0) printf("sliding_bar: the bar slides as expected\n");
  return exit_code;
}
