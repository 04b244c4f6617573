// Ctrl-C during `fcsn solve` (see interrupt.h).
#include "cli/interrupt.h"

#include <iostream>

#include "cli/mpi_session.h"

namespace fcsn::cli {
namespace {

// The one piece of global mutable state of the command: a signal handler can
// reach nothing else. A lock-free atomic store is async-signal-safe.
std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void OnInterrupt(int) {
  g_interrupted.store(true, std::memory_order_release);
}

}  // namespace

const std::atomic<bool>* InterruptFlag() { return &g_interrupted; }

InterruptScope::InterruptScope() {
  g_interrupted.store(false);
  struct sigaction action = {};
  action.sa_handler = OnInterrupt;
  sigemptyset(&action.sa_mask);
  // One-shot: a second Ctrl-C finds the default disposition and ends the
  // process. SA_RESTART: reads and writes in progress are not cut short.
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  installed_ = sigaction(SIGINT, &action, &previous_) == 0;
  // A SIGINT the parent chose to ignore (a background job of a shell
  // without job control) stays ignored, as for every other command.
  if (installed_ && previous_.sa_handler == SIG_IGN) {
    sigaction(SIGINT, &previous_, nullptr);
    installed_ = false;
  }
}

InterruptScope::~InterruptScope() {
  if (installed_) sigaction(SIGINT, &previous_, nullptr);
}

bool InterruptScope::raised() const {
  return g_interrupted.load(std::memory_order_acquire);
}

std::function<void(const std::string&)> ProgressToStderr() {
  if (!MpiSession::is_host()) return [](const std::string&) {};
  return [](const std::string& line) { std::cerr << line << std::endl; };
}

}  // namespace fcsn::cli
