// FCLib global-problem reader and writer on the HDF5 C API (layout and rules:
// fcsn/fclib_io.h).
//
// Every HDF5 identifier lives in a Handle (RAII), HDF5's automatic error
// printing is switched off by a ScopedHdf5Silence for the duration of each
// public call, and every failure becomes one line
// "<path>: <what is wrong>". Allocations are bounded by the sizes of the
// datasets actually present, and checked against the header counts before any
// index is used.
#include "fcsn/fclib_io.h"

#include <hdf5.h>

#include <Eigen/SparseCore>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <limits>
#include <new>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace fcsn {
namespace {

using Triplet = Eigen::Triplet<double, int>;

// Switches HDF5's automatic error-stack printing off and restores the caller's
// handler.
class ScopedHdf5Silence {
 public:
  ScopedHdf5Silence() {
    saved_ = H5Eget_auto2(H5E_DEFAULT, &func_, &client_data_) >= 0;
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~ScopedHdf5Silence() {
    if (saved_) H5Eset_auto2(H5E_DEFAULT, func_, client_data_);
  }
  ScopedHdf5Silence(const ScopedHdf5Silence&) = delete;
  ScopedHdf5Silence& operator=(const ScopedHdf5Silence&) = delete;

 private:
  H5E_auto2_t func_ = nullptr;
  void* client_data_ = nullptr;
  bool saved_ = false;
};

// Owns one HDF5 identifier and closes it with the matching H5?close.
class Handle {
 public:
  using CloseFn = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, CloseFn close) : id_(id), close_(close) {}
  Handle(Handle&& other) noexcept : id_(other.id_), close_(other.close_) {
    other.id_ = -1;
  }
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      Reset();
      id_ = other.id_;
      close_ = other.close_;
      other.id_ = -1;
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { Reset(); }

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  // Closes now and reports whether HDF5 accepted the close (flushes a file
  // being written).
  bool Close() {
    if (id_ < 0) return true;
    const herr_t status = close_(id_);
    id_ = -1;
    return status >= 0;
  }

 private:
  void Reset() {
    if (id_ >= 0 && close_ != nullptr) close_(id_);
    id_ = -1;
  }
  hid_t id_ = -1;
  CloseFn close_ = nullptr;
};

const char* TypeClassName(H5T_class_t c) {
  switch (c) {
    case H5T_INTEGER:
      return "integer";
    case H5T_FLOAT:
      return "float";
    case H5T_STRING:
      return "string";
    case H5T_COMPOUND:
      return "compound";
    case H5T_ARRAY:
      return "array";
    case H5T_ENUM:
      return "enum";
    default:
      return "non-numeric";
  }
}

// Keeps bytes up to the first NUL; replaces non-printable bytes (FCLib info
// strings may hold junk) with '?', so that the text is safe for a terminal and
// valid UTF-8 for JSON.
std::string SanitizeText(const char* data, size_t size) {
  std::string out;
  for (size_t k = 0; k < size && data[k] != '\0'; ++k) {
    const unsigned char c = static_cast<unsigned char>(data[k]);
    out += (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f))
               ? static_cast<char>(c)
               : '?';
  }
  return out;
}

// Read access to one open file; every failure goes through Fail() and names the
// file.
class FileReader {
 public:
  FileReader(std::string path, std::string* error)
      : path_(std::move(path)), error_(error) {}

