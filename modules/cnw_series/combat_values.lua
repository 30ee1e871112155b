-- The numbers of combat (rules 10.2-10.5, 11.2-11.16, 9.4) as PURE functions: no game state,
-- no dice. combat.lua gathers the inputs from the board, rolls the dice and calls these; the
-- tests call them directly with the 1813 and 1814 parameter sets (worked example, digest §5).
--
-- Every function takes N = V.numbers(params): the system's numbers (identical in 1813, 1814 and
-- 1799, rulebook values below) overridden by the game's params (e.g. decisive_battle_hits).
local V = {}

V.DEFAULTS = {
    order_abort_die = 1,                 -- 10.2 a
    order_success_total = 7,             -- 10.2 c, 10.4
    support_conscript_drm = -1,          -- 10.4: per conscript unit in a supporting stack
    combined_arms = { 0, 2, 4 },         -- 11.3 / 11.6: by number of different unit types
    river_main = 3, river_support = 2,   -- 11.4 / 11.5 footnote
    fortified_without_artillery_main = 2, fortified_without_artillery_support = 1,
    fortified_with_artillery_main = 1,
    difficult_main = 2, difficult_support = 1,
    support_commander_bonus = 1,         -- 11.5 / 11.7
    forced_withdrawal_margin = 3,        -- 11.12
    loser_hit_cap_per_unit = 2,          -- 11.14
    winner_hits_drm = { -2, -1, 0, 0, 1, 2 },   -- 11.15, by die 1..6
    decisive_battle_hits = false,        -- 11.16 exists in 1814 only
    decisive_battle_min_units = 6,
    decisive_battle_units_per_hit = 4,
    decisive_victory_min_units = 6,      -- 9.4 (1813: 14.4b)
    decisive_victory_hit_margin = 4,
    -- Digest A-11: the -1 "into a fortified city without artillery" of a supporting stack is
    -- judged for the attack as a whole ("attack", reproduces the worked example) or per
    -- supporting stack ("stack", literal).
    support_fort_artillery_scope = "attack",
}

function V.numbers(params)
    local n = {}
    for k, v in pairs(V.DEFAULTS) do n[k] = v end
    for k, v in pairs(params or {}) do
        if V.DEFAULTS[k] ~= nil then n[k] = v end
    end
    return n
end

local function ceil_half(x) return (x + 1) // 2 end

-- 11.2 bp3 (digest A-17): 1, 2 (halved) or 4 (quartered) from the participating units' flags.
-- extra: a further game-specific divisor (1814 r.14.6: 2), multiplied in, never beyond 4 (A-18).
function V.halving_divisor(force_marched, max_combats, extra)
    local d = 1
    if max_combats >= 2 or (force_marched and max_combats >= 1) then d = 4
    elseif force_marched or max_combats >= 1 then d = 2 end
    d = d * (extra or 1)
    if d > 4 then d = 4 end
    return d
end

-- 10.2: the order test. Returns "aborted" / "failed" / "proceeds" and the aggregate.
function V.order_test(N, die, cr, cc)
    local total = die + cr + cc
    if die == N.order_abort_die then return "aborted", total end
    if total < N.order_success_total then return "failed", total end
    return "proceeds", total
end

-- 10.4 / 10.5: may a called supporting stack take part? (a die of 1 means nothing here)
function V.support_test(N, die, cr, cc, conscripts)
    local total = die + cr + cc + N.support_conscript_drm * conscripts
    return total >= N.order_success_total, total
end

