#include "test_matrices.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace fcsn::testing {

using Triplets = std::vector<std::tuple<int, int, double>>;

TestSystem FromTriplets(int n, const Triplets& triplets) {
  Triplets sorted = triplets;
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return std::make_pair(std::get<1>(a), std::get<0>(a)) <
           std::make_pair(std::get<1>(b), std::get<0>(b));
  });
  TestSystem system;
  system.pattern.n = n;
  system.pattern.col_ptr.assign(n + 1, 0);
  size_t t = 0;
  for (int j = 0; j < n; ++j) {
    system.pattern.col_ptr[j] =
        static_cast<int>(system.pattern.row_index.size());
    int last_row = -1;
    for (; t < sorted.size() && std::get<1>(sorted[t]) == j; ++t) {
      const int i = std::get<0>(sorted[t]);
      const double v = std::get<2>(sorted[t]);
      if (i == last_row) {
        system.values.back() += v;
      } else {
        system.pattern.row_index.push_back(i);
        system.values.push_back(v);
        last_row = i;
      }
    }
  }
  system.pattern.col_ptr[n] = static_cast<int>(system.pattern.row_index.size());
  return system;
}

Eigen::SparseMatrix<double> ToEigen(const internal::SparsityPattern& pattern,
                                    const std::vector<double>& values) {
  return Eigen::Map<const Eigen::SparseMatrix<double>>(pattern.n,
                                                       pattern.n,
                                                       pattern.nnz(),
                                                       pattern.col_ptr.data(),
                                                       pattern.row_index.data(),
                                                       values.data());
}

double BackwardError(const Eigen::SparseMatrix<double>& J,
                     const Eigen::VectorXd& x,
                     const Eigen::VectorXd& b) {
  Eigen::VectorXd row_sums = Eigen::VectorXd::Zero(J.rows());
  for (int j = 0; j < J.outerSize(); ++j) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(J, j); it; ++it) {
      row_sums[it.row()] += std::abs(it.value());
    }
  }
  const double norm_j = row_sums.size() ? row_sums.maxCoeff() : 0.0;
  const double denominator =
      norm_j * x.lpNorm<Eigen::Infinity>() + b.lpNorm<Eigen::Infinity>();
  const double residual = (J * x - b).lpNorm<Eigen::Infinity>();
  return denominator > 0 ? residual / denominator : residual;
}

