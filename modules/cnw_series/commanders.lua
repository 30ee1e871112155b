-- Commanders' Movement (rule 12) of the Campaigns of the Napoleonic Wars.
--
-- 12.1: after the Combat phase every Commander, even one that moved in the Movement phase, may
-- move up to three contiguous hexes (counted as plain hexes: terrain costs nothing, digest A-22;
-- impassable hexes and lake hexsides stay closed). He must end on a hex holding a friendly combat
-- unit or on a city in friendly territory; no hex of the way (the last one included) may hold an
-- enemy stack, or be a city in enemy territory unless a friendly stack occupies it.
-- 12.2 (printed "13.2" in 1814): the players alternate, one Commander at a time, the side with
-- the most CCs per 9.3 first (variable first_player, set by the Combat Commands phase; the French
-- if it is missing). A player who passes has finished (rulings M-13).
--
-- State: the alternation "alt_commanders" (core.alt_*), the per-phase property
-- `commanders_moved` on each Commander that has moved. Hook: ctx.hooks.commander_may_leave(ctx,
-- game, id, "commanders") (1814 r.14.5: Napoleon in Paris; 16.3: Murat while neutral); closed hexes
-- (core.closed: 1814 r.16.3, 14.11).
local core = require("cnw.core")

local M = {}

local ALT = "commanders"

local function on_map(game, id)
    local loc = game.piece(id).loc
    return loc ~= nil and loc:sub(1, 4) ~= "box:" and map.exists(loc)
end

local function may_leave(ctx, game, id)
    if ctx.hooks.commander_may_leave then return ctx.hooks.commander_may_leave(ctx, game, id, "commanders") end
    return true
end

local function hexes_allowed(ctx) return ctx.params.commander_move_hexes or 3 end

-- Speed (the listing of 12.1 asks these of every hex within three hexes of every commander):
-- STATIC caches the module's immutable map data per hex (never game state); occupancy(game, h,
-- side) reads a stack once for core.side_at and "has a unit of side".
local STATIC = {}
local function static(h)
    local v = STATIC[h]
    if v == nil then
        v = { playable = core.playable(h), city = core.is_city(h), nb = map.neighbours(h),
              mountain = map.exists(h) and map.terrain(h) == "mountain",
              friendly = { french = core.friendly_territory("french", h),
                           coalition = core.friendly_territory("coalition", h) },
              lake = {}, pass = {} }
        STATIC[h] = v
    end
    return v
end

-- The hexside a|b: is it a lake? a pass? (static, cached on a)
local function hexside_flags(sa, a, b)
    local lake = sa.lake[b]
    if lake == nil then
        lake = map.has_hexside(a, b, "lake")
        sa.lake[b] = lake
        sa.pass[b] = map.has_hexside(a, b, "pass")
    end
    return lake, sa.pass[b]
end

-- The hexes holding any piece, once per state.
local function occupied_set(game)
    local memo = game.memo()
    local occupied = memo["commanders.occupied"]
    if not occupied then
        occupied = {}
        for _, x in ipairs(game.occupied()) do occupied[x] = true end
        memo["commanders.occupied"] = occupied
    end
    return occupied
end

local CATEGORY = {}
local function occupancy(game, h, side)
    if not occupied_set(game)[h] then return nil, false end
    local occupant, found, has_unit = nil, false, false
    for _, id in ipairs(game.pieces_at(h)) do
        local p = game.piece(id)
        local c = CATEGORY[p.type]
        if c == nil then
            c = defs.counter(p.type).category
            CATEGORY[p.type] = c
        end
        if not found and (c == "unit" or c == "commander") then occupant, found = p.owner, true end
        if c == "unit" and p.owner == side then has_unit = true end
    end
    return occupant, has_unit
end

local function friendly_territory(side, h)
    local f = static(h).friendly[side]
    if f == nil then return core.friendly_territory(side, h) end
    return f
end

-- 12.1: may a moving commander of `side` enter h at all (on the way or at the end)?
local function passable(game, side, h, occupant)
    if not static(h).playable then return false end
    if occupant == nil then occupant = core.side_at(game, h) end
    if occupant == core.enemy(side) then return false end
    if static(h).city and not friendly_territory(side, h) and occupant ~= side then return false end
    return true
end

local function may_end(game, side, h, has_unit)
    if has_unit == nil then has_unit = #core.units_at(game, h, side) > 0 end
    return has_unit or (static(h).city and friendly_territory(side, h))
end

