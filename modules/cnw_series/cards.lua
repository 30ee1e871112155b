-- Random Event Cards (advanced rule 16.1) of the Campaigns of the Napoleonic Wars: the decks, the
-- deal, the draw and the choice of the card to play each Turn, and an effect engine over the
-- cards' machine-readable effects. Nothing here is game-specific: the game gives
--
--   ctx.params.event_cards = {
--     option = "event_cards",                 -- the module option that turns the rule on
--     decks = { { id = "winter", last_turn = 6 }, { id = "spring" } },  -- piles, in order of use
--     set_aside = { 1, 3, 4, 9, 11, 13, 17 },  -- numbers kept out of the first deal (first deck)
--     declare_first = "french",               -- who lays his card first
--   }
--
-- and its cards' attributes (cards.xml): number, instructions ("two"/"single"), <side>-effect
-- and effect (";"-separated calls "name(arg, arg)"). A game adds primitives or selectors of its
-- own with C.primitives[name] / C.selectors[key] from its main.lua (before the rules freeze).
--
-- Piles (top first): the decks, "rec_hand_<side>" (owner's eyes only), "rec_discard" (public).
-- Variables: "_cards_turn" (this Turn's sequence of laying: private, since it tells who drew a
-- single-instruction card before it is laid), "cards_pending" (the effects of the
-- card being played that act at once), "cards_active" (the effects that last this Turn, read by
-- the rules through C.active / C.sum; stale entries are ignored and dropped next Turn),
-- "_cards_drawn" (the card each side drew this Turn: private, stripped from players' views).
local core = require("cnw.core")

local C = { steps = {}, primitives = {}, selectors = {} }

local HAND, DISCARD = "rec_hand_", "rec_discard"

local function conf(ctx) return ctx.params.event_cards end
function C.enabled(ctx, game)
    local p = conf(ctx)
    return p ~= nil and game.option(p.option)
end

local function attr(card, name) return defs.card(card).attributes[name] end
local function number(card) return tonumber(attr(card, "number")) end
function C.single(card) return attr(card, "instructions") == "single" end
local function label(card) return "REC " .. number(card) .. " (" .. defs.card(card).name .. ")" end

-- The instruction text of `card` for `drawer` (the whole text of a single-instruction card).
function C.instruction(card, drawer)
    if C.single(card) then return defs.card(card).text end
    return attr(card, drawer) or defs.card(card).text
end

-- ---- effects: "name(a, b); name2()" -> { {name=, args={...}}, ... } ------------------------

function C.parse(text)
    local out = {}
    for call in (text or ""):gmatch("[^;]+") do
        local name, inner = call:match("^%s*([%w_]+)%s*%((.-)%)%s*$")
        if not name then error("cards: malformed effect '" .. call .. "'") end
        local args = {}
        for a in inner:gmatch("[^,]+") do
            a = a:match("^%s*(.-)%s*$")
            if a ~= "" then args[#args + 1] = a end
        end
        out[#out + 1] = { name = name, args = args }
    end
    return out
end

-- The effects `drawer` carries out when he plays `card` (16.1: only the drawer's instructions).
function C.effects(card, drawer)
    if C.single(card) then return C.parse(attr(card, "effect")) end
    return C.parse(attr(card, drawer .. "-effect"))
end

-- The side an effect applies to, from the drawer's point of view: "self"/"enemy"/a side id.
function C.side_of(word, drawer)
    if word == "enemy" then return core.enemy(drawer) end
    if word == "self" or word == nil then return drawer end
    return word
end

-- Selectors ("army:bohemia", "nation:spain", "cossack", "class:conscript", "region:ID",
-- "hex:NAME", "mixed:A+B", ...): does combat unit `id` match every selector of `args` (those
-- words with a ':' or a registered name; other words are ignored)? Games add keys in C.selectors.
-- A unit in a hidden box (1814 r.15.1) is in its marker's hex (core.hex_of), "as if on the map".
C.selectors.army = function(game, id, v) return core.stat(game, id, "army") == v end
C.selectors.corps = function(game, id, v) return core.stat(game, id, "corps") == v end
C.selectors.nation = function(game, id, v) return core.stat(game, id, "nation") == v end
C.selectors.class = function(game, id, v) return core.class(game, id) == v end
C.selectors.cossack = function(game, id) return core.is_cossack(game, id) end
C.selectors.region = function(game, id, v)
    local loc = core.hex_of(game, id)
    return loc ~= nil and map.exists(loc) and map.in_region(loc, v)
end
C.selectors.hex = function(game, id, v)
    local loc = core.hex_of(game, id)
    return loc ~= nil and map.exists(loc) and (map.name(loc) == v or loc == v)
end
C.selectors.city = function(game, id)
    local loc = core.hex_of(game, id)
    return loc ~= nil and map.exists(loc) and core.is_city(loc)
end
-- A stack containing units of every listed nation ("mixed:austria+russia").
C.selectors.mixed = function(game, id, v)
    local loc = core.hex_of(game, id)
    if not loc then return false end
    local side = core.piece(game, id).owner
    for nation in v:gmatch("[^+]+") do
        local found = false
        for _, u in ipairs(core.units_at(game, loc, side)) do
            if core.stat(game, u, "nation") == nation then found = true break end
        end
        if not found then return false end
    end
    return true
end
-- A stack accompanied by this commander.
C.selectors.commander = function(game, id, v)
    local loc = core.hex_of(game, id)
    if not loc then return false end
    for _, c in ipairs(core.commanders_at(game, loc, core.piece(game, id).owner)) do
        if c == v or core.piece(game, c).type == v then return true end
    end
    return false
end

local function selectors_from(args, first)
    local sel = {}
    for i = first, #args do sel[#sel + 1] = args[i] end
    return sel
end

function C.matches(game, id, args)
    for _, a in ipairs(args) do
        local key, value = a:match("^([%w_]+):(.*)$")
        key = key or a
        local f = C.selectors[key]
        if f and (value ~= nil or not a:find(":")) and not f(game, id, value) then return false end
    end
    return true
end

-- ---- the effects that last this Turn -------------------------------------------------------

-- This Turn's active effects named `name` (each { card=, drawer=, name=, args=, turn=, ... }).
function C.active(game, name)
    local out = {}
    for _, e in ipairs(game.var("cards_active") or {}) do
        if e.turn == game.turn() and (name == nil or e.name == name) then out[#out + 1] = e end
    end
    return out
end

local function add_active(game, e)
    local list = {}
    for _, x in ipairs(game.var("cards_active") or {}) do
        if x.turn == game.turn() then list[#list + 1] = x end
    end
    e.turn = game.turn()
    list[#list + 1] = e
    game.set_var("cards_active", list)
end

-- Marks an active effect used (for "one stack" effects): the entry's `used` count goes up.
function C.use(game, e)
    local list = game.var("cards_active") or {}
    for _, x in ipairs(list) do
        if x.turn == e.turn and x.card == e.card and x.name == e.name and x.drawer == e.drawer then
            x.used = (x.used or 0) + 1
        end
    end
    game.set_var("cards_active", list)
end

-- ---- the primitives ------------------------------------------------------------------------
-- C.primitives[name] = { now = function(ctx, game, e) -> "done" | "decided" | "impossible" }
-- for instructions carried out when the card is played, or { turn = true } for those the rules
-- consult through the Turn (C.active). `e` = { card=, drawer=, name=, args= }.

-- Effects registered for the Turn whose work is done by hooks elsewhere (see the game's binding).
function C.turn_effect(name) C.primitives[name] = { turn = true } end

-- ---- 16.1 the deal -------------------------------------------------------------------------

local function hand(side) return HAND .. side end
C.hand, C.DISCARD = hand, DISCARD

local function move_all(from, to, game)
    for _, card in ipairs(game.pile(from)) do game.move_card(card, from, to) end
end

-- Before the game: set the listed cards of the first deck aside, deal one card of it to each
-- player, shuffle the set-aside cards back into the deck (16.1).
function C.setup(ctx, game)
    if not C.enabled(ctx, game) then return end
    local p = conf(ctx)
    -- hands: their owner's eyes only; the discard pile: everybody's. (A host older than
    -- game.set_pile keeps every pile hidden from every player: the hands stay private.)
    if game.set_pile then
        for _, side in ipairs(core.SIDES) do game.set_pile(hand(side), side, "owner") end
        game.set_pile(DISCARD, nil, "all")
    end
    local first = p.decks[1].id
    for _, d in ipairs(p.decks) do
        if #game.pile(d.id) == 0 then error("cards: the scenario has no deck '" .. d.id .. "' (16.1)") end
    end
    local aside = {}
    for _, n in ipairs(p.set_aside or {}) do aside[n] = true end
    for _, card in ipairs(game.pile(first)) do
        if aside[number(card)] then game.move_card(card, first, "rec_set_aside") end
    end
    for _, side in ipairs(core.SIDES) do
        local card = game.draw(first, hand(side))
        game.log("You are dealt " .. label(card) .. " (16.1)", side)
    end
    move_all("rec_set_aside", first, game)
    game.shuffle(first)
    game.log("Random Event Cards: one Winter card dealt to each player (16.1)")
end

-- ---- 16.1 each Turn ------------------------------------------------------------------------

-- The deck of this Turn, and whether an earlier deck's last Turn is over (its undrawn cards go
-- to the discard pile).
local function deck_of_turn(ctx, game)
    local turn = game.turn()
    for _, d in ipairs(conf(ctx).decks) do
        if d.last_turn == nil or turn <= d.last_turn then return d.id end
    end
end

local function discard_spent_decks(ctx, game)
    for _, d in ipairs(conf(ctx).decks) do
        if d.last_turn and game.turn() > d.last_turn and #game.pile(d.id) > 0 then
            game.log(#game.pile(d.id) .. " undrawn cards of the " .. d.id .. " deck are discarded (16.1)")
            move_all(d.id, DISCARD, game)
        end
    end
end

-- The order of laying: each slot { side =, mode = "choose" | "single" } (a single card is the
-- one drawn this Turn, kept in the private variable _cards_drawn).
local function laying_order(ctx, game, drawn)
    local first = conf(ctx).declare_first or core.SIDES[1]
    local second = core.enemy(first)
    local s1, s2 = drawn[first] and C.single(drawn[first]), drawn[second] and C.single(drawn[second])
    local function slot(side, single) return { side = side, mode = single and "single" or "choose" } end
    -- A single-instruction card is laid after the opponent's card, whoever would lay first; if
    -- both drew one the normal order stands.
    if s1 and not s2 then return { slot(second, false), slot(first, true) } end
    return { slot(first, s1), slot(second, s2) }
end

local advance

-- Lays `card` from `side`'s hand: announces it, discards it, and carries out (or registers for
-- the Turn) the drawer's instructions.
local function play(ctx, game, side, card)
    game.move_card(card, hand(side), DISCARD)
    game.log(side .. " plays " .. label(card) .. ": " .. C.instruction(card, side) .. " (16.1)")
    local pending = game.var("cards_pending") or {}
    -- the side the instruction speaks for: the drawer, or the side a single-instruction card names
    -- (REC 21 "the Coalition player may ..." whoever drew it)
    local for_side = C.single(card) and defs.card(card).side or side
    for _, eff in ipairs(C.effects(card, side)) do
        local prim = C.primitives[eff.name]
        if not prim then error("cards: no primitive '" .. eff.name .. "' (" .. label(card) .. ")") end
        local e = { card = card, drawer = for_side, player = side, name = eff.name, args = eff.args, single = C.single(card) }
        if prim.now then pending[#pending + 1] = e else add_active(game, e) end
    end
    game.set_var("cards_pending", pending)
end

-- Draws this Turn's cards (once), then lays them in order, asking who chooses. Returns true when
-- a decision was set; false when the Turn's cards are all played.
function C.start_of_turn(ctx, game)
    if not C.enabled(ctx, game) then return false end
    local st = game.var("_cards_turn")
    if not st or st.turn ~= game.turn() then
        discard_spent_decks(ctx, game)
        game.set_var("cards_active", nil)
        local deck = deck_of_turn(ctx, game)
        local drawn = {}
        for _, side in ipairs(core.SIDES) do
            local card = deck and game.draw(deck, hand(side))
            if card then
                drawn[side] = card
                game.log("You draw " .. label(card) .. (C.single(card) and ": Play immediately" or "") .. " (16.1)", side)
            end
        end
        game.log("Each player draws a Random Event Card (16.1)")
        game.set_var("_cards_drawn", drawn)
        st = { turn = game.turn(), index = 0, order = laying_order(ctx, game, drawn) }
        game.set_var("_cards_turn", st)
    end
    return advance(ctx, game)
end

local function continue(ctx, game)
    if not (ctx.hooks.start_of_turn and ctx.hooks.start_of_turn(ctx, game)) then ctx.next_phase(game) end
end

advance = function(ctx, game)
    while true do
        local pending = game.var("cards_pending") or {}
        while #pending > 0 do
            local e = table.remove(pending, 1)
            game.set_var("cards_pending", pending)
            local r = C.primitives[e.name].now(ctx, game, e)
            if r == "decided" then return true end
            if r == "impossible" then
                game.log(label(e.card) .. ": the instruction " .. e.name .. " cannot be carried out (16.1: a card that cannot be carried out is simply discarded)")
            elseif r ~= "done" then
                error("cards: primitive '" .. e.name .. "' returned " .. tostring(r))
            end
            pending = game.var("cards_pending") or {}
        end
        local st = game.var("_cards_turn")
        st.index = st.index + 1
        game.set_var("_cards_turn", st)
        local slot = st.order[st.index]
        if not slot then return false end
        local cards = game.pile(hand(slot.side))
        if slot.mode == "single" then
            play(ctx, game, slot.side, (game.var("_cards_drawn") or {})[slot.side])
        elseif #cards == 1 then
            play(ctx, game, slot.side, cards[1])
        elseif #cards > 1 then
            game.set_active(slot.side)
            game.decide { role = slot.side, step = "cards.choose", rule = "16.1",
                          prompt = "Choose the Random Event Card to play this Turn; you keep the other (16.1)" }
            return true
        end
    end
end

C.steps["cards.choose"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local out = {}
        for _, card in ipairs(game.pile(hand(role))) do
            out[#out + 1] = { kind = "play", args = { card },
                              label = "Play " .. label(card) .. ": " .. C.instruction(card, role) }
        end
        return out
    end,
    apply = function(ctx, game, role, action, d)
        play(ctx, game, role, action.args[1])
        if advance(ctx, game) then return end
        continue(ctx, game)
    end,
}

-- A primitive's decision: `step` is one of C.steps; after it, C.resume continues the cards.
function C.resume(ctx, game)
    if advance(ctx, game) then return end
    continue(ctx, game)
end

-- ---- generic primitives --------------------------------------------------------------------

-- Combat Commands this Turn: cc(n) for the drawer, cc(n, each) for both, enemy_cc(n).
C.turn_effect("cc")
C.turn_effect("enemy_cc")

-- 9.2 limits: this Turn's CCs after the cards stay within cc_min..cc_max. Called by the combat
-- commands phase (hook combat_commands_adjust) after 9.3 has chosen the first player.
function C.adjust_combat_commands(ctx, game)
    local delta = { french = 0, coalition = 0 }
    for _, e in ipairs(C.active(game)) do
        local n = tonumber(e.args[1]) or 0
        if e.name == "cc" and e.args[2] == "each" then
            for _, s in ipairs(core.SIDES) do delta[s] = delta[s] + n end
        elseif e.name == "cc" then
            delta[e.drawer] = delta[e.drawer] + n
        elseif e.name == "enemy_cc" then
            local s = core.enemy(e.drawer)
            delta[s] = delta[s] + n
        end
    end
    local first = C.first_attacker(game)
    if first then
        game.set_var("first_player", first)
        game.log("The " .. first .. " player attacks first this Turn (Random Event Cards, 16.1)")
    end
    for _, s in ipairs(core.SIDES) do
        if delta[s] ~= 0 then
            local track = s .. "_cc"
            local v = math.max(ctx.params.cc_min or 1, math.min(ctx.params.cc_max or 6, game.track(track) + delta[s]))
            game.set_track(track, v)
            game.log(string.format("%s Combat Commands %+d this Turn (Random Event Cards, 16.1): %d", s, delta[s], v))
        end
    end
end

-- Supply Trains this Turn: supply_trains(n[, selector]) for the drawer, enemy_supply_trains(n).
C.turn_effect("supply_trains")
C.turn_effect("enemy_supply_trains")

-- The change of `side`'s Supply Trains this Turn (7.2 allocation; never 7.4/8.2's order).
function C.supply_trains_delta(ctx, game, side)
    local n = 0
    for _, e in ipairs(C.active(game, "supply_trains")) do
        if e.drawer == side then n = n + (tonumber(e.args[1]) or 0) end
    end
    for _, e in ipairs(C.active(game, "enemy_supply_trains")) do
        if core.enemy(e.drawer) == side then n = n + (tonumber(e.args[1]) or 0) end
    end
    return n
end

-- supply_trains(n, selectors): those n extra trains may only go to the drawer's stacks holding a
-- combat unit that matches (7.3). Returns n, stack_ok(game, hex).
function C.supply_trains_reserved(ctx, game, side)
    local n, sels = 0, {}
    for _, e in ipairs(C.active(game, "supply_trains")) do
        if e.drawer == side and #e.args > 1 then
            n = n + (tonumber(e.args[1]) or 0)
            sels[#sels + 1] = selectors_from(e.args, 2)
        end
    end
    return n, function(g, hex)
        for _, sel in ipairs(sels) do
            for _, id in ipairs(core.units_at(g, hex, side)) do
                if C.matches(g, id, sel) then return true end
            end
        end
        return false
    end
end

-- March attrition (8.6): march_drm(n, selectors) where the selector is "all", a side, or unit
-- selectors; "count:1" limits it to one stack (the first that moves and matches, its owner's).
C.turn_effect("march_drm")
function C.march_drm(ctx, game, ids)
    local side
    local units = {}
    for _, id in ipairs(ids) do
        side = side or core.piece(game, id).owner
        if core.is_unit(game, id) then units[#units + 1] = id end
    end
    if #units == 0 then return 0 end
    local total = 0
    for _, e in ipairs(C.active(game, "march_drm")) do
        local who, sel, count = e.args[2], {}, nil
        for i = 3, #e.args do
            local c = e.args[i]:match("^count:(%d+)$")
            if c then count = tonumber(c) else sel[#sel + 1] = e.args[i] end
        end
        local applies
        if who == "all" then applies = true
        elseif who == "french" or who == "coalition" then applies = side == who
        else
            sel[#sel + 1] = who
            applies = side == e.drawer
            -- commander:X — X accompanied the stack throughout (he is among `ids`); other
            -- selectors: every moving unit matches
            local usel = {}
            for _, a in ipairs(sel) do
                local c = a:match("^commander:(.+)$")
                if c then
                    local with = false
                    for _, id in ipairs(ids) do
                        if core.is_commander(game, id) and (id == c or core.piece(game, id).type == c) then with = true end
                    end
                    applies = applies and with
                else
                    usel[#usel + 1] = a
                end
            end
            if applies then
                for _, u in ipairs(units) do if not C.matches(game, u, usel) then applies = false break end end
            end
        end
        if applies and count and (e.used or 0) >= count then applies = false end
        if applies then
            total = total + (tonumber(e.args[1]) or 0)
            if count then C.use(game, e) end
        end
    end
    return total
end

-- Movement bans: no_move(enemy|self, selectors): the matching units may not move this Turn.
C.turn_effect("no_move")
function C.may_move(ctx, game, id)
    for _, e in ipairs(C.active(game, "no_move")) do
        local side = C.side_of(e.args[1], e.drawer)
        local sel = {}
        for i = 2, #e.args do sel[#sel + 1] = e.args[i] end
        if core.piece(game, id).owner == side and C.matches(game, id, sel) then return false end
    end
    return true
end

-- Combat bans: no_attack(enemy|self, selectors[, unless:COMMANDER]): the matching units may
-- neither attack nor support an attack this Turn (unless the named commander is with them).
C.turn_effect("no_attack")
function C.may_attack(ctx, game, id)
    for _, e in ipairs(C.active(game, "no_attack")) do
        local side = C.side_of(e.args[1], e.drawer)
        local sel, unless = {}, nil
        for i = 2, #e.args do
            local u = e.args[i]:match("^unless:(.+)$")
            if u then unless = u else sel[#sel + 1] = e.args[i] end
        end
        if core.piece(game, id).owner == side and C.matches(game, id, sel)
            and not (unless and C.selectors.commander(game, id, unless)) then
            return false
        end
    end
    return true
end

-- defence_bonus(n, selectors[, count:k]): the drawer's defending stacks whose units all match add
-- n to their final defence value. Returns the bonus of the defending units `ids` of `side`.
C.turn_effect("defence_bonus")
-- The bonus of the `name` effects (n, selectors[, count:k]) for `side`'s stack of units `ids`:
-- effects whose selectors every unit matches add n, at most k times when counted.
local function stack_bonus(game, name, side, ids)
    local total = 0
    for _, e in ipairs(C.active(game, name)) do
        if e.drawer == side and #ids > 0 then
            local sel, count = {}, nil
            for i = 2, #e.args do
                local c = e.args[i]:match("^count:(%d+)$")
                if c then count = tonumber(c) else sel[#sel + 1] = e.args[i] end
            end
            local all = true
            for _, id in ipairs(ids) do if not C.matches(game, id, sel) then all = false break end end
            if all and not (count and (e.used or 0) >= count) then
                total = total + (tonumber(e.args[1]) or 0)
                if count then C.use(game, e) end
            end
        end
    end
    return total
end

function C.defence_bonus(ctx, game, side, ids) return stack_bonus(game, "defence_bonus", side, ids) end

-- free_rally(n, [side], selectors[, no_commander]): n of the drawer's stacks whose units all
-- match may rally (8.1) this Turn without a Supply Train; with "no_commander", n units rally
-- without a commander either. The movement rules ask C.free_rally.
C.turn_effect("free_rally")
function C.free_rally(ctx, game, side, hex)
    for _, e in ipairs(C.active(game, "free_rally")) do
        if e.drawer == side and (e.used or 0) < 1 then
            local sel, no_cmd = {}, false
            for i = 2, #e.args do
                local a = e.args[i]
                if a == "no_commander" then no_cmd = true
                elseif a ~= "french" and a ~= "coalition" then sel[#sel + 1] = a end
            end
            local units = core.units_at(game, hex, side)
            local all = #units > 0
            for _, id in ipairs(units) do if not C.matches(game, id, sel) then all = false break end end
            if all then
                return { key = e.card, label = label(e.card), no_commander = no_cmd,
                         units = no_cmd and (tonumber(e.args[1]) or 1) or nil }
            end
        end
    end
    return nil
end

function C.free_rally_used(ctx, game, side, token)
    for _, e in ipairs(C.active(game, "free_rally")) do
        if e.drawer == side and e.card == token.key then return C.use(game, e) end
    end
end

-- no_forced_march(): no stack may force march this Turn (8.4).
C.turn_effect("no_forced_march")
function C.forced_march_allowed(ctx, game, ids)
    return #C.active(game, "no_forced_march") == 0
end

-- all_difficult_unless_road(): every hex counts as difficult terrain for movement this Turn
-- unless entered across a road or pass hexside (8.4).
C.turn_effect("all_difficult_unless_road")
function C.all_difficult_unless_road(ctx, game) return #C.active(game, "all_difficult_unless_road") > 0 end

-- free_move(n, selectors[, no_commander]): n of the drawer's stacks whose units all match may
-- move this Turn without a Supply Train (8.2-8.4 otherwise apply; "no_commander": also without a
-- commander, and then at most the normal allowance). The movement rules ask C.free_move.
C.turn_effect("free_move")
-- A free_move effect `side` drew and has not used up.
local function free_moves_left(e, side)
    return e.drawer == side and (e.used or 0) < (tonumber(e.args[1]) or 1)
end

function C.free_move(ctx, game, side, hex)
    for _, e in ipairs(C.active(game, "free_move")) do
        if free_moves_left(e, side) then
            local sel, no_cmd = {}, false
            for i = 2, #e.args do
                if e.args[i] == "no_commander" then no_cmd = true else sel[#sel + 1] = e.args[i] end
            end
            local units = core.units_at(game, hex, side)
            local all = #units > 0
            for _, id in ipairs(units) do if not C.matches(game, id, sel) then all = false break end end
            if all then
                return { key = e.card, label = label(e.card), no_commander = no_cmd, normal_only = no_cmd }
            end
        end
    end
    return nil
end

-- Whether C.free_move can say yes for any of side's stacks this Turn (a move's listings ask it
-- before looking at every stack).
function C.free_move_possible(ctx, game, side)
    for _, e in ipairs(C.active(game, "free_move")) do
        if free_moves_left(e, side) then return true end
    end
    return false
end

function C.free_move_used(ctx, game, side, token)
    for _, e in ipairs(C.active(game, "free_move")) do
        if e.drawer == side and e.card == token.key then return C.use(game, e) end
    end
end

function C.free_move_forgo(ctx, game, side)
    for _, e in ipairs(C.active(game, "free_move")) do
        if e.drawer == side then
            for _ = (e.used or 0) + 1, tonumber(e.args[1]) or 1 do C.use(game, e) end
        end
    end
    game.log(side .. " gives up its moves without a Supply Train (16.1)")
end

-- ---- primitives carried out when the card is played ----------------------------------------

-- disrupt(n, who, selectors): who = "each" (every player his own, owner's choice), "enemy" (the
-- drawer chooses among the opponent's) or a side (that side's own, its choice); undisrupted
-- combat units on the map that match the selectors. own: the owner chooses, so his units in a
-- hidden box (1814 r.15.1, "as if on the map") are candidates too; the opponent chooses only
-- among the units he can see.
local function disrupt_candidates(game, side, sel, own)
    local out = {}
    for _, id in ipairs(game.pieces { owner = side, category = "unit" }) do
        local loc = own and core.hex_of(game, id) or core.piece(game, id).loc
        if loc and map.exists(loc) and not core.disrupted(game, id) and not core.is_garrison(game, id)
            and C.matches(game, id, sel) then
            out[#out + 1] = id
        end
    end
    return out
end

local function disrupt_queue(e)
    local who = e.args[2]
    local sel = {}
    for i = 3, #e.args do sel[#sel + 1] = e.args[i] end
    if who == "each" then
        return { { side = "french", chooser = "french" }, { side = "coalition", chooser = "coalition" } }, sel
    elseif who == "enemy" then
        return { { side = core.enemy(e.drawer), chooser = e.drawer } }, sel
    end
    return { { side = who, chooser = who } }, sel
end

-- Asks the next chooser of a disrupt effect; returns "decided" or the outcome when none is left.
local function disrupt_next(ctx, game, e, queue, sel, did)
    while #queue > 0 do
        local q = table.remove(queue, 1)
        local ids = disrupt_candidates(game, q.side, sel, q.chooser == q.side)
        if #ids > 0 then
            game.set_active(q.chooser)
            game.decide { role = q.chooser, step = "cards.disrupt", rule = "16.1",
                          prompt = label(e.card) .. ": choose a " .. q.side .. " combat unit to disrupt",
                          context = { e = e, side = q.side, queue = queue, sel = sel, left = tonumber(e.args[1]) or 1 } }
            return "decided"
        end
        game.log(label(e.card) .. ": " .. q.side .. " has no unit that qualifies")
    end
    return did and "done" or "impossible"
end

C.primitives.disrupt = {
    now = function(ctx, game, e)
        local queue, sel = disrupt_queue(e)
        return disrupt_next(ctx, game, e, queue, sel, false)
    end,
}

C.steps["cards.disrupt"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local out = {}
        for _, id in ipairs(disrupt_candidates(game, d.context.side, d.context.sel, role == d.context.side)) do
            local hex = core.hex_of(game, id)
            out[#out + 1] = { kind = "disrupt", args = { id }, pieces = { id }, hexes = { hex },
                              public = core.is_boxed(game, id) and "disrupt hidden-unit" or nil,
                              label = "Disrupt " .. id .. " at " .. hex .. " (16.1)" }
        end
        return out
    end,
    apply = function(ctx, game, role, action, d)
        local c = d.context
        core.disrupt(game, action.args[1], label(c.e.card) .. ", 16.1")
        if c.left > 1 and #disrupt_candidates(game, c.side, c.sel, role == c.side) > 0 then
            c.left = c.left - 1
            game.decide { role = role, step = "cards.disrupt", rule = "16.1", prompt = d.prompt, context = c }
            return
        end
        if disrupt_next(ctx, game, c.e, c.queue, c.sel, true) == "decided" then return end
        C.resume(ctx, game)
    end,
}

-- reveal(enemy, n[, boxes]): the drawer chooses n of the opponent's face-down counters and they
-- are revealed for everybody. Counters: the face-down pieces on the map (Supply Trains and
-- dummies) and what the game adds through ctx.hooks.card_reveal_targets(ctx, game, side) (15.1's
-- hidden-force boxes); "boxes": the latter only (REC 24). Trains are on the map only from the
-- Active Supply phase to the end of Rally and Movement: when there is nothing to reveal as the
-- card is laid, the choice is made at the start of the Rally and Movement phase, once the trains
-- are placed (C.start_of_movement; RULINGS EC-15).
local function reveal_targets(ctx, game, side, boxes_only)
    local out = {}
    if not boxes_only then
        for _, id in ipairs(game.pieces { owner = side }) do
            local p = core.piece(game, id)
            if p.hidden and p.loc and map.exists(p.loc) then out[#out + 1] = id end
        end
    end
    if ctx.hooks.card_reveal_targets then
        for _, id in ipairs(ctx.hooks.card_reveal_targets(ctx, game, side)) do out[#out + 1] = id end
    end
    return out
end

local function reveal_decide(ctx, game, e, side, left, deferred)
    game.set_active(e.drawer)
    game.decide { role = e.drawer, step = "cards.reveal", rule = "16.1",
                  prompt = label(e.card) .. ": choose a face-down " .. side .. " counter to reveal",
                  context = { e = e, side = side, left = left, boxes = e.args[3] == "boxes", deferred = deferred } }
end

C.turn_effect("reveal_pending")
C.primitives.reveal = {
    now = function(ctx, game, e)
        local side = C.side_of(e.args[1], e.drawer)
        if #reveal_targets(ctx, game, side, e.args[3] == "boxes") > 0 then
            reveal_decide(ctx, game, e, side, tonumber(e.args[2]) or 1, false)
            return "decided"
        end
        if e.args[3] == "boxes" then return "impossible" end
        add_active(game, { card = e.card, drawer = e.drawer, name = "reveal_pending", args = e.args })
        game.log(label(e.card) .. ": the counter is chosen once the Supply Trains are placed, at the start of the Rally and Movement phase")
        return "done"
    end,
}

-- At the start of the Rally and Movement phase: a reveal that waited for the trains. Returns true
-- when it asked (the step then begins the phase again: ctx.phases.movement.begin).
function C.start_of_movement(ctx, game)
    for _, e in ipairs(C.active(game, "reveal_pending")) do
        if (e.used or 0) == 0 then
            C.use(game, e)
            local side = C.side_of(e.args[1], e.drawer)
            if #reveal_targets(ctx, game, side, false) > 0 then
                reveal_decide(ctx, game, e, side, tonumber(e.args[2]) or 1, true)
                return true
            end
            game.log(label(e.card) .. ": the instruction reveal cannot be carried out (16.1: a card that cannot be carried out is simply discarded)")
        end
    end
    return false
end

C.steps["cards.reveal"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        -- named by hex and rank, never by id: a piece's id would tell a dummy from a train
        local out, rank = {}, {}
        for _, id in ipairs(reveal_targets(ctx, game, d.context.side, d.context.boxes)) do
            local loc = core.piece(game, id).loc or "nowhere"
            rank[loc] = (rank[loc] or 0) + 1
            out[#out + 1] = { kind = "reveal", args = { loc, rank[loc] }, hexes = map.exists(loc) and { loc } or nil,
                              label = "Reveal face-down counter " .. rank[loc] .. " at " .. loc .. " (16.1)" }
        end
        return out
    end,
    apply = function(ctx, game, role, action, d)
        local c = d.context
        local id, rank = nil, 0
        for _, x in ipairs(reveal_targets(ctx, game, c.side, c.boxes)) do
            if (core.piece(game, x).loc or "nowhere") == action.args[1] then
                rank = rank + 1
                if rank == tonumber(action.args[2]) then id = x end
            end
        end
        if ctx.hooks.card_reveal and ctx.hooks.card_reveal(ctx, game, id) then
            -- the game revealed it its own way (15.1 hidden forces)
        else
            game.reveal(id)
            game.log(label(c.e.card) .. ": the counter at " .. core.piece(game, id).loc .. " is " .. core.piece(game, id).type)
        end
        if c.left > 1 and #reveal_targets(ctx, game, c.side, c.boxes) > 0 then
            c.left = c.left - 1
            game.decide { role = role, step = "cards.reveal", rule = "16.1", prompt = d.prompt, context = c }
            return
        end
        if c.deferred then return ctx.phases.movement.begin(ctx, game) end
        C.resume(ctx, game)
    end,
}

-- ---- primitives where a player picks a piece, a hex or a side --------------------------------
-- C.picks[name] = { chooser = function(e) -> side, targets = function(ctx, game, e) -> list of
-- { arg =, label =, hexes =, pieces = }, carry = function(ctx, game, e, arg) } : the chooser
-- picks n (e.args[1], default 1) targets one at a time; none at all: "cannot be carried out".
C.picks = {}

local function pick_targets(ctx, game, e) return C.picks[e.name].targets(ctx, game, e) end

local function pick_decide(ctx, game, e, left)
    local chooser = C.picks[e.name].chooser(e)
    game.set_active(chooser)
    game.decide { role = chooser, step = "cards.pick", rule = "16.1",
                  prompt = label(e.card) .. ": " .. C.instruction(e.card, e.player), context = { e = e, left = left } }
end

local function pick_primitive(name, spec)
    C.picks[name] = spec
    C.primitives[name] = {
        now = function(ctx, game, e)
            if #pick_targets(ctx, game, e) == 0 then return "impossible" end
            pick_decide(ctx, game, e, spec.count and spec.count(e) or tonumber(e.args[1]) or 1)
            return "decided"
        end,
    }
end
C.pick_primitive = pick_primitive

C.steps["cards.pick"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local out = {}
        for _, t in ipairs(pick_targets(ctx, game, d.context.e)) do
            out[#out + 1] = { kind = "pick", args = { t.arg }, label = t.label, hexes = t.hexes, pieces = t.pieces,
                              public = t.public }
        end
        return out
    end,
    apply = function(ctx, game, role, action, d)
        local e, left = d.context.e, d.context.left - 1
        C.picks[e.name].carry(ctx, game, e, action.args[1])
        if left > 0 and #pick_targets(ctx, game, e) > 0 then return pick_decide(ctx, game, e, left) end
        C.resume(ctx, game)
    end,
}

local function on_map(game, id)
    local loc = core.piece(game, id).loc
    return loc ~= nil and map.exists(loc)
end

local function unit_target(game, id, verb)
    local loc = core.hex_of(game, id)
    return { arg = id, label = verb .. " " .. id .. " at " .. loc, hexes = { loc }, pieces = { id },
             public = core.is_boxed(game, id) and "pick hidden-unit" or nil }   -- 15.1
end


-- remove_unit(n, side, selectors): that side removes n of its matching combat units on the map
-- from play, its choice (its units in a hidden box included: 1814 r.15.1 "as if on the map").
pick_primitive("remove_unit", {
    chooser = function(e) return C.side_of(e.args[2], e.drawer) end,
    targets = function(ctx, game, e)
        local side, out = C.side_of(e.args[2], e.drawer), {}
        for _, id in ipairs(game.pieces { owner = side, category = "unit" }) do
            local hex = core.hex_of(game, id)
            if hex and map.exists(hex) and C.matches(game, id, selectors_from(e.args, 3)) then
                out[#out + 1] = unit_target(game, id, "Remove from play")
            end
        end
        return out
    end,
    carry = function(ctx, game, e, id)
        core.log_about(game, id, id .. " is removed from play (" .. label(e.card) .. ")")
        game.remove(id)
    end,
})

-- eliminate_besieged(n): the drawer may eliminate n enemy combat units under siege (8.4 General
-- Exception, supply.under_siege).
pick_primitive("eliminate_besieged", {
    chooser = function(e) return e.drawer end,
    targets = function(ctx, game, e)
        local supply, out = require("cnw.supply"), {}
        for _, id in ipairs(game.pieces { owner = core.enemy(e.drawer), category = "unit" }) do
            if on_map(game, id) and supply.under_siege(game, core.piece(game, id).loc) then
                out[#out + 1] = unit_target(game, id, "Eliminate")
            end
        end
        return out
    end,
    carry = function(ctx, game, e, id) core.eliminate(game, id, label(e.card)) end,
})

-- destroy_depot(n, within:k, selectors): the drawer eliminates n enemy depots not occupied by an
-- enemy combat unit and within k hexes of one of his combat units matching the selectors (8.8).
pick_primitive("destroy_depot", {
    chooser = function(e) return e.drawer end,
    targets = function(ctx, game, e)
        local supply, enemy, out = require("cnw.supply"), core.enemy(e.drawer), {}
        local within = 3
        for _, a in ipairs(e.args) do within = tonumber(a:match("^within:(%d+)$")) or within end
        local mine = {}
        for _, id in ipairs(game.pieces { owner = e.drawer, category = "unit" }) do
            if on_map(game, id) and C.matches(game, id, selectors_from(e.args, 2)) then mine[#mine + 1] = core.piece(game, id).loc end
        end
        for _, d in ipairs(supply.depots(game, enemy)) do
            local hex = core.piece(game, d).loc
            local near = false
            for _, h in ipairs(mine) do if map.distance(h, hex) <= within then near = true end end
            if near and #core.units_at(game, hex, enemy) == 0 then
                out[#out + 1] = { arg = hex, label = "Eliminate the " .. enemy .. " depot at " .. hex, hexes = { hex } }
            end
        end
        return out
    end,
    carry = function(ctx, game, e, hex)
        local supply = require("cnw.supply")
        supply.capture_depot(game, supply.depot_at(game, hex, core.enemy(e.drawer)))   -- logs 8.8
    end,
})

-- hasten_reinforcement(n): n of the drawer's reinforcements due next Turn arrive in this Turn's
-- Reinforcement Phase instead (props arrive_turn, reinforcements.lua).
pick_primitive("hasten_reinforcement", {
    chooser = function(e) return e.drawer end,
    targets = function(ctx, game, e)
        local out = {}
        for _, id in ipairs(game.pieces { owner = e.drawer }) do
            if core.piece(game, id).loc == nil and game.prop(id, "arrive_turn") == game.turn() + 1 then
                out[#out + 1] = { arg = id, label = "Hasten " .. id .. " (due on Turn " .. (game.turn() + 1) .. ")", pieces = { id } }
            end
        end
        return out
    end,
    carry = function(ctx, game, e, id)
        game.set_prop(id, "arrive_turn", game.turn())
        game.log(id .. " arrives in this Turn's Reinforcement Phase (" .. label(e.card) .. ")")
    end,
})

-- delay_reinforcements(k): the drawer's reinforcements due this Turn arrive k Turns later.
C.primitives.delay_reinforcements = {
    now = function(ctx, game, e)
        local n, k = 0, tonumber(e.args[1]) or 1
        for _, id in ipairs(game.pieces { owner = e.drawer }) do
            if core.piece(game, id).loc == nil and game.prop(id, "arrive_turn") == game.turn() then
                game.set_prop(id, "arrive_turn", game.turn() + k)
                n = n + 1
            end
        end
        if n == 0 then return "impossible" end
        game.log(n .. " " .. e.drawer .. " reinforcements due this Turn arrive on Turn " .. (game.turn() + k) .. " (" .. label(e.card) .. ")")
        return "done"
    end,
}

-- first_attacker(): the drawer attacks first this Turn (9.3). first_attacker_choice(): the drawer
-- chooses who attacks first, when the card is played. first_mover(): the drawer instigates this
-- Turn's movement sequence (8.2).
C.turn_effect("first_attacker")
C.turn_effect("first_mover")
C.turn_effect("first_attacker_set")
pick_primitive("first_attacker_choice", {
    count = function() return 1 end,
    chooser = function(e) return e.drawer end,
    targets = function(ctx, game, e)
        local out = {}
        for _, side in ipairs(core.SIDES) do
            out[#out + 1] = { arg = side, label = "The " .. side .. " player attacks first this Turn (9.3)" }
        end
        return out
    end,
    carry = function(ctx, game, e, side)
        add_active(game, { card = e.card, drawer = e.drawer, name = "first_attacker_set", args = { side } })
        game.log(e.drawer .. " decides that the " .. side .. " player attacks first this Turn (" .. label(e.card) .. ")")
    end,
})

-- Who attacks first this Turn by the cards (nil: 9.3 decides).
function C.first_attacker(game)
    local side
    for _, e in ipairs(C.active(game)) do
        if e.name == "first_attacker" then side = e.drawer
        elseif e.name == "first_attacker_set" then side = e.args[1] end
    end
    return side
end

function C.first_mover(game)
    local e = C.active(game, "first_mover")[1]
    return e and e.drawer
end

-- forage_marker(n, enemy, selectors|no_commander): the drawer puts a forage marker (7.6) on n
-- enemy stacks in his friendly territory (chosen when the card is played; placed in 7.6).
C.turn_effect("forage_marker_at")
pick_primitive("forage_marker", {
    chooser = function(e) return e.drawer end,
    targets = function(ctx, game, e)
        local enemy, out, seen = C.side_of(e.args[2], e.drawer), {}, {}
        local no_cmd = false
        for _, a in ipairs(e.args) do if a == "no_commander" then no_cmd = true end end
        for _, hex in ipairs(game.occupied()) do
            if map.exists(hex) and #core.units_at(game, hex, enemy) > 0 and core.friendly_territory(e.drawer, hex)
                and not (no_cmd and #core.commanders_at(game, hex, enemy) > 0) and not seen[hex] then
                seen[hex] = true
                out[#out + 1] = { arg = hex, label = "A forage marker on the " .. enemy .. " stack at " .. hex, hexes = { hex } }
            end
        end
        return out
    end,
    carry = function(ctx, game, e, hex)
        add_active(game, { card = e.card, drawer = e.drawer, name = "forage_marker_at", args = { C.side_of(e.args[2], e.drawer), hex } })
        game.log("The stack at " .. hex .. " will receive a forage marker in this Turn's Active Supply phase (" .. label(e.card) .. ", 7.6)")
    end,
})

function C.extra_forage(ctx, game, side)
    local out = {}
    for _, e in ipairs(C.active(game, "forage_marker_at")) do
        if e.args[1] == side then out[#out + 1] = e.args[2] end
    end
    return out
end

-- friendly_city(region) or friendly_city(n, within:k): cities that count as friendly to the
-- drawer for establishing depots (7.7) this Turn: a region's, or n cities friendly to the enemy
-- within k hexes of one of the drawer's combat units, the drawer's choice.
C.turn_effect("friendly_city_at")
C.primitives.friendly_city = {
    now = function(ctx, game, e)
        if tonumber(e.args[1]) then
            e.name = "friendly_city_pick"
            return C.primitives.friendly_city_pick.now(ctx, game, e)
        end
        for _, hex in ipairs(map.region(e.args[1])) do
            add_active(game, { card = e.card, drawer = e.drawer, name = "friendly_city_at", args = { hex } })
        end
        return "done"
    end,
}
pick_primitive("friendly_city_pick", {
    chooser = function(e) return e.drawer end,
    targets = function(ctx, game, e)
        local within, out = 2, {}
        for _, a in ipairs(e.args) do within = tonumber(a:match("^within:(%d+)$")) or within end
        local mine = {}
        for _, id in ipairs(game.pieces { owner = e.drawer, category = "unit" }) do
            if on_map(game, id) then mine[#mine + 1] = core.piece(game, id).loc end
        end
        for _, hex in ipairs(map.hexes()) do
            if core.is_city(hex) and core.friendly_territory(core.enemy(e.drawer), hex) then
                for _, h in ipairs(mine) do
                    if map.distance(h, hex) <= within then
                        out[#out + 1] = { arg = hex, label = "The city at " .. hex .. " counts as friendly for depots this Turn", hexes = { hex } }
                        break
                    end
                end
            end
        end
        return out
    end,
    carry = function(ctx, game, e, hex)
        add_active(game, { card = e.card, drawer = e.drawer, name = "friendly_city_at", args = { hex } })
        game.log("The city at " .. hex .. " counts as " .. e.drawer .. "-friendly for depots this Turn (" .. label(e.card) .. ", 7.7)")
    end,
})

function C.depot_city_friendly(ctx, game, side, hex)
    for _, e in ipairs(C.active(game, "friendly_city_at")) do
        if e.drawer == side and e.args[1] == hex then return true end
    end
    return false
end

-- Supply: rivers_frozen(): rivers do not block General Supply routes or depot chains;
-- block_supply(enemy, region:ID): no route or chain of that side enters the region;
-- ignore_forage(side): that side's stacks ignore forage markers (6.3); uss_lost(NAME,
-- if_enemy_within:k): the drawer's enemy loses that Ultimate Supply Source (a hex named NAME) while
-- one of the drawer's combat units is within k hexes of it, and cannot place reinforcements there.
C.turn_effect("rivers_frozen")
C.turn_effect("block_supply")
C.turn_effect("ignore_forage")
C.turn_effect("uss_lost")

function C.rivers_frozen(ctx, game) return #C.active(game, "rivers_frozen") > 0 end

function C.blocked_region(ctx, game, side)
    for _, e in ipairs(C.active(game, "block_supply")) do
        if C.side_of(e.args[1], e.drawer) == side then return (e.args[2] or ""):match("^region:(.+)$") end
    end
    return nil
end

function C.forage_ignored(ctx, game, side, hex)
    for _, e in ipairs(C.active(game, "ignore_forage")) do
        if C.side_of(e.args[1], e.drawer) == side then return true end
    end
    return false
end

function C.uss_lost(ctx, game, side, hex)
    for _, e in ipairs(C.active(game, "uss_lost")) do
        local name = map.name(hex)
        if core.enemy(e.drawer) == side and name and name:lower() == e.args[1]:lower() then
            local within = tonumber((e.args[2] or ""):match("^if_enemy_within:(%d+)$"))
            if not within then return true end
            for _, id in ipairs(game.pieces { owner = e.drawer, category = "unit" }) do
                local loc = core.piece(game, id).loc
                if loc and map.exists(loc) and map.distance(loc, hex) <= within then return true end
            end
        end
    end
    return false
end

-- The set of `side`'s USS hexes lost this Turn (for the supply rules: one query per search).
function C.lost_uss(ctx, game, side, region)
    local out = {}
    if #C.active(game, "uss_lost") == 0 then return out end
    for _, h in ipairs(map.region(region)) do
        if C.uss_lost(ctx, game, side, h) then out[h] = true end
    end
    return out
end

-- Combat: ignore_river(n): n of the drawer's attacks ignore the river modifiers of 11.4/11.5;
-- withdraw_before_combat(n): n of the drawer's defending stacks may withdraw before combat (11.1)
-- as if all cavalry; combat_bonus(n, selectors, count:k): the drawer's stacks matching add n to
-- their final attack or defence value; commander_disabled(ID): that commander has CR 0.
C.turn_effect("ignore_river")
C.turn_effect("withdraw_before_combat")
C.turn_effect("combat_bonus")
-- commander_disabled(ID): the commander has CR 0 this Turn (core.cr reads the piece property
-- cr_zero_turn); a game's other rules (16.2 special characteristics) read the same property.
C.primitives.commander_disabled = {
    now = function(ctx, game, e)
        local n = 0
        for _, id in ipairs(game.pieces { category = "commander" }) do
            if id == e.args[1] or core.piece(game, id).type == e.args[1] then
                game.set_prop(id, "cr_zero_turn", game.turn())
                n = n + 1
            end
        end
        if n == 0 then return "impossible" end
        game.log(e.args[1] .. " has a CR of 0 this Turn (" .. label(e.card) .. ")")
        return "done"
    end,
}

-- Uses one of the drawer's "n times" effects named `name`; true if one was left.
function C.take(game, name, side)
    for _, e in ipairs(C.active(game, name)) do
        if e.drawer == side and (e.used or 0) < (tonumber(e.args[1]) or 1) then
            C.use(game, e)
            return true
        end
    end
    return false
end

function C.available(game, name, side)
    for _, e in ipairs(C.active(game, name)) do
        if e.drawer == side and (e.used or 0) < (tonumber(e.args[1]) or 1) then return true end
    end
    return false
end

-- The bonus of combat_bonus effects for `side`'s stack of units `ids` (attack or defence).
function C.combat_bonus(ctx, game, side, ids) return stack_bonus(game, "combat_bonus", side, ids) end

-- Movement: move_roll(enemy, mixed, fail:k): that side's stacks of more than one nationality
-- roll 1d6 before moving; on k or less they do not move.
C.turn_effect("move_roll")
function C.move_roll_needed(ctx, game, side, ids)
    for _, e in ipairs(C.active(game, "move_roll")) do
        if C.side_of(e.args[1], e.drawer) == side then
            local nations, n = {}, 0
            for _, id in ipairs(ids) do
                local x = core.stat(game, id, "nation")
                if x and not nations[x] then nations[x] = true; n = n + 1 end
            end
            if n > 1 then return tonumber((e.args[3] or ""):match("^fail:(%d+)$")) or 2, e end
        end
    end
    return nil
end

-- Rules the game suspends or forces this Turn: suspend_rule(R) / force_rule(R).
C.turn_effect("suspend_rule")
C.turn_effect("force_rule")
function C.rule_suspended(game, rule)
    for _, e in ipairs(C.active(game, "suspend_rule")) do if e.args[1] == rule then return true end end
    return false
end
function C.rule_forced(game, rule)
    for _, e in ipairs(C.active(game, "force_rule")) do if e.args[1] == rule then return true end end
    return false
end

-- cossack_cc_die(k): the drawer gains 13.1's Combat Command on a score of k or more this Turn.
C.turn_effect("cossack_cc_die")
function C.cossack_success_score(game)
    local best
    for _, e in ipairs(C.active(game, "cossack_cc_die")) do
        local k = tonumber(e.args[1])
        if k and (not best or k < best) then best = k end
    end
    return best
end

-- cancel_supply_exemption(HEXES): units on those hexes are not deemed in General Supply (6.6).
C.turn_effect("cancel_supply_exemption")
function C.supply_exemption_cancelled(game, hex)
    for _, e in ipairs(C.active(game, "cancel_supply_exemption")) do
        for h in (e.args[1] or ""):gmatch("%S+") do if h == hex then return true end end
    end
    return false
end

return C
