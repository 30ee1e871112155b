-- Rules 6 (General Supply and Attrition), 7 (Active Supply), 14.1 (set-up depots), 14.14 and
-- 14.15, on small positions of the real map. Geography used (map.xml):
--   Chalon 5024 -> 5025 -> 5126 -> (bridge) Roanne 5127 -> 5227: 1, 2, 3, 4 hexes of route.
--   Sens 5322 <- Gien 5323 <- (bridge) marsh 5423 <- 5324: the marsh counts two.
--   Montlucon 5326 <- 5327 <- (road) rough 5427 <- (road) 5426: three hexes by road.
--   Troyes 5122 | 5022: an unbridged river between them.
--   Paris 5420 (French USS) -> Sens 5322: 3 hexes; Sens -> Troyes 5122: 2; Paris -> Troyes: 5.

local supply_lib = require("cnw.supply")
local core = require("cnw.core")

local EMPTY = "tests/setups/empty.xml"

local function new(dice) return vt.new_game { setup = EMPTY, dice = dice } end

-- Places `type` (its id is the type) at hex; face "ready" unless given.
local function put(game, type, hex, face)
    return game.create(type, { id = type, at = hex, face = face })
end

local function depot(game, side, hex)
    local id = game.create(side .. "_supply", { at = hex, face = "depot" })
    game.move(id, hex, 1)
    return id
end

-- Arranges a position with fn(game) on Turn `turn`, then begins `phase` (game.begin_phase).
local function start(g, turn, phase, fn)
    vt.edit(g, function(game)
        game.set_turn(turn)
        fn(game)
        game.decide { role = "french", step = "game.begin_phase", context = { phase = phase } }
    end)
    vt.apply(g, "french", "begin")
end

local function face(g, id) return vt.with(g, function(game) return game.piece(id).face end) end
local function loc(g, id) return vt.with(g, function(game) return game.piece(id).loc end) end

local function contains(list, text)
    for _, t in ipairs(list) do if t == text then return true end end
    return false
end

-- ---- 6.1 - 6.2 ------------------------------------------------------------------------------

test("6.1-6.2 a unit three hexes from a friendly depot is in general supply in Winter, at four it is disrupted (6.4)", function()
    local g = new()
    start(g, 1, "general_supply", function(game)
        depot(game, "french", "5024")
        put(game, "fr_meunier", "5127")
        put(game, "fr_decouz", "5227")
    end)
    assert(face(g, "fr_meunier") == "ready")
    assert(face(g, "fr_decouz") == "disrupted")
end)

test("6.2 a lone enemy Commander on the supplying depot's hex: the depot supplies nobody while he stands there (S-4, M-27)", function()
    local g = new()
    start(g, 1, "general_supply", function(game)
        depot(game, "french", "5024")
        put(game, "fr_meunier", "5127")
        put(game, "blucher", "5024")
    end)
    assert(face(g, "fr_meunier") == "disrupted")
    assert(loc(g, "blucher") == "5024")
end)

test("6.2 in Spring the supply route may be five hexes long", function()
    local g = new()
    start(g, 7, "general_supply", function(game)
        depot(game, "french", "5024")
        put(game, "fr_decouz", "5227")
    end)
    assert(face(g, "fr_decouz") == "ready")
end)

test("6.1 a unit may trace its supply route to a friendly Ultimate Supply Source", function()
    local g = new()
    start(g, 1, "general_supply", function(game)
        put(game, "fr_meunier", "5322")   -- Sens, 3 hexes from Paris, no depot anywhere
        put(game, "fr_decouz", "5122")    -- Troyes, 5 hexes from Paris
    end)
    assert(face(g, "fr_meunier") == "ready")
    assert(face(g, "fr_decouz") == "disrupted")
end)

test("6.2 difficult terrain counts two hexes; the unit's own hex is not counted", function()
    local g = new()
    start(g, 1, "general_supply", function(game)
        depot(game, "french", "5322")
        put(game, "fr_meunier", "5324")   -- 5423 marsh (2) + 5323 + 5322 = 4
        put(game, "fr_decouz", "5423")    -- in the marsh: 5323 + 5322 = 2
    end)
    assert(face(g, "fr_meunier") == "disrupted")
    assert(face(g, "fr_decouz") == "ready")
end)

