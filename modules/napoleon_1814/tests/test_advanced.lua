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

-- ---- 16.2: helpers ----------------------------------------------------------------------------

local function place(game, ctype, id, hex, face)
    game.create(ctype, { id = id or ctype, at = hex, face = face })
    return id or ctype
end

local function events_text(g) return table.concat(vt.events(g), "\n") end

local function logged(g, text)
    for _, e in ipairs(vt.events(g)) do
        if e:find(text, 1, true) then return true end
    end
    return false
end

local function expect(g, text)
    assert(logged(g, text), "expected an event containing '" .. text .. "' in:\n" .. events_text(g))
end

local function step(g) return vt.decision(g).step end
local function loc(g, id) return vt.with(g, function(game) return game.piece(id).loc end) end
local function face(g, id) return vt.with(g, function(game) return game.piece(id).face end) end

-- The Combat phase on Turn 7 (as test_combat.lua): arrange(game) places the pieces; the side
-- with more CCs attacks first (cc = {french, coalition}).
local function combat_game(options, dice, cc, arrange)
    local g = vt.new_game { setup = EMPTY, seed = 1, dice = dice, options = options }
    vt.edit(g, function(game)
        game.set_turn(7)
        game.set_var("cc_basic_french", tostring(cc[1]))
        game.set_var("cc_basic_coalition", tostring(cc[2]))
        arrange(game)
        game.set_phase("movement")
        game.set_var("phase_index", 4)
        game.set_var("alt_combat", { turn = "french", done_french = false, done_coalition = true })
        game.decide { role = "french", step = "combat.order", rule = "test", prompt = "test entry" }
    end)
    vt.apply(g, "french", "pass")
    return g
end

local function attack(g, role, from, to, calls)
    vt.apply(g, role, "attack " .. from .. " " .. to)
    if vt.has_action(g, role, "confirm") then vt.apply(g, role, "confirm") end   -- one unit: no choice
    vt.apply(g, role, "cc 0")
    for _, h in ipairs(calls or {}) do vt.apply(g, role, "call " .. h) end
    if step(g) == "combat.support" and vt.decision(g).role == role then vt.apply(g, role, "done") end
end

local CS = { "command_structure" }

-- French stack at 4920 attacks the Coalition stack at 4921 (clear, no river); dice: order 6,
-- FAV 1, FDV 1 (and the 11.15 die when there is a winner).
local function french_attack(options, french, coalition, dice)
    local g = combat_game(options, dice or { 6, 1, 1, 3 }, { 3, 1 }, function(game)
        for _, p in ipairs(french) do place(game, p, p, "4920") end
        for _, p in ipairs(coalition) do place(game, p, p, "4921") end
    end)
    attack(g, "french", "4920", "4921")
    return g
end

-- Coalition stack at 4921 attacks the French stack at 4920.
local function coalition_attack(options, coalition, french, dice)
    local g = combat_game(options, dice or { 6, 1, 1, 3 }, { 1, 3 }, function(game)
        for _, p in ipairs(coalition) do place(game, p, p, "4921") end
        for _, p in ipairs(french) do place(game, p, p, "4920") end
    end)
    attack(g, "coalition", "4921", "4920")
    return g
end

-- ---- 16.2: 11.5 / 11.7 the Commander Rating -----------------------------------------------------

test("16.2 11.5/11.7 the CR is that of the Commander who can command the most units of the stack", function()
    -- Victor (II, CR 1) commands Duhesme and Dufour, Macdonald (XI, CR 2) only Brayer: CR 1.
    -- Kleist (Prussian II Corps) commands neither Russian division he defends with: CR 0.
    local g = french_attack(CS, { "victor", "macdonald", "fr_duhesme", "fr_dufour", "fr_brayer" },
        { "kleist", "co_gorchakov", "co_eugen_w" })
    expect(g, "16.2: attack CR 1 (victor commands 2 unit(s)); defence CR 0 (kleist commands 0 unit(s))")
    expect(g, "attack value 3 (divisor 1), modified 3, with CR 4")
    expect(g, "defence value 2 (divisor 1), with CR 2")
    -- the basic rule: the highest CR, limited by the number of units
    local basic = french_attack({}, { "victor", "macdonald", "fr_duhesme", "fr_dufour", "fr_brayer" },
        { "kleist", "co_gorchakov", "co_eugen_w" })
    expect(basic, "modified 3, with CR 5")
    expect(basic, "defence value 2 (divisor 1), with CR 4")
end)

