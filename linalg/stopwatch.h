// linalg/stopwatch.h: wall-clock timing of the solver phases (internal).
//
//   SecondsSince(start) = (now - start) in seconds, on the monotonic
//   std::chrono::steady_clock (never goes backwards, unaffected by changes of
//   the system time), so a phase's time is >= 0.
//
// Usage:
//   const SteadyClock::time_point start = SteadyClock::now();
//   ...;
//   stats.analysis_seconds += SecondsSince(start);
// or, for a whole scope:
//   { ScopedTimer timer(&summary.timings.factorization); ...; }
#ifndef FCSN_LINALG_STOPWATCH_H_
#define FCSN_LINALG_STOPWATCH_H_

#include <chrono>

namespace fcsn::internal {

using SteadyClock = std::chrono::steady_clock;

// Seconds elapsed since `start`.
inline double SecondsSince(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

// Adds the wall time of its scope to *accumulator (which must outlive it).
class ScopedTimer {
 public:
  explicit ScopedTimer(double* accumulator)
      : accumulator_(accumulator), start_(SteadyClock::now()) {}
  ~ScopedTimer() { *accumulator_ += SecondsSince(start_); }
  ScopedTimer(const ScopedTimer&) = delete;
  ScopedTimer& operator=(const ScopedTimer&) = delete;

 private:
  double* accumulator_;
  SteadyClock::time_point start_;
};

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_STOPWATCH_H_
