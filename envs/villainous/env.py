"""Villainous: the Fate action of Evil Comes Prepared, 2-6 villains (Scar, Yzma, Ratigan).

.. meta-table
| | |
|---|---|
| Import | `from fatezoo.envs import villainous_v0` |
| Actions | Discrete(42) |
| Parallel API | No; PettingZoo's `turn_based_aec_to_parallel` wraps it |
| Agents | `player_0` .. `player_{n-1}`, n in 2-6 |
| Observation | Dict: `observation` Box(-1, 1, (1982,), float32), `action_mask` Box(0, 1, (42,), int8) |
| State | Box(-1, 1, (1982,), float32) |
| Render modes | `ansi`, `human`, `rgb_array` (the SVG view as (H, W, 3) uint8) |
| Ended game | AEC: the mask is all zeros and the agents step with None (PettingZoo's rule); vector and gym envs: every action is marked legal and is ignored |
| Illegal action | `illegal='raise'` (default) raises; `illegal='lose'` ends the game with -1 for the offender (for mask-blind tools that sample actions) |
| Rules | `envs/villainous/RULES.md` |
.. end

## Description

Each player is a villain with a Realm of four locations. On your turn move your mover to
another unlocked location and take the actions whose symbols are visible there, each
once, in any order (Heroes cover the top two): gain Power, play a card (Allies and Items
below a location, Effects at once), activate a card, Fate an opponent, move an Ally or
Item, move a Hero, vanquish a Hero with your Allies, discard cards. Then draw up to four.
A Fate action reveals the top two cards of an opponent's Fate deck (Yzma: you choose one of
her four piles and look at it) and plays one of them into their Realm against them; the
other is discarded first. With 5-6 players the Fate token protects the last target. The
first villain to start a turn with their objective met wins. Conditions are played from
the hand only on an opponent's turn, once that opponent's action has met their trigger.

## Observation

Seats are relative (0 = you). Every Realm, discard pile, Succession pile, the revealed Fate
cards and Power are public; other hands, deck orders and Yzma's piles are hidden (sizes
only), except the cards you saw.

.. obs-table
| Index | Name | Meaning | Values |
|---|---|---|---|
| 0-7 | phase | one-hot: move, actions, Fate target, Yzma pile, Fate card, choice, Condition window, over | [0, 1] |
| 8-47 | entry_kind | one-hot kind of the pending choice (an ability's instruction or an action) | [0, 1] |
| 48-67 | entry | its step (one-hot 4), Realm (seat one-hot), its card's location, the chosen location, moves left/3, parameter/6 | [0, 1] |
| 68-73 | turn_seat | one-hot seat whose turn it is | [0, 1] |
| 74-79 | seats | 1 for each seat in the game | [0, 1] |
| 80-97 | villain | each seat's villain: Scar, Yzma, Ratigan | [0, 1] |
| 98-103 | power | Power / 20 (1 at 20 or more) | [0, 1] |
| 104-133 | sizes | hand, villain deck, villain discard /30; Fate deck, Fate discard /16 | [0, 1] |
| 134-157 | mover | one-hot location of each mover | [0, 1] |
| 158-181 | locked | 1 for a locked location | [0, 1] |
| 182-185 | used | slots taken this turn (the turn player's) | [0, 1] |
| 186-593 | realm_v | villain cards below each location by local type /6 | [0, 1] |
| 594-857 | realm_f | Heroes and Fate Items above each location by local type /3 | [0, 1] |
| 858-1121 | hero_str | current Strength of the strongest Hero of each type there /10 | [0, 1] |
| 1122-1145 | hero_items | Fate Items attached at each location /4 | [0, 1] |
| 1146-1247 | vdiscard | villain discard piles by type /6 | [0, 1] |
| 1248-1313 | fdiscard | Fate discard piles by type /3 | [0, 1] |
| 1314-1385 | succession | Scar's Succession pile by type /3 and its Strength /15 | [0, 1] |
| 1386-1409 | objective | The Robot Queen's Cost /15, Ratigan flipped, event objective met, Buckingham Palace unlocked | [0, 1] |
| 1410-1416 | fate_token | holder one-hot, token in use | [0, 1] |
| 1417-1422 | fate_target | one-hot target of the Fate action in progress | [0, 1] |
| 1423-1433 | revealed | revealed Fate cards and the one being played, by local type /2 | [0, 1] |
| 1434-1457 | piles | Yzma's pile sizes /4 | [0, 1] |
| 1458-1721 | piles_known | pile cards you know (looked at, even if shuffled since) by type /4 | [0, 1] |
| 1722-1738 | hand | your hand by local type /6 | [0, 1] |
| 1739-1840 | hand_known | cards of each hand you saw (shown to all) /6 | [0, 1] |
| 1841-1942 | deck_known | cards of each villain deck you know are there /6 | [0, 1] |
| 1943-1960 | vanquish | Allies chosen so far in a Vanquish by type /6, total /20 | [0, 1] |
| 1961 | progress | completed turns / max_turns | [0, 1] |
| 1962-1981 | events | effect stack: entries / capacity, seat asked to respond (one-hot), then the top 1 entries (top first), each present + trigger, turn player, amount | [0, 1] |
.. end

## Action mask

`action_mask[a] == 1` iff action `a` is legal for this agent now; all zeros for an agent
whose decision it is not. Decisions with one legal action are applied by the core.

## Action

One `Discrete(42)`: `location 0-3` (move there; a destination; a source location; Yzma's
pile), `slot 0-3` (the visible symbol of the mover's location to use: 0-1 top, 2-3
bottom), `villain card 0-16` (a card by its local type in your villain deck's table),
`Fate card 0-10` (by local type in the target's Fate deck table), `Fate target seat +1..+5`
and `pass` (end your actions, stop a repeated pick, decline a "may" or a Condition).
Compound actions are sequences of these (a Vanquish: location, Hero, then Allies one at a
time, then pass). In a Condition window (phase "Condition window", the event in `events`)
the asked player plays a Condition from their hand (`villain card`) or passes; only players
holding a Condition that answers the event and can resolve fully are asked.

.. action-table
| ID | Meaning |
|---|---|
| 0 | location 0 |
| 1 | location 1 |
| 2 | location 2 |
| 3 | location 3 |
| 4 | slot 0 (top left) |
| 5 | slot 1 (top right) |
| 6 | slot 2 (bottom left) |
| 7 | slot 3 (bottom right) |
| 8 | villain card 0 |
| 9 | villain card 1 |
| 10 | villain card 2 |
| 11 | villain card 3 |
| 12 | villain card 4 |
| 13 | villain card 5 |
| 14 | villain card 6 |
| 15 | villain card 7 |
| 16 | villain card 8 |
| 17 | villain card 9 |
| 18 | villain card 10 |
| 19 | villain card 11 |
| 20 | villain card 12 |
| 21 | villain card 13 |
| 22 | villain card 14 |
| 23 | villain card 15 |
| 24 | villain card 16 |
| 25 | Fate card 0 |
| 26 | Fate card 1 |
| 27 | Fate card 2 |
| 28 | Fate card 3 |
| 29 | Fate card 4 |
| 30 | Fate card 5 |
| 31 | Fate card 6 |
| 32 | Fate card 7 |
| 33 | Fate card 8 |
| 34 | Fate card 9 |
| 35 | Fate card 10 |
| 36 | Fate target seat +1 |
| 37 | Fate target seat +2 |
| 38 | Fate target seat +3 |
| 39 | Fate target seat +4 |
| 40 | Fate target seat +5 |
| 41 | pass |
.. end

## Rewards

`reward="win"` (the default): the winner +1, every other player -1/(n-1), at the end.
Truncation gives 0. `reward="score"` adds after every step `0.5 * (d_p - mean of the
others' d)`, where `d` is the change of a seat's objective progress (a potential in
[0, 1] from public state: Scar's Succession Strength, Yzma's Kronk and Kuzco, Ratigan's
Palace, Gears and Power; 1 once the objective holds; RULES.md R69): zero-sum, and summed
over a game it telescopes, so it cannot be farmed. The win reward is unchanged.

## Starting state

Each seat gets a villain (options `villains` and `split`), its Realm, shuffled villain and Fate decks
(Yzma's Fate deck dealt into four face-down piles), four cards and Power 0, 1, 2, 2, 3, 3
by seat; every mover on the leftmost location; player_0 starts.

## Rendering

`render()` (with `render_mode="ansi"` or `"human"`) shows **every card**, hands included:
a spectator's view. For one seat's view set `env.render_seat` (the render then lists only
the hand cards that seat has seen). `env.render_svg(seat)` draws the Realms as SVG.

## Episode end

Terminated when a villain starts a turn with their objective met. Truncated after
`max_turns` player turns (default 200).

## Arguments

`num_players=2` (2-6), `villains="random"` ("scar", "yzma", "ratigan" for every seat, or a
list of `num_players` names, seat 0 first, e.g. `["scar", "yzma"]`), `fate_token=None` (True / False),
`split="all"` (held-out setups: "test" deals only Yzma and Ratigan at seats 0 and 1, in
either order, "train" never; RULES.md), `reward="win"`, `max_turns=None`, `render_mode=None`
("ansi" or "human"), `illegal="raise"` ("lose").

## Version history

- v0: first release.

## Example

>>> from fatezoo.envs import villainous_v0
>>> env = villainous_v0.env(num_players=2, villains="scar", max_turns=20)
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
