#include "property_problems.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <vector>

namespace fcsn::property {
namespace {

using Rng = std::mt19937_64;
using Triplets = std::vector<Eigen::Triplet<double>>;

// Size limits: small enough that every solve takes milliseconds.
constexpr int kMaxNodes = 20;            // node families: n = 3 nodes <= 60
constexpr int kMaxBodies = 8;            // rigid family: n = 6 bodies <= 48
constexpr int kMaxContactsPerBody = 4;   // one interface's corners
constexpr int kMaxPrimaryContacts = 12;  // + duplicates + empty <= 15
constexpr int kMaxDuplicates = 2;
// Condition numbers of M aimed at (exponents of ten), 1 ... 1e14.
constexpr std::array<double, 6> kConditionExponents = {0, 2, 4, 8, 11, 14};
// Friction coefficients of the brief: frictionless, nearly so, typical, high,
// and practically infinite (K* a thin cone around the normal).
constexpr std::array<double, 5> kFrictionValues = {0.0, 1e-6, 0.3, 1.0, 1e6};
constexpr std::array<double, 3> kTolerances = {1e-6, 1e-8, 1e-10};
// Units span 1e-12 ... 1e12 each (forces, velocities, masses).
constexpr double kUnitDecades = 12.0;
// Power-of-two unit exponents for the singular families: 2^40 ~ 1.1e12. An
// exact rescaling keeps their null space exact, so that the checker's test
// of regularity (a pivot below DBL_EPSILON) sees the singularity.
constexpr int kUnitBinades = 40;
// Loads: the tangential drive over the normal one spans 1e-2 ... 1e2, so
// that sticking, slipping and take-off all occur at every mu.
constexpr double kDriveDecades = 2.0;
// Relative size of the load that does not go through the contacts.
constexpr double kFreeLoad = 0.1;

enum class GapMode { kSeparating, kTouching, kPenetrating, kMixed };
constexpr std::array<const char*, 4> kGapNames = {
    "separating", "touching", "penetrating", "mixed"};

double Uniform(Rng& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}
int UniformInt(Rng& rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}
double LogUniform(Rng& rng, double lo, double hi) {
  return std::pow(10.0, Uniform(rng, std::log10(lo), std::log10(hi)));
}
template <typename T, std::size_t N>
T Pick(Rng& rng, const std::array<T, N>& values) {
  return values[UniformInt(rng, 0, static_cast<int>(N) - 1)];
}

Eigen::Vector3d RandomUnit(Rng& rng) {
  std::normal_distribution<double> normal;
  Eigen::Vector3d x;
  do {
    x = Eigen::Vector3d(normal(rng), normal(rng), normal(rng));
  } while (x.norm() < 1e-3);
  return x.normalized();
}

// Columns (N, T1, T2), orthonormal and right-handed; tangents at a random
// angle about the normal.
Eigen::Matrix3d FrameAbout(Rng& rng, const Eigen::Vector3d& normal) {
  Eigen::Vector3d helper = RandomUnit(rng);
  Eigen::Vector3d t1 = helper - helper.dot(normal) * normal;
  while (t1.norm() < 1e-3) {
    helper = RandomUnit(rng);
    t1 = helper - helper.dot(normal) * normal;
  }
  t1.normalize();
  Eigen::Matrix3d frame;
  frame << normal, t1, normal.cross(t1);
  return frame;
}

// Everything a case is assembled from, before the change of units.
struct Draft {
  int n = 0;
  Triplets m, h;
  std::vector<double> mu, g_normal, w;
  std::vector<Eigen::Vector2d> g_tangent;
  int nc() const { return static_cast<int>(mu.size()); }
};

struct Choices {
  double condition = 1.0;
  double mu = 0.0;
  bool mixed_mu = false;
  GapMode gaps = GapMode::kSeparating;
  double velocity_scale = 1.0;
};

double ContactMu(Rng& rng, const Choices& c) {
  return c.mixed_mu ? Pick(rng, kFrictionValues) : c.mu;
}

double NormalGap(Rng& rng, GapMode mode) {
  switch (mode) {
    case GapMode::kSeparating:
      return Uniform(rng, 0.1, 1.0);
    case GapMode::kTouching:
      return 0.0;
    case GapMode::kPenetrating:
      return -Uniform(rng, 0.1, 1.0);
    case GapMode::kMixed:
      return NormalGap(rng, static_cast<GapMode>(UniformInt(rng, 0, 2)));
  }
  return 0.0;
}

// Opens a new contact: mu, its load (pushing into the contact with a random
// tangential drive) and its gap w. Returns its index.
int NewContact(Rng& rng, const Choices& c, Draft* d) {
  d->mu.push_back(ContactMu(rng, c));
  d->g_normal.push_back(Uniform(rng, 0.1, 1.0));
  const double angle = Uniform(rng, 0.0, 2.0 * M_PI);
  const double drive =
      d->g_normal.back() * LogUniform(rng,
                                      std::pow(10.0, -kDriveDecades),
                                      std::pow(10.0, kDriveDecades));
  d->g_tangent.emplace_back(drive * std::cos(angle), drive * std::sin(angle));
  const bool tangential_gap = UniformInt(rng, 0, 1) == 1;
  d->w.push_back(NormalGap(rng, c.gaps) * c.velocity_scale);
  for (int k = 0; k < 2; ++k) {
    d->w.push_back(tangential_gap ? Uniform(rng, -1.0, 1.0) * c.velocity_scale
                                  : 0.0);
  }
  return d->nc() - 1;
}

void AddBlock(int row, int contact, const Eigen::Matrix3d& block, Draft* d) {
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      d->h.emplace_back(row + i, 3 * contact + j, block(i, j));
    }
  }
}

