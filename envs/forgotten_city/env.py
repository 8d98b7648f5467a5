"""Forgotten City: build monuments on a hex map, decode them, buy miracles and fight
nightmares over six rounds (2-4 players).

.. meta-table
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

`num_players=2` (2-4), `reward="win"` (`"score"`), `max_turns=None`,
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

from __future__ import annotations

from fatezoo.envs.core.aec import FatezooAEC
from fatezoo.envs.core.vector import VecEnv

from . import SPEC


class raw_env(FatezooAEC):  # noqa: N801  (PettingZoo naming)
    """The Forgotten City AEC environment; see the module docstring for the doc page."""

    SPEC = SPEC
    __doc__ = __doc__


def env(**kwargs) -> raw_env:
    """A Forgotten City AEC env."""
    return raw_env(**kwargs)


def vec(num_envs: int = 1, **kwargs) -> VecEnv:
    """A batched Forgotten City vector env (see fatezoo.envs.core.vector.VecEnv)."""
    return VecEnv(SPEC, num_envs, **kwargs)
