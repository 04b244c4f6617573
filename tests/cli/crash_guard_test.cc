// cli/crash_guard.h: inside a ReadingGuard a fatal signal (a raised SIGSEGV, a
// real invalid memory access, SIGBUS, abort()) ends the process with exit 2
// and exactly one line on stderr; after the guard the previous disposition is
// back. Each case runs in a forked child.
#include "cli/crash_guard.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <functional>
#include <string>

namespace fcsn::cli {
namespace {

struct ChildResult {
  bool exited = false;
  int exit_code = -1;
  int signal = 0;
  std::string err;
};

// Runs body in a forked child whose stderr is captured; the child _exits(0)
// if body returns.
ChildResult RunInChild(const std::function<void()>& body) {
  int fds[2];
  ChildResult r;
  if (pipe(fds) != 0) return r;
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], STDERR_FILENO);
    body();
    _exit(0);
  }
  close(fds[1]);
  char buffer[4096];
  ssize_t n;
  while ((n = read(fds[0], buffer, sizeof buffer)) > 0) r.err.append(buffer, n);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.exited = WIFEXITED(status);
  r.exit_code = r.exited ? WEXITSTATUS(status) : -1;
  r.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  return r;
}

const char kLine[] =
    "fcsn: dir/file.hdf5: crashed inside libhdf5 while reading (corrupt "
    "file?)\n";

void ExpectOneLineAndExitTwo(const ChildResult& r) {
  EXPECT_TRUE(r.exited) << "killed by signal " << r.signal;
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, kLine);
}

TEST(ReadingGuardTest, RaisedSegvIsExitTwoWithOneLine) {
  ExpectOneLineAndExitTwo(RunInChild([] {
    ReadingGuard guard("dir/file.hdf5");
    std::raise(SIGSEGV);
  }));
}

TEST(ReadingGuardTest, InvalidMemoryAccessIsExitTwoWithOneLine) {
  ExpectOneLineAndExitTwo(RunInChild([] {
    ReadingGuard guard("dir/file.hdf5");
    void* page =
        mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    *static_cast<volatile int*>(page) = 1;
  }));
}

TEST(ReadingGuardTest, BusErrorAndAbortAreExitTwoWithOneLine) {
  ExpectOneLineAndExitTwo(RunInChild([] {
    ReadingGuard guard("dir/file.hdf5");
    std::raise(SIGBUS);
  }));
  ExpectOneLineAndExitTwo(RunInChild([] {
    ReadingGuard guard("dir/file.hdf5");
    std::abort();
  }));
}

TEST(ReadingGuardTest, PreviousDispositionIsBackAfterTheGuard) {
  const ChildResult r = RunInChild([] {
    std::signal(SIGSEGV, SIG_DFL);
    { ReadingGuard guard("dir/file.hdf5"); }
    std::raise(SIGSEGV);
  });
  EXPECT_FALSE(r.exited);
  EXPECT_EQ(r.signal, SIGSEGV);
  EXPECT_EQ(r.err, "");
}

}  // namespace
}  // namespace fcsn::cli