namespace {

// Structure of RandomUnsymmetric: off-diagonal (row, col) positions and the row
// swap.
struct RandomStructure {
  std::vector<std::pair<int, int>> offdiagonal;
  std::vector<int>
      row_of;  // row_of[i] = row where row i of the dominant matrix ends up
};

RandomStructure MakeRandomStructure(int n,
                                    int per_column,
                                    double swap_fraction,
                                    std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> pick(0, n - 1);
  RandomStructure s;
  for (int j = 0; j < n; ++j) {
    for (int k = 0; k < per_column; ++k) {
      const int i = pick(rng);
      if (i != j) s.offdiagonal.emplace_back(i, j);
    }
  }
  s.row_of.resize(n);
  std::iota(s.row_of.begin(), s.row_of.end(), 0);
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  const int swaps = static_cast<int>(swap_fraction * n / 2);
  for (int s_index = 0; s_index < swaps && 2 * s_index + 1 < n; ++s_index) {
    std::swap(s.row_of[order[2 * s_index]], s.row_of[order[2 * s_index + 1]]);
  }
  return s;
}

Triplets RandomTriplets(int n,
                        const RandomStructure& s,
                        std::uint32_t value_seed) {
  std::mt19937 rng(value_seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  Triplets triplets;
  std::vector<double> row_abs(n, 0.0);
  for (const auto& [i, j] : s.offdiagonal) {
    const double v = value(rng);
    triplets.emplace_back(s.row_of[i], j, v);
    row_abs[i] += std::abs(v);
  }
  for (int i = 0; i < n; ++i) {
    const double sign = value(rng) < 0 ? -1.0 : 1.0;
    // Diagonal entry of the dominant matrix, moved to row row_of[i] by the
    // swap.
    triplets.emplace_back(
        s.row_of[i], i, sign * (1.0 + row_abs[i] + std::abs(value(rng))));
    // Keep an explicit (possibly zero) slot on the diagonal of the swapped
    // matrix.
    triplets.emplace_back(i, i, 0.0);
  }
  return triplets;
}

}  // namespace

TestSystem RandomUnsymmetric(int n,
                             int per_column,
                             double swap_fraction,
                             std::uint32_t seed) {
  const RandomStructure s =
      MakeRandomStructure(n, per_column, swap_fraction, seed);
  return FromTriplets(n, RandomTriplets(n, s, seed + 1000));
}

std::vector<double> RandomUnsymmetricValues(int n,
                                            int per_column,
                                            double swap_fraction,
                                            std::uint32_t seed,
                                            std::uint32_t value_seed) {
  const RandomStructure s =
      MakeRandomStructure(n, per_column, swap_fraction, seed);
  return FromTriplets(n, RandomTriplets(n, s, value_seed)).values;
}

TestSystem ContactSaddlePoint(int k, int contacts, std::uint32_t state_seed) {
  const int nodes = k * k * k;
  const int nv = 3 * nodes;
  const int m = 3 * contacts;
  const int n = nv + m;
  auto node = [k](int x, int y, int z) { return (z * k + y) * k + x; };
  Triplets t;
  // M: 27-point node coupling, 3 x 3 dof blocks; SPD by diagonal dominance.
  for (int z = 0; z < k; ++z) {
    for (int y = 0; y < k; ++y) {
      for (int x = 0; x < k; ++x) {
        const int a = node(x, y, z);
        for (int dz = -1; dz <= 1; ++dz) {
          for (int dy = -1; dy <= 1; ++dy) {
            for (int dx = -1; dx <= 1; ++dx) {
              const int xx = x + dx, yy = y + dy, zz = z + dz;
              if (xx < 0 || yy < 0 || zz < 0 || xx >= k || yy >= k || zz >= k)
                continue;
              const int b = node(xx, yy, zz);
              for (int p = 0; p < 3; ++p) {
                for (int q = 0; q < 3; ++q) {
                  double v;
                  if (a == b) {
                    v = p == q ? 30.0 : 0.5;
                  } else {
                    v = p == q ? -1.0 : -0.05 * (1 + ((a + b + p + q) % 3));
                  }
                  t.emplace_back(3 * a + p, 3 * b + q, v);
                }
              }
            }
          }
        }
      }
    }
  }
  // Contacts on the bottom face z = 0, each between two neighbouring nodes.
  const int face = k * k;
  for (int c = 0; c < contacts; ++c) {
    const int n0 = c % face;
    const int n1 = (n0 + 1) % face;
    const int col = nv + 3 * c;
    // H_a (n_v x 3): local frame rows for both nodes, with opposite signs.
    double h[2][3][3];
    for (int p = 0; p < 3; ++p) {
      for (int q = 0; q < 3; ++q) {
        const double base = (p == q ? 1.0 : 0.1 * ((p + 2 * q + c) % 3 - 1));
        h[0][p][q] = base;
        h[1][p][q] = -0.8 * base;
      }
    }
    const int state = static_cast<int>((c + state_seed) % 3);
    double A[3][3] = {}, B[3][3] = {};
    if (state == 0) {  // stick: A = I, B = 0
      for (int p = 0; p < 3; ++p) A[p][p] = 1.0;
    } else if (state == 1) {  // slide: generic A, B with B_NN = 0
      for (int p = 0; p < 3; ++p) {
        for (int q = 0; q < 3; ++q) {
          A[p][q] = (p == q ? 0.7 : 0.1 * ((p + q + c) % 2));
          B[p][q] = (p == 0 || q == 0) ? 0.0 : (p == q ? 0.6 : 0.2);
        }
      }
      B[0][1] = 0.3;  // r_T1 enters the normal row; B_NN stays 0
      A[0][0] = 1.0;
    } else {  // open: A = 0, B = I
      for (int p = 0; p < 3; ++p) B[p][p] = 1.0;
    }
    const int nodes_of[2] = {n0, n1};
    for (int s = 0; s < 2; ++s) {
      const int base_row = 3 * nodes_of[s];
      for (int p = 0; p < 3; ++p) {
        for (int q = 0; q < 3; ++q) {
          // -H block: row base_row + p, column col + q.
          t.emplace_back(base_row + p, col + q, -h[s][p][q]);
          // A H^T block: row col + p, column base_row + q: sum_r A[p][r]
          // H^T[r][q] = A[p][r] h[s][q][r]. Always stored (the slot exists even
          // if A = 0).
          double v = 0.0;
          for (int r = 0; r < 3; ++r) v += A[p][r] * h[s][q][r];
          t.emplace_back(col + p, base_row + q, v);
        }
      }
    }
    for (int p = 0; p < 3; ++p) {
      for (int q = 0; q < 3; ++q) t.emplace_back(col + p, col + q, B[p][q]);
    }
  }
  return FromTriplets(n, t);
}

std::vector<int> GridStencil7(int k, int x, int y, int z) {
  auto id = [k](int i, int j, int l) { return (l * k + j) * k + i; };
  std::vector<int> nodes = {id(x, y, z)};
  if (x > 0) nodes.push_back(id(x - 1, y, z));
  if (x + 1 < k) nodes.push_back(id(x + 1, y, z));
  if (y > 0) nodes.push_back(id(x, y - 1, z));
  if (y + 1 < k) nodes.push_back(id(x, y + 1, z));
  if (z > 0) nodes.push_back(id(x, y, z - 1));
  if (z + 1 < k) nodes.push_back(id(x, y, z + 1));
  return nodes;
}

TestSystem Laplacian3D(int k) {
  const int n = k * k * k;
  auto id = [k](int x, int y, int z) { return (z * k + y) * k + x; };
  Triplets t;
  t.reserve(7 * static_cast<size_t>(n));
  for (int z = 0; z < k; ++z) {
    for (int y = 0; y < k; ++y) {
      for (int x = 0; x < k; ++x) {
        const int i = id(x, y, z);
        t.emplace_back(i, i, 6.0);
        if (x > 0) t.emplace_back(i, id(x - 1, y, z), -1.1);
        if (x + 1 < k) t.emplace_back(i, id(x + 1, y, z), -0.9);
        if (y > 0) t.emplace_back(i, id(x, y - 1, z), -1.0);
        if (y + 1 < k) t.emplace_back(i, id(x, y + 1, z), -1.0);
        if (z > 0) t.emplace_back(i, id(x, y, z - 1), -1.0);
        if (z + 1 < k) t.emplace_back(i, id(x, y, z + 1), -1.0);
      }
    }
  }
  return FromTriplets(n, t);
}

TestSystem Arrowhead(int n) {
  Triplets t;
  t.emplace_back(0, 0, 2.0 * n);
  for (int i = 1; i < n; ++i) {
    t.emplace_back(i, i, 4.0);
    t.emplace_back(0, i, 1.0);
    t.emplace_back(i, 0, -1.0);
  }
  return FromTriplets(n, t);
}

TestSystem NearlyDependentRows(double tiny) {
  const TestSystem base = RandomUnsymmetric(150, 3, 0.2, 21);
  std::vector<std::tuple<int, int, double>> triplets;
  for (int j = 0; j < base.pattern.n; ++j) {
    for (int p = base.pattern.col_ptr[j]; p < base.pattern.col_ptr[j + 1];
         ++p) {
      const int i = base.pattern.row_index[p];
      if (i == 40) {
        triplets.emplace_back(40, j, tiny * base.values[p]);
        continue;
      }
      triplets.emplace_back(i, j, base.values[p]);
      if (i == 12) triplets.emplace_back(40, j, base.values[p] * 0.3);
    }
  }
  return FromTriplets(150, triplets);
}

}  // namespace fcsn::testing
