// Every SolverStatus a solve can end with, reached at solver level where the
// other newton tests do not: stalled, numerical issue (and the
// convergence recheck of the returned point), each line-search failure policy
// in pure Newton and in the hybrid, the fallback budget, a singular M; plus
// the Setup() status and the one iterate recorder shared by all phases.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "fcsn/solver.h"
#include "newton/solve_run.h"
#include "test_problems.h"

namespace fcsn {
namespace {

using testing::MakeLatticeOnFloor;

bool Mentions(const std::string& text, const std::string& word) {
  return text.find(word) != std::string::npos;
}

// A sliding lattice on a floor: AC Newton converges on it in a few iterations
// from r = 0 (solver_test.cc).
GlobalProblem SlidingLattice() { return MakeLatticeOnFloor(6, 5, 2, 0.3, 1.5); }

SolverOptions Options(SolverType type) {
  SolverOptions options;
  options.solver = type;
  options.formulation = Formulation::kAlartCurnier;
  options.tolerance = 1e-10;
  options.hybrid.warm_sweeps = 0;  // Newton first: its failures are tested
  // From r = 0: the lattice rests on its floor (w = 0), and the bonded start
  // of the default (auto) solves it in one step, too soon for these failures.
  options.cold_start = ColdStart::kZero;
  return options;
}

// A line search that fails at the first Newton step from r = 0: sigma = 0.49
// asks theta(1) <= 0.02 theta(0) from a single trial (solver_test.cc,
// LineSearchFailureIsAStatus).
SolverOptions FailingLineSearch(SolverType type,
                                LineSearchFailurePolicy policy) {
  SolverOptions options = Options(type);
  options.line_search.type = LineSearchType::kArmijo;
  options.line_search.sufficient_decrease = 0.49;
  options.line_search.max_trials = 1;
  options.line_search.on_failure = policy;
  return options;
}

// A stall test no Newton iteration passes: the merit must drop 1000x per
// iteration (stall_window 1, stall_ratio 1e-3).
SolverOptions StallingHybrid(int max_fallbacks) {
  SolverOptions options = Options(SolverType::kHybrid);
  options.hybrid.stall_window = 1;
  options.hybrid.stall_ratio = 1e-3;
  options.hybrid.max_fallbacks = max_fallbacks;
  options.hybrid.fallback_sweeps = 1;  // too few for NSGS to converge
  return options;
}

int CountPhase(const SolverSummary& s, IterationPhase phase) {
  int count = 0;
  for (const IterationRecord& h : s.history) count += h.phase == phase;
  return count;
}

TEST(SolverStatusTest, StallEndsTheHybridWhenNoFallbackIsLeft) {
  Solver solver(StallingHybrid(/*max_fallbacks=*/0));
  Solution x;
  const SolverSummary s = solver.Solve(SlidingLattice(), nullptr, &x);
  EXPECT_EQ(s.status, SolverStatus::kStalled) << s.FullReport();
  EXPECT_TRUE(Mentions(s.message, "stalled")) << s.message;
  EXPECT_EQ(s.fallbacks, 0);
  EXPECT_EQ(CountPhase(s, IterationPhase::kNsgs), 0);
  EXPECT_TRUE(x.v.allFinite() && x.r.allFinite());
}

// Each fallback sweeps once and Newton stalls again: the solve ends stalled
// after exactly max_fallbacks fallbacks (the lattice's Newton converges after
// a third one).
TEST(SolverStatusTest, FallbacksStopAtTheirBudget) {
  for (int budget : {1, 2}) {
    Solver solver(StallingHybrid(budget));
    Solution x;
    const SolverSummary s = solver.Solve(SlidingLattice(), nullptr, &x);
    EXPECT_EQ(s.status, SolverStatus::kStalled) << s.FullReport();
    EXPECT_EQ(s.fallbacks, budget) << s.FullReport();
    EXPECT_EQ(s.nsgs_sweeps, budget);
    // Each fallback checks before and after its sweep.
    EXPECT_EQ(CountPhase(s, IterationPhase::kNsgs), 2 * budget);
  }
}

TEST(SolverStatusTest,
     PureNewtonStopsOnALineSearchFailureUnderStopAndFallback) {
  for (LineSearchFailurePolicy policy :
       {LineSearchFailurePolicy::kStop, LineSearchFailurePolicy::kFallback}) {
    Solver solver(FailingLineSearch(SolverType::kNewton, policy));
    Solution x;
    const SolverSummary s = solver.Solve(SlidingLattice(), nullptr, &x);
    EXPECT_EQ(s.status, SolverStatus::kLineSearchFailed) << ToString(policy);
    EXPECT_TRUE(Mentions(s.message, "line search")) << s.message;
    EXPECT_EQ(s.accepted_line_search_failures, 0);
    EXPECT_EQ(s.fallbacks, 0);
    EXPECT_TRUE(x.v.allFinite() && x.r.allFinite());
  }
}

TEST(SolverStatusTest, AcceptStepTakesTheStepAndCountsIt) {
  for (SolverType type : {SolverType::kNewton, SolverType::kHybrid}) {
    Solver solver(
        FailingLineSearch(type, LineSearchFailurePolicy::kAcceptStep));
    Solution x;
    const SolverSummary s = solver.Solve(SlidingLattice(), nullptr, &x);
    EXPECT_EQ(s.status, SolverStatus::kConverged) << s.FullReport();
    EXPECT_GE(s.accepted_line_search_failures, 1) << ToString(type);
    EXPECT_LE(s.accepted_line_search_failures, s.iterations);
    EXPECT_EQ(s.fallbacks, 0);
    EXPECT_TRUE(Mentions(s.FullReport(), "accepted_line_search_failures"));
  }
}

TEST(SolverStatusTest, StopEndsTheHybridWithoutAFallback) {
  Solver solver(
      FailingLineSearch(SolverType::kHybrid, LineSearchFailurePolicy::kStop));
  Solution x;
  const SolverSummary s = solver.Solve(SlidingLattice(), nullptr, &x);
  EXPECT_EQ(s.status, SolverStatus::kLineSearchFailed) << s.FullReport();
  EXPECT_EQ(s.fallbacks, 0);
  EXPECT_EQ(s.nsgs_sweeps, 0);
  EXPECT_EQ(CountPhase(s, IterationPhase::kNsgs), 0);
}

TEST(SolverStatusTest, FallbackHandsTheHybridOverToNsgs) {
  SolverOptions options = FailingLineSearch(SolverType::kHybrid,
                                            LineSearchFailurePolicy::kFallback);
  options.hybrid.max_fallbacks = 1;
  Solver solver(options);
  Solution x;
  const SolverSummary s = solver.Solve(SlidingLattice(), nullptr, &x);
  EXPECT_EQ(s.fallbacks, 1) << s.FullReport();
  EXPECT_GT(s.nsgs_sweeps, 0);
  ASSERT_FALSE(s.history.empty());
  EXPECT_EQ(s.history.front().phase, IterationPhase::kNewton);
  EXPECT_GT(CountPhase(s, IterationPhase::kNsgs), 0);
  // Converged by NSGS, or Newton failed again after the one fallback.
  if (s.status != SolverStatus::kConverged) {
    EXPECT_EQ(s.status, SolverStatus::kLineSearchFailed) << s.FullReport();
  }
}

// M numerically singular (two equal rows of a 2 x 2 block) on a sliding
// block: no M^-1, so diag(M) scales, and NSGS (which needs W) refuses it as
// invalid input; Newton and the hybrid run without M^-1 and say so. Whatever
// their status, the point is finite and "converged" only if the criterion
// holds there.
TEST(SolverStatusTest, SingularMIsReportedByEveryPolicy) {
  GlobalProblem problem = MakeLatticeOnFloor(2, 2, 1, 0.3, 1.5);
  std::vector<Eigen::Triplet<double>> t;
  for (int k = 0; k < problem.M.outerSize(); ++k) {
    for (SparseMatrix::InnerIterator it(problem.M, k); it; ++it)
      t.emplace_back(it.row(), it.col(), it.value());
  }
  // Rows and columns 0 and 1 become [[a, a], [a, a]]: rank one.
  const double a = problem.M.coeff(0, 0);
  t.emplace_back(0, 1, a - problem.M.coeff(0, 1));
  t.emplace_back(1, 0, a - problem.M.coeff(1, 0));
  t.emplace_back(1, 1, a - problem.M.coeff(1, 1));
  problem.M.setFromTriplets(t.begin(), t.end());
  problem.M.makeCompressed();
  ASSERT_TRUE(problem.Validate().empty()) << problem.Validate();
  for (SolverType type :
       {SolverType::kNewton, SolverType::kNsgs, SolverType::kHybrid}) {
    Solver solver(Options(type));
    Solution x;
    const SolverSummary s = solver.Solve(problem, nullptr, &x);
    EXPECT_TRUE(Mentions(s.message, "not regular")) << s.message;
    if (type == SolverType::kNsgs) {
      EXPECT_EQ(s.status, SolverStatus::kInvalidInput) << s.FullReport();
      EXPECT_TRUE(Mentions(s.message, "singular")) << s.message;
      continue;
    }
    EXPECT_TRUE(x.v.allFinite() && x.r.allFinite()) << s.FullReport();
    EXPECT_EQ(s.status == SolverStatus::kConverged,
              ComputeErrorMeasures(problem, x.v, x.r)
                  .Converged(Options(type).tolerance))
        << s.FullReport();
  }
}

// A free gap w = 1e300 (finite, valid input) overflows the Fischer-Burmeister
// residual at the first iterate: the solve ends with kNumericalIssue and says
// where, instead of stepping on infinities.
TEST(SolverStatusTest, NonFiniteResidualIsANumericalIssue) {
  GlobalProblem problem = SlidingLattice();
  problem.w.setConstant(1e300);
  ASSERT_TRUE(problem.Validate().empty()) << problem.Validate();
  SolverOptions options = Options(SolverType::kNewton);
  options.formulation = Formulation::kFischerBurmeister;
  Solver solver(options);
  Solution x;
  const SolverSummary s = solver.Solve(problem, nullptr, &x);
  EXPECT_EQ(s.status, SolverStatus::kNumericalIssue) << s.FullReport();
  EXPECT_TRUE(Mentions(s.message, "not finite")) << s.message;
  EXPECT_EQ(s.iterations, 0);
}

// The recheck of Finish(): a kConverged status whose returned point does not
// meet the tolerance is an internal inconsistency, reported as such.
TEST(SolverStatusTest, ConvergenceIsRecheckedAtTheReturnedPoint) {
  ErrorMeasures returned;
  returned.e_eq = 1e-6;
  SolverSummary s;
  s.status = SolverStatus::kConverged;
  internal::ConfirmConvergence(returned, 1e-8, &s);
  EXPECT_EQ(s.status, SolverStatus::kNumericalIssue);
  EXPECT_TRUE(Mentions(s.message, "inconsistency")) << s.message;

  s.status = SolverStatus::kConverged;
  s.message.clear();
  internal::ConfirmConvergence(returned, 1e-5, &s);
  EXPECT_EQ(s.status, SolverStatus::kConverged);
  EXPECT_TRUE(s.message.empty());

  s.status = SolverStatus::kMaxIterations;
  internal::ConfirmConvergence(returned, 1e-8, &s);
  EXPECT_EQ(s.status, SolverStatus::kMaxIterations);
}

// Every phase records through one recorder: one callback per history record,
// with the same phase, iteration and measures, in the same order.
TEST(SolverStatusTest, EveryPhaseRecordsThroughTheCallbackAndTheHistory) {
  SolverOptions options = Options(SolverType::kHybrid);
  options.hybrid.warm_sweeps = 20;
  std::vector<IterationRecord> seen;
  options.iteration_callback = [&seen](const IterationRecord& record) {
    seen.push_back(record);
    return CallbackResult::kContinue;
  };
  Solver solver(options);
  Solution x;
  const SolverSummary s =
      solver.Solve(testing::MakeBoxStack(5, 0.4, 0.5), nullptr, &x);
  ASSERT_EQ(seen.size(), s.history.size());
  for (size_t k = 0; k < seen.size(); ++k) {
    EXPECT_EQ(seen[k].phase, s.history[k].phase) << k;
    EXPECT_EQ(seen[k].iteration, s.history[k].iteration) << k;
    EXPECT_EQ(seen[k].WorstError(), s.history[k].WorstError()) << k;
    EXPECT_EQ(seen[k].take_off + seen[k].stick + seen[k].slip, x.r.size() / 3)
        << k;
  }
  EXPECT_GT(CountPhase(s, IterationPhase::kNsgs), 0);
  EXPECT_GT(CountPhase(s, IterationPhase::kNewton), 0);
}

TEST(SolverStatusTest, SetupSaysReadyOrWhyNot) {
  const GlobalProblem problem = SlidingLattice();
  Solver nsgs(Options(SolverType::kNsgs));
  SetupSummary setup = nsgs.Setup(problem);
  EXPECT_TRUE(setup.IsReady()) << setup.message;
  EXPECT_EQ(setup.analyses, 0);  // pure NSGS has no Newton system
  EXPECT_TRUE(setup.message.empty());

  SolverOptions bad = Options(SolverType::kNewton);
  bad.tolerance = -1.0;
  Solver invalid(bad);
  setup = invalid.Setup(problem);
  EXPECT_EQ(setup.status, SetupStatus::kInvalidInput);
  EXPECT_TRUE(Mentions(setup.message, "tolerance")) << setup.message;
}

TEST(SolverStatusTest, NewEnumsRoundTripThroughTheirNames) {
  for (IterationPhase phase : kAllIterationPhases)
    EXPECT_EQ(IterationPhaseFromString(ToString(phase)), phase);
  EXPECT_STREQ(ToString(IterationPhase::kNewton), "newton");
  EXPECT_STREQ(ToString(IterationPhase::kNsgs), "nsgs");
  for (SetupStatus status : kAllSetupStatuses)
    EXPECT_EQ(SetupStatusFromString(ToString(status)), status);
  EXPECT_FALSE(IterationPhaseFromString("warm").has_value());
  for (LineSearchFailurePolicy policy : kAllLineSearchFailurePolicies) {
    EXPECT_EQ(LineSearchFailurePolicyFromString(ToString(policy)), policy);
  }
}

}  // namespace
}  // namespace fcsn

