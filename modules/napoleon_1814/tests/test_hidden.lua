-- Optional rule 15.1 Hidden Forces (rules/hidden.lua; the stack's units in cnw.core, hidden moves
-- in cnw.movement), on small positions of the empty board with the option hidden_forces.
-- The test ground is test_movement.lua's: 5621-5721-...-6221 is a row of clear hexes.

local function eq(actual, expected, what)
    if actual ~= expected then
        error(string.format("%s: expected %s, got %s", what, tostring(expected), tostring(actual)), 2)
    end
end

local function loc(g, id) return vt.with(g, function(game) return game.piece(id).loc end) end
local function face(g, id) return vt.with(g, function(game) return game.piece(id).face end) end
local function step(g) return vt.decision(g).step end
local function events(g) return table.concat(vt.events(g), "\n") end

local EQUAL_TRAINS = { supply_trains_french = "4 4 4 4 4 4 4 4 4 4 4 4",
                       supply_trains_coalition = "4 4 4 4 4 4 4 4 4 4 4 4" }

-- opts: pieces = { {type, hex, id=, face=, hidden=, box=marker id, props=} } (box: in that
-- marker's box, the marker being placed at hex), phase, turn, dice, vars, options.
-- The sixteen markers, off the board as in the campaign's set-up.
local function markers(game)
    for _, side in ipairs { "french", "coalition" } do
        for i = 1, 8 do game.create(side .. "_hidden_" .. i, { id = side .. "_hidden_" .. i }) end
    end
end

local function new(opts)
    local g = vt.new_game { setup = "tests/setups/empty.xml", seed = 1, dice = opts.dice,
                            options = opts.options or { "hidden_forces" } }
    vt.edit(g, function(game)
        game.set_turn(opts.turn or 1)
        markers(game)
        for _, p in ipairs(opts.pieces or {}) do
            local at = p[2]
            if p.box then
                if game.piece(p.box).loc ~= p[2] then game.move(p.box, p[2]) end
                at = "box:" .. p.box
            end
            local id = game.create(p[1], { id = p.id or p[1], at = at, face = p.face, hidden = p.hidden })
            for k, v in pairs(p.props or {}) do game.set_prop(id, k, v) end
        end
        for k, v in pairs(EQUAL_TRAINS) do game.set_var(k, v) end
        for k, v in pairs(opts.vars or {}) do game.set_var(k, v) end
        game.decide { role = "french", step = "game.begin_phase", context = { phase = opts.phase or "movement" } }
    end)
    vt.apply(g, "french", "begin")
    return g
end

local function train(hex, id) return { "french_supply", hex, id = id or "ft1", face = "train", hidden = true } end
local function ctrain(hex, id) return { "coalition_supply", hex, id = id or "ct1", face = "train", hidden = true } end

-- ---- the Reinforcement Phase ------------------------------------------------------------------

test("15.1 in the Reinforcement Phase units of a stack of 2+ combat units go into a box; the marker replaces them; one stays on the map", function()
    local g = new { phase = "reinforcements",
                    pieces = { { "ney", "5621" }, { "fr_friant", "5621" }, { "fr_meunier", "5621" }, { "fr_decouz", "5621" } } }
    eq(step(g), "hidden.arrange", "the hidden forces decision")
    eq(vt.decision(g).role, "french", "French first (equal Set Up Card trains, 13.2)")
    eq(vt.has_action(g, "french", "hide fr_friant"), true, "a unit may be hidden")
    eq(vt.has_action(g, "french", "hide ney"), false, "commanders stay on the map")
    vt.apply(g, "french", "hide fr_friant")
    eq(loc(g, "fr_friant"), "box:french_hidden_1", "in box 1")
    eq(loc(g, "french_hidden_1"), "5621", "marker 1 on the map")
    vt.apply(g, "french", "hide fr_meunier")
    eq(loc(g, "fr_meunier"), "box:french_hidden_1", "the same stack uses the same box")
    eq(vt.has_action(g, "french", "hide fr_decouz"), false, "at least one combat unit stays on the map")
    vt.apply(g, "french", "done")
    eq(vt.decision(g).role, "coalition", "then the Coalition")
    vt.apply(g, "coalition", "done")
    eq(vt.decision(g).step ~= "hidden.arrange", true, "the phase is over")
end)

test("15.1 only units already on the map before the phase count and may be hidden; a lone unit may not", function()
    local g = new { phase = "reinforcements",
                    pieces = { { "fr_friant", "5621" }, { "fr_meunier", "5621", props = { arrived_turn = 1 } },
                               { "fr_decouz", "5921" } } }
    eq(vt.has_action(g, "french", "hide fr_friant"), false, "one unit from before the phase is not enough")
    eq(vt.has_action(g, "french", "hide fr_meunier"), false, "a reinforcement of this phase")
    eq(vt.has_action(g, "french", "hide fr_decouz"), false, "a stack of one")
    local g2 = new { phase = "reinforcements",
                     pieces = { { "fr_friant", "5621" }, { "fr_meunier", "5621", props = { arrived_turn = 1 } },
                                { "fr_decouz", "5621" } } }
    eq(vt.has_action(g2, "french", "hide fr_friant"), true, "two units from before")
    eq(vt.has_action(g2, "french", "hide fr_meunier"), false, "the newcomer stays on the map")
end)

test("15.1 the option off: no hidden forces decision", function()
    local g = new { phase = "reinforcements", options = {},
                    pieces = { { "fr_friant", "5621" }, { "fr_meunier", "5621" } } }
    eq(step(g) ~= "hidden.arrange", true, "no decision")
end)

test("15.1 hidden units may come back onto the map in the Reinforcement Phase; an empty box frees its marker", function()
    local g = new { phase = "reinforcements",
                    pieces = { { "fr_friant", "5621" }, { "fr_meunier", "5621", box = "french_hidden_3" } } }
    eq(vt.has_action(g, "french", "redeploy fr_meunier"), true, "listed")
    vt.apply(g, "french", "redeploy fr_meunier")
    eq(loc(g, "fr_meunier"), "5621", "back on the map")
    eq(loc(g, "french_hidden_3"), nil, "the marker is free again")
end)

test("15.1 no more than eight stacks in boxes", function()
    local pieces = {}
    local hexes = { "5621", "5721", "5821", "5921", "6021", "6121", "6221", "5623", "5823" }
    local inf = { "fr_friant", "fr_meunier", "fr_decouz", "fr_rottembourg", "fr_charpentier", "fr_barrois" }
    local n = 0
    for i, h in ipairs(hexes) do
        n = n + 1
        pieces[#pieces + 1] = { "fr_friant", h, id = "a" .. i }
        pieces[#pieces + 1] = { "fr_meunier", h, id = "b" .. i }
    end
    local g = new { phase = "reinforcements", pieces = pieces }
    for i = 1, 8 do vt.apply(g, "french", "hide a" .. i) end
    eq(loc(g, "french_hidden_8"), hexes[8], "the eighth marker")
    eq(vt.has_action(g, "french", "hide a9"), false, "no ninth box")
    eq(vt.has_action(g, "french", "hide b9"), false, "no ninth box")
end)

-- ---- "as if on the map" --------------------------------------------------------------------------

test("15.1 hidden units count for stacking (4.1)", function()
    -- 5721: 1 + 1.5 OF on the map and 3 OF hidden = 5.5 OF; fr_meunier (1.5 OF) may not join
    local g = new { pieces = { { "ney", "5621" }, { "fr_meunier", "5621" }, train("5621"),
                               { "fr_friant", "5721" }, { "fr_decouz", "5721" },
                               { "fr_barrois", "5721", box = "french_hidden_1" }, { "fr_rottembourg", "5721", box = "french_hidden_1" } } }
    vt.apply(g, "french", "move 5621")
    eq(vt.has_action(g, "french", "to 5721"), false, "over 6 OF with the hidden units")
    eq(vt.has_action(g, "french", "to 5821"), true, "it may go round")
end)

test("15.1 hidden units out of supply suffer attrition in their box (6.4)", function()
    -- no depot, no source: every French unit is out of General Supply
    local g = new { phase = "general_supply",
                    pieces = { { "fr_friant", "5621" }, { "fr_meunier", "5621", box = "french_hidden_1" } } }
    eq(face(g, "fr_meunier"), "disrupted", "disrupted in its box")
    eq(loc(g, "fr_meunier"), "box:french_hidden_1", "still hidden")
end)

test("15.1 a box whose stack has no combat unit left on the map comes out onto the map", function()
    -- fr_meunier (line, disrupted) is eliminated out of supply in Winter (6.4); fr_friant (veteran)
    -- in the box is only disrupted and must come out: one combat unit of a stack stays on the map
    local g = new { phase = "general_supply",
                    pieces = { { "fr_meunier", "5621", face = "disrupted" }, { "fr_friant", "5621", box = "french_hidden_1" } } }
    eq(loc(g, "fr_meunier"), "box:eliminated", "eliminated (6.4)")
    eq(loc(g, "fr_friant"), "5621", "the hidden unit is on the map")
    eq(loc(g, "french_hidden_1"), nil, "the marker is gone")
end)

-- ---- movement ------------------------------------------------------------------------------------

test("15.1 a whole stack moving carries its hidden force: the marker moves, the box is unchanged", function()
    local g = new { pieces = { { "ney", "5621" }, { "fr_friant", "5621" }, train("5621"),
                               { "fr_meunier", "5621", box = "french_hidden_2" } }, dice = { 6 } }
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "to 5721")
    vt.apply(g, "french", "end")
    eq(loc(g, "french_hidden_2"), "5721", "the marker went with the stack")
    eq(loc(g, "fr_meunier"), "box:french_hidden_2", "still hidden")
    eq(vt.with(g, function(game) return game.prop("fr_meunier", "moved") end), true, "it has moved (8.3)")
end)

test("15.1 a hidden unit split off from its stack to form a new stack appears on the map", function()
    local g = new { pieces = { { "ney", "5621" }, { "fr_friant", "5621" }, train("5621"),
                               { "fr_meunier", "5621", box = "french_hidden_2" }, { "fr_decouz", "5621", box = "french_hidden_2" } },
                    dice = { 6 } }
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "leave fr_friant")
    vt.apply(g, "french", "leave fr_decouz")
    vt.apply(g, "french", "to 5721")
    vt.apply(g, "french", "end")
    eq(loc(g, "fr_meunier"), "5721", "on the map at its new hex")
    eq(loc(g, "fr_decouz"), "box:french_hidden_2", "the one left behind stays hidden")
    eq(loc(g, "french_hidden_2"), "5621", "with its stack")
end)

test("15.1 a hidden unit may move to join another stack's box without appearing on the map (8.2)", function()
    local g = new { pieces = { { "ney", "5621" }, { "fr_friant", "5621" }, train("5621"),
                               { "fr_meunier", "5621", box = "french_hidden_2" },
                               { "fr_decouz", "5721" }, { "fr_barrois", "5721", box = "french_hidden_5" } },
                    dice = { 6 } }
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "leave fr_friant")
    vt.apply(g, "french", "drop ney")
    vt.apply(g, "french", "to 5721")
    vt.apply(g, "french", "end")
    eq(loc(g, "fr_meunier"), "box:french_hidden_5", "transferred to the other box")
    eq(loc(g, "french_hidden_2"), nil, "its old box is empty: the marker goes")
    eq(loc(g, "ney"), "5621", "nothing else moved")
    eq(loc(g, "ft1"), nil, "the Supply Train is used")
end)

