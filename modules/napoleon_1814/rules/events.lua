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
-- names; RULINGS EC-3).
local function on_rhine(hex)
    local east = map.in_region(hex, "east_of_rhine")
    for _, n in ipairs(map.neighbours(hex)) do
        if map.has_hexside(hex, n, "river") and map.in_region(n, "east_of_rhine") ~= east then return true end
    end
    return false
end
cards.selectors.near = function(game, id, v)
    local loc = game.piece(id).loc
    if v ~= "rhine" then error("cards: unknown selector near:" .. tostring(v)) end
    return loc ~= nil and map.exists(loc) and on_rhine(loc)
end
-- region:french_friendly names 1814's map region of French-friendly territory (1.1).

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
    -- 16.1: the cards are drawn before the General Supply and Attrition phase, after 14.9/14.10
    -- (digest A-54, RULINGS R-10).
    wrap(hooks, "start_of_turn", function(base, ctx, game)
        if base and base(ctx, game) then return true end
        return cards.start_of_turn(ctx, game)
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
        if info.role == "defender" then
            local c = info.combat
            bonus = bonus + cards.defence_bonus(ctx, game, c.defender, core.units_at(game, c.to, c.defender))
        end
        return bonus
    end)
end

return E
