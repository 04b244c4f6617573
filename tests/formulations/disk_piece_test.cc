// Prescribed tangential pieces of the disk formulations (formulations/
// residual.h, DiskPiece): the classification of a point, the stick and slip
// formulas evaluated where the point lies on the other piece (with the slip
// formula's Jacobian checked by central differences of its own extension),
// and the cases that keep the point's piece (an open contact, kSlip at
// s_T = 0, NM and FB).
#include <gtest/gtest.h>

#include <vector>

#include "fcsn/types.h"
#include "formulations/residual.h"

namespace fcsn {
namespace {

constexpr Formulation kDisks[] = {Formulation::kAlartCurnier,
                                  Formulation::kJeanMoreau};

struct One {
  Eigen::VectorXd u = Eigen::VectorXd::Zero(3);
  Eigen::VectorXd r = Eigen::VectorXd::Zero(3);
  Eigen::VectorXd mu = Eigen::VectorXd::Constant(1, 0.5);
  Eigen::VectorXd rho = Eigen::VectorXd::Constant(3, 2.0);
};

// Sticking: r inside the disk, u_T = 0 (s_T = r_T, ||r_T|| = 0.3 < 0.5).
One Sticking() {
  One p;
  p.r << 1.0, 0.3, 0.0;
  return p;
}

// Slipping: u_T = (0.4, -0.2), s_T = r_T - 2 u_T far outside the disk.
One Slipping() {
  One p;
  p.r << 1.0, -0.4, 0.1;
  p.u << 0.0, 0.4, -0.2;
  return p;
}

struct Evaluated {
  Eigen::VectorXd F = Eigen::VectorXd::Zero(3);
  Eigen::Matrix3d A = Eigen::Matrix3d::Zero();
  Eigen::Matrix3d B = Eigen::Matrix3d::Zero();
};

Evaluated Evaluate(Formulation f, const One& p, DiskPiece piece) {
  Evaluated e;
  EvaluateAll(f, p.u, p.r, p.mu, p.rho, &e.F, &e.A, &e.B, &piece);
  return e;
}

DiskPiece Classify(Formulation f, const One& p, Eigen::VectorXd* s_t) {
  DiskPiece piece = DiskPiece::kNone;
  ClassifyDiskPieces(f, p.u, p.r, p.mu, p.rho, &piece, s_t);
  return piece;
}

TEST(DiskPieceTest, ClassifiesStickSlipAndOpenWithTheirSt) {
  for (Formulation f : kDisks) {
    Eigen::VectorXd s_t;
    EXPECT_EQ(Classify(f, Sticking(), &s_t), DiskPiece::kStick);
    EXPECT_LT((s_t - Eigen::Vector2d(0.3, 0.0)).norm(), 1e-15);
    const One slipping = Slipping();
    EXPECT_EQ(Classify(f, slipping, &s_t), DiskPiece::kSlip);
    EXPECT_LT((s_t - Eigen::Vector2d(-1.2, 0.5)).norm(), 1e-15);
    One open = Sticking();
    open.r(0) = -1.0;  // s_N < 0 and r_N < 0: no disk for AC nor JM
    EXPECT_EQ(Classify(f, open, &s_t), DiskPiece::kNone);
  }
}

TEST(DiskPieceTest, NoneIsThePointsOwnPiece) {
  for (Formulation f : kDisks) {
    for (const One& p : {Sticking(), Slipping()}) {
      Evaluated own;
      EvaluateAll(f, p.u, p.r, p.mu, p.rho, &own.F, &own.A, &own.B);
      const Evaluated none = Evaluate(f, p, DiskPiece::kNone);
      EXPECT_EQ(none.F, own.F);
      EXPECT_EQ(none.A, own.A);
      EXPECT_EQ(none.B, own.B);
    }
  }
}

TEST(DiskPieceTest, StickAtASlippingPointIsTheStickFormula) {
  for (Formulation f : kDisks) {
    const One p = Slipping();
    const Evaluated e = Evaluate(f, p, DiskPiece::kStick);
    // F_T = Rho_T u_T; dF_T/du_T = Rho_T, every other tangential entry 0.
    EXPECT_DOUBLE_EQ(e.F(1), 2.0 * 0.4);
    EXPECT_DOUBLE_EQ(e.F(2), 2.0 * -0.2);
    const Eigen::Matrix2d a_tt = e.A.bottomRightCorner(2, 2);
    EXPECT_EQ(a_tt, 2.0 * Eigen::Matrix2d::Identity());
    EXPECT_EQ(e.A(1, 0), 0.0);
    EXPECT_EQ(e.A(2, 0), 0.0);
    EXPECT_TRUE(e.B.bottomRows(2).isZero(0.0));
  }
}

TEST(DiskPieceTest, SlipAtAStickingPointIsTheSlipFormulaAndItsJacobian) {
  for (Formulation f : kDisks) {
    const One p = Sticking();
    const Evaluated e = Evaluate(f, p, DiskPiece::kSlip);
    // F_T = r_T - R s_T / ||s_T|| with R = mu r_N = 0.5 (both: s_N = r_N),
    // s_T = (0.3, 0): F_T = (0.3 - 0.5, 0).
    EXPECT_NEAR(e.F(1), -0.2, 1e-15);
    EXPECT_NEAR(e.F(2), 0.0, 1e-15);
    // Central differences of the prescribed slip formula: it extends
    // smoothly into the disk (s_T stays away from 0 over the stencil).
    const double h = 1e-6;
    for (int k = 0; k < 6; ++k) {
      One plus = p;
      One minus = p;
      (k < 3 ? plus.u(k) : plus.r(k - 3)) += h;
      (k < 3 ? minus.u(k) : minus.r(k - 3)) -= h;
      const Eigen::Vector3d column = (Evaluate(f, plus, DiskPiece::kSlip).F -
                                      Evaluate(f, minus, DiskPiece::kSlip).F) /
                                     (2.0 * h);
      const Eigen::Vector3d exact = k < 3 ? e.A.col(k) : e.B.col(k - 3);
      EXPECT_LT((column - exact).tail<2>().norm(), 1e-8)
          << "column " << k << " of formulation " << static_cast<int>(f);
    }
  }
}

TEST(DiskPieceTest, OpenContactsAndZeroStKeepTheirPiece) {
  for (Formulation f : kDisks) {
    One open = Sticking();
    open.r(0) = -1.0;
    for (DiskPiece piece : {DiskPiece::kStick, DiskPiece::kSlip}) {
      const Evaluated e = Evaluate(f, open, piece);
      EXPECT_EQ(e.F.tail<2>(), open.r.tail<2>());  // F_T = r_T
    }
    One centre = Sticking();
    centre.r(1) = 0.0;  // s_T = 0: the slip formula has no direction
    const Evaluated e = Evaluate(f, centre, DiskPiece::kSlip);
    const Evaluated own = Evaluate(f, centre, DiskPiece::kNone);
    EXPECT_EQ(e.F, own.F);
    EXPECT_EQ(e.A, own.A);
  }
}

TEST(DiskPieceTest, FormulationsWithoutPiecesIgnoreThem) {
  for (Formulation f :
       {Formulation::kNaturalMap, Formulation::kFischerBurmeister}) {
    EXPECT_FALSE(HasDiskPieces(f));
    const One p = Slipping();
    const Evaluated own = Evaluate(f, p, DiskPiece::kNone);
    const Evaluated stick = Evaluate(f, p, DiskPiece::kStick);
    EXPECT_EQ(stick.F, own.F);
    EXPECT_EQ(stick.B, own.B);
  }
  EXPECT_TRUE(HasDiskPieces(Formulation::kAlartCurnier));
  EXPECT_TRUE(HasDiskPieces(Formulation::kJeanMoreau));
}

}  // namespace
}  // namespace fcsn
