-- Rally and Movement (rule 8) and 14.5, on small positions arranged on the empty board.
--
-- The test ground (map.xml): the row 5621-5721-5821-5921-6021-6121-6221 is clear terrain with
-- no river between consecutive hexes (5621 to 6221 is six hexes); 5527 is rough ground entered
-- by road from 5426 and without road from 5526; 5823 has a river towards 5824 but none towards
-- 5923. Turn 1 is Winter, Turn 7 Spring.

local function eq(actual, expected, what)
    if actual ~= expected then
        error(string.format("%s: expected %s, got %s", what, tostring(expected), tostring(actual)), 2)
    end
end

local function loc(g, id) return vt.with(g, function(game) return game.piece(id).loc end) end
local function face(g, id) return vt.with(g, function(game) return game.piece(id).face end) end
local function prop(g, id, k) return vt.with(g, function(game) return game.prop(id, k) end) end
local function step(g) return vt.decision(g).step end

-- opts: pieces = { {type, hex, id=, face=, hidden=, props=, bottom=} }, dice, turn, vars, phase
local function new(opts)
    local g = vt.new_game { setup = "tests/setups/empty.xml", seed = 1, dice = opts.dice }
    vt.edit(g, function(game)
        game.set_turn(opts.turn or 1)
        for _, p in ipairs(opts.pieces or {}) do
            local id = game.create(p[1], { id = p.id or p[1], at = p[2], face = p.face, hidden = p.hidden })
            for k, v in pairs(p.props or {}) do game.set_prop(id, k, v) end
            if p.bottom then game.move(id, p[2], 1) end
        end
        for k, v in pairs(opts.vars or {}) do game.set_var(k, v) end
        game.decide { role = "french", step = "game.begin_phase", context = { phase = opts.phase or "movement" } }
    end)
    vt.apply(g, "french", "begin")
    return g
end

local function train(hex, id) return { "french_supply", hex, id = id or "ft1", face = "train", hidden = true } end
local function ctrain(hex, id) return { "coalition_supply", hex, id = id or "ct1", face = "train", hidden = true } end

-- a French stack of Ney and three infantry at 5621 with a Supply Train
local function ney_stack(extra)
    local p = { { "ney", "5621" }, { "fr_friant", "5621" }, { "fr_meunier", "5621" }, { "fr_decouz", "5621" }, train("5621") }
    for _, x in ipairs(extra or {}) do p[#p + 1] = x end
    return p
end

-- ---- 8.2 / 8.3 --------------------------------------------------------------------------------

test("8.2 the player with the most Supply Trains on the Set Up Card moves first", function()
    local g = new { pieces = { { "ney", "5621" }, { "fr_friant", "5621" }, train("5621"),
                               { "blucher", "4821" }, { "co_lieven", "4821" }, ctrain("4821") },
                    vars = { supply_trains_french = "3 3 3 3 3 3 3 3 3 3 3 3", supply_trains_coalition = "5 5 5 5 5 5 5 5 5 5 5 5" } }
    eq(vt.decision(g).role, "coalition", "first mover")
    eq(step(g), "movement.choose", "step")
    eq(vt.has_action(g, "coalition", "move 4821"), true, "coalition stack listed")
end)

test("8.2 equal Supply Trains on the Set Up Card: the French move first (digest A-2)", function()
    local g = new { pieces = { { "ney", "5621" }, { "fr_friant", "5621" }, train("5621"),
                               { "blucher", "4821" }, { "co_lieven", "4821" }, ctrain("4821") },
                    vars = { supply_trains_french = "4 4 4 4 4 4 4 4 4 4 4 4", supply_trains_coalition = "4 4 4 4 4 4 4 4 4 4 4 4" } }
    eq(vt.decision(g).role, "french", "first mover on a tie")
end)

test("8.2 players alternate one stack at a time; after each move the Supply Train is removed", function()
    local g = new { pieces = { { "ney", "5621" }, { "fr_friant", "5621" }, train("5621"),
                               { "victor", "5921" }, { "fr_meunier", "5921" }, train("5921", "ft2"),
                               { "blucher", "4821" }, { "co_lieven", "4821" }, ctrain("4821") },
                    dice = { 6, 6, 6 } }
    eq(vt.decision(g).role, "french", "French first")
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "to 5721")
    vt.apply(g, "french", "end")
    eq(loc(g, "ft1"), nil, "the used train is off the board")
    eq(vt.decision(g).role, "coalition", "then the Coalition")
    vt.apply(g, "coalition", "move 4821")
    vt.apply(g, "coalition", "to 4822")
    vt.apply(g, "coalition", "end")
    eq(vt.decision(g).role, "french", "French again")
    eq(vt.has_action(g, "french", "move 5921"), true, "the other French stack")
end)

