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

-- ---- small positions: attacker at 4920 (Verdun), defender at 4921 (no river between) ----------
-- 4921's neighbours: 4922 and 5021 (bridged) are open for a withdrawal; 4820 and 4821 are across
-- unbridged rivers; 5020 is adjacent to 4920.

local function french_stack(game, hex, n, cmd, ctype)
    if cmd then place(game, cmd, cmd, hex) end
    for i = 1, n do place(game, ctype or "fr_friant", "f" .. hex .. "_" .. i, hex) end
end

local function coalition_stack(game, hex, n, cmd, ctype)
    if cmd then place(game, cmd, cmd, hex) end
    for i = 1, n do place(game, ctype or "co_gorchakov", "c" .. hex .. "_" .. i, hex) end
end

-- answers the combat decisions until the next order: `pick[step]` (text or function(actions))
-- or the first action ("pass"/"done" for the optional extra hit and the advance)
local function drive(g, pick)
    pick = pick or {}
    for _ = 1, 100 do
        local d = vt.decision(g)
        if d.result or d.step == "combat.order" or d.step:sub(1, 7) ~= "combat." then return end
        local acts = vt.actions(g, d.role)
        local choice = pick[d.step]
        if type(choice) == "function" then choice = choice(acts) end
        if not choice then
            choice = acts[1]
            for _, a in ipairs(acts) do
                if (d.step == "combat.odd_hit" and a == "pass") or (d.step == "combat.advance" and a == "done") then choice = a end
            end
        end
        vt.apply(g, d.role, choice)
    end
    error("combat did not finish")
end

test("9.1-9.2 each Turn both sides get the Set-up's basic CCs, adjusted by decisive victories, never outside 1..6", function()
    local g = combat_game { turn = 4, cc_french = "3 3 3 4", cc_coalition = "4",
        vars = { combat_cc_adjust_french = 5, combat_cc_adjust_coalition = -5 } }
    assert(track(g, "french_cc_basic") == 6 and track(g, "french_cc") == 6)
    assert(track(g, "coalition_cc_basic") == 1 and track(g, "coalition_cc") == 1)
    g = combat_game { turn = 3, cc_french = "3 3 3 4", cc_coalition = "4" }
    assert(track(g, "french_cc") == 3 and track(g, "coalition_cc") == 4)
end)

test("9.3 the side with the most CCs attacks first; equal CCs: the French", function()
    local arrange = function(game) french_stack(game, "4920", 2, "ney"); coalition_stack(game, "4921", 2, "kleist") end
    local g = combat_game { cc_french = "2", cc_coalition = "4", arrange = arrange }
    assert(var(g, "first_player") == "coalition" and vt.decision(g).role == "coalition")
    g = combat_game { cc_french = "3", cc_coalition = "3", arrange = arrange }
    assert(var(g, "first_player") == "french" and vt.decision(g).role == "french")
end)

test("9.4 a decisive victory: 6+ units each side, loser absorbs 4+ hits more: +1 / -1 basic CC for the rest of the game", function()
    local g = play_example(nil, 1)                                   -- 1814: coalition 7 hits, French 2
    drive(g, { ["combat.withdraw"] = "withdraw 4921" })
    assert(var(g, "combat_cc_adjust_french") == 1 and var(g, "combat_cc_adjust_coalition") == -1)
    assert(track(g, "french_cc_basic") == 4 and track(g, "coalition_cc_basic") == 1)
    assert(track(g, "french_cc") == 2, "this Turn's CCs are not changed")
end)

test("10.1 a stack with a disrupted unit, or under a forage marker, may not attack", function()
    local g = combat_game { arrange = function(game)
        french_stack(game, "4920", 2, "ney")
        game.set_face("f4920_1", "disrupted")
        french_stack(game, "5020", 1, "marmont")
        coalition_stack(game, "4921", 1)
    end }
    assert(not vt.has_action(g, "french", "attack 4920 4921"))
    assert(vt.has_action(g, "french", "attack 5020 4921"))
    g = combat_game { arrange = function(game)
        french_stack(game, "4920", 2, "ney")
        game.create("forage", { id = "fm", at = "4920" })
        french_stack(game, "5020", 1, "marmont")
        coalition_stack(game, "4921", 1)
    end }
    assert(not vt.has_action(g, "french", "attack 4920 4921"))
    assert(vt.has_action(g, "french", "attack 5020 4921"))
end)