test("16.2 11.5 the CR is limited to the number of units the Commander can command", function()
    -- Marmont (VI, CR 2) commands Lagrange, not Brayer (XI): CR 1 (basic: 2)
    local g = french_attack(CS, { "marmont", "fr_lagrange", "fr_brayer" }, { "co_gorchakov" })
    expect(g, "attack CR 1 (marmont commands 1 unit(s))")
    expect(g, "modified 2, with CR 3")
end)

test("16.2 11.5 equal numbers of units: the most senior Commander's CR (S, A, I, C, W, K, Corps)", function()
    -- Ney (I: all the infantry of the Grande Armee, CR 2) and Victor (II Corps, CR 1) both command
    -- Duhesme and Dufour: Ney is senior
    local g = french_attack(CS, { "victor", "ney", "fr_duhesme", "fr_dufour" }, { "co_gorchakov" })
    expect(g, "attack CR 2 (ney commands 2 unit(s))")
end)

test("16.2 Guard units may be commanded by any designated Commander", function()
    -- Marmont (VI Corps) commands the Old Guard divisions of Friant and Christiani
    local g = french_attack(CS, { "marmont", "fr_friant", "fr_christiani" }, { "co_gorchakov" })
    expect(g, "attack CR 2 (marmont commands 2 unit(s))")
end)

test("16.2 a Cavalry Corps Commander alone: his CR is limited to the cavalry present, of his corps or not", function()
    -- Pajol (CR 1) with Exelmans (II Cavalry Corps) and Lagrange (infantry): 1 cavalry unit
    local g = french_attack(CS, { "pajol", "fr_exelmans", "fr_lagrange" }, { "co_gorchakov" })
    expect(g, "attack CR 1 (pajol commands 1 unit(s))")
    local none = french_attack(CS, { "pajol", "fr_lagrange", "fr_ricard" }, { "co_gorchakov" })
    expect(none, "attack CR 0 (pajol commands 0 unit(s))")
end)

test("16.2 11.5 a Cavalry Corps Commander alone with a supporting stack adds +1 only if it contains cavalry", function()
    -- dice: order 6, support test 6 (+ CR 1 = 7), FAV 1, FDV 1, 11.15
    local function run(unit)
        local g = combat_game(CS, { 6, 6, 1, 1, 3 }, { 3, 1 }, function(game)
            place(game, "ney", "ney", "4920"); place(game, "fr_duhesme", nil, "4920")
            place(game, "sebastiani", "sebastiani", "5021"); place(game, unit, unit, "5021")
            place(game, "co_gorchakov", nil, "4921")
        end)
        attack(g, "french", "4920", "4921", { "5021" })
        expect(g, "support from 5021")
        return g
    end
    local cav, inf = run("fr_exelmans"), run("fr_lagrange")
    local function support_value(g)
        for _, e in ipairs(vt.events(g)) do
            local v = e:match("supports %[5021 ([%+%-]%d+)%]")
            if v then return tonumber(v) end
        end
        error("no support value in:\n" .. events_text(g))
    end
    assert(support_value(cav) == support_value(inf) + 1,
        "cavalry: " .. support_value(cav) .. ", infantry: " .. support_value(inf))
end)

-- ---- 16.2: special characteristics in combat ------------------------------------------------------

test("16.2 Napoleon, senior Commander, gives +1 CF per unit in good order, at most +3, attacking or defending", function()
    local g = french_attack(CS, { "napoleon", "fr_friant", "fr_christiani", "fr_meunier", "fr_decouz" }, { "co_gorchakov" })
    expect(g, "attack CF +3 (napoleon, senior Commander)")
    expect(g, "attack value 7 (divisor 1)")            -- CF 4 + 3, one unit type
    local d = coalition_attack(CS, { "kleist", "co_zieten", "co_pirch2" }, { "napoleon", "fr_friant", "fr_christiani" })
    expect(d, "defence CF +2 (napoleon, senior Commander)")
    expect(d, "defence value 4 (divisor 1)")
    local basic = french_attack({}, { "napoleon", "fr_friant", "fr_christiani", "fr_meunier", "fr_decouz" }, { "co_gorchakov" })
    expect(basic, "attack value 4 (divisor 1)")
end)