test("8.2 a pass discards a genuine Supply Train; dummies cannot be discarded; an empty player is skipped", function()
    local g = new { pieces = { { "ney", "5621" }, { "fr_friant", "5621" }, train("5621"), train("5621", "ft2"),
                               { "french_supply_dummy", "5621", id = "fdummy", face = "train", hidden = true },
                               { "blucher", "4821" }, { "co_lieven", "4821" }, ctrain("4821") },
                    vars = { supply_trains_french = "9 9 9 9 9 9 9 9 9 9 9 9", supply_trains_coalition = "1 1 1 1 1 1 1 1 1 1 1 1" } }
    eq(vt.has_action(g, "french", "pass fdummy"), false, "a dummy is no discard")
    vt.apply(g, "french", "pass ft1")
    eq(loc(g, "ft1"), nil, "discarded")
    vt.apply(g, "coalition", "pass ct1")
    -- the Coalition has no train left: the French go on alone
    eq(vt.decision(g).role, "french", "the French continue alone")
    vt.apply(g, "french", "pass ft2")
    -- both are out of genuine trains: the phase is over and the dummy is gone
    eq(loc(g, "fdummy"), nil, "dummy removed at the end of the phase")
    eq(vt.with(g, function(game) return game.phase() end) ~= "movement", true, "phase over")
end)

test("8.3 a unit or commander moves only once per phase", function()
    local g = new { pieces = { { "ney", "5621" }, { "fr_friant", "5621" }, train("5621"),
                               train("5721", "ft2") }, dice = { 6 } }
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "to 5721")
    vt.apply(g, "french", "end")
    eq(prop(g, "fr_friant", "moved"), true, "unit marked")
    eq(prop(g, "ney", "moved"), true, "commander marked")
    -- a train is waiting at 5721, but neither Ney nor Friant may move again
    eq(vt.has_action(g, "french", "move 5721"), false, "no second move")
    eq(vt.has_action(g, "french", "pass ft2"), true, "only the pass is left")
end)

test("8.3 a commander cannot move without combat units", function()
    local g = new { pieces = { { "ney", "5621" }, train("5621") } }
    eq(vt.has_action(g, "french", "move 5621"), false, "commander alone")
    eq(vt.has_action(g, "french", "pass ft1"), true, "pass offered")
end)

-- ---- 8.4 ----------------------------------------------------------------------------------------

test("8.4 a stack moves at most three hexes, five by forced march", function()
    -- a second train elsewhere keeps the phase open after the move
    local g = new { pieces = ney_stack { train("4821", "ft2") }, dice = { 1 } }
    vt.apply(g, "french", "move 5621")
    eq(vt.has_action(g, "french", "to 5921"), true, "3 hexes")
    eq(vt.has_action(g, "french", "to 6121"), true, "5 hexes by forced march")
    eq(vt.has_action(g, "french", "to 6221"), false, "6 hexes")
    vt.apply(g, "french", "to 6121")
    -- the allowance is spent: the move ends by itself, with the forced march marker
    eq(loc(g, "fr_friant"), "6121", "arrived")
    eq(loc(g, "ney"), "6121", "Ney came along")
    eq(prop(g, "fr_friant", "forced_march"), true, "forced march")
    eq(loc(g, "ft1"), nil, "train used")
end)

test("8.4 a move of three hexes or less is no forced march", function()
    local g = new { pieces = ney_stack(), dice = { 1 } }
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "to 5921")
    eq(step(g), "movement.stack", "the stack may go on")
    vt.apply(g, "french", "end")
    eq(prop(g, "fr_friant", "forced_march"), nil, "no marker")
end)

test("8.4 a stack may stop on the way and go on (waypoints)", function()
    local g = new { pieces = ney_stack(), dice = { 1 } }
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "to 5721")
    eq(vt.has_action(g, "french", "to 6121"), true, "4 more hexes")
    eq(vt.has_action(g, "french", "to 6221"), false, "5 more hexes")
    vt.apply(g, "french", "to 5921")
    eq(vt.decision(g).prompt:find("3 of 5", 1, true) ~= nil, true, "3 hexes spent")
