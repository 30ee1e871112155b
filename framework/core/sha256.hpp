// SHA-256 (FIPS 180-4), small and dependency-free: module content hashes and state hashes must
// be identical on every platform, so we do not rely on whatever crypto library is installed.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace vedette::core {

class Sha256 {
  public:
    Sha256();
    void update(const void* data, std::size_t size);
    void update(std::string_view s) { update(s.data(), s.size()); }
    std::array<std::uint8_t, 32> digest();  // finishes; the object must not be updated after
    std::string hex_digest();               // lower-case, 64 characters

  private:
    void block(const std::uint8_t* p);
    std::array<std::uint32_t, 8> h_;
    std::array<std::uint8_t, 64> buf_{};
    std::size_t buf_len_ = 0;
    std::uint64_t total_ = 0;  // bytes
};

// One-shot helper: lower-case hex digest of `data`.
std::string sha256_hex(std::string_view data);

}  // namespace vedette::core
