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
using internal::SymmetrizeUpper;

bool ReadGlobalProblemImpl(Hdf5Reader* reader,
                           const ReadOptions& options,
                           GlobalProblem* problem,
                           FclibFileInfo* info) {
  if (!reader->Open()) return false;
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
  GlobalProblem p;
  MatrixStats m_stats, h_stats;
  if (!ReadMatrix(reader, "M", &p.M, &m_stats)) return false;
  if (p.M.rows() != p.M.cols()) {
    return reader->Fail("M must be square, but it is " +
                        std::to_string(p.M.rows()) + " x " +
                        std::to_string(p.M.cols()));
  }
  if (!ReadMatrix(reader, "H", &p.H, &h_stats)) return false;
  const long n = p.M.rows();
  const long m = p.H.cols();
  if (p.H.rows() != n) {
    return reader->Fail("H has " + std::to_string(p.H.rows()) +
                        " rows, expected n = " + std::to_string(n) +
                        " (the size of M)");
  }
  if (m == 0) {
    return reader->Fail(
        "H has no columns: the file describes no contact (nc = 0)");
  }
  if (m % 3 != 0) {
    return reader->Fail(
        "H has " + std::to_string(m) +
        " columns, which is not a multiple of 3 (one 3-block per contact)");
  }
  if (!reader->RequireGroup("/fclib_global/vectors") ||
      !reader->ReadVector("/fclib_global/vectors/f", n, "n", &p.f) ||
      !reader->ReadVector("/fclib_global/vectors/w", m, "m", &p.w) ||
      !reader->ReadVector("/fclib_global/vectors/mu", m / 3, "nc", &p.mu)) {
    return false;
  }
  const std::string invalid = p.Validate();
  if (!invalid.empty()) return reader->Fail(invalid);

  FclibFileInfo file_info;
  file_info.m_format = m_stats.format;
  file_info.h_format = h_stats.format;
  file_info.m_stored_nnz = m_stats.stored_nnz;
  file_info.h_stored_nnz = h_stats.stored_nnz;
  file_info.m_explicit_zeros = m_stats.explicit_zeros;
  file_info.h_explicit_zeros = h_stats.explicit_zeros;
  file_info.duplicates_summed = m_stats.duplicates + h_stats.duplicates;
  file_info.m_upper_triangular = IsUpperTriangleOnly(p.M);
  if (file_info.m_upper_triangular &&
      options.m_storage != MStorage::kAsStored) {
    p.M = SymmetrizeUpper(p.M);
    file_info.m_symmetrized = true;
  }
  file_info.title = reader->ReadOptionalString("/fclib_global/info/title");
  file_info.description =
      reader->ReadOptionalString("/fclib_global/info/description");
  file_info.math_info =
      reader->ReadOptionalString("/fclib_global/info/math_info");
  file_info.has_solution = reader->IsGroup("/solution");
  int count = 0;
  if (reader->Exists("/guesses/number_of_guesses") &&
      reader->QuietlyReadScalarInt("/guesses/number_of_guesses", &count)) {
    file_info.number_of_guesses = std::max(count, 0);
  }
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
