-- The advanced rules 16.2 (command structure, commanders' special characteristics), 16.3 (Murat)
-- and 16.4 (French Combat Commands victory): module options command_structure, murat_neutral and
-- cc_victory.

local EMPTY = "tests/setups/empty.xml"

local function new(options, dice) return vt.new_game { setup = EMPTY, options = options or {}, dice = dice } end

local function put(game, type, hex, face)
    return game.create(type, { id = type, at = hex, face = face })
end

-- Enter `phase` on Turn `turn` after fn(game) has set the board.
local function start(g, turn, phase, fn)
    vt.edit(g, function(game)
        game.set_turn(turn)
        fn(game)
        game.decide { role = "french", step = "game.begin_phase", context = { phase = phase } }
    end)
    vt.apply(g, "french", "begin")
end

local function result(g) return vt.decision(g).result end

-- ---- 16.4 ---------------------------------------------------------------------------------------

local function end_of_turn(options, french_cc, coalition_cc, fn)
    local g = new(options)
    start(g, 5, "reinforcements", function(game)
        game.set_track("french_cc_basic", french_cc)
        game.set_track("coalition_cc_basic", coalition_cc)
        if fn then fn(game) end
    end)
    return g
end

test("16.4 the French win at the end of a Turn when their basic CCs are 6 and the Coalition's 1", function()
    local g = end_of_turn({ "cc_victory" }, 6, 1)
    assert(result(g) and result(g):find("French win", 1, true) and result(g):find("16.4", 1, true), tostring(result(g)))
end)

test("16.4 no French CC victory at 6 against 2, at 5 against 1, or without the advanced rule", function()
    assert(result(end_of_turn({ "cc_victory" }, 6, 2)) == nil)
    assert(result(end_of_turn({ "cc_victory" }, 5, 1)) == nil)
    assert(result(end_of_turn({}, 6, 1)) == nil)
end)

test("16.4 the Coalition's 14.4 victory at the end of the same Turn comes first", function()
    local g = end_of_turn({ "cc_victory" }, 6, 1, function(game)
        put(game, "co_horn", "5420"); put(game, "co_gorchakov", "5929")   -- Paris and Bordeaux
    end)
    assert(result(g) and result(g):find("Coalition wins", 1, true), tostring(result(g)))
end)
