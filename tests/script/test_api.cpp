// The game / map / defs API, checked through a module whose rules.eval runs a Lua snippet.
#include <catch2/catch.hpp>

#include "module_fixture.hpp"

using namespace vedette;
using core::Value;
using script::RulesHost;
using script::ScriptError;

namespace {

const char* kEvalMain = R"lua(
LOAD_TIME_ERROR = select(2, pcall(game.turn))
local rules = {}
function rules.actions() return {} end
function rules.apply() end
function rules.eval(game, code)
  local f = assert(load(code, "=(eval)"))
  return f()
end
return rules
)lua";

struct Api {
    test::TempModule mod{{{"rules/main.lua", kEvalMain}}};
    std::unique_ptr<RulesHost> host = RulesHost::load(mod.def);
    core::GameState st = test::tiny_state(mod.def);

    Value eval(const std::string& code) { return host->call(st, "eval", {Value(code)}); }
    std::string error(const std::string& code) {
        try {
            eval(code);
        } catch (const ScriptError& e) {
            return e.what();
        }
        return "(no error)lua";
    }
};

Value list(std::initializer_list<Value> v) { return Value(core::Array(v)); }

}  // namespace

TEST_CASE("map: terrain, features, names, neighbours, hexsides, regions", "[api]") {
    Api a;
    CHECK(a.eval("return map.exists('0101')") == Value(true));
    CHECK(a.eval("return map.exists('0909')") == Value(false));
    CHECK(a.eval("return map.exists('junk')") == Value(false));
    CHECK(a.eval("return map.terrain('0202')") == Value("forest"));
    CHECK(a.eval("return map.terrain('0101')") == Value("clear"));
    CHECK(a.eval("return map.features('0303')") == list({"city", "fortified"}));
    CHECK(a.eval("return map.features('0101')") == list({}));
    CHECK(a.eval("return map.has_feature('0303', 'city')") == Value(true));
    CHECK(a.eval("return map.has_feature('0101', 'city')") == Value(false));
    CHECK(a.eval("return map.name('0303')") == Value("Paris"));
    CHECK(a.eval("return map.name('0101')").is_nil());
    // flat-top odd-q: 0101 (offset 0,0) has neighbours 0201 (SE... ) and 0102 (S) on the map.
    CHECK(a.eval("return #map.neighbours('0101')") == Value(2));
    CHECK(a.eval("return #map.neighbours('0202')") == Value(6));
    CHECK(a.eval("return map.distance('0101', '0303')") == Value(3));
    CHECK(a.eval("return map.hexside('0101', '0102')") == list({"river", "bridge"}));
    CHECK(a.eval("return map.hexside('0102', '0101')") == list({"river", "bridge"}));
    CHECK(a.eval("return map.hexside('0101', '0201')") == list({}));
    CHECK(a.eval("return map.has_hexside('0102', '0101', 'river')") == Value(true));
    CHECK(a.eval("return map.has_hexside('0201', '0101', 'river')") == Value(false));
    CHECK(a.eval("return map.direction('0101', '0102')") == Value("S"));
    CHECK(a.eval("return map.direction('0101', '0303')").is_nil());
    CHECK(a.eval("return map.in_region('0201', 'north')") == Value(true));
    CHECK(a.eval("return map.in_region('0202', 'north')") == Value(false));
    CHECK(a.eval("return map.region('north')") == list({"0101", "0201", "0301"}));
    CHECK(a.eval("return #map.hexes()") == Value(20));
    CHECK(a.eval("return map.boxes()") == list({"eliminated", "reserve"}));

    CHECK_THAT(a.error("return map.terrain('9999')"),
               Catch::Equals("(eval):1: map.terrain: '9999' is not a hex of the map"));
    CHECK_THAT(a.error("return map.hexside('0101', '0303')"), Catch::Contains("not adjacent"));
    CHECK_THAT(a.error("return map.has_hexside('0101', '0102', 'canal')"),
               Catch::Contains("unknown hexside type 'canal'"));
    CHECK_THAT(a.error("return map.region('south')"), Catch::Contains("unknown region 'south'"));
    CHECK_THAT(a.error("return map.terrain(101)"),
               Catch::Contains("argument #1 (hex) must be a string, got number"));
}

