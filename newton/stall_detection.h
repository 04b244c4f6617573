// newton/stall_detection.h: the Newton driver's two progress tests.
//
// MeritWindow (stall, SolverStatus::kStalled, and the rho continuation's
// trigger): with theta_k the merits ||D G|| of one Newton run (its starting
// point left out),
//
//   stalled(window, ratio)  <=>  theta_last > ratio * theta_{last - window}.
//
// RoundOffWatch (SolverStatus::kRoundOffLimit): full steps (alpha = 1) that
// keep every contact state and fail to halve the least worst measure
// max(e_cone, e_dual, e_comp, e_eq) seen on that set of states, kWindow times
// in a row, with that least measure at most sqrt(eps). With the states fixed
// the semismooth residual is one smooth piece, on which Newton converges
// quadratically near a solution; repeated failure to halve the error there
// means rounding, not the method, sets it.
//
// PieceWatch (the rho continuation's second trigger): kPieceIterates
// successive iterates under one boost on one piece (every contact state
// unchanged) whose merit has not fallen below kPieceRatio times the first
// one's. On one smooth piece Newton converges quadratically near a solution;
// under a boosted rho the slip rows' direction s_T / ||s_T||, s_T = r_T -
// rho u_T, is set by slip velocities near zero (slowly slipping contacts),
// turns with them at every step and stops that convergence; the rule's rho
// (boost 1) lets r_T set it. The driver then drops the boost to 1
// (RhoOptions; bench/results/fronts.md, the theta = 0.5 blocks).
#ifndef FCSN_NEWTON_STALL_DETECTION_H_
#define FCSN_NEWTON_STALL_DETECTION_H_

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "fcsn/contact_status.h"

namespace fcsn::internal {

class MeritWindow {
 public:
  void Add(double merit) { merits_.push_back(merit); }
  void Clear() { merits_.clear(); }
  // The last merit has not dropped below `ratio` times the merit `window`
  // merits earlier.
  bool Stalled(int window, double ratio) const {
    return static_cast<int>(merits_.size()) > window &&
           merits_.back() > ratio * merits_[merits_.size() - 1 - window];
  }

 private:
  std::vector<double> merits_;
};

class RoundOffWatch {
 public:
  // Feeds one iterate; true when the floor is reached.
  bool Update(const std::vector<ContactStatus>& states,
              double alpha,
              double worst) {
    const bool same_piece = alpha == 1.0 && states == previous_;
    previous_ = states;
    if (!same_piece || !std::isfinite(worst)) {
      least_ = worst;
      stalls_ = 0;
      return false;
    }
    stalls_ = worst < 0.5 * least_ ? 0 : stalls_ + 1;
    least_ = std::min(least_, worst);
    return stalls_ >= kWindow && least_ <= kCeiling;
  }
  void Reset() {
    previous_.clear();
    stalls_ = 0;
  }
  // Least worst measure on the current set of states: the floor estimate.
  double floor() const { return least_; }

 private:
  // Three non-halving full steps: one can be an unlucky rounding, three in a
  // row on one smooth piece cannot be quadratic convergence.
  static constexpr int kWindow = 3;
  // A floor above sqrt(eps) would need a Newton system conditioned worse than
  // 1/sqrt(eps); a plateau that high is reported as a stall (or the budgets),
  // never as round-off.
  static constexpr double kCeiling = 1.4901161193847656e-08;  // sqrt(2^-52)
  std::vector<ContactStatus> previous_;
  double least_ = std::numeric_limits<double>::infinity();
  int stalls_ = 0;
};

class PieceWatch {
 public:
  void Reset() {
    states_.clear();
    merits_.clear();
  }
  // Feeds one iterate; true when the last kPieceIterates iterates are on one
  // piece under one boost and the merit has not fallen below kPieceRatio times
  // the first one's (the window then starts anew).
  bool Update(const std::vector<ContactStatus>& states,
              double merit,
              double boost) {
    if (boost != boost_ || states != states_) {
      boost_ = boost;
      states_ = states;
      merits_.clear();
    }
    merits_.push_back(merit);
    if (static_cast<int>(merits_.size()) < kPieceIterates) return false;
    const bool slow = !(merits_.back() < kPieceRatio * merits_.front());
    merits_.erase(merits_.begin());
    if (slow) merits_.clear();
    return slow;
  }

 private:
  // Two Newton steps on one piece: quadratic convergence takes the merit down
  // by far more than half in two steps once it starts, and two steps are the
  // least that tell a turning direction from one unlucky step.
  static constexpr int kPieceIterates = 3;
  // "Not halved", as RoundOffWatch's test of one smooth piece.
  static constexpr double kPieceRatio = 0.5;
  std::vector<ContactStatus> states_;
  std::vector<double> merits_;
  double boost_ = 0.0;
};

}  // namespace fcsn::internal

#endif  // FCSN_NEWTON_STALL_DETECTION_H_
