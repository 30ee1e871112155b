-- Shared helpers of the Campaigns of the Napoleonic Wars rules (rules 1-4 and the conventions of
-- DESIGN.md). Pure functions of the game state: nothing here keeps state between calls.
local core = {}

local SIDES = { "french", "coalition" }
core.SIDES = SIDES

function core.enemy(side) return side == "french" and "coalition" or "french" end

-- ---- pieces --------------------------------------------------------------------------------

-- Speed: the listings ask the same pieces over and over, and an AI asks the same position again
-- in call after call. core.piece(game, id) gives the piece's table from a cache in
-- game.pieces_memo() (kept while the pieces are the same: across calls and copies of a state),
-- or nil when there is no such piece. The table is shared: READ ONLY.
-- core.pieces(game): the cache itself, for loops over many pieces: pieces[id] is the piece's
-- table, or false when there is no such piece (filled on first use). Use it only while the state
-- does not change (inside one function that writes nothing): once the pieces have changed, what
-- it is asked is read from the current state and not kept (the cache belongs to the old pieces).
local function pieces(game)
    local pm = game.pieces_memo()
    local cache = pm["core.pieces"]
    if cache == nil then
        cache = setmetatable({}, { __index = function(t, id)
            local p = game.piece(id) or false
            if game.pieces_memo() == pm then t[id] = p end
            return p
        end })
        pm["core.pieces"] = cache
    end
    return cache
end
core.pieces = pieces

-- core.memo_table(game, key): the state's memo sub-table named `key` (any value: a string, a
-- configuration ctx), created empty on first use. For derived data cached once per state.
function core.memo_table(game, key)
    local memo = game.memo()
    local t = memo[key]
    if t == nil then
        t = {}
        memo[key] = t
    end
    return t
end

local function piece(game, id) return (game.pieces_memo()["core.pieces"] or pieces(game))[id] or nil end
core.piece = piece

-- Counter type -> category, and -> stats. Caches of the module's immutable definitions (never
-- game state): defs.counter builds a whole table per call, and these are asked for every piece
-- of every scan.
local CATEGORY, STATS = {}, {}
local function type_category(t)
    local c = CATEGORY[t]
    if c == nil then
        c = defs.counter(t).category
        CATEGORY[t] = c
    end
    return c
end
core.type_category = type_category
local function category(game, id) return type_category(piece(game, id).type) end

-- A counter type's stat, or nil.
local function type_stat(t, name)
    local stats = STATS[t]
    if stats == nil then
        stats = defs.counter(t).stats
        STATS[t] = stats
    end
    return stats[name]
end
core.type_stat = type_stat

