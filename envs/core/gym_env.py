"""Single-agent gymnasium wrapper: the learner takes a seat, opponents play the rest.

Registered as ``fatezoo/<Game>-v0`` on ``import fatezoo``; the registered entry point
(``fatezoo.gym_env.make_env``, above the core) turns an agent spec such as
``opponent="heuristic"`` into an agent, so the core never imports the agents. Here
``opponent`` is an agent object or None (uniform random). Observations are the Dict
of the AEC env; ``action_masks()`` on the env (``env.unwrapped.action_masks()`` through
gymnasium's wrappers; SB3's vector envs find it themselves) gives the mask for
sb3-contrib's MaskablePPO. An illegal action (an int masked out or out of range) ends the
episode with ``illegal_penalty`` and ``info["illegal_action"] = True`` (the state is not
changed): this is the mask-blind way, so gymnasium's and SB3's env checkers and
``action_space.sample()`` work as they are. A value that is not an action at all (None, a
string, a float, a bool, an array of several values) raises TypeError, as gymnasium's own
envs do, and the episode goes on.

At the end of an episode (terminated or truncated) the observation's ``action_mask`` and
``action_masks()`` mark every action legal, as Pgx does: a masked policy evaluated on the
final observation (gymnasium's next-step autoreset does that) gets a proper distribution,
and whatever it picks is ignored: gymnasium's vector envs reset that env instead of
stepping it (a direct ``step`` after the end raises, asking for ``reset()``).

The game's :class:`GameSpec` is ``game_spec``; ``spec`` is gymnasium's ``EnvSpec``, also
on an env built directly (so gymnasium's wrappers keep and extend it).
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.envs.registration import EnvSpec

from .raster import rasterize
from .registry import get_spec
from .session import Session
from .spec import IllegalActionError


class GymEnv(gymnasium.Env):
    """One seat of a fatezoo game as a gymnasium env.

    Args:
        game: registered game name.
        num_players: seats in the game.
        opponent: an agent object with ``act(observation, action_mask)``, used for every
            other seat, or None for uniform random moves. (Agent specs such as
            ``"heuristic"`` are resolved by ``gymnasium.make``'s entry point.)
        seat: the learner's seat, or None for a random seat each episode.
        illegal_penalty: reward for an illegal action (which ends the episode).
        render_mode: None, ``"ansi"`` (text) or ``"rgb_array"`` (an ``(H, W, 3)`` uint8
            picture of the game's SVG view); both show the learner's view.
        **options: ``max_turns``, ``reward`` and the game's own options.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(self, game="fatefell", num_players=2, opponent=None, seat=None,
                 illegal_penalty=-1.0, render_mode=None, **options):
        self.game_spec = spec = get_spec(game)
        if isinstance(opponent, str):
            raise TypeError(f"{game}: GymEnv takes an agent object or None as opponent, got "
                            f"the spec {opponent!r}; use gymnasium.make('{spec.gym_id}', "
                            f"opponent={opponent!r}) or fatezoo.agents.make_agent")
        if opponent is not None and not callable(getattr(opponent, "act", None)):
            raise TypeError(f"{game}: opponent must have act(observation, action_mask), "
                            f"got {opponent!r}")
        if render_mode not in (None, "ansi", "rgb_array"):
            raise ValueError(f"{game}: render_mode must be None, 'ansi' or 'rgb_array', got "
                             f"{render_mode!r}")
        self.render_mode = render_mode
        # gymnasium.make replaces this with the registered EnvSpec; built directly, the env
        # still has one, so wrappers (TimeLimit, RecordEpisodeStatistics) can extend it
        self.spec = EnvSpec(id=spec.gym_id, entry_point=f"{__name__}:GymEnv",
                            kwargs=dict(game=game, num_players=num_players, opponent=opponent,
                                        seat=seat, illegal_penalty=illegal_penalty,
                                        render_mode=render_mode, **options))
        self._game = Session(spec, spec.options(num_players=num_players, **options))
        n = self._game.num_players
        if seat is not None and (isinstance(seat, bool) or seat not in range(n)):
            raise ValueError(f"{game}: seat must be None or in [0, {n}), got {seat!r}")
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.illegal_penalty = float(illegal_penalty)
        self.opponent = opponent
        self._ended = False  # the episode has ended (the game, or an illegal action)
        self._all_legal = np.ones(spec.num_actions, np.int8)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-1.0, 1.0, (spec.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (spec.num_actions,), np.int8),
        })
        self.action_space = spaces.Discrete(spec.num_actions)

    def _mask(self) -> np.ndarray:
        """The learner's mask; every action once the episode has ended (it is ignored)."""
        return self._all_legal if self._ended else self._game.legal_mask(self.seat)

    def _obs(self):
        return {"observation": self._game.observe(self.seat).copy(),
                "action_mask": self._mask().copy()}

    def _play_others(self) -> float:
        """Let the opponents move until it is the learner's turn or the game ends."""
        reward = 0.0
        g = self._game
        while not g.done and g.current_player != self.seat:
            p = g.current_player
            if self.opponent is None:
                a = int(self.np_random.choice(np.flatnonzero(g.mask)))
            else:
                a = self.opponent.act(g.observe(p), g.mask)
            g.step(g.check(a, f"opponent in seat {p}"))
            reward += float(g.rewards()[self.seat])
        return reward

    def reset(self, seed=None, options=None):
        """Deal a game, seat the learner and play the opponents up to its first turn."""
        super().reset(seed=seed)
        if seed is not None and hasattr(self.opponent, "seed"):
            self.opponent.seed(seed + 1)
        game_seed = int(self.np_random.integers(2**62))
        n = self._game.num_players
        self.seat = (int(self.np_random.integers(n)) if self.fixed_seat is None
                     else self.fixed_seat)
        self._game.reset(game_seed)
        self._play_others()
        self._ended = self._game.done
        return self._obs(), {"seat": self.seat}

    def step(self, action):
        """Apply the learner's action, then the opponents' until the learner's next turn."""
        g = self._game
        if self._ended:
            raise RuntimeError(f"{self.game_spec.name}: the episode is over; call reset()")
        try:
            a = g.check(action, f"learner in seat {self.seat}")
        except IllegalActionError:
            if g.done or not g.started:
                raise
            self._ended = True
            return (self._obs(), self.illegal_penalty, True, False,
                    {"seat": self.seat, "illegal_action": True})
        g.step(a)
        reward = float(g.rewards()[self.seat]) + self._play_others()
        rec = g.record
        self._ended = g.done
        return (self._obs(), float(reward), bool(rec["terminated"]), bool(rec["truncated"]),
                {"seat": self.seat})

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions (sb3-contrib MaskablePPO).

        All True once the episode has ended (whatever is chosen then is ignored).
        """
        return self._mask().astype(bool)

    def render(self):
        """The learner's view: text (``"ansi"``) or an RGB array (``"rgb_array"``)."""
        if self.render_mode is None:
            return None
        if not self._game.started:
            raise RuntimeError(f"{self.game_spec.name}: call reset() before render()")
        if self.render_mode == "rgb_array":
            return rasterize(self.game_spec.render_svg(self._game.record, self.seat))
        return self.game_spec.render_ansi(self._game.record, self.seat)
