// Tests of SingleBlasThread (linalg/blas_threads.h): one BLAS thread while a
// guard is active, the caller's setting back when the last guard of the
// process ends, nothing changed by an inactive guard or a setting of one; and
// of fcsn::GetBuildInfo's report of the loaded BLAS.
#include "linalg/blas_threads.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "fcsn/build_info.h"
#include "fcsn/config.h"

// The Fortran BLAS the library's solvers call (linked for this test, so
// that its thread setting is loaded).
extern "C" void dgemm_(const char* transa,
                       const char* transb,
                       const int* m,
                       const int* n,
                       const int* k,
                       const double* alpha,
                       const double* a,
                       const int* lda,
                       const double* b,
                       const int* ldb,
                       const double* beta,
                       double* c,
                       const int* ldc);

namespace fcsn::internal {
namespace {

// Sets the loaded OpenBLAS' threads as a caller would; false without one.
bool SetBlasThreads(int threads) {
  using SetThreads = void (*)(int);
  const auto set = reinterpret_cast<SetThreads>(
      dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
  if (set == nullptr || BlasThreads() == 0) return false;
  set(threads);
  return true;
}

class BlasThreadsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!SetBlasThreads(2)) GTEST_SKIP() << "no OpenBLAS thread setting";
  }
  void TearDown() override { SetBlasThreads(1); }
};

TEST_F(BlasThreadsTest, OneThreadWhileActiveThenTheCallersSetting) {
  {
    SingleBlasThread guard(true);
    EXPECT_EQ(BlasThreads(), 1);
  }
  EXPECT_EQ(BlasThreads(), 2);
}

TEST_F(BlasThreadsTest, InactiveGuardChangesNothing) {
  SingleBlasThread guard(false);
  EXPECT_EQ(BlasThreads(), 2);
  guard.Release();
  EXPECT_EQ(BlasThreads(), 2);
}

TEST_F(BlasThreadsTest, TheLastOfOverlappingGuardsRestores) {
  auto outer = std::make_unique<SingleBlasThread>(true);
  auto inner = std::make_unique<SingleBlasThread>(true);
  EXPECT_EQ(BlasThreads(), 1);
  outer.reset();  // ends first: another solve's setup still runs
  EXPECT_EQ(BlasThreads(), 1);
  inner.reset();
  EXPECT_EQ(BlasThreads(), 2);
}

TEST_F(BlasThreadsTest, ReleaseIsIdempotent) {
  SingleBlasThread a(true);
  SingleBlasThread b(true);
  a.Release();
  a.Release();  // must not count as b's end
  EXPECT_EQ(BlasThreads(), 1);
  b.Release();
  EXPECT_EQ(BlasThreads(), 2);
}

TEST_F(BlasThreadsTest, GuardsOnManyThreadsLeaveTheSettingAsFound) {
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([] {
      for (int k = 0; k < 200; ++k) SingleBlasThread guard(true);
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(BlasThreads(), 2);
}

// The guard changes how BLAS splits its work, so products agree to round-off,
// not bit for bit: OpenBLAS' dgemm on two threads and on one differ in the
// last bits here. BLAS keeps working under the guard.
TEST_F(BlasThreadsTest, ProductsUnderTheGuardAgreeToRoundOff) {
  const int n = 300;
  std::vector<double> a(n * n), b(n * n), threaded(n * n), single(n * n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = 1.0 / (1 + i % 97);
    b[i] = (i % 13) - 6.5;
  }
  // c = a b by the BLAS, with its current threads.
  auto product = [&](std::vector<double>* c) {
    const double one = 1.0, zero = 0.0;
    dgemm_("N",
           "N",
           &n,
           &n,
           &n,
           &one,
           a.data(),
           &n,
           b.data(),
           &n,
           &zero,
           c->data(),
           &n);
  };
  product(&threaded);
  {
    SingleBlasThread guard(true);
    product(&single);
  }
  // Each entry sums n products of magnitude <= 6.5: its round-off is at
  // most ~n eps 6.5 whatever the order of the sum.
  const double bound = n * 6.5 * std::numeric_limits<double>::epsilon();
  for (int i = 0; i < n * n; ++i) {
    ASSERT_NEAR(threaded[i], single[i], bound) << i;
  }
}

TEST_F(BlasThreadsTest, ASettingOfOneIsLeftAlone) {
  ASSERT_TRUE(SetBlasThreads(1));
  {
    SingleBlasThread guard(true);
    EXPECT_EQ(BlasThreads(), 1);
  }
  EXPECT_EQ(BlasThreads(), 1);
}

// fcsn::GetBuildInfo reports this process' OpenBLAS as the guard sees it.
TEST_F(BlasThreadsTest, BuildInfoReportsTheLoadedBlas) {
  const BuildInfo info = GetBuildInfo();
  EXPECT_EQ(info.version, FCSN_VERSION);
  EXPECT_EQ(info.mumps_flavor, FCSN_MUMPS_FLAVOR);
  EXPECT_FALSE(info.mumps_version.empty());
  EXPECT_NE(info.blas.find("OpenBLAS"), std::string::npos) << info.blas;
  EXPECT_FALSE(info.blas_kernel.empty());
  EXPECT_EQ(info.blas_threads, 2);  // SetUp's setting
  {
    SingleBlasThread guard(true);
    EXPECT_EQ(GetBuildInfo().blas_threads, 1);
  }
}

}  // namespace
}  // namespace fcsn::internal
