// minverse/delassus_blocks.h: the block structure of the Delassus operator
// W = H^T M^-1 H (see delassus.h): which contacts share a connected component
// of M, and the sum of per-component contributions into block-CSR. Internal to
// delassus.cc.
#ifndef FCSN_MINVERSE_DELASSUS_BLOCKS_H_
#define FCSN_MINVERSE_DELASSUS_BLOCKS_H_

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <vector>

#include "fcsn/problem.h"

namespace fcsn::internal {

// The components of M and the contacts touching them, both ways (CSR).
struct ComponentGraph {
  int num_components = 0;
  std::vector<int> component;           // n: component of each dof
  std::vector<int> contact_start;       // num_components + 1
  std::vector<int> component_contacts;  // contacts of each component, ascending
  std::vector<int> touch_start;         // nc + 1
  std::vector<int> contact_components;  // components each contact touches
  std::vector<int> component_start;     // num_components + 1
  std::vector<int> component_dofs;      // dofs of each component, ascending
  std::vector<int> local_index;         // n: index of a dof in its component
};

// Components of problem.M (dofs i, j linked when M_ij or M_ji is stored,
// numbered in order of their smallest dof), the contacts touching each
// (through the rows of H) and the dof layout. O(nnz(M) + nnz(H)).
void BuildComponentGraph(const GlobalProblem& problem, ComponentGraph* graph);

// W_ab += block for a contact pair (a, b), from one component of M.
struct Contribution {
  int a;
  int b;
  Eigen::Matrix3d block;
};

// H_c^T X_c for one block column of X = M_c^-1 H_c, as contributions: the
// rows of H^T that meet nonzero rows of X only, then one block per contact
// touched. The workspace (m rows) is zero again after each Add.
class ColumnSum {
 public:
  explicit ColumnSum(int m)
      : accumulator_(Eigen::MatrixXd::Zero(m, 3)),
        row_touched_(m, 0),
        contact_mark_(m / 3, -1) {}

  // Contributions (a, b, H_{c,a}^T X(:, c0..c0+2)) of contact b, X's rows the
  // nd dofs of the component.
  void Add(int b,
           const Eigen::MatrixXd& x,
           int c0,
           const int* dofs,
           int nd,
           const Eigen::SparseMatrix<double, Eigen::RowMajor, int>& h_rows,
           std::vector<Contribution>* contributions) {
    for (int pl = 0; pl < nd; ++pl) {
      const Eigen::RowVector3d x_p = x.block<1, 3>(pl, c0);
      if ((x_p.array() == 0.0).all()) continue;
      for (Eigen::SparseMatrix<double, Eigen::RowMajor, int>::InnerIterator it(
               h_rows, dofs[pl]);
           it;
           ++it) {
        const int i = it.col();
        if (!row_touched_[i]) {
          row_touched_[i] = 1;
          touched_rows_.push_back(i);
        }
        accumulator_.row(i) += it.value() * x_p;
      }
    }
    for (int i : touched_rows_) {
      const int a = i / 3;
      if (contact_mark_[a] != b) {
        contact_mark_[a] = b;
        contributions->push_back({a, b, accumulator_.middleRows<3>(3 * a)});
      }
    }
    for (int i : touched_rows_) {
      accumulator_.row(i).setZero();
      row_touched_[i] = 0;
      contact_mark_[i / 3] = -1;
    }
    touched_rows_.clear();
  }

 private:
  Eigen::Matrix<double, Eigen::Dynamic, 3> accumulator_;
  std::vector<char> row_touched_;
  std::vector<int> touched_rows_;
  std::vector<int> contact_mark_;
};

// Sums the contributions (emptied) into block-CSR: row_start (nc + 1),
// block_column and blocks (per stored block), diagonal_index (nc). Blocks
// that sum to exactly zero are dropped, the diagonal ones always kept.
void AssembleBlockCsr(std::vector<Contribution>* contributions,
                      int nc,
                      std::vector<int>* row_start,
                      std::vector<int>* block_column,
                      std::vector<Eigen::Matrix3d>* blocks,
                      std::vector<int>* diagonal_index);

}  // namespace fcsn::internal

#endif  // FCSN_MINVERSE_DELASSUS_BLOCKS_H_
