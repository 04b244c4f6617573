// linalg/mumps_codes.h: MUMPS' integer codes in fcsn's terms.
//
// ICNTL(7) selects the sequential ordering (0 AMD, 1 given in PERM_IN,
// 3 SCOTCH, 7 automatic); INFOG(7) reports the one used (its values follow
// ICNTL(29) after a parallel analysis, INFOG(32) = 2). Counts that overflow a
// 32-bit integer (INFOG(20), INFOG(29), INFOG(35), ...) are reported
// negative, in millions (MUMPS 5.5 guide).
#ifndef FCSN_LINALG_MUMPS_CODES_H_
#define FCSN_LINALG_MUMPS_CODES_H_

#include <string>

#include "fcsn/types.h"

namespace fcsn::internal {

// ICNTL(7) for `ordering` (1 for kMetis: the ordering is given by fcsn).
int MumpsOrderingIcntl7(Ordering ordering);
// Name of the ordering MUMPS reports in INFOG(7) (LinearSolverStats), after
// the analysis INFOG(32) says was done (1 sequential, 2 parallel).
std::string MumpsOrderingName(int infog7, int infog32, bool given_is_metis);
// An INFOG count: overflowing counts are returned negative, in millions.
long long MumpsCount(int value);

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_MUMPS_CODES_H_
