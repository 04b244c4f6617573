// File and HDF5 access for the FCLib reader (fclib_hdf5.h): opening a file,
// finding objects, and reading whole numeric datasets and info strings, each
// failure as one line "<path>: <what is wrong>".
#include "problem/fclib_hdf5.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace fcsn::internal {
namespace {

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

}  // namespace

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

bool Hdf5Reader::Open() {
  std::error_code ec;
  const std::filesystem::file_status status =
      std::filesystem::status(path_, ec);
  if (ec == std::errc::no_such_file_or_directory ||
      (!ec && !std::filesystem::exists(status))) {
    return Fail("no such file");
  }
  if (ec) return Fail("cannot be accessed: " + ec.message());
  if (std::filesystem::is_directory(status))
    return Fail("is a directory, not an HDF5 file");
  const htri_t is_hdf5 = H5Fis_hdf5(path_.c_str());
  if (is_hdf5 < 0)
    return Fail("cannot be read (permission denied or I/O error)");
  if (is_hdf5 == 0) return Fail("not an HDF5 file");
  file_ = Handle(H5Fopen(path_.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file_.valid())
    return Fail("cannot be opened as HDF5 (truncated or corrupt file)");
  hsize_t size = 0;
  if (H5Fget_filesize(file_.get(), &size) < 0)
    return Fail("cannot read the file size");
  file_size_ = size;
  return true;
}

bool Hdf5Reader::Fail(const std::string& what) {
  if (error_ != nullptr) *error_ = path_ + ": " + what;
  return false;
}

// True if every component of the absolute object path exists (no error if a
// parent is missing).
bool Hdf5Reader::Exists(const std::string& object) const {
  size_t pos = 0;
  while (pos != std::string::npos) {
    pos = object.find('/', pos + 1);
    const std::string prefix = object.substr(0, pos);
    if (H5Lexists(file_.get(), prefix.c_str(), H5P_DEFAULT) <= 0) return false;
  }
  return H5Oexists_by_name(file_.get(), object.c_str(), H5P_DEFAULT) > 0;
}

bool Hdf5Reader::IsGroup(const std::string& object) const {
  if (!Exists(object)) return false;
  Handle obj(H5Oopen(file_.get(), object.c_str(), H5P_DEFAULT), H5Oclose);
  return obj.valid() && H5Iget_type(obj.get()) == H5I_GROUP;
}

bool Hdf5Reader::RequireGroup(const std::string& object) {
  if (!Exists(object)) return Fail("group " + object + " is missing");
  if (!IsGroup(object)) return Fail(object + " is not a group");
  return true;
}

// Opens a numeric dataset of rank 0 or 1 and returns its element count.
// integer_only rejects float datasets (index arrays and sizes).
bool Hdf5Reader::OpenNumeric(const std::string& object,
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
  if (!IsPlainNumericType(type.get(), type_class)) {
    return Fail(object + " has an unusual " + TypeClassName(type_class) +
                " type (size " + std::to_string(H5Tget_size(type.get())) +
                " bytes, precision " +
                std::to_string(H5Tget_precision(type.get())) + " bits)");
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
  if (rank == 1 && H5Sget_simple_extent_dims(space.get(), dims, nullptr) < 0) {
    return Fail("cannot read the shape of " + object);
  }
  *count = dims[0];
  if (*count > static_cast<hsize_t>(std::numeric_limits<int>::max())) {
    return Fail(object + " has " + std::to_string(*count) +
                " entries, more than fcsn supports");
  }
  return CheckStorage(object, dataset->get(), H5Tget_size(type.get()), *count);
}

// Cross-checks a dataset's declared extent against the bytes that back it, so
// that a forged extent cannot make the reader allocate more than O(file size).
bool Hdf5Reader::CheckStorage(const std::string& object,
                              hid_t dataset,
                              size_t type_size,
                              hsize_t count) {
  Handle plist(H5Dget_create_plist(dataset), H5Pclose);
  if (!plist.valid()) return Fail("cannot read the storage of " + object);
  const H5D_layout_t layout = H5Pget_layout(plist.get());
  if (layout != H5D_COMPACT && layout != H5D_CONTIGUOUS &&
      layout != H5D_CHUNKED) {
    return Fail(object + " has a storage layout fcsn does not read");
  }
  if (H5Pget_external_count(plist.get()) != 0)
    return Fail(object + " is stored in an external file (not supported)");
  if (count == 0) return true;
  const hsize_t raw_size = H5Dget_storage_size(dataset);
  const hsize_t stored = std::min<hsize_t>(raw_size, file_size_);
  const hsize_t declared_bytes = count * type_size;
  if (!StorageCanHold(layout, raw_size, declared_bytes)) {
    return Fail(object + " declares " + std::to_string(count) +
                " entries but the file stores only " + std::to_string(stored) +
                " bytes for it (corrupt file)");
  }
  return true;
}

// Bytes that may legitimately be read back from a dataset of this layout with
// `raw_size` bytes of storage:
// - compact: exactly what its header holds (libhdf5 1.10 copies
//   extent x type size bytes out of that buffer without checking: SIGSEGV);
// - contiguous: what is stored, or, if nothing was ever written (reads as the
//   fill value, as Siconos leaves /solution), up to one file size;
// - chunked: what is stored times deflate's maximal expansion (1032:1), plus
//   one file size of unwritten chunks.
// Stored sizes beyond the file size are forged and count as the file size.
bool Hdf5Reader::StorageCanHold(H5D_layout_t layout,
                                hsize_t raw_size,
                                hsize_t declared_bytes) const {
  const hsize_t stored = std::min(raw_size, file_size_);
  switch (layout) {
    case H5D_COMPACT:
      return declared_bytes <= raw_size && raw_size <= file_size_;
    case H5D_CONTIGUOUS:
      return stored == 0 ? declared_bytes <= file_size_
                         : declared_bytes <= stored;
    case H5D_CHUNKED:
      return declared_bytes <= stored * kMaxExpansion + file_size_;
    default:
      return false;
  }
}

// Integers of 1, 2, 4 or 8 bytes and IEEE floats of 4 or 8 bytes, without
// padding bits: the conversions libhdf5 does best. Anything else (forged
// sizes, precisions or offsets) is refused before libhdf5 converts it.
bool Hdf5Reader::IsPlainNumericType(hid_t type, H5T_class_t type_class) {
  const size_t size = H5Tget_size(type);
  const size_t precision = H5Tget_precision(type);
  if (precision != 8 * size || H5Tget_offset(type) != 0) return false;
  if (type_class == H5T_INTEGER)
    return size == 1 || size == 2 || size == 4 || size == 8;
  return size == 4 || size == 8;
}

template <typename T>
bool Hdf5Reader::ReadArray(const std::string& object,
                           hid_t mem_type,
                           std::vector<T>* out) {
  Handle dataset;
  hsize_t count = 0;
  if (!OpenNumeric(object, mem_type == H5T_NATIVE_LLONG, &dataset, &count))
    return false;
  out->assign(count, T());
  if (count > 0 &&
      H5Dread(
          dataset.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out->data()) <
          0) {
    return Fail("cannot read dataset " + object +
                " (corrupt or truncated file)");
  }
  return true;
}

// Integers are read as int64 so that a value beyond the int range is reported
// as stored instead of clamped by HDF5's conversion.
bool Hdf5Reader::ReadInts(const std::string& object, std::vector<int>* out) {
  std::vector<long long> wide;
  if (!ReadArray(object, H5T_NATIVE_LLONG, &wide)) return false;
  out->resize(wide.size());
  for (size_t k = 0; k < wide.size(); ++k) {
    if (wide[k] < std::numeric_limits<int>::min() ||
        wide[k] > std::numeric_limits<int>::max()) {
      return Fail(object + "[" + std::to_string(k) +
                  "] = " + std::to_string(wide[k]) +
                  " is outside the 32-bit integer range");
    }
    (*out)[k] = static_cast<int>(wide[k]);
  }
  return true;
}
bool Hdf5Reader::ReadDoubles(const std::string& object,
                             std::vector<double>* out) {
  return ReadArray(object, H5T_NATIVE_DOUBLE, out);
}

// A size or flag stored as int32[1] (FCLib) or as a scalar.
bool Hdf5Reader::ReadScalarInt(const std::string& object, int* value) {
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
bool Hdf5Reader::QuietlyReadScalarInt(const std::string& object, int* value) {
  std::string* saved = error_;
  error_ = nullptr;
  const bool ok = ReadScalarInt(object, value);
  error_ = saved;
  return ok;
}

// A vector of exactly `expected` doubles.
bool Hdf5Reader::ReadVector(const std::string& object,
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
std::string Hdf5Reader::ReadOptionalString(const std::string& object) const {
  if (!Exists(object)) return "";
  Handle dataset(H5Dopen2(file_.get(), object.c_str(), H5P_DEFAULT), H5Dclose);
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
            dataset.get(), mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, &text) < 0)
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

}  // namespace fcsn::internal
