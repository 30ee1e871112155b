// A legal action, as the rules list it and every client (GUI, CLI, AI, network) sends it back.
// Its text form ("move b1 0304", "pass", "choice retreat") is what scripts and logs contain.
#pragma once

#include <string>
#include <vector>

namespace vedette::core {

struct Action {
    // "hex", "piece", "stack", "number", "choice", "pass", or a module verb such as "move".
    std::string kind;
    std::vector<std::string> args;  // hex labels, piece ids, numbers, choice ids
    std::string label;              // what it does, in words, for menus and logs
    // What the GUI highlights for this action: hex labels and piece ids it concerns.
    std::vector<std::string> hexes;
    std::vector<std::string> pieces;
    // What the other roles see in the log instead of the text, when the text would reveal a
    // secret (a dummy Supply Train vs a genuine one). Empty: the text is public.
    std::string public_text;

    // kind followed by the args, separated by single spaces.
    std::string text() const {
        std::string t = kind;
        for (const auto& a : args) t += ' ' + a;
        return t;
    }
};

}  // namespace vedette::core