test("15.1 / 8.2 an enemy stack moving next to hidden undisrupted cavalry reveals it and stops there", function()
    local g = new { pieces = { { "ney", "5621" }, { "fr_friant", "5621" }, train("5621"),
                               { "co_lieven", "5921" }, { "co_pahlen", "5921", box = "coalition_hidden_1" } },
                    dice = { 6 } }
    vt.apply(g, "french", "move 5621")
    eq(vt.has_action(g, "french", "to 6121"), true, "the French player sees no cavalry")
    vt.apply(g, "french", "to 6121")
    eq(loc(g, "co_pahlen"), "5921", "the cavalry is revealed on the map")
    local at = loc(g, "fr_friant")
    eq(vt.with(g, function() return map.distance(at, "5921") end), 1, "the move stops at the first hex next to the cavalry (8.4 bp6)")
    eq(step(g) ~= "movement.stack", true, "the move is over")
end)

test("15.1 / 8.2 hidden infantry is not revealed by an enemy stack moving next to it", function()
    local g = new { pieces = { { "ney", "5621" }, { "fr_friant", "5621" }, train("5621"),
                               { "co_lieven", "6022" }, { "co_shcherbatov", "6022", box = "coalition_hidden_1" } },
                    dice = { 6 } }
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "to 6021")
    eq(loc(g, "co_shcherbatov"), "box:coalition_hidden_1", "still hidden")
