#include "newton/cold_start.h"

#include <algorithm>

namespace fcsn::internal {
namespace {

// Why 1e-6: far above round-off (kColdStartRoundOff = 1e-10 with the boost
// 30: a margin >= 1e3) and far below the reactions of a solution, so the
// start's measures are those of r = 0 to about six digits.
constexpr double kRestingReaction = 1e-6;

// ||q_free - w||_inf: the scale of the free motion against which velocities
// count as round-off.
double FreeMotion(const Eigen::VectorXd& q_free, const Eigen::VectorXd& w) {
  return (q_free - w).lpNorm<Eigen::Infinity>();
}

// Whether the free flight drives contact a's two sides together (the
// header's approaching contacts).
bool Approaching(const Eigen::VectorXd& q_free, double free_motion, int a) {
  return q_free[3 * a] < -kColdStartRoundOff * free_motion;
}

// Starts every resting contact closed, from the start's local velocity u0
// (file comment of the header).
void CloseRestingContacts(const GlobalProblem& problem,
                          const Eigen::VectorXd& q_free,
                          const Eigen::VectorXd& u0,
                          const Eigen::VectorXd& rho,
                          Eigen::VectorXd* r) {
  if (problem.nc() == 0) return;
  const double free_motion = FreeMotion(q_free, problem.w);
  if (!(free_motion > 0.0)) return;
  for (int a = 0; a < problem.nc(); ++a) {
    const bool resting = u0.segment<3>(3 * a).lpNorm<Eigen::Infinity>() <=
                             kColdStartRoundOff * free_motion &&
                         r->segment<3>(3 * a).squaredNorm() == 0.0;
    if (resting) (*r)[3 * a] = kRestingReaction * rho[3 * a] * free_motion;
  }
}

// Starts every approaching contact closed and sticking at the start's local
// velocity u0 (w at v = 0, q_free at the free flight; file comment of the
// header).
void CloseApproachingContacts(const GlobalProblem& problem,
                              const Eigen::VectorXd& q_free,
                              const Eigen::VectorXd& u0,
                              const Eigen::VectorXd& rho,
                              double boost,
                              Eigen::VectorXd* r) {
  // Why 2: s is then at least halfway inside the stick piece's boundaries
  // (s_N >= r_N / 2 > 0, ||s_T|| <= mu s_N / 2), whatever rounding adds.
  constexpr double kStickMargin = 2.0;
  if (problem.nc() == 0) return;
  const double free_motion = FreeMotion(q_free, problem.w);
  if (!(free_motion > 0.0)) return;
  for (int a = 0; a < problem.nc(); ++a) {
    if (!Approaching(q_free, free_motion, a)) continue;
    const double rho_n = rho[3 * a];
    const double rho_t = std::max(rho[3 * a + 1], rho[3 * a + 2]);
    const double u0_t = u0.segment<2>(3 * a + 1).norm();
    const double mu = problem.mu[a];
    double closing = rho_n * std::max(u0[3 * a], 0.0);
    if (mu > 0.0) closing += rho_t * u0_t / mu;
    (*r)[3 * a] =
        kStickMargin * boost * closing + kRestingReaction * rho_n * free_motion;
  }
}

}  // namespace

bool FreeFlightSticks(const GlobalProblem& problem,
                      const Eigen::VectorXd& q_free) {
  const double free_motion = FreeMotion(q_free, problem.w);
  for (int a = 0; a < problem.nc(); ++a) {
    if (Approaching(q_free, free_motion, a) &&
        q_free.segment<2>(3 * a + 1).norm() > problem.mu[a] * -q_free[3 * a]) {
      return false;
    }
  }
  return true;
}

bool AtRest(const Eigen::VectorXd& w, const Eigen::VectorXd& q_free) {
  if (w.size() == 0) return false;  // no contact, no kink to avoid
  return w.lpNorm<Eigen::Infinity>() <=
         kColdStartRoundOff * FreeMotion(q_free, w);
}

void ApplyColdStart(ColdStart cold_start,
                    const GlobalProblem& problem,
                    const Eigen::VectorXd& free_velocity,
                    const Eigen::VectorXd& q_free,
                    const Eigen::VectorXd& rho,
                    double boost,
                    Eigen::VectorXd* v,
                    Eigen::VectorXd* r) {
  switch (cold_start) {
    case ColdStart::kZero:
      return;
    case ColdStart::kFreeFlight:
      *v = free_velocity;
      return;
    case ColdStart::kBonded:
      CloseRestingContacts(problem, q_free, problem.w, rho, r);
      return;
    case ColdStart::kAuto: {
      // At rest every contact is resting: bonded. Off rest the approaching
      // contacts first, so that a resting one that also approaches keeps the
      // approaching reaction; the resting ones skip closed contacts. From
      // the free flight when it slides no approaching contact.
      const bool at_rest = AtRest(problem.w, q_free);
      if (!at_rest && FreeFlightSticks(problem, q_free)) *v = free_velocity;
      const Eigen::VectorXd u0 = problem.H.transpose() * *v + problem.w;
      if (!at_rest)
        CloseApproachingContacts(problem, q_free, u0, rho, boost, r);
      CloseRestingContacts(problem, q_free, u0, rho, r);
      return;
    }
    case ColdStart::kApproaching:
      CloseApproachingContacts(problem, q_free, problem.w, rho, boost, r);
      return;
  }
}

}  // namespace fcsn::internal
