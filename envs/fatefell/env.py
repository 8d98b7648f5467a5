"""Fatefell: tarot Golf over four Seasons (2-4 players).

.. meta-table
| | |
|---|---|
| Import | `from fatezoo.envs import fatefell_v0` |
| Actions | Discrete(33) |
| Parallel API | No; PettingZoo's `turn_based_aec_to_parallel` wraps it |
| Agents | `player_0` .. `player_{n-1}`, n in 2-4 |
| Observation | Dict: `observation` Box(-1, 1, (524,), float32), `action_mask` Box(0, 1, (33,), int8) |
| State | Box(-1, 1, (588,), float32) |
| Render modes | `ansi`, `human`, `rgb_array` (the SVG view as (H, W, 3) uint8) |
| Ended game | AEC: the mask is all zeros and the agents step with None (PettingZoo's rule); vector and gym envs: every action is marked legal and is ignored |
| Illegal action | `illegal='raise'` (default) raises; `illegal='lose'` ends the game with -1 for the offender (for mask-blind tools that sample actions) |
| Rules | `envs/fatefell/RULES.md` |
.. end

## Description

Each player has a 2x2 layout of face-down Arcana: the top two are Hidden, the bottom
two Revealed (looked at before each draw). On your turn draw from the draw pile or a
discard pile, swap the card into your layout or discard it, then you may declare a
Match (the Character and Skeleton of one identity: they score 0 and are protected).
Fate cards in the draw pile resolve a Sun or Moon instruction by a coin spin. A season
ends when the draw pile runs out or a player completes both Matches (the others get one
final turn); cards not in a Completed Match score their value. Lowest total after the
last season wins.

## Observation

Seats are relative: seat 0 is you, seat 1 the next player to your left. A card the
observer has not legitimately seen is all zeros. Perfect recall: what you saw stays
known until the card moves where you cannot follow it.

.. obs-table
| Index | Name | Meaning | Values |
|---|---|---|---|
| 0-95 | seat_slots | per seat, slot: exists, known, completed, value/12, moon, skeleton | [0, 1] |
| 96-191 | own_identity | one-hot identity of each of your known cards | [0, 1] |
| 192-197 | own_pairs | 1 if a pair of your slots is a known, undeclared Match | [0, 1] |
| 198-225 | hand | the drawn card, if you may see it: card + one-hot identity | [0, 1] |
| 226 | hand_from_discard | 1 if the drawn card came from a discard pile | [0, 1] |
| 227-230 | pending | the card on its way to a discard pile (face up) | [0, 1] |
| 231-398 | discard | per pile, top three cards: card + one-hot identity | [0, 1] |
| 399-422 | discard_seen | copies of each identity in the discard piles / 2 | [0, 1] |
| 423-432 | phase | one-hot decision kind | [0, 1] |
| 433-446 | effect | one-hot Fate instruction being resolved | [0, 1] |
| 447-448 | coin | one-hot Fate Coin side: Sun, Moon | [0, 1] |
| 449-452 | first_slot | one-hot slot already chosen for a two-step Fate instruction | [0, 1] |
| 453-456 | turn_seat | one-hot seat of the player whose turn it is | [0, 1] |
| 457-460 | season | one-hot index of the season being played | [0, 1] |
| 461-464 | season_kind | one-hot Spring, Summer, Autumn, Winter | [0, 1] |
| 465 | seasonal_rules | 1 if the advanced seasonal rules are in force | [0, 1] |
| 466 | two_piles | 1 if there are two discard piles (advanced Autumn) | [0, 1] |
| 467-469 | pile_sizes | draw pile, discard pile 0, discard pile 1 sizes / 60 | [0, 1] |
| 470-472 | fates | Fate cards this season, set aside, still in the draw pile / 12 | [0, 1] |
| 473-476 | totals | running total score per seat / 200 | [0, 1] |
| 477-480 | matches | cards in Completed Matches per seat / 4 | [0, 1] |
| 481-482 | final_round | 1 if a player completed both Matches; final turns left / 3 | [0, 1] |
| 483-485 | num_players | one-hot 2, 3, 4 players | [0, 1] |
| 486-487 | progress | turn / max_turns, seasons left / 4 | [0, 1] |
| 488-491 | hand_matches | 1 if the drawn card (seen) has the identity of your known slot | [0, 1] |
| 492-499 | discard_matches | per pile, 1 if its top card has the identity of your known slot | [0, 1] |
| 500-511 | fate_card | one-hot Fate card being resolved (row of fate.csv) | [0, 1] |
| 512-523 | fates_seen | 1 per Fate card revealed this season (resolved, resolving or set aside) | [0, 1] |
.. end

## Action mask

`action_mask[a] == 1` iff action `a` is legal for this agent now; all zeros for an agent
whose decision it is not. Decisions with one legal action are applied by the core.

## Action

One decision per step: draw, place or discard, choose a pile, declare a Match or end the
turn, and the choices of Fate instructions (a slot of your own, or a target slot of
another player counted in seats to your left).

.. action-table
| ID | Meaning |
|---|---|
| 0 | draw from the draw pile |
| 1 | draw discard pile 0 depth 0 |
| 2 | draw discard pile 0 depth 1 |
| 3 | draw discard pile 0 depth 2 |
| 4 | draw discard pile 1 depth 0 |
| 5 | draw discard pile 1 depth 1 |
| 6 | draw discard pile 1 depth 2 |
| 7 | own slot 0 |
| 8 | own slot 1 |
| 9 | own slot 2 |
| 10 | own slot 3 |
| 11 | discard the drawn card |
| 12 | discard pile 0 |
| 13 | discard pile 1 |
| 14 | declare match slots 0+1 |
| 15 | declare match slots 0+2 |
| 16 | declare match slots 0+3 |
| 17 | declare match slots 1+2 |
| 18 | declare match slots 1+3 |
| 19 | declare match slots 2+3 |
| 20 | end turn |
| 21 | target seat +1 slot 0 |
| 22 | target seat +1 slot 1 |
| 23 | target seat +1 slot 2 |
| 24 | target seat +1 slot 3 |
| 25 | target seat +2 slot 0 |
| 26 | target seat +2 slot 1 |
| 27 | target seat +2 slot 2 |
| 28 | target seat +2 slot 3 |
| 29 | target seat +3 slot 0 |
| 30 | target seat +3 slot 1 |
| 31 | target seat +3 slot 2 |
| 32 | target seat +3 slot 3 |
.. end

## Rewards

`reward="win"` (default): at the end a sole winner gets +1 and every loser -1/(n-1);
k tied winners get (n-k)/(k(n-1)) each. Truncation gives 0. `reward="score"` adds at
each season end -(your season score - table mean) / 48.

## Starting state

Four Arcana dealt to each player, the Fate cards of Spring (6) shuffled into the rest,
one card turned up as the discard pile; player_0 starts Spring, the first player
rotates each season.

## Rendering

`render()` (with `render_mode="ansi"` or `"human"`) shows **every card**, face-down ones
included: a spectator's or debugger's view, not what any player knows. For one seat's
view set `env.render_seat = 1` (seat index; `None`, the default, shows every card): the
render then shows `??` for every card that seat has not seen. `env.render_svg(seat)`
draws the same views as SVG (`seat=None`: every card); in a notebook the env displays
`render_svg(env.render_seat)`.

## Episode end

Terminated after the last season is scored. Truncated after `max_turns` player turns
(default 1000).

## Arguments

`num_players=2`, `seasons=4` (1-4), `advanced=False` (turns on `random_seasons`,
`random_fates` and `seasonal_rules`, each also settable alone), `split="all"` (held-out
season setups: `"train"` or `"test"` deal advanced seasons from that part only; RULES.md),
`reward="win"`, `max_turns=None`, `render_mode=None` ("ansi" or "human"),
`illegal="raise"` ("lose").

## Version history

- v0: first release.

## Example

>>> from fatezoo.envs import fatefell_v0
>>> env = fatefell_v0.env(num_players=2, seasons=1)
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
