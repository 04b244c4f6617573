// Atomic replacement of a file's content for the FCLib writer: the bytes go to
// a new temporary file in the target's directory, are flushed to the device
// (fsync) and renamed over the target, so that a reader, a crash or a full
// disk sees either the old file or the new one, never a mix or nothing.
// Internal to fcsn_problem (not installed).
#ifndef FCSN_PROBLEM_ATOMIC_FILE_H_
#define FCSN_PROBLEM_ATOMIC_FILE_H_

#include <string>
#include <vector>

namespace fcsn::internal {

// Replaces the content of `path` (following a symbolic link to its target)
// with `bytes`. On failure returns false with the reason in *what (no path
// prefix, one line), removes the temporary file and leaves `path` untouched.
// A new file gets mode 0666 minus the umask, a replaced one keeps its mode.
bool ReplaceFileAtomically(const std::string& path,
                           const std::vector<char>& bytes,
                           std::string* what);

}  // namespace fcsn::internal

#endif  // FCSN_PROBLEM_ATOMIC_FILE_H_
