-- Cossacks and Reinforcements (rule 13) and the start of the Turn of the Campaigns of the
-- Napoleonic Wars. See DESIGN.md for the state conventions.
--
--   reinforcements.start   phase "start": applies the Set Up Card schedule of the Turn (vars
--                          supply_trains_<side> and cc_basic_<side>, one number per Turn), runs
--                          the set-up depots of 14.1 on the first Turn (supply.setup_depots),
--                          then ctx.hooks.start_of_turn (14.9, 14.10, 16.1 when written), then
--                          the next phase.
--   reinforcements.phase   phase "reinforcements": 13.1 Cossacks, then 13.2-13.4 placement.
--
-- Reinforcements are pieces off the board (no location) with props arrive_turn (the Turn in
-- whose Reinforcement Phase they arrive), arrive_at (the hex) and optionally arrive_repeat (an
-- entry possible on that Turn or any later one). Params: cossacks_from_turn,
-- reinforcements_may_wait (sides whose reinforcements wait instead of being lost, 13.4),
-- reinforcements_river_exception (13.3's "unless separated by a river"), stack_limit_of2 (via
-- core.capacity and the hook stack_capacity),
-- cc_min/cc_max. Hooks: entry_ignores_adjacency(ctx, game, id) (14.13),
-- reinforcement_entry(ctx, game, id, hex) -> false forbids (14.11), must_deploy(ctx, game, id)
-- (14.11), cossack_success(ctx, game, hex) (replaces the CC effect of 13.1), end_of_turn(ctx,
-- game) (checks made once the last phase is over, 14.12), cossack_success_score(ctx, game) -> the
-- 13.1 score needed this Turn (default 6; 1814 16.1 REC 33), entry_hexes(ctx, game, id) (pieces with
-- prop arrive_anywhere instead of arrive_at, waiting in a box: 14.9), hex_closed (core.closed),
-- after_reinforcements(ctx, game) -> true if it made a decision (more decisions of the phase once
-- every reinforcement is placed, 1814's 15.1 hidden forces; the hook's steps end the phase with
-- R.finish). A placed reinforcement gets the prop arrived_turn (the Turn it was placed).
-- Neutral pieces (core.is_neutral) do not count as enemies for 13.3. reinforcement_placed(ctx,
-- game, id, hex) is told of each placement, before the arrival props are cleared (14.9).
local core = require("cnw.core")
local supply = require("cnw.supply")

local R = {}

