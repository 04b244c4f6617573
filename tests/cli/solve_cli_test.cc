// `fcsn solve` end to end: every shared problem converges with the default
// policy and with pure Newton (AC, JM) to 1e-10, and the solution written with
// --output passes an independent `fcsn check` whose e_nat agrees with the
// solver's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.h"
#include "test_util.h"

namespace fcsn {
namespace {

class SolveCliTest : public ::testing::TestWithParam<const char*> {};

TEST_P(SolveCliTest, SolutionPassesAnIndependentCheck) {
  const std::string file = testing::SharedProblem(GetParam());
  for (const std::string solver : {"--solver hybrid",
                                   "--solver nsn --formulation ac",
                                   "--solver nsn --formulation jm"}) {
    const std::string out = testing::TempDir() + "/solved_" + GetParam();
    const RunResult solve = RunFcsn("solve --json --tol 1e-10 " + solver +
                                    " --output " + out + " " + file);
    ASSERT_EQ(solve.exit_code, 0) << solver << "\n" << solve.out << solve.err;
    const nlohmann::json s = nlohmann::json::parse(solve.out);
    EXPECT_EQ(s["status"], "converged");
    EXPECT_TRUE(s["converged"].get<bool>());
    EXPECT_LE(s["e_nat"].get<double>(), 1e-10);
    EXPECT_LE(s["e_eq"].get<double>(), 1e-10);
    EXPECT_EQ(s["analyses"].get<int>(), 1);  // one symbolic analysis per solve
    EXPECT_TRUE(s["history"].is_array());

    const RunResult check = RunFcsn("check --json --tol 1e-10 " + out);
    ASSERT_EQ(check.exit_code, 0) << check.out << check.err;
    const nlohmann::json c = nlohmann::json::parse(check.out);
    const double e_solver = s["e_nat"].get<double>();
    const double e_check = c["e_nat"].get<double>();
    EXPECT_NEAR(e_check, e_solver, 1e-13 + 1e-6 * e_solver) << solver;
    EXPECT_LE(c["stored_u_mismatch"].get<double>(), 1e-12);
  }
}

INSTANTIATE_TEST_SUITE_P(Shared,
                         SolveCliTest,
                         ::testing::ValuesIn(testing::kSharedProblemFiles),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return testing::TestNameFromFile(info.param);
                         });

// --local-solver and --max-sweeps reach the NSGS options: a sweep budget of 3
// ends fp-vi-upk (a few projections per sweep) before the tolerance, ac
// converges, and an unknown local solver or a zero projection count exits 2.
TEST(SolveCliTest, LocalSolverAndMaxSweepsReachNsgs) {
  const std::string file = testing::SharedProblem("CubeH8.hdf5");
  const RunResult fp = RunFcsn(
      "solve --json --no-history --solver nsgs --local-solver fp-vi-upk "
      "--max-sweeps 3 --tol 1e-10 " +
      file);
  EXPECT_EQ(fp.exit_code, 1) << fp.out << fp.err;
  const nlohmann::json f = nlohmann::json::parse(fp.out);
  EXPECT_EQ(f["local_solver"], "fp-vi-upk");
  EXPECT_EQ(f["status"], "max-iterations");
  EXPECT_EQ(f["nsgs_sweeps"].get<int>(), 3);
  const RunResult ac = RunFcsn(
      "solve --json --no-history --solver nsgs --local-solver ac "
      "--max-sweeps 50 --tol 1e-10 " +
      file);
  EXPECT_EQ(ac.exit_code, 0) << ac.out << ac.err;
  EXPECT_EQ(nlohmann::json::parse(ac.out)["local_solver"], "ac");
  EXPECT_EQ(RunFcsn("solve --local-solver newton " + file).exit_code, 2);
  EXPECT_EQ(RunFcsn("solve --solver nsgs --fp-projections 0 " + file).exit_code,
            2);
}

TEST(SolveCliTest, SeveralFilesPrintATableAndBadOptionsExitWithTwo) {
  const RunResult table =
      RunFcsn("solve " + testing::SharedProblem("GFC3D_Example0.hdf5") + " " +
              testing::SharedProblem("CubeH8.hdf5"));
  EXPECT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("CubeH8.hdf5"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("converged"), std::string::npos) << table.out;

  const RunResult bad = RunFcsn("solve --formulation xy " +
                                testing::SharedProblem("CubeH8.hdf5"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--formulation"), std::string::npos) << bad.err;

  const RunResult bad_rho =
      RunFcsn("solve --rho-factor 0 " + testing::SharedProblem("CubeH8.hdf5"));
  EXPECT_EQ(bad_rho.exit_code, 2);
  EXPECT_NE(bad_rho.err.find("rho.factor"), std::string::npos) << bad_rho.err;
  const RunResult bad_boost =
      RunFcsn("solve --rho-boost 0.5 " + testing::SharedProblem("CubeH8.hdf5"));
  EXPECT_EQ(bad_boost.exit_code, 2);
  EXPECT_NE(bad_boost.err.find("rho.initial_boost"), std::string::npos)
      << bad_boost.err;

  const RunResult bad_precision = RunFcsn(
      "solve --precision half " + testing::SharedProblem("CubeH8.hdf5"));
  EXPECT_EQ(bad_precision.exit_code, 2);
  EXPECT_NE(bad_precision.err.find("--precision"), std::string::npos)
      << bad_precision.err;

  const RunResult missing = RunFcsn("solve /nonexistent/file.hdf5");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("/nonexistent/file.hdf5"), std::string::npos)
      << missing.err;
}

// --rho-boost reaches the solver and the JSON reports the continuation:
// Box_Stacks stalls under a boost of 30 and needs at least one reduction.
TEST(SolveCliTest, RhoBoostIsReportedInJson) {
  // From the zero start the boost stalls on Box_Stacks and is undone once
  // (from the bonded start of the default it converges under the boost). The
  // tail boost is off so that the last boost is the reduced one.
  const std::string file = testing::SharedProblem("Box_Stacks-i0122-82-5.hdf5");
  for (const double boost : {1.0, 30.0}) {
    const RunResult r = RunFcsn(
        "solve --json --solver nsn --cold-start zero "
        "--tail-rho-boost 1 --rho-boost " +
        std::to_string(boost) + " " + file);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    const nlohmann::json s = nlohmann::json::parse(r.out);
    const nlohmann::json& history = s["history"];
    ASSERT_FALSE(history.empty());
    EXPECT_EQ(history.front()["rho_boost"].get<double>(), boost);
    if (boost == 1.0) {
      EXPECT_EQ(s["rho_reductions"].get<int>(), 0);
    } else {
      EXPECT_GE(s["rho_reductions"].get<int>(), 1);
      EXPECT_LT(history.back()["rho_boost"].get<double>(), boost);
    }
  }
}

// --precision reaches the MUMPS backend: mixed refines every solve in double
// precision and converges like double; the JSON reports both.
TEST(SolveCliTest, PrecisionIsReportedInJson) {
  const std::string file = testing::SharedProblem("CubeH8.hdf5");
  int iterations[2] = {0, 0};
  for (const int mixed : {0, 1}) {
    const std::string precision = mixed ? "mixed" : "double";
    const RunResult r = RunFcsn(
        "solve --json --solver nsn --tol 1e-12 "
        "--precision " +
        precision + " " + file);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    const nlohmann::json s = nlohmann::json::parse(r.out);
    EXPECT_EQ(s["precision"].get<std::string>(), precision);
    EXPECT_LE(s["e_nat"].get<double>(), 1e-12);
    iterations[mixed] = s["iterations"].get<int>();
    if (mixed) {
      EXPECT_GE(s["refinement_steps"].get<int>(), s["iterations"].get<int>());
    } else {
      EXPECT_EQ(s["refinement_steps"].get<int>(), 0);
    }
  }
  EXPECT_LE(std::abs(iterations[1] - iterations[0]), 1);
}

// --cold-start reaches the solver and the JSON: from free flight, pure Newton
// on CubeH8 (w = 0) skips the step that the zero start spends reaching it;
// an unknown start exits 2.
TEST(SolveCliTest, ColdStartIsReportedInJson) {
  const std::string file = testing::SharedProblem("CubeH8.hdf5");
  int iterations[2] = {0, 0};
  for (const int free : {0, 1}) {
    const std::string start = free ? "free-flight" : "zero";
    const RunResult r = RunFcsn(
        "solve --json --no-history --solver nsn --tol 1e-10 "
        "--cold-start " +
        start + " " + file);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    const nlohmann::json s = nlohmann::json::parse(r.out);
    EXPECT_EQ(s["cold_start"].get<std::string>(), start);
    iterations[free] = s["iterations"].get<int>();
  }
  EXPECT_EQ(iterations[1], iterations[0] - 1);
  const RunResult bad = RunFcsn("solve --cold-start warm " + file);
  EXPECT_EQ(bad.exit_code, 2) << bad.out << bad.err;
}

TEST(SolveCliTest, NotConvergedExitsWithOne) {
  const RunResult r =
      RunFcsn("solve --solver nsn --max-iter 1 --tol 1e-12 " +
              testing::SharedProblem("Box_Stacks-i0122-82-5.hdf5"));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
}

// --distribute-m (M given to the solver as this process' share of entries)
// solves like the replicated pure Newton: same status and iterations, errors
// within the tolerance; the solvers that need M^-1 per contact are refused by
// the solver's own message, one line, exit 2.
TEST(SolveCliTest, DistributeMSolvesLikeReplicatedNewton) {
  for (const char* name :
       {"CubeH8.hdf5", "Box_Stacks-i0122-82-5.hdf5", "GFC3D_TwoRods1.hdf5"}) {
    SCOPED_TRACE(name);
    const std::string file = testing::SharedProblem(name);
    const std::string common = "solve --json --no-history --solver nsn ";
    const RunResult replicated = RunFcsn(common + file);
    const RunResult distributed = RunFcsn(common + "--distribute-m " + file);
    ASSERT_EQ(replicated.exit_code, 0) << replicated.out << replicated.err;
    ASSERT_EQ(distributed.exit_code, 0) << distributed.out << distributed.err;
    const nlohmann::json a = nlohmann::json::parse(replicated.out);
    const nlohmann::json b = nlohmann::json::parse(distributed.out);
    EXPECT_EQ(b["status"], a["status"]);
    EXPECT_EQ(b["iterations"], a["iterations"]);
    EXPECT_LE(b["error"].get<double>(), b["tol"].get<double>());
  }
  for (const char* solver : {"nsgs", "hybrid"}) {
    const RunResult r =
        RunFcsn(std::string("solve --distribute-m --solver ") + solver + " " +
                testing::SharedProblem("CubeH8.hdf5"));
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("only \"newton\" is supported"), std::string::npos)
        << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

}  // namespace
}  // namespace fcsn
