-- Rule 13 (Cossacks and Reinforcements), the start of the Turn (Set Up Card schedule), and the
-- scenario rules 14.3, 14.11, 14.12 and 14.13 that act in these phases.

local EMPTY = "tests/setups/empty.xml"

local function new(dice) return vt.new_game { setup = EMPTY, dice = dice } end

local function put(game, type, hex, face)
    return game.create(type, { id = type, at = hex, face = face })
end

-- A reinforcement off the board: arrives in the Reinforcement Phase of `turn` at `hex`.
local function due(game, type, turn, hex, repeat_)
    local id = game.create(type, { id = type })
    game.set_prop(id, "arrive_turn", turn)
    game.set_prop(id, "arrive_at", hex)
    if repeat_ then game.set_prop(id, "arrive_repeat", true) end
    return id
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
local function track(g, id) return vt.with(g, function(game) return game.track(id) end) end

local function cards(game, french, coalition)
    game.set_var("supply_trains_french", french)
    game.set_var("supply_trains_coalition", coalition)
end

-- ---- 13.2 - 13.4 ----------------------------------------------------------------------------

test("13.2 reinforcements are placed at their hex in the Reinforcement Phase of their Turn", function()
    local g = new()
    start(g, 3, "reinforcements", function(game)
        due(game, "fr_barrois", 3, "5420")
        due(game, "fr_curial", 4, "5420")
    end)
    local d = vt.decision(g)
    assert(d.role == "french" and d.step == "reinforcements.place" and d.rule == "13.2")
    assert(vt.has_action(g, "french", "place fr_barrois"))
    assert(not vt.has_action(g, "french", "place fr_curial"), "due on Turn 4")
    vt.apply(g, "french", "place fr_barrois")
    assert(loc(g, "fr_barrois") == "5420")
    assert(loc(g, "fr_curial") == nil)
    assert(vt.decision(g).step ~= "reinforcements.place")
end)

test("13.2 the side with more Supply Trains on its Set Up Card places its reinforcements first", function()
    local g = new()
    start(g, 7, "reinforcements", function(game)
        cards(game, "9 9 9 10 10 10 9 9 8 8 8 8", "8 8 9 10 10 10 11 11 12 12 12 12")
        due(game, "fr_barrois", 7, "5420")
        due(game, "co_zieten", 7, "4219")
    end)
    assert(vt.decision(g).role == "coalition")
    vt.apply(g, "coalition", "place co_zieten")
    assert(vt.decision(g).role == "french")
    vt.apply(g, "french", "place fr_barrois")
end)

test("13.3 no reinforcement next to an enemy stack unless a river separates them; 13.4 French ones that cannot be placed are lost", function()
    local g = new()
    start(g, 3, "reinforcements", function(game)
        due(game, "fr_barrois", 3, "5024")     -- Chalon: a Coalition unit next to it
        due(game, "fr_curial", 3, "5122")      -- Troyes: the Coalition unit is across a river
        put(game, "co_horn", "5025")
        put(game, "co_gorchakov", "5022")
    end)
    assert(not vt.has_action(g, "french", "place fr_barrois"))
    assert(not vt.has_action(g, "french", "done"), "French reinforcements may not be held back")
    vt.apply(g, "french", "place fr_curial")
    assert(loc(g, "fr_curial") == "5122")
    assert(loc(g, "fr_barrois") == "box:eliminated")
end)

test("13.3 no reinforcement on an enemy stack or beyond the stacking limit (4.1)", function()
    local g = new()
    start(g, 3, "reinforcements", function(game)
        due(game, "fr_barrois", 3, "5420")
        due(game, "fr_curial", 3, "5024")
        put(game, "fr_rottembourg", "5420"); put(game, "fr_charpentier", "5420"); put(game, "fr_dufour", "5420")  -- 6 OF
        put(game, "co_horn", "5024")
    end)
    assert(loc(g, "fr_barrois") == "box:eliminated")
    assert(loc(g, "fr_curial") == "box:eliminated")
end)

test("13.3 / 15.2 a reinforcement may join a stack up to the capacity its hex has under 15.2 overstacking", function()
    local g = vt.new_game { setup = EMPTY, options = { "overstacking" } }
    start(g, 3, "reinforcements", function(game)
        due(game, "fr_barrois", 3, "5420")
        put(game, "fr_rottembourg", "5420"); put(game, "fr_charpentier", "5420"); put(game, "fr_dufour", "5420")  -- 6 OF
        -- a Supply Train allocated to the stack this Turn (15.2): capacity 9 OF
        game.set_var("overstack", { { hex = "5420", side = "french", turn = 3 } })
    end)
    assert(vt.has_action(g, "french", "place fr_barrois"), "6 + OF of Barrois <= 9")
    vt.apply(g, "french", "place fr_barrois")
    assert(loc(g, "fr_barrois") == "5420")
end)

test("13.4 Coalition reinforcements that cannot be placed wait, and the Coalition may hold them back", function()
    local g = new()
    start(g, 3, "reinforcements", function(game)
        cards(game, "9 9 9 9 9 9 9 9 9 9 9 9", "8 8 8 8 8 8 8 8 8 8 8 8")
        due(game, "co_zieten", 3, "4219")
        due(game, "co_pirch2", 3, "4521")       -- a French unit next to Strasbourg
        put(game, "fr_meunier", "4520")
    end)
    assert(vt.decision(g).role == "coalition")
    assert(not vt.has_action(g, "coalition", "place co_pirch2"))
    assert(vt.has_action(g, "coalition", "done"))
    vt.apply(g, "coalition", "done")            -- holds co_zieten back
    assert(loc(g, "co_zieten") == nil and loc(g, "co_pirch2") == nil)
    -- at the end of the next Turn both are offered again
    vt.edit(g, function(game)
        game.remove("fr_meunier")
        game.set_turn(4)
        game.decide { role = "french", step = "game.begin_phase", context = { phase = "reinforcements" } }
    end)
    vt.apply(g, "french", "begin")
    assert(vt.has_action(g, "coalition", "place co_zieten") and vt.has_action(g, "coalition", "place co_pirch2"))
end)

