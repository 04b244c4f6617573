// flop_model.cc: see flop_model.h.
#include "flop_model.h"

#include <Eigen/SparseCholesky>
#include <algorithm>
#include <map>
#include <numeric>
#include <vector>

namespace masonry_study {
namespace {

// Per-contact constants of the flop model (see README.md for the counts).
constexpr double kResidualFlops = 60.0;
constexpr double kResidualJacobianFlops = 300.0;
constexpr double kErrorFlops = 60.0;
constexpr double kLocalSolveFlops = 1000.0;

// Flops of a Simplicial LDL^T of A (symmetric, lower used) and nnz(L).
void LdltCounts(const fcsn::SparseMatrix& A,
                double* factor_flops,
                double* nnz_l) {
  Eigen::SimplicialLDLT<fcsn::SparseMatrix, Eigen::Lower> ldlt(A);
  const fcsn::SparseMatrix l = ldlt.matrixL().nestedExpression();
  *factor_flops = 0.0;
  *nnz_l = 0.0;
  for (int j = 0; j < l.outerSize(); ++j) {
    double c = 0;  // strictly lower entries of column j
    for (fcsn::SparseMatrix::InnerIterator it(l, j); it; ++it) {
      if (it.row() > j) c += 1;
    }
    *factor_flops += c * c + 3.0 * c;
    *nnz_l += c;
  }
}

// How the contacts meet the connected components of the graph of M.
struct Components {
  int count = 0;
  std::vector<int> of_dof;                    // component of each row of M
  std::vector<std::vector<int>> touched;      // components per contact
  std::vector<std::vector<int>> contacts_of;  // contacts per component
  std::vector<double> nnz_h;                  // nnz(H) per component
};

// Component of each row of M (union-find), numbered by first row.
void LabelComponents(const fcsn::GlobalProblem& p, Components* c) {
  const int n = p.n();
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (int j = 0; j < p.M.outerSize(); ++j) {
    for (fcsn::SparseMatrix::InnerIterator it(p.M, j); it; ++it) {
      const int a = find(static_cast<int>(it.row()));
      const int b = find(static_cast<int>(it.col()));
      if (a != b) parent[a] = b;
    }
  }
  std::map<int, int> comp_id;
  c->of_dof.assign(n, 0);
  for (int i = 0; i < n; ++i) {
    const int root = find(i);
    auto [pos, inserted] =
        comp_id.emplace(root, static_cast<int>(comp_id.size()));
    c->of_dof[i] = pos->second;
  }
  c->count = static_cast<int>(comp_id.size());
}

// Components touched by each contact, and nnz(H) per component.
Components FindComponents(const fcsn::GlobalProblem& p) {
  Components c;
  LabelComponents(p, &c);
  const int nc = p.m() / 3;
  c.touched.assign(nc, {});
  c.nnz_h.assign(c.count, 0.0);
  c.contacts_of.assign(c.count, {});
  for (int j = 0; j < p.H.outerSize(); ++j) {
    for (fcsn::SparseMatrix::InnerIterator it(p.H, j); it; ++it) {
      const int k = c.of_dof[it.row()];
      c.nnz_h[k] += 1;
      auto& t = c.touched[j / 3];
      if (std::find(t.begin(), t.end(), k) == t.end()) t.push_back(k);
    }
  }
  for (int a = 0; a < nc; ++a)
    for (int k : c.touched[a]) c.contacts_of[k].push_back(a);
  return c;
}

// Nonzero blocks of W: pairs of contacts sharing a component.
double CountWBlocks(const Components& c, int nc) {
  double blocks = 0;
  std::vector<int> mark(nc, -1);
  for (int a = 0; a < nc; ++a) {
    int count = 0;
    for (int k : c.touched[a]) {
      for (int b : c.contacts_of[k]) {
        if (mark[b] != a) {
          mark[b] = a;
          ++count;
        }
      }
    }
    if (count == 0) count = 1;  // the diagonal block is always kept
    blocks += count;
  }
  return blocks;
}

// M_c: the rows and columns of M in `rows` (sorted), renumbered from 0.
fcsn::SparseMatrix ComponentMatrix(const fcsn::SparseMatrix& M,
                                   const std::vector<int>& rows) {
  std::vector<int> local(M.rows(), -1);
  for (size_t k = 0; k < rows.size(); ++k) local[rows[k]] = static_cast<int>(k);
  std::vector<Eigen::Triplet<double>> t;
  for (int j : rows) {
    for (fcsn::SparseMatrix::InnerIterator it(M, j); it; ++it) {
      t.emplace_back(local[it.row()], local[j], it.value());
    }
  }
  const int nn = static_cast<int>(rows.size());
  fcsn::SparseMatrix mc(nn, nn);
  mc.setFromTriplets(t.begin(), t.end());
  return mc;
}

// Whole-M LDL^T (rho and q_free); its solves with the 3 columns of each
// contact touch only the factor of that contact's components. Delassus: per
// component factorization and 3 k_c solves, then H_c^T X_c.
void AddSetupFlops(const fcsn::GlobalProblem& p,
                   const Components& c,
                   FlopModel* model) {
  const int n = p.n();
  double f_all = 0, l_all = 0;
  LdltCounts(p.M, &f_all, &l_all);
  model->setup_common = f_all + 4.0 * l_all + n;
  std::vector<std::vector<int>> rows_of(c.count);
  for (int i = 0; i < n; ++i) rows_of[c.of_dof[i]].push_back(i);
  for (int k = 0; k < c.count; ++k) {
    if (c.contacts_of[k].empty()) continue;
    const int nn = static_cast<int>(rows_of[k].size());
    double f_c = 0, l_c = 0;
    LdltCounts(ComponentMatrix(p.M, rows_of[k]), &f_c, &l_c);
    const double kc = c.contacts_of[k].size();
    model->setup_common += 3.0 * kc * (4.0 * l_c + nn);
    model->setup_delassus +=
        f_c + 3.0 * kc * (4.0 * l_c + nn) + 2.0 * c.nnz_h[k] * 3.0 * kc;
  }
}

}  // namespace

FlopModel BuildFlopModel(const fcsn::GlobalProblem& p) {
  FlopModel model;
  const int nc = p.m() / 3;
  const double nnz_m = p.M.nonZeros();
  const double nnz_h = p.H.nonZeros();
  const double base = 2 * nnz_m + 4 * nnz_h;
  model.residual = base + kResidualFlops * nc;
  model.residual_jacobian = base + 6 * nnz_h + kResidualJacobianFlops * nc;
  model.error = base + kErrorFlops * nc;
  const Components c = FindComponents(p);
  model.components = c.count;
  model.w_blocks = CountWBlocks(c, nc);
  model.sweep = 18.0 * model.w_blocks + kLocalSolveFlops * nc;
  AddSetupFlops(p, c, &model);
  return model;
}

}  // namespace masonry_study
