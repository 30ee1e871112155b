#!/usr/bin/env python3
"""Oracle copies of the modules, for measuring what the 1814 AI lacks (docs/ai.md, rounds 28 and 38).

An oracle is NOT a rule: it eases one rule of the cnw series for the Coalition (or, for
believe_gate, only what the AI is told of the rules), in a copy of modules/, so that a tournament
on the copy (the game and the AI's own RulesHost read the same copy, so the AI plans with what it
gets) shows how much the win rate would gain if the AI could get that by play. Each oracle is a
string edit of modules/cnw_series/ (supply.lua; game.lua and ai_hints.lua, the bots' features,
for believe_gate); an edit whose anchor is gone (the rules changed) stops with an error instead of
copying a module that is not the oracle.

  gate           from Turn 7, every playable hex within three of Paris is in the Coalition's
                 General Supply field (6.1-6.2 aside): in supply, trains (7.3), rallies (8.1)
  winter_forage  no forage marker under 7.6 (b) on Coalition stacks on Turns 1-6
  trains3        three more Coalition Supply Trains every Turn (7.2)
  chainless      from Turn 7 a Coalition depot on a city within three of Paris needs no chain (7.8)
  freesite       chainless, and no Coalition stack on the city either (7.7): every city within
                 three of Paris is a depot site
  near_supplied  from Turn 7 no Coalition unit within three of Paris is disrupted or eliminated
                 by 6.4 (the AI still judges them out of supply: its field is the rules')
  freesite1      freesite, but no oracle site once a Coalition depot stands within three of Paris
  gate_depot     freesite1 on the cities next to Paris only (within one hex)
  believe_gate   the rules unchanged; the bots' supply features (rules.ai_supply_field,
                 rules.ai_features) count the gate oracle's hexes as in supply: what the AI does
                 when it believes the gate supplied
  train73        from Turn 7 a Coalition stack within three of Paris may take a Supply Train
                 out of General Supply (7.3; 6.4 and 8.1 still apply)
  gate_r1        gate on the hexes next to Paris only (within one hex)
  gate_r2        gate within two hexes of Paris
  gate_r1_cities gate on the three cities next to Paris only (Meaux, Montereau, Fontainebleau)
  gate_cities    from Turn 7 the Coalition's supply routes and depot links pass the French cities
                 within two of Paris as if it held them (6.2, 7.8)
  gate_depot_cities  gate_depot, and the routes pass the cities next to Paris as if held
  gate_depot3    freesite on the cities next to Paris only: a depot on each of the three may stand

Usage:  scripts/ai_oracle.py ORACLE DEST [--modules DIR]
        build-ai/framework/ai/vedette-tournament DEST/napoleon_1814 --a ai --b random --side coalition ...
"""
import argparse
import os
import shutil
import sys

PARIS = "5420"

def helper(radius):
    return '''-- ORACLE (scripts/ai_oracle.py): the playable hexes within %d of Paris, for the Coalition
-- from Turn 7 (nil otherwise)
local NEAR_PARIS
local function near_paris(game, side)
    if side ~= "coalition" or game.turn() < 7 then return nil end
    if not NEAR_PARIS then
        NEAR_PARIS = {}
        for _, h in ipairs(map.hexes()) do
            if core.playable(h) and map.distance(h, "%s") <= %d then NEAR_PARIS[h] = true end
        end
    end
    return NEAR_PARIS
end
local function oracle_site(game, side, hex)
    local near = near_paris(game, side)
    return near ~= nil and near[hex] == true
end

''' % (radius, PARIS, radius)


HELPER = helper(3)

