#include "fclib_test_files.h"

#include <gtest/gtest.h>
#include <hdf5.h>

#include <Eigen/SparseCore>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <utility>

namespace fcsn::testing {

DatasetSpec IntArray(std::vector<int> values) {
  DatasetSpec d;
  d.kind = DatasetSpec::Kind::kInt;
  d.dims = {values.size()};
  d.ints = std::move(values);
  return d;
}

DatasetSpec Int64Array(std::vector<long long> values) {
  DatasetSpec d;
  d.kind = DatasetSpec::Kind::kInt64;
  d.dims = {values.size()};
  d.int64s = std::move(values);
  return d;
}

DatasetSpec UnwrittenDoubles(unsigned long long count) {
  DatasetSpec d;
  d.kind = DatasetSpec::Kind::kDouble;
  d.dims = {count};
  d.unwritten = true;
  return d;
}

DatasetSpec DoubleArray(std::vector<double> values) {
  DatasetSpec d;
  d.kind = DatasetSpec::Kind::kDouble;
  d.dims = {values.size()};
  d.doubles = std::move(values);
  return d;
}

DatasetSpec Text(std::string text) {
  DatasetSpec d;
  d.kind = DatasetSpec::Kind::kString;
  d.text = std::move(text);
  return d;
}

namespace {

// Creation properties of a dataset: chunked for `unwritten`, external raw
// data for `external_file`, default otherwise.
hid_t DatasetCreatePlist(const DatasetSpec& d, hsize_t bytes) {
  const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  if (d.unwritten) {
    const hsize_t chunk[1] = {1024};
    H5Pset_chunk(dcpl, 1, chunk);
  }
  if (!d.external_file.empty())
    H5Pset_external(dcpl, d.external_file.c_str(), 0, bytes);
  return dcpl;
}

}  // namespace

void WriteSpec(const std::string& path, const FileSpec& spec) {
  const hid_t file =
      H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(file, 0) << path;
  const hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(lcpl, 1);
  for (const auto& [name, d] : spec) {
    if (name.back() == '/') {
      const hid_t g =
          H5Gcreate2(file, name.c_str(), lcpl, H5P_DEFAULT, H5P_DEFAULT);
      EXPECT_GE(g, 0) << name;
      H5Gclose(g);
      continue;
    }
    std::vector<hsize_t> dims(d.dims.begin(), d.dims.end());
    const hid_t space =
        dims.empty() ? H5Screate(H5S_SCALAR)
                     : H5Screate_simple(
                           static_cast<int>(dims.size()), dims.data(), nullptr);
    hid_t file_type = -1, mem_type = -1;
    const void* data = nullptr;
    switch (d.kind) {
      case DatasetSpec::Kind::kInt:
        file_type = H5Tcopy(H5T_STD_I32LE);
        mem_type = H5Tcopy(H5T_NATIVE_INT);
        data = d.ints.data();
        break;
      case DatasetSpec::Kind::kInt64:
        file_type = H5Tcopy(H5T_STD_I64LE);
        mem_type = H5Tcopy(H5T_NATIVE_LLONG);
        data = d.int64s.data();
        break;
      case DatasetSpec::Kind::kDouble:
        file_type = H5Tcopy(H5T_IEEE_F64LE);
        mem_type = H5Tcopy(H5T_NATIVE_DOUBLE);
        data = d.doubles.data();
        break;
      case DatasetSpec::Kind::kString:
        file_type = H5Tcopy(H5T_C_S1);
        H5Tset_size(file_type, d.text.size() + 1);
        mem_type = H5Tcopy(file_type);
        data = d.text.c_str();
        break;
    }
    const hssize_t points = H5Sget_simple_extent_npoints(space);
    const hid_t dcpl = DatasetCreatePlist(
        d, static_cast<hsize_t>(points) * H5Tget_size(file_type));
    const hid_t dataset = H5Dcreate2(
        file, name.c_str(), file_type, space, lcpl, dcpl, H5P_DEFAULT);
    EXPECT_GE(dataset, 0) << name;
    if (points > 0 && !d.unwritten) {
      EXPECT_GE(
          H5Dwrite(dataset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), 0)
          << name;
    }
    H5Dclose(dataset);
    H5Pclose(dcpl);
    H5Tclose(mem_type);
    H5Tclose(file_type);
    H5Sclose(space);
  }
  H5Pclose(lcpl);
  ASSERT_GE(H5Fclose(file), 0) << path;
}

void RemoveSubtree(FileSpec* spec, const std::string& prefix) {
  for (auto it = spec->begin(); it != spec->end();) {
    const bool below =
        it->first == prefix || it->first.rfind(prefix + "/", 0) == 0;
    it = below ? spec->erase(it) : std::next(it);
  }
}

void AddMatrix(FileSpec* spec,
               const std::string& name,
               const SparseMatrix& a,
               Storage storage,
               bool split_first_entry) {
  const std::string g = "/fclib_global/" + name + "/";
  std::vector<int> p, i;
  std::vector<double> x;
  int nz = 0;
  switch (storage) {
    case Storage::kTriplet: {
      for (int j = a.outerSize() - 1; j >= 0;
           --j) {  // scrambled: columns in reverse order
        for (SparseMatrix::InnerIterator it(a, j); it; ++it) {
          i.push_back(it.row());
          p.push_back(it.col());
          x.push_back(it.value());
        }
      }
      if (split_first_entry && !x.empty()) {
        x[0] /= 2.0;
        i.push_back(i[0]);
        p.push_back(p[0]);
        x.push_back(x[0]);
      }
      nz = static_cast<int>(x.size());
      break;
    }
    case Storage::kCsc: {
      SparseMatrix c = a;
      c.makeCompressed();
      p.assign(c.outerIndexPtr(), c.outerIndexPtr() + c.cols() + 1);
      i.assign(c.innerIndexPtr(), c.innerIndexPtr() + c.nonZeros());
      x.assign(c.valuePtr(), c.valuePtr() + c.nonZeros());
      nz = -1;
      break;
    }
    case Storage::kCsr: {
      Eigen::SparseMatrix<double, Eigen::RowMajor, int> r = a;
      r.makeCompressed();
      p.assign(r.outerIndexPtr(), r.outerIndexPtr() + r.rows() + 1);
      i.assign(r.innerIndexPtr(), r.innerIndexPtr() + r.nonZeros());
      x.assign(r.valuePtr(), r.valuePtr() + r.nonZeros());
      nz = -2;
      break;
    }
  }
  (*spec)[g + "m"] = IntArray({static_cast<int>(a.rows())});
  (*spec)[g + "n"] = IntArray({static_cast<int>(a.cols())});
  (*spec)[g + "nz"] = IntArray({nz});
  (*spec)[g + "nzmax"] = IntArray({static_cast<int>(x.size())});
  (*spec)[g + "p"] = IntArray(p);
  (*spec)[g + "i"] = IntArray(i);
  (*spec)[g + "x"] = DoubleArray(x);
}

GlobalProblem SmallProblem() {
  const int n = 6, nc = 2;
  std::vector<Eigen::Triplet<double, int>> m_entries, h_entries;
  for (int k = 0; k < n; ++k) {
    m_entries.emplace_back(k, k, 4.0 + k);
    if (k + 1 < n) {
      m_entries.emplace_back(k, k + 1, -1.0);
      m_entries.emplace_back(k + 1, k, -1.0);
    }
  }
  m_entries.emplace_back(0, 5, 0.0);  // explicit zeros, kept by the reader
  m_entries.emplace_back(5, 0, 0.0);
  h_entries = {{0, 0, 1.0},
               {1, 1, 1.0},
               {2, 2, 1.0},
               {3, 3, 1.0},
               {4, 4, 1.0},
               {5, 5, 1.0},
               {0, 3, -0.5},
               {5, 1, 0.25},
               {2, 4, 0.0}};
  GlobalProblem p;
  p.M.resize(n, n);
  p.M.setFromTriplets(m_entries.begin(), m_entries.end());
  p.H.resize(n, 3 * nc);
  p.H.setFromTriplets(h_entries.begin(), h_entries.end());
  p.f.resize(n);
  p.f << -1.0, 0.5, -2.0, 0.0, 1.5, -0.25;
  p.w.resize(3 * nc);
  p.w << 0.1, 0.0, 0.0, -0.2, 0.05, 0.0;
  p.mu.resize(nc);
  p.mu << 0.3, 0.5;
  return p;
}

FileSpec SmallProblemSpec(Storage storage) {
  const GlobalProblem p = SmallProblem();
  FileSpec spec;
  spec["/fclib_global/spacedim"] = IntArray({3});
  AddMatrix(&spec, "M", p.M, storage);
  AddMatrix(&spec, "H", p.H, storage);
  spec["/fclib_global/vectors/f"] =
      DoubleArray({p.f.data(), p.f.data() + p.f.size()});
  spec["/fclib_global/vectors/w"] =
      DoubleArray({p.w.data(), p.w.data() + p.w.size()});
  spec["/fclib_global/vectors/mu"] =
      DoubleArray({p.mu.data(), p.mu.data() + p.mu.size()});
  spec["/fclib_global/info/title"] = Text("small test problem");
  spec["/fclib_global/info/description"] =
      Text("written by fclib_test_files.cc");
  spec["/fclib_global/info/math_info"] = Text("unknown");
  return spec;
}

MalformedCase FromSpec(const std::string& name,
                       Storage storage,
                       SpecMutation mutate,
                       std::string expected) {
  MalformedCase c;
  c.name = name;
  c.expected = std::move(expected);
  c.make = [name, storage, mutate](const std::string& dir) {
    FileSpec spec = SmallProblemSpec(storage);
    mutate(&spec);
    const std::string path = dir + "/malformed_" + name + ".hdf5";
    WriteSpec(path, spec);
    return path;
  };
  return c;
}

MalformedCase FromFunction(std::string name,
                           std::function<std::string(const std::string&)> make,
                           std::string expected) {
  MalformedCase c;
  c.name = std::move(name);
  c.make = std::move(make);
  c.expected = std::move(expected);
  return c;
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

namespace {

// Cases about the file itself: missing, not HDF5, empty, truncated, a directory.
void AddFileCases(std::vector<MalformedCase>* cases) {
  cases->push_back(FromFunction(
      "NonexistentPath",
      [](const std::string& dir) { return dir + "/does_not_exist.hdf5"; },
      "no such file"));
  cases->push_back(FromFunction(
      "NotHdf5",
      [](const std::string& dir) {
        const std::string path = dir + "/malformed_NotHdf5.hdf5";
        WriteText(path, "M v = H r + f\nthis is not an HDF5 file\n");
        return path;
      },
      "not an HDF5 file"));
  cases->push_back(FromFunction(
      "EmptyFile",
      [](const std::string& dir) {
        const std::string path = dir + "/malformed_EmptyFile.hdf5";
        WriteText(path, "");
        return path;
      },
      "not an HDF5 file"));
  cases->push_back(FromFunction(
      "TruncatedFile",
      [](const std::string& dir) {
        const std::string path = dir + "/malformed_TruncatedFile.hdf5";
        WriteSpec(path, SmallProblemSpec());
        std::filesystem::resize_file(path,
                                     std::filesystem::file_size(path) / 2);
        return path;
      },
      ""));
  cases->push_back(FromFunction(
      "Directory",
      [](const std::string& dir) {
        const std::string path = dir + "/malformed_Directory.hdf5";
        std::filesystem::create_directories(path);
        return path;
      },
      "is a directory"));
}

// Missing or mistyped groups and datasets.
void AddGroupCases(std::vector<MalformedCase>* cases) {
  cases->push_back(FromSpec(
      "MissingFclibGlobal",
      Storage::kTriplet,
      [](FileSpec* s) {
        RemoveSubtree(s, "/fclib_global");
        (*s)["/something/else"] = IntArray({1});
      },
      "/fclib_global is missing"));
  cases->push_back(FromSpec(
      "LocalProblem",
      Storage::kTriplet,
      [](FileSpec* s) {
        RemoveSubtree(s, "/fclib_global");
        (*s)["/fclib_local/spacedim"] = IntArray({3});
      },
      "local"));
  cases->push_back(FromSpec(
      "MissingMGroup",
      Storage::kTriplet,
      [](FileSpec* s) { RemoveSubtree(s, "/fclib_global/M"); },
      "group /fclib_global/M is missing"));
  cases->push_back(FromSpec(
      "MIsADataset",
      Storage::kTriplet,
      [](FileSpec* s) {
        RemoveSubtree(s, "/fclib_global/M");
        (*s)["/fclib_global/M"] = DoubleArray({1.0});
      },
      "/fclib_global/M is not a group"));
  cases->push_back(FromSpec(
      "MissingMx",
      Storage::kTriplet,
      [](FileSpec* s) { s->erase(kM + "x"); },
      "dataset /fclib_global/M/x is missing"));
  cases->push_back(FromSpec(
      "MissingVectorsGroup",
      Storage::kTriplet,
      [](FileSpec* s) { RemoveSubtree(s, "/fclib_global/vectors"); },
      "group /fclib_global/vectors is missing"));
  cases->push_back(FromSpec(
      "MissingF",
      Storage::kTriplet,
      [](FileSpec* s) { s->erase(kV + "f"); },
      "dataset /fclib_global/vectors/f is missing"));
}

// Dimensions and sizes that do not agree.
void AddSizeCases(std::vector<MalformedCase>* cases) {
  cases->push_back(FromSpec(
      "WrongFSize",
      Storage::kTriplet,
      [](FileSpec* s) {
        (*s)[kV + "f"] = DoubleArray({1, 2, 3, 4, 5});
      },
      "vectors/f has 5 entries, expected n = 6"));
  cases->push_back(FromSpec(
      "WrongWSize",
      Storage::kTriplet,
      [](FileSpec* s) {
        (*s)[kV + "w"] = DoubleArray({0, 0, 0});
      },
      "vectors/w has 3 entries, expected m = 6"));
  cases->push_back(FromSpec(
      "WrongMuSize",
      Storage::kTriplet,
      [](FileSpec* s) { (*s)[kV + "mu"] = DoubleArray({0.3}); },
      "vectors/mu has 1 entries, expected nc = 2"));
  cases->push_back(FromSpec(
      "MNotSquare",
      Storage::kTriplet,
      [](FileSpec* s) { (*s)[kM + "n"] = IntArray({7}); },
      "M must be square"));
  cases->push_back(FromSpec(
      "HRowsDifferFromM",
      Storage::kTriplet,
      [](FileSpec* s) { (*s)[kH + "m"] = IntArray({7}); },
      "H has 7 rows, expected n = 6"));
  cases->push_back(FromSpec(
      "HColumnsNotMultipleOf3",
      Storage::kTriplet,
      [](FileSpec* s) {
        (*s)[kH + "n"] = IntArray({7});
        (*s)[kV + "w"] = DoubleArray({0, 0, 0, 0, 0, 0, 0});
      },
      "not a multiple of 3"));
  cases->push_back(FromSpec(
      "NoContacts",
      Storage::kTriplet,
      [](FileSpec* s) {
        AddMatrix(s, "H", SparseMatrix(6, 0), Storage::kTriplet);
        (*s)[kV + "w"] = DoubleArray({});
        (*s)[kV + "mu"] = DoubleArray({});
      },
      "nc = 0"));
  cases->push_back(FromSpec(
      "NegativeDimension",
      Storage::kTriplet,
      [](FileSpec* s) { (*s)[kM + "m"] = IntArray({-6}); },
      "invalid dimensions"));
  cases->push_back(FromSpec(
      "SizeWithTwoEntries",
      Storage::kTriplet,
      [](FileSpec* s) {
        (*s)[kM + "m"] = IntArray({6, 6});
      },
      "/fclib_global/M/m has 2 entries, expected 1"));
}

// Triplet, CSC and CSR storage out of range or inconsistent.
void AddStorageCases(std::vector<MalformedCase>* cases) {
  cases->push_back(FromSpec(
      "TripletRowOutOfRange",
      Storage::kTriplet,
      [](FileSpec* s) { (*s)[kM + "i"].ints[3] = 6; },
      "outside the 6 x 6 matrix"));
  cases->push_back(FromSpec(
      "TripletNegativeColumn",
      Storage::kTriplet,
      [](FileSpec* s) { (*s)[kH + "p"].ints[0] = -1; },
      "outside the 6 x 6 matrix"));
  cases->push_back(FromSpec(
      "TripletCountBeyondData",
      Storage::kTriplet,
      [](FileSpec* s) { (*s)[kM + "nz"] = IntArray({1000}); },
      "stored as 1000 triplets"));
  cases->push_back(FromSpec(
      "UnknownNegativeNz",
      Storage::kTriplet,
      [](FileSpec* s) { (*s)[kM + "nz"] = IntArray({-3}); },
      "nz = -3 is not a storage"));
  cases->push_back(FromSpec(
      "CscPointersNotMonotone",
      Storage::kCsc,
      [](FileSpec* s) {
        std::swap((*s)[kM + "p"].ints[2], (*s)[kM + "p"].ints[3]);
      },
      "not monotone"));
  cases->push_back(FromSpec(
      "CscPointersTooShort",
      Storage::kCsc,
      [](FileSpec* s) {
        (*s)[kM + "p"].ints.resize(4);
        (*s)[kM + "p"].dims = {4};
      },
      "expected 7 column pointers"));
  cases->push_back(FromSpec(
      "CscRowIndexOutOfRange",
      Storage::kCsc,
      [](FileSpec* s) { (*s)[kH + "i"].ints[0] = 99; },
      "outside the 6 x 6 matrix"));
  cases->push_back(FromSpec(
      "CsrPointersBeyondData",
      Storage::kCsr,
      [](FileSpec* s) { (*s)[kM + "p"].ints.back() = 500; },
      "has 500 entries by its pointers"));
}

// Non-finite values and a negative friction coefficient.
void AddValueCases(std::vector<MalformedCase>* cases) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  cases->push_back(FromSpec(
      "NanInM",
      Storage::kTriplet,
      [nan](FileSpec* s) { (*s)[kM + "x"].doubles[1] = nan; },
      "M contains a NaN or infinite value"));
  cases->push_back(FromSpec(
      "InfInF",
      Storage::kTriplet,
      [inf](FileSpec* s) { (*s)[kV + "f"].doubles[0] = inf; },
      "f contains a NaN or infinite value"));
  cases->push_back(FromSpec(
      "NanInW",
      Storage::kTriplet,
      [nan](FileSpec* s) { (*s)[kV + "w"].doubles[4] = nan; },
      "w contains a NaN or infinite value"));
  cases->push_back(FromSpec(
      "NegativeMu",
      Storage::kTriplet,
      [](FileSpec* s) { (*s)[kV + "mu"].doubles[1] = -0.1; },
      "mu[1] = -0.100000 is negative"));
}

// Datasets of the wrong type or rank.
void AddTypeCases(std::vector<MalformedCase>* cases) {
  cases->push_back(FromSpec(
      "IndexArrayOfFloats",
      Storage::kTriplet,
      [](FileSpec* s) {
        (*s)[kM + "i"] = DoubleArray({0, 1, 2});
      },
      "/fclib_global/M/i has type float, expected integer"));
  cases->push_back(FromSpec(
      "ValuesAsString",
      Storage::kTriplet,
      [](FileSpec* s) { (*s)[kM + "x"] = Text("1 2 3"); },
      "/fclib_global/M/x has type string, expected float"));
  cases->push_back(FromSpec(
      "VectorOfRank2",
      Storage::kTriplet,
      [](FileSpec* s) {
        (*s)[kV + "f"].dims = {2, 3};
      },
      "/fclib_global/vectors/f has rank 2"));
}

// Valid FCLib content that fcsn does not support.
void AddUnsupportedCases(std::vector<MalformedCase>* cases) {
  cases->push_back(FromSpec(
      "EqualityConstraints",
      Storage::kTriplet,
      [](FileSpec* s) {
        AddMatrix(s, "G", SmallProblem().H.leftCols(1), Storage::kTriplet);
        (*s)[kV + "b"] = DoubleArray({0.0});
      },
      "equality constraints (G, b) are not supported yet"));
  cases->push_back(FromSpec(
      "SpaceDimension2",
      Storage::kTriplet,
      [](FileSpec* s) { (*s)["/fclib_global/spacedim"] = IntArray({2}); },
      "spacedim = 2"));
}

}  // namespace

std::vector<MalformedCase> MalformedCases() {
  std::vector<MalformedCase> cases;
  AddFileCases(&cases);
  AddGroupCases(&cases);
  AddSizeCases(&cases);
  AddStorageCases(&cases);
  AddValueCases(&cases);
  AddTypeCases(&cases);
  AddUnsupportedCases(&cases);
  for (MalformedCase& c : HostileCases()) cases.push_back(std::move(c));
  return cases;
}

}  // namespace fcsn::testing