// Contacts on distinct nodes (3 dofs each); some between two nodes (H = R on
// one, -R on the other). floor_nodes get the normal +z exactly.
void AddNodeContacts(Rng& rng,
                     const Choices& c,
                     int nodes,
                     const std::vector<int>& floor_nodes,
                     bool floor_only,
                     Draft* d) {
  std::vector<int> order(nodes);
  for (int i = 0; i < nodes; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  const int wanted = UniformInt(rng, 1, std::min(nodes, kMaxPrimaryContacts));
  std::size_t next = 0;
  for (int node : floor_nodes) {
    order.erase(std::find(order.begin(), order.end(), node));
    const int a = NewContact(rng, c, d);
    AddBlock(3 * node, a, FrameAbout(rng, Eigen::Vector3d::UnitZ()), d);
  }
  while (d->nc() < wanted && next < order.size()) {
    const int node = order[next++];
    const Eigen::Matrix3d frame =
        floor_only ? FrameAbout(rng, Eigen::Vector3d::UnitZ())
                   : FrameAbout(rng, RandomUnit(rng));
    const int a = NewContact(rng, c, d);
    AddBlock(3 * node, a, frame, d);
    const bool pair =
        !floor_only && next < order.size() && UniformInt(rng, 0, 3) == 0;
    if (pair) AddBlock(3 * order[next++], a, -frame, d);
  }
}

// Rank-deficient H: exact copies of contacts (same columns, gap and mu); an
// empty contact (no dof, u = w) with a gap that is not closing.
void AddDuplicatesAndEmpty(Rng& rng, const Choices& c, Draft* d) {
  const int duplicates =
      UniformInt(rng, 0, 3) == 0 ? UniformInt(rng, 1, kMaxDuplicates) : 0;
  for (int k = 0; k < duplicates && d->nc() > 0; ++k) {
    const int source = UniformInt(rng, 0, d->nc() - 1);
    const int copy = d->nc();
    d->mu.push_back(d->mu[source]);
    d->g_normal.push_back(d->g_normal[source]);
    d->g_tangent.push_back(d->g_tangent[source]);
    for (int i = 0; i < 3; ++i) d->w.push_back(d->w[3 * source + i]);
    const std::size_t count = d->h.size();
    for (std::size_t e = 0; e < count; ++e) {
      const auto t = d->h[e];
      if (t.col() / 3 == source) {
        d->h.emplace_back(t.row(), 3 * copy + t.col() % 3, t.value());
      }
    }
  }
  if (UniformInt(rng, 0, 5) == 0) {
    const int a = NewContact(rng, c, d);
    d->w[3 * a] = std::abs(d->w[3 * a]);
  }
}

// Consistent two-node element masses plus chain springs whose stiffness sets
// the condition (about (mass + 4 k) / (mass / 3)).
void BandedMass(Rng& rng, const Choices& c, int nodes, Draft* d) {
  const double k = std::max(0.0, (c.condition / 3.0 - 1.0) / 4.0);
  for (int e = 0; e + 1 < nodes; ++e) {
    const double mass = Uniform(rng, 0.5, 2.0) / 6.0;
    const double spring = k * Uniform(rng, 0.5, 2.0);
    for (int x = 0; x < 3; ++x) {
      const int i = 3 * e + x, j = 3 * (e + 1) + x;
      d->m.emplace_back(i, i, 2.0 * mass + spring);
      d->m.emplace_back(j, j, 2.0 * mass + spring);
      d->m.emplace_back(i, j, mass - spring);
      d->m.emplace_back(j, i, mass - spring);
    }
  }
  if (nodes == 1) {
    for (int x = 0; x < 3; ++x) d->m.emplace_back(x, x, 1.0);
  }
}

void BuildNodeFamily(Rng& rng, Family family, const Choices& c, Draft* d) {
  const int nodes = UniformInt(rng, 2, kMaxNodes);
  d->n = 3 * nodes;
  if (family == Family::kBanded) {
    BandedMass(rng, c, nodes, d);
    AddNodeContacts(rng, c, nodes, {}, false, d);
    return;
  }
  // kMassless: the z dof of 1-3 contact nodes has no mass; their contact has
  // the normal +z exactly, so that it alone balances the load there.
  const int massless = UniformInt(rng, 1, std::min(3, nodes));
  std::vector<int> floor(massless);
  for (int i = 0; i < massless; ++i) floor[i] = i * (nodes / massless);
  for (int i = 0; i < d->n; ++i) {
    const bool zero =
        family == Family::kMassless && i % 3 == 2 &&
        std::find(floor.begin(), floor.end(), i / 3) != floor.end();
    if (!zero) d->m.emplace_back(i, i, LogUniform(rng, 1.0, c.condition));
  }
  AddNodeContacts(rng,
                  c,
                  nodes,
                  family == Family::kMassless ? floor : std::vector<int>{},
                  false,
                  d);
}

// A chain of massless springs in z (integer stiffnesses: the rows of its
// Laplacian sum to exactly 0, a null space of exact rigid vertical motion),
// masses in x and y; floor contacts with normal +z hold it.
void BuildFloating(Rng& rng, const Choices& c, Draft* d) {
  constexpr int kMaxSpring = 1024;  // integers: exact sums
  const int nodes = UniformInt(rng, 2, kMaxNodes);
  d->n = 3 * nodes;
  for (int e = 0; e + 1 < nodes; ++e) {
    const double k = UniformInt(rng, 1, kMaxSpring);
    for (int x = 0; x < 3; ++x) {
      const int i = 3 * e + x, j = 3 * (e + 1) + x;
      d->m.emplace_back(i, i, k);
      d->m.emplace_back(j, j, k);
      d->m.emplace_back(i, j, -k);
      d->m.emplace_back(j, i, -k);
    }
  }
  for (int i = 0; i < d->n; ++i) {
    if (i % 3 != 2) d->m.emplace_back(i, i, LogUniform(rng, 1.0, c.condition));
  }
  AddNodeContacts(rng, c, nodes, {}, true, d);
}

// Rigid bodies (translation, rotation) on the ground; one common normal per
// body, so that lifting it opens all its contacts (strict feasibility).
void BuildRigid(Rng& rng, const Choices& c, Draft* d) {
  const int bodies = UniformInt(rng, 1, kMaxBodies);
  d->n = 6 * bodies;
  // Bodies beyond the contact budget fly free: they still have their mass.
  for (int b = 0; b < bodies; ++b) {
    const double mass = Uniform(rng, 0.5, 2.0);
    for (int x = 0; x < 6; ++x) {
      const double inertia = mass * Uniform(rng, 0.5, 2.0) / c.condition;
      d->m.emplace_back(6 * b + x, 6 * b + x, x < 3 ? mass : inertia);
    }
    const Eigen::Vector3d normal = RandomUnit(rng);
    const int count = UniformInt(rng, 1, kMaxContactsPerBody);
    for (int k = 0; k < count && d->nc() < kMaxPrimaryContacts; ++k) {
      const Eigen::Matrix3d frame = FrameAbout(rng, normal);
      const Eigen::Vector3d point(
          Uniform(rng, -1, 1), Uniform(rng, -1, 1), Uniform(rng, -1, 1));
      Eigen::Matrix3d moment;
      for (int j = 0; j < 3; ++j) moment.col(j) = point.cross(frame.col(j));
      const int a = NewContact(rng, c, d);
      AddBlock(6 * b, a, frame, d);
      AddBlock(6 * b + 3, a, moment, d);
    }
  }
}

Choices Choose(Rng& rng) {
  Choices c;
  c.condition = std::pow(10.0, Pick(rng, kConditionExponents));
  c.mixed_mu = UniformInt(rng, 0, 5) == 0;
  c.mu = Pick(rng, kFrictionValues);
  c.gaps = static_cast<GapMode>(UniformInt(rng, 0, 3));
  c.velocity_scale = LogUniform(rng, 1e-2, 1e2);
  return c;
}

// f = -H g + M xi: the loads push into the contacts with a tangential drive,
// plus a free part.
GlobalProblem Assemble(Rng& rng, const Draft& d) {
  GlobalProblem p;
  p.M.resize(d.n, d.n);
  p.M.setFromTriplets(d.m.begin(), d.m.end());
  p.H.resize(d.n, 3 * d.nc());
  p.H.setFromTriplets(d.h.begin(), d.h.end());
  p.mu = Eigen::Map<const Eigen::VectorXd>(d.mu.data(), d.nc());
  p.w = Eigen::Map<const Eigen::VectorXd>(d.w.data(), 3 * d.nc());
  Eigen::VectorXd g(3 * d.nc());
  for (int a = 0; a < d.nc(); ++a) {
    g.segment<3>(3 * a) << d.g_normal[a], d.g_tangent[a];
  }
  Eigen::VectorXd xi(d.n);
  for (int i = 0; i < d.n; ++i) xi[i] = Uniform(rng, -kFreeLoad, kFreeLoad);
  p.f = -(p.H * g) + p.M * xi;
  return p;
}

void Scale(GlobalProblem* p, double mass, double velocity, double force) {
  p->M *= mass;
  p->f *= mass * velocity;
  p->H *= mass * velocity / force;
  p->w *= mass * velocity * velocity / force;
}

}  // namespace

