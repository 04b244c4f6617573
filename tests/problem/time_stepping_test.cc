// Tests of fcsn/time_stepping.h: the theta-method matrices of a hand-computed
// 2-dof case, the step against the defining theta-rule equations, energy
// conservation at theta = 1/2, the update, the gap term, validation, and the
// warm start remapped by contact ids (appearing, vanishing, reordered).
#include "fcsn/time_stepping.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <vector>

#include "fcsn/solver.h"

namespace fcsn {
namespace {

SparseMatrix Sparse(const Eigen::MatrixXd& dense) {
  SparseMatrix A = dense.sparseView();
  A.makeCompressed();
  return A;
}

// The 2-dof case computed by hand in the tests below: h = 1/2, theta = 1/2
// (theta h = 1/4, theta^2 h^2 = theta (1-theta) h^2 = 1/16, (1-theta) h =
// 1/4), all values exact in binary.
struct TwoDofCase {
  Eigen::MatrixXd M{{2.0, 0.0}, {0.0, 1.0}};
  Eigen::MatrixXd K{{4.0, -2.0}, {-2.0, 2.0}};
  Eigen::MatrixXd C{{1.0, 0.0}, {0.0, 2.0}};
  Eigen::VectorXd q{{1.0, -1.0}};
  Eigen::VectorXd v{{2.0, 1.0}};
  Eigen::VectorXd p{{0.5, -0.5}};
  MoreauJeanOptions options() const {
    MoreauJeanOptions o;
    o.h = 0.5;
    o.theta = 0.5;
    return o;
  }
};

// M^ = M + theta h C + theta^2 h^2 K = [[2 + 1/4 + 1/4, -1/8], [-1/8, 1 + 1/2
// + 1/8]].
TEST(MoreauJeanTest, IterationMatrixOfTwoDofCase) {
  const TwoDofCase c;
  MoreauJean stepper;
  ASSERT_EQ(stepper.Setup(c.options(), Sparse(c.M), Sparse(c.K), Sparse(c.C)),
            "");
  const Eigen::MatrixXd expected{{2.5, -0.125}, {-0.125, 1.625}};
  EXPECT_EQ(Eigen::MatrixXd(stepper.iteration_matrix()), expected);
  EXPECT_TRUE(stepper.iteration_matrix().isCompressed());
}

// f^ = M v + p - h K q - (theta (1-theta) h^2 K + (1-theta) h C) v with M v =
// (4, 1), h K q = (3, -2), K v / 16 = (3/8, -1/8), C v / 4 = (1/2, 1/2).
TEST(MoreauJeanTest, FreeTermOfTwoDofCase) {
  const TwoDofCase c;
  MoreauJean stepper;
  ASSERT_EQ(stepper.Setup(c.options(), Sparse(c.M), Sparse(c.K), Sparse(c.C)),
            "");
  Eigen::VectorXd f;
  ASSERT_TRUE(stepper.FreeTerm(c.q, c.v, c.p, &f));
  EXPECT_EQ(f, Eigen::VectorXd({{0.625, 2.125}}));
}

// Rayleigh coefficients give the same step as the explicit C = alpha M + beta
// K.
TEST(MoreauJeanTest, RayleighDampingIsAnExplicitC) {
  const TwoDofCase c;
  MoreauJeanOptions rayleigh = c.options();
  rayleigh.rayleigh_alpha = 0.3;
  rayleigh.rayleigh_beta = 0.02;
  MoreauJean implicit_c, explicit_c;
  ASSERT_EQ(implicit_c.Setup(rayleigh, Sparse(c.M), Sparse(c.K)), "");
  const Eigen::MatrixXd C = 0.3 * c.M + 0.02 * c.K;
  ASSERT_EQ(explicit_c.Setup(c.options(), Sparse(c.M), Sparse(c.K), Sparse(C)),
            "");
  const double eps = std::numeric_limits<double>::epsilon();
  const Eigen::MatrixXd A = Eigen::MatrixXd(implicit_c.iteration_matrix());
  const Eigen::MatrixXd B = Eigen::MatrixXd(explicit_c.iteration_matrix());
  EXPECT_LE((A - B).norm(), 8 * eps * B.norm());
  Eigen::VectorXd f1, f2;
  ASSERT_TRUE(implicit_c.FreeTerm(c.q, c.v, c.p, &f1));
  ASSERT_TRUE(explicit_c.FreeTerm(c.q, c.v, c.p, &f2));
  EXPECT_LE((f1 - f2).norm(), 8 * eps * f2.norm());
}

// Without contact impulses, v_{k+1} = M^-1 f^ and the update must satisfy the
// theta rule M (v1 - v0) = h [theta F1 + (1-theta) F0], F = F_ext - K q - C v,
// for any theta, with F_ext linear in time.
TEST(MoreauJeanTest, FreeStepSatisfiesTheThetaRule) {
  const TwoDofCase c;
  for (double theta : {0.5, 0.75, 1.0}) {
    MoreauJeanOptions o = c.options();
    o.theta = theta;
    o.rayleigh_alpha = 0.1;
    o.rayleigh_beta = 0.05;
    MoreauJean stepper;
    ASSERT_EQ(stepper.Setup(o, Sparse(c.M), Sparse(c.K), Sparse(c.C)), "");
    const Eigen::VectorXd F0{{1.0, -3.0}}, F1{{2.0, 0.5}};
    Eigen::VectorXd p, f;
    ASSERT_TRUE(stepper.ExternalImpulse(F0, F1, &p));
    ASSERT_TRUE(stepper.FreeTerm(c.q, c.v, p, &f));
    const Eigen::MatrixXd M_hat = Eigen::MatrixXd(stepper.iteration_matrix());
    Eigen::VectorXd q = c.q, v = c.v;
    ASSERT_TRUE(stepper.Advance(M_hat.partialPivLu().solve(f), &q, &v));

    const Eigen::MatrixXd C =
        c.C + o.rayleigh_alpha * c.M + o.rayleigh_beta * c.K;
    const Eigen::VectorXd force0 = F0 - c.K * c.q - C * c.v;
    const Eigen::VectorXd force1 = F1 - c.K * q - C * v;
    const Eigen::VectorXd lhs = c.M * (v - c.v);
    const Eigen::VectorXd rhs = o.h * (theta * force1 + (1.0 - theta) * force0);
    // Round-off of a 2 x 2 solve and a few products: a small multiple of eps.
    EXPECT_LE((lhs - rhs).norm(),
              1e-14 * (c.M * c.v).norm() + 1e-14 * rhs.norm())
        << "theta " << theta;
  }
}

// theta = 1/2 (trapezoidal rule) conserves 1/2 v^T M v + 1/2 q^T K q of an
// undamped, unloaded system exactly (up to round-off), over many steps.
TEST(MoreauJeanTest, HalfThetaConservesEnergy) {
  const TwoDofCase c;
  MoreauJeanOptions o;
  o.h = 0.05;
  o.theta = 0.5;
  MoreauJean stepper;
  ASSERT_EQ(stepper.Setup(o, Sparse(c.M), Sparse(c.K)), "");
  const Eigen::MatrixXd M_hat = Eigen::MatrixXd(stepper.iteration_matrix());
  const auto lu = M_hat.partialPivLu();
  auto energy = [&c](const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
    return 0.5 * v.dot(c.M * v) + 0.5 * q.dot(c.K * q);
  };
  Eigen::VectorXd q = c.q, v = c.v, f;
  const double e0 = energy(q, v);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(2);
  for (int k = 0; k < 200; ++k) {
    ASSERT_TRUE(stepper.FreeTerm(q, v, zero, &f));
    ASSERT_TRUE(stepper.Advance(lu.solve(f), &q, &v));
  }
  EXPECT_NEAR(energy(q, v), e0, 1e-12 * e0);
  // Implicit Euler dissipates it.
  o.theta = 1.0;
  ASSERT_EQ(stepper.Setup(o, Sparse(c.M), Sparse(c.K)), "");
  const auto lu1 = Eigen::MatrixXd(stepper.iteration_matrix()).partialPivLu();
  q = c.q;
  v = c.v;
  for (int k = 0; k < 200; ++k) {
    ASSERT_TRUE(stepper.FreeTerm(q, v, zero, &f));
    ASSERT_TRUE(stepper.Advance(lu1.solve(f), &q, &v));
  }
  EXPECT_LT(energy(q, v), 0.5 * e0);
}

// q_next = q + h ((1-theta) v + theta v_next) = (1, -1) + 1/2 (1/2 (2, 1) +
// 1/2 (0, 4)); the predicted displacement is q + (1-theta) h v = q + v / 4.
TEST(MoreauJeanTest, UpdateAndPredictedDisplacement) {
  const TwoDofCase c;
  MoreauJean stepper;
  ASSERT_EQ(stepper.Setup(c.options(), Sparse(c.M)), "");
  Eigen::VectorXd q_tilde;
  ASSERT_TRUE(stepper.PredictedDisplacement(c.q, c.v, &q_tilde));
  EXPECT_EQ(q_tilde, Eigen::VectorXd({{1.5, -0.75}}));
  EXPECT_EQ(stepper.PredictedDisplacement(1.0, 2.0), 1.5);
  Eigen::VectorXd q = c.q, v = c.v;
  const Eigen::VectorXd v_next{{0.0, 4.0}};
  ASSERT_TRUE(stepper.Advance(v_next, &q, &v));
  EXPECT_EQ(q, Eigen::VectorXd({{1.5, 0.25}}));
  EXPECT_EQ(v, v_next);
  EXPECT_EQ(stepper.AdvanceDisplacement(-1.0, 1.0, 4.0), 0.25);
}

// One contact whose normal is dof 2 and first tangent dof 1: g = g0 + q~_2 =
// 1 - 3/4, w = (g / h, 0, 0).
TEST(MoreauJeanTest, GapFreeTerm) {
  const TwoDofCase c;
  MoreauJean stepper;
  ASSERT_EQ(stepper.Setup(c.options(), Sparse(c.M)), "");
  const SparseMatrix H = Sparse(Eigen::MatrixXd{{0, 1, 0}, {1, 0, 0}});
  Eigen::VectorXd w;
  ASSERT_TRUE(stepper.GapFreeTerm(H, Eigen::VectorXd::Ones(1), c.q, c.v, &w));
  EXPECT_EQ(w, Eigen::VectorXd({{0.5, 0.0, 0.0}}));
  ASSERT_TRUE(stepper.GapFreeTerm(H, Eigen::VectorXd(), c.q, c.v, &w));
  EXPECT_EQ(w, Eigen::VectorXd({{-1.5, 0.0, 0.0}}));
  EXPECT_FALSE(stepper.GapFreeTerm(H, Eigen::VectorXd::Ones(2), c.q, c.v, &w));
}

TEST(MoreauJeanTest, WrongSizesAreRefused) {
  const TwoDofCase c;
  MoreauJean stepper;
  Eigen::VectorXd f = Eigen::VectorXd::Constant(1, 7.0);
  EXPECT_FALSE(stepper.FreeTerm(c.q, c.v, c.p, &f));  // not set up
  ASSERT_EQ(stepper.Setup(c.options(), Sparse(c.M), Sparse(c.K)), "");
  const Eigen::VectorXd three = Eigen::VectorXd::Zero(3);
  EXPECT_FALSE(stepper.FreeTerm(three, c.v, c.p, &f));
  EXPECT_FALSE(stepper.FreeTerm(c.q, c.v, three, &f));
  EXPECT_FALSE(stepper.ExternalImpulse(c.p, three, &f));
  EXPECT_EQ(f, Eigen::VectorXd::Constant(1, 7.0));  // untouched
  Eigen::VectorXd q = c.q, v = c.v;
  EXPECT_FALSE(stepper.Advance(three, &q, &v));
  EXPECT_EQ(q, c.q);
}

TEST(MoreauJeanTest, SetupValidates) {
  const TwoDofCase c;
  MoreauJean stepper;
  MoreauJeanOptions o = c.options();
  o.theta = 0.0;
  EXPECT_NE(stepper.Setup(o, Sparse(c.M)).find("theta"), std::string::npos);
  o = c.options();
  o.h = -1.0;
  EXPECT_NE(stepper.Setup(o, Sparse(c.M)).find("::h"), std::string::npos);
  o = c.options();
  o.rayleigh_beta = std::nan("");
  EXPECT_NE(stepper.Setup(o, Sparse(c.M)).find("rayleigh_beta"),
            std::string::npos);
  EXPECT_NE(
      stepper
          .Setup(c.options(), Sparse(c.M), Sparse(Eigen::MatrixXd::Ones(3, 3)))
          .find("K must be 2 x 2"),
      std::string::npos);
  Eigen::MatrixXd bad = c.C;
  bad(0, 0) = std::numeric_limits<double>::infinity();
  EXPECT_NE(stepper.Setup(c.options(), Sparse(c.M), Sparse(c.K), Sparse(bad))
                .find("C has non-finite"),
            std::string::npos);
  EXPECT_EQ(stepper.n(), 0);  // a refused setup leaves the stepper empty
  EXPECT_NE(stepper.Setup(c.options(), SparseMatrix(2, 3)).find("M must be"),
            std::string::npos);
}

// M^ keeps one pattern over the loop, so fcsn::Solver analyses J once: a
// 2-node body (spring along x) pressed onto the plane by gravity, 5 steps.
TEST(MoreauJeanTest, SolverAnalysesOnceOverTheLoop) {
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(6, 6);
  K(0, 0) = K(3, 3) = 1e3;
  K(0, 3) = K(3, 0) = -1e3;
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(6, 6);
  for (int a = 0; a < 2; ++a) {  // (N, T1, T2) = (z, x, y) of node a
    H(3 * a + 2, 3 * a) = H(3 * a, 3 * a + 1) = H(3 * a + 1, 3 * a + 2) = 1.0;
  }
  MoreauJeanOptions o;
  o.h = 1e-3;
  MoreauJean stepper;
  ASSERT_EQ(
      stepper.Setup(o, Sparse(Eigen::MatrixXd::Identity(6, 6)), Sparse(K)), "");
  GlobalProblem problem;
  problem.M = stepper.iteration_matrix();
  problem.H = Sparse(H);
  problem.mu = Eigen::VectorXd::Constant(2, 0.3);
  Eigen::VectorXd F = Eigen::VectorXd::Zero(6), p;
  F[2] = F[5] = -9.81;
  ASSERT_TRUE(stepper.ExternalImpulse(F, F, &p));
  Eigen::VectorXd q = Eigen::VectorXd::Zero(6), v = q;
  v[0] = 0.01;
  Solver solver;
  Solution x;
  for (int k = 0; k < 5; ++k) {
    ASSERT_TRUE(stepper.FreeTerm(q, v, p, &problem.f));
    ASSERT_TRUE(
        stepper.GapFreeTerm(problem.H, Eigen::VectorXd(), q, v, &problem.w));
    const SolverSummary summary = solver.Solve(problem, &x, &x);
    ASSERT_TRUE(summary.IsConverged()) << summary.message;
    EXPECT_EQ(summary.analyses, k == 0 ? 1 : 0) << "step " << k;
    ASSERT_TRUE(stepper.Advance(x.v, &q, &v));
  }
}

// A 2-node body (spring along x) sliding on the plane z = 0 to a stop. The
// caller's contacts have ids: 0 and 1 (node 0 and node 1 on the plane) and 99
// (node 0 above a second plane 1 m below: open).
struct SlidingBody {
  // Node masses 1 and 3 kg: the two contacts carry different impulses.
  SparseMatrix M =
      Sparse(Eigen::VectorXd({{1.0, 1.0, 1.0, 3.0, 3.0, 3.0}}).asDiagonal());
  SparseMatrix K;
  Eigen::VectorXd F = Eigen::VectorXd::Zero(6);
  SlidingBody() {
    Eigen::MatrixXd k = Eigen::MatrixXd::Zero(6, 6);
    k(0, 0) = k(3, 3) = 1e3;
    k(0, 3) = k(3, 0) = -1e3;
    K = Sparse(k);
    F[2] = -9.81;
    F[5] = -3 * 9.81;
  }
  // H, initial gaps and mu of the contacts ids, in that order.
  void Contacts(const std::vector<std::int64_t>& ids,
                GlobalProblem* p,
                Eigen::VectorXd* gaps) const {
    Eigen::MatrixXd H = Eigen::MatrixXd::Zero(6, 3 * ids.size());
    gaps->setZero(ids.size());
    for (std::size_t b = 0; b < ids.size(); ++b) {
      const int node = ids[b] == 1 ? 1 : 0;
      H(3 * node + 2, 3 * b) = 1.0;  // (N, T1, T2) = (z, x, y)
      H(3 * node, 3 * b + 1) = 1.0;
      H(3 * node + 1, 3 * b + 2) = 1.0;
      if (ids[b] == 99) (*gaps)[b] = 1.0;
    }
    p->H = Sparse(H);
    p->mu = Eigen::VectorXd::Constant(ids.size(), 0.3);
  }
};

// The contacts reach the solver reordered at every other step, and contact 99
// appears at step 5 and vanishes at step 10. With the guess remapped by ids,
// the trajectory is the one of the fixed contact set, the warm start saves
// Newton iterations over starts that know nothing (zero), and once the body
// rests the remapped guess is exact (0 iterations) also at the steps where the
// set changes.
TEST(RemapContactGuessTest, TimeLoopWithAChangingContactSet) {
  const SlidingBody body;
  MoreauJeanOptions o;
  o.h = 1e-3;
  MoreauJean stepper;
  ASSERT_EQ(stepper.Setup(o, body.M, body.K), "");
  Eigen::VectorXd p;
  ASSERT_TRUE(stepper.ExternalImpulse(body.F, body.F, &p));
  SolverOptions options;
  options.tolerance = 1e-12;
  // Pure Newton: the hybrid's NSGS would solve the cold starts before Newton.
  options.solver = SolverType::kNewton;
  Solver reference_solver(options), solver(options);
  SolverOptions cold_options = options;
  cold_options.cold_start = ColdStart::kZero;
  Solver cold_solver(cold_options);

  Eigen::VectorXd q0 = Eigen::VectorXd::Zero(6), v0 = q0;
  v0[0] = v0[3] = 0.01;
  Eigen::VectorXd q_ref = q0, v_ref = v0, q = q0, v = v0, gaps;
  GlobalProblem ref_problem, problem;
  ref_problem.M = problem.M = stepper.iteration_matrix();
  body.Contacts({0, 1}, &ref_problem, &gaps);
  Solution x_ref, x;
  std::vector<std::int64_t> previous_ids;
  int warm_iterations = 0, cold_iterations = 0;
  for (int k = 0; k < 15; ++k) {
    ASSERT_TRUE(stepper.FreeTerm(q_ref, v_ref, p, &ref_problem.f));
    ASSERT_TRUE(stepper.GapFreeTerm(
        ref_problem.H, Eigen::VectorXd(), q_ref, v_ref, &ref_problem.w));
    ASSERT_TRUE(
        reference_solver.Solve(ref_problem, &x_ref, &x_ref).IsConverged());
    ASSERT_TRUE(stepper.Advance(x_ref.v, &q_ref, &v_ref));

    std::vector<std::int64_t> ids = k % 2 ? std::vector<std::int64_t>{1, 0}
                                          : std::vector<std::int64_t>{0, 1};
    if (k >= 5 && k < 10) ids.insert(ids.begin() + 1, 99);
    body.Contacts(ids, &problem, &gaps);
    ASSERT_TRUE(stepper.FreeTerm(q, v, p, &problem.f));
    ASSERT_TRUE(stepper.GapFreeTerm(problem.H, gaps, q, v, &problem.w));
    if (k > 0) {
      ASSERT_EQ(RemapContactGuess(previous_ids, x, ids, &x), "");
    }
    const SolverSummary warm = solver.Solve(problem, k > 0 ? &x : nullptr, &x);
    ASSERT_TRUE(warm.IsConverged()) << "step " << k << ": " << warm.message;
    Solution cold_x;
    const SolverSummary cold = cold_solver.Solve(problem, nullptr, &cold_x);
    ASSERT_TRUE(cold.IsConverged()) << "step " << k << ": " << cold.message;
    warm_iterations += warm.iterations;
    // Stopped (v0 / (mu g) = 3.4 ms) and at rest from step 5 on: the
    // remapped guess is the answer, whatever the order and the new contact.
    if (k >= 5) {
      EXPECT_EQ(warm.iterations, 0) << "step " << k;
    }
    cold_iterations += cold.iterations;
    ASSERT_TRUE(stepper.Advance(x.v, &q, &v));
    previous_ids = ids;

    // Velocities of order 1e-2 m/s, solved to 1e-12: agreement to 1e-9 of
    // them.
    ASSERT_LE((v - v_ref).norm(), 1e-9 * v0.norm()) << "step " << k;
    ASSERT_LE((q - q_ref).norm(), 1e-9 * o.h * v0.norm()) << "step " << k;
  }
  EXPECT_LT(warm_iterations, cold_iterations);
}

// Previous contacts 10, 20, 30; new contacts 30 (kept, moved first), 40
// (appeared), 10 (kept, moved last); 20 vanished.
TEST(RemapContactGuessTest, AppearingVanishingReordered) {
  Solution previous;
  previous.v = Eigen::VectorXd::LinSpaced(4, 1.0, 4.0);
  previous.r = Eigen::VectorXd::LinSpaced(9, 1.0, 9.0);
  previous.u = -previous.r;
  Solution guess;
  ASSERT_EQ(RemapContactGuess({10, 20, 30}, previous, {30, 40, 10}, &guess),
            "");
  EXPECT_EQ(guess.v, previous.v);
  const Eigen::VectorXd r_expected{{7, 8, 9, 0, 0, 0, 1, 2, 3}};
  EXPECT_EQ(guess.r, r_expected);
  EXPECT_EQ(guess.u, Eigen::VectorXd(-r_expected));
}

TEST(RemapContactGuessTest, InPlaceEmptyUAndEmptySets) {
  Solution x;
  x.v = Eigen::VectorXd::Ones(2);
  x.r = Eigen::VectorXd::LinSpaced(6, 1.0, 6.0);
  ASSERT_EQ(RemapContactGuess({-5, 7}, x, {7, -5, 8}, &x), "");
  EXPECT_EQ(x.r, Eigen::VectorXd({{4, 5, 6, 1, 2, 3, 0, 0, 0}}));
  EXPECT_EQ(x.u.size(), 0);
  EXPECT_EQ(x.v, Eigen::VectorXd::Ones(2));
  // Every contact vanished, then contacts appear from an empty set.
  ASSERT_EQ(RemapContactGuess({7, -5, 8}, x, {}, &x), "");
  EXPECT_EQ(x.r.size(), 0);
  ASSERT_EQ(RemapContactGuess({}, x, {1, 2}, &x), "");
  EXPECT_EQ(x.r, Eigen::VectorXd::Zero(6));
}

TEST(RemapContactGuessTest, RefusesRepeatedIdsAndWrongSizes) {
  Solution previous;
  previous.r = Eigen::VectorXd::Ones(6);
  Solution guess;
  guess.r = Eigen::VectorXd::Constant(1, 7.0);
  EXPECT_NE(RemapContactGuess({1, 1}, previous, {1}, &guess).find("twice"),
            std::string::npos);
  EXPECT_NE(RemapContactGuess({1, 2}, previous, {3, 3}, &guess).find("twice"),
            std::string::npos);
  EXPECT_NE(RemapContactGuess({1, 2, 3}, previous, {1}, &guess).find("3 x 3"),
            std::string::npos);
  previous.u = Eigen::VectorXd::Ones(3);
  EXPECT_NE(RemapContactGuess({1, 2}, previous, {1}, &guess).find("u ("),
            std::string::npos);
  EXPECT_EQ(guess.r, Eigen::VectorXd::Constant(1, 7.0));  // untouched
}

Solution MakeSolution(double v0, double u0, double r0) {
  Solution x;
  x.v = Eigen::VectorXd::LinSpaced(4, v0, v0 + 3.0);
  x.u = Eigen::VectorXd::LinSpaced(6, u0, u0 + 5.0);
  x.r = Eigen::VectorXd::LinSpaced(6, r0, r0 + 5.0);
  return x;
}

TEST(ExtrapolateGuessTest, ContinuesTheLastIncrement) {
  const Solution older = MakeSolution(1.0, -2.0, 0.5);
  const Solution previous = MakeSolution(1.5, -1.0, 0.75);
  Solution guess;
  ASSERT_EQ(ExtrapolateGuess(older, previous, &guess), "");
  // Exact in binary: previous + (previous - older).
  EXPECT_EQ(guess.v, MakeSolution(2.0, 0.0, 1.0).v);
  EXPECT_EQ(guess.u, MakeSolution(2.0, 0.0, 1.0).u);
  EXPECT_EQ(guess.r, MakeSolution(2.0, 0.0, 1.0).r);
}

TEST(ExtrapolateGuessTest, MayAliasEitherInput) {
  const Solution expected = MakeSolution(2.0, 0.0, 1.0);
  Solution older = MakeSolution(1.0, -2.0, 0.5);
  Solution previous = MakeSolution(1.5, -1.0, 0.75);
  ASSERT_EQ(ExtrapolateGuess(older, previous, &previous), "");
  EXPECT_EQ(previous.r, expected.r);
  previous = MakeSolution(1.5, -1.0, 0.75);
  ASSERT_EQ(ExtrapolateGuess(older, previous, &older), "");
  EXPECT_EQ(older.v, expected.v);
  EXPECT_EQ(older.u, expected.u);
}

TEST(ExtrapolateGuessTest, EmptyUInBothIsAllowed) {
  Solution older = MakeSolution(1.0, -2.0, 0.5);
  Solution previous = MakeSolution(1.5, -1.0, 0.75);
  older.u.resize(0);
  previous.u.resize(0);
  Solution guess;
  ASSERT_EQ(ExtrapolateGuess(older, previous, &guess), "");
  EXPECT_EQ(guess.u.size(), 0);
  EXPECT_EQ(guess.r, MakeSolution(2.0, 0.0, 1.0).r);
}

TEST(ExtrapolateGuessTest, AChangedContactSetIsRefusedAndGuessKept) {
  const Solution older = MakeSolution(1.0, -2.0, 0.5);
  Solution previous = MakeSolution(1.5, -1.0, 0.75);
  previous.r.conservativeResize(9);  // a contact appeared
  previous.r.tail(3).setZero();
  Solution guess = MakeSolution(7.0, 7.0, 7.0);
  const std::string error = ExtrapolateGuess(older, previous, &guess);
  EXPECT_NE(error.find("RemapContactGuess"), std::string::npos) << error;
  EXPECT_EQ(guess.r, MakeSolution(7.0, 7.0, 7.0).r);
}

}  // namespace
}  // namespace fcsn
