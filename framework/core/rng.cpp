#include "core/rng.hpp"

namespace vedette::core {

namespace {
std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
}  // namespace

void Rng::seed(std::uint64_t s) {
    // PCG's reference seeding (pcg32_srandom_r) with both words derived through SplitMix64, so
    // nearby seeds give unrelated streams.
    std::uint64_t x = s;
    const std::uint64_t initstate = splitmix64(x);
    const std::uint64_t initseq = splitmix64(x);
    state_ = 0;
    inc_ = (initseq << 1u) | 1u;
    next_u32();
    state_ += initstate;
    next_u32();
}

std::uint32_t Rng::next_u32() {
    const std::uint64_t old = state_;
    state_ = old * 6364136223846793005ull + inc_;
    const auto xorshifted = static_cast<std::uint32_t>(((old >> 18u) ^ old) >> 27u);
    const auto rot = static_cast<std::uint32_t>(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

std::uint32_t Rng::below(std::uint32_t bound) {
    // Lemire (2019), "Fast Random Integer Generation in an Interval": unbiased.
    std::uint64_t m = std::uint64_t{next_u32()} * bound;
    auto low = static_cast<std::uint32_t>(m);
    if (low < bound) {
        const std::uint32_t threshold = (0u - bound) % bound;
        while (low < threshold) {
            m = std::uint64_t{next_u32()} * bound;
            low = static_cast<std::uint32_t>(m);
        }
    }
    return static_cast<std::uint32_t>(m >> 32);
}

}  // namespace vedette::core
