-- The command structure of the advanced rules (1814 r.16.2, 1813 r.16.2): which Commanders can
-- command which combat units, their seniority, and what that changes in the basic rules —
-- Supply Trains (7.3, 8.1, 8.2), march attrition (8.6), the Commander Rating in combat (11.5,
-- 11.7) and the commanders' special characteristics (CF bonuses before 11.3, the move roll).
-- Pure functions of the game state; the phases (supply, movement, combat) call them when
-- M.active(ctx, game).
--
-- Everything about a Commander is read from his counter (stats built by the game's order of
-- battle; 1814: modules/napoleon_1814/counters.xml):
--   seniority       "S" (his whole side), "A" (his army), "I" / "C" (the infantry / cavalry of his
--                   army), "W" (the units whose `wing` is his), "K" (every Cossack), anything else
--                   = a Corps Commander (the units of his army whose `corps` is his). No seniority:
--                   an undesignated Commander, to whom 16.2 does not apply (1813 digest A-25).
--   seniority_rank  1 = most senior (1814: S 1, A 2, I 3, C 4, W 5, K 6, corps 7)
--   army, corps, wing, cavalry_corps (1 = a Cavalry Corps Commander, whose authority is restricted)
--   command_march_drm           8.6 drm when the accompanying Commanders can command every unit
--                               (-1; 1814: Napoleon -2, Murat 0 = none)
--   special_march_drm           a special characteristic: drm for any stack he accompanies
--   cf_bonus_max                +1 CF per unit in good order, up to this (attacking or defending)
--   attack_cf_bonus_max         the same, when attacking only
--   cossack_attack_cf_bonus_max +1 CF per Cossack unit in good order, when attacking
--   cavalry_attack_cf_bonus_max +1 CF per cavalry unit in good order, when attacking
--   move_fail_max               a stack with him wishing to move rolls 1xd6: this or less = no move
-- Units: army, corps, wing, type, cossack, guard (Guard units obey any designated Commander). A
-- unit transferred to a Commander (prop `transferred_to` = his id; 1814 r.14.9) belongs to his
-- formation: his army, corps and wing instead of its own.
-- The special characteristics apply only when their Commander is the senior Commander of the
-- stack (seniority_rank; params.command_structure.tie_most_units: among equals, the one who
-- commands the most units, 1813). Among Commanders still equal the owner chooses; the choice is
-- made in the owner's favour (1814 RULINGS CS-3).
--
-- Params: ctx.params.command_structure = {
--   option = "command_structure",   -- the module option that switches the rule on
--   train_needs_command = true,     -- 1814: a Supply Train only with a Commander able to command
--                                   -- a unit of the stack (7.3, 8.1, 8.2)
--   tie_most_units = false,         -- 1813: seniority ties go to the one commanding most units
-- }
local core = require("cnw.core")

local M = {}

local function params(ctx) return ctx.params.command_structure end

function M.active(ctx, game)
    local p = params(ctx)
    return p ~= nil and game.option(p.option or "command_structure") and true or false
end

local function stat(game, id, name, default)
    local v = core.stat(game, id, name)
    if v == nil then return default end
    return v
end