-- game.stat(id, name) (the counter type's stat, or nil) from the cached definitions.
local function stat(game, id, name)
    local p = piece(game, id)
    if not p then return game.stat(id, name) end   -- no such piece: game.stat's error
    return type_stat(p.type, name)
end
core.stat = stat

function core.is_unit(game, id) return category(game, id) == "unit" end
function core.is_commander(game, id) return category(game, id) == "commander" end

function core.unit_type(game, id) return stat(game, id, "type") end   -- infantry/cavalry/artillery
function core.class(game, id) return stat(game, id, "class") end
function core.of2(game, id) return stat(game, id, "of2") or 0 end     -- OF in halves (3.2)
function core.disrupted(game, id) return piece(game, id).face == "disrupted" end
function core.is_cossack(game, id) return (stat(game, id, "cossack") or 0) == 1 end
function core.is_garrison(game, id) return (stat(game, id, "garrison") or 0) == 1 end
function core.owner(game, id) return piece(game, id).owner end

-- Pieces neutral until a game variable becomes true: the variable "neutral_pieces" maps a piece
-- id to the name of that variable (1814 r.16.3: Murat's army, "murat_joined"). A neutral piece is
-- nobody's enemy (no cavalry screen, no siege, no supply blocking); the game's hooks keep it out
-- of play. core.neutral_pieces: the set of the pieces neutral now (one look-up for many pieces).
-- The set is computed once per state (game.memo()): READ ONLY.
function core.neutral_pieces(game)
    local memo = game.memo()
    local out = memo["core.neutral"]
    if out then return out end
    out = {}
    memo["core.neutral"] = out
    local reg = game.var("neutral_pieces")
    if type(reg) ~= "table" then return out end
    local over = {}
    for id, v in pairs(reg) do
        if over[v] == nil then over[v] = game.var(v) and true or false end
        if not over[v] then out[id] = true end
    end
    return out
end

function core.is_neutral(game, id) return core.neutral_pieces(game)[id] == true end

-- May the pieces `ids` (none: a supply line) not enter `hex`? The game's hex_closed hook (1814:
-- 16.3's neutral hex, 14.11's Neapolitans apart). Only what stands in a hex can close it: an
-- empty hex is never closed, and callers in a hurry may skip asking for one.
function core.closed(ctx, game, hex, ids)
    local hook = ctx.hooks.hex_closed
    return hook ~= nil and hook(ctx, game, hex, ids or {}) == true
end


-- ---- hidden forces (1814 r.15.1) -------------------------------------------------------------
-- A marker whose counter type has the stat "box" (a box id) stands on the map for the pieces in
-- that box: they are "in" the marker's hex for every rule (supply, attrition, 4.1, movement,
-- combat) although their counters are off the map, in a box only their owner may see. Every
-- query of "the units of a stack" below (units_at and the rest) includes them; core.hex_of gives
-- the hex of any piece, box contents included.

local BOX_OF = {}   -- counter type -> box id or false (a cache of the immutable definitions)
local function box_of_type(t)
    local b = BOX_OF[t]
    if b == nil then
        b = defs.counter(t).stats.box
        if type(b) ~= "string" then b = false end
        BOX_OF[t] = b
    end
    return b
end

-- The pieces at loc, bottom to top: game.pieces_at cached in game.pieces_memo() like
-- core.piece. The lists are shared: READ ONLY (callers that hand a stack out copy it or call
-- game.pieces_at). core.stacks(game): the cache itself (stacks[loc]), like core.pieces.
local function stacks(game)
    local pm = game.pieces_memo()
    local cache = pm["core.stacks"]
    if cache == nil then
        cache = setmetatable({}, { __index = function(t, loc)
            local ids = game.pieces_at(loc)
            if game.pieces_memo() == pm then t[loc] = ids end
            return ids
        end })
        pm["core.stacks"] = cache
    end
    return cache
end
core.stacks = stacks

local function stack(game, loc) return (game.pieces_memo()["core.stacks"] or stacks(game))[loc] end
core.stack = stack

-- The box id a marker stands for, or nil when the piece is no such marker.
function core.marker_box(game, id) return box_of_type(piece(game, id).type) or nil end

