#include "script_input.hpp"

#include <fstream>
#include <sstream>

namespace vedette::gui {

bool read_script(const std::string& path, std::vector<ScriptCommand>* out, std::string* why) {
    std::ifstream in(path);
    if (!in) {
        *why = path + ": cannot open";
        return false;
    }
    std::string text;
    int n = 0;
    while (std::getline(in, text)) {
        ++n;
        if (!text.empty() && text.back() == '\r') text.pop_back();
        const auto first = text.find_first_not_of(" \t");
        if (first == std::string::npos || text[first] == '#') continue;
        ScriptCommand c;
        c.line = n;
        std::istringstream ss(text.substr(first));
        ss >> c.verb;
        std::string w;
        while (ss >> w) c.args.push_back(w);
        const auto sp = text.find_first_of(" \t", first);
        if (sp != std::string::npos) {
            const auto r = text.find_first_not_of(" \t", sp);
            if (r != std::string::npos) c.rest = text.substr(r);
        }
        out->push_back(std::move(c));
    }
    return true;
}

}  // namespace vedette::gui
