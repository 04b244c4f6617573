// GlobalProblem::Validate(): one readable sentence per kind of defect, "" for a
// valid problem.
#include "fcsn/problem.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "fclib_test_files.h"

namespace fcsn {
namespace {

using ::testing::HasSubstr;

TEST(ValidateTest, SmallProblemIsValid) {
  EXPECT_EQ(testing::SmallProblem().Validate(), "");
}

TEST(ValidateTest, ZeroContactsAreAnOrdinaryProblem) {
  GlobalProblem p = testing::SmallProblem();
  p.H = SparseMatrix(6, 0);
  p.w.resize(0);
  p.mu.resize(0);
  EXPECT_EQ(p.Validate(), "");
  EXPECT_EQ(p.nc(), 0);
}

TEST(ValidateTest, ZeroFrictionIsValid) {
  GlobalProblem p = testing::SmallProblem();
  p.mu.setZero();
  EXPECT_EQ(p.Validate(), "");
}

struct Defect {
  const char* name;
  void (*apply)(GlobalProblem*);
  const char* expected;
};

class ValidateDefectTest : public ::testing::TestWithParam<Defect> {};

TEST_P(ValidateDefectTest, NamesTheDefectInOneSentence) {
  GlobalProblem p = testing::SmallProblem();
  GetParam().apply(&p);
  const std::string message = p.Validate();
  EXPECT_THAT(message, HasSubstr(GetParam().expected));
  EXPECT_EQ(message.find('\n'), std::string::npos);
}

const Defect kDefects[] = {
    {"NonSquareM",
     [](GlobalProblem* p) { p->M.conservativeResize(6, 5); },
     "M must be square"},
    {"HRows",
     [](GlobalProblem* p) { p->H.conservativeResize(5, 6); },
     "H must have n = 6 rows"},
    {"HColumns",
     [](GlobalProblem* p) { p->H.conservativeResize(6, 5); },
     "not a multiple of 3"},
    {"FSize",
     [](GlobalProblem* p) { p->f.resize(4); },
     "f has 4 entries, expected n = 6"},
    {"WSize",
     [](GlobalProblem* p) { p->w.resize(3); },
     "w has 3 entries, expected m = 6"},
    {"MuSize",
     [](GlobalProblem* p) { p->mu.resize(3); },
     "mu has 3 entries, expected nc"},
    {"NanInM",
     [](GlobalProblem* p) {
       p->M.coeffRef(1, 1) = std::numeric_limits<double>::quiet_NaN();
     },
     "M contains a NaN"},
    {"InfInH",
     [](GlobalProblem* p) {
       p->H.coeffRef(0, 0) = std::numeric_limits<double>::infinity();
     },
     "H contains a NaN"},
    {"NanInF",
     [](GlobalProblem* p) {
       p->f[2] = std::numeric_limits<double>::quiet_NaN();
     },
     "f contains a NaN"},
    {"InfInW",
     [](GlobalProblem* p) {
       p->w[0] = -std::numeric_limits<double>::infinity();
     },
     "w contains a NaN"},
    {"NegativeMu",
     [](GlobalProblem* p) { p->mu[1] = -0.5; },
     "mu[1] = -0.500000 is negative"},
    {"NanMu",
     [](GlobalProblem* p) {
       p->mu[0] = std::numeric_limits<double>::quiet_NaN();
     },
     "mu[0] is not finite"},
    // insert() leaves gaps in the CSC arrays the solver reads directly: a
    // regular problem read that way had "2 null pivots".
    {"UncompressedM",
     [](GlobalProblem* p) { p->M.uncompress(); },
     "M is not in compressed form"},
    {"UncompressedH",
     [](GlobalProblem* p) { p->H.uncompress(); },
     "H is not in compressed form"},
    {"EqualityConstraints",
     [](GlobalProblem* p) {
       p->G = SparseMatrix(6, 1);
       p->b = Eigen::VectorXd::Zero(1);
     },
     "equality constraints (G, b) are not supported yet"},
};

INSTANTIATE_TEST_SUITE_P(Defects,
                         ValidateDefectTest,
                         ::testing::ValuesIn(kDefects),
                         [](const ::testing::TestParamInfo<Defect>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace fcsn