namespace fcsn {
namespace {

// A guess of the wrong size says the sizes; a non-finite guess names the
// first bad entry (not the sizes, which match).
TEST(SolverStatusTest, BadGuessesNameWhatIsWrong) {
  const GlobalProblem problem = testing::MakeLatticeOnFloor(2, 2, 1, 0.3, 0.5);
  Solver solver{SolverOptions()};
  Solution x, guess;
  guess.v = Eigen::VectorXd::Zero(problem.n());
  guess.r = Eigen::VectorXd::Zero(problem.m());
  guess.v[5] = std::numeric_limits<double>::quiet_NaN();
  SolverSummary s = solver.Solve(problem, &guess, &x);
  EXPECT_EQ(s.status, SolverStatus::kInvalidInput);
  EXPECT_NE(s.message.find("v[5]"), std::string::npos) << s.message;
  guess.v[5] = 0.0;
  guess.r[2] = std::numeric_limits<double>::infinity();
  s = solver.Solve(problem, &guess, &x);
  EXPECT_NE(s.message.find("r[2]"), std::string::npos) << s.message;
  guess.r.resize(1);
  s = solver.Solve(problem, &guess, &x);
  EXPECT_EQ(s.status, SolverStatus::kInvalidInput);
  EXPECT_NE(s.message.find("size"), std::string::npos) << s.message;
}

}  // namespace
}  // namespace fcsn
