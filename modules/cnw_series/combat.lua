-- Combat Commands (rule 9) and Combat (rules 10 and 11) of the Campaigns of the Napoleonic Wars.
--
-- Two phase modules: M.combat_commands (9.1-9.3, no decisions) and M.combat (10-11). The numbers
-- are pure functions in combat_values.lua; this file reads the board, asks the players, rolls
-- the dice and moves the pieces.
--
-- State between decisions (DESIGN.md): the combat being resolved is the variable
-- "combat_current" (a table with a `stage`), the alternation of attackers is core's "alt_combat",
-- the commanders' fate queue is "combat_fate". Permanent CC adjustments (9.2) are the variables
-- "combat_cc_adjust_<side>". Units carry the per-Turn properties `combats` (11.2) and read
-- `forced_march` (set by movement).
--
-- Hooks (ctx.hooks, all optional) a game may give:
--   combat_divisor(ctx, game, side, defending_hex) -> 1 or 2   1814 r.14.6
--   combat_may_attack(ctx, game, unit_id) -> bool               e.g. 1814 r.14.7 garrisons
--   combat_may_support(ctx, game, unit_id, role) -> bool        role "attack"/"defence"
--   combat_may_target(ctx, game, hex, enemy_side) -> bool      e.g. 1814 r.14.8 (no combat)
--   combat_withdrawal(ctx, game, unit_id, forced) -> nil/"stay"/"eliminate"
--   combat_value_bonus(ctx, game, info) -> integer              a bonus added to the final values
-- The advanced command structure (16.2) is command.lua's, applied when command.active.
--   combat_reveal(ctx, game, hex, side)                         15.1: a stack that attacks, defends
--                                                               or is called to support puts its
--                                                               hidden force on the map
--   combat_commands_adjust(ctx, game)                           1814 16.1 event cards (CCs, 9.3)
--   ignore_river(ctx, game, side) -> bool                       1814 16.1 REC 10: this attack
--                                       ignores the river modifiers (the hook counts its uses)
--   withdraw_before_combat(ctx, game, side) -> bool, withdraw_before_combat_used(ctx, game, side)
--                                       1814 16.1 REC 10: 11.1 for a stack not all cavalry
--   commander_eliminated(ctx, game, id)                         1814 r.14.4 Napoleon
--   stack_capacity(ctx, game, hex, side) -> half-OF             15.2 overstacking
--   hex_closed(ctx, game, hex, ids) -> bool                     withdrawals and escapes (core.closed)
local core = require("cnw.core")
local V = require("cnw.combat_values")
local command = require("cnw.command")   -- 16.2 (advanced)

local M = {}
local SIDES = core.SIDES

-- ---- small helpers -------------------------------------------------------------------------

local function hook(ctx, name, ...)
    local f = ctx.hooks[name]
    if f then return f(ctx, ...) end
    return nil
end

local function decide(game, t)
    if game.result() then return end
    game.decide(t)
end

-- The numbers of combat for this game. The variable "_combat_params" (set only by tests with
-- vt.edit: players never change variables) overrides fields, so the worked example can be
-- checked under the 1813 parameters in the 1814 module; see RULINGS.md (combat rulings).
local function numbers(ctx, game)
    local p = {}
    for k, v in pairs(ctx.params) do p[k] = v end
    local over = game.var("_combat_params")
    if type(over) == "table" then
        for k, v in pairs(over) do p[k] = v end
    end
    return V.numbers(p), p
end

local function contains(list, x)
    for _, y in ipairs(list) do if y == x then return true end end
    return false
end