local function duel(dice, extra)
    return combat_game { dice = dice, cc_french = "3", cc_coalition = "1", arrange = function(game)
        french_stack(game, "4920", 2, "ney")
        coalition_stack(game, "4921", 2, "kleist")
        if extra then extra(game) end
    end }
end

test("10.2 a: a die of 1 aborts the attack, the CCs are spent, the turn passes and the player may attack later", function()
    local g = duel { 1 }
    apply_all(g, "french", { "attack 4920 4921", "confirm", "cc 2" })
    expect_event(g, "the attack is aborted (10.2 a)")
    assert(track(g, "french_cc") == 1)
    assert(vt.decision(g).role == "coalition" and step(g) == "combat.order")
    vt.apply(g, "coalition", "pass")                                  -- 10.6: the coalition is done
    assert(vt.decision(g).role == "french" and step(g) == "combat.order")
end)

test("10.2 b: a total under 7 fails and the player makes no more attacks this Turn", function()
    local g = duel { 2 }
    apply_all(g, "french", { "attack 4920 4921", "confirm", "cc 1" })   -- 2 + 2 + 1 = 5
    expect_event(g, "the attack fails (10.2 b)")
    assert(var(g, "attacks_closed_french") == true)
    assert(vt.decision(g).role == "coalition")
    vt.apply(g, "coalition", "pass")
    assert(step(g) ~= "combat.order", "both players are done: the phase is over (10.8)")
end)

test("10.2 c and 10.4: the order and support tests need 7+; a supporting stack's conscripts are -1 each", function()
    local g = duel({ 4, 6 }, function(game)
        place(game, "fr_barrois", "sc1", "5020"); place(game, "fr_ricard", "sc2", "5020")   -- two conscripts
    end)
    apply_all(g, "french", { "attack 4920 4921", "confirm", "cc 1" })  -- 4 + 2 + 1 = 7
    expect_event(g, "= 7: the attack goes ahead (10.2 c)")
    vt.apply(g, "french", "call 5020")                                 -- 6 + 0 + 1 - 2 = 5
    expect_event(g, { "support from 5020", "die 6 + CR 0 + 1 CC - 2 conscript(s) = 5: does not take part" })
end)

test("10.6 declining closes a player's attacks; the other may go on until he too declines", function()
    local g = duel {}
    vt.apply(g, "french", "pass")
    assert(var(g, "attacks_closed_french") == true)
    assert(vt.decision(g).role == "coalition" and step(g) == "combat.order")
    vt.apply(g, "coalition", "pass")
    assert(step(g) ~= "combat.order")
end)

test("10.7 and 11.2 the same stack may attack again, halved after a combat; quartered with a forced march", function()
    -- order 6 (8), FAV 2 (2 + 2 + 2 = 6), FDV 4 (1 + 4 = 5): wins by 1; 11.15 die 1: no French hit
    local g = combat_game { dice = { 6, 2, 4, 1, 6, 3, 3, 3 }, cc_french = "3", cc_coalition = "1", arrange = function(game)
        french_stack(game, "4920", 2, "ney")
        coalition_stack(game, "4921", 1)
    end }
    apply_all(g, "french", { "attack 4920 4921", "confirm", "cc 0" })
    expect_event(g, "attack value 2 (divisor 1)")
    drive(g, { ["combat.withdraw"] = "stay" })
    assert(prop(g, "f4920_1", "combats") == 1)
    -- the coalition's only stack is disrupted: it cannot attack; the French attack again
    assert(vt.decision(g).role == "french" and step(g) == "combat.order")
    apply_all(g, "french", { "attack 4920 4921", "confirm", "cc 0" })
    expect_event(g, "attack value 1 (divisor 2)")
    -- 11.19: the defenders are all disrupted: FDV is the die alone
    expect_event(g, "11.19: the defenders are all disrupted: FDV = die 3")
    g = combat_game { dice = { 6, 2, 4, 1 }, cc_french = "3", cc_coalition = "1",
        arrange = function(game) french_stack(game, "4920", 4, "ney"); coalition_stack(game, "4921", 1) end,
        after = function(game) game.set_prop("f4920_1", "forced_march", true); game.set_prop("f4920_2", "combats", 1) end }
    apply_all(g, "french", { "attack 4920 4921", "confirm", "cc 0" })
    expect_event(g, "attack value 1 (divisor 4)")
end)

