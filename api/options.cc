// The names of the option enums of fcsn/options.h (SolverOptions::Validate()
// is derived from the rows of fcsn/option_table.h: api/option_table.cc).
#include "fcsn/options.h"

namespace fcsn {

const char* ToString(LineSearchFailurePolicy x) {
  switch (x) {
    case LineSearchFailurePolicy::kStop:
      return "stop";
    case LineSearchFailurePolicy::kAcceptStep:
      return "accept";
    case LineSearchFailurePolicy::kFallback:
      return "fallback";
  }
  return "?";
}

const char* ToString(ColdStart x) {
  switch (x) {
    case ColdStart::kZero:
      return "zero";
    case ColdStart::kFreeFlight:
      return "free-flight";
    case ColdStart::kBonded:
      return "bonded";
    case ColdStart::kAuto:
      return "auto";
    case ColdStart::kApproaching:
      return "approaching";
  }
  return "?";
}

const char* ToString(CallbackResult x) {
  switch (x) {
    case CallbackResult::kContinue:
      return "continue";
    case CallbackResult::kAbort:
      return "abort";
  }
  return "?";
}

}  // namespace fcsn
