-- Tests of rules 9, 10 and 11 (combat commands and combat), 14.4 (Napoleon killed) and 14.6,
-- on small positions arranged on the empty set-up. modules/cnw_series/combat.lua.

-- ---- helpers ---------------------------------------------------------------------------------

local function place(game, ctype, id, hex, opts)
    opts = opts or {}
    game.create(ctype, { id = id, at = hex, owner = opts.owner, face = opts.face })
    for k, v in pairs(opts.props or {}) do game.set_prop(id, k, v) end
    return id
end

-- A new game on the empty board, with `arrange(game)` placing pieces; then the Combat Commands
-- phase (9) and the Combat phase (10) start for real: the entry is a French "pass" at a combat
-- order decision planted in the Movement phase, so the rules go on to phases 5 and 6.
local function combat_game(opts)
    local g = vt.new_game { setup = "tests/setups/empty.xml", seed = opts.seed or 1, dice = opts.dice }
    vt.edit(g, function(game)
        game.set_turn(opts.turn or 7)
        game.set_var("cc_basic_french", opts.cc_french or "3")
        game.set_var("cc_basic_coalition", opts.cc_coalition or "2")
        for k, v in pairs(opts.vars or {}) do game.set_var(k, v) end
        if opts.arrange then opts.arrange(game) end
        game.set_phase("movement")
        game.set_var("phase_index", 4)
        game.set_var("alt_combat", { turn = "french", done_french = false, done_coalition = true })
        game.decide { role = "french", step = "combat.order", rule = "test", prompt = "test entry" }
    end)
    vt.apply(g, "french", "pass")
    -- per-Turn properties after the entry (its "pass" ended a combat phase: 10.8 cleared them)
    if opts.after then vt.edit(g, opts.after) end
    return g
end

local function loc(g, id) return vt.with(g, function(game) return game.piece(id).loc end) end
local function face(g, id) return vt.with(g, function(game) return game.piece(id).face end) end
local function var(g, name) return vt.with(g, function(game) return game.var(name) end) end
local function track(g, name) return vt.with(g, function(game) return game.track(name) end) end
local function prop(g, id, name) return vt.with(g, function(game) return game.prop(id, name) end) end

-- text: a plain fragment, or a list of fragments that must all be in one event, in order
local function has_event(g, text)
    local parts = type(text) == "table" and text or { text }
    for _, e in ipairs(vt.events(g)) do
        local at = 1
        for _, part in ipairs(parts) do
            local i, j = e:find(part, at, true)
            if not i then at = nil; break end
            at = j + 1
        end
        if at then return true end
    end
    return false
end

local function events_text(g) return table.concat(vt.events(g), "\n") end

local function expect_event(g, text)
    assert(has_event(g, text), "expected an event containing '" .. (type(text) == "table" and table.concat(text, "...") or text)
        .. "' in:\n" .. events_text(g))
end

local function apply_all(g, role, list)
    for _, a in ipairs(list) do vt.apply(g, role, a) end
end

local function step(g) return vt.decision(g).step end

-- ---- the worked example (1813 book, "Examples of play - Combat (1)" and "(2)"; digest §5) ----
-- Wien is played by Verdun (4920), a fortified city: Davout attacks from Metz (4819) and Ney
-- supports from 4820, both across rivers; Stack C at 5020. Constantine defends Verdun,
-- supported by Platov (4919), Wittgenstein (4921) and Stack Y (5019).

