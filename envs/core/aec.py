"""The PettingZoo AEC adapter shared by every game.

A game's ``env.py`` subclasses :class:`FatezooAEC`, sets ``SPEC`` and writes its doc page
as the class module's docstring. Everything else (seating, rewards, illegal moves,
truncation, save/load, rendering hooks) lives here once.
"""

from __future__ import annotations

import json

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import kernels as K
from .raster import rasterize
from .session import Session
from .spec import GameSpec, IllegalActionError
from .worlds import sample_records

ILLEGAL_POLICIES = ("raise", "lose")
RENDER_MODES = (None, "ansi", "human", "rgb_array")
OBS_KEYS = ("observation", "observations")  # PettingZoo's; RLlib's action-masking module's


class FatezooAEC(AECEnv):
    """PettingZoo AEC environment over one record of a game's batched core.

    Args:
        num_players: seats, ``player_0`` .. ``player_{n-1}``.
        render_mode: None, ``"ansi"`` (render returns text), ``"human"`` (prints it) or
            ``"rgb_array"`` (render returns an ``(H, W, 3)`` uint8 picture of the same view
            as :meth:`render_svg`). Each shows every card, or ``render_seat``'s view.
        max_turns: truncation limit in player turns (None: the game's default).
        reward: ``"win"`` (terminal, zero-sum) or ``"score"`` (adds dense shaping).
        illegal: ``"raise"`` (default: :class:`fatezoo.IllegalActionError`, state unchanged;
            it catches agent bugs) or ``"lose"`` (PettingZoo's TerminateIllegalWrapper: the
            offender gets -1, the others +1/(n-1), and the game ends). Mask-blind tools that
            step with ``action_space.sample()`` (RLlib's env pre-check, PettingZoo's
            ``parallel_seed_test``) need ``illegal="lose"``, as PettingZoo's classic games
            have by default. A value that is not an action at all (None, a string, a
            float, a bool, an array) raises TypeError under either policy.
        obs_key: the key of the observation vector in each observation dict:
            ``"observation"`` (PettingZoo's, the default) or, for RLlib's action-masking
            module, ``"observations"``. The mask is always ``"action_mask"``.
        **options: the game's own options.
    """

    SPEC: GameSpec
    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4,
                "is_parallelizable": False, "name": "fatezoo"}

    def __init__(self, num_players=2, render_mode=None, max_turns=None, reward="win",
                 illegal="raise", obs_key="observation", **options):
        super().__init__()
        spec = self.SPEC
        if render_mode not in RENDER_MODES:
            raise ValueError(f"{spec.name}: render_mode must be one of {RENDER_MODES}, "
                             f"got {render_mode!r}")
        if illegal not in ILLEGAL_POLICIES:
            raise ValueError(f"{spec.name}: illegal must be one of {ILLEGAL_POLICIES}, "
                             f"got {illegal!r}")
        if obs_key not in OBS_KEYS:
            raise ValueError(f"{spec.name}: obs_key must be one of {OBS_KEYS}, got {obs_key!r}")
        self.obs_key = obs_key
        self.metadata = dict(self.metadata, name=f"{spec.name}_v0")
        self.render_mode = render_mode
        self.illegal = illegal
        self.options = dict(num_players=num_players, max_turns=max_turns, reward=reward,
                            **options)
        self._fields = spec.options(num_players=num_players, max_turns=max_turns,
                                    reward=reward, **options)
        self._game = Session(spec, self._fields)
        n = self._fields["num_players"]
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        obs_box = spaces.Box(-1.0, 1.0, (spec.obs_size,), np.float32)
        mask_box = spaces.Box(0, 1, (spec.num_actions,), np.int8)
        self.observation_spaces = {
            a: spaces.Dict({obs_key: obs_box, "action_mask": mask_box})
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(spec.num_actions) for a in self.possible_agents}
        self.state_space = spaces.Box(-1.0, 1.0, (spec.state_size,), np.float32)
        self.render_seat = None  # None: render every card; a seat: that player's view
        self.agents = []
        self._state_buf = np.zeros(spec.state_size, np.float32)

    # ------------------------------------------------------------ PettingZoo API

    def observation_space(self, agent):
        """The Dict space of ``observation`` (float32) and ``action_mask`` (int8)."""
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """``Discrete(num_actions)``."""
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        """Deal a new game; ``seed`` fixes it (same seed, same game, in any process).

        ``options`` is accepted for PettingZoo compatibility and unused: game options
        are fixed by the constructor.
        """
        self._game.reset(seed)
        self._start_agents()

    def _start_agents(self):
        """Fresh PettingZoo bookkeeping for a game that is (re)starting from the record."""
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._sync()

    def observe(self, agent):
        """The agent's observation dict (fresh arrays)."""
        i = self._index[agent]
        return {self.obs_key: self._game.observe(i).copy(),
                "action_mask": self._game.legal_mask(i).copy()}

    def step(self, action):
        """Apply the selected agent's action (None for an agent whose game has ended)."""
        if not self._game.started:
            raise RuntimeError(f"{self.SPEC.name}: call reset() before step()")
        if not self.agents:
            raise RuntimeError(f"{self.SPEC.name}: the game is over and every agent has been "
                               "stepped with None; call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            a = self._game.check(action, agent)
        except IllegalActionError:
            if self.illegal == "raise":
                raise
            self._lose(agent)
            return
        self._cumulative_rewards[agent] = 0.0
        self._game.step(a)
        self._sync()
        if self.render_mode == "human":
            self.render()

    def _sync(self):
        """Copy rewards, end flags and the next agent from the record into the dicts."""
        g = self._game
        rewards = g._rewards.tolist()
        cumulative = self._cumulative_rewards
        for i, a in enumerate(self.possible_agents):
            r = rewards[i]
            self.rewards[a] = r
            cumulative[a] += r
        if g._term[0] or g._trunc[0]:
            term, trunc = bool(g._term[0]), bool(g._trunc[0])
            for a in self.agents:
                self.terminations[a] = term
                self.truncations[a] = trunc
        self.agent_selection = self.possible_agents[g._cur[0]]

    def _lose(self, agent):
        """TerminateIllegalWrapper semantics: the offender loses, the game ends."""
        n = len(self.possible_agents)
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = -1.0 if a == agent else 1.0 / (n - 1)
            self.terminations[a] = True
        self.infos[agent] = {"illegal_action": True}
        rec = self._game.record
        rec["terminated"] = 1
        rec["rewards"][:n] = [self.rewards[a] for a in self.possible_agents]
        rec["returns"][:n] += rec["rewards"][:n]
        self._accumulate_rewards()

    def render(self):
        """The game (every card, or ``render_seat``'s view) as text, printed, or pixels.

        ``"ansi"``: the text; ``"human"``: prints it; ``"rgb_array"``: an ``(H, W, 3)``
        uint8 array of :meth:`render_svg`'s picture.
        """
        if self.render_mode is None:
            return None
        if not self._game.started:
            raise RuntimeError(f"{self.SPEC.name}: call reset() before render()")
        if self.render_mode == "rgb_array":
            return rasterize(self.SPEC.render_svg(self._game.record, self.render_seat))
        text = self.SPEC.render_ansi(self._game.record, self.render_seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        """Nothing to release."""

    def state(self):
        """Full state vector for centralized critics (every card visible)."""
        K.state_one(self._game.states, 0, self._state_buf)
        return self._state_buf.copy()

    # ------------------------------------------------------------ fatezoo extras

    def render_svg(self, seat=None) -> str:
        """SVG picture of the game for ``seat`` (None: every card)."""
        return self.SPEC.render_svg(self._game.record, seat)

    def _repr_svg_(self):
        return self.render_svg(self.render_seat) if self._game.started else None

    @property
    def record(self):
        """The live game record (a numpy structured scalar; writes change the game)."""
        return self._game.record

    @property
    def states(self):
        """The record as a batch of one (for batched kernels and agents)."""
        return self._game.states

    def sample_world(self, agent, seed=None) -> np.ndarray:
        """This game as ``agent`` may believe it is: a full record, resampled.

        Everything ``agent`` cannot see (other hands, face-down stacks, the RNG that
        decides what comes next) is redrawn by the game's ``determinize`` kernel, the one
        ISMCTS searches with; ``agent``'s observation and legal mask are the same in every
        sample, and this env's game is not changed. Play a sample on in another env of
        the same options with ``other.load_state(world.tobytes())``. With an int ``seed``
        it is record 0 of ``VecEnv.sample_worlds`` over this record with ``rng=seed``.

        Args:
            agent: the viewer (``"player_0"``, ...).
            seed: a non-negative int, a ``numpy.random.Generator`` or None (fresh entropy).

        Returns:
            A (1,) array of the game's ``state_dtype``.
        """
        if not self._game.started:
            raise RuntimeError(f"{self.SPEC.name}: call reset() before sample_world()")
        if not isinstance(agent, str) or agent not in self._index:
            raise ValueError(f"{self.SPEC.name}: agent must be one of {self.possible_agents}, "
                             f"got {agent!r}")
        return sample_records(self.SPEC, self._game.states, self._index[agent], seed)

    def save_state(self) -> bytes:
        """The whole game, RNG included, as bytes."""
        return self._game.save()

    def load_state(self, data: bytes) -> None:
        """Restore a game saved by :meth:`save_state`, validated before any kernel runs.

        The record is checked whole (header, every game field the kernels index with, a
        legal action if the game is running) and must carry this env's options
        (``num_players``, ``max_turns``, ``reward`` and the game's own): a save made
        with other options is refused, naming the option; the env never adopts them, so
        ``env.options`` always describes the game. A refused state changes nothing.

        Raises:
            TypeError: ``data`` is not bytes.
            ValueError: a corrupt record or other options (one line naming the field).
        """
        self._game.load(data)
        self._start_agents()

    def game_record(self) -> dict:
        """A small JSON-able record of this game: replays exactly with ``fatezoo replay``.

        Raises:
            ValueError: the game was restored by :meth:`load_state` (its history is unknown).
        """
        if self._game.seed is None:
            raise ValueError(f"{self.SPEC.name}: a game restored by load_state() has no seed "
                             "and action history to record")
        return {"game": self.SPEC.name, "options": dict(self.options),
                "seed": self._game.seed, "actions": list(self._game.actions)}

    def save_game(self, path) -> None:
        """Write :meth:`game_record` as JSON to ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.game_record(), f, indent=1)

    def legal_actions(self) -> list[int]:
        """Legal action ids of the selected agent."""
        return np.flatnonzero(self._game.legal_mask(self._index[self.agent_selection])).tolist()

    def action_name(self, action: int) -> str:
        """Human-readable name of an action id."""
        return self.SPEC.action_names[int(action)]
