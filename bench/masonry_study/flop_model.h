// flop_model.h: masonry_study's estimated flop counts per problem (an
// estimate, documented in README.md):
//   Newton iteration  = F_fact + E_res_jac + trials * E_res + E_err
//     F_fact    MUMPS' RINFOG(3) of the last factorization of this solve
//               (SolverSummary::last_factorization_flops); the pattern of J is
//               fixed, so every factorization costs about the same.
//     E_res     2 nnz(M) + 4 nnz(H) + kResidualFlops * nc
//     E_res_jac 2 nnz(M) + 4 nnz(H) + 6 nnz(H) + kResidualJacobianFlops * nc
//     E_err     2 nnz(M) + 4 nnz(H) + kErrorFlops * nc
//   NSGS sweep        = sum_a 18 * (# nonzero 3x3 blocks of W in row a)
//                       + kLocalSolveFlops * nc
//   NSGS check        = E_err
//   Setup (all)       = LDL^T(M) + one solve (q_free) + per component c of M
//                       3 k_c solves with L_c (rho; k_c contacts touch c)
//   Setup (NSGS)      += per component c: LDL^T(M_c) + 3 k_c solves with L_c
//                        + 2 nnz(H_c) 3 k_c (W_c = H_c^T X_c)
// with the LDL^T counts from the actual Eigen SimplicialLDLT factors (sum over
// columns j of c_j^2 + 3 c_j, c_j the off-diagonal count of column j of L;
// 4 nnz(L) + n per right-hand side).
#ifndef FCSN_BENCH_MASONRY_STUDY_FLOP_MODEL_H_
#define FCSN_BENCH_MASONRY_STUDY_FLOP_MODEL_H_

#include "fcsn/fcsn.h"

namespace masonry_study {

// Per-problem constants of the flop model.
struct FlopModel {
  double residual = 0;           // E_res
  double residual_jacobian = 0;  // E_res_jac
  double error = 0;              // E_err
  double sweep = 0;              // one NSGS sweep
  double setup_common = 0;       // Setup (all)
  double setup_delassus = 0;     // the NSGS addition to the setup
  double w_blocks = 0;           // nonzero 3x3 blocks of W
  int components = 0;            // connected components of the graph of M
};

FlopModel BuildFlopModel(const fcsn::GlobalProblem& p);

}  // namespace masonry_study

#endif  // FCSN_BENCH_MASONRY_STUDY_FLOP_MODEL_H_