local function remove_value(list, x)
    local out = {}
    for _, y in ipairs(list) do if y ~= x then out[#out + 1] = y end end
    return out
end

local function on_map(game, id)
    local loc = core.piece(game, id).loc
    return loc ~= nil and loc:sub(1, 4) ~= "box:"
end

local function alive_at(game, ids, hex)
    local out = {}
    for _, id in ipairs(ids) do
        if core.piece(game, id).loc == hex then out[#out + 1] = id end
    end
    return out
end

local function alive(game, ids)
    local out = {}
    for _, id in ipairs(ids) do
        if on_map(game, id) then out[#out + 1] = id end
    end
    return out
end

local function name(game, id)
    local ct = defs.counter(core.piece(game, id).type)
    return ct.name ~= "" and ct.name or id
end

local function hex_name(hex)
    local n = map.name(hex)
    return n and (hex .. " (" .. n .. ")") or hex
end

local capacity = core.capacity
local of2_of = core.of2_sum

local function under_forage(game, hex, side)
    for _, id in ipairs(core.stack(game, hex)) do
        local p = core.piece(game, id)
        if p.type == "forage" then return true end
        if p.owner == side and game.prop(id, "forage") then return true end
    end
    return false
end

local function depots_at(game, hex, side)
    local out = {}
    for _, id in ipairs(core.stack(game, hex)) do
        local p = core.piece(game, id)
        if p.owner == side and p.type == side .. "_supply" and p.face == "depot" then out[#out + 1] = id end
    end
    return out
end

-- 8.8 / 10.2 play note: an enemy depot attacked successfully, or entered by an advance, is
-- removed from play and its owner's Supply Trains are reduced by one for the rest of the game.
local function destroy_depots(game, hex, owner, why)
    for _, id in ipairs(depots_at(game, hex, owner)) do
        game.remove(id)
        game.set_track(owner .. "_depots_lost", game.track(owner .. "_depots_lost") + 1)
        game.log("The " .. owner .. " depot at " .. hex_name(hex) .. " is eliminated (" .. why .. ")")
    end
end

local function cr_of(game, hex, side)
    return core.highest_cr(game, core.commanders_at(game, hex, side))
end

local function conscripts(game, ids)
    local n = 0
    for _, id in ipairs(ids) do
        if core.class(game, id) == "conscript" then n = n + 1 end
    end
    return n
end

local function has_type(game, ids, t, undisrupted_only)
    for _, id in ipairs(ids) do
        if core.unit_type(game, id) == t and not (undisrupted_only and core.disrupted(game, id)) then return true end
    end
    return false
end

local function undisrupted(game, ids)
    local out = {}
    for _, id in ipairs(ids) do
        if not core.disrupted(game, id) then out[#out + 1] = id end
    end
    return out
end

local function cf_of(game, ids)
    local t = 0
    for _, id in ipairs(ids) do t = t + (core.stat(game, id, "cf") or 1) end
    return t
end

-- 11.2 bp3 flags of a group of units: any forced march, most combats this Turn.
local function flags(game, ids)
    local fm, most = false, 0
    for _, id in ipairs(ids) do
        if game.prop(id, "forced_march") then fm = true end
        most = math.max(most, game.prop(id, "combats") or 0)
    end
    return fm, most
end

local function divisor(ctx, game, ids, side, defending_hex)
    local fm, most = flags(game, ids)
    return V.halving_divisor(fm, most, hook(ctx, "combat_divisor", game, side, defending_hex) or 1)
end

-- "into forest, marsh or rough ground" (11.4)
local function difficult_hex(hex)
    local t = map.terrain(hex)
    return t == "forest" or t == "marsh" or t == "rough"
end

-- ---- 9: Combat Commands ----------------------------------------------------------------------

local function clamp_cc(ctx, n)
    return math.max(ctx.params.cc_min or 1, math.min(ctx.params.cc_max or 6, n))
end

-- The Set-up's basic number for this Turn: scenario variable cc_basic_<side> ("3 3 3 4 ...",
-- Turns 1..n, the last repeats). Without it (test set-ups) the track's value when first needed.
local function scheduled_cc(game, side)
    local s = game.var("cc_basic_" .. side)
    if type(s) == "string" then
        local list = {}
        for w in s:gmatch("%-?%d+") do list[#list + 1] = tonumber(w) end
        if #list > 0 then return list[math.min(game.turn(), #list)] end
    elseif type(s) == "number" then
        return s
    end
    local base = game.var("combat_cc_default_" .. side)
    if base == nil then
        base = game.track(side .. "_cc_basic")
        game.set_var("combat_cc_default_" .. side, base)
    end
    return base
end

local function set_basic(ctx, game, side)
    local basic = clamp_cc(ctx, scheduled_cc(game, side) + (game.var("combat_cc_adjust_" .. side) or 0))
    game.set_track(side .. "_cc_basic", basic)
    return basic
end

-- 9.2: a permanent adjustment of a side's basic CCs ("for the remainder of the game"), e.g. a
-- decisive victory (9.4) or 13.1. The net adjustment is kept unbounded; the basic number of each
-- Turn is clamped to 1..6 (RULINGS). Updates the basic track at once; this Turn's CCs are not
-- changed.
function M.adjust_cc(ctx, game, side, delta, why)
    game.set_var("combat_cc_adjust_" .. side, (game.var("combat_cc_adjust_" .. side) or 0) + delta)
    local basic = set_basic(ctx, game, side)
    game.log(string.format("%s basic Combat Commands %+d (%s): %d from the next Turn (9.2)", side, delta, why, basic))
end

M.combat_commands = { steps = {} }

function M.combat_commands.begin(ctx, game)
    local cc = {}
    for _, side in ipairs(SIDES) do
        cc[side] = set_basic(ctx, game, side)                                     -- 9.2
        game.set_track(side .. "_cc", cc[side])                                   -- 9.1
    end
    -- 9.3: the most CCs after 9.2 (before 16.1) attacks first; ties: params.cc_tie_first.
    local first
    if cc.french > cc.coalition then first = "french"
    elseif cc.coalition > cc.french then first = "coalition"
    else first = ctx.params.cc_tie_first or "french" end
    game.set_var("first_player", first)
    game.log(string.format("Combat Commands: French %d, Coalition %d; the %s player attacks first (9.1-9.3)",
        cc.french, cc.coalition, first))
    hook(ctx, "combat_commands_adjust", game)                                     -- 16.1
    ctx.next_phase(game)
end

-- ---- 11.20: commanders' fate ---------------------------------------------------------------

local function commander_lost(ctx, game, id, why)
    core.eliminate(game, id, why)
    hook(ctx, "commander_eliminated", game, id)
end

local function escape_hexes(ctx, game, id)
    local p = core.piece(game, id)
    local side = p.owner
    local out = {}
    -- plain hex distance, through anything (11.20 "irrespective of ... enemy", digest A-22)
    for _, h in ipairs(game.within(p.loc, 3, function() return true end)) do
        if h ~= p.loc and #core.units_at(game, h, side) > 0 and not core.closed(ctx, game, h, { id }) then
            out[#out + 1] = h
        end
    end
    return out
end

local finish_fate

-- 11.20 (and 8.9): each commander rolls 1xd6; 1: eliminated; otherwise placed by his owner on
-- a friendly stack (with a combat unit) within three hexes, or eliminated if there is none.
-- `after` says how to continue once every placement is made: a game.decide table, or
-- {resume = "<step name>", context = ...} whose step table has resume(ctx, game, context).
-- Returns true when everything was settled at once (then `after` is NOT used: the caller goes
-- on), false when a placement decision was set (`after` is applied when it is made).
function M.commanders_fate(ctx, game, commander_ids, after)
    local queue = {}
    for _, id in ipairs(commander_ids) do
        if on_map(game, id) then
            local total = game.roll(1, 6, "11.20 fate of " .. name(game, id))
            if total == 1 then
                commander_lost(ctx, game, id, "11.20: fate die 1")
            else
                local hexes = escape_hexes(ctx, game, id)
                if #hexes == 0 then
                    commander_lost(ctx, game, id, "11.20: no friendly stack within three hexes")
                elseif #hexes == 1 then
                    game.move(id, hexes[1])
                    game.log(name(game, id) .. " escapes to " .. hex_name(hexes[1]) .. " (11.20)")
                else
                    queue[#queue + 1] = id
                end
            end
        end
        if game.result() then return false end
    end
    if #queue == 0 then return true end
    if not after then error("commanders_fate: a placement decision is needed; pass `after` (how to continue)") end
    game.set_var("combat_fate", { queue = queue, after = after or false })
    finish_fate(ctx, game)
    return false
end

finish_fate = function(ctx, game)
    if game.result() then return end
    local f = game.var("combat_fate")
    if #f.queue > 0 then
        local id = f.queue[1]
        decide(game, { role = core.piece(game, id).owner, step = "combat.fate_place", rule = "11.20",
            prompt = name(game, id) .. " escapes: place him on a friendly stack within three hexes (11.20)" })
        return
    end
    game.set_var("combat_fate", nil)
    local after = f.after
    if type(after) ~= "table" then return end
    if after.resume then
        ctx.steps[after.resume].resume(ctx, game, after.context)
    else
        decide(game, after)
    end
end

local fate_steps = {
    ["combat.fate_place"] = {
        actions = function(ctx, game, role, d)
            local f = game.var("combat_fate")
            local id = f.queue[1]
            if role ~= d.role then return {} end
            local out = {}
            for _, h in ipairs(escape_hexes(ctx, game, id)) do
                out[#out + 1] = { kind = "place", args = { id, h }, hexes = { h }, pieces = { id },
                    label = "Place " .. name(game, id) .. " at " .. hex_name(h) }
            end
            return out
        end,
        apply = function(ctx, game, role, action, d)
            local f = game.var("combat_fate")
            local id, h = action.args[1], action.args[2]
            game.move(id, h)
            game.log(name(game, id) .. " escapes to " .. hex_name(h) .. " (11.20)")
            table.remove(f.queue, 1)
            game.set_var("combat_fate", f)
            finish_fate(ctx, game)
        end,
    },
}

-- ---- 10: orders ------------------------------------------------------------------------------

local function orderable(ctx, game, hex, side)
    local out = {}
    for _, id in ipairs(core.units_at(game, hex, side)) do
        if hook(ctx, "combat_may_attack", game, id) ~= false then out[#out + 1] = id end
    end
    return out
end

-- 10.1: may the stack at hex attack? All its units undisrupted, not under a forage marker, and
-- at least one unit that may be ordered.
local function can_attack_from(ctx, game, hex, side)
    local units = core.units_at(game, hex, side)
    if #units == 0 then return false end
    for _, id in ipairs(units) do if core.disrupted(game, id) then return false end end
    if under_forage(game, hex, side) then return false end
    return #orderable(ctx, game, hex, side) > 0
end

-- What is at a target hex: "units", "commanders" (unaccompanied), "depot" (unaccompanied), nil.
local function target_kind(game, hex, enemy)
    if #core.units_at(game, hex, enemy) > 0 then return "units" end
    if #core.commanders_at(game, hex, enemy) > 0 then return "commanders" end
    if #depots_at(game, hex, enemy) > 0 then return "depot" end
    return nil
end

-- The attacks side may order: {from, target} pairs; with `first_only`, only the first (whether
-- there is any: asked at every order, 10.6).
local function possible_attacks(ctx, game, side, first_only)
    local out = {}
    local enemy = core.enemy(side)
    for _, hex in ipairs(game.occupied()) do
        if can_attack_from(ctx, game, hex, side) then
            for _, n in ipairs(map.neighbours(hex)) do
                if target_kind(game, n, enemy) and not core.lake_between(hex, n)
                    and hook(ctx, "combat_may_target", game, n, enemy) ~= false then
                    out[#out + 1] = { hex, n }
                    if first_only then return out end
                end
            end
        end
    end
    return out
end

local function close_attacks(game, side, why)
    core.alt_finish(game, "combat", side)
    game.set_var("attacks_closed_" .. side, true)
    game.log("The " .. side .. " player makes no more attacks this Turn (" .. why .. ")")
end

local function end_phase(ctx, game)
    -- 10.8: the phase is over; forced march markers are removed.
    for _, id in ipairs(game.pieces { category = "unit" }) do
        if game.prop(id, "forced_march") then game.set_prop(id, "forced_march", nil) end
    end
    for _, id in ipairs(game.pieces { category = "marker" }) do
        if core.piece(game, id).type == "forced_march" then game.remove(id) end
    end
    game.set_var("combat_current", nil)
    game.log("End of the Combat phase (10.8)")
    ctx.next_phase(game)
end

-- Offers the next order to `side` (or ends the phase when side is nil).
local function next_order(ctx, game, side)
    while side do
        if game.result() then return end
        if #possible_attacks(ctx, game, side, true) > 0 then
            decide(game, { role = side, step = "combat.order", rule = "10.2",
                prompt = "Order an attack (10.1-10.2), or make no more attacks this Turn (10.6)" })
            return
        end
        close_attacks(game, side, "no stack able to attack, 10.1")
        side = core.alt_next(game, "combat")
    end
    end_phase(ctx, game)
end

local function after_combat(ctx, game)
    game.set_var("combat_current", nil)
    if game.result() then return end
    next_order(ctx, game, core.alt_next(game, "combat"))
end

M.combat = { steps = {} }

function M.combat.begin(ctx, game)
    local first = game.var("first_player") or "french"
    core.alt_start(game, "combat", first)
    for _, side in ipairs(SIDES) do game.set_var("attacks_closed_" .. side, false) end
    game.set_var("combat_current", nil)
    next_order(ctx, game, first)
end

-- ---- the combat procedure: stages ----------------------------------------------------------

local STAGES = {}
local run

local function save(game, c) game.set_var("combat_current", c) end

run = function(ctx, game)
    while true do
        if game.result() or game.var("combat_fate") ~= nil then return end
        local c = game.var("combat_current")
        if not c then return end
        if c.stage == "done" then return after_combat(ctx, game) end
        local handler = STAGES[c.stage]
        if not handler then error("combat: unknown stage " .. tostring(c.stage)) end
        local wait = handler(ctx, game, c)
        if game.var("combat_current") ~= nil then save(game, c) end
        if wait == "wait" or game.var("combat_fate") ~= nil then return end
    end
end

-- Continue the combat after a commanders' fate placement.
local RESUME = { resume = "combat.order", context = false }

local function fate_then(ctx, game, c, ids, next_stage)
    c.stage = next_stage
    save(game, c)
    if #ids == 0 then return nil end
    M.commanders_fate(ctx, game, ids, RESUME)
    return nil
end

-- Commanders of `side` on hexes of the combat left without combat units of their side.
local function lone_commanders(game, c, side)
    local out = {}
    local seen = {}
    local hexes = { c.from, c.to }
    for _, h in ipairs(c.support_hexes.attacker) do hexes[#hexes + 1] = h end
    for _, h in ipairs(c.support_hexes.defender) do hexes[#hexes + 1] = h end
    for _, h in ipairs(hexes) do
        if not seen[h] then
            seen[h] = true
            if #core.units_at(game, h, side) == 0 then
                for _, id in ipairs(core.commanders_at(game, h, side)) do out[#out + 1] = id end
            end
        end
    end
    return out
end

-- 10.2 rolled: what happens next.
STAGES.test = function(ctx, game, c)
    local N = numbers(ctx, game)
    local die = game.roll(1, 6, "10.2 order test, " .. c.attacker .. " from " .. c.from .. " on " .. c.to)
    local cr = cr_of(game, c.from, c.attacker)
    local result, total = V.order_test(N, die, cr, c.cc_attacker)
    c.order_total = total
    game.log(string.format("10.2: die %d + CR %d + %d CC = %d: the attack %s", die, cr, c.cc_attacker, total,
        result == "aborted" and "is aborted (10.2 a)" or result == "failed" and "fails (10.2 b)" or "goes ahead (10.2 c)"))
    if result == "aborted" then
        c.stage = "done"
    elseif result == "failed" then
        close_attacks(game, c.attacker, "failed order, 10.2 b")
        c.stage = "done"
    elseif c.kind == "depot" then
        destroy_depots(game, c.to, c.defender, "10.2 play note, 8.8")
        c.advance_mode = "all"
        c.stage = "advance"
    elseif c.kind == "commanders" then
        game.log("Unaccompanied commanders attacked at " .. hex_name(c.to) .. " (11.20)")
        c.advance_mode = "all"
        return fate_then(ctx, game, c, core.commanders_at(game, c.to, c.defender), "advance")
    else
        c.defenders = core.units_at(game, c.to, c.defender)
        c.stage = "evade"
    end
    return nil
end

-- ---- 11.11: withdrawal -------------------------------------------------------------------------

-- May a withdrawing group go from `from` into `to`? (11.11's three prohibitions; the attacking
-- hex is the attacking stack's hex only, digest A-19; enemy pieces of any kind forbid the hex.)
local function withdrawal_ok(ctx, game, c, from, to)
    if not core.can_enter(from, to) then return false end
    if core.closed(ctx, game, to, core.force_at(game, from, c.defender)) then return false end
    if core.river_between(from, to) and not core.bridged(from, to) then return false end
    if difficult_hex(to) or (map.terrain(to) == "mountain" and core.is_winter(game)) then return false end
    if core.side_at(game, to) == c.attacker or #depots_at(game, to, c.attacker) > 0 then return false end
    if to == c.from or map.distance(to, c.from) <= 1 then return false end
    return true
end

local function withdrawal_hexes(ctx, game, c)
    local out = {}
    for _, n in ipairs(map.neighbours(c.to)) do
        if withdrawal_ok(ctx, game, c, c.to, n) then out[#out + 1] = n end
    end
    return out
end

-- The defending units that withdraw (14.7 garrisons stay or are eliminated through the hook).
local function withdrawing_units(ctx, game, c, forced)
    local go = {}
    for _, id in ipairs(core.units_at(game, c.to, c.defender)) do
        local h = hook(ctx, "combat_withdrawal", game, id, forced)
        if h == "eliminate" then
            c.absorbed[c.defender] = c.absorbed[c.defender] + (core.disrupted(game, id) and 1 or 2)
            core.eliminate(game, id, "cannot withdraw")
        elseif h ~= "stay" then
            go[#go + 1] = id
        end
    end
    return go
end

local function start_withdrawal(ctx, game, c, hex, forced)
    local units = withdrawing_units(ctx, game, c, forced)
    local moving = {}
    for _, id in ipairs(units) do moving[#moving + 1] = id end
    -- commanders and the stack's markers (trains, forage) go with the units; depots stay
    for _, id in ipairs(game.pieces_at(c.to)) do
        local p = core.piece(game, id)
        if not contains(units, id) and (p.owner == c.defender or p.owner == nil) then
            local cat = defs.counter(p.type).category
            local is_depot = p.face == "depot"
            if cat == "commander" or (cat == "marker" and not is_depot) then moving[#moving + 1] = id end
        end
    end
    if #units == 0 then return end
    for _, id in ipairs(moving) do game.move(id, hex) end
    c.withdrew = true
    c.withdrawn_units = units
    c.withdraw_hex = hex
    game.log("The defending stack withdraws from " .. hex_name(c.to) .. " to " .. hex_name(hex) .. " (11.11)")
    -- over capacity: the owner picks units to disrupt and send a further hex
    c.overflow = {}
    c.stage = "overflow"
end

local function excess(ctx, game, c)
    local hex = c.withdraw_hex
    local staying = {}
    for _, id in ipairs(core.units_at(game, hex, c.defender)) do
        if not contains(c.overflow, id) then staying[#staying + 1] = id end
    end
    return of2_of(game, staying) - capacity(ctx, game, hex, c.defender)
end

STAGES.overflow = function(ctx, game, c)
    if excess(ctx, game, c) <= 0 then
        if #c.overflow == 0 then c.stage = c.after_withdrawal; return nil end
        c.stage = "further"
        return nil
    end
    local cands = {}
    for _, id in ipairs(alive_at(game, c.withdrawn_units, c.withdraw_hex)) do
        if not contains(c.overflow, id) and core.of2(game, id) > 0 then cands[#cands + 1] = id end
    end
    if #cands == 1 then
        c.overflow[#c.overflow + 1] = cands[1]
        return nil
    end
    decide(game, { role = c.defender, step = "combat.overflow", rule = "11.11",
        prompt = "The withdrawal overstacks " .. hex_name(c.withdraw_hex) .. " (4.1): choose a unit to disrupt and withdraw a further hex (11.11)" })
    return "wait"
end

local function further_hexes(ctx, game, c, group)
    local out = {}
    local need = of2_of(game, group)
    for _, n in ipairs(map.neighbours(c.withdraw_hex)) do
        if n ~= c.to and withdrawal_ok(ctx, game, c, c.withdraw_hex, n)
            and core.stack_of2(game, n, c.defender) + need <= capacity(ctx, game, n, c.defender) then
            out[#out + 1] = n
        end
    end
    return out
end

STAGES.further = function(ctx, game, c)
    -- the chosen units are disrupted (eliminated if already disrupted), survivors go on
    if not c.overflow_hit then
        for _, id in ipairs(c.overflow) do
            core.disrupt(game, id, "11.11: withdrawal over the stacking limit")
            c.absorbed[c.defender] = c.absorbed[c.defender] + 1
        end
        c.overflow_hit = true
    end
    local group = alive_at(game, c.overflow, c.withdraw_hex)
    if #group == 0 then c.stage = c.after_withdrawal; return nil end
    local hexes = further_hexes(ctx, game, c, group)
    if #hexes == 0 then
        for _, id in ipairs(group) do
            c.absorbed[c.defender] = c.absorbed[c.defender] + 1
            core.eliminate(game, id, "11.11: no hex for the further withdrawal")
        end
        c.stage = c.after_withdrawal
        return nil
    end
    if #hexes == 1 then
        for _, id in ipairs(group) do game.move(id, hexes[1]) end
        game.log("Units withdraw a further hex to " .. hex_name(hexes[1]) .. " (11.11)")
        c.stage = c.after_withdrawal
        return nil
    end
    decide(game, { role = c.defender, step = "combat.further", rule = "11.11",
        prompt = "Withdraw the units over the stacking limit a further hex (11.11)" })
    return "wait"
end

-- 11.1: defenders solely cavalry, attackers none: the defender may withdraw before combat.
STAGES.evade = function(ctx, game, c)
    local only_cav = #c.defenders > 0
    for _, id in ipairs(c.defenders) do
        if core.unit_type(game, id) ~= "cavalry" then only_cav = false end
    end
    if only_cav and not has_type(game, c.ordered, "cavalry") and #withdrawal_hexes(ctx, game, c) > 0 then
        decide(game, { role = c.defender, step = "combat.evade", rule = "11.1",
            prompt = "Your cavalry is attacked by a stack without cavalry: withdraw before combat (11.1) or stand" })
        return "wait"
    end
    -- a game's rule may let any stack withdraw before combat (1814 16.1 REC 10)
    if #c.defenders > 0 and #withdrawal_hexes(ctx, game, c) > 0 and hook(ctx, "withdraw_before_combat", game, c.defender) then
        c.evade_by_card = true
        save(game, c)
        decide(game, { role = c.defender, step = "combat.evade", rule = "16.1",
            prompt = "You may withdraw this stack before combat as in 11.1 (Random Event Card) or stand" })
        return "wait"
    end
    c.stage = "defender_cc"
    return nil
end

-- ---- 10.3-10.5: CCs and supports -----------------------------------------------------------

local function support_units(ctx, game, hex, side, role)
    local out = {}
    for _, id in ipairs(core.units_at(game, hex, side)) do
        if hook(ctx, "combat_may_support", game, id, role) ~= false then out[#out + 1] = id end
    end
    return out
end

-- Friendly stacks adjacent to the defending hex that may be called (10.3; digest A-12).
local function support_candidates(ctx, game, c, role)
    local side = role == "attacker" and c.attacker or c.defender
    local out = {}
    for _, n in ipairs(map.neighbours(c.to)) do
        if n ~= c.from and not contains(c.calls[role], n) and not core.lake_between(n, c.to)
            and #support_units(ctx, game, n, side, role == "attacker" and "attack" or "defence") > 0
            and not (role == "attacker" and under_forage(game, n, side)) then
            out[#out + 1] = n
        end
    end
    return out
end

local function all_disrupted(game, c)
    return #undisrupted(game, core.units_at(game, c.to, c.defender)) == 0
end

STAGES.defender_cc = function(ctx, game, c)
    -- 11.19 / digest A-23: all-disrupted defenders: FDV is 1xd6, no CCs, no supports.
    if all_disrupted(game, c) then
        c.cc_defender = 0
        c.stage = "attack_calls"
        return nil
    end
    -- CCs only serve the supporting stacks' tests (10.5): none to call, nothing to allocate
    if game.track(c.defender .. "_cc") == 0 or #support_candidates(ctx, game, c, "defender") == 0 then
        c.cc_defender = 0
        c.stage = "attack_calls"
        return nil
    end
    decide(game, { role = c.defender, step = "combat.defender_cc", rule = "10.3",
        prompt = "The attack on " .. hex_name(c.to) .. " goes ahead: allocate your Combat Commands to the defence (10.3)" })
    return "wait"
end

STAGES.attack_calls = function(ctx, game, c)
    if #support_candidates(ctx, game, c, "attacker") == 0 then c.stage = "attack_tests"; return nil end
    decide(game, { role = c.attacker, step = "combat.support", rule = "10.3",
        prompt = "Call supporting stacks adjacent to " .. hex_name(c.to) .. " (10.3-10.4), then done" })
    return "wait"
end

local function test_supports(ctx, game, c, role)
    local N = numbers(ctx, game)
    local side = role == "attacker" and c.attacker or c.defender
    local cc = role == "attacker" and c.cc_attacker or c.cc_defender
    for _, hex in ipairs(c.calls[role]) do
        local units = support_units(ctx, game, hex, side, role == "attacker" and "attack" or "defence")
        local cr = cr_of(game, hex, side)
        local k = conscripts(game, units)
        local die = game.roll(1, 6, (role == "attacker" and "10.4" or "10.5") .. " support test, " .. hex)
        local joins, total = V.support_test(N, die, cr, cc, k)
        game.log(string.format("%s: support from %s: die %d + CR %d + %d CC - %d conscript(s) = %d: %s",
            role == "attacker" and "10.4" or "10.5", hex_name(hex), die, cr, cc, k, total,
            joins and "takes part" or "does not take part"))
        if joins then
            c.support_hexes[role][#c.support_hexes[role] + 1] = hex
            for _, id in ipairs(units) do c.sup[role][#c.sup[role] + 1] = id end
        end
    end
end

STAGES.attack_tests = function(ctx, game, c)
    test_supports(ctx, game, c, "attacker")
    c.stage = all_disrupted(game, c) and "resolve" or "defence_calls"
    return nil
end

STAGES.defence_calls = function(ctx, game, c)
    if #support_candidates(ctx, game, c, "defender") == 0 then c.stage = "defence_tests"; return nil end
    decide(game, { role = c.defender, step = "combat.support", rule = "10.5",
        prompt = "Call supporting stacks adjacent to " .. hex_name(c.to) .. " for the defence (10.5), then done" })
    return "wait"
end

STAGES.defence_tests = function(ctx, game, c)
    test_supports(ctx, game, c, "defender")
    c.stage = "resolve"
    return nil
end

-- ---- 11.2-11.16: values and hits -----------------------------------------------------------

-- 16.2 (advanced) in the value inputs: the CR of the Commander who can command the most units of
-- the attacking / defending stack (limited to those units), the senior Commander's CF bonus
-- (before 11.3, so before combined arms and halving), and the supporting stacks' Cavalry Corps
-- Commander exception.
local function command_inputs(ctx, game, c, att, def, ordered, und)
    local notes = {}
    local function main(inputs, hex, side, units, attacking, label)
        local cmds = core.commanders_at(game, hex, side)
        local v, who, n = command.combat_cr(ctx, game, cmds, units)
        if v then
            inputs.cr = v
            notes[#notes + 1] = string.format("%s CR %d (%s commands %d unit(s))", label, v, who, n)
        end
        local b, by = command.cf_bonus(ctx, game, cmds, units, attacking)
        if b > 0 then
            inputs.main.cf = inputs.main.cf + b
            notes[#notes + 1] = string.format("%s CF %+d (%s, senior Commander)", label, b, by)
        end
    end
    main(att, c.from, c.attacker, ordered, true, "attack")
    if not def.all_disrupted then main(def, c.to, c.defender, und, false, "defence") end
    for _, pair in ipairs { { att, "attacker", c.attacker }, { def, "defender", c.defender } } do
        local inputs, role, side = pair[1], pair[2], pair[3]
        for _, s in ipairs(inputs.supports) do
            s.commander = command.support_commander(ctx, game, core.commanders_at(game, s.hex, side),
                alive_at(game, c.sup[role], s.hex))
        end
    end
    if #notes > 0 then game.log("16.2: " .. table.concat(notes, "; ")) end
end

-- Inputs of the pure functions, from the board. Exposed for the tests' logs.
local function value_inputs(ctx, game, c, N, p)
    local to = c.to
    local fortified = core.is_fortified(to)
    local difficult = difficult_hex(to)
    local ordered = c.ordered
    local art_main = has_type(game, ordered, "artillery")
    local any_art = art_main
    for _, id in ipairs(c.sup.attacker) do
        if core.unit_type(game, id) == "artillery" and not core.disrupted(game, id) then any_art = true end
    end
    local att = {
        main = { cf = cf_of(game, ordered), types = core.types_in(game, ordered, true),
                 divisor = divisor(ctx, game, ordered, c.attacker, to),
                 river = core.river_between(c.from, to), fortified = fortified, artillery = art_main,
                 difficult = difficult },
        cr = cr_of(game, c.from, c.attacker), units = #ordered, supports = {},
    }
    for _, hex in ipairs(c.support_hexes.attacker) do
        local units = alive_at(game, c.sup.attacker, hex)
        local own_art = has_type(game, units, "artillery", true)
        local scope_art = N.support_fort_artillery_scope == "stack" and own_art or any_art
        att.supports[#att.supports + 1] = {
            units = #undisrupted(game, units), divisor = divisor(ctx, game, units, c.attacker, to),
            river = core.river_between(hex, to), no_artillery_into_fortified = fortified and not scope_art,
            difficult = difficult, commander = #core.commanders_at(game, hex, c.attacker) > 0, hex = hex,
        }
    end
    local defenders = core.units_at(game, to, c.defender)
    local und = undisrupted(game, defenders)
    local def = {
        main = { cf = cf_of(game, und), types = core.types_in(game, defenders, true),
                 divisor = divisor(ctx, game, defenders, c.defender, to) },
        cr = cr_of(game, to, c.defender), undisrupted = #und, supports = {},
        all_disrupted = #und == 0,
    }
    for _, hex in ipairs(c.support_hexes.defender) do
        local units = alive_at(game, c.sup.defender, hex)
        def.supports[#def.supports + 1] = {
            units = #undisrupted(game, units), divisor = divisor(ctx, game, units, c.defender, to),
            commander = #core.commanders_at(game, hex, c.defender) > 0, hex = hex,
        }
    end
    if command.active(ctx, game) then command_inputs(ctx, game, c, att, def, ordered, und) end
    return att, def
end

STAGES.resolve = function(ctx, game, c)
    local N = numbers(ctx, game)
    local att, def = value_inputs(ctx, game, c, N)
    local river = att.main.river
    for _, s in ipairs(att.supports) do river = river or s.river end
    if river and hook(ctx, "ignore_river", game, c.attacker) then                 -- 1814 16.1 REC 10
        att.main.river = false
        for _, s in ipairs(att.supports) do s.river = false end
        game.log("The attack ignores the river modifiers (Random Event Card)")
    end
    att.bonus = hook(ctx, "combat_value_bonus", game, { combat = c, role = "attacker", inputs = att }) or 0
    def.bonus = hook(ctx, "combat_value_bonus", game, { combat = c, role = "defender", inputs = def }) or 0
    local da = game.roll(1, 6, "11.5 final attack value")
    att.die = da
    local fav, ap = V.final_attack_value(N, att)
    local dd = game.roll(1, 6, def.all_disrupted and "11.19 final defence value (disrupted only)" or "11.7 final defence value")
    def.die = dd
    local fdv, dp = V.final_defence_value(N, def)
    local sa, sd = {}, {}
    for i, v in ipairs(ap.supports) do sa[#sa + 1] = att.supports[i].hex .. " " .. string.format("%+d", v) end
    for i, v in ipairs(dp.supports) do sd[#sd + 1] = def.supports[i].hex .. " " .. string.format("%+d", v) end
    game.log(string.format("11.3-11.5: attack value %d (divisor %d), modified %d, with CR %d; supports [%s]; die %d: FAV %d",
        ap.attack_value, att.main.divisor, ap.modified, ap.after_cr, table.concat(sa, ", "), da, fav))
    if def.all_disrupted then
        game.log(string.format("11.19: the defenders are all disrupted: FDV = die %d", fdv))
    else
        game.log(string.format("11.6-11.7: defence value %d (divisor %d), with CR %d; supports [%s]; die %d: FDV %d",
            dp.defence_value, def.main.divisor, dp.after_cr, table.concat(sd, ", "), dd, fdv))
    end
    c.fav, c.fdv = fav, fdv

    -- participants (11.2 bp2: supporting counts as taking part) and counts before hits
    c.main = { attacker = c.ordered, defender = core.units_at(game, c.to, c.defender) }
    local count = { attacker = 0, defender = 0 }
    local und = { attacker = 0, defender = 0 }
    for _, role in ipairs { "attacker", "defender" } do
        for _, list in ipairs { c.main[role], c.sup[role] } do
            for _, id in ipairs(list) do
                count[role] = count[role] + 1
                if not core.disrupted(game, id) then und[role] = und[role] + 1 end
                game.set_prop(id, "combats", (game.prop(id, "combats") or 0) + 1)
            end
        end
    end
    c.units = count
    local die
    if fav ~= fdv then
        die = game.roll(1, 6, "11.15 winning side hits")
    end
    local r = V.hits(N, { fav = fav, fdv = fdv, attacker_undisrupted = und.attacker, defender_undisrupted = und.defender,
        attacker_units = count.attacker, defender_units = count.defender, die = die })
    c.winner = r.winner
    c.margin = r.margin
    c.must_withdraw = r.must_withdraw or false
    c.hits = { attacker = r.attacker_hits, defender = r.defender_hits }
    if r.winner then
        game.log(string.format("11.8: the %s wins by %d; hits: %s %d, %s %d%s (11.14-11.16)", r.winner, r.margin,
            c.attacker, r.attacker_hits, c.defender, r.defender_hits,
            (r.extra_loser or 0) > 0 and string.format(" (decisive battle: +%d / +%d)", r.extra_loser, r.extra_winner) or ""))
    else
        game.log(string.format("11.9: tie; hits: %s %d, %s %d", c.attacker, r.attacker_hits, c.defender, r.defender_hits))
    end
    -- the loser allocates first (on a tie the attacker)
    local loser = r.winner == "attacker" and "defender" or "attacker"
    c.hit_queue = { loser, loser == "attacker" and "defender" or "attacker" }
    c.given = 0
    c.given_main = 0
    c.stage = "hits"
    return nil
end

-- ---- 11.18: allocating hits ----------------------------------------------------------------

local function hit_candidates(game, c, role)
    local main = alive(game, c.main[role])
    local sup = alive(game, c.sup[role])
    local h = c.hits[role]
    local need_main = (h + 1) // 2                                                -- digest A-14
    if c.given_main < need_main and #main > 0 then return main end
    local out = {}
    for _, id in ipairs(main) do out[#out + 1] = id end
    for _, id in ipairs(sup) do out[#out + 1] = id end
    return out
end

local function odd_candidates(game, c, role)
    local out = {}
    for _, list in ipairs { c.main[role], c.sup[role] } do
        for _, id in ipairs(alive(game, list)) do
            if core.disrupted(game, id) then out[#out + 1] = id end
        end
    end
    return out
end

local function apply_hit(game, c, role, id, why)
    local side = role == "attacker" and c.attacker or c.defender
    core.disrupt(game, id, why)
    c.absorbed[side] = c.absorbed[side] + 1
    if contains(c.main[role], id) then c.given_main = c.given_main + 1 end
    c.given = c.given + 1
end

STAGES.hits = function(ctx, game, c)
    while #c.hit_queue > 0 do
        local role = c.hit_queue[1]
        local side = role == "attacker" and c.attacker or c.defender
        if c.given >= c.hits[role] then
            -- 11.18: odd number of hits: the owner may add one on a disrupted unit
            if c.hits[role] % 2 == 1 and not c.odd_offered then
                c.odd_offered = true
                if #odd_candidates(game, c, role) > 0 then
                    decide(game, { role = side, step = "combat.odd_hit", rule = "11.18",
                        prompt = "You took an odd number of hits: you may eliminate one more disrupted unit (11.18)" })
                    return "wait"
                end
            end
            table.remove(c.hit_queue, 1)
            c.given, c.given_main, c.odd_offered = 0, 0, false
        else
            local cands = hit_candidates(game, c, role)
            if #cands == 0 then
                game.log(string.format("%d hit(s) on the %s cannot be allocated: no unit left", c.hits[role] - c.given, side))
                c.given = c.hits[role]
                c.odd_offered = true
            elseif #cands == 1 then
                apply_hit(game, c, role, cands[1], "11.18 hit")
            else
                decide(game, { role = side, step = "combat.hits", rule = "11.18",
                    prompt = string.format("Allocate hit %d of %d (11.18: at least half on the %s stack first)",
                        c.given + 1, c.hits[role], role == "attacker" and "attacking" or "defending") })
                return "wait"
            end
        end
    end
    -- lone commanders after the hits (11.20), then the outcome
    local ids = {}
    for _, side in ipairs { c.attacker, c.defender } do
        for _, id in ipairs(lone_commanders(game, c, side)) do ids[#ids + 1] = id end
    end
    return fate_then(ctx, game, c, ids, "outcome")
end

-- ---- 11.9-11.13: outcome ---------------------------------------------------------------------

STAGES.outcome = function(ctx, game, c)
    local survivors = core.units_at(game, c.to, c.defender)
    c.after_withdrawal = "pursuit"
    if c.winner == nil then c.stage = "decisive"; return nil end
    if #survivors == 0 then
        -- 11.13: all defending units eliminated
        c.advance_mode = "all"
        c.stage = "advance"
        return nil
    end
    local hexes = withdrawal_hexes(ctx, game, c)
    if c.winner == "attacker" and c.must_withdraw then
        c.advance_mode = "all"
        if #hexes == 0 then
            for _, id in ipairs(survivors) do
                c.absorbed[c.defender] = c.absorbed[c.defender] + (core.disrupted(game, id) and 1 or 2)
                core.eliminate(game, id, "11.12: no withdrawal possible")
            end
            return fate_then(ctx, game, c, core.commanders_at(game, c.to, c.defender), "advance")
        end
        decide(game, { role = c.defender, step = "combat.withdraw", rule = "11.12",
            prompt = "Lost by 3 or more: your stack must withdraw (11.11-11.12)" })
        return "wait"
    end
    c.advance_mode = c.winner == "attacker" and "cavalry" or "none"
    -- voluntary withdrawal (11.10, 11.12 bp2): only if some unit can actually leave
    local movable = false
    for _, id in ipairs(survivors) do
        if hook(ctx, "combat_withdrawal", game, id, false) == nil then movable = true end
    end
    if #hexes == 0 or not movable then c.stage = "decisive"; return nil end
    decide(game, { role = c.defender, step = "combat.withdraw", rule = c.winner == "attacker" and "11.12" or "11.10",
        prompt = c.winner == "attacker" and "Lost by 1 or 2: stay, or withdraw (11.12)"
            or "You won the defence: stay, or withdraw (11.10)" })
    return "wait"
end

-- 11.17: pursuit.
STAGES.pursuit = function(ctx, game, c)
    c.stage = "advance"
    if not c.withdrew then return nil end
    local att_cav = has_type(game, alive_at(game, c.ordered, c.from), "cavalry", true)
    local withdrawn = alive(game, c.withdrawn_units)
    if not att_cav or has_type(game, withdrawn, "cavalry", true) then return nil end
    local dis = {}
    for _, id in ipairs(withdrawn) do if core.disrupted(game, id) then dis[#dis + 1] = id end end
    if #dis == 0 then return nil end
    if #dis == 1 then
        c.absorbed[c.defender] = c.absorbed[c.defender] + 1
        core.eliminate(game, dis[1], "11.17 cavalry pursuit")
        return nil
    end
    c.stage = "pursuit_choice"
    decide(game, { role = c.defender, step = "combat.pursuit", rule = "11.17",
        prompt = "Cavalry pursuit: choose the disrupted unit that is eliminated (11.17)" })
    return "wait"
end

STAGES.pursuit_choice = function(ctx, game, c)
    -- reached only through the decision; nothing to do here
    c.stage = "advance"
    return nil
end

-- ---- 11.12-11.13: advance --------------------------------------------------------------------

local function defender_gone(game, c)
    return core.side_at(game, c.to) ~= c.defender
end

local function advance_candidates(ctx, game, c)
    local out = {}
    if c.advance_mode == "none" or c.advance_mode == nil or not defender_gone(game, c) then return out end
    local room = capacity(ctx, game, c.to, c.attacker) - core.stack_of2(game, c.to, c.attacker)
    for _, id in ipairs(alive_at(game, c.ordered, c.from)) do
        if not core.disrupted(game, id) and core.of2(game, id) <= room
            and (c.advance_mode == "all" or core.unit_type(game, id) == "cavalry") then
            out[#out + 1] = id
        end
    end
    if #core.units_at(game, c.to, c.attacker) > 0 then
        for _, id in ipairs(core.commanders_at(game, c.from, c.attacker)) do out[#out + 1] = id end
    end
    return out
end

STAGES.advance = function(ctx, game, c)
    if #advance_candidates(ctx, game, c) == 0 then c.stage = "decisive"; return nil end
    decide(game, { role = c.attacker, step = "combat.advance", rule = c.advance_mode == "cavalry" and "11.12" or "11.13",
        prompt = "Advance into " .. hex_name(c.to) .. " (11.12-11.13): choose the units one at a time, then done" })
    return "wait"
end

-- ---- 9.4: decisive victory ---------------------------------------------------------------------

-- A defending hex left without the defender's units or commanders: its trains and markers go
-- (its depots stay until an enemy enters, 8.8).
local function clear_vacated(game, c)
    if core.side_at(game, c.to) == c.defender then return end
    local empty = core.side_at(game, c.to) == nil
    for _, id in ipairs(game.pieces_at(c.to)) do
        local p = core.piece(game, id)
        if defs.counter(p.type).category == "marker" and p.face ~= "depot"
            and (p.owner == c.defender or (p.owner == nil and empty)) then
            game.remove(id)
        end
    end
end

STAGES.decisive = function(ctx, game, c)
    clear_vacated(game, c)
    c.stage = "done"
    if not c.winner or not c.units then return nil end
    local N = numbers(ctx, game)
    local winner = c.winner == "attacker" and c.attacker or c.defender
    local loser = core.enemy(winner)
    if V.decisive(N, c.units.attacker, c.units.defender, c.absorbed[winner], c.absorbed[loser]) then
        game.log(string.format("Decisive victory of the %s: %d hits absorbed against %d (9.4)", winner,
            c.absorbed[loser], c.absorbed[winner]))
        M.adjust_cc(ctx, game, winner, 1, "decisive victory, 9.4")
        M.adjust_cc(ctx, game, loser, -1, "decisive defeat, 9.4")
    end
    return nil
end

-- ---- steps -----------------------------------------------------------------------------------

local function cc_actions(game, side)
    local out = {}
    for n = 0, game.track(side .. "_cc") do
        out[#out + 1] = { kind = "cc", args = { tostring(n) },
            label = n == 0 and "Allocate no Combat Command" or ("Allocate " .. n .. " Combat Command(s)") }
    end
    return out
end

local function current(game) return game.var("combat_current") end

local steps = M.combat.steps

steps["combat.order"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local out = {}
        for _, a in ipairs(possible_attacks(ctx, game, role)) do
            out[#out + 1] = { kind = "attack", args = { a[1], a[2] }, hexes = { a[1], a[2] },
                pieces = orderable(ctx, game, a[1], role),
                label = "Order the stack at " .. hex_name(a[1]) .. " to attack " .. hex_name(a[2]) }
        end
        out[#out + 1] = { kind = "pass", args = {}, label = "Make no more attacks this Turn (10.6)" }
        return out
    end,
    apply = function(ctx, game, role, action, d)
        if action.kind == "pass" then
            close_attacks(game, role, "declined, 10.6")
            return next_order(ctx, game, core.alt_next(game, "combat"))
        end
        local from, to = action.args[1], action.args[2]
        local enemy = core.enemy(role)
        hook(ctx, "combat_reveal", game, from, role)      -- 15.1: before anything is counted
        hook(ctx, "combat_reveal", game, to, enemy)
        local c = {
            attacker = role, defender = enemy, from = from, to = to, kind = target_kind(game, to, enemy),
            ordered = orderable(ctx, game, from, role), cc_attacker = 0, cc_defender = 0,
            calls = { attacker = {}, defender = {} }, support_hexes = { attacker = {}, defender = {} },
            sup = { attacker = {}, defender = {} }, absorbed = { french = 0, coalition = 0 },
        }
        game.log("The " .. role .. " player orders the stack at " .. hex_name(from) .. " to attack " .. hex_name(to) .. " (10.1)")
        c.stage = #c.ordered > 1 and "units" or "cc"
        save(game, c)
        if c.stage == "units" then
            decide(game, { role = role, step = "combat.order_units", rule = "10.1",
                prompt = "Units ordered to attack: leave units out, or confirm (10.1)" })
        else
            decide(game, { role = role, step = "combat.attacker_cc", rule = "10.2",
                prompt = "Allocate Combat Commands to the attack (10.2)" })
        end
    end,
    -- continuation after a commanders' fate placement inside a combat
    resume = function(ctx, game) run(ctx, game) end,
}

steps["combat.order_units"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local c = current(game)
        local out = {}
        if #c.ordered > 1 then
            for _, id in ipairs(c.ordered) do
                out[#out + 1] = { kind = "exclude", args = { id }, pieces = { id }, hexes = { c.from },
                    label = "Leave " .. name(game, id) .. " out of the attack" }
            end
        end
        out[#out + 1] = { kind = "confirm", args = {}, pieces = c.ordered,
            label = "Attack with the " .. #c.ordered .. " unit(s) ordered" }
        return out
    end,
    apply = function(ctx, game, role, action, d)
        local c = current(game)
        if action.kind == "exclude" then
            c.ordered = remove_value(c.ordered, action.args[1])
            save(game, c)
            if #c.ordered > 1 then return decide(game, d) end
        end
        c.stage = "cc"
        save(game, c)
        decide(game, { role = role, step = "combat.attacker_cc", rule = "10.2",
            prompt = "Allocate Combat Commands to the attack (10.2)" })
    end,
}

steps["combat.attacker_cc"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        return cc_actions(game, role)
    end,
    apply = function(ctx, game, role, action, d)
        local c = current(game)
        local n = tonumber(action.args[1])
        c.cc_attacker = n
        game.set_track(role .. "_cc", game.track(role .. "_cc") - n)
        c.stage = "test"
        save(game, c)
        run(ctx, game)
    end,
}

steps["combat.evade"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local c = current(game)
        local out = {}
        for _, h in ipairs(withdrawal_hexes(ctx, game, c)) do
            out[#out + 1] = { kind = "withdraw", args = { h }, hexes = { c.to, h },
                label = "Withdraw to " .. hex_name(h) .. " before combat (11.1)" }
        end
        out[#out + 1] = { kind = "stand", args = {}, hexes = { c.to }, label = "Stand and fight" }
        return out
    end,
    apply = function(ctx, game, role, action, d)
        local c = current(game)
        if action.kind == "stand" then
            c.stage = "defender_cc"
        else
            if c.evade_by_card then hook(ctx, "withdraw_before_combat_used", game, c.defender) end
            c.advance_mode = "all"
            c.after_withdrawal = "advance"                                        -- no pursuit (A-13)
            start_withdrawal(ctx, game, c, action.args[1], false)
            if not c.withdrew then c.stage = "defender_cc" end
        end
        save(game, c)
        run(ctx, game)
    end,
}

steps["combat.defender_cc"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        return cc_actions(game, role)
    end,
    apply = function(ctx, game, role, action, d)
        local c = current(game)
        local n = tonumber(action.args[1])
        c.cc_defender = n
        game.set_track(role .. "_cc", game.track(role .. "_cc") - n)
        game.log("The defender allocates " .. n .. " Combat Command(s) (10.3)")
        c.stage = "attack_calls"
        save(game, c)
        run(ctx, game)
    end,
}

steps["combat.support"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local c = current(game)
        local r = role == c.attacker and "attacker" or "defender"
        local out = {}
        for _, h in ipairs(support_candidates(ctx, game, c, r)) do
            out[#out + 1] = { kind = "call", args = { h }, hexes = { h, c.to },
                label = "Call the stack at " .. hex_name(h) .. " to support" }
        end
        out[#out + 1] = { kind = "done", args = {}, label = "No more supporting stacks: roll the tests" }
        return out
    end,
    apply = function(ctx, game, role, action, d)
        local c = current(game)
        local r = role == c.attacker and "attacker" or "defender"
        if action.kind == "call" then
            hook(ctx, "combat_reveal", game, action.args[1], role)   -- 15.1
            c.calls[r][#c.calls[r] + 1] = action.args[1]
            save(game, c)
            if #support_candidates(ctx, game, c, r) > 0 then return decide(game, d) end
        end
        c.stage = r == "attacker" and "attack_tests" or "defence_tests"
        save(game, c)
        run(ctx, game)
    end,
}

local function role_of(c, side) return side == c.attacker and "attacker" or "defender" end

steps["combat.hits"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local c = current(game)
        local out = {}
        for _, id in ipairs(hit_candidates(game, c, role_of(c, role))) do
            out[#out + 1] = { kind = "hit", args = { id }, pieces = { id }, hexes = { core.piece(game, id).loc },
                label = (core.disrupted(game, id) and "Eliminate " or "Disrupt ") .. name(game, id) }
        end
        return out
    end,
    apply = function(ctx, game, role, action, d)
        local c = current(game)
        apply_hit(game, c, role_of(c, role), action.args[1], "11.18 hit")
        save(game, c)
        run(ctx, game)
    end,
}

steps["combat.odd_hit"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local c = current(game)
        local out = {}
        for _, id in ipairs(odd_candidates(game, c, role_of(c, role))) do
            out[#out + 1] = { kind = "extra", args = { id }, pieces = { id },
                label = "Take one more hit: eliminate " .. name(game, id) .. " (11.18)" }
        end
        out[#out + 1] = { kind = "pass", args = {}, label = "No extra hit" }
        return out
    end,
    apply = function(ctx, game, role, action, d)
        local c = current(game)
        if action.kind == "extra" then
            core.eliminate(game, action.args[1], "11.18: extra hit on an odd number of hits")
            c.absorbed[role] = c.absorbed[role] + 1
        end
        save(game, c)
        run(ctx, game)
    end,
}

steps["combat.withdraw"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local c = current(game)
        local out = {}
        for _, h in ipairs(withdrawal_hexes(ctx, game, c)) do
            out[#out + 1] = { kind = "withdraw", args = { h }, hexes = { c.to, h },
                label = "Withdraw to " .. hex_name(h) .. " (11.11)" }
        end
        if not (c.winner == "attacker" and c.must_withdraw) then
            out[#out + 1] = { kind = "stay", args = {}, hexes = { c.to }, label = "Remain in " .. hex_name(c.to) }
        end
        return out
    end,
    apply = function(ctx, game, role, action, d)
        local c = current(game)
        if action.kind == "stay" then
            c.stage = "decisive"
        else
            local forced = c.winner == "attacker" and c.must_withdraw
            start_withdrawal(ctx, game, c, action.args[1], forced)
            if not c.withdrew then
                -- only units that may not withdraw were left (14.7): their commanders' fate
                local lone = #core.units_at(game, c.to, c.defender) == 0 and core.commanders_at(game, c.to, c.defender) or {}
                save(game, c)
                fate_then(ctx, game, c, lone, forced and "advance" or "decisive")
            end
        end
        save(game, c)
        run(ctx, game)
    end,
}

steps["combat.overflow"] = {
    transient_overstack = true,  -- 11.11: the excess is being resolved (game.lua invariants)
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local c = current(game)
        local out = {}
        for _, id in ipairs(alive_at(game, c.withdrawn_units, c.withdraw_hex)) do
            if not contains(c.overflow, id) and core.of2(game, id) > 0 then
                out[#out + 1] = { kind = "overflow", args = { id }, pieces = { id }, hexes = { c.withdraw_hex },
                    label = (core.disrupted(game, id) and "Eliminate " or "Disrupt ") .. name(game, id) .. " and withdraw it a further hex" }
            end
        end
        return out
    end,
    apply = function(ctx, game, role, action, d)
        local c = current(game)
        c.overflow[#c.overflow + 1] = action.args[1]
        save(game, c)
        run(ctx, game)
    end,
}

steps["combat.further"] = {
    transient_overstack = true,
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local c = current(game)
        local group = alive_at(game, c.overflow, c.withdraw_hex)
        local out = {}
        for _, h in ipairs(further_hexes(ctx, game, c, group)) do
            out[#out + 1] = { kind = "withdraw", args = { h }, hexes = { c.withdraw_hex, h }, pieces = group,
                label = "Withdraw them a further hex to " .. hex_name(h) .. " (11.11)" }
        end
        return out
    end,
    apply = function(ctx, game, role, action, d)
        local c = current(game)
        for _, id in ipairs(alive_at(game, c.overflow, c.withdraw_hex)) do game.move(id, action.args[1]) end
        game.log("Units withdraw a further hex to " .. hex_name(action.args[1]) .. " (11.11)")
        c.stage = c.after_withdrawal
        save(game, c)
        run(ctx, game)
    end,
}

steps["combat.pursuit"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local c = current(game)
        local out = {}
        for _, id in ipairs(alive(game, c.withdrawn_units)) do
            if core.disrupted(game, id) then
                out[#out + 1] = { kind = "eliminate", args = { id }, pieces = { id },
                    label = "Eliminate " .. name(game, id) .. " (11.17)" }
            end
        end
        return out
    end,
    apply = function(ctx, game, role, action, d)
        local c = current(game)
        c.absorbed[c.defender] = c.absorbed[c.defender] + 1
        core.eliminate(game, action.args[1], "11.17 cavalry pursuit")
        c.stage = "advance"
        save(game, c)
        run(ctx, game)
    end,
}

steps["combat.advance"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local c = current(game)
        local out = {}
        for _, id in ipairs(advance_candidates(ctx, game, c)) do
            out[#out + 1] = { kind = "advance", args = { id }, pieces = { id }, hexes = { c.from, c.to },
                label = "Advance " .. name(game, id) .. " into " .. hex_name(c.to) }
        end
        out[#out + 1] = { kind = "done", args = {}, label = "No (more) advance" }
        return out
    end,
    apply = function(ctx, game, role, action, d)
        local c = current(game)
        if action.kind == "done" then
            c.stage = "decisive"
        else
            local id = action.args[1]
            -- the vacated hex: the defender's trains and markers left behind go (8.8 for depots)
            if #core.units_at(game, c.to, c.attacker) == 0 then
                destroy_depots(game, c.to, c.defender, "8.8: enemy advance")
                clear_vacated(game, c)
            end
            game.move(id, c.to)
            game.log(name(game, id) .. " advances into " .. hex_name(c.to) .. " (11.12)")
        end
        save(game, c)
        run(ctx, game)
    end,
}

for k, v in pairs(fate_steps) do steps[k] = v end

-- exposed for tests and other modules
M.values = V

return M
