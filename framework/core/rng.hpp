// The game's random number generator: PCG32 (O'Neill 2014, "PCG-XSH-RR 64/32"), seeded through
// SplitMix64. Chosen because its state is two 64-bit words (cheap to copy and serialise), it is
// fully specified, and its output is identical on every platform. Dice use rejection sampling so
// every face is exactly equally likely.
#pragma once

#include <cstdint>

namespace vedette::core {

class Rng {
public:
    Rng() { seed(0); }
    explicit Rng(std::uint64_t s) { seed(s); }

    void seed(std::uint64_t s);
    std::uint32_t next_u32();
    // Uniform integer in [0, bound), bound > 0 (Lemire's nearly-divisionless rejection).
    std::uint32_t below(std::uint32_t bound);
    int die(int sides) { return static_cast<int>(below(static_cast<std::uint32_t>(sides))) + 1; }

    std::uint64_t state() const { return state_; }
    std::uint64_t inc() const { return inc_; }
    void restore(std::uint64_t state, std::uint64_t inc) {
        state_ = state;
        inc_ = inc | 1u;
    }
    friend bool operator==(const Rng&, const Rng&) = default;

private:
    std::uint64_t state_ = 0;
    std::uint64_t inc_ = 1;
};

}  // namespace vedette::core
