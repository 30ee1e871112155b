-- Scenario rules acting at the start of a Turn: 14.9 veteran French units from Spain and
-- 14.10 Anglona (rules/scenario.lua).
require("cnw.core")

local EMPTY = "tests/setups/empty.xml"

local function new(dice) return vt.new_game { setup = EMPTY, dice = dice } end

local function put(game, type, hex, face)
    return game.create(type, { id = type, at = hex, face = face })
end

local function start(g, turn, phase, fn)
    vt.edit(g, function(game)
        game.set_turn(turn)
        fn(game)
        game.decide { role = "french", step = "game.begin_phase", context = { phase = phase } }
    end)
    vt.apply(g, "french", "begin")
end

local function loc(g, id) return vt.with(g, function(game) return game.piece(id).loc end) end
local function face(g, id) return vt.with(g, function(game) return game.piece(id).face end) end
local function step(g) return vt.decision(g).step end
-- Did the last action log a text containing `text`? (General Supply follows the start of the
-- Turn at once and may disrupt the units again: 6.4.)
local function logged(g, text)
    for _, e in ipairs(vt.events(g)) do
        if e:find(text, 1, true) then return true end
    end
    return false
end

-- ---- 14.9 ---------------------------------------------------------------------------------------

test("14.9 Soult's divisions cannot be sent from Spain before Turn 5", function()
    local g = new()
    start(g, 4, "start", function(game) put(game, "fr_foy", "5929") end)
    assert(step(g) ~= "scenario.veterans")
end)

test("14.9 from Turn 5 the French may send divisions of Soult's command off the map; they return in the Reinforcement Phase of the Turn after next on a hex in supply with a French commander", function()
    local g = new()
    start(g, 5, "start", function(game)
        put(game, "fr_foy", "5929")
        put(game, "fr_leval", "5929")
        put(game, "fr_barrois", "5928")     -- not of Soult's command
    end)
    local d = vt.decision(g)
    assert(d.step == "scenario.veterans" and d.role == "french" and d.rule == "14.9")
    assert(vt.has_action(g, "french", "remove fr_foy"))
    assert(not vt.has_action(g, "french", "remove fr_barrois"))
    vt.apply(g, "french", "remove fr_foy")
    assert(loc(g, "fr_foy") == "box:adjacent_to_map")
    assert(step(g) == "scenario.veterans")
    vt.apply(g, "french", "done")
    assert(step(g) ~= "scenario.veterans")
    assert(loc(g, "fr_leval") == "5929")
    -- Turn 6: it stays off the map
    start(g, 6, "reinforcements", function(game) put(game, "napoleon", "5420") end)
    assert(step(g) ~= "reinforcements.place")
    assert(loc(g, "fr_foy") == "box:adjacent_to_map")
    -- Turn 7: it returns to the hex of a French commander in supply (Napoleon in Paris), and
    -- nowhere else
    start(g, 7, "reinforcements", function(game) end)
    assert(step(g) == "reinforcements.place")
    assert(vt.has_action(g, "french", "place fr_foy 5420"))
    assert(not vt.has_action(g, "french", "place fr_foy 5929"))
    vt.apply(g, "french", "place fr_foy 5420")
    assert(loc(g, "fr_foy") == "5420")
    assert(vt.with(g, function(game) return game.prop("fr_foy", "transferred_to") end) == "napoleon",
        "for 16.2 the unit is transferred to that commander")
end)

test("14.9 no more than four units in total are sent from Spain", function()
    local g = new()
    start(g, 6, "start", function(game)
        game.set_var("veterans_transferred", 3)
        put(game, "fr_foy", "5929")
        put(game, "fr_leval", "5929")
    end)
    assert(step(g) == "scenario.veterans")
    vt.apply(g, "french", "remove fr_foy")
    assert(step(g) ~= "scenario.veterans", "the fourth unit ends the transfers")
    assert(loc(g, "fr_leval") == "5929")
    local g2 = new()
    start(g2, 8, "start", function(game)
        game.set_var("veterans_transferred", 4)
        put(game, "fr_leval", "5929")
    end)
    assert(step(g2) ~= "scenario.veterans")
end)

test("14.9 the returning units are placed subject to 4.1 and need a French commander in supply", function()
    local g = new()
    start(g, 7, "reinforcements", function(game)
        local id = put(game, "fr_foy")
        game.move(id, "box:adjacent_to_map")
        game.set_prop(id, "arrive_turn", 7)
        game.set_prop(id, "arrive_anywhere", true)
        put(game, "napoleon", "5420")
        for _, u in ipairs { "fr_barrois", "fr_curial", "fr_charpentier", "fr_meunier", "fr_dufour",
                             "fr_rottembourg" } do put(game, u, "5420") end
        put(game, "marmont", "5122")
    end)
    local full = vt.with(g, function(game)
        local core = require("cnw.core")
        return core.stack_of2(game, "5420", "french") + core.of2(game, "fr_foy") > 12
    end)
    assert(step(g) == "reinforcements.place")
    assert(vt.has_action(g, "french", "place fr_foy 5122"))
    assert(full)
    assert(not vt.has_action(g, "french", "place fr_foy 5420"), "4.1")
end)

-- ---- 14.10 --------------------------------------------------------------------------------------

