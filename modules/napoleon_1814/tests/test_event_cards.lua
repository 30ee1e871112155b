-- Tests of advanced rule 16.1, the Random Event Cards: the deck mechanics (cnw_series/cards.lua)
-- and each card's effect (rules/events.lua and the primitives), with the decks in a forced order
-- (tests/setups/cards.xml has them unshuffled; the tests arrange the piles with vt.edit).
local cards = require("cnw.cards")

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
