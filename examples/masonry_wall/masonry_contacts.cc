// masonry_contacts.cc: the contact points of the masonry low wall (§6.3:
// supports, bed joints, head joints; frames, interpolation weights) and H
// (§6.4), members of MasonryWall (masonry_wall_model.h).
#include <algorithm>
#include <cmath>
#include <tuple>
#include <vector>

#include "masonry_wall_model.h"

namespace fcsn::masonry {

namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;
using Triplet = Eigen::Triplet<double, int>;

// Frame [n t1 t2] of §6.3: t1 = e_x unless n is closer to e_x than 60 degrees,
// then e_y.
Matrix3d MakeFrame(const Vector3d& normal) {
  constexpr double kAxisSwitch =
      0.5;  // |n.e_x| threshold of the spec's frame rule
  const Vector3d t1 = std::abs(normal.x()) < kAxisSwitch ? Vector3d::UnitX()
                                                         : Vector3d::UnitY();
  Matrix3d frame;
  frame.col(0) = normal;
  frame.col(1) = t1;
  frame.col(2) = normal.cross(t1);
  return frame;
}

Matrix3d CrossMatrix(const Vector3d& r) {
  Matrix3d c;
  c << 0.0, -r.z(), r.y(), r.z(), 0.0, -r.x(), -r.y(), r.x(), 0.0;
  return c;
}

// Index of the block of course whose x range contains x (strictly), or -1.
int BlockAt(const std::vector<Block>& blocks, int course, double x) {
  for (int b = 0; b < static_cast<int>(blocks.size()); ++b) {
    if (blocks[b].course == course && blocks[b].lower.x() < x &&
        x < blocks[b].upper.x()) {
      return b;
    }
  }
  return -1;
}

// Face-centre contact point of the face element of block with lowest node
// index lo and normal axis: weight 1/4 on its 4 nodes, and its centre (the
// meshes conform across every joint, so the antagonist face element faces it).
std::pair<std::vector<NodeWeight>, Vector3d> FacePoint(
    const std::vector<Vector3d>& nodes,
    const Block& block,
    const std::array<int, 3>& lo,
    int axis) {
  std::vector<NodeWeight> weights;
  Vector3d centre = Vector3d::Zero();
  const int u = (axis + 1) % 3;
  const int v = (axis + 2) % 3;
  for (int du = 0; du <= 1; ++du) {
    for (int dv = 0; dv <= 1; ++dv) {
      std::array<int, 3> ijk = lo;
      ijk[u] += du;
      ijk[v] += dv;
      const int node = block.Node(ijk[0], ijk[1], ijk[2]);
      weights.push_back({node, 0.25});
      centre += 0.25 * nodes[node];
    }
  }
  return std::make_pair(weights, centre);
}

}  // namespace

// Contacts (§6.3), numbered in this order: bottom support, top support, bed
// joints 1-2 and 2-3, head joints (the exported files' contact order).
void MasonryWall::BuildContacts() {
  AddSupportContacts(0, false, ContactGroup::kBottomSupport);
  AddSupportContacts(kCourses - 1, true, ContactGroup::kTopSupport);
  AddBedJointContacts(1, ContactGroup::kBedJoint12);
  AddBedJointContacts(2, ContactGroup::kBedJoint23);
  AddHeadJointContacts();
  mu_.resize(nc());
  for (int a = 0; a < nc(); ++a) mu_[a] = contacts_[a].mu;
}

void MasonryWall::AddSupportContacts(int course,
                                     bool top_face,
                                     ContactGroup group) {
  const Vector3d normal =
      top_face ? Vector3d(-Vector3d::UnitZ()) : Vector3d::UnitZ();
  for (int b = 0; b < static_cast<int>(blocks_.size()); ++b) {
    const Block& block = blocks_[b];
    if (block.course != course) continue;
    const int k = top_face ? block.nz : 0;
    for (int j = 0; j <= block.ny; ++j) {
      for (int i = 0; i <= block.nx; ++i) {
        ContactPoint c;
        c.group = group;
        c.block_a = b;
        c.x_a = nodes_[block.Node(i, j, k)];
        c.x_b = c.x_a;
        c.frame = MakeFrame(normal);
        c.mu = options_.mu_block_support;
        c.nodes_a.push_back({block.Node(i, j, k), 1.0});
        contacts_.push_back(c);
      }
    }
  }
}

