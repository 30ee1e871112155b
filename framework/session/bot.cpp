#include "session/bot.hpp"

namespace vedette::session {

std::unique_ptr<Bot> make_bot(const std::string& kind, std::uint64_t seed, std::string* why) {
    if (kind == "random") return std::make_unique<RandomBot>(seed);
    if (why) *why = "unknown bot kind '" + kind + "' (known: random)";
    return nullptr;
}

}  // namespace vedette::session
