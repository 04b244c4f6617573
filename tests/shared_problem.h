// Reading a problem of ../shared/data/gfc3d in a test, and judging a solution
// of it by the criterion (formulations.md §9.1) independently of the solver:
// one helper each instead of the lines each suite wrote out. Header-only, so
// that the static fcsn_test_util (linked after the library) needs no fcsn
// symbol.
#ifndef FCSN_TESTS_SHARED_PROBLEM_H_
#define FCSN_TESTS_SHARED_PROBLEM_H_

#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "fcsn/error_measures.h"
#include "fcsn/fclib_io.h"
#include "fcsn/problem.h"
#include "test_util.h"

namespace fcsn::testing {

// The problem of `file_name` (a name of kSharedProblemFiles) read with
// `options`; a read error is a test failure naming the file, and the returned
// problem is then empty (n = 0).
inline GlobalProblem ReadSharedProblem(const std::string& file_name,
                                       const ReadOptions& options = {}) {
  GlobalProblem problem;
  std::string error;
  if (!ReadGlobalProblem(
          SharedProblem(file_name), options, &problem, nullptr, &error)) {
    ADD_FAILURE() << file_name << ": " << error;
    return GlobalProblem();
  }
  return problem;
}

// The §9.1 measures of x on `problem`, with a factorization of M of its own
// (not the solver's).
inline ErrorMeasures CriterionMeasures(const GlobalProblem& problem,
                                       const Solution& x) {
  return ComputeErrorMeasures(problem, x.v, x.r);
}

}  // namespace fcsn::testing

#endif  // FCSN_TESTS_SHARED_PROBLEM_H_