test("16.2 Blucher attacking gives +1 CF per unit in good order, at most +2; not when defending", function()
    local g = coalition_attack(CS, { "blucher", "co_horn", "co_pr_william", "co_pirch1" }, { "fr_duhesme" })
    expect(g, "attack CF +2 (blucher, senior Commander)")
    expect(g, "attack value 5 (divisor 1)")
    local d = french_attack(CS, { "ney", "fr_duhesme" }, { "blucher", "co_horn", "co_pr_william" })
    assert(not logged(d, "defence CF"), events_text(d))
end)

test("16.2 special characteristics apply only to the senior Commander; equal seniority: the owner's choice", function()
    -- Schwarzenberg (S) outranks Blucher (A): no bonus
    local g = coalition_attack(CS, { "schwarzenberg", "blucher", "co_horn", "co_pr_william" }, { "fr_duhesme" })
    assert(not logged(g, "attack CF"), events_text(g))
    -- Wellington and Blucher are both A: the Coalition names Blucher
    local w = coalition_attack(CS, { "wellington", "blucher", "co_horn", "co_pr_william" }, { "fr_duhesme" })
    expect(w, "attack CF +2 (blucher, senior Commander)")
end)

test("16.2 Platov attacking gives +1 CF per Cossack unit in good order, at most +2", function()
    local g = coalition_attack(CS, { "platov", "co_platov_cos", "co_seslavin_cos", "co_gorchakov" }, { "fr_duhesme" })
    expect(g, "attack CF +2 (platov, senior Commander)")
    local one = coalition_attack(CS, { "platov", "co_platov_cos", "co_gorchakov" }, { "fr_duhesme" })
    expect(one, "attack CF +1 (platov, senior Commander)")
end)

-- ---- 16.2: Rally and Movement (7.3, 8.1, 8.2, 8.6) ---------------------------------------------------

-- The Movement phase on Turn `turn` (1 = Winter) with pieces { type, hex, id=, face= }; Supply
-- Trains face "train". The test ground 5621-6221 is clear, without rivers (test_movement.lua).
local function movement(options, turn, pieces, dice, vars)
    local g = vt.new_game { setup = EMPTY, seed = 1, dice = dice, options = options }
    vt.edit(g, function(game)
        game.set_turn(turn)
        for _, p in ipairs(pieces) do
            local id = game.create(p[1], { id = p.id or p[1], at = p[2], face = p.face, hidden = p.face == "train" })
            if p.bottom then game.move(id, p[2], 1) end
        end
        for k, v in pairs(vars or {}) do game.set_var(k, v) end
        game.decide { role = "french", step = "game.begin_phase", context = { phase = "movement" } }
    end)
    vt.apply(g, "french", "begin")
    return g
end
local function train(hex, id, side) return { (side or "french") .. "_supply", hex, id = id or "ft1", face = "train" } end

-- moves the stack at 5621 three hexes to 5921 (Winter: drm +1) and ends the move
local function march(g, role)
    vt.apply(g, role or "french", "move 5621")
    vt.apply(g, role or "french", "to 5921")
    vt.apply(g, role or "french", "end")
end

test("16.2 8.6 a stack accompanied throughout by Commanders able to command all its units: -1 march attrition", function()
    -- Winter, 3 hexes: +1; die 5: 6 (one unit eliminated) without the -1, 5 (no effect) with it
    local pieces = { { "marmont", "5621" }, { "fr_lagrange", "5621" }, { "fr_ricard", "5621" }, train("5621") }
    local g = movement(CS, 1, pieces, { 5 })
    march(g)
    expect(g, "16.2 march attrition drm -1: marmont commands the stack -1")
    assert(step(g) ~= "movement.attrition" and loc(g, "fr_ricard") == "5921", events_text(g))
    -- Brayer (XI Corps) is not Marmont's: no modifier
    local mixed = movement(CS, 1, { { "marmont", "5621" }, { "fr_lagrange", "5621" }, { "fr_brayer", "5621" }, train("5621") }, { 5 })
    march(mixed)
    assert(step(mixed) == "movement.attrition", events_text(mixed))
    -- without the advanced rule: no modifier either
    local basic = movement({}, 1, pieces, { 5 })
    march(basic)
    assert(step(basic) == "movement.attrition")
end)

