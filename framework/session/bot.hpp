// Bots: players that choose actions through the same door as everyone else. A bot decides from
// what its role may know; the random bot needs only the list of legal actions.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "session/session.hpp"

namespace vedette::session {

class Bot {
public:
    virtual ~Bot() = default;
    // The text of the chosen action, or empty when the bot has no legal action to take.
    virtual std::string choose(const Session& s, const std::string& role) = 0;
    // Why the last choice was made, for the log's debug note (Session::annotate_last); empty
    // when the bot has nothing to say (the random bot).
    virtual std::string explain() const { return {}; }
};

// Picks uniformly among the legal actions with its own RNG (never the game's: a bot must not
// change the dice), so a bot game is reproducible from its seed.
class RandomBot : public Bot {
public:
    explicit RandomBot(std::uint64_t seed) : rng_(seed ^ 0x5eed0fb07ull) {}
    std::string choose(const Session& s, const std::string& role) override {
        const auto& acts = s.actions_view(role);
        if (acts.empty()) return {};
        return acts[rng_.below(static_cast<std::uint32_t>(acts.size()))].text();
    }

private:
    core::Rng rng_;
};

// Makes a bot by kind name ("random", or a registered kind); null with *why set when the kind
// is unknown.
std::unique_ptr<Bot> make_bot(const std::string& kind, std::uint64_t seed, std::string* why);

// Higher layers (framework/ai) add bot kinds here, so this layer never depends on them: the
// apps call e.g. ai::register_bot_kinds() once at start-up, then make_bot("ai", ...) works.
using BotFactory = std::function<std::unique_ptr<Bot>(std::uint64_t seed)>;
void register_bot_kind(const std::string& kind, BotFactory factory);
std::vector<std::string> bot_kinds();  // "random" and the registered kinds, sorted

}  // namespace vedette::session