end)

test("8.4 difficult terrain counts two unless entered by road", function()
    local g = new { pieces = { { "ney", "5526" }, { "fr_friant", "5526" }, train("5526") } }
    vt.apply(g, "french", "move 5526")
    vt.apply(g, "french", "to 5527")
    eq(vt.decision(g).prompt:find("5527: 2 of 5", 1, true) ~= nil, true, "rough without road: 2")
    local g2 = new { pieces = { { "ney", "5426" }, { "fr_friant", "5426" }, train("5426") } }
    vt.apply(g2, "french", "move 5426")
    vt.apply(g2, "french", "to 5527")
    eq(vt.decision(g2).prompt:find("5527: 1 of 5", 1, true) ~= nil, true, "rough by road: 1")
end)

test("8.4 bp1 a stack moves only with a genuine Supply Train", function()
    local g = new { pieces = { { "ney", "5621" }, { "fr_friant", "5621" },
                               { "french_supply_dummy", "5621", id = "fdummy", face = "train", hidden = true },
                               { "victor", "5921" }, { "fr_meunier", "5921" }, train("5921") } }
    eq(vt.has_action(g, "french", "move 5621"), false, "a dummy enables nothing")
    eq(vt.has_action(g, "french", "move 5921"), true, "genuine train")
end)

test("8.4 bp2 the moving units start with a Commander who has not moved; he may stay in place", function()
    local g = new { pieces = { { "fr_friant", "5621" }, train("5621") } }
    eq(vt.has_action(g, "french", "move 5621"), false, "no commander")
    local g2 = new { pieces = ney_stack(), dice = { 1 } }
    vt.apply(g2, "french", "move 5621")
    vt.apply(g2, "french", "drop ney")
    vt.apply(g2, "french", "to 5721")
    vt.apply(g2, "french", "end")
    eq(loc(g2, "ney"), "5621", "Ney stayed")
    eq(prop(g2, "ney", "moved"), nil, "and has not moved")
    eq(loc(g2, "fr_friant"), "5721", "the units went")
end)

test("8.4 bp2 a Commander may accompany only part of the move", function()
    local g = new { pieces = ney_stack(), dice = { 1 } }
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "to 5721")
    vt.apply(g, "french", "drop ney")
    vt.apply(g, "french", "to 5821")
    vt.apply(g, "french", "end")
    eq(loc(g, "ney"), "5721", "Ney stopped half way")
    eq(prop(g, "ney", "moved"), true, "he moved")
    eq(loc(g, "fr_friant"), "5821", "units")
end)

test("8.4 bp3 units may be left behind and moved later with another train and Commander", function()
    local g = new { pieces = ney_stack { train("5621", "ft2") }, dice = { 1, 1 } }
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "leave fr_decouz")
    vt.apply(g, "french", "drop ney")
    vt.apply(g, "french", "to 5721")
    vt.apply(g, "french", "end")
    eq(loc(g, "fr_decouz"), "5621", "left behind")
    eq(loc(g, "fr_friant"), "5721", "moved together")
    eq(loc(g, "fr_meunier"), "5721", "moved together")
    -- Ney stayed in place: with the second train he moves the unit left behind
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "to 5520")
    vt.apply(g, "french", "end")
    eq(loc(g, "fr_decouz"), "5520", "moved later")
end)

test("8.4 bp4 every unit of the stack must be undisrupted", function()
    local g = new { pieces = ney_stack { { "fr_roguet", "5621", face = "disrupted" } } }
    eq(vt.has_action(g, "french", "move 5621"), false, "a disrupted unit pins the stack")
end)

test("8.4 bp5 no entering a hex with enemy combat units", function()
    local g = new { pieces = ney_stack { { "co_lieven", "5821" } } }
    vt.apply(g, "french", "move 5621")
    eq(vt.has_action(g, "french", "to 5821"), false, "enemy unit")
    eq(vt.has_action(g, "french", "to 5721"), true, "next to it")
end)

test("8.4 bp6 a stack entering a hex next to enemy cavalry stops there", function()
    local g = new { pieces = ney_stack { { "co_pahlen", "6022" } }, dice = { 1 } }
    vt.apply(g, "french", "move 5621")
    eq(vt.has_action(g, "french", "to 6021"), true, "may enter the hex next to the cavalry")
    eq(vt.has_action(g, "french", "to 6122"), false, "but not go on through it")
    eq(vt.has_action(g, "french", "to 6121"), true, "another way round")
    vt.apply(g, "french", "to 6021")
    eq(step(g) ~= "movement.stack", true, "the move is over")
    eq(loc(g, "fr_friant"), "6021", "stopped")
end)