void MasonryWall::AddBedJointContacts(int upper_course, ContactGroup group) {
  for (int b = 0; b < static_cast<int>(blocks_.size()); ++b) {
    const Block& block = blocks_[b];
    if (block.course != upper_course) continue;
    for (int j = 0; j < block.ny; ++j) {
      for (int i = 0; i < block.nx; ++i) {
        ContactPoint c;
        c.group = group;
        c.block_a = b;
        std::tie(c.nodes_a, c.x_a) = FacePoint(nodes_, block, {i, j, 0}, 2);
        c.block_b = BlockAt(blocks_, upper_course - 1, c.x_a.x());
        const Block& below = blocks_[c.block_b];
        const int ib = static_cast<int>(
            std::floor((c.x_a.x() - below.lower.x()) /
                       ((below.upper.x() - below.lower.x()) / below.nx)));
        std::tie(c.nodes_b, c.x_b) =
            FacePoint(nodes_, below, {ib, j, below.nz}, 2);
        c.frame = MakeFrame(Vector3d::UnitZ());
        c.mu = options_.mu_block_block;
        contacts_.push_back(c);
      }
    }
  }
}

void MasonryWall::AddHeadJointContacts() {
  for (int b = 0; b + 1 < static_cast<int>(blocks_.size()); ++b) {
    const Block& left = blocks_[b];
    const Block& right = blocks_[b + 1];
    if (left.course != right.course) continue;
    for (int k = 0; k < left.nz; ++k) {
      for (int j = 0; j < left.ny; ++j) {
        ContactPoint c;
        c.group = ContactGroup::kHeadJoint;
        c.block_a = b;
        c.block_b = b + 1;
        std::tie(c.nodes_a, c.x_a) =
            FacePoint(nodes_, left, {left.nx, j, k}, 0);
        std::tie(c.nodes_b, c.x_b) = FacePoint(nodes_, right, {0, j, k}, 0);
        c.frame = MakeFrame(-Vector3d::UnitX());
        c.mu = options_.mu_block_block;
        contacts_.push_back(c);
      }
    }
  }
}

void MasonryWall::AssembleH() {
  std::vector<Triplet> triplets;
  const int s = top_support_dof();
  auto add = [&triplets](int row, int col, double value) {
    if (value != 0.0)
      triplets.emplace_back(row, col, value);  // structural zeros dropped
  };
  for (int a = 0; a < nc(); ++a) {
    const ContactPoint& c = contacts_[a];
    const Matrix3d& R = c.frame;
    for (int j = 0; j < 3; ++j) {
      const int col = 3 * a + j;
      for (const NodeWeight& nw : c.nodes_a) {
        for (int d = 0; d < 3; ++d)
          add(3 * nw.node + d, col, nw.weight * R(d, j));
      }
      for (const NodeWeight& nw : c.nodes_b) {
        for (int d = 0; d < 3; ++d)
          add(3 * nw.node + d, col, -nw.weight * R(d, j));
      }
      if (c.group == ContactGroup::kTopSupport) {
        // v_B = v_s + omega x r = v_s - [r]_x omega: rows -R (v_y, v_z; v_x is
        // prescribed) and -[r]_x R (omega).
        Vector3d lever = c.x_b - top_support_.centre;
        // Lever-arm components at round-off level (a node on the support's
        // centre line, its coordinate accumulated differently) are exact
        // zeros of the geometry: keep them out of H's pattern.
        constexpr double kRoundOff = 1e-12;  // relative to the block length
        lever = (lever.array().abs() <= kRoundOff * options_.block_length)
                    .select(0.0, lever);
        const Vector3d rot = -CrossMatrix(lever) * R.col(j);
        add(s, col, -R(1, j));
        add(s + 1, col, -R(2, j));
        for (int d = 0; d < 3; ++d) add(s + 2 + d, col, rot[d]);
      }
    }
  }
  H_.resize(n(), m());
  H_.setFromTriplets(triplets.begin(), triplets.end());
  H_.makeCompressed();
}

}  // namespace fcsn::masonry