function V.combined_arms(N, types)
    if types <= 0 then return 0 end
    return N.combined_arms[math.min(types, #N.combined_arms)]
end

-- 11.3 + 11.2 bp3 + 11.4. a = {cf, types, divisor, river, fortified, artillery, difficult}.
-- Returns attack value (after combined arms and halving) and modified attack value.
function V.attack_value(N, a)
    local av = (a.cf + V.combined_arms(N, a.types)) // a.divisor
    local m = av
    if a.river then m = m - N.river_main end
    if (a.fortified and not a.artillery) or a.difficult then m = m - N.fortified_without_artillery_main end
    if a.fortified and a.artillery then m = m - N.fortified_with_artillery_main end
    return av, m
end

-- 11.5 / 11.7: a commander's CR counts up to the number of (undisrupted) combat units.
function V.commander_value(cr, units)
    if units <= 0 then return 0 end
    return math.min(cr, units)
end

-- 11.5 second bullet and footnote: one supporting stack of the attacker.
-- s = {units (undisrupted), divisor, river, no_artillery_into_fortified, difficult, commander}
function V.attack_support_value(N, s)
    local v = s.units // s.divisor
    if s.river then v = v - N.river_support end
    if s.no_artillery_into_fortified or s.difficult then v = v - N.fortified_without_artillery_support end
    if s.commander then v = v + N.support_commander_bonus end
    return v
end

-- 11.7 second bullet: one supporting stack of the defender. s = {units, divisor, commander}.
function V.defence_support_value(N, s)
    local v = s.units // s.divisor
    if s.commander then v = v + N.support_commander_bonus end
    return v
end

-- 11.5: final attack value. x = {main = attack_value input, cr, units (ordered combat units),
-- supports = {attack_support_value inputs}, bonus (game hooks, 16.2), die}.
-- Returns FAV and a table of the steps (for the log and the tests).
function V.final_attack_value(N, x)
    local av, mav = V.attack_value(N, x.main)
    local cr = V.commander_value(x.cr or 0, x.units)
    local total = mav + cr + (x.bonus or 0)
    local parts = {}
    for i, s in ipairs(x.supports or {}) do
        parts[i] = V.attack_support_value(N, s)
        total = total + parts[i]
    end
    return total + x.die, { attack_value = av, modified = mav, after_cr = mav + cr, supports = parts }
end

-- 11.6: defence value. d = {cf (undisrupted), types (undisrupted), divisor}.
function V.defence_value(N, d)
    return (d.cf + V.combined_arms(N, d.types)) // d.divisor
end

-- 11.7 / 11.19: final defence value. x = {main, cr, undisrupted, supports, bonus, die,
-- all_disrupted}. All-disrupted defenders: FDV = the die alone.
function V.final_defence_value(N, x)
    if x.all_disrupted then return x.die, { defence_value = 0, after_cr = 0, supports = {} } end
    local dv = V.defence_value(N, x.main)
    local cr = V.commander_value(x.cr or 0, x.undisrupted)
    local total = dv + cr + (x.bonus or 0)
    local parts = {}
    for i, s in ipairs(x.supports or {}) do
        parts[i] = V.defence_support_value(N, s)
        total = total + parts[i]
    end
    return total + x.die, { defence_value = dv, after_cr = dv + cr, supports = parts }
end

-- 11.8-11.16: the hits of both sides.
-- r = {fav, fdv, attacker_undisrupted, defender_undisrupted (before combat, supports included),
--      attacker_units, defender_units (all participating combat units), die (11.15; ignored on a tie)}
-- Returns {winner = "attacker"/"defender"/nil, margin, attacker_hits, defender_hits,
--          base_loser, base_winner, extra_loser, extra_winner, must_withdraw}.
function V.hits(N, r)
    local out = { margin = math.abs(r.fav - r.fdv) }
    local big = N.decisive_battle_hits and r.attacker_units >= N.decisive_battle_min_units
        and r.defender_units >= N.decisive_battle_min_units
    local extra = big and (r.attacker_units + r.defender_units) // N.decisive_battle_units_per_hit or 0
    if r.fav == r.fdv then
        -- 11.9: one hit on the attacking stack; 11.16: (b) to both sides, within the 11.14 caps
        -- with the other side as "winner" (RULINGS: tie caps).
        out.attacker_hits = 1 + math.min(extra, N.loser_hit_cap_per_unit * r.defender_undisrupted)
        out.defender_hits = math.min(extra, N.loser_hit_cap_per_unit * r.attacker_undisrupted)
        out.extra_loser, out.extra_winner = extra, extra
        return out
    end
    local attacker_won = r.fav > r.fdv
    out.winner = attacker_won and "attacker" or "defender"
    local winner_und = attacker_won and r.attacker_undisrupted or r.defender_undisrupted
    local loser_und = attacker_won and r.defender_undisrupted or r.attacker_undisrupted
    local cap_loser = N.loser_hit_cap_per_unit * winner_und                    -- 11.14
    local base_loser = math.min(out.margin, cap_loser)
    local base_winner = ceil_half(out.margin) + N.winner_hits_drm[r.die]          -- 11.15
    base_winner = math.max(0, math.min(base_winner, loser_und))
    local extra_winner = extra // 2                                               -- 11.16 c
    local loser = math.min(base_loser + extra, cap_loser)
    local winner = math.min(base_winner + extra_winner, loser_und)
    out.base_loser, out.base_winner = base_loser, base_winner
    out.extra_loser, out.extra_winner = extra, extra_winner
    if attacker_won then
        out.attacker_hits, out.defender_hits = winner, loser
        out.must_withdraw = out.margin >= N.forced_withdrawal_margin              -- 11.12 bp1
    else
        out.attacker_hits, out.defender_hits = loser, winner
    end
    return out
end

-- 9.4: a decisive victory? units_* count every participating combat unit (disrupted and
-- supporting units included); absorbed_* are the hits each side absorbed.
function V.decisive(N, attacker_units, defender_units, absorbed_winner, absorbed_loser)
    return attacker_units >= N.decisive_victory_min_units and defender_units >= N.decisive_victory_min_units
        and absorbed_loser - absorbed_winner >= N.decisive_victory_hit_margin
end

return V
