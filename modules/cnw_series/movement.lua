-- Rally and Movement (rule 8) of the Campaigns of the Napoleonic Wars: rally (8.1), alternating
-- stack moves (8.2-8.3), marches and forced marches with every restriction of 8.4 (cavalry bp 6
-- and 7, the siege exception, 4.1 at all times), the revelation of cavalry (8.2),
-- reconnaissance in force (8.5, where the game's params allow it), march attrition (8.6-8.7),
-- depot capture (8.8) and commanders overrun (8.9 -> 11.20).
--
-- Everything between two decisions lives in the decision's context (a move in progress is the
-- table `mc` below) or in piece properties: `moved`, `forced_march`, `recon_done` (per Turn,
-- cleared by game.lua) and `movement_anchored`, `movement_rallied` (per phase, cleared here).
--
-- Game-specific rules come through ctx.hooks (all optional):
--   march_attrition_drm(ctx, game, ids) -> number   ids: the moving units and the commanders
--                                                    who accompanied them throughout (14.5)
--   unit_may_move(ctx, game, id) -> bool             (14.7 garrisons, 14.8 ...)
--   commander_may_leave(ctx, game, id, phase) -> bool (14.5 Napoleon in Paris)
--   may_enter(ctx, game, side, hex, unit_ids) -> bool (scenario areas, 14.11 ...)
--   stack_capacity(ctx, game, hex, side) -> half-OF  (15.2 overstacking; as combat.lua)
--   train_actions(ctx, game, side) -> actions, train_apply(ctx, game, side, action)  other uses of
--                                                    a Supply Train in 8.2's alternation (15.2)
--   end_of_movement(ctx, game) -> true if it decided  after the phase (15.2's excess check)
--   reveal_cavalry(ctx, game, hex, side)             (15.1 hidden forces: 8.2's revelation; it
--                                                    puts the hidden cavalry on the map)
--   reveal_stack(ctx, game, hex, side)               (15.1: a reconnaissance in force (8.5)
--                                                    places the target's hidden force on the map)
--
-- 15.1 hidden forces (core.lua): a stack's units in a hidden box are part of the stack. A move
-- carries them in mc._hidden (a private key: the opponent's view never shows it). If every unit
-- of the boxes goes with at least one unit on the map, the markers travel with the stack
-- (mc.markers); otherwise the boxed movers stay in their box until the move ends, then join the
-- box of a friendly stack at the destination (8.2's transfer) or appear on the map there.
--   forced_march_allowed(ctx, game, unit_ids) -> bool (1814 16.1 REC 13: no forced march)
--   all_difficult_unless_road(ctx, game) -> bool      (1814 16.1 REC 17: every hex difficult)
--   free_rally(ctx, game, side, hex) -> token|nil, free_rally_used(ctx, game, side, token)
--                                                    (1814 16.1: rallies without a Supply Train)
--   start_of_movement(ctx, game) -> true if it decided (1814 16.1: a delayed reveal)
--   movement_first(ctx, game) -> side|nil             (1814 16.1 REC 24: who instigates 8.2)
--   move_attempt(ctx, game, side, hex, unit_ids) -> bool  false: the stack does not move (REC 29)
--   free_move(ctx, game, side, hex) -> token|nil, free_move_used(ctx, game, side, token),
--   free_move_forgo(ctx, game, side)                  (1814 16.1: moves without a Supply Train)
--   commander_eliminated(ctx, game, id)              (14.4 Napoleon killed or captured)
--   hex_closed(ctx, game, hex, ids) -> bool           through core.closed (1814 16.3, 14.11)
-- The advanced command structure (16.2: trains, 8.6 drm, move roll) is command.lua's.
-- and ctx.params: march = {winter=, spring=}, forced_march, stack_limit_of2, supply_tie_first,
-- recon_in_force = {min_units=, max_target_units=, cost=} (absent: no 8.5 in this game).
local core = require("cnw.core")
local command = require("cnw.command")   -- 16.2 (advanced)

local M = {}

local ALT = "movement"

-- ---- small helpers --------------------------------------------------------------------------

local function set_of(list)
    local s = {}
    for _, v in ipairs(list or {}) do s[v] = true end
    return s
end

local function contains(list, x)
    for _, v in ipairs(list or {}) do if v == x then return true end end
    return false
end

local function without(list, x)
    local out = {}
    for _, v in ipairs(list) do if v ~= x then out[#out + 1] = v end end
    return out
end

-- Modules of the other engineers, when the rules loaded them (require works during a call only
-- for files already loaded).
local function optional(name)
    local ok, mod = pcall(require, name)
    if ok and type(mod) == "table" then return mod end
    return nil
end

local function on_map(game, id)
    local loc = core.hex_of(game, id)
    return loc ~= nil and map.exists(loc)
end

-- The moving units: those on the map and (15.1) the hidden ones, moving apart from their box
-- (_hidden) or in a box whose marker travels with the stack (_carried).
local function movers(mc)
    local out = {}
    for _, id in ipairs(mc.units) do out[#out + 1] = id end
    for _, id in ipairs(mc._hidden or {}) do out[#out + 1] = id end
    for _, id in ipairs(mc._carried or {}) do out[#out + 1] = id end
    return out
end

local function names(ids) return table.concat(ids, ", ") end

-- ---- supply trains (conventions of DESIGN.md; supply.lua owns their allocation) ----------------

local function is_genuine_train(game, id, side)
    local p = core.piece(game, id)
    return p.type == side .. "_supply" and p.face == "train"
end

-- Genuine Supply Trains of `side` on top of the stack at hex (dummies do not enable anything).
function M.trains_at(game, hex, side)
    local out = {}
    for _, id in ipairs(core.stack(game, hex)) do
        if is_genuine_train(game, id, side) then out[#out + 1] = id end
    end
    return out
end

function M.all_trains(game, side)
    local out = {}
    for _, id in ipairs(game.pieces { type = side .. "_supply", face = "train" }) do
        if on_map(game, id) then out[#out + 1] = id end
    end
    return out
end

local function use_train(game, id)
    local supply = optional("cnw.supply")
    if supply and supply.use_train then
        supply.use_train(game, id)
    else
        game.remove(id)
    end
end

-- 8.1: "in supply" (6.1). The supply engineer's test when loaded; otherwise the allocation of the
-- Supply Train (7.3 requires General Supply) stands for it (RULINGS.md M-2).
local function in_general_supply(ctx, game, id)
    local supply = optional("cnw.supply")
    if supply and supply.unit_in_general_supply then
        return supply.unit_in_general_supply(ctx, game, id)
    end
    return true
end

-- 8.2 / 7.4: the player with the most Supply Trains per his Set Up Card (var
-- supply_trains_<side>: twelve numbers, one per Turn) goes first; ties: params.supply_tie_first.
function M.trains_on_card(game, side)
    local v = game.var("supply_trains_" .. side)
    if type(v) == "string" then
        local i = 0
        for n in v:gmatch("%-?%d+") do
            i = i + 1
            if i == game.turn() then return tonumber(n) end
        end
    elseif type(v) == "number" then
        return v
    elseif type(v) == "table" then
        return v[game.turn()] or v[#v] or 0
    end
    return game.track(side .. "_supply_trains") + game.track(side .. "_depots_lost")
end

function M.first_by_trains(ctx, game)
    local f, c = M.trains_on_card(game, "french"), M.trains_on_card(game, "coalition")
    if f > c then return "french" end
    if c > f then return "coalition" end
    return ctx.params.supply_tie_first or "french"
end

-- ---- 8.4 conditions ---------------------------------------------------------------------------

local limit_of2 = core.capacity

local function normal_allowance(ctx, game)
    local m = ctx.params.march or {}
    return m[core.season(game)] or 3
end

-- 8.4 forced march; a game's hook forced_march_allowed(ctx, game, ids) may forbid it this Turn
-- (1814 16.1 REC 13): the stack then has its normal allowance only.
local function full_allowance(ctx, game, mc)
    if mc._free and mc._free.normal_only then return normal_allowance(ctx, game) end
    if ctx.hooks.forced_march_allowed and not ctx.hooks.forced_march_allowed(ctx, game, mc.units) then
        return normal_allowance(ctx, game)
    end
    return ctx.params.forced_march or 5
end

local function unit_may_move(ctx, game, id)
    if game.prop(id, "moved") or game.prop(id, "movement_anchored") then return false end
    if core.disrupted(game, id) then return false end
    if ctx.hooks.unit_may_move and not ctx.hooks.unit_may_move(ctx, game, id) then return false end
    return true
end

local function commander_may_leave(ctx, game, id, phase)
    if ctx.hooks.commander_may_leave then return ctx.hooks.commander_may_leave(ctx, game, id, phase) end
    return true
end

-- 8.4 General Exception (digest A-6): a single combat unit in a city next to one hex holding at
-- least two undisrupted enemy combat units is under siege.
function M.under_siege(ctx, game, hex, side)
    local supply = optional("cnw.supply")
    if supply and supply.under_siege then return supply.under_siege(game, hex) end
    if not core.is_city(hex) then return false end
    if #core.units_at(game, hex, side) ~= 1 then return false end
    local need = ctx.params.siege_enemy_units or 2
    for _, n in ipairs(map.neighbours(hex)) do
        if #core.undisrupted_units_at(game, n, core.enemy(side)) >= need then return true end
    end
    return false
end

local function river_side(a, b) return map.has_hexside(a, b, "river") or map.has_hexside(a, b, "bridge") end

-- river_side for the hexsides of a hex, from the map alone (immutable): RIVER_SIDE[a][b].
local RIVER_SIDE = setmetatable({}, { __index = function(t, a)
    local row = {}
    for _, b in ipairs(map.neighbours(a)) do row[b] = river_side(a, b) end
    t[a] = row
    return row
end })

-- 8.4 bp6/bp7: undisrupted enemy cavalry next to hex, not across a river (bridged or not). Only
-- cavalry on the map counts: hidden cavalry (15.1) stops a move once revealed (enter_hex).
function M.cavalry_adjacent(game, hex, side)
    for _, n in ipairs(map.neighbours(hex)) do
        if not river_side(hex, n) and core.has_undisrupted_enemy_cavalry(game, n, side, true) then return true end
    end
    return false
end

-- The hexes where M.cavalry_adjacent(game, hex, side) holds, all at once: the neighbours of the
-- hexes with undisrupted enemy cavalry on the map, not across a river. For a move's search, which
-- asks it of every hex it reaches.
local function screened_hexes(game, side)
    local out = {}
    local neutral = core.neutral_pieces(game)
    local pc = core.pieces(game)
    for _, id in ipairs(core.map_units_of(game, core.enemy(side))) do
        local p = pc[id]
        if p.face ~= "disrupted" and not neutral[id] and core.unit_type(game, id) == "cavalry" then
            local cav = p.loc
            for _, h in ipairs(map.neighbours(cav)) do
                if not RIVER_SIDE[h][cav] then out[h] = true end
            end
        end
    end
    return out
end

-- bp7: the hex where the stack starts is next to undisrupted enemy cavalry (rivers do not matter
-- here: the river exception is about the first hex entered).
local function starts_next_to_cavalry(game, hex, side)
    for _, n in ipairs(map.neighbours(hex)) do
        if core.has_undisrupted_enemy_cavalry(game, n, side, true) then return true end
    end
    return false
end

-- Friendly units at hex, outside the moving group, that have not moved this Turn: they exempt
-- the hex from bp6/bp7 (and are then anchored, digest A-7).
local function anchors_at(game, hex, side, group)
    local out = {}
    for _, id in ipairs(core.units_at(game, hex, side)) do
        if not group[id] and not game.prop(id, "moved") then out[#out + 1] = id end
    end
    return out
end

local group_of2 = core.of2_sum

-- The step cost of the moving group `mc` (nil = not allowed), and stop_at(h): entering h ends
-- the move (bp6). Caches live only for this call.
local function make_cost(ctx, game, mc)
    local side = mc.side
    local moving = movers(mc)
    local group = set_of(moving)
    local of2 = group_of2(game, moving)
    local entering = movers(mc)          -- what may not enter a closed hex (core.closed)
    for _, id in ipairs(mc.cmds) do entering[#entering + 1] = id end
    local stop_memo, enter_memo, screened = {}, {}, nil
    local function stop_at(h)
        local v = stop_memo[h]
        if v == nil then
            screened = screened or screened_hexes(game, side)
            v = screened[h] == true and #anchors_at(game, h, side, group) == 0
            stop_memo[h] = v
        end
        return v
    end
    local function may_enter(h)
        local v = enter_memo[h]
        if v == nil then
            -- most hexes a search reaches are empty: no enemy, nothing of ours, never closed
            local occupied = #core.stack(game, h) > 0 or h == mc.at
            v = core.playable(h) and not (occupied and core.has_enemy_units(game, h, side))
            if v then
                local here = occupied and core.stack_of2(game, h, side) - (h == mc.at and of2 or 0) or 0
                v = here + of2 <= limit_of2(ctx, game, h, side)
            end
            if v and ctx.hooks.may_enter then v = ctx.hooks.may_enter(ctx, game, side, h, moving) and true or false end
            if v and occupied and core.closed(ctx, game, h, entering) then v = false end
            enter_memo[h] = v
        end
        return v
    end
    local first = mc.spent == 0 and starts_next_to_cavalry(game, mc.at, side)
    -- a game's hook may make every hex difficult this Turn unless entered by road (1814 REC 17)
    local mud = ctx.hooks.all_difficult_unless_road and ctx.hooks.all_difficult_unless_road(ctx, game)
    local entry = core.entry_costs(game)
    local function cost(a, b)
        if not may_enter(b) then return nil end
        local c = entry[a][b]
        if c == nil then c = core.entry_cost(game, a, b) end   -- not next to a (never in a search)
        if not c then return nil end
        if mud and not core.road_between(a, b) then c = 2 end
        if a == mc.at and mc.spent == 0 then
            if first and stop_at(b) then return nil end          -- bp7
        elseif stop_at(a) then
            return nil                                            -- bp6: cannot leave
        end
        return c
    end
    return cost, stop_at
end

local function remaining(ctx, game, mc) return full_allowance(ctx, game, mc) - mc.spent end

-- Hexes the group can reach from where it is now, sorted (the destinations of "to").
local function destinations(ctx, game, mc)
    local budget = remaining(ctx, game, mc)
    if budget <= 0 then return {}, {} end
    local cost = make_cost(ctx, game, mc)
    local reach = game.reachable(mc.at, budget, cost)
    local out = {}
    for h in pairs(reach) do
        if h ~= mc.at then out[#out + 1] = h end
    end
    table.sort(out)
    return out, reach
end

local function any_step(ctx, game, mc)
    local budget = remaining(ctx, game, mc)
    local cost = make_cost(ctx, game, mc)
    for _, n in ipairs(map.neighbours(mc.at)) do
        local c = cost(mc.at, n)
        if c and c <= budget then return true end
    end
    return false
end

-- ---- 8.5 reconnaissance in force ------------------------------------------------------------

local function difficult_hex(game, h)
    local t = map.terrain(h)
    if t == "forest" or t == "marsh" or t == "rough" then return true end
    return t == "mountain" and core.is_winter(game)
end

local function recon_targets(ctx, game, mc)
    local r = ctx.params.recon_in_force
    if not r or mc.ended then return {} end
    local moving = movers(mc)
    if #moving < (r.min_units or 3) or remaining(ctx, game, mc) < (r.cost or 2) then return {} end
    local cav = false
    for _, id in ipairs(moving) do
        if game.prop(id, "recon_done") then return {} end
        if core.unit_type(game, id) == "cavalry" and not core.disrupted(game, id) then cav = true end
    end
    if not cav then return {} end
    local _, stop_at = make_cost(ctx, game, mc)
    if mc.spent > 0 and stop_at(mc.at) then return {} end
    local out = {}
    for _, t in ipairs(map.neighbours(mc.at)) do
        local n = #core.map_units_at(game, t, core.enemy(mc.side))   -- what the mover sees (15.1)
        if n >= 1 and n <= (r.max_target_units or 2) and core.can_enter(mc.at, t)
            and (map.terrain(t) == "clear" or core.is_city(t))
            and group_of2(game, moving) + core.stack_of2(game, t, mc.side) <= limit_of2(ctx, game, t, mc.side)
            and not core.closed(ctx, game, t, moving)
            and (not ctx.hooks.may_enter or ctx.hooks.may_enter(ctx, game, mc.side, t, moving)) then
            out[#out + 1] = t
        end
    end
    return out
end

-- 11.11 for the stack at `target` withdrawing from the moving stack at `from` (8.5: ignoring
-- 11.17). Only hexes that respect 4.1 are offered (rulings M-9).
local function withdrawal_hexes(ctx, game, target, side, from)
    local units = core.units_at(game, target, side)
    local of2 = group_of2(game, units)
    local out = {}
    for _, n in ipairs(map.neighbours(target)) do
        if core.can_enter(target, n)
            and not (map.has_hexside(target, n, "river") and not map.has_hexside(target, n, "bridge"))
            and not difficult_hex(game, n)
            and not core.has_enemy_units(game, n, side)
            and n ~= from and map.distance(n, from) > 1
            and core.stack_of2(game, n, side) + of2 <= limit_of2(ctx, game, n, side)
            and not core.closed(ctx, game, n, core.force_at(game, target, side))
            and (not ctx.hooks.may_enter or ctx.hooks.may_enter(ctx, game, side, n, units)) then
            out[#out + 1] = n
        end
    end
    return out
end

local function immobile_units(ctx, game, ids)
    local out = {}
    for _, id in ipairs(ids) do
        if ctx.hooks.unit_may_move and not ctx.hooks.unit_may_move(ctx, game, id) then out[#out + 1] = id end
    end
    return out
end

-- The trains of a stack that withdraws are removed from play (8.5), dummies with them.
local function remove_trains(game, hex, side)
    for _, id in ipairs(game.pieces_at(hex)) do
        local p = core.piece(game, id)
        if p.owner == side and p.face == "train" and (p.type == side .. "_supply" or p.type == side .. "_supply_dummy") then
            game.remove(id)                 -- back to the pool as supply.lua keeps it
            game.set_hidden(id, false)
            game.log("A " .. side .. " Supply Train counter at " .. hex .. " is removed from play (8.5)")
        end
    end
end

-- ---- moving: events on entering a hex -------------------------------------------------------

-- 8.8: enemy Depots in a hex the stack enters are eliminated; the owner loses a Supply Train
-- for the rest of the game.
function M.capture_depots(game, hex, side)
    local enemy = core.enemy(side)
    for _, id in ipairs(game.pieces_at(hex)) do
        local p = core.piece(game, id)
        if p.type == enemy .. "_supply" and p.face == "depot" then
            local supply = optional("cnw.supply")
            if supply and supply.capture_depot then
                supply.capture_depot(game, id)
            else
                game.remove(id)
                game.set_track(enemy .. "_depots_lost", game.track(enemy .. "_depots_lost") + 1)
            end
            game.log("The " .. enemy .. " Depot at " .. hex .. " is eliminated: the " .. enemy ..
                " Supply Trains per the Set Up Card are reduced by one (8.8)")
        end
    end
end

-- 8.2: an enemy stack moving next to a stack with undisrupted cavalry reveals that cavalry.
local function reveal_cavalry(ctx, game, hex, side)
    local enemy = core.enemy(side)
    for _, n in ipairs(map.neighbours(hex)) do
        local cav = {}
        for _, id in ipairs(core.undisrupted_units_at(game, n, enemy)) do
            if core.unit_type(game, id) == "cavalry" then cav[#cav + 1] = id end
        end
        if #cav > 0 then
            for _, id in ipairs(cav) do
                if core.piece(game, id).hidden then game.reveal(id) end
            end
            if ctx.hooks.reveal_cavalry then ctx.hooks.reveal_cavalry(ctx, game, n, enemy) end
        end
    end
end

-- 15.1: on the first step, the hidden boxes of the starting hex travel with the stack when all
-- their units move with at least one unit on the map; otherwise the boxed movers stay in their
-- box, moving hidden (mc._hidden), until the move ends (place_hidden_movers).
local function start_hidden_move(game, mc)
    mc.markers = {}
    local hidden = mc._hidden or {}
    if #hidden == 0 then return end
    local moving, all = set_of(hidden), #mc.units > 0
    local markers = core.box_markers_at(game, mc.from, mc.side)
    for _, m in ipairs(markers) do
        for _, id in ipairs(core.box_contents(game, m)) do
            if not moving[id] then all = false end
        end
    end
    if all then
        mc.markers = markers
        mc._hidden = {}
        mc._carried = hidden
    else
        -- they wait in their box until the move ends: its upkeep must not bring them out
        for _, id in ipairs(hidden) do game.set_prop(id, "moving_hidden", true) end
    end
end

-- At the end of the move the boxed movers join a hidden box of a friendly stack at the
-- destination (15.1, 8.2's transfer: nothing appears on the map) or appear on the map there.
local function place_hidden_movers(game, mc)
    local hidden = mc._hidden or {}
    -- every hidden mover, for the end of the move (8.3 moved, 8.7 attrition)
    mc._boxed = {}
    for _, id in ipairs(mc._carried or {}) do mc._boxed[#mc._boxed + 1] = id end
    for _, id in ipairs(hidden) do mc._boxed[#mc._boxed + 1] = id end
    if #hidden == 0 then return end
    local boxes = core.box_markers_at(game, mc.at, mc.side)
    for _, id in ipairs(hidden) do
        game.set_prop(id, "moving_hidden", nil)
        if #boxes > 0 then
            game.move(id, "box:" .. core.marker_box(game, boxes[1]))
            game.log(id .. " joins hidden force " .. boxes[1] .. " at " .. mc.at .. " (15.1)", mc.side)
        elseif mc.at ~= mc.from then
            game.move(id, mc.at)
            game.log(id .. " leaves its hidden force and appears at " .. mc.at .. " (15.1)")
        end
    end
    mc._hidden = {}
end

local function enter_hex(ctx, game, mc, hex)
    if #mc.path == 1 then start_hidden_move(game, mc) end
    local group = set_of(movers(mc))
    local was_stop = M.cavalry_adjacent(game, hex, mc.side)
    local anchors = was_stop and anchors_at(game, hex, mc.side, group) or {}
    for _, id in ipairs(mc.units) do game.move(id, hex) end
    for _, id in ipairs(mc.markers or {}) do game.move(id, hex) end
    for _, id in ipairs(mc.cmds) do game.move(id, hex) end
    mc.at = hex
    mc.path[#mc.path + 1] = hex
    for _, id in ipairs(anchors) do
        if not game.prop(id, "movement_anchored") then
            game.set_prop(id, "movement_anchored", true)
            game.log(id .. " at " .. hex .. " screens the move from the enemy cavalry and may not move this Turn (8.4)")
        end
    end
    M.capture_depots(game, hex, mc.side)
    for _, id in ipairs(core.commanders_at(game, hex, core.enemy(mc.side))) do   -- 8.9
        game.log("The stack enters " .. hex .. ", where the enemy commander " .. id .. " is alone (8.9)")
        mc.fates[#mc.fates + 1] = id
    end
    reveal_cavalry(ctx, game, hex, mc.side)
end

-- ---- 11.20 for 8.9 ------------------------------------------------------------------------------
-- 8.9 calls combat.lua's commanders_fate (it comes back to the move through the step's resume);
-- this small version stands in when the rules have not loaded combat.lua.

local function eliminate_commander(ctx, game, id, why)
    game.move(id, "box:eliminated")
    game.log(id .. " is eliminated (" .. why .. ")")
    if ctx.hooks.commander_eliminated then ctx.hooks.commander_eliminated(ctx, game, id) end
end

function M.escape_hexes(ctx, game, id)
    local owner = core.owner(game, id)
    local hex = core.piece(game, id).loc
    local n = ctx.params.commander_escape_hexes or 3
    return game.within(hex, n, function(h)
        return h ~= hex and #core.units_at(game, h, owner) > 0 and not core.closed(ctx, game, h, { id })
    end)
end

-- Rolls for one commander; returns the hexes to choose from when he escapes to more than one.
local function commander_fate(ctx, game, id)
    local total = game.roll(1, 6, "11.20: fate of " .. id .. " (8.9)")
    if total <= (ctx.params.commander_loss_die or 1) then
        eliminate_commander(ctx, game, id, "11.20: rolled " .. total)
        return nil
    end
    local options = M.escape_hexes(ctx, game, id)
    if #options == 0 then
        eliminate_commander(ctx, game, id, "11.20: no friendly stack within reach")
        return nil
    end
    if #options == 1 then
        game.move(id, options[1])
        game.log(id .. " escapes to " .. options[1] .. " (11.20)")
        return nil
    end
    return options
end

-- ---- the move in progress ---------------------------------------------------------------------

local finish_move, decide_next

local function stuck(ctx, game, mc)
    if mc.spent == 0 then return false end
    local _, stop_at = make_cost(ctx, game, mc)
    return stop_at(mc.at)
end

local function stack_prompt(ctx, game, mc)
    local s = "Moving " .. names(mc.units)
    if #mc.cmds > 0 then s = s .. " with " .. names(mc.cmds) end
    s = s .. " from " .. mc.from .. ", now at " .. mc.at .. ": " .. mc.spent .. " of " ..
        full_allowance(ctx, game, mc) .. " hexes spent (over " .. normal_allowance(ctx, game) ..
        " is a forced march). Choose where to go, or end the move (8.4)"
    return s
end

local function continue_move(ctx, game, mc)
    if game.result() then return end
    local combat = optional("cnw.combat")
    if #mc.fates > 0 and combat and combat.commanders_fate then
        local ids = mc.fates
        mc.fates = {}
        local settled = combat.commanders_fate(ctx, game, ids, { resume = "movement.stack", context = mc })
        if game.result() or not settled then return end
    end
    while #mc.fates > 0 do
        local id = table.remove(mc.fates, 1)
        local options = commander_fate(ctx, game, id)
        if game.result() then return end
        if options then
            game.decide { role = core.owner(game, id), step = "movement.escape", rule = "11.20",
                          prompt = id .. " escapes (8.9, 11.20): place him on a friendly stack within three hexes",
                          context = { mc = mc, commander = id, options = options } }
            return
        end
    end
    if mc.ended or remaining(ctx, game, mc) <= 0 or stuck(ctx, game, mc) then
        return finish_move(ctx, game, mc)
    end
    game.decide { role = mc.side, step = "movement.stack", rule = "8.4", prompt = stack_prompt(ctx, game, mc),
                  context = mc }
end

local function new_move(ctx, game, side, hex)
    local units, cmds, hidden = {}, {}, {}
    for _, id in ipairs(core.units_at(game, hex, side)) do
        if unit_may_move(ctx, game, id) then
            if core.is_boxed(game, id) then hidden[#hidden + 1] = id else units[#units + 1] = id end
        end
    end
    for _, id in ipairs(core.commanders_at(game, hex, side)) do
        if not game.prop(id, "moved") and commander_may_leave(ctx, game, id, "movement") then cmds[#cmds + 1] = id end
    end
    local trains = M.trains_at(game, hex, side)
    return { side = side, from = hex, at = hex, units = units, cmds = cmds, dropped = {}, spent = 0, att = 0,
             path = { hex }, fates = {}, ended = false, _train = trains[#trains], _hidden = hidden,
             markers = {} }
end

-- The Commanders at hex who have not moved this phase (8.4 bp2).
local function fresh_commanders(game, hex, side)
    local out = {}
    for _, id in ipairs(core.commanders_at(game, hex, side)) do
        if not game.prop(id, "moved") then out[#out + 1] = id end
    end
    return out
end

-- A move without a Supply Train this Turn (1814 16.1: RECs 5, 6, 27, 32) through the game's hook
-- free_move(ctx, game, side, hex) -> nil or { key =, label =, no_commander = bool,
-- normal_only = bool (no forced march) }; free_move_used(ctx, game, side, token) once made.
local function free_move(ctx, game, side, hex)
    return ctx.hooks.free_move and ctx.hooks.free_move(ctx, game, side, hex) or nil
end

-- May `side` start a move from `hex` (8.2-8.4)? Returns the move context or nil.
local function movable_stack(ctx, game, side, hex)
    local free
    if #M.trains_at(game, hex, side) == 0 then                                       -- bp1
        free = free_move(ctx, game, side, hex)
        if not free then return nil end
    end
    local fresh = fresh_commanders(game, hex, side)                                 -- bp2
    if #fresh == 0 and not (free and free.no_commander) then return nil end
    local all = core.units_at(game, hex, side)
    if #all == 0 then return nil end                                                 -- 8.3
    for _, id in ipairs(all) do
        if core.disrupted(game, id) then return nil end                              -- bp4
    end
    if M.under_siege(ctx, game, hex, side) then return nil end                       -- siege
    local mc = new_move(ctx, game, side, hex)
    if free then mc._train, mc._free = nil, free end
    if #movers(mc) == 0 then return nil end
    -- 16.2 (advanced): the Supply Train serves only a Commander able to command a moving unit
    -- (a card's move without a Supply Train has no train to serve)
    if not free and not command.train_allowed(ctx, game, fresh, movers(mc)) then return nil end
    if not any_step(ctx, game, mc) and #recon_targets(ctx, game, mc) == 0 then return nil end
    return mc
end

-- The hexes of side's units, sorted: once per set of pieces (game.pieces_memo). READ ONLY.
local function hexes_of(game, side)
    local pm = game.pieces_memo()
    local key = "movement.hexes_of." .. side
    if pm[key] then return pm[key] end
    local seen, out = {}, {}
    for _, id in ipairs(game.pieces { owner = side, category = "unit" }) do
        local loc = core.hex_of(game, id)
        if loc and not seen[loc] and on_map(game, id) then
            seen[loc] = true
            out[#out + 1] = loc
        end
    end
    table.sort(out)
    pm[key] = out
    return out
end

-- 8.6-8.7: the attrition roll at the destination.
local function attrition_row(game, hexes)
    local season = core.season(game)
    local best
    for _, r in ipairs(defs.table("march_attrition").rows) do
        if r[1] == season and r[2] <= hexes and (not best or r[2] > best[2]) then best = r end
    end
    return best
end

local function attrition_result(score)
    for _, r in ipairs(defs.table("march_attrition_results").rows) do
        if score >= r[1] and score <= r[2] then return r[3], r[4] end
    end
    local rows = defs.table("march_attrition_results").rows
    if score > rows[#rows][2] then return rows[#rows][3], rows[#rows][4] end
    return 0, 0
end

local function attrition_victims(game, mc)
    local out = {}
    local ids = {}
    for _, id in ipairs(mc.units) do ids[#ids + 1] = id end
    for _, id in ipairs(mc._boxed or {}) do ids[#ids + 1] = id end
    for _, id in ipairs(ids) do
        local t = core.unit_type(game, id)
        if (t == "infantry" or t == "cavalry") and on_map(game, id) then out[#out + 1] = id end
    end
    return out
end

local function decide_attrition(ctx, game, ac)
    if game.result() then return end
    local victims = attrition_victims(game, ac.mc)
    if ac.elim > 0 and #victims > 0 then
        if #victims == 1 then
            core.eliminate(game, victims[1], "march attrition, 8.7")
            ac.elim = ac.elim - 1
            return decide_attrition(ctx, game, ac)
        end
        game.decide { role = ac.mc.side, step = "movement.attrition", rule = "8.7",
                      prompt = "March attrition (8.7): choose the unit to eliminate", context = ac }
        return
    end
    if ac.disr > 0 and #victims > 0 then
        local ready = {}
        for _, id in ipairs(victims) do if not core.disrupted(game, id) then ready[#ready + 1] = id end end
        if #ready == 0 then ready = victims end
        if #ready == 1 then
            core.disrupt(game, ready[1], "march attrition, 8.7")
            ac.disr = ac.disr - 1
            return decide_attrition(ctx, game, ac)
        end
        game.decide { role = ac.mc.side, step = "movement.attrition", rule = "8.7",
                      prompt = "March attrition (8.7): choose the unit to disrupt", context = ac }
        return
    end
    decide_next(ctx, game, true)
end

local function march_attrition(ctx, game, mc)
    local row = attrition_row(game, mc.att)
    if not row or row[4] ~= "yes" then return decide_next(ctx, game, true) end
    local drm = type(row[5]) == "number" and row[5] or 0
    local ids = {}
    for _, id in ipairs(mc.units) do if on_map(game, id) then ids[#ids + 1] = id end end
    for _, id in ipairs(mc._boxed or {}) do if on_map(game, id) then ids[#ids + 1] = id end end
    for _, id in ipairs(mc.cmds) do ids[#ids + 1] = id end
    local extra = ctx.hooks.march_attrition_drm and ctx.hooks.march_attrition_drm(ctx, game, ids) or 0
    if command.active(ctx, game) then
        -- 16.2: the Commanders who accompanied the stack throughout (mc.cmds)
        local units = {}
        for _, id in ipairs(mc.units) do if on_map(game, id) then units[#units + 1] = id end end
        for _, id in ipairs(mc._boxed or {}) do if on_map(game, id) then units[#units + 1] = id end end
        local drm, why = command.march_drm(ctx, game, units, mc.cmds)
        if why then game.log("16.2 march attrition drm " .. string.format("%+d", drm) .. ": " .. why) end
        extra = extra + drm
    end
    local total = game.roll(1, 6, "8.6 march attrition at " .. mc.at)
    local score = total + drm + extra
    local elim, disr = attrition_result(score)
    game.log(string.format("March attrition (8.6): %d hexes in %s, die %d %+d%s = %d: %s", mc.att,
        core.season(game), total, drm, extra ~= 0 and string.format(" %+d", extra) or "", score,
        (elim + disr == 0) and "no effect" or (elim .. " eliminated, " .. disr .. " disrupted")))
    local victims = attrition_victims(game, mc)
    if elim + disr == 0 or #victims == 0 then return decide_next(ctx, game, true) end
    if #victims == 1 then
        -- 8.7: a single infantry/cavalry unit is disrupted, not eliminated (digest A-47)
        if not core.disrupted(game, victims[1]) then core.disrupt(game, victims[1], "march attrition, 8.7") end
        return decide_next(ctx, game, true)
    end
    decide_attrition(ctx, game, { mc = mc, elim = elim, disr = disr })
end

finish_move = function(ctx, game, mc)
    local forced = mc.spent > normal_allowance(ctx, game)
    place_hidden_movers(game, mc)
    for _, id in ipairs(mc._boxed or {}) do
        game.set_prop(id, "moved", true)
        if forced then game.set_prop(id, "forced_march", true) end
    end
    for _, id in ipairs(mc.units) do
        game.set_prop(id, "moved", true)
        if forced then game.set_prop(id, "forced_march", true) end
    end
    for _, id in ipairs(mc.cmds) do game.set_prop(id, "moved", true) end
    for _, id in ipairs(mc.dropped) do
        if core.piece(game, id).loc ~= mc.from then game.set_prop(id, "moved", true) end
    end
    if mc._train and core.piece(game, mc._train).loc then use_train(game, mc._train) end
    if mc._free and ctx.hooks.free_move_used then ctx.hooks.free_move_used(ctx, game, mc.side, mc._free) end
    local text = mc.side .. " stack from " .. mc.from .. " ends its move at " .. mc.at .. " (" .. mc.spent ..
        " hexes" .. (forced and ", forced march" or "") .. ")" ..
        (mc._free and ", without a Supply Train (" .. mc._free.label .. ")" or "; its Supply Train is removed (8.2)")
    if #mc.units + #mc.cmds > 0 then
        game.log(text)
    else    -- 15.1: a move of hidden units only: the opponent sees the Supply Train go
        game.log(text, mc.side)
        if not mc._free then
            game.log("The " .. mc.side .. " Supply Train at " .. mc.from .. " is removed (8.2)", core.enemy(mc.side))
        end
    end
    march_attrition(ctx, game, mc)
end

-- ---- the alternation of 8.2 ------------------------------------------------------------------

local function end_phase(ctx, game)
    local supply = optional("cnw.supply")
    if supply and supply.clear_trains then
        supply.clear_trains(game)
    else
        for _, side in ipairs(core.SIDES) do
            for _, id in ipairs(game.pieces { type = side .. "_supply_dummy", face = "train" }) do
                if on_map(game, id) then game.remove(id) end
            end
        end
    end
    game.log("Rally and Movement phase over; the dummy Supply Trains are removed (rulings M-4)")
    -- end_of_movement(ctx, game) -> true when it made a decision (it moves on itself: 15.2)
    if ctx.hooks.end_of_movement and ctx.hooks.end_of_movement(ctx, game) then return end
    ctx.next_phase(game)
end

-- Can `side` still make a move without a Supply Train (hook free_move)?
local function free_moves_left(ctx, game, side)
    if not ctx.hooks.free_move then return false end
    -- free_move_possible(ctx, game, side): false when free_move would refuse every stack
    if ctx.hooks.free_move_possible and not ctx.hooks.free_move_possible(ctx, game, side) then return false end
    for _, hex in ipairs(hexes_of(game, side)) do
        if #M.trains_at(game, hex, side) == 0 and movable_stack(ctx, game, side, hex) then return true end
    end
    return false
end

local function update_done(ctx, game)
    for _, side in ipairs(core.SIDES) do
        if not core.alt_is_done(game, ALT, side) and #M.all_trains(game, side) == 0
            and not free_moves_left(ctx, game, side) then
            core.alt_finish(game, ALT, side)
        end
    end
end

decide_next = function(ctx, game, advance)
    if game.result() then return end
    update_done(ctx, game)
    local a = game.var("alt_" .. ALT)
    local side = a.turn
    if advance or a["done_" .. side] then side = core.alt_next(game, ALT) end
    if not side then return end_phase(ctx, game) end
    game.decide { role = side, step = "movement.choose", rule = "8.2",
                  prompt = "Move one stack that has a Supply Train and a Commander, or pass by discarding a genuine Supply Train (8.2)" }
end

local function start_moves(ctx, game)
    core.alt_start(game, ALT, game.var("movement_first"))
    decide_next(ctx, game, false)
end

-- ---- 8.1 rally -------------------------------------------------------------------------------

local function rally_candidates(ctx, game, hex, side)
    local out = {}
    for _, id in ipairs(core.units_at(game, hex, side)) do
        if core.disrupted(game, id) and in_general_supply(ctx, game, id) then out[#out + 1] = id end
    end
    return out
end

local function rally_commanders(game, hex, side)
    local out = {}
    for _, id in ipairs(core.commanders_at(game, hex, side)) do
        if not game.prop(id, "movement_rallied") then out[#out + 1] = id end
    end
    return out
end

local function cr_sum(game, cmds)
    local t = 0
    for _, c in ipairs(cmds) do t = t + core.cr(game, c) end
    return t
end

-- A rally without a Supply Train this Turn (1814 16.1: RECs 14, 18) through the game's hook
-- free_rally(ctx, game, side, hex) -> nil or { key =, label =, no_commander = bool, units = n
-- (how many rally without a commander) }; free_rally_used(ctx, game, side, token) once made.
local function free_rally(ctx, game, side, hex)
    if #M.trains_at(game, hex, side) > 0 or not ctx.hooks.free_rally then return nil end
    return ctx.hooks.free_rally(ctx, game, side, hex)
end

local function rally_hexes(ctx, game, side)
    local out = {}
    for _, hex in ipairs(hexes_of(game, side)) do
        local free = free_rally(ctx, game, side, hex)
        local cmds = rally_commanders(game, hex, side)
        if (#M.trains_at(game, hex, side) > 0 or free)
            and (#cmds > 0 or (free and free.no_commander))
            and #rally_candidates(ctx, game, hex, side) > 0
            and (free or command.train_allowed(ctx, game, cmds, core.units_at(game, hex, side))) then   -- 16.2
            out[#out + 1] = hex
        end
    end
    return out
end

local function decide_rally(ctx, game, rc)
    while rc.index <= #rc.order do
        local side = rc.order[rc.index]
        if #rally_hexes(ctx, game, side) > 0 then
            game.decide { role = side, step = "movement.rally", rule = "8.1",
                          prompt = "Rally disrupted units: choose a stack with a Supply Train and a Commander, or end rallying (8.1)",
                          context = rc }
            return
        end
        rc.index = rc.index + 1
    end
    start_moves(ctx, game)
end

function M.begin(ctx, game)
    -- a game's rule acting once the trains are placed (1814 16.1: a reveal that waited for them);
    -- true when it made a decision, whose step begins this phase again
    if ctx.hooks.start_of_movement and ctx.hooks.start_of_movement(ctx, game) then return end
    for _, id in ipairs(game.pieces { category = "unit" }) do
        if game.prop(id, "movement_anchored") then game.set_prop(id, "movement_anchored", nil) end
    end
    for _, id in ipairs(game.pieces { category = "commander" }) do
        if game.prop(id, "movement_rallied") then game.set_prop(id, "movement_rallied", nil) end
    end
    local first = M.first_by_trains(ctx, game)
    local by_card = ctx.hooks.movement_first and ctx.hooks.movement_first(ctx, game)
    game.set_var("movement_first", by_card or first)
    if by_card then
        first = by_card
        game.log("Rally and Movement: " .. first .. " instigates the movement sequence (Random Event Card, 16.1)")
    else
        game.log("Rally and Movement: " .. first .. " has the most Supply Trains on the Set Up Card and goes first (8.2)")
    end
    decide_rally(ctx, game, { order = { first, core.enemy(first) }, index = 1 })
end

-- ---- steps -----------------------------------------------------------------------------------

M.steps = {}

M.steps["movement.rally"] = {
    actions = function(ctx, game, role, d)
        local out = {}
        for _, hex in ipairs(rally_hexes(ctx, game, role)) do
            local cand = rally_candidates(ctx, game, hex, role)
            out[#out + 1] = { kind = "rally", args = { hex }, hexes = { hex }, pieces = cand,
                              label = "Rally at " .. hex .. " (" .. #cand .. " disrupted, CR " ..
                                  cr_sum(game, rally_commanders(game, hex, role)) .. ")" }
        end
        out[#out + 1] = { kind = "done", args = {}, label = "End rallying (8.1)" }
        return out
    end,
    apply = function(ctx, game, role, action, d)
        local rc = d.context
        if action.kind == "done" then
            rc.index = rc.index + 1
            return decide_rally(ctx, game, rc)
        end
        local hex = action.args[1]
        local free = free_rally(ctx, game, role, hex)
        local cmds = rally_commanders(game, hex, role)
        local cr = cr_sum(game, cmds)
        if free and free.no_commander and #cmds == 0 then cr = free.units or 1 end
        for _, c in ipairs(cmds) do game.set_prop(c, "movement_rallied", true) end
        local cand = rally_candidates(ctx, game, hex, role)
        if free then
            ctx.hooks.free_rally_used(ctx, game, role, free)
            game.log(role .. " rallies at " .. hex .. (#cmds > 0 and " with " .. names(cmds) or "") .. " (" .. cr ..
                " unit(s)) without a Supply Train (" .. free.label .. ")")
        else
            local trains = M.trains_at(game, hex, role)
            use_train(game, trains[#trains])
            game.log(role .. " rallies at " .. hex .. " with " .. names(cmds) .. " (CR " .. cr .. "); the Supply Train is removed (8.1)")
        end
        if #cand <= cr then
            for _, id in ipairs(cand) do
                game.set_face(id, "ready")
                game.log(id .. " is rallied (8.1)")
            end
            return decide_rally(ctx, game, rc)
        end
        game.decide { role = role, step = "movement.rally_pick", rule = "8.1",
                      prompt = "Rally (8.1): choose " .. cr .. " unit(s) to rally at " .. hex,
                      context = { rc = rc, hex = hex, left = cr } }
    end,
}

M.steps["movement.rally_pick"] = {
    actions = function(ctx, game, role, d)
        local out = {}
        for _, id in ipairs(rally_candidates(ctx, game, d.context.hex, role)) do
            out[#out + 1] = { kind = "rally_unit", args = { id }, pieces = { id }, hexes = { d.context.hex },
                              label = "Rally " .. id }
        end
        return out
    end,
    apply = function(ctx, game, role, action, d)
        local c = d.context
        game.set_face(action.args[1], "ready")
        game.log(action.args[1] .. " is rallied (8.1)")
        c.left = c.left - 1
        if c.left > 0 and #rally_candidates(ctx, game, c.hex, role) > 0 then
            game.decide { role = role, step = "movement.rally_pick", rule = "8.1",
                          prompt = "Rally (8.1): choose " .. c.left .. " more unit(s) to rally at " .. c.hex, context = c }
            return
        end
        decide_rally(ctx, game, c.rc)
    end,
}

M.steps["movement.choose"] = {
    actions = function(ctx, game, role, d)
        local out = {}
        for _, hex in ipairs(hexes_of(game, role)) do
            local mc = movable_stack(ctx, game, role, hex)
            if mc then
                local pieces = {}
                for _, id in ipairs(mc.units) do pieces[#pieces + 1] = id end
                for _, id in ipairs(mc.cmds) do pieces[#pieces + 1] = id end
                out[#out + 1] = { kind = "move", args = { hex }, hexes = { hex }, pieces = pieces,
                                  label = "Move the stack at " .. hex .. (mc._free and " without a Supply Train ("
                                      .. mc._free.label .. ")" or "") .. " (8.4)" }
            end
        end
        -- moves without a Supply Train may be given up once the trains are spent (1814 16.1)
        if #M.all_trains(game, role) == 0 and free_moves_left(ctx, game, role) then
            out[#out + 1] = { kind = "forgo", args = {}, label = "Give up the moves without a Supply Train" }
        end
        for _, id in ipairs(M.all_trains(game, role)) do
            local hex = core.piece(game, id).loc
            out[#out + 1] = { kind = "pass", args = { id }, hexes = { hex }, pieces = { id },
                              public = "pass " .. hex,     -- the opponent does not learn the counter
                              label = "Pass, discarding the Supply Train at " .. hex .. " (8.2)" }
        end
        -- other uses of a Supply Train in the alternation (15.2 overstacking): the hook's actions
        if ctx.hooks.train_actions then
            for _, a in ipairs(ctx.hooks.train_actions(ctx, game, role)) do out[#out + 1] = a end
        end
        return out
    end,
    apply = function(ctx, game, role, action, d)
        if action.kind == "pass" then
            local hex = core.piece(game, action.args[1]).loc
            use_train(game, action.args[1])
            game.log(role .. " passes and discards a Supply Train at " .. hex .. " (8.2)")
            return decide_next(ctx, game, true)
        end
        if action.kind == "forgo" then
            ctx.hooks.free_move_forgo(ctx, game, role)
            return decide_next(ctx, game, true)
        end
        if action.kind ~= "move" then       -- a hook's action (train_actions): the player's turn
            ctx.hooks.train_apply(ctx, game, role, action)
            return decide_next(ctx, game, true)
        end
        local mc = movable_stack(ctx, game, role, action.args[1])
        if not mc then game.refuse("the stack at " .. tostring(action.args[1]) .. " cannot move (8.4)") end
        if command.active(ctx, game) then
            -- 16.2 special characteristic (Constantine, Victor): the senior Commander's move roll
            local hex = mc.from
            local n, who = command.move_fail(ctx, game, core.commanders_at(game, hex, role), core.units_at(game, hex, role))
            if n > 0 then
                local die = game.roll(1, 6, "16.2 move roll of the stack with " .. who .. " at " .. hex)
                if die <= n then
                    if mc._train and core.piece(game, mc._train).loc then use_train(game, mc._train) end
                    if mc._free and ctx.hooks.free_move_used then ctx.hooks.free_move_used(ctx, game, role, mc._free) end
                    game.log(string.format("16.2: %s's stack at %s rolls %d: the move does not happen and the units remain in situ; the Supply Train is removed (8.2)",
                        who, hex, die))
                    return decide_next(ctx, game, true)
                end
                game.log(string.format("16.2: %s's stack at %s rolls %d: it may move", who, hex, die))
            end
        end
        -- a game's rule may make a stack roll before it moves (1814 16.1 REC 29): on a failure the
        -- stack does not move and its Supply Train is spent
        if ctx.hooks.move_attempt and not ctx.hooks.move_attempt(ctx, game, role, mc.from, movers(mc)) then
            for _, id in ipairs(movers(mc)) do game.set_prop(id, "moved", true) end
            if mc._train and core.piece(game, mc._train).loc then use_train(game, mc._train) end
            if mc._free and ctx.hooks.free_move_used then ctx.hooks.free_move_used(ctx, game, role, mc._free) end
            return decide_next(ctx, game, true)
        end
        continue_move(ctx, game, mc)
    end,
}

M.steps["movement.stack"] = {
    -- combat.commanders_fate comes back here once the overrun commanders are placed (8.9)
    resume = function(ctx, game, mc) continue_move(ctx, game, mc) end,
    actions = function(ctx, game, role, d)
        local mc = d.context
        local out = {}
        local dests, reach = destinations(ctx, game, mc)
        local normal = normal_allowance(ctx, game)
        for _, h in ipairs(dests) do
            local total = mc.spent + reach[h]
            out[#out + 1] = { kind = "to", args = { h }, hexes = { h },
                              label = "Go to " .. h .. " (" .. total .. " hexes" .. (total > normal and ", forced march" or "") .. ")" }
        end
        for _, t in ipairs(recon_targets(ctx, game, mc)) do
            out[#out + 1] = { kind = "recon", args = { t }, hexes = { t }, pieces = core.units_at(game, t, core.enemy(mc.side)),
                              label = "Reconnaissance in force against " .. t .. " (8.5)" }
        end
        if mc.spent == 0 and #movers(mc) > 1 then
            local fresh = fresh_commanders(game, mc.at, mc.side)
            -- 16.2: the units that go on (the hidden ones included) must keep a Commander able to
            -- command one of them
            local function may_leave(id)
                return mc._free or command.train_allowed(ctx, game, fresh, without(movers(mc), id))
            end
            for _, id in ipairs(mc.units) do
                if may_leave(id) then
                out[#out + 1] = { kind = "leave", args = { id }, pieces = { id }, hexes = { mc.at },
                                  label = "Leave " .. id .. " behind at " .. mc.at .. " (8.4)" }
                end
            end
            for _, id in ipairs(mc._hidden or {}) do   -- 15.1: the opponent does not learn which
                if may_leave(id) then
                out[#out + 1] = { kind = "leave", args = { id }, pieces = { id }, hexes = { mc.at },
                                  public = "leave hidden-unit",
                                  label = "Leave " .. id .. " behind in its hidden force at " .. mc.at .. " (8.4, 15.1)" }
                end
            end
        end
        for _, id in ipairs(mc.cmds) do
            out[#out + 1] = { kind = "drop", args = { id }, pieces = { id }, hexes = { mc.at },
                              label = (mc.spent == 0 and "Keep " .. id .. " in place at " or "Leave " .. id .. " at ") .. mc.at .. " (8.4)" }
        end
        if mc.spent == 0 then
            out[#out + 1] = { kind = "cancel", args = {}, label = "Choose another stack" }
        else
            out[#out + 1] = { kind = "end", args = {}, hexes = { mc.at }, label = "End the move at " .. mc.at }
        end
        return out
    end,
    apply = function(ctx, game, role, action, d)
        local mc = d.context
        local k = action.kind
        if k == "cancel" then return decide_next(ctx, game, false) end
        if k == "end" then
            mc.ended = true
            return continue_move(ctx, game, mc)
        end
        if k == "leave" then
            mc.units = without(mc.units, action.args[1])
            mc._hidden = without(mc._hidden or {}, action.args[1])
            return continue_move(ctx, game, mc)
        end
        if k == "drop" then
            mc.cmds = without(mc.cmds, action.args[1])
            mc.dropped[#mc.dropped + 1] = action.args[1]
            return continue_move(ctx, game, mc)
        end
        if k == "recon" then
            local t = action.args[1]
            for _, id in ipairs(movers(mc)) do game.set_prop(id, "recon_done", true) end
            game.log(role .. " stack at " .. mc.at .. " makes a reconnaissance in force against " .. t .. " (8.5)")
            -- 15.1 (digest 8.5): a hidden stack is placed on the map; if it turns out to have
            -- more units than 8.5 allows, both stay in situ and the move ends.
            local enemy = core.enemy(role)
            if #core.box_markers_at(game, t, enemy) > 0 and ctx.hooks.reveal_stack then
                ctx.hooks.reveal_stack(ctx, game, t, enemy)
                if #core.units_at(game, t, enemy) > (ctx.params.recon_in_force.max_target_units or 2) then
                    game.log("The stack at " .. t .. " has " .. #core.units_at(game, t, enemy) ..
                        " units: the reconnaissance in force stops, the move ends (8.5, 15.1)")
                    mc.ended = true
                    return continue_move(ctx, game, mc)
                end
            end
            mc.recon = t
            game.decide { role = core.enemy(role), step = "movement.recon_answer", rule = "8.5",
                          prompt = "Reconnaissance in force against your stack at " .. t .. " from " .. mc.at ..
                              ": withdraw, or hold your ground (8.5)", context = { mc = mc } }
            return
        end
        -- "to": along the cheapest path, hex by hex
        local dest = action.args[1]
        local cost = make_cost(ctx, game, mc)
        local path = game.path(mc.at, dest, cost, remaining(ctx, game, mc))
        if not path then game.refuse(dest .. " cannot be reached (8.4)") end
        local steps = {}
        for i = 2, #path do steps[#steps + 1] = cost(path[i - 1], path[i]) end
        local start = mc.at
        local walked = { start }
        for i = 2, #path do
            mc.spent = mc.spent + steps[i - 1]
            mc.att = mc.att + steps[i - 1]
            enter_hex(ctx, game, mc, path[i])
            walked[#walked + 1] = path[i]
            -- 8.2 / 15.1: hidden cavalry revealed next to this hex stops the move here (bp6)
            if i < #path and M.cavalry_adjacent(game, path[i], role)
                and #anchors_at(game, path[i], role, set_of(movers(mc))) == 0 then
                game.log("Enemy cavalry revealed next to " .. path[i] .. " stops the move there (8.2, 8.4)")
                break
            end
        end
        local text = role .. " moves " .. names(mc.units) .. (#mc.cmds > 0 and (" with " .. names(mc.cmds)) or "") ..
            " from " .. start .. " to " .. mc.at .. " via " .. table.concat(walked, "-") .. " (" .. mc.spent .. " hexes so far)"
        if #mc.units + #mc.cmds > 0 then game.log(text) else game.log(text, role) end   -- 15.1: unseen
        continue_move(ctx, game, mc)
    end,
}

M.steps["movement.escape"] = {
    actions = function(ctx, game, role, d)
        local out = {}
        for _, h in ipairs(d.context.options) do
            out[#out + 1] = { kind = "escape", args = { d.context.commander, h }, hexes = { h }, pieces = { d.context.commander },
                              label = "Place " .. d.context.commander .. " at " .. h .. " (11.20)" }
        end
        return out
    end,
    apply = function(ctx, game, role, action, d)
        game.move(action.args[1], action.args[2])
        game.log(action.args[1] .. " escapes to " .. action.args[2] .. " (11.20)")
        continue_move(ctx, game, d.context.mc)
    end,
}

-- 8.5: the mover enters the hex the enemy left; `cost` of the allowance, 2 for attrition.
local function recon_enter(ctx, game, mc, cost)
    local t = mc.recon
    mc.recon = nil
    mc.spent = mc.spent + cost
    mc.att = mc.att + (ctx.params.recon_in_force.cost or 2)
    enter_hex(ctx, game, mc, t)
    game.log("The reconnoitring stack enters " .. t .. " (8.5)")
    continue_move(ctx, game, mc)
end

local function recon_withdraw(ctx, game, mc, hex)
    local t, enemy = mc.recon, core.enemy(mc.side)
    local stay = immobile_units(ctx, game, core.units_at(game, t, enemy))
    for _, id in ipairs(stay) do core.eliminate(game, id, "it cannot withdraw") end
    local moving = core.force_at(game, t, enemy)
    if hex then
        for _, id in ipairs(moving) do game.move(id, hex) end
        game.log("The " .. enemy .. " stack at " .. t .. " withdraws to " .. hex .. " (8.5, 11.11)")
    else
        for _, id in ipairs(core.units_at(game, t, enemy)) do core.eliminate(game, id, "no withdrawal possible, 8.5") end
    end
    remove_trains(game, t, enemy)
end

local function decide_recon_withdraw(ctx, game, mc, cost)
    local enemy = core.enemy(mc.side)
    if #core.units_at(game, mc.recon, enemy) == 0 then
        remove_trains(game, mc.recon, enemy)
        return recon_enter(ctx, game, mc, cost)
    end
    local hexes = withdrawal_hexes(ctx, game, mc.recon, enemy, mc.at)
    if #hexes == 0 then
        recon_withdraw(ctx, game, mc, nil)
        return recon_enter(ctx, game, mc, cost)
    end
    game.decide { role = enemy, step = "movement.recon_withdraw", rule = "8.5",
                  prompt = "Your stack at " .. mc.recon .. " lost the reconnaissance in force and must withdraw (8.5, 11.11)",
                  context = { mc = mc, options = hexes } }
end

M.steps["movement.recon_answer"] = {
    actions = function(ctx, game, role, d)
        local mc = d.context.mc
        local out = {}
        if #immobile_units(ctx, game, core.units_at(game, mc.recon, role)) == 0 then
            for _, h in ipairs(withdrawal_hexes(ctx, game, mc.recon, role, mc.at)) do
                out[#out + 1] = { kind = "withdraw", args = { h }, hexes = { h },
                                  label = "Withdraw to " .. h .. " (8.5, 11.11)" }
            end
        end
        out[#out + 1] = { kind = "hold", args = {}, hexes = { mc.recon }, label = "Hold your ground (8.5)" }
        return out
    end,
    apply = function(ctx, game, role, action, d)
        local mc = d.context.mc
        if action.kind == "withdraw" then
            recon_withdraw(ctx, game, mc, action.args[1])
            return recon_enter(ctx, game, mc, 1)
        end
        local mover_n, holder_n = #movers(mc), #core.units_at(game, mc.recon, role)
        local a = game.roll(1, 6, "8.5 reconnaissance in force: the moving stack")
        local b = game.roll(1, 6, "8.5 reconnaissance in force: the stack holding its ground")
        game.log(string.format("Reconnaissance in force (8.5): moving stack %d + %d units = %d; holding stack %d + %d units = %d",
            a, mover_n, a + mover_n, b, holder_n, b + holder_n))
        if a + mover_n > b + holder_n then
            game.decide { role = role, step = "movement.recon_hit", rule = "8.5",
                          prompt = "The reconnaissance in force succeeds: choose the unit at " .. mc.recon .. " that takes the hit (8.5)",
                          context = { mc = mc, hex = mc.recon, winner = "mover" } }
        else
            game.decide { role = mc.side, step = "movement.recon_hit", rule = "8.5",
                          prompt = "The reconnaissance in force fails: choose the moving unit that takes the hit; the move ends (8.5)",
                          context = { mc = mc, hex = mc.at, winner = "holder" } }
        end
    end,
}

M.steps["movement.recon_hit"] = {
    actions = function(ctx, game, role, d)
        local c = d.context
        local ids = c.winner == "mover" and core.units_at(game, c.hex, role) or movers(c.mc)
        local out = {}
        for _, id in ipairs(ids) do
            out[#out + 1] = { kind = "hit", args = { id }, pieces = { id }, hexes = { c.hex },
                              public = core.is_boxed(game, id) and "hit hidden-unit" or nil,
                              label = "Hit on " .. id .. (core.disrupted(game, id) and " (eliminated)" or " (disrupted)") }
        end
        return out
    end,
    apply = function(ctx, game, role, action, d)
        local c = d.context
        local mc = c.mc
        core.disrupt(game, action.args[1], "hit, reconnaissance in force 8.5")
        if c.winner == "mover" then
            return decide_recon_withdraw(ctx, game, mc, ctx.params.recon_in_force.cost or 2)
        end
        -- failed: both stay, the move ends; the attempt counts one more hex (digest A-48)
        mc.recon = nil
        mc.spent = mc.spent + 1
        mc.att = mc.att + 1
        mc.ended = true
        continue_move(ctx, game, mc)
    end,
}

M.steps["movement.recon_withdraw"] = {
    actions = function(ctx, game, role, d)
        local out = {}
        for _, h in ipairs(d.context.options) do
            out[#out + 1] = { kind = "withdraw", args = { h }, hexes = { h }, label = "Withdraw to " .. h .. " (8.5, 11.11)" }
        end
        return out
    end,
    apply = function(ctx, game, role, action, d)
        local mc = d.context.mc
        recon_withdraw(ctx, game, mc, action.args[1])
        recon_enter(ctx, game, mc, ctx.params.recon_in_force.cost or 2)
    end,
}

M.steps["movement.attrition"] = {
    actions = function(ctx, game, role, d)
        local ac = d.context
        local victims = attrition_victims(game, ac.mc)
        local out = {}
        if ac.elim > 0 then
            for _, id in ipairs(victims) do
                out[#out + 1] = { kind = "eliminate", args = { id }, pieces = { id }, label = "Eliminate " .. id .. " (8.7)",
                                  public = core.is_boxed(game, id) and "eliminate hidden-unit" or nil }
            end
        else
            local ready = {}
            for _, id in ipairs(victims) do if not core.disrupted(game, id) then ready[#ready + 1] = id end end
            if #ready == 0 then ready = victims end
            for _, id in ipairs(ready) do
                out[#out + 1] = { kind = "disrupt", args = { id }, pieces = { id }, label = "Disrupt " .. id .. " (8.7)",
                                  public = core.is_boxed(game, id) and "disrupt hidden-unit" or nil }
            end
        end
        return out
    end,
    apply = function(ctx, game, role, action, d)
        local ac = d.context
        if action.kind == "eliminate" then
            core.eliminate(game, action.args[1], "march attrition, 8.7")
            ac.elim = ac.elim - 1
        else
            core.disrupt(game, action.args[1], "march attrition, 8.7")
            ac.disr = ac.disr - 1
        end
        decide_attrition(ctx, game, ac)
    end,
}

return M
