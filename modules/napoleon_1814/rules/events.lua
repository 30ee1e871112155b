-- 1814: Napoleon's Defiance — advanced rule 16.1, the Random Event Cards: the binding of the
-- series library's card engine (cnw.cards) to 1814's decks (cards.xml) and rules. The generic
-- mechanism (deal, draw, choice, laying order, effects that last the Turn) is in
-- modules/cnw_series/cards.lua; here are 1814's deck parameters, its own primitives and
-- selectors, and the hooks through which the other rules consult this Turn's effects.
local core = require("cnw.core")
local cards = require("cnw.cards")

local E = {}

-- 16.1: Winter deck 1-18 (Turns 1-6; undrawn cards discarded after Turn 6), Spring deck 19-36
-- (Turns 7 et seq); cards 1, 3, 4, 9, 11, 13, 17 out of the first deal; the French declare first.
E.params = {
    option = "event_cards",
    decks = { { id = "winter", last_turn = 6 }, { id = "spring" } },
    set_aside = { 1, 3, 4, 9, 11, 13, 17 },
    declare_first = "french",
}

-- near:rhine — a hex on or adjacent to the River Rhine: a hex with a river hexside that separates
-- the region east of the Rhine (1.1) from the rest of the map (the map API has no hexside
-- names; RULINGS EC-16).
local function on_rhine(hex)
    local east = map.in_region(hex, "east_of_rhine")
    for _, n in ipairs(map.neighbours(hex)) do
        if map.has_hexside(hex, n, "river") and map.in_region(n, "east_of_rhine") ~= east then return true end
    end
    return false
end
cards.selectors.near = function(game, id, v)
    local loc = core.hex_of(game, id)   -- 15.1: a hidden unit is in its marker's hex
    if v ~= "rhine" then error("cards: unknown selector near:" .. tostring(v)) end
    return loc ~= nil and map.exists(loc) and on_rhine(loc)
end

-- REC 9 (16.3): Murat's Neapolitan army joins the Coalition. The variable murat_joined is what
-- 16.3 (another part of the rules) reads.
cards.primitives.murat_joins = {
    now = function(ctx, game, e)
        game.set_var("murat_joined", true)
        game.log("Murat's Neapolitan Army joins the Coalition (REC 9, 16.3)")
        return "done"
    end,
}

-- Hooks of the library that consult this Turn's effects; each wraps the hook main.lua already set.
local function wrap(hooks, name, f)
    local base = hooks[name]
    hooks[name] = function(ctx, game, ...) return f(base, ctx, game, ...) end
end

