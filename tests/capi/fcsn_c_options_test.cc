// The C API's options by name (fcsn_set_option ... fcsn_option_name) against
// the rows of fcsn/option_table.h: every row is listed, set to a valid value
// other than its default and read back; refused sets change nothing; a set
// option reaches the solve.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>

#include "fcsn/fcsn_c.h"
#include "fcsn/option_table.h"
#include "option_values.h"

namespace {

// One unit mass on a plane, pushed down and sideways.
struct OneMass {
  int32_t m_col[4] = {0, 1, 2, 3};
  int32_t m_row[3] = {0, 1, 2};
  double m_val[3] = {1, 1, 1};
  int32_t h_col[4] = {0, 1, 2, 3};
  int32_t h_row[3] = {2, 0, 1};
  double h_val[3] = {1, 1, 1};
  double f[3] = {0.3, 0, -1};
  double mu[1] = {0.5};
  fcsn_problem Problem() {
    fcsn_problem p{};
    p.n = 3;
    p.nc = 1;
    p.M = {m_col, m_row, m_val};
    p.H = {h_col, h_row, h_val};
    p.f = f;
    p.mu = mu;
    return p;
  }
};

class CApiOptionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const fcsn_problem p = data_.Problem();
    ASSERT_EQ(fcsn_setup(&solver_, &p, nullptr), FCSN_OK);
  }
  void TearDown() override { fcsn_free(solver_); }
  std::string Text(const std::string& name) {
    char value[512];
    EXPECT_EQ(fcsn_get_option_text(solver_, name.c_str(), value, sizeof(value)),
              FCSN_OK)
        << name;
    return value;
  }
  static std::string Default(const std::string& name) {
    for (const fcsn::OptionInfo& row : fcsn::SolverOptionTable()) {
      if (row.name == name) return row.default_value;
    }
    return "";
  }
  OneMass data_;
  fcsn_solver* solver_ = nullptr;
};

TEST_F(CApiOptionsTest, ListsEveryRow) {
  const std::vector<fcsn::OptionInfo> table = fcsn::SolverOptionTable();
  ASSERT_EQ(fcsn_option_count(), static_cast<int>(table.size()));
  for (int k = 0; k < fcsn_option_count(); ++k)
    EXPECT_EQ(fcsn_option_name(k), table[static_cast<std::size_t>(k)].name);
  EXPECT_EQ(fcsn_option_name(-1), nullptr);
  EXPECT_EQ(fcsn_option_name(fcsn_option_count()), nullptr);
}

TEST_F(CApiOptionsTest, EveryRowIsSetAndReadBack) {
  for (const fcsn::testing::OptionValue& v :
       fcsn::testing::NonDefaultOptionValues()) {
    const std::string before = Text(v.name);
    // The handle's value may differ from the C++ default (record_history).
    const std::string value = v.text != before ? v.text : Default(v.name);
    ASSERT_EQ(fcsn_set_option_text(solver_, v.name.c_str(), value.c_str()),
              FCSN_OK)
        << v.name << ": " << fcsn_message(solver_);
    const std::string after = Text(v.name);
    EXPECT_NE(after, before) << v.name;
    double number = 0.0;
    if (fcsn_get_option(solver_, v.name.c_str(), &number) == FCSN_OK) {
      ASSERT_EQ(fcsn_set_option_text(solver_, v.name.c_str(), before.c_str()),
                FCSN_OK);
      ASSERT_EQ(fcsn_set_option(solver_, v.name.c_str(), number), FCSN_OK);
      EXPECT_EQ(Text(v.name), after) << v.name;
    }
    ASSERT_EQ(fcsn_set_option_text(solver_, v.name.c_str(), before.c_str()),
              FCSN_OK);  // one row changed at a time
  }
}

TEST_F(CApiOptionsTest, RefusedSetsChangeNothing) {
  EXPECT_EQ(fcsn_set_option(solver_, "rho.nope", 1.0), FCSN_INVALID_SETTINGS);
  EXPECT_NE(std::string(fcsn_message(solver_)).find("rho.nope"),
            std::string::npos);
  EXPECT_EQ(fcsn_set_option(solver_, "rho.initial_boost", 0.5),
            FCSN_INVALID_SETTINGS);  // out of range
  EXPECT_NE(std::string(fcsn_message(solver_)).find("rho.initial_boost"),
            std::string::npos);
  EXPECT_EQ(fcsn_set_option_text(solver_, "solver", "fast"),
            FCSN_INVALID_SETTINGS);
  EXPECT_EQ(fcsn_set_option(solver_, "solver", 1.0), FCSN_INVALID_SETTINGS);
  EXPECT_EQ(Text("rho.initial_boost"), "30");
  EXPECT_EQ(Text("solver"), "hybrid");
  EXPECT_EQ(fcsn_set_option(nullptr, "tolerance", 1e-8), FCSN_INVALID_ARGUMENT);
  EXPECT_EQ(fcsn_set_option(solver_, nullptr, 1e-8), FCSN_INVALID_ARGUMENT);
  double x = 0.0;
  EXPECT_EQ(fcsn_get_option(solver_, "solver", &x), FCSN_INVALID_SETTINGS);
}

// max_iterations = 0 set by name reaches the solve: no Newton iteration.
TEST_F(CApiOptionsTest, ASetOptionReachesTheSolve) {
  ASSERT_EQ(fcsn_set_option_text(solver_, "solver", "nsn"), FCSN_OK);
  ASSERT_EQ(fcsn_set_option(solver_, "max_iterations", 0), FCSN_OK);
  ASSERT_EQ(fcsn_solve(solver_, nullptr, nullptr), FCSN_OK);
  fcsn_info info;
  ASSERT_EQ(fcsn_get_info(solver_, &info), FCSN_OK);
  EXPECT_EQ(info.iterations, 0);
  EXPECT_EQ(info.status, FCSN_STATUS_MAX_ITERATIONS);
  ASSERT_EQ(fcsn_set_option(solver_, "max_iterations", 100), FCSN_OK);
  ASSERT_EQ(fcsn_solve(solver_, nullptr, nullptr), FCSN_OK);
  ASSERT_EQ(fcsn_get_info(solver_, &info), FCSN_OK);
  EXPECT_EQ(info.status, FCSN_STATUS_CONVERGED);
  EXPECT_GT(info.iterations, 0);
}

}  // namespace