-- The hexes commander `id` may move to (sorted). `memo` (optional) is shared by the calls of one
-- listing for commanders of the same side.
function M.destinations(ctx, game, id, memo)
    local side = core.owner(game, id)
    local from = game.piece(id).loc
    memo = memo or {}
    -- memo[h]: 0 closed, 1 passable, 2 passable and a possible end; 3/4 the same in a mountain
    -- hex (entered only through a pass, 2.2)
    local function ok(h)
        local v = memo[h]
        if v == nil then
            local occupant, has_unit = false, false
            if static(h).playable then occupant, has_unit = occupancy(game, h, side) end
            v = passable(game, side, h, occupant or false) and (may_end(game, side, h, has_unit) and 2 or 1) or 0
            if v > 0 and static(h).mountain then v = v + 2 end
            memo[h] = v
        end
        return v
    end
    -- core.closed depends on who moves: memoized for the listing per class of Commander (hook
    -- closure_class; by default each Commander alone), and asked only for hexes holding pieces
    -- (only what stands in a hex closes it)
    local ids = { id }
    local class = ctx.hooks.closure_class and ctx.hooks.closure_class(ctx, game, id) or id
    memo.closed = memo.closed or {}
    memo.closed[class] = memo.closed[class] or {}
    local closed = memo.closed[class]
    local occupied = occupied_set(game)
    local function is_closed(b)
        local c = closed[b]
        if c == nil then
            c = occupied[b] and core.closed(ctx, game, b, ids) or false
            closed[b] = c
        end
        return c
    end
    -- Every step costs 1: a breadth-first search in Lua over the cached map data gives the set
    -- game.reachable would, without a Lua call back per hexside.
    local reached, frontier, out = { [from] = true }, { from }, {}
    for _ = 1, hexes_allowed(ctx) do
        local nextf = {}
        for _, a in ipairs(frontier) do
            local sa = static(a)
            for _, b in ipairs(sa.nb) do
                if not reached[b] then
                    local v = memo[b] or ok(b)
                    if v ~= 0 and not is_closed(b) then
                        local lake, pass = hexside_flags(sa, a, b)
                        if not lake and (v <= 2 or pass) then
                            reached[b] = true
                            nextf[#nextf + 1] = b
                            if v % 2 == 0 then out[#out + 1] = b end
                        end
                    end
                end
            end
        end
        frontier = nextf
    end
    table.sort(out)
    return out
end

local function movable(ctx, game, side)
    local out = {}
    for _, id in ipairs(game.pieces { owner = side, category = "commander" }) do
        if on_map(game, id) and not game.prop(id, "commanders_moved") and may_leave(ctx, game, id) then
            out[#out + 1] = id
        end
    end
    return out
end

local function has_move(ctx, game, side)
    local memo = {}
    for _, id in ipairs(movable(ctx, game, side)) do
        if #M.destinations(ctx, game, id, memo) > 0 then return true end
    end
    return false
end

local function decide_next(ctx, game, advance)
    if game.result() then return end
    for _, side in ipairs(core.SIDES) do
        if not core.alt_is_done(game, ALT, side) and not has_move(ctx, game, side) then
            core.alt_finish(game, ALT, side)
        end
    end
    local a = game.var("alt_" .. ALT)
    local side = a.turn
    if advance or a["done_" .. side] then side = core.alt_next(game, ALT) end
    if not side then
        game.log("Commanders' Movement phase over (12)")
        return ctx.next_phase(game)
    end
    game.decide { role = side, step = "commanders.move", rule = "12.1",
                  prompt = "Move one Commander up to three hexes to a friendly stack or a friendly city, or pass to end your Commanders' Movement (12.1-12.2)" }
end

function M.begin(ctx, game)
    for _, id in ipairs(game.pieces { category = "commander" }) do
        if game.prop(id, "commanders_moved") then game.set_prop(id, "commanders_moved", nil) end
    end
    local first = game.var("first_player")
    if first ~= "french" and first ~= "coalition" then first = "french" end
    core.alt_start(game, ALT, first)
    game.log("Commanders' Movement: " .. first .. " moves first (12.2, 9.3)")
    decide_next(ctx, game, false)
end

M.steps = {
    ["commanders.move"] = {
        actions = function(ctx, game, role, d)
            local out = {}
            local memo = {}
            for _, id in ipairs(movable(ctx, game, role)) do
                local from = game.piece(id).loc
                -- per Commander: closed hexes (core.closed) may depend on who moves
                for _, h in ipairs(M.destinations(ctx, game, id, memo)) do
                    out[#out + 1] = { kind = "move", args = { id, h }, hexes = { from, h }, pieces = { id },
                                      label = "Move " .. id .. " from " .. from .. " to " .. h .. " (12.1)" }
                end
            end
            out[#out + 1] = { kind = "pass", args = {}, label = "End your Commanders' Movement (12.2)" }
            return out
        end,
        apply = function(ctx, game, role, action, d)
            if action.kind == "pass" then
                core.alt_finish(game, ALT, role)
                game.log(role .. " ends its Commanders' Movement (12.2)")
                return decide_next(ctx, game, true)
            end
            local id, h = action.args[1], action.args[2]
            local from = game.piece(id).loc
            game.move(id, h)
            game.set_prop(id, "commanders_moved", true)
            game.log(id .. " moves from " .. from .. " to " .. h .. " (12.1)")
            decide_next(ctx, game, true)
        end,
    },
}

return M
