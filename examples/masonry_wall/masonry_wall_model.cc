// masonry_wall_model.cc: mesh, H8 elasticity and the theta-method step
// problem of the masonry low wall (shared/docs/masonry_wall.md §6); its
// contacts and H: masonry_contacts.cc.
#include "masonry_wall_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "contact_steps.h"

namespace fcsn::masonry {

namespace {

using Eigen::Vector3d;
using Triplet = Eigen::Triplet<double, int>;

// Which block of a course is the half block: courses 1 and 3 are [1/2, 1, 1,
// 1], course 2 is [1, 1, 1, 1/2] (§5.1, running bond).
bool IsHalfBlock(int course, int index) {
  return course == 1 ? index == kBlocksPerCourse - 1 : index == 0;
}

}  // namespace

const char* ToString(GapScaling x) {
  switch (x) {
    case GapScaling::kOverH:
      return "h";
    case GapScaling::kOverThetaH:
      return "theta-h";
  }
  return "?";
}

const char* ToString(ContactGroup x) {
  switch (x) {
    case ContactGroup::kBottomSupport:
      return "bottom";
    case ContactGroup::kTopSupport:
      return "top";
    case ContactGroup::kBedJoint12:
      return "bed12";
    case ContactGroup::kBedJoint23:
      return "bed23";
    case ContactGroup::kHeadJoint:
      return "head";
  }
  return "?";
}

WallOptions WallOptions::Refined(int factor) {
  WallOptions options;
  options.elements_x *= factor;
  options.elements_y *= factor;
  options.elements_z *= factor;
  return options;
}

WallOptions WallOptions::Coarse() {
  WallOptions options;
  options.elements_x = 4;
  options.elements_y = 2;
  options.elements_z = 2;
  return options;
}

void WallOptions::SwapFriction() {
  std::swap(mu_block_block, mu_block_support);
}

std::string WallOptions::Validate() const {
  std::ostringstream out;
  auto positive = [&out](const char* name, double value) {
    if (!(value > 0.0) || !std::isfinite(value)) {
      out << "WallOptions::" << name << " must be positive and finite, got "
          << value << ".";
      return false;
    }
    return true;
  };
  if (!positive("block_length", block_length) ||
      !positive("block_thickness", block_thickness) ||
      !positive("block_height", block_height) ||
      !positive("youngs_modulus", youngs_modulus) ||
      !positive("density", density) || !positive("h", h) ||
      !positive("support_length", support_length) ||
      !positive("support_width", support_width) ||
      !positive("support_height", support_height) ||
      !positive("top_support_mass", top_support_mass)) {
    return out.str();
  }
  if (elements_x < 2 || elements_x % 2 != 0) {
    return "WallOptions::elements_x must be even and >= 2 (half blocks have "
           "elements_x / 2), "
           "got " +
           std::to_string(elements_x) + ".";
  }
  if (elements_y < 1 || elements_z < 1) {
    return "WallOptions::elements_y and elements_z must be >= 1.";
  }
  if (!(poisson_ratio > -1.0 && poisson_ratio < 0.5)) {
    return "WallOptions::poisson_ratio must lie in (-1, 0.5), got " +
           std::to_string(poisson_ratio) + ".";
  }
  if (!(rayleigh_beta >= 0.0) || !std::isfinite(rayleigh_beta)) {
    return "WallOptions::rayleigh_beta must be >= 0 and finite.";
  }
  if (!(theta > 0.0 && theta <= 1.0)) {
    return "WallOptions::theta must lie in (0, 1], got " +
           std::to_string(theta) + ".";
  }
  if (num_steps < 0) return "WallOptions::num_steps must be >= 0.";
  if (!(mu_block_block >= 0.0) || !(mu_block_support >= 0.0) ||
      !std::isfinite(mu_block_block) || !std::isfinite(mu_block_support)) {
    return "WallOptions::mu_block_block and mu_block_support must be >= 0 and "
           "finite.";
  }
  if (!(gravity >= 0.0) || !std::isfinite(gravity)) {
    return "WallOptions::gravity must be >= 0 and finite (it points along -z).";
  }
  if (gravity_ramp_last_step < 2) {
    return "WallOptions::gravity_ramp_last_step must be >= 2.";
  }
  if (!(shear_start_time >= 0.0) || !(shear_ramp_end_time > shear_start_time) ||
      !std::isfinite(shear_ramp_end_time) || !std::isfinite(shear_velocity)) {
    return "WallOptions: need 0 <= shear_start_time < shear_ramp_end_time and "
           "a finite "
           "shear_velocity.";
  }
  if (!(stiffness_drop_tolerance >= 0.0 && stiffness_drop_tolerance <= 1e-6)) {
    return "WallOptions::stiffness_drop_tolerance must lie in [0, 1e-6].";
  }
  return "";
}

std::unique_ptr<MasonryWall> MasonryWall::Create(const WallOptions& options,
                                                 std::string* error) {
  const std::string message = options.Validate();
  if (!message.empty()) {
    if (error != nullptr) *error = message;
    return nullptr;
  }
  std::unique_ptr<MasonryWall> wall(new MasonryWall(options));
  wall->BuildMesh();
  wall->AssembleStiffnessAndMass();
  wall->BuildContacts();
  wall->AssembleH();
  const std::string stepper_error = wall->SetUpTimeStepper();
  if (!stepper_error.empty()) {
    if (error != nullptr) *error = stepper_error;
    return nullptr;
  }
  wall->Reset();
  return wall;
}

MasonryWall::MasonryWall(const WallOptions& options) : options_(options) {}

void MasonryWall::BuildMesh() {
  const WallOptions& o = options_;
  int first_node = 0;
  for (int course = 0; course < kCourses; ++course) {
    double x = 0.0;
    for (int index = 0; index < kBlocksPerCourse; ++index) {
      const bool half = IsHalfBlock(course, index);
      Block block;
      block.course = course;
      block.nx = half ? o.elements_x / 2 : o.elements_x;
      block.ny = o.elements_y;
      block.nz = o.elements_z;
      const double length = half ? 0.5 * o.block_length : o.block_length;
      block.lower = Vector3d(x, 0.0, course * o.block_height);
      block.upper = Vector3d(
          x + length, o.block_thickness, (course + 1) * o.block_height);
      block.first_node = first_node;
      first_node += block.NumNodes();
      x += length;
      blocks_.push_back(block);
    }
  }
  nodes_.resize(first_node);
  num_elements_ = 0;
  for (const Block& block : blocks_) {
    const Vector3d size = block.upper - block.lower;
    for (int k = 0; k <= block.nz; ++k) {
      for (int j = 0; j <= block.ny; ++j) {
        for (int i = 0; i <= block.nx; ++i) {
          nodes_[block.Node(i, j, k)] =
              block.lower + Vector3d(size.x() * i / block.nx,
                                     size.y() * j / block.ny,
                                     size.z() * k / block.nz);
        }
      }
    }
    num_elements_ += block.nx * block.ny * block.nz;
  }

  // Top support: a box centred on the wall in x and y, on top of it; principal
  // inertia of a box.
  const double wall_length = 3.5 * o.block_length;
  const double m = o.top_support_mass;
  const double a = o.support_length;
  const double b = o.support_width;
  const double c = o.support_height;
  top_support_.mass = m;
  top_support_.inertia = Vector3d(m * (b * b + c * c) / 12.0,
                                  m * (a * a + c * c) / 12.0,
                                  m * (a * a + b * b) / 12.0);
  top_support_.centre = Vector3d(0.5 * wall_length,
                                 0.5 * o.block_thickness,
                                 kCourses * o.block_height + 0.5 * c);
}

void MasonryWall::AssembleStiffnessAndMass() {
  std::vector<Triplet> triplets;
  mass_ = Eigen::VectorXd::Zero(n());
  gravity_load_ = Eigen::VectorXd::Zero(n());
  const fem::ElasticMaterial material{
      options_.youngs_modulus, options_.poisson_ratio, options_.density};
  for (const Block& block : blocks_) {
    fem::AssembleGrid(block, material, &triplets, &mass_, &gravity_load_);
  }
  K_ = fem::SymmetricMatrix(
      num_block_dofs(), triplets, options_.stiffness_drop_tolerance);

  const int s = top_support_dof();
  mass_[s] = top_support_.mass;
  mass_[s + 1] = top_support_.mass;
  mass_.segment<3>(s + 2) = top_support_.inertia;
  gravity_load_[s + 1] = top_support_.mass;
}

std::string MasonryWall::SetUpTimeStepper() {
  MoreauJeanOptions time;
  time.h = options_.h;
  time.theta = options_.theta;
  time.rayleigh_beta = options_.rayleigh_beta;
  // K and C = beta K act on the block dofs only: K padded with the empty rows
  // and columns of the top-support dofs.
  SparseMatrix K = K_;
  K.conservativeResize(n(), n());
  K.makeCompressed();
  SparseMatrix M(n(), n());
  M.setIdentity();
  M.diagonal() = mass_;
  return stepper_.Setup(time, M, K);
}

double MasonryWall::CourseMass(int course) const {
  double mass = 0.0;
  for (const Block& block : blocks_) {
    if (block.course == course)
      mass += options_.density * (block.upper - block.lower).prod();
  }
  return mass;
}

double MasonryWall::BlockMass() const {
  double mass = 0.0;
  for (int course = 0; course < kCourses; ++course) mass += CourseMass(course);
  return mass;
}

double MasonryWall::GravityAtStep(int k) const {
  const int last = options_.gravity_ramp_last_step;
  if (k <= 1) return 0.0;
  if (k >= last) return -options_.gravity;
  return -options_.gravity * (k - 1) / (last - 1);
}

double MasonryWall::ShearVelocityAt(double t) const {
  const double t0 = options_.shear_start_time;
  const double t1 = options_.shear_ramp_end_time;
  if (t <= t0) return 0.0;
  if (t >= t1) return options_.shear_velocity;
  return options_.shear_velocity * (t - t0) / (t1 - t0);
}

Eigen::Vector3d MasonryWall::PrescribedRelative(int a,
                                                double support_value) const {
  const ContactPoint& c = contacts_[a];
  if (c.group != ContactGroup::kTopSupport) return Vector3d::Zero();
  return -c.frame.transpose() * (support_value * Vector3d::UnitX());
}

void MasonryWall::Reset() {
  step_ = 0;
  q_ = Eigen::VectorXd::Zero(n());
  v_ = Eigen::VectorXd::Zero(n());
  support_x_ = 0.0;
  last_.v = Eigen::VectorXd::Zero(n());
  last_.u = Eigen::VectorXd::Zero(m());
  last_.r = Eigen::VectorXd::Zero(m());
}

void MasonryWall::BuildStepProblem(GlobalProblem* problem) const {
  const double h = options_.h;
  const double theta = options_.theta;
  const int k = step_ + 1;
  const double g = GravityAtStep(k);
  const double v_prev = ShearVelocityAt(step_ * h);
  const double v_now = ShearVelocityAt(k * h);

  problem->M = stepper_.iteration_matrix();
  problem->H = H_;
  problem->mu = mu_;
  problem->G.resize(n(), 0);
  problem->b.resize(0);

  // f: momentum, the step's gravity impulse h F_ext(g_k) (blocks and the top
  // support's v_z), elastic and damping forces.
  const Eigen::VectorXd impulse = (h * g) * gravity_load_;
  stepper_.FreeTerm(q_, v_, impulse, &problem->f);

  // w: gap at the predicted configuration d = q + (1-theta) h v over h, minus
  // the prescribed antagonist velocity in the contact frame.
  Eigen::VectorXd d;
  stepper_.PredictedDisplacement(q_, v_, &d);
  const double d_support_x = stepper_.PredictedDisplacement(support_x_, v_prev);
  const Eigen::VectorXd ud = H_.transpose() * d;
  const double scale =
      options_.gap_scaling == GapScaling::kOverH ? 1.0 / h : 1.0 / (theta * h);
  problem->w.resize(m());
  for (int a = 0; a < nc(); ++a) {
    const double gap = ud[3 * a] + PrescribedRelative(a, d_support_x)[0];
    problem->w.segment<3>(3 * a) = PrescribedRelative(a, v_now);
    problem->w[3 * a] += gap * scale;
  }
}

bool MasonryWall::Advance(const Solution& solution, std::string* error) {
  if (std::string why =
          fem::WhyUnusableStep("MasonryWall::Advance", solution, n(), m());
      !why.empty()) {
    if (error != nullptr) *error = why;
    return false;
  }
  const double h = options_.h;
  const double v_prev = ShearVelocityAt(step_ * h);
  const double v_now = ShearVelocityAt((step_ + 1) * h);
  stepper_.Advance(solution.v, &q_, &v_);
  support_x_ = stepper_.AdvanceDisplacement(support_x_, v_prev, v_now);
  last_ = solution;
  ++step_;
  return true;
}

Eigen::VectorXd MasonryWall::Gaps() const {
  const Eigen::VectorXd uq = H_.transpose() * q_;
  Eigen::VectorXd gaps(nc());
  for (int a = 0; a < nc(); ++a) {
    gaps[a] = uq[3 * a] + PrescribedRelative(a, support_x_)[0];
  }
  return gaps;
}

StepDiagnostics MasonryWall::Diagnose(const Solution& solution,
                                      double open_tolerance,
                                      double slip_tolerance) const {
  StepDiagnostics out;
  if (solution.r.size() != m()) return out;
  const double max_rn = fem::MaxNormalImpulse(solution.r);
  for (int a = 0; a < nc(); ++a) {
    const ContactPoint& c = contacts_[a];
    GroupDiagnostics& group = out.group(c.group);
    const Vector3d r = solution.r.segment<3>(3 * a);
    ++group.contacts;
    switch (
        fem::ClassifyContact(r, c.mu, max_rn, open_tolerance, slip_tolerance)) {
      case fem::ContactState::kOpen:
        ++group.open;
        break;
      case fem::ContactState::kSlip:
        ++group.slip;
        break;
      case fem::ContactState::kStick:
        ++group.stick;
        break;
    }
    group.sum_r_n += r[0];
    group.sum_impulse += c.frame * r;
  }
  return out;
}

const std::array<int, 50>& FclibCollectionCounters() {
  static const std::array<int, 50> kCounters = {
      1,   14,  31,  32,  54,  78,  89,  112, 122, 133, 142, 160, 161,
      172, 173, 189, 191, 210, 218, 222, 226, 238, 255, 268, 272, 277,
      299, 307, 308, 310, 325, 330, 344, 350, 367, 381, 389, 407, 419,
      429, 438, 452, 456, 461, 472, 474, 475, 488, 490, 498};
  return kCounters;
}

std::string FclibFileName(int iterations, int nc, int counter) {
  char buffer[96];
  std::snprintf(buffer,
                sizeof(buffer),
                "LowWall_FEM-i%05d-%d-%05d.hdf5",
                iterations,
                nc,
                counter);
  return buffer;
}

}  // namespace fcsn::masonry
