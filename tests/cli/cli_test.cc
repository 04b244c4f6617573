// End-to-end tests of the `fcsn` command (build/bin/fcsn run as a subprocess):
// `info` on the shared problems, `check` on reference solutions (exit 0) and
// 1%-perturbed ones (exit 1), and every malformed input of the reader table
// (exit 2 with exactly one line on stderr).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "fclib_test_files.h"
#include "fcsn/fclib_io.h"
#include "test_util.h"

namespace fcsn {
namespace {

using ::testing::HasSubstr;
using testing::MalformedCase;
using testing::SharedProblem;
using testing::TempDir;

int CountLines(const std::string& text) {
  int lines = 0;
  for (char c : text) lines += c == '\n';
  return lines;
}

nlohmann::json ParseJson(const RunResult& r) {
  EXPECT_EQ(CountLines(r.out), 1) << r.out;
  return nlohmann::json::parse(r.out);
}

// ----- info

TEST(CliInfoTest, JsonOnCubeH8ReportsSizesAndTheUpperTriangle) {
  const RunResult r = RunFcsn("info --json " + SharedProblem("CubeH8.hdf5"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const nlohmann::json j = ParseJson(r);
  EXPECT_EQ(j["file"], SharedProblem("CubeH8.hdf5"));
  EXPECT_EQ(j["n"], 162);
  EXPECT_EQ(j["m"], 3);
  EXPECT_EQ(j["nc"], 1);
  EXPECT_EQ(j["m_format"], "triplet");
  EXPECT_EQ(j["m_stored_nnz"], 3168);
  EXPECT_EQ(j["nnz_M"], 162 + 2 * 3006);
  EXPECT_EQ(j["nnz_H"], 45);
  EXPECT_EQ(j["m_upper_triangular"], true);
  EXPECT_EQ(j["m_symmetrized"], true);
  EXPECT_EQ(j["mu_min"], 0.3);
  EXPECT_EQ(j["mu_max"], 0.3);
  EXPECT_EQ(j["w_norm"], 0.0);
  ASSERT_FALSE(j["notes"].empty());
  EXPECT_THAT(j["notes"][0].get<std::string>(), HasSubstr("upper triangle"));
}

TEST(CliInfoTest, AsStoredKeepsTheTriangle) {
  const RunResult r = RunFcsn("info --json --m-storage as-stored " +
                              SharedProblem("CubeH8.hdf5"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = ParseJson(r);
  EXPECT_EQ(j["m_upper_triangular"], true);
  EXPECT_EQ(j["m_symmetrized"], false);
  EXPECT_EQ(j["nnz_M"], 3168);
  EXPECT_EQ(j["m_storage"], "as-stored");
}

TEST(CliInfoTest, TextOutputOnEverySharedFile) {
  for (const char* file : {"GFC3D_Example00.hdf5",
                           "GFC3D_TwoRods1.hdf5",
                           "CubeH8.hdf5",
                           "Box_Stacks-i0122-82-5.hdf5"}) {
    const RunResult r = RunFcsn(std::string("info ") + SharedProblem(file));
    EXPECT_EQ(r.exit_code, 0) << file << ": " << r.err;
    EXPECT_THAT(r.out, HasSubstr("n = "));
    EXPECT_THAT(r.out, HasSubstr("triplet"));
  }
  EXPECT_THAT(RunFcsn("info " + SharedProblem("CubeH8.hdf5")).out,
              HasSubstr("upper triangle"));
}

// ----- check

struct Reference {
  std::string key, file;
  MStorage m_storage;
  Solution solution;
};

Eigen::VectorXd ToVector(const nlohmann::json& array) {
  Eigen::VectorXd x(static_cast<Eigen::Index>(array.size()));
  for (size_t k = 0; k < array.size(); ++k) {
    x[static_cast<Eigen::Index>(k)] = array[k].get<double>();
  }
  return x;
}

std::vector<Reference> LoadReferences() {
  std::ifstream in(SharedProblem("reference_solutions.json"));
  const nlohmann::json all = nlohmann::json::parse(in);
  std::vector<Reference> out;
  for (const auto& [key, value] : all.at("problems").items()) {
    Reference ref;
    ref.key = key;
    ref.file = key.substr(0, key.find('|'));
    ref.m_storage = key.substr(key.find('|') + 1) == "M=as_stored"
                        ? MStorage::kAsStored
                        : MStorage::kSymmetrized;
    ref.solution.v = ToVector(value.at("v"));
    ref.solution.u = ToVector(value.at("u"));
    ref.solution.r = ToVector(value.at("r"));
    out.push_back(std::move(ref));
  }
  return out;
}

std::string Slug(std::string s) {
  for (char& c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return s;
}

class CliCheckTest : public ::testing::TestWithParam<Reference> {
 protected:
  // Writes the problem (M as the reference used it) with `solution` into a
  // temporary file.
  std::string WriteWith(const Solution& solution, const std::string& suffix) {
    const Reference& ref = GetParam();
    ReadOptions options;
    options.m_storage = ref.m_storage;
    GlobalProblem p;
    std::string error;
    EXPECT_TRUE(ReadGlobalProblem(
        SharedProblem(ref.file), options, &p, nullptr, &error))
        << error;
    const std::string path =
        TempDir() + "/check_" + Slug(ref.key) + suffix + ".hdf5";
    EXPECT_TRUE(WriteGlobalProblem(path, p, &solution, nullptr, &error))
        << error;
    return path;
  }
  // The file keeps an upper-triangle M only for "as stored" references; say so
  // to `check`.
  std::string MStorageFlag() const {
    return std::string(" --m-storage ") +
           ToString(GetParam().m_storage == MStorage::kAsStored
                        ? MStorage::kAsStored
                        : MStorage::kAuto);
  }
};

TEST_P(CliCheckTest, ReferenceSolutionPasses) {
  const std::string path = WriteWith(GetParam().solution, "");
  const RunResult r =
      RunFcsn("check --json --tol 1e-9" + MStorageFlag() + " " + path);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  const nlohmann::json j = ParseJson(r);
  EXPECT_EQ(j["file"], path);
  EXPECT_LE(j["e_nat"].get<double>(), 1e-9);
  EXPECT_LE(j["e_eq"].get<double>(), 1e-9);
  EXPECT_EQ(j["converged"], true);
  EXPECT_TRUE(j.contains("siconos_error"));
  EXPECT_EQ(j["n"], GetParam().solution.v.size());
}

TEST_P(CliCheckTest, OnePercentPerturbedReactionFails) {
  Solution perturbed = GetParam().solution;
  perturbed.r *= 1.01;
  const std::string path = WriteWith(perturbed, "_perturbed");
  const RunResult r =
      RunFcsn("check --json --tol 1e-9" + MStorageFlag() + " " + path);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(ParseJson(r)["converged"], false);
}

INSTANTIATE_TEST_SUITE_P(SharedData,
                         CliCheckTest,
                         ::testing::ValuesIn(LoadReferences()),
                         [](const ::testing::TestParamInfo<Reference>& info) {
                           return Slug(info.param.key);
                         });

TEST(CliCheckTest, SolutionFromAnotherFile) {
  const Reference ref = [] {
    for (const Reference& r : LoadReferences()) {
      if (r.key == "CubeH8.hdf5|M=symmetrized") return r;
    }
    return Reference();
  }();
  ASSERT_EQ(ref.file, "CubeH8.hdf5");
  GlobalProblem p;
  std::string error;
  ASSERT_TRUE(ReadGlobalProblem(
      SharedProblem(ref.file), ReadOptions(), &p, nullptr, &error));
  const std::string solution_file = TempDir() + "/cube_solution.hdf5";
  ASSERT_TRUE(
      WriteGlobalProblem(solution_file, p, &ref.solution, nullptr, &error))
      << error;
  RunResult r = RunFcsn("check " + SharedProblem("CubeH8.hdf5") +
                        " --solution " + solution_file);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("converged"));
  // The symmetric M's solution is not one for the triangle taken as stored (the
  // contact slides there, formulations.md §10.9).
  r = RunFcsn("check --m-storage as-stored " + SharedProblem("CubeH8.hdf5") +
              " --solution " + solution_file);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("NOT converged"));
}

TEST(CliCheckTest, FileWithoutSolutionIsBadInput) {
  const RunResult r = RunFcsn("check " + SharedProblem("CubeH8.hdf5"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_THAT(r.err,
              HasSubstr(SharedProblem("CubeH8.hdf5") + ": has no /solution"));
}

// ----- usage errors

TEST(CliUsageTest, UsageErrorsExitWithTwoAndHelpWithZero) {
  EXPECT_EQ(RunFcsn("").exit_code, 2);
  EXPECT_EQ(RunFcsn("frobnicate").exit_code, 2);
  EXPECT_EQ(RunFcsn("info --m-storage lower " + SharedProblem("CubeH8.hdf5"))
                .exit_code,
            2);
  EXPECT_EQ(
      RunFcsn("check --tol abc " + SharedProblem("CubeH8.hdf5")).exit_code, 2);
  const RunResult help = RunFcsn("--help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, HasSubstr("info"));
  EXPECT_THAT(help.out, HasSubstr("check"));
}

// ----- malformed inputs: exit 2, one line on stderr naming the file, nothing
// on stdout

class CliMalformedTest : public ::testing::TestWithParam<MalformedCase> {};

TEST_P(CliMalformedTest, InfoAndCheckExitWithTwoAndOneLine) {
  const std::string path = GetParam().make(TempDir() + "");
  for (const char* command : {"info --json ", "check "}) {
    const RunResult r = RunFcsn(std::string(command) + "'" + path + "'");
    EXPECT_EQ(r.exit_code, 2) << command;
    EXPECT_EQ(r.out, "") << command;
    EXPECT_EQ(CountLines(r.err), 1) << command << r.err;
    EXPECT_THAT(r.err, HasSubstr("fcsn: " + path + ": ")) << command;
    EXPECT_THAT(r.err, HasSubstr(GetParam().expected)) << command;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Inputs,
    CliMalformedTest,
    ::testing::ValuesIn(testing::MalformedCases()),
    [](const ::testing::TestParamInfo<MalformedCase>& info) {
      return info.param.name;
    });

}  // namespace
}  // namespace fcsn