test("8.4 bp6 disrupted cavalry does not stop a stack", function()
    local g = new { pieces = ney_stack { { "co_pahlen", "6022", face = "disrupted" } } }
    vt.apply(g, "french", "move 5621")
    eq(vt.has_action(g, "french", "to 6122"), true, "through 6021")
end)

test("8.4 bp6 cavalry across a river (bridged or not) does not stop a stack", function()
    local g = new { pieces = { { "ney", "5821" }, { "fr_friant", "5821" }, train("5821"), { "co_pahlen", "5824" } } }
    vt.apply(g, "french", "move 5821")
    vt.apply(g, "french", "to 5823")
    eq(step(g), "movement.stack", "across the river: the stack may go on")
    local g2 = new { pieces = { { "ney", "5821" }, { "fr_friant", "5821" }, train("5821"), { "co_pahlen", "6023" } },
                     dice = { 1 } }
    vt.apply(g2, "french", "move 5821")
    vt.apply(g2, "french", "to 5923")
    eq(step(g2) ~= "movement.stack", true, "no river between 5923 and 6023: stopped")
end)

test("8.4 bp6 a friendly unit that does not move screens the hex, and stays put", function()
    local g = new { pieces = ney_stack { { "co_pahlen", "6022" }, { "fr_roguet", "6021" } }, dice = { 1 } }
    vt.apply(g, "french", "move 5621")
    eq(vt.has_action(g, "french", "to 6122"), true, "through the screened hex")
    vt.apply(g, "french", "to 6122")
    eq(loc(g, "fr_friant"), "6122", "passed")
    eq(prop(g, "fr_roguet", "movement_anchored"), true, "the screen may not move this Turn")
end)

test("8.4 bp7 a stack starting next to enemy cavalry may not move first to a hex next to it", function()
    local g = new { pieces = { { "ney", "5921" }, { "fr_friant", "5921" }, train("5921"), { "co_pahlen", "5922" } } }
    vt.apply(g, "french", "move 5921")
    eq(vt.has_action(g, "french", "to 5820"), true, "first hex away from it")
    -- 5821 is next to the cavalry: it cannot be the first hex, only reached the long way round
    vt.apply(g, "french", "to 5821")
    local via = false
    for _, e in ipairs(vt.events(g)) do if e:find("via 5921-5820-5821", 1, true) then via = true end end
    eq(via, true, "went round through 5820")
end)

test("8.4 General Exception: a single unit in a city next to two enemy units is under siege", function()
    local g = new { pieces = { { "ney", "5821" }, { "fr_friant", "5821" }, train("5821"),
                               { "co_lieven", "5922" }, { "co_shcherbatov", "5922" } } }
    eq(vt.has_action(g, "french", "move 5821"), false, "besieged")
    local g2 = new { pieces = { { "ney", "5821" }, { "fr_friant", "5821" }, { "fr_meunier", "5821" }, train("5821"),
                                { "co_lieven", "5922" }, { "co_shcherbatov", "5922" } } }
    eq(vt.has_action(g2, "french", "move 5821"), true, "two units are no siege")
end)

test("4.1 a moving stack never exceeds six OF, even passing through", function()
    -- three conscripts: 12 half-OF
    local pieces = { { "ney", "5621" }, { "fr_barrois", "5621" }, { "fr_rottembourg", "5621" }, { "fr_charpentier", "5621" },
                     train("5621"), { "fr_friant", "5721" } }
    local g = new { pieces = pieces }
    vt.apply(g, "french", "move 5621")
    eq(vt.has_action(g, "french", "to 5721"), false, "would be 7 OF")
    vt.apply(g, "french", "leave fr_barrois")
    eq(vt.has_action(g, "french", "to 5721"), true, "5 OF fit")
end)

test("4.1 note: a French stack passes through a garrison (OF 0)", function()
    local g = new { pieces = { { "ney", "5621" }, { "fr_barrois", "5621" }, { "fr_rottembourg", "5621" }, { "fr_charpentier", "5621" },
                               train("5621"), { "fr_g_metz", "5721" } } }
    vt.apply(g, "french", "move 5621")
    eq(vt.has_action(g, "french", "to 5721"), true, "garrison")
end)

