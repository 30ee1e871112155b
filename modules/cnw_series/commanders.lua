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

-- ON_MAP[loc]: is location loc a hex of the map (not a box)? (the module's map: immutable)
local ON_MAP = {}
local function on_map_loc(loc)
    if loc == nil then return false end
    local e = ON_MAP[loc]
    if e == nil then
        e = loc:sub(1, 4) ~= "box:" and map.exists(loc)
        ON_MAP[loc] = e
    end
    return e
end

local function may_leave(ctx, game, id)
    if ctx.hooks.commander_may_leave then return ctx.hooks.commander_may_leave(ctx, game, id, "commanders") end
    return true
end

local function hexes_allowed(ctx) return ctx.params.commander_move_hexes or 3 end

-- Speed (the listing of 12.1 asks these of every hex within three hexes of every commander):
-- STATIC caches the module's immutable map data per hex (never game state): nb, the neighbours,
-- and per neighbour i whether the hexside is a lake (lake[i]) or a pass (pass[i]).
local STATIC = {}
local function static(h)
    local v = STATIC[h]
    if v == nil then
        local nb = map.neighbours(h)
        v = { playable = core.playable(h), city = core.is_city(h), nb = nb,
              mountain = map.exists(h) and map.terrain(h) == "mountain",
              friendly = { french = core.friendly_territory("french", h),
                           coalition = core.friendly_territory("coalition", h) },
              lake = {}, pass = {} }
        for i, b in ipairs(nb) do
            v.lake[i] = map.has_hexside(h, b, "lake")
            v.pass[i] = map.has_hexside(h, b, "pass")
        end
        STATIC[h] = v
    end
    return v
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

local function friendly_territory(side, h)
    local f = static(h).friendly[side]
    if f == nil then return core.friendly_territory(side, h) end
    return f
end

-- memo[h] for a commander of `side`: 0 closed, 1 passable, 2 passable and a possible end; 3/4
-- the same in a mountain hex (entered only through a pass, 2.2). 12.1: he may not enter a hex
-- holding an enemy stack (core.side_at), nor a city in enemy territory unless a friendly stack
-- holds it; he may end on a friendly combat unit or a city in friendly territory. For a hex
-- holding pieces (empty ones: empty_value below); the stack is read once.
local function hex_value(game, side, h)
    local sh = static(h)
    if not sh.playable then return 0 end
    local occupant, has_unit = false, false
    local pc = core.pieces(game)
    for _, id in ipairs(core.stack(game, h)) do
        local p = pc[id]
        local c = core.type_category(p.type)
        if occupant == false and (c == "unit" or c == "commander") then occupant = p.owner end
        if c == "unit" and p.owner == side then has_unit = true end
    end
    if occupant == core.enemy(side) then return 0 end
    local friendly = friendly_territory(side, h)
    if sh.city and not friendly and occupant ~= side then return 0 end
    local v = (has_unit or (sh.city and friendly)) and 2 or 1
    if sh.mountain then v = v + 2 end
    return v
end

-- hex_value of an empty hex depends on the map alone: EMPTY[side][h] caches it (immutable map
-- facts, never game state).
local EMPTY = {}
local function empty_value(side, h)
    local t = EMPTY[side]
    if t == nil then
        t = {}
        EMPTY[side] = t
    end
    local v = t[h]
    if v == nil then
        local sh = static(h)
        v = 0
        if sh.playable and not (sh.city and not friendly_territory(side, h)) then
            v = (sh.city and friendly_territory(side, h)) and 2 or 1
            if sh.mountain then v = v + 2 end
        end
        t[h] = v
    end
    return v
end

-- STEPS[side][a][i]: a step of a commander of `side` from a into its neighbour i when that hex is
-- empty: 0 not allowed (a lake hexside, a value of 0, a mountain without a pass), 1 allowed, 2
-- allowed and a possible end (map facts only, like EMPTY).
local STEPS = {}
local function empty_steps(side, a)
    local t = STEPS[side]
    if t == nil then
        t = {}
        STEPS[side] = t
    end
    local steps = t[a]
    if steps == nil then
        steps = {}
        local sa = static(a)
        for i, b in ipairs(sa.nb) do
            local v = empty_value(side, b)
            if sa.lake[i] or v == 0 or (v > 2 and not sa.pass[i]) then
                steps[i] = 0
            else
                steps[i] = v % 2 == 0 and 2 or 1
            end
        end
        t[a] = steps
    end
    return steps
end

-- The hexes commander `id` may move to (sorted). `memo` (optional) is shared by the calls of one
-- listing for commanders of the same side; commanders of the same side and closure class on the
-- same hex share the answer (memo.dest). With `any`, only whether there is one: true as soon as
-- one is found (nothing kept in memo.dest), false otherwise.
local function search(ctx, game, id, memo, any)
    local p = core.piece(game, id)
    local side, from = p.owner, p.loc
    -- core.closed depends on who moves: memoized for the listing per class of Commander (hook
    -- closure_class; by default each Commander alone), and asked only for hexes holding pieces
    -- (only what stands in a hex closes it)
    local class = ctx.hooks.closure_class and ctx.hooks.closure_class(ctx, game, id) or id
    memo.dest = memo.dest or {}
    local key = side .. "|" .. class .. "|" .. from
    local known = memo.dest[key]
    if known then
        if any then return #known > 0 end
        return known
    end
    memo.closed = memo.closed or {}
    memo.closed[class] = memo.closed[class] or {}
    local closed = memo.closed[class]
    local occupied = occupied_set(game)
    local ids = { id }
    -- Every step costs 1: a breadth-first search in Lua over the cached map data gives the set
    -- game.reachable would, without a Lua call back per hexside. A hex is entered when its value
    -- is not 0, through a pass if it is a mountain (3, 4), across no lake, and it is not closed.
    -- step: 0 not allowed, 1 allowed, 2 allowed and a possible end (see STEPS)
    local steps_of = STEPS[side] or {}
    -- The tables of the search are the listing's, reused by each search (no growing table per
    -- search): reached[h] == stamp when h is reached; the frontiers fa, fb with their lengths.
    memo.stamp = (memo.stamp or 0) + 1
    memo.reached = memo.reached or {}
    memo.fa, memo.fb = memo.fa or {}, memo.fb or {}
    local stamp, reached, frontier, nextf = memo.stamp, memo.reached, memo.fa, memo.fb
    reached[from] = stamp
    frontier[1] = from
    local nf, out = 1, {}
    for _ = 1, hexes_allowed(ctx) do
        local nn = 0
        for fi = 1, nf do
            local a = frontier[fi]
            local sa = STATIC[a] or static(a)
            local nb, lake, pass = sa.nb, sa.lake, sa.pass
            local steps = steps_of[a] or empty_steps(side, a)
            for i = 1, #nb do
                local b = nb[i]
                if reached[b] ~= stamp then
                    local step
                    if not occupied[b] then
                        step = steps[i]
                    elseif lake[i] then
                        step = 0
                    else
                        local v = memo[b]
                        if v == nil then
                            v = hex_value(game, side, b)
                            memo[b] = v
                        end
                        step = 0
                        if v ~= 0 and (v <= 2 or pass[i]) then
                            local c = closed[b]
                            if c == nil then
                                c = core.closed(ctx, game, b, ids)
                                closed[b] = c
                            end
                            if not c then step = v % 2 == 0 and 2 or 1 end
                        end
                    end
                    if step ~= 0 then
                        reached[b] = stamp
                        nn = nn + 1
                        nextf[nn] = b
                        if step == 2 then
                            if any then return true end
                            out[#out + 1] = b
                        end
                    end
                end
            end
        end
        frontier, nextf, nf = nextf, frontier, nn
    end
    if any then return false end
    table.sort(out)
    memo.dest[key] = out
    return out
end

function M.destinations(ctx, game, id, memo) return search(ctx, game, id, memo or {}, false) end

local function movable(ctx, game, side)
    local out = {}
    local pc = core.pieces(game)
    for _, id in ipairs(game.pieces { owner = side, category = "commander" }) do
        -- (the property first: game.prop is much cheaper than a piece's first game.piece)
        if not game.prop(id, "commanders_moved") and on_map_loc(pc[id].loc) and may_leave(ctx, game, id) then
            out[#out + 1] = id
        end
    end
    return out
end

local function has_move(ctx, game, side)
    local memo = {}
    for _, id in ipairs(movable(ctx, game, side)) do
        if search(ctx, game, id, memo, true) then return true end
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
                local from = core.piece(game, id).loc
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
            local from = core.piece(game, id).loc
            game.move(id, h)
            game.set_prop(id, "commanders_moved", true)
            game.log(id .. " moves from " .. from .. " to " .. h .. " (12.1)")
            decide_next(ctx, game, true)
        end,
    },
}

return M