local function example_position(game)
    place(game, "napoleon", "davout", "4819")                      -- CR 3
    for i = 1, 4 do place(game, "fr_friant", "d_inf" .. i, "4819") end
    place(game, "fr_og_cav", "d_cav", "4819")
    place(game, "fr_guard_art", "d_art", "4819")
    place(game, "ney", "ney", "4820")                              -- CR 2
    for i = 1, 4 do place(game, "fr_christiani", "n_inf" .. i, "4820") end
    place(game, "fr_meunier", "c_inf", "5020")                     -- Stack C, no commander
    place(game, "constantine", "constantine", "4920")              -- CR 1
    place(game, "co_gren1", "k_inf1", "4920")
    place(game, "co_gren2", "k_inf2", "4920")
    place(game, "co_ru_guard_cav", "k_cav", "4920")
    place(game, "platov", "platov", "4919")                        -- CR 2
    for i = 1, 3 do place(game, "co_platov_cos", "p_cav" .. i, "4919") end
    place(game, "wittgenstein", "wittgenstein", "4921")            -- CR 2
    place(game, "fr_pajol_cav", "w_cav", "4921", { owner = "coalition" })   -- a conscript cavalry
    place(game, "co_gorchakov", "y_inf", "5019")                   -- Stack Y, no commander
end

local function example_marches(game)                               -- Ney and Platov force marched
    for i = 1, 4 do game.set_prop("n_inf" .. i, "forced_march", true) end
    for i = 1, 3 do game.set_prop("p_cav" .. i, "forced_march", true) end
end

-- dice: activation 3, Ney 5, C 3, Platov 3, Wittgenstein 5, Y 1, FAV 5, FDV 2, then the 11.15 die
local function play_example(params, die_11_15)
    local g = combat_game { arrange = example_position, after = example_marches, cc_french = "3", cc_coalition = "2",
        vars = params and { _combat_params = params } or nil,
        dice = { 3, 5, 3, 3, 5, 1, 5, 2, die_11_15 } }
    assert(vt.decision(g).role == "french" and step(g) == "combat.order")
    vt.apply(g, "french", "attack 4819 4920")
    vt.apply(g, "french", "confirm")
    vt.apply(g, "french", "cc 1")
    expect_event(g, "10.2: die 3 + CR 3 + 1 CC = 7: the attack goes ahead")
    assert(track(g, "french_cc") == 2)
    assert(step(g) == "combat.defender_cc")
    vt.apply(g, "coalition", "cc 2")
    assert(track(g, "coalition_cc") == 0)
    vt.apply(g, "french", "call 4820")
    vt.apply(g, "french", "call 5020")                             -- no more candidates: tests rolled
    expect_event(g, { "support from 4820", "die 5 + CR 2 + 1 CC - 0 conscript(s) = 8: takes part" })
    expect_event(g, { "support from 5020", "die 3 + CR 0 + 1 CC - 0 conscript(s) = 4: does not take part" })
    vt.apply(g, "coalition", "call 4919")
    vt.apply(g, "coalition", "call 4921")
    vt.apply(g, "coalition", "call 5019")
    expect_event(g, { "support from 4919", "die 3 + CR 2 + 2 CC - 0 conscript(s) = 7: takes part" })
    expect_event(g, { "support from 4921", "die 5 + CR 2 + 2 CC - 1 conscript(s) = 8: takes part" })
    expect_event(g, { "support from 5019", "die 1 + CR 0 + 2 CC - 0 conscript(s) = 3: does not take part" })
    -- 11.3: 6 + 4 = 10, not halved; 11.4: -3 river, -1 artillery into a fortified city = 6;
    -- 11.5: + CR 3 = 9; Ney 4 -> 2 (forced march) - 2 (river) + 1 = +1; die 5: FAV 15
    expect_event(g, "attack value 10 (divisor 1), modified 6, with CR 9; supports [4820 +1]; die 5: FAV 15")
    -- 11.6-11.7: 3 + 2 = 5, + CR 1 = 6; Platov 3 -> 1 + 1 = +2; Wittgenstein 1 + 1 = +2; die 2
    expect_event(g, "defence value 5 (divisor 1), with CR 6; supports [4919 +2, 4921 +2]; die 2: FDV 12")
    return g
end

