#include "linalg/mumps_codes.h"

namespace fcsn::internal {

// Name of the ordering MUMPS reports in INFOG(7), whose values follow ICNTL(29)
// after a parallel analysis (INFOG(32) = 2) and ICNTL(7) otherwise.
std::string MumpsOrderingName(int infog7, int infog32, bool given_is_metis) {
  if (infog32 == 2) {
    switch (infog7) {
      case 1:
        return "ptscotch";
      case 2:
        return "parmetis";
      default:
        return "unknown";
    }
  }
  switch (infog7) {
    case 0:
      return "amd";
    case 1:
      return given_is_metis ? "metis" : "user";
    case 2:
      return "amf";
    case 3:
      return "scotch";
    case 4:
      return "pord";
    case 5:
      return "metis-mumps";
    case 6:
      return "qamd";
    default:
      return "unknown";
  }
}

int MumpsOrderingIcntl7(Ordering ordering) {
  switch (ordering) {
    case Ordering::kMetis:
      return 1;  // given by fcsn through PERM_IN
    case Ordering::kScotch:
      return 3;
    case Ordering::kAmd:
      return 0;
    case Ordering::kAuto:
      return 7;
    case Ordering::kPtScotch:
      return 3;  // SCOTCH, when MUMPS analyses sequentially (one process)
  }
  return 7;
}

long long MumpsCount(int value) {
  return value >= 0 ? value : -static_cast<long long>(value) * 1000000LL;
}

}  // namespace fcsn::internal
