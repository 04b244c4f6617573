// Heap-allocation counting for the no-allocation tests (house style §7.7).
//
// alloc_counter.cc interposes malloc/calloc/realloc for the whole test
// executable (Eigen allocates with malloc, and libstdc++'s operator new goes
// through malloc as well) and forwards to glibc's __libc_* entry points. Since
// it replaces global symbols it must be linked exactly once per executable:
// link the CMake object library fcsn_alloc_counter, never compile the file
// into another target. Under AddressSanitizer the runtime owns malloc: nothing
// is interposed, AllocationCountingEnabled() is false and every count is 0.
//
// Usage:
//   StartCountingAllocations();
//   DoWork();
//   const long allocations = StopCountingAllocations();
#ifndef FCSN_TESTS_ALLOC_COUNTER_H_
#define FCSN_TESTS_ALLOC_COUNTER_H_

namespace fcsn::testing {

// Whether malloc/calloc/realloc are interposed in this build (false under
// AddressSanitizer).
bool AllocationCountingEnabled();

// Resets the count to 0 and counts the heap allocations of every thread
// until StopCountingAllocations().
void StartCountingAllocations();

// Stops counting and returns the allocations since StartCountingAllocations().
long StopCountingAllocations();

}  // namespace fcsn::testing

#endif  // FCSN_TESTS_ALLOC_COUNTER_H_
