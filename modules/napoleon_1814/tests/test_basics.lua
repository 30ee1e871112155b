-- Rules 2-5: the board, the pieces, occupying a hex and the sequence of play, checked through
-- the series library's helpers (cnw.core) and the sequence of play (cnw.game).
local core = require("cnw.core")

local function eq(actual, expected, what)
    if actual ~= expected then
        error(string.format("%s: expected %s, got %s", what, tostring(expected), tostring(actual)), 2)
    end
end

local function empty_game(turn)
    local g = vt.new_game { setup = "tests/setups/empty.xml" }
    if turn then vt.edit(g, function(game) game.set_turn(turn) end) end
    return g
end

-- Finds two adjacent hexes with a property, scanning the map in label order.
local function find_pair(game, pred)
    for _, a in ipairs(map.hexes()) do
        for _, b in ipairs(map.neighbours(a)) do
            if pred(a, b) then return a, b end
        end
    end
end

test("2.2 mountains are impassable except through a pass; passes are difficult terrain in Winter only", function()
    local g = empty_game(1)
    vt.with(g, function(game)
        local a, b = find_pair(game, function(x, y)
            return core.playable(x) and map.terrain(y) == "mountain" and not map.has_hexside(x, y, "pass")
        end)
        eq(core.can_enter(a, b), false, "mountain without a pass")
        local c, d = find_pair(game, function(x, y)
            return core.playable(x) and map.terrain(x) ~= "mountain" and map.terrain(y) == "mountain"
                and map.has_hexside(x, y, "pass")
        end)
        eq(core.can_enter(c, d), true, "mountain through a pass")
        eq(core.entry_cost(game, c, d), 2, "a pass in Winter counts two")
    end)
    local spring = empty_game(7)
    vt.with(spring, function(game)
        local c, d = find_pair(game, function(x, y)
            return core.playable(x) and map.terrain(x) ~= "mountain" and map.terrain(y) == "mountain"
                and map.has_hexside(x, y, "pass")
        end)
        eq(core.entry_cost(game, c, d), 1, "a pass in Spring counts one")
    end)
end)

test("2.2 forest and rough ground count two unless entered by road; marsh always two; lakes and sea are impassable", function()
    local g = empty_game(7)
    vt.with(g, function(game)
        local a, b = find_pair(game, function(x, y)
            return core.playable(x) and (map.terrain(y) == "rough" or map.terrain(y) == "forest")
                and not map.has_hexside(x, y, "road") and not map.has_hexside(x, y, "pass")
        end)
        eq(core.entry_cost(game, a, b), 2, "rough/forest off road")
        local c, d = find_pair(game, function(x, y)
            return core.playable(x) and (map.terrain(y) == "rough" or map.terrain(y) == "forest")
                and map.has_hexside(x, y, "road")
        end)
        if c then eq(core.entry_cost(game, c, d), 1, "rough/forest by road") end
        local e, f = find_pair(game, function(x, y) return core.playable(x) and map.terrain(y) == "marsh" end)
        eq(core.entry_cost(game, e, f), 2, "marsh")
        local h, i = find_pair(game, function(x, y) return core.playable(x) and core.lake_between(x, y) end)
        eq(core.can_enter(h, i), false, "lake hexside")
        local j, k = find_pair(game, function(x, y) return core.playable(x) and map.terrain(y) == "sea" end)
        eq(core.can_enter(j, k), false, "sea")
    end)
end)

test("2.3 hexes off the board cannot be entered (a unit forced off the map is eliminated, 11.11)", function()
    local g = empty_game(1)
    vt.with(g, function(game)
        local a, b = find_pair(game, function(x, y) return core.playable(x) and map.terrain(y) == "offmap" end)
        eq(core.playable(b), false, "off-board hex")
        eq(core.can_enter(a, b), false, "cannot enter")
    end)
end)

test("3.2 every combat unit has CF 1; OF 1, 1.5, 2 by class and 0 for garrisons (in halves)", function()
    local g = vt.new_game { scenario = "campaign" }
    vt.with(g, function(game)
        local by_class = { veteran = 2, line = 3, conscript = 4, garrison = 0 }
        local seen = {}
        for _, t in ipairs(game.pieces { category = "unit" }) do
            local c = core.class(game, t)
            if core.is_garrison(game, t) then c = "garrison" end
            eq(game.stat(t, "cf"), 1, t .. " CF")
            eq(core.of2(game, t), by_class[c], t .. " OF (" .. c .. ")")
            seen[c] = true
        end
        for c in pairs(by_class) do eq(seen[c] ~= nil, true, "a unit of class " .. c .. " exists") end
    end)
end)

test("3.3 a disrupted unit is flipped; a hit on a disrupted unit eliminates it (11.18)", function()
    local g = empty_game(1)
    vt.edit(g, function(game)
        game.create("fr_friant", { id = "u", at = "5420" })
        eq(core.disrupt(game, "u"), "disrupted", "first hit")
        eq(game.piece("u").face, "disrupted", "flipped")
        eq(core.disrupt(game, "u"), "eliminated", "second hit")
        eq(game.piece("u").loc, "box:eliminated", "in the eliminated box")
    end)
end)

test("3.4 commanders have no CF and OF 0, and a Commander Rating", function()
    local g = vt.new_game { scenario = "campaign" }
    vt.with(g, function(game)
        for _, id in ipairs(game.pieces { category = "commander" }) do
            eq(core.of2(game, id), 0, id .. " OF")
            eq(game.stat(id, "cr") >= 0, true, id .. " CR")
        end
    end)
end)

test("4.1 six OF per hex: the stack's OF is counted in halves", function()
    local g = empty_game(1)
    vt.edit(g, function(game)
        game.create("fr_friant", { id = "a", at = "5420" })   -- veteran, OF 1
        game.create("napoleon", { id = "n", at = "5420" })    -- commander, OF 0
        eq(core.stack_of2(game, "5420", "french"), 2, "one veteran = OF 1")
    end)
end)

test("5.1 the phases follow rule 5.1's order", function()
    local g = empty_game(1)
    vt.with(g, function(game)
        local expected = { "start", "general_supply", "active_supply", "movement", "combat_commands",
                           "combat", "commanders", "reinforcements" }
        local phases = defs.phases()
        for i, p in ipairs(expected) do eq(phases[i], p, "phase " .. i) end
    end)
end)

test("4.3 (speed caches) core.pieces and core.stacks keep nothing they are asked after the pieces changed", function()
    -- They live in game.pieces_memo(), which outlasts the call and is found again for the same
    -- pieces: an answer read after a change is the new position's, and must not be kept there.
    local g = empty_game(1)
    vt.edit(g, function(game)
        game.create("ney", { id = "ney", at = "5621" })
        game.create("blucher", { id = "blucher", at = "5721" })
    end)
    vt.edit(g, function(game)
        local pc, sc = core.pieces(game), core.stacks(game)
        eq(pc["ney"].loc, "5621", "read before the change")
        eq(rawget(pc, "ney") ~= nil, true, "kept")
        game.move("blucher", "5821")
        eq(pc["blucher"].loc, "5821", "read after the change: the new position")
        eq(rawget(pc, "blucher"), nil, "not kept for the old pieces")
        eq(#sc["5821"], 1, "stack read after the change")
        eq(rawget(sc, "5821"), nil, "not kept for the old pieces")
        eq(core.pieces(game) ~= pc, true, "the new pieces have their own cache")
    end)
end)