-- ---- 13.1 -----------------------------------------------------------------------------------

test("13.1 from Turn 4 a 6 for a city held by Cossacks gives the French one CC and takes one from the Coalition", function()
    local g = new { 6, 3 }
    start(g, 4, "reinforcements", function(game)
        put(game, "co_platov_cos", "5024")      -- Chalon
        put(game, "co_karpov_cos", "5322")      -- Sens
        put(game, "co_seslavin_cos", "5025")    -- not a city: no roll
        game.set_track("french_cc_basic", 4)
        game.set_track("coalition_cc_basic", 4)
    end)
    assert(track(g, "french_cc_basic") == 5 and track(g, "coalition_cc_basic") == 3)
end)

test("13.1 no Cossack roll before Turn 4, and CCs stay within 1..6 (9.2)", function()
    local g = new { 6 }
    start(g, 3, "reinforcements", function(game)
        put(game, "co_platov_cos", "5024")
        game.set_track("french_cc_basic", 3)
    end)
    assert(track(g, "french_cc_basic") == 3)
    local g2 = new { 6 }
    start(g2, 5, "reinforcements", function(game)
        put(game, "co_platov_cos", "5024")
        game.set_track("french_cc_basic", 6)
        game.set_track("coalition_cc_basic", 1)
    end)
    assert(track(g2, "french_cc_basic") == 6 and track(g2, "coalition_cc_basic") == 1)
end)

-- ---- the start of the Turn ------------------------------------------------------------------

test("7.2 / 8.8 each Turn starts with the Set Up Card's Supply Trains less the depots lost", function()
    local g = new()
    start(g, 4, "start", function(game)
        cards(game, "9 9 9 10 10 10 9 9 8 8 8 8", "8 8 9 10 10 10 11 11 12 12 12 12")
        game.set_track("coalition_depots_lost", 2)
    end)
    assert(track(g, "french_supply_trains") == 10 and track(g, "coalition_supply_trains") == 8)
end)

test("14.1 / 9.2 the Set Up Card raises the French basic CCs on Turn 4, on top of earlier gains", function()
    local g = new()
    start(g, 4, "start", function(game)
        game.set_var("cc_basic_french", "3 3 3 4 4 4 4 4 4 4 4 4")
        game.set_track("french_cc_basic", 4)    -- 3 + one decisive victory
    end)
    assert(track(g, "french_cc_basic") == 5)
end)

-- ---- 14.3, 14.11 - 14.13 --------------------------------------------------------------------

test("14.13 the B.A.C. enters at Vliessingen next to the enemy, but not while an enemy unit holds the city", function()
    local g = new()
    start(g, 2, "reinforcements", function(game)
        due(game, "graham", 1, "5214", true)
        due(game, "co_bac1", 1, "5214", true)
        put(game, "fr_g_bergen", "5114")   -- Bergen-op-Zoom, next to Vliessingen
    end)
    assert(vt.has_action(g, "coalition", "place co_bac1"))
    local g2 = new()
    start(g2, 2, "reinforcements", function(game)
        due(game, "co_bac1", 1, "5214", true)
        put(game, "fr_meunier", "5214")
    end)
    assert(not vt.has_action(g2, "coalition", "place co_bac1"))
    assert(loc(g2, "co_bac1") == nil, "it waits for a later Turn")
end)

test("14.11 Murat's Neapolitans may not be held back and never arrive if other Coalition units hold 4227", function()
    local g = new()
    start(g, 7, "reinforcements", function(game)
        due(game, "co_nap_guard", 7, "4227")
    end)
    assert(vt.has_action(g, "coalition", "place co_nap_guard"))
    assert(not vt.has_action(g, "coalition", "done"))
    local g2 = new()
    start(g2, 7, "reinforcements", function(game)
        due(game, "co_nap_guard", 7, "4227")
        put(game, "co_horn", "4227")
    end)
    assert(loc(g2, "co_nap_guard") == "box:eliminated")
end)

test("14.12 Bernadotte's Swedes west of the Rhine end the game after Turn 10", function()
    local g = new()
    start(g, 10, "reinforcements", function(game) put(game, "co_sw1", "4521") end)
    assert(vt.with(g, function(game) return game.var("bernadotte_crossed") end) == true)
    assert(vt.decision(g).result ~= nil, "the game is over")
    local g2 = new()
    start(g2, 10, "reinforcements", function(game) put(game, "co_sw1", "4219") end)
    assert(vt.with(g2, function(game) return game.var("bernadotte_crossed") end) ~= true)
    assert(vt.decision(g2).result == nil)
end)

test("14.3 the game ends after Turn 12", function()
    local g = new()
    start(g, 12, "reinforcements", function(game) end)
    assert(vt.decision(g).result ~= nil)
    local g2 = new()
    start(g2, 11, "reinforcements", function(game) end)
    assert(vt.decision(g2).result == nil)
end)