test("14.7 garrisons never move", function()
    local g = new { pieces = { { "ney", "5621" }, { "fr_g_metz", "5621" }, train("5621") } }
    eq(vt.has_action(g, "french", "move 5621"), false, "garrison alone")
end)

-- ---- 8.2 revelation of cavalry -------------------------------------------------------------------

test("8.2 an enemy stack moving next to hidden cavalry reveals it", function()
    local g = new { pieces = ney_stack { { "co_pahlen", "5922", hidden = true } } }
    eq(vt.with(g, function(game) return game.piece("co_pahlen").hidden end), true, "hidden before")
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "to 5821")
    eq(vt.with(g, function(game) return game.piece("co_pahlen").hidden end), false, "revealed")
end)

-- ---- 8.5 reconnaissance in force ------------------------------------------------------------------

local function recon_pieces(extra)
    local p = { { "ney", "5621" }, { "fr_friant", "5621" }, { "fr_meunier", "5621" }, { "fr_og_cav", "5621" }, train("5621"),
                { "co_lieven", "5721" }, ctrain("5721") }
    for _, x in ipairs(extra or {}) do p[#p + 1] = x end
    return p
end

test("8.5 reconnaissance in force needs 3+ units with a cavalry unit, against 1-2 units in clear or city", function()
    local g = new { pieces = recon_pieces() }
    vt.apply(g, "french", "move 5621")
    eq(vt.has_action(g, "french", "recon 5721"), true, "allowed")
    vt.apply(g, "french", "leave fr_friant")
    eq(vt.has_action(g, "french", "recon 5721"), false, "two units only")
    local g2 = new { pieces = { { "ney", "5621" }, { "fr_friant", "5621" }, { "fr_meunier", "5621" }, { "fr_decouz", "5621" },
                                train("5621"), { "co_lieven", "5721" } } }
    vt.apply(g2, "french", "move 5621")
    eq(vt.has_action(g2, "french", "recon 5721"), false, "no cavalry")
    local g3 = new { pieces = recon_pieces { { "co_shcherbatov", "5721" }, { "co_olsufiev", "5721" } } }
    vt.apply(g3, "french", "move 5621")
    eq(vt.has_action(g3, "french", "recon 5721"), false, "three enemy units")
    local g4 = new { pieces = { { "ney", "5526" }, { "fr_friant", "5526" }, { "fr_meunier", "5526" }, { "fr_og_cav", "5526" },
                                train("5526"), { "co_lieven", "5527" } } }
    vt.apply(g4, "french", "move 5526")
    eq(vt.has_action(g4, "french", "recon 5527"), false, "rough ground")
end)

test("8.5 the enemy withdraws: the mover enters for one hex; the withdrawing stack loses its train", function()
    local g = new { pieces = recon_pieces(), dice = { 1 } }
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "recon 5721")
    eq(vt.decision(g).role, "coalition", "the enemy answers")
    eq(vt.has_action(g, "coalition", "withdraw 5722"), false, "not next to the moving stack")
    eq(vt.has_action(g, "coalition", "withdraw 5820"), true, "away from it")
    vt.apply(g, "coalition", "withdraw 5820")
    eq(loc(g, "co_lieven"), "5820", "withdrew")
    eq(loc(g, "ct1"), nil, "its Supply Train is removed from play")
    eq(loc(g, "fr_friant"), "5721", "the mover entered")
    eq(vt.decision(g).prompt:find("5721: 1 of 5", 1, true) ~= nil, true, "for one hex")
    eq(prop(g, "fr_og_cav", "recon_done"), true, "one per Turn")
end)

test("8.5 holding and losing: one hit, forced withdrawal, the mover pays two hexes", function()
    -- mover 6 + 3 units = 9 against 1 + 1 unit = 2
    local g = new { pieces = recon_pieces(), dice = { 6, 1, 1 } }
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "recon 5721")
    vt.apply(g, "coalition", "hold")
    eq(step(g), "movement.recon_hit", "the holder takes a hit")
    vt.apply(g, "coalition", "hit co_lieven")
    eq(face(g, "co_lieven"), "disrupted", "hit")
    vt.apply(g, "coalition", "withdraw 5821")
    eq(loc(g, "co_lieven"), "5821", "withdrawn")
    eq(loc(g, "fr_friant"), "5721", "mover entered")
    eq(vt.decision(g).prompt:find("5721: 2 of 5", 1, true) ~= nil, true, "two hexes spent")
    eq(vt.has_action(g, "french", "recon 5821"), false, "only one reconnaissance per Turn")