TEST_CASE("map.hexes is sorted by hex, the same order as map.region", "[api]") {
    Api a;
    const Value all = a.eval("return map.hexes()");
    std::vector<hex::Hex> hs;
    for (const auto& v : all.as_array()) hs.push_back(*a.mod.def->map.parse_label(v.as_string()));
    CHECK(std::is_sorted(hs.begin(), hs.end()));
}

TEST_CASE("defs: counters, tables, sides, phases, cards, turns", "[api]") {
    Api a;
    const Value c = a.eval("return defs.counter('supply')");
    CHECK(c.as_object().at("id") == Value("supply"));
    CHECK(c.as_object().at("category") == Value("marker"));
    CHECK(c.as_object().at("side") == Value("blue"));
    CHECK(c.as_object().at("hidden_as") == Value("supply_back"));
    CHECK(c.as_object().at("faces") == list({"front"}));
    CHECK(a.eval("return defs.counter('blue_inf').stats.strength") == Value(2));
    CHECK(a.eval("return defs.counter('blue_inf').stats.class") == Value("veteran"));
    CHECK(a.eval("return defs.counter('blue_inf').hidden_as").is_nil());
    CHECK(a.eval("return defs.table('crt').rows") == list({list({1, "ar"}), list({6, "de"})}));
    CHECK(a.eval("return defs.table('crt').columns") == list({"roll", "result"}));
    CHECK(a.eval("return defs.table('crt').rule") == Value("11.4"));
    CHECK(a.eval("return defs.sides()") == list({"blue", "red"}));
    CHECK(a.eval("return defs.phases()") == list({"movement", "combat"}));
    CHECK(a.eval("return defs.card('ev1').attributes.weather") == Value("rain"));
    CHECK(a.eval("return defs.card('ev2').side") == Value("red"));
    CHECK(a.eval("return defs.card('ev1').deck") == Value("events"));
    CHECK(a.eval("return {defs.turns()}") == list({1, 12}));
    CHECK_THAT(a.error("return defs.counter('nope')"), Catch::Contains("unknown counter type"));
    CHECK_THAT(a.error("return defs.card('nope')"), Catch::Contains("unknown card 'nope'"));
    // Fresh tables every time: changing one changes nothing else.
    CHECK(a.eval("local c = defs.counter('blue_inf'); c.stats.strength = 9; "
                 "return defs.counter('blue_inf').stats.strength") == Value(2));
}