  bool Open() {
    std::error_code ec;
    const std::filesystem::file_status status =
        std::filesystem::status(path_, ec);
    if (ec || !std::filesystem::exists(status)) return Fail("no such file");
    if (std::filesystem::is_directory(status))
      return Fail("is a directory, not an HDF5 file");
    const htri_t is_hdf5 = H5Fis_hdf5(path_.c_str());
    if (is_hdf5 < 0)
      return Fail("cannot be read (permission denied or I/O error)");
    if (is_hdf5 == 0) return Fail("not an HDF5 file");
    file_ =
        Handle(H5Fopen(path_.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (!file_.valid())
      return Fail("cannot be opened as HDF5 (truncated or corrupt file)");
    return true;
  }

  bool Fail(const std::string& what) {
    if (error_ != nullptr) *error_ = path_ + ": " + what;
    return false;
  }

  // True if every component of the absolute object path exists (no error if a
  // parent is missing).
  bool Exists(const std::string& object) const {
    size_t pos = 0;
    while (pos != std::string::npos) {
      pos = object.find('/', pos + 1);
      const std::string prefix = object.substr(0, pos);
      if (H5Lexists(file_.get(), prefix.c_str(), H5P_DEFAULT) <= 0)
        return false;
    }
    return H5Oexists_by_name(file_.get(), object.c_str(), H5P_DEFAULT) > 0;
  }

  bool IsGroup(const std::string& object) const {
    if (!Exists(object)) return false;
    Handle obj(H5Oopen(file_.get(), object.c_str(), H5P_DEFAULT), H5Oclose);
    return obj.valid() && H5Iget_type(obj.get()) == H5I_GROUP;
  }

  bool RequireGroup(const std::string& object) {
    if (!Exists(object)) return Fail("group " + object + " is missing");
    if (!IsGroup(object)) return Fail(object + " is not a group");
    return true;
  }

  // Opens a numeric dataset of rank 0 or 1 and returns its element count.
  // integer_only rejects float datasets (index arrays and sizes).
  bool OpenNumeric(const std::string& object,
                   bool integer_only,
                   Handle* dataset,
                   hsize_t* count) {
    if (!Exists(object)) return Fail("dataset " + object + " is missing");
    Handle obj(H5Oopen(file_.get(), object.c_str(), H5P_DEFAULT), H5Oclose);
    if (!obj.valid() || H5Iget_type(obj.get()) != H5I_DATASET) {
      return Fail(object + " is not a dataset");
    }
    *dataset =
        Handle(H5Dopen2(file_.get(), object.c_str(), H5P_DEFAULT), H5Dclose);
    if (!dataset->valid()) return Fail("cannot open dataset " + object);
    Handle type(H5Dget_type(dataset->get()), H5Tclose);
    if (!type.valid()) return Fail("cannot read the type of " + object);
    const H5T_class_t type_class = H5Tget_class(type.get());
    const bool ok =
        type_class == H5T_INTEGER || (!integer_only && type_class == H5T_FLOAT);
    if (!ok) {
      return Fail(object + " has type " + TypeClassName(type_class) +
                  ", expected " + (integer_only ? "integer" : "float"));
    }
    Handle space(H5Dget_space(dataset->get()), H5Sclose);
    if (!space.valid()) return Fail("cannot read the shape of " + object);
    const int rank = H5Sget_simple_extent_ndims(space.get());
    if (rank < 0) return Fail("cannot read the shape of " + object);
    if (rank > 1) {
      return Fail(object + " has rank " + std::to_string(rank) +
                  ", expected a 1-D array");
    }
    hsize_t dims[1] = {1};
    if (rank == 1 &&
        H5Sget_simple_extent_dims(space.get(), dims, nullptr) < 0) {
      return Fail("cannot read the shape of " + object);
    }
    *count = dims[0];
    if (*count > static_cast<hsize_t>(std::numeric_limits<int>::max())) {
      return Fail(object + " has " + std::to_string(*count) +
                  " entries, more than fcsn supports");
    }
    return true;
  }

  template <typename T>
  bool ReadArray(const std::string& object,
                 hid_t mem_type,
                 std::vector<T>* out) {
    Handle dataset;
    hsize_t count = 0;
    if (!OpenNumeric(object, mem_type == H5T_NATIVE_INT, &dataset, &count))
      return false;
    out->assign(count, T());
    if (count > 0 && H5Dread(dataset.get(),
                             mem_type,
                             H5S_ALL,
                             H5S_ALL,
                             H5P_DEFAULT,
                             out->data()) < 0) {
      return Fail("cannot read dataset " + object +
                  " (corrupt or truncated file)");
    }
    return true;
  }

  bool ReadInts(const std::string& object, std::vector<int>* out) {
    return ReadArray(object, H5T_NATIVE_INT, out);
  }
  bool ReadDoubles(const std::string& object, std::vector<double>* out) {
    return ReadArray(object, H5T_NATIVE_DOUBLE, out);
  }

  // A size or flag stored as int32[1] (FCLib) or as a scalar.
  bool ReadScalarInt(const std::string& object, int* value) {
    std::vector<int> data;
    if (!ReadInts(object, &data)) return false;
    if (data.size() != 1) {
      return Fail(object + " has " + std::to_string(data.size()) +
                  " entries, expected 1");
    }
    *value = data[0];
    return true;
  }

  // Same without reporting a failure (for optional, informative fields).
  bool QuietlyReadScalarInt(const std::string& object, int* value) {
    std::string* saved = error_;
    error_ = nullptr;
    const bool ok = ReadScalarInt(object, value);
    error_ = saved;
    return ok;
  }

  // A vector of exactly `expected` doubles.
  bool ReadVector(const std::string& object,
                  long expected,
                  const std::string& expected_name,
                  Eigen::VectorXd* out) {
    std::vector<double> data;
    if (!ReadDoubles(object, &data)) return false;
    if (static_cast<long>(data.size()) != expected) {
      return Fail(object + " has " + std::to_string(data.size()) +
                  " entries, expected " + expected_name + " = " +
                  std::to_string(expected));
    }
    *out = Eigen::Map<const Eigen::VectorXd>(data.data(), expected);
    return true;
  }

  // Best effort: an info string that is absent or unreadable is returned empty.
  std::string ReadOptionalString(const std::string& object) const {
    if (!Exists(object)) return "";
    Handle dataset(H5Dopen2(file_.get(), object.c_str(), H5P_DEFAULT),
                   H5Dclose);
    if (!dataset.valid()) return "";
    Handle type(H5Dget_type(dataset.get()), H5Tclose);
    Handle space(H5Dget_space(dataset.get()), H5Sclose);
    if (!type.valid() || !space.valid() ||
        H5Tget_class(type.get()) != H5T_STRING ||
        H5Sget_simple_extent_npoints(space.get()) != 1) {
      return "";
    }
    const htri_t variable = H5Tis_variable_str(type.get());
    if (variable < 0) return "";
    if (variable > 0) {
      Handle mem(H5Tcopy(H5T_C_S1), H5Tclose);
      if (!mem.valid() || H5Tset_size(mem.get(), H5T_VARIABLE) < 0) return "";
      char* text = nullptr;
      if (H5Dread(
              dataset.get(), mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, &text) <
          0)
        return "";
      std::string out =
          text != nullptr ? SanitizeText(text, std::strlen(text)) : "";
      H5free_memory(text);
      return out;
    }
    const size_t size = H5Tget_size(type.get());
    if (size == 0 || size > (1u << 20)) return "";
    std::vector<char> buffer(size + 1, '\0');
    if (H5Dread(dataset.get(),
                type.get(),
                H5S_ALL,
                H5S_ALL,
                H5P_DEFAULT,
                buffer.data()) < 0) {
      return "";
    }
    return SanitizeText(buffer.data(), size);
  }

 private:
  std::string path_;
  std::string* error_;
  Handle file_;
};

// What ReadMatrix saw of one stored matrix.
struct MatrixStats {
  std::string format;
  long stored_nnz = 0;
  long explicit_zeros = 0;
  long duplicates = 0;
};

// Reads /fclib_global/<name> in any of the three storages into a compressed
// column matrix.
bool ReadMatrix(FileReader* reader,
                const std::string& name,
                SparseMatrix* out,
                MatrixStats* stats) {
  const std::string group = "/fclib_global/" + name;
  if (!reader->RequireGroup(group)) return false;
  int rows = 0, cols = 0, nz = 0;
  if (!reader->ReadScalarInt(group + "/m", &rows) ||
      !reader->ReadScalarInt(group + "/n", &cols) ||
      !reader->ReadScalarInt(group + "/nz", &nz)) {
    return false;
  }
  if (rows < 0 || cols < 0 || rows == std::numeric_limits<int>::max() ||
      cols == std::numeric_limits<int>::max()) {
    return reader->Fail(name + " has invalid dimensions " +
                        std::to_string(rows) + " x " + std::to_string(cols));
  }
  if (nz < -2) {
    return reader->Fail(
        name + "/nz = " + std::to_string(nz) +
        " is not a storage FCLib knows (>= 0 triplet, -1 CSC, -2 CSR)");
  }
  std::vector<int> p, i;
  std::vector<double> x;
  if (!reader->ReadInts(group + "/p", &p) ||
      !reader->ReadInts(group + "/i", &i) ||
      !reader->ReadDoubles(group + "/x", &x)) {
    return false;
  }
  const std::string dims = std::to_string(rows) + " x " + std::to_string(cols);
  std::vector<Triplet> triplets;
  if (nz >= 0) {
    stats->format = "triplet";
    const size_t count = static_cast<size_t>(nz);
    if (p.size() < count || i.size() < count || x.size() < count) {
      return reader->Fail(name + " is stored as " + std::to_string(nz) +
                          " triplets but i, p, x have " +
                          std::to_string(i.size()) + ", " +
                          std::to_string(p.size()) + ", " +
                          std::to_string(x.size()) + " entries");
    }
    triplets.reserve(count);
    for (size_t k = 0; k < count; ++k) {
      if (i[k] < 0 || i[k] >= rows || p[k] < 0 || p[k] >= cols) {
        return reader->Fail(name + " triplet " + std::to_string(k) +
                            " has index (" + std::to_string(i[k]) + ", " +
                            std::to_string(p[k]) + ") outside the " + dims +
                            " matrix");
      }
      triplets.emplace_back(i[k], p[k], x[k]);
    }
  } else {
    const bool csc = nz == -1;
    stats->format = csc ? "csc" : "csr";
    const int outer = csc ? cols : rows;
    const int inner = csc ? rows : cols;
    const char* pointer_kind = csc ? "column" : "row";
    if (p.size() < static_cast<size_t>(outer) + 1) {
      return reader->Fail(name + " is " + stats->format + " but p has " +
                          std::to_string(p.size()) + " entries, expected " +
                          std::to_string(outer + 1) + " " + pointer_kind +
                          " pointers");
    }
    if (p[0] != 0)
      return reader->Fail(name + " " + pointer_kind + " pointer p[0] is not 0");
    for (int k = 0; k < outer; ++k) {
      if (p[k + 1] < p[k]) {
        return reader->Fail(
            name + " " + pointer_kind + " pointers p are not monotone (p[" +
            std::to_string(k + 1) + "] < p[" + std::to_string(k) + "])");
      }
    }
    const size_t count = static_cast<size_t>(p[outer]);
    if (i.size() < count || x.size() < count) {
      return reader->Fail(name + " has " + std::to_string(count) +
                          " entries by its pointers but i, x have " +
                          std::to_string(i.size()) + ", " +
                          std::to_string(x.size()));
    }
    triplets.reserve(count);
    for (int k = 0; k < outer; ++k) {
      for (int e = p[k]; e < p[k + 1]; ++e) {
        if (i[e] < 0 || i[e] >= inner) {
          return reader->Fail(name + " entry " + std::to_string(e) +
                              " has index " + std::to_string(i[e]) +
                              " outside the " + dims + " matrix");
        }
        if (csc) {
          triplets.emplace_back(i[e], k, x[e]);
        } else {
          triplets.emplace_back(k, i[e], x[e]);
        }
      }
    }
  }
  stats->stored_nnz = static_cast<long>(triplets.size());
  out->resize(rows, cols);
  // Sums duplicates and keeps explicit zeros as structural entries.
  out->setFromTriplets(triplets.begin(), triplets.end());
  out->makeCompressed();
  stats->duplicates = stats->stored_nnz - static_cast<long>(out->nonZeros());
  stats->explicit_zeros = static_cast<long>(
      std::count(out->valuePtr(), out->valuePtr() + out->nonZeros(), 0.0));
  return true;
}

// Square, no nonzero value below the diagonal, at least one strictly above.
bool IsUpperTriangleOnly(const SparseMatrix& a) {
  if (a.rows() != a.cols()) return false;
  bool strictly_upper = false;
  for (int j = 0; j < a.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(a, j); it; ++it) {
      if (it.value() == 0.0) continue;
      if (it.row() > it.col()) return false;
      if (it.row() < it.col()) strictly_upper = true;
    }
  }
  return strictly_upper;
}

// U + U^T - diag(U), keeping U's pattern (and its mirror).
SparseMatrix SymmetrizeUpper(const SparseMatrix& u) {
  std::vector<Triplet> triplets;
  triplets.reserve(2 * static_cast<size_t>(u.nonZeros()));
  for (int j = 0; j < u.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(u, j); it; ++it) {
      triplets.emplace_back(it.row(), it.col(), it.value());
      if (it.row() != it.col())
        triplets.emplace_back(it.col(), it.row(), it.value());
    }
  }
  SparseMatrix s(u.rows(), u.cols());
  s.setFromTriplets(triplets.begin(), triplets.end());
  s.makeCompressed();
  return s;
}