test("14.10 Anglona's forces in France: the French roll 1xd6 and restore half the score of disrupted units, nearest first, French choice on ties", function()
    local g = new { 5 }
    start(g, 3, "start", function(game)
        put(game, "co_sp_and1", "5929")              -- Bordeaux, in France
        put(game, "fr_barrois", "5928", "disrupted") -- 1 hex away
        put(game, "fr_curial", "5927", "disrupted")  -- 2 hexes away
        put(game, "fr_meunier", "5931", "disrupted") -- 2 hexes away
        put(game, "fr_dufour", "5920", "disrupted")  -- far
    end)
    -- 5 // 2 = 2: fr_barrois, then one of the two at 2 hexes, French choice
    assert(face(g, "fr_barrois") == "ready")
    local d = vt.decision(g)
    assert(d.step == "scenario.anglona" and d.role == "french" and d.rule == "14.10")
    assert(vt.has_action(g, "french", "rally fr_curial") and vt.has_action(g, "french", "rally fr_meunier"))
    assert(not vt.has_action(g, "french", "rally fr_dufour"))
    vt.apply(g, "french", "rally fr_meunier")
    assert(logged(g, "fr_meunier is restored to full strength"))
    assert(not logged(g, "fr_curial is restored") and not logged(g, "fr_dufour is restored"))
    assert(step(g) ~= "scenario.anglona")
end)

test("14.10 no effect while Anglona's forces are outside France", function()
    local g = new { 6 }
    start(g, 3, "start", function(game)
        put(game, "co_sp_and1", "5935")              -- Spain
        put(game, "fr_barrois", "5934", "disrupted")
    end)
    assert(not logged(g, "14.10"))
    assert(step(g) ~= "scenario.anglona")
end)

-- ---- 15.2 ---------------------------------------------------------------------------------------

-- A movement phase on Turn `turn` with the pieces { type, hex, id=, face= } (Supply Trains face
-- "train") and the optional rule 15.2 when `overstacking`.
local function movement(turn, pieces, overstacking, vars)
    local g = vt.new_game { setup = EMPTY, seed = 1, options = overstacking and { "overstacking" } or {} }
    vt.edit(g, function(game)
        game.set_turn(turn)
        for _, p in ipairs(pieces) do
            game.create(p[1], { id = p.id or p[1], at = p[2], face = p.face, hidden = p.face == "train" })
        end
        for k, v in pairs(vars or {}) do game.set_var(k, v) end
        game.decide { role = "french", step = "game.begin_phase", context = { phase = "movement" } }
    end)
    vt.apply(g, "french", "begin")
    return g
end
local function train(hex, id) return { "french_supply", hex, id = id, face = "train" } end

-- 4.5 + 1.5 + 1.5 OF at 5621 with Ney; 3 OF at 5721 with Marmont, next to it
local function two_stacks(extra)
    local p = { { "ney", "5621" }, { "fr_meunier", "5621" }, { "fr_decouz", "5621" }, { "fr_curial", "5621" },
                train("5621", "ft1"), train("5621", "ft2"),
                { "marmont", "5721" }, { "fr_barrois", "5721" }, { "fr_friant", "5721" }, train("5721", "ft3") }
    for _, x in ipairs(extra or {}) do p[#p + 1] = x end
    return p
end

test("15.2 a Supply Train allocated to a stack raises the capacity of its hex by 3 OF, so that other units may join it", function()
    local g = movement(3, two_stacks(), true)
    assert(step(g) == "movement.choose")
    vt.apply(g, "french", "move 5721")
    assert(not vt.has_action(g, "french", "to 5621"), "4.1: 4.5 + 3 OF > 6")
    vt.apply(g, "french", "cancel")
    assert(vt.has_action(g, "french", "overstack ft1"))
    vt.apply(g, "french", "overstack ft1")
    assert(logged(g, "its capacity is 9 OF"))
    assert(loc(g, "ft1") ~= "5621", "the train is used")
    vt.apply(g, "french", "move 5721")
    assert(vt.has_action(g, "french", "to 5621"), "9 OF of capacity")
end)

test("15.2 at most two Supply Trains per stack raise its capacity", function()
    local g = movement(3, two_stacks { train("5621", "ft4") }, true)
    vt.apply(g, "french", "overstack ft1")
    vt.apply(g, "french", "overstack ft2")
    assert(logged(g, "its capacity is 12 OF"))
    assert(not vt.has_action(g, "french", "overstack ft4"))
    assert(vt.has_action(g, "french", "overstack ft3"), "another stack")
end)

test("15.2 without the optional rule a Supply Train cannot raise the capacity", function()
    local g = movement(3, two_stacks(), false)
    assert(step(g) == "movement.choose")
    assert(not vt.has_action(g, "french", "overstack ft1"))
end)

test("15.2 excess units in a stack over its capacity when the increase ends are eliminated, opponent's choice", function()
    -- 7.5 OF at 5621 under an allocation of the previous Turn; no Supply Train this Turn
    local g = movement(4, { { "ney", "5621" }, { "fr_meunier", "5621" }, { "fr_decouz", "5621" },
                            { "fr_curial", "5621" }, { "fr_barrois", "5621" }, { "fr_friant", "5621" } }, true,
                       { overstack = { { hex = "5621", side = "french", turn = 3 } } })
    local d = vt.decision(g)
    assert(d.step == "scenario.overstack_excess" and d.role == "coalition" and d.rule == "15.2")
    assert(vt.has_action(g, "coalition", "eliminate fr_friant"))
    vt.apply(g, "coalition", "eliminate fr_friant")     -- 6.5 OF: still too many
    assert(step(g) == "scenario.overstack_excess")
    vt.apply(g, "coalition", "eliminate fr_meunier")    -- 5 OF
    assert(step(g) ~= "scenario.overstack_excess")
    assert(loc(g, "fr_friant") == "box:eliminated" and loc(g, "fr_meunier") == "box:eliminated")
    assert(loc(g, "fr_barrois") == "5621")
    assert(vt.with(g, function(game) return #(game.var("overstack") or {}) end) == 0)
end)
