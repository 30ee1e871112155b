-- Interactions of the advanced rules that were written apart: 15.1 hidden forces, 16.1 Random
-- Event Cards, 16.2 command structure, 16.4 (an independent review; RULINGS RV-*).
local cards = require("cnw.cards")

local EMPTY = "tests/setups/empty.xml"

local function eq(actual, expected, what)
    if actual ~= expected then
        error(string.format("%s: expected %s, got %s", what, tostring(expected), tostring(actual)), 2)
    end
end
local function same(list, expected, what) eq(table.concat(list, " "), table.concat(expected, " "), what) end
local function loc(g, id) return vt.with(g, function(game) return game.piece(id).loc end) end
local function face(g, id) return vt.with(g, function(game) return game.piece(id).face end) end
local function step(g) return vt.decision(g).step end
local function events_text(g) return table.concat(vt.events(g), "\n") end
local function expect(g, text)
    assert(events_text(g):find(text, 1, true), "expected an event containing '" .. text .. "' in:\n" .. events_text(g))
end
local function moves(g, role) return table.concat(vt.actions(g, role), ", ") end

-- pieces = { {type, hex, id=, face=, hidden=, props=} }; hex "box:<marker>" puts the piece in
-- that marker's box (the marker must be placed first, on the map).
local function place(game, pieces)
    for _, p in ipairs(pieces or {}) do
        local id = game.create(p[1], { id = p.id or p[1], at = p[2], face = p.face, hidden = p.hidden })
        for k, v in pairs(p.props or {}) do game.set_prop(id, k, v) end
    end
end

local function enter_phase(g, phase, pieces, vars)
    vt.edit(g, function(game)
        place(game, pieces)
        for k, v in pairs(vars or {}) do game.set_var(k, v) end
        game.decide { role = "french", step = "game.begin_phase", context = { phase = phase } }
    end)
    vt.apply(g, "french", "begin")
end

local function rec(n) return string.format("rec_%02d", n) end

