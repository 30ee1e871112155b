#include "data/loader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <set>
#include <unordered_map>

#include "core/sha256.hpp"
#include "data/source.hpp"
#include "data/xml.hpp"

namespace vedette::data {

using namespace detail;
using tinyxml2::XMLDocument;
using tinyxml2::XMLElement;

std::string Diagnostic::str() const {
    if (line <= 0) return file + ": " + message;
    return file + ":" + std::to_string(line) + ": " + message;
}

namespace {

constexpr std::int64_t kMaxInt = limits::kMaxInt;
constexpr std::int64_t kMaxTurn = 100000;

bool named(const XMLElement* e, const char* name) { return std::strcmp(e->Name(), name) == 0; }

std::string first_at(const core::SourcePos& first, const std::string& file) {
    if (first.file == file) return "(first at line " + std::to_string(first.line) + ")";
    return "(first at " + first.file + ":" + std::to_string(first.line) + ")";
}

// Ids of one kind seen so far, to report duplicates with the first definition's position.
class IdSet {
  public:
    explicit IdSet(std::string kind) : kind_(std::move(kind)) {}
    // True if new; otherwise reports "duplicate <kind> 'id' (first at line N)".
    bool add(const FileCtx& f, int line, const std::string& id) {
        auto [it, fresh] = seen_.emplace(id, core::SourcePos{f.name, line});
        if (!fresh) {
            f.error(line,
                    "duplicate " + kind_ + " " + quote(id) + " " + first_at(it->second, f.name));
        }
        return fresh;
    }

  private:
    std::string kind_;
    std::map<std::string, core::SourcePos> seen_;
};

// Child elements that may appear at most once (sections of module.xml and map.xml).
class Sections {
  public:
    Sections(const FileCtx& f, std::string ctx, std::vector<std::string> names)
        : f_(f), ctx_(std::move(ctx)), names_(std::move(names)) {}
    bool take(const XMLElement* e) {
        if (std::find(names_.begin(), names_.end(), e->Name()) == names_.end()) return false;
        auto [it, fresh] = found_.emplace(e->Name(), e);
        if (!fresh) {
            f_.error(e->GetLineNum(), ctx_ + ": duplicate element <" + e->Name() +
                                          "> (first at line " +
                                          std::to_string(it->second->GetLineNum()) + ")");
        }
        return true;
    }
    const XMLElement* get(const std::string& name) const {
        auto it = found_.find(name);
        return it == found_.end() ? nullptr : it->second;
    }
    const XMLElement* require(const XMLElement* parent, const std::string& name) const {
        const XMLElement* e = get(name);
        if (!e) f_.error(parent->GetLineNum(), ctx_ + ": missing element <" + name + ">");
        return e;
    }

  private:
    const FileCtx& f_;
    std::string ctx_;
    std::vector<std::string> names_;
    std::map<std::string, const XMLElement*> found_;
};

// Id -> index maps over a module's vectors, rebuilt when a vector has grown. The loader looks
// ids up once per reference, and hostile files can hold 100,000s of definitions and
// references: linear ModuleDef lookups would make that quadratic.
template <class Vec>
class IdIndex {
  public:
    explicit IdIndex(const Vec& v) : v_(v) {}
    int operator()(const std::string& id) const {
        if (size_ != v_.size()) {
            map_.clear();
            for (std::size_t i = 0; i < v_.size(); ++i) map_.emplace(v_[i].id, static_cast<int>(i));
            size_ = v_.size();
        }
        auto it = map_.find(id);
        return it == map_.end() ? -1 : it->second;
    }

  private:
    const Vec& v_;
    mutable std::unordered_map<std::string, int> map_;
    mutable std::size_t size_ = static_cast<std::size_t>(-1);
};

struct Lookups {
    explicit Lookups(const core::ModuleDef& m)
        : m(m),
          side(m.sides),
          phase(m.phases),
          track(m.tracks),
          deck(m.decks),
          counter_type(m.counter_types),
          box(m.map.boxes),
          terrain(m.map.terrain_types),
          hexside_type(m.map.hexside_types),
          feature(m.map.feature_types),
          line(m.map.lines) {}
    int face(int type, const std::string& id) const {
        auto& idx = faces_[type];
        if (!idx) idx.emplace(m.counter_types[static_cast<std::size_t>(type)].faces);
        return (*idx)(id);
    }

    const core::ModuleDef& m;
    IdIndex<std::vector<core::SideDef>> side;
    IdIndex<std::vector<core::PhaseDef>> phase;
    IdIndex<std::vector<core::TrackDef>> track;
    IdIndex<std::vector<core::DeckDef>> deck;
    IdIndex<std::vector<core::CounterType>> counter_type;
    IdIndex<std::vector<core::BoxDef>> box;
    IdIndex<std::vector<core::TerrainType>> terrain;
    IdIndex<std::vector<core::HexsideType>> hexside_type;
    IdIndex<std::vector<core::FeatureType>> feature;
    IdIndex<std::vector<core::LineDef>> line;

