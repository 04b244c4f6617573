// Stopping a solve from outside its iterations and its progress log: the
// time limit honoured inside the setup, Solver::RequestStop() from another
// thread, SolverOptions::stop, and SolverOptions::log's lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <future>
#include <regex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "fcsn/solver.h"
#include "test_problems.h"

namespace fcsn {
namespace {

using testing::MakeLatticeOnFloor;

bool Mentions(const std::string& text, const std::string& word) {
  return text.find(word) != std::string::npos;
}

bool Finite(const Solution& x, const GlobalProblem& problem) {
  return x.v.size() == problem.n() && x.r.size() == problem.m() &&
         x.u.size() == problem.m() && x.v.allFinite() && x.r.allFinite() &&
         x.u.allFinite();
}

// A sliding lattice that Newton solves in a few iterations from r = 0.
GlobalProblem SlidingLattice() { return MakeLatticeOnFloor(6, 5, 2, 0.3, 1.5); }

SolverOptions NewtonOptions() {
  SolverOptions options;
  options.solver = SolverType::kNewton;
  options.cold_start = ColdStart::kZero;  // several iterations, not one
  return options;
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

// A 40 x 40 x 4 lattice (n = 19,200, 1,600 contacts): its setup (M's
// factorization, rho's W_aa, J's analysis) takes far more than 1 ms.
TEST(TimeLimit, EndsInsideTheSetup) {
  const GlobalProblem problem = MakeLatticeOnFloor(40, 40, 4, 0.3, 1.5);
  for (SolverType type :
       {SolverType::kNewton, SolverType::kHybrid, SolverType::kNsgs}) {
    SCOPED_TRACE(ToString(type));
    SolverOptions options;
    options.solver = type;
    options.time_limit_seconds = 1e-3;
    Solver solver(options);
    Solution x;
    const auto start = std::chrono::steady_clock::now();
    const SolverSummary s = solver.Solve(problem, nullptr, &x);
    // Generous: the limit plus the setup stage that was running.
    EXPECT_LT(SecondsSince(start), 1e-3 + 5.0);
    EXPECT_EQ(s.status, SolverStatus::kTimeLimit) << s.message;
    EXPECT_TRUE(Mentions(s.message, "time limit")) << s.message;
    EXPECT_EQ(s.iterations, 0);
    // At most the early factorization of J that the second setup thread
    // makes right after J's analysis (SolverOptions::setup_threads).
    EXPECT_LE(s.factorizations, 1);
    EXPECT_TRUE(Finite(x, problem));
    EXPECT_TRUE(std::isfinite(s.WorstError()));
  }
}

// The callback of the first Newton iterate lets another thread call
// RequestStop() and waits for it: the solve stops at that iterate.
TEST(RequestStop, FromAnotherThreadEndsTheSolve) {
  const GlobalProblem problem = SlidingLattice();
  SolverOptions options = NewtonOptions();
  std::promise<void> first_iterate;
  std::promise<void> requested;
  std::shared_future<void> requested_future = requested.get_future().share();
  bool signalled = false;
  options.iteration_callback = [&](const IterationRecord&) {
    if (!signalled) {
      signalled = true;
      first_iterate.set_value();
      requested_future.wait();
    }
    return CallbackResult::kContinue;
  };
  Solver solver(options);
  std::thread stopper([&] {
    first_iterate.get_future().wait();
    solver.RequestStop();
    requested.set_value();
  });
  Solution x;
  const SolverSummary s = solver.Solve(problem, nullptr, &x);
  stopper.join();
  EXPECT_EQ(s.status, SolverStatus::kAborted);
  EXPECT_TRUE(Mentions(s.message, "stopped on request")) << s.message;
  EXPECT_EQ(s.iterations, 0);
  EXPECT_TRUE(Finite(x, problem));
  // The request was consumed: the next solve runs to convergence.
  const SolverSummary again = solver.Solve(problem, nullptr, &x);
  EXPECT_EQ(again.status, SolverStatus::kConverged) << again.message;
}

// A request made between solves stops the next one at its first check.
TEST(RequestStop, BeforeTheSolveStopsItInTheSetup) {
  const GlobalProblem problem = SlidingLattice();
  for (SolverType type :
       {SolverType::kNewton, SolverType::kHybrid, SolverType::kNsgs}) {
    SCOPED_TRACE(ToString(type));
    SolverOptions options = NewtonOptions();
    options.solver = type;
    Solver solver(options);
    solver.RequestStop();
    Solution x;
    const SolverSummary s = solver.Solve(problem, nullptr, &x);
    EXPECT_EQ(s.status, SolverStatus::kAborted);
    EXPECT_TRUE(Mentions(s.message, "stopped on request")) << s.message;
    EXPECT_EQ(s.iterations, 0);
    EXPECT_EQ(s.nsgs_sweeps, 0);
    EXPECT_TRUE(Finite(x, problem));
  }
}

// SolverOptions::stop raised during the solve (here by the callback, as a
// signal handler would): the best point so far comes back.
TEST(StopFlag, RaisedDuringNewtonEndsAtTheNextIterate) {
  const GlobalProblem problem = SlidingLattice();
  std::atomic<bool> stop{false};
  SolverOptions options = NewtonOptions();
  options.stop = &stop;
  options.iteration_callback = [&](const IterationRecord& record) {
    if (record.iteration == 1) stop.store(true);
    return CallbackResult::kContinue;
  };
  Solver solver(options);
  Solution x;
  const SolverSummary s = solver.Solve(problem, nullptr, &x);
  EXPECT_EQ(s.status, SolverStatus::kAborted);
  EXPECT_TRUE(Mentions(s.message, "stopped on request")) << s.message;
  EXPECT_EQ(s.iterations, 1);
  EXPECT_TRUE(Finite(x, problem));
  // The caller owns the flag: while it stays raised, solves stop.
  EXPECT_EQ(solver.Solve(problem, nullptr, &x).status, SolverStatus::kAborted);
  stop.store(false);
  options.iteration_callback = nullptr;
  solver.set_options(options);
  EXPECT_EQ(solver.Solve(problem, nullptr, &x).status,
            SolverStatus::kConverged);
}

TEST(StopFlag, RaisedDuringNsgsEndsAtTheNextCheck) {
  const GlobalProblem problem = SlidingLattice();
  std::atomic<bool> stop{false};
  SolverOptions options;
  options.solver = SolverType::kNsgs;
  options.nsgs.error_check_frequency = 1;
  options.stop = &stop;
  options.iteration_callback = [&](const IterationRecord& record) {
    if (record.iteration == 3) stop.store(true);
    return CallbackResult::kContinue;
  };
  Solver solver(options);
  Solution x;
  const SolverSummary s = solver.Solve(problem, nullptr, &x);
  EXPECT_EQ(s.status, SolverStatus::kAborted);
  EXPECT_TRUE(Mentions(s.message, "stopped on request")) << s.message;
  EXPECT_EQ(s.nsgs_sweeps, 3);
  EXPECT_TRUE(Finite(x, problem));
}

TEST(ProgressLog, OffByDefault) {
  EXPECT_FALSE(SolverOptions().log);
  EXPECT_EQ(SolverOptions().stop, nullptr);
}

// One row per recorded iterate, in order, between the setup and end lines.
TEST(ProgressLog, OneRowPerIteration) {
  const GlobalProblem problem = SlidingLattice();
  for (SolverType type : {SolverType::kNewton, SolverType::kHybrid}) {
    SCOPED_TRACE(ToString(type));
    std::vector<std::string> lines;
    SolverOptions options = NewtonOptions();
    options.solver = type;
    options.hybrid.warm_sweeps = 20;
    options.nsgs.error_check_frequency = 5;
    options.log = [&](const std::string& line) { lines.push_back(line); };
    Solver solver(options);
    Solution x;
    const SolverSummary s = solver.Solve(problem, nullptr, &x);
    ASSERT_EQ(s.status, SolverStatus::kConverged) << s.message;
    ASSERT_GE(lines.size(), 2u);
    EXPECT_EQ(lines.front().rfind("setup: ", 0), 0u) << lines.front();
    EXPECT_EQ(lines.back().rfind("end: converged", 0), 0u) << lines.back();
    const std::regex row(R"(^ *(newton|nsgs) +(\d+) .*)");
    std::vector<std::pair<std::string, int>> rows;
    for (const std::string& line : lines) {
      std::smatch match;
      if (std::regex_match(line, match, row)) {
        rows.emplace_back(match[1], std::stoi(match[2]));
        EXPECT_FALSE(Mentions(line, "\n"));
      }
    }
    ASSERT_EQ(rows.size(), s.history.size());
    for (size_t i = 0; i < rows.size(); ++i) {
      EXPECT_EQ(rows[i].first, ToString(s.history[i].phase));
      EXPECT_EQ(rows[i].second, s.history[i].iteration);
      if (i > 0 && rows[i].first == rows[i - 1].first)
        EXPECT_GE(rows[i].second, rows[i - 1].second);
    }
    // A rho restart records its iteration again (IterationRecord::rho_boost).
    int newton_rows = 0;
    for (const auto& r : rows) newton_rows += r.first == "newton";
    EXPECT_GE(newton_rows, s.iterations + 1);
    const bool has_header =
        std::find(lines.begin(), lines.end(), "newton") != lines.end();
    EXPECT_TRUE(has_header);
  }
}

}  // namespace
}  // namespace fcsn
