// cli/interrupt.h: Ctrl-C during `fcsn solve` and its --verbose progress.
//
// While an InterruptScope lives (around one solve, its report and its
// --output), SIGINT does not end the process: its handler raises the flag
// that SolverOptions::stop points at, the solver ends at its next check with
// status aborted and the best point, and the command reports it, writes
// --output and exits with kExitInterrupted. A second SIGINT in the same scope
// ends the process as usual (the handler is one-shot), for a user who does
// not want to wait for the solve's next check. Outside the scopes, and when
// the parent process ignores SIGINT, SIGINT keeps its disposition.
#ifndef FCSN_CLI_INTERRUPT_H_
#define FCSN_CLI_INTERRUPT_H_

#include <signal.h>

#include <atomic>
#include <functional>
#include <string>

namespace fcsn::cli {

// 128 + SIGINT: what a shell reports for a command ended by Ctrl-C.
inline constexpr int kExitInterrupted = 130;

// The flag raised by SIGINT inside an InterruptScope, for SolverOptions::stop.
const std::atomic<bool>* InterruptFlag();

class InterruptScope {
 public:
  // Clears the flag and installs the one-shot SIGINT handler.
  InterruptScope();
  // Restores the previous SIGINT disposition.
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

  // SIGINT arrived since the scope began.
  bool raised() const;

 private:
  struct sigaction previous_;
  bool installed_ = false;
};

// A SolverOptions::log writing each line to stderr (the host's, under MPI),
// so that stdout keeps the report or the JSON alone.
std::function<void(const std::string&)> ProgressToStderr();

}  // namespace fcsn::cli

#endif  // FCSN_CLI_INTERRUPT_H_