  private:
    mutable std::map<int, std::optional<IdIndex<std::vector<core::FaceDef>>>> faces_;
};

std::string list_words(const std::vector<std::string>& words) {
    std::string s;
    for (const auto& w : words) s += (s.empty() ? "" : ", ") + w;
    return s;
}

std::vector<std::string> direction_names(hex::Orientation o) {
    std::vector<std::string> names;
    for (int d = 0; d < 6; ++d) names.emplace_back(hex::direction_name(d, o));
    return names;
}

// A printed hex label of `map`, or a message saying why it is not one. `check_board` needs the
// map's hexes (and index()) to be complete.
std::optional<hex::Hex> resolve_label(const core::MapDef& map, const std::string& text,
                                      bool check_board, std::string& why) {
    auto lab = map.label_offset(text);
    if (!lab) {
        why = "bad hex label " + quote(text) + " (labels look like " + map.offset_label({0, 0}, 1) +
              ")";
        return std::nullopt;
    }
    if (lab->offset.col < 0 || lab->offset.col >= map.cols || lab->offset.row < 0 ||
        lab->offset.row >= map.rows) {
        why = "hex " + quote(text) + " is off the map (" + std::to_string(map.cols) +
              " columns x " + std::to_string(map.rows) + " rows)";
        return std::nullopt;
    }
    hex::Hex h = hex::from_offset(lab->offset, map.grid);
    if (check_board && map.numbering.scheme == hex::Numbering::Scheme::RowLettersColBoard) {
        const core::HexDef* d = map.find(h);
        if (d && d->board != 0 && lab->board != 0 && d->board != lab->board) {
            why = "hex " + quote(text) + " is on board " + std::to_string(d->board);
            return std::nullopt;
        }
    }
    return h;
}

// Reads `value=` (integer), `text=` or `bool=`: exactly one. Used by <stat>, <var>, <prop>.
std::optional<core::Value> typed_value(Attrs& a, bool allow_bool) {
    int given = a.has("value") + a.has("text") + (allow_bool && a.has("bool"));
    auto v = a.integer("value", -kMaxInt, kMaxInt);
    auto t = a.str("text");
    std::optional<bool> b;
    if (allow_bool) b = a.boolean("bool");
    if (given != 1) {
        a.error(allow_bool ? "give exactly one of value (integer), text or bool"
                           : "give exactly one of value (integer) or text");
        return std::nullopt;
    }
    if (v) return core::Value(*v);
    if (t) return core::Value(*t);
    if (b) return core::Value(*b);
    return std::nullopt;  // malformed, already reported
}

// What a scenario may refer to, and whether those parts loaded well enough to check against
// (a broken map.xml should not make every placement an error too).
struct ScenarioEnv {
    const core::ModuleDef& m;
    const Lookups& lk;
    bool map_ok = true;
    bool counters_ok = true;
    bool cards_ok = true;
};

core::ScenarioDef read_scenario(const FileCtx& f, const XMLElement* root, const ScenarioEnv& env) {
    const core::ModuleDef& m = env.m;
    const Lookups& lk = env.lk;
    core::ScenarioDef sc;
    sc.pos = {f.name, root->GetLineNum()};
    {
        Attrs a(f, root, "<scenario>");
        sc.id = a.id("id", true).value_or("");
        if (!sc.id.empty()) a.set_ctx("scenario " + sc.id);
        sc.name = a.str_or("name", sc.id);
        if (auto s = a.id("first-side")) {
            sc.first_side = *s;
            if (lk.side(*s) < 0) a.error_at("first-side", "unknown side " + quote(*s));
        } else if (!m.sides.empty()) {
            sc.first_side = m.sides.front().id;
        }
        sc.turn = static_cast<int>(a.integer_or("turn", m.turn_first, m.turn_last, m.turn_first));
        if (auto p = a.id("phase")) {
            sc.phase = *p;
            if (lk.phase(*p) < 0) a.error_at("phase", "unknown phase " + quote(*p));
        } else if (!m.phases.empty()) {
            sc.phase = m.phases.front().id;
        }
    }
    const std::string ctx = sc.id.empty() ? "<scenario>" : shorten("scenario " + sc.id, 100);
    IdSet piece_ids("piece id"), var_names("var"), tracks("track"), decks("deck");
    std::int64_t pieces = 0;
    bool too_many = false;
    int descriptions = 0;

    for_children(f, root, ctx, false, [&](const XMLElement* e) {
        if (named(e, "description")) {
            if (descriptions++) f.error(e->GetLineNum(), ctx + ": duplicate element <description>");
            Attrs a(f, e, "<description>");
            sc.description = leaf_text(f, e, "<description>");
            return true;
        }
        if (named(e, "place")) {
            core::Placement p;
            p.pos = {f.name, e->GetLineNum()};
            Attrs a(f, e, "place");
            auto type = a.id("type", true);
            auto id = a.id("id");
            if (id) {
                p.id = *id;
                a.set_ctx("place " + *id);
                piece_ids.add(f, a.line("id"), *id);
            }
            const core::CounterType* ct = nullptr;
            int ti = -1;
            if (type) {
                p.type = *type;
                ti = lk.counter_type(*type);
                if (ti >= 0) {
                    ct = &m.counter_types[static_cast<std::size_t>(ti)];
                } else if (env.counters_ok) {
                    a.error_at("type", "unknown counter type " + quote(*type));
                }
            }
            p.count = static_cast<int>(a.integer_or("count", 1, limits::kMaxPlaceCount, 1));
            if (id && p.count != 1) a.error_at("count", "count must be 1 when id is given");
            if (auto at = a.str("at")) {
                p.at = *at;
                if (at->compare(0, 4, "box:") == 0) {
                    std::string box = at->substr(4);
                    if (lk.box(box) < 0 && env.map_ok) {
                        a.error_at("at", "unknown box " + quote(box));
                    }
                } else if (env.map_ok) {
                    std::string why;
                    if (!resolve_label(m.map, *at, true, why)) a.error_at("at", why);
                }
            }
            if (auto face = a.id("face")) {
                p.face = *face;
                if (ct && lk.face(ti, *face) < 0) {
                    a.error_at("face", "unknown face " + quote(*face) + " of counter type " +
                                           quote(ct->id));
                }
            } else if (ct && !ct->faces.empty()) {
                p.face = ct->faces.front().id;
            }
            if (auto owner = a.id("owner")) {
                p.owner = *owner;
                if (lk.side(*owner) < 0) a.error_at("owner", "unknown side " + quote(*owner));
            } else if (ct) {
                p.owner = ct->side;
            }
            p.hidden = a.boolean_or("hidden", false);
            IdSet props("prop");
            for_children(f, e, a.ctx(), false, [&](const XMLElement* c) {
                if (!named(c, "prop")) return false;
                Attrs pa(f, c, a.ctx() + ", prop");
                auto name = pa.id("name", true);
                if (name) pa.set_ctx(a.ctx() + ", prop " + *name);
                auto v = typed_value(pa, true);
                if (name && props.add(f, pa.line("name"), *name) && v) p.props[*name] = *v;
                return true;
            });
            pieces += p.count;
            if (pieces > limits::kMaxPieces && !too_many) {
                too_many = true;
                a.error("the scenario has more than " + std::to_string(limits::kMaxPieces) +
                        " pieces (the limit)");
            }
            sc.placements.push_back(std::move(p));
            return true;
        }
        if (named(e, "var")) {
            Attrs a(f, e, "var");
            auto name = a.id("name", true);
            if (name) a.set_ctx("var " + *name);
            auto v = typed_value(a, true);
            if (name && var_names.add(f, a.line("name"), *name) && v) sc.vars[*name] = *v;
            return true;
        }
        if (named(e, "track")) {
            Attrs a(f, e, "track");
            auto id = a.id("id", true);
            if (!id) {
                a.str("value");
                return true;
            }
            a.set_ctx("track " + *id);
            int ti = lk.track(*id);
            const core::TrackDef* t = ti < 0 ? nullptr : &m.tracks[static_cast<std::size_t>(ti)];
            if (!t) a.error_at("id", "unknown track " + quote(*id));
            auto v = t ? a.integer("value", t->min, t->max, true)
                       : a.integer("value", -kMaxInt, kMaxInt, true);
            if (tracks.add(f, a.line("id"), *id) && v && t) sc.tracks[*id] = *v;
            return true;
        }
        if (named(e, "deck")) {
            Attrs a(f, e, "deck");
            auto id = a.id("id", true);
            bool shuffle = a.boolean_or("shuffle", false);
            if (!id) return true;
            a.set_ctx("deck " + *id);
            if (lk.deck(*id) < 0 && env.cards_ok) a.error_at("id", "unknown deck " + quote(*id));
            if (decks.add(f, a.line("id"), *id)) sc.decks.emplace_back(*id, shuffle);
            return true;
        }
        return false;
    });
    return sc;
}

class ModuleLoader {
  public:
    ModuleLoader(const Source& src, std::string dir) : src_(src), dir_(std::move(dir)) {
        while (dir_.size() > 1 && dir_.back() == '/') dir_.pop_back();
    }

    LoadResult run();

  private:
    struct Opened {
        FileCtx ctx;
        std::unique_ptr<XMLDocument> doc;
        const XMLElement* root = nullptr;
    };

    std::string display(const std::string& rel) const {
        return dir_.empty() ? rel : dir_ + "/" + rel;
    }
    // Opens module file `rel`, whose absence is reported at `ref` (the module.xml line naming
    // it) as "<what> file 'rel' not found". Null root when unusable (already reported).
    Opened open(const std::string& rel, const char* root_name, const FileCtx* ref_file,
                int ref_line, const std::string& ref_ctx, const std::string& what);
    bool check_path(const Attrs& a, const char* attr, const std::string& rel);

    void read_module(const Opened& o);
    void read_map(const Opened& o);
    void read_map_art(const FileCtx& f, const tinyxml2::XMLElement* e);
    void read_counters(const Opened& o);
    void read_tables(const Opened& o);
    void read_cards(const Opened& o);

    const Source& src_;
    std::string dir_;
    Sink sink_;
    core::ModuleDef m_;
    Lookups lk_{m_};

