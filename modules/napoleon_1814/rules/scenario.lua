-- 1814: Napoleon's Defiance — scenario rules acting at the start of a Turn: 14.10 Anglona and
-- 14.9 veteran French units from Spain (removal at the start of the Turn, return in the
-- Reinforcement Phase through the library's entry_hexes hook). See RULINGS.md S-*.
--
--   scenario.start_of_turn(ctx, game) -> true when a decision was made (the hook of
--       reinforcements.start); each step below calls it again when done, and moves to the next
--       phase once it returns false.
--   scenario.steps   the steps, to be added to the start phase's steps.
--   scenario.entry_hexes(ctx, game, id)  14.9's return hexes.
--   15.2 overstacking: scenario.stack_capacity, train_actions, train_apply, end_of_movement
--       (hooks of the library) and scenario.movement_steps (added to the movement phase's).
local core = require("cnw.core")
local supply = require("cnw.supply")
local command = require("cnw.command")   -- 16.2 (advanced)
local cards = require("cnw.cards")

local S = { steps = {} }

local VETERANS_FROM_TURN, VETERANS_MAX, VETERANS_BOX = 5, 4, "box:adjacent_to_map"
local ANGLONA_CORPS = "AndRes"

local function on_map(game, id)
    local loc = core.hex_of(game, id)      -- 15.1: units in a hidden box are on the map
    return loc ~= nil and map.exists(loc)
end

local function continue(ctx, game)
    if not S.start_of_turn(ctx, game) then ctx.next_phase(game) end
end

-- ---- 14.10 Anglona --------------------------------------------------------------------------

-- Anglona's forces: the Coalition units listed under him (corps "AndRes"), on the map.
local function anglona_units(game)
    local out = {}
    for _, id in ipairs(game.pieces { owner = "coalition" }) do
        if core.is_unit(game, id) and core.stat(game, id, "corps") == ANGLONA_CORPS and on_map(game, id) then
            out[#out + 1] = id
        end
    end
    return out
end

local function anglona_in_france(game)
    for _, id in ipairs(anglona_units(game)) do
        if map.in_region(core.hex_of(game, id), "france") then return true end
    end
    return false
end

-- The disrupted French units on the map nearest to Anglona's forces: the ids at the least
-- distance, and that distance.
local function nearest_disrupted(game)
    local forces = anglona_units(game)
    local best, ids = nil, {}
    for _, id in ipairs(game.pieces { owner = "french" }) do
        if core.is_unit(game, id) and on_map(game, id) and core.disrupted(game, id) then
            local d
            for _, a in ipairs(forces) do
                local x = map.distance(core.hex_of(game, id), core.hex_of(game, a))
                if not d or x < d then d = x end
            end
            if d then
                if not best or d < best then best, ids = d, { id } elseif d == best then ids[#ids + 1] = id end
            end
        end
    end
    table.sort(ids)
    return ids, best
end

local function rally(game, id)
    game.set_face(id, "ready")
    core.log_about(game, id, id .. " is restored to full strength (14.10 Anglona)")
end

-- Rallies `left` units nearest first; asks the French when a tie must be broken.
local function anglona_rally(ctx, game, left)
    while left > 0 do
        local ids = nearest_disrupted(game)
        if #ids == 0 then break end
        if #ids > left then
            game.set_active("french")
            game.decide { role = "french", step = "scenario.anglona", rule = "14.10",
                          prompt = "Choose a disrupted unit to restore to full strength, among those " ..
                              "equally near to Anglona's forces (14.10; " .. left .. " left)",
                          context = { left = left } }
            return true
        end
        for _, id in ipairs(ids) do rally(game, id) end
        left = left - #ids
    end
    return false
end

S.steps["scenario.anglona"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local out = {}
        for _, id in ipairs((nearest_disrupted(game))) do
            out[#out + 1] = { kind = "rally", args = { id }, pieces = { id }, hexes = { core.hex_of(game, id) },
                              public = core.is_boxed(game, id) and "rally hidden-unit" or nil,
                              label = "Restore " .. id .. " to full strength (14.10)" }
        end
        return out
    end,
    apply = function(ctx, game, role, action, d)
        rally(game, action.args[1])
        if anglona_rally(ctx, game, d.context.left - 1) then return end
        continue(ctx, game)
    end,
}

-- ---- 14.9 veteran French units from Spain ----------------------------------------------------

local function veterans_eligible(game)
    local out = {}
    if (game.var("veterans_transferred") or 0) >= VETERANS_MAX then return out end
    for _, id in ipairs(game.pieces { owner = "french" }) do
        if core.is_unit(game, id) and core.stat(game, id, "army") == "pyrenees" and on_map(game, id)
            and not core.is_garrison(game, id) then
            out[#out + 1] = id
        end
    end
    return out
end

local function veterans_decision(ctx, game)
    local n = game.var("veterans_transferred") or 0
    game.set_active("french")
    game.decide { role = "french", step = "scenario.veterans", rule = "14.9",
                  prompt = "Remove divisions of Soult's command to the box adjacent to the map, " ..
                      "to return in the Reinforcement Phase of Turn " .. (game.turn() + 2) ..
                      " (14.9; " .. (VETERANS_MAX - n) .. " more allowed), or go on" }
end

S.steps["scenario.veterans"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local out = {}
        for _, id in ipairs(veterans_eligible(game)) do
            out[#out + 1] = { kind = "remove", args = { id }, pieces = { id }, hexes = { core.hex_of(game, id) },
                              label = "Send " .. id .. " from Spain to the box adjacent to the map (14.9)" }
        end
        out[#out + 1] = { kind = "done", args = {}, label = "Send no more units (14.9)" }
        return out
    end,
    apply = function(ctx, game, role, action, d)
        if action.kind == "remove" then
            local id = action.args[1]
            game.move(id, VETERANS_BOX)
            game.set_prop(id, "arrive_turn", game.turn() + 2)
            game.set_prop(id, "arrive_anywhere", true)
            game.set_var("veterans_transferred", (game.var("veterans_transferred") or 0) + 1)
            game.log(id .. " leaves Soult's command for the box adjacent to the map; it returns in the " ..
                "Reinforcement Phase of Turn " .. (game.turn() + 2) .. " (14.9)")
            if #veterans_eligible(game) > 0 then return veterans_decision(ctx, game) end
        end
        game.set_var("veterans_done_turn", game.turn())
        continue(ctx, game)
    end,
}

-- 14.9: "For the purposes of Advanced Rule 16.2, henceforth the units are transferred to that
-- French commander": the returning unit's prop transferred_to names the most senior French
-- Commander of its hex (then the highest CR, then the first; RULINGS CS-15), whose army, corps
-- and wing it joins (cnw/command.lua).
function S.reinforcement_placed(ctx, game, id, hex)
    if not game.prop(id, "arrive_anywhere") then return end
    local best
    for _, c in ipairs(core.commanders_at(game, hex, "french")) do
        local r, cr = core.stat(game, c, "seniority_rank") or 99, core.stat(game, c, "cr") or 0
        if not best or r < best.r or (r == best.r and cr > best.cr) then best = { id = c, r = r, cr = cr } end
    end
    if best then
        game.set_prop(id, "transferred_to", best.id)
        game.log(id .. " is transferred to " .. best.id .. " (14.9, for 16.2)")
    end
end

-- 14.9: a hex in General Supply holding a French commander (4.1 is checked by the library).
function S.entry_hexes(ctx, game, id)
    if not game.prop(id, "arrive_anywhere") then return nil end
    -- the same for every such piece: once per state and configuration (game.memo; READ ONLY)
    local known = core.memo_table(game, "1814.entry_hexes")
    if known[ctx] then return known[ctx] end
    local out, seen = {}, {}
    for _, c in ipairs(game.pieces { owner = "french", category = "commander" }) do
        local loc = core.piece(game, c).loc
        if loc and map.exists(loc) and not seen[loc] then
            seen[loc] = true
            if supply.stack_in_general_supply(ctx, game, loc, "french") then out[#out + 1] = loc end
        end
    end
    table.sort(out)
    known[ctx] = out
    return out
end

-- ---- 15.2 overstacking (optional rule "overstacking") -----------------------------------------
-- var `overstack`: a list of { hex =, side =, turn = }, one per Supply Train allocated in 8.2's
-- alternation to raise the capacity of the hex of a stack by 3 OF (6 half-OF). An allocation
-- counts until the excess check at the end of the next Turn's Rally and Movement phase
-- (digest §2.5, RULINGS M-25, M-26), which eliminates the excess units, opponent's choice.

local OVERSTACK_OF2, OVERSTACK_MAX = 6, 2

local function overstacks(game) return game.var("overstack") or {} end

local function allocations(game, hex, side, turn)
    local n = 0
    for _, e in ipairs(overstacks(game)) do
        if e.hex == hex and e.side == side and (turn == nil or e.turn == turn) then n = n + 1 end
    end
    return n
end

function S.stack_capacity(ctx, game, hex, side)
    local base = ctx.params.stack_limit_of2 or 12
    if not game.option("overstacking") then return base end
    return base + OVERSTACK_OF2 * allocations(game, hex, side)
end

function S.train_actions(ctx, game, side)
    local out = {}
    if not game.option("overstacking") then return out end
    for _, id in ipairs(require("cnw.movement").all_trains(game, side)) do
        local hex = core.piece(game, id).loc
        local units = core.units_at(game, hex, side)
        -- 15.2 applies 7.3's conditions, with 16.2's amendment when the advanced rule is on
        local commanded = not command.active(ctx, game)
            or command.train_allowed(ctx, game, core.commanders_at(game, hex, side), units)
        if #units > 0 and commanded and allocations(game, hex, side, game.turn()) < OVERSTACK_MAX then
            out[#out + 1] = { kind = "overstack", args = { id }, hexes = { hex }, pieces = { id },
                              label = "Allocate the Supply Train at " .. hex ..
                                  " to raise the hex's capacity by 3 OF for one Turn (15.2)" }
        end
    end
    return out
end

function S.train_apply(ctx, game, side, action)
    local id = action.args[1]
    local hex = core.piece(game, id).loc
    supply.use_train(game, id)
    local list = overstacks(game)
    list[#list + 1] = { hex = hex, side = side, turn = game.turn() }
    game.set_var("overstack", list)
    game.log(side .. " allocates a Supply Train to the stack at " .. hex .. ": its capacity is " ..
        string.format("%g", S.stack_capacity(ctx, game, hex, side) / 2) .. " OF until the end of the next Rally and Movement phase (15.2)")
end

-- The allocations of earlier Turns expire: a stack over the capacity left loses units, chosen by
-- the opponent one at a time. Returns true when it asked for a choice.
local function overstack_check(ctx, game)
    local list = overstacks(game)
    local turn = game.turn()
    for _, e in ipairs(list) do
        if e.turn < turn then
            local cap = (ctx.params.stack_limit_of2 or 12) + OVERSTACK_OF2 * allocations(game, e.hex, e.side, turn)
            if core.stack_of2(game, e.hex, e.side) > cap then
                local enemy = core.enemy(e.side)
                -- 15.1: the opponent chooses among units it must see: the hidden force comes out
                if ctx.hooks.reveal_stack then ctx.hooks.reveal_stack(ctx, game, e.hex, e.side) end
                game.set_active(enemy)
                game.decide { role = enemy, step = "scenario.overstack_excess", rule = "15.2",
                              prompt = "The stack at " .. e.hex .. " exceeds its capacity of " .. string.format("%g", cap / 2) ..
                                  " OF: choose a unit to eliminate (15.2)",
                              context = { hex = e.hex, side = e.side } }
                return true
            end
        end
    end
    local keep = {}
    for _, e in ipairs(list) do if e.turn >= turn then keep[#keep + 1] = e end end
    if #list > 0 then game.set_var("overstack", keep) end
    return false
end

function S.end_of_movement(ctx, game)
    if not game.option("overstacking") then return false end
    return overstack_check(ctx, game)
end

S.movement_steps = {}
S.movement_steps["scenario.overstack_excess"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local out = {}
        for _, id in ipairs(core.units_at(game, d.context.hex, d.context.side)) do
            out[#out + 1] = { kind = "eliminate", args = { id }, pieces = { id }, hexes = { d.context.hex },
                              label = "Eliminate " .. id .. " (15.2)" }
        end
        return out
    end,
    apply = function(ctx, game, role, action, d)
        core.eliminate(game, action.args[1], "excess over the stacking capacity, 15.2")
        if overstack_check(ctx, game) then return end
        ctx.next_phase(game)
    end,
}

-- ---- the start of the Turn ------------------------------------------------------------------

function S.start_of_turn(ctx, game)

    local turn = game.turn()
    -- 14.10 first (digest A-54), after the Random Event Cards when they are in play (RULINGS EC-4)
    if game.var("anglona_done_turn") ~= turn then
        game.set_var("anglona_done_turn", turn)
        -- 16.1 REC 36: this Turn 14.10 does not apply, or applies as if Anglona's forces were in
        -- France (the cards are played before 14.10 for this: RULINGS EC-4)
        if cards.rule_suspended(game, "14.10") then
            game.log("14.10 does not apply this Turn (Random Event Card)")
        elseif anglona_in_france(game) or cards.rule_forced(game, "14.10") then
            local score = game.roll(1, 6, "14.10 Anglona's forces are in France")
            local n = score // 2
            game.log("Anglona's forces in France: " .. n .. " disrupted French units are restored (14.10)")
            if anglona_rally(ctx, game, n) then return true end
        end
    end
    if turn >= VETERANS_FROM_TURN and game.var("veterans_done_turn") ~= turn then
        if #veterans_eligible(game) > 0 then
            veterans_decision(ctx, game)
            return true
        end
        game.set_var("veterans_done_turn", turn)
    end
    return false
end

return S
