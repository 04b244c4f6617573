// fcsn/contact_status.h: the status of each contact read from its reaction r_a
// (local frame (N, T1, T2), K_a = { ||r_T|| <= mu_a r_N }, fcsn/problem.h).
//
//   take-off  r_N <= 0, or ||r_a|| <= 1e-14 max_b ||r_b||  (r_a = 0 up to
//             round-off relative to the largest reaction)
//   stick     ||r_T|| < (1 - 1e-9) mu_a r_N                 (interior of K_a)
//   slip      otherwise                                     (boundary of K_a)
//
// This is the one rule of the library: the solver's per-iteration counts
// (IterationRecord::take_off, stick, slip) and the C API's per-contact status
// (fcsn/fcsn_c.h) both use it.
//
// Per-contact results (ContactResults): the status above, the reaction r_a,
// the relative velocity u_a = [H^T v + w]_a (recomputed from v, as the error
// measures do) and De Saxce's modified velocity û_a = u_a + mu_a ||u_T,a|| e_N.
//
// Usage:
//   std::vector<fcsn::ContactStatus> statuses;
//   fcsn::ClassifyContacts(problem.mu, solution.r, &statuses);
//   std::vector<fcsn::ContactResult> results;
//   fcsn::ContactResults(problem, solution, &results);
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

// The result of one contact a of a solution (local frame N, T1, T2).
struct ContactResult {
  ContactStatus status = ContactStatus::kTakeOff;
  Eigen::Vector3d r = Eigen::Vector3d::Zero();      // reaction r_a
  Eigen::Vector3d u = Eigen::Vector3d::Zero();      // u_a = [H^T v + w]_a
  Eigen::Vector3d u_hat = Eigen::Vector3d::Zero();  // u_a + mu_a ||u_T,a|| e_N
};

// The nc results of solution (v of size n, r of size m; u is not read) for
// problem into *results, resized to nc. False, *results untouched, when the
// sizes do not match the problem.
bool ContactResults(const GlobalProblem& problem,
                    const Solution& solution,
                    std::vector<ContactResult>* results);

}  // namespace fcsn

#endif  // FCSN_CONTACT_STATUS_H_
