// newton/cold_start.h: the starting iterate of a solve given no guess
// (SolverOptions::cold_start, fcsn/options.h).
//
//   zero:         v = 0,        r = 0
//   free-flight:  v = M^-1 f,   r = 0   (M v = H r + f holds; u = q_free)
//   auto:         free flight iff ||w||_inf <= kColdStartRoundOff ||q_free - w||_inf
//                 (w round-off against the free velocities H^T M^-1 f), else zero
//
// Why: at v = 0 with w_N = 0 up to round-off, every contact sits on the kink
// s_N = -rho_N w_N = 0 and round-off picks its piece; the free-flight point is
// where Newton's first step goes when w = 0 exactly (every contact open).
#ifndef FCSN_NEWTON_COLD_START_H_
#define FCSN_NEWTON_COLD_START_H_

#include <Eigen/Core>

#include "fcsn/options.h"

namespace fcsn::internal {

// Whether a solve without a guess starts at v = M^-1 f (else at v = 0), for
// the problem's w and its q_free = H^T M^-1 f + w (same size as w).
bool StartsInFreeFlight(ColdStart cold_start,
                        const Eigen::VectorXd& w,
                        const Eigen::VectorXd& q_free);

}  // namespace fcsn::internal

#endif  // FCSN_NEWTON_COLD_START_H_