-- A special characteristic of Commander `cmd` (0 when he has none). A Commander whose CR is 0
-- this Turn by an event (prop cr_zero_turn, 1814 REC 20: "a CR of zero and none of his special
-- characteristics") has none this Turn.
local function special_of(game, cmd, name)
    if game.prop(cmd, "cr_zero_turn") == game.turn() then return 0 end
    return stat(game, cmd, name, 0)
end

function M.designated(game, cmd) return core.stat(game, cmd, "seniority") ~= nil end
function M.is_cavalry_corps(game, cmd) return stat(game, cmd, "cavalry_corps", 0) == 1 end
local function rank(game, cmd) return stat(game, cmd, "seniority_rank", 99) end

-- The unit's army / corps / wing, or those of the Commander it was transferred to.
local function formation(game, u, name)
    local to = game.prop(u, "transferred_to")
    if to ~= nil then return core.stat(game, to, name) end
    return core.stat(game, u, name)
end

-- 16.2: may Commander `cmd` command the combat unit `u`?
function M.can_command(game, cmd, u)
    local s = core.stat(game, cmd, "seniority")
    if s == nil or core.owner(game, cmd) ~= core.owner(game, u) then return false end
    if stat(game, u, "guard", 0) == 1 then return true end         -- the Guard exception
    if s == "S" then return true end
    if s == "K" then return core.is_cossack(game, u) end
    if s == "W" then
        local wing = core.stat(game, cmd, "wing")
        return wing ~= nil and formation(game, u, "wing") == wing
    end
    local army = core.stat(game, cmd, "army")
    if army == nil or formation(game, u, "army") ~= army then return false end
    if s == "A" then return true end
    if s == "I" then return core.unit_type(game, u) == "infantry" end
    if s == "C" then return core.unit_type(game, u) == "cavalry" end
    local corps = core.stat(game, cmd, "corps")                             -- a Corps Commander
    return corps ~= nil and formation(game, u, "corps") == corps
end

function M.commanded(game, cmd, units)
    local n = 0
    for _, u in ipairs(units) do
        if M.can_command(game, cmd, u) then n = n + 1 end
    end
    return n
end

local function count(game, units, pred)
    local n = 0
    for _, u in ipairs(units) do
        if pred(u) then n = n + 1 end
    end
    return n
end

local function designated_of(game, cmds)
    local out = {}
    for _, c in ipairs(cmds) do
        if M.designated(game, c) then out[#out + 1] = c end
    end
    return out
end

-- The senior Commanders of a stack (16.2): the designated ones of the lowest seniority_rank
-- (1813: then those commanding the most of `units`). More than one = the owner's choice.
function M.seniors(ctx, game, cmds, units)
    local best, out = nil, {}
    for _, c in ipairs(designated_of(game, cmds)) do
        local r = rank(game, c)
        if best == nil or r < best then best, out = r, { c }
        elseif r == best then out[#out + 1] = c end
    end
    local p = params(ctx) or {}
    if p.tie_most_units and #out > 1 and units then
        local most, kept = -1, {}
        for _, c in ipairs(out) do
            local n = M.commanded(game, c, units)
            if n > most then most, kept = n, { c } elseif n == most then kept[#kept + 1] = c end
        end
        out = kept
    end
    return out
end

-- ---- 7.3, 8.1, 8.2: Supply Trains ------------------------------------------------------------

-- May a Supply Train be placed on (or used by) the stack of `units` with the Commanders `cmds`?
-- A Commander able to command at least one of the units; a Cavalry Corps Commander who is the
-- only Commander: only if every unit is cavalry (of his corps or not).
function M.train_allowed(ctx, game, cmds, units)
    if not M.active(ctx, game) or not (params(ctx) or {}).train_needs_command then return #cmds > 0 end
    if #cmds == 1 and M.is_cavalry_corps(game, cmds[1]) then
        return #units > 0 and count(game, units, function(u) return core.unit_type(game, u) == "cavalry" end) == #units
    end
    for _, c in ipairs(cmds) do
        if M.commanded(game, c, units) > 0 then return true end
    end
    return false
end

-- ---- 8.6 march attrition, the move roll ----------------------------------------------------------

-- The drm of the Commanders `cmds` who accompanied the combat units `units` throughout a move:
-- the designated-Commander drm when every unit can be commanded by an accompanying Commander who
-- confers one (the most favourable of theirs: Napoleon -2), plus the senior Commander's special
-- drm (Blucher). Returns drm, explanation.
function M.march_drm(ctx, game, units, cmds)
    if #units == 0 or #cmds == 0 then return 0, nil end
    local drm, why = 0, {}
    local covered = true
    for _, u in ipairs(units) do
        local ok = false
        for _, c in ipairs(cmds) do
            if stat(game, c, "command_march_drm", 0) ~= 0 and M.can_command(game, c, u) then ok = true; break end
        end
        if not ok then covered = false; break end
    end
    if covered then
        local best, who = 0, nil
        for _, c in ipairs(cmds) do
            local v = stat(game, c, "command_march_drm", 0)
            if v < best and M.commanded(game, c, units) > 0 then best, who = v, c end
        end
        drm = best
        if who then why[#why + 1] = string.format("%s commands the stack %+d", who, best) end
    end
    local special, who = 0, nil
    for _, c in ipairs(M.seniors(ctx, game, cmds, units)) do
        local v = special_of(game, c, "special_march_drm")
        if v < special then special, who = v, c end
    end
    if who then
        drm = drm + special
        why[#why + 1] = string.format("%s %+d", who, special)
    end
    return drm, (#why > 0 and table.concat(why, ", ") or nil)
end

-- The special characteristic "a move fails on 1xd6 <= n" of the senior Commander among `cmds`
-- (Constantine, Victor): n, and the Commander; 0 when the owner can name a senior without it.
function M.move_fail(ctx, game, cmds, units)
    local seniors = M.seniors(ctx, game, cmds, units)
    local n, who = nil, nil
    for _, c in ipairs(seniors) do
        local v = special_of(game, c, "move_fail_max")
        if n == nil or v < n then n, who = v, c end
    end
    if not n or n <= 0 then return 0, nil end
    return n, who
end

-- ---- 11.5, 11.7: the Commander Rating in combat -----------------------------------------------

-- The CR modifier of the attacking / defending stack: the Commander able to command the most of
-- `units` (the ordered units / the undisrupted defenders), then the most senior, then the owner's
-- choice (the best CR); limited to the units he can command. A Cavalry Corps Commander who is the
-- only Commander: limited to the cavalry units present. Returns value, commander, n; or nil when
-- no designated Commander is present (the basic rule applies: A-25).
function M.combat_cr(ctx, game, cmds, units)
    local designated = designated_of(game, cmds)
    if #designated == 0 then return nil end
    if #cmds == 1 and M.is_cavalry_corps(game, cmds[1]) then
        local cav = count(game, units, function(u) return core.unit_type(game, u) == "cavalry" end)
        return math.min(core.cr(game, cmds[1]), cav), cmds[1], cav
    end
    local best
    for _, c in ipairs(designated) do
        local n = M.commanded(game, c, units)
        local v = math.min(core.cr(game, c), n)   -- core.cr: a CR set to 0 by an event (REC 20)
        local cand = { c = c, n = n, r = rank(game, c), v = v }
        if best == nil or cand.n > best.n or (cand.n == best.n and (cand.r < best.r
            or (cand.r == best.r and cand.v > best.v))) then
            best = cand
        end
    end
    return best.v, best.c, best.n
end

-- 11.5 / 11.7 supporting stacks: +1 for an accompanying Commander; a Cavalry Corps Commander who
-- is the only one adds it only if the supporting stack contains a cavalry unit.
function M.support_commander(ctx, game, cmds, units)
    if #cmds == 0 then return false end
    if #cmds == 1 and M.is_cavalry_corps(game, cmds[1]) then
        return count(game, units, function(u) return core.unit_type(game, u) == "cavalry" end) > 0
    end
    return true
end

-- The special characteristics' CF bonus of a stack (applied immediately before 11.3): the senior
-- Commander's, over `units` (the ordered units / the defenders), counting units in good order.
-- Returns bonus, commander.
function M.cf_bonus(ctx, game, cmds, units, attacking)
    local function good(pred)
        return count(game, units, function(u) return not core.disrupted(game, u) and (pred == nil or pred(u)) end)
    end
    local best, who = 0, nil
    for _, c in ipairs(M.seniors(ctx, game, cmds, units)) do
        local b = math.min(special_of(game, c, "cf_bonus_max"), good())
        if attacking then
            b = b + math.min(special_of(game, c, "attack_cf_bonus_max"), good())
            b = b + math.min(special_of(game, c, "cossack_attack_cf_bonus_max"), good(function(u) return core.is_cossack(game, u) end))
            b = b + math.min(special_of(game, c, "cavalry_attack_cf_bonus_max"),
                good(function(u) return core.unit_type(game, u) == "cavalry" end))
        end
        if b > best then best, who = b, c end
    end
    return best, who
end

return M