test("6.2 difficult terrain crossed by road counts one hex", function()
    local g = new()
    start(g, 1, "general_supply", function(game)
        depot(game, "french", "5326")
        put(game, "fr_meunier", "5426")   -- rough 5427 by road (1) + 5327 (1) + 5326 (1)
    end)
    assert(face(g, "fr_meunier") == "ready")
end)

test("6.2 the supply route may not cross a river except by a bridge", function()
    local g = new()
    start(g, 1, "general_supply", function(game)
        depot(game, "french", "5122")
        put(game, "fr_meunier", "5022")   -- next to Troyes across an unbridged river
        put(game, "fr_decouz", "5121")    -- next to Troyes across a bridge
    end)
    assert(face(g, "fr_meunier") == "disrupted")
    assert(face(g, "fr_decouz") == "ready")
end)

test("6.2 the supply route may not pass through a hex occupied by an enemy stack", function()
    local g = new()
    start(g, 1, "general_supply", function(game)
        depot(game, "french", "5024")
        put(game, "fr_meunier", "5127")
        put(game, "co_gorchakov", "5126", "disrupted")   -- even a disrupted enemy stack blocks
    end)
    assert(face(g, "fr_meunier") == "disrupted")
end)

test("6.2 the supply route may not pass next to undisrupted enemy cavalry", function()
    local g = new()
    start(g, 1, "general_supply", function(game)
        depot(game, "french", "5024")
        put(game, "fr_meunier", "5127")
        put(game, "co_pahlen", "5125")    -- next to 5126, 5025 and 5024
    end)
    assert(face(g, "fr_meunier") == "disrupted")
end)

test("6.2 disrupted enemy cavalry does not block the supply route", function()
    local g = new()
    start(g, 1, "general_supply", function(game)
        depot(game, "french", "5024")
        put(game, "fr_meunier", "5127")
        put(game, "co_pahlen", "5125", "disrupted")
    end)
    assert(face(g, "fr_meunier") == "ready")
end)

test("6.2 enemy cavalry across an unbridged river does not block the route", function()
    local g = new()
    start(g, 1, "general_supply", function(game)
        depot(game, "french", "5024")
        put(game, "fr_meunier", "5127")
        put(game, "co_pahlen", "5226")    -- 5226 | 5126 is an unbridged river
    end)
    assert(face(g, "fr_meunier") == "ready")
end)

test("6.2 enemy cavalry does not block a route hex held by a friendly stack", function()
    local g = new()
    start(g, 1, "general_supply", function(game)
        depot(game, "french", "5024")
        put(game, "fr_meunier", "5127")
        put(game, "co_pahlen", "5125")
        put(game, "fr_friant", "5126")
        put(game, "fr_lagrange", "5025")
        put(game, "fr_brayer", "5024")
    end)
    assert(face(g, "fr_meunier") == "ready")
end)

test("6.2 the supply route may not pass through an enemy city unless a friendly stack holds it", function()
    -- a Coalition depot in Lyon 5027: from 5125 every route of three hexes passes Macon 5026
    local g = new()
    start(g, 2, "general_supply", function(game)
        depot(game, "coalition", "5027")
        put(game, "co_gorchakov", "5125")
    end)
    assert(face(g, "co_gorchakov") == "disrupted")
    local g2 = new()
    start(g2, 2, "general_supply", function(game)
        depot(game, "coalition", "5027")
        put(game, "co_gorchakov", "5125")
        put(game, "co_eugen_w", "5026")
    end)
    assert(face(g2, "co_gorchakov") == "ready")
    assert(face(g2, "co_eugen_w") == "ready")
end)

-- ---- 6.3 - 6.6 ------------------------------------------------------------------------------

local function forage(game, hex, side, units)
    local m = game.create("forage", { at = hex })
    game.set_prop(m, "side", side)
    game.set_prop(m, "units", units)
    return m
end

test("6.3 a stack under a forage marker is out of supply when the die is at most its number of units", function()
    local g = new { 2 }
    local m
    start(g, 3, "general_supply", function(game)
        depot(game, "french", "5024")
        put(game, "fr_meunier", "5025")
        put(game, "fr_decouz", "5025")
        m = forage(game, "5025", "french", { "fr_meunier", "fr_decouz" })
    end)
    assert(face(g, "fr_meunier") == "disrupted" and face(g, "fr_decouz") == "disrupted")
    assert(loc(g, m) == nil, "forage markers are removed at the end of the phase")
end)

