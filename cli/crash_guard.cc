// ReadingGuard (crash_guard.h): a fatal-signal handler that writes a line
// prepared in advance and _exits, using only async-signal-safe calls.
#include "cli/crash_guard.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "cli/cli_util.h"

namespace fcsn::cli {
namespace {

// The line the handler writes; filled before the handler is installed.
char crash_line[4096];
size_t crash_line_length = 0;
// Stack the handler runs on (the faulting stack may be exhausted).
alignas(16) char alternate_stack[64 * 1024];

void OnFatalSignal(int) {
  ssize_t ignored = write(STDERR_FILENO, crash_line, crash_line_length);
  (void)ignored;
  _exit(kExitBadInput);
}

void PrepareLine(const std::string& path) {
  std::string line = "fcsn: " + path +
                     ": crashed inside libhdf5 while reading (corrupt file?)";
  std::replace(line.begin(), line.end(), '\n', ' ');
  line.resize(std::min(line.size(), sizeof(crash_line) - 1));
  line += '\n';
  std::memcpy(crash_line, line.data(), line.size());
  crash_line_length = line.size();
}

}  // namespace

ReadingGuard::ReadingGuard(const std::string& path) {
  PrepareLine(path);
  stack_t stack{};
  stack.ss_sp = alternate_stack;
  stack.ss_size = sizeof(alternate_stack);
  sigaltstack(&stack, &previous_stack_);
  struct sigaction action {};
  action.sa_handler = OnFatalSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_ONSTACK | SA_RESETHAND;
  for (size_t k = 0; k < std::size(kSignals); ++k)
    sigaction(kSignals[k], &action, &previous_[k]);
}

ReadingGuard::~ReadingGuard() {
  for (size_t k = 0; k < std::size(kSignals); ++k)
    sigaction(kSignals[k], &previous_[k], nullptr);
  sigaltstack(&previous_stack_, nullptr);
}

}  // namespace fcsn::cli
