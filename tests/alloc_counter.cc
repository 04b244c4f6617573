// The one translation unit that interposes malloc/calloc/realloc in a test
// executable (see alloc_counter.h).
#include "alloc_counter.h"

#include <atomic>
#include <cstddef>

namespace {
// Relaxed atomics: the counter may be hit from any thread, and only the total
// between Start and Stop matters.
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};

void CountOne() {
  if (counting.load(std::memory_order_relaxed)) {
    allocations.fetch_add(1, std::memory_order_relaxed);
  }
}
}  // namespace

// Under AddressSanitizer the runtime owns malloc: no interposition.
#if defined(__SANITIZE_ADDRESS__)
#define FCSN_COUNT_MALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FCSN_COUNT_MALLOC 0
#endif
#endif
#ifndef FCSN_COUNT_MALLOC
#define FCSN_COUNT_MALLOC 1
#endif

#if FCSN_COUNT_MALLOC
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);

void* malloc(std::size_t size) {
  CountOne();
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) {
  CountOne();
  return __libc_calloc(count, size);
}
void* realloc(void* pointer, std::size_t size) {
  CountOne();
  return __libc_realloc(pointer, size);
}
}
#endif

namespace fcsn::testing {

bool AllocationCountingEnabled() { return FCSN_COUNT_MALLOC != 0; }

void StartCountingAllocations() {
  allocations.store(0, std::memory_order_relaxed);
  counting.store(true, std::memory_order_relaxed);
}

long StopCountingAllocations() {
  counting.store(false, std::memory_order_relaxed);
  return allocations.load(std::memory_order_relaxed);
}

}  // namespace fcsn::testing
