#include "cli/cli_util.h"

#include <iostream>
#include <string>

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

void LoadProblemOrExit(const std::string& path,
                       MStorage m_storage,
                       GlobalProblem* problem,
                       FclibFileInfo* info) {
  ReadOptions options;
  options.m_storage = m_storage;
  std::string error;
  if (!ReadGlobalProblem(path, options, problem, info, &error))
    FailBadInput(error);
}

void PrintJson(const nlohmann::json& object) {
  std::cout << object.dump(
                   -1, ' ', false, nlohmann::json::error_handler_t::replace)
            << std::endl;
}

}  // namespace fcsn::cli
