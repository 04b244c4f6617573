// Deterministic generator of small, valid global frictional contact problems
// (fcsn/problem.h) for the property tests, the sweep (bench/property_sweep)
// and the solver fuzzer's seeds.
//
// "Valid" means a solution exists: every contact either sits on dofs that
// can move its normal gap open (strict feasibility: some v gives u_N > 0 at
// every contact, which for the De Saxcé velocity is û ∈ int K*), or has an
// empty H block and a non-negative gap. A singular M is only generated where
// the contacts remove its null space and the loads push into them.
//
// Every case is a pure function of (family, seed): std::mt19937_64 seeded
// with the seed, no global state, so a failing case is reproduced by its
// name.
#ifndef FCSN_TESTS_PROPERTY_PROPERTY_PROBLEMS_H_
#define FCSN_TESTS_PROPERTY_PROPERTY_PROBLEMS_H_

#include <array>
#include <cstdint>
#include <string>

#include "fcsn/problem.h"

namespace fcsn::property {

enum class Family {
  kLumped,    // diagonal M, masses log-uniform over the target condition
  kBanded,    // consistent FEM-like mass plus chain stiffness (block band)
  kRigid,     // rigid bodies, 6 dofs, small rotational inertia
  kFloating,  // massless elastic chain in z: M singular, held by its contacts
  kMassless,  // diagonal M with exact zeros on dofs that a contact holds
};
inline constexpr std::array<Family, 5> kAllFamilies = {Family::kLumped,
                                                       Family::kBanded,
                                                       Family::kRigid,
                                                       Family::kFloating,
                                                       Family::kMassless};
const char* ToString(Family family);

// One generated case. `tolerance` is the tolerance the case is solved at;
// `description` names the random choices (condition, mu, gaps, units) for
// failure messages.
struct GeneratedCase {
  GlobalProblem problem;
  double tolerance = 1e-8;
  std::string description;
};

GeneratedCase MakeCase(Family family, std::uint64_t seed);

// The same problem in other units, exactly: forces (r, f) x 2^force_exp,
// velocities (v) x 2^velocity_exp, masses (M) x 2^mass_exp. The balance
// M v = H r + f then forces H x 2^(mass + velocity - force) and the local
// velocities u, w x 2^(mass + 2 velocity - force). Powers of two keep every
// value exact (away from overflow and subnormals), so a unit-free solver
// returns the same verdict.
struct UnitExponents {
  int force = 0;
  int velocity = 0;
  int mass = 0;
  int LocalVelocity() const { return mass + 2 * velocity - force; }
  int H() const { return mass + velocity - force; }
};
GlobalProblem Rescaled(const GlobalProblem& problem, const UnitExponents& e);

}  // namespace fcsn::property

#endif  // FCSN_TESTS_PROPERTY_PROPERTY_PROBLEMS_H_