    // From module.xml: the files to read next, with where they were named.
    struct FileRef {
        std::string rel;
        int line = 0;
    };
    std::optional<FileRef> map_file_, counters_file_, tables_file_, cards_file_;
    std::vector<FileRef> scenario_files_;
    std::optional<FileRef> rules_file_, tests_dir_;
    bool map_ok_ = false, counters_ok_ = false, cards_ok_ = true;
};

ModuleLoader::Opened ModuleLoader::open(const std::string& rel, const char* root_name,
                                        const FileCtx* ref_file, int ref_line,
                                        const std::string& ref_ctx, const std::string& what) {
    Opened o{FileCtx{sink_, display(rel)}, nullptr, nullptr};
    FileRead r = src_.read(rel, limits::kMaxFileBytes);
    switch (r.status) {
        case FileRead::Status::NotFound:
            if (ref_file) {
                ref_file->error(ref_line,
                                ref_ctx + ": " + what + " file " + quote(rel) + " not found");
            } else {
                o.ctx.error(0, "file not found");
            }
            return o;
        case FileRead::Status::TooLarge:
            o.ctx.error(0, "file is too large (" + std::to_string(r.size) +
                               " bytes; the limit is " + std::to_string(limits::kMaxFileBytes) +
                               ")");
            return o;
        case FileRead::Status::Unreadable:
            o.ctx.error(0, "cannot read the file");
            return o;
        case FileRead::Status::Ok:
            break;
    }
    o.doc = parse_xml(o.ctx, r.bytes);
    if (o.doc) o.root = root_element(o.ctx, *o.doc, root_name);
    return o;
}

bool ModuleLoader::check_path(const Attrs& a, const char* attr, const std::string& rel) {
    if (safe_path(rel)) return true;
    a.error_at(attr, "path " + quote(rel) +
                         " must be relative and stay inside the module folder (no '..', no "
                         "leading '/', no '\\')");
    return false;
}

LoadResult ModuleLoader::run() {
    Opened mod = open("module.xml", "module", nullptr, 0, "", "");
    if (!mod.root) return {nullptr, sink_.take()};  // nothing else can be found without it
    m_.dir = dir_;
    read_module(mod);

    if (map_file_) {
        Opened o = open(map_file_->rel, "map", &mod.ctx, map_file_->line, "<files>", "map");
        if (o.root) read_map(o);
    }
    if (counters_file_) {
        Opened o = open(counters_file_->rel, "counters", &mod.ctx, counters_file_->line, "<files>",
                        "counters");
        if (o.root) read_counters(o);
    }
    if (tables_file_) {
        Opened o =
            open(tables_file_->rel, "tables", &mod.ctx, tables_file_->line, "<files>", "tables");
        if (o.root) read_tables(o);
    }
    if (cards_file_) {
        Opened o = open(cards_file_->rel, "cards", &mod.ctx, cards_file_->line, "<files>", "cards");
        cards_ok_ = o.root != nullptr;
        if (o.root) read_cards(o);
    }
    if (map_ok_) m_.map.index();

    ScenarioEnv env{m_, lk_, map_ok_, counters_ok_, cards_ok_};
    IdSet scenario_ids("scenario");
    for (const auto& ref : scenario_files_) {
        Opened o = open(ref.rel, "scenario", &mod.ctx, ref.line, "<scenario>", "scenario");
        if (!o.root) continue;
        core::ScenarioDef sc = read_scenario(o.ctx, o.root, env);
        if (!sc.id.empty() && scenario_ids.add(o.ctx, o.root->GetLineNum(), sc.id)) {
            m_.scenarios.push_back(std::move(sc));
        }
    }

    if (rules_file_ && safe_path(rules_file_->rel) && !src_.is_file(rules_file_->rel)) {
        mod.ctx.error(rules_file_->line,
                      "<rules>: rules file " + quote(rules_file_->rel) + " not found");
    }
    if (tests_dir_ && safe_path(tests_dir_->rel) && !src_.is_dir(tests_dir_->rel)) {
        mod.ctx.error(tests_dir_->line,
                      "<tests>: tests folder " + quote(tests_dir_->rel) + " not found");
    }

    if (!sink_.empty()) return {nullptr, sink_.take()};

    core::Sha256 hash;
    auto hash_file = [&](const std::string& rel, const std::string& bytes) {
        // path NUL size(8 bytes LE) bytes, per file
        hash.update(rel);
        hash.update("\0", 1);
        std::uint64_t n = bytes.size();
        unsigned char len[8];
        for (int i = 0; i < 8; ++i) len[i] = static_cast<unsigned char>(n >> (8 * i));
        hash.update(len, 8);
        hash.update(bytes);
    };
    bool hashed = src_.for_each_file(limits::kMaxHashedFiles, hash_file);
    // The shared rules libraries are part of the rules a save was played with: a change to
    // them must change the module's hash too (paths "../<folder>/<file>").
    for (const auto& lib : m_.rule_libraries) {
        hashed = hashed && src_.for_each_file_in("../" + lib.folder, limits::kMaxHashedFiles,
                                                 hash_file);
    }
    if (!hashed) {
        sink_.add(dir_, 0,
                  "cannot read every file of the module folder and its rules libraries to "
                  "compute its content hash "
                  "(at most " +
                      std::to_string(limits::kMaxHashedFiles) + " files)");
        return {nullptr, sink_.take()};
    }
    m_.content_hash = hash.hex_digest();
    return {std::make_shared<const core::ModuleDef>(std::move(m_)), {}};
}

// ---- module.xml ------------------------------------------------------------------------------

void ModuleLoader::read_module(const Opened& o) {
    const FileCtx& f = o.ctx;
    {
        Attrs a(f, o.root, "module");
        m_.id = a.id("id", true).value_or("");
        if (auto v = a.str("version", true)) {
            m_.version = *v;
            bool ok = !v->empty() && v->size() <= 32;
            for (char c : *v) {
                if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' ||
                      c == '+')) {
                    ok = false;
                }
            }
            if (!ok) {
                a.error_at("version", "attribute 'version': " + quote(*v) +
                                          " is not a version (letters, digits, '.', '-', '+')");
            }
        }
        m_.name = a.str("name", true).value_or("");
        if (auto api = a.integer("api", 0, kMaxInt)) {
            m_.api = static_cast<int>(*api);
            if (*api != 1) {
                a.error_at("api", "unsupported api " + std::to_string(*api) +
                                      " (this Vedette reads api 1)");
            }
        }
    }
    Sections sec(f, "module",
                 {"description", "sides", "phases", "turns", "options", "tracks", "files",
                  "scenarios", "rules", "tests"});
    for_children(f, o.root, "module", false, [&](const XMLElement* e) { return sec.take(e); });

