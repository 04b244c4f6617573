// Ctrl-C during the setup of a solve (see interrupt_watch.h).
#include "python/src/interrupt_watch.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <utility>

namespace fcsn::python {

namespace py = pybind11;

namespace {

bool OnMainThreadWithDefaultHandler() {
  const py::module_ threading = py::module_::import("threading");
  const py::module_ signal = py::module_::import("signal");
  return threading.attr("current_thread")().is(
             threading.attr("main_thread")()) &&
         signal.attr("getsignal")(SIGINT).is(
             signal.attr("default_int_handler"));
}

}  // namespace

InterruptWatch::InterruptWatch(std::function<void()> on_interrupt)
    : on_interrupt_(std::move(on_interrupt)) {
  if (!OnMainThreadWithDefaultHandler()) return;
  // set_wakeup_fd asks for a non-blocking fd: a full pipe drops bytes
  // rather than block the signal handler.
  if (pipe2(pipe_, O_NONBLOCK | O_CLOEXEC) != 0) return;
  try {
    previous_fd_ = py::module_::import("signal").attr("set_wakeup_fd")(
        pipe_[1], py::arg("warn_on_full_buffer") = false);
  } catch (const py::error_already_set&) {
    close(pipe_[0]);
    close(pipe_[1]);
    return;  // no watch: Ctrl-C then waits for the next iterate
  }
  active_ = true;
  thread_ = std::thread([this] { Watch(); });
}

InterruptWatch::~InterruptWatch() {
  if (!active_) return;
  done_.store(true);
  thread_.join();  // within one poll period; the thread never takes the GIL
  try {
    py::module_::import("signal").attr("set_wakeup_fd")(previous_fd_);
  } catch (py::error_already_set& e) {
    e.discard_as_unraisable("fcsn: restoring signal.set_wakeup_fd");
  }
  close(pipe_[0]);
  close(pipe_[1]);
}

void InterruptWatch::Watch() {
  // 50 ms: noticed well within a human's patience, negligible CPU.
  constexpr int kPollMilliseconds = 50;
  pollfd fd = {pipe_[0], POLLIN, 0};
  while (!done_.load()) {
    if (poll(&fd, 1, kPollMilliseconds) <= 0) continue;
    unsigned char signals[64];
    const ssize_t count = read(pipe_[0], signals, sizeof(signals));
    for (ssize_t i = 0; i < count; ++i) {
      if (signals[i] == SIGINT) on_interrupt_();
    }
  }
}

}  // namespace fcsn::python