TEST_CASE("game: pieces and stacks", "[api]") {
    Api a;
    const Value p = a.eval("return game.piece('b1')");
    CHECK(p.as_object().at("id") == Value("b1"));
    CHECK(p.as_object().at("type") == Value("blue_inf"));
    CHECK(p.as_object().at("face") == Value("front"));
    CHECK(p.as_object().at("owner") == Value("blue"));
    CHECK(p.as_object().at("hidden") == Value(false));
    CHECK(p.as_object().at("loc") == Value("0202"));
    CHECK(a.eval("return game.piece('s1').loc") == Value("box:reserve"));
    CHECK(a.eval("return game.piece('nope')").is_nil());
    CHECK(a.eval("return game.pieces_at('0202')") == list({"b1", "b2"}));
    CHECK(a.eval("return game.pieces_at('box:reserve')") == list({"s1"}));
    CHECK(a.eval("return game.pieces_at('0101')") == list({}));
    CHECK(a.eval("return game.pieces()") == list({"b1", "b2", "r1", "s1"}));
    CHECK(a.eval("return game.pieces{owner = 'blue'}") == list({"b1", "b2", "s1"}));
    CHECK(a.eval("return game.pieces{category = 'unit', owner = 'blue'}") == list({"b1", "b2"}));
    CHECK(a.eval("return game.pieces{type = 'red_inf'}") == list({"r1"}));
    CHECK(a.eval("return game.pieces{loc = '0303'}") == list({"r1"}));
    CHECK(a.eval("return game.pieces{face = 'disrupted'}") == list({}));
    CHECK_THAT(a.error("return game.pieces{side = 'blue'}"),
               Catch::Contains("unknown field 'side'"));
    CHECK(a.eval("return game.stat('b1', 'strength')") == Value(2));
    CHECK(a.eval("return game.stat('b1', 'nothing')").is_nil());
    CHECK(a.eval("return game.occupied()") == list({"0202", "0303"}));

    a.eval("game.move('b2', '0303', 1)");
    CHECK(a.eval("return game.pieces_at('0303')") == list({"b2", "r1"}));
    a.eval("game.move('b1', 'box:eliminated')");
    CHECK(a.eval("return game.piece('b1').loc") == Value("box:eliminated"));
    a.eval("game.remove('r1')");
    CHECK(a.eval("return game.piece('r1').loc").is_nil());
    CHECK(a.eval("return game.occupied()") == list({"0303"}));
    CHECK(a.st.check_invariants().empty());

    a.eval("game.set_face('b2', 'disrupted')");
    CHECK(a.eval("return game.piece('b2').face") == Value("disrupted"));
    a.eval("game.set_owner('b2', 'red')");
    CHECK(a.eval("return game.piece('b2').owner") == Value("red"));
    a.eval("game.set_owner('b2', nil)");
    CHECK(a.eval("return game.piece('b2').owner").is_nil());
    a.eval("game.set_hidden('b2', true)");
    CHECK(a.eval("return game.piece('b2').hidden") == Value(true));
    a.eval("game.reveal('s1')");
    CHECK(a.eval("return game.piece('s1').hidden") == Value(false));
    CHECK(a.st.events.back().kind == core::Event::Kind::Reveal);

    a.eval("game.set_prop('b2', 'steps', {2, 1})");
    CHECK(a.eval("return game.prop('b2', 'steps')") == list({2, 1}));
    CHECK(a.eval("return game.piece('b2').props.steps[2]") == Value(1));
    a.eval("game.set_prop('b2', 'steps', nil)");
    CHECK(a.eval("return game.prop('b2', 'steps')").is_nil());

    CHECK(a.eval("return game.create('red_inf', {at = '0101'})") == Value("red_inf_1"));
    CHECK(a.eval("return game.create('blue_inf', {id = 'b9', owner = 'red', face = "
                 "'disrupted', hidden = true, at = 'box:reserve'})") == Value("b9"));
    const Value b9 = a.eval("return game.piece('b9')");
    CHECK(b9.as_object().at("owner") == Value("red"));
    CHECK(b9.as_object().at("face") == Value("disrupted"));
    CHECK(b9.as_object().at("hidden") == Value(true));
    CHECK(a.eval("return game.create('supply')") == Value("supply_1"));
    CHECK(a.eval("return game.piece('supply_1').loc").is_nil());

    CHECK_THAT(a.error("game.move('zz', '0101')"),
               Catch::Equals("(eval):1: game.move: no piece 'zz'"));
    CHECK_THAT(a.error("game.move('b2', '9999')"),
               Catch::Contains("'9999' is neither a hex of the map nor \"box:<id>\""));
    CHECK_THAT(a.error("game.move('b2', 'box:nope')"), Catch::Contains("no box 'nope'"));
    CHECK_THAT(a.error("game.move('b2', '0101', 0)"), Catch::Contains("counts from 1"));
    CHECK_THAT(a.error("game.set_face('b2', 'flipped')"),
               Catch::Contains("counter type 'blue_inf' has no face 'flipped'"));
    CHECK_THAT(a.error("game.set_owner('b2', 'green')"),
               Catch::Contains("unknown side 'green' (sides: blue, red)"));
    CHECK_THAT(a.error("game.create('blue_inf', {id = 'b9'})"),
               Catch::Contains("a piece with id 'b9' already exists"));
    CHECK_THAT(a.error("game.create('blue_inf', {place = '0101'})"),
               Catch::Contains("unknown field 'place'"));
    CHECK_THAT(a.error("game.set_hidden('b2', 1)"), Catch::Contains("must be a boolean"));
}

