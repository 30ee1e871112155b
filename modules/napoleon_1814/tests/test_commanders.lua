-- Commanders' Movement (rule 12) and 14.5, on small positions arranged on the empty board.
-- Test ground: 5621, 5821 and 5822 are cities in French territory; 5621-5721-5821-5921 is a row
-- of clear hexes (5621 to 5921: three hexes; to 6021: four).

local function eq(actual, expected, what)
    if actual ~= expected then
        error(string.format("%s: expected %s, got %s", what, tostring(expected), tostring(actual)), 2)
    end
end

local function loc(g, id) return vt.with(g, function(game) return game.piece(id).loc end) end

local function new(opts)
    local g = vt.new_game { setup = "tests/setups/empty.xml", seed = 1 }
    vt.edit(g, function(game)
        game.set_turn(opts.turn or 1)
        for _, p in ipairs(opts.pieces or {}) do
            local id = game.create(p[1], { id = p.id or p[1], at = p[2], face = p.face })
            for k, v in pairs(p.props or {}) do game.set_prop(id, k, v) end
        end
        for k, v in pairs(opts.vars or {}) do game.set_var(k, v) end
        game.decide { role = "french", step = "game.begin_phase", context = { phase = "commanders" } }
    end)
    vt.apply(g, "french", "begin")
    return g
end

test("12.1 a Commander moves up to three hexes to a friendly combat unit or a friendly city", function()
    local g = new { pieces = { { "ney", "5621" }, { "fr_friant", "5921" }, { "fr_meunier", "6021" } } }
    eq(vt.has_action(g, "french", "move ney 5921"), true, "three hexes to a friendly unit")
    eq(vt.has_action(g, "french", "move ney 6021"), false, "four hexes")
    eq(vt.has_action(g, "french", "move ney 5821"), true, "empty city in friendly territory")
    eq(vt.has_action(g, "french", "move ney 5721"), false, "empty hex, no city")
end)

test("12.1 a Commander moves even if he moved in the Movement phase", function()
    local g = new { pieces = { { "ney", "5621", props = { moved = true } }, { "fr_friant", "5921" } } }
    vt.apply(g, "french", "move ney 5921")
    eq(loc(g, "ney"), "5921", "moved")
end)

test("12.1 the way may not pass through an enemy stack", function()
    local g = new { pieces = { { "ney", "5621" }, { "fr_friant", "5921" }, { "co_lieven", "5721" }, { "co_shcherbatov", "5722" } } }
    eq(vt.has_action(g, "french", "move ney 5921"), false, "both short ways blocked")
    local g2 = new { pieces = { { "ney", "5621" }, { "fr_friant", "5921" }, { "blucher", "5721" }, { "yorck", "5722" } } }
    eq(vt.has_action(g2, "french", "move ney 5921"), false, "enemy commanders are an enemy stack too")
end)

test("12.1 a city in enemy territory is closed unless a friendly stack holds it", function()
    local g = new { pieces = { { "blucher", "5721" }, { "co_lieven", "5721" } } }
    eq(vt.has_action(g, "coalition", "move blucher 5821"), false, "empty French city")
    local g2 = new { pieces = { { "blucher", "5721" }, { "co_lieven", "5721" }, { "co_shcherbatov", "5821" } } }
    eq(vt.has_action(g2, "coalition", "move blucher 5821"), true, "held by a Coalition unit")
end)

test("8.8, 12.1 a Commander who ends his move on an enemy depot leaves it in play (RULINGS M-27)", function()
    local g = new { pieces = { { "ney", "5621" } } }
    local depot = vt.edit(g, function(game)
        local id = game.create("coalition_supply", { at = "5821", face = "depot" })
        game.move(id, "5821", 1)
        return id
    end)
    eq(vt.has_action(g, "french", "move ney 5821"), true, "a city in friendly territory with an enemy depot")
    vt.apply(g, "french", "move ney 5821")
    eq(loc(g, "ney"), "5821", "moved")
    eq(loc(g, depot), "5821", "the depot is still there")
    eq(vt.with(g, function(game) return game.track("coalition_depots_lost") end), 0, "no train lost (8.8)")
end)

test("12.2 players alternate, the side with the most CCs (9.3, first_player) first; a pass ends a player's moves", function()
    local g = new { pieces = { { "ney", "5621" }, { "victor", "5621" }, { "fr_friant", "5921" },
                               { "blucher", "4821" }, { "yorck", "4821" }, { "co_lieven", "4822" } },
                    vars = { first_player = "coalition" } }
    eq(vt.decision(g).role, "coalition", "most CCs first")
    vt.apply(g, "coalition", "move blucher 4822")
    eq(vt.decision(g).role, "french", "then the French")
    vt.apply(g, "french", "move ney 5921")
    eq(vt.decision(g).role, "coalition", "Coalition again")
    eq(vt.has_action(g, "coalition", "move blucher 4821"), false, "each Commander moves once")
    vt.apply(g, "coalition", "pass")
    eq(vt.decision(g).role, "french", "the French go on alone")
    vt.apply(g, "french", "move victor 5921")
    eq(vt.with(g, function(game) return game.phase() end) ~= "commanders", true, "phase over")
end)

test("12.2 without first_player the French begin", function()
    local g = new { pieces = { { "ney", "5621" }, { "fr_friant", "5921" }, { "blucher", "4821" }, { "co_lieven", "4822" } } }
    eq(vt.decision(g).role, "french", "French first")
end)

test("14.5 Napoleon cannot leave Paris until the Commanders' Movement phase of Turn 4", function()
    local pieces = { { "napoleon", "5420" }, { "fr_friant", "5419" } }
    local g = new { turn = 3, pieces = pieces }
    eq(vt.has_action(g, "french", "move napoleon 5419"), false, "Turn 3")
    local g4 = new { turn = 4, pieces = pieces }
    eq(vt.has_action(g4, "french", "move napoleon 5419"), true, "Turn 4, Commanders' Movement")
end)
