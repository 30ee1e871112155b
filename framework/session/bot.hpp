// Bots: players that choose actions through the same door as everyone else. A bot decides from
// what its role may know; the random bot needs only the list of legal actions.
#pragma once

#include <memory>
#include <string>

#include "core/rng.hpp"
#include "session/session.hpp"

namespace vedette::session {

class Bot {
public:
    virtual ~Bot() = default;
    // The text of the chosen action, or empty when the bot has no legal action to take.
    virtual std::string choose(const Session& s, const std::string& role) = 0;
};

// Picks uniformly among the legal actions with its own RNG (never the game's: a bot must not
// change the dice), so a bot game is reproducible from its seed.
class RandomBot : public Bot {
public:
    explicit RandomBot(std::uint64_t seed) : rng_(seed ^ 0x5eed0fb07ull) {}
    std::string choose(const Session& s, const std::string& role) override {
        const auto acts = s.actions(role);
        if (acts.empty()) return {};
        return acts[rng_.below(static_cast<std::uint32_t>(acts.size()))].text();
    }

private:
    core::Rng rng_;
};

// Makes a bot by kind name ("random"); null with *why set when the kind is unknown.
std::unique_ptr<Bot> make_bot(const std::string& kind, std::uint64_t seed, std::string* why);

}  // namespace vedette::session