# where HELPER goes in each file (before the first function that uses it)
SUPPLY_FIELD = "local function supply_field(ctx, game, side, sit)\n"
EDITS = {
    "gate": [
        (SUPPLY_FIELD, HELPER + SUPPLY_FIELD),
        ("    memo[key] = out\n    if shared then",
         "    local near = near_paris(game, side)  -- ORACLE: the gate's supply near Paris\n"
         "    if near then for h in pairs(near) do out[h] = true end end\n"
         "    memo[key] = out\n    if shared then"),
    ],
    "winter_forage": [
        ("                    b = n >= 2\n",
         "                    b = n >= 2 and not (side == \"coalition\" and game.turn() <= 6)  -- ORACLE\n"),
    ],
    "trains3": [
        ("    local depots = #supply.depots(game, side)\n    local converted",
         "    if side == \"coalition\" then base = base + 3 end  -- ORACLE\n"
         "    local depots = #supply.depots(game, side)\n    local converted"),
    ],
    "chainless": [
        (SUPPLY_FIELD, HELPER + SUPPLY_FIELD),
        ("    local linked, reach = chain(ctx, game, side, sit, nil, { hex })\n    return (linked[hex] or reach[hex]) ~= nil",
         "    if oracle_site(game, side, hex) then return true end  -- ORACLE\n"
         "    local linked, reach = chain(ctx, game, side, sit, nil, { hex })\n    return (linked[hex] or reach[hex]) ~= nil"),
        ("            if linked[hex] or reach[hex] then out[#out + 1] = hex end",
         "            if linked[hex] or reach[hex] or oracle_site(game, side, hex) then out[#out + 1] = hex end  -- ORACLE"),
    ],
    "train73": [
        (SUPPLY_FIELD, HELPER + SUPPLY_FIELD),
        ("if sit.friendly_cmd[hex] and sit.friendly_combat[hex] and stack_supplied(ctx, game, hex, side, fieldset)",
         "if sit.friendly_cmd[hex] and sit.friendly_combat[hex] and (stack_supplied(ctx, game, hex, side, fieldset) or oracle_site(game, side, hex))  -- ORACLE"),
    ],
}
EDITS["near_supplied"] = [
    (SUPPLY_FIELD, HELPER + SUPPLY_FIELD),
    ("        if not deemed(ctx, game, id) then attrition(ctx, game, id) end",
     "        if not deemed(ctx, game, id) and not oracle_site(game, core.owner(game, id), core.piece(game, id).loc) then  -- ORACLE\n"
     "            attrition(ctx, game, id)\n"
     "        end"),
]
EDITS["freesite"] = EDITS["chainless"] + [
    ("    if friendly_territory(side, hex) then return true end\n    -- a city that counts as friendly for depots this Turn",
     "    if friendly_territory(side, hex) then return true end\n"
     "    if oracle_site(game, side, hex) then return true end  -- ORACLE: no stack needed either\n"
     "    -- a city that counts as friendly for depots this Turn"),
    ("local function candidate_sites(ctx, game, side, sit, keys, friendly_only)\n    local out = {}\n    local seen = {}\n",
     "local function candidate_sites(ctx, game, side, sit, keys, friendly_only)\n    local out = {}\n    local seen = {}\n"
     "    if oracle_site(game, side, \"%s\") then  -- ORACLE: every city near Paris a candidate\n"
     "        local all = {}\n"
     "        for _, h in ipairs(keys) do all[#all + 1] = h end\n"
     "        local extra = {}\n"
     "        for h in pairs(NEAR_PARIS) do extra[#extra + 1] = h end\n"
     "        table.sort(extra)\n"
     "        for _, h in ipairs(extra) do all[#all + 1] = h end\n"
     "        keys = all\n"
     "    end\n" % PARIS),
]

# freesite, but once the Coalition has a depot within three of Paris no other city there is a site
# beyond what the rules allow (7.2's upkeep aside: is one depot at the gate what the gate gives?)
ONE_DEPOT = (
    "    return near ~= nil and near[hex] == true\nend\n",
    "    if near == nil or not near[hex] then return false end\n"
    "    for _, id in ipairs(supply.depots(game, side)) do  -- ORACLE: one depot near Paris at most\n"
    "        if near[core.piece(game, id).loc] then return false end\n"
    "    end\n"
    "    return true\nend\n")
EDITS["freesite1"] = [EDITS["freesite"][0]] + [ONE_DEPOT] + EDITS["freesite"][1:]


# The AI's belief only: the rules' supply is unchanged, but what the AI is told of it (the bots'
# features, rules.ai_supply_field and rules.ai_features, which no rule reads) counts every hex
# within three of Paris as in the Coalition's supply from Turn 7, as the gate oracle's field does.
EDITS["believe_gate"] = [
    ("game.lua", "local core = require(\"cnw.core\")\n", "local core = require(\"cnw.core\")\n" + HELPER),
    ("game.lua", "        local field = supply_lib._field(ctx, game, role)\n        local inside, outside, besieged = {}, {}, {}\n",
     "        local field = supply_lib._field(ctx, game, role)\n        local inside, outside, besieged = {}, {}, {}\n"
     "        local near = near_paris(game, role) or {}  -- ORACLE\n"),
    ("game.lua", "                if field[hex] or supply_lib.stack_in_general_supply(ctx, game, hex, role) then",
     "                if field[hex] or near[hex] or supply_lib.stack_in_general_supply(ctx, game, hex, role) then  -- ORACLE"),
    ("ai_hints.lua", "local M = {}\n", "local core = require(\"cnw.core\")\n" + HELPER + "local BELIEF = { n = 0 }\nlocal M = {}\n"),
    ("ai_hints.lua", "        return supply_lib._field(ctx, game, side)\n",
     "        local field = supply_lib._field(ctx, game, side)\n"
     "        local near = near_paris(game, side)  -- ORACLE: a copy, the rules' table untouched\n"
     "        if not near then return field end\n"
     "        if BELIEF[field] then return BELIEF[field] end  -- the rules share a field between positions\n"
     "        local out = {}\n"
     "        for h in pairs(field) do out[h] = true end\n"
     "        for h in pairs(near) do out[h] = true end\n"
     "        if BELIEF.n > 200 then BELIEF = { n = 0 } end\n"
     "        BELIEF.n = BELIEF.n + 1\n"
     "        BELIEF[field] = out\n"
     "        return out\n"),
]

