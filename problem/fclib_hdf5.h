// File and HDF5 access for the FCLib reader and writer (problem/fclib_*.cc):
// RAII handles, the switch that silences HDF5's error printing, and
// Hdf5Reader, the read access to one file where every failure becomes one line
// "<path>: <what is wrong>". Internal to fcsn_problem (not installed).
#ifndef FCSN_PROBLEM_FCLIB_HDF5_H_
#define FCSN_PROBLEM_FCLIB_HDF5_H_

#include <hdf5.h>

#include <Eigen/Core>
#include <exception>
#include <new>
#include <string>
#include <vector>

namespace fcsn::internal {

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
      Close();
      id_ = other.id_;
      close_ = other.close_;
      other.id_ = -1;
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { Close(); }

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  // Closes now and reports whether HDF5 accepted the close (flushes a file
  // being written).
  bool Close() {
    if (id_ < 0 || close_ == nullptr) return true;
    const herr_t status = close_(id_);
    id_ = -1;
    return status >= 0;
  }

 private:
  hid_t id_ = -1;
  CloseFn close_ = nullptr;
};

// Keeps bytes up to the first NUL; replaces non-printable bytes (FCLib info
// strings may hold junk) with '?', so that the text is safe for a terminal and
// valid UTF-8 for JSON.
std::string SanitizeText(const char* data, size_t size);

// Read access to one file; every failure goes through Fail() and names the
// file.
class Hdf5Reader {
 public:
  Hdf5Reader(std::string path, std::string* error)
      : path_(std::move(path)), error_(error) {}

  // Opens the file read-only, with a one-line reason when it cannot.
  bool Open();

  // Sets *error to "<path>: <what>" (if error is non-null) and returns false.
  bool Fail(const std::string& what);

  // True if every component of the absolute object path exists (no error if a
  // parent is missing).
  bool Exists(const std::string& object) const;
  bool IsGroup(const std::string& object) const;
  bool RequireGroup(const std::string& object);

  // Whole 1-D (or scalar) numeric datasets. ReadInts rejects float datasets.
  bool ReadInts(const std::string& object, std::vector<int>* out);
  bool ReadDoubles(const std::string& object, std::vector<double>* out);

  // A size or flag stored as int32[1] (FCLib) or as a scalar.
  bool ReadScalarInt(const std::string& object, int* value);
  // Same without reporting a failure (for optional, informative fields).
  bool QuietlyReadScalarInt(const std::string& object, int* value);

  // A vector of exactly `expected` doubles.
  bool ReadVector(const std::string& object,
                  long expected,
                  const std::string& expected_name,
                  Eigen::VectorXd* out);

  // Best effort: an info string that is absent or unreadable is returned empty.
  std::string ReadOptionalString(const std::string& object) const;

 private:
  bool OpenNumeric(const std::string& object,
                   bool integer_only,
                   Handle* dataset,
                   hsize_t* count);
  bool CheckStorage(const std::string& object,
                    hid_t dataset,
                    size_t type_size,
                    hsize_t count);
  bool StorageCanHold(H5D_layout_t layout,
                      hsize_t raw_size,
                      hsize_t declared_bytes) const;
  static bool IsPlainNumericType(hid_t type, H5T_class_t type_class);
  template <typename T>
  bool ReadArray(const std::string& object,
                 hid_t mem_type,
                 std::vector<T>* out);

  // Largest expansion of deflate-compressed data (zlib's documented bound).
  static constexpr hsize_t kMaxExpansion = 1032;

  std::string path_;
  std::string* error_;
  Handle file_;
  hsize_t file_size_ = 0;
};

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

}  // namespace fcsn::internal

#endif  // FCSN_PROBLEM_FCLIB_HDF5_H_
