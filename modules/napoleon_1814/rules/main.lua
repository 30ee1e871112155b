-- 1814: Napoleon's Defiance — the rules. The system is the Campaigns of the Napoleonic Wars
-- library (modules/cnw_series, require "cnw.*"); this file gives 1814's parameters and its
-- scenario rules (14.x). See RULES.md for where every rule is implemented and tested.
local game_rules = require("cnw.game")
local movement = require("cnw.movement")       -- 8
local commanders = require("cnw.commanders")   -- 12
local combat = require("cnw.combat")
local supply = require("cnw.supply")
local reinforcements = require("cnw.reinforcements")
local cnw_core = require("cnw.core")            -- the same table as ctx.core

local params = {
    game = "1814",
    -- 8.4: 3 hexes, 5 by forced march, in every season (1813: 2 in Winter).
    march = { winter = 3, spring = 3 },
    forced_march = 5,
    -- 8.5: reconnaissance in force (1814 only): a moving stack of 3+ units with a cavalry unit,
    -- against 1 or 2 units, spending 2 hexes of its allowance.
    recon_in_force = { min_units = 3, max_target_units = 2, cost = 2 },
    -- 6.2 / 7.8: supply route and depot spacing: 5 hexes, 3 in Winter.
    supply_range = { winter = 3, spring = 5 },
    -- 4.1: six friendly OF per hex, counted in halves.
    stack_limit_of2 = 12,
    -- 11.16 decisive battle hits exist in 1814 (not in 1813).
    decisive_battle_hits = true,
    -- 9.2: Combat Commands always within 1..6.
    cc_min = 1, cc_max = 6,
    -- 9.3: equal CCs: the French attack first (1799: the Coalition).
    cc_tie_first = "french",
    -- 11.5 footnote, digest A-11: a supporting stack's -1 "into a fortified city without
    -- artillery" is judged for the attack as a whole, as in the book's worked example.
    support_fort_artillery_scope = "attack",
    -- 6.1 / 1.1: Ultimate Supply Sources (map regions); 1814 traces general supply to them too
    -- (digest A-1: 1813 traces to depots only).
    uss_region = { french = "uss_french", coalition = "uss_coalition" },
    trace_to_uss = true,
    -- 14.15: Geneva is unfriendly to both; a friendly combat unit must hold it for a depot or
    -- for supply routes to pass.
    neutral_city_region = "geneva",
    -- 7.6: forage markers from Turn 2 (1813: Turn 1). 7.5: two dummy trains per side.
    forage_from_turn = 2,
    dummy_trains = 2,
    -- 7.4, 8.2, 13.2: equal Set Up Card Supply Trains: the French begin (digest A-2).
    supply_tie_first = "french",
    -- 16.2 (advanced, option command_structure): the command structure of cnw/command.lua. 1814
    -- allows a Supply Train only with a Commander able to command a unit of the stack; among
    -- Commanders of equal seniority the owner chooses (no 1813 "most units" tie-break).
    command_structure = { option = "command_structure", train_needs_command = true, tie_most_units = false },
    -- 13.1 from Turn 4; 13.3 river exception; 13.4: only Coalition reinforcements may wait.
    cossacks_from_turn = 4,
    reinforcements_river_exception = true,
    reinforcements_may_wait = { coalition = true },
    phase_rules = {
        start = "start of Turn: Random Event Cards (16.1), 14.9, 14.10",
        general_supply = "General Supply and Attrition (6)",
        active_supply = "Active Supply (7)",
        movement = "Rally and Movement (8)",
        combat_commands = "Combat Commands (9)",
        combat = "Combat (10-11)",
        commanders = "Commanders' Movement (12)",
        reinforcements = "Cossacks and Reinforcements (13)",
    },
}

local hooks = {}

-- 14.11, 16.3: Murat and his Neapolitan army (deployed at 4227, Milan, on Turn 7).
local function neapolitan(game, id)
    return id == "murat" or cnw_core.stat(game, id, "nation") == "naples"
