// HostileCases() (fclib_test_files.h): FCLib files crafted against the
// reader's resources and assumptions.
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "fclib_test_files.h"

namespace fcsn::testing {

std::vector<MalformedCase> HostileCases() {
  std::vector<MalformedCase> cases;
  cases.push_back(FromSpec(
      "ForgedVectorExtent",
      Storage::kTriplet,
      [](FileSpec* s) { (*s)[kV + "f"] = UnwrittenDoubles(2147483646ull); },
      "vectors/f declares 2147483646 entries but the file stores only"));
  cases.push_back(FromSpec(
      "ForgedMatrixSizes",
      Storage::kTriplet,
      [](FileSpec* s) {
        for (const std::string& size : {kM + "m", kM + "n", kH + "m"})
          (*s)[size] = IntArray({2147483646});
      },
      "vectors/f has 6 entries, expected n = 2147483646"));
  cases.push_back(FromSpec(
      "Int64SizeBeyondInt",
      Storage::kTriplet,
      [](FileSpec* s) { (*s)[kM + "m"] = Int64Array({4294967302ll}); },
      "/fclib_global/M/m[0] = 4294967302 is outside the 32-bit integer range"));
  cases.push_back(FromFunction(
      "SymlinkLoop",
      [](const std::string& dir) {
        const std::string a = dir + "/malformed_SymlinkLoopA.hdf5";
        const std::string b = dir + "/malformed_SymlinkLoopB.hdf5";
        std::error_code ignored;
        std::filesystem::remove(a, ignored);
        std::filesystem::remove(b, ignored);
        std::filesystem::create_symlink(b, a);
        std::filesystem::create_symlink(a, b);
        return a;
      },
      "symbolic links"));
  cases.push_back(FromSpec(
      "MWithoutEntries",
      Storage::kTriplet,
      [](FileSpec* s) {
        AddMatrix(s, "M", SparseMatrix(6, 6), Storage::kTriplet);
      },
      "M has no nonzero entry, so it is singular"));
  cases.push_back(FromSpec(
      "MWithAZeroRowAndColumn",
      Storage::kCsc,
      [](FileSpec* s) {
        SparseMatrix m = SmallProblem().M;
        m.prune([](int row, int col, double) { return row != 2 && col != 2; });
        AddMatrix(s, "M", m, Storage::kCsc);
      },
      "M is singular: its row 2 has no nonzero entry"));
  cases.push_back(FromFunction(
      "ExternalRawData",
      [](const std::string& dir) {
        const std::string raw = dir + "/malformed_ExternalRawData.bin";
        WriteText(raw, std::string(48, '\0'));
        FileSpec spec = SmallProblemSpec();
        spec[kV + "f"].external_file = raw;
        const std::string path = dir + "/malformed_ExternalRawData.hdf5";
        WriteSpec(path, spec);
        return path;
      },
      "vectors/f is stored in an external file (not supported)"));
  return cases;
}

}  // namespace fcsn::testing