local function card_row(game, name)
    local v = game.var(name)
    if type(v) ~= "string" then return nil end
    local out = {}
    for n in v:gmatch("%-?%d+") do out[#out + 1] = tonumber(n) end
    return out
end

local function clamp_track(game, id, value)
    local lo, hi = 0, 20
    if id:find("_cc") then lo, hi = 1, 6 end
    if id:find("_cc$") then lo = 0 end
    game.set_track(id, math.max(lo, math.min(hi, value)))
end

-- ---- the start of a Turn ----------------------------------------------------------------------

R.start = { steps = {} }

function R.start.begin(ctx, game)
    local turn = game.turn()
    if game.var("start_schedule_turn") ~= turn then
        game.set_var("start_schedule_turn", turn)
        for _, side in ipairs(core.SIDES) do
            -- 7.2: this Turn's Supply Trains per the Set Up Card, less the depots lost (8.8)
            local trains = card_row(game, "supply_trains_" .. side)
            if trains and trains[turn] then
                clamp_track(game, side .. "_supply_trains", trains[turn] - game.track(side .. "_depots_lost"))
            end
            -- 9.2 / 14.1: a change of the basic CCs in the Set Up Card schedule is applied to the
            -- basic figure (which carries the decisive victories and 13.1), within cc_min..cc_max
            local cc = card_row(game, "cc_basic_" .. side)
            if cc and cc[turn] and cc[turn - 1] and cc[turn] ~= cc[turn - 1] then
                local track = side .. "_cc_basic"
                local v = game.track(track) + cc[turn] - cc[turn - 1]
                v = math.max(ctx.params.cc_min or 1, math.min(ctx.params.cc_max or 6, v))
                game.set_track(track, v)
                game.log(side .. " basic Combat Commands become " .. v .. " (Set Up Card, 14.1)")
            end
        end
    end
    local first = defs.turns()
    if turn == first and not game.var("supply_setup_done") then
        -- 14.1: the French deploy first, then the Coalition
        return supply.setup_depots(ctx, game, ctx.params.setup_order or { "french", "coalition" }, "supply_setup_done")
    end
    if ctx.hooks.start_of_turn and ctx.hooks.start_of_turn(ctx, game) then return end
    ctx.next_phase(game)
end

-- ---- 13.1 Cossacks ------------------------------------------------------------------------------

local function cossacks(ctx, game)
    if game.turn() < (ctx.params.cossacks_from_turn or 1) then return end
    local cities = {}
    for _, hex in ipairs(game.occupied()) do
        if core.is_city(hex) then
            for _, id in ipairs(core.units_at(game, hex)) do     -- hidden ones too (15.1)
                if core.is_cossack(game, id) then
                    cities[#cities + 1] = hex
                    break
                end
            end
        end
    end
    for _, hex in ipairs(cities) do
        local score = game.roll(1, 6, "13.1 Cossacks in the city at " .. hex)
        -- a game's rule may lower the score needed this Turn (1814 16.1 REC 33)
        local needed = ctx.hooks.cossack_success_score and ctx.hooks.cossack_success_score(ctx, game) or 6
        if score >= needed then
            if ctx.hooks.cossack_success then
                ctx.hooks.cossack_success(ctx, game, hex)
            else
                local lo, hi = ctx.params.cc_min or 1, ctx.params.cc_max or 6
                local f = math.min(hi, game.track("french_cc_basic") + 1)
                local c = math.max(lo, game.track("coalition_cc_basic") - 1)
                game.set_track("french_cc_basic", f)
                game.set_track("coalition_cc_basic", c)
                game.log("Cossacks alienate the inhabitants of " .. hex .. ": French basic CCs " .. f
                    .. ", Coalition basic CCs " .. c .. " (13.1)")
            end
        end
    end
end

-- ---- 13.2-13.4 reinforcements -------------------------------------------------------------------

-- ctx.hooks.entry_hexes(ctx, game, id) -> list of hexes: where a reinforcement without a fixed
-- arrive_at may enter (1814's 14.9); such pieces may wait off the board in a box.
local function entry_hexes(ctx, game, id)
    local hexes = ctx.hooks.entry_hexes and ctx.hooks.entry_hexes(ctx, game, id)
    if hexes then return hexes end
    return { game.prop(id, "arrive_at") }
end

local function due(ctx, game, side)
    local out = {}
    local turn = game.turn()
    for _, id in ipairs(game.pieces { owner = side }) do
        -- (the property first: most pieces have none, and game.prop is much cheaper than a
        -- piece's first game.piece)
        local t = game.prop(id, "arrive_turn")
        if type(t) == "number" and t <= turn then
            local loc = core.piece(game, id).loc
            if (loc == nil or (loc:sub(1, 4) == "box:" and loc ~= "box:eliminated"))
                and (game.prop(id, "arrive_at") or game.prop(id, "arrive_anywhere")) then
                out[#out + 1] = id
            end
        end
    end
    return out
end

-- 13.3: is a hex next to `hex` held by an enemy of `side` (neutral pieces aside), other than across
-- a river when params.reinforcements_river_exception? Once per state, configuration, side and hex
-- (game.memo): the listing asks it of the same hexes for every reinforcement.
local function enemy_adjacent(ctx, game, hex, side)
    local all = core.memo_table(game, "reinforcements.enemy_adjacent")
    local mine = all[ctx]
    if not mine then
        mine = {}
        all[ctx] = mine
    end
    local key = tostring(side) .. "|" .. hex
    local v = mine[key]
    if v == nil then
        v = false
        local enemy = core.enemy(side)
        for _, n in ipairs(map.neighbours(hex)) do
            local enemies = 0
            for _, e in ipairs(core.force_at(game, n, enemy)) do
                if not core.is_neutral(game, e) then enemies = enemies + 1 end
            end
            if enemies > 0 then
                if not (ctx.params.reinforcements_river_exception and core.river_between(hex, n)) then
                    v = true
                    break
                end
            end
        end
        mine[key] = v
    end
    return v
end

-- 13.3: not on or next to an enemy stack (unless a river separates them), within 4.1 (the
-- hex's capacity, core.capacity: 6 OF, or more under 1814's 15.2).
function R.entry_allowed(ctx, game, id, hex)
    local side = core.piece(game, id).owner
    if not map.exists(hex) or not core.playable(hex) then return false end
    local enemy = core.enemy(side)
    if core.side_at(game, hex) == enemy or #core.force_at(game, hex, enemy) > 0 then return false end
    if ctx.hooks.reinforcement_entry and ctx.hooks.reinforcement_entry(ctx, game, id, hex) == false then
        return false
    end
    if core.closed(ctx, game, hex, { id }) then return false end
    if not (ctx.hooks.entry_ignores_adjacency and ctx.hooks.entry_ignores_adjacency(ctx, game, id))
        and enemy_adjacent(ctx, game, hex, side) then
        return false
    end
    if core.is_unit(game, id) then
        if core.stack_of2(game, hex, side) + core.of2(game, id) > core.capacity(ctx, game, hex, side) then return false end
    end
    return true
end

local function may_wait(ctx, side)
    local w = ctx.params.reinforcements_may_wait
    return w ~= nil and w[side] == true
end

local function must_deploy(ctx, game, id)
    return ctx.hooks.must_deploy ~= nil and ctx.hooks.must_deploy(ctx, game, id) == true
end

local function placeable(ctx, game, side)
    local out = {}
    for _, id in ipairs(due(ctx, game, side)) do
        for _, hex in ipairs(entry_hexes(ctx, game, id)) do
            if R.entry_allowed(ctx, game, id, hex) then out[#out + 1] = id; break end
        end
    end
    return out
end

local function lost(game, id, why)
    game.move(id, "box:eliminated")
    game.set_prop(id, "arrive_turn", nil)
    game.log(id .. " never arrives: " .. why)
end

local decide_placement

-- Closes a side's placement: pieces that could not be placed (or must not wait) are lost.
local function close_side(ctx, game, side, order)
    for _, id in ipairs(due(ctx, game, side)) do
        if not may_wait(ctx, side) then
            lost(game, id, "it cannot be placed on arrival (13.4)")
        elseif must_deploy(ctx, game, id) then
            lost(game, id, "it cannot be placed on arrival and may not be held back")
        end
    end
    local rest = {}
    for i = 2, #order do rest[#rest + 1] = order[i] end
    if #rest > 0 then return decide_placement(ctx, game, rest) end
    if ctx.hooks.after_reinforcements and ctx.hooks.after_reinforcements(ctx, game) then return end
    R.finish(ctx, game)
end

-- The end of the Reinforcement Phase, the last of the Turn.
function R.finish(ctx, game)
    if ctx.hooks.end_of_turn then ctx.hooks.end_of_turn(ctx, game) end
    ctx.next_phase(game)
end

function decide_placement(ctx, game, order)
    local side = order[1]
    if #placeable(ctx, game, side) == 0 then return close_side(ctx, game, side, order) end
    game.set_active(side)
    game.decide { role = side, step = "reinforcements.place", rule = "13.2",
                  prompt = "Place your reinforcements (13.2-13.3)" ..
                      (may_wait(ctx, side) and ", or hold the rest back (13.4)" or ""),
                  context = { order = order } }
end

R.phase = { steps = {} }

function R.phase.begin(ctx, game)
    cossacks(ctx, game)
    -- 13.2: the side with the most Supply Trains per the Set Up Card deploys first
    local first = supply.first_side(ctx, game)
    decide_placement(ctx, game, { first, core.enemy(first) })
end

R.phase.steps["reinforcements.place"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local out = {}
        local forced = false
        for _, id in ipairs(placeable(ctx, game, role)) do
            if must_deploy(ctx, game, id) then forced = true end
            if game.prop(id, "arrive_at") then
                local hex = game.prop(id, "arrive_at")
                out[#out + 1] = { kind = "place", args = { id }, pieces = { id }, hexes = { hex },
                                  label = "Place " .. id .. " at " .. hex .. " (13.2)" }
            else
                for _, hex in ipairs(entry_hexes(ctx, game, id)) do
                    if R.entry_allowed(ctx, game, id, hex) then
                        out[#out + 1] = { kind = "place", args = { id, hex }, pieces = { id }, hexes = { hex },
                                          label = "Place " .. id .. " at " .. hex }
                    end
                end
            end
        end
        if may_wait(ctx, role) and not forced then
            out[#out + 1] = { kind = "done", args = {}, label = "Hold the other reinforcements back (13.4)" }
        end
        return out
    end,
    apply = function(ctx, game, role, action, d)
        if action.kind == "place" then
            local id = action.args[1]
            local hex = action.args[2] or game.prop(id, "arrive_at")
            game.move(id, hex)
            if ctx.hooks.reinforcement_placed then ctx.hooks.reinforcement_placed(ctx, game, id, hex) end
            game.set_prop(id, "arrive_turn", nil)
            game.set_prop(id, "arrive_anywhere", nil)
            game.set_prop(id, "arrived_turn", game.turn())
            game.log(id .. " arrives at " .. hex .. (action.args[2] and "" or " (13.2)"))
            return decide_placement(ctx, game, d.context.order)
        end
        close_side(ctx, game, role, d.context.order)
    end,
}

return R
