---@meta vedette
-- LuaLS definitions for Vedette module rules (see docs/lua-api.md). Add `docs/` to the
-- workspace library of your editor's Lua language server for completion and type checks.

---A hex's printed label, e.g. "0304".
---@alias Hex string
---A hex label or "box:<id>".
---@alias Loc string
---@alias PieceId string
---@alias SideId string
---A value the game state can hold: nil, boolean, integer, string, or arrays / string-keyed maps of these.
---@alias StateValue nil|boolean|integer|string|table

---@class Action
---@field kind string one word: "move", "pass", "hex", ...
---@field args? (string|integer)[] words or integers
---@field label? string what it does, in words (default: the text)
---@field hexes? Hex[] hexes the GUI highlights
---@field pieces? PieceId[] pieces the GUI highlights
---@field public? string what other roles see in the log instead of the text (secret actions)

---@class AppliedAction
---@field kind string
---@field args string[]
---@field text string kind and args joined by spaces

---A read-only view of a piece (game.piece): the same table while the piece is unchanged.
---@class Piece
---@field id PieceId
---@field type string counter type id
---@field face string face id
---@field owner SideId|nil
---@field hidden boolean
---@field loc Loc|nil nil when the piece is nowhere
---@field props table<string, StateValue>

---@class PieceFilter
---@field owner? SideId
---@field type? string
---@field category? string
---@field loc? Loc
---@field face? string

---@class CreateOptions
---@field id? PieceId default "<type>_<n>"
---@field owner? SideId default the type's side
---@field at? Loc default nowhere
---@field face? string default the first face
---@field hidden? boolean

---@class Decision
---@field role? SideId nil or "" when nobody decides
---@field step? string the module's step name
---@field prompt? string what is asked, in words
---@field rule? string the rule being applied, e.g. "11.6"
---@field context? StateValue the step's working data

---@class CounterDef
---@field id string
---@field name string
---@field category string
---@field side string|nil
---@field hidden_as string|nil
---@field faces string[]
---@field stats table<string, integer|string>

---@class TableDef
---@field id string
---@field name string
---@field rule string
---@field columns string[]
---@field rows (integer|string)[][]

---@class CardDef
---@field id string
---@field name string
---@field side string|nil
---@field timing string|nil
---@field text string
---@field deck string
---@field attributes table<string, string>

---The rules table that rules/main.lua returns.
---@class Rules
---@field setup? fun(game: game)
---@field actions fun(game: game, role: SideId): Action[]
---@field apply fun(game: game, role: SideId, action: AppliedAction)

-- ---------------------------------------------------------------------------------------------

---The module's map (read-only definitions; usable at any time).
---@class map
map = {}

---@param h string
---@return boolean
function map.exists(h) end

---@param h Hex
---@return string terrain type id
function map.terrain(h) end

---@param h Hex
---@return string[] feature ids, in definition order
function map.features(h) end

---@param h Hex
---@param feature string
---@return boolean
function map.has_feature(h, feature) end

---@param h Hex
---@return string|nil
function map.name(h) end

---@param h Hex
---@return Hex[] adjacent hexes on the map, in direction order 0..5
function map.neighbours(h) end

---@param a Hex
---@param b Hex
---@return integer
function map.distance(a, b) end

---@param a Hex
---@param b Hex adjacent to a
---@return string[] hexside type ids
function map.hexside(a, b) end

---@param a Hex
---@param b Hex adjacent to a
---@param type string hexside type id
---@return boolean
function map.has_hexside(a, b, type) end

---@param h Hex
---@param region string
---@return boolean
function map.in_region(h, region) end

---@param region string
---@return Hex[] sorted by hex
function map.region(region) end

---@return Hex[] every hex, sorted by hex
function map.hexes() end

---@param a Hex
---@param b Hex
---@return string|nil direction name if adjacent
function map.direction(a, b) end

---@return string[] box ids
function map.boxes() end

-- ---------------------------------------------------------------------------------------------

---The module's definitions (read-only; usable at any time).
---@class defs
defs = {}

---@param type string
---@return CounterDef
function defs.counter(type) end

---@param id string
---@return TableDef
function defs.table(id) end

---@return SideId[]
function defs.sides() end

---@return string[]
function defs.phases() end

---@param id string
---@return CardDef
function defs.card(id) end

---@return integer first
---@return integer last
function defs.turns() end

-- ---------------------------------------------------------------------------------------------

