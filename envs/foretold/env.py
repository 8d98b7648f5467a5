"""Foretold: temples, Faithful, Relics and raids (2-4 players).

.. meta-table
| | |
|---|---|
| Import | `from fatezoo.envs import foretold_v0` |
| Actions | Discrete(343) |
| Parallel API | No; PettingZoo's `turn_based_aec_to_parallel` wraps it |
| Agents | `player_0` .. `player_{n-1}`, n in 2-4 |
| Observation | Dict: `observation` Box(-1, 1, (2957,), float32), `action_mask` Box(0, 1, (343,), int8) |
| State | Box(-1, 1, (3653,), float32) |
| Render modes | `ansi`, `human`, `rgb_array` (the SVG view as (H, W, 3) uint8) |
| Ended game | AEC: the mask is all zeros and the agents step with None (PettingZoo's rule); vector and gym envs: every action is marked legal and is ignored |
| Illegal action | `illegal='raise'` (default) raises; `illegal='lose'` ends the game with -1 for the offender (for mask-blind tools that sample actions) |
| Rules | `envs/foretold/RULES.md` |
.. end

## Description

Each player builds a Temple of Tiles (a 4x4 grid grown from a T of five Starting Tiles,
the Heart at its base) and a band of Faithful. A turn has four steps: Reveal (a Relic and
a Faithful come into the Marketplace rows), Marketplace (play Temple Faithful for gold, buy
Faithful, Relics, Tiles and Fate cards, flip Tiles to their B-sides), an optional Raid on an
opponent's Temple (the Marker walks from their Entrance through lined-up doorways; Tiles
with Stations are Defended with dice and Combat Bonuses; conquering the Heart Smites for
Party size + the Smiting Die), and Reinforce (split every Faithful face down into a Temple,
one per Station, and a Raiding Party). Fate cards are bought, drawn and played as
Actions (R72-R79) and Relics are used (R63), each answered on the effect stack; in the
Marketplace Step a player may rearrange its Temple (R24). Last player standing wins, or the
player who starts a turn holding the four Fate Relics of one Fate (or, with
`fatesworn=True`, the four Relics of the Fates). The Fatesworn expansion (R86-R89) is the
option `fatesworn`.

## Observation

Seats are relative: seat 0 is you, seat 1 the next player clockwise. Opponents' Temple,
Raiding Party and Reinforce pool show as counts plus the public multiset of the three
together; their Fate hands as a count; their unflipped deck Tiles without type.

.. obs-table
| Index | Name | Meaning | Values |
|---|---|---|---|
| 0-25 | phase | one-hot decision: cover Relic, cover Faithful, market, draw, cycle, place cell, place rotation, flip rotation, search, raid target, defend, dispatch, recall, advance, trap discard, vandal, reinforce, over, respond, Fate target, fight round, pick a die, choose at resolution, assign dice, rearrange: move to cell, rearrange: rotation | [0, 1] |
| 26-29 | turn_seat | one-hot seat whose turn it is | [0, 1] |
| 30-69 | seats | per seat: alive, Life/20, gold/50, Temple, Party, Reinforce pool sizes /20, Fate hand /20, Stations/16, Altars/16, Relics/10 | [0, 1] |
| 70-213 | discard | per seat: Discard Pile by Faithful type /10 | [0, 1] |
| 214-357 | owned | per seat: Faithful in its face-down groups by type /10 | [0, 1] |
| 358-473 | relics | per seat: Relics by type /3 | [0, 1] |
| 474-1433 | grid | per seat, cell: Tile present, unseen B-side, (type+1)/23 if known, side, rotation/3, doorways N E S W, Stations/2, Altars/2, Combat Bonus/2, Marker here, conquered, visited | [0, 1] |
| 1434-1541 | my_groups | your Temple, Raiding Party and Reinforce pool by type /10 | [0, 1] |
| 1542-1607 | my_hand | your Fate cards by type /4 | [0, 1] |
| 1608-1673 | fate_discard | the shared Fate discard by type /4 | [0, 1] |
| 1674-1895 | faithful_row | per spot: pile size/10, one-hot top type | [0, 1] |
| 1896-2075 | relic_row | per spot: pile size/10, one-hot top type | [0, 1] |
| 2076-2142 | held | revealed Faithful and revealed or returned (R20) Relic waiting for a spot (one-hot), bought Tile held, its (type+1)/23 if yours | [0, 1] |
| 2143-2178 | relic_return | a change of Fate waiting on its returns (R20): the Relic acquired when they are back (one-hot type), where it is taken from (one-hot Relic Row spot, then the Relic Deck); the seat returning is the seat choosing in actions | [0, 1] |
| 2179-2185 | deck_sizes | Faithful, Relic, Tile, 4 Fate Deck sizes (/capacity) | [0, 1] |
| 2186-2197 | raid | one-hot Raider, one-hot Defender, moves/32, picked/10, trap discards left/3, Vandals left/3 | [0, 1] |
| 2198-2305 | fight | dispatched, Defending, Defeated Faithful by type /10 | [0, 1] |
| 2306-2349 | combat | Raid and Defense dice /6, Combat Rolls /40 (running while the fight is live, R52), Smiting Die/6, per die: assigned to a die-dependent Faithful (R50), dice still to assign /10 | [0, 1] |
| 2350-2361 | fight_mods | this fight: Raider's and Defender's bonus /10, their maluses /10, win ties (2), extra dice to roll /3 (2), extra recalls /3, round after the Defense / Raid roll (2), dice still to pick /2 | [0, 1] |
| 2362-2377 | sel_cell | one-hot cell being placed or flipped | [0, 1] |
| 2378-2383 | misc | Devotees played/10, Fate draws left/3, search in progress, turn/max_turns, rearranging moves made/4, the cell a Tile moves to (cell+1)/16 | [0, 1] |
| 2384-2386 | num_players | one-hot 2, 3, 4 players | [0, 1] |
| 2387-2392 | fatesworn | the fatesworn option, then the active Decrees (R88) /3: Tile cost, Fate card price, Smite damage, Heal and gold at the start of a turn | [0, 1] |
| 2393-2497 | actions | per seat Prevent points /60, your Fate cost waived, purchase discount/5, the card awaiting its target (Fate type, then Relic type, one-hot), the seat choosing a target, a die, a pick, a draw or a returned Relic's pile (one-hot) | [0, 1] |
| 2498-2599 | choice | a resolving effect's choice (Phase.CHOOSE): its card (Fate type, then Relic type, one-hot), the seat it targets (one-hot), picks left /3; PROTECT_PARTY for the Raider's and the Defender's side | [0, 1] |
| 2600-2956 | stack | effect stack: entries / capacity, seat asked to respond (one-hot), then the top 4 entries (top first), each present + kind, owner, card, target, flags | [0, 1] |
.. end

## Action mask

`action_mask[a] == 1` iff action `a` is legal for this agent now; all zeros for an agent
whose decision it is not. Decisions with one legal action are applied by the core.

## Action

One decision per step. Actions name card types, never positions (copies are
interchangeable): `play X for gold` plays a Faithful of type X from your Temple;
`pick X` chooses a Faithful of type X (Defenders, dispatch, recall, Reinforce, a Pit Trap
discard) or a Relic (a Vandal's target, a Tile's search); cells are `4 * row + col`, row 0
north; `target seat +k` is the opponent k seats clockwise; `move_from`, `cell` and
`rotation` rearrange the Temple (R24); `play_fate`, `use_relic` and `ability` are Actions
answered on the stack, `pass` declines a window (R70). `Relic Row spot k` covers pile k
with a revealed Relic when the row is full (R12), or with a Fate Relic you return on
changing Fate (R20: acquiring another Fate's Relic returns your old ones first; the pile
of the Relic you acquire cannot be covered). `cancel` is always masked out.

.. action-table
| ID | Meaning |
|---|---|
| 0 | play High Priest for gold |
| 1 | play Acolyte for gold |
| 2 | play Guard for gold |
| 3 | play Devotee for gold |
| 4 | play Fighter for gold |
| 5 | play Warrior for gold |
| 6 | play Vandal for gold |
| 7 | play Berserker for gold |
| 8 | play Captain for gold |
| 9 | play Hoplite for gold |
| 10 | play Cleric for gold |
| 11 | play Thief for gold |
| 12 | play Merchant for gold |
| 13 | play Moneylender for gold |
| 14 | play Strategist for gold |
| 15 | play Scholar for gold |
| 16 | play Seer for gold |
| 17 | play Demigod for gold |
| 18 | play Champion for gold |
| 19 | play Prophet for gold |
| 20 | play Saint for gold |
| 21 | play Warlord for gold |
| 22 | play Oracle for gold |
| 23 | play Herald for gold |
| 24 | play Magistrate for gold |
| 25 | play Pilgrim for gold |
| 26 | play Zealot for gold |
| 27 | play Arbiter for gold |
| 28 | play Peacekeeper for gold |
| 29 | play Usurer for gold |
| 30 | play Archer for gold |
| 31 | play Templar for gold |
| 32 | play Fatebinder for gold |
| 33 | play Titan for gold |
| 34 | play Sovereign for gold |
| 35 | play Ascendant for gold |
| 36 | buy Faithful pile 0 |
| 37 | buy Faithful pile 1 |
| 38 | buy Faithful pile 2 |
| 39 | buy Faithful pile 3 |
| 40 | buy Faithful pile 4 |
| 41 | buy Faithful pile 5 |
| 42 | buy Relic pile 0 |
| 43 | buy Relic pile 1 |
| 44 | buy Relic pile 2 |
| 45 | buy Relic pile 3 |
| 46 | buy Relic pile 4 |
| 47 | buy Relic pile 5 |
| 48 | buy the top Tile |
| 49 | Fate Deck chaos |
| 50 | Fate Deck grace |
| 51 | Fate Deck prosperity |
| 52 | Fate Deck wisdom |
| 53 | flip the Tile in cell 0 |
| 54 | flip the Tile in cell 1 |
| 55 | flip the Tile in cell 2 |
| 56 | flip the Tile in cell 3 |
| 57 | flip the Tile in cell 4 |
| 58 | flip the Tile in cell 5 |
| 59 | flip the Tile in cell 6 |
| 60 | flip the Tile in cell 7 |
| 61 | flip the Tile in cell 8 |
| 62 | flip the Tile in cell 9 |
| 63 | flip the Tile in cell 10 |
| 64 | flip the Tile in cell 11 |
| 65 | flip the Tile in cell 12 |
| 66 | flip the Tile in cell 13 |
| 67 | flip the Tile in cell 14 |
| 68 | flip the Tile in cell 15 |
| 69 | rearrange: move the Tile in cell 0 |
| 70 | rearrange: move the Tile in cell 1 |
| 71 | rearrange: move the Tile in cell 2 |
| 72 | rearrange: move the Tile in cell 3 |
| 73 | rearrange: move the Tile in cell 4 |
| 74 | rearrange: move the Tile in cell 5 |
| 75 | rearrange: move the Tile in cell 6 |
| 76 | rearrange: move the Tile in cell 7 |
| 77 | rearrange: move the Tile in cell 8 |
| 78 | rearrange: move the Tile in cell 9 |
| 79 | rearrange: move the Tile in cell 10 |
| 80 | rearrange: move the Tile in cell 11 |
| 81 | rearrange: move the Tile in cell 12 |
| 82 | rearrange: move the Tile in cell 13 |
| 83 | rearrange: move the Tile in cell 14 |
| 84 | rearrange: move the Tile in cell 15 |
| 85 | cell 0 |
| 86 | cell 1 |
| 87 | cell 2 |
| 88 | cell 3 |
| 89 | cell 4 |
| 90 | cell 5 |
| 91 | cell 6 |
| 92 | cell 7 |
| 93 | cell 8 |
| 94 | cell 9 |
| 95 | cell 10 |
| 96 | cell 11 |
| 97 | cell 12 |
| 98 | cell 13 |
| 99 | cell 14 |
| 100 | cell 15 |
| 101 | rotation 0 |
| 102 | rotation 1 |
| 103 | rotation 2 |
| 104 | rotation 3 |
| 105 | play Fate card Fury |
| 106 | play Fate card Bloodlust |
| 107 | play Fate card Sabotage |
| 108 | play Fate card Rampage |
| 109 | play Fate card Reckless Charge |
| 110 | play Fate card Smash |
| 111 | play Fate card Slay |
| 112 | play Fate card Havoc |
| 113 | play Fate card Desecrate |
| 114 | play Fate card Massacre |
| 115 | play Fate card Cataclysm |
| 116 | play Fate card Blessing |
| 117 | play Fate card Sanctuary |
| 118 | play Fate card Mend |
| 119 | play Fate card Rally |
| 120 | play Fate card Aegis |
| 121 | play Fate card Restoration |
| 122 | play Fate card Divine Favor |
| 123 | play Fate card Conversion |
| 124 | play Fate card Guardian Angel |
| 125 | play Fate card Ascension |
| 126 | play Fate card Windfall |
| 127 | play Fate card Bargain |
| 128 | play Fate card Investment |
| 129 | play Fate card Patronage |
| 130 | play Fate card Fortune |
| 131 | play Fate card Bribe |
| 132 | play Fate card Trade Route |
| 133 | play Fate card Golden Age |
| 134 | play Fate card Mercenaries |
| 135 | play Fate card Everything Has a Price |
| 136 | play Fate card Foresight |
| 137 | play Fate card Insight |
| 138 | play Fate card Recycle |
| 139 | play Fate card Misdirection |
| 140 | play Fate card Negate |
| 141 | play Fate card Scrying |
| 142 | play Fate card Precision |
| 143 | play Fate card Mastery |
| 144 | play Fate card Outwit |
| 145 | play Fate card Omniscience |
| 146 | play Fate card Oath of the Fates |
| 147 | play Fate card Fated Strike |
| 148 | play Fate card Twist of Fate |
| 149 | play Fate card Fate's Reward |
| 150 | play Fate card Destiny |
| 151 | play Fate card Warpath |
| 152 | play Fate card Frenzy |
| 153 | play Fate card Wreckage |
| 154 | play Fate card Bloodbath |
| 155 | play Fate card Onslaught |
| 156 | play Fate card Sheltering Light |
| 157 | play Fate card Communion |
| 158 | play Fate card Redemption |
| 159 | play Fate card Sanctified Ground |
| 160 | play Fate card Grace Eternal |
| 161 | play Fate card Dividend |
| 162 | play Fate card Hired Blades |
| 163 | play Fate card Patron's Gift |
| 164 | play Fate card Tax Levy |
| 165 | play Fate card Golden Throne |
| 166 | play Fate card Prophecy |
| 167 | play Fate card Foreknowledge |
| 168 | play Fate card Market Insight |
| 169 | play Fate card Refutation |
| 170 | play Fate card Grand Design |
| 171 | use Runestone |
| 172 | use Healing Draught |
| 173 | use Ward |
| 174 | use War Horn |
| 175 | use Golden Chalice |
| 176 | use Oracle Scroll |
| 177 | use Prism of Fate |
| 178 | use War Banner |
| 179 | use Crown of Chaos |
| 180 | use Shield of Chaos |
| 181 | use Shrine of Chaos |
| 182 | use Sword of Chaos |
| 183 | use Crown of Grace |
| 184 | use Shield of Grace |
| 185 | use Shrine of Grace |
| 186 | use Sword of Grace |
| 187 | use Crown of Prosperity |
| 188 | use Shield of Prosperity |
| 189 | use Shrine of Prosperity |
| 190 | use Sword of Prosperity |
| 191 | use Crown of Wisdom |
| 192 | use Shield of Wisdom |
| 193 | use Shrine of Wisdom |
| 194 | use Sword of Wisdom |
| 195 | use Arrows |
| 196 | use Crucible of the Fates |
| 197 | use Ring of the Fates |
| 198 | use Scepter of the Fates |
| 199 | use Vestments of the Fates |
| 200 | discard High Priest for its ability |
| 201 | discard Acolyte for its ability |
| 202 | discard Guard for its ability |
| 203 | discard Devotee for its ability |
| 204 | discard Fighter for its ability |
| 205 | discard Warrior for its ability |
| 206 | discard Vandal for its ability |
| 207 | discard Berserker for its ability |
| 208 | discard Captain for its ability |
| 209 | discard Hoplite for its ability |
| 210 | discard Cleric for its ability |
| 211 | discard Thief for its ability |
| 212 | discard Merchant for its ability |
| 213 | discard Moneylender for its ability |
| 214 | discard Strategist for its ability |
| 215 | discard Scholar for its ability |
| 216 | discard Seer for its ability |
| 217 | discard Demigod for its ability |
| 218 | discard Champion for its ability |
| 219 | discard Prophet for its ability |
| 220 | discard Saint for its ability |
| 221 | discard Warlord for its ability |
| 222 | discard Oracle for its ability |
| 223 | discard Herald for its ability |
| 224 | discard Magistrate for its ability |
| 225 | discard Pilgrim for its ability |
| 226 | discard Zealot for its ability |
| 227 | discard Arbiter for its ability |
| 228 | discard Peacekeeper for its ability |
| 229 | discard Usurer for its ability |
| 230 | discard Archer for its ability |
| 231 | discard Templar for its ability |
| 232 | discard Fatebinder for its ability |
| 233 | discard Titan for its ability |
| 234 | discard Sovereign for its ability |
| 235 | discard Ascendant for its ability |
| 236 | pick High Priest |
| 237 | pick Acolyte |
| 238 | pick Guard |
| 239 | pick Devotee |
| 240 | pick Fighter |
| 241 | pick Warrior |
| 242 | pick Vandal |
| 243 | pick Berserker |
| 244 | pick Captain |
| 245 | pick Hoplite |
| 246 | pick Cleric |
| 247 | pick Thief |
| 248 | pick Merchant |
| 249 | pick Moneylender |
| 250 | pick Strategist |
| 251 | pick Scholar |
| 252 | pick Seer |
| 253 | pick Demigod |
| 254 | pick Champion |
| 255 | pick Prophet |
| 256 | pick Saint |
| 257 | pick Warlord |
| 258 | pick Oracle |
| 259 | pick Herald |
| 260 | pick Magistrate |
| 261 | pick Pilgrim |
| 262 | pick Zealot |
| 263 | pick Arbiter |
| 264 | pick Peacekeeper |
| 265 | pick Usurer |
| 266 | pick Archer |
| 267 | pick Templar |
| 268 | pick Fatebinder |
| 269 | pick Titan |
| 270 | pick Sovereign |
| 271 | pick Ascendant |
| 272 | pick Runestone |
| 273 | pick Healing Draught |
| 274 | pick Ward |
| 275 | pick War Horn |
| 276 | pick Golden Chalice |
| 277 | pick Oracle Scroll |
| 278 | pick Prism of Fate |
| 279 | pick War Banner |
| 280 | pick Crown of Chaos |
| 281 | pick Shield of Chaos |
| 282 | pick Shrine of Chaos |
| 283 | pick Sword of Chaos |
| 284 | pick Crown of Grace |
| 285 | pick Shield of Grace |
| 286 | pick Shrine of Grace |
| 287 | pick Sword of Grace |
| 288 | pick Crown of Prosperity |
| 289 | pick Shield of Prosperity |
| 290 | pick Shrine of Prosperity |
| 291 | pick Sword of Prosperity |
| 292 | pick Crown of Wisdom |
| 293 | pick Shield of Wisdom |
| 294 | pick Shrine of Wisdom |
| 295 | pick Sword of Wisdom |
| 296 | pick Arrows |
| 297 | pick Crucible of the Fates |
| 298 | pick Ring of the Fates |
| 299 | pick Scepter of the Fates |
| 300 | pick Vestments of the Fates |
| 301 | die raid 0 |
| 302 | die raid 1 |
| 303 | die raid 2 |
| 304 | die raid 3 |
| 305 | die raid 4 |
| 306 | die raid 5 |
| 307 | die raid 6 |
| 308 | die raid 7 |
| 309 | die raid 8 |
| 310 | die raid 9 |
| 311 | die defense 0 |
| 312 | die defense 1 |
| 313 | die defense 2 |
| 314 | die defense 3 |
| 315 | die defense 4 |
| 316 | die defense 5 |
| 317 | die defense 6 |
| 318 | die defense 7 |
| 319 | die defense 8 |
| 320 | die defense 9 |
| 321 | target seat +1 |
| 322 | target seat +2 |
| 323 | target seat +3 |
| 324 | move the Marker N |
| 325 | move the Marker E |
| 326 | move the Marker S |
| 327 | move the Marker W |
| 328 | Faithful Row spot 0 |
| 329 | Faithful Row spot 1 |
| 330 | Faithful Row spot 2 |
| 331 | Faithful Row spot 3 |
| 332 | Faithful Row spot 4 |
| 333 | Faithful Row spot 5 |
| 334 | Relic Row spot 0 |
| 335 | Relic Row spot 1 |
| 336 | Relic Row spot 2 |
| 337 | Relic Row spot 3 |
| 338 | Relic Row spot 4 |
| 339 | Relic Row spot 5 |
| 340 | retreat (end the Raid) |
| 341 | cancel: back one step |
| 342 | pass |
.. end

## Rewards

`reward="win"` (default): the winner +1, every other player -1/(n-1); truncation gives 0.
`reward="score"` adds, whenever a player loses Life, -lost/20 to them and +lost/20 shared
among the other living players.

## Starting state

Five Starting Tiles per player (Treasury, Entrance, Sanctum in row 0, Pathway, Heart below
the Entrance), 20 Life, High Priest, Acolyte and 2 Guards in the Temple, the Faithful Row
opening with 2 Guards and 2 Acolytes; a random first player.

## Rendering

`render()` (with `render_mode="ansi"` or `"human"`) shows **everything**: a spectator's
view. `env.render_seat = k` shows seat k's view (`??` for deck Tiles whose B-side that seat
has not seen, opponents' face-down Faithful as one list). `env.render_svg(seat)` draws each
Temple as a grid (doorways as lines, Stations as dots, the Marker red) and the text below.

## Episode end

Terminated when one player is left, or a player starts a turn with the four Fate Relics of
one Fate (R85) or, with `fatesworn=True`, the four Relics of the Fates (R86). Truncated
after `max_turns` player turns (default 150).

## Arguments

`num_players=2` (2-4), `two_player_variant=False` (each Treasury starts on its B-side, an
Altar; R8), `fatesworn=False` (the Fatesworn expansion, R86-R89: its 13 Faithful, Arrows,
the four Relics of the Fates and 10 more cards per Fate Deck), `split="all"` (`"train"` or
`"test"`: only the held-out setups of that part, RULES.md "Held-out setups"),
`reward="win"` (`"score"`), `max_turns=None`, `render_mode=None` ("ansi" or "human"), `illegal="raise"`
("lose").

## Version history

- v0: first release (the whole base game and Fatesworn; see RULES.md Status). Record
  format 2 adds the `split` option's field; `split="all"` deals the same games as before.

## Example

>>> from fatezoo.envs import foretold_v0
>>> env = foretold_v0.env(num_players=2, max_turns=40)
>>> env.reset(seed=0)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     action = None if terminated or truncated else int(obs["action_mask"].argmax())
...     env.step(action)
>>> sorted(env.possible_agents)
['player_0', 'player_1']
"""

from fatezoo.envs.core.entry import entry_points

from . import SPEC

raw_env, env, vec = entry_points(SPEC, __doc__, __name__)