test("10.8 at the end of the Combat phase forced march markers are removed", function()
    local g = duel({}, nil)
    vt.edit(g, function(game) game.set_prop("f4920_1", "forced_march", true) end)
    vt.apply(g, "french", "pass")
    vt.apply(g, "coalition", "pass")
    assert(prop(g, "f4920_1", "forced_march") == nil)
end)

test("11.1 defenders solely cavalry attacked by a stack without cavalry may withdraw before combat; the attacker may advance", function()
    local g = combat_game { dice = { 6 }, cc_french = "3", cc_coalition = "1", arrange = function(game)
        french_stack(game, "4920", 2, "ney")
        coalition_stack(game, "4921", 1, "platov", "co_platov_cos")
    end }
    apply_all(g, "french", { "attack 4920 4921", "confirm", "cc 0" })
    assert(step(g) == "combat.evade")
    assert(vt.has_action(g, "coalition", "withdraw 4922") and vt.has_action(g, "coalition", "withdraw 5021"))
    assert(not vt.has_action(g, "coalition", "withdraw 4820"), "11.11: no unbridged river")
    assert(not vt.has_action(g, "coalition", "withdraw 5020"), "11.11: not adjacent to the attacking stack")
    vt.apply(g, "coalition", "withdraw 4922")
    assert(loc(g, "c4921_1") == "4922" and loc(g, "platov") == "4922")
    assert(step(g) == "combat.advance")
    apply_all(g, "french", { "advance f4920_1", "advance ney", "done" })
    assert(loc(g, "f4920_1") == "4921" and loc(g, "ney") == "4921" and loc(g, "f4920_2") == "4920")
end)

test("11.4 attacking without artillery into a fortified city: -2", function()
    local g = combat_game { dice = { 6, 3, 3, 3 }, cc_french = "3", cc_coalition = "1", arrange = function(game)
        french_stack(game, "4921", 2, "ney")
        coalition_stack(game, "4920", 1)
    end }
    apply_all(g, "french", { "attack 4921 4920", "confirm", "cc 0" })
    expect_event(g, "attack value 2 (divisor 1), modified 0")
end)

test("11.9 a tie: one unit of the attacking stack takes a hit, nobody moves", function()
    -- FAV 2 + 2 + 1 = 5, FDV 2 + 2 + 1 = 5
    local g = duel { 6, 1, 1 }
    apply_all(g, "french", { "attack 4920 4921", "confirm", "cc 0" })
    expect_event(g, "11.9: tie; hits: french 1, coalition 0")
    assert(step(g) == "combat.hits" and vt.decision(g).role == "french")
    assert(not vt.has_action(g, "french", "hit c4921_1"))
    vt.apply(g, "french", "hit f4920_1")
    assert(face(g, "f4920_1") == "disrupted")
    drive(g)
    assert(loc(g, "c4921_1") == "4921" and loc(g, "f4920_2") == "4920")
end)

