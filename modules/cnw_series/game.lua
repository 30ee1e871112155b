-- The rules table and the sequence of play (rule 5) of the Campaigns of the Napoleonic Wars.
-- game.new(params) returns the table a module's main.lua returns: setup / actions / apply.
-- Each phase is a module (supply, movement, combat, ...) with begin(ctx, game) and steps.
local core = require("cnw.core")

local G = {}

-- Phases in the order of rule 5.1; ids match the module's <phases>.
local PHASES = { "start", "general_supply", "active_supply", "movement", "combat_commands",
                 "combat", "commanders", "reinforcements" }

-- A phase whose rules are not written yet says so in the log and in RULES.md; it never
-- pretends to have applied them.
local function not_implemented(rule)
    return {
        begin = function(ctx, game)
            game.log("NOT IMPLEMENTED: " .. rule .. " (see RULES.md); the phase is skipped")
            ctx.next_phase(game)
        end,
        steps = {},
    }
end

-- params: the per-game numbers (see napoleon_1814/rules/main.lua); phases: phase id -> module
-- (missing ones are reported as not implemented); hooks: game-specific functions.
function G.new(params, phases, hooks)
    hooks = hooks or {}
    local ctx = { params = params, core = core, hooks = hooks, phases = {}, steps = {} }

    for _, id in ipairs(PHASES) do
        ctx.phases[id] = phases[id] or not_implemented(params.phase_rules[id] or id)
        for name, step in pairs(ctx.phases[id].steps or {}) do ctx.steps[name] = step end
    end

    local function clear_turn_properties(game)
        for _, id in ipairs(game.pieces { category = "unit" }) do
            for _, key in ipairs { "moved", "forced_march", "combats", "forage", "recon_done" } do
                game.set_prop(id, key, nil)
            end
        end
        for _, id in ipairs(game.pieces { category = "commander" }) do game.set_prop(id, "moved", nil) end
    end

    -- 14.4: checked at the end of every Turn (Napoleon's death is checked where it happens).
    local function victory_at_end_of_turn(game)
        if hooks.victory_at_end_of_turn and hooks.victory_at_end_of_turn(ctx, game) then return true end
        local first, last = defs.turns()
        local length = hooks.game_length and hooks.game_length(ctx, game) or last
        if game.turn() >= length then
            game.finish(hooks.default_winner_text or "The French win: the Coalition has not taken its objectives (14.4)")
            return true
        end
        return false
    end

    local function begin_phase(game, index)
        game.set_phase(PHASES[index])
        game.set_var("phase_index", index)
        ctx.phases[PHASES[index]].begin(ctx, game)
    end

    -- Tests enter a phase directly: vt.edit sets the decision {role=, step="game.begin_phase",
    -- context={phase=id}}; its only action "begin" starts that phase (its begin()).
    ctx.steps["game.begin_phase"] = {
        actions = function(_, _, _, d)
            return { { kind = "begin", args = {}, label = "Begin phase " .. tostring(d.context.phase) } }
        end,
        apply = function(_, game, _, _, d)
            for i, id in ipairs(PHASES) do
                if id == d.context.phase then return begin_phase(game, i) end
            end
            error("game.begin_phase: unknown phase " .. tostring(d.context.phase))
        end,
    }

    function ctx.next_phase(game)
        if game.result() then return end
        local index = game.var("phase_index") + 1
        if index > #PHASES then
            if victory_at_end_of_turn(game) then return end
            game.set_turn(game.turn() + 1)
            clear_turn_properties(game)
            game.log("Turn " .. game.turn() .. " (" .. core.season(game) .. ")")
            index = 1
        end
        begin_phase(game, index)
    end

    local rules = {}

    function rules.setup(game)
        if hooks.setup then hooks.setup(ctx, game) end
        game.log("Turn " .. game.turn() .. " (" .. core.season(game) .. ")")
        begin_phase(game, 1)
    end

    local function step_of(game)
        local d = game.decision()
        local step = ctx.steps[d.step]
        if not step then error("no rules for step '" .. tostring(d.step) .. "'") end
        return step, d
    end

    function rules.actions(game, role)
        local step, d = step_of(game)
        return step.actions(ctx, game, role, d)
    end

    -- hooks.after_apply(ctx, game): the game's checks after every action (15.1's hidden boxes).
    function rules.apply(game, role, action)
        local step, d = step_of(game)
        step.apply(ctx, game, role, action, d)
        if hooks.after_apply then hooks.after_apply(ctx, game) end
    end

    -- Features for bots (framework/ai): the real general supply status (6.1-6.2, 14.13) of
    -- `role`'s stacks on the map, and those under siege (8.4, General Exception: a single combat
    -- unit in a city next to two undisrupted enemy units cannot move). Returns { in_supply =
    -- { [hex] = true }, out_of_supply = { [hex] = true }, besieged = { [hex] = true } } (plain
    -- tables; read-only). The field is traced once; a hex outside it is confirmed with
    -- supply.stack_in_general_supply (units supplied in place).
    local supply_lib
    function rules.ai_features(game, role)
        supply_lib = supply_lib or require("cnw.supply")
        local field = supply_lib._field(ctx, game, role)
        local inside, outside, besieged = {}, {}, {}
        for _, hex in ipairs(game.occupied()) do
            if #core.units_at(game, hex, role) > 0 then
                if field[hex] or supply_lib.stack_in_general_supply(ctx, game, hex, role) then
                    inside[hex] = true
                else
                    outside[hex] = true
                end
                if supply_lib.under_siege(game, hex) then besieged[hex] = true end
            end
        end
        return { in_supply = inside, out_of_supply = outside, besieged = besieged }
    end

    require("cnw.ai_hints").install(rules, ctx)  -- more features for bots (rules.ai_supply_field)

    -- Broken invariants, for `vedette-cli play --check-invariants` and the random-games sweep
    -- (scripts/random-games.sh). An empty list when all hold.
    function rules.invariants(game)
        local broken = {}
        local d = game.decision()
        local step = ctx.steps[d.step]
        -- 4.1 at all times, except inside a step that resolves an excess itself (11.11).
        if not (step and step.transient_overstack) then
            for _, hex in ipairs(game.occupied()) do
                for _, side in ipairs(core.SIDES) do
                    local cap = core.capacity(ctx, game, hex, side)
                    local of2 = core.stack_of2(game, hex, side)
                    if of2 > cap then
                        broken[#broken + 1] = string.format("4.1: %s has %s OF of %s in %s (limit %s)",
                            hex, of2 / 2, side, hex, cap / 2)
                    end
                end
            end
        end
        -- 9.2: Combat Commands within 1..6 (the tracks also refuse values outside).
        for _, side in ipairs(core.SIDES) do
            local cc = game.track(side .. "_cc_basic")
            if cc < ctx.params.cc_min or cc > ctx.params.cc_max then
                broken[#broken + 1] = "9.2: " .. side .. " basic CCs are " .. cc
            end
        end
        -- the game's own (1814: 14.11 / 16.3 Murat's army)
        if hooks.invariants then
            for _, text in ipairs(hooks.invariants(ctx, game)) do broken[#broken + 1] = text end
        end
        return broken
    end

    return rules, ctx
end

G.PHASES = PHASES

return G
