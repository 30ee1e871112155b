#include "data/source.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace vedette::data::detail {

namespace fs = std::filesystem;

namespace {

FileRead read_path(const fs::path& p, std::size_t max_bytes) {
    FileRead r;
    std::error_code ec;
    auto st = fs::status(p, ec);
    if (ec || !fs::exists(st)) return r;  // NotFound
    if (!fs::is_regular_file(st)) {
        r.status = FileRead::Status::Unreadable;
        return r;
    }
    r.size = fs::file_size(p, ec);
    if (ec) {
        r.status = FileRead::Status::Unreadable;
        return r;
    }
    if (r.size > max_bytes) {
        r.status = FileRead::Status::TooLarge;
        return r;
    }
    std::ifstream in(p, std::ios::binary);
    if (!in) {
        r.status = FileRead::Status::Unreadable;
        return r;
    }
    // Read at most max_bytes + 1 even if the file grew since file_size().
    r.bytes.resize(static_cast<std::size_t>(r.size));
    in.read(r.bytes.data(), static_cast<std::streamsize>(r.bytes.size()));
    r.bytes.resize(static_cast<std::size_t>(in.gcount()));
    r.status = FileRead::Status::Ok;
    return r;
}

class DiskSource : public Source {
  public:
    explicit DiskSource(std::string dir) : dir_(std::move(dir)) {}

    FileRead read(const std::string& rel, std::size_t max_bytes) const override {
        return read_path(fs::path(dir_) / rel, max_bytes);
    }
    bool is_file(const std::string& rel) const override {
        std::error_code ec;
        return fs::is_regular_file(fs::path(dir_) / rel, ec);
    }
    bool is_dir(const std::string& rel) const override {
        std::error_code ec;
        return fs::is_directory(fs::path(dir_) / rel, ec);
    }
    bool for_each_file(
        std::size_t max_files,
        const std::function<void(const std::string&, const std::string&)>& fn) const override {
        return walk(fs::path(dir_), "", max_files, fn);
    }
    bool for_each_file_in(
        const std::string& rel_dir, std::size_t max_files,
        const std::function<void(const std::string&, const std::string&)>& fn) const override {
        return walk(fs::path(dir_) / rel_dir, rel_dir + "/", max_files, fn);
    }

  private:
    static bool walk(const fs::path& root, const std::string& prefix, std::size_t max_files,
                     const std::function<void(const std::string&, const std::string&)>& fn) {
        std::vector<std::string> rels;
        std::error_code ec;
        // Directory symlinks are not followed (no loops); file symlinks are hashed by content.
        fs::recursive_directory_iterator it(root, fs::directory_options::none, ec), end;
        if (ec) return false;
        for (; it != end; it.increment(ec)) {
            if (ec) return false;
            std::error_code ec2;
            if (!it->is_regular_file(ec2)) continue;
            rels.push_back(it->path().lexically_relative(root).generic_string());
            if (rels.size() > max_files) return false;
        }
        if (ec) return false;
        std::sort(rels.begin(), rels.end());
        for (const auto& rel : rels) {
            FileRead r = read_path(root / rel, static_cast<std::size_t>(-1) / 2);
            if (r.status != FileRead::Status::Ok) return false;
            fn(prefix + rel, r.bytes);
        }
        return true;
    }

    std::string dir_;
};

class MemorySource : public Source {
  public:
    explicit MemorySource(const std::map<std::string, std::string>& files) : files_(files) {}

    FileRead read(const std::string& rel, std::size_t max_bytes) const override {
        FileRead r;
        auto it = files_.find(rel);
        if (it == files_.end()) return r;
        r.size = it->second.size();
        if (r.size > max_bytes) {
            r.status = FileRead::Status::TooLarge;
            return r;
        }
        r.status = FileRead::Status::Ok;
        r.bytes = it->second;
        return r;
    }
    bool is_file(const std::string& rel) const override { return files_.count(rel) > 0; }
    bool is_dir(const std::string& rel) const override {
        std::string prefix = rel + "/";
        auto it = files_.lower_bound(prefix);
        return it != files_.end() && it->first.compare(0, prefix.size(), prefix) == 0;
    }
    bool for_each_file(
        std::size_t max_files,
        const std::function<void(const std::string&, const std::string&)>& fn) const override {
        if (files_.size() > max_files) return false;
        for (const auto& [rel, bytes] : files_) {  // std::map: sorted by path
            if (rel.rfind("../", 0) == 0) continue;  // a sibling library, not this module
            fn(rel, bytes);
        }
        return true;
    }
    bool for_each_file_in(
        const std::string& rel_dir, std::size_t max_files,
        const std::function<void(const std::string&, const std::string&)>& fn) const override {
        std::string prefix = rel_dir + "/";
        std::size_t n = 0;
        for (auto it = files_.lower_bound(prefix);
             it != files_.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
            if (++n > max_files) return false;
            fn(it->first, it->second);
        }
        return true;
    }

  private:
    const std::map<std::string, std::string>& files_;
};

}  // namespace

std::unique_ptr<Source> disk_source(const std::string& dir) {
    return std::make_unique<DiskSource>(dir);
}

std::unique_ptr<Source> memory_source(const std::map<std::string, std::string>& files) {
    return std::make_unique<MemorySource>(files);
}

FileRead read_disk_file(const std::string& path, std::size_t max_bytes) {
    return read_path(fs::path(path), max_bytes);
}

bool safe_path(const std::string& rel) {
    if (rel.empty() || rel.size() > 255 || rel.front() == '/') return false;
    if (rel.find('\\') != std::string::npos || rel.find(':') != std::string::npos) return false;
    std::size_t start = 0;
    while (true) {
        std::size_t slash = rel.find('/', start);
        std::string_view part(rel.data() + start,
                              (slash == std::string::npos ? rel.size() : slash) - start);
        if (part.empty() || part == "." || part == "..") return false;
        if (slash == std::string::npos) return true;
        start = slash + 1;
    }
}

}  // namespace vedette::data::detail