TEST_CASE("game: tracks, variables and values", "[api]") {
    Api a;
    CHECK(a.eval("return game.track('blue_cc')") == Value(3));
    a.eval("game.set_track('blue_cc', 5)");
    CHECK(a.st.track("blue_cc") == 5);
    CHECK_THAT(a.error("game.set_track('blue_cc', 7)"), Catch::Contains("runs from 0 to 6"));
    CHECK_THAT(a.error("return game.track('nope')"), Catch::Contains("no track 'nope'"));

    a.eval(
        "game.set_var('plan', {name = 'east', steps = {1, 2, 3}, done = false, "
        "nested = {deep = {x = 'y'}}, n = 4.0})");
    const Value plan = a.st.var("plan");
    REQUIRE(plan.is_object());
    CHECK(plan.as_object().at("steps") == list({1, 2, 3}));
    CHECK(plan.as_object().at("n") == Value(4));
    CHECK(a.eval("return game.var('plan').nested.deep.x") == Value("y"));
    CHECK(a.eval("local p = game.var('plan'); p.name = 'x'; return game.var('plan').name") ==
          Value("east"));
    a.eval("game.set_var('plan', nil)");
    CHECK(a.st.var("plan").is_nil());
    a.eval("game.set_var('empty', {})");
    CHECK(a.st.var("empty") == Value(core::Array{}));

    const auto before = a.st.hash();
    CHECK_THAT(a.error("game.set_var('x', 1.5)"),
               Catch::Contains("game.set_var: value is 1.5, not an integer"));
    CHECK_THAT(a.error("game.set_var('x', {a = {1, 2.5}})"),
               Catch::Contains("value.a[2] is 2.5, not an integer"));
    CHECK_THAT(a.error("game.set_var('x', {f = print})"), Catch::Contains("value.f is a function"));
    CHECK_THAT(a.error("local t = {}; t.self = t; game.set_var('x', t)"),
               Catch::Contains("value.self contains itself"));
    CHECK_THAT(a.error("game.set_var('x', {1, 2, a = 3})"), Catch::Contains("mixes array items"));
    CHECK_THAT(a.error("game.set_var('x', {1, nil, 3})"), Catch::Contains("array with holes"));
    CHECK_THAT(a.error("game.set_var('x', {[true] = 1})"),
               Catch::Contains("has the key a boolean"));
    CHECK_THAT(a.error("game.set_var('x', {[0] = 1})"), Catch::Contains("has the key [0]"));
    CHECK_THAT(a.error("game.set_var('x', coroutine.create(print))"),
               Catch::Contains("value is a thread"));
    CHECK(a.st.hash() == before);
}

TEST_CASE("game: piles", "[api]") {
    Api a;
    CHECK(a.eval("return game.pile('events')") == list({"ev1", "ev2", "ev3"}));
    CHECK(a.eval("return game.pile('nothing')") == list({}));
    CHECK(a.eval("return game.draw('events', 'red_hand')") == Value("ev1"));
    CHECK(a.eval("return game.draw('events', 'red_hand')") == Value("ev2"));
    CHECK(a.eval("return game.pile('red_hand')") == list({"ev2", "ev1"}));
    CHECK(a.eval("return game.draw('nothing', 'red_hand')").is_nil());
    CHECK(a.st.find_pile("nothing") == nullptr);
    a.eval("game.move_card('ev1', 'red_hand', 'discard')");
    CHECK(a.eval("return game.pile('discard')") == list({"ev1"}));
    CHECK_THAT(a.error("game.move_card('ev1', 'red_hand', 'discard')"),
               Catch::Contains("card 'ev1' is not in pile 'red_hand'"));
    a.st.pile("deck").cards = {"a", "b", "c", "d", "e", "f"};
    const auto rolls = a.st.rng;
    a.eval("game.shuffle('deck')");
    CHECK(a.st.pile("deck").cards.size() == 6);
    CHECK_FALSE(a.st.rng == rolls);
    a.eval("game.set_pile('red_hand', 'red', 'owner')");
    CHECK(a.st.pile("red_hand").owner == "red");
    CHECK(a.st.pile("red_hand").visibility == core::Pile::Visibility::Owner);
    a.eval("game.set_pile('discard', nil, 'all')");
    CHECK(a.st.pile("discard").visibility == core::Pile::Visibility::All);
    CHECK_THAT(a.error("game.set_pile('x', 'green', 'all')"), Catch::Contains("game.set_pile"));
    CHECK_THAT(a.error("game.set_pile('x', 'red', 'some')"),
               Catch::Contains("visibility 'some' is not all, owner or nobody"));
    CHECK_THAT(a.error("game.set_pile('x', nil, 'owner')"), Catch::Contains("needs an owner"));
}

