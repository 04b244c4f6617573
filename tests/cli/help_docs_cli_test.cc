// The command line and its documentation agree: the README's synopsis of
// `fcsn solve` lists exactly the options of `fcsn solve --help`, and `fcsn
// solve` and `fcsn check` show the same default --tol (one constant).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "cli_runner.h"
#include "test_util.h"

namespace fcsn {
namespace {

// The long options of a CLI11 help text: every line that starts, after its
// indentation, with "--name" (or "-h,--help", left out: every command has it).
std::set<std::string> HelpOptions(const std::string& help) {
  std::set<std::string> options;
  const std::regex option_line(R"(^\s+(--[a-z0-9-]+))");
  std::istringstream in(help);
  for (std::string line; std::getline(in, line);) {
    std::smatch match;
    if (std::regex_search(line, match, option_line)) options.insert(match[1]);
  }
  return options;
}

// Every "--name" of the README's `fcsn solve` synopsis: from the line that
// starts it to the first blank line.
std::set<std::string> ReadmeSolveSynopsis(const std::string& readme) {
  std::set<std::string> options;
  const std::string::size_type start =
      readme.find("build/bin/fcsn solve FILE...");
  if (start == std::string::npos) return options;
  const std::string block =
      readme.substr(start, readme.find("\n\n", start) - start);
  const std::regex option(R"(--[a-z0-9-]+)");
  for (std::sregex_iterator it(block.begin(), block.end(), option), end;
       it != end;
       ++it) {
    options.insert(it->str());
  }
  return options;
}

TEST(HelpDocsTest, ReadmeSynopsisListsEveryOptionOfSolveHelp) {
  const RunResult help = RunFcsn("solve --help");
  ASSERT_EQ(help.exit_code, 0) << help.err;
  const std::set<std::string> from_help = HelpOptions(help.out);
  ASSERT_GT(from_help.size(), 10u) << help.out;  // the parse found the options
  const std::set<std::string> from_readme =
      ReadmeSolveSynopsis(Slurp(std::string(FCSN_SOURCE_DIR) + "/README.md"));
  ASSERT_FALSE(from_readme.empty())
      << "no `fcsn solve FILE...` synopsis in README.md";
  for (const std::string& option : from_help) {
    EXPECT_EQ(from_readme.count(option), 1u)
        << option
        << " is in `fcsn solve --help` but not in the README's synopsis";
  }
  for (const std::string& option : from_readme) {
    EXPECT_EQ(from_help.count(option), 1u)
        << option
        << " is in the README's synopsis but not in `fcsn solve --help`";
  }
}

// The default shown by CLI11 as "--tol FLOAT=<default>".
std::string DefaultTolerance(const std::string& help) {
  std::smatch match;
  const std::regex tol(R"(--tol FLOAT=(\S+))");
  return std::regex_search(help, match, tol) ? match[1].str() : "";
}

TEST(HelpDocsTest, SolveAndCheckShareTheDefaultTolerance) {
  const std::string solve = DefaultTolerance(RunFcsn("solve --help").out);
  const std::string check = DefaultTolerance(RunFcsn("check --help").out);
  ASSERT_FALSE(solve.empty());
  EXPECT_EQ(solve, check);
}

}  // namespace
}  // namespace fcsn
