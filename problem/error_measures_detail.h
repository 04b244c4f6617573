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

ErrorMeasures ComputeErrorMeasures(const GlobalProblem& problem,
                                   const MProducts& products,
                                   const Eigen::VectorXd& v,
                                   const Eigen::VectorXd& r,
                                   const MSolveFunction& m_solve,
                                   double q_free_norm);

}  // namespace fcsn::internal

#endif  // FCSN_PROBLEM_ERROR_MEASURES_DETAIL_H_
