-- Features for bots (framework/ai, docs/ai.md) beyond rules.ai_features: read-only views of the
-- rules' own computations, so the AI's evaluation agrees with the rules without re-implementing
-- them. Installed by game.lua (`require("cnw.ai_hints").install(rules, ctx)`); nothing here
-- changes a state.
local M = {}

function M.install(rules, ctx)
    local supply_lib

    -- rules.ai_supply_field(game, side): { [hex] = true } for every hex where a stack of `side`
    -- would be in general supply (6.1-6.2) as the position stands: the rules' own supply field
    -- (depots and USS, the route's length, terrain, rivers, enemy stacks and cavalry). The AI
    -- traces it once per decision and judges the positions its search reaches against it.
    -- The rules' own table, shared with every position of the same key (supply.lua): the host
    -- only reads it (a copy through the sandbox's ordered pairs sorted some 800 keys a call).
    function rules.ai_supply_field(game, side)
        supply_lib = supply_lib or require("cnw.supply")
        return supply_lib._field(ctx, game, side)
    end

    -- rules.ai_depot_allowed(game, side, hex): true when the supply.depot step would offer a
    -- depot at hex (7.7-7.8) for a genuine train of side standing there (the caller places it).
    -- The AI asks it of many sites; the listing would grow the 7.8 chain for every train on the map.
    function rules.ai_depot_allowed(game, side, hex)
        supply_lib = supply_lib or require("cnw.supply")
        return supply_lib._depot_allowed(ctx, game, side, hex)
    end

    -- rules.ai_linked_depots(game, side): { [hex] = true } for each depot of `side` linked to its
    -- Ultimate Supply Source by the chain of 7.8 as the position stands (a new depot must link to
    -- one of these or to the USS; a depot cut off still supplies, 7.8 play note).
    function rules.ai_linked_depots(game, side)
        supply_lib = supply_lib or require("cnw.supply")
        return supply_lib._linked_depots(ctx, game, side)
    end
end

return M