end)

test("15.1 / 8.5 a reconnaissance in force against a hidden stack of 3+ units: it is placed on the map, both stay, the move ends", function()
    local g = new { pieces = { { "ney", "5621" }, { "fr_friant", "5621" }, { "fr_meunier", "5621" }, { "fr_og_cav", "5621" }, train("5621"),
                               { "co_lieven", "5721" }, { "co_shcherbatov", "5721", box = "coalition_hidden_1" },
                               { "co_olsufiev", "5721", box = "coalition_hidden_1" } } }
    vt.apply(g, "french", "move 5621")
    eq(vt.has_action(g, "french", "recon 5721"), true, "the French see one unit")
    vt.apply(g, "french", "recon 5721")
    eq(loc(g, "co_shcherbatov"), "5721", "revealed")
    eq(loc(g, "coalition_hidden_1"), nil, "marker gone")
    eq(loc(g, "fr_friant"), "5621", "the mover stays")
    eq(step(g) ~= "movement.recon_answer", true, "no answer: the move is over")
end)

-- ---- combat ----------------------------------------------------------------------------------------

-- The Combat phase on the empty board, entered through a planted combat order (as test_combat).
local function combat_game(pieces, dice)
    local g = vt.new_game { setup = "tests/setups/empty.xml", seed = 1, dice = dice, options = { "hidden_forces" } }
    vt.edit(g, function(game)
        game.set_turn(7)
        game.set_var("cc_basic_french", "3")
        game.set_var("cc_basic_coalition", "2")
        markers(game)
        for _, p in ipairs(pieces) do
            local at = p[2]
            if p.box then
                if game.piece(p.box).loc ~= p[2] then game.move(p.box, p[2]) end
                at = "box:" .. p.box
            end
            game.create(p[1], { id = p.id or p[1], at = at })
        end
        game.set_phase("movement")
        game.set_var("phase_index", 4)
        game.set_var("alt_combat", { turn = "french", done_french = false, done_coalition = true })
        game.decide { role = "french", step = "combat.order", rule = "test", prompt = "test entry" }
    end)
    vt.apply(g, "french", "pass")
    return g
