-- Tests of advanced rule 16.1, the Random Event Cards: the deck mechanics (cnw_series/cards.lua)
-- and each card's effect (rules/events.lua and the primitives), with the decks in a forced order
-- (tests/setups/cards.xml has them unshuffled; the tests arrange the piles with vt.edit).
local cards = require("cnw.cards")
local supply = require("cnw.supply")

local function eq(actual, expected, what)
    if actual ~= expected then
        error(string.format("%s: expected %s, got %s", what, tostring(expected), tostring(actual)), 2)
    end
end

local function same(list, expected, what)
    eq(table.concat(list, " "), table.concat(expected, " "), what)
end

local function contains(list, x)
    for _, y in ipairs(list) do if y == x then return true end end
    return false
end

local function pile(g, id) return vt.with(g, function(game) return game.pile(id) end) end
local function track(g, id) return vt.with(g, function(game) return game.track(id) end) end
local function var(g, name) return vt.with(g, function(game) return game.var(name) end) end
local function face(g, id) return vt.with(g, function(game) return game.piece(id).face end) end

local function events_text(g) return table.concat(vt.events(g), "\n") end
local function expect_event(g, text)
    assert(events_text(g):find(text, 1, true), "expected an event containing '" .. text .. "' in:\n" .. events_text(g))
end

local function rec(n) return string.format("rec_%02d", n) end

-- Moves every card of every pile to the "box" pile, then builds the piles asked:
-- piles = { winter = {n, ...} (top first), french = {n...} (hand), coalition = {...}, spring = ... }.
local function arrange_piles(game, piles)
    for _, id in ipairs { "winter", "spring", cards.hand("french"), cards.hand("coalition"), cards.DISCARD } do
        for _, c in ipairs(game.pile(id)) do game.move_card(c, id, "test_box") end
    end
    local function put(list, to)
        for i = #list, 1, -1 do game.move_card(rec(list[i]), "test_box", to) end
    end
    put(piles.winter or {}, "winter")
    put(piles.spring or {}, "spring")
    put(piles.french or {}, cards.hand("french"))
    put(piles.coalition or {}, cards.hand("coalition"))
end

-- A game with the event cards on, at the start of `turn` (before the draw) with the piles arranged.
local function card_game(opts)
    local g = vt.new_game { setup = "tests/setups/cards.xml", options = { "event_cards" }, seed = opts.seed or 1,
                            dice = opts.dice }
    vt.edit(g, function(game)
        game.set_turn(opts.turn or 2)
        game.set_var("supply_setup_done", true)
        arrange_piles(game, opts.piles)
        if opts.arrange then opts.arrange(game) end
        game.decide { role = "french", step = "game.begin_phase", context = { phase = "start" } }
    end)
    vt.apply(g, "french", "begin")
    return g
end

-- ---- 16.1 deck mechanics ------------------------------------------------------------------

