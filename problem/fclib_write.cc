// FCLib global-problem writer (layout: fcsn/fclib_io.h): M and H as
// triplets, the vectors, info strings, /solution and /guesses, built in
// memory and then put in place atomically (atomic_file.h).
#include <string>
#include <utility>
#include <vector>

#include "fcsn/fclib_io.h"
#include "problem/atomic_file.h"
#include "problem/fclib_hdf5.h"

namespace fcsn {
namespace {

using internal::Handle;

class FileWriter {
 public:
  FileWriter(std::string path, std::string* error)
      : path_(std::move(path)), error_(error) {}

  // Builds the file in memory (HDF5 core driver without backing store):
  // nothing reaches the disk before Finish(), so a failed write never leaves
  // HDF5 with a half-written file to flush at exit.
  bool Create() {
    Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    if (!fapl.valid() || H5Pset_fapl_core(fapl.get(), 1 << 20, 0) < 0)
      return Fail("cannot set up HDF5's in-memory file");
    file_ =
        Handle(H5Fcreate(path_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()),
               H5Fclose);
    if (!file_.valid()) return Fail("cannot create the HDF5 file in memory");
    return true;
  }

  // Takes the in-memory image and replaces path with it atomically
  // (atomic_file.h).
  bool Finish() {
    if (H5Fflush(file_.get(), H5F_SCOPE_GLOBAL) < 0)
      return Fail("cannot complete the HDF5 file in memory");
    const ssize_t size = H5Fget_file_image(file_.get(), nullptr, 0);
    if (size <= 0) return Fail("cannot complete the HDF5 file in memory");
    std::vector<char> image(static_cast<size_t>(size));
    if (H5Fget_file_image(file_.get(), image.data(), image.size()) != size)
      return Fail("cannot complete the HDF5 file in memory");
    file_.Close();
    std::string what;
    if (!internal::ReplaceFileAtomically(path_, image, &what))
      return Fail(what);
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
  return ok && writer->Finish();
}

// Runs a public entry point with HDF5 silenced; library exceptions (bad_alloc

}  // namespace

bool WriteGlobalProblem(const std::string& path,
                        const GlobalProblem& problem,
                        const Solution* solution,
                        const std::vector<Solution>* guesses,
                        std::string* error,
                        const WriteOptions& options) {
  return internal::Guarded(path, error, [&] {
    FileWriter writer(path, error);
    return WriteGlobalProblemImpl(&writer, problem, solution, guesses, options);
  });
}

}  // namespace fcsn