    if (const XMLElement* e = sec.get("description")) {
        Attrs a(f, e, "<description>");
        m_.description = leaf_text(f, e, "<description>");
    }
    if (const XMLElement* e = sec.require(o.root, "sides")) {
        Attrs(f, e, "<sides>").finish();
        IdSet ids("side");
        for_children(f, e, "<sides>", false, [&](const XMLElement* c) {
            if (!named(c, "side")) return false;
            Attrs a(f, c, "<side>");
            core::SideDef s;
            s.id = a.id("id", true).value_or("");
            if (!s.id.empty()) a.set_ctx("side " + s.id);
            s.name = a.str_or("name", s.id);
            s.color = a.color("color");
            if (!s.id.empty() && ids.add(f, a.line("id"), s.id)) m_.sides.push_back(s);
            return true;
        });
        if (m_.sides.empty()) f.error(e->GetLineNum(), "<sides>: no <side>");
    }
    if (const XMLElement* e = sec.require(o.root, "phases")) {
        Attrs(f, e, "<phases>").finish();
        IdSet ids("phase");
        for_children(f, e, "<phases>", false, [&](const XMLElement* c) {
            if (!named(c, "phase")) return false;
            Attrs a(f, c, "<phase>");
            core::PhaseDef p;
            p.id = a.id("id", true).value_or("");
            if (!p.id.empty()) a.set_ctx("phase " + p.id);
            p.name = a.str_or("name", p.id);
            if (!p.id.empty() && ids.add(f, a.line("id"), p.id)) m_.phases.push_back(p);
            return true;
        });
        if (m_.phases.empty()) f.error(e->GetLineNum(), "<phases>: no <phase>");
    }
    if (const XMLElement* e = sec.require(o.root, "turns")) {
        Attrs a(f, e, "<turns>");
        auto first = a.integer("first", 0, kMaxTurn, true);
        auto last = a.integer("last", 0, kMaxTurn, true);
        for_children(f, e, "<turns>", false, [](const XMLElement*) { return false; });
        if (first && last && *last < *first) {
            a.error("last turn " + std::to_string(*last) + " is before the first turn " +
                    std::to_string(*first));
        } else if (first && last) {
            m_.turn_first = static_cast<int>(*first);
            m_.turn_last = static_cast<int>(*last);
        }
    }
    if (const XMLElement* e = sec.get("options")) {
        Attrs(f, e, "<options>").finish();
        IdSet ids("option");
        for_children(f, e, "<options>", false, [&](const XMLElement* c) {
            if (!named(c, "option")) return false;
            Attrs a(f, c, "<option>");
            core::OptionDef op;
            op.id = a.id("id", true).value_or("");
            if (!op.id.empty()) a.set_ctx("option " + op.id);
            op.name = a.str_or("name", op.id);
            op.default_on = a.boolean_or("default", false);
            if (!op.id.empty() && ids.add(f, a.line("id"), op.id)) m_.options.push_back(op);
            return true;
        });
    }
    if (const XMLElement* e = sec.get("tracks")) {
        Attrs(f, e, "<tracks>").finish();
        IdSet ids("track");
        for_children(f, e, "<tracks>", false, [&](const XMLElement* c) {
            if (!named(c, "track")) return false;
            Attrs a(f, c, "<track>");
            core::TrackDef t;
            t.id = a.id("id", true).value_or("");
            if (!t.id.empty()) a.set_ctx("track " + t.id);
            t.name = a.str_or("name", t.id);
            auto lo = a.integer("min", -kMaxInt, kMaxInt, true);
            auto hi = a.integer("max", -kMaxInt, kMaxInt, true);
            auto init = a.integer("initial", -kMaxInt, kMaxInt);
            t.min = lo.value_or(0);
            t.max = hi.value_or(0);
            t.initial = init.value_or(t.min);
            bool ok = lo && hi && (!a.has("initial") || init);
            if (ok && t.max < t.min) {
                a.error("max " + std::to_string(t.max) + " is below min " + std::to_string(t.min));
                ok = false;
            } else if (ok && (t.initial < t.min || t.initial > t.max)) {
                a.error_at("initial", "initial " + std::to_string(t.initial) +
                                          " is outside min..max (" + std::to_string(t.min) + ".." +
                                          std::to_string(t.max) + ")");
            }
            if (!t.id.empty() && ids.add(f, a.line("id"), t.id)) m_.tracks.push_back(t);
            return true;
        });
    }
    if (const XMLElement* e = sec.require(o.root, "files")) {
        Attrs a(f, e, "<files>");
        auto ref = [&](const char* attr, bool required, std::optional<FileRef>& out) {
            if (auto v = a.str(attr, required); v && check_path(a, attr, *v)) {
                out = FileRef{*v, a.line(attr)};
            }
        };
        ref("map", true, map_file_);
        ref("counters", true, counters_file_);
        ref("tables", false, tables_file_);
        ref("cards", false, cards_file_);
        for_children(f, e, "<files>", false, [](const XMLElement*) { return false; });
    }
    if (const XMLElement* e = sec.get("scenarios")) {
        Attrs(f, e, "<scenarios>").finish();
        IdSet files("scenario file");
        for_children(f, e, "<scenarios>", false, [&](const XMLElement* c) {
            if (!named(c, "scenario")) return false;
            Attrs a(f, c, "<scenario>");
            auto file = a.str("file", true);
            if (file && check_path(a, "file", *file) && files.add(f, a.line("file"), *file)) {
                if (scenario_files_.size() >= static_cast<std::size_t>(limits::kMaxScenarios)) {
                    if (scenario_files_.size() == limits::kMaxScenarios) {
                        a.error("more than " + std::to_string(limits::kMaxScenarios) +
                                " scenarios (the limit)");
                    }
                    scenario_files_.push_back({});  // counts, never read
                    return true;
                }
                scenario_files_.push_back({*file, a.line("file")});
            }
            return true;
        });
        scenario_files_.resize(
            std::min(scenario_files_.size(), static_cast<std::size_t>(limits::kMaxScenarios)));
    }
    if (const XMLElement* e = sec.require(o.root, "rules")) {
        Attrs a(f, e, "<rules>");
        if (auto v = a.str("main", true); v && check_path(a, "main", *v)) {
            m_.rules_main = *v;
            rules_file_ = FileRef{*v, a.line("main")};
        }
        for_children(f, e, "<rules>", false, [&](const XMLElement* c) {
            if (std::string_view(c->Name()) != "library") return false;
            // A shared rules library in a sibling folder of modules/ (require("id.file")).
            Attrs la(f, c, "<library>");
            auto id = la.id("id", true);
            auto folder = la.str("folder", true);
            if (!id || !folder) return true;
            if (!is_id(*folder)) {
                la.error_at("folder", "library folder " + quote(*folder) +
                                          " must be the name of a sibling module folder");
                return true;
            }
            for (const auto& lib : m_.rule_libraries)
                if (lib.id == *id) la.error_at("id", "duplicate library id " + quote(*id));
            if (!src_.is_dir("../" + *folder))
                la.error_at("folder",
                            "library folder " + quote(*folder) + " not found next to the module");
            m_.rule_libraries.push_back({*id, *folder});
            return true;
        });
    }
    if (const XMLElement* e = sec.get("tests")) {
        Attrs a(f, e, "<tests>");
        if (auto v = a.str("dir", true); v && check_path(a, "dir", *v)) {
            m_.tests_dir = *v;
            tests_dir_ = FileRef{*v, a.line("dir")};
        }
        for_children(f, e, "<tests>", false, [](const XMLElement*) { return false; });
    }
}

// ---- map.xml ---------------------------------------------------------------------------------

