// A process that has solved a problem large enough for CHOLMOD's supernodal
// Cholesky of M (n >= kNestedDissectionMinDofs) can fork and solve again in
// the child, as Python's multiprocessing does with its "fork" start method:
// the OpenMP pool of CHOLMOD's loops ends with the thread that factorized
// (linalg/supernodal_cholesky.cc), so the child does not wait forever for the
// parent's pool. The parent gives the child 120 s (a solve takes ~1 s) and
// kills it after that.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "fcsn/options.h"
#include "fcsn/solver.h"
#include "linalg/fill_ordering.h"
#include "test_problems.h"

namespace fcsn {
namespace {

bool Converges(const GlobalProblem& problem) {
  Solver solver{SolverOptions()};
  Solution solution;
  return solver.Solve(problem, nullptr, &solution).status ==
         SolverStatus::kConverged;
}

TEST(ForkAfterSolve, TheForkedChildSolvesToo) {
  const GlobalProblem problem =
      testing::MakeLatticeOnFloor(40, 30, 3, 0.3, 1.0);
  ASSERT_GE(problem.n(), internal::kNestedDissectionMinDofs);
  ASSERT_TRUE(Converges(problem));
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) _exit(Converges(problem) ? 0 : 1);
  int status = 0;
  bool exited = false;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!exited && std::chrono::steady_clock::now() < deadline) {
    exited = waitpid(pid, &status, WNOHANG) == pid;
    if (!exited) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (!exited) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  ASSERT_TRUE(exited) << "the forked child hung";
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

}  // namespace
}  // namespace fcsn