test("16.2 8.6 the Commanders may share the command of the stack; one left behind does not count", function()
    -- Marmont (VI) and Macdonald (XI) together command Lagrange and Brayer
    local pieces = { { "marmont", "5621" }, { "macdonald", "5621" }, { "fr_lagrange", "5621" }, { "fr_brayer", "5621" }, train("5621") }
    local g = movement(CS, 1, pieces, { 5 })
    march(g)
    assert(step(g) ~= "movement.attrition", events_text(g))
    local left = movement(CS, 1, pieces, { 5 })
    vt.apply(left, "french", "move 5621")
    vt.apply(left, "french", "to 5721")
    vt.apply(left, "french", "drop macdonald")
    vt.apply(left, "french", "to 5921")
    vt.apply(left, "french", "end")
    assert(step(left) == "movement.attrition", "Macdonald did not accompany the whole move")
end)

test("16.2 8.6 Napoleon gives -2 (14.5's -1 no longer applies)", function()
    -- Winter, 3 hexes, die 6: 7 - 2 = 5, no effect (14.5 alone: 6, one unit lost)
    local pieces = { { "napoleon", "5621" }, { "fr_friant", "5621" }, { "fr_christiani", "5621" }, train("5621") }
    local g = movement(CS, 1, pieces, { 6 })
    march(g)
    expect(g, "napoleon commands the stack -2")
    assert(step(g) ~= "movement.attrition", events_text(g))
    local basic = movement({}, 1, pieces, { 6 })
    march(basic)
    assert(step(basic) == "movement.attrition")
end)

