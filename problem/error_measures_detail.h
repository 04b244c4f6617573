// problem/error_measures_detail.h: the error measures of fcsn/error_measures.h
// for a caller that holds M only as products (a distributed M,
// minverse/distributed_m.h): the terms of M enter through
//
//   m_v          = M v       (the balance M v - H r - f and Siconos' scale)
//   abs_m_abs_v  = |M| |v|   (the componentwise scale of e_eq)
//   diagonal     = diag(M)   (the floor s_eps when M is not regular)
//
// and problem.M is not read. Everything else is as ComputeErrorMeasures.
#ifndef FCSN_PROBLEM_ERROR_MEASURES_DETAIL_H_
#define FCSN_PROBLEM_ERROR_MEASURES_DETAIL_H_

#include <Eigen/Core>

#include "fcsn/error_measures.h"
#include "fcsn/problem.h"

namespace fcsn::internal {

struct MProducts {
  Eigen::VectorXd m_v;
  Eigen::VectorXd abs_m_abs_v;
  Eigen::VectorXd diagonal;
};

// The floor s_eps of an earlier point with the same M and H (an iterate of the
// same solve, or the previous solve's answer), for the points a solver
// measures, its returned one included: at a new point whose other velocity scales
// max(|| |H^T| |v| + |w| ||, ||û||) exceed it kEarlierFloorMargin times or
// more, that earlier floor is reported and s_eps is not solved for again;
// otherwise it is (one solve with M's factors) and kept here. s_u = max(the
// other scales, s_eps) then equals the exact one unless s_eps grew past them
// since; where it did, s_u is smaller than the exact one, so e_dual and
// e_comp are larger: a point judged converged with an earlier floor is
// converged. The velocity_floor reported is then the earlier one.
struct EarlierFloor {
  bool known = false;  // false: none yet, s_eps is solved for
  double velocity_floor = 0.0;
  bool from_diagonal = false;
};
// Why 100: between two iterates the floor follows |M^-1| (|M| |v| + |H| |r| +
// |f|) and the other scales |H^T| |v| + |w|; a growth of the first by 100
// times more than the second within one Newton step is far beyond what the
// measured answers show: s_eps / s_u 1.6e-8 to 3.5e-7 on the 50 cold walls,
// 6.7e-9 to 2.8e-8 on the pushed blocks' steps, 8e-13 to 5e-8 on the shared
// FCLib problems. At rest s_eps is the scale itself and is solved for.
inline constexpr double kEarlierFloorMargin = 100.0;

// earlier: nullptr measures s_eps at the point and keeps it nowhere.
ErrorMeasures ComputeErrorMeasures(const GlobalProblem& problem,
                                   const MProducts& products,
                                   const Eigen::VectorXd& v,
                                   const Eigen::VectorXd& r,
                                   const MSolveFunction& m_solve,
                                   double q_free_norm,
                                   EarlierFloor* earlier = nullptr);
// The same with M read from problem.M (full or upper triangle, as given).
ErrorMeasures ComputeErrorMeasures(const GlobalProblem& problem,
                                   const Eigen::VectorXd& v,
                                   const Eigen::VectorXd& r,
                                   const MSolveFunction& m_solve,
                                   double q_free_norm,
                                   EarlierFloor* earlier);

}  // namespace fcsn::internal

#endif  // FCSN_PROBLEM_ERROR_MEASURES_DETAIL_H_