-- The drawer holds only card n, the decks are empty: he plays it at the start of the Turn
-- (test_event_cards.lua's with_card).
local function with_card(n, drawer, opts)
    opts = opts or {}
    local g = vt.new_game { setup = "tests/setups/cards.xml", seed = 1, dice = opts.dice,
                            options = opts.options or { "event_cards", "hidden_forces" } }
    vt.edit(g, function(game)
        game.set_turn(opts.turn or (n <= 18 and 2 or 8))
        game.set_var("supply_setup_done", true)
        for _, id in ipairs { "winter", "spring", cards.hand("french"), cards.hand("coalition"), cards.DISCARD } do
            for _, c in ipairs(game.pile(id)) do game.move_card(c, id, "test_box") end
        end
        game.move_card(rec(n), "test_box", cards.hand(drawer))
        place(game, opts.pieces)
        game.decide { role = "french", step = "game.begin_phase", context = { phase = "start" } }
    end)
    vt.apply(g, "french", "begin")
    return g
end

local CTRAIN = function(hex, id) return { "coalition_supply", hex, id = id or "ct", face = "train", hidden = true } end
local FTRAIN = function(hex, id) return { "french_supply", hex, id = id or "ft", face = "train", hidden = true } end

-- ---- 16.1 card selectors and choices with 15.1 hidden forces --------------------------------

test("16.1 REC 11 with 15.1: a hidden Conscript counts as on the map; its owner may choose it and it is disrupted in its box", function()
    local g = with_card(11, "coalition", { pieces = {
        { "french_hidden_1", "5420" }, { "fr_friant", "5420" }, { "fr_barrois", "box:french_hidden_1" } } })
    eq(vt.decision(g).role, "french", "the French choose (the card can be carried out)")
    same(vt.actions(g, "french"), { "disrupt fr_barrois" }, "the hidden conscript")
    vt.apply(g, "french", "disrupt fr_barrois")
    eq(face(g, "fr_barrois"), "disrupted", "disrupted")
    eq(loc(g, "fr_barrois"), "box:french_hidden_1", "still hidden")
    expect(g, "A unit of hidden force french_hidden_1 at 5420 is affected")   -- the opponent's line
end)

test("16.1 REC 3 with 15.1: a hidden unit on the Rhine may be its owner's choice (the selector reads the marker's hex)", function()
    local g = with_card(3, "french", { pieces = {
        { "french_hidden_2", "4417" }, { "fr_friant", "4417" }, { "fr_meunier", "box:french_hidden_2" },
        { "co_lieven", "4418" } } })
    same(vt.actions(g, "french"), { "disrupt fr_friant", "disrupt fr_meunier" }, "both French units on the Rhine")
    vt.apply(g, "french", "disrupt fr_meunier")
    eq(face(g, "fr_meunier"), "disrupted", "the hidden one")
    same(vt.actions(g, "coalition"), { "disrupt co_lieven" }, "the Coalition's choice")
end)

test("16.1 REC 6 French draw with 15.1: the French choose among the Cossacks they can see, never a hidden one (RV-2)", function()
    local g = with_card(6, "french", { pieces = {
        { "coalition_hidden_1", "5621" }, { "co_lieven", "5621" }, { "co_platov_cos", "box:coalition_hidden_1" } } })
    assert(step(g) ~= "cards.disrupt", "no visible Cossack: nothing to choose")
    expect(g, "coalition has no unit that qualifies")
    eq(face(g, "co_platov_cos"), "ready", "the hidden Cossack is untouched")
end)

test("16.1 REC 26 with 15.1: a VI Corps unit in a hidden box may be removed from play (as if on the map)", function()
    local g = with_card(26, "coalition", { pieces = {
        { "french_hidden_1", "5420" }, { "fr_friant", "5420" }, { "fr_ricard", "box:french_hidden_1" } } })
    eq(vt.decision(g).role, "french", "the French choose (the card can be carried out)")
    same(vt.actions(g, "french"), { "pick fr_ricard" }, "the hidden VI Corps unit")
    vt.apply(g, "french", "pick fr_ricard")
    eq(loc(g, "fr_ricard"), nil, "removed from play")
    eq(loc(g, "french_hidden_1"), nil, "its box is empty: the marker goes")
    expect(g, "A unit of hidden force french_hidden_1 at 5420 is affected")
end)

test("16.1 REC 7 French draw with 15.1: a stack of an Austrian on the map and a hidden Russian may not move at all", function()
    local g = with_card(7, "french")
    enter_phase(g, "movement", { { "schwarzenberg", "5621" }, { "co_crenneville", "5621" }, { "co_hohenlohe", "5621" },
                                 { "coalition_hidden_1", "5621" }, { "co_ru_guard_inf", "box:coalition_hidden_1" }, CTRAIN("5621", "ct1"),
                                 { "giulay", "5921" }, { "co_fresnel", "5921" }, CTRAIN("5921", "ct2") },
        { supply_trains_coalition = "5 5 5 5 5 5 5 5 5 5 5 5", supply_trains_french = "1 1 1 1 1 1 1 1 1 1 1 1" })
    eq(vt.decision(g).role, "coalition", "the Coalition moves")
    assert(not vt.has_action(g, "coalition", "move 5621"), "the Austro-Russian stack may not move: " .. moves(g, "coalition"))
    assert(vt.has_action(g, "coalition", "move 5921"), "the Austrian stack may")
end)

test("16.1 REC 5 with 15.1: a Swiss stack with a hidden unit moves without a Supply Train (the hidden unit is in Switzerland)", function()
    local g = with_card(5, "coalition")
    enter_phase(g, "movement", { { "giulay", "4424" }, { "co_crenneville", "4424" }, { "co_hohenlohe", "4424" },
                                 { "coalition_hidden_1", "4424" }, { "co_fresnel", "box:coalition_hidden_1" },
                                 { "ney", "5621" }, { "fr_friant", "5621" }, FTRAIN("5621") })
    vt.apply(g, "french", "pass ft")
    assert(vt.has_action(g, "coalition", "move 4424"), "the Swiss stack may move without a train: " .. moves(g, "coalition"))
end)

-- ---- 16.2 with 16.1 ------------------------------------------------------------------------------

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

test("16.2 11.5 with 16.1 REC 20: Blucher ill gives a CR of 0 to the combat, although he can command the units", function()
    local g = combat_game({ "command_structure" }, { 6, 1, 1, 3 }, { 1, 3 }, function(game)
        for _, p in ipairs { "blucher", "co_horn", "co_pr_william", "co_pirch1" } do place(game, { { p, "4921" } }) end
        place(game, { { "fr_duhesme", "4920" } })
        game.set_prop("blucher", "cr_zero_turn", 7)       -- what REC 20 sets (cnw.cards)
    end)
    vt.apply(g, "coalition", "attack 4921 4920")
    if vt.has_action(g, "coalition", "confirm") then vt.apply(g, "coalition", "confirm") end
    vt.apply(g, "coalition", "cc 1")
    if step(g) == "combat.support" and vt.decision(g).role == "coalition" then vt.apply(g, "coalition", "done") end
    expect(g, "attack CR 0 (blucher commands 3 unit(s))")
end)

-- ---- 16.2 with 15.1 ------------------------------------------------------------------------------

local function hidden_move_game(pieces, options)
    local g = vt.new_game { setup = EMPTY, seed = 1, dice = { 6 }, options = options }
    vt.edit(g, function(game)
        game.set_turn(1)
        place(game, pieces)
        game.set_var("supply_trains_french", "4 4 4 4 4 4 4 4 4 4 4 4")
        game.set_var("supply_trains_coalition", "4 4 4 4 4 4 4 4 4 4 4 4")
        game.decide { role = "french", step = "game.begin_phase", context = { phase = "movement" } }
    end)
    vt.apply(g, "french", "begin")
    return g
end

test("16.2 8.2 with 15.1: a hidden unit moves alone into another stack's box; the units that go on keep a Commander able to command one of them", function()
    -- Marmont (VI Corps) with Duhesme (II Corps) on the map and Lagrange (VI Corps) hidden
    local g = hidden_move_game({ { "marmont", "5621" }, { "fr_duhesme", "5621" }, FTRAIN("5621"),
                                 { "french_hidden_2", "5621" }, { "fr_lagrange", "box:french_hidden_2" },
                                 { "fr_decouz", "5721" }, { "french_hidden_5", "5721" }, { "fr_barrois", "box:french_hidden_5" } },
        { "hidden_forces", "command_structure" })
    vt.apply(g, "french", "move 5621")
    assert(not vt.has_action(g, "french", "leave fr_lagrange"),
        "Marmont cannot command Duhesme: Lagrange may not be left behind: " .. moves(g, "french"))
    vt.apply(g, "french", "leave fr_duhesme")    -- Lagrange goes on: Marmont commands him
    vt.apply(g, "french", "drop marmont")
    vt.apply(g, "french", "to 5721")
    vt.apply(g, "french", "end")
    eq(loc(g, "fr_lagrange"), "box:french_hidden_5", "transferred to the other box (15.1, 8.2)")
    eq(loc(g, "fr_duhesme"), "5621", "Duhesme stayed")
    eq(loc(g, "ft"), nil, "the Supply Train is used")
end)

-- ---- 16.4 with 16.1 ------------------------------------------------------------------------------

test("16.4 with 16.1: a card's extra Combat Command this Turn is not a basic CC (CS-1)", function()
    local function ends(french_cc_basic, french_cc)
        local g = vt.new_game { setup = EMPTY, options = { "cc_victory" } }
        vt.edit(g, function(game)
            game.set_turn(5)
            game.set_track("french_cc_basic", french_cc_basic)
            game.set_track("french_cc", french_cc)            -- this Turn's CCs after a card's +1
            game.set_track("coalition_cc_basic", 1)
            game.decide { role = "french", step = "game.begin_phase", context = { phase = "reinforcements" } }
        end)
        vt.apply(g, "french", "begin")
        return vt.decision(g).result
    end
    eq(ends(5, 6), nil, "5 basic CCs and a card's +1: no victory")
    assert(ends(6, 6), "6 basic CCs: the French win")
end)

-- ---- 16.1 secrecy ----------------------------------------------------------------------------------

local function dump(v)
    if type(v) ~= "table" then return tostring(v) end
    local out = {}
    for k, x in pairs(v) do out[#out + 1] = tostring(k) .. "=" .. dump(x) end
    table.sort(out)
    return "{" .. table.concat(out, ",") .. "}"
end

test("16.1 a drawn single-instruction card is secret until laid: no public variable tells the French that the Coalition drew one", function()
    -- the French draw REC 12, the Coalition REC 13 (Play immediately), to be laid after the French card
    local g = vt.new_game { setup = "tests/setups/cards.xml", options = { "event_cards" }, seed = 1 }
    vt.edit(g, function(game)
        game.set_turn(2)
        game.set_var("supply_setup_done", true)
        for _, id in ipairs { "winter", "spring", cards.hand("french"), cards.hand("coalition"), cards.DISCARD } do
            for _, c in ipairs(game.pile(id)) do game.move_card(c, id, "test_box") end
        end
        game.move_card(rec(13), "test_box", "winter"); game.move_card(rec(12), "test_box", "winter")
        game.move_card(rec(2), "test_box", cards.hand("french")); game.move_card(rec(7), "test_box", cards.hand("coalition"))
        game.decide { role = "french", step = "game.begin_phase", context = { phase = "start" } }
    end)
    vt.apply(g, "french", "begin")
    eq(vt.decision(g).role, "french", "the French choose first")
    -- the variables without a leading "_" are in every player's view (docs/cli.md)
    for _, name in ipairs { "cards_turn", "cards_pending", "cards_active" } do
        local text = dump(vt.with(g, function(game) return game.var(name) end))
        assert(not text:find("single", 1, true) and not text:find("rec_13", 1, true),
            "public variable " .. name .. " tells the Coalition's draw: " .. text)
    end
    vt.apply(g, "french", "play rec_12")
    same(vt.with(g, function(game) return game.pile(cards.DISCARD) end), { "rec_13", "rec_12" }, "REC 13 follows at once")
end)

-- ---- 16.3 with 15.1 ------------------------------------------------------------------------------

test("16.3 with 15.1: Murat's neutral army may not be put into a hidden box; after REC 9 it may", function()
    local g = vt.new_game { setup = EMPTY, seed = 1, options = { "hidden_forces", "murat_neutral" } }
    vt.edit(g, function(game)
        game.set_turn(8)
        for _, side in ipairs { "french", "coalition" } do
            for i = 1, 8 do game.create(side .. "_hidden_" .. i, { id = side .. "_hidden_" .. i }) end
        end
        local reg = {}
        for _, t in ipairs { "murat", "co_nap_guard", "co_nap_carascosa", "co_nap_ambrosio", "co_nap_cav" } do
            game.create(t, { id = t, at = "4227" }); reg[t] = "murat_joined"
            game.set_prop(t, "arrived_turn", 7)
        end
        game.set_var("neutral_pieces", reg)
        game.decide { role = "french", step = "game.begin_phase", context = { phase = "reinforcements" } }
    end)
    vt.apply(g, "french", "begin")
    if vt.decision(g).role == "french" then vt.apply(g, "french", "done") end
    eq(step(g), "hidden.arrange", "the Coalition's hidden forces decision")
    same(vt.actions(g, "coalition"), { "done" }, "nothing to hide while the army is neutral")
    vt.edit(g, function(game) game.set_var("murat_joined", true) end)
    assert(vt.has_action(g, "coalition", "hide co_nap_guard"), "after REC 9 the army is the Coalition's: " .. moves(g, "coalition"))
end)

test("16.2 8.6 with 15.1: the hidden units moving with the stack are among the combat units the Commanders must be able to command", function()
    -- Winter, 3 hexes: +1; die 5: 6 (a loss) without the -1, 5 (no effect) with it. Marmont (VI)
    -- commands Lagrange and Ricard (VI); Brayer (XI), hidden in the box, is not his.
    for _, case in ipairs { { "fr_ricard", false }, { "fr_brayer", true } } do
        local g = vt.new_game { setup = EMPTY, seed = 1, dice = { 5 }, options = { "hidden_forces", "command_structure" } }
        vt.edit(g, function(game)
            game.set_turn(1)
            place(game, { { "marmont", "5621" }, { "fr_lagrange", "5621" }, FTRAIN("5621"),
                          { "french_hidden_1", "5621" }, { case[1], "box:french_hidden_1" } })
            game.set_var("supply_trains_french", "4 4 4 4 4 4 4 4 4 4 4 4")
            game.set_var("supply_trains_coalition", "4 4 4 4 4 4 4 4 4 4 4 4")
            game.decide { role = "french", step = "game.begin_phase", context = { phase = "movement" } }
        end)
        vt.apply(g, "french", "begin")
        vt.apply(g, "french", "move 5621")
        vt.apply(g, "french", "to 5921")
        vt.apply(g, "french", "end")
        eq(loc(g, case[1]), "box:french_hidden_1", "the hidden force travelled with its stack")
        local drm = events_text(g):find("16.2 march attrition drm -1: marmont commands the stack -1", 1, true) ~= nil
        eq(drm, not case[2], case[1] .. " hidden: Marmont's -1")
    end
end)

-- ---- 16.2 who commands whom ------------------------------------------------------------------------

test("16.2 seniority: S all his side's units; A his army; I / C its infantry / cavalry; W his wing; K every Cossack; Guard any designated Commander", function()
    local command = require("cnw.command")
    local all = { "napoleon", "ney", "grouchy", "marmont", "derlon", "blucher", "platov", "barclay",
                  "fr_duhesme", "fr_pire", "fr_foy", "fr_friant", "fr_lagrange",
                  "co_horn", "co_karpov_cos", "co_benck_cos", "co_gorchakov", "co_platov_cos", "co_seslavin_cos" }
    local g = vt.new_game { setup = EMPTY, options = { "command_structure" } }
    vt.edit(g, function(game) for _, id in ipairs(all) do game.create(id, { id = id }) end end)
    local function can(c, u) return vt.with(g, function(game) return command.can_command(game, c, u) end) end
    local cases = {
        { "napoleon", "fr_foy", true, "S: a unit of another army" },
        { "napoleon", "co_horn", false, "S: not the enemy's" },
        { "blucher", "co_horn", true, "A: his army" },
        { "blucher", "co_gorchakov", false, "A: not another army" },
        { "ney", "fr_duhesme", true, "I: his army's infantry" },
        { "ney", "fr_pire", false, "I: not its cavalry" },
        { "ney", "fr_foy", false, "I: not another army's infantry" },
        { "grouchy", "fr_pire", true, "C: his army's cavalry" },
        { "grouchy", "fr_duhesme", false, "C: not its infantry" },
        { "derlon", "fr_foy", true, "W: his wing" },
        { "derlon", "fr_duhesme", false, "W: not outside it" },
        { "barclay", "co_gorchakov", true, "W: his wing (Coalition)" },
        { "platov", "co_karpov_cos", true, "K: a Cossack of another army" },
        { "platov", "co_benck_cos", true, "K: any Cossack" },
        { "platov", "co_gorchakov", false, "K: not a non-Cossack" },
        { "marmont", "fr_lagrange", true, "Corps: his corps" },
        { "marmont", "fr_duhesme", false, "Corps: not another corps" },
        { "marmont", "fr_friant", true, "Guard: any designated Commander" },
        { "derlon", "fr_friant", true, "Guard: even one of another army" },
    }
    for _, c in ipairs(cases) do eq(can(c[1], c[2]), c[3], c[4] .. " (" .. c[1] .. " / " .. c[2] .. ")") end
end)