test("6.3 a forage die above the number of units leaves the stack in supply", function()
    local g = new { 3 }
    start(g, 3, "general_supply", function(game)
        depot(game, "french", "5024")
        put(game, "fr_meunier", "5025")
        put(game, "fr_decouz", "5025")
        forage(game, "5025", "french", { "fr_meunier", "fr_decouz" })
    end)
    assert(face(g, "fr_meunier") == "ready" and face(g, "fr_decouz") == "ready")
end)

test("6.4 out of supply when already disrupted: conscripts eliminated, veterans stay disrupted, line eliminated in Winter", function()
    local g = new()
    start(g, 1, "general_supply", function(game)
        put(game, "fr_barrois", "5227", "disrupted")   -- conscript
        put(game, "fr_friant", "5227", "disrupted")    -- veteran
        put(game, "fr_meunier", "5127", "disrupted")   -- line
    end)
    assert(loc(g, "fr_barrois") == "box:eliminated")
    assert(loc(g, "fr_friant") == "5227" and face(g, "fr_friant") == "disrupted")
    assert(loc(g, "fr_meunier") == "box:eliminated")
end)

test("6.4 a disrupted line unit out of supply stays disrupted outside Winter", function()
    local g = new()
    start(g, 7, "general_supply", function(game)
        put(game, "fr_meunier", "5227", "disrupted")
        put(game, "fr_barrois", "5227", "disrupted")
    end)
    assert(loc(g, "fr_meunier") == "5227" and face(g, "fr_meunier") == "disrupted")
    assert(loc(g, "fr_barrois") == "box:eliminated")
end)

test("6.5 supply is checked on both sides before any unit is disrupted or eliminated", function()
    -- the Coalition conscript blocking the French route is itself eliminated out of supply; the
    -- French unit is still found out of supply, because both were checked first
    local g = new()
    start(g, 2, "general_supply", function(game)
        depot(game, "french", "5024")
        put(game, "fr_meunier", "5127")
        put(game, "co_lamotte", "5126", "disrupted")
    end)
    assert(loc(g, "co_lamotte") == "box:eliminated")
    assert(face(g, "fr_meunier") == "disrupted")
end)

test("6.6 Cossacks, garrisons, French units on 4329 and 4428 and British units in Vliessingen are deemed in general supply", function()
    local g = new()
    start(g, 2, "general_supply", function(game)
        put(game, "co_platov_cos", "5227")
        put(game, "fr_g_metz", "5227")
        put(game, "fr_alessandria", "4329")
        put(game, "fr_turin", "4428")
        put(game, "co_bac1", "5214")
        put(game, "fr_decouz", "5227")       -- the control: a French line unit out of supply
        put(game, "co_gorchakov", "5214")    -- a Russian in Vliessingen is not supplied from the sea
    end)
    for _, id in ipairs { "co_platov_cos", "fr_g_metz", "fr_alessandria", "fr_turin", "co_bac1" } do
        assert(face(g, id) == "ready", id .. " should be deemed in supply")
    end
    assert(face(g, "fr_decouz") == "disrupted")
    assert(face(g, "co_gorchakov") == "disrupted")
end)

test("6.6 Murat's Neapolitan units are deemed in general supply only within the Kingdom of Italy", function()
    local g = new()
    start(g, 8, "general_supply", function(game)
        put(game, "co_nap_guard", "4327")
        put(game, "co_nap_carascosa", "5227")
        -- cut 4327 off: French stacks on every neighbour
        local french = { "fr_meunier", "fr_decouz", "fr_roguet", "fr_curial", "fr_duhesme", "fr_lagrange" }
        for i, n in ipairs(map.neighbours("4327")) do put(game, french[i], n) end
    end)
    assert(face(g, "co_nap_guard") == "ready")
    assert(face(g, "co_nap_carascosa") == "disrupted")
end)

-- ---- 7.1 - 7.5 ------------------------------------------------------------------------------

local function tracks(game, french, coalition)
    game.set_track("french_supply_trains", french)
    game.set_track("coalition_supply_trains", coalition)
end

