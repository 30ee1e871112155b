// Scripted GUI input for tests: a text file of GUI commands run one per frame (`wait N` waits N
// frames). Blank lines and lines starting with '#' are ignored. See docs/gui.md for the list.
#pragma once

#include <string>
#include <vector>

namespace vedette::gui {

struct ScriptCommand {
    int line = 0;
    std::string verb;               // first word
    std::vector<std::string> args;  // the other words
    std::string rest;               // everything after the verb, as written (for `action TEXT`)
};

// Reads the script; on error returns false with *why = "file:line: message".
bool read_script(const std::string& path, std::vector<ScriptCommand>* out, std::string* why);

}  // namespace vedette::gui
