#include "session/bot.hpp"

#include <map>

namespace vedette::session {

namespace {
std::map<std::string, BotFactory>& registry() {
    static std::map<std::string, BotFactory> r;
    return r;
}
}  // namespace

void register_bot_kind(const std::string& kind, BotFactory factory) {
    registry()[kind] = std::move(factory);
}

std::vector<std::string> bot_kinds() {
    std::vector<std::string> out{"random"};
    for (const auto& [k, f] : registry())
        if (k != "random") out.push_back(k);
    return out;
}

std::unique_ptr<Bot> make_bot(const std::string& kind, std::uint64_t seed, std::string* why) {
    if (kind == "random") return std::make_unique<RandomBot>(seed);
    if (auto it = registry().find(kind); it != registry().end()) return it->second(seed);
    if (why) {
        std::string known;
        for (const auto& k : bot_kinds()) known += (known.empty() ? "" : ", ") + k;
        *why = "unknown bot kind '" + kind + "' (known: " + known + ")";
    }
    return nullptr;
}

}  // namespace vedette::session