void ModuleLoader::read_map(const Opened& o) {
    const FileCtx& f = o.ctx;
    core::MapDef& map = m_.map;
    bool dims_ok = false;
    {
        Attrs a(f, o.root, "map");
        map.id = a.id("id", true).value_or("");
        map.name = a.str_or("name", map.id);
        map.grid.orientation = a.choice("orientation", {"flat", "pointy"}).value_or(0) == 0
                                   ? hex::Orientation::FlatTop
                                   : hex::Orientation::PointyTop;
        map.grid.parity = a.choice("parity", {"odd", "even"}).value_or(0) == 0 ? hex::Parity::Odd
                                                                               : hex::Parity::Even;
        // Refuse absurd sizes before allocating anything, naming the limit.
        auto side = [&](const char* attr, const char* what) -> std::optional<std::int64_t> {
            auto text = a.str(attr, true);
            if (!text) return std::nullopt;
            bool overflow = false;
            auto v = parse_int(*text, &overflow);
            if (!v && !overflow) {
                a.error_at(attr, std::string("attribute '") + attr + "': " + quote(*text) +
                                     " is not an integer");
            } else if (v && *v < 1) {
                a.error_at(attr, std::string("attribute '") + attr + "': " + quote(*text) +
                                     " is out of range (1.." + std::to_string(limits::kMaxMapSide) +
                                     ")");
            } else if (!v || *v > limits::kMaxMapSide) {
                a.error_at(attr, std::string("attribute '") + attr + "': " + quote(*text) +
                                     " exceeds the limit of " +
                                     std::to_string(limits::kMaxMapSide) + " " + what);
            } else {
                return v;
            }
            return std::nullopt;
        };
        auto cols = side("cols", "columns");
        auto rows = side("rows", "rows");
        if (cols && rows) {
            if (*cols * *rows > limits::kMaxHexes) {
                a.error("a map of " + std::to_string(*cols) + " x " + std::to_string(*rows) +
                        " = " + std::to_string(*cols * *rows) + " hexes exceeds the limit of " +
                        std::to_string(limits::kMaxHexes) + " hexes");
            } else {
                map.cols = static_cast<int>(*cols);
                map.rows = static_cast<int>(*rows);
                dims_ok = true;
            }
        }
    }
    map.numbering.rows = map.rows;
    Sections sec(f, "map",
                 {"numbering", "georef", "art", "terrain-types", "hexside-types", "hex-features",
                  "hexes", "hexsides", "lines", "boxes", "regions"});
    for_children(f, o.root, "map", false, [&](const XMLElement* e) { return sec.take(e); });

    if (const XMLElement* e = sec.get("numbering")) {
        Attrs a(f, e, "<numbering>");
        auto& n = map.numbering;
        bool letters = a.choice("scheme", {"colrow", "row-letters-col-board"}).value_or(0) == 1;
        n.scheme =
            letters ? hex::Numbering::Scheme::RowLettersColBoard : hex::Numbering::Scheme::ColRow;
        n.first_col = static_cast<int>(a.integer_or("first-col", 0, 9999, 1));
        n.first_row = static_cast<int>(a.integer_or("first-row", 0, 9999, 1));
        n.col_digits = static_cast<int>(a.integer_or("col-digits", 1, 5, 2));
        n.row_digits = static_cast<int>(a.integer_or("row-digits", 1, 5, 2));
        n.letters_from_south = a.boolean_or("letters-from-south", true);
        if (auto step = a.integer("col-step", -1, 1)) {
            if (*step == 0) {
                a.error_at("col-step", "col-step must be 1 or -1");
            } else {
                map.col_step = static_cast<int>(*step);
            }
        }
        for_children(f, e, "<numbering>", false, [](const XMLElement*) { return false; });
    }
    if (const XMLElement* e = sec.get("georef")) {
        Attrs a(f, e, "<georef>");
        core::GeoRef g;
        a.choice("projection", {"laea"}, true);
        g.projection = "laea";
        g.lat0 = a.real("lat0", -90, 90, true).value_or(0);
        g.lon0 = a.real("lon0", -180, 180, true).value_or(0);
        g.hex_km = a.real("hex-km", 0.001, 100000, true).value_or(1);
        g.origin_x_km = a.real("origin-x-km", -1e6, 1e6, true).value_or(0);
        g.origin_y_km = a.real("origin-y-km", -1e6, 1e6, true).value_or(0);
        for_children(f, e, "<georef>", false, [](const XMLElement*) { return false; });
        map.georef = g;
    }

    // Type lists: <terrain-types>, <hexside-types>, <hex-features>.
    auto read_types = [&](const char* section, const char* elem, const char* kind, auto add) {
        const XMLElement* e = sec.get(section);
        if (!e) return;
        Attrs(f, e, std::string("<") + section + ">").finish();
        IdSet ids(kind);
        for_children(f, e, std::string("<") + section + ">", false, [&](const XMLElement* c) {
            if (!named(c, elem)) return false;
            Attrs a(f, c, std::string("<") + elem + ">");
            auto id = a.id("id", true);
            if (id) a.set_ctx(std::string(kind) + " " + *id);
            bool fresh = id && ids.add(f, a.line("id"), *id);
            add(a, id.value_or(""), fresh);
            return true;
        });
    };
    sec.require(o.root, "terrain-types");
    read_types("terrain-types", "terrain", "terrain",
               [&](Attrs& a, const std::string& id, bool fresh) {
                   core::TerrainType t;
                   t.id = id;
                   t.name = a.str_or("name", id);
                   t.color = a.color("color");
                   t.symbol = a.str_or("symbol", "");
                   t.playable = a.boolean_or("playable", true);
                   if (fresh) map.terrain_types.push_back(t);
               });
    if (const XMLElement* e = sec.get("terrain-types"); e && map.terrain_types.empty()) {
        f.error(e->GetLineNum(), "<terrain-types>: no <terrain>");
    }
    read_types("hexside-types", "hexside-type", "hexside type",
               [&](Attrs& a, const std::string& id, bool fresh) {
                   core::HexsideType t;
                   t.id = id;
                   t.name = a.str_or("name", id);
                   t.color = a.color("color");
                   if (fresh) map.hexside_types.push_back(t);
               });
    read_types("hex-features", "feature", "feature",
               [&](Attrs& a, const std::string& id, bool fresh) {
                   core::FeatureType t;
                   t.id = id;
                   t.name = a.str_or("name", id);
                   if (fresh) map.feature_types.push_back(t);
               });

    // Named lines (before hexsides, which name them).
    if (const XMLElement* e = sec.get("lines")) {
        Attrs(f, e, "<lines>").finish();
        IdSet ids("line");
        for_children(f, e, "<lines>", false, [&](const XMLElement* c) {
            if (!named(c, "line")) return false;
            Attrs a(f, c, "<line>");
            core::LineDef l;
            l.id = a.id("id", true).value_or("");
            if (!l.id.empty()) a.set_ctx("line " + l.id);
            l.name = a.str_or("name", l.id);
            if (auto k = a.id("kind")) {
                l.kind = *k;
                if (lk_.hexside_type(*k) < 0) {
                    a.error_at("kind", "unknown hexside type " + quote(*k));
                }
            }
            for_children(f, c, a.ctx(), false, [](const XMLElement*) { return false; });
            if (!l.id.empty() && ids.add(f, a.line("id"), l.id)) map.lines.push_back(l);
            return true;
        });
    }

    if (const XMLElement* e = sec.get("boxes")) {
        Attrs(f, e, "<boxes>").finish();
        IdSet ids("box");
        for_children(f, e, "<boxes>", false, [&](const XMLElement* c) {
            if (!named(c, "box")) return false;
            Attrs a(f, c, "<box>");
            core::BoxDef b;
            b.id = a.id("id", true).value_or("");
            if (!b.id.empty()) a.set_ctx("box " + b.id);
            b.name = a.str_or("name", b.id);
            if (auto owner = a.id("owner")) {
                b.owner = *owner;
                if (lk_.side(*owner) < 0) a.error_at("owner", "unknown side " + quote(*owner));
            }
            b.is_private = a.boolean_or("private", false);
            if (b.is_private && !a.has("owner")) a.error("a private box needs an owner");
            b.hide_count = a.boolean_or("hide-count", false);
            if (b.hide_count && !b.is_private)
                a.error_at("hide-count", "hide-count needs private=\"true\"");
            if (!b.id.empty() && ids.add(f, a.line("id"), b.id)) map.boxes.push_back(b);
            return true;
        });
    }

    // Resolves a list of ids into sorted indices, reporting unknown and repeated ones.
    auto id_list = [&](Attrs& a, const char* attr, const std::string& value, const char* kind,
                       auto index_of) {
        std::set<int> out;
        for (const auto& w : split_ws(value)) {
            int i = index_of(w);
            if (i < 0) {
                a.error_at(attr, "unknown " + std::string(kind) + " " + quote(w));
            } else if (!out.insert(i).second) {
                a.error_at(attr, std::string(kind) + " " + quote(w) + " listed twice");
            }
        }
        return std::vector<int>(out.begin(), out.end());  // sorted
    };

    // Every hex must have a label that reads back as itself (rows beyond row-digits, or more
    // rows than letters, would read as another hex or not at all).
    for (int c = 0; c < map.cols && dims_ok; ++c) {
        for (int r = 0; r < map.rows && dims_ok; ++r) {
            std::string text = map.offset_label({c, r});
            auto back = map.label_offset(text);
            if (!back || back->offset != hex::Offset{c, r}) {
                const XMLElement* ne = sec.get("numbering");
                f.error(ne ? ne->GetLineNum() : o.root->GetLineNum(),
                        "<numbering>: offset column " + std::to_string(c) + ", row " +
                            std::to_string(r) + " would print as " + quote(text) +
                            ", which does not read back as the same hex");
                dims_ok = false;
            }
        }
    }

    const XMLElement* hexes_el = sec.require(o.root, "hexes");
    if (hexes_el && dims_ok) {
        Attrs ha(f, hexes_el, "<hexes>");
        int def_terrain = 0;
        if (auto d = ha.id("default-terrain", true)) {
            def_terrain = lk_.terrain(*d);
            if (def_terrain < 0) {
                ha.error_at("default-terrain", "unknown terrain " + quote(*d));
                def_terrain = 0;
            }
        }
        ha.finish();
        // Every hex of the rectangle exists; <hex> entries override the default.
        std::size_t n = static_cast<std::size_t>(map.cols) * static_cast<std::size_t>(map.rows);
        std::vector<core::HexDef> hexes(n);
        std::vector<int> first_line(n, 0);
        for (int c = 0; c < map.cols; ++c) {
            for (int r = 0; r < map.rows; ++r) {
                auto& h = hexes[static_cast<std::size_t>(c * map.rows + r)];
                h.hex = hex::from_offset({c, r}, map.grid);
                h.terrain = def_terrain;
            }
        }
        for_children(f, hexes_el, "<hexes>", false, [&](const XMLElement* c) {
            if (!named(c, "hex")) return false;
            Attrs a(f, c, "<hex>");
            auto at = a.str("at", true);
            std::optional<hex::Label> lab;
            if (at) {
                a.set_ctx("hex " + *at);
                std::string why;
                if (resolve_label(map, *at, false, why)) {
                    lab = map.label_offset(*at);
                } else {
                    a.error_at("at", why);
                }
            }
            core::HexDef* h = nullptr;
            if (lab) {
                std::size_t i =
                    static_cast<std::size_t>(lab->offset.col * map.rows + lab->offset.row);
                if (first_line[i] != 0) {
                    f.error(a.line("at"), "duplicate hex " + shorten(*at) + " (first at line " +
                                              std::to_string(first_line[i]) + ")");
                } else {
                    first_line[i] = a.line("at");
                    h = &hexes[i];
                }
            }
            core::HexDef tmp;  // absorbs the values of a bad or duplicate entry
            if (!h) h = &tmp;
            if (auto t = a.id("terrain")) {
                int ti = lk_.terrain(*t);
                if (ti < 0) {
                    a.error_at("terrain", "unknown terrain " + quote(*t));
                } else {
                    h->terrain = ti;
                }
            }
            if (auto fs = a.str("features")) {
                h->features = id_list(a, "features", *fs, "feature",
                                      [&](const std::string& w) { return lk_.feature(w); });
            }
            h->name = a.str_or("name", "");
            auto board = a.integer("board", 0, 999);
            // Labels that name a board ("A1(2)") set it; board= must then agree.
            if (lab && lab->board != 0) {
                h->board = lab->board;
                if (board && *board != lab->board) {
                    a.error_at("board", "board " + std::to_string(*board) +
                                            " does not match the label's board " +
                                            std::to_string(lab->board));
                }
            } else {
                h->board = static_cast<int>(board.value_or(0));
            }
            for_children(f, c, a.ctx(), false, [](const XMLElement*) { return false; });
            return true;
        });
        for (int c = 0; c < map.cols; ++c) {
            for (int r = 0; r < map.rows; ++r) {
                auto& h = hexes[static_cast<std::size_t>(c * map.rows + r)];
                h.label = map.offset_label({c, r}, h.board);
            }
        }
        std::sort(hexes.begin(), hexes.end(),
                  [](const core::HexDef& x, const core::HexDef& y) { return x.hex < y.hex; });
        map.hexes = std::move(hexes);
        map.index();  // regions check boards through find()
    }

    if (const XMLElement* e = sec.get("hexsides"); e && dims_ok) {
        Attrs(f, e, "<hexsides>").finish();
        std::map<std::int64_t, int> first_line;
        auto names = direction_names(map.grid.orientation);
        const char* shape =
            map.grid.orientation == hex::Orientation::FlatTop ? "flat-top" : "pointy-top";
        for_children(f, e, "<hexsides>", false, [&](const XMLElement* c) {
            if (!named(c, "hexside")) return false;
            Attrs a(f, c, "<hexside>");
            auto at = a.str("at", true);
            auto dir_s = a.str("dir", true);
            std::optional<hex::Hex> h;
            if (at) {
                a.set_ctx("hexside " + *at + (dir_s ? " " + *dir_s : ""));
                std::string why;
                h = resolve_label(map, *at, false, why);
                if (!h) a.error_at("at", why);
            }
            std::optional<int> dir;
            if (dir_s) {
                dir = hex::parse_direction(*dir_s, map.grid.orientation);
                if (!dir) {
                    a.error_at("dir", "bad direction " + quote(*dir_s) + " for a " + shape +
                                          " map (use " + list_words(names) + ")");
                }
            }
            core::HexsideDef side;
            if (auto t = a.str("types", true)) {
                side.types = id_list(a, "types", *t, "hexside type",
                                     [&](const std::string& w) { return lk_.hexside_type(w); });
                if (split_ws(*t).empty()) a.error_at("types", "no hexside type given");
            }
            if (auto names = a.str("names")) {
                side.lines = id_list(a, "names", *names, "line",
                                     [&](const std::string& w) { return lk_.line(w); });
            }
            for_children(f, c, a.ctx(), false, [](const XMLElement*) { return false; });
            if (h && dir) {
                side.key = hex::hexside(*h, *dir);
                auto [it, fresh] = first_line.emplace(hex::pack(side.key), a.line());
                if (!fresh) {
                    f.error(a.line(), "duplicate hexside " + shorten(*at) + " " + shorten(*dir_s) +
                                          " (first at line " + std::to_string(it->second) + ")");
                } else {
                    map.hexsides.push_back(std::move(side));
                }
            }
            return true;
        });
        std::sort(
            map.hexsides.begin(), map.hexsides.end(),
            [](const core::HexsideDef& x, const core::HexsideDef& y) { return x.key < y.key; });
    }

    if (const XMLElement* e = sec.get("regions"); e && dims_ok) {
        Attrs(f, e, "<regions>").finish();
        IdSet ids("region");
        for_children(f, e, "<regions>", false, [&](const XMLElement* c) {
            if (!named(c, "region")) return false;
            Attrs a(f, c, "<region>");
            core::RegionDef r;
            r.id = a.id("id", true).value_or("");
            if (!r.id.empty()) a.set_ctx("region " + r.id);
            r.name = a.str_or("name", r.id);
            if (auto hs = a.str("hexes", true)) {
                std::set<std::int64_t> seen;
                for (const auto& w : split_ws(*hs)) {
                    std::string why;
                    auto h = resolve_label(map, w, true, why);
                    if (!h) {
                        a.error_at("hexes", why);
                    } else if (!seen.insert(hex::pack(*h)).second) {
                        a.error_at("hexes", "hex " + shorten(w) + " listed twice");
                    } else {
                        r.hexes.push_back(*h);
                    }
                }
            }
            for_children(f, c, a.ctx(), false, [](const XMLElement*) { return false; });
            std::sort(r.hexes.begin(), r.hexes.end());
            if (!r.id.empty() && ids.add(f, a.line("id"), r.id)) map.regions.push_back(r);
            return true;
        });
    }
    // Anchors name hexes, so the art is read once the hexes are known.
    if (const XMLElement* e = sec.get("art"); e && dims_ok && hexes_el) read_map_art(f, e);
    // Placements are checked against the map only if its geometry is known.
    map_ok_ = dims_ok && hexes_el && !map.terrain_types.empty();
}