TEST_CASE("game: turn, phase, sides, options, dice, log, decisions, result", "[api]") {
    Api a;
    CHECK(a.eval("return game.turn()") == Value(1));
    a.eval("game.set_turn(3)");
    CHECK(a.st.turn == 3);
    CHECK(a.eval("return game.phase()") == Value("movement"));
    a.eval("game.set_phase('combat')");
    CHECK(a.st.phase == 1);
    CHECK_THAT(a.error("game.set_phase('lunch')"),
               Catch::Contains("unknown phase 'lunch' (phases: movement, combat)"));
    CHECK(a.eval("return game.active()") == Value("blue"));
    a.eval("game.set_active('red')");
    CHECK(a.st.active_side == 1);
    CHECK(a.eval("return game.option('hidden_forces')") == Value(false));
    a.st.options.insert("hidden_forces");
    CHECK(a.eval("return game.option('hidden_forces')") == Value(true));
    CHECK_THAT(a.error("return game.option('fog')"), Catch::Contains("unknown option 'fog'"));

    a.st.forced_dice = {6, 2};
    CHECK(a.eval("return {game.roll(2, 6, 'combat 11.4')}") == list({8, list({6, 2})}));
    REQUIRE(a.st.events.back().kind == core::Event::Kind::Roll);
    CHECK(a.st.events.back().purpose == "combat 11.4");
    CHECK(a.st.events.back().forced);
    const Value r = a.eval("local t, d = game.roll(3, 6, 'x') return {t, #d}");
    CHECK(r.as_array()[1] == Value(3));
    CHECK(r.as_array()[0].as_int() >= 3);
    CHECK_THAT(a.error("game.roll(1, 6)"), Catch::Contains("saying why the dice are rolled"));

    a.eval("game.log('secret', 'red')");
    CHECK(a.st.events.back().text == "secret");
    CHECK(a.st.events.back().visible_to == "red");
    CHECK_THAT(a.error("game.log('x', 'green')"), Catch::Contains("unknown side 'green'"));

    a.eval(
        "game.decide{role = 'red', step = 'retreat', prompt = 'Retreat r1', rule = '11.6', "
        "context = {attacker = 'b1', hits = 2}}");
    CHECK(a.st.decision.role == "red");
    CHECK(a.st.decision.step == "retreat");
    CHECK(a.st.decision.rule == "11.6");
    CHECK(a.st.decision.context.as_object().at("hits") == Value(2));
    CHECK(a.eval("return game.decision().context.attacker") == Value("b1"));
    CHECK(a.eval("return game.decision().prompt") == Value("Retreat r1"));
    CHECK_THAT(a.error("game.decide{role = 'red', stage = 'x'}"),
               Catch::Contains("unknown field 'stage'"));

    CHECK(a.eval("return game.result()").is_nil());
    a.eval("game.finish('Blue wins a decisive victory')");
    CHECK(a.st.result == "Blue wins a decisive victory");
    CHECK(a.st.decision.role.empty());
    CHECK(a.eval("return game.result()") == Value("Blue wins a decisive victory"));
}

TEST_CASE("game: searches", "[api]") {
    Api a;
    // Uniform cost 1, forests cost 2, river hexside blocks.
    const std::string cost =
        "local function cost(a, b) if map.has_hexside(a, b, 'river') then return nil end "
        "return map.terrain(b) == 'forest' and 2 or 1 end ";
    const Value r = a.eval(cost + "return game.reachable('0101', 2, cost)");
    REQUIRE(r.is_object());
    const auto& m = r.as_object();
    CHECK(m.at("0101") == Value(0));
    CHECK(m.at("0201") == Value(1));
    CHECK(m.at("0102") == Value(2));  // around the river, through 0201
    CHECK(m.count("0202") == 0);      // forest: 1 + 2 > 2
    for (const auto& [label, c] : m) CHECK(c.as_int() <= 2);

    const Value p = a.eval(cost + "return game.path('0101', '0501', cost)");
    REQUIRE(p.is_array());
    CHECK(p.as_array().front() == Value("0101"));
    CHECK(p.as_array().back() == Value("0501"));
    CHECK(a.eval(cost + "return game.path('0101', '0501', cost)") == p);
    CHECK(a.eval(cost + "return game.path('0101', '0501', cost, 1)").is_nil());
    CHECK(a.eval("return game.path('0101', '0501', function() return nil end)").is_nil());

    CHECK(a.eval("return game.within('0101', 1, function(h) return true end)") ==
          a.eval("local t = map.neighbours('0101'); t[#t + 1] = '0101'; "
                 "return game.components(t)[1]"));
    CHECK(a.eval("return game.within('0101', 3, function(h) return false end)") == list({"0101"}));
    CHECK(a.eval("return game.components({'0404', '0101', '0102', '0101'})") ==
          list({list({"0101", "0102"}), list({"0404"})}));
    CHECK_THAT(a.error("return game.components({'0101', '0505'})"),
               Catch::Contains("'0505' is not a hex of the map"));
    CHECK(a.eval("return #game.components({'0101', '0102', '0404'})") == Value(2));
    CHECK(a.eval("return #game.components({'0101', '0102', '0404'}, function(h) return h ~= "
                 "'0404' end)") == Value(1));

    CHECK_THAT(a.error("return game.reachable('0101', 3, function() return 1.5 end)"),
               Catch::Contains("the cost function returned 1.5 for the step 0101 -> "));
    CHECK_THAT(a.error("return game.reachable('0101', 3, function() return -1 end)"),
               Catch::Contains("must return an integer >= 0"));
    CHECK_THAT(a.error("return game.reachable('0101', 3, function(a, b) game.move('b1', b) "
                       "return 1 end)"),
               Catch::Contains("cannot be changed inside a search callback"));
    // The callback error leaves the API writable again.
    a.eval("game.move('b1', '0101')");
}

