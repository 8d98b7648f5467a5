"""Single-agent gymnasium wrapper: the learner takes a seat, opponents play the rest.

Registered as ``fatezoo/<Game>-v0`` on ``import fatezoo``; the registered entry point
(``fatezoo.gym_env.make_env``, above the core) turns an agent spec such as
``opponent="heuristic"`` into an agent, so the core never imports the agents. Here
``opponent`` is an agent object or None (uniform random). Observations are the Dict
of the AEC env; ``action_masks()`` on the env (``env.unwrapped.action_masks()`` through
gymnasium's wrappers; SB3's vector envs find it themselves) gives the mask for
sb3-contrib's MaskablePPO. An illegal action ends the episode with ``illegal_penalty``
and ``info["illegal_action"] = True``. The game's :class:`GameSpec` is ``game_spec``
(``spec`` is gymnasium's ``EnvSpec``).
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

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
        render_mode: None or ``"ansi"`` (the learner's view).
        **options: ``max_turns``, ``reward`` and the game's own options.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

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
        if render_mode not in (None, "ansi"):
            raise ValueError(f"{game}: render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self._game = Session(spec, spec.options(num_players=num_players, **options))
        n = self._game.num_players
        if seat is not None and (isinstance(seat, bool) or seat not in range(n)):
            raise ValueError(f"{game}: seat must be None or in [0, {n}), got {seat!r}")
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.illegal_penalty = float(illegal_penalty)
        self.opponent = opponent
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-1.0, 1.0, (spec.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (spec.num_actions,), np.int8),
        })
        self.action_space = spaces.Discrete(spec.num_actions)

    def _obs(self):
        return {"observation": self._game.observe(self.seat).copy(),
                "action_mask": self._game.legal_mask(self.seat).copy()}

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
        return self._obs(), {"seat": self.seat}

    def step(self, action):
        """Apply the learner's action, then the opponents' until the learner's next turn."""
        g = self._game
        try:
            a = g.check(action, f"learner in seat {self.seat}")
        except IllegalActionError:
            if g.done or not g.started:
                raise
            return self._obs(), self.illegal_penalty, True, False, {"illegal_action": True}
        g.step(a)
        reward = float(g.rewards()[self.seat]) + self._play_others()
        rec = g.record
        return (self._obs(), float(reward), bool(rec["terminated"]), bool(rec["truncated"]),
                {"seat": self.seat})

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions (sb3-contrib MaskablePPO)."""
        return self._game.legal_mask(self.seat).astype(bool)

    def render(self):
        """The learner's view as text."""
        if self.render_mode == "ansi":
            if not self._game.started:
                raise RuntimeError(f"{self.game_spec.name}: call reset() before render()")
            return self.game_spec.render_ansi(self._game.record, self.seat)
        return None