test("16.2 8.6 Blucher, senior Commander, gives a further -1 to any stack he accompanies", function()
    local co = function(list) local out = {}
        for _, t in ipairs(list) do out[#out + 1] = { t, "5621" } end
        out[#out + 1] = train("5621", "ct1", "coalition")
        return out
    end
    -- Blucher commands his Prussians: -1 -1; die 6: 7 - 2 = 5
    local g = movement(CS, 1, co { "blucher", "co_horn", "co_pr_william" }, { 6 })
    march(g, "coalition")
    expect(g, "16.2 march attrition drm -2: blucher commands the stack -1, blucher -1")
    assert(step(g) ~= "movement.attrition", events_text(g))
    -- a Russian division of the Army of Bohemia with him: his -1 only; die 6: 6, one lost
    local mixed = movement(CS, 1, co { "blucher", "co_horn", "co_gorchakov" }, { 6 })
    march(mixed, "coalition")
    expect(mixed, "16.2 march attrition drm -1: blucher -1")
    assert(step(mixed) == "movement.attrition", events_text(mixed))
end)

test("16.2 8.6 Murat does not confer the modifier", function()
    local pieces = { { "murat", "5621" }, { "co_nap_carascosa", "5621" }, { "co_nap_ambrosio", "5621" }, train("5621", "ct1", "coalition") }
    local g = movement(CS, 1, pieces, { 5 })
    march(g, "coalition")
    assert(step(g) == "movement.attrition", events_text(g))
end)

test("16.2 Constantine, senior Commander: a stack wishing to move rolls 1xd6, 1-2 = no move", function()
    local pieces = { { "constantine", "5621" }, { "co_ru_guard_inf", "5621" }, { "co_pr_guard", "5621" },
                     train("5621", "ct1", "coalition"), train("5621", "ct2", "coalition") }
    local g = movement(CS, 7, pieces, { 2, 3 })
    vt.apply(g, "coalition", "move 5621")
    expect(g, "16.2: constantine's stack at 5621 rolls 2: the move does not happen")
    assert(loc(g, "co_ru_guard_inf") == "5621" and loc(g, "constantine") == "5621")
    assert(step(g) == "movement.choose", step(g))
    assert((loc(g, "ct1") == "5621") ~= (loc(g, "ct2") == "5621"), "one Supply Train is spent")
    vt.apply(g, "coalition", "move 5621")
    expect(g, "rolls 3: it may move")
    vt.apply(g, "coalition", "to 5721")
    assert(loc(g, "co_pr_guard") == "5721")
    -- Barclay (W) outranks Constantine (Corps): no roll (the die 1 is never used)
    local b = movement(CS, 7, { { "barclay", "5621" }, { "constantine", "5621" }, { "co_ru_guard_inf", "5621" },
                               train("5621", "ct1", "coalition") }, { 1 })
    vt.apply(b, "coalition", "move 5621")
    assert(not logged(b, "16.2: constantine"), events_text(b))
    assert(step(b) == "movement.stack")
end)

test("16.2 Victor, senior Commander: a move fails on 1-2; not without the advanced rule", function()
    local pieces = { { "victor", "5621" }, { "fr_duhesme", "5621" }, train("5621") }
    local g = movement(CS, 7, pieces, { 1 })
    vt.apply(g, "french", "move 5621")
    expect(g, "16.2: victor's stack at 5621 rolls 1: the move does not happen")
    assert(loc(g, "fr_duhesme") == "5621")
    local basic = movement({}, 7, pieces, { 1 })
    vt.apply(basic, "french", "move 5621")
    assert(step(basic) == "movement.stack")
end)

test("16.2 8.2 a stack moves only with a Commander able to command one of its moving units", function()
    local pieces = { { "macdonald", "5621" }, { "fr_lagrange", "5621" }, train("5621") }
    local g = movement(CS, 7, pieces)
    assert(not vt.has_action(g, "french", "move 5621"))
    assert(vt.has_action(movement({}, 7, pieces), "french", "move 5621"), "the basic rule")
    -- Marmont commands Lagrange, not Brayer: Lagrange may not be left behind alone with Brayer going
    local m = movement(CS, 7, { { "marmont", "5621" }, { "fr_lagrange", "5621" }, { "fr_brayer", "5621" }, train("5621") })
    vt.apply(m, "french", "move 5621")
    assert(not vt.has_action(m, "french", "leave fr_lagrange"))
    assert(vt.has_action(m, "french", "leave fr_brayer"))
end)

test("16.2 8.2 a Cavalry Corps Commander alone moves a stack only if all its units are cavalry", function()
    local cav = movement(CS, 7, { { "pajol", "5621" }, { "fr_exelmans", "5621" }, { "fr_doumerc", "5621" }, train("5621") })
    assert(vt.has_action(cav, "french", "move 5621"), "cavalry of other corps")
    local mixed = movement(CS, 7, { { "pajol", "5621" }, { "fr_pajol_cav", "5621" }, { "fr_lagrange", "5621" }, train("5621") })
    assert(not vt.has_action(mixed, "french", "move 5621"))
end)

test("16.2 8.1 a rally needs a Commander able to command a unit of the stack", function()
    local pieces = function(cmd) return { { "french_supply", "5621", id = "fdepot", face = "depot", bottom = true },
        { cmd, "5621" }, { "fr_lagrange", "5621", face = "disrupted" }, train("5621") } end
    assert(step(movement(CS, 7, pieces("macdonald"))) ~= "movement.rally")
    local g = movement(CS, 7, pieces("marmont"))
    assert(step(g) == "movement.rally")
    vt.apply(g, "french", "rally 5621")
    assert(face(g, "fr_lagrange") == "ready")
end)

test("16.2 / 15.2 overstacking with a Supply Train needs a Commander able to command a unit of the stack (7.3)", function()
    local pieces = function(cmd) return { { cmd, "5621" }, { "fr_lagrange", "5621" }, train("5621") } end
    assert(not vt.has_action(movement({ "command_structure", "overstacking" }, 7, pieces("macdonald")), "french", "overstack ft1"))
    assert(vt.has_action(movement({ "command_structure", "overstacking" }, 7, pieces("marmont")), "french", "overstack ft1"))
    assert(vt.has_action(movement({ "overstacking" }, 7, pieces("macdonald")), "french", "overstack ft1"), "basic 7.3")
end)

-- ---- 16.2: 7.3 allocation -------------------------------------------------------------------------

test("16.2 7.3 a Supply Train goes only to a stack with a Commander able to command one of its units", function()
    local function targets(fn)
        local g = new(CS)
        start(g, 2, "active_supply", function(game)
            game.set_track("french_supply_trains", 3)
            game.set_track("coalition_supply_trains", 0)
            local id = game.create("french_supply", { at = "5024", face = "depot" })   -- Chalon
            game.move(id, "5024", 1)
            fn(game)
        end)
        if vt.has_action(g, "french", "pass") and step(g) == "supply.convert" then vt.apply(g, "french", "pass") end
        return g
    end
    local g = targets(function(game)
        put(game, "macdonald", "5024"); put(game, "fr_lagrange", "5024")   -- XI cannot command VI
        put(game, "marmont", "5025"); put(game, "fr_ricard", "5025")       -- VI commands VI
    end)
    assert(not vt.has_action(g, "french", "allocate 5024"))
    assert(vt.has_action(g, "french", "allocate 5025"))
    -- a Cavalry Corps Commander alone: only for a stack of cavalry
    local cav = targets(function(game) put(game, "pajol", "5025"); put(game, "fr_exelmans", "5025") end)
    assert(vt.has_action(cav, "french", "allocate 5025"))
    local mixed = targets(function(game)
        put(game, "pajol", "5025"); put(game, "fr_exelmans", "5025"); put(game, "fr_ricard", "5025")
    end)
    assert(not vt.has_action(mixed, "french", "allocate 5025"))
end)

-- ---- 16.3 Murat ------------------------------------------------------------------------------------
-- Milan 4227 (Coalition-friendly, Kingdom of Italy) is next to Como 4226, 4228 (river), the city
-- 4328 and 4327. The variable neutral_pieces lists the Neapolitan pieces, neutral until
-- "murat_joined", as the setup does under the option murat_neutral; REC 9 (16.1) sets it.

local MS = { "murat_neutral" }
local NAPLES = { "murat", "co_nap_guard", "co_nap_carascosa", "co_nap_ambrosio", "co_nap_cav" }

local function mark_neutral(game)
    local reg = {}
    for _, t in ipairs(NAPLES) do reg[t] = "murat_joined" end
    game.set_var("neutral_pieces", reg)
end

local function neapolitans(game, hex)
    for _, t in ipairs(NAPLES) do game.create(t, { id = t, at = hex }) end
    mark_neutral(game)
end

local function join(g) vt.edit(g, function(game) game.set_var("murat_joined", true) end) end

test("16.3 with the advanced rule the setup makes Murat's army neutral until murat_joined (REC 9)", function()
    local function listed(g, id)
        return vt.with(g, function(game) return (game.var("neutral_pieces") or {})[id] end)
    end
    local g = vt.new_game { scenario = "campaign", options = MS }
    assert(listed(g, "co_nap_guard") == "murat_joined" and listed(g, "murat") == "murat_joined")
    assert(listed(g, "co_nap_cav") == "murat_joined")
    assert(listed(g, "co_horn") == nil)
    assert(listed(vt.new_game { scenario = "campaign" }, "murat") == nil)
end)

test("16.3 the Neapolitan army is deployed at 4227 on Turn 7 (14.11) and stays there while neutral", function()
    local g = new(MS)
    start(g, 7, "reinforcements", function(game)
        mark_neutral(game)
        for _, t in ipairs(NAPLES) do
            game.create(t, { id = t })
            game.set_prop(t, "arrive_turn", 7)
            game.set_prop(t, "arrive_at", "4227")
        end
    end)
    for _, t in ipairs(NAPLES) do vt.apply(g, "coalition", "place " .. t) end
    assert(loc(g, "co_nap_cav") == "4227" and loc(g, "murat") == "4227")
    -- the next Turn's Movement phase: a Supply Train on the army, which may not move
    local m = movement(MS, 8, { train("4227", "ct1", "coalition") })
    vt.edit(m, function(game) neapolitans(game, "4227") end)
    vt.edit(m, function(game) game.decide { role = "french", step = "game.begin_phase", context = { phase = "movement" } } end)
    vt.apply(m, "french", "begin")
    assert(not vt.has_action(m, "coalition", "move 4227"), "neutral: cannot move")
    join(m)
    assert(vt.has_action(m, "coalition", "move 4227"), "after REC 9 it moves as a Coalition force")
end)

test("16.3 no unit of either side may enter 4227 while the army is neutral", function()
    local pieces = { { "ney", "4328" }, { "fr_duhesme", "4328" }, { "fr_dufour", "4328" }, train("4328") }
    local g = movement(MS, 8, pieces)
    vt.edit(g, function(game) neapolitans(game, "4227") end)
    vt.apply(g, "french", "move 4328")
    assert(not vt.has_action(g, "french", "to 4227"))
    local co = movement(MS, 8, { { "bubna", "4327" }, { "co_bubna_inf", "4327" }, train("4327", "ct1", "coalition") })
    vt.edit(co, function(game) neapolitans(game, "4227") end)
    vt.apply(co, "coalition", "move 4327")
    assert(not vt.has_action(co, "coalition", "to 4227"))
    assert(vt.has_action(co, "coalition", "to 4328"))
end)

test("16.3 the neutral army is nobody's enemy: no siege, no cavalry screen; after REC 9 it is the Coalition's", function()
    -- a single French unit in the city 4328 next to the four Neapolitan units
    local function siege(joined)
        local g = movement(MS, 8, { { "ney", "4328" }, { "fr_duhesme", "4328" }, train("4328") })
        vt.edit(g, function(game) neapolitans(game, "4227"); if joined then game.set_var("murat_joined", true) end end)
        return vt.has_action(g, "french", "move 4328")
    end
    assert(siege(false), "not under siege by a neutral army")
    assert(not siege(true), "under siege (8.4) once the Neapolitans are Coalition")
    -- the Neapolitan cavalry does not stop a French stack passing next to Milan (8.4 bp6, bp7)
    local function passing(joined)
        local g = movement(MS, 8, { { "ney", "4328" }, { "fr_duhesme", "4328" }, { "fr_dufour", "4328" }, train("4328") })
        vt.edit(g, function(game) neapolitans(game, "4227"); if joined then game.set_var("murat_joined", true) end end)
        vt.apply(g, "french", "move 4328")
        vt.apply(g, "french", "to 4327")
        return step(g) == "movement.stack"
    end
    assert(passing(false), "the move goes on from 4327")
    assert(not passing(true), "enemy cavalry next to 4327 ends the move there")
end)

test("16.3 the neutral army neither attacks nor is attacked", function()
    local function arrange(game)
        neapolitans(game, "4227")
        place(game, "ney", nil, "4328"); place(game, "fr_duhesme", nil, "4328"); place(game, "fr_dufour", nil, "4328")
    end
    local g = combat_game(MS, nil, { 3, 1 }, arrange)
    assert(not vt.has_action(g, "french", "attack 4328 4227"))
    local c = combat_game(MS, nil, { 1, 3 }, arrange)
    assert(not vt.has_action(c, "coalition", "attack 4227 4328"))
    local joined = combat_game(MS, nil, { 1, 3 }, function(game) arrange(game); game.set_var("murat_joined", true) end)
    assert(vt.has_action(joined, "coalition", "attack 4227 4328"))
end)

test("16.3 no supply line of either side enters 4227 while the army is neutral", function()
    -- A Coalition unit at 4328 traces to the depot at Como 4226 through Milan or 4327; a French
    -- unit holds 4327. Through a neutral Milan the route is closed: out of supply, disrupted (6.4).
    local function supplied(joined)
        local g = new(MS)
        start(g, 8, "general_supply", function(game)
            local id = game.create("coalition_supply", { at = "4226", face = "depot" })
            game.move(id, "4226", 1)
            put(game, "co_horn", "4328")
            put(game, "fr_duhesme", "4327")
            neapolitans(game, "4227")
            if joined then game.set_var("murat_joined", true) end
        end)
        return face(g, "co_horn") == "ready"
    end
    assert(not supplied(false), "the route through the neutral hex is closed")
    assert(supplied(true), "after REC 9 Milan holds a friendly stack")
end)

test("16.3 Commanders may not enter 4227 while the army is neutral (12.1)", function()
    local g = new(MS)
    start(g, 8, "commanders", function(game)
        neapolitans(game, "4227")
        put(game, "bubna", "4327"); put(game, "co_bubna_inf", "4327")
    end)
    assert(not vt.has_action(g, "coalition", "move bubna 4227"))
    assert(not vt.has_action(g, "coalition", "move murat 4328"), "Murat may not leave while neutral")
    join(g)
    assert(vt.has_action(g, "coalition", "move murat 4328"), "4328, an empty Coalition-friendly city")
    assert(not vt.has_action(g, "coalition", "move bubna 4227"), "14.11: no stacking with the Neapolitans")
end)

test("14.11 / 16.3 after REC 9 the Neapolitans may not stack with other Coalition units", function()
    local g = movement(MS, 8, { { "bubna", "4327" }, { "co_bubna_inf", "4327" }, train("4327", "ct1", "coalition") })
    vt.edit(g, function(game) neapolitans(game, "4227"); game.set_var("murat_joined", true) end)
    vt.apply(g, "coalition", "move 4327")
    assert(not vt.has_action(g, "coalition", "to 4227"))
    local n = movement(MS, 8, { { "bubna", "4328" }, { "co_bubna_inf", "4328" }, train("4227", "ct1", "coalition") })
    vt.edit(n, function(game) neapolitans(game, "4227"); game.set_var("murat_joined", true) end)
    vt.apply(n, "coalition", "move 4227")
    assert(not vt.has_action(n, "coalition", "to 4328"))
    assert(vt.has_action(n, "coalition", "to 4327"))
    -- the basic game (14.11): the same ban, the army never neutral
    local b = movement({}, 8, { { "bubna", "4327" }, { "co_bubna_inf", "4327" }, train("4327", "ct1", "coalition") })
    vt.edit(b, function(game) for _, t in ipairs(NAPLES) do game.create(t, { id = t, at = "4227" }) end end)
    vt.apply(b, "coalition", "move 4327")
    assert(not vt.has_action(b, "coalition", "to 4227"))
    assert(vt.has_action(b, "coalition", "to 4328"))
end)

test("16.2 with 16.1 REC 20: Blucher ill has a CR of 0 and none of his special characteristics this Turn", function()
    local g = combat_game(CS, { 6, 1, 1, 3 }, { 1, 3 }, function(game)
        for _, p in ipairs { "blucher", "co_horn", "co_pr_william", "co_pirch1" } do place(game, p, p, "4921") end
        place(game, "fr_duhesme", "fr_duhesme", "4920")
        game.set_prop("blucher", "cr_zero_turn", 7)       -- what REC 20 sets (cnw.cards)
    end)
    vt.apply(g, "coalition", "attack 4921 4920")
    if vt.has_action(g, "coalition", "confirm") then vt.apply(g, "coalition", "confirm") end
    vt.apply(g, "coalition", "cc 1")                    -- order: die 6 + CR 0 + 1 CC = 7
    if step(g) == "combat.support" and vt.decision(g).role == "coalition" then vt.apply(g, "coalition", "done") end
    assert(not logged(g, "attack CF +"), "no +1 CF per unit:\n" .. events_text(g))
    expect(g, "die 6 + CR 0 + 1 CC")
    expect(g, "attack value 3 (divisor 1)")            -- CF 3, not 5 as when he is well
end)

test("16.2 / 14.9 a veteran unit from Spain is transferred to the French Commander it joins", function()
    -- Foy (Soult's army, d'Erlon's wing) transferred to Marmont (VI Corps): Marmont commands it;
    -- without the transfer he would not (CR 0 for Foy alone)
    local function cr(transferred)
        local g = combat_game(CS, { 6, 1, 1, 3 }, { 3, 1 }, function(game)
            place(game, "marmont", nil, "4920"); place(game, "fr_foy", nil, "4920")
            if transferred then game.set_prop("fr_foy", "transferred_to", "marmont") end
            place(game, "co_gorchakov", nil, "4921")
        end)
        attack(g, "french", "4920", "4921")
        return g
    end
    expect(cr(true), "attack CR 1 (marmont commands 1 unit(s))")
    expect(cr(false), "attack CR 0 (marmont commands 0 unit(s))")
end)
