#include "data/xml.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>

namespace vedette::data::detail {

using tinyxml2::XMLAttribute;
using tinyxml2::XMLDocument;
using tinyxml2::XMLElement;
using tinyxml2::XMLNode;

// ---- Sink ------------------------------------------------------------------------------------

void Sink::add(const std::string& file, int line, std::string message) {
    if (full_) return;
    if (list_.size() + 1 >= limits::kMaxErrors) {
        // Bounded output even for a file made of nothing but mistakes.
        list_.push_back(
            {file, line,
             "too many errors (limit " + std::to_string(limits::kMaxErrors) + "); stopping"});
        full_ = true;
        return;
    }
    list_.push_back({file, line, std::move(message)});
}

std::vector<Diagnostic> Sink::take() {
    // Compiler order: files in the order they were read, lines ascending within a file. The
    // "too many errors" notice, if any, stays last.
    std::size_t n = list_.size() - (full_ ? 1 : 0);
    std::vector<std::string> files;
    for (std::size_t i = 0; i < n; ++i) {
        if (std::find(files.begin(), files.end(), list_[i].file) == files.end()) {
            files.push_back(list_[i].file);
        }
    }
    auto rank = [&](const Diagnostic& d) {
        return std::find(files.begin(), files.end(), d.file) - files.begin();
    };
    std::stable_sort(list_.begin(), list_.begin() + static_cast<std::ptrdiff_t>(n),
                     [&](const Diagnostic& a, const Diagnostic& b) {
                         auto ra = rank(a), rb = rank(b);
                         return ra != rb ? ra < rb : a.line < b.line;
                     });
    return std::move(list_);
}

// ---- value syntaxes --------------------------------------------------------------------------

bool is_id(std::string_view s) {
    if (s.empty() || s.size() > limits::kMaxIdLength) return false;
    if (s[0] < 'a' || s[0] > 'z') return false;
    for (char c : s) {
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    }
    return true;
}

std::string id_rule() {
    return "use a-z, 0-9 and '_', starting with a letter, at most " +
           std::to_string(limits::kMaxIdLength) + " characters";
}

std::optional<std::int64_t> parse_int(std::string_view s, bool* overflow) {
    if (overflow) *overflow = false;
    std::size_t i = (!s.empty() && s[0] == '-') ? 1 : 0;
    if (i == s.size()) return std::nullopt;
    for (std::size_t j = i; j < s.size(); ++j) {
        if (s[j] < '0' || s[j] > '9') return std::nullopt;
    }
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) {
        if (overflow) *overflow = true;
        return std::nullopt;
    }
    return v;
}

std::optional<bool> parse_bool(std::string_view s) {
    if (s == "true" || s == "1") return true;
    if (s == "false" || s == "0") return false;
    return std::nullopt;
}

std::optional<double> parse_double(std::string_view s) {
    // Plain decimal only (no hex floats, inf or nan): what xs:decimal accepts.
    if (s.empty()) return std::nullopt;
    std::size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
    bool digits = false, dot = false;
    for (std::size_t j = i; j < s.size(); ++j) {
        if (s[j] >= '0' && s[j] <= '9') {
            digits = true;
        } else if (s[j] == '.' && !dot) {
            dot = true;
        } else {
            return std::nullopt;
        }
    }
    if (!digits) return std::nullopt;
    std::string_view t = s[0] == '+' ? s.substr(1) : s;
    double v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || p != t.data() + t.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

bool is_color(std::string_view s) {
    if (s.size() != 7 || s[0] != '#') return false;
    for (std::size_t i = 1; i < 7; ++i) {
        char c = s[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
            return false;
        }
    }
    return true;
}

std::string shorten(std::string_view s, std::size_t max) {
    std::size_t n = s.size();
    if (n > max) {
        n = max;
        // Do not cut a UTF-8 sequence in half (continuation bytes are 10xxxxxx).
        while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
    }
    std::string out(s.substr(0, n));
    // One diagnostic, one line.
    for (char& c : out) {
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    }
    return n < s.size() ? out + "..." : out;
}

std::string quote(std::string_view s) { return "'" + shorten(s, 40) + "'"; }

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::vector<std::string> split_ws(std::string_view s) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && is_space(s[i])) ++i;
        std::size_t j = i;
        while (j < s.size() && !is_space(s[j])) ++j;
        if (j > i) out.emplace_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

