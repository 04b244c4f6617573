#include "newton/front_detector.h"

namespace fcsn::internal {

void FrontDetector::Reset() {
  previous_.clear();
  previous_merit_ = 0.0;
  streak_ = 0;
}

bool FrontDetector::Update(const std::vector<ContactStatus>& states,
                           double merit) {
  int changes = -1;  // no previous iterate
  if (previous_.size() == states.size()) {
    changes = 0;
    for (size_t a = 0; a < states.size(); ++a) {
      if (states[a] != previous_[a]) ++changes;
    }
  }
  const bool slow = merit > kFrontSlowRatio * previous_merit_;
  const bool front = changes >= 1 && changes <= kFrontChanges && slow;
  streak_ = front ? streak_ + 1 : 0;
  previous_ = states;
  previous_merit_ = merit;
  if (streak_ < kFrontWindow) return false;
  streak_ = 0;
  return true;
}

}  // namespace fcsn::internal
