// linalg/scratch_directory.h: a private directory for a solver's files (MUMPS'
// out-of-core factors), created on demand and removed with everything in it
// when the owner ends.
//
//   Create(parent): mkdtemp("<parent>/fcsn-ooc-XXXXXX"), mode 0700; parent ""
//                   is the system temporary directory
//                   (std::filesystem::temp_directory_path()).
//   destructor:     removes the directory and its contents; errors are
//                   ignored (nothing may escape a destructor, and the library
//                   never prints).
//
// One owner: not copyable; movable only through the unique_ptr returned by
// Create(). A crash of the process leaves the directory behind (its name says
// whose it is).
#ifndef FCSN_LINALG_SCRATCH_DIRECTORY_H_
#define FCSN_LINALG_SCRATCH_DIRECTORY_H_

#include <memory>
#include <string>
#include <utility>

namespace fcsn::internal {

class ScratchDirectory {
 public:
  // The new directory, or nullptr and a sentence in *message (which may be
  // nullptr) when `parent` does not exist or is not writable.
  static std::unique_ptr<ScratchDirectory> Create(const std::string& parent,
                                                  std::string* message);
  ~ScratchDirectory();
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;

  const std::string& path() const { return path_; }

 private:
  explicit ScratchDirectory(std::string path) : path_(std::move(path)) {}

  std::string path_;
};

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_SCRATCH_DIRECTORY_H_