TEST_CASE("game.memo lasts while the state stays the same", "[api]") {
    Api a;
    // The same table within a call while nothing changes; fresh after a change and per call.
    CHECK(a.eval("local m = game.memo(); m.x = 1; return game.memo().x") == Value(1));
    CHECK(a.eval("return game.memo().x").is_nil());
    CHECK(a.eval("game.memo().x = 1; game.set_var('v', 2); return game.memo().x").is_nil());
    CHECK(a.eval("game.memo().x = 1; game.move('b1', '0101'); return game.memo().x").is_nil());
    CHECK(a.eval("game.memo().x = 1; game.roll(1, 6, 'test'); return game.memo().x").is_nil());
    // Reading does not forget it.
    CHECK(a.eval("game.memo().x = 1; game.piece('b1'); game.pieces_at('0101'); game.var('v');"
                 " return game.memo().x") == Value(1));
    // Never part of the state.
    const auto before = a.st.hash();
    a.eval("game.memo().x = {1, 2, 3}");
    CHECK(a.st.hash() == before);
}

TEST_CASE("game.pieces_memo lasts while the pieces stay the same, across calls and copies",
          "[api]") {
    Api a;
    // Kept from call to call, and through changes that are not the pieces'.
    a.eval("game.pieces_memo().x = 1");
    CHECK(a.eval("return game.pieces_memo().x") == Value(1));
    CHECK(a.eval("game.set_var('v', 2); game.roll(1, 6, 'test'); return game.pieces_memo().x") ==
          Value(1));
    // A copy of the state has the same pieces: the same table.
    core::GameState copy = a.st;
    CHECK(a.host->call(copy, "eval", {Value("return game.pieces_memo().x")}) == Value(1));
    // Any change of a piece (place, face, owner, hidden, props), in the call or before it: fresh.
    CHECK(a.eval("game.move('b1', '0101'); return game.pieces_memo().x").is_nil());
    CHECK(a.eval("return game.pieces_memo().x").is_nil());
    a.eval("game.pieces_memo().y = 1");
    CHECK(a.eval("game.set_prop('b2', 'k', 1); return game.pieces_memo().y").is_nil());
    a.eval("game.pieces_memo().y = 1");
    CHECK(a.eval("game.set_face('b2', game.piece('b2').face); return game.pieces_memo().y")
              .is_nil());
    // The copy still has the old pieces, and finds its own table again.
    CHECK(a.host->call(copy, "eval", {Value("return game.pieces_memo().x")}) == Value(1));
    // Undoing a move makes new pieces (a new version), never an old table.
    a.eval("game.pieces_memo().z = 1");
    CHECK(a.eval("game.move('b1', '0202'); game.move('b1', '0101'); return game.pieces_memo().z")
              .is_nil());
    // The oldest tables make way once many sets of pieces were seen.
    core::GameState first = a.st;
    a.eval("game.pieces_memo().w = 1");
    for (int i = 0; i < 20; ++i)
        a.eval("game.move('b1', '" + std::string(i % 2 ? "0101" : "0202") +
               "'); game.pieces_memo().w = 2");
    CHECK(a.host->call(first, "eval", {Value("return game.pieces_memo().w")}).is_nil());
    // Never part of the state.
    const auto before = a.st.hash();
    a.eval("game.pieces_memo().q = {1, 2, 3}");
    CHECK(a.st.hash() == before);
}

