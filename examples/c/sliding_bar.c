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

int main(void) {
  const double mass = 1.0, stiffness = 1e3, mu = 0.3, g = 9.81, h = 0.01;
  const double capacity = mu * kNodes * mass * g;
  /* M_hat = m I + h^2 k (L ⊗ I3), L the path Laplacian: column-wise CSC with
   * at most 3 entries per column (neighbour, self, neighbour). */
  int32_t m_col_ptr[kN + 1], m_rows[3 * kN];
  double m_values[3 * kN];
  int32_t h_col_ptr[kM + 1], h_rows[kM];
  double h_values[kM], f[kN], w[kM], mu_a[kNc];
  double v[kN], r[kM], d[kN];
  int status[kNc];
  int nnz = 0, i, c, a, step, exit_code = 0;
  fcsn_problem problem;
  fcsn_settings settings;
  fcsn_solver* solver = NULL;
  fcsn_info info;
  int err;

  for (i = 0; i < kNodes; ++i) {
    for (c = 0; c < 3; ++c) {
      const int col = 3 * i + c;
      const int degree = (i > 0) + (i < kNodes - 1);
      m_col_ptr[col] = nnz;
      if (i > 0) {
        m_rows[nnz] = col - 3;
        m_values[nnz++] = -h * h * stiffness;
      }
      m_rows[nnz] = col;
      m_values[nnz++] = mass + h * h * stiffness * degree;
      if (i < kNodes - 1) {
        m_rows[nnz] = col + 3;
        m_values[nnz++] = -h * h * stiffness;
      }
    }
  }
  m_col_ptr[kN] = nnz;
  /* H: contact a, local (N, T1, T2) <- node a's (z, x, y). */
  for (a = 0; a < kNc; ++a) {
    h_col_ptr[3 * a + 0] = 3 * a + 0;
    h_rows[3 * a + 0] = 3 * a + 2;
    h_col_ptr[3 * a + 1] = 3 * a + 1;
    h_rows[3 * a + 1] = 3 * a + 0;
    h_col_ptr[3 * a + 2] = 3 * a + 2;
    h_rows[3 * a + 2] = 3 * a + 1;
    mu_a[a] = mu;
  }
  h_col_ptr[kM] = kM;
  for (i = 0; i < kM; ++i) {
    h_values[i] = 1.0;
    w[i] = 0.0;
    r[i] = 0.0;
  }
  for (i = 0; i < kN; ++i) v[i] = d[i] = f[i] = 0.0;

  problem.n = kN;
  problem.nc = kNc;
  problem.index_base = 0;
  problem.M.col_ptr = m_col_ptr;
  problem.M.row_index = m_rows;
  problem.M.values = m_values;
  problem.H.col_ptr = h_col_ptr;
  problem.H.row_index = h_rows;
  problem.H.values = h_values;
  problem.f = f;
  problem.w = w;
  problem.mu = mu_a;

  fcsn_default_settings(&settings);
  settings.tolerance = 1e-10;
  err = fcsn_setup(&solver, &problem, &settings);
  if (err != FCSN_OK) {
    char message[256];
    fcsn_validate(&problem, &settings, message, sizeof(message));
    fprintf(stderr, "fcsn_setup: %s: %s\n", fcsn_error_string(err), message);
    return 1;
  }

  printf(
      "step  push/capacity  status     iter  stick slip take-off  x(node 0)\n");
  for (step = 1; step <= kSteps; ++step) {
    const double push = 2.0 * capacity * step / kSteps;
    /* f = M v_k + h (F_ext - K d_k), K d from the Laplacian. */
    for (i = 0; i < kNodes; ++i) {
      for (c = 0; c < 3; ++c) {
        const int k = 3 * i + c;
        double kd = 0.0, force = 0.0;
        if (i > 0) kd += stiffness * (d[k] - d[k - 3]);
        if (i < kNodes - 1) kd += stiffness * (d[k] - d[k + 3]);
        if (c == 2) force -= mass * g;
        if (c == 0 && i == 0) force += push;
        f[k] = mass * v[k] + h * (force - kd);
      }
    }
    err = fcsn_update_values(solver, NULL, NULL, f, NULL, NULL);
    if (err == FCSN_OK) err = fcsn_solve(solver, v, r); /* warm start */
    if (err == FCSN_OK) err = fcsn_get_info(solver, &info);
    if (err == FCSN_OK) err = fcsn_get_solution(solver, v, NULL, r);
    if (err == FCSN_OK) err = fcsn_get_contact_status(solver, status);
    if (err != FCSN_OK) {
      fprintf(stderr,
              "step %d: %s: %s\n",
              step,
              fcsn_error_string(err),
              fcsn_message(solver));
      exit_code = 1;
      break;
    }
    for (i = 0; i < kN; ++i) d[i] += h * v[i];
    printf("%4d  %13.2f  %-9s  %4d  %5d %4d %8d  %9.3e\n",
           step,
           push / capacity,
           fcsn_status_string((int)info.status),
           info.iterations,
           info.stick,
           info.slip,
           info.take_off,
           d[0]);
    if (info.status != FCSN_STATUS_CONVERGED) {
      fprintf(
          stderr, "step %d did not converge: %s\n", step, fcsn_message(solver));
      exit_code = 1;
      break;
    }
    if (step == 1 && info.stick != kNc) {
      fprintf(stderr, "step 1: expected every contact to stick\n");
      exit_code = 1;
    }
  }
  if (exit_code == 0) {
    /* The bar slides as a whole at the end: every contact slips, in +x. */
    for (a = 0; a < kNc; ++a) {
      if (status[a] != FCSN_CONTACT_SLIP || v[3 * a] <= 0.0) {
        fprintf(stderr,
                "contact %d: %s, v_x = %g: expected slip in +x\n",
                a,
                fcsn_contact_status_string(status[a]),
                v[3 * a]);
        exit_code = 1;
      }
    }
  }
  fcsn_free(solver);
  if (exit_code == 0) printf("sliding_bar: the bar slides as expected\n");
  return exit_code;
}