test("16.1 deck mechanics: cards 1, 3, 4, 9, 11, 13, 17 are set aside for the first deal, one Winter card is dealt to each player, then they are shuffled back", function()
    local aside = { 1, 3, 4, 9, 11, 13, 17 }
    for seed = 1, 3 do
        local g = vt.new_game { setup = "tests/setups/cards.xml", options = { "event_cards" }, seed = seed }
        -- the decks are in card order: the first two cards not set aside are 2 and 5
        same(pile(g, cards.hand("french")), { "rec_02" }, "French hand")
        same(pile(g, cards.hand("coalition")), { "rec_05" }, "Coalition hand")
        local winter = pile(g, "winter")
        eq(#winter, 16, "Winter deck after the deal")
        for _, n in ipairs(aside) do assert(contains(winter, rec(n)), rec(n) .. " is back in the Winter deck") end
        eq(#pile(g, "spring"), 18, "Spring deck")
    end
    -- shuffled back: the Winter deck is no longer in card order
    local g = vt.new_game { setup = "tests/setups/cards.xml", options = { "event_cards" }, seed = 1 }
    local winter = pile(g, "winter")
    local sorted = {}
    for i, c in ipairs(winter) do sorted[i] = c end
    table.sort(sorted)
    assert(table.concat(winter, " ") ~= table.concat(sorted, " "), "the Winter deck is shuffled after the deal")
end)

test("16.1 deck mechanics: each player draws from the Winter deck; the French declare first; the played card is discarded, the other held", function()
    local g = card_game { turn = 2, piles = { winter = { 12, 15, 16 }, french = { 2 }, coalition = { 7 } } }
    local d = vt.decision(g)
    eq(d.role, "french", "the French declare first")
    eq(d.step, "cards.choose", "step")
    same(vt.actions(g, "french"), { "play rec_12", "play rec_02" }, "the French choose between the drawn and the held card")
    eq(#vt.actions(g, "coalition"), 0, "the Coalition waits")
    vt.apply(g, "french", "play rec_02")
    eq(vt.decision(g).role, "coalition", "then the Coalition")
    same(vt.actions(g, "coalition"), { "play rec_15", "play rec_07" }, "Coalition choice")
    vt.apply(g, "coalition", "play rec_07")
    same(pile(g, cards.hand("french")), { "rec_12" }, "French hand keeps the other card")
    same(pile(g, cards.hand("coalition")), { "rec_15" }, "Coalition hand")
    same(pile(g, cards.DISCARD), { "rec_07", "rec_02" }, "discard pile")
    same(pile(g, "winter"), { "rec_16" }, "Winter deck")
    assert(vt.with(g, function(game) return game.phase() end) ~= "start", "then the General Supply phase and on")
end)

test("16.1 deck mechanics: only the drawer's instructions are carried out", function()
    local g = card_game { turn = 2, piles = { winter = { 12, 15 }, french = { 2 }, coalition = { 7 } } }
    vt.apply(g, "french", "play rec_02")
    vt.apply(g, "coalition", "play rec_07")
    vt.with(g, function(game)
        local active = cards.active(game)
        eq(#active, 2, "two effects this Turn")
        eq(active[1].name .. " " .. active[1].drawer, "supply_trains french", "REC 2: the French instruction")
        eq(active[2].name .. " " .. active[2].drawer, "cc coalition", "REC 7: the Coalition instruction")
    end)
end)

test("16.1 deck mechanics: a drawn single-instruction card is played after the opponent lays his card, and cannot be held", function()
    -- the French draw REC 13 (Play immediately): the Coalition lays first
    local g = card_game { turn = 2, piles = { winter = { 13, 12 }, french = { 2 }, coalition = { 7 } } }
    eq(vt.decision(g).role, "coalition", "the Coalition lays first")
    vt.apply(g, "coalition", "play rec_12")
    same(pile(g, cards.hand("french")), { "rec_02" }, "the French keep their held card")
    same(pile(g, cards.DISCARD), { "rec_13", "rec_12" }, "REC 13 is played after REC 12")
    -- the Coalition draws a single-instruction card: the French lay first as usual
    local h = card_game { turn = 2, piles = { winter = { 12, 13 }, french = { 2 }, coalition = { 7 } } }
    eq(vt.decision(h).role, "french", "the French lay first")
    vt.apply(h, "french", "play rec_12")
    same(pile(h, cards.DISCARD), { "rec_13", "rec_12" }, "REC 13 follows at once")
    same(pile(h, cards.hand("coalition")), { "rec_07" }, "the Coalition keeps its held card")
end)

test("16.1 deck mechanics: if both players draw single-instruction cards the normal order is kept", function()
    local g = card_game { turn = 2, piles = { winter = { 13, 17 }, french = { 2 }, coalition = { 7 } } }
    same(pile(g, cards.DISCARD), { "rec_17", "rec_13" }, "French REC 13 then Coalition REC 17, no choice")
    assert(vt.with(g, function(game) return game.phase() end) ~= "start", "no decision was needed")
end)

test("16.1 deck mechanics: undrawn Winter cards are discarded after Turn 6; from Turn 7 the Spring deck, its first card added to the held Winter card", function()
    local g = card_game { turn = 7, piles = { winter = { 14, 16 }, spring = { 19, 20, 23 }, french = { 2 }, coalition = { 7 } } }
    same(vt.actions(g, "french"), { "play rec_19", "play rec_02" }, "the Spring card joins the held Winter card")
    vt.apply(g, "french", "play rec_19")
    vt.apply(g, "coalition", "play rec_07")
    eq(#pile(g, "winter"), 0, "the Winter deck is empty")
    assert(contains(pile(g, cards.DISCARD), "rec_14") and contains(pile(g, cards.DISCARD), "rec_16"),
        "the undrawn Winter cards are on the discard pile")
    same(pile(g, "spring"), { "rec_23" }, "Spring deck")
end)

test("16.1 deck mechanics: the effects of all cards last for the current Turn only", function()
    local g = card_game { turn = 2, piles = { winter = { 12, 15, 16, 18 }, french = { 2 }, coalition = { 7 } } }
    vt.apply(g, "french", "play rec_02")
    vt.apply(g, "coalition", "play rec_07")
    eq(vt.with(g, function(game) return #cards.active(game) end), 2, "active on Turn 2")
    vt.edit(g, function(game) game.set_turn(3) end)
    eq(vt.with(g, function(game) return #cards.active(game) end), 0, "nothing left on Turn 3")
end)

test("16.1 deck mechanics: a card that cannot be carried out is simply discarded", function()
    -- REC 11: disrupt a French conscript; there is none on the board
    local g = card_game { turn = 2, piles = { winter = { 11, 15 }, french = { 2 }, coalition = { 7 } } }
    vt.apply(g, "coalition", "play rec_07")
    expect_event(g, "cannot be carried out (16.1")
    assert(contains(pile(g, cards.DISCARD), "rec_11"), "REC 11 is on the discard pile")
end)

test("16.1 deck mechanics: without the option there are no cards", function()
    local g = vt.new_game { setup = "tests/setups/cards.xml", seed = 1 }
    eq(#pile(g, cards.hand("french")), 0, "no French hand")
    eq(#pile(g, "winter"), 18, "the Winter deck is untouched")
end)

test("16.1 every card's effects are written in the effect language and have a primitive", function()
    local g = vt.new_game { setup = "tests/setups/cards.xml", options = { "event_cards" }, seed = 1 }
    vt.with(g, function(game)
        for n = 1, 36 do
            local card = rec(n)
            local sides = cards.single(card) and { "french" } or { "french", "coalition" }
            for _, side in ipairs(sides) do
                local effects = cards.effects(card, side)
                assert(#effects > 0, card .. " " .. side .. " has effects")
                for _, e in ipairs(effects) do
                    -- murat_joins is 1814's own (rules/events.lua, not loaded here): REC 9's test
                    assert(cards.primitives[e.name] or e.name == "murat_joins", card .. ": no primitive " .. e.name)
                end
            end
        end
    end)
end)

-- ---- 16.1 each card's effect -----------------------------------------------------------------
-- with_card(n, drawer, opts): the drawer holds only card n and the decks are empty, so he plays
-- it at the start of the Turn (Turn 2 for Winter cards, 8 for Spring ones unless opts.turn);
-- opts.pieces = { {type, hex, id=, face=, owner=, props=}, ... } are placed first.
local function place(game, pieces)
    for _, p in ipairs(pieces or {}) do
        local id = game.create(p[1], { id = p.id or p[1], at = p[2], face = p.face, owner = p.owner, hidden = p.hidden })
        for k, v in pairs(p.props or {}) do game.set_prop(id, k, v) end
        if p.bottom then game.move(id, p[2], 1) end
    end
end

local function with_card(n, drawer, opts)
    opts = opts or {}
    local g = vt.new_game { setup = "tests/setups/cards.xml", options = opts.options or { "event_cards" }, seed = 1, dice = opts.dice }
    vt.edit(g, function(game)
        game.set_turn(opts.turn or (n <= 18 and 2 or 8))
        game.set_var("supply_setup_done", true)
        arrange_piles(game, { [drawer] = { n } })
        place(game, opts.pieces)
        for k, v in pairs(opts.vars or {}) do game.set_var(k, v) end
        for k, v in pairs(opts.tracks or {}) do game.set_track(k, v) end
        game.decide { role = "french", step = "game.begin_phase", context = { phase = "start" } }
    end)
    vt.apply(g, "french", "begin")
    return g
end

-- Places more pieces, then enters `phase` (its begin()) as the tests of each rule do.
local function enter_phase(g, phase, pieces, vars)
    vt.edit(g, function(game)
        place(game, pieces)
        for k, v in pairs(vars or {}) do game.set_var(k, v) end
        game.decide { role = "french", step = "game.begin_phase", context = { phase = phase } }
    end)
    vt.apply(g, "french", "begin")
end

local CTX = { params = { cc_min = 1, cc_max = 6 }, hooks = {} }
local function active_names(g)
    return vt.with(g, function(game)
        local out = {}
        for _, e in ipairs(cards.active(game)) do out[#out + 1] = e.name .. ":" .. e.drawer end
        return table.concat(out, " ")
    end)
end

-- Combat Commands this Turn, through the real Combat Commands phase: a French and a Coalition
-- unit face each other so the Combat phase then waits for an order.
local function combat_commands(g, basic_french, basic_coalition)
    enter_phase(g, "combat_commands", { { "ney", "5621" }, { "fr_friant", "5621" }, { "blucher", "5721" }, { "co_lieven", "5721" } },
        { cc_basic_french = tostring(basic_french or 3), cc_basic_coalition = tostring(basic_coalition or 3) })
    return track(g, "french_cc"), track(g, "coalition_cc")
end

test("16.1 REC 1 hard frost: rivers do not block General Supply routes or depot chains this Turn", function()
    local g = with_card(1, "coalition")
    eq(active_names(g), "rivers_frozen:coalition", "active")
    vt.with(g, function(game)
        local a, b
        for _, h in ipairs(map.hexes()) do
            for _, n in ipairs(map.neighbours(h)) do
                if not a and map.has_hexside(h, n, "river") and not map.has_hexside(h, n, "bridge")
                    and not map.has_hexside(h, n, "lake") and map.terrain(n) == "clear" and map.terrain(h) == "clear" then a, b = h, n end
            end
        end
        local plain = { params = {}, hooks = {} }
        local frozen = { params = {}, hooks = { supply_rivers_frozen = function(c, gm) return cards.rivers_frozen(c, gm) end } }
        eq(supply._situation(plain, game, "french").cost[a][b], nil, "an unbridged river blocks a route")
        eq(supply._situation(frozen, game, "french").cost[a][b] ~= nil, true, "a frozen river does not")
    end)
end)

test("16.1 REC 2 Frankfurt: Coalition draw, the French have one CC fewer; French draw, one more Supply Train", function()
    local g = with_card(2, "coalition")
    local f, c = combat_commands(g, 3, 3)
    eq(f, 2, "French CCs"); eq(c, 3, "Coalition CCs")
    local h = with_card(2, "french")
    expect_event(h, "french allocates 10 Supply Trains this Turn (7.2)")   -- 9 on the track, +1
    eq(vt.with(h, function(game) return cards.supply_trains_delta(CTX, game, "french") end), 1, "one more French train")
    eq(vt.with(h, function(game) return cards.supply_trains_delta(CTX, game, "coalition") end), 0, "none for the Coalition")
end)

test("16.1 REC 3 typhus: each player disrupts one of his units on or next to the Rhine, his choice", function()
    -- 4417 touches the Rhine (map.xml); 5420 (Paris) does not
    local g = with_card(3, "french", { pieces = { { "fr_friant", "4417" }, { "fr_meunier", "5420" }, { "co_lieven", "4418" } } })
    eq(vt.decision(g).role, "french", "the French choose first")
    same(vt.actions(g, "french"), { "disrupt fr_friant" }, "only the unit on the Rhine")
    vt.apply(g, "french", "disrupt fr_friant")
    eq(face(g, "fr_friant"), "disrupted", "French unit")
    eq(vt.decision(g).role, "coalition", "then the Coalition")
    same(vt.actions(g, "coalition"), { "disrupt co_lieven" }, "Coalition choice")
    vt.apply(g, "coalition", "disrupt co_lieven")
    -- (the General Supply phase follows at once and eliminates the unsupplied Coalition unit)
    expect_event(g, "co_lieven is disrupted (REC 3")
    eq(face(g, "fr_meunier"), "ready", "Paris is not on the Rhine")
end)

test("16.1 REC 4 Legislative Body: the French have one CC fewer and their reinforcements due this Turn come next Turn", function()
    local g = with_card(4, "coalition", { pieces = { { "fr_rottembourg", nil, props = { arrive_turn = 2, arrive_at = "5420" } } } })
    eq(vt.with(g, function(game) return game.prop("fr_rottembourg", "arrive_turn") end), 3, "delayed to Turn 3")
    local f = combat_commands(g, 3, 3)
    eq(f, 2, "French CCs, whoever drew the card")
end)

test("16.1 REC 5 Swiss passes: a Coalition stack in Switzerland moves without a Supply Train; French draw: no Coalition supply through Switzerland", function()
    local g = with_card(5, "coalition")
    enter_phase(g, "movement", { { "giulay", "4424" }, { "co_crenneville", "4424" }, { "ney", "5621" }, { "fr_friant", "5621" },
                                 { "french_supply", "5621", id = "ft", face = "train", hidden = true } })
    vt.apply(g, "french", "pass ft")
    assert(vt.has_action(g, "coalition", "move 4424"), "the Swiss stack may move without a train: " .. table.concat(vt.actions(g, "coalition"), ", "))
    local h = with_card(5, "french")
    eq(vt.with(h, function(game) return cards.blocked_region(CTX, game, "coalition") end), "switzerland", "Coalition routes blocked")
    eq(vt.with(h, function(game) return cards.blocked_region(CTX, game, "french") end), nil, "French routes free")
end)

local function call(g, f) return vt.with(g, f) end
local function moves(g, role) return table.concat(vt.actions(g, role), ", ") end
local TRAIN = function(hex, id) return { "french_supply", hex, id = id or "ft", face = "train", hidden = true } end
local CTRAIN = function(hex, id) return { "coalition_supply", hex, id = id or "ct", face = "train", hidden = true } end

test("16.1 REC 6 Cossack raids: a lone Cossack moves without a Commander or Supply Train, up to 3 hexes; French draw: a Cossack in French territory is disrupted", function()
    local g = with_card(6, "coalition")
    enter_phase(g, "movement", { { "co_platov_cos", "5621" }, { "ney", "4417" }, { "fr_friant", "4417" }, TRAIN("4417") })
    vt.apply(g, "french", "pass ft")
    assert(vt.has_action(g, "coalition", "move 5621"), "the Cossack may move: " .. moves(g, "coalition"))
    vt.apply(g, "coalition", "move 5621")
    assert(vt.has_action(g, "coalition", "to 5921"), "three hexes")
    assert(not vt.has_action(g, "coalition", "to 6021"), "not four (no forced march)")
    local h = with_card(6, "french", { pieces = { { "co_platov_cos", "5420" }, { "co_seslavin_cos", "4214" } } })
    same(vt.actions(h, "french"), { "disrupt co_platov_cos" }, "only the Cossack in French-friendly territory")
    vt.apply(h, "french", "disrupt co_platov_cos")
    expect_event(h, "co_platov_cos is disrupted (REC 6")
end)

test("16.1 REC 7 Langres: Coalition draw, one more Coalition CC; French draw, no stack with Austrians and Russians may move", function()
    local g = with_card(7, "coalition")
    local f, c = combat_commands(g, 3, 3)
    eq(c, 4, "Coalition CCs"); eq(f, 3, "French CCs")
    local h = with_card(7, "french")
    enter_phase(h, "movement", { { "schwarzenberg", "5621" }, { "co_crenneville", "5621" }, { "co_ru_guard_inf", "5621" }, CTRAIN("5621", "ct1"),
                                 { "giulay", "5921" }, { "co_fresnel", "5921" }, CTRAIN("5921", "ct2") },
        { supply_trains_coalition = "5 5 5 5 5 5 5 5 5 5 5 5", supply_trains_french = "1 1 1 1 1 1 1 1 1 1 1 1" })
    eq(vt.decision(h).role, "coalition", "the Coalition moves")
    assert(not vt.has_action(h, "coalition", "move 5621"), "the Austro-Russian stack may not move")
    assert(vt.has_action(h, "coalition", "move 5921"), "the Austrian stack may")
end)

test("16.1 REC 8 Holland: Coalition draw, Amsterdam is Coalition-friendly for depots; French draw, +2 to the defence of Antwerp", function()
    local g = with_card(8, "coalition")
    eq(call(g, function(game) return cards.depot_city_friendly(CTX, game, "coalition", "5012") end), true, "Amsterdam")
    eq(call(g, function(game) return cards.depot_city_friendly(CTX, game, "coalition", "5115") end), false, "Antwerp is not")
    local h = with_card(8, "french", { pieces = { { "fr_friant", "5115" }, { "fr_meunier", "5420" } } })
    eq(call(h, function(game) return cards.defence_bonus(CTX, game, "french", { "fr_friant" }) end), 2, "in Antwerp")
    eq(call(h, function(game) return cards.defence_bonus(CTX, game, "french", { "fr_meunier" }) end), 0, "elsewhere")
    eq(call(h, function(game) return cards.defence_bonus(CTX, game, "coalition", { "fr_friant" }) end), 0, "not the Coalition's")
end)

test("16.1 REC 9 Murat joins the Coalition: the variable murat_joined is set (read by 16.3)", function()
    eq(var(with_card(9, "french"), "murat_joined"), true, "drawn by the French")
    eq(var(with_card(9, "coalition"), "murat_joined"), true, "drawn by the Coalition")
end)

test("16.1 REC 10 Blucher crosses the Rhine: one Coalition attack ignores the river; French draw: one stack may withdraw before combat", function()
    local g = with_card(10, "coalition")
    vt.edit(g, function(game)
        eq(cards.take(game, "ignore_river", "coalition"), true, "first attack")
        eq(cards.take(game, "ignore_river", "coalition"), false, "only one")
    end)
    local h = with_card(10, "french")
    eq(call(h, function(game) return cards.available(game, "withdraw_before_combat", "french") end), true, "French may withdraw")
    eq(call(h, function(game) return cards.available(game, "withdraw_before_combat", "coalition") end), false, "not the Coalition")
end)

test("16.1 REC 11 conscripts desert: the French disrupt one undisrupted Conscript of their choice", function()
    local g = with_card(11, "coalition", { pieces = { { "fr_barrois", "5420" }, { "fr_friant", "5420" } } })
    eq(vt.decision(g).role, "french", "the French choose")
    same(vt.actions(g, "french"), { "disrupt fr_barrois" }, "only the conscript")
    vt.apply(g, "french", "disrupt fr_barrois")
    eq(face(g, "fr_barrois"), "disrupted", "disrupted")
end)

test("16.1 REC 12 Valencay: Coalition draw, one more train reserved for Wellington's command; French draw, Spanish units may not attack", function()
    local g = with_card(12, "coalition", { pieces = { { "co_br1", "5933" }, { "co_crenneville", "4214" } } })
    eq(call(g, function(game) return cards.supply_trains_delta(CTX, game, "coalition") end), 1, "one more train")
    vt.with(g, function(game)
        local n, ok = cards.supply_trains_reserved(CTX, game, "coalition")
        eq(n, 1, "reserved"); eq(ok(game, "5933"), true, "Wellington's stack"); eq(ok(game, "4214"), false, "another stack")
    end)
    local h = with_card(12, "french", { pieces = { { "co_sp_morillo", "5933" }, { "co_br1", "5934" } } })
    eq(call(h, function(game) return cards.may_attack(CTX, game, "co_sp_morillo") end), false, "Spanish")
    eq(call(h, function(game) return cards.may_attack(CTX, game, "co_br1") end), true, "British")
end)

test("16.1 REC 13 blizzard: no forced march, and +1 to every march attrition roll", function()
    local g = with_card(13, "coalition", { pieces = { { "co_lieven", "4214" } } })
    eq(call(g, function(game) return cards.march_drm(CTX, game, { "co_lieven" }) end), 1, "+1 Coalition")
    enter_phase(g, "movement", { { "ney", "5621" }, { "fr_friant", "5621" }, TRAIN("5621") })
    vt.apply(g, "french", "move 5621")
    assert(vt.has_action(g, "french", "to 5921"), "three hexes: " .. moves(g, "french"))
    assert(not vt.has_action(g, "french", "to 6021"), "no forced march")
    eq(call(g, function(game) return cards.march_drm(CTX, game, { "fr_friant" }) end), 1, "+1 French")
end)

test("16.1 REC 14 Schwarzenberg: Coalition draw, a Bohemian stack rallies without a train; French draw, Bohemian stacks attack only with Schwarzenberg", function()
    local g = with_card(14, "coalition")
    enter_phase(g, "movement", { { "barclay", "4214" }, { "co_ru_guard_inf", "4214", face = "disrupted" } })
    assert(vt.has_action(g, "coalition", "rally 4214") or vt.has_action(g, "french", "rally 4214"),
        "the Bohemian stack may rally: " .. moves(g, vt.decision(g).role))
    local h = with_card(14, "french", { pieces = { { "co_ru_guard_inf", "4214" }, { "schwarzenberg", "4215" }, { "co_ru_guard_cav", "4215" } } })
    eq(call(h, function(game) return cards.may_attack(CTX, game, "co_ru_guard_inf") end), false, "without Schwarzenberg")
    eq(call(h, function(game) return cards.may_attack(CTX, game, "co_ru_guard_cav") end), true, "with him")
end)

test("16.1 REC 15 Chatillon: Coalition draw, it decides who attacks first; French draw, the Coalition has one CC fewer", function()
    local g = with_card(15, "coalition")
    eq(vt.decision(g).role, "coalition", "the Coalition decides")
    vt.apply(g, "coalition", "pick french")
    combat_commands(g, 2, 4)
    eq(var(g, "first_player"), "french", "the French attack first despite fewer CCs")
    local h = with_card(15, "french")
    local f, c = combat_commands(h, 3, 4)
    eq(c, 3, "Coalition CCs"); eq(f, 3, "French CCs")
end)

test("16.1 REC 16 intercepted dispatches: the drawer chooses an enemy face-down Supply Train, which is revealed; none yet: chosen once the trains are placed", function()
    local g = with_card(16, "coalition", { pieces = { { "ney", "5621" }, { "fr_friant", "5621" }, TRAIN("5621") } })
    same(vt.actions(g, "coalition"), { "reveal 5621 1" }, "named by hex, never by id")
    vt.apply(g, "coalition", "reveal 5621 1")
    eq(vt.with(g, function(game) return game.piece("ft").hidden end), false, "revealed")
    -- no face-down counter when the card is laid: the French choose at the start of movement
    local h = with_card(16, "french")
    expect_event(h, "chosen once the Supply Trains are placed")
    enter_phase(h, "movement", { { "blucher", "4214" }, { "co_horn", "4214" }, CTRAIN("4214"),
                                 { "coalition_supply_dummy", "4216", id = "cd", face = "train", hidden = true }, { "co_lieven", "4216", bottom = true } })
    eq(vt.decision(h).step, "cards.reveal", "the reveal comes first")
    same(vt.actions(h, "french"), { "reveal 4214 1", "reveal 4216 1" }, "both face-down counters")
    vt.apply(h, "french", "reveal 4216 1")
    eq(vt.with(h, function(game) return game.piece("cd").hidden end), false, "the dummy is revealed")
    assert(vt.decision(h).step ~= "cards.reveal", "then the phase goes on")
    -- nothing on the map then either: not carried out
    local k = with_card(16, "french")
    enter_phase(k, "movement", { { "ney", "5621" }, { "fr_friant", "5621" }, TRAIN("5621") })
    expect_event(k, "the instruction reveal cannot be carried out")
end)

test("16.1 REC 17 thaw: every hex is difficult terrain for movement unless entered by road", function()
    local g = with_card(17, "french")
    enter_phase(g, "movement", { { "ney", "5621" }, { "fr_friant", "5621" }, TRAIN("5621") })
    vt.apply(g, "french", "move 5621")
    assert(vt.has_action(g, "french", "to 5821"), "two hexes cost four: " .. moves(g, "french"))
    assert(not vt.has_action(g, "french", "to 5921"), "three cost six, over the forced march of 5")
end)

test("16.1 REC 18 National Guard: Coalition draw, a reinforcement due next Turn comes this Turn; French draw, a unit in a French city rallies without train or commander", function()
    local g = with_card(18, "coalition", { pieces = { { "co_lieven", nil, props = { arrive_turn = 3, arrive_at = "4214" } } } })
    same(vt.actions(g, "coalition"), { "pick co_lieven" }, "the reinforcement due on Turn 3")
    vt.apply(g, "coalition", "pick co_lieven")
    eq(vt.with(g, function(game) return game.prop("co_lieven", "arrive_turn") end), 2, "hastened")
    local h = with_card(18, "french")
    enter_phase(h, "movement", { { "fr_friant", "5420", face = "disrupted" } })
    eq(vt.decision(h).role, "french", "French rally")
    vt.apply(h, "french", "rally 5420")
    eq(face(h, "fr_friant"), "ready", "rallied without a train or commander")
end)

test("16.1 REC 19 Chaumont: Coalition draw, one more Coalition CC; French draw, the Coalition has one Supply Train fewer", function()
    local g = with_card(19, "coalition")
    local f, c = combat_commands(g, 3, 3)
    eq(c, 4, "Coalition CCs")
    local h = with_card(19, "french")
    expect_event(h, "coalition allocates 7 Supply Trains this Turn (7.2)")   -- 8 on the track, -1
    eq(call(h, function(game) return cards.supply_trains_delta(CTX, game, "coalition") end), -1, "one train fewer")
end)

test("16.1 REC 20 Blucher ill: Coalition draw, -1 march attrition for the Army of Silesia; French draw, Blucher has CR 0", function()
    local g = with_card(20, "coalition", { pieces = { { "co_horn", "4214" }, { "co_crenneville", "4215" } } })
    eq(call(g, function(game) return cards.march_drm(CTX, game, { "co_horn" }) end), -1, "Silesia")
    eq(call(g, function(game) return cards.march_drm(CTX, game, { "co_crenneville" }) end), 0, "Bohemia")
    local h = with_card(20, "french", { pieces = { { "blucher", "4214" }, { "yorck", "4215" } } })
    local core = require("cnw.core")
    eq(call(h, function(game) return core.cr(game, "blucher") end), 0, "Blucher's CR")
    assert(call(h, function(game) return core.cr(game, "yorck") end) > 0, "Yorck keeps his")
    vt.edit(h, function(game) game.set_turn(9) end)
    assert(call(h, function(game) return core.cr(game, "blucher") end) > 0, "next Turn Blucher is well")
end)

test("16.1 REC 21 Soissons: the Coalition may eliminate one French unit under siege, whoever drew the card", function()
    -- 5420 (Paris) held by one French unit, two Coalition units next to it
    local g = with_card(21, "french", { pieces = { { "fr_friant", "5420" }, { "co_lieven", "5421" }, { "co_horn", "5421" } } })
    eq(vt.decision(g).role, "coalition", "the Coalition chooses")
    vt.apply(g, "coalition", "pick fr_friant")
    eq(vt.with(g, function(game) return game.piece("fr_friant").loc end), "box:eliminated", "eliminated")
    expect_event(with_card(21, "coalition"), "cannot be carried out")
end)

test("16.1 REC 22 Bordeaux: Coalition draw, Bordeaux is no French USS while a Coalition unit is within 3 hexes; French draw, the Coalition has one CC fewer", function()
    local g = with_card(22, "coalition", { pieces = { { "co_br1", "5931" } } })
    eq(call(g, function(game) return cards.uss_lost(CTX, game, "french", "5929") end), true, "a Coalition unit 2 hexes away")
    eq(call(g, function(game) return cards.uss_lost(CTX, game, "french", "5420") end), false, "Paris is not Bordeaux")
    local far = with_card(22, "coalition", { pieces = { { "co_br1", "4214" } } })
    eq(call(far, function(game) return cards.uss_lost(CTX, game, "french", "5929") end), false, "no Coalition unit near")
    local h = with_card(22, "french")
    local f, c = combat_commands(h, 3, 4)
    eq(c, 3, "Coalition CCs")
end)

test("16.1 REC 23 Soult at bay: Coalition draw, one stack of Wellington's -1 march attrition; French draw, one of Soult's stacks +2 in defence", function()
    local g = with_card(23, "coalition", { pieces = { { "co_br1", "5933" }, { "co_br5", "5934" } } })
    vt.edit(g, function(game)
        eq(cards.march_drm(CTX, game, { "co_br1" }), -1, "the first stack")
        eq(cards.march_drm(CTX, game, { "co_br5" }), 0, "only one")
    end)
    local h = with_card(23, "french", { pieces = { { "fr_foy", "5933" }, { "fr_leval", "5934" }, { "fr_friant", "5420" } } })
    vt.edit(h, function(game)
        eq(cards.defence_bonus(CTX, game, "french", { "fr_friant" }), 0, "not Soult's")
        eq(cards.defence_bonus(CTX, game, "french", { "fr_foy" }), 2, "Soult's stack")
        eq(cards.defence_bonus(CTX, game, "french", { "fr_leval" }), 0, "only one")
    end)
end)

test("16.1 REC 24 intercepted letter: Coalition draw, reveal and the Coalition moves first; French draw, -1 march attrition with Napoleon", function()
    local g = with_card(24, "coalition", { pieces = { { "mortier", "5420" }, { "fr_meunier", "5420" }, TRAIN("5420", "ft0") } })
    -- REC 24 reveals a hidden-force box (15.1) only, never a Supply Train
    expect_event(g, "the instruction reveal cannot be carried out")
    enter_phase(g, "movement", { { "ney", "5621" }, { "fr_friant", "5621" }, TRAIN("5621"),
                                 { "blucher", "4214" }, { "co_horn", "4214" }, CTRAIN("4214") },
        { supply_trains_coalition = "1 1 1 1 1 1 1 1 1 1 1 1", supply_trains_french = "9 9 9 9 9 9 9 9 9 9 9 9" })
    eq(vt.decision(g).role, "coalition", "the Coalition instigates the movement sequence")
    local h = with_card(24, "french", { pieces = { { "napoleon", "5621" }, { "fr_friant", "5621" } } })
    eq(call(h, function(game) return cards.march_drm(CTX, game, { "fr_friant", "napoleon" }) end), -1, "with Napoleon")
    eq(call(h, function(game) return cards.march_drm(CTX, game, { "fr_friant" }) end), 0, "without him")
end)

test("16.1 REC 24 with 15.1: the Coalition chooses a French hidden force by its marker and the whole box comes onto the map", function()
    local box = "box:french_hidden_3"
    local g = with_card(24, "coalition", { options = { "event_cards", "hidden_forces" }, pieces = {
        { "french_hidden_3", "5621" }, { "ney", "5621" }, { "fr_friant", "5621" },
        { "fr_meunier", box }, { "fr_decouz", box },
        { "french_hidden_4", "5420" }, { "mortier", "5420" }, { "fr_leval", "5420" }, { "fr_foy", "box:french_hidden_4" } } })
    eq(vt.decision(g).step, "cards.reveal", "the Coalition chooses a hidden force")
    same(vt.actions(g, "coalition"), { "reveal 5621 1", "reveal 5420 1" }, "named by hex and rank, never by box")
    vt.apply(g, "coalition", "reveal 5621 1")
    eq(vt.with(g, function(game) return game.piece("fr_meunier").loc end), "5621", "revealed onto the map")
    eq(vt.with(g, function(game) return game.piece("fr_decouz").loc end), "5621", "the whole box")
    eq(vt.with(g, function(game) return game.piece("fr_foy").loc end), "box:french_hidden_4", "the other box stays hidden")
    eq(vt.with(g, function(game) return game.piece("french_hidden_3").loc end), nil, "the empty box's marker goes")
end)

test("16.1 REC 25 royalists: Coalition draw, a French city near its units counts as Coalition-friendly for depots; French draw, a forage marker on a Coalition stack", function()
    local g = with_card(25, "coalition", { pieces = { { "co_lieven", "5421" } } })
    eq(vt.decision(g).role, "coalition", "the Coalition chooses the city")
    assert(vt.has_action(g, "coalition", "pick 5420"), "Paris is within 2 hexes: " .. moves(g, "coalition"))
    vt.apply(g, "coalition", "pick 5420")
    eq(call(g, function(game) return cards.depot_city_friendly(CTX, game, "coalition", "5420") end), true, "Paris")
    local h = with_card(25, "french", { pieces = { { "co_lieven", "5421" }, { "blucher", "5621" }, { "co_horn", "5621" } } })
    same(vt.actions(h, "french"), { "pick 5421" }, "a stack without a commander in French territory")
    vt.apply(h, "french", "pick 5421")
    same(call(h, function(game) return cards.extra_forage(CTX, game, "coalition") end), { "5421" }, "marked in 7.6")
end)

test("16.1 REC 26 Marmont: the French remove one unit of the VI Corps from play", function()
    local g = with_card(26, "coalition", { pieces = { { "fr_ricard", "5420" }, { "fr_friant", "5621" } } })
    same(vt.actions(g, "french"), { "pick fr_ricard" }, "VI Corps only")
    vt.apply(g, "french", "pick fr_ricard")
    eq(vt.with(g, function(game) return game.piece("fr_ricard").loc end), nil, "removed from play")
end)

test("16.1 REC 27 Augereau: Coalition draw, the Army of Lyon may not move; French draw, one Lyon stack moves without a train", function()
    local g = with_card(27, "coalition", { pieces = { { "fr_musnier", "4727" }, { "fr_friant", "5420" } } })
    eq(call(g, function(game) return cards.may_move(CTX, game, "fr_musnier") end), false, "Lyon")
    eq(call(g, function(game) return cards.may_move(CTX, game, "fr_friant") end), true, "others")
    local h = with_card(27, "french")
    enter_phase(h, "movement", { { "augereau", "5621" }, { "fr_musnier", "5621" }, { "blucher", "4214" }, { "co_horn", "4214" }, CTRAIN("4214") },
        { supply_trains_coalition = "9 9 9 9 9 9 9 9 9 9 9 9", supply_trains_french = "1 1 1 1 1 1 1 1 1 1 1 1" })
    vt.apply(h, "coalition", "pass ct")
    assert(vt.has_action(h, "french", "move 5621"), "Augereau's stack moves without a train: " .. moves(h, "french"))
end)

test("16.1 REC 28 Bentinck: Coalition draw, French units on 4329 and 4428 are not deemed in supply; French draw, +2 in defence in Italy", function()
    local g = with_card(28, "coalition")
    eq(call(g, function(game) return cards.supply_exemption_cancelled(game, "4329") end), true, "4329")
    eq(call(g, function(game) return cards.supply_exemption_cancelled(game, "4428") end), true, "4428")
    eq(call(g, function(game) return cards.supply_exemption_cancelled(game, "5420") end), false, "elsewhere")
    local h = with_card(28, "french", { pieces = { { "fr_friant", "4329" }, { "fr_meunier", "5420" } } })
    eq(call(h, function(game) return cards.defence_bonus(CTX, game, "french", { "fr_friant" }) end), 2, "in Italy")
    eq(call(h, function(game) return cards.defence_bonus(CTX, game, "french", { "fr_meunier" }) end), 0, "in France")
end)

test("16.1 REC 29 On to Paris: Coalition draw, one more CC and it attacks first; French draw, mixed Coalition stacks roll to move", function()
    local g = with_card(29, "coalition")
    local f, c = combat_commands(g, 5, 2)
    eq(c, 3, "Coalition CCs"); eq(var(g, "first_player"), "coalition", "the Coalition attacks first")
    local h = with_card(29, "french", { dice = { 2 } })
    enter_phase(h, "movement", { { "schwarzenberg", "5621" }, { "co_crenneville", "5621" }, { "co_ru_guard_inf", "5621" }, CTRAIN("5621") },
        { supply_trains_coalition = "9 9 9 9 9 9 9 9 9 9 9 9", supply_trains_french = "1 1 1 1 1 1 1 1 1 1 1 1" })
    vt.apply(h, "coalition", "move 5621")
    expect_event(h, "does not move")
    eq(vt.with(h, function(game) return game.piece("co_crenneville").loc end), "5621", "stayed")
    local k = with_card(29, "french", { dice = { 3 } })
    enter_phase(k, "movement", { { "schwarzenberg", "5621" }, { "co_crenneville", "5621" }, { "co_ru_guard_inf", "5621" }, CTRAIN("5621") },
        { supply_trains_coalition = "9 9 9 9 9 9 9 9 9 9 9 9", supply_trains_french = "1 1 1 1 1 1 1 1 1 1 1 1" })
    vt.apply(k, "coalition", "move 5621")
    eq(vt.decision(k).step, "movement.stack", "a 3 moves")
end)

test("16.1 REC 30 Paris: Coalition draw, the French have one CC fewer; French draw, the French stack in Paris +2 in defence", function()
    local g = with_card(30, "coalition")
    local f = combat_commands(g, 3, 3)
    eq(f, 2, "French CCs")
    local h = with_card(30, "french", { pieces = { { "fr_friant", "5420" } } })
    eq(call(h, function(game) return cards.defence_bonus(CTX, game, "french", { "fr_friant" }) end), 2, "Paris")
end)

test("16.1 REC 31 the Senate: the French have one CC fewer, whoever drew it (never below 1)", function()
    local f = combat_commands(with_card(31, "coalition"), 3, 3)
    eq(f, 2, "French CCs")
    local f1 = combat_commands(with_card(31, "french"), 1, 3)
    eq(f1, 1, "9.2: never below one")
end)

test("16.1 REC 32 Army of the North: Coalition draw, a stack of the North moves without a train; French draw, Maison's stack +2 in attack or defence once", function()
    local g = with_card(32, "coalition", { pieces = { { "bulow", "5115" }, { "co_borstell", "5115" } } })
    eq(call(g, function(game) return cards.free_move(CTX, game, "coalition", "5115") ~= nil end), true, "North")
    local h = with_card(32, "french", { pieces = { { "maison", "5115" }, { "fr_friant", "5115" }, { "fr_meunier", "5420" } } })
    vt.edit(h, function(game)
        eq(cards.combat_bonus(CTX, game, "french", { "fr_meunier" }), 0, "without Maison")
        eq(cards.combat_bonus(CTX, game, "french", { "fr_friant" }), 2, "with Maison")
        eq(cards.combat_bonus(CTX, game, "french", { "fr_friant" }), 0, "once")
    end)
end)

test("16.1 REC 33 raids: Coalition draw, a French depot near a Cossack is eliminated; French draw, 13.1 succeeds on 5 or 6", function()
    local g = with_card(33, "coalition", { pieces = { { "french_supply", "5420", id = "fd", face = "depot" }, { "co_platov_cos", "5622" } } })
    same(vt.actions(g, "coalition"), { "pick 5420" }, "the depot within 3 hexes of the Cossack")
    vt.apply(g, "coalition", "pick 5420")
    eq(vt.with(g, function(game) return game.piece("fd").loc end), "box:eliminated", "eliminated")
    eq(track(g, "french_depots_lost"), 1, "8.8: one train fewer")
    eq(call(with_card(33, "french"), function(game) return cards.cossack_success_score(game) end), 5, "five or six")
end)

test("16.1 REC 34 spring roads: Coalition draw, -1 march attrition for Coalition stacks; French draw, French stacks ignore forage markers", function()
    local g = with_card(34, "coalition", { pieces = { { "co_horn", "4214" }, { "fr_friant", "5420" } } })
    eq(call(g, function(game) return cards.march_drm(CTX, game, { "co_horn" }) end), -1, "Coalition")
    eq(call(g, function(game) return cards.march_drm(CTX, game, { "fr_friant" }) end), 0, "French")
    local h = with_card(34, "french")
    eq(call(h, function(game) return cards.forage_ignored(CTX, game, "french", "5420") end), true, "French")
    eq(call(h, function(game) return cards.forage_ignored(CTX, game, "coalition", "5420") end), false, "Coalition")
end)

test("16.1 REC 35 Lusigny: each player has one CC fewer", function()
    local f, c = combat_commands(with_card(35, "french"), 3, 4)
    eq(f, 2, "French"); eq(c, 3, "Coalition")
end)

test("16.1 REC 36 Spanish excesses: Coalition draw, 14.10 does not apply; French draw, 14.10 as if Anglona were in France", function()
    -- Anglona's unit in France (4620 is in region france) and a disrupted French unit
    local g = with_card(36, "coalition", { pieces = { { "co_sp_and1", "4620" }, { "fr_friant", "5420", face = "disrupted" } } })
    expect_event(g, "14.10 does not apply this Turn")
    eq(face(g, "fr_friant"), "disrupted", "no French unit restored")
    local h = with_card(36, "french", { dice = { 6 }, pieces = { { "co_sp_and1", "5435" }, { "fr_friant", "5420", face = "disrupted" } } })
    expect_event(h, "14.10 Anglona")   -- 5435 is in Spain: the roll is forced by the card
    eq(face(h, "fr_friant"), "ready", "restored")
end)

-- The Combat phase for real after the card: the entry is a French "pass" at a combat order
-- planted in the Movement phase (as in test_combat.lua), so phases 5 and 6 follow.
local function card_combat(n, drawer, pieces, dice, turn)
    local g = with_card(n, drawer, { dice = dice, turn = turn })
    vt.edit(g, function(game)
        place(game, pieces)
        game.set_var("cc_basic_french", "3")
        game.set_var("cc_basic_coalition", "3")
        game.set_phase("movement")
        game.set_var("phase_index", 4)
        game.set_var("alt_combat", { turn = "french", done_french = false, done_coalition = true })
        game.decide { role = "french", step = "combat.order", rule = "test", prompt = "test entry" }
    end)
    vt.apply(g, "french", "pass")
    return g
end

test("16.1 REC 30 (combat) the French stack in Paris adds 2 to its final defence value; REC 12 (combat) Spanish units may not attack", function()
    local pieces = { { "fr_friant", "5420" }, { "blucher", "5421" }, { "co_lieven", "5421" }, { "co_horn", "5421" } }
    local fdv = {}
    for _, drawer in ipairs { "french", "coalition" } do
        local g = card_combat(30, drawer, pieces, { 6, 3, 3, 1, 1, 1, 1, 1, 1 })
        vt.apply(g, "french", "pass")                                -- equal CCs: the French first (9.3)
        eq(vt.decision(g).role, "coalition", "the Coalition attacks")
        vt.apply(g, "coalition", "attack 5421 5420")
        vt.apply(g, "coalition", "confirm")
        vt.apply(g, "coalition", "cc 1")
        local text = events_text(g)
        while not text:find("FDV %d+") and vt.decision(g).role do
            local d = vt.decision(g)
            local acts = vt.actions(g, d.role)
            local pick = acts[1]
            for _, a in ipairs(acts) do if a:match("^cc") or a == "done" or a == "confirm" then pick = a end end
            vt.apply(g, d.role, pick)
            text = events_text(g)
        end
        fdv[drawer] = tonumber(text:match("FDV (%d+)"))
    end
    eq(fdv.french - fdv.coalition, 2, "French draw: +2 to the final defence value in Paris")
    local function spanish_attack(drawer)
        -- Turn 5: 14.8 no longer keeps Wellington's command out of combat
        local h = card_combat(12, drawer, { { "fr_friant", "5933" }, { "wellington", "5934" }, { "co_sp_morillo", "5934" } }, nil, 5)
        if vt.decision(h).step == "combat.order" and vt.decision(h).role == "french" then vt.apply(h, "french", "pass") end
        return vt.has_action(h, "coalition", "attack 5934 5933")
    end
    eq(spanish_attack("coalition"), true, "without the French instruction the Spanish stack may attack")
    eq(spanish_attack("french"), false, "with it, it may not")
end)

test("16.1 REC 10 (combat) French draw: an attacked French infantry stack may withdraw before combat as in 11.1", function()
    local pieces = { { "fr_friant", "5420" }, { "blucher", "5421" }, { "co_lieven", "5421" }, { "co_horn", "5421" } }
    local function offered(drawer)
        local g = card_combat(10, drawer, pieces, { 6, 6, 6, 6, 6, 6 })
        vt.apply(g, "french", "pass")
        vt.apply(g, "coalition", "attack 5421 5420")
        vt.apply(g, "coalition", "confirm")
        vt.apply(g, "coalition", "cc 1")
        return vt.decision(g).step == "combat.evade", g
    end
    eq((offered("coalition")), false, "no withdrawal before combat for infantry without the card")
    local yes, g = offered("french")
    eq(yes, true, "with the French instruction it is offered")
    local withdraw
    for _, a in ipairs(vt.actions(g, "french")) do if a:match("^withdraw ") then withdraw = a end end
    vt.apply(g, "french", withdraw)
    assert(vt.with(g, function(game) return game.piece("fr_friant").loc end) ~= "5420", "withdrawn")
end)

test("16.1 REC 22 (supply) a French unit at Bordeaux with a Coalition unit 2 hexes away is out of General Supply that Turn", function()
    local pieces = { { "fr_friant", "5929" }, { "co_br1", "5931" } }
    eq(face(with_card(22, "french", { pieces = pieces }), "fr_friant"), "ready", "Bordeaux supplies it normally")
    eq(face(with_card(22, "coalition", { pieces = pieces }), "fr_friant"), "disrupted", "not this Turn (6.4)")
end)

test("16.1 REC 13 (movement) the blizzard's +1 reaches the march attrition roll (8.6)", function()
    local g = with_card(13, "french", { dice = { 1 } })
    enter_phase(g, "movement", { { "ney", "5621" }, { "fr_friant", "5621" }, TRAIN("5621") })
    vt.apply(g, "french", "move 5621")
    vt.apply(g, "french", "to 5921")                  -- the whole allowance: the move ends there
    local text = events_text(g)
    assert(text:match("March attrition %(8%.6%): 3 hexes in winter, die 1 [%+%-]%d+ %+1 = "), "the card's +1 in the roll:\n" .. text)
end)

test("16.1 REC 28 (supply) Coalition draw: a French unit on 4329 loses its 6.6 exemption in the General Supply phase", function()
    local pieces = { { "fr_friant", "4329" } }
    eq(face(with_card(28, "french", { pieces = pieces }), "fr_friant"), "ready", "deemed in supply (6.6)")
    eq(face(with_card(28, "coalition", { pieces = pieces }), "fr_friant"), "disrupted", "not this Turn")
end)

test("16.1 REC 33 (13.1) French draw: a Cossack city roll of 5 costs the Coalition a CC this Turn", function()
    local function roll5(drawer)
        local g = with_card(33, drawer, { dice = { 5 } })
        enter_phase(g, "reinforcements", { { "co_platov_cos", "5420" } })
        return events_text(g):find("Cossacks alienate the inhabitants", 1, true) ~= nil
    end
    eq(roll5("coalition"), false, "a 5 is not enough normally")
    eq(roll5("french"), true, "with the French instruction it is")
end)

test("16.1 REC 34 (6.3) French draw: a French stack under a forage marker does not roll", function()
    local pieces = { { "fr_friant", "5420" }, { "forage", "5420", id = "fm", props = { side = "french", units = { "fr_friant" } } } }
    expect_event(with_card(34, "french", { pieces = pieces }), "ignores its forage marker")
    local g = with_card(34, "coalition", { pieces = pieces, dice = { 1 } })
    expect_event(g, "6.3 forage")
end)

test("16.1 REC 12 (7.4) Coalition draw: the extra Supply Train may only go to a stack of Wellington's command", function()
    local pieces = { { "wellington", "4214" }, { "co_br1", "4214" }, { "blucher", "4216" }, { "co_horn", "4216" } }
    local g = with_card(12, "coalition", { pieces = pieces, tracks = { coalition_supply_trains = 0, french_supply_trains = 0 } })
    eq(vt.decision(g).step, "supply.allocate", "allocation")
    eq(vt.decision(g).role, "coalition", "the Coalition allocates its one train")
    assert(vt.has_action(g, "coalition", "allocate 4214"), "Wellington's stack: " .. moves(g, "coalition"))
    assert(not vt.has_action(g, "coalition", "allocate 4216"), "not Blucher's")
    -- control: an ordinary train may go to either stack
    local h = with_card(12, "french", { pieces = pieces, tracks = { coalition_supply_trains = 1, french_supply_trains = 0 } })
    assert(vt.has_action(h, "coalition", "allocate 4216") and vt.has_action(h, "coalition", "allocate 4214"), moves(h, "coalition"))
end)