test("5 worked example (1813 book, Combat 1-2) under the 1813 parameters: FAV 15, FDV 12, hits 3 and ceil(3/2) adjusted", function()
    local expected_winner_hits = { 0, 1, 2, 2, 3, 4 }
    for die = 1, 6 do
        local g = play_example({ decisive_battle_hits = false }, die)
        expect_event(g, string.format("the attacker wins by 3; hits: french %d, coalition 3 (11.14-11.16)",
            expected_winner_hits[die]))
        assert(not has_event(g, "decisive battle"))
    end
    -- the rest of the fight: at least 2 of the 3 Russian hits on Constantine's stack (A-14)
    local g = play_example({ decisive_battle_hits = false }, 3)
    assert(vt.decision(g).role == "coalition" and step(g) == "combat.hits")
    assert(not vt.has_action(g, "coalition", "hit p_cav1"), "the first hits go on the defending stack")
    vt.apply(g, "coalition", "hit k_inf1")
    assert(not vt.has_action(g, "coalition", "hit p_cav1"), "half of 3 rounds up to 2 (A-14)")
    vt.apply(g, "coalition", "hit k_inf2")
    assert(vt.has_action(g, "coalition", "hit p_cav1"), "the remainder may go to a supporting stack")
    vt.apply(g, "coalition", "hit p_cav1")
    -- odd number of hits: the coalition may eliminate a disrupted unit (11.18)
    assert(step(g) == "combat.odd_hit")
    vt.apply(g, "coalition", "pass")
    -- French: 2 hits, at least one on Davout's stack
    assert(vt.decision(g).role == "french" and step(g) == "combat.hits")
    assert(not vt.has_action(g, "french", "hit n_inf1"))
    vt.apply(g, "french", "hit d_inf1")
    vt.apply(g, "french", "hit n_inf1")
    -- margin 3: Constantine must withdraw (11.12 bp1), into 4921 only (4919: adjacent to Metz;
    -- 5019: unbridged river; 4820, 5020: French)
    assert(step(g) == "combat.withdraw")
    assert(not vt.has_action(g, "coalition", "stay"))
    assert(vt.has_action(g, "coalition", "withdraw 4921"))
    assert(not vt.has_action(g, "coalition", "withdraw 4919"))
    assert(not vt.has_action(g, "coalition", "withdraw 5019"))
    vt.apply(g, "coalition", "withdraw 4921")
    assert(loc(g, "constantine") == "4921" and loc(g, "k_cav") == "4921")
    -- 11.17: Davout has undisrupted cavalry, the withdrawing stack keeps its undisrupted cavalry: no pursuit
    assert(loc(g, "k_inf1") == "4921")
    -- 11.12 bp1: Davout's undisrupted units may advance into Verdun, not Ney's
    assert(step(g) == "combat.advance")
    assert(not vt.has_action(g, "french", "advance d_inf1"), "disrupted units stay")
    assert(not vt.has_action(g, "french", "advance n_inf2"), "supporting stacks never advance")
    vt.apply(g, "french", "advance d_cav")
    vt.apply(g, "french", "advance davout")
    vt.apply(g, "french", "done")
    assert(loc(g, "d_cav") == "4920" and loc(g, "davout") == "4920" and loc(g, "d_inf1") == "4819")
    -- 11.2 bp2: every participant has taken part in combat; Stack C and Y have not
    assert(prop(g, "n_inf3", "combats") == 1 and prop(g, "w_cav", "combats") == 1)
    assert(prop(g, "c_inf", "combats") == nil and prop(g, "y_inf", "combats") == nil)
    -- 9.4: 3 + 1 absorbed against 2: not decisive; then the Coalition may order an attack (10.6)
    assert(var(g, "combat_cc_adjust_french") == nil)
    assert(vt.decision(g).role == "coalition" and step(g) == "combat.order")
end)

test("5 worked example under the 1814 parameters: 11.16 adds 4 hits to the loser and 2 to the winner", function()
    local expected_winner_hits = { 2, 3, 4, 4, 5, 6 }
    for die = 1, 6 do
        local g = play_example(nil, die)
        expect_event(g, string.format("the attacker wins by 3; hits: french %d, coalition 7 (decisive battle: +4 / +2) (11.14-11.16)",
            expected_winner_hits[die]))
    end
end)
