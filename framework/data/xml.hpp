// Internal: the generic half of the loader — diagnostics, a lexical pre-check of the bytes,
// tinyxml2 parsing, and strict attribute/child readers that report every unknown, missing or
// malformed attribute with the element's context ("hex 0102: ...").
#pragma once

#include <tinyxml2.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "data/loader.hpp"

namespace vedette::data::detail {

// Collects diagnostics, stopping (with one final notice) after limits::kMaxErrors.
class Sink {
  public:
    void add(const std::string& file, int line, std::string message);
    bool empty() const { return list_.empty(); }
    std::size_t size() const { return list_.size(); }
    std::vector<Diagnostic> take();  // sorted: file read order, then line

  private:
    std::vector<Diagnostic> list_;
    bool full_ = false;
};

// One file being read: its display name and where its errors go.
struct FileCtx {
    Sink& sink;
    std::string name;
    void error(int line, std::string message) const { sink.add(name, line, std::move(message)); }
};

// ---- small value syntaxes ----
bool is_id(std::string_view s);  // [a-z][a-z0-9_]*, at most limits::kMaxIdLength
std::string id_rule();           // how to write an id, for messages
// Integer syntax: optional '-', decimal digits. nullopt if not that syntax; `overflow` is set
// when the syntax is fine but the value does not fit in int64.
std::optional<std::int64_t> parse_int(std::string_view s, bool* overflow = nullptr);
std::optional<bool> parse_bool(std::string_view s);             // true false 1 0
std::optional<double> parse_double(std::string_view s);         // finite decimal
bool is_color(std::string_view s);                              // #rrggbb
std::string shorten(std::string_view s, std::size_t max = 40);  // cut, "..." if cut
std::string quote(std::string_view s);                          // 'text', shortened for messages
std::vector<std::string> split_ws(std::string_view s);
std::string trim_ws(std::string_view s);

// Parses `bytes` as `ctx.name`, after checking encoding, characters and entity references.
// Returns null (and reports) when the document cannot be used at all.
std::unique_ptr<tinyxml2::XMLDocument> parse_xml(const FileCtx& ctx, const std::string& bytes);

// The document's single root element, checked to be named `name`; null (and reports) if not.
const tinyxml2::XMLElement* root_element(const FileCtx& ctx, const tinyxml2::XMLDocument& doc,
                                         const char* name);

// Reads the attributes of one element. Every accessor marks its attribute as known; finish()
// (also run by the destructor) reports the attributes nobody asked for.
class Attrs {
  public:
    Attrs(const FileCtx& f, const tinyxml2::XMLElement* e, std::string ctx);
    ~Attrs() { finish(); }
    Attrs(const Attrs&) = delete;
    Attrs& operator=(const Attrs&) = delete;

    const std::string& ctx() const { return ctx_; }
    // Contexts repeat in every message about the element: keep hostile ids from bloating them.
    void set_ctx(const std::string& ctx) { ctx_ = shorten(ctx, 100); }
    int line() const;
    int line(const char* attr) const;  // the attribute's line, else the element's
    void error(const std::string& msg) const;
    void error_at(const char* attr, const std::string& msg) const;

    bool has(const char* name) const;
    std::optional<std::string> str(const char* name, bool required = false);
    std::string str_or(const char* name, std::string fallback);
    // An identifier; returned even if malformed (after reporting) so that later references
    // to it do not cascade into more errors.
    std::optional<std::string> id(const char* name, bool required = false);
    std::optional<std::int64_t> integer(const char* name, std::int64_t lo, std::int64_t hi,
                                        bool required = false);
    std::int64_t integer_or(const char* name, std::int64_t lo, std::int64_t hi,
                            std::int64_t fallback);
    std::optional<bool> boolean(const char* name, bool required = false);
    bool boolean_or(const char* name, bool fallback);
    std::optional<double> real(const char* name, double lo, double hi, bool required = false);
    std::string color(const char* name);  // optional; "" when absent
    // One of `choices`; index, or nullopt (reported) when absent-and-required or wrong.
    std::optional<int> choice(const char* name, const std::vector<std::string>& choices,
                              bool required = false);
    // Attributes not asked for so far (name, value), which then count as known.
    std::vector<std::pair<std::string, std::string>> take_rest();
    void finish();

  private:
    const tinyxml2::XMLAttribute* find(const char* name);
    const FileCtx& f_;
    const tinyxml2::XMLElement* e_;
    std::string ctx_;
    std::set<std::string> known_;
    bool finished_ = false;
};

// Visits the element children of `parent`, reporting non-blank text (unless text_ok) and
// unsupported markup. `fn` returns false for an element it does not know, which is reported
// as "ctx: unknown element <name>".
void for_children(const FileCtx& f, const tinyxml2::XMLElement* parent, const std::string& ctx,
                  bool text_ok, const std::function<bool(const tinyxml2::XMLElement*)>& fn);

// The text content of a leaf element (whitespace collapsed); reports child elements.
std::string leaf_text(const FileCtx& f, const tinyxml2::XMLElement* e, const std::string& ctx);

}  // namespace vedette::data::detail