-- The box markers of `side` (any side when nil) at hex, bottom to top.
function core.box_markers_at(game, hex, side)
    local out = {}
    local pc = pieces(game)
    for _, id in ipairs(stack(game, hex)) do
        local p = pc[id]
        if box_of_type(p.type) and (side == nil or p.owner == side) then out[#out + 1] = id end
    end
    return out
end

-- The pieces in the box of `marker`, bottom to top.
function core.box_contents(game, marker)
    return game.pieces_at("box:" .. core.marker_box(game, marker))
end

-- The marker (on the map) standing for the box a piece is in, or nil.
function core.marker_of(game, id)
    local loc = piece(game, id).loc
    if not loc or loc:sub(1, 4) ~= "box:" then return nil end
    local m = piece(game, loc:sub(5))
    if m and box_of_type(m.type) == loc:sub(5) and m.loc and m.loc:sub(1, 4) ~= "box:" then return m.id end
    return nil
end

-- The hex a piece is in for the rules: its location on the map, or the hex of the marker of the
-- box it is in (15.1); nil when it is nowhere or in another box (eliminated, waiting).
function core.hex_of(game, id)
    local loc = piece(game, id).loc
    if not loc then return nil end
    if loc:sub(1, 4) ~= "box:" then return loc end
    local m = core.marker_of(game, id)
    return m and piece(game, m).loc or nil
end

-- Whether a piece is in a hidden box (counter off the map, standing in the marker's hex).
function core.is_boxed(game, id) return core.marker_of(game, id) ~= nil end

-- Pieces of `side` at `loc` of one kind (bottom to top), with the contents of the boxes whose
-- markers are there in the marker's place (15.1). kind: "unit", "ready" (undisrupted units),
-- "commander", "force" (units and commanders).
local function wanted(kind, p)
    local c = type_category(p.type)
    if kind == "unit" then return c == "unit" end
    if kind == "ready" then return c == "unit" and p.face ~= "disrupted" end
    if kind == "commander" then return c == "commander" end
    return c == "unit" or c == "commander"
end

local function select(game, loc, side, kind)
    local out = {}
    local pc, sc = pieces(game), stacks(game)
    for _, id in ipairs(sc[loc]) do
        local p = pc[id]
        local box = box_of_type(p.type)
        if box then
            for _, inner in ipairs(sc["box:" .. box]) do
                local q = pc[inner]
                if (side == nil or q.owner == side) and wanted(kind, q) then out[#out + 1] = inner end
            end
        elseif (side == nil or p.owner == side) and wanted(kind, p) then
            out[#out + 1] = id
        end
    end
    return out
end

-- The units of `side` physically at hex (their counters on the map; the 15.1 boxes excluded).
function core.map_units_at(game, hex, side)
    local out = {}
    local pc = pieces(game)
    for _, id in ipairs(stack(game, hex)) do
        local p = pc[id]
        if p.owner == side and type_category(p.type) == "unit" then out[#out + 1] = id end
    end
    return out
end

-- The units of `side` whose counters stand on the map (not in a box), in piece order: once per
-- set of pieces (game.pieces_memo). READ ONLY.
function core.map_units_of(game, side)
    local pm = game.pieces_memo()
    local key = "core.map_units." .. side
    local out = pm[key]
    if out then return out end
    out = {}
    local pc = pieces(game)
    for _, id in ipairs(game.pieces { owner = side, category = "unit" }) do
        local loc = pc[id].loc
        if loc and loc:sub(1, 4) ~= "box:" then out[#out + 1] = id end
    end
    pm[key] = out
    return out
end

function core.units_at(game, loc, side) return select(game, loc, side, "unit") end
function core.undisrupted_units_at(game, loc, side) return select(game, loc, side, "ready") end
function core.commanders_at(game, loc, side) return select(game, loc, side, "commander") end
-- Units and commanders (not markers) of `side` at loc.
function core.force_at(game, loc, side) return select(game, loc, side, "force") end

-- The side with units or commanders at hex, or nil (4.3: a stack).
function core.side_at(game, hex)
    local pc = pieces(game)
    for _, id in ipairs(stack(game, hex)) do
        local p = pc[id]
        local c = type_category(p.type)
        if c == "unit" or c == "commander" then return p.owner end
    end
    return nil
end

function core.has_enemy_units(game, hex, side) return #core.units_at(game, hex, core.enemy(side)) > 0 end

-- on_map_only: only the counters the moving player can see (15.1: hidden cavalry stops a move
-- only once it is revealed, movement.lua). Neutral cavalry (16.3) screens nobody.
function core.has_undisrupted_enemy_cavalry(game, hex, side, on_map_only)
    local ids = on_map_only and core.map_units_at(game, hex, core.enemy(side))
        or core.undisrupted_units_at(game, hex, core.enemy(side))
    for _, id in ipairs(ids) do
        if on_map_only and core.disrupted(game, id) then goto next end
        if core.unit_type(game, id) == "cavalry" and not core.is_neutral(game, id) then return true end
        ::next::
    end
    return false
end

-- 4.1: the OF of a side's units in a hex, in halves.
function core.stack_of2(game, hex, side)
    local total = 0
    for _, id in ipairs(core.units_at(game, hex, side)) do total = total + core.of2(game, id) end
    return total
end

-- The OF of a list of units, in halves.
function core.of2_sum(game, ids)
    local total = 0
    for _, id in ipairs(ids) do total = total + core.of2(game, id) end
    return total
end

-- 4.1: the capacity of a hex for a side, in half-OF: params.stack_limit_of2, or what the
-- game's stack_capacity hook says (15.2 overstacking).
function core.capacity(ctx, game, hex, side)
    local hook = ctx.hooks.stack_capacity
    return (hook and hook(ctx, game, hex, side)) or ctx.params.stack_limit_of2 or 12
end

function core.types_in(game, ids, undisrupted_only)
    local seen, n = {}, 0
    for _, id in ipairs(ids) do
        if not undisrupted_only or not core.disrupted(game, id) then
            local t = core.unit_type(game, id)
            if not seen[t] then seen[t] = true; n = n + 1 end
        end
    end
    return n
end

-- A commander with the property cr_zero_turn equal to this Turn has CR 0 (1814 16.1 REC 20).
function core.cr(game, id)
    if game.prop(id, "cr_zero_turn") == game.turn() then return 0 end
    return stat(game, id, "cr") or 0
end

function core.highest_cr(game, commanders)
    local best = 0
    for _, id in ipairs(commanders) do best = math.max(best, core.cr(game, id)) end
    return best
end

-- A hit (11.18), attrition (6.4 / 8.7): disrupt, or eliminate if already disrupted.
-- A log line about piece `id`: for everybody, or, while the piece is in a hidden box (15.1),
-- for its owner only, the others learning only that something in the marker's box changed.
function core.log_about(game, id, text)
    local m = core.marker_of(game, id)
    if not m then return game.log(text) end
    local owner = piece(game, id).owner
    game.log(text, owner)
    game.log("A unit of hidden force " .. m .. " at " .. piece(game, m).loc .. " is affected", core.enemy(owner))
end

function core.eliminate(game, id, why)
    core.log_about(game, id, id .. " is eliminated" .. (why and (" (" .. why .. ")") or ""))
    game.move(id, "box:eliminated")
    if core.is_unit(game, id) then game.set_face(id, "ready") end   -- commanders have one face
end

function core.disrupt(game, id, why)
    if core.disrupted(game, id) then
        core.eliminate(game, id, why)
        return "eliminated"
    end
    game.set_face(id, "disrupted")
    core.log_about(game, id, id .. " is disrupted" .. (why and (" (" .. why .. ")") or ""))
    return "disrupted"
end

-- ---- map -----------------------------------------------------------------------------------

function core.is_city(hex) return map.has_feature(hex, "city") or map.has_feature(hex, "fortified") end
function core.is_fortified(hex) return map.has_feature(hex, "fortified") end
local PLAYABLE = {}   -- hex -> core.playable (the module's map: immutable)
function core.playable(hex)
    local v = PLAYABLE[hex]
    if v ~= nil then return v end
    v = map.exists(hex)
    if v then
        local t = map.terrain(hex)
        v = t ~= "sea" and t ~= "offmap"
    end
    if type(hex) == "string" then PLAYABLE[hex] = v end
    return v
end

function core.river_between(a, b) return map.has_hexside(a, b, "river") end
function core.bridged(a, b) return map.has_hexside(a, b, "bridge") end
function core.lake_between(a, b) return map.has_hexside(a, b, "lake") end
function core.road_between(a, b) return map.has_hexside(a, b, "road") or map.has_hexside(a, b, "pass") end

-- Turn -> "winter" / "spring" (1.1), from the module's "seasons" table (its rows read once: the
-- module's definitions are immutable).
local SEASON_ROWS
function core.season(game)
    SEASON_ROWS = SEASON_ROWS or defs.table("seasons").rows
    local turn = game.turn()
    for _, row in ipairs(SEASON_ROWS) do
        if row[1] == turn then return row[2] end
    end
    return "spring"
end

function core.is_winter(game) return core.season(game) == "winter" end

-- 2.2: may a unit enter `to` from `from` at all?
function core.can_enter(from, to)
    if not core.playable(to) or core.lake_between(from, to) then return false end
    if map.terrain(to) == "mountain" then return map.has_hexside(from, to, "pass") end
    return true
end

-- 2.2 "difficult terrain" when entering `to` from `from`: forest, marsh, rough ground (unless
-- the hexside is crossed by a road), and in Winter mountain passes.
local function difficult_in(winter, from, to)
    local t = map.terrain(to)
    if t == "marsh" then return true end
    if t == "forest" or t == "rough" then return not map.has_hexside(from, to, "road") and not map.has_hexside(from, to, "pass") end
    if t == "mountain" then return winter end
    return false
end
function core.difficult(game, from, to) return difficult_in(core.is_winter(game), from, to) end

-- Speed: the cost of every step out of a hex, a pure function of the map and of Winter, asked
-- for each hexside a move's search looks at. ENTRY[winter][from][to] = 1 or 2 hexes, false when
-- `to` cannot be entered from `from`; a hex's row is built on first use.
local ENTRY = {}
for _, winter in ipairs { true, false } do
    ENTRY[winter] = setmetatable({}, { __index = function(t, from)
        local row = {}
        for _, to in ipairs(map.neighbours(from)) do
            row[to] = core.can_enter(from, to) and (difficult_in(winter, from, to) and 2 or 1)
        end
        t[from] = row
        return row
    end })
end

-- The step costs this Turn: costs[from][to] as core.entry_cost gives them (false: impassable),
-- nil when `to` is not next to `from`. READ ONLY.
function core.entry_costs(game) return ENTRY[core.is_winter(game)] end

-- Hexes counted for entering `to` (1, or 2 in difficult terrain), nil when impassable.
function core.entry_cost(game, from, to)
    local c = ENTRY[core.is_winter(game)][from][to]
    if c == nil then   -- not a neighbour
        if not core.can_enter(from, to) then return nil end
        return core.difficult(game, from, to) and 2 or 1
    end
    return c or nil
end

-- ---- territory (1.1) ------------------------------------------------------------------------

function core.friendly_territory(side, hex) return map.in_region(hex, side .. "_friendly") end
function core.friendly_city(side, hex) return core.is_city(hex) and core.friendly_territory(side, hex) end
function core.enemy_city(side, hex) return core.is_city(hex) and not core.friendly_territory(side, hex) end

-- ---- alternation (7.4, 8.2, 10.6, 12.2) ------------------------------------------------------
-- Players alternate until both have finished; a player who has finished is skipped. The state
-- lives in variable "alt_<name>" = {turn = side, done_french = bool, done_coalition = bool}.

function core.alt_start(game, name, first)
    game.set_var("alt_" .. name, { turn = first, done_french = false, done_coalition = false })
end

function core.alt_current(game, name) return game.var("alt_" .. name).turn end

function core.alt_finish(game, name, side)
    local a = game.var("alt_" .. name)
    a["done_" .. side] = true
    game.set_var("alt_" .. name, a)
end

function core.alt_is_done(game, name, side) return game.var("alt_" .. name)["done_" .. side] end

-- Passes the turn to the other player unless he has finished; returns the side to act next,
-- or nil when both have finished.
function core.alt_next(game, name)
    local a = game.var("alt_" .. name)
    local other = core.enemy(a.turn)
    if not a["done_" .. other] then a.turn = other
    elseif a["done_" .. a.turn] then return nil end
    game.set_var("alt_" .. name, a)
    return a.turn
end

return core
