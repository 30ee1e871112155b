// Internal: where module files come from (a folder on disk, or memory for tests and fuzzing).
// Paths are relative to the module folder, with '/' separators, already checked by safe_path().
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace vedette::data::detail {

struct FileRead {
    enum class Status { Ok, NotFound, TooLarge, Unreadable };
    Status status = Status::NotFound;
    std::string bytes;
    std::uintmax_t size = 0;  // known when TooLarge
};

class Source {
  public:
    virtual ~Source() = default;
    virtual FileRead read(const std::string& rel, std::size_t max_bytes) const = 0;
    virtual bool is_file(const std::string& rel) const = 0;
    virtual bool is_dir(const std::string& rel) const = 0;
    // Feeds every file of the module (sorted by relative path) to `fn(rel, bytes)`; false on
    // a read error or when there are more than `max_files` files.
    virtual bool for_each_file(
        std::size_t max_files,
        const std::function<void(const std::string&, const std::string&)>& fn) const = 0;
    // The same over the files below `rel_dir` (relative to the module folder, may start with
    // "../" for a sibling library folder); `fn` gets paths prefixed with "rel_dir/".
    virtual bool for_each_file_in(
        const std::string& rel_dir, std::size_t max_files,
        const std::function<void(const std::string&, const std::string&)>& fn) const = 0;
};

std::unique_ptr<Source> disk_source(const std::string& dir);
std::unique_ptr<Source> memory_source(const std::map<std::string, std::string>& files);

// Reads a whole file outside any module (setup files).
FileRead read_disk_file(const std::string& path, std::size_t max_bytes);

// A module-relative path is safe when it cannot leave the module folder: not empty, not
// absolute, no backslash, no drive letter, no empty, "." or ".." component.
bool safe_path(const std::string& rel);

}  // namespace vedette::data::detail
