"""Forgotten City: monuments, miracles and nightmares on a hex map (2-4 players).

.. meta-table
| | |
|---|---|
| Import | `from fatezoo.envs import forgotten_city_v0` |
| Actions | Discrete(345) |
| Parallel API | No; PettingZoo's `turn_based_aec_to_parallel` wraps it |
| Agents | `player_0` .. `player_{n-1}`, n in 2-4 |
| Observation | Dict: `observation` Box(-1, 1, (2729,), float32), `action_mask` Box(0, 1, (345,), int8) |
| State | Box(-1, 1, (2783,), float32) |
| Render modes | `ansi`, `human`, `rgb_array` (the SVG view as (H, W, 3) uint8) |
| Ended game | AEC: the mask is all zeros and the agents step with None (PettingZoo's rule); vector and gym envs: every action is marked legal and is ignored |
| Illegal action | `illegal='raise'` (default) raises; `illegal='lose'` ends the game with -1 for the offender (for mask-blind tools that sample actions) |
| Rules | `envs/forgotten_city/RULES.md` |
.. end

## Description

A hex map of 61 spaces (six terrain tiles placed at random around the central space,
stone terrain and portals at fixed positions). Each round: Meditation (take monuments
from the monument track; your marker moves to the space you emptied, which sets the
turn order), Action (place your 4 helpers one at a time next to your own helpers or
leader, paying a coin per helper already there, or through a portal for 2 coins, and
build, excavate, exchange on the central space, decode, or rest), Recollection
(production, then buy miracle tiles with inspiration), Nightmare (players standing on
the attacked terrain pay defensive strength to damage it, placing markers that score)
and Cleanup (next nightmare, refill the track, move your leader). After six rounds grey
miracles, leftover resources and coins score; most VP wins. Rules as implemented, with
every reading where the text is silent: `envs/forgotten_city/RULES.md`.

## Observation

Everything on the table is public: the map, monuments and their owners, helpers and
leaders, the track, every player's resources, coins, VP, tracks, zone, miracles and
nightmare cards, both miracle displays and the nightmares' boxes. Hidden from every
player alike: the order of the monument stack and of the white miracle stack, and the
face-down nightmares (only the sizes are shown). Seats are relative (0 is you).

.. obs-table
| Index | Name | Meaning | Values |
|---|---|---|---|
| 0-6 | phase | one-hot phase (pick, settle, action, buy, fight, leader, over) | [0, 1] |
| 7-18 | decision | one-hot decision kind of the player to act | [0, 1] |
| 19-24 | round | one-hot round | [0, 1] |
| 25-27 | num_players | one-hot 2, 3, 4 players | [0, 1] |
| 28-31 | to_act | one-hot relative seat of the player to act | [0, 1] |
| 32-37 | pending | any-resource gains left / 3, penalties left / 6, colour given in an exchange (one-hot) | [0, 1] |
| 38-53 | order | per relative seat: its place in track order (one-hot) | [0, 1] |
| 54-393 | track | per track space: in use, coins / 10, monument type (one-hot), marker seat | [0, 1] |
| 394-1857 | hexes | per space: terrain P R B Y stone portal central, monument colour, owner seat, helpers per seat / 4, leader per seat, monument type / 28 | [0, 1] |
| 1858-2165 | monuments | per monument type: on the track, in a seat's zone, picked by a seat, on the map, discarded | [0, 1] |
| 2166-2181 | slots | per seat: construction zone slot 0, slot 1, first pick, second pick: (monument type + 1) / 28, 0 if empty | [0, 1] |
| 2182-2257 | seats | per seat: VP / 100, coins / 30, resources (4) / 20, inspiration / 15, defense / 15, production levels (3) / 4, helpers placed, rested / 4, free markers / 12, monument area left / 6, nightmare cards / 6, miracles / 8, next tree cost / 9, white miracles / 8 | [0, 1] |
| 2258-2337 | miracles | miracle tiles owned per seat by type / 3 | [0, 1] |
| 2338-2457 | white_display | white display slots by type | [0, 1] |
| 2458-2557 | grey_display | grey display slots by type | [0, 1] |
| 2558-2577 | grey_out | grey tiles out of the game (public by elimination) | [0, 1] |
| 2578-2709 | nightmares | per board position: revealed, defeated, type (one-hot, once revealed), attacks (4), hit points left / 14, markers per seat / 14, card holder seat | [0, 1] |
| 2710-2721 | fight | for the fighting player: attacking them, strength paid to it this phase / 15 | [0, 1] |
| 2722-2725 | supply | resources left in the supply / 20 | [0, 1] |
| 2726-2728 | stacks | monument stack / 28, white stack / 19, face-down nightmares / 7 | [0, 1] |
.. end

## Action mask

`action_mask[a] == 1` iff action `a` is legal for this agent now; all zeros for an agent
whose decision it is not. Decisions with one legal action are applied by the core.

## Action

One flat `Discrete(345)` in blocks: `pick` (track space), `keep` (2 players: which of
your two picks to keep), `discard` (construction zone overflow), `place` (hex x action:
`4 * hex + a`, a = build zone slot 0 / 1, excavate (exchange on the central space),
decode), `rest`, `abandon` (Letting Go), `resource` (a colour: exchanges, any-resource
gains, nightmare penalties), `miracle` (white slots 0-5, grey slots 0-4), `damage`
(nightmare position), `leader` (hex) and `pass` (end buying or fighting).

.. action-table
| ID | Meaning |
|---|---|
| 0 | pick track space 0 |
| 1 | pick track space 1 |
| 2 | pick track space 2 |
| 3 | pick track space 3 |
| 4 | pick track space 4 |
| 5 | pick track space 5 |
| 6 | pick track space 6 |
| 7 | pick track space 7 |
| 8 | pick track space 8 |
| 9 | pick track space 9 |
| 10 | keep first pick |
| 11 | keep second pick |
| 12 | discard zone slot 0 |
| 13 | discard zone slot 1 |
| 14 | discard new monument |
| 15 | hex 0 build slot 0 |
| 16 | hex 0 build slot 1 |
| 17 | hex 0 excavate/exchange |
| 18 | hex 0 decode |
| 19 | hex 1 build slot 0 |
| 20 | hex 1 build slot 1 |
| 21 | hex 1 excavate/exchange |
| 22 | hex 1 decode |
| 23 | hex 2 build slot 0 |
| 24 | hex 2 build slot 1 |
| 25 | hex 2 excavate/exchange |
| 26 | hex 2 decode |
| 27 | hex 3 build slot 0 |
| 28 | hex 3 build slot 1 |
| 29 | hex 3 excavate/exchange |
| 30 | hex 3 decode |
| 31 | hex 4 build slot 0 |
| 32 | hex 4 build slot 1 |
| 33 | hex 4 excavate/exchange |
| 34 | hex 4 decode |
| 35 | hex 5 build slot 0 |
| 36 | hex 5 build slot 1 |
| 37 | hex 5 excavate/exchange |
| 38 | hex 5 decode |
| 39 | hex 6 build slot 0 |
| 40 | hex 6 build slot 1 |
| 41 | hex 6 excavate/exchange |
| 42 | hex 6 decode |
| 43 | hex 7 build slot 0 |
| 44 | hex 7 build slot 1 |
| 45 | hex 7 excavate/exchange |
| 46 | hex 7 decode |
| 47 | hex 8 build slot 0 |
| 48 | hex 8 build slot 1 |
| 49 | hex 8 excavate/exchange |
| 50 | hex 8 decode |
| 51 | hex 9 build slot 0 |
| 52 | hex 9 build slot 1 |
| 53 | hex 9 excavate/exchange |
| 54 | hex 9 decode |
| 55 | hex 10 build slot 0 |
| 56 | hex 10 build slot 1 |
| 57 | hex 10 excavate/exchange |
| 58 | hex 10 decode |
| 59 | hex 11 build slot 0 |
| 60 | hex 11 build slot 1 |
| 61 | hex 11 excavate/exchange |
| 62 | hex 11 decode |
| 63 | hex 12 build slot 0 |
| 64 | hex 12 build slot 1 |
| 65 | hex 12 excavate/exchange |
| 66 | hex 12 decode |
| 67 | hex 13 build slot 0 |
| 68 | hex 13 build slot 1 |
| 69 | hex 13 excavate/exchange |
| 70 | hex 13 decode |
| 71 | hex 14 build slot 0 |
| 72 | hex 14 build slot 1 |
| 73 | hex 14 excavate/exchange |
| 74 | hex 14 decode |
| 75 | hex 15 build slot 0 |
| 76 | hex 15 build slot 1 |
| 77 | hex 15 excavate/exchange |
| 78 | hex 15 decode |
| 79 | hex 16 build slot 0 |
| 80 | hex 16 build slot 1 |
| 81 | hex 16 excavate/exchange |
| 82 | hex 16 decode |
| 83 | hex 17 build slot 0 |
| 84 | hex 17 build slot 1 |
| 85 | hex 17 excavate/exchange |
| 86 | hex 17 decode |
| 87 | hex 18 build slot 0 |
| 88 | hex 18 build slot 1 |
| 89 | hex 18 excavate/exchange |
| 90 | hex 18 decode |
| 91 | hex 19 build slot 0 |
| 92 | hex 19 build slot 1 |
| 93 | hex 19 excavate/exchange |
| 94 | hex 19 decode |
| 95 | hex 20 build slot 0 |
| 96 | hex 20 build slot 1 |
| 97 | hex 20 excavate/exchange |
| 98 | hex 20 decode |
| 99 | hex 21 build slot 0 |
| 100 | hex 21 build slot 1 |
| 101 | hex 21 excavate/exchange |
| 102 | hex 21 decode |
| 103 | hex 22 build slot 0 |
| 104 | hex 22 build slot 1 |
| 105 | hex 22 excavate/exchange |
| 106 | hex 22 decode |
| 107 | hex 23 build slot 0 |
| 108 | hex 23 build slot 1 |
| 109 | hex 23 excavate/exchange |
| 110 | hex 23 decode |
| 111 | hex 24 build slot 0 |
| 112 | hex 24 build slot 1 |
| 113 | hex 24 excavate/exchange |
| 114 | hex 24 decode |
| 115 | hex 25 build slot 0 |
| 116 | hex 25 build slot 1 |
| 117 | hex 25 excavate/exchange |
| 118 | hex 25 decode |
| 119 | hex 26 build slot 0 |
| 120 | hex 26 build slot 1 |
| 121 | hex 26 excavate/exchange |
| 122 | hex 26 decode |
| 123 | hex 27 build slot 0 |
| 124 | hex 27 build slot 1 |
| 125 | hex 27 excavate/exchange |
| 126 | hex 27 decode |
| 127 | hex 28 build slot 0 |
| 128 | hex 28 build slot 1 |
| 129 | hex 28 excavate/exchange |
| 130 | hex 28 decode |
| 131 | hex 29 build slot 0 |
| 132 | hex 29 build slot 1 |
| 133 | hex 29 excavate/exchange |
| 134 | hex 29 decode |
| 135 | hex 30 build slot 0 |
| 136 | hex 30 build slot 1 |
| 137 | hex 30 excavate/exchange |
| 138 | hex 30 decode |
| 139 | hex 31 build slot 0 |
| 140 | hex 31 build slot 1 |
| 141 | hex 31 excavate/exchange |
| 142 | hex 31 decode |
| 143 | hex 32 build slot 0 |
| 144 | hex 32 build slot 1 |
| 145 | hex 32 excavate/exchange |
| 146 | hex 32 decode |
| 147 | hex 33 build slot 0 |
| 148 | hex 33 build slot 1 |
| 149 | hex 33 excavate/exchange |
| 150 | hex 33 decode |
| 151 | hex 34 build slot 0 |
| 152 | hex 34 build slot 1 |
| 153 | hex 34 excavate/exchange |
| 154 | hex 34 decode |
| 155 | hex 35 build slot 0 |
| 156 | hex 35 build slot 1 |
| 157 | hex 35 excavate/exchange |
| 158 | hex 35 decode |
| 159 | hex 36 build slot 0 |
| 160 | hex 36 build slot 1 |
| 161 | hex 36 excavate/exchange |
| 162 | hex 36 decode |
| 163 | hex 37 build slot 0 |
| 164 | hex 37 build slot 1 |
| 165 | hex 37 excavate/exchange |
| 166 | hex 37 decode |
| 167 | hex 38 build slot 0 |
| 168 | hex 38 build slot 1 |
| 169 | hex 38 excavate/exchange |
| 170 | hex 38 decode |
| 171 | hex 39 build slot 0 |
| 172 | hex 39 build slot 1 |
| 173 | hex 39 excavate/exchange |
| 174 | hex 39 decode |
| 175 | hex 40 build slot 0 |
| 176 | hex 40 build slot 1 |
| 177 | hex 40 excavate/exchange |
| 178 | hex 40 decode |
| 179 | hex 41 build slot 0 |
| 180 | hex 41 build slot 1 |
| 181 | hex 41 excavate/exchange |
| 182 | hex 41 decode |
| 183 | hex 42 build slot 0 |
| 184 | hex 42 build slot 1 |
| 185 | hex 42 excavate/exchange |
| 186 | hex 42 decode |
| 187 | hex 43 build slot 0 |
| 188 | hex 43 build slot 1 |
| 189 | hex 43 excavate/exchange |
| 190 | hex 43 decode |
| 191 | hex 44 build slot 0 |
| 192 | hex 44 build slot 1 |
| 193 | hex 44 excavate/exchange |
| 194 | hex 44 decode |
| 195 | hex 45 build slot 0 |
| 196 | hex 45 build slot 1 |
| 197 | hex 45 excavate/exchange |
| 198 | hex 45 decode |
| 199 | hex 46 build slot 0 |
| 200 | hex 46 build slot 1 |
| 201 | hex 46 excavate/exchange |
| 202 | hex 46 decode |
| 203 | hex 47 build slot 0 |
| 204 | hex 47 build slot 1 |
| 205 | hex 47 excavate/exchange |
| 206 | hex 47 decode |
| 207 | hex 48 build slot 0 |
| 208 | hex 48 build slot 1 |
| 209 | hex 48 excavate/exchange |
| 210 | hex 48 decode |
| 211 | hex 49 build slot 0 |
| 212 | hex 49 build slot 1 |
| 213 | hex 49 excavate/exchange |
| 214 | hex 49 decode |
| 215 | hex 50 build slot 0 |
| 216 | hex 50 build slot 1 |
| 217 | hex 50 excavate/exchange |
| 218 | hex 50 decode |
| 219 | hex 51 build slot 0 |
| 220 | hex 51 build slot 1 |
| 221 | hex 51 excavate/exchange |
| 222 | hex 51 decode |
| 223 | hex 52 build slot 0 |
| 224 | hex 52 build slot 1 |
| 225 | hex 52 excavate/exchange |
| 226 | hex 52 decode |
| 227 | hex 53 build slot 0 |
| 228 | hex 53 build slot 1 |
| 229 | hex 53 excavate/exchange |
| 230 | hex 53 decode |
| 231 | hex 54 build slot 0 |
| 232 | hex 54 build slot 1 |
| 233 | hex 54 excavate/exchange |
| 234 | hex 54 decode |
| 235 | hex 55 build slot 0 |
| 236 | hex 55 build slot 1 |
| 237 | hex 55 excavate/exchange |
| 238 | hex 55 decode |
| 239 | hex 56 build slot 0 |
| 240 | hex 56 build slot 1 |
| 241 | hex 56 excavate/exchange |
| 242 | hex 56 decode |
| 243 | hex 57 build slot 0 |
| 244 | hex 57 build slot 1 |
| 245 | hex 57 excavate/exchange |
| 246 | hex 57 decode |
| 247 | hex 58 build slot 0 |
| 248 | hex 58 build slot 1 |
| 249 | hex 58 excavate/exchange |
| 250 | hex 58 decode |
| 251 | hex 59 build slot 0 |
| 252 | hex 59 build slot 1 |
| 253 | hex 59 excavate/exchange |
| 254 | hex 59 decode |
| 255 | hex 60 build slot 0 |
| 256 | hex 60 build slot 1 |
| 257 | hex 60 excavate/exchange |
| 258 | hex 60 decode |
| 259 | rest |
| 260 | abandon zone slot 0 |
| 261 | abandon zone slot 1 |
| 262 | resource purple |
| 263 | resource red |
| 264 | resource blue |
| 265 | resource yellow |
| 266 | buy white 0 |
| 267 | buy white 1 |
| 268 | buy white 2 |
| 269 | buy white 3 |
| 270 | buy white 4 |
| 271 | buy white 5 |
| 272 | buy grey 0 |
| 273 | buy grey 1 |
| 274 | buy grey 2 |
| 275 | buy grey 3 |
| 276 | buy grey 4 |
| 277 | damage nightmare 0 |
| 278 | damage nightmare 1 |
| 279 | damage nightmare 2 |
| 280 | damage nightmare 3 |
| 281 | damage nightmare 4 |
| 282 | damage nightmare 5 |
| 283 | leader to hex 0 |
| 284 | leader to hex 1 |
| 285 | leader to hex 2 |
| 286 | leader to hex 3 |
| 287 | leader to hex 4 |
| 288 | leader to hex 5 |
| 289 | leader to hex 6 |
| 290 | leader to hex 7 |
| 291 | leader to hex 8 |
| 292 | leader to hex 9 |
| 293 | leader to hex 10 |
| 294 | leader to hex 11 |
| 295 | leader to hex 12 |
| 296 | leader to hex 13 |
| 297 | leader to hex 14 |
| 298 | leader to hex 15 |
| 299 | leader to hex 16 |
| 300 | leader to hex 17 |
| 301 | leader to hex 18 |
| 302 | leader to hex 19 |
| 303 | leader to hex 20 |
| 304 | leader to hex 21 |
| 305 | leader to hex 22 |
| 306 | leader to hex 23 |
| 307 | leader to hex 24 |
| 308 | leader to hex 25 |
| 309 | leader to hex 26 |
| 310 | leader to hex 27 |
| 311 | leader to hex 28 |
| 312 | leader to hex 29 |
| 313 | leader to hex 30 |
| 314 | leader to hex 31 |
| 315 | leader to hex 32 |
| 316 | leader to hex 33 |
| 317 | leader to hex 34 |
| 318 | leader to hex 35 |
| 319 | leader to hex 36 |
| 320 | leader to hex 37 |
| 321 | leader to hex 38 |
| 322 | leader to hex 39 |
| 323 | leader to hex 40 |
| 324 | leader to hex 41 |
| 325 | leader to hex 42 |
| 326 | leader to hex 43 |
| 327 | leader to hex 44 |
| 328 | leader to hex 45 |
| 329 | leader to hex 46 |
| 330 | leader to hex 47 |
| 331 | leader to hex 48 |
| 332 | leader to hex 49 |
| 333 | leader to hex 50 |
| 334 | leader to hex 51 |
| 335 | leader to hex 52 |
| 336 | leader to hex 53 |
| 337 | leader to hex 54 |
| 338 | leader to hex 55 |
| 339 | leader to hex 56 |
| 340 | leader to hex 57 |
| 341 | leader to hex 58 |
| 342 | leader to hex 59 |
| 343 | leader to hex 60 |
| 344 | pass |
.. end

## Rewards

`reward="win"` (default): at the end each of k tied winners (VP, then monuments built,
miracles, resources + coins left) gets (n-k)/(k(n-1)) and every other player -1/(n-1);
truncation gives 0. `reward="score"`: after every step (your VP gained - the mean of the
others' VP gained) / 20, final scoring included.

## Starting state

Tiles placed at random, a random turn order on the monument track, 2 of each resource,
6 coins and 10 VP each, leaders on the central space, 6 white and 5 grey miracles
revealed, 6 nightmares on the board with the first one revealed.

## Rendering

`render()` (`render_mode="ansi"` or `"human"`) shows the whole table as text;
`env.render_svg(seat)` draws the hex map with monuments (owner's colour as the border),
helpers (small circles) and leaders, and the text beside it.

## Episode end

Terminated after the Nightmare phase of round 6. Truncated after `max_turns` decisions
(default 3000; a game takes a few hundred).

## Arguments

`num_players=2` (2-4), `reward="win"` (`"score"`), `split="all"` (`"train"` or `"test"`:
deal only held-out train or test setups, RULES.md section 20), `max_turns=None`,
`render_mode=None` ("ansi" or "human"), `illegal="raise"` ("lose").

## Version history

- v0: first release.

## Example

>>> from fatezoo.envs import forgotten_city_v0
>>> env = forgotten_city_v0.env(num_players=2)
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