TEST_CASE("game.piece returns read-only tables that follow the state", "[api]") {
    Api a;
    // Read-only, props too, with a message that says what to do instead.
    CHECK_THAT(a.error("game.piece('b1').loc = '0101'"),
               Catch::Contains("cannot set 'loc' in a piece table: game.piece returns a "
                               "read-only view of the state (change pieces with game.move"));
    CHECK_THAT(a.error("game.piece('b1').props.x = 1"),
               Catch::Contains("cannot set 'x' in a piece table"));
    CHECK_THAT(a.error("rawset(game.piece('b1'), 'loc', '0101')"),
               Catch::Contains("cannot set 'loc' in a piece table"));
    CHECK(a.eval("return getmetatable(game.piece('b1'))") == Value(false));
    // pairs, next, rawget and # see the fields; storing one stores its contents.
    CHECK(a.eval("local ks = {} for k in pairs(game.piece('b1')) do ks[#ks + 1] = k end "
                 "return table.concat(ks, ',')") == Value("face,hidden,id,loc,owner,props,type"));
    CHECK(a.eval("return next(game.piece('b1'))") == Value("face"));
    CHECK(a.eval("return rawget(game.piece('b1'), 'loc')") == Value("0202"));
    CHECK(a.eval("return #game.piece('b1')") == Value(0));
    a.eval("game.set_prop('b1', 'steps', 2)");
    a.eval("game.set_var('saved', game.piece('b1'))");
    CHECK(a.st.var("saved").as_object().at("loc") == Value("0202"));
    CHECK(a.st.var("saved").as_object().at("props").as_object().at("steps") == Value(2));
    // The same table while the piece stays the same; a new one after any change, while a table
    // taken before keeps what the piece was then.
    CHECK(a.eval("return game.piece('b1') == game.piece('b1')") == Value(true));
    CHECK(a.eval("local before = game.piece('b1') game.move('b1', '0101') "
                 "return {before.loc, game.piece('b1').loc, before ~= game.piece('b1')}") ==
          list({"0202", "0101", true}));
    CHECK(a.eval("game.set_prop('b1', 'steps', 1) return game.piece('b1').props.steps") ==
          Value(1));
    CHECK(a.eval("game.set_face('b1', 'disrupted') return game.piece('b1').face") == Value("disrupted"));
    CHECK(a.eval("game.set_owner('b1', 'red') return game.piece('b1').owner") == Value("red"));
    CHECK(a.eval("game.set_hidden('b1', true) return game.piece('b1').hidden") == Value(true));
    CHECK(a.eval("game.reveal('b1') return game.piece('b1').hidden") == Value(false));
    // Another state through the same host: the tables built for one are not the other's.
    core::GameState other = a.st;
    other.move_piece(other.find_piece("b1"), core::Location::at(*other.def().map.parse_label("0303")));
    CHECK(a.host->call(other, "eval", {Value("return game.piece('b1').loc")}) == Value("0303"));
    CHECK(a.eval("return game.piece('b1').loc") == Value("0101"));
    // A failed call gives the state back; the table of the state given back is right again.
    CHECK_THAT(a.error("game.move('b1', '0202') local x = game.piece('b1').loc error('no')"),
               Catch::Contains("no"));
    CHECK(a.eval("return game.piece('b1').loc") == Value("0101"));
}

TEST_CASE("states that number their pieces differently share a host", "[api]") {
    // The host remembers which index an id had and which Lua string an index's id was: a
    // state with other pieces at those indexes must get its own answers.
    Api a;
    core::GameState other(a.mod.def);
    auto loc = [&](const char* l) { return core::Location::at(*a.mod.def->map.parse_label(l)); };
    other.create_piece(1, "r1", 1, loc("0101"));
    other.create_piece(0, "b1", 0, loc("0303"));
    other.create_piece(1, "x9", 1, loc("0202"));
    auto eval_other = [&](const std::string& code) {
        return a.host->call(other, "eval", {Value(code)});
    };
    const std::string probe =
        "return {game.piece('b1').loc, game.piece('r1').type, game.stat('r1', 'strength'), "
        "game.pieces_at('0202'), game.pieces(), game.piece('x9') ~= nil, map.exists('0202')}";
    for (int round = 0; round < 2; ++round) {
        CHECK(a.eval(probe) == list({"0202", "red_inf", a.eval("return game.stat('r1', 'strength')"),
                                     list({"b1", "b2"}), list({"b1", "b2", "r1", "s1"}), false,
                                     true}));
        CHECK(eval_other(probe) == list({"0303", "red_inf", a.eval("return game.stat('r1', 'strength')"),
                                         list({"x9"}), list({"r1", "b1", "x9"}), true, true}));
    }
    CHECK_THAT(a.error("return game.stat('x9', 'strength')"), Catch::Contains("no piece 'x9'"));
    CHECK_THAT(a.error("return game.pieces_at('9999')"),
               Catch::Contains("'9999' is neither a hex of the map nor \"box:<id>\""));
    CHECK(a.eval("return map.exists('9999')") == Value(false));
    CHECK(a.eval("return map.exists('9999')") == Value(false));  // misses are not remembered
}

