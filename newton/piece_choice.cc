#include "newton/piece_choice.h"

#include <algorithm>

namespace fcsn::internal {
namespace {

int Slips(const std::vector<DiskPiece>& pieces) {
  return static_cast<int>(
      std::count(pieces.begin(), pieces.end(), DiskPiece::kSlip));
}

}  // namespace

void PieceChoice::Start(bool warm_started) {
  warm_started_ = warm_started;
  Reset();
}

void PieceChoice::Reset() {
  has_step_ = false;
  prescribed_ = false;
  looked_ahead_ = false;
  look_ahead_off_ = false;
}

bool PieceChoice::Begin(const std::vector<DiskPiece>& at_point,
                        const Eigen::VectorXd& s_t,
                        double merit,
                        double worst) {
  model_ = at_point;
  prescribed_ = false;
  const int slips = Slips(at_point);
  bool look = false;
  if (warm_started_ && has_step_ && used_.size() == at_point.size()) {
    for (size_t a = 0; a < at_point.size(); ++a) {
      if (used_[a] == DiskPiece::kSlip && at_point[a] == DiskPiece::kSlip &&
          s_t.segment<2>(2 * a).dot(s_t_previous_.segment<2>(2 * a)) < 0.0) {
        model_[a] = DiskPiece::kStick;
        prescribed_ = true;
      }
    }
    const bool rising = merit > previous_merit_;
    if (rising && looked_ahead_) look_ahead_off_ = true;
    look = !look_ahead_off_ && !rising && worst > kLookAheadError &&
           slips > previous_slips_;
    advance_ = slips - used_slips_;
  }
  s_t_previous_ = s_t;
  previous_slips_ = slips;
  previous_merit_ = merit;
  looked_ahead_ = false;
  return look;
}

void PieceChoice::LookAhead(const std::vector<DiskPiece>& at_point,
                            const std::vector<DiskPiece>& ahead) {
  int added = 0;
  for (size_t a = 0; a < ahead.size(); ++a) {
    added += at_point[a] == DiskPiece::kStick && ahead[a] == DiskPiece::kSlip;
  }
  if (added == 0 || added > advance_) return;
  for (size_t a = 0; a < ahead.size(); ++a) {
    if (at_point[a] == DiskPiece::kStick && ahead[a] == DiskPiece::kSlip)
      model_[a] = DiskPiece::kSlip;
  }
  prescribed_ = true;
  looked_ahead_ = true;
}

void PieceChoice::StepTaken(const Eigen::VectorXd& step) {
  step_ = step;
  has_step_ = true;
  used_ = model_;
  used_slips_ = Slips(model_);
}

}  // namespace fcsn::internal
