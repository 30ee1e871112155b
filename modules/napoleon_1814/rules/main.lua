-- 1814: Napoleon's Defiance — the rules. The system is the Campaigns of the Napoleonic Wars
-- library (modules/cnw_series, require "cnw.*"); this file gives 1814's parameters and its
-- scenario rules (14.x). See RULES.md for where every rule is implemented and tested.
local game_rules = require("cnw.game")
local movement = require("cnw.movement")       -- 8
local commanders = require("cnw.commanders")   -- 12
local combat = require("cnw.combat")

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
    return false
end

-- 14.3 / 14.12: 12 Turns, 10 if Bernadotte or his Swedish corps crossed the Rhine.
function hooks.game_length(ctx, game)
    return game.var("bernadotte_crossed") and 10 or 12
end

-- 14.4: Napoleon killed or captured (11.20, 8.9): immediate Coalition victory.
function hooks.commander_eliminated(ctx, game, id)
    if game.piece(id).type == "napoleon" and not game.result() then
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
function hooks.combat_may_attack(ctx, game, id) return not ctx.core.is_garrison(game, id) end
function hooks.combat_may_support(ctx, game, id, role) return not ctx.core.is_garrison(game, id) end
function hooks.combat_withdrawal(ctx, game, id, forced)
    if not ctx.core.is_garrison(game, id) then return nil end
    return forced and "eliminate" or "stay"
end

-- 14.5: in the basic game Napoleon gives -1 to the march attrition of a stack he accompanies
-- throughout its move (counter stat basic_march_drm); with 16.2, that rule's modifiers apply instead.
function hooks.march_attrition_drm(ctx, game, ids)
    if game.option("command_structure") then return 0 end
    local drm = 0
    for _, id in ipairs(ids) do drm = drm + (game.stat(id, "basic_march_drm") or 0) end
    return drm
end

-- 14.5: Napoleon cannot leave Paris until the Commanders' Movement phase of Turn 4.
function hooks.commander_may_leave(ctx, game, id, phase)
    if game.piece(id).type ~= "napoleon" or game.piece(id).loc ~= PARIS then return true end
    return game.turn() > 4 or (game.turn() == 4 and phase == "commanders")
end

-- 14.7 (movement): garrison units may never move.
function hooks.unit_may_move(ctx, game, id) return not ctx.core.is_garrison(game, id) end

hooks.default_winner_text = "The French win: Paris and Bordeaux or Marseilles were never held together (14.4)"

local phases = {}
phases.movement = movement                         -- 8
phases.commanders = commanders                     -- 12
phases.combat_commands = combat.combat_commands   -- 9
phases.combat = combat.combat                     -- 10-11

return game_rules.new(params, phases, hooks)
