// Runs the `fcsn` command (FCSN_BINARY_DIR "/bin/fcsn") as a subprocess for the
// CLI tests.
#ifndef FCSN_TESTS_CLI_CLI_RUNNER_H_
#define FCSN_TESTS_CLI_CLI_RUNNER_H_

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "test_util.h"

namespace fcsn {

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `<prefix> fcsn <args>` (prefix: e.g. "timeout 60" or "prlimit
// --fsize=8192", or empty) and captures its exit code, stdout and stderr.
inline RunResult RunFcsnWith(const std::string& prefix,
                             const std::string& args) {
  static int counter = 0;
  const std::string base =
      testing::TempDir() + "/run" + std::to_string(++counter);
  const std::string command = prefix + " " + std::string(FCSN_BINARY_DIR) +
                              "/bin/fcsn " + args + " >" + base + ".out 2>" +
                              base + ".err";
  const int status = std::system(command.c_str());
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = Slurp(base + ".out");
  r.err = Slurp(base + ".err");
  return r;
}

// Runs `fcsn <args>` and captures its exit code, stdout and stderr.
inline RunResult RunFcsn(const std::string& args) {
  return RunFcsnWith("", args);
}

}  // namespace fcsn

#endif  // FCSN_TESTS_CLI_CLI_RUNNER_H_
