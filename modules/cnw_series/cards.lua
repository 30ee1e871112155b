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
-- Variables: "cards_turn" (this Turn's sequence of laying), "cards_pending" (the effects of the
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
C.selectors.army = function(game, id, v) return game.stat(id, "army") == v end
C.selectors.corps = function(game, id, v) return game.stat(id, "corps") == v end
C.selectors.nation = function(game, id, v) return game.stat(id, "nation") == v end
C.selectors.class = function(game, id, v) return core.class(game, id) == v end
C.selectors.cossack = function(game, id) return core.is_cossack(game, id) end
C.selectors.region = function(game, id, v)
    local loc = game.piece(id).loc
    return loc ~= nil and map.exists(loc) and map.in_region(loc, v)
end
C.selectors.hex = function(game, id, v)
    local loc = game.piece(id).loc
    return loc ~= nil and map.exists(loc) and (map.name(loc) == v or loc == v)
end
C.selectors.city = function(game, id)
    local loc = game.piece(id).loc
    return loc ~= nil and map.exists(loc) and core.is_city(loc)
end
-- A stack containing units of every listed nation ("mixed:austria+russia").
C.selectors.mixed = function(game, id, v)
    local loc = game.piece(id).loc
    if not loc then return false end
    local side = game.piece(id).owner
    for nation in v:gmatch("[^+]+") do
        local found = false
        for _, u in ipairs(core.units_at(game, loc, side)) do
            if game.stat(u, "nation") == nation then found = true break end
        end
        if not found then return false end
    end
    return true
end
-- A stack accompanied by this commander.
C.selectors.commander = function(game, id, v)
    local loc = game.piece(id).loc
    if not loc then return false end
    for _, c in ipairs(core.commanders_at(game, loc, game.piece(id).owner)) do
        if c == v or game.piece(c).type == v then return true end
    end
    return false
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
    for _, side in ipairs(core.SIDES) do game.set_pile(hand(side), side, "owner") end
    game.set_pile(DISCARD, nil, "all")
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

-- The order of laying: each slot { side =, mode = "choose" | "single", card = (single) }.
local function laying_order(ctx, game, drawn)
    local first = conf(ctx).declare_first or core.SIDES[1]
    local second = core.enemy(first)
    local s1, s2 = drawn[first] and C.single(drawn[first]), drawn[second] and C.single(drawn[second])
    local function slot(side, single) return { side = side, mode = single and "single" or "choose", card = single and drawn[side] or nil } end
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
    for _, eff in ipairs(C.effects(card, side)) do
        local prim = C.primitives[eff.name]
        if not prim then error("cards: no primitive '" .. eff.name .. "' (" .. label(card) .. ")") end
        local e = { card = card, drawer = side, name = eff.name, args = eff.args, single = C.single(card) }
        if prim.now then pending[#pending + 1] = e else add_active(game, e) end
    end
    game.set_var("cards_pending", pending)
end

-- Draws this Turn's cards (once), then lays them in order, asking who chooses. Returns true when
-- a decision was set; false when the Turn's cards are all played.
function C.start_of_turn(ctx, game)
    if not C.enabled(ctx, game) then return false end
    local st = game.var("cards_turn")
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
        game.set_var("cards_turn", st)
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
                game.log(label(e.card) .. ": the instruction " .. e.name .. " cannot be carried out; the card is simply discarded (16.1)")
            elseif r ~= "done" then
                error("cards: primitive '" .. e.name .. "' returned " .. tostring(r))
            end
            pending = game.var("cards_pending") or {}
        end
        local st = game.var("cards_turn")
        st.index = st.index + 1
        game.set_var("cards_turn", st)
        local slot = st.order[st.index]
        if not slot then return false end
        local cards = game.pile(hand(slot.side))
        if slot.mode == "single" then
            play(ctx, game, slot.side, slot.card)
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

-- March attrition (8.6): march_drm(n, selectors) where the selector is "all", a side, or unit
-- selectors; "count:1" limits it to one stack (the first that moves and matches, its owner's).
C.turn_effect("march_drm")
function C.march_drm(ctx, game, ids)
    local side
    local units = {}
    for _, id in ipairs(ids) do
        side = side or game.piece(id).owner
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
            if applies then
                for _, u in ipairs(units) do if not C.matches(game, u, sel) then applies = false break end end
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
        if game.piece(id).owner == side and C.matches(game, id, sel) then return false end
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
        if game.piece(id).owner == side and C.matches(game, id, sel)
            and not (unless and C.selectors.commander(game, id, unless)) then
            return false
        end
    end
    return true
end

-- defence_bonus(n, selectors[, count:k]): the drawer's defending stacks whose units all match add
-- n to their final defence value. Returns the bonus of the defending units `ids` of `side`.
C.turn_effect("defence_bonus")
function C.defence_bonus(ctx, game, side, ids)
    local total = 0
    for _, e in ipairs(C.active(game, "defence_bonus")) do
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

-- no_forced_march(): no stack may force march this Turn (8.4).
C.turn_effect("no_forced_march")
function C.forced_march_allowed(ctx, game, ids)
    return #C.active(game, "no_forced_march") == 0
end

-- all_difficult_unless_road(): every hex counts as difficult terrain for movement this Turn
-- unless entered across a road or pass hexside (8.4).
C.turn_effect("all_difficult_unless_road")
function C.all_difficult_unless_road(ctx, game) return #C.active(game, "all_difficult_unless_road") > 0 end

-- ---- primitives carried out when the card is played ----------------------------------------

-- disrupt(n, who, selectors): who = "each" (every player his own, owner's choice), "enemy" (the
-- drawer chooses among the opponent's) or a side (that side's own, its choice); undisrupted
-- combat units on the map that match the selectors.
local function disrupt_candidates(game, side, sel)
    local out = {}
    for _, id in ipairs(game.pieces { owner = side, category = "unit" }) do
        local loc = game.piece(id).loc
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
        local ids = disrupt_candidates(game, q.side, sel)
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
        for _, id in ipairs(disrupt_candidates(game, d.context.side, d.context.sel)) do
            out[#out + 1] = { kind = "disrupt", args = { id }, pieces = { id }, hexes = { game.piece(id).loc },
                              label = "Disrupt " .. id .. " at " .. game.piece(id).loc .. " (16.1)" }
        end
        return out
    end,
    apply = function(ctx, game, role, action, d)
        local c = d.context
        core.disrupt(game, action.args[1], label(c.e.card) .. ", 16.1")
        if c.left > 1 and #disrupt_candidates(game, c.side, c.sel) > 0 then
            c.left = c.left - 1
            game.decide { role = role, step = "cards.disrupt", rule = "16.1", prompt = d.prompt, context = c }
            return
        end
        if disrupt_next(ctx, game, c.e, c.queue, c.sel, true) == "decided" then return end
        C.resume(ctx, game)
    end,
}

-- reveal(enemy, n): the drawer chooses n of the opponent's face-down pieces on the map (supply
-- trains and dummies; 15.1's hidden forces add theirs through ctx.hooks.card_reveal_targets) and
-- they are revealed (game.reveal: logged for everybody).
local function reveal_targets(ctx, game, side)
    local out = {}
    for _, id in ipairs(game.pieces { owner = side }) do
        local p = game.piece(id)
        if p.hidden and p.loc and map.exists(p.loc) then out[#out + 1] = id end
    end
    if ctx.hooks.card_reveal_targets then
        for _, id in ipairs(ctx.hooks.card_reveal_targets(ctx, game, side)) do out[#out + 1] = id end
    end
    return out
end

C.primitives.reveal = {
    now = function(ctx, game, e)
        local side = C.side_of(e.args[1], e.drawer)
        if #reveal_targets(ctx, game, side) == 0 then return "impossible" end
        game.set_active(e.drawer)
        game.decide { role = e.drawer, step = "cards.reveal", rule = "16.1",
                      prompt = label(e.card) .. ": choose a face-down " .. side .. " piece to reveal",
                      context = { e = e, side = side, left = tonumber(e.args[2]) or 1 } }
        return "decided"
    end,
}

C.steps["cards.reveal"] = {
    actions = function(ctx, game, role, d)
        if role ~= d.role then return {} end
        local out = {}
        for _, id in ipairs(reveal_targets(ctx, game, d.context.side)) do
            local loc = game.piece(id).loc
            out[#out + 1] = { kind = "reveal", args = { id }, hexes = { loc },
                              label = "Reveal the face-down piece at " .. loc .. " (16.1)" }
        end
        return out
    end,
    apply = function(ctx, game, role, action, d)
        local id = action.args[1]
        if ctx.hooks.card_reveal and ctx.hooks.card_reveal(ctx, game, id) then
            -- the game revealed it its own way (15.1 hidden forces)
        else
            game.reveal(id)
            game.log(label(d.context.e.card) .. ": the piece at " .. game.piece(id).loc .. " is " .. game.piece(id).type)
        end
        local c = d.context
        if c.left > 1 and #reveal_targets(ctx, game, c.side) > 0 then
            c.left = c.left - 1
            game.decide { role = role, step = "cards.reveal", rule = "16.1", prompt = d.prompt, context = c }
            return
        end
        C.resume(ctx, game)
    end,
}

return C
