#include "linalg/factor_storage.h"

#include <sys/mman.h>

#include <cmath>
#include <cstdlib>
#include <limits>

namespace fcsn::internal {
namespace {

// The size of a transparent huge page on x86-64 and arm64 (4 KiB base
// pages): the alignment and the size granule of the buffer.
constexpr std::size_t kHugePage = std::size_t{2} << 20;

// A workspace below one huge page (the small problems of rigid sets, solved
// thousands of times) is not rounded up to one: a whole huge page would be
// zeroed by the kernel at its first touch for a few KiB of fronts. It is
// aligned to a cache line (64 bytes on x86-64 and arm64) and sized to it.
constexpr std::size_t kCacheLine = 64;

// LWK_USER switches to millions of entries beyond INT_MAX entries.
constexpr double kMillion = 1e6;

}  // namespace

std::optional<UserWorkspace> UserWorkspaceFor(int info8,
                                              int relaxation_percent,
                                              std::size_t entry_bytes) {
  const double estimate =
      info8 >= 0 ? static_cast<double>(info8) : -kMillion * info8;
  const double entries =
      std::ceil(estimate * (1.0 + relaxation_percent / 100.0));
  if (!(entries > 0) || entry_bytes == 0) return std::nullopt;
  const double int_max = std::numeric_limits<int>::max();
  const bool in_millions = entries > int_max;
  const double millions = std::ceil(entries / kMillion);
  if (in_millions && millions > int_max) return std::nullopt;
  const double size = in_millions ? millions * kMillion : entries;
  // Half of size_t's range: the rounding to 2 MiB must not overflow either.
  const double max_bytes =
      0.5 * static_cast<double>(std::numeric_limits<std::size_t>::max());
  if (size * static_cast<double>(entry_bytes) > max_bytes) return std::nullopt;
  UserWorkspace workspace;
  workspace.lwk_user =
      in_millions ? -static_cast<int>(millions) : static_cast<int>(entries);
  workspace.bytes = static_cast<std::size_t>(size) * entry_bytes;
  return workspace;
}

FactorStorage::~FactorStorage() { Release(); }

void FactorStorage::Release() {
  std::free(data_);
  data_ = nullptr;
  bytes_ = 0;
}

bool FactorStorage::Reserve(std::size_t bytes) {
  if (data_ != nullptr && bytes <= bytes_ && bytes_ / 2 <= bytes) return true;
  Release();
  if (bytes == 0) return false;
  const bool huge = bytes >= kHugePage;
  const std::size_t granule = huge ? kHugePage : kCacheLine;
  const std::size_t rounded = (bytes + granule - 1) / granule * granule;
  if (rounded < bytes) return false;  // overflow
  void* data = nullptr;
  if (posix_memalign(&data, granule, rounded) != 0) return false;
  // Advice only: where transparent huge pages are off, or the kernel refuses,
  // the buffer is used with base pages.
  if (huge) madvise(data, rounded, MADV_HUGEPAGE);
  data_ = data;
  bytes_ = rounded;
  return true;
}

}  // namespace fcsn::internal
