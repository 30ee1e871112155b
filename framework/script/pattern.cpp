// string.find / match / gmatch / gsub with Lua 5.4's pattern semantics (after lstrlib.c, MIT
// licence, Copyright (C) 1994-2022 Lua.org, PUC-Rio), changed in two ways:
//  - the matcher charges its steps to the instruction budget, because Lua's is a C loop the
//    count hook never interrupts ("a*b" over a long string of a's would hang the host);
//  - character classes (%a, %d, ...) are ASCII, whatever the process locale, so that a module
//    behaves the same on every machine.
#include <cstring>

#include "script/detail.hpp"

namespace vedette::script::detail {

namespace {

constexpr int kCapUnfinished = -1;
constexpr int kCapPosition = -2;
constexpr char kEsc = '%';
constexpr const char* kSpecials = "^$*+?.([%-";
constexpr int kMaxCalls = 200;
constexpr int kMaxCaptures = 32;  // LUA_MAXCAPTURES of lstrlib.c
constexpr std::uint64_t kChargeEvery = 4096;

unsigned char uc(char c) { return static_cast<unsigned char>(c); }

struct MatchState {
    const char* src_init;
    const char* src_end;
    const char* p_end;
    lua_State* L;
    int matchdepth;
    int level;
    std::uint64_t steps;
    struct {
        const char* init;
        std::ptrdiff_t len;
    } capture[kMaxCaptures];
};

void step(MatchState* ms) {
    if (++ms->steps >= kChargeEvery) {
        const std::uint64_t n = ms->steps;
        ms->steps = 0;
        charge(ms->L, n);
    }
}

const char* match(MatchState* ms, const char* s, const char* p);

int check_capture(MatchState* ms, int l) {
    l -= '1';
    if (l < 0 || l >= ms->level || ms->capture[l].len == kCapUnfinished)
        return luaL_error(ms->L, "invalid capture index %%%d", l + 1);
    return l;
}

int capture_to_close(MatchState* ms) {
    int level = ms->level;
    for (level--; level >= 0; level--)
        if (ms->capture[level].len == kCapUnfinished) return level;
    return luaL_error(ms->L, "invalid pattern capture");
}

const char* class_end(MatchState* ms, const char* p) {
    switch (*p++) {
        case kEsc:
            if (p == ms->p_end) luaL_error(ms->L, "malformed pattern (ends with '%%')");
            return p + 1;
        case '[':
            if (*p == '^') p++;
            do {
                if (p == ms->p_end) luaL_error(ms->L, "malformed pattern (missing ']')");
                if (*(p++) == kEsc && p < ms->p_end) p++;
            } while (*p != ']');
            return p + 1;
        default:
            return p;
    }
}

bool is_lower(int c) { return c >= 'a' && c <= 'z'; }
bool is_upper(int c) { return c >= 'A' && c <= 'Z'; }
bool is_digit(int c) { return c >= '0' && c <= '9'; }
bool is_alpha(int c) { return is_lower(c) || is_upper(c); }
bool is_cntrl(int c) { return c < 32 || c == 127; }
bool is_space(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
bool is_graph(int c) { return c > 32 && c < 127; }
bool is_punct(int c) { return is_graph(c) && !is_alpha(c) && !is_digit(c); }
bool is_xdigit(int c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

int match_class(int c, int cl) {
    bool res;
    switch (is_upper(cl) ? cl - 'A' + 'a' : cl) {
        case 'a':
            res = is_alpha(c);
            break;
        case 'c':
            res = is_cntrl(c);
            break;
        case 'd':
            res = is_digit(c);
            break;
        case 'g':
            res = is_graph(c);
            break;
        case 'l':
            res = is_lower(c);
            break;
        case 'p':
            res = is_punct(c);
            break;
        case 's':
            res = is_space(c);
            break;
        case 'u':
            res = is_upper(c);
            break;
        case 'w':
            res = is_alpha(c) || is_digit(c);
            break;
        case 'x':
            res = is_xdigit(c);
            break;
        default:
            return cl == c;
    }
    if (is_upper(cl)) res = !res;
    return res;
}

int match_bracket_class(int c, const char* p, const char* ec) {
    int sig = 1;
    if (*(p + 1) == '^') {
        sig = 0;
        p++;
    }
    while (++p < ec) {
        if (*p == kEsc) {
            p++;
            if (match_class(c, uc(*p))) return sig;
        } else if (*(p + 1) == '-' && (p + 2 < ec)) {
            p += 2;
            if (uc(*(p - 2)) <= c && c <= uc(*p)) return sig;
        } else if (uc(*p) == c) {
            return sig;
        }
    }
    return !sig;
}

int single_match(MatchState* ms, const char* s, const char* p, const char* ep) {
    if (s >= ms->src_end) return 0;
    const int c = uc(*s);
    switch (*p) {
        case '.':
            return 1;
        case kEsc:
            return match_class(c, uc(*(p + 1)));
        case '[':
            return match_bracket_class(c, p, ep - 1);
        default:
            return uc(*p) == c;
    }
}

const char* match_balance(MatchState* ms, const char* s, const char* p) {
    if (p >= ms->p_end - 1) luaL_error(ms->L, "malformed pattern (missing arguments to '%%b')");
    if (*s != *p) return nullptr;
    const int b = *p;
    const int e = *(p + 1);
    int cont = 1;
    while (++s < ms->src_end) {
        step(ms);
        if (*s == e) {
            if (--cont == 0) return s + 1;
        } else if (*s == b) {
            cont++;
        }
    }
    return nullptr;
}

const char* max_expand(MatchState* ms, const char* s, const char* p, const char* ep) {
    std::ptrdiff_t i = 0;
    while (single_match(ms, s + i, p, ep)) {
        step(ms);
        i++;
    }
    while (i >= 0) {
        const char* res = match(ms, s + i, ep + 1);
        if (res) return res;
        i--;
    }
    return nullptr;
}

const char* min_expand(MatchState* ms, const char* s, const char* p, const char* ep) {
    for (;;) {
        const char* res = match(ms, s, ep + 1);
        if (res != nullptr) return res;
        if (single_match(ms, s, p, ep))
            s++;
        else
            return nullptr;
    }
}

const char* start_capture(MatchState* ms, const char* s, const char* p, int what) {
    const int level = ms->level;
    if (level >= kMaxCaptures) luaL_error(ms->L, "too many captures");
    ms->capture[level].init = s;
    ms->capture[level].len = what;
    ms->level = level + 1;
    const char* res = match(ms, s, p);
    if (res == nullptr) ms->level--;
    return res;
}

const char* end_capture(MatchState* ms, const char* s, const char* p) {
    const int l = capture_to_close(ms);
    ms->capture[l].len = s - ms->capture[l].init;
    const char* res = match(ms, s, p);
    if (res == nullptr) ms->capture[l].len = kCapUnfinished;
    return res;
}

const char* match_capture(MatchState* ms, const char* s, int l) {
    l = check_capture(ms, l);
    const size_t len = static_cast<size_t>(ms->capture[l].len);
    if (static_cast<size_t>(ms->src_end - s) >= len &&
        std::memcmp(ms->capture[l].init, s, len) == 0)
        return s + len;
    return nullptr;
}

const char* match(MatchState* ms, const char* s, const char* p) {
    if (ms->matchdepth-- == 0) luaL_error(ms->L, "pattern too complex");
init:
    step(ms);
    if (p != ms->p_end) {
        switch (*p) {
            case '(':
                if (*(p + 1) == ')')
                    s = start_capture(ms, s, p + 2, kCapPosition);
                else
                    s = start_capture(ms, s, p + 1, kCapUnfinished);
                break;
            case ')':
                s = end_capture(ms, s, p + 1);
                break;
            case '$':
                if ((p + 1) != ms->p_end) goto dflt;
                s = (s == ms->src_end) ? s : nullptr;
                break;
            case kEsc:
                switch (*(p + 1)) {
                    case 'b':
                        s = match_balance(ms, s, p + 2);
                        if (s != nullptr) {
                            p += 4;
                            goto init;
                        }
                        break;
                    case 'f': {
                        p += 2;
                        if (*p != '[') luaL_error(ms->L, "missing '[' after '%%f' in pattern");
                        const char* ep = class_end(ms, p);
                        const char previous = (s == ms->src_init) ? '\0' : *(s - 1);
                        if (!match_bracket_class(uc(previous), p, ep - 1) &&
                            match_bracket_class(uc(*s), p, ep - 1)) {
                            p = ep;
                            goto init;
                        }
                        s = nullptr;
                        break;
                    }
                    case '0':
                    case '1':
                    case '2':
                    case '3':
                    case '4':
                    case '5':
                    case '6':
                    case '7':
                    case '8':
                    case '9':
                        s = match_capture(ms, s, uc(*(p + 1)));
                        if (s != nullptr) {
                            p += 2;
                            goto init;
                        }
                        break;
                    default:
                        goto dflt;
                }
                break;
            default:
            dflt : {
                const char* ep = class_end(ms, p);
                if (!single_match(ms, s, p, ep)) {
                    if (*ep == '*' || *ep == '?' || *ep == '-') {
                        p = ep + 1;
                        goto init;
                    }
                    s = nullptr;
                } else {
                    switch (*ep) {
                        case '?': {
                            const char* res = match(ms, s + 1, ep + 1);
                            if (res != nullptr) {
                                s = res;
                            } else {
                                p = ep + 1;
                                goto init;
                            }
                            break;
                        }
                        case '+':
                            s++;
                            s = max_expand(ms, s, p, ep);
                            break;
                        case '*':
                            s = max_expand(ms, s, p, ep);
                            break;
                        case '-':
                            s = min_expand(ms, s, p, ep);
                            break;
                        default:
                            s++;
                            p = ep;
                            goto init;
                    }
                }
                break;
            }
        }
    }
    ms->matchdepth++;
    return s;
}

// Plain search, charging the comparisons it makes.
const char* mem_find(MatchState* ms, const char* s1, size_t l1, const char* s2, size_t l2) {
    if (l2 == 0) return s1;
    if (l2 > l1) return nullptr;
    l2--;
    l1 = l1 - l2;
    const char* init;
    while (l1 > 0 && (init = static_cast<const char*>(std::memchr(s1, *s2, l1))) != nullptr) {
        ms->steps += l2 / 16 + 1;
        step(ms);
        init++;
        if (std::memcmp(init, s2 + 1, l2) == 0) return init - 1;
        l1 -= static_cast<size_t>(init - s1);
        s1 = init;
    }
    return nullptr;
}

std::ptrdiff_t get_onecapture(MatchState* ms, int i, const char* s, const char* e,
                              const char** cap) {
    if (i >= ms->level) {
        if (i != 0) luaL_error(ms->L, "invalid capture index %%%d", i + 1);
        *cap = s;
        return e - s;
    }
    const std::ptrdiff_t capl = ms->capture[i].len;
    *cap = ms->capture[i].init;
    if (capl == kCapUnfinished)
        luaL_error(ms->L, "unfinished capture");
    else if (capl == kCapPosition)
        lua_pushinteger(ms->L, (ms->capture[i].init - ms->src_init) + 1);
    return capl;
}

void push_onecapture(MatchState* ms, int i, const char* s, const char* e) {
    const char* cap;
    const std::ptrdiff_t l = get_onecapture(ms, i, s, e, &cap);
    if (l != kCapPosition) lua_pushlstring(ms->L, cap, static_cast<size_t>(l));
}

int push_captures(MatchState* ms, const char* s, const char* e) {
    const int nlevels = (ms->level == 0 && s) ? 1 : ms->level;
    luaL_checkstack(ms->L, nlevels, "too many captures");
    for (int i = 0; i < nlevels; i++) push_onecapture(ms, i, s, e);
    return nlevels;
}

bool no_specials(const char* p, size_t l) {
    size_t upto = 0;
    do {
        if (std::strpbrk(p + upto, kSpecials)) return false;
        upto += std::strlen(p + upto) + 1;
    } while (upto <= l);
    return true;
}

void prep_state(MatchState* ms, lua_State* L, const char* s, size_t ls, const char* p, size_t lp) {
    ms->L = L;
    ms->matchdepth = kMaxCalls;
    ms->src_init = s;
    ms->src_end = s + ls;
    ms->p_end = p + lp;
    ms->level = 0;
    ms->steps = 0;
}

void reprep_state(MatchState* ms) {
    ms->level = 0;
    ms->matchdepth = kMaxCalls;  // an error inside match leaves it decremented
}

size_t posrelat(lua_Integer pos, size_t len) {
    if (pos > 0) return static_cast<size_t>(pos);
    if (pos == 0) return 1;
    if (pos < -static_cast<lua_Integer>(len)) return 1;
    return len + static_cast<size_t>(pos) + 1;
}

int str_find_aux(lua_State* L, bool find) {
    size_t ls, lp;
    const char* s = luaL_checklstring(L, 1, &ls);
    const char* p = luaL_checklstring(L, 2, &lp);
    const size_t init = posrelat(luaL_optinteger(L, 3, 1), ls) - 1;
    if (init > ls) {
        lua_pushnil(L);
        return 1;
    }
    MatchState ms;
    if (find && (lua_toboolean(L, 4) || no_specials(p, lp))) {
        prep_state(&ms, L, s, ls, p, lp);
        const char* s2 = mem_find(&ms, s + init, ls - init, p, lp);
        if (s2) {
            lua_pushinteger(L, (s2 - s) + 1);
            lua_pushinteger(L, static_cast<lua_Integer>((s2 - s) + lp));
            return 2;
        }
    } else {
        const char* s1 = s + init;
        const bool anchor = (*p == '^');
        if (anchor) {
            p++;
            lp--;
        }
        prep_state(&ms, L, s, ls, p, lp);
        do {
            reprep_state(&ms);
            const char* res = match(&ms, s1, p);
            if (res != nullptr) {
                if (find) {
                    lua_pushinteger(L, (s1 - s) + 1);
                    lua_pushinteger(L, res - s);
                    return push_captures(&ms, nullptr, nullptr) + 2;
                }
                return push_captures(&ms, s1, res);
            }
        } while (s1++ < ms.src_end && !anchor);
    }
    lua_pushnil(L);
    return 1;
}

int str_find(lua_State* L) { return str_find_aux(L, true); }
int str_match(lua_State* L) { return str_find_aux(L, false); }

struct GMatchState {
    const char* src;
    const char* p;
    const char* lastmatch;
    MatchState ms;
};

int gmatch_aux(lua_State* L) {
    auto* gm = static_cast<GMatchState*>(lua_touserdata(L, lua_upvalueindex(3)));
    gm->ms.L = L;
    for (const char* src = gm->src; src <= gm->ms.src_end; src++) {
        reprep_state(&gm->ms);
        const char* e = match(&gm->ms, src, gm->p);
        if (e != nullptr && e != gm->lastmatch) {
            gm->src = gm->lastmatch = e;
            return push_captures(&gm->ms, src, e);
        }
    }
    return 0;
}

int str_gmatch(lua_State* L) {
    size_t ls, lp;
    const char* s = luaL_checklstring(L, 1, &ls);
    const char* p = luaL_checklstring(L, 2, &lp);
    size_t init = posrelat(luaL_optinteger(L, 3, 1), ls) - 1;
    lua_settop(L, 2);  // the closure keeps both strings alive
    auto* gm = static_cast<GMatchState*>(lua_newuserdatauv(L, sizeof(GMatchState), 0));
    if (init > ls) init = ls + 1;
    prep_state(&gm->ms, L, s, ls, p, lp);
    gm->src = s + init;
    gm->p = p;
    gm->lastmatch = nullptr;
    lua_pushcclosure(L, guarded<gmatch_aux>, 3);
    return 1;
}

void add_s(MatchState* ms, luaL_Buffer* b, const char* s, const char* e) {
    size_t l;
    lua_State* L = ms->L;
    const char* news = lua_tolstring(L, 3, &l);
    const char* p;
    while ((p = static_cast<const char*>(std::memchr(news, kEsc, l))) != nullptr) {
        luaL_addlstring(b, news, static_cast<size_t>(p - news));
        p++;
        if (*p == kEsc) {
            luaL_addchar(b, *p);
        } else if (*p == '0') {
            luaL_addlstring(b, s, static_cast<size_t>(e - s));
        } else if (is_digit(uc(*p))) {
            const char* cap;
            const std::ptrdiff_t resl = get_onecapture(ms, *p - '1', s, e, &cap);
            if (resl == kCapPosition)
                luaL_addvalue(b);
            else
                luaL_addlstring(b, cap, static_cast<size_t>(resl));
        } else {
            luaL_error(L, "invalid use of '%c' in replacement string", kEsc);
        }
        l -= static_cast<size_t>(p + 1 - news);
        news = p + 1;
    }
    luaL_addlstring(b, news, l);
}

int add_value(MatchState* ms, luaL_Buffer* b, const char* s, const char* e, int tr) {
    lua_State* L = ms->L;
    switch (tr) {
        case LUA_TFUNCTION: {
            lua_pushvalue(L, 3);
            const int n = push_captures(ms, s, e);
            lua_call(L, n, 1);
            break;
        }
        case LUA_TTABLE:
            push_onecapture(ms, 0, s, e);
            lua_gettable(L, 3);
            break;
        default:
            add_s(ms, b, s, e);
            return 1;
    }
    if (!lua_toboolean(L, -1)) {
        lua_pop(L, 1);
        luaL_addlstring(b, s, static_cast<size_t>(e - s));
        return 0;
    }
    if (!lua_isstring(L, -1))
        return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    luaL_addvalue(b);
    return 1;
}

int str_gsub(lua_State* L) {
    size_t srcl, lp;
    const char* src = luaL_checklstring(L, 1, &srcl);
    const char* p = luaL_checklstring(L, 2, &lp);
    const char* lastmatch = nullptr;
    const int tr = lua_type(L, 3);
    const lua_Integer max_s = luaL_optinteger(L, 4, static_cast<lua_Integer>(srcl) + 1);
    const bool anchor = (*p == '^');
    lua_Integer n = 0;
    int changed = 0;
    MatchState ms;
    luaL_Buffer b;
    luaL_argexpected(
        L, tr == LUA_TNUMBER || tr == LUA_TSTRING || tr == LUA_TFUNCTION || tr == LUA_TTABLE, 3,
        "string/function/table");
    luaL_buffinit(L, &b);
    if (anchor) {
        p++;
        lp--;
    }
    prep_state(&ms, L, src, srcl, p, lp);
    while (n < max_s) {
        reprep_state(&ms);
        const char* e = match(&ms, src, p);
        if (e != nullptr && e != lastmatch) {
            n++;
            changed = add_value(&ms, &b, src, e, tr) | changed;
            src = lastmatch = e;
        } else if (src < ms.src_end) {
            luaL_addchar(&b, *src++);
        } else {
            break;
        }
        if (anchor) break;
    }
    if (!changed) {
        lua_pushvalue(L, 1);
    } else {
        luaL_addlstring(&b, src, static_cast<size_t>(ms.src_end - src));
        luaL_pushresult(&b);
    }
    lua_pushinteger(L, n);
    return 2;
}

}  // namespace

void install_pattern_guards(lua_State* L, int string_table) {
    const luaL_Reg fns[] = {{"find", guarded<str_find>},
                            {"match", guarded<str_match>},
                            {"gmatch", guarded<str_gmatch>},
                            {"gsub", guarded<str_gsub>},
                            {nullptr, nullptr}};
    for (const luaL_Reg* f = fns; f->name; ++f) {
        lua_pushcfunction(L, f->func);
        lua_setfield(L, string_table, f->name);
    }
}

}  // namespace vedette::script::detail
