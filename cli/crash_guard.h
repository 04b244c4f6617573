// Crash containment for reading untrusted files in the `fcsn` command.
//
// libhdf5 1.10 can crash (SIGSEGV in H5Dread or H5Lexists, measured on
// byte-mutated FCLib files) before fcsn sees any data, and no library code can
// recover from that. While a ReadingGuard is alive, a fatal signal (SIGSEGV,
// SIGBUS, SIGFPE, SIGILL, SIGABRT) writes ONE line
//   "fcsn: <path>: crashed inside libhdf5 while reading (corrupt file?)"
// to stderr with write(2) and ends the process with _exit(kExitBadInput): no
// exit handlers run, so libhdf5's own cannot print after it. The handler runs
// on an alternate signal stack (a stack overflow is caught too). The guard
// restores the previous handlers when it ends.
//
// Chosen over reading in a forked child: no serialization of the problem
// through a pipe, and the same process keeps HDF5's state for later reads.
// The price: after a crash nothing of the process is trusted, only the line
// and the exit code come out.
//
// Usage:
//   { ReadingGuard guard(path); ReadGlobalProblem(path, ...); }
#ifndef FCSN_CLI_CRASH_GUARD_H_
#define FCSN_CLI_CRASH_GUARD_H_

#include <csignal>
#include <string>

namespace fcsn::cli {

class ReadingGuard {
 public:
  explicit ReadingGuard(const std::string& path);
  ~ReadingGuard();
  ReadingGuard(const ReadingGuard&) = delete;
  ReadingGuard& operator=(const ReadingGuard&) = delete;

 private:
  static constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
  struct sigaction previous_[sizeof(kSignals) / sizeof(kSignals[0])];
  stack_t previous_stack_{};
};

}  // namespace fcsn::cli

#endif  // FCSN_CLI_CRASH_GUARD_H_
