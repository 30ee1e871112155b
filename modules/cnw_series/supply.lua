-- General Supply and Attrition (rule 6) and Active Supply (rule 7) of the Campaigns of the
-- Napoleonic Wars, with 14.1's initial depots. See DESIGN.md for the state conventions.
--
-- EXPORTS for the other phases (movement 8, combat 10-11, reinforcements 13):
--   supply.in_general_supply(ctx, game, hex, side)   6.1-6.2: can a stack of `side` at `hex`
--                                                    trace a supply route? (no 6.6 exceptions)
--   supply.stack_in_general_supply(ctx, game, hex, side)  the same, or a unit there is
--                                                    supplied in place (hook, e.g. 1814's 14.13)
--   supply.unit_in_general_supply(ctx, game, id)     6.6 per unit: deemed in supply, or traces
--   supply.trains_at(game, hex, side)                face-down (or converted, face-up) Supply
--                                                    Trains allocated at hex: genuine and dummy
--                                                    piece ids, bottom to top
--   supply.is_genuine(game, id)                      a genuine train (false for a dummy, 7.5)
--   supply.use_train(game, id)                       8.1/8.2: a genuine train is removed from
--                                                    the map; a dummy is revealed and removed
--   supply.clear_trains(game, side)                  removes every train of side (or both) still
--                                                    on the map (end of Rally and Movement, A-4)
--   supply.depot_at(game, hex, side)                 the depot at hex (of side, or any), or nil
--   supply.depots(game, side)                        ids of side's depots on the map
--   supply.capture_depot(game, id)                   8.8: eliminate an enemy depot and reduce its
--                                                    owner's Set Up Card trains by one
--   supply.under_siege(game, hex)                    8.4 General Exception (digest A-6)
--   supply.general / supply.active                   the two phase modules (begin, steps)
--
-- Per-game numbers come from ctx.params (supply_range, uss_region, neutral_city_region,
-- trace_to_uss, forage_from_turn, dummy_trains, supply_tie_first); game-specific exceptions from
-- ctx.hooks (deemed_in_general_supply: 6.6; supplied_in_place: 1814's 14.13). 1814's event cards
-- (16.1) act through: supply_trains_adjust(ctx, game, side) -> this Turn's extra (+) or fewer (-)
-- Supply Trains to allocate; supply_rivers_frozen(ctx, game) -> rivers do not block routes or
-- chains; supply_blocked_region(ctx, game, side) -> a region no route or chain of side enters;
-- uss_lost(ctx, game, side) -> set of USS hexes that do not count; depot_city_friendly(ctx, game, side,
-- hex) -> a city counts as friendly for 7.7; forage_ignored(ctx, game, side, hex) -> no 6.3 roll;
-- extra_forage(ctx, game, side) -> hexes of side's stacks that get a 7.6 marker as well.
local core = require("cnw.core")
local command = require("cnw.command")   -- 16.2 (advanced)

local supply = {}

-- The static map data the supply searches need, computed once while the rules load (a pure
-- function of the module's map: not game state). MAP.nb[hex] = neighbours; MAP.city[hex];
-- MAP.playable[hex]; MAP.unbridged[a][b] = a river without a bridge between a and b;
-- MAP.cost[season][a][b] = hexes counted for a route stepping from a into b (nil: no way).
local MAP = (function()
    local m = { nb = {}, city = {}, playable = {}, unbridged = {}, cost = {}, territory = {} }
    -- (lists, not pairs: the sandbox's ordered pairs is dear over thousands of hexes)
    local fake, seasons = {}, {}
    for _, row in ipairs(defs.table("seasons").rows) do
        if not fake[row[2]] then
            local t = row[1]
            fake[row[2]] = { turn = function() return t end }
            seasons[#seasons + 1] = row[2]
        end
    end
    m.cost_frozen = {}   -- the same with unbridged rivers crossable (1814 16.1 REC 1: frozen rivers)
    for _, season in ipairs(seasons) do m.cost[season] = {}; m.cost_frozen[season] = {} end
    local hexes = map.hexes()
    for _, h in ipairs(hexes) do
        m.nb[h] = map.neighbours(h)
        m.city[h] = core.is_city(h)
        m.playable[h] = core.playable(h)
        for _, side in ipairs(core.SIDES) do
            if core.friendly_territory(side, h) then m.territory[h] = side end
        end
    end
    for _, h in ipairs(hexes) do
        m.unbridged[h] = {}
        for _, season in ipairs(seasons) do m.cost[season][h] = {}; m.cost_frozen[season][h] = {} end
        for _, n in ipairs(m.nb[h]) do
            local unbridged = core.river_between(h, n) and not core.bridged(h, n)
            m.unbridged[h][n] = unbridged
            if m.playable[h] then
                for _, season in ipairs(seasons) do
                    local c = core.entry_costs(fake[season])[h][n]   -- 2.2, false: no way
                    if c then
                        if not unbridged then m.cost[season][h][n] = c end
                        m.cost_frozen[season][h][n] = c
                    end
                end
            end
        end
    end
    return m
end)()

local function friendly_territory(side, hex) return MAP.territory[hex] == side end

-- ---- counters -------------------------------------------------------------------------------

local function genuine_type(side) return side .. "_supply" end
local function dummy_type(side) return side .. "_supply_dummy" end

local function supply_side(game, id)
    local t = core.piece(game, id).type
    for _, s in ipairs(core.SIDES) do
        if t == genuine_type(s) or t == dummy_type(s) then return s end
    end
    return nil
end

function supply.is_genuine(game, id)
    local p = core.piece(game, id)
    for _, s in ipairs(core.SIDES) do
        if p.type == genuine_type(s) then return true end
    end
    return false
end

local function on_map(game, id)
    local loc = core.piece(game, id).loc
    return loc ~= nil and loc:sub(1, 4) ~= "box:"
end

function supply.depot_at(game, hex, side)
    for _, id in ipairs(game.pieces_at(hex)) do
        local p = core.piece(game, id)
        if p.face == "depot" and supply.is_genuine(game, id) and (side == nil or p.owner == side) then
            return id
        end
    end
    return nil
end

function supply.depots(game, side)
    local out = {}
    for _, id in ipairs(game.pieces { type = genuine_type(side), face = "depot" }) do
        if on_map(game, id) then out[#out + 1] = id end
    end
    return out
end

function supply.trains_at(game, hex, side)
    local out = {}
    for _, id in ipairs(game.pieces_at(hex)) do
        local p = core.piece(game, id)
        if p.owner == side and supply_side(game, id) == side and p.face == "train" then out[#out + 1] = id end
    end
    return out
end

local function genuine_trains_at(game, hex, side)
    local out = {}
    for _, id in ipairs(supply.trains_at(game, hex, side)) do
        if supply.is_genuine(game, id) then out[#out + 1] = id end
    end
    return out
end

-- Back to the pool off the board, face "train", not hidden.
local function to_pool(game, id)
    game.remove(id)
    game.set_hidden(id, false)
    game.set_face(id, "train")
end

function supply.use_train(game, id)
    if supply.is_genuine(game, id) then
        game.log("A Supply Train of " .. core.piece(game, id).owner .. " is used at " .. tostring(core.piece(game, id).loc))
    else
        game.reveal(id)
        game.log("The Supply Train at " .. tostring(core.piece(game, id).loc) .. " is a dummy (7.5)")
    end
    to_pool(game, id)
end

function supply.clear_trains(game, side)
    for _, s in ipairs(core.SIDES) do
        if side == nil or side == s then
            for _, t in ipairs { genuine_type(s), dummy_type(s) } do
                for _, id in ipairs(game.pieces { type = t, face = "train" }) do
                    if on_map(game, id) then to_pool(game, id) end
                end
            end
        end
    end
end

-- A counter off the board of `type` for `side`; created when the scenario has none left.
local function take_counter(game, type, side)
    for _, id in ipairs(game.pieces { type = type }) do
        if core.piece(game, id).loc == nil then return id end
    end
    return game.create(type, { owner = side })
end

local function dummies_left(ctx, game, side)
    local free, total = 0, 0
    for _, id in ipairs(game.pieces { type = dummy_type(side) }) do
        total = total + 1
        if core.piece(game, id).loc == nil then free = free + 1 end
    end
    return free + math.max(0, (ctx.params.dummy_trains or 2) - total)
end

-- Places a genuine train (hidden, on top) at hex.
local function place_train(game, side, hex, face_up)
    local id = take_counter(game, genuine_type(side), side)
    game.set_face(id, "train")
    game.move(id, hex)
    game.set_hidden(id, not face_up)
    return id
end

local function place_depot(game, side, hex, id)
    id = id or take_counter(game, genuine_type(side), side)
    game.set_face(id, "depot")
    game.set_hidden(id, false)
    game.move(id, hex, 1)
    return id
end

function supply.capture_depot(game, id)
    local side = core.piece(game, id).owner
    game.log("The " .. side .. " depot at " .. tostring(core.piece(game, id).loc) .. " is eliminated (8.8)")
    to_pool(game, id)
    game.move(id, "box:eliminated")
    local track = side .. "_depots_lost"
    game.set_track(track, game.track(track) + 1)
end

-- ---- territory, sieges ----------------------------------------------------------------------

-- 8.4 General Exception, digest A-6: a single friendly combat unit in a city, next to one hex
-- holding at least two undisrupted enemy combat units. Commanders and depots are not counted.
function supply.under_siege(game, hex)
    if not core.is_city(hex) then return false end
    local side = core.side_at(game, hex)
    if not side then return false end
    if #core.units_at(game, hex, side) ~= 1 then return false end
    for _, n in ipairs(map.neighbours(hex)) do
        local enemies = 0
        for _, id in ipairs(core.undisrupted_units_at(game, n, core.enemy(side))) do
            if not core.is_neutral(game, id) then enemies = enemies + 1 end
        end
        if enemies >= 2 then return true end
    end
    return false
end

local function in_neutral_city(ctx, hex)
    local r = ctx.params.neutral_city_region
    return r ~= nil and map.in_region(hex, r)
end

-- ---- the supply route (6.2) -------------------------------------------------------------------
-- A "situation" is computed once per query: who occupies what, where the enemy cavalry stands.

-- This state's memo for one game configuration `ctx` (a test may use several in one state).
local function memo_of(ctx, game) return core.memo_table(game, ctx) end

-- Where every combat unit and commander stands for the rules (15.1: hidden units in their
-- marker's hex), once per set of pieces (game.pieces_memo) for both sides: parallel lists of the
-- pieces with a hex (units first, then commanders, each in piece order).
local function placed(game)
    local memo = game.pieces_memo()
    local pl = memo["supply.placed"]
    if pl then return pl end
    pl = { ids = {}, pieces = {}, hexes = {}, unit = {} }
    local n = 0
    -- the eliminated are nowhere for the rules: skipped without reading each piece
    local eliminated = {}
    for _, id in ipairs(core.stack(game, "box:eliminated")) do eliminated[id] = true end
    local pc = core.pieces(game)
    for _, cat in ipairs { "unit", "commander" } do
        for _, id in ipairs(game.pieces { category = cat }) do
            if not eliminated[id] then
                local p = pc[id]
                local hex = p.loc
                if hex and hex:sub(1, 4) == "box:" then hex = core.hex_of(game, id) end
                if hex then
                    n = n + 1
                    pl.ids[n], pl.pieces[n], pl.hexes[n], pl.unit[n] = id, p, hex, cat == "unit"
                end
            end
        end
    end
    memo["supply.placed"] = pl
    return pl
end

local function situation(ctx, game, side)
    -- memoised for the state (game.memo): pure function of it and of the game's ctx (hooks);
    -- its caches fill lazily
    local memo = memo_of(ctx, game)
    local key = "supply.situation." .. side
    if memo[key] then return memo[key] end
    local enemy = core.enemy(side)
    local frozen = ctx.hooks.supply_rivers_frozen and ctx.hooks.supply_rivers_frozen(ctx, game) or false
    local sit = { side = side, friendly = {}, friendly_combat = {}, friendly_cmd = {}, enemy = {},
                  enemy_cav = {}, enemy_ready = {}, cache = {}, cache_end = {}, city = {}, hexes = {},
                  base = {}, screened = {}, enemy_hexes = {}, cav_hexes = {}, frozen = frozen,
                  occupied = {}, cost = (frozen and MAP.cost_frozen or MAP.cost)[core.season(game)],
                  blocked = ctx.hooks.supply_blocked_region and ctx.hooks.supply_blocked_region(ctx, game, side) }
    local neutral = core.neutral_pieces(game)
    local pl = placed(game)
    local ids, pieces, hexes, units = pl.ids, pl.pieces, pl.hexes, pl.unit
    for i = 1, #ids do
        local id, p, hex = ids[i], pieces[i], hexes[i]
        sit.occupied[hex] = true
        if not neutral[id] then   -- 16.3: nobody's
            if p.owner == side then
                if not sit.friendly[hex] then sit.hexes[#sit.hexes + 1] = hex end
                sit.friendly[hex] = true
                if units[i] then
                    sit.friendly_combat[hex] = (sit.friendly_combat[hex] or 0) + 1
                else
                    sit.friendly_cmd[hex] = true
                end
            elseif p.owner == enemy then
                if not sit.enemy[hex] then sit.enemy_hexes[#sit.enemy_hexes + 1] = hex end
                sit.enemy[hex] = true
                if units[i] and p.face ~= "disrupted" then
                    sit.enemy_ready[hex] = (sit.enemy_ready[hex] or 0) + 1
                    if core.type_stat(p.type, "type") == "cavalry" and not sit.enemy_cav[hex] then
                        sit.cav_hexes[#sit.cav_hexes + 1] = hex
                        sit.enemy_cav[hex] = true
                        -- the hexes it screens: its neighbours, unless an unbridged river is between
                        for _, h in ipairs(MAP.nb[hex]) do
                            if not MAP.unbridged[h][hex] then sit.screened[h] = true end
                        end
                    end
                end
            end
        end
    end
    memo[key] = sit
    return sit
end

local function is_city(sit, hex)
    local v = sit.city[hex]
    if v == nil then
        v = MAP.city[hex] == true
        sit.city[hex] = v
    end
    return v
end

-- 8.4 General Exception for a stack of sit.side (digest A-6).
local function besieged(sit, hex)
    if sit.friendly_combat[hex] ~= 1 or not is_city(sit, hex) then return false end
    for _, n in ipairs(MAP.nb[hex]) do
        if (sit.enemy_ready[n] or 0) >= 2 then return true end
    end
    return false
end

-- Is `hex` occupied by a friendly stack for 6.2 (a combat unit in a neutral city, 14.15)?
local function friendly_held(ctx, sit, hex)
    if in_neutral_city(ctx, hex) then return (sit.friendly_combat[hex] or 0) > 0 end
    return sit.friendly[hex] == true
end

-- 6.2 bullets 1 and 2 for a hex the route enters; `is_end` exempts the supplying city from the
-- enemy-city bullet (it is reached, not passed through: RULINGS S-3).
local route_hex_check
local function route_hex_ok(ctx, game, sit, hex, is_end)
    local cache = is_end and sit.cache_end or sit.cache
    local v = cache[hex]
    if v == nil then
        v = route_hex_check(ctx, game, sit, hex, is_end)
        cache[hex] = v
    end
    return v
end

-- Bullet 1 (no enemy stack, no closed hex, no blocked region, no undisrupted enemy cavalry
-- adjacent unless across an unbridged river or the hex is friendly-held: sit.screened), the
-- same for both uses of a hex: cached in sit.base.
local function route_hex_base(ctx, game, sit, hex)
    local v = sit.base[hex]
    if v == nil then
        v = not sit.enemy[hex]
            and not (sit.occupied[hex] and core.closed(ctx, game, hex))   -- 1814 16.3
            and not (sit.blocked and map.in_region(hex, sit.blocked))
            and not (sit.screened[hex] and not sit.friendly[hex])
        sit.base[hex] = v
    end
    return v
end

function route_hex_check(ctx, game, sit, hex, is_end)
    if not route_hex_base(ctx, game, sit, hex) then return false end
    if not is_end and is_city(sit, hex) and not friendly_territory(sit.side, hex) then
        return friendly_held(ctx, sit, hex)
    end
    return true
end

-- Cost of the route stepping from a into b (6.2 bullets 3 and 4), nil when not allowed:
-- sit.cost[a][b] (every hex of the map has its table).

local function range_of(ctx, game)
    return ctx.params.supply_range[core.season(game)]
end

-- The side's Ultimate Supply Sources this Turn (a game's hook uss_lost(ctx, game, side) -> set
-- of hexes may take some away: 1814 16.1 REC 22).
local REGION = {}   -- map.region per region id (the module's map: immutable)
local function region(id)
    local r = REGION[id]
    if r == nil then
        r = map.region(id)
        REGION[id] = r
    end
    return r
end

local function uss_hexes(ctx, game, side)
    local lost = ctx.hooks.uss_lost and ctx.hooks.uss_lost(ctx, game, side) or {}
    local out = {}
    for _, h in ipairs(region(ctx.params.uss_region[side])) do
        if not lost[h] then out[#out + 1] = h end
    end
    return out
end
supply.uss_hexes = uss_hexes

-- Hexes a stack of sit.side may draw general supply from: friendly depots, and the USS. The set,
-- and the list of its hexes (each once).
local function supply_goals(ctx, game, side)
    local goals, list = {}, {}
    local function add(h)
        if not goals[h] then list[#list + 1] = h end
        goals[h] = true
    end
    for _, id in ipairs(supply.depots(game, side)) do add(core.piece(game, id).loc) end
    if ctx.params.trace_to_uss ~= false then
        for _, h in ipairs(uss_hexes(ctx, game, side)) do add(h) end
    end
    return goals, list
end

-- Route searches: Dijkstra over small integer costs (1 or 2 a hex, budgets of 3-5) with a
-- bucket queue, from `starts` (a sorted list of hexes at cost 0). A hex is queued once per cost it
-- gets, and only its last, least one matches when its bucket comes. Each search returns dist:
-- hex -> least cost, for every hex within the budget, and the list of those hexes (in the order
-- settled: cheaper than pairs over dist). Written out for each use: no callback, table or string
-- per step (these are the hottest loops of the supply rules).
local function new_buckets(starts, budget, dist)
    local buckets = {}
    for c = 0, budget do buckets[c] = {} end
    local b0 = buckets[0]
    for _, h in ipairs(starts) do
        dist[h] = 0
        b0[#b0 + 1] = h
    end
    return buckets
end

-- Across states: a field is a pure function of what its search reads, so positions that differ
-- only where no route cares (a friendly stack moved between two open hexes: the AI's searches try
-- hundreds of those a decision) share one trace. The key names all of it: the side, its range and
-- route costs (season, frozen rivers), the blocked region, the goals (depots, USS), the enemy's
-- hexes and its ready cavalry's (bullet 1), the friendly hexes where a friendly stack changes a
-- route (cities, bullet 2 and 14.15; screened hexes, bullet 1) and the hexes closed to supply
-- lines. Without the game's hook naming those (`supply_closed_hexes`, when it has `hex_closed`)
-- nothing is shared. Bounded per game configuration; its fields are read only, like the state's.
local SHARED_FIELDS = {}   -- ctx -> { n = count, by_key = { [key] = field }, hits = count }
local SHARED_FIELDS_MAX = 256

local function field_key(ctx, game, side, sit, goal_list, budget)
    local closed = ""
    if ctx.hooks.hex_closed then
        if not ctx.hooks.supply_closed_hexes then return nil end
        local hexes = ctx.hooks.supply_closed_hexes(ctx, game)   -- a new list: sorted in place
        table.sort(hexes)
        closed = table.concat(hexes, ",")
    end
    local t, n = {}, 0
    for _, h in ipairs(goal_list) do n = n + 1; t[n] = "G" .. h end
    for _, h in ipairs(sit.enemy_hexes) do n = n + 1; t[n] = "E" .. h end
    for _, h in ipairs(sit.cav_hexes) do n = n + 1; t[n] = "C" .. h end
    for _, h in ipairs(sit.hexes) do
        if MAP.city[h] or sit.screened[h] then
            n = n + 1
            t[n] = ((sit.friendly_combat[h] or 0) > 0 and "U" or "F") .. h
        end
    end
    table.sort(t)
    return table.concat({ side, budget, core.season(game), tostring(sit.frozen), sit.blocked or "",
                          closed, table.concat(t, ",") }, "|")
end

-- The side's supply field: hex -> true when a stack there is in general supply (6.1-6.2).
-- Searched backwards from every supply source at once: the steps of a route that ENTERS h are
-- the neighbours x with the cost of stepping x -> h.
local function supply_field(ctx, game, side, sit)
    -- memoised for the state (game.memo); callers only read the field
    local memo = memo_of(ctx, game)
    local key = "supply.field." .. side
    if memo[key] then return memo[key] end
    sit = sit or situation(ctx, game, side)
    local goals, list = supply_goals(ctx, game, side)
    local budget = range_of(ctx, game)
    local shared_key = field_key(ctx, game, side, sit, list, budget)
    local shared = shared_key and SHARED_FIELDS[ctx]
    if shared_key and not shared then
        shared = { n = 0, by_key = {}, hits = 0 }
        SHARED_FIELDS[ctx] = shared
    end
    if shared and shared.by_key[shared_key] then
        shared.hits = shared.hits + 1
        memo[key] = shared.by_key[shared_key]
        return memo[key]
    end
    local starts = {}
    for _, h in ipairs(list) do
        if MAP.playable[h] then starts[#starts + 1] = h end
    end
    table.sort(starts)
    -- backwards: the steps of a route that ENTERS h are the neighbours x, stepping x -> h
    local cost, nbs, pass_ok, end_ok = sit.cost, MAP.nb, sit.cache, sit.cache_end
    local dist, out = {}, {}
    local buckets = new_buckets(starts, budget, dist)
    for c = 0, budget do
        local bucket = buckets[c]
        for i = 1, #bucket do
            local h = bucket[i]
            if dist[h] == c then
                out[h] = true
                local ok
                if goals[h] == true then ok = end_ok[h] else ok = pass_ok[h] end
                if ok == nil then ok = route_hex_ok(ctx, game, sit, h, goals[h] == true) end
                if ok then
                    local nb = nbs[h]
                    for j = 1, #nb do
                        local x = nb[j]
                        local step = cost[x][h]
                        if step then
                            local nc = c + step
                            if nc <= budget then
                                local dx = dist[x]
                                if dx == nil or nc < dx then
                                    dist[x] = nc
                                    local b = buckets[nc]
                                    b[#b + 1] = x
                                end
                            end
                        end
                    end
                end
            end
        end
    end
    memo[key] = out
    if shared then
        if shared.n >= SHARED_FIELDS_MAX then
            shared.n, shared.by_key = 0, {}
        end
        shared.n = shared.n + 1
        shared.by_key[shared_key] = out
    end
    return out
end
supply._field = supply_field
-- (tests) how many traces a configuration's positions shared; forget what it shares
function supply._shared_field_hits(ctx) return SHARED_FIELDS[ctx] and SHARED_FIELDS[ctx].hits or 0 end
function supply._forget_shared_fields(ctx) SHARED_FIELDS[ctx] = nil end
supply._situation = situation

function supply.in_general_supply(ctx, game, hex, side)
    return supply_field(ctx, game, side)[hex] == true
end

local function supplied_in_place(ctx, game, id)
    return ctx.hooks.supplied_in_place ~= nil and ctx.hooks.supplied_in_place(ctx, game, id) == true
end

-- 6.6: units deemed in general supply (ignored for 6.4 and 7.6).
local function deemed(ctx, game, id)
    if core.is_commander(game, id) or core.is_cossack(game, id) then return true end
    if supplied_in_place(ctx, game, id) then return true end
    return ctx.hooks.deemed_in_general_supply ~= nil and ctx.hooks.deemed_in_general_supply(ctx, game, id) == true
end
supply.deemed_in_general_supply = deemed

-- A stack traces supply (7.3, 7.6 (a), 8.1): a route, or a unit supplied in place (14.13).
local function stack_supplied(ctx, game, hex, side, fieldset)
    if fieldset[hex] then return true end
    for _, id in ipairs(core.units_at(game, hex, side)) do
        if supplied_in_place(ctx, game, id) then return true end
    end
    return false
end

function supply.stack_in_general_supply(ctx, game, hex, side)
    return stack_supplied(ctx, game, hex, side, supply_field(ctx, game, side))
end

function supply.unit_in_general_supply(ctx, game, id)
    if deemed(ctx, game, id) then return true end
    local loc = core.hex_of(game, id)
    if not loc then return false end
    return supply.in_general_supply(ctx, game, loc, core.piece(game, id).owner)
end

-- ---- depot chains (7.8) -----------------------------------------------------------------------

-- 7.8: every hex a route of at most `range` from one of `sources` (USS or linked depots) can
-- reach; the source hex does not count, the hex reached does. 6.2 bullets 1-3 apply to the
-- hexes entered; the hex reached may be an unfriendly city (the depot site's own conditions are
-- those of 7.7), the hexes passed through may not unless held.
-- todo (optional): a set of hexes and their number todo.n; the search stops as soon as it has
-- settled all of them (its field is then partial).
local function link_field(ctx, game, sit, sources, source_list, range, todo)
    local starts = {}
    for _, h in ipairs(source_list) do
        if MAP.playable[h] then starts[#starts + 1] = h end
    end
    table.sort(starts)
    local cost, nbs, pass_ok, end_ok = sit.cost, MAP.nb, sit.cache, sit.cache_end
    local dist, settled = {}, {}
    local buckets = new_buckets(starts, range, dist)
    for c = 0, range do
        local bucket = buckets[c]
        for i = 1, #bucket do
            local h = bucket[i]
            if dist[h] == c then
                settled[#settled + 1] = h
                if todo and todo[h] then
                    todo[h] = nil
                    todo.n = todo.n - 1
                    if todo.n == 0 then return dist, settled end
                end
                -- the route passes through h unless h is a source (route_hex_ok's cache read first)
                local ok = sources[h]
                if not ok then
                    ok = pass_ok[h]
                    if ok == nil then ok = route_hex_ok(ctx, game, sit, h, false) end
                end
                if ok then
                    local from_h, nb = cost[h], nbs[h]
                    for j = 1, #nb do
                        local x = nb[j]
                        local step = from_h[x]
                        if step then
                            local nc = c + step
                            if nc <= range then
                                local dx = dist[x]
                                if dx == nil or nc < dx then
                                    -- the hex entered (it may be the supplying city: is_end)
                                    local e = end_ok[x]
                                    if e == nil then e = route_hex_ok(ctx, game, sit, x, true) end
                                    if e then
                                        dist[x] = nc
                                        local b = buckets[nc]
                                        b[#b + 1] = x
                                    end
                                end
                            end
                        end
                    end
                end
            end
        end
    end
    return dist, settled
end

-- The chain of 7.8: the USS hexes and every depot linked to them (extra: more depot hexes to
-- count, such as depots about to be established). Returns the linked set and the field of hexes
-- within reach of it, where a new depot may be linked. targets (optional): a list of hexes; the
-- chain stops growing once each of them is linked or in reach (the answer for them is then
-- known: the sets only grow).
local function chain(ctx, game, side, sit, extra, targets)
    local range = range_of(ctx, game)
    local linked, reach = {}, {}
    local keys = {}   -- the hexes of linked, then those of reach (for candidate_sites)
    local fresh, fresh_list = {}, {}
    for _, h in ipairs(uss_hexes(ctx, game, side)) do
        linked[h] = true
        keys[#keys + 1] = h
        fresh[h] = true
        fresh_list[#fresh_list + 1] = h
    end
    -- depots not linked yet (each hex once)
    local pending, pending_list = {}, {}
    local function add(h)
        if not pending[h] then pending_list[#pending_list + 1] = h end
        pending[h] = true
    end
    for _, id in ipairs(supply.depots(game, side)) do add(core.piece(game, id).loc) end
    for _, h in ipairs(extra or {}) do add(h) end
    local reach_keys = {}
    while #fresh_list > 0 do
        local todo   -- the targets not linked nor in reach yet
        if targets then
            todo = { n = 0 }
            for _, h in ipairs(targets) do
                if not (linked[h] or reach[h] or todo[h]) then
                    todo[h] = true
                    todo.n = todo.n + 1
                end
            end
            if todo.n == 0 then break end
        end
        -- the field of the newly linked sources only, merged into what is already in reach
        local dist, settled = link_field(ctx, game, sit, fresh, fresh_list, range, todo)
        for _, h in ipairs(settled) do
            local c, r = dist[h], reach[h]
            if r == nil then
                reach[h] = c
                reach_keys[#reach_keys + 1] = h
            elseif c < r then
                reach[h] = c
            end
        end
        fresh, fresh_list = {}, {}
        local rest = {}
        for _, h in ipairs(pending_list) do
            if reach[h] then
                if not linked[h] then keys[#keys + 1] = h end
                linked[h] = true
                fresh[h] = true
                fresh_list[#fresh_list + 1] = h
            else
                rest[#rest + 1] = h
            end
        end
        pending_list = rest
    end
    for _, h in ipairs(reach_keys) do keys[#keys + 1] = h end
    return linked, reach, keys
end

-- For bots (ai_hints.lua): the hexes of the side's depots linked to its USS now (7.8).
function supply._linked_depots(ctx, game, side)
    local linked = chain(ctx, game, side, situation(ctx, game, side))
    local out = {}
    for _, id in ipairs(supply.depots(game, side)) do
        local h = core.piece(game, id).loc
        if linked[h] then out[h] = true end
    end
    return out
end

-- Friendly depot hexes, memoized in the situation.
local function depot_hexes(game, sit)
    if not sit.depot_hexes then
        sit.depot_hexes = {}
        for _, id in ipairs(supply.depots(game, sit.side)) do sit.depot_hexes[core.piece(game, id).loc] = true end
    end
    return sit.depot_hexes
end

-- 7.7: may `side` establish a depot at hex (chain aside)? friendly city, or unfriendly city held
-- by a friendly stack (a friendly combat unit in a neutral city, 14.15); never under siege, never
-- on an enemy stack, never where a friendly depot already stands.
local function depot_site(ctx, game, side, hex, sit)
    if not is_city(sit, hex) or sit.enemy[hex] then return false end
    if depot_hexes(game, sit)[hex] then return false end
    if besieged(sit, hex) then return false end
    if friendly_territory(side, hex) then return true end
    -- a city that counts as friendly for depots this Turn (1814 16.1 RECs 8, 25)
    if ctx.hooks.depot_city_friendly and ctx.hooks.depot_city_friendly(ctx, game, side, hex) then return true end
    return friendly_held(ctx, sit, hex)
end

-- For bots (ai_hints.lua): would 7.7-7.8 let side establish a depot at hex now, a genuine train
-- of its standing there? What the supply.depot listing says of that hex (establishable), with the
-- chain grown only until hex is linked or in reach (it never leaves them once there).
function supply._depot_allowed(ctx, game, side, hex)
    local sit = situation(ctx, game, side)
    if not depot_site(ctx, game, side, hex, sit) then return false end
    local linked, reach = chain(ctx, game, side, sit, nil, { hex })
    return (linked[hex] or reach[hex]) ~= nil
end

-- Cities a new depot of sit.side could be linked to (7.8): the linked set and its reach.
-- keys: the hexes of both (chain's third result).
local function candidate_sites(ctx, game, side, sit, keys, friendly_only)
    local out = {}
    local seen = {}
    for _, h in ipairs(keys) do
        if not seen[h] then
            seen[h] = true
            if MAP.playable[h] and depot_site(ctx, game, side, h, sit)
                and (not friendly_only or friendly_territory(side, h)) then
                out[#out + 1] = h
            end
        end
    end
    table.sort(out)
    return out
end

-- ---- General Supply and Attrition (6) ---------------------------------------------------------

-- 6.4 for one unit found out of supply.
local function attrition(ctx, game, id)
    if not core.disrupted(game, id) then
        game.set_face(id, "disrupted")
        core.log_about(game, id, id .. " is disrupted: out of supply (6.4)")
        return
    end
    local class, season = core.class(game, id), core.season(game)
    for _, row in ipairs(defs.table("supply_attrition").rows) do
        if row[1] == class and row[2] == season then
            if row[3] == "eliminated" then core.eliminate(game, id, "out of supply when already disrupted, 6.4") end
            return
        end
    end
end

supply.general = { steps = {} }

function supply.general.begin(ctx, game)
    local out = {}   -- unit id -> true: out of supply (6.5: every status first, then 6.4)
    -- 6.1-6.2
    for _, side in ipairs(core.SIDES) do
        local f = supply_field(ctx, game, side)
        for _, id in ipairs(game.pieces { owner = side, category = "unit" }) do
            local loc = core.hex_of(game, id)
            if loc and not f[loc] then out[id] = true end
        end
    end
    -- 6.3: one die per stack under a forage marker
    local rolled = {}
    for _, m in ipairs(game.pieces { type = "forage" }) do
        if on_map(game, m) then
            local side = game.prop(m, "side")
            local hex
            for _, u in ipairs(game.prop(m, "units") or {}) do
                if core.piece(game, u) and core.hex_of(game, u) then hex = core.hex_of(game, u); break end
            end
            if hex and side and ctx.hooks.forage_ignored and ctx.hooks.forage_ignored(ctx, game, side, hex) then
                game.log("The " .. side .. " stack at " .. hex .. " ignores its forage marker this Turn")
            elseif hex and side and not rolled[hex .. side] then
                rolled[hex .. side] = true
                local units = core.units_at(game, hex, side)
                local score = game.roll(1, 6, "6.3 forage: " .. side .. " stack at " .. hex .. " (" .. #units .. " combat units)")
                if score <= #units then
                    game.log("The " .. side .. " stack at " .. hex .. " fails to forage (6.3): out of supply")
                    for _, id in ipairs(units) do out[id] = true end
                else
                    game.log("The " .. side .. " stack at " .. hex .. " forages successfully (6.3)")
                end
            end
            game.remove(m)
        end
    end
    -- 6.4 with the 6.6 exceptions, all at once (6.5)
    local ids = {}
    for id in pairs(out) do ids[#ids + 1] = id end
    table.sort(ids)
    for _, id in ipairs(ids) do
        if not deemed(ctx, game, id) then attrition(ctx, game, id) end
    end
    ctx.next_phase(game)
end

-- ---- Active Supply (7) ------------------------------------------------------------------------

local function card_row(game, name)
    local v = game.var(name)
    if type(v) ~= "string" then return nil end
    local out = {}
    for n in v:gmatch("%-?%d+") do out[#out + 1] = tonumber(n) end
    return out
end

-- Supply Trains per the Set Up Card for this Turn (7.4, 8.2, 13.2: "irrespective of any
-- adjustment"), or the track when the scenario has no schedule.
function supply.card_trains(game, side)
    local row = card_row(game, "supply_trains_" .. side)
    if row and row[game.turn()] then return row[game.turn()] end
    return game.track(side .. "_supply_trains")
end

-- 7.4 / 8.2 / 13.2: the side with the most Supply Trains per the Set Up Card (ties: param).
function supply.first_side(ctx, game)
    local f, c = supply.card_trains(game, "french"), supply.card_trains(game, "coalition")
    local sides = ctx.params.sides or core.SIDES
    if f == c then return ctx.params.supply_tie_first or sides[1] end
    return f > c and "french" or "coalition"
end

local function var(game, name, value)
    if value == nil then return game.var(name) end
    game.set_var(name, value)
end

-- Hexes where `side` may allocate a genuine train now: 7.3 stacks (a commander and a combat unit
-- that traces supply) and 7.7 depot sites with a plausible chain (existing depots plus cities
-- already holding one of side's trains). Returns {hex = "stack" | "depot" | "both"}.
-- Also returns the situation and the target hexes, sorted.
local function allocation_targets(ctx, game, side)
    local sit = situation(ctx, game, side)
    local fieldset = supply_field(ctx, game, side, sit)
    local out, hexes = {}, {}
    for _, hex in ipairs(sit.hexes) do   -- the friendly hexes: those with a commander
        if sit.friendly_cmd[hex] and sit.friendly_combat[hex] and stack_supplied(ctx, game, hex, side, fieldset)
            and command.train_allowed(ctx, game, core.commanders_at(game, hex, side), core.units_at(game, hex, side)) then
            out[hex] = "stack"   -- 16.2 (advanced): a Commander able to command a unit of the stack
            hexes[#hexes + 1] = hex
        end
    end
    local extra = {}
    for _, id in ipairs(game.pieces { type = genuine_type(side), face = "train" }) do
        local loc = core.piece(game, id).loc
        if loc and loc:sub(1, 4) ~= "box:" and is_city(sit, loc) then extra[#extra + 1] = loc end
    end
    local _, _, keys = chain(ctx, game, side, sit, extra)
    for _, hex in ipairs(candidate_sites(ctx, game, side, sit, keys, false)) do
        if not out[hex] then hexes[#hexes + 1] = hex end
        out[hex] = out[hex] and "both" or "depot"
    end
    table.sort(hexes)
    return out, sit, hexes
end

local function sorted_keys(t)
    local out = {}
    for k in pairs(t) do out[#out + 1] = k end
    table.sort(out)
    return out
end

local function alloc_var(side) return "supply_alloc_" .. side end

local function allocate_prompt(game, side)
    return "Allocate a Supply Train to a stack with a commander in general supply, or to a city "
        .. "for a depot, or pass and discard one (7.4); " .. game.var(alloc_var(side)) .. " left"
end

local function decide_allocation(ctx, game)
    local side = core.alt_current(game, "supply")
    game.set_active(side)
    game.decide { role = side, step = "supply.allocate", rule = "7.4", prompt = allocate_prompt(game, side) }
end

local decide_depots

local function end_allocation(ctx, game)
    supply.place_forage(ctx, game)
    decide_depots(ctx, game, var(game, "supply_first"))
end

-- Trains of this Turn that may only go to certain stacks (a game's hook supply_trains_reserved(ctx,
-- game, side) -> n, stack_ok(game, hex); 1814 16.1 REC 12): how many are still owed to such stacks.
local function reserved_owed(ctx, game, side)
    if not ctx.hooks.supply_trains_reserved then return 0 end
    local n, ok = ctx.hooks.supply_trains_reserved(ctx, game, side)
    return math.max(0, (n or 0) - (game.var("supply_reserved_used_" .. side) or 0)), ok
end

local function start_allocation(ctx, game)
    local first = var(game, "supply_first")
    for _, s in ipairs(core.SIDES) do game.set_var("supply_reserved_used_" .. s, nil) end
    core.alt_start(game, "supply", first)
    for _, s in ipairs(core.SIDES) do
        if game.var(alloc_var(s)) <= 0 then core.alt_finish(game, "supply", s) end
    end
    if core.alt_is_done(game, "supply", first) then
        if core.alt_next(game, "supply") == nil then return end_allocation(ctx, game) end
    end
    decide_allocation(ctx, game)
end

-- 7.2: trains to allocate = Set Up Card figure (track) - depots on the board (- the converted
-- one, which is one of them: digest A-3). A negative figure removes depots, opponent's choice.
local function count_allocation(ctx, game, side)
    local base = game.track(side .. "_supply_trains")
    -- this Turn's extra or fewer trains of a game's rules (1814 16.1 event cards)
    if ctx.hooks.supply_trains_adjust then base = base + ctx.hooks.supply_trains_adjust(ctx, game, side) end
    local depots = #supply.depots(game, side)
    local converted = game.var("supply_converted_" .. side) and 1 or 0
    return base - depots - converted
end

local function next_removal_or_allocation(ctx, game)
    for _, side in ipairs { var(game, "supply_first"), core.enemy(var(game, "supply_first")) } do
        local n = count_allocation(ctx, game, side)
        if n < 0 then
            if #supply.depots(game, side) > 0 then
                local enemy = core.enemy(side)
                game.set_active(enemy)
                return game.decide { role = enemy, step = "supply.remove_depot", rule = "7.2",
                    prompt = "The " .. side .. " Supply Trains are " .. -n .. " short: choose a "
                        .. side .. " depot to remove from the board (7.2 play note)",
                    context = { side = side } }
            end
            -- only the converted train is left to give back
            for _, hex in ipairs(game.occupied()) do
                for _, id in ipairs(genuine_trains_at(game, hex, side)) do
                    if not core.piece(game, id).hidden then to_pool(game, id) end
                end
            end
            game.set_var("supply_converted_" .. side, false)
        end
    end
    for _, side in ipairs(core.SIDES) do
        game.set_var(alloc_var(side), math.max(0, count_allocation(ctx, game, side)))
        game.log(side .. " allocates " .. game.var(alloc_var(side)) .. " Supply Trains this Turn (7.2)")
    end
    start_allocation(ctx, game)
end

-- 7.1: a friendly depot on a hex held by a friendly stack.
local function convertible(game, side)
    local out = {}
    for _, id in ipairs(supply.depots(game, side)) do
        if core.side_at(game, core.piece(game, id).loc) == side then out[#out + 1] = id end
    end
    return out
end

local function decide_conversion(ctx, game, side)
    game.set_active(side)
    game.decide { role = side, step = "supply.convert", rule = "7.1",
                  prompt = "Convert one depot on a hex held by a friendly stack into a Supply Train, or keep them (7.1)",
                  context = { side = side } }
end

local function after_conversion(ctx, game, side)
    local first = var(game, "supply_first")
    if side == first then
        local other = core.enemy(first)
        if #convertible(game, other) > 0 then return decide_conversion(ctx, game, other) end
    end
    next_removal_or_allocation(ctx, game)
end

supply.active = { steps = {} }

function supply.active.begin(ctx, game)
    supply.clear_trains(game)   -- nothing allocated survives from an earlier Turn
    local first = supply.first_side(ctx, game)
    game.set_var("supply_first", first)
    for _, s in ipairs(core.SIDES) do game.set_var("supply_converted_" .. s, false) end
    if #convertible(game, first) > 0 then return decide_conversion(ctx, game, first) end
    after_conversion(ctx, game, first)
end

local steps = supply.active.steps

steps["supply.convert"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local out = {}
        for _, id in ipairs(convertible(game, role)) do
            local hex = core.piece(game, id).loc
            out[#out + 1] = { kind = "convert", args = { hex }, hexes = { hex }, pieces = { id },
                              label = "Convert the depot at " .. hex .. " into a Supply Train (7.1)" }
        end
        out[#out + 1] = { kind = "pass", args = {}, label = "Convert no depot" }
        return out
    end,
    apply = function(ctx, game, role, action, d)
        if action.kind == "convert" then
            local hex = action.args[1]
            local id = supply.depot_at(game, hex, role)
            game.set_face(id, "train")
            game.move(id, hex)   -- on top of the stack, face up
            game.set_var("supply_converted_" .. role, true)
            game.log(role .. " converts the depot at " .. hex .. " into a Supply Train (7.1)")
        end
        after_conversion(ctx, game, role)
    end,
}

steps["supply.remove_depot"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local out = {}
        for _, id in ipairs(supply.depots(game, d.context.side)) do
            local hex = core.piece(game, id).loc
            out[#out + 1] = { kind = "remove", args = { hex }, hexes = { hex }, pieces = { id },
                              label = "Remove the " .. d.context.side .. " depot at " .. hex .. " (7.2)" }
        end
        return out
    end,
    apply = function(ctx, game, role, action, d)
        local id = supply.depot_at(game, action.args[1], d.context.side)
        game.log("The " .. d.context.side .. " depot at " .. action.args[1] .. " is removed from the board (7.2)")
        to_pool(game, id)
        next_removal_or_allocation(ctx, game)
    end,
}

steps["supply.allocate"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local out = {}
        local targets, sit, target_hexes = allocation_targets(ctx, game, role)
        local owed, stack_ok = reserved_owed(ctx, game, role)
        local only_reserved = owed > 0 and game.var(alloc_var(role)) <= owed
        for _, hex in ipairs(target_hexes) do
            local what = targets[hex]
            if only_reserved then
                -- the last trains must go to the stacks they are reserved for
                what = (what ~= "depot" and stack_ok(game, hex)) and "stack" or nil
            end
            if what then
                local label = what == "stack" and "to the stack (rally or move, 7.3)"
                    or what == "depot" and "to the city, for a depot (7.7)"
                    or "to the stack or for a depot (7.3, 7.7)"
                -- 7.4/7.5: the opponent sees only that a counter was placed, never genuine or dummy.
                out[#out + 1] = { kind = "allocate", args = { hex }, hexes = { hex },
                                  public = "supply-train " .. hex,
                                  label = "Allocate a Supply Train at " .. hex .. " " .. label }
            end
        end
        if dummies_left(ctx, game, role) > 0 then
            local friendly = table.move(sit.hexes, 1, #sit.hexes, 1, {})   -- the keys of sit.friendly
            table.sort(friendly)
            for _, hex in ipairs(friendly) do
                do
                    out[#out + 1] = { kind = "dummy", args = { hex }, hexes = { hex },
                                      public = "supply-train " .. hex,
                                      label = "Place a dummy Supply Train on the stack at " .. hex .. " (7.5)" }
                end
            end
        end
        out[#out + 1] = { kind = "pass", args = {}, label = "Pass: discard one genuine Supply Train (7.4)" }
        return out
    end,
    apply = function(ctx, game, role, action, d)
        if action.kind == "dummy" then
            local id = take_counter(game, dummy_type(role), role)
            game.move(id, action.args[1])
            game.set_hidden(id, true)
            game.log(role .. " places a Supply Train at " .. action.args[1], role)
            game.log(role .. " places a Supply Train counter at " .. action.args[1])
            return decide_allocation(ctx, game)   -- a dummy is not the player's allocation (A-4)
        end
        if action.kind == "allocate" then
            local owed, stack_ok = reserved_owed(ctx, game, role)
            if owed > 0 and stack_ok(game, action.args[1]) then
                game.set_var("supply_reserved_used_" .. role, (game.var("supply_reserved_used_" .. role) or 0) + 1)
            end
            place_train(game, role, action.args[1], false)
            game.log(role .. " allocates a Supply Train at " .. action.args[1] .. " (7.4)")
        else
            game.log(role .. " passes and discards a Supply Train (7.4)")
        end
        game.set_var(alloc_var(role), game.var(alloc_var(role)) - 1)
        if game.var(alloc_var(role)) <= 0 then core.alt_finish(game, "supply", role) end
        if core.alt_next(game, "supply") == nil then return end_allocation(ctx, game) end
        decide_allocation(ctx, game)
    end,
}

-- 7.6 forage markers (from the Turn given by params.forage_from_turn).
local function forage_ignored(ctx, game, hex, side)
    for _, id in ipairs(core.units_at(game, hex, side)) do
        if not deemed(ctx, game, id) then return false end
    end
    return true
end

function supply.place_forage(ctx, game)
    if game.turn() < (ctx.params.forage_from_turn or 1) then return end
    local marks = {}
    for _, side in ipairs(core.SIDES) do
        local fieldset = supply_field(ctx, game, side)
        local stacks, counts = {}, {}
        for _, hex in ipairs(game.occupied()) do
            if #core.units_at(game, hex, side) > 0 and not forage_ignored(ctx, game, hex, side) then
                stacks[hex] = true
                -- 7.6 note: a stack in a city with a depot not under siege is ignored for (b)
                counts[hex] = not (supply.depot_at(game, hex, side) and not supply.under_siege(game, hex))
            end
        end
        for _, hex in ipairs(sorted_keys(stacks)) do
            if #genuine_trains_at(game, hex, side) == 0 then
                local a = not friendly_territory(side, hex) and not stack_supplied(ctx, game, hex, side, fieldset)
                local b = false
                if counts[hex] then
                    local n = 0
                    for _, x in ipairs(MAP.nb[hex]) do
                        if stacks[x] and counts[x] then n = n + 1 end
                    end
                    b = n >= 2
                end
                if a or b then marks[#marks + 1] = { hex = hex, side = side, why = a and "(a)" or "(b)" } end
            end
        end
    end
    if ctx.hooks.extra_forage then
        for _, side in ipairs(core.SIDES) do
            for _, hex in ipairs(ctx.hooks.extra_forage(ctx, game, side)) do
                local dup = false
                for _, m in ipairs(marks) do if m.hex == hex and m.side == side then dup = true end end
                if not dup and #core.units_at(game, hex, side) > 0 then
                    marks[#marks + 1] = { hex = hex, side = side, why = "(event card)" }
                end
            end
        end
    end
    for _, m in ipairs(marks) do
        local units = core.units_at(game, m.hex, m.side)
        local id = take_counter(game, "forage", nil)
        game.move(id, m.hex)
        game.set_prop(id, "side", m.side)
        -- the marker names the units on the map only: the opponent sees its props (15.1)
        game.set_prop(id, "units", core.map_units_at(game, m.hex, m.side))
        for _, u in ipairs(units) do game.set_prop(u, "forage", true) end
        game.log("Forage marker on the " .. m.side .. " stack at " .. m.hex .. " (7.6 " .. m.why .. ")")
    end
end

-- 7.7-7.8: the sites where `side` may establish a depot now with a genuine train there.
local function establishable(ctx, game, side)
    local sit = situation(ctx, game, side)
    local sites = {}
    local seen = {}
    for _, id in ipairs(game.pieces { type = genuine_type(side), face = "train" }) do
        local hex = core.piece(game, id).loc
        if hex and hex:sub(1, 4) ~= "box:" and not seen[hex] then
            seen[hex] = true
            if depot_site(ctx, game, side, hex, sit) then sites[#sites + 1] = hex end
        end
    end
    local out = {}
    if #sites > 0 then
        -- the chain needs to grow only until every site is linked or in reach
        local linked, reach = chain(ctx, game, side, sit, nil, sites)
        for _, hex in ipairs(sites) do
            if linked[hex] or reach[hex] then out[#out + 1] = hex end
        end
    end
    table.sort(out)
    return out
end

-- 7.7 ends for `side`: trains left on a hex without a friendly stack served only for a depot and
-- are removed; then the other side, or the end of the phase.
local function close_depots(ctx, game, side)
    for _, hex in ipairs(game.occupied()) do
        if core.side_at(game, hex) ~= side then
            for _, id in ipairs(supply.trains_at(game, hex, side)) do to_pool(game, id) end
        end
    end
    if side == var(game, "supply_first") then return decide_depots(ctx, game, core.enemy(side)) end
    ctx.next_phase(game)
end

-- The 7.7 decision of `side`, skipped when it has no depot to establish.
function decide_depots(ctx, game, side)
    if #establishable(ctx, game, side) == 0 then return close_depots(ctx, game, side) end
    game.set_active(side)
    game.decide { role = side, step = "supply.depot", rule = "7.7",
                  prompt = "Establish new depots with your Supply Trains on cities (7.7-7.8), then done",
                  context = { side = side } }
end

steps["supply.depot"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local out = {}
        for _, hex in ipairs(establishable(ctx, game, role)) do
            out[#out + 1] = { kind = "depot", args = { hex }, hexes = { hex },
                              label = "Establish a depot at " .. hex .. " (7.7)" }
        end
        out[#out + 1] = { kind = "done", args = {}, label = "Establish no more depots" }
        return out
    end,
    apply = function(ctx, game, role, action, d)
        if action.kind == "depot" then
            local hex = action.args[1]
            local id = genuine_trains_at(game, hex, role)[1]
            place_depot(game, role, hex, id)
            game.log(role .. " establishes a depot at " .. hex .. " (7.7)")
            return decide_depots(ctx, game, role)
        end
        close_depots(ctx, game, role)
    end,
}

-- ---- 14.1: depots deployed with the set-up ------------------------------------------------------
-- supply.setup_depots(ctx, game, order, done_var): each side of `order` in turn may deploy
-- depots on friendly cities linked to its USS (7.7-7.8), up to its Turn-1 Supply Trains. When
-- both are done, var done_var is set and ctx.phases.start.begin is called again.

local function setup_sites(ctx, game, side)
    local sit = situation(ctx, game, side)
    if #supply.depots(game, side) >= game.track(side .. "_supply_trains") then return {} end
    local _, _, keys = chain(ctx, game, side, sit)
    return candidate_sites(ctx, game, side, sit, keys, true)
end

function supply.setup_depots(ctx, game, order, done_var)
    game.set_active(order[1])
    game.decide { role = order[1], step = "supply.setup_depot", rule = "14.1",
                  prompt = "Deploy Supply Trains as depots on friendly cities linked to your supply sources (14.1, 7.7-7.8), then done",
                  context = { order = order, done_var = done_var } }
end

steps["supply.setup_depot"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local out = {}
        for _, hex in ipairs(setup_sites(ctx, game, role)) do
            out[#out + 1] = { kind = "depot", args = { hex }, hexes = { hex },
                              label = "Deploy a depot at " .. hex .. " (14.1)" }
        end
        out[#out + 1] = { kind = "done", args = {}, label = "Deploy no more depots" }
        return out
    end,
    apply = function(ctx, game, role, action, d)
        if action.kind == "depot" then
            place_depot(game, role, action.args[1])
            game.log(role .. " deploys a depot at " .. action.args[1] .. " (14.1)")
            return game.decide { role = role, step = d.step, rule = d.rule, prompt = d.prompt, context = d.context }
        end
        local order = d.context.order
        if role == order[1] and order[2] then
            game.set_active(order[2])
            return game.decide { role = order[2], step = d.step, rule = d.rule, prompt = d.prompt,
                                 context = { order = { order[2] }, done_var = d.context.done_var } }
        end
        game.set_var(d.context.done_var, true)
        ctx.phases.start.begin(ctx, game)
    end,
}

return supply
