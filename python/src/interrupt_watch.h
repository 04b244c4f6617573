// Ctrl-C in the stages of a solve where no iteration callback runs (the
// setup: M's factorization, rho, J's analysis) for the Python module.
//
// Python runs its signal handlers on the main thread only, between bytecodes;
// a solve holds that thread without the GIL. Its C-level handler does write
// the signal number to the wakeup fd (signal.set_wakeup_fd), which a thread
// may watch: an InterruptWatch points the wakeup fd at a pipe of its own for
// its lifetime and, when a SIGINT byte arrives, calls on_interrupt (which
// raises the solve's stop flag). The handler's KeyboardInterrupt itself is
// raised later, by PyErr_CheckSignals once the solve has returned.
//
// Active only on the main thread, and only while SIGINT has Python's
// default handler (which always raises KeyboardInterrupt): a custom handler
// is run by the iteration callback's poll instead (solver_bindings.cc), which
// stops the solve only when the handler raises.
#ifndef FCSN_PYTHON_SRC_INTERRUPT_WATCH_H_
#define FCSN_PYTHON_SRC_INTERRUPT_WATCH_H_

#include <pybind11/pybind11.h>

#include <atomic>
#include <functional>
#include <thread>

namespace fcsn::python {

class InterruptWatch {
 public:
  // Both with the GIL held.
  explicit InterruptWatch(std::function<void()> on_interrupt);
  ~InterruptWatch();
  InterruptWatch(const InterruptWatch&) = delete;
  InterruptWatch& operator=(const InterruptWatch&) = delete;

 private:
  // The watching thread: polls the pipe until done_.
  void Watch();

  std::function<void()> on_interrupt_;
  int pipe_[2] = {-1, -1};
  pybind11::object previous_fd_;  // the wakeup fd to restore
  bool active_ = false;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

}  // namespace fcsn::python

#endif  // FCSN_PYTHON_SRC_INTERRUPT_WATCH_H_