# freesite1 on the cities next to Paris only (Meaux, Montereau, Fontainebleau; round 28's reading)
EDITS["gate_depot"] = [(SUPPLY_FIELD, helper(1) + SUPPLY_FIELD)] + EDITS["freesite1"][1:]
# gate_depot without its one-depot limit: can depots on all three give gate_r1_cities's supply (6.1)?
EDITS["gate_depot3"] = [(SUPPLY_FIELD, helper(1) + SUPPLY_FIELD)] + EDITS["freesite"][1:]

# the gate's field on a smaller ring: which hexes around Paris its supply is needed on (round 39)
EDITS["gate_r1"] = [(SUPPLY_FIELD, helper(1) + SUPPLY_FIELD)] + EDITS["gate"][1:]
EDITS["gate_r2"] = [(SUPPLY_FIELD, helper(2) + SUPPLY_FIELD)] + EDITS["gate"][1:]
# gate_r1 on the three cities next to Paris only (Meaux, Montereau, Fontainebleau)
EDITS["gate_r1_cities"] = [(SUPPLY_FIELD, helper(1).replace("if core.playable(h) and", "if MAP.city[h] and core.playable(h) and")
                            + SUPPLY_FIELD)] + EDITS["gate"][1:]

# The gate's two ingredients (round 39): routes through the French cities near Paris as if a
# Coalition stack held them (6.2 bullet 2, and 7.8's links, which read the same check), and that
# with gate_depot's one free depot next to Paris. The helper goes before the route check that
# reads it (a Lua local is seen only below its definition).
ROUTE_CHECK = "local route_hex_check\n"
CITIES_PASS = ("        return friendly_held(ctx, sit, hex)\n    end\n    return true\nend",
               "        return friendly_held(ctx, sit, hex) or oracle_site(game, sit.side, hex)  -- ORACLE\n"
               "    end\n    return true\nend")
EDITS["gate_cities"] = [(ROUTE_CHECK, helper(2) + ROUTE_CHECK), CITIES_PASS]
EDITS["gate_depot_cities"] = [(ROUTE_CHECK, helper(1) + ROUTE_CHECK)] + EDITS["freesite1"][1:] + [CITIES_PASS]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("oracle", choices=sorted(EDITS))
    ap.add_argument("dest", help="a directory that does not exist yet: the copy of modules/")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--modules", default=os.path.join(here, "..", "modules"))
    args = ap.parse_args()
    if os.path.exists(args.dest):
        sys.exit(f"ai_oracle: {args.dest} exists; give a new directory")
    texts = {}  # cnw_series file -> its edited text
    for i, edit in enumerate(EDITS[args.oracle], 1):
        name, old, new = edit if len(edit) == 3 else ("supply.lua",) + tuple(edit)
        path = os.path.join(args.modules, "cnw_series", name)
        if name not in texts:
            with open(path, encoding="utf-8") as f:
                texts[name] = f.read()
        n = texts[name].count(old)
        if n != 1:
            sys.exit(f"ai_oracle: {path}: edit {i} of '{args.oracle}' expects its anchor once, found {n} times "
                     "(the rules changed: update scripts/ai_oracle.py)")
        texts[name] = texts[name].replace(old, new)
    shutil.copytree(args.modules, args.dest)
    for name, text in texts.items():
        with open(os.path.join(args.dest, "cnw_series", name), "w", encoding="utf-8") as f:
            f.write(text)
    print(f"{args.dest}: modules/ with the '{args.oracle}' oracle ({len(EDITS[args.oracle])} edits of "
          f"cnw_series/{', '.join(sorted(texts))})")


if __name__ == "__main__":
    main()
