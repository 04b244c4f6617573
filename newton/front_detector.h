// newton/front_detector.h: recognizes, from Newton's iterates, a stick-slip
// front that advances one contact at a time (newton/transport_sweep.h says
// why it does). Over kFrontWindow consecutive iterates
//
//   1 <= #{a : status_a(z_k) != status_a(z_{k-1})} <= kFrontChanges
//   merit(z_k) > kFrontSlowRatio merit(z_{k-1})
//
// (a few contacts switch at every iteration and the merit does not fall
// fast); Update() then reports the front and starts a new window. Newton's
// quadratic tail (merit falling by orders) and a settled status set (no
// switch) never match.
#ifndef FCSN_NEWTON_FRONT_DETECTOR_H_
#define FCSN_NEWTON_FRONT_DETECTOR_H_

#include <vector>

#include "fcsn/contact_status.h"

namespace fcsn::internal {

// Consecutive iterates of the pattern: 3, so that two iterations of ordinary
// status changes (a line-search step, a restart) do not trigger it.
inline constexpr int kFrontWindow = 3;
// Contacts switching per iteration: the front's one, and a neighbour.
inline constexpr int kFrontChanges = 2;
// A merit that keeps more than half of its value per iteration decreases
// linearly at best: not the quadratic tail.
inline constexpr double kFrontSlowRatio = 0.5;

class FrontDetector {
 public:
  // Forgets every iterate (a new Newton run, or after a sweep).
  void Reset();
  // Feeds the statuses and merit of the next iterate; true when the last
  // kFrontWindow iterates match the pattern (the window then starts anew).
  bool Update(const std::vector<ContactStatus>& states, double merit);

 private:
  std::vector<ContactStatus> previous_;
  double previous_merit_ = 0.0;
  int streak_ = 0;
};

}  // namespace fcsn::internal

#endif  // FCSN_NEWTON_FRONT_DETECTOR_H_