end
-- 16.3: neutral (a piece listed by setup in the variable neutral_pieces, until REC 9 sets the
-- variable murat_joined: core.is_neutral).
local function neutral(ctx, game, id) return ctx.core.is_neutral(game, id) end

-- 14.4: a Coalition combat unit in Paris and in Bordeaux or Marseilles at the end of a Turn.
local PARIS, BORDEAUX, MARSEILLES = "5420", "5929", "4832"
function hooks.victory_at_end_of_turn(ctx, game)
    local core = ctx.core
    local function held(hex) return #core.units_at(game, hex, "coalition") > 0 end
    if held(PARIS) and (held(BORDEAUX) or held(MARSEILLES)) then
        game.finish("The Coalition wins: it holds Paris and " ..
            (held(BORDEAUX) and "Bordeaux" or "Marseilles") .. " at the end of Turn " .. game.turn() .. " (14.4)")
        return true
    end
    -- 16.4 (advanced): the French basic CCs (9.2: the Set Up Card figure with the permanent
    -- adjustments, the track <side>_cc_basic) are 6 and the Coalition's 1. Checked after 14.4's
    -- automatic Coalition victory (RULINGS CS-1).
    if game.option("cc_victory") and game.track("french_cc_basic") >= ctx.params.cc_max
        and game.track("coalition_cc_basic") <= ctx.params.cc_min then
        game.finish("The French win: their basic Combat Commands are " .. game.track("french_cc_basic") ..
            " and the Coalition's " .. game.track("coalition_cc_basic") .. " at the end of Turn " .. game.turn() .. " (16.4)")
        return true
    end
    return false
end

-- 14.3 / 14.12: 12 Turns, 10 if Bernadotte or his Swedish corps crossed the Rhine.
-- Optional and advanced rules not written yet refuse to start, rather than pretend (RULES.md):
-- { option id, rule name } pairs. Every 1814 option is implemented now.
local NOT_YET = {}
function hooks.setup(ctx, game)
    for _, entry in ipairs(NOT_YET) do
        if game.option(entry[1]) then
            game.refuse("the option " .. entry[2] .. " is not implemented yet (see RULES.md)")
        end
    end
    -- 16.3: Murat's army is neutral until REC 9 is played (the event cards set murat_joined);
    -- without the event cards it stays neutral (RULINGS CS-12).
    if game.option("murat_neutral") then
        local reg = {}
        for _, id in ipairs(game.pieces { owner = "coalition" }) do
            if neapolitan(game, id) then reg[id] = "murat_joined" end
        end
        game.set_var("neutral_pieces", reg)
    end
end

-- 16.3: no unit or supply line of either side enters the neutral army's hex (4227); 14.11: the
-- Neapolitans never stack with other Coalition pieces (RULINGS CS-13, CS-14). ids: the pieces entering
-- (none: a supply line).
function hooks.hex_closed(ctx, game, hex, ids)
    local core = ctx.core
    -- what stands in the hex, once per state and hex (game.memo)
    local seen = core.memo_table(game, "1814.hex_closed")
    local here = seen[hex]
    if not here then
        here = { neutral = false, naples = false, others = false }
        local neutral_now = core.neutral_pieces(game)
        local pc = core.pieces(game)
        for _, id in ipairs(core.stack(game, hex)) do
            local p = pc[id]
            local c = core.type_category(p.type)
            if p.owner == "coalition" and (c == "unit" or c == "commander") then
                if neutral_now[id] then here.neutral = true end
                if id == "murat" or core.type_stat(p.type, "nation") == "naples" then here.naples = true else here.others = true end
            end
        end
        seen[hex] = here
    end
    if not (here.neutral or here.naples or here.others) then return false end
    if here.neutral and #ids == 0 then return true end
    local pc = core.pieces(game)
    for _, id in ipairs(ids) do
        local p = pc[id]
        local naples = id == "murat" or core.type_stat(p.type, "nation") == "naples"   -- neapolitan()
        if here.neutral and not naples then return true end
        if (naples and here.others or not naples and here.naples) and p.owner == "coalition" then
            return true
        end
    end
    return false