end)

test("8.5 holding and winning: the mover takes one hit and its move ends", function()
    -- mover 1 + 3 = 4 against 6 + 1 = 7; then march attrition does not apply (1 hex)
    local g = new { pieces = recon_pieces(), dice = { 1, 6 } }
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "recon 5721")
    vt.apply(g, "coalition", "hold")
    eq(vt.decision(g).role, "french", "the mover chooses its casualty")
    vt.apply(g, "french", "hit fr_meunier")
    eq(face(g, "fr_meunier"), "disrupted", "hit")
    eq(loc(g, "fr_friant"), "5621", "stayed")
    eq(loc(g, "co_lieven"), "5721", "held")
    eq(prop(g, "fr_friant", "moved"), true, "move over")
    eq(loc(g, "ft1"), nil, "train used")
end)

-- ---- 8.6 / 8.7 march attrition ----------------------------------------------------------------

test("8.6 Winter: two hexes call for the attrition roll (drm 0); 6 eliminates one unit", function()
    local g = new { pieces = ney_stack(), dice = { 6 } }
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "to 5821")
    vt.apply(g, "french", "end")
    eq(step(g), "movement.attrition", "owner chooses")
    vt.apply(g, "french", "eliminate fr_decouz")
    eq(loc(g, "fr_decouz"), "box:eliminated", "eliminated")
    eq(face(g, "fr_friant"), "ready", "others untouched")
end)

test("8.6 Spring: two hexes, no roll; three hexes drm 0", function()
    local g = new { turn = 7, pieces = ney_stack(), dice = { 6 } }
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "to 5821")
    vt.apply(g, "french", "end")
    eq(step(g) ~= "movement.attrition", true, "no roll for 2 hexes in Spring")
    local g2 = new { turn = 7, pieces = ney_stack(), dice = { 5 } }
    vt.apply(g2, "french", "move 5621")
    vt.apply(g2, "french", "to 5921")
    vt.apply(g2, "french", "end")
    eq(loc(g2, "fr_friant") == "5921" and face(g2, "fr_friant") == "ready" and loc(g2, "fr_decouz") == "5921", true,
       "5 + 0: no effect")
end)

test("8.7 a total of 8-9 eliminates one unit and disrupts another (Winter, 4 hexes: +2)", function()
    local g = new { pieces = ney_stack(), dice = { 6 } }
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "to 6021")
    vt.apply(g, "french", "end")
    vt.apply(g, "french", "eliminate fr_decouz")
    eq(vt.has_action(g, "french", "disrupt fr_decouz"), false, "another unit")
    vt.apply(g, "french", "disrupt fr_meunier")
    eq(face(g, "fr_meunier"), "disrupted", "disrupted")
    eq(face(g, "fr_friant"), "ready", "third unit untouched")
end)

test("8.7 single-unit stacks are disrupted, not eliminated; artillery and commanders never suffer", function()
    -- infantry + artillery: only one infantry/cavalry unit (digest A-47); Winter 3 hexes +1, die 6 = 7
    local g = new { pieces = { { "ney", "5621" }, { "fr_friant", "5621" }, { "fr_guard_art", "5621" }, train("5621") },
                    dice = { 6 } }
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "to 5921")
    vt.apply(g, "french", "end")
    eq(loc(g, "fr_friant"), "5921", "not eliminated")
    eq(face(g, "fr_friant"), "disrupted", "disrupted")
    eq(face(g, "fr_guard_art"), "ready", "artillery exempt")
    eq(loc(g, "ney"), "5921", "commander exempt")
end)

test("14.5 Napoleon accompanying the whole move gives -1 to march attrition", function()
    -- Winter, 3 hexes: +1; die 5: 6 eliminates one unit without Napoleon, 5 with him
    local with = new { pieces = ney_stack { { "napoleon", "5621" } }, dice = { 5 } }
    vt.apply(with, "french", "move 5621")
    vt.apply(with, "french", "to 5921")
    vt.apply(with, "french", "end")
    eq(step(with) ~= "movement.attrition", true, "5 + 1 - 1: no effect")
    eq(loc(with, "fr_decouz"), "5921", "no loss")
    local left = new { pieces = ney_stack { { "napoleon", "5621" } }, dice = { 5 } }
    vt.apply(left, "french", "move 5621")
    vt.apply(left, "french", "to 5721")
    vt.apply(left, "french", "drop napoleon")
    vt.apply(left, "french", "to 5921")
    vt.apply(left, "french", "end")
    eq(step(left), "movement.attrition", "Napoleon left half way: 6, one unit lost")
end)