test("11.10 the victorious defender may remain or withdraw", function()
    -- FAV 2 + 2 + 1 = 5, FDV 2 + 2 + 4 = 8: the defender wins by 3; 11.15 die 3
    local g = duel { 6, 1, 4, 3 }
    apply_all(g, "french", { "attack 4920 4921", "confirm", "cc 0" })
    expect_event(g, "the defender wins by 3")
    local seen = false
    drive(g, { ["combat.withdraw"] = function(acts)
        seen = true
        local has = {}
        for _, a in ipairs(acts) do has[a] = true end
        assert(has["stay"] and has["withdraw 4922"] and has["withdraw 5021"], table.concat(acts, "|"))
        return "stay"
    end, ["combat.hits"] = function(acts) return acts[#acts] end })
    assert(seen and loc(g, "kleist") == "4921")
end)

test("11.11 withdrawal over the stacking limit: the excess is disrupted and withdraws a further hex", function()
    -- 4 veterans + Ney: 4 + 2 + die 1 = 7; 4 line + 0 + die 1 = 5... FDV: cf 4 + 0 + die 0
    local g = combat_game { dice = { 6, 2, 1, 1 }, cc_french = "3", cc_coalition = "0", arrange = function(game)
        french_stack(game, "4920", 4, "ney")
        coalition_stack(game, "4921", 4)                               -- 4 line: 12 half-OF
        for i = 1, 3 do place(game, "co_horn", "full" .. i, "4922") end   -- 9 half-OF already at 4922
    end }
    apply_all(g, "french", { "attack 4920 4921", "confirm", "cc 0" })
    vt.apply(g, "coalition", "cc 0")
    vt.apply(g, "coalition", "done")                                   -- no defence support called
    -- FAV 4 + 2 + 2 = 8, FDV 4 + 1 = 5: margin 3, coalition 3 hits, French 0 (die 1)
    expect_event(g, "the attacker wins by 3; hits: french 0, coalition 3")
    apply_all(g, "coalition", { "hit c4921_1", "hit c4921_1", "hit c4921_2", "pass" })
    assert(step(g) == "combat.withdraw" and not vt.has_action(g, "coalition", "stay"))
    vt.apply(g, "coalition", "withdraw 4922")                          -- 9 + 3 + 3 + 3 = 18 > 12
    assert(step(g) == "combat.overflow")
    vt.apply(g, "coalition", "overflow c4921_3")
    vt.apply(g, "coalition", "overflow c4921_4")                       -- the rest fits: 9 + 3
    -- the further hex: 4822 is the only one (4921 is next to the attacker, the others across rivers)
    assert(loc(g, "c4921_3") == "4822" and face(g, "c4921_3") == "disrupted")
    assert(loc(g, "c4921_4") == "4822" and loc(g, "c4921_2") == "4922")
end)

test("11.12 bp1 lost by 3+ with no legal withdrawal hex: the survivors are eliminated; the attacker may advance", function()
    local g = combat_game { dice = { 6, 2, 1, 3 }, cc_french = "3", cc_coalition = "1", arrange = function(game)
        french_stack(game, "4920", 4, "ney")
        coalition_stack(game, "4921", 2)
        place(game, "fr_meunier", "block1", "4922"); place(game, "fr_meunier", "block2", "5021")
    end }
    apply_all(g, "french", { "attack 4920 4921", "confirm", "cc 0", "done" })
    -- FAV 4 + 2 + 2 = 8, FDV 2 + 1 = 3: margin 5; 11.15: ceil(5/2) + 0 = 3, capped at 2 undisrupted losers
    expect_event(g, "the attacker wins by 5; hits: french 2, coalition 5")
    drive(g, { ["combat.hits"] = function(acts) return acts[1] end, ["combat.advance"] = function(acts)
        for _, a in ipairs(acts) do if a ~= "done" then return a end end
        return "done"
    end })
    assert(loc(g, "c4921_1") == "box:eliminated" and loc(g, "c4921_2") == "box:eliminated")
end)

test("11.12 bp2 lost by 1 or 2: the defender may stay or withdraw; only undisrupted cavalry may advance", function()
    -- FAV 2 (cf) + 2 (types) + 2 (CR) + 1 = 7; FDV 2 + 2 + 1 = 5... defender kleist CR 2
    local g = combat_game { dice = { 6, 1, 1, 3 }, cc_french = "3", cc_coalition = "1", arrange = function(game)
        place(game, "ney", "ney", "4920")
        place(game, "fr_friant", "fi", "4920"); place(game, "fr_og_cav", "fc", "4920")
        coalition_stack(game, "4921", 2, "kleist")
    end }
    apply_all(g, "french", { "attack 4920 4921", "confirm", "cc 0" })
    expect_event(g, "the attacker wins by 2")
    drive(g, { ["combat.withdraw"] = function(acts)
        local has = {}
        for _, a in ipairs(acts) do has[a] = true end
        assert(has["stay"] and has["withdraw 4922"])
        return "withdraw 4922"
    end, ["combat.advance"] = function(acts)
        local has = {}
        for _, a in ipairs(acts) do has[a] = true end
        assert(not has["advance fi"], "11.12 bp2: infantry may not advance")
        return has["advance fc"] and "advance fc" or "done"
    end })
    assert(loc(g, "kleist") == "4922")
end)

test("11.13 all defending units eliminated: any undisrupted unit of the attacking stack may advance", function()
    -- FAV 4 + 2 + 6 = 12 vs FDV 1 + 1 = 2: 10 hits (cap 8) on one unit
    local g = combat_game { dice = { 6, 6, 1, 3 }, cc_french = "3", cc_coalition = "1", arrange = function(game)
        french_stack(game, "4920", 4, "ney")
        coalition_stack(game, "4921", 1)
    end }
    apply_all(g, "french", { "attack 4920 4921", "confirm", "cc 0" })
    assert(loc(g, "c4921_1") == "box:eliminated")
    apply_all(g, "french", { "hit f4920_4", "pass" })                   -- 11.15: 1 hit (1 loser unit)
    assert(step(g) == "combat.advance", step(g))
    assert(vt.has_action(g, "french", "advance f4920_1") and not vt.has_action(g, "french", "advance f4920_4"))
end)

test("11.14 the loser's hits cannot exceed twice the winner's undisrupted units", function()
    local g = combat_game { dice = { 6, 6, 1, 3 }, cc_french = "3", cc_coalition = "1", arrange = function(game)
        place(game, "ney", "ney", "4920"); place(game, "fr_friant", "solo", "4920")
        coalition_stack(game, "4921", 3)
    end }
    apply_all(g, "french", { "attack 4920 4921", "cc 0" })
    -- FAV 1 + 1 (CR limited to 1 unit, 11.5) + 6 = 8; FDV 3 + 1 = 4: margin 4, cap 2 x 1 = 2
    expect_event(g, "with CR 2;")
    expect_event(g, "the attacker wins by 4; hits: french 2, coalition 2")
end)

test("11.17 pursuit: a withdrawing stack without undisrupted cavalry loses a disrupted unit to attacking cavalry", function()
    local g = combat_game { dice = { 6, 6, 1, 1 }, cc_french = "3", cc_coalition = "1", arrange = function(game)
        place(game, "ney", "ney", "4920")
        place(game, "fr_friant", "fi", "4920"); place(game, "fr_og_cav", "fc", "4920")
        coalition_stack(game, "4921", 3)
    end }
    apply_all(g, "french", { "attack 4920 4921", "confirm", "cc 0" })
    -- FAV 2 + 2 + 2 + 6 = 12; FDV 3 + 1 = 4: margin 8, capped at 4 hits; French 0
    apply_all(g, "coalition", { "hit c4921_1", "hit c4921_2", "hit c4921_3", "hit c4921_3" })
    apply_all(g, "french", { "hit fi", "hit fi" })                      -- 11.15: 4 - 2 = 2 hits
    assert(step(g) == "combat.withdraw", step(g))
    vt.apply(g, "coalition", "withdraw 4922")
    assert(step(g) == "combat.pursuit")
    vt.apply(g, "coalition", "eliminate c4921_1")
    assert(loc(g, "c4921_1") == "box:eliminated" and loc(g, "c4921_2") == "4922")
end)

test("11.18 on an odd number of hits the owner may eliminate one more disrupted unit", function()
    local g = duel { 6, 1, 1 }                                           -- the tie of 11.9
    apply_all(g, "french", { "attack 4920 4921", "confirm", "cc 0", "hit f4920_1" })
    assert(step(g) == "combat.odd_hit")
    vt.apply(g, "french", "extra f4920_1")
    assert(loc(g, "f4920_1") == "box:eliminated")
end)

test("11.20 commanders' fate: 1 eliminates; otherwise placed on a friendly stack within three hexes, or eliminated", function()
    -- an unaccompanied commander attacked: die 4, two friendly stacks within 3 hexes
    local g = combat_game { dice = { 6, 4 }, cc_french = "3", cc_coalition = "1", arrange = function(game)
        french_stack(game, "4920", 2, "ney")
        place(game, "kleist", "kleist", "4921")
        coalition_stack(game, "4923", 1); coalition_stack(game, "5122", 1)
        place(game, "co_horn", "far", "5321")                            -- 4 hexes away
    end }
    apply_all(g, "french", { "attack 4920 4921", "confirm", "cc 0" })
    assert(step(g) == "combat.fate_place", step(g) .. " " .. events_text(g))
    assert(vt.has_action(g, "coalition", "place kleist 4923") and vt.has_action(g, "coalition", "place kleist 5122"))
    assert(not vt.has_action(g, "coalition", "place kleist 5321"))
    vt.apply(g, "coalition", "place kleist 5122")
    assert(loc(g, "kleist") == "5122")
    assert(step(g) == "combat.advance", step(g) .. " " .. events_text(g))                                  -- the hex is empty now
    -- die 1: eliminated
    g = combat_game { dice = { 6, 1 }, cc_french = "3", cc_coalition = "1", arrange = function(game)
        french_stack(game, "4920", 2, "ney")
        place(game, "kleist", "kleist", "4921")
        coalition_stack(game, "4923", 1)
    end }
    apply_all(g, "french", { "attack 4920 4921", "confirm", "cc 0" })
    assert(loc(g, "kleist") == "box:eliminated")
    -- no friendly stack within three hexes: eliminated
    g = combat_game { dice = { 6, 5 }, cc_french = "3", cc_coalition = "1", arrange = function(game)
        french_stack(game, "4920", 2, "ney")
        place(game, "kleist", "kleist", "4921")
    end }
    apply_all(g, "french", { "attack 4920 4921", "confirm", "cc 0" })
    assert(loc(g, "kleist") == "box:eliminated")
end)

test("14.4 Napoleon killed by 11.20: immediate Coalition victory", function()
    local g = combat_game { dice = { 6, 1 }, cc_french = "1", cc_coalition = "3", arrange = function(game)
        place(game, "napoleon", "napoleon", "4921")
        coalition_stack(game, "4920", 2, "kleist")
    end }
    apply_all(g, "coalition", { "attack 4920 4921", "confirm", "cc 0" })
    local d = vt.decision(g)
    assert(d.result and d.result:find("Coalition wins"), tostring(d.result))
end)

test("14.6 before Turn 4 French stacks attacking a hex outside friendly territory are halved", function()
    -- Landau (4419, French) attacks 4420 (east of the Rhine) across the river
    local arrange = function(game) french_stack(game, "4419", 4, "ney"); coalition_stack(game, "4420", 1) end
    local g = combat_game { turn = 3, dice = { 6, 3, 3, 3 }, cc_french = "3", cc_coalition = "1", arrange = arrange }
    apply_all(g, "french", { "attack 4419 4420", "confirm", "cc 0" })
    expect_event(g, "attack value 2 (divisor 2)")
    g = combat_game { turn = 4, dice = { 6, 3, 3, 3 }, cc_french = "3", cc_coalition = "1", arrange = arrange }
    apply_all(g, "french", { "attack 4419 4420", "confirm", "cc 0" })
    expect_event(g, "attack value 4 (divisor 1)")
end)

test("14.7 garrisons may not attack nor support; they are eliminated if forced to withdraw", function()
    local g = combat_game { dice = { 6, 6, 1, 3 }, cc_french = "1", cc_coalition = "3", arrange = function(game)
        place(game, "fr_g_metz", "garrison", "4921")
        place(game, "fr_friant", "fi", "4921")
        place(game, "fr_g_landau", "g2", "4922")
        coalition_stack(game, "4920", 4, "kleist")
    end }
    assert(vt.decision(g).role == "coalition", "the French cannot attack with a garrison")
    apply_all(g, "coalition", { "attack 4920 4921", "confirm", "cc 0" })
    -- no French support candidate (a lone garrison at 4922), FAV 4 + 2 + 6 = 12 vs FDV 2 + 1
    drive(g, { ["combat.withdraw"] = "withdraw 4922", ["combat.hits"] = function(acts) return acts[#acts] end })
    assert(loc(g, "garrison") == "box:eliminated")
end)

-- Rule-numbered views of the worked example (the numbers are checked inside play_example).
test("10.3-10.5 both players call supporting stacks adjacent to the defender; each tests die + CR + the side's CCs", function()
    play_example(nil, 3)
end)

test("11.3-11.8 attack and defence values: combined arms, river and fortified-city modifiers, CR limited by units, supports", function()
    local g = play_example({ decisive_battle_hits = false }, 3)
    expect_event(g, "11.8: the attacker wins by 3")
end)

test("11.15 winning side hits: half the margin rounded up, adjusted by 1xd6, within 0..the loser's undisrupted units", function()
    local g = play_example({ decisive_battle_hits = false }, 1)
    expect_event(g, "hits: french 0, coalition 3")
    g = play_example({ decisive_battle_hits = false }, 6)
    expect_event(g, "hits: french 4, coalition 3")
end)

test("11.16 decisive battle hits: 6+ units each side, floor(total/4) to the loser, half to the winner", function()
    local g = play_example(nil, 4)
    expect_event(g, "hits: french 4, coalition 7 (decisive battle: +4 / +2)")
end)

test("11.19 a hex holding disrupted units only defends with 1xd6 alone", function()
    local g = combat_game { dice = { 6, 3, 5, 3 }, cc_french = "3", cc_coalition = "3", arrange = function(game)
        french_stack(game, "4920", 2, "ney")
        coalition_stack(game, "4921", 2, "kleist")
        game.set_face("c4921_1", "disrupted"); game.set_face("c4921_2", "disrupted")
        coalition_stack(game, "4922", 2, "yorck")                      -- could support, but is not asked
    end }
    apply_all(g, "french", { "attack 4920 4921", "confirm", "cc 0" })
    expect_event(g, "11.19: the defenders are all disrupted: FDV = die 5")
end)

test("14.8 before Turn 4 Soult's and Wellington's units neither attack nor are attacked; from Turn 4 they fight", function()
    local function arrange(game)
        place(game, "fr_friant", "fi", "4921")
        coalition_stack(game, "4920", 1)
        place(game, "fr_boyer", "boyer", "6132")      -- Soult's command (army pyrenees)
        place(game, "co_br1", "howard", "6232")       -- Wellington's command (army peninsula)
    end
    local g = combat_game { turn = 3, arrange = arrange }
    assert(vt.decision(g).role == "french", "the French may order an attack elsewhere")
    assert(vt.has_action(g, "french", "attack 4921 4920"), "an ordinary attack is allowed")
    assert(not vt.has_action(g, "french", "attack 6132 6232"), "Soult's units may not attack before Turn 4")
    local spring = combat_game { turn = 4, arrange = arrange }
    assert(vt.has_action(spring, "french", "attack 6132 6232"), "from Turn 4 they may")
end)
