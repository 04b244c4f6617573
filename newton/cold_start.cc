#include "newton/cold_start.h"

namespace fcsn::internal {

bool StartsInFreeFlight(ColdStart cold_start,
                        const Eigen::VectorXd& w,
                        const Eigen::VectorXd& q_free) {
  switch (cold_start) {
    case ColdStart::kZero:
      return false;
    case ColdStart::kFreeFlight:
      return true;
    case ColdStart::kAuto:
      break;
  }
  if (w.size() == 0) return false;  // no contact, no kink to avoid
  const double free_motion = (q_free - w).lpNorm<Eigen::Infinity>();
  return w.lpNorm<Eigen::Infinity>() <= kColdStartRoundOff * free_motion;
}

}  // namespace fcsn::internal