end

-- The hexes closed to a supply line (hex_closed with no ids: 16.3's neutral army), for the
-- supply field's key (cnw supply.lua): the hexes of the neutral Coalition units and Commanders
-- (each hex where hex_closed(ctx, game, hex, {}) is true; hooks.invariants checks that the two
-- agree). A new list each call.
function hooks.supply_closed_hexes(ctx, game)
    local core = ctx.core
    local out, seen, pc = {}, {}, core.pieces(game)
    for id in pairs(core.neutral_pieces(game)) do
        local p = pc[id]
        local c = p and core.type_category(p.type)
        if p and p.owner == "coalition" and (c == "unit" or c == "commander") then
            local hex = p.loc   -- (what hex_closed sees: the counters in the hex, core.stack)
            if hex and hex:sub(1, 4) ~= "box:" and not seen[hex] then
                seen[hex] = true
                out[#out + 1] = hex
            end
        end
    end
    return out
end

-- Commanders alike for hex_closed (a memo key for Commanders' Movement): the Neapolitans, the
-- other Coalition Commanders, the French.
function hooks.closure_class(ctx, game, id)
    if neapolitan(game, id) then return "naples" end
    return ctx.core.owner(game, id)
end

function hooks.game_length(ctx, game)
    return game.var("bernadotte_crossed") and 10 or 12
end

-- 14.4: Napoleon killed or captured (11.20, 8.9): immediate Coalition victory.
function hooks.commander_eliminated(ctx, game, id)
    if cnw_core.piece(game, id).type == "napoleon" and not game.result() then
        game.finish("The Coalition wins: Napoleon was killed or captured (14.4, 11.20)")
    end
end

-- 14.6: before Turn 4, French stacks attacking or defending a hex outside French-friendly
-- territory (and the French supporting stacks of that combat) are halved (digest A-18).
function hooks.combat_divisor(ctx, game, side, defending_hex)
    if side == "french" and game.turn() < 4 and not ctx.core.friendly_territory("french", defending_hex) then
        return 2
    end
    return 1
end

-- 14.7 (combat): garrisons never attack nor support an attack, do not support a defence
-- (digest A-52), stay put in a voluntary withdrawal and are eliminated in a forced one.
function hooks.combat_withdrawal(ctx, game, id, forced)
    if not ctx.core.is_garrison(game, id) then return nil end
    return forced and "eliminate" or "stay"
end

-- 14.5: in the basic game Napoleon gives -1 to the march attrition of a stack he accompanies
-- throughout its move (counter stat basic_march_drm); with 16.2, that rule's modifiers apply instead.
function hooks.march_attrition_drm(ctx, game, ids)
    if game.option("command_structure") then return 0 end
    local drm = 0
    for _, id in ipairs(ids) do drm = drm + (cnw_core.stat(game, id, "basic_march_drm") or 0) end
    return drm
end

-- 14.5: Napoleon cannot leave Paris until the Commanders' Movement phase of Turn 4.
function hooks.commander_may_leave(ctx, game, id, phase)
    if neutral(ctx, game, id) then return false end               -- 16.3: Murat while neutral
    if cnw_core.piece(game, id).type ~= "napoleon" or cnw_core.piece(game, id).loc ~= PARIS then return true end
    return game.turn() > 4 or (game.turn() == 4 and phase == "commanders")
end

-- 14.7 (movement): garrison units may never move.
-- 14.8 (movement): before Turn 4 the units of Soult's (army "pyrenees") and Wellington's (army
-- "peninsula") commands may not move, and no other unit may enter the area south-west of the
-- Garonne. (14.8's ban on combat is the combat rules' business.)
local function pyrenean(game, id)
    local army = cnw_core.stat(game, id, "army")
    return army == "pyrenees" or army == "peninsula"
end
function hooks.unit_may_move(ctx, game, id)
    if ctx.core.is_garrison(game, id) or neutral(ctx, game, id) then return false end   -- 14.7, 16.3
    return not (game.turn() < 4 and pyrenean(game, id))
end
function hooks.may_enter(ctx, game, side, hex, ids)
    if game.turn() >= 4 or not map.in_region(hex, "south_west_of_garonne") then return true end
    for _, id in ipairs(ids) do
        if not pyrenean(game, id) then return false end
    end
    return true
end

-- 14.7: garrisons may not attack nor support. 14.8: before Turn 4 the units of Soult's and
-- Wellington's commands may not engage in combat: they neither attack nor support, and their
-- hexes cannot be attacked (RULINGS.md C-23).
local function pyrenean_winter(game, id) return game.turn() < 4 and pyrenean(game, id) end
-- 16.3: the neutral Neapolitans neither attack, support nor are attacked.
function hooks.combat_may_attack(ctx, game, id)
    return not ctx.core.is_garrison(game, id) and not pyrenean_winter(game, id) and not neutral(ctx, game, id)
end
function hooks.combat_may_support(ctx, game, id, role)
    return not ctx.core.is_garrison(game, id) and not pyrenean_winter(game, id) and not neutral(ctx, game, id)
end
function hooks.combat_may_target(ctx, game, hex, enemy)
    for _, id in ipairs(ctx.core.units_at(game, hex, enemy)) do
        if pyrenean_winter(game, id) then return false end
    end
    for _, id in ipairs(ctx.core.force_at(game, hex, enemy)) do
        if neutral(ctx, game, id) then return false end
    end
    return true
end

hooks.default_winner_text = "The French win: Paris and Bordeaux or Marseilles were never held together (14.4)"

-- 6.6 (besides commanders and Cossacks): garrisons, French units on 4329 and 4428, Murat's
-- Neapolitans in the Kingdom of Italy are deemed in General Supply (ignored for 6.4 and 7.6).
-- 14.1: "all Coalition units begin the game in supply": the General Supply phase of Turn 1
-- disrupts none of them (ruling S-30; our reconstructed set-up has some beyond 6.2's reach).
function hooks.deemed_in_general_supply(ctx, game, id)
    local core, p = ctx.core, cnw_core.piece(game, id)
    if not core.is_unit(game, id) then return false end
    if core.is_garrison(game, id) then return true end
    if p.owner == "coalition" and game.turn() == 1 and game.phase() == "general_supply" then return true end
    local hex = core.hex_of(game, id)        -- a unit in a hidden box (15.1) is in its marker's hex
    if p.owner == "french" and (hex == "4329" or hex == "4428") then return true end
    return cnw_core.stat(game, id, "nation") == "naples" and hex ~= nil and map.exists(hex)
        and map.in_region(hex, "kingdom_of_italy")
end

-- 14.13 (and 6.6): British units in Vliessingen are in supply from the sea.
local VLIESSINGEN = "5214"
function hooks.supplied_in_place(ctx, game, id)
    return ctx.core.hex_of(game, id) == VLIESSINGEN and cnw_core.stat(game, id, "nation") == "britain"
end

-- 14.13: the B.A.C. enters at Vliessingen in any Turn the city holds no enemy unit (13.3's
-- adjacency clause does not apply to it: RULINGS S-14).
-- 14.9: the veterans from Spain return "subject to Rule 4.1" only (RULINGS S-27).
function hooks.entry_ignores_adjacency(ctx, game, id)
    if game.prop(id, "arrive_anywhere") == true then return true end
    return game.prop(id, "arrive_repeat") == true and game.prop(id, "arrive_at") == VLIESSINGEN
end

-- 14.11: Murat's Neapolitans may not stack with other Coalition units and may not be held back.
function hooks.reinforcement_entry(ctx, game, id, hex)
    if not neapolitan(game, id) then return nil end
    for _, other in ipairs(ctx.core.force_at(game, hex, "coalition")) do
        if not neapolitan(game, other) then return false end
    end
    return nil
end
function hooks.must_deploy(ctx, game, id) return neapolitan(game, id) end

-- Invariants of the random-games sweep: 14.11, the Neapolitans never share a hex with other
-- Coalition pieces; 16.3, nothing else is ever in the neutral army's hex.
function hooks.invariants(ctx, game)
    local broken = {}
    local neutral_now = ctx.core.neutral_pieces(game)
    for _, hex in ipairs(game.occupied()) do
        local naples, others, is_neutral = false, false, false
        for _, id in ipairs(ctx.core.force_at(game, hex, "coalition")) do
            if neapolitan(game, id) then naples = true else others = true end
            if neutral_now[id] then is_neutral = true end
        end
        if naples and others then broken[#broken + 1] = "14.11: Neapolitans stacked with other Coalition pieces in " .. hex end
        if is_neutral and #ctx.core.force_at(game, hex, "french") > 0 then
            broken[#broken + 1] = "16.3: French pieces in the neutral Neapolitans' hex " .. hex
        end
    end
    -- the supply field's key names the hexes closed to supply lines (supply_closed_hexes)
    local listed = {}
    for _, hex in ipairs(hooks.supply_closed_hexes(ctx, game)) do listed[hex] = true end
    for _, hex in ipairs(game.occupied()) do
        if hooks.hex_closed(ctx, game, hex, {}) ~= (listed[hex] == true) then
            broken[#broken + 1] = "16.3: supply_closed_hexes and hex_closed disagree on " .. hex
        end
    end
    return broken
end

-- 14.12: Bernadotte or a Swedish unit west of the Rhine at the end of a Turn shortens the game.
function hooks.end_of_turn(ctx, game)
    if game.var("bernadotte_crossed") then return end
    for _, id in ipairs(game.pieces { owner = "coalition" }) do
        local hex = ctx.core.hex_of(game, id)    -- hidden units too (15.1)
        if (id == "bernadotte" or cnw_core.stat(game, id, "nation") == "sweden") and hex and map.exists(hex)
            and not map.in_region(hex, "east_of_rhine") then
            game.set_var("bernadotte_crossed", true)
            game.set_var("game_length", 10)
            game.log(id .. " has crossed the Rhine: the game lasts 10 Turns (14.12)")
            return
        end
    end
end

-- 14.9 and 14.10 at the start of a Turn (rules/scenario.lua).
local scenario = require("scenario")
function hooks.start_of_turn(ctx, game) return scenario.start_of_turn(ctx, game) end
hooks.entry_hexes = scenario.entry_hexes
hooks.reinforcement_placed = scenario.reinforcement_placed
for name, step in pairs(scenario.steps) do reinforcements.start.steps[name] = step end
-- 15.2 overstacking (optional rule; rules/scenario.lua).
hooks.stack_capacity = scenario.stack_capacity
hooks.train_actions = scenario.train_actions
hooks.train_apply = scenario.train_apply
hooks.end_of_movement = scenario.end_of_movement
for name, step in pairs(scenario.movement_steps) do movement.steps[name] = step end
-- 15.1 hidden forces (optional rule; rules/hidden.lua).
local hidden = require("hidden")
for name, f in pairs(hidden.hooks) do hooks[name] = f end
for name, step in pairs(hidden.steps) do reinforcements.phase.steps[name] = step end

-- 16.1 Random Event Cards (advanced rule; rules/events.lua over the library's cnw.cards).
-- events.install wraps the hooks set above (march_attrition_drm, unit_may_move, combat_*,
-- start_of_turn, ...): keep it after every other hook assignment.
local events = require("events")
params.event_cards = events.params
events.install(hooks, reinforcements.start.steps)

local phases = {}
phases.movement = movement                         -- 8
phases.commanders = commanders                     -- 12
phases.start = reinforcements.start                -- 14.1 depots, Set Up Card schedule
phases.general_supply = supply.general             -- 6
phases.active_supply = supply.active               -- 7
phases.reinforcements = reinforcements.phase       -- 13
phases.combat_commands = combat.combat_commands   -- 9
phases.combat = combat.combat                     -- 10-11

return game_rules.new(params, phases, hooks)
