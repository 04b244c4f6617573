// The README's C++ time-stepping snippet, compiled and run (the
// documented loop must work from the first step). The code between the BEGIN
// and END markers is the snippet, verbatim; ReadmeShowsThisSnippet checks that
// README.md shows exactly that text once README.md carries the snippet.
//
// Run on two point masses joined by a spring (a 2-node "FE body"), sliding on
// the plane z = 0 under gravity until friction stops them.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

// BEGIN README SNIPPET
#include "fcsn/fcsn.h"

// A linear FE body (mass M, stiffness K) on rigid obstacles: contact a owns
// the columns 3a..3a+2 of H (frame N, T1, T2), has the gap g0[a] at q = 0 and
// the friction coefficient mu[a]; F is the external force. Runs `steps`
// Moreau-Jean steps from the state (q, v); false if a step did not converge.
bool RunSteps(const fcsn::SparseMatrix& M,
              const fcsn::SparseMatrix& K,
              const fcsn::SparseMatrix& H,
              const Eigen::VectorXd& g0,
              const Eigen::VectorXd& mu,
              const Eigen::VectorXd& F,
              int steps,
              Eigen::VectorXd* q,
              Eigen::VectorXd* v) {
  fcsn::MoreauJeanOptions time;  // h, theta, Rayleigh damping; time.Validate()
  time.h = 1e-3;
  time.theta = 0.5;
  fcsn::MoreauJean stepper;
  if (!stepper.Setup(time, M, K).empty()) return false;  // the reason, else ""
  fcsn::GlobalProblem problem;
  problem.M = stepper.iteration_matrix();  // M + θhC + θ²h²K: one pattern
  problem.H = H;
  problem.mu = mu;
  Eigen::VectorXd impulse;
  stepper.ExternalImpulse(F, F, &impulse);  // h ((1-θ) F_k + θ F_k+1)
  fcsn::SolverOptions options;              // documented defaults
  fcsn::Solver solver(options);  // keeps the MUMPS analysis between steps
  fcsn::Solution x;              // empty: no guess at the first step
  std::vector<fcsn::ContactResult> contacts;
  for (int k = 0; k < steps; ++k) {
    stepper.FreeTerm(*q, *v, impulse, &problem.f);   // M v + h F - h K q - ...
    stepper.GapFreeTerm(H, g0, *q, *v, &problem.w);  // w_N = gap / h
    fcsn::SolverSummary summary = solver.Solve(problem, &x, &x);  // warm start
    if (!summary.IsConverged()) return false;     // summary.status, .message
    fcsn::ContactResults(problem, x, &contacts);  // status, r, u, û per contact
    stepper.Advance(x.v, q, v);  // q += h ((1-θ) v + θ v_next)
  }
  return true;
}
// END README SNIPPET

namespace {

constexpr double kMass = 1.0;       // kg per node
constexpr double kStiffness = 1e4;  // N/m, spring along x between the nodes
constexpr double kGravity = 9.81;   // m/s^2
constexpr double kMu = 0.3;         // both contacts
constexpr double kVelocity = 0.02;  // m/s, initial v_x of both nodes

fcsn::SparseMatrix Sparse(const Eigen::MatrixXd& dense) {
  fcsn::SparseMatrix A = dense.sparseView();
  A.makeCompressed();
  return A;
}

// Friction stops the body after v0 / (mu g) = 6.8 ms, i.e. 7 steps of 1 ms,
// having slid v0^2 / (2 mu g) = 68 um; it then sticks on the plane.
TEST(ReadmeSnippetTest, TwoNodeBodySlidesToAStop) {
  const Eigen::MatrixXd M = kMass * Eigen::MatrixXd::Identity(6, 6);
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(6, 6);
  K(0, 0) = K(3, 3) = kStiffness;
  K(0, 3) = K(3, 0) = -kStiffness;
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(6, 6);
  for (int a = 0; a < 2; ++a) {  // (N, T1, T2) = (z, x, y) of node a
    H(3 * a + 2, 3 * a) = 1.0;
    H(3 * a, 3 * a + 1) = 1.0;
    H(3 * a + 1, 3 * a + 2) = 1.0;
  }
  Eigen::VectorXd F = Eigen::VectorXd::Zero(6);
  F[2] = F[5] = -kMass * kGravity;
  Eigen::VectorXd q = Eigen::VectorXd::Zero(6);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  v[0] = v[3] = kVelocity;

  ASSERT_TRUE(RunSteps(Sparse(M),
                       Sparse(K),
                       Sparse(H),
                       Eigen::VectorXd::Zero(2),
                       Eigen::VectorXd::Constant(2, kMu),
                       F,
                       20,
                       &q,
                       &v));
  const double stop_distance = kVelocity * kVelocity / (2 * kMu * kGravity);
  // The theta-method's distance differs from the continuous one by O(h v0):
  // within 10 %.
  EXPECT_NEAR(q[0], stop_distance, 0.1 * stop_distance);
  EXPECT_NEAR(q[3], q[0], 1e-9 * stop_distance);
  // At rest (stuck) and on the plane: velocities and heights at the solver's
  // round-off (1e-9 of v0, of the distance).
  EXPECT_LE(v.cwiseAbs().maxCoeff(), 1e-9 * kVelocity);
  EXPECT_LE(std::abs(q[2]) + std::abs(q[5]), 1e-9 * stop_distance);
}

// A model the stepper refuses (M not square) makes the snippet return false.
TEST(ReadmeSnippetTest, SetupErrorsReturnFalse) {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(3), v = q;
  const fcsn::SparseMatrix M(3, 2);  // not square: Setup refuses it
  EXPECT_FALSE(RunSteps(M,
                        fcsn::SparseMatrix(),
                        fcsn::SparseMatrix(3, 3),
                        Eigen::VectorXd(),
                        Eigen::VectorXd::Zero(1),
                        q,
                        1,
                        &q,
                        &v));
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// README.md's ```cpp block of the time-stepping loop must be the code above.
TEST(ReadmeSnippetTest, ReadmeShowsThisSnippet) {
  const std::string source = ReadFile(std::string(FCSN_SOURCE_DIR) +
                                      "/tests/examples/readme_snippet_test.cc");
  const std::string begin = "// BEGIN README SNIPPET\n";
  const std::string end = "// END README SNIPPET\n";
  const std::size_t from = source.find(begin);
  const std::size_t to = source.find(end);
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  const std::string snippet =
      source.substr(from + begin.size(), to - from - begin.size());
  const std::string readme =
      ReadFile(std::string(FCSN_SOURCE_DIR) + "/README.md");
  if (readme.find("bool RunSteps(") == std::string::npos) {
    GTEST_SKIP() << "README.md does not show the time-stepping snippet yet";
  }
  EXPECT_NE(readme.find("```cpp\n" + snippet + "```\n"), std::string::npos)
      << "README.md's RunSteps block differs from tests/examples/"
         "readme_snippet_test.cc";
}

}  // namespace