std::string trim_ws(std::string_view s) {
    std::string out;
    for (const auto& w : split_ws(s)) {
        if (!out.empty()) out += ' ';
        out += w;
    }
    return out;
}

// ---- lexical pre-check -----------------------------------------------------------------------

namespace {

bool xml_char(std::uint32_t c) {
    return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
           (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

// Decodes one UTF-8 sequence at s[i]; 0 length if invalid (overlong, surrogate, > U+10FFFF).
std::size_t utf8_decode(const std::string& s, std::size_t i, std::uint32_t& cp) {
    auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char c = b(i);
    std::size_t len;
    std::uint32_t min;
    if (c < 0x80) {
        cp = c;
        return 1;
    } else if ((c & 0xE0) == 0xC0) {
        len = 2, cp = c & 0x1F, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        len = 3, cp = c & 0x0F, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        len = 4, cp = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (i + len > s.size()) return 0;
    for (std::size_t k = 1; k < len; ++k) {
        if ((b(i + k) & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (b(i + k) & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return len;
}

std::string hex_byte(unsigned char c) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    return std::string("0x") + kHex[c >> 4] + kHex[c & 15];
}

// Checks an entity or character reference starting at s[i] == '&'. Returns its length, or 0
// with `msg` set.
std::size_t check_reference(const std::string& s, std::size_t i, std::string& msg) {
    // Only ASCII name characters before the ';': anything else is a stray '&' (and is never
    // quoted, so messages stay one line of valid UTF-8).
    std::size_t semi = i + 1;
    while (semi < s.size() && semi - i <= 12 &&
           (std::isalnum(static_cast<unsigned char>(s[semi])) || s[semi] == '#' || s[semi] == '_' ||
            s[semi] == '-' || s[semi] == '.' || s[semi] == ':')) {
        ++semi;
    }
    if (semi >= s.size() || s[semi] != ';') {
        msg = "'&' must be written as &amp;";
        return 0;
    }
    std::string_view ref(s.data() + i + 1, semi - i - 1);
    if (ref == "amp" || ref == "lt" || ref == "gt" || ref == "quot" || ref == "apos") {
        return semi - i + 1;
    }
    if (!ref.empty() && ref[0] == '#') {
        std::string_view num = ref.substr(1);
        int base = 10;
        if (!num.empty() && num[0] == 'x') {
            num = num.substr(1);
            base = 16;
        }
        std::uint32_t cp = 0;
        auto [p, ec] = std::from_chars(num.data(), num.data() + num.size(), cp, base);
        if (num.empty() || ec != std::errc() || p != num.data() + num.size() || !xml_char(cp)) {
            msg = "character reference " + quote("&" + std::string(ref) + ";") +
                  " is not an allowed XML character";
            return 0;
        }
        return semi - i + 1;
    }
    msg = ref.empty() ? "'&' must be written as &amp;"
                      : "unknown entity " + quote("&" + std::string(ref) + ";") +
                            " (only &amp; &lt; &gt; &quot; &apos; and &#...; are allowed)";
    return 0;
}

// Whole-file checks tinyxml2 does not do: UTF-8, forbidden control characters, entity
// references (tinyxml2 silently keeps unknown ones) and DTDs (tinyxml2 ignores them, so a
// DTD's entities would mean something else to any other XML tool). False if unusable.
bool lexical_check(const FileCtx& ctx, const std::string& s) {
    int line = 1;
    bool ok = true;
    int reported = 0;
    auto fail = [&](const std::string& msg) {
        ok = false;
        if (reported++ < 20) ctx.error(line, msg);
    };
    enum class Mode { Markup, Comment, CData, PI } mode = Mode::Markup;
    std::size_t i = 0;
    if (s.compare(0, 3, "\xEF\xBB\xBF") == 0) i = 3;  // BOM
    while (i < s.size()) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        if (c >= 0x80) {
            std::uint32_t cp = 0;
            std::size_t n = utf8_decode(s, i, cp);
            if (n == 0) {
                fail("file is not valid UTF-8 (byte " + hex_byte(c) +
                     "); module files must be UTF-8");
                return false;  // what follows cannot be quoted meaningfully
            }
            if (!xml_char(cp)) fail("character U+FFFE/U+FFFF is not allowed in XML");
            i += n;
            continue;
        }
        if (c == '\n') {
            ++line;
            ++i;
            continue;
        }
        if (c < 0x20 && c != '\t' && c != '\r') {
            fail("control character " + hex_byte(c) + " is not allowed in XML");
            ++i;
            continue;
        }
        switch (mode) {
            case Mode::Comment:
                if (s.compare(i, 3, "-->") == 0) {
                    mode = Mode::Markup, i += 2;
                } else if (s.compare(i, 2, "--") == 0) {
                    fail("'--' is not allowed inside a comment");
                    ++i;
                }
                break;
            case Mode::CData:
                if (s.compare(i, 3, "]]>") == 0) mode = Mode::Markup, i += 2;
                break;
            case Mode::PI:
                if (s.compare(i, 2, "?>") == 0) mode = Mode::Markup, i += 1;
                break;
            case Mode::Markup:
                if (c == '<' && s.compare(i, 4, "<!--") == 0) {
                    mode = Mode::Comment, i += 3;
                } else if (c == '<' && s.compare(i, 9, "<![CDATA[") == 0) {
                    mode = Mode::CData, i += 8;
                } else if (c == '<' && s.compare(i, 2, "<?") == 0) {
                    mode = Mode::PI, i += 1;
                } else if (c == '<' && s.compare(i, 2, "<!") == 0) {
                    fail("DTDs and <!...> declarations are not allowed");
                    return false;
                } else if (c == '&') {
                    std::string msg;
                    std::size_t n = check_reference(s, i, msg);
                    if (n == 0) {
                        fail(msg);
                    } else {
                        i += n - 1;
                    }
                }
                break;
        }
        ++i;
    }
    return ok;
}

std::string tinyxml_message(const XMLDocument& doc) {
    std::string what;
    switch (doc.ErrorID()) {
        case tinyxml2::XML_ERROR_PARSING_ELEMENT:
            what = "bad element";
            break;
        case tinyxml2::XML_ERROR_PARSING_ATTRIBUTE:
            what = "bad attribute (unquoted, duplicated or malformed)";
            break;
        case tinyxml2::XML_ERROR_PARSING_TEXT:
            what = "bad text (text outside the root element?)";
            break;
        case tinyxml2::XML_ERROR_PARSING_CDATA:
            what = "bad CDATA section";
            break;
        case tinyxml2::XML_ERROR_PARSING_COMMENT:
            what = "bad comment";
            break;
        case tinyxml2::XML_ERROR_PARSING_DECLARATION:
            what = "bad <?...?> declaration";
            break;
        case tinyxml2::XML_ERROR_PARSING_UNKNOWN:
            what = "bad <!...> markup";
            break;
        case tinyxml2::XML_ERROR_EMPTY_DOCUMENT:
            what = "no root element";
            break;
        case tinyxml2::XML_ERROR_MISMATCHED_ELEMENT:
            what = "mismatched end tag";
            break;
        case tinyxml2::XML_ELEMENT_DEPTH_EXCEEDED:
            what = "elements nested too deeply (limit " +
                   std::to_string(TINYXML2_MAX_ELEMENT_DEPTH) + ")";
            break;
        default:
            what = "syntax error";
            break;
    }
    // tinyxml2's detail looks like "... Line number=3: XMLElement name=foo".
    const char* full = doc.ErrorStr();
    const char* name = full ? std::strstr(full, "XMLElement name=") : nullptr;
    if (name && doc.ErrorID() != tinyxml2::XML_ELEMENT_DEPTH_EXCEEDED) {
        std::string n = shorten(
            name + std::strlen("XMLElement name="));  // cut before any truncation by tinyxml2
        if (doc.ErrorID() == tinyxml2::XML_ERROR_MISMATCHED_ELEMENT) {
            // tinyxml2 reports the line where the unclosed element starts.
            what = "<" + n + "> is not closed by a matching </" + n + ">";
        } else {
            what += " in element <" + n + ">";
        }
    }
    return "malformed XML: " + what;
}

}  // namespace

std::unique_ptr<XMLDocument> parse_xml(const FileCtx& ctx, const std::string& bytes) {
    if (!lexical_check(ctx, bytes)) return nullptr;
    // Whitespace collapsed: descriptions, card texts and table rows read as words.
    auto doc = std::make_unique<XMLDocument>(true, tinyxml2::COLLAPSE_WHITESPACE);
    if (doc->Parse(bytes.data(), bytes.size()) != tinyxml2::XML_SUCCESS) {
        ctx.error(doc->ErrorLineNum(), tinyxml_message(*doc));
        return nullptr;
    }
    return doc;
}

const XMLElement* root_element(const FileCtx& ctx, const XMLDocument& doc, const char* name) {
    const XMLElement* root = doc.RootElement();
    if (!root) {
        ctx.error(0, "malformed XML: no root element");
        return nullptr;
    }
    if (const XMLElement* extra = root->NextSiblingElement()) {
        ctx.error(extra->GetLineNum(), "malformed XML: more than one root element (<" +
                                           shorten(extra->Name()) + "> after <" +
                                           shorten(root->Name()) + ">)");
        return nullptr;
    }
    if (std::strcmp(root->Name(), name) != 0) {
        ctx.error(root->GetLineNum(),
                  "root element is <" + shorten(root->Name()) + ">, expected <" + name + ">");
        return nullptr;
    }
    return root;
}

// ---- Attrs -----------------------------------------------------------------------------------

Attrs::Attrs(const FileCtx& f, const XMLElement* e, std::string ctx)
    : f_(f), e_(e), ctx_(std::move(ctx)) {}

int Attrs::line() const { return e_->GetLineNum(); }

int Attrs::line(const char* attr) const {
    const XMLAttribute* a = e_->FindAttribute(attr);
    return a ? a->GetLineNum() : e_->GetLineNum();
}

void Attrs::error(const std::string& msg) const { f_.error(line(), ctx_ + ": " + msg); }

void Attrs::error_at(const char* attr, const std::string& msg) const {
    f_.error(line(attr), ctx_ + ": " + msg);
}

const XMLAttribute* Attrs::find(const char* name) {
    known_.insert(name);
    return e_->FindAttribute(name);
}

bool Attrs::has(const char* name) const { return e_->FindAttribute(name) != nullptr; }

std::optional<std::string> Attrs::str(const char* name, bool required) {
    const XMLAttribute* a = find(name);
    if (!a) {
        if (required) error(std::string("missing attribute '") + name + "'");
        return std::nullopt;
    }
    return std::string(a->Value());
}

std::string Attrs::str_or(const char* name, std::string fallback) {
    auto v = str(name);
    return v ? *v : fallback;
}

std::optional<std::string> Attrs::id(const char* name, bool required) {
    auto v = str(name, required);
    if (v && !is_id(*v)) {
        error_at(name, "attribute '" + std::string(name) + "': " + quote(*v) +
                           " is not a valid id (" + id_rule() + ")");
    }
    return v;
}

std::optional<std::int64_t> Attrs::integer(const char* name, std::int64_t lo, std::int64_t hi,
                                           bool required) {
    auto v = str(name, required);
    if (!v) return std::nullopt;
    bool overflow = false;
    auto n = parse_int(*v, &overflow);
    std::string range = " is out of range (" + std::to_string(lo) + ".." + std::to_string(hi) + ")";
    if (!n && !overflow) {
        error_at(name,
                 "attribute '" + std::string(name) + "': " + quote(*v) + " is not an integer");
        return std::nullopt;
    }
    if (!n || *n < lo || *n > hi) {
        error_at(name, "attribute '" + std::string(name) + "': " + quote(*v) + range);
        return std::nullopt;
    }
    return n;
}

std::int64_t Attrs::integer_or(const char* name, std::int64_t lo, std::int64_t hi,
                               std::int64_t fallback) {
    auto v = integer(name, lo, hi);
    return v ? *v : fallback;
}

std::optional<bool> Attrs::boolean(const char* name, bool required) {
    auto v = str(name, required);
    if (!v) return std::nullopt;
    auto b = parse_bool(*v);
    if (!b) {
        error_at(name, "attribute '" + std::string(name) + "': " + quote(*v) +
                           " is not a boolean (true or false)");
    }
    return b;
}

bool Attrs::boolean_or(const char* name, bool fallback) {
    auto v = boolean(name);
    return v ? *v : fallback;
}

std::optional<double> Attrs::real(const char* name, double lo, double hi, bool required) {
    auto v = str(name, required);
    if (!v) return std::nullopt;
    auto d = parse_double(*v);
    if (!d) {
        error_at(name, "attribute '" + std::string(name) + "': " + quote(*v) +
                           " is not a decimal number");
        return std::nullopt;
    }
    if (*d < lo || *d > hi) {
        error_at(name, "attribute '" + std::string(name) + "': " + quote(*v) + " is out of range");
        return std::nullopt;
    }
    return d;
}

std::string Attrs::color(const char* name) {
    auto v = str(name);
    if (!v) return {};
    if (!is_color(*v)) {
        error_at(name, "attribute '" + std::string(name) + "': " + quote(*v) +
                           " is not a colour (#rrggbb)");
    }
    return *v;
}

std::optional<int> Attrs::choice(const char* name, const std::vector<std::string>& choices,
                                 bool required) {
    auto v = str(name, required);
    if (!v) return std::nullopt;
    for (std::size_t i = 0; i < choices.size(); ++i) {
        if (*v == choices[i]) return static_cast<int>(i);
    }
    std::string list;
    for (const auto& c : choices) list += (list.empty() ? "" : ", ") + c;
    error_at(name,
             "attribute '" + std::string(name) + "': " + quote(*v) + " is not one of " + list);
    return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> Attrs::take_rest() {
    std::vector<std::pair<std::string, std::string>> out;
    for (const XMLAttribute* a = e_->FirstAttribute(); a; a = a->Next()) {
        if (known_.insert(a->Name()).second) out.emplace_back(a->Name(), a->Value());
    }
    return out;
}

void Attrs::finish() {
    if (finished_) return;
    finished_ = true;
    for (const XMLAttribute* a = e_->FirstAttribute(); a; a = a->Next()) {
        if (!known_.count(a->Name())) {
            f_.error(a->GetLineNum(), ctx_ + ": unknown attribute " + quote(a->Name()));
        }
    }
}

// ---- children --------------------------------------------------------------------------------

void for_children(const FileCtx& f, const XMLElement* parent, const std::string& ctx, bool text_ok,
                  const std::function<bool(const XMLElement*)>& fn) {
    for (const XMLNode* n = parent->FirstChild(); n; n = n->NextSibling()) {
        if (const XMLElement* e = n->ToElement()) {
            if (!fn(e)) {
                f.error(e->GetLineNum(), ctx + ": unknown element <" + shorten(e->Name()) + ">");
            }
        } else if (const auto* t = n->ToText()) {
            if (!text_ok && !trim_ws(t->Value()).empty()) {
                f.error(t->GetLineNum(), ctx + ": unexpected text " + quote(trim_ws(t->Value())));
            }
        } else if (n->ToComment()) {
            // comments are fine anywhere
        } else {
            f.error(n->GetLineNum(), ctx + ": unexpected markup " + quote(n->Value()));
        }
    }
}

std::string leaf_text(const FileCtx& f, const XMLElement* e, const std::string& ctx) {
    std::string text;
    for_children(f, e, ctx, true, [](const XMLElement*) { return false; });
    for (const XMLNode* n = e->FirstChild(); n; n = n->NextSibling()) {
        if (const auto* t = n->ToText()) {
            if (!text.empty()) text += ' ';
            text += t->Value();
        }
    }
    return trim_ws(text);
}

}  // namespace vedette::data::detail
