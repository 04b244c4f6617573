// fcsn/contact_status.h: the status of each contact, take-off / stick / slip
// (local frame (N, T1, T2), K_a = { ||r_T|| <= mu_a r_N }, fcsn/problem.h).
//
// Of a solution (v, r): from both sides of the law (ClassifySolution,
// ContactResults, the C API's per-contact statuses). With u = H^T v + w,
// tol the solve's tolerance and the scales of its criterion
// (fcsn/error_measures.h): s_r = ||r||, s_u = max(|| |H^T||v| + |w| ||,
// ||û||, s_eps), s_eps the solve's round-off floor of velocities,
//
//   take-off  r_N <= 0, or ||r_a|| <= tol s_r      (no reaction the tolerance
//                                                    can see)
//   slip      ||u_T,a|| > tol s_u                  (a slip the tolerance can
//                                                    see, whatever r says), or
//             ||r_T|| >= (1 - tol) mu_a r_N         (r_a on the boundary of K_a)
//   stick     otherwise                            (r_a inside K_a, no visible
//                                                    slip)
//
// so a sliding contact is never labelled stick because its reaction sits a
// round-off inside the cone, and the margins follow the answer's own scales
// in any units.
//
// Of a Newton iterate: from the reaction alone (ClassifyContact,
// ClassifyContacts), the active set that a semismooth Newton step reads; the
// solver's per-iteration counts (IterationRecord::take_off, stick, slip)
// use it:
//
//   take-off  r_N <= 0, or ||r_a|| <= 1e-14 max_b ||r_b||  (r_a = 0 up to
//             round-off relative to the largest reaction)
//   stick     ||r_T|| < (1 - 1e-9) mu_a r_N                 (interior of K_a)
//   slip      otherwise                                     (boundary of K_a)
//
// Per-contact results (ContactResults): the status of a solution, the
// reaction r_a, the relative velocity u_a = [H^T v + w]_a (recomputed from v,
// as the error measures do) and De Saxce's modified velocity
// û_a = u_a + mu_a ||u_T,a|| e_N.
//
// Usage:
//   fcsn::ContactStatusScales scales;
//   scales.tolerance = options.tolerance;
//   scales.velocity_floor = summary.velocity_floor;
//   std::vector<fcsn::ContactResult> results;
//   fcsn::ContactResults(problem, solution, &results, scales);
#ifndef FCSN_CONTACT_STATUS_H_
#define FCSN_CONTACT_STATUS_H_

#include <Eigen/Core>
#include <vector>

#include "fcsn/problem.h"

namespace fcsn {

enum class ContactStatus : char {
  kTakeOff,  // "take-off": r_a = 0, the contact is open
  kStick,    // "stick": r_a in the interior of K_a
  kSlip,     // "slip": r_a on the boundary of K_a, r_a != 0
};

inline const char* ToString(ContactStatus x) {
  switch (x) {
    case ContactStatus::kTakeOff:
      return "take-off";
    case ContactStatus::kStick:
      return "stick";
    case ContactStatus::kSlip:
      return "slip";
  }
  return "?";
}

// Status of one contact with friction coefficient mu and reaction r_a;
// largest_reaction = max_b ||r_b|| over all contacts (the round-off scale of
// "r_a = 0").
ContactStatus ClassifyContact(double mu,
                              const Eigen::Vector3d& r_a,
                              double largest_reaction);

// Statuses of all nc = mu.size() contacts of r (3 nc entries) into *statuses,
// resized to nc (no allocation when its capacity suffices).
void ClassifyContacts(const Eigen::VectorXd& mu,
                      const Eigen::VectorXd& r,
                      std::vector<ContactStatus>* statuses);

// The scales of a solution's statuses (see the header comment).
struct ContactStatusScales {
  // The solve's tolerance (SolverOptions::tolerance): the relative margin of
  // every test. In (0, 1).
  double tolerance = 1e-8;
  // The solve's round-off floor of velocities s_eps
  // (SolverSummary::velocity_floor); 0: none (velocities are then judged
  // against || |H^T||v| + |w| || and ||û|| alone).
  double velocity_floor = 0.0;
};

// Statuses of all contacts of solution (v of size n, r of size m; u is not
// read) into *statuses, resized to nc, from both sides of the law. False,
// *statuses untouched, when the sizes do not match the problem.
bool ClassifySolution(const GlobalProblem& problem,
                      const Solution& solution,
                      const ContactStatusScales& scales,
                      std::vector<ContactStatus>* statuses);

// The result of one contact a of a solution (local frame N, T1, T2).
struct ContactResult {
  ContactStatus status = ContactStatus::kTakeOff;
  Eigen::Vector3d r = Eigen::Vector3d::Zero();      // reaction r_a
  Eigen::Vector3d u = Eigen::Vector3d::Zero();      // u_a = [H^T v + w]_a
  Eigen::Vector3d u_hat = Eigen::Vector3d::Zero();  // u_a + mu_a ||u_T,a|| e_N
};

// The nc results of solution (v of size n, r of size m; u is not read) for
// problem into *results, resized to nc, statuses by ClassifySolution. False,
// *results untouched, when the sizes do not match the problem.
bool ContactResults(const GlobalProblem& problem,
                    const Solution& solution,
                    std::vector<ContactResult>* results,
                    const ContactStatusScales& scales = {});

}  // namespace fcsn

#endif  // FCSN_CONTACT_STATUS_H_