end

test("15.1 the attacking and the defending stacks put their hidden forces on the map", function()
    local g = combat_game { { "ney", "4920" }, { "fr_friant", "4920" }, { "fr_meunier", "4920", box = "french_hidden_1" },
                            { "co_lieven", "4921" }, { "co_shcherbatov", "4921", box = "coalition_hidden_4" } }
    eq(vt.decision(g).step, "combat.order", "an order")
    vt.apply(g, "french", "attack 4920 4921")
    eq(events(g):find("Revealed co_shcherbatov", 1, true) ~= nil, true,
        "a revealed fact (the engine's undo barrier: the attacker may not take the order back)")
    eq(loc(g, "fr_meunier"), "4920", "the attacker's hidden unit is on the map")
    eq(loc(g, "co_shcherbatov"), "4921", "the defender's too")
    eq(loc(g, "french_hidden_1"), nil, "marker freed")
    eq(loc(g, "coalition_hidden_4"), nil, "marker freed")
end)

test("15.1 a stack called to support puts its hidden force on the map; other stacks keep theirs", function()
    local g = combat_game { { "ney", "4920" }, { "fr_friant", "4920" }, { "fr_meunier", "4920" },
                            { "victor", "5020" }, { "fr_decouz", "5020" }, { "fr_barrois", "5020", box = "french_hidden_2" },
                            { "marmont", "4720" }, { "fr_rottembourg", "4720" }, { "fr_charpentier", "4720", box = "french_hidden_3" },
                            { "co_lieven", "4921" } }, { 6, 6, 6, 6 }
    vt.apply(g, "french", "attack 4920 4921")
    for _ = 1, 10 do
        local d = vt.decision(g)
        if d.step == "combat.support" and d.role == "french" then break end
        local pick = ({ ["combat.evade"] = "stand", ["combat.order_units"] = "confirm",
                        ["combat.attacker_cc"] = "cc 3" })[d.step]
        vt.apply(g, d.role, pick or vt.actions(g, d.role)[1])
    end
    eq(vt.decision(g).step, "combat.support", "the attacker calls supports")
    eq(loc(g, "fr_barrois"), "box:french_hidden_2", "hidden until called")
    vt.apply(g, "french", "call 5020")
    eq(loc(g, "fr_barrois"), "5020", "called: on the map")
    eq(loc(g, "fr_charpentier"), "box:french_hidden_3", "a stack not in the combat stays hidden")
end)

