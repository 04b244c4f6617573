// ScratchDirectory: mkdtemp on creation, std::filesystem::remove_all on
// destruction.
#include "linalg/scratch_directory.h"

#include <stdlib.h>  // mkdtemp (POSIX)

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>
#include <vector>

namespace fcsn::internal {

std::unique_ptr<ScratchDirectory> ScratchDirectory::Create(
    const std::string& parent, std::string* message) {
  std::string base = parent;
  if (base.empty()) {
    std::error_code error;
    base = std::filesystem::temp_directory_path(error).string();
    if (error) base = "/tmp";
  }
  const std::string pattern = base + "/fcsn-ooc-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  if (mkdtemp(name.data()) == nullptr) {
    if (message != nullptr) {
      *message = "cannot create a directory for out-of-core files in '" + base +
                 "': " + std::strerror(errno);
    }
    return nullptr;
  }
  return std::unique_ptr<ScratchDirectory>(
      new ScratchDirectory(std::string(name.data())));
}

ScratchDirectory::~ScratchDirectory() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace fcsn::internal
