// elastic_bar_model.cc: mesh, H8 elasticity (examples/fem), contacts and the
// theta-method step problem of the elastic bar on a plane.
#include "elastic_bar_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

#include "contact_steps.h"

namespace fcsn::elastic_bar {

BarOptions BarOptions::Small() {
  BarOptions options;
  options.nx = 10;
  options.ny = 3;
  options.nz = 1;
  return options;
}

std::string BarOptions::Validate() const {
  std::ostringstream out;
  auto positive = [&out](const char* name, double value) {
    if (!(value > 0.0) || !std::isfinite(value)) {
      out << "BarOptions::" << name << " must be positive and finite, got "
          << value << ".";
      return false;
    }
    return true;
  };
  auto non_negative = [&out](const char* name, double value) {
    if (!(value >= 0.0) || !std::isfinite(value)) {
      out << "BarOptions::" << name << " must be >= 0 and finite, got " << value
          << ".";
      return false;
    }
    return true;
  };
  if (!positive("length", length) || !positive("width", width) ||
      !positive("thickness", thickness) ||
      !positive("youngs_modulus", youngs_modulus) ||
      !positive("density", density) || !positive("h", h) ||
      !non_negative("rayleigh_beta", rayleigh_beta) ||
      !non_negative("mu", mu) || !non_negative("gravity", gravity)) {
    return out.str();
  }
  if (!non_negative("push_factor", push_factor)) return out.str();
  if (push_ramp_steps < 1) return "BarOptions::push_ramp_steps must be >= 1.";
  if (nx < 1 || ny < 1 || nz < 1) {
    return "BarOptions::nx, ny and nz must be >= 1.";
  }
  if (!(poisson_ratio > -1.0 && poisson_ratio < 0.5)) {
    return "BarOptions::poisson_ratio must lie in (-1, 0.5).";
  }
  if (!(theta > 0.0 && theta <= 1.0)) {
    return "BarOptions::theta must lie in (0, 1].";
  }
  if (!std::isfinite(initial_velocity)) {
    return "BarOptions::initial_velocity must be finite.";
  }
  if (!(stiffness_drop_tolerance >= 0.0 && stiffness_drop_tolerance <= 1e-6)) {
    return "BarOptions::stiffness_drop_tolerance must lie in [0, 1e-6].";
  }
  return "";
}

std::unique_ptr<ElasticBar> ElasticBar::Create(const BarOptions& options,
                                               std::string* error) {
  const std::string message = options.Validate();
  if (!message.empty()) {
    if (error != nullptr) *error = message;
    return nullptr;
  }
  std::unique_ptr<ElasticBar> bar(new ElasticBar(options));
  const std::string assembly_error = bar->Assemble();
  if (!assembly_error.empty()) {
    if (error != nullptr) *error = assembly_error;
    return nullptr;
  }
  bar->Reset();
  return bar;
}

ElasticBar::ElasticBar(const BarOptions& options) : options_(options) {
  grid_.lower = Eigen::Vector3d::Zero();
  grid_.upper =
      Eigen::Vector3d(options.length, options.width, options.thickness);
  grid_.nx = options.nx;
  grid_.ny = options.ny;
  grid_.nz = options.nz;
  grid_.first_node = 0;
}

std::string ElasticBar::Assemble() {
  std::vector<fem::Triplet> triplets;
  mass_ = Eigen::VectorXd::Zero(n());
  z_load_ = Eigen::VectorXd::Zero(n());
  const fem::ElasticMaterial material{
      options_.youngs_modulus, options_.poisson_ratio, options_.density};
  fem::AssembleGrid(grid_, material, &triplets, &mass_, &z_load_);
  K_ = fem::SymmetricMatrix(n(), triplets, options_.stiffness_drop_tolerance);
  MoreauJeanOptions time;
  time.h = options_.h;
  time.theta = options_.theta;
  time.rayleigh_beta = options_.rayleigh_beta;
  push_load_ = Eigen::VectorXd::Zero(n());
  const int face_nodes = (grid_.ny + 1) * (grid_.nz + 1);
  for (int k = 0; k <= grid_.nz; ++k) {
    for (int j = 0; j <= grid_.ny; ++j) {
      push_load_[3 * grid_.Node(0, j, k)] = 1.0 / face_nodes;
    }
  }
  AssembleMass(material);
  const std::string stepper_error = stepper_.Setup(time, M_, K_);
  if (!stepper_error.empty()) return stepper_error;

  // Contact a is bottom node a (k = 0 comes first in HexGrid's numbering);
  // frame columns (n, t1, t2) = (e_z, e_x, e_y).
  constexpr int kFrameAxis[3] = {2, 0, 1};
  std::vector<fem::Triplet> h_triplets;
  h_triplets.reserve(m());
  for (int a = 0; a < nc(); ++a) {
    for (int j = 0; j < 3; ++j) {
      h_triplets.emplace_back(3 * a + kFrameAxis[j], 3 * a + j, 1.0);
    }
  }
  H_.resize(n(), m());
  H_.setFromTriplets(h_triplets.begin(), h_triplets.end());
  H_.makeCompressed();
  mu_ = Eigen::VectorXd::Constant(nc(), options_.mu);
  return "";
}

void ElasticBar::AssembleMass(const fem::ElasticMaterial& material) {
  if (options_.consistent_mass) {
    std::vector<fem::Triplet> triplets;
    fem::AssembleConsistentMass(grid_, material, &triplets);
    // All entries are positive: nothing cancels, nothing to drop.
    M_ = fem::SymmetricMatrix(n(), triplets, 0.0);
    return;
  }
  M_.resize(n(), n());
  M_.setIdentity();
  M_.diagonal() = mass_;
}

double ElasticBar::total_mass() const {
  return options_.density * options_.length * options_.width *
         options_.thickness;
}

double ElasticBar::weight_impulse() const {
  return total_mass() * options_.gravity * options_.h;
}

void ElasticBar::Reset() {
  step_ = 0;
  q_ = Eigen::VectorXd::Zero(n());
  v_ = Eigen::VectorXd::Zero(n());
  for (int node = 0; node < grid_.NumNodes(); ++node) {
    v_[3 * node] = options_.initial_velocity;
  }
}

Eigen::Vector3d ElasticBar::MeanVelocity() const {
  Eigen::Vector3d momentum = Eigen::Vector3d::Zero();
  double mass = 0.0;
  for (int node = 0; node < grid_.NumNodes(); ++node) {
    momentum +=
        mass_.segment<3>(3 * node).cwiseProduct(v_.segment<3>(3 * node));
    mass += mass_[3 * node];
  }
  return momentum / mass;
}

Eigen::VectorXd ElasticBar::Gaps() const {
  const Eigen::VectorXd uq = H_.transpose() * q_;
  Eigen::VectorXd gaps(nc());
  for (int a = 0; a < nc(); ++a) gaps[a] = uq[3 * a];
  return gaps;
}

void ElasticBar::BuildStepProblem(GlobalProblem* problem) const {
  problem->M = stepper_.iteration_matrix();
  problem->H = H_;
  problem->mu = mu_;
  problem->G.resize(n(), 0);
  problem->b.resize(0);
  // The step's weight impulse -h g Fz, and w = (gap at q~ / h) e_N with zero
  // gaps at q = 0.
  Eigen::VectorXd impulse = -(options_.h * options_.gravity) * z_load_;
  if (options_.push_factor > 0.0) {
    const double ramp = std::min(
        1.0, static_cast<double>(step_ + 1) / options_.push_ramp_steps);
    const double sliding = options_.mu * total_mass() * options_.gravity;
    impulse +=
        (options_.h * ramp * options_.push_factor * sliding) * push_load_;
  }
  stepper_.FreeTerm(q_, v_, impulse, &problem->f);
  stepper_.GapFreeTerm(H_, Eigen::VectorXd(), q_, v_, &problem->w);
}

bool ElasticBar::Advance(const Solution& solution, std::string* error) {
  if (std::string why =
          fem::WhyUnusableStep("ElasticBar::Advance", solution, n(), m());
      !why.empty()) {
    if (error != nullptr) *error = why;
    return false;
  }
  stepper_.Advance(solution.v, &q_, &v_);
  ++step_;
  return true;
}

StepDiagnostics ElasticBar::Diagnose(const Solution& solution,
                                     double open_tolerance,
                                     double slip_tolerance) const {
  StepDiagnostics out;
  if (solution.r.size() != m()) return out;
  const double max_rn = fem::MaxNormalImpulse(solution.r);
  out.min_u_n = solution.u.size() == m() ? solution.u[0] : 0.0;
  for (int a = 0; a < nc(); ++a) {
    const Eigen::Vector3d r = solution.r.segment<3>(3 * a);
    switch (fem::ClassifyContact(
        r, mu_[a], max_rn, open_tolerance, slip_tolerance)) {
      case fem::ContactState::kOpen:
        ++out.open;
        break;
      case fem::ContactState::kSlip:
        ++out.slip;
        break;
      case fem::ContactState::kStick:
        ++out.stick;
        break;
    }
    out.sum_r += r;
    if (solution.u.size() == m()) {
      out.min_u_n = std::min(out.min_u_n, solution.u[3 * a]);
    }
  }
  return out;
}

std::string FclibFileName(const BarOptions& options, int nc, int step) {
  char buffer[128];
  std::snprintf(buffer,
                sizeof(buffer),
                "ElasticBar-%dx%dx%d-nc%d-%05d.hdf5",
                options.nx,
                options.ny,
                options.nz,
                nc,
                step);
  return buffer;
}

}  // namespace fcsn::elastic_bar