test("7.1 a depot under a friendly stack may be converted into a face-up Supply Train on top of the stack", function()
    local g = new()
    local d
    start(g, 2, "active_supply", function(game)
        tracks(game, 4, 2)
        d = depot(game, "french", "5024")
        depot(game, "french", "5322")
        put(game, "ney", "5024")
        put(game, "fr_meunier", "5024")
    end)
    assert(vt.decision(g).step == "supply.convert" and vt.decision(g).rule == "7.1")
    assert(vt.has_action(g, "french", "convert 5024"))
    assert(not vt.has_action(g, "french", "convert 5322"), "no friendly stack at Sens")
    vt.apply(g, "french", "convert 5024")
    local p = vt.with(g, function(game)
        local stack = game.pieces_at("5024")
        return { face = game.piece(d).face, hidden = game.piece(d).hidden, top = stack[#stack] }
    end)
    assert(p.face == "train" and p.hidden == false and p.top == d)
    -- 7.2 (digest A-3): 4 trains - 1 depot left on the board - the converted one = 2 to allocate
    assert(vt.with(g, function(game) return game.var("supply_alloc_french") end) == 2)
end)

test("7.2 the trains to allocate are the Set Up Card figure less one per friendly depot on the board", function()
    local g = new()
    start(g, 2, "active_supply", function(game)
        tracks(game, 5, 3)
        depot(game, "french", "5024")
        depot(game, "french", "5322")
        depot(game, "coalition", "5027")
    end)
    local n = vt.with(g, function(game) return { game.var("supply_alloc_french"), game.var("supply_alloc_coalition") } end)
    assert(n[1] == 3 and n[2] == 2, n[1] .. " " .. n[2])
end)

test("7.2 a negative figure removes friendly depots until it is zero, chosen by the opponent", function()
    local g = new()
    start(g, 2, "active_supply", function(game)
        tracks(game, 1, 3)
        depot(game, "french", "5024")
        depot(game, "french", "5322")
        depot(game, "french", "5122")
    end)
    local d = vt.decision(g)
    assert(d.role == "coalition" and d.step == "supply.remove_depot" and d.rule == "7.2")
    vt.apply(g, "coalition", "remove 5322")
    assert(vt.decision(g).step == "supply.remove_depot")
    vt.apply(g, "coalition", "remove 5024")
    assert(vt.decision(g).step == "supply.allocate")
    local left = vt.with(g, function(game)
        local out = {}
        for _, id in ipairs(game.pieces { type = "french_supply", face = "depot" }) do
            if game.piece(id).loc then out[#out + 1] = game.piece(id).loc end
        end
        return out
    end)
    assert(#left == 1 and left[1] == "5122")
    assert(vt.with(g, function(game) return game.var("supply_alloc_french") end) == 0)
end)

test("7.3 a Supply Train goes to a stack with a commander and a combat unit in general supply, or to a city for a depot", function()
    local g = new()
    start(g, 2, "active_supply", function(game)
        tracks(game, 3, 0)
        depot(game, "french", "5024")
        put(game, "ney", "5024"); put(game, "fr_meunier", "5024")        -- in supply, commander
        put(game, "fr_decouz", "5025")                                      -- no commander
        put(game, "victor", "5227"); put(game, "fr_friant", "5227")        -- out of supply
        put(game, "marmont", "5126")                                        -- a commander alone
    end)
    vt.apply(g, "french", "pass")   -- 7.1: keep the depot at Chalon
    local acts = vt.actions(g, "french")
    assert(contains(acts, "allocate 5024"))
    assert(not contains(acts, "allocate 5025"))
    assert(not contains(acts, "allocate 5227"))
    assert(not contains(acts, "allocate 5126"))
    assert(contains(acts, "allocate 5322"), "Sens: an empty friendly city linked to Paris, for a depot")
    assert(not contains(acts, "allocate 5122"), "Troyes is too far from any depot for one (7.8)")
    vt.apply(g, "french", "allocate 5024")
    local t = vt.with(g, function(game)
        local stack = game.pieces_at("5024")
        local p = game.piece(stack[#stack])
        return { type = p.type, hidden = p.hidden, face = p.face }
    end)
    assert(t.type == "french_supply" and t.hidden and t.face == "train", "face down on top of the stack (7.4)")
end)

test("7.4 players alternate, the side with more Set Up Card trains first; a pass discards one; a player goes on alone", function()
    local g = new()
    start(g, 2, "active_supply", function(game)
        game.set_var("supply_trains_french", "2 2 2 2 2 2 2 2 2 2 2 2")
        game.set_var("supply_trains_coalition", "3 3 3 3 3 3 3 3 3 3 3 3")
        tracks(game, 2, 3)
        put(game, "ney", "5322"); put(game, "fr_meunier", "5322")
        put(game, "blucher", "4219"); put(game, "co_horn", "4219")
    end)
    local order = {}
    local function step(text)
        local d = vt.decision(g)
        assert(d.step == "supply.allocate" and d.rule == "7.4")
        order[#order + 1] = d.role
        vt.apply(g, d.role, text)
    end
    step("pass")             -- coalition first (3 > 2): passes, discarding one
    step("allocate 5322")    -- french
    step("allocate 4219")    -- coalition
    step("pass")             -- french: its last train
    step("allocate 4219")    -- coalition goes on alone
    assert(table.concat(order, ",") == "coalition,french,coalition,french,coalition", table.concat(order, ","))
    assert(vt.decision(g).step ~= "supply.allocate")
    local n = vt.with(g, function(game)
        local f, c = 0, 0
        for _, id in ipairs(game.pieces { type = "french_supply", face = "train" }) do
            if game.piece(id).loc then f = f + 1 end
        end
        for _, id in ipairs(game.pieces { type = "coalition_supply", face = "train" }) do
            if game.piece(id).loc then c = c + 1 end
        end
        return { f, c }
    end)
    assert(n[1] == 1 and n[2] == 2)
end)

test("7.4 with equal Set Up Card trains the French allocate first (digest A-2)", function()
    local g = new()
    start(g, 2, "active_supply", function(game)
        game.set_var("supply_trains_french", "2 2 2 2 2 2 2 2 2 2 2 2")
        game.set_var("supply_trains_coalition", "2 2 2 2 2 2 2 2 2 2 2 2")
        tracks(game, 2, 2)
    end)
    assert(vt.decision(g).role == "french")
end)

test("7.5 two dummy Supply Trains per side, placed face down on stacks, neither allocations nor discards", function()
    local g = new()
    start(g, 2, "active_supply", function(game)
        tracks(game, 1, 0)
        put(game, "ney", "5322"); put(game, "fr_meunier", "5322")
    end)
    vt.apply(g, "french", "dummy 5322")
    assert(vt.decision(g).role == "french" and vt.decision(g).step == "supply.allocate")
    vt.apply(g, "french", "dummy 5322")
    assert(not vt.has_action(g, "french", "dummy 5322"), "only two dummies")
    assert(vt.with(g, function(game) return game.var("supply_alloc_french") end) == 1)
    local seen = vt.with(g, function(game)
        local out = {}
        for _, id in ipairs(game.pieces_at("5322")) do
            local p = game.piece(id)
            if p.type == "french_supply_dummy" then out[#out + 1] = p.hidden end
        end
        return out
    end)
    assert(#seen == 2 and seen[1] and seen[2])
    vt.apply(g, "french", "pass")   -- the discard is a genuine train: the count falls to 0
    assert(vt.decision(g).step ~= "supply.allocate")
end)

-- ---- 7.6 forage markers ---------------------------------------------------------------------

-- Was a forage marker placed at hex by the last action? (The phase may run on into the next
-- Turn, whose 6.3 removes the markers, so the log of the action is what tells.)
local function forage_at(g, hex)
    for _, text in ipairs(vt.events(g)) do
        if text:find("^Turn %d+ %(") then return false end   -- the next Turn began
        if text:find("Forage marker on the %a+ stack at " .. hex) then return true end
    end
    return false
end

test("7.6 from Turn 2 a stack without a Supply Train outside friendly territory and out of supply gets a forage marker", function()
    local g = new()
    start(g, 2, "active_supply", function(game)
        tracks(game, 0, 0)
        put(game, "co_horn", "5227")        -- in France, no Coalition supply
        put(game, "co_gorchakov", "4521")   -- in France (Strasbourg), 3 hexes from the Coalition USS
        put(game, "fr_meunier", "5122")     -- French, out of supply but in friendly territory
    end)
    assert(forage_at(g, "5227"))
    assert(not forage_at(g, "4521"))
    assert(not forage_at(g, "5122"))
end)

test("7.6 no forage markers on Turn 1", function()
    local g = new()
    start(g, 1, "active_supply", function(game)
        tracks(game, 0, 0)
        put(game, "co_horn", "5227")
    end)
    assert(not forage_at(g, "5227"))
end)

test("7.6 (b) a stack next to two other friendly stacks with combat units gets a forage marker", function()
    local g = new()
    start(g, 2, "active_supply", function(game)
        tracks(game, 0, 0)
        put(game, "fr_meunier", "5025")
        put(game, "fr_decouz", "5126")
        put(game, "fr_friant", "5125")
        put(game, "fr_lagrange", "5227")
    end)
    -- 5025, 5126 and 5125 are mutually adjacent: each has two neighbours; 5227 has none
    assert(forage_at(g, "5025") and forage_at(g, "5126") and forage_at(g, "5125"))
    assert(not forage_at(g, "5227"))
end)

test("7.6 a stack with a genuine Supply Train, a stack of 6.6 units only and a depot city stack are spared", function()
    local g = new()
    start(g, 2, "active_supply", function(game)
        tracks(game, 2, 0)
        depot(game, "french", "5024")
        put(game, "ney", "5025"); put(game, "fr_meunier", "5025")
        put(game, "fr_decouz", "5126")
        put(game, "fr_g_metz", "5125")           -- a garrison only: ignored (7.6 note)
        put(game, "fr_friant", "5024")           -- depot city, not besieged: ignored for (b)
    end)
    vt.apply(g, "french", "pass")   -- 7.1: keep the depot
    vt.apply(g, "french", "allocate 5025")
    assert(not forage_at(g, "5025"), "a Supply Train is allocated")
    assert(not forage_at(g, "5126"), "next to only one counting stack")
    assert(not forage_at(g, "5125"))
    assert(not forage_at(g, "5024"))
end)

test("7.6 a dummy Supply Train does not spare a stack its forage marker", function()
    local g = new()
    start(g, 2, "active_supply", function(game)
        tracks(game, 1, 0)
        put(game, "ney", "5227"); put(game, "fr_meunier", "5227")
        put(game, "fr_decouz", "5127"); put(game, "fr_friant", "5228")
    end)
    vt.apply(g, "french", "dummy 5227")
    vt.apply(g, "french", "pass")
    assert(forage_at(g, "5227"))
end)

-- ---- 7.7 - 7.8 depots -----------------------------------------------------------------------

-- Puts the French at the 7.7 decision with genuine trains on the given hexes.
local function at_depots(g, turn, fn, side)
    side = side or "french"
    vt.edit(g, function(game)
        game.set_turn(turn)
        game.set_phase("active_supply")
        game.set_var("phase_index", 3)
        game.set_var("supply_first", side)
        fn(game)
        game.decide { role = side, step = "supply.depot", rule = "7.7", prompt = "depots", context = { side = side } }
    end)
end

local function train(game, side, hex)
    return game.create(side .. "_supply", { at = hex, face = "train", hidden = true })
end

test("7.7 a depot is established face up under the stack; the chain may use a depot established this Turn (7.8)", function()
    local g = new()
    local t
    at_depots(g, 1, function(game)
        put(game, "ney", "5322")
        t = train(game, "french", "5322")
        train(game, "french", "5122")     -- Troyes: 5 from Paris, 2 from Sens
    end)
    assert(vt.has_action(g, "french", "depot 5322"))
    assert(not vt.has_action(g, "french", "depot 5122"), "not linked yet")
    vt.apply(g, "french", "depot 5322")
    local p = vt.with(g, function(game) return { game.piece(t).face, game.piece(t).hidden, game.pieces_at("5322")[1] } end)
    assert(p[1] == "depot" and p[2] == false and p[3] == t)
    assert(vt.has_action(g, "french", "depot 5122"))
end)

test("7.8 depots link to the USS at most three hexes apart in Winter, five in Spring", function()
    local g = new()
    at_depots(g, 1, function(game) train(game, "french", "5122") end)
    assert(not vt.has_action(g, "french", "depot 5122"))
    local g2 = new()
    at_depots(g2, 7, function(game) train(game, "french", "5122") end)
    assert(vt.has_action(g2, "french", "depot 5122"))
end)

test("7.7 a depot in an unfriendly city needs a friendly stack there, and never in a city under siege", function()
    -- Strasbourg 4521: a French city three hexes from the Coalition USS
    local function coalition_depots(g, fn)
        at_depots(g, 1, function(game)
            train(game, "coalition", "4521")
            fn(game)
        end, "coalition")
    end
    local g = new()
    coalition_depots(g, function(game) end)
    assert(not vt.has_action(g, "coalition", "depot 4521"), "unfriendly and not held")
    local g2 = new()
    coalition_depots(g2, function(game) put(game, "co_horn", "4521") end)
    assert(vt.has_action(g2, "coalition", "depot 4521"))
    local g3 = new()
    coalition_depots(g3, function(game)
        put(game, "co_horn", "4521")
        put(game, "fr_meunier", "4621"); put(game, "fr_decouz", "4621")
    end)
    assert(not vt.has_action(g3, "coalition", "depot 4521"), "under siege (8.4 General Exception)")
end)

test("7.7 a Supply Train left on a hex without a friendly stack and not made a depot is removed", function()
    local g = new()
    local t
    at_depots(g, 1, function(game) t = train(game, "french", "5322") end)
    vt.apply(g, "french", "done")
    assert(loc(g, t) == nil)
end)

-- ---- 14.1, 14.14, 14.15 ---------------------------------------------------------------------

test("14.1 before play the French, then the Coalition, may deploy Turn 1 Supply Trains as depots on linked friendly cities", function()
    local g = new()
    local d = vt.decision(g)
    assert(d.role == "french" and d.step == "supply.setup_depot" and d.rule == "14.1")
    assert(vt.has_action(g, "french", "depot 5322"))
    assert(not vt.has_action(g, "french", "depot 5122"), "not linked (7.8)")
    vt.apply(g, "french", "depot 5322")
    assert(vt.has_action(g, "french", "depot 5122"), "linked through Sens")
    vt.apply(g, "french", "done")
    d = vt.decision(g)
    assert(d.role == "coalition" and d.step == "supply.setup_depot")
    assert(not vt.has_action(g, "coalition", "depot 5322"))
    vt.apply(g, "coalition", "done")
    assert(vt.decision(g).step ~= "supply.setup_depot")
    assert(vt.with(g, function(game) return game.var("supply_alloc_french") end) ==
        vt.with(g, function(game) return game.track("french_supply_trains") end) - 1)
end)

test("14.1 all Coalition units begin the game in supply: the General Supply phase of Turn 1 disrupts none of them, that of Turn 2 does", function()
    -- Munster 4612 is four hexes from the eastern map edge (the Coalition's USS): out of reach in
    -- Winter. The French unit four hexes from its depot is the control: 14.1 is the Coalition's.
    for _, case in ipairs { { 1, "ready" }, { 2, "disrupted" } } do
        local g = new()
        start(g, case[1], "general_supply", function(game)
            put(game, "co_stroganov", "4612")
            depot(game, "french", "5024")
            put(game, "fr_meunier", "5227")
        end)
        assert(face(g, "co_stroganov") == case[2], "Turn " .. case[1] .. ": " .. face(g, "co_stroganov"))
        assert(face(g, "fr_meunier") == "disrupted", "the French control, Turn " .. case[1])
    end
end)

test("14.1 on the campaign set-up the General Supply phase of Turn 1 disrupts no Coalition unit", function()
    local g = vt.new_game { scenario = "campaign" }
    vt.edit(g, function(game)
        game.decide { role = "french", step = "game.begin_phase", context = { phase = "general_supply" } }
    end)
    vt.apply(g, "french", "begin")
    vt.with(g, function(game)
        local n = 0
        for _, id in ipairs(game.pieces { category = "unit" }) do
            local p = game.piece(id)
            if p.owner == "coalition" and p.loc and p.loc:match("^%d+$") then
                n = n + 1
                assert(p.face == "ready", id .. " at " .. p.loc .. " is " .. p.face)
            end
        end
        assert(n > 50, "the Coalition's units on the map: " .. n)
    end)
end)

test("14.14 Swiss cities are friendly to the Coalition: a depot needs no stack there", function()
    local g = new()
    at_depots(g, 1, function(game)
        train(game, "coalition", "4524")
    end, "coalition")
    assert(vt.has_action(g, "coalition", "depot 4524"))
end)

test("14.15 Geneva needs a friendly combat unit for a depot; a commander alone is not enough", function()
    local g = new()
    at_depots(g, 7, function(game)
        depot(game, "coalition", "4524")
        train(game, "coalition", "4726")
        put(game, "schwarzenberg", "4726")
    end, "coalition")
    assert(not vt.has_action(g, "coalition", "depot 4726"))
    local g2 = new()
    at_depots(g2, 7, function(game)
        depot(game, "coalition", "4524")
        train(game, "coalition", "4726")
        put(game, "co_horn", "4726")
    end, "coalition")
    assert(vt.has_action(g2, "coalition", "depot 4726"))
end)


-- ---- the supply field shared between positions (cnw supply.lua; cnw_series/DESIGN.md, Speed) --
-- A field is traced once for all the positions that differ only where no route cares. These check
-- the shared field against one traced afresh (a configuration whose memo is forgotten first).

local function eq(actual, expected, what)
    if actual ~= expected then error(what .. ": " .. tostring(actual) .. " ~= " .. tostring(expected), 2) end
end

local function field_ctx()
    return { core = core,
             params = { supply_range = { winter = 3, spring = 5 },
                        uss_region = { french = "uss_french", coalition = "uss_coalition" } },
             hooks = {} }   -- (no hex_closed: 1814's checks its supply_closed_hexes in hooks.invariants)
end

local function field_text(ctx, game, side, fresh)
    if fresh then supply_lib._forget_shared_fields(ctx) end
    local l = {}
    for hex in pairs(supply_lib._field(ctx, game, side)) do l[#l + 1] = hex end
    table.sort(l)
    return table.concat(l, " ")
end

test("6.1-6.2 a stack moved between hexes no route cares about shares its side's field; onto an enemy city it does not", function()
    local g = new()
    local shared, fresh = field_ctx(), field_ctx()
    start(g, 7, "movement", function(game)
        depot(game, "coalition", "5322")            -- Sens: Nogent 5221 next to it
        put(game, "schwarzenberg", "5025")
        put(game, "co_hohenlohe", "5025")
        put(game, "fr_meunier", "5420")
    end)
    local before = vt.with(g, function(game) return field_text(shared, game, "coalition") end)
    assert(before:find("5221", 1, true), "Nogent is in the field: " .. before)
    vt.edit(g, function(game)
        game.move("co_hohenlohe", "5126", 1)
        game.move("schwarzenberg", "5126", 1)
    end)
    local hits = supply_lib._shared_field_hits(shared)
    local moved = vt.with(g, function(game) return field_text(shared, game, "coalition") end)
    eq(supply_lib._shared_field_hits(shared), hits + 1, "the move between open hexes shares the trace")
    eq(moved, vt.with(g, function(game) return field_text(fresh, game, "coalition", true) end), "shared = fresh")
    eq(moved, before, "the same field")
    -- Nogent held: 6.2 bullet 2 lets routes through it, the field grows beyond it
    vt.edit(g, function(game)
        game.move("co_hohenlohe", "5221", 1)
        game.move("schwarzenberg", "5221", 1)
    end)
    hits = supply_lib._shared_field_hits(shared)
    local held = vt.with(g, function(game) return field_text(shared, game, "coalition") end)
    eq(supply_lib._shared_field_hits(shared), hits, "a held enemy city is another key")
    eq(held, vt.with(g, function(game) return field_text(fresh, game, "coalition", true) end), "shared = fresh")
    assert(#held > #before, "holding Nogent carries the field beyond it")
end)

test("6.1-6.2 in a random campaign game every shared field is the field traced afresh (both sides)", function()
    local g = vt.new_game { scenario = "campaign", seed = 11, options = { "murat_neutral" } }
    local shared, fresh = field_ctx(), field_ctx()
    local r, compared = 12345, 0
    for _ = 1, 700 do
        local d = vt.decision(g)
        if not d.role or d.result then break end
        for _, side in ipairs { "french", "coalition" } do
            local a = vt.with(g, function(game) return field_text(shared, game, side) end)
            local b = vt.with(g, function(game) return field_text(fresh, game, side, true) end)
            eq(a, b, side .. "'s field, Turn " .. vt.with(g, function(game) return game.turn() end))
            compared = compared + 1
        end
        local acts = vt.actions(g, d.role)
        r = (r * 1103515245 + 12345) % 2147483648
        vt.apply(g, d.role, acts[r % #acts + 1])
    end
    assert(compared > 500, "compared " .. compared)
    assert(supply_lib._shared_field_hits(shared) > compared // 4,
           "shared " .. supply_lib._shared_field_hits(shared) .. " of " .. compared)
end)

