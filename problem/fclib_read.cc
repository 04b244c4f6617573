// FCLib global-problem reader (layout and rules: fcsn/fclib_io.h): the
// problem, its /solution and /guesses, checked and validated, each failure as
// one line "<path>: <what is wrong>". File access: fclib_hdf5.h; matrix
// decoding: fclib_matrix.h.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "fcsn/fclib_io.h"
#include "problem/fclib_hdf5.h"
#include "problem/fclib_matrix.h"

namespace fcsn {
namespace {

using internal::Hdf5Reader;
using internal::IsUpperTriangleOnly;
using internal::MatrixStats;
using internal::ReadMatrix;

using internal::FirstZeroRowOrColumn;
using internal::MatrixHeader;
using internal::ReadMatrixHeader;

// The file is an FCLib global problem fcsn can read: /fclib_global, 3-D
// contact, no equality constraints.
bool CheckGlobalGroup(Hdf5Reader* reader) {
  if (!reader->Exists("/fclib_global")) {
    return reader->Fail(
        reader->Exists("/fclib_local")
            ? "holds a local (reduced) FCLib problem, not a global one"
            : "group /fclib_global is missing (not an FCLib global problem)");
  }
  if (!reader->RequireGroup("/fclib_global")) return false;
  if (reader->Exists("/fclib_global/spacedim")) {
    int spacedim = 0;
    if (!reader->ReadScalarInt("/fclib_global/spacedim", &spacedim))
      return false;
    if (spacedim != 3) {
      return reader->Fail("spacedim = " + std::to_string(spacedim) +
                          ", only 3-D contact (spacedim = 3) is supported");
    }
  }
  if (reader->Exists("/fclib_global/G") ||
      reader->Exists("/fclib_global/vectors/b")) {
    return reader->Fail("equality constraints (G, b) are not supported yet");
  }
  return true;
}

// Reads the declared sizes of M (n x n) and H (n x m, m = 3 nc, nc >= 1).
bool ReadSizes(Hdf5Reader* reader, MatrixHeader* mh, MatrixHeader* hh) {
  if (!ReadMatrixHeader(reader, "M", mh)) return false;
  if (mh->rows != mh->cols) {
    return reader->Fail("M must be square, but it is " +
                        std::to_string(mh->rows) + " x " +
                        std::to_string(mh->cols));
  }
  if (!ReadMatrixHeader(reader, "H", hh)) return false;
  if (hh->rows != mh->rows) {
    return reader->Fail("H has " + std::to_string(hh->rows) +
                        " rows, expected n = " + std::to_string(mh->rows) +
                        " (the size of M)");
  }
  if (hh->cols == 0) {
    return reader->Fail(
        "H has no columns: the file describes no contact (nc = 0)");
  }
  if (hh->cols % 3 != 0) {
    return reader->Fail(
        "H has " + std::to_string(hh->cols) +
        " columns, which is not a multiple of 3 (one 3-block per contact)");
  }
  return true;
}

// f, w and mu must have the declared sizes. Their extents are backed by the
// file (Hdf5Reader::CheckStorage), so once they match, n and m are bounded by
// the file size and the matrices can be allocated.
bool ReadVectors(Hdf5Reader* reader, long n, long m, GlobalProblem* p) {
  return reader->RequireGroup("/fclib_global/vectors") &&
         reader->ReadVector("/fclib_global/vectors/f", n, "n", &p->f) &&
         reader->ReadVector("/fclib_global/vectors/w", m, "m", &p->w) &&
         reader->ReadVector("/fclib_global/vectors/mu", m / 3, "nc", &p->mu);
}

// The M the caller asked for (formulations.md §10.9), which must not have a
// zero row or column: such an M is singular and no solution is defined (it
// also sends sparse LU into an endless loop).
bool ChooseM(Hdf5Reader* reader,
             const ReadOptions& options,
             GlobalProblem* p,
             FclibFileInfo* info) {
  info->m_upper_triangular = IsUpperTriangleOnly(p->M);
  if (info->m_upper_triangular && options.m_storage != MStorage::kAsStored) {
    p->M = SymmetricFromUpperTriangle(p->M);
    info->m_symmetrized = true;
  }
  const std::string zero = FirstZeroRowOrColumn(p->M);
  if (zero.empty()) return true;
  const bool all_zero = (p->M.coeffs() != 0.0).count() == 0;
  return reader->Fail(all_zero ? "M has no nonzero entry, so it is singular"
                               : "M is singular: its " + zero +
                                     " has no nonzero entry");
}

// Informative fields of FclibFileInfo (storage statistics, info strings,
// /solution and /guesses presence).
void DescribeFile(Hdf5Reader* reader,
                  const MatrixStats& m_stats,
                  const MatrixStats& h_stats,
                  FclibFileInfo* info) {
  info->m_format = m_stats.format;
  info->h_format = h_stats.format;
  info->m_stored_nnz = m_stats.stored_nnz;
  info->h_stored_nnz = h_stats.stored_nnz;
  info->m_explicit_zeros = m_stats.explicit_zeros;
  info->h_explicit_zeros = h_stats.explicit_zeros;
  info->duplicates_summed = m_stats.duplicates + h_stats.duplicates;
  info->title = reader->ReadOptionalString("/fclib_global/info/title");
  info->description =
      reader->ReadOptionalString("/fclib_global/info/description");
  info->math_info = reader->ReadOptionalString("/fclib_global/info/math_info");
  info->has_solution = reader->IsGroup("/solution");
  int count = 0;
  if (reader->Exists("/guesses/number_of_guesses") &&
      reader->QuietlyReadScalarInt("/guesses/number_of_guesses", &count)) {
    info->number_of_guesses = std::max(count, 0);
  }
}

bool ReadGlobalProblemImpl(Hdf5Reader* reader,
                           const ReadOptions& options,
                           GlobalProblem* problem,
                           FclibFileInfo* info) {
  MatrixHeader mh, hh;
  GlobalProblem p;
  if (!reader->Open() || !CheckGlobalGroup(reader) ||
      !ReadSizes(reader, &mh, &hh) ||
      !ReadVectors(reader, mh.rows, hh.cols, &p)) {
    return false;
  }
  MatrixStats m_stats, h_stats;
  if (!ReadMatrix(reader, mh, &p.M, &m_stats) ||
      !ReadMatrix(reader, hh, &p.H, &h_stats)) {
    return false;
  }
  const std::string invalid = p.Validate();
  if (!invalid.empty()) return reader->Fail(invalid);
  FclibFileInfo file_info;
  if (!ChooseM(reader, options, &p, &file_info)) return false;
  DescribeFile(reader, m_stats, h_stats, &file_info);
  *problem = std::move(p);
  if (info != nullptr) *info = std::move(file_info);
  return true;
}

// Reads {v, u, r} below `group` (v and r required, u optional).
bool ReadPoint(Hdf5Reader* reader,
               const std::string& group,
               int n,
               int m,
               Solution* point) {
  if (!reader->RequireGroup(group)) return false;
  Solution s;
  if (!reader->ReadVector(group + "/v", n, "n", &s.v) ||
      !reader->ReadVector(group + "/r", m, "m", &s.r)) {
    return false;
  }
  if (reader->Exists(group + "/u") &&
      !reader->ReadVector(group + "/u", m, "m", &s.u)) {
    return false;
  }
  *point = std::move(s);
  return true;
}

bool CheckSizes(Hdf5Reader* reader, int n, int m) {
  if (n < 0 || m < 0)
    return reader->Fail("invalid problem sizes n = " + std::to_string(n) +
                        ", m = " + std::to_string(m));
  return true;
}

}  // namespace

bool ReadGlobalProblem(const std::string& path,
                       const ReadOptions& options,
                       GlobalProblem* problem,
                       FclibFileInfo* info,
                       std::string* error) {
  return internal::Guarded(path, error, [&] {
    Hdf5Reader reader(path, error);
    return ReadGlobalProblemImpl(&reader, options, problem, info);
  });
}

bool ReadSolution(const std::string& path,
                  int n,
                  int m,
                  Solution* solution,
                  std::string* error) {
  return internal::Guarded(path, error, [&] {
    Hdf5Reader reader(path, error);
    return CheckSizes(&reader, n, m) && reader.Open() &&
           ReadPoint(&reader, "/solution", n, m, solution);
  });
}

bool ReadGuesses(const std::string& path,
                 int n,
                 int m,
                 std::vector<Solution>* guesses,
                 std::string* error) {
  return internal::Guarded(path, error, [&] {
    Hdf5Reader reader(path, error);
    if (!CheckSizes(&reader, n, m) || !reader.Open()) return false;
    std::vector<Solution> out;
    if (!reader.Exists("/guesses")) {
      guesses->clear();
      return true;
    }
    int count = 0;
    if (!reader.RequireGroup("/guesses") ||
        !reader.ReadScalarInt("/guesses/number_of_guesses", &count)) {
      return false;
    }
    if (count < 0) {
      return reader.Fail("/guesses/number_of_guesses = " +
                         std::to_string(count) + " is negative");
    }
    for (int k = 1; k <= count; ++k) {
      const std::string group = "/guesses/" + std::to_string(k);
      if (!reader.Exists(group)) {
        return reader.Fail("number_of_guesses = " + std::to_string(count) +
                           " but " + group + " is missing");
      }
      Solution s;
      if (!ReadPoint(&reader, group, n, m, &s)) return false;
      out.push_back(std::move(s));
    }
    *guesses = std::move(out);
    return true;
  });
}

}  // namespace fcsn
