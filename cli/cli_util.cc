#include "cli/cli_util.h"

#include <hdf5.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "cli/crash_guard.h"

namespace fcsn::cli {

void ExitWith(int code) { throw CLI::RuntimeError(code); }

void FailBadInput(const std::string& message) {
  std::string line = message;
  for (char& c : line) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  std::cerr << "fcsn: " << line << std::endl;
  ExitWith(kExitBadInput);
}

void AddMStorageOption(CLI::App* command, std::string* m_storage_name) {
  command
      ->add_option("--m-storage",
                   *m_storage_name,
                   "M stored as an upper triangle: auto/symmetrized use U + "
                   "U^T - diag(U), "
                   "as-stored keeps the triangle (as Siconos does)")
      ->check(CLI::IsMember({ToString(MStorage::kAuto),
                             ToString(MStorage::kAsStored),
                             ToString(MStorage::kSymmetrized)}))
      ->capture_default_str();
}

MStorage ParseMStorage(const std::string& name) {
  const std::optional<MStorage> storage = MStorageFromString(name);
  if (!storage)
    FailBadInput("unknown --m-storage '" + name + "' (" +
                 NamesOf(kAllMStorages) + ")");
  return *storage;
}

void PrepareProcess() {
  H5dont_atexit();
  std::signal(SIGXFSZ, SIG_IGN);
}

std::string LoadProblem(const std::string& path,
                        MStorage m_storage,
                        GlobalProblem* problem,
                        FclibFileInfo* info) {
  ReadOptions options;
  options.m_storage = m_storage;
  std::string error;
  ReadingGuard guard(path);
  return ReadGlobalProblem(path, options, problem, info, &error) ? "" : error;
}

void LoadProblemOrExit(const std::string& path,
                       MStorage m_storage,
                       GlobalProblem* problem,
                       FclibFileInfo* info) {
  const std::string error = LoadProblem(path, m_storage, problem, info);
  if (!error.empty()) FailBadInput(error);
}

std::string LoadGuesses(const std::string& path,
                        int n,
                        int m,
                        std::vector<Solution>* guesses) {
  std::string error;
  ReadingGuard guard(path);
  return ReadGuesses(path, n, m, guesses, &error) ? "" : error;
}

void ReadSolutionOrExit(const std::string& path,
                        int n,
                        int m,
                        Solution* solution) {
  std::string error;
  bool ok = false;
  {
    ReadingGuard guard(path);
    ok = ReadSolution(path, n, m, solution, &error);
  }
  if (!ok) FailBadInput(error);
}

void ReadGuessesOrExit(const std::string& path,
                       int n,
                       int m,
                       std::vector<Solution>* guesses) {
  const std::string error = LoadGuesses(path, n, m, guesses);
  if (!error.empty()) FailBadInput(error);
}

namespace {

// Creates and removes a file next to `output`; fails with kExitBadInput and
// the system's reason when it cannot.
void CheckWritableFolderOrExit(const std::string& output) {
  const std::string::size_type slash = output.find_last_of('/');
  const std::string folder =
      slash == std::string::npos ? "." : output.substr(0, slash + 1);
  std::string probe = folder + "/.fcsn-output-probe-XXXXXX";
  const int fd = mkstemp(probe.data());
  if (fd < 0) {
    FailBadInput(output + ": cannot write the file (" + std::strerror(errno) +
                 ")");
  }
  close(fd);
  unlink(probe.c_str());
}

}  // namespace

void CheckOutputOrExit(const std::string& output,
                       const std::vector<std::string>& inputs) {
  if (output.empty()) FailBadInput("--output: the file name is empty");
  CheckWritableFolderOrExit(output);
  struct stat out {};
  if (stat(output.c_str(), &out) != 0) return;  // a new file
  for (const std::string& input : inputs) {
    struct stat in {};
    if (stat(input.c_str(), &in) == 0 && in.st_dev == out.st_dev &&
        in.st_ino == out.st_ino) {
      FailBadInput(output +
                   ": is the input file; fcsn does not rewrite its input (the "
                   "result would drop /guesses and may store M differently), "
                   "choose another --output");
    }
  }
}

void PrintJson(const nlohmann::json& object) {
  std::cout << object.dump(
                   -1, ' ', false, nlohmann::json::error_handler_t::replace)
            << std::endl;
}

}  // namespace fcsn::cli