namespace {

// Width and height from a PNG file's signature and IHDR chunk; nullopt if it is not a PNG.
std::optional<std::pair<std::uint32_t, std::uint32_t>> png_size(const std::string& b) {
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (b.size() < 24 || std::memcmp(b.data(), sig, 8) != 0 || b.compare(12, 4, "IHDR") != 0) {
        return std::nullopt;
    }
    auto be32 = [&](std::size_t at) {
        std::uint32_t v = 0;
        for (std::size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(b[at + i]);
        return v;
    };
    return std::make_pair(be32(16), be32(20));
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

}  // namespace

// <art file= opacity= vector=> with two or three <anchor hex= x= y=>: the image's pixel
// positions of hex centres. Two anchors give scale, rotation and offset; three give a general
// affine map (a scan stretched differently across and down).
void ModuleLoader::read_map_art(const FileCtx& f, const XMLElement* e) {
    const core::MapDef& map = m_.map;
    core::MapArt art;
    bool ok = true;
    {
        Attrs a(f, e, "<art>");
        if (auto file = a.str("file", true)) {
            if (!check_path(a, "file", *file)) {
                ok = false;
            } else {
                art.file = *file;
                FileRead r = src_.read(*file, limits::kMaxArtBytes);
                if (r.status == FileRead::Status::NotFound) {
                    a.error_at("file", "art file " + quote(*file) + " not found");
                    ok = false;
                } else if (r.status == FileRead::Status::TooLarge) {
                    a.error_at("file", "art file " + quote(*file) + " is too large (" +
                                           std::to_string(r.size) + " bytes; the limit is " +
                                           std::to_string(limits::kMaxArtBytes) + ")");
                    ok = false;
                } else if (r.status != FileRead::Status::Ok) {
                    a.error_at("file", "cannot read art file " + quote(*file));
                    ok = false;
                } else if (auto sz = png_size(r.bytes); !sz) {
                    a.error_at("file", "art file " + quote(*file) + " is not a PNG image");
                    ok = false;
                } else if (sz->first == 0 || sz->second == 0 ||
                           sz->first > static_cast<std::uint32_t>(limits::kMaxArtSide) ||
                           sz->second > static_cast<std::uint32_t>(limits::kMaxArtSide)) {
                    a.error_at("file", "art file " + quote(*file) + " is " +
                                           std::to_string(sz->first) + " x " +
                                           std::to_string(sz->second) +
                                           " pixels; each side must be 1.." +
                                           std::to_string(limits::kMaxArtSide));
                    ok = false;
                } else {
                    art.width = static_cast<int>(sz->first);
                    art.height = static_cast<int>(sz->second);
                }
            }
        } else {
            ok = false;
        }
        art.opacity = a.real("opacity", 0, 1).value_or(1.0);
        art.vector = static_cast<core::MapArt::Vector>(
            a.choice("vector", {"grid", "features", "all"}).value_or(0));
    }

    // Anchors: hex centres in layout units (size 1) and their pixels in the image.
    hex::Layout unit;
    unit.orientation = map.grid.orientation;
    std::vector<std::pair<hex::Point, hex::Point>> pairs;  // layout point, image point
    std::map<std::int64_t, int> seen;                       // hex -> line
    int anchors = 0;
    for_children(f, e, "<art>", false, [&](const XMLElement* c) {
        if (!named(c, "anchor")) return false;
        ++anchors;
        Attrs a(f, c, "<anchor>");
        auto at = a.str("hex", true);
        std::optional<hex::Hex> h;
        if (at) {
            a.set_ctx("art anchor " + *at);
            std::string why;
            h = resolve_label(map, *at, true, why);
            if (!h) {
                a.error_at("hex", why);
            } else if (auto [it, fresh] = seen.emplace(hex::pack(*h), a.line("hex")); !fresh) {
                a.error_at("hex", "hex " + shorten(*at) + " is anchored twice (first at line " +
                                      std::to_string(it->second) + ")");
                h.reset();
            }
        }
        const auto xo = a.real("x", -1e7, 1e7, true), yo = a.real("y", -1e7, 1e7, true);
        const bool have = xo.has_value() && yo.has_value();  // else reported as malformed
        const double x = xo.value_or(0), y = yo.value_or(0);
        const bool inside = have && x >= 0 && y >= 0 &&
                            (art.width == 0 || (x <= art.width && y <= art.height));
        if (have && !inside) {
            a.error("pixel " + num(x) + "," + num(y) + " is outside the image" +
                    (art.width ? " (" + std::to_string(art.width) + " x " +
                                     std::to_string(art.height) + " pixels)"
                               : std::string()));
        }
        for_children(f, c, a.ctx(), false, [](const XMLElement*) { return false; });
        if (h && inside) {
            pairs.push_back({hex::to_pixel(*h, unit), {x, y}});
            art.anchors.push_back({*at, x, y});
        } else {
            ok = false;
        }
        return true;
    });
    if (anchors < 2 || anchors > 3) {
        f.error(e->GetLineNum(), "<art>: " + std::to_string(anchors) +
                                     " <anchor> elements; give the pixel positions of two or "
                                     "three hex centres");
        return;
    }
    if (!ok) return;

    // Differences from the first anchor: layout d_i, image q_i.
    auto sub = [](hex::Point p, hex::Point q) { return hex::Point{p.x - q.x, p.y - q.y}; };
    const hex::Point d1 = sub(pairs[1].first, pairs[0].first), q1 = sub(pairs[1].second, pairs[0].second);
    double m[4];  // image = m * layout (2x2, row major), before the offset
    if (pairs.size() == 2) {
        // Similarity: as complex numbers, q1 = k * d1 with k = q1 / d1.
        const double dd = d1.x * d1.x + d1.y * d1.y;
        const double kr = (q1.x * d1.x + q1.y * d1.y) / dd, ki = (q1.y * d1.x - q1.x * d1.y) / dd;
        m[0] = kr, m[1] = -ki, m[2] = ki, m[3] = kr;
    } else {
        const hex::Point d2 = sub(pairs[2].first, pairs[0].first), q2 = sub(pairs[2].second, pairs[0].second);
        const double det = d1.x * d2.y - d2.x * d1.y;
        if (std::abs(det) < 1e-9) {
            f.error(e->GetLineNum(), "<art>: the three anchor hexes lie on one line; choose "
                                     "hexes that make a triangle");
            return;
        }
        // M = Q * D^-1 with D = [d1 d2], Q = [q1 q2] (columns).
        const double i00 = d2.y / det, i01 = -d2.x / det, i10 = -d1.y / det, i11 = d1.x / det;
        m[0] = q1.x * i00 + q2.x * i10, m[1] = q1.x * i01 + q2.x * i11;
        m[2] = q1.y * i00 + q2.y * i10, m[3] = q1.y * i01 + q2.y * i11;
    }
    const double det = m[0] * m[3] - m[1] * m[2];
    // A hex (size 1) spans sqrt(|det|) image pixels per unit; fewer than 2 is a mistake.
    if (det < 0) {
        f.error(e->GetLineNum(), "<art>: the anchors make the art a mirror image of the grid "
                                 "(check x and y of each anchor)");
        return;
    }
    if (det < 4) {
        f.error(e->GetLineNum(), "<art>: the anchors put hex centres " +
                                     num(std::sqrt(std::max(det, 0.0)) * std::sqrt(3.0)) +
                                     " pixels apart; at least 4 are needed (are two anchors at "
                                     "the same pixel?)");
        return;
    }
    art.to_image[0] = m[0], art.to_image[1] = m[1];
    art.to_image[3] = m[2], art.to_image[4] = m[3];
    art.to_image[2] = pairs[0].second.x - (m[0] * pairs[0].first.x + m[1] * pairs[0].first.y);
    art.to_image[5] = pairs[0].second.y - (m[2] * pairs[0].first.x + m[3] * pairs[0].first.y);
    m_.map.art = std::move(art);
}

// ---- counters.xml ----------------------------------------------------------------------------

void ModuleLoader::read_counters(const Opened& o) {
    const FileCtx& f = o.ctx;
    Attrs(f, o.root, "<counters>").finish();
    IdSet type_ids("counter type");
    std::vector<std::pair<std::size_t, int>> hidden_as_lines;  // type index, line
    for_children(f, o.root, "<counters>", false, [&](const XMLElement* e) {
        if (!named(e, "counter-type")) return false;
        Attrs a(f, e, "<counter-type>");
        core::CounterType t;
        t.id = a.id("id", true).value_or("");
        if (!t.id.empty()) a.set_ctx("counter-type " + t.id);
        t.name = a.str_or("name", t.id);
        t.category = a.id("category").value_or("unit");
        if (auto s = a.id("side")) {
            t.side = *s;
            if (lk_.side(*s) < 0) a.error_at("side", "unknown side " + quote(*s));
        }
        int hidden_line = 0;
        if (auto h = a.id("hidden-as")) {
            t.hidden_as = *h;
            hidden_line = a.line("hidden-as");
        }
        IdSet faces("face"), stats("stat");
        const std::string ctx = a.ctx();
        for_children(f, e, ctx, false, [&](const XMLElement* c) {
            if (named(c, "face")) {
                Attrs fa(f, c, ctx + ", <face>");
                core::FaceDef face;
                face.id = fa.id("id", true).value_or("");
                if (!face.id.empty()) fa.set_ctx(ctx + ", face " + face.id);
                face.name = fa.str_or("name", face.id);
                for_children(f, c, fa.ctx(), false, [](const XMLElement*) { return false; });
                if (!face.id.empty() && faces.add(f, fa.line("id"), face.id)) {
                    t.faces.push_back(face);
                }
                return true;
            }
            if (named(c, "stat")) {
                Attrs sa(f, c, ctx + ", <stat>");
                auto id = sa.id("id", true);
                if (id) sa.set_ctx(ctx + ", stat " + *id);
                auto v = typed_value(sa, false);
                for_children(f, c, sa.ctx(), false, [](const XMLElement*) { return false; });
                if (id && stats.add(f, sa.line("id"), *id) && v) t.stats[*id] = *v;
                return true;
            }
            return false;
        });
        if (t.faces.empty() && !t.id.empty()) a.error("no <face> (a counter needs at least one)");
        if (!t.id.empty() && type_ids.add(f, a.line("id"), t.id)) {
            if (hidden_line) hidden_as_lines.emplace_back(m_.counter_types.size(), hidden_line);
            m_.counter_types.push_back(std::move(t));
        }
        return true;
    });
    for (auto [i, line] : hidden_as_lines) {
        const auto& t = m_.counter_types[i];
        if (lk_.counter_type(t.hidden_as) < 0) {
            f.error(line, shorten("counter-type " + t.id, 100) + ": unknown counter type " +
                              quote(t.hidden_as) + " in hidden-as");
        }
    }
    counters_ok_ = true;
}

// ---- tables.xml ------------------------------------------------------------------------------

void ModuleLoader::read_tables(const Opened& o) {
    const FileCtx& f = o.ctx;
    Attrs(f, o.root, "<tables>").finish();
    IdSet table_ids("table");
    for_children(f, o.root, "<tables>", false, [&](const XMLElement* e) {
        if (!named(e, "table")) return false;
        Attrs a(f, e, "<table>");
        core::TableDef t;
        t.id = a.id("id", true).value_or("");
        if (!t.id.empty()) a.set_ctx("table " + t.id);
        t.name = a.str_or("name", t.id);
        t.rule = a.str_or("rule", "");
        const std::string ctx = a.ctx();
        const XMLElement* columns = nullptr;
        std::vector<std::pair<std::vector<std::string>, int>> rows;  // cells, line
        for_children(f, e, ctx, false, [&](const XMLElement* c) {
            if (named(c, "columns")) {
                Attrs ca(f, c, ctx + ", <columns>");
                if (columns) {
                    f.error(c->GetLineNum(), ctx + ": duplicate element <columns> (first at line " +
                                                 std::to_string(columns->GetLineNum()) + ")");
                    return true;
                }
                columns = c;
                IdSet col_ids("column");
                for (const auto& w : split_ws(leaf_text(f, c, ctx + ", <columns>"))) {
                    if (!is_id(w)) {
                        f.error(c->GetLineNum(), ctx + ": column " + quote(w) +
                                                     " is not a valid id (" + id_rule() + ")");
                    }
                    col_ids.add(f, c->GetLineNum(), w);
                    t.columns.push_back(w);  // kept even if repeated: rows are as wide as given
                }
                if (t.columns.empty()) f.error(c->GetLineNum(), ctx + ": <columns> is empty");
                return true;
            }
            if (named(c, "row")) {
                Attrs ra(f, c, ctx + ", <row>");
                rows.emplace_back(split_ws(leaf_text(f, c, ctx + ", <row>")), c->GetLineNum());
                return true;
            }
            return false;
        });
        if (!columns) a.error("missing element <columns>");
        if (rows.empty()) a.error("no <row>");
        for (const auto& [cells, line] : rows) {
            if (columns && cells.size() != t.columns.size()) {
                f.error(line, ctx + ": row has " + std::to_string(cells.size()) +
                                  (cells.size() == 1 ? " cell" : " cells") + ", expected " +
                                  std::to_string(t.columns.size()) +
                                  " (columns: " + list_words(t.columns) + ")");
            }
            std::vector<core::Value> row;
            for (const auto& cell : cells) {
                bool overflow = false;
                auto n = parse_int(cell, &overflow);
                if (n && *n >= -kMaxInt && *n <= kMaxInt) {
                    row.emplace_back(*n);
                } else if (n || overflow) {
                    f.error(line, ctx + ": cell " + quote(cell) + " is out of range (" +
                                      std::to_string(-kMaxInt) + ".." + std::to_string(kMaxInt) +
                                      ")");
                } else if (cell.size() > limits::kMaxIdLength) {
                    f.error(line, ctx + ": cell " + quote(cell) + " is longer than " +
                                      std::to_string(limits::kMaxIdLength) + " characters");
                } else {
                    row.emplace_back(cell);
                }
            }
            t.rows.push_back(std::move(row));
        }
        if (!t.id.empty() && table_ids.add(f, a.line("id"), t.id))
            m_.tables.push_back(std::move(t));
        return true;
    });
}

// ---- cards.xml -------------------------------------------------------------------------------

void ModuleLoader::read_cards(const Opened& o) {
    const FileCtx& f = o.ctx;
    Attrs(f, o.root, "<cards>").finish();
    IdSet deck_ids("deck"), card_ids("card");
    for_children(f, o.root, "<cards>", false, [&](const XMLElement* e) {
        if (!named(e, "deck")) return false;
        Attrs a(f, e, "<deck>");
        core::DeckDef d;
        d.id = a.id("id", true).value_or("");
        if (!d.id.empty()) a.set_ctx("deck " + d.id);
        d.name = a.str_or("name", d.id);
        if (auto owner = a.id("owner")) {
            d.owner = *owner;
            if (lk_.side(*owner) < 0) a.error_at("owner", "unknown side " + quote(*owner));
        }
        const std::string ctx = a.ctx();
        for_children(f, e, ctx, false, [&](const XMLElement* c) {
            if (!named(c, "card")) return false;
            Attrs ca(f, c, "<card>");
            core::CardDef card;
            card.id = ca.id("id", true).value_or("");
            if (!card.id.empty()) ca.set_ctx("card " + card.id);
            card.name = ca.str_or("name", card.id);
            if (auto s = ca.id("side")) {
                card.side = *s;
                if (lk_.side(*s) < 0) ca.error_at("side", "unknown side " + quote(*s));
            }
            card.timing = ca.str_or("timing", "");
            // Other attributes are the module's own (e.g. value="3"), passed to the rules.
            for (auto& [k, v] : ca.take_rest()) card.attributes[k] = v;
            card.text = leaf_text(f, c, ca.ctx());
            if (!card.id.empty() && card_ids.add(f, ca.line("id"), card.id)) {
                d.cards.push_back(std::move(card));
            }
            return true;
        });
        if (d.cards.empty() && !d.id.empty()) a.error("no <card>");
        if (!d.id.empty() && deck_ids.add(f, a.line("id"), d.id)) m_.decks.push_back(std::move(d));
        return true;
    });
}

SetupResult setup_from_bytes(const core::ModuleDef& module, const std::string& name,
                             const FileRead& r) {
    Sink sink;
    FileCtx f{sink, name};
    SetupResult out;
    switch (r.status) {
        case FileRead::Status::NotFound:
            f.error(0, "file not found");
            break;
        case FileRead::Status::TooLarge:
            f.error(0, "file is too large (" + std::to_string(r.size) + " bytes; the limit is " +
                           std::to_string(limits::kMaxFileBytes) + ")");
            break;
        case FileRead::Status::Unreadable:
            f.error(0, "cannot read the file");
            break;
        case FileRead::Status::Ok:
            if (auto doc = parse_xml(f, r.bytes)) {
                if (const XMLElement* root = root_element(f, *doc, "scenario")) {
                    Lookups lk(module);
                    out.scenario = read_scenario(f, root, ScenarioEnv{module, lk});
                }
            }
            break;
    }
    out.errors = sink.take();
    return out;
}

}  // namespace

LoadResult load_module(const std::string& dir) {
    auto src = disk_source(dir);
    return ModuleLoader(*src, dir).run();
}

LoadResult load_module_from_memory(const std::map<std::string, std::string>& files,
                                   const std::string& dir) {
    auto src = memory_source(files);
    return ModuleLoader(*src, dir).run();
}

SetupResult load_setup(const core::ModuleDef& module, const std::string& file) {
    return setup_from_bytes(module, file, read_disk_file(file, limits::kMaxFileBytes));
}

SetupResult load_setup_from_memory(const core::ModuleDef& module, const std::string& file_name,
                                   std::string_view text) {
    FileRead r;
    r.size = text.size();
    if (text.size() > limits::kMaxFileBytes) {
        r.status = FileRead::Status::TooLarge;
    } else {
        r.status = FileRead::Status::Ok;
        r.bytes = std::string(text);
    }
    return setup_from_bytes(module, file_name, r);
}

}  // namespace vedette::data