test("14.5 Napoleon cannot leave Paris until the Commanders' Movement phase of Turn 4", function()
    local pieces = { { "napoleon", "5420" }, { "fr_friant", "5420" }, train("5420") }
    local g = new { pieces = pieces, dice = { 1 } }
    vt.apply(g, "french", "move 5420")        -- Napoleon enables the move but stays
    eq(vt.has_action(g, "french", "drop napoleon"), false, "he is not part of the moving stack")
    vt.apply(g, "french", "to 5419")
    vt.apply(g, "french", "end")
    eq(loc(g, "napoleon"), "5420", "still in Paris")
    eq(loc(g, "fr_friant"), "5419", "the unit went")
    local g4 = new { turn = 4, pieces = { { "napoleon", "5420" }, { "fr_friant", "5420" }, train("5420") }, dice = { 1 } }
    vt.apply(g4, "french", "move 5420")
    eq(vt.has_action(g4, "french", "drop napoleon"), false, "Turn 4 movement: not yet")
    local g5 = new { turn = 5, pieces = { { "napoleon", "5420" }, { "fr_friant", "5420" }, train("5420") }, dice = { 1 } }
    vt.apply(g5, "french", "move 5420")
    eq(vt.has_action(g5, "french", "drop napoleon"), true, "Turn 5: he goes along")
end)

-- ---- 8.8 / 8.9 ------------------------------------------------------------------------------------

test("8.8 moving into an enemy Depot eliminates it and costs its owner a Supply Train", function()
    local g = new { pieces = ney_stack { { "coalition_supply", "5721", id = "cdepot", face = "depot", bottom = true } }, dice = { 1 } }
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "to 5821")      -- through 5721
    eq(vt.with(g, function(game) return game.piece("cdepot").loc end) ~= "5721", true, "depot gone")
    eq(vt.with(g, function(game) return game.track("coalition_depots_lost") end), 1, "one train less")
end)

test("8.9 a stack entering an enemy Commander's hex: he rolls (11.20), 1 eliminates him", function()
    local g = new { pieces = ney_stack { { "blucher", "5721" } }, dice = { 1, 1 } }
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "to 5821")      -- through 5721
    eq(loc(g, "blucher"), "box:eliminated", "Blucher is lost")
    eq(step(g), "movement.stack", "the move goes on")
end)

test("8.9 an overrun Commander who escapes joins a friendly stack within three hexes", function()
    local g = new { pieces = ney_stack { { "blucher", "5721" }, { "co_lieven", "5923" } }, dice = { 4 } }
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "to 5721")
    eq(loc(g, "blucher"), "5923", "escaped to the only friendly stack")
end)

test("8.9 the overrun Commander's owner chooses among several stacks, then the move goes on", function()
    local g = new { pieces = ney_stack { { "blucher", "5721" }, { "co_lieven", "5923" }, { "co_shcherbatov", "5620" } },
                    dice = { 4 } }
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "to 5721")
    eq(vt.decision(g).role, "coalition", "the owner places him")
    local place
    for _, a in ipairs(vt.actions(g, "coalition")) do if a:find("5620", 1, true) then place = a end end
    vt.apply(g, "coalition", place)
    eq(loc(g, "blucher"), "5620", "placed")
    eq(vt.decision(g).role, "french", "back to the moving player")
    eq(step(g), "movement.stack", "the move goes on")
end)

test("14.4 Napoleon overrun and killed: the Coalition wins", function()
    local g = new { pieces = { { "blucher", "5621" }, { "co_lieven", "5621" }, ctrain("5621"), { "napoleon", "5721" } },
                    vars = { supply_trains_french = "1 1 1 1 1 1 1 1 1 1 1 1", supply_trains_coalition = "5 5 5 5 5 5 5 5 5 5 5 5" },
                    dice = { 1 } }
    vt.apply(g, "coalition", "move 5621")
    vt.apply(g, "coalition", "to 5721")
    eq(vt.decision(g).result ~= nil, true, "game over")
    eq(vt.decision(g).result:find("Coalition wins", 1, true) ~= nil, true, vt.decision(g).result)
end)