test("15.1 / 8.7 hidden units moving with their stack suffer march attrition at the destination", function()
    -- five hexes in Winter, die 6 +3 = 9: one eliminated, one disrupted (8.7)
    local g = new { pieces = { { "ney", "5621" }, { "fr_friant", "5621" }, train("5621"),
                               { "fr_meunier", "5621", box = "french_hidden_2" } }, dice = { 6 } }
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "to 6121")
    eq(step(g), "movement.attrition", "the owner chooses")
    eq(vt.has_action(g, "french", "eliminate fr_meunier"), true, "the hidden unit may be chosen")
    eq(vt.has_action(g, "french", "eliminate fr_friant"), true, "as the one on the map")
    vt.apply(g, "french", "eliminate fr_meunier")
    eq(loc(g, "fr_meunier"), "box:eliminated", "eliminated from its box")
    eq(face(g, "fr_friant"), "disrupted", "the other is disrupted")
    eq(loc(g, "french_hidden_2"), nil, "the empty box frees its marker")
end)

test("15.1 / 4.1 a hidden force carried by its stack counts for stacking at every step of the move", function()
    -- 1 OF on the map + 4 OF hidden; 5821 holds 1.5 OF: 6.5 OF is over the limit
    local g = new { pieces = { { "ney", "5621" }, { "fr_friant", "5621" }, train("5621"),
                               { "fr_barrois", "5621", box = "french_hidden_2" }, { "fr_rottembourg", "5621", box = "french_hidden_2" },
                               { "fr_meunier", "5821" } } }
    vt.apply(g, "french", "move 5621")
    eq(vt.has_action(g, "french", "to 5821"), false, "over 6 OF before the first step")
    vt.apply(g, "french", "to 5721")
    eq(loc(g, "french_hidden_2"), "5721", "the marker travels")
    eq(vt.has_action(g, "french", "to 5821"), false, "and still after it")
end)

test("15.1 / 15.2 before the opponent chooses the excess units of an overstacked stack, its hidden force comes onto the map", function()
    -- 7.5 OF at 5621 (3 of them hidden) under an allocation of the previous Turn
    local g = new { turn = 4, options = { "hidden_forces", "overstacking" },
                    vars = { overstack = { { hex = "5621", side = "french", turn = 3 } } },
                    pieces = { { "ney", "5621" }, { "fr_meunier", "5621" }, { "fr_decouz", "5621" }, { "fr_curial", "5621" },
                               { "fr_barrois", "5621", box = "french_hidden_1" }, { "fr_friant", "5621", box = "french_hidden_1" } } }
    eq(step(g), "scenario.overstack_excess", "the excess is checked")
    eq(loc(g, "fr_barrois"), "5621", "on the map")
    eq(loc(g, "french_hidden_1"), nil, "the marker is gone")
    eq(vt.has_action(g, "coalition", "eliminate fr_friant"), true, "the opponent chooses among units it sees")
end)

test("15.1 / 8.5 a reconnaissance in force against a hidden stack of two units: it is placed on the map and the reconnaissance goes on", function()
    local g = new { pieces = { { "ney", "5621" }, { "fr_friant", "5621" }, { "fr_meunier", "5621" }, { "fr_og_cav", "5621" }, train("5621"),
                               { "co_lieven", "5721" }, { "co_shcherbatov", "5721", box = "coalition_hidden_1" } } }
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "recon 5721")
    eq(loc(g, "co_shcherbatov"), "5721", "revealed")
    eq(step(g), "movement.recon_answer", "the Coalition answers (withdraw or hold, 8.5)")
end)
