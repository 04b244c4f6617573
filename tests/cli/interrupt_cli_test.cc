// `fcsn solve` and Ctrl-C, `fcsn solve --verbose`: a SIGINT during a long
// solve ends it with status aborted, the report of the best point, the
// --output file and exit code 130; --verbose writes the progress lines to
// stderr only.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "fcsn/fclib_io.h"
#include "test_problems.h"
#include "test_util.h"

namespace fcsn {
namespace {

bool Mentions(const std::string& text, const std::string& word) {
  return text.find(word) != std::string::npos;
}

// A lattice block sliding on an uneven floor, written once per process.
std::string LatticeFile(int nx, int ny, int nz, const std::string& name) {
  const std::string path = testing::TempDir() + "/" + name;
  std::string error;
  const GlobalProblem problem =
      testing::MakeLatticeOnFloor(nx, ny, nz, 0.3, 1.5, 0.01);
  EXPECT_TRUE(WriteGlobalProblem(path, problem, nullptr, nullptr, &error))
      << error;
  return path;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Newton on a 12 x 12 x 4 lattice with a tolerance it cannot meet and the
// dense LU: each iteration factorizes J densely (n + m = 2,160, about 0.6 s
// on an idle machine) and the solve reaches its round-off floor only after
// about 6 of them, so it is still running when the command, started in the background (its own process
// group, so SIGINT is not ignored), gets SIGINT right after its first
// progress row; a watchdog kills it if it never reports.
TEST(InterruptCliTest, CtrlCReportsAndWritesTheBestPointAndExits130) {
  const std::string file = LatticeFile(12, 12, 4, "long_lattice.hdf5");
  const std::string base = testing::TempDir() + "/interrupted";
  const std::string output = base + ".hdf5";
  std::remove(output.c_str());
  const std::string fcsn = std::string(FCSN_BINARY_DIR) + "/bin/fcsn";
  const std::string script =
      "set -m\n" + fcsn +
      " solve --verbose --solver nsn --cold-start zero --max-iter 1000 "
      "--tol 1e-300 --linear-solver dense "
      "--output " +
      output + " " + file + " >" + base + ".out 2>" + base +
      ".err &\n"
      "pid=$!\n"
      "for i in $(seq 1200); do\n"
      "  grep -q '^ *newton  *[0-9]' " +
      base +
      ".err && break\n"
      "  sleep 0.05\n"
      "done\n"
      "kill -INT $pid\n"
      // The watchdog must not hold the test's stdout (its reader would wait
      // for it) and ends with the command.
      "( exec >/dev/null 2>&1; sleep 60; kill -KILL $pid ) &\n"
      "watchdog=$!\n"
      "wait $pid\n"
      "echo $? >" +
      base +
      ".code\n"
      "kill $watchdog 2>/dev/null\n"
      "exit 0\n";
  std::ofstream(base + ".sh") << script;
  ASSERT_EQ(std::system(("bash " + base + ".sh").c_str()), 0);
  const int code = std::stoi(Slurp(base + ".code"));
  const std::string out = Slurp(base + ".out");
  const std::string err = Slurp(base + ".err");
  EXPECT_EQ(code, 130) << out << err;
  EXPECT_TRUE(Mentions(out, "aborted")) << out;
  EXPECT_TRUE(Mentions(out, "stopped on request")) << out;
  EXPECT_TRUE(Mentions(err, "end: aborted")) << err;
  const RunResult check = RunFcsn("check --json " + output);
  EXPECT_NE(check.exit_code, 2) << check.out << check.err;
}

// --verbose: the setup line, one row per iteration in order and the end
// line on stderr; stdout is the same JSON as without it.
TEST(InterruptCliTest, VerboseWritesProgressToStderr) {
  const std::string file = LatticeFile(6, 5, 2, "small_lattice.hdf5");
  const RunResult quiet =
      RunFcsn("solve --json --solver nsn --cold-start zero " + file);
  ASSERT_EQ(quiet.exit_code, 0) << quiet.out << quiet.err;
  EXPECT_EQ(quiet.err, "");
  const RunResult verbose =
      RunFcsn("solve --json --verbose --solver nsn --cold-start zero " + file);
  ASSERT_EQ(verbose.exit_code, 0) << verbose.out << verbose.err;
  const nlohmann::json s = nlohmann::json::parse(verbose.out);
  const std::vector<std::string> lines = Lines(verbose.err);
  ASSERT_GE(lines.size(), 3u) << verbose.err;
  EXPECT_EQ(lines.front().rfind("setup: ", 0), 0u) << verbose.err;
  EXPECT_EQ(lines.back().rfind("end: converged", 0), 0u) << verbose.err;
  const std::regex row(R"(^ *newton +(\d+) .*)");
  std::vector<int> iterations;
  for (const std::string& line : lines) {
    std::smatch match;
    if (std::regex_match(line, match, row))
      iterations.push_back(std::stoi(match[1]));
  }
  ASSERT_EQ(iterations.size(), s["history"].size()) << verbose.err;
  for (size_t i = 0; i < iterations.size(); ++i) {
    EXPECT_EQ(iterations[i], s["history"][i]["iteration"].get<int>());
    if (i > 0) EXPECT_GE(iterations[i], iterations[i - 1]);
  }
}

}  // namespace
}  // namespace fcsn
