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

-- 12.1: may a moving commander of `side` enter h at all (on the way or at the end)?
local function passable(game, side, h)
    if not core.playable(h) then return false end
    local occupant = core.side_at(game, h)
    if occupant == core.enemy(side) then return false end
    if core.is_city(h) and not core.friendly_territory(side, h) and occupant ~= side then return false end
    return true
end

local function may_end(game, side, h)
    return #core.units_at(game, h, side) > 0 or core.friendly_city(side, h)
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
            v = passable(game, side, h) and (may_end(game, side, h) and 2 or 1) or 0
            if v > 0 and map.terrain(h) == "mountain" then v = v + 2 end
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
    local occupied = memo.occupied or {}
    memo.occupied = occupied
    local reach = game.reachable(from, hexes_allowed(ctx), function(a, b)
        local v = ok(b)
        if v == 0 or map.has_hexside(a, b, "lake") then return nil end
        if closed[b] == nil then
            if occupied[b] == nil then occupied[b] = #game.pieces_at(b) > 0 end
            closed[b] = occupied[b] and core.closed(ctx, game, b, ids)
        end
        if closed[b] then return nil end
        if v > 2 and not map.has_hexside(a, b, "pass") then return nil end
        return 1
    end)
    local out = {}
    for h in pairs(reach) do
        if h ~= from and ok(h) % 2 == 0 then out[#out + 1] = h end
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