-- ---- 8.1 rally --------------------------------------------------------------------------------------

local function rally_pieces(extra)
    local p = { { "french_supply", "5621", id = "fdepot", face = "depot", bottom = true },
                { "ney", "5621" }, { "fr_friant", "5621", face = "disrupted" }, { "fr_meunier", "5621", face = "disrupted" },
                { "fr_decouz", "5621", face = "disrupted" }, train("5621") }
    for _, x in ipairs(extra or {}) do p[#p + 1] = x end
    return p
end

test("8.1 a Commander with a Supply Train rallies up to his CR of disrupted units in supply", function()
    local g = new { pieces = rally_pieces() }
    eq(step(g), "movement.rally", "rally first")
    vt.apply(g, "french", "rally 5621")
    eq(loc(g, "ft1"), nil, "the train is removed")
    vt.apply(g, "french", "rally_unit fr_friant")
    vt.apply(g, "french", "rally_unit fr_decouz")
    eq(face(g, "fr_friant"), "ready", "rallied")
    eq(face(g, "fr_decouz"), "ready", "rallied")
    eq(face(g, "fr_meunier"), "disrupted", "CR 2: the third stays disrupted")
end)

test("8.1 the CRs of several Commanders are added", function()
    local g = new { pieces = rally_pieces { { "victor", "5621" } } }
    vt.apply(g, "french", "rally 5621")
    eq(face(g, "fr_meunier"), "ready", "CR 2 + 1 = 3: all rallied")
    eq(face(g, "fr_friant"), "ready", "all rallied")
end)

test("8.1 no rally without a Commander, without a train, or out of supply", function()
    local g = new { pieces = { { "french_supply", "5621", id = "fdepot", face = "depot", bottom = true },
                               { "fr_friant", "5621", face = "disrupted" }, train("5621") } }
    eq(step(g) ~= "movement.rally", true, "no commander")
    local g2 = new { pieces = { { "french_supply", "5621", id = "fdepot", face = "depot", bottom = true },
                                { "ney", "5621" }, { "fr_friant", "5621", face = "disrupted" } } }
    eq(step(g2) ~= "movement.rally", true, "no train")
    local g3 = new { pieces = { { "ney", "5921" }, { "fr_friant", "5921", face = "disrupted" }, train("5921") } }
    eq(step(g3) ~= "movement.rally", true, "out of supply (no depot within reach)")
end)

test("8.2 with two Supply Trains the Commander who rallied may then move the stack", function()
    local g = new { pieces = rally_pieces { train("5621", "ft2") }, dice = { 1 } }
    vt.apply(g, "french", "rally 5621")
    vt.apply(g, "french", "rally_unit fr_friant")
    vt.apply(g, "french", "rally_unit fr_meunier")
    eq(step(g), "movement.choose", "rallying over")
    -- fr_decouz is still disrupted: bp4 forbids the move (rulings M-1)
    eq(vt.has_action(g, "french", "move 5621"), false, "a disrupted unit remains")
    local g2 = new { pieces = rally_pieces { { "victor", "5621" }, train("5621", "ft2") }, dice = { 1 } }
    vt.apply(g2, "french", "rally 5621")
    eq(vt.has_action(g2, "french", "move 5621"), true, "all rallied: the stack moves")
end)

-- ---- 14.8 -------------------------------------------------------------------------------------

test("14.8 before Turn 4 Soult's and Wellington's units may not move", function()
    local pieces = { { "reille", "6132" }, { "fr_boyer", "6132" }, { "fr_leval", "6132" }, train("6132") }
    local g = new { pieces = pieces }
    eq(vt.has_action(g, "french", "move 6132"), false, "Turn 3 and before")
    local g4 = new { turn = 4, pieces = pieces }
    eq(vt.has_action(g4, "french", "move 6132"), true, "from Turn 4")
end)

test("14.8 before Turn 4 no other unit may enter the area south-west of the Garonne", function()
    local pieces = { { "ney", "5630" }, { "fr_friant", "5630" }, train("5630") }
    local g = new { pieces = pieces }
    vt.apply(g, "french", "move 5630")
    eq(vt.has_action(g, "french", "to 5731"), false, "closed before Turn 4")
    local g4 = new { turn = 4, pieces = pieces }
    vt.apply(g4, "french", "move 5630")
    eq(vt.has_action(g4, "french", "to 5731"), true, "open from Turn 4")
end)
