// fcsn/problem.h: the global frictional contact problem in FCLib notation.
//
//   M v = H r + f,            M: n x n (symmetric positive definite in practice)
//   u   = H^T v + w,          H: n x m, m = 3 nc, columns (3a, 3a+1, 3a+2) belong to contact a
//   K*_a  ∋  u_a + mu_a ||u_T,a|| e_N  ⟂  r_a  ∈  K_a = { ||r_T|| <= mu_a r_N },  a = 1..nc
//
// Local frame order inside each 3-block: (N, T1, T2); r_N >= 0 is compressive, u_N >= 0 separates.
// Optional equality constraints (G, b): M v = H r + G lambda + f, G^T v + b = 0. fcsn does not
// support them yet: Validate() rejects a problem that has them, it never drops them silently.
#ifndef FCSN_PROBLEM_H_
#define FCSN_PROBLEM_H_

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <string>
#include <vector>

namespace fcsn {

// Compressed sparse column, 32-bit indices (what MUMPS, METIS and FCLib use).
using SparseMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

struct GlobalProblem {
  SparseMatrix M;      // n x n iteration matrix
  SparseMatrix H;      // n x m, m = 3 nc
  Eigen::VectorXd f;   // n, free term of the dynamics
  Eigen::VectorXd w;   // m, free term of the local kinematics
  Eigen::VectorXd mu;  // nc, friction coefficients (>= 0)
  // M holds only the upper triangle U of a symmetric matrix (how LMGC90 stores
  // it): the solver and the error measures then use U + U^T - diag(U). false:
  // M is used as given, symmetric or not (a triangle passed with false is
  // solved as that triangular matrix, Siconos' reading of such files).
  bool m_upper_triangle = false;
  SparseMatrix G;     // n x p equality constraints; 0 columns when absent
  Eigen::VectorXd b;  // p; empty when absent

  int n() const { return static_cast<int>(M.rows()); }
  int m() const { return static_cast<int>(H.cols()); }
  int nc() const { return static_cast<int>(mu.size()); }
  bool HasEqualityConstraints() const { return G.cols() > 0 || b.size() > 0; }

  // Empty string if the problem is well formed; otherwise one readable sentence
  // saying what is wrong (sizes, non-finite values, mu < 0, non-square M,
  // unsupported equality constraints).
  std::string Validate() const;
};

// U + U^T - diag(U) for the upper triangle U of a symmetric matrix (entries
// below the diagonal are added to their mirror), compressed, U's pattern and
// its mirror.
SparseMatrix SymmetricFromUpperTriangle(const SparseMatrix& upper);

// The problem with m_upper_triangle resolved: `problem` itself when the flag is
// false, otherwise a copy in *storage with M = SymmetricFromUpperTriangle(M).
const GlobalProblem& WithFullM(const GlobalProblem& problem,
                               GlobalProblem* storage);

// This process' share of a matrix distributed over the ranks of an MPI
// communicator, as a FEM code that distributes its assembly holds it (issue
// 14; Solver::Solve's distributed overload, fcsn/solver.h):
//
//   M = sum over ranks p of sum over p's entries k of
//       values[k] e_{rows[k]} e_{cols[k]}^T,
//
// global 0-based indices (0 <= rows[k], cols[k] < n), any partition over the
// ranks (by rows, by elements, arbitrary; a rank may hold nothing), repeated
// entries summed, also across ranks (an entry may be cut in parts). The
// entries describe the whole matrix, both triangles: there is no upper-
// triangle form (GlobalProblem::m_upper_triangle must be false).
struct LocalMatrixEntries {
  std::vector<int> rows;
  std::vector<int> cols;
  std::vector<double> values;
};

// A point (v, u, r) of the problem. u is redundant (u = H^T v + w) but FCLib
// stores it.
struct Solution {
  Eigen::VectorXd v;  // n
  Eigen::VectorXd u;  // m
  Eigen::VectorXd r;  // m
};

}  // namespace fcsn

#endif  // FCSN_PROBLEM_H_