---The game state of the current call (only during setup/actions/apply and other calls).
---@class game
game = {}

---@param id PieceId
---@return Piece|nil
function game.piece(id) end

---@param loc Loc
---@return PieceId[] bottom to top
function game.pieces_at(loc) end

---@param filter? PieceFilter
---@return PieceId[] in piece order
function game.pieces(filter) end

---@param id PieceId
---@param stat string
---@return integer|string|nil
function game.stat(id, stat) end

---@param type string counter type id
---@param opts? CreateOptions
---@return PieceId
function game.create(type, opts) end

---@param id PieceId
---@param loc Loc
---@param position? integer from 1 at the bottom; default: on top
function game.move(id, loc, position) end

---@param id PieceId
function game.remove(id) end

---@param id PieceId
---@param face string
function game.set_face(id, face) end

---@param id PieceId
---@param side SideId|nil
function game.set_owner(id, side) end

---@param id PieceId
---@param hidden boolean
function game.set_hidden(id, hidden) end

---@param id PieceId
function game.reveal(id) end

---@param id PieceId
---@param key string
---@param value StateValue nil erases
function game.set_prop(id, key, value) end

---@param id PieceId
---@param key string
---@return StateValue
function game.prop(id, key) end

---@return Hex[] hexes holding pieces, sorted by hex
function game.occupied() end

---@param id string
---@return integer
function game.track(id) end

---@param id string
---@param value integer
function game.set_track(id, value) end

---@param name string
---@return StateValue
function game.var(name) end

---@param name string
---@param value StateValue nil erases
function game.set_var(name, value) end

---@param id string
---@return string[] card ids, top first
function game.pile(id) end

---@param from string
---@param to string
---@return string|nil card drawn
function game.draw(from, to) end

---@param card string
---@param from string
---@param to string
function game.move_card(card, from, to) end

---@param id string
function game.shuffle(id) end

---Sets who owns a pile and who sees its cards in players' views: "all", "owner" (only the
---owner, e.g. a hand) or "nobody" (a deck); the others see only the number of cards.
---@param id string
---@param owner string|nil a side id, or nil for none
---@param visibility "all"|"owner"|"nobody"
function game.set_pile(id, owner, visibility) end

---@return integer
function game.turn() end

---@param n integer
function game.set_turn(n) end

---@return string phase id
function game.phase() end

---@param id string
function game.set_phase(id) end

---@return SideId
function game.active() end

---@param side SideId
function game.set_active(side) end

---@param id string
---@return boolean
function game.option(id) end

---@param n integer number of dice
---@param sides integer faces per die
---@param purpose string why (logged)
---@return integer total
---@return integer[] dice
function game.roll(n, sides, purpose) end

---@param text string
---@param visible_to? SideId default: everybody
function game.log(text, visible_to) end

---@param d Decision
function game.decide(d) end

---@return Decision
function game.decision() end

---@param result string who won, in words
function game.finish(result) end

---@return string|nil
function game.result() end

---Refuses the action: the state is restored and the player sees the reason.
---@param reason string
function game.refuse(reason) end

---A table for data derived from the current state: the same table until the state changes, a
---fresh empty one after any writing call and at every rules call. Never saved; read-only use.
---@return table
function game.memo() end

---A table for data derived from the pieces alone (where each stands, its face, owner, hidden
---flag and props, the order of the stacks): the same table for as long as the pieces are the
---same, across rules calls and copies of a state (an AI's search); fresh once any piece changes.
---The most recently used 16 are kept. Nothing that reads variables, tracks or the Turn belongs
---in it. Never saved; read-only use.
---@return table
function game.pieces_memo() end

---@param from Hex
---@param budget integer
---@param cost fun(a: Hex, b: Hex): integer|nil
---@return table<Hex, integer>
function game.reachable(from, budget, cost) end

---@param from Hex
---@param to Hex
---@param cost fun(a: Hex, b: Hex): integer|nil
---@param max_cost? integer
---@return Hex[]|nil
function game.path(from, to, cost, max_cost) end

---@param centre Hex
---@param n integer
---@param pass fun(h: Hex): boolean
---@return Hex[] sorted by hex
function game.within(centre, n, pass) end

---@param labels Hex[]
---@param keep? fun(h: Hex): boolean
---@return Hex[][]
function game.components(labels, keep) end

---Loads <rules folder>/<name>.lua, or a shared library's file for "<library id>.x".
---@param name string
---@return any
function require(name) end
