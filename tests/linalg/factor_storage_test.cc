// FactorStorage and the LWK_USER size rule (linalg/factor_storage.h): the
// buffer MUMPS factorizes in, kept across factorizations.
#include "linalg/factor_storage.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>

namespace fcsn::internal {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

TEST(UserWorkspaceFor, EntriesRelaxedByIcntl14) {
  // 1000 entries + 20 %: MUMPS' own allocation for INFO(8) = 1000.
  const auto workspace = UserWorkspaceFor(1000, 20, sizeof(double));
  ASSERT_TRUE(workspace.has_value());
  EXPECT_EQ(workspace->lwk_user, 1200);
  EXPECT_EQ(workspace->bytes, 1200 * sizeof(double));
  // Rounded up, never down: 7 * 1.15 = 8.05 entries.
  const auto rounded = UserWorkspaceFor(7, 15, sizeof(float));
  ASSERT_TRUE(rounded.has_value());
  EXPECT_EQ(rounded->lwk_user, 9);
}

TEST(UserWorkspaceFor, NegativeInfo8CountsMillions) {
  // INFO(8) = -3: 3e6 entries; 3.6e6 with 20 % still fits an int.
  const auto workspace = UserWorkspaceFor(-3, 20, sizeof(float));
  ASSERT_TRUE(workspace.has_value());
  EXPECT_EQ(workspace->lwk_user, 3600000);
  EXPECT_EQ(workspace->bytes, std::size_t{3600000} * sizeof(float));
}

TEST(UserWorkspaceFor, BeyondIntMaxLwkUserIsInMillions) {
  // 3000e6 entries > INT_MAX: LWK_USER = -3000 (millions), the bytes of
  // 3000e6 entries.
  const auto workspace = UserWorkspaceFor(-3000, 0, sizeof(double));
  ASSERT_TRUE(workspace.has_value());
  EXPECT_EQ(workspace->lwk_user, -3000);
  EXPECT_EQ(workspace->bytes, std::size_t{3000000000} * sizeof(double));
  // 2501.25e6 entries round up to 2502 millions.
  const auto up = UserWorkspaceFor(-2001, 25, sizeof(double));
  ASSERT_TRUE(up.has_value());
  EXPECT_EQ(up->lwk_user, -2502);
  EXPECT_GE(up->bytes, std::size_t{2501250000} * sizeof(double));
}

TEST(UserWorkspaceFor, DegenerateEstimatesGiveNothing) {
  EXPECT_FALSE(UserWorkspaceFor(0, 20, sizeof(double)).has_value());
  EXPECT_FALSE(UserWorkspaceFor(100, 20, 0).has_value());
  // The largest relaxation the retries reach on the largest estimate:
  // more millions than LWK_USER can count.
  EXPECT_FALSE(UserWorkspaceFor(
                   std::numeric_limits<int>::min() + 1, 1000000, sizeof(double))
                   .has_value());
}

TEST(FactorStorage, AlignedToHugePagesAndWritable) {
  FactorStorage storage;
  EXPECT_EQ(storage.data(), nullptr);
  ASSERT_TRUE(storage.Reserve(3 * kMiB + 1));
  ASSERT_NE(storage.data(), nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(storage.data()) % (2 * kMiB), 0u);
  EXPECT_EQ(storage.bytes(), 4 * kMiB);  // rounded to 2 MiB
  std::memset(storage.data(), 0x5a, storage.bytes());
  EXPECT_EQ(static_cast<unsigned char*>(storage.data())[storage.bytes() - 1],
            0x5a);
}

TEST(FactorStorage, BelowAHugePageSizedToCacheLines) {
  FactorStorage storage;
  ASSERT_TRUE(storage.Reserve(1000));
  ASSERT_NE(storage.data(), nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(storage.data()) % 64, 0u);
  EXPECT_EQ(storage.bytes(), 1024u);  // 16 cache lines, not 2 MiB
  std::memset(storage.data(), 0x5a, storage.bytes());
  ASSERT_TRUE(storage.Reserve(2 * kMiB - 1));  // grown, still below 2 MiB
  EXPECT_EQ(storage.bytes(), 2 * kMiB);
  ASSERT_TRUE(storage.Reserve(2 * kMiB + 1));  // from 2 MiB on: huge pages
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(storage.data()) % (2 * kMiB), 0u);
  EXPECT_EQ(storage.bytes(), 4 * kMiB);
}

TEST(FactorStorage, KeptWhileItFitsAndIsAtMostTwiceTooLarge) {
  FactorStorage storage;
  ASSERT_TRUE(storage.Reserve(8 * kMiB));
  void* const first = storage.data();
  ASSERT_TRUE(storage.Reserve(8 * kMiB));
  EXPECT_EQ(storage.data(), first);
  ASSERT_TRUE(storage.Reserve(4 * kMiB));  // exactly half: kept
  EXPECT_EQ(storage.data(), first);
  EXPECT_EQ(storage.bytes(), 8 * kMiB);
  ASSERT_TRUE(storage.Reserve(4 * kMiB - 1));  // more than twice: shrunk
  EXPECT_EQ(storage.bytes(), 4 * kMiB);
  ASSERT_TRUE(storage.Reserve(6 * kMiB));  // too small: grown
  EXPECT_EQ(storage.bytes(), 6 * kMiB);
}

TEST(FactorStorage, ZeroBytesAndImpossibleSizesHoldNothing) {
  FactorStorage storage;
  ASSERT_TRUE(storage.Reserve(kMiB));
  EXPECT_FALSE(storage.Reserve(0));
  EXPECT_EQ(storage.data(), nullptr);
  EXPECT_EQ(storage.bytes(), 0u);
  // Rounding to 2 MiB overflows size_t.
  EXPECT_FALSE(storage.Reserve(std::numeric_limits<std::size_t>::max() - 1));
  EXPECT_EQ(storage.data(), nullptr);
  storage.Release();
  EXPECT_EQ(storage.bytes(), 0u);
}

}  // namespace
}  // namespace fcsn::internal
