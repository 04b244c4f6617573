// The choice of M's services for a solve (minverse/m_services.h).
#include "minverse/m_services.h"

#include "minverse/distributed_m.h"
#include "minverse/shared_m.h"

namespace fcsn::internal {

MChoice::MChoice()
    : shared_(std::make_unique<SharedM>()),
      distributed_(std::make_unique<DistributedM>()) {}

MChoice::~MChoice() = default;

MServices* MChoice::Pick(const LocalMatrixEntries* local_m) {
  if (local_m != nullptr) return distributed_.get();
  return shared_.get();
}

void MChoice::ResetDistributed() { distributed_->Reset(); }

}  // namespace fcsn::internal