bool ReadGlobalProblemImpl(FileReader* reader,
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
bool ReadPoint(FileReader* reader,
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

bool CheckSizes(FileReader* reader, int n, int m) {
  if (n < 0 || m < 0)
    return reader->Fail("invalid problem sizes n = " + std::to_string(n) +
                        ", m = " + std::to_string(m));
  return true;
}

// ---------------------------------------------------------------------------------------------
// Writer.

class FileWriter {
 public:
  FileWriter(std::string path, std::string* error)
      : path_(std::move(path)), error_(error) {}

  bool Create() {
    file_ = Handle(
        H5Fcreate(path_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
        H5Fclose);
    if (!file_.valid())
      return Fail(
          "cannot create the file (missing directory or no permission)");
    created_ = true;
    return true;
  }

  // After a failed write: closes and deletes the partial file this writer
  // created.
  void Discard() {
    if (!created_) return;
    file_.Close();
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }

  bool Finish() {
    if (!file_.Close()) return Fail("cannot close the file (write error)");
    return true;
  }

  bool Fail(const std::string& what) {
    if (error_ != nullptr) *error_ = path_ + ": " + what;
    return false;
  }

  bool Group(const std::string& object) {
    Handle g(
        H5Gcreate2(
            file_.get(), object.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
        H5Gclose);
    if (!g.valid()) return Fail("cannot create group " + object);
    return true;
  }

  bool Ints(const std::string& object, const int* data, size_t count) {
    return Write(object, H5T_STD_I32LE, H5T_NATIVE_INT, data, count);
  }
  bool Doubles(const std::string& object, const double* data, size_t count) {
    return Write(object, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, data, count);
  }
  bool Int(const std::string& object, int value) {
    return Ints(object, &value, 1);
  }

  // Fixed-length, NUL-terminated string (what libfclib writes).
  bool String(const std::string& object, const std::string& text) {
    Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    if (!type.valid() || H5Tset_size(type.get(), text.size() + 1) < 0) {
      return Fail("cannot create the string type for " + object);
    }
    Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    Handle dataset(H5Dcreate2(file_.get(),
                              object.c_str(),
                              type.get(),
                              space.get(),
                              H5P_DEFAULT,
                              H5P_DEFAULT,
                              H5P_DEFAULT),
                   H5Dclose);
    if (!space.valid() || !dataset.valid() ||
        H5Dwrite(dataset.get(),
                 type.get(),
                 H5S_ALL,
                 H5S_ALL,
                 H5P_DEFAULT,
                 text.c_str()) < 0) {
      return Fail("cannot write " + object);
    }
    return true;
  }

  bool Matrix(const std::string& group, const SparseMatrix& a) {
    std::vector<int> rows, cols;
    std::vector<double> values;
    rows.reserve(a.nonZeros());
    cols.reserve(a.nonZeros());
    values.reserve(a.nonZeros());
    for (int j = 0; j < a.outerSize(); ++j) {
      for (SparseMatrix::InnerIterator it(a, j); it; ++it) {
        rows.push_back(it.row());
        cols.push_back(it.col());
        values.push_back(it.value());
      }
    }
    const int nz = static_cast<int>(values.size());
    return Group(group) && Int(group + "/nzmax", nz) &&
           Int(group + "/m", static_cast<int>(a.rows())) &&
           Int(group + "/n", static_cast<int>(a.cols())) &&
           Int(group + "/nz", nz) &&
           Ints(group + "/i", rows.data(), rows.size()) &&
           Ints(group + "/p", cols.data(), cols.size()) &&
           Doubles(group + "/x", values.data(), values.size());
  }

  bool Vector(const std::string& object, const Eigen::VectorXd& x) {
    return Doubles(object, x.data(), static_cast<size_t>(x.size()));
  }

 private:
  bool Write(const std::string& object,
             hid_t file_type,
             hid_t mem_type,
             const void* data,
             size_t count) {
    const hsize_t dims[1] = {count};
    Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose);
    if (!space.valid()) return Fail("cannot create the dataspace of " + object);
    Handle dataset(H5Dcreate2(file_.get(),
                              object.c_str(),
                              file_type,
                              space.get(),
                              H5P_DEFAULT,
                              H5P_DEFAULT,
                              H5P_DEFAULT),
                   H5Dclose);
    if (!dataset.valid()) return Fail("cannot create dataset " + object);
    if (count > 0 &&
        H5Dwrite(dataset.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) <
            0) {
      return Fail("cannot write dataset " + object);
    }
    return true;
  }

  std::string path_;
  std::string* error_;
  Handle file_;
  bool created_ = false;
};

// Checks a point's sizes against the problem; u may be empty.
std::string PointSizeError(const GlobalProblem& p,
                           const Solution& s,
                           const std::string& what) {
  if (s.v.size() != p.n() || s.r.size() != p.m() ||
      (s.u.size() != 0 && s.u.size() != p.m())) {
    return what + " has sizes v " + std::to_string(s.v.size()) + ", u " +
           std::to_string(s.u.size()) + ", r " + std::to_string(s.r.size()) +
           "; expected v " + std::to_string(p.n()) + ", u " +
           std::to_string(p.m()) + " (or empty), r " + std::to_string(p.m());
  }
  return "";
}

bool WritePoint(FileWriter* writer,
                const std::string& group,
                const GlobalProblem& p,
                const Solution& s) {
  const Eigen::VectorXd u =
      s.u.size() == p.m() ? s.u : Eigen::VectorXd(p.H.transpose() * s.v + p.w);
  return writer->Group(group) && writer->Vector(group + "/v", s.v) &&
         writer->Vector(group + "/u", u) && writer->Vector(group + "/r", s.r);
}

bool WriteGlobalProblemImpl(FileWriter* writer,
                            const GlobalProblem& p,
                            const Solution* solution,
                            const std::vector<Solution>* guesses,
                            const WriteOptions& options) {
  const std::string invalid = p.Validate();
  if (!invalid.empty())
    return writer->Fail("cannot write an invalid problem: " + invalid);
  if (p.nc() == 0)
    return writer->Fail("cannot write a problem without contacts (nc = 0)");
  if (solution != nullptr) {
    const std::string bad = PointSizeError(p, *solution, "the solution");
    if (!bad.empty()) return writer->Fail(bad);
  }
  if (guesses != nullptr) {
    for (size_t k = 0; k < guesses->size(); ++k) {
      const std::string bad =
          PointSizeError(p, (*guesses)[k], "guess " + std::to_string(k + 1));
      if (!bad.empty()) return writer->Fail(bad);
    }
  }
  if (!writer->Create()) return false;
  bool ok =
      writer->Group("/fclib_global") &&
      writer->Int("/fclib_global/spacedim", 3) &&
      writer->Matrix("/fclib_global/M", p.M) &&
      writer->Matrix("/fclib_global/H", p.H) &&
      writer->Group("/fclib_global/vectors") &&
      writer->Vector("/fclib_global/vectors/f", p.f) &&
      writer->Vector("/fclib_global/vectors/w", p.w) &&
      writer->Vector("/fclib_global/vectors/mu", p.mu) &&
      writer->Group("/fclib_global/info") &&
      writer->String("/fclib_global/info/title", options.title) &&
      writer->String("/fclib_global/info/description", options.description) &&
      writer->String("/fclib_global/info/math_info", options.math_info);
  if (ok && solution != nullptr)
    ok = WritePoint(writer, "/solution", p, *solution);
  if (ok && guesses != nullptr) {
    ok = writer->Group("/guesses") &&
         writer->Int("/guesses/number_of_guesses",
                     static_cast<int>(guesses->size()));
    for (size_t k = 0; ok && k < guesses->size(); ++k) {
      ok = WritePoint(
          writer, "/guesses/" + std::to_string(k + 1), p, (*guesses)[k]);
    }
  }
  if (ok && writer->Finish()) return true;
  writer->Discard();
  return false;
}

// Runs a public entry point with HDF5 silenced; library exceptions (bad_alloc
// on an absurd size, ...) become the error line instead of escaping.
template <typename Body>
bool Guarded(const std::string& path, std::string* error, Body body) {
  ScopedHdf5Silence silence;
  try {
    return body();
  } catch (const std::bad_alloc&) {
    if (error != nullptr)
      *error = path + ": out of memory while reading or writing the file";
  } catch (const std::exception& e) {
    if (error != nullptr) *error = path + ": " + e.what();
  }
  return false;
}

}  // namespace

bool ReadGlobalProblem(const std::string& path,
                       const ReadOptions& options,
                       GlobalProblem* problem,
                       FclibFileInfo* info,
                       std::string* error) {
  return Guarded(path, error, [&] {
    FileReader reader(path, error);
    return ReadGlobalProblemImpl(&reader, options, problem, info);
  });
}

bool ReadSolution(const std::string& path,
                  int n,
                  int m,
                  Solution* solution,
                  std::string* error) {
  return Guarded(path, error, [&] {
    FileReader reader(path, error);
    return CheckSizes(&reader, n, m) && reader.Open() &&
           ReadPoint(&reader, "/solution", n, m, solution);
  });
}

bool ReadGuesses(const std::string& path,
                 int n,
                 int m,
                 std::vector<Solution>* guesses,
                 std::string* error) {
  return Guarded(path, error, [&] {
    FileReader reader(path, error);
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

bool WriteGlobalProblem(const std::string& path,
                        const GlobalProblem& problem,
                        const Solution* solution,
                        const std::vector<Solution>* guesses,
                        std::string* error,
                        const WriteOptions& options) {
  return Guarded(path, error, [&] {
    FileWriter writer(path, error);
    return WriteGlobalProblemImpl(&writer, problem, solution, guesses, options);
  });
}

}  // namespace fcsn
