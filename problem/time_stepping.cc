// time_stepping.cc: the Moreau-Jean theta-method step problem and the warm
// start remapped by contact identifiers (fcsn/time_stepping.h).
//
// The arithmetic is written in the order of the examples it replaced (kappa =
// h theta beta + h^2 theta^2, c1 = h^2 theta (1-theta) + h (1-theta) beta, f =
// (M v + p) - K (h q + c1 v)), so that their step problems are unchanged to
// the last bit.
#include "fcsn/time_stepping.h"

#include <cmath>
#include <string>
#include <unordered_map>
#include <utility>

namespace fcsn {
namespace {

std::string Dims(const SparseMatrix& A) {
  return std::to_string(A.rows()) + " x " + std::to_string(A.cols());
}

bool AllFinite(const SparseMatrix& A) {
  for (int col = 0; col < A.outerSize(); ++col) {
    for (SparseMatrix::InnerIterator it(A, col); it; ++it) {
      if (!std::isfinite(it.value())) return false;
    }
  }
  return true;
}

// "" when A is absent (0 x 0) or n x n with finite entries.
std::string CheckOptionalMatrix(const char* name,
                                const SparseMatrix& A,
                                int n) {
  const bool absent = A.rows() == 0 && A.cols() == 0;
  if (!absent && (A.rows() != n || A.cols() != n)) {
    return std::string("MoreauJean: ") + name + " must be " +
           std::to_string(n) + " x " + std::to_string(n) +
           " like M (or 0 x 0 when absent), but it is " + Dims(A) + ".";
  }
  if (!AllFinite(A)) {
    return std::string("MoreauJean: ") + name + " has non-finite entries.";
  }
  return "";
}

bool HasMatrix(const SparseMatrix& A) { return A.rows() > 0; }

// The index of every id, or the message naming a repeated one.
std::string IndexIds(const std::vector<std::int64_t>& ids,
                     const char* list,
                     std::unordered_map<std::int64_t, int>* index) {
  index->clear();
  index->reserve(ids.size());
  for (std::size_t a = 0; a < ids.size(); ++a) {
    if (!index->emplace(ids[a], static_cast<int>(a)).second) {
      return std::string("RemapContactGuess: id ") + std::to_string(ids[a]) +
             " appears twice in " + list + ".";
    }
  }
  return "";
}

// out_b = in_a for the contacts with equal ids, 0 for new contacts.
Eigen::VectorXd RemapBlocks(const Eigen::VectorXd& in,
                            const std::unordered_map<std::int64_t, int>& from,
                            const std::vector<std::int64_t>& ids) {
  Eigen::VectorXd out = Eigen::VectorXd::Zero(3 * ids.size());
  for (std::size_t b = 0; b < ids.size(); ++b) {
    const auto it = from.find(ids[b]);
    if (it != from.end()) out.segment<3>(3 * b) = in.segment<3>(3 * it->second);
  }
  return out;
}

std::string CheckSetup(const MoreauJeanOptions& options,
                       const SparseMatrix& M,
                       const SparseMatrix& K,
                       const SparseMatrix& C) {
  std::string error = options.Validate();
  if (!error.empty()) return error;
  if (M.rows() != M.cols() || M.rows() == 0) {
    return "MoreauJean: M must be square and non-empty, but it is " + Dims(M) +
           ".";
  }
  if (!AllFinite(M)) return "MoreauJean: M has non-finite entries.";
  const int n = static_cast<int>(M.rows());
  error = CheckOptionalMatrix("K", K, n);
  if (error.empty()) error = CheckOptionalMatrix("C", C, n);
  return error;
}

}  // namespace

std::string MoreauJeanOptions::Validate() const {
  if (!(h > 0.0 && std::isfinite(h))) {
    return "MoreauJeanOptions::h must be a finite time step > 0, got " +
           std::to_string(h) + ".";
  }
  if (!(theta > 0.0 && theta <= 1.0)) {
    return "MoreauJeanOptions::theta must lie in (0, 1], got " +
           std::to_string(theta) + ".";
  }
  if (!(rayleigh_alpha >= 0.0 && std::isfinite(rayleigh_alpha))) {
    return "MoreauJeanOptions::rayleigh_alpha must be finite and >= 0, got " +
           std::to_string(rayleigh_alpha) + ".";
  }
  if (!(rayleigh_beta >= 0.0 && std::isfinite(rayleigh_beta))) {
    return "MoreauJeanOptions::rayleigh_beta must be finite and >= 0, got " +
           std::to_string(rayleigh_beta) + ".";
  }
  return "";
}

std::string MoreauJean::Setup(const MoreauJeanOptions& options,
                              const SparseMatrix& M,
                              const SparseMatrix& K,
                              const SparseMatrix& C) {
  const std::string error = CheckSetup(options, M, K, C);
  if (!error.empty()) {
    *this = MoreauJean();
    return error;
  }

  const double h = options.h;
  const double theta = options.theta;
  options_ = options;
  M_ = M;
  K_ = K;
  C_ = C;
  M_.makeCompressed();
  K_.makeCompressed();
  C_.makeCompressed();
  // Rayleigh: alpha M joins M's coefficient, beta K joins K's (kappa).
  M_hat_ = M_;
  if (options.rayleigh_alpha != 0.0) {
    M_hat_ *= 1.0 + h * theta * options.rayleigh_alpha;
  }
  if (HasMatrix(K_)) {
    const double kappa =
        h * theta * options.rayleigh_beta + h * h * theta * theta;
    M_hat_ = M_hat_ + kappa * K_;
  }
  if (HasMatrix(C_)) M_hat_ = M_hat_ + (theta * h) * C_;
  M_hat_.makeCompressed();
  return "";
}

bool MoreauJean::ExternalImpulse(const Eigen::VectorXd& force_begin,
                                 const Eigen::VectorXd& force_end,
                                 Eigen::VectorXd* impulse) const {
  if (force_begin.size() != n() || force_end.size() != n()) return false;
  const double theta = options_.theta;
  *impulse = options_.h * ((1.0 - theta) * force_begin + theta * force_end);
  return true;
}

bool MoreauJean::FreeTerm(const Eigen::VectorXd& q,
                          const Eigen::VectorXd& v,
                          const Eigen::VectorXd& external_impulse,
                          Eigen::VectorXd* f) const {
  if (n() == 0 || q.size() != n() || v.size() != n() ||
      external_impulse.size() != n()) {
    return false;
  }
  const double h = options_.h;
  const double theta = options_.theta;
  Eigen::VectorXd out = M_ * v;
  if (options_.rayleigh_alpha != 0.0) {
    out *= 1.0 - h * (1.0 - theta) * options_.rayleigh_alpha;
  }
  out += external_impulse;
  if (HasMatrix(K_)) {
    const double c1 = h * h * theta * (1.0 - theta) +
                      h * (1.0 - theta) * options_.rayleigh_beta;
    out -= K_ * (h * q + c1 * v);
  }
  if (HasMatrix(C_)) out -= C_ * (((1.0 - theta) * h) * v);
  *f = std::move(out);
  return true;
}

bool MoreauJean::PredictedDisplacement(const Eigen::VectorXd& q,
                                       const Eigen::VectorXd& v,
                                       Eigen::VectorXd* q_tilde) const {
  if (n() == 0 || q.size() != n() || v.size() != n()) return false;
  *q_tilde = q + (1.0 - options_.theta) * options_.h * v;
  return true;
}

double MoreauJean::PredictedDisplacement(double q, double v) const {
  return q + (1.0 - options_.theta) * options_.h * v;
}

bool MoreauJean::GapFreeTerm(const SparseMatrix& H,
                             const Eigen::VectorXd& initial_gaps,
                             const Eigen::VectorXd& q,
                             const Eigen::VectorXd& v,
                             Eigen::VectorXd* w) const {
  const int m = static_cast<int>(H.cols());
  const int nc = m / 3;
  if (H.rows() != n() || m % 3 != 0 ||
      (initial_gaps.size() != 0 && initial_gaps.size() != nc)) {
    return false;
  }
  Eigen::VectorXd q_tilde;
  if (!PredictedDisplacement(q, v, &q_tilde)) return false;
  const Eigen::VectorXd u_q = H.transpose() * q_tilde;
  w->setZero(m);
  for (int a = 0; a < nc; ++a) {
    const double gap =
        initial_gaps.size() != 0 ? initial_gaps[a] + u_q[3 * a] : u_q[3 * a];
    (*w)[3 * a] = gap / options_.h;
  }
  return true;
}

bool MoreauJean::Advance(const Eigen::VectorXd& v_next,
                         Eigen::VectorXd* q,
                         Eigen::VectorXd* v) const {
  if (n() == 0 || v_next.size() != n() || q->size() != n() ||
      v->size() != n()) {
    return false;
  }
  const double theta = options_.theta;
  *q += options_.h * (theta * v_next + (1.0 - theta) * *v);
  *v = v_next;
  return true;
}

double MoreauJean::AdvanceDisplacement(double q,
                                       double v,
                                       double v_next) const {
  const double theta = options_.theta;
  return q + options_.h * (theta * v_next + (1.0 - theta) * v);
}

std::string RemapContactGuess(const std::vector<std::int64_t>& previous_ids,
                              const Solution& previous,
                              const std::vector<std::int64_t>& ids,
                              Solution* guess) {
  const Eigen::Index previous_m =
      3 * static_cast<Eigen::Index>(previous_ids.size());
  if (previous.r.size() != previous_m ||
      (previous.u.size() != 0 && previous.u.size() != previous_m)) {
    return "RemapContactGuess: previous r (" +
           std::to_string(previous.r.size()) + ") and u (" +
           std::to_string(previous.u.size()) + ") must have 3 x " +
           std::to_string(previous_ids.size()) +
           " entries (u may be empty), one block per previous id.";
  }
  std::unordered_map<std::int64_t, int> from;
  std::unordered_map<std::int64_t, int> to;
  std::string error = IndexIds(previous_ids, "previous_ids", &from);
  if (error.empty()) error = IndexIds(ids, "ids", &to);
  if (!error.empty()) return error;
  Eigen::VectorXd r = RemapBlocks(previous.r, from, ids);
  Eigen::VectorXd u;
  if (previous.u.size() != 0) u = RemapBlocks(previous.u, from, ids);
  if (guess != &previous) guess->v = previous.v;
  guess->r = std::move(r);
  guess->u = std::move(u);
  return "";
}

std::string ExtrapolateGuess(const Solution& older,
                             const Solution& previous,
                             Solution* guess) {
  if (older.v.size() != previous.v.size() ||
      older.u.size() != previous.u.size() ||
      older.r.size() != previous.r.size()) {
    return "ExtrapolateGuess: older and previous differ in size (v " +
           std::to_string(older.v.size()) + " vs " +
           std::to_string(previous.v.size()) + ", u " +
           std::to_string(older.u.size()) + " vs " +
           std::to_string(previous.u.size()) + ", r " +
           std::to_string(older.r.size()) + " vs " +
           std::to_string(previous.r.size()) +
           "): a changed contact set needs RemapContactGuess.";
  }
  // Evaluated into temporaries first: guess may alias older or previous.
  Eigen::VectorXd v = 2.0 * previous.v - older.v;
  Eigen::VectorXd u = 2.0 * previous.u - older.u;
  Eigen::VectorXd r = 2.0 * previous.r - older.r;
  guess->v = std::move(v);
  guess->u = std::move(u);
  guess->r = std::move(r);
  return "";
}

}  // namespace fcsn