TEST_CASE("the game API works only during calls", "[api]") {
    Api a;
    CHECK_THAT(a.eval("return LOAD_TIME_ERROR").as_string(),
               Catch::Contains("game.turn: no game is bound"));
}

TEST_CASE("pairs and next iterate in a deterministic order", "[api]") {
    Api a;
    CHECK(a.eval("local t = {b = 1, a = 2, [3] = 0, [1] = 0, c = 3, [true] = 1, [-2] = 0} "
                 "local ks = {} for k in pairs(t) do ks[#ks + 1] = tostring(k) end "
                 "return table.concat(ks, ',')") == Value("-2,1,3,a,b,c,true"));
    CHECK(a.eval("local t = {z = 1, y = 2} local k1 = next(t) local k2 = next(t, k1) "
                 "return {k1, k2, next(t, k2) == nil}") == list({"y", "z", true}));
    CHECK(a.eval("return next({}) == nil") == Value(true));
    CHECK_THAT(a.error("for k in pairs({[{}] = 1}) do end"),
               Catch::Contains("a table with a table key has no deterministic order"));
    // Removing entries while iterating is allowed, as in Lua.
    CHECK(a.eval("local t = {a = 1, b = 2, c = 3} for k in pairs(t) do t[k] = nil end "
                 "return next(t) == nil") == Value(true));
    // __pairs is honoured.
    CHECK(a.eval("local t = setmetatable({}, {__pairs = function(t) return function(_, k) "
                 "if not k then return 1, 'x' end end, t, nil end}) "
                 "for k, v in pairs(t) do return v end") == Value("x"));
    // pairs on the frozen globals sees them.
    CHECK(a.eval("for k, v in pairs(_G) do if k == 'game' then return true end end") ==
          Value(true));
}

TEST_CASE("string patterns behave like Lua's", "[api]") {
    Api a;
    CHECK(a.eval("return {string.find('hello world', 'o w')}") == list({5, 7}));
    CHECK(a.eval("return {string.find('a.b', '.', 1, true)}") == list({2, 2}));
    CHECK(a.eval("return {('key = value'):match('^(%w+)%s*=%s*(%w+)$')}") ==
          list({"key", "value"}));
    CHECK(a.eval("local t = {} for w in ('one two  three'):gmatch('%a+') do t[#t + 1] = w end "
                 "return t") == list({"one", "two", "three"}));
    CHECK(a.eval("return {('hello'):gsub('l', 'L')}") == list({"heLLo", 2}));
    CHECK(a.eval("return {('abc'):gsub('%w', '%0%0')}") == list({"aabbcc", 3}));
    CHECK(a.eval("return {('x = 1, y = 2'):gsub('(%w+) = (%w+)', '%2 = %1')}") ==
          list({"1 = x, 2 = y", 2}));
    CHECK(a.eval("return (('$name is $age'):gsub('%$(%w+)', {name = 'Ney', age = 45}))") ==
          Value("Ney is 45"));
    CHECK(a.eval("return (('abc'):gsub('.', function(c) return c:upper() end))") == Value("ABC"));
    CHECK(a.eval("return ('THE (quick) fox'):find('%((%a+)%)')") == Value(5));
    CHECK(a.eval("return ('[[x]]'):match('%b[]')") == Value("[[x]]"));
    CHECK(a.eval("return ('THE (quick) fox'):match('%f[%a]%a+', 5)") == Value("quick"));
    CHECK(a.eval("return {('hello'):match('()ll()')}") == list({3, 5}));
    CHECK(a.eval("return ('é'):match('%a')") == Value());  // ASCII classes
    CHECK_THAT(a.error("return ('x'):match('%')"), Catch::Contains("malformed pattern"));
    CHECK_THAT(a.error("return ('x'):gsub('x', '%2')"), Catch::Contains("invalid capture index"));
}
