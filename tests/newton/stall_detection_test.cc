// The rho continuation's test of one smooth piece (newton/stall_detection.h,
// PieceWatch): three iterates under one boost with every contact status
// unchanged whose merit does not halve; a status or boost change starts the
// window anew, and a halving merit is progress.
#include "newton/stall_detection.h"

#include <gtest/gtest.h>

#include <vector>

namespace fcsn::internal {
namespace {

using S = ContactStatus;

const std::vector<S> kPiece = {S::kStick, S::kSlip, S::kTakeOff};
const std::vector<S> kOther = {S::kSlip, S::kSlip, S::kTakeOff};

TEST(PieceWatchTest, ThreeIteratesOnOnePieceWithoutHalvingStall) {
  PieceWatch watch;
  EXPECT_FALSE(watch.Update(kPiece, 1.0e-2, 100.0));
  EXPECT_FALSE(watch.Update(kPiece, 0.9e-2, 100.0));
  EXPECT_TRUE(watch.Update(kPiece, 1.04e-2, 100.0));
  // The window starts anew after a report.
  EXPECT_FALSE(watch.Update(kPiece, 1.0e-2, 100.0));
  EXPECT_FALSE(watch.Update(kPiece, 1.0e-2, 100.0));
  EXPECT_TRUE(watch.Update(kPiece, 0.6e-2, 100.0));
}

TEST(PieceWatchTest, HalvingMeritIsProgress) {
  PieceWatch watch;
  EXPECT_FALSE(watch.Update(kPiece, 1.0, 100.0));
  EXPECT_FALSE(watch.Update(kPiece, 0.7, 100.0));
  EXPECT_FALSE(watch.Update(kPiece, 0.49, 100.0));  // below 0.5 x 1.0
  EXPECT_FALSE(watch.Update(kPiece, 0.2, 100.0));   // below 0.5 x 0.7
}

TEST(PieceWatchTest, AStatusOrBoostChangeStartsTheWindowAnew) {
  PieceWatch watch;
  EXPECT_FALSE(watch.Update(kPiece, 1.0, 100.0));
  EXPECT_FALSE(watch.Update(kPiece, 1.0, 100.0));
  EXPECT_FALSE(watch.Update(kOther, 1.0, 100.0));  // another piece
  EXPECT_FALSE(watch.Update(kOther, 1.0, 100.0));
  EXPECT_FALSE(watch.Update(kOther, 1.0, 3000.0));  // another rho
  EXPECT_FALSE(watch.Update(kOther, 1.0, 3000.0));
  EXPECT_TRUE(watch.Update(kOther, 1.0, 3000.0));
  watch.Reset();
  EXPECT_FALSE(watch.Update(kOther, 1.0, 3000.0));
}

}  // namespace
}  // namespace fcsn::internal
