// Atomic file replacement (atomic_file.h) on POSIX: open(O_EXCL) of a fresh
// name beside the target, write, fsync, rename, fsync of the directory.
#include "problem/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <system_error>
#include <vector>

namespace fcsn::internal {
namespace {

std::string ErrnoText(const std::string& action) {
  return action + ": " + std::strerror(errno);
}

// The file a write to `path` must replace: symbolic links resolved, so that
// the link itself is kept.
std::filesystem::path ResolveTarget(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path resolved =
      std::filesystem::weakly_canonical(path, ec);
  return ec ? std::filesystem::path(path) : resolved;
}

// Creates a new file "<dir>/.<name>.tmp-<random>" with O_EXCL (mode 0666
// minus the umask) and returns its descriptor, or -1 with errno set.
int CreateTemporary(const std::filesystem::path& target, std::string* name) {
  const std::filesystem::path dir =
      target.has_parent_path() ? target.parent_path() : ".";
  std::random_device seed;
  std::mt19937_64 random(seed() ^ static_cast<unsigned>(getpid()));
  for (int attempt = 0; attempt < 100; ++attempt) {
    *name = (dir / ("." + target.filename().string() + ".tmp-" +
                    std::to_string(random() % 1000000000ull)))
                .string();
    const int fd =
        open(name->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

bool WriteAll(int fd, const std::vector<char>& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

// Writes, keeps an existing target's mode, flushes and closes fd; on failure
// *what says which step failed.
bool FillTemporary(int fd,
                   const std::filesystem::path& target,
                   const std::vector<char>& bytes,
                   std::string* what) {
  struct stat existing {};
  bool ok = true;
  if (!WriteAll(fd, bytes)) {
    *what = ErrnoText("cannot write the file (disk full or I/O error?)");
    ok = false;
  } else if (stat(target.c_str(), &existing) == 0 &&
             fchmod(fd, existing.st_mode & 07777) != 0) {
    *what = ErrnoText("cannot give the new file the mode of the old one");
    ok = false;
  } else if (fsync(fd) != 0) {
    *what = ErrnoText("cannot flush the file to disk");
    ok = false;
  }
  if (close(fd) != 0 && ok) {
    *what = ErrnoText("cannot close the file");
    ok = false;
  }
  return ok;
}

// Makes the rename durable; best effort (some file systems refuse it).
void SyncDirectory(const std::filesystem::path& target) {
  const std::filesystem::path dir =
      target.has_parent_path() ? target.parent_path() : ".";
  const int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  fsync(fd);
  close(fd);
}

}  // namespace

bool ReplaceFileAtomically(const std::string& path,
                           const std::vector<char>& bytes,
                           std::string* what) {
  const std::filesystem::path target = ResolveTarget(path);
  std::string temporary;
  const int fd = CreateTemporary(target, &temporary);
  if (fd < 0) {
    *what = ErrnoText("cannot create a file in its directory");
    return false;
  }
  bool ok = FillTemporary(fd, target, bytes, what);
  if (ok && rename(temporary.c_str(), target.c_str()) != 0) {
    *what = ErrnoText("cannot rename the new file over it");
    ok = false;
  }
  if (!ok) {
    unlink(temporary.c_str());
    *what += "; the file is unchanged";
    return false;
  }
  SyncDirectory(target);
  return true;
}

}  // namespace fcsn::internal
