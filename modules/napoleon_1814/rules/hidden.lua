-- 1814 optional rule 15.1 Hidden Forces (option hidden_forces).
--
-- Each side has eight private boxes (map.xml: <side>_hidden_1..8, seen only by their owner) and
-- eight numbered markers (counters.xml: stat "box" names the marker's box). A marker on the map
-- stands for its box's units: the series library (cnw.core: units_at, hex_of) counts them in the
-- marker's hex for every rule, "as if on the map" (supply, attrition, 4.1, movement, combat).
-- This file holds what is particular to 15.1:
--   * the Reinforcement Phase decisions (after every reinforcement is placed): put units of a
--     stack that has more than one combat unit already on the map into a box, or bring them back;
--   * the revelations: combat (attacker, defender, supporting stack), 8.2 cavalry proximity,
--     8.5 reconnaissance in force, 15.2's excess, and H.reveal for the Random Event Cards;
--   * the upkeep after every action (H.tidy): an empty box frees its marker; a box whose stack
--     has no combat unit left on the map comes out onto the map (15.1: one must stay there).
-- Splitting and transfers during a move are movement.lua's (mc._hidden, mc.markers).
local core = require("cnw.core")
local reinforcements = require("cnw.reinforcements")
local supply = require("cnw.supply")

local H = { steps = {} }

local RULE = "15.1"

local function enabled(game) return game.option("hidden_forces") end

-- The side's markers, in number order (once per state, game.memo: READ ONLY).
local function markers(game, side)
    local memo = game.memo()
    local key = "hidden.markers." .. tostring(side)
    if memo[key] then return memo[key] end
    local out = {}
    for _, id in ipairs(game.pieces { owner = side, category = "marker" }) do
        if core.marker_box(game, id) then out[#out + 1] = id end
    end
    memo[key] = out
    return out
end

local function on_map(game, id)
    local loc = core.piece(game, id).loc
    return loc ~= nil and loc:sub(1, 4) ~= "box:"
end

local function free_marker(game, side)
    for _, m in ipairs(markers(game, side)) do
        if not on_map(game, m) and #core.box_contents(game, m) == 0 then return m end
    end
    return nil
end

-- Puts `ids` (all the box's units when nil) of marker's box on the map in the marker's hex; the
-- marker goes when its box is empty. Returns the units placed.
function H.redeploy(game, marker, ids, why)
    local hex = core.piece(game, marker).loc
    ids = ids or core.box_contents(game, marker)
    for _, id in ipairs(ids) do
        game.move(id, hex)
        game.log(id .. " comes out of hidden force " .. marker .. " onto the map at " .. hex ..
            " (" .. why .. ")")
        -- a revealed fact: the engine then refuses to undo the action that revealed it (a player
        -- must not look at a hidden force and take his move back)
        game.set_hidden(id, true)
        game.reveal(id)
    end
    if #core.box_contents(game, marker) == 0 then
        game.remove(marker)
        game.log("Hidden force marker " .. marker .. " at " .. hex .. " is removed: its box is empty (15.1)")
    end
    return ids
end

-- The generic revelation (combat, 8.2, 8.5, the Random Event Cards): the units of `side`'s
-- hidden forces at `hex` (every hex when nil) for which filter(game, id) is true (all when nil)
-- are put on the map. Returns the units revealed.
function H.reveal(game, hex, side, filter, why)
    local out = {}
    for _, m in ipairs(markers(game, side)) do
        if on_map(game, m) and (hex == nil or core.piece(game, m).loc == hex) then
            local ids = {}
            for _, id in ipairs(core.box_contents(game, m)) do
                if filter == nil or filter(game, id) then ids[#ids + 1] = id end
            end
            if #ids > 0 then
                for _, id in ipairs(H.redeploy(game, m, ids, why or RULE)) do out[#out + 1] = id end
            end
        end
    end
    return out
end

-- 8.2: an enemy stack moved next to the stack: its undisrupted cavalry is revealed.
local function undisrupted_cavalry(game, id)
    return core.is_unit(game, id) and core.unit_type(game, id) == "cavalry" and not core.disrupted(game, id)
end

-- After every action: markers of empty boxes go; a box whose stack has no combat unit left on
-- the map comes out (units still moving hidden, prop moving_hidden, wait for their move's end).
function H.tidy(game)
    for _, side in ipairs(core.SIDES) do
        for _, m in ipairs(markers(game, side)) do
            local contents = core.box_contents(game, m)
            if not on_map(game, m) then
                if #contents > 0 then
                    error("15.1: hidden force " .. m .. " holds " .. table.concat(contents, ", ") ..
                        " but its marker is not on the map")
                end
            elseif #contents == 0 then
                local hex = core.piece(game, m).loc
                game.remove(m)
                game.log("Hidden force marker " .. m .. " at " .. hex .. " is removed: its box is empty (15.1)")
            elseif #core.map_units_at(game, core.piece(game, m).loc, side) == 0 then
                local out = {}
                for _, id in ipairs(contents) do
                    if not game.prop(id, "moving_hidden") then out[#out + 1] = id end
                end
                if #out > 0 then H.redeploy(game, m, out, "15.1: no combat unit of its stack is left on the map") end
            end
        end
    end
end

-- ---- hooks for the series library -------------------------------------------------------------

H.hooks = {}

function H.hooks.after_apply(ctx, game)
    if enabled(game) then H.tidy(game) end
end

function H.hooks.reveal_cavalry(ctx, game, hex, side)
    H.reveal(game, hex, side, undisrupted_cavalry, "8.2: an enemy stack moved next to it")
end

function H.hooks.reveal_stack(ctx, game, hex, side)
    H.reveal(game, hex, side, nil, "15.1: the stack is revealed")
end

function H.hooks.combat_reveal(ctx, game, hex, side)
    H.reveal(game, hex, side, nil, "15.1: the stack engages in combat")
end

-- 16.1 (REC 16, 24, 35 "reveal"): a card may reveal a hidden force. The counter chosen is its
-- marker (named by hex and rank like any face-down counter); its whole box comes onto the map.
function H.hooks.card_reveal_targets(ctx, game, side)
    local out = {}
    for _, m in ipairs(markers(game, side)) do
        if on_map(game, m) and #core.box_contents(game, m) > 0 then out[#out + 1] = m end
    end
    return out
end

function H.hooks.card_reveal(ctx, game, id)
    if not core.marker_box(game, id) then return false end
    local p = core.piece(game, id)
    H.reveal(game, p.loc, p.owner, function(_, x) return core.marker_of(game, x) == id end,
        "16.1: a Random Event Card reveals hidden force " .. id)
    return true
end

-- ---- the Reinforcement Phase ------------------------------------------------------------------

local function decide_arrange(ctx, game, order)
    local side = order[1]
    game.set_active(side)
    game.decide { role = side, step = "hidden.arrange", rule = RULE,
                  prompt = "Hidden forces (15.1): put combat units of a stack with more than one combat unit " ..
                      "into a hidden box, or bring hidden units back onto the map; then done",
                  context = { order = order } }
end

function H.hooks.after_reinforcements(ctx, game)
    if not enabled(game) then return false end
    local first = supply.first_side(ctx, game)   -- the order of 13.2
    decide_arrange(ctx, game, { first, core.enemy(first) })
    return true
end

-- Units of a stack at hex "already deployed upon the map prior to that Phase" (15.1): those not
-- placed this Turn as reinforcements, the hidden ones included. A neutral piece (16.3, Murat's
-- army before REC 9) is no player's to hide (RULINGS RV-5).
local function earlier(game, id)
    return game.prop(id, "arrived_turn") ~= game.turn() and not core.is_neutral(game, id)
end

local function hideable(game, side)
    local out = {}
    local free   -- free_marker(game, side), asked once (false: none)
    for _, hex in ipairs(game.occupied()) do
        local on_board = core.map_units_at(game, hex, side)
        if #on_board >= 2 then       -- one combat unit stays on the map
            local n = 0
            for _, id in ipairs(core.units_at(game, hex, side)) do
                if earlier(game, id) then n = n + 1 end
            end
            local boxes = core.box_markers_at(game, hex, side)
            if n >= 2 and #boxes == 0 and free == nil then free = free_marker(game, side) or false end
            if n >= 2 and (#boxes > 0 or free) then
                for _, id in ipairs(on_board) do
                    if earlier(game, id) then out[#out + 1] = { id = id, hex = hex, marker = boxes[1] } end
                end
            end
        end
    end
    return out
end

local function hidden_units(game, side)
    local out = {}
    for _, m in ipairs(markers(game, side)) do
        if on_map(game, m) then
            for _, id in ipairs(core.box_contents(game, m)) do out[#out + 1] = { id = id, marker = m } end
        end
    end
    return out
end

H.steps["hidden.arrange"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local out = {}
        for _, h in ipairs(hideable(game, role)) do
            out[#out + 1] = { kind = "hide", args = { h.id }, pieces = { h.id }, hexes = { h.hex },
                              label = "Put " .. h.id .. " at " .. h.hex .. " into " ..
                                  (h.marker and ("hidden force " .. h.marker) or "a new hidden force") .. " (15.1)" }
        end
        for _, h in ipairs(hidden_units(game, role)) do
            local hex = core.piece(game, h.marker).loc
            out[#out + 1] = { kind = "redeploy", args = { h.id }, pieces = { h.id, h.marker }, hexes = { hex },
                              label = "Bring " .. h.id .. " out of hidden force " .. h.marker .. " onto the map at " .. hex .. " (15.1)" }
        end
        out[#out + 1] = { kind = "done", args = {}, label = "No more changes to the hidden forces (15.1)" }
        return out
    end,
    apply = function(ctx, game, role, action, d)
        if action.kind == "hide" then
            local id = action.args[1]
            local hex = core.piece(game, id).loc
            local m = core.box_markers_at(game, hex, role)[1]
            if not m then
                m = free_marker(game, role)
                if not m then game.refuse("all eight hidden force markers are in use (15.1)") end
                game.move(m, hex)
            end
            game.move(id, "box:" .. core.marker_box(game, m))
            game.log(id .. " at " .. hex .. " goes into hidden force " .. m .. " (15.1)")
            return decide_arrange(ctx, game, d.context.order)
        end
        if action.kind == "redeploy" then
            local id = action.args[1]
            H.redeploy(game, core.marker_of(game, id), { id }, "15.1, Reinforcement Phase")
            return decide_arrange(ctx, game, d.context.order)
        end
        local rest = {}
        for i = 2, #d.context.order do rest[#rest + 1] = d.context.order[i] end
        if #rest > 0 then return decide_arrange(ctx, game, rest) end
        reinforcements.finish(ctx, game)
    end,
}

return H