const char* ToString(Family family) {
  switch (family) {
    case Family::kLumped:
      return "lumped";
    case Family::kBanded:
      return "banded";
    case Family::kRigid:
      return "rigid";
    case Family::kFloating:
      return "floating";
    case Family::kMassless:
      return "massless";
  }
  return "?";
}

GeneratedCase MakeCase(Family family, std::uint64_t seed) {
  Rng rng(seed * kAllFamilies.size() + static_cast<std::uint64_t>(family));
  const Choices c = Choose(rng);
  Draft d;
  switch (family) {
    case Family::kLumped:
    case Family::kBanded:
    case Family::kMassless:
      BuildNodeFamily(rng, family, c, &d);
      break;
    case Family::kRigid:
      BuildRigid(rng, c, &d);
      break;
    case Family::kFloating:
      BuildFloating(rng, c, &d);
      break;
  }
  AddDuplicatesAndEmpty(rng, c, &d);
  GeneratedCase out;
  out.problem = Assemble(rng, d);
  out.tolerance = Pick(rng, kTolerances);
  std::ostringstream text;
  text << ToString(family) << " seed " << seed << ": n " << d.n << ", nc "
       << d.nc() << ", cond 1e" << std::log10(c.condition) << ", mu "
       << (c.mixed_mu ? "mixed" : std::to_string(c.mu)) << ", gaps "
       << kGapNames[static_cast<int>(c.gaps)] << ", tol " << out.tolerance;
  const bool singular =
      family == Family::kFloating || family == Family::kMassless;
  if (singular) {
    UnitExponents e{UniformInt(rng, -kUnitBinades, kUnitBinades),
                    UniformInt(rng, -kUnitBinades, kUnitBinades),
                    UniformInt(rng, -kUnitBinades, kUnitBinades)};
    out.problem = Rescaled(out.problem, e);
    text << ", units 2^(" << e.force << ", " << e.velocity << ", " << e.mass
         << ")";
  } else {
    const double mass =
        std::pow(10.0, Uniform(rng, -kUnitDecades, kUnitDecades));
    const double velocity =
        std::pow(10.0, Uniform(rng, -kUnitDecades, kUnitDecades));
    const double force =
        std::pow(10.0, Uniform(rng, -kUnitDecades, kUnitDecades));
    Scale(&out.problem, mass, velocity, force);
    text << ", units (F " << force << ", V " << velocity << ", M " << mass
         << ")";
  }
  out.description = text.str();
  return out;
}

GlobalProblem Rescaled(const GlobalProblem& problem, const UnitExponents& e) {
  GlobalProblem p = problem;
  const auto times = [](double x, int exp) { return std::ldexp(x, exp); };
  p.M = p.M.unaryExpr([&](double x) { return times(x, e.mass); });
  p.H = p.H.unaryExpr([&](double x) { return times(x, e.H()); });
  p.f = p.f.unaryExpr([&](double x) { return times(x, e.mass + e.velocity); });
  p.w = p.w.unaryExpr([&](double x) { return times(x, e.LocalVelocity()); });
  return p;
}

}  // namespace fcsn::property