function E.install(hooks, start_steps)
    for name, step in pairs(cards.steps) do start_steps[name] = step end
    wrap(hooks, "setup", function(base, ctx, game)
        if base then base(ctx, game) end
        cards.setup(ctx, game)
    end)
    -- 16.1: the cards are drawn before the General Supply and Attrition phase (RULINGS R-10),
    -- and before 14.9/14.10 so that REC 36 can act on this Turn's 14.10 (RULINGS EC-4).
    wrap(hooks, "start_of_turn", function(base, ctx, game)
        if cards.start_of_turn(ctx, game) then return true end
        return base ~= nil and base(ctx, game)
    end)
    wrap(hooks, "combat_commands_adjust", function(base, ctx, game)
        if base then base(ctx, game) end
        cards.adjust_combat_commands(ctx, game)
    end)
    wrap(hooks, "supply_trains_adjust", function(base, ctx, game, side)
        return (base and base(ctx, game, side) or 0) + cards.supply_trains_delta(ctx, game, side)
    end)
    wrap(hooks, "march_attrition_drm", function(base, ctx, game, ids)
        return (base and base(ctx, game, ids) or 0) + cards.march_drm(ctx, game, ids)
    end)
    wrap(hooks, "forced_march_allowed", function(base, ctx, game, ids)
        if base and not base(ctx, game, ids) then return false end
        return cards.forced_march_allowed(ctx, game, ids)
    end)
    wrap(hooks, "all_difficult_unless_road", function(base, ctx, game)
        return (base and base(ctx, game)) or cards.all_difficult_unless_road(ctx, game)
    end)
    -- supply (6, 7)
    hooks.supply_rivers_frozen = cards.rivers_frozen
    hooks.supply_blocked_region = cards.blocked_region
    hooks.uss_lost = function(ctx, game, side) return cards.lost_uss(ctx, game, side, ctx.params.uss_region[side]) end
    hooks.depot_city_friendly = cards.depot_city_friendly
    hooks.supply_trains_reserved = cards.supply_trains_reserved
    hooks.forage_ignored = cards.forage_ignored
    hooks.extra_forage = cards.extra_forage
    wrap(hooks, "deemed_in_general_supply", function(base, ctx, game, id)
        local loc = core.piece(game, id).loc
        if loc and cards.supply_exemption_cancelled(game, loc) then
            -- REC 28: the 6.6 exemption of these hexes is lifted; the others stand
            if core.stat(game, id, "nation") ~= "naples" and not ctx.core.is_garrison(game, id) then return false end
        end
        return base ~= nil and base(ctx, game, id)
    end)
    -- REC 22: no French reinforcement is placed on a lost Ultimate Supply Source
    wrap(hooks, "reinforcement_entry", function(base, ctx, game, id, hex)
        if cards.uss_lost(ctx, game, core.piece(game, id).owner, hex) then return false end
        if base then return base(ctx, game, id, hex) end
        return nil
    end)
    -- movement (8)
    wrap(hooks, "start_of_movement", function(base, ctx, game)
        if base and base(ctx, game) then return true end
        return cards.start_of_movement(ctx, game)
    end)
    hooks.movement_first = function(ctx, game) return cards.first_mover(game) end
    hooks.move_attempt = function(ctx, game, side, hex, ids)
        local fail, e = cards.move_roll_needed(ctx, game, side, ids)
        if not fail then return true end
        local score = game.roll(1, 6, "REC " .. defs.card(e.card).attributes.number .. ": the mixed stack at " .. hex .. " tries to move")
        if score <= fail then
            game.log("The stack at " .. hex .. " does not move (Random Event Card)")
            return false
        end
        return true
    end
    -- combat (9-11)
    hooks.ignore_river = function(ctx, game, side) return cards.take(game, "ignore_river", side) end
    hooks.withdraw_before_combat = function(ctx, game, side) return cards.available(game, "withdraw_before_combat", side) end
    hooks.withdraw_before_combat_used = function(ctx, game, side) cards.take(game, "withdraw_before_combat", side) end
    -- 13.1 (REC 33)
    hooks.cossack_success_score = function(ctx, game) return cards.cossack_success_score(game) end
    hooks.free_rally = cards.free_rally
    hooks.free_rally_used = cards.free_rally_used
    hooks.free_move = cards.free_move
    hooks.free_move_possible = cards.free_move_possible
    hooks.free_move_used = cards.free_move_used
    hooks.free_move_forgo = cards.free_move_forgo
    wrap(hooks, "unit_may_move", function(base, ctx, game, id)
        if base and not base(ctx, game, id) then return false end
        return cards.may_move(ctx, game, id)
    end)
    wrap(hooks, "combat_may_attack", function(base, ctx, game, id)
        if base and base(ctx, game, id) == false then return false end
        return cards.may_attack(ctx, game, id)
    end)
    wrap(hooks, "combat_may_support", function(base, ctx, game, id, role)
        if base and base(ctx, game, id, role) == false then return false end
        if role == "attack" then return cards.may_attack(ctx, game, id) end
        return true
    end)
    wrap(hooks, "combat_value_bonus", function(base, ctx, game, info)
        local bonus = base and base(ctx, game, info) or 0
        local c = info.combat
        if info.role == "defender" then
            local ids = core.units_at(game, c.to, c.defender)
            bonus = bonus + cards.defence_bonus(ctx, game, c.defender, ids) + cards.combat_bonus(ctx, game, c.defender, ids)
        else
            bonus = bonus + cards.combat_bonus(ctx, game, c.attacker, c.ordered or {})
        end
        return bonus
    end)
end

return E
