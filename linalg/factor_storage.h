// linalg/factor_storage.h: the memory that holds MUMPS' factors in core,
// owned by fcsn and kept from one factorization to the next.
//
// MUMPS factorizes inside one real work array S (the fronts, then the factors
// of an in-core factorization). Left to itself it frees S and allocates it
// again at every factorization; every page of the new array is then faulted
// in and zeroed by the kernel before MUMPS writes it, once per factorization.
//
// The user workspace of MUMPS (WK_USER of LWK_USER entries, used as S when
// LWK_USER != 0; MUMPS 5.5 guide) removes that cost after the first
// factorization: fcsn allocates S once, MUMPS reuses its pages. On the cold
// refine-2 shear steps (20-28 factorizations each) a solve takes 10 % less
// time (bench/results/factor_storage.md); a step with one factorization is
// unchanged. A buffer of at least 2 MiB is aligned to 2 MiB, sized to a
// multiple of it and advised for transparent huge pages (MADV_HUGEPAGE), so
// that even its first touch costs one fault per 2 MiB instead of one per
// 4 KiB where the kernel allows it (a no-op where it does not). A smaller one
// is aligned and sized to a 64-byte cache line: rounding it up to a huge page
// would make the kernel zero 2 MiB for the few KiB a small problem uses.
//
// Size rule (UserWorkspace): S's estimate after the analysis (INFO(8)
// entries; negative: millions of entries) times (1 + ICNTL(14) / 100), the
// size MUMPS itself would allocate; a workspace error enlarges ICNTL(14) and
// the buffer with it. LWK_USER counts entries up to INT_MAX and millions of
// entries (negative) beyond. The buffer grows when too small and is
// reallocated when more than twice too large, so memory stays what MUMPS
// alone would use.
#ifndef FCSN_LINALG_FACTOR_STORAGE_H_
#define FCSN_LINALG_FACTOR_STORAGE_H_

#include <cstddef>
#include <optional>

namespace fcsn::internal {

// LWK_USER and the bytes behind it for entries of `entry_bytes` bytes.
struct UserWorkspace {
  int lwk_user = 0;       // entries, or -millions of entries
  std::size_t bytes = 0;  // >= |LWK_USER| entries
};

// The user workspace for an analysis estimate INFO(8) = `info8` under the
// relaxation ICNTL(14) = `relaxation_percent` (>= 0); nullopt when the
// estimate is not positive or the size does not fit LWK_USER or size_t.
std::optional<UserWorkspace> UserWorkspaceFor(int info8,
                                              int relaxation_percent,
                                              std::size_t entry_bytes);

class FactorStorage {
 public:
  FactorStorage() = default;
  ~FactorStorage();
  FactorStorage(const FactorStorage&) = delete;
  FactorStorage& operator=(const FactorStorage&) = delete;

  // Room for at least `bytes` (> 0): keeps the buffer when it holds `bytes`
  // and at most twice as much, else releases it and allocates anew (a
  // multiple of 2 MiB from 2 MiB on, of 64 bytes below). False, with nothing held, when `bytes` is 0 or the
  // allocation fails.
  bool Reserve(std::size_t bytes);
  void Release();

  void* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_FACTOR_STORAGE_H_
