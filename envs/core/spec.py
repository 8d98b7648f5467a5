"""What a game folder hands the core: one :class:`GameSpec` per game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .state import MAX_PLAYERS, REWARD_MODES


class IllegalActionError(ValueError):
    """An action that is out of range, of the wrong type, or masked out."""


@dataclass(frozen=True)
class GameSpec:
    """Everything the shared core needs to know about one game.

    Attributes:
        name: env name, snake_case (``"fatefell"``).
        gym_id: gymnasium id (``"fatezoo/Fatefell-v0"``).
        min_players: fewest seats.
        max_players: most seats.
        num_actions: size of the fixed ``Discrete`` action space.
        obs_size: length of an observation vector.
        state_size: length of ``state_tensor`` vectors.
        state_dtype: the record dtype.
        obs_layout: observation field name -> slice.
        obs_docs: observation field name -> meaning.
        action_names: one short name per action id.
        configure: ``(**options) -> dict`` of record fields; raises on bad options.
        check_record: ``(record) -> None``; raises ValueError on a corrupt record.
        render_ansi: ``(record, seat | None) -> str``.
        render_svg: ``(record, seat | None) -> str``.
        determinize: ``(record, player, np.random.Generator) -> None`` (in place).
        heuristic: ``(obs (B, D), masks (B, A), rng words (B, 4)) -> actions (B,)``.
        default_max_turns: truncation limit in player turns.
        option_defaults: the game's own options and defaults (for the CLI and docs).
        format_version: the record format, stored in each record's ``<game>_format``.
        rollout_depth: ISMCTS rollout decisions before the game's ``evaluate`` scores
            the position (0: rollouts play to the end).
    """

    name: str
    gym_id: str
    min_players: int
    max_players: int
    num_actions: int
    obs_size: int
    state_size: int
    state_dtype: np.dtype
    obs_layout: dict
    obs_docs: dict
    action_names: tuple
    configure: Callable[..., dict]
    check_record: Callable[[Any], None]
    render_ansi: Callable
    render_svg: Callable
    determinize: Callable
    heuristic: Callable | None = None
    default_max_turns: int = 1000
    option_defaults: dict = field(default_factory=dict)
    format_version: int = 1
    rollout_depth: int = 0

    def options(self, num_players=2, max_turns=None, reward="win", **game_options) -> dict:
        """Validate the common and game options; return the record fields they set."""
        if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)):
            raise TypeError(f"{self.name}: num_players must be an int, got {num_players!r}")
        if not self.min_players <= num_players <= min(self.max_players, MAX_PLAYERS):
            raise ValueError(f"{self.name}: num_players must be in "
                             f"[{self.min_players}, {self.max_players}], got {num_players!r}")
        if max_turns is None:
            max_turns = self.default_max_turns
        if isinstance(max_turns, bool) or not isinstance(max_turns, (int, np.integer)) \
                or max_turns < 1:
            raise ValueError(f"{self.name}: max_turns must be a positive int, got {max_turns!r}")
        if reward not in REWARD_MODES:
            raise ValueError(f"{self.name}: reward must be one of {sorted(REWARD_MODES)}, "
                             f"got {reward!r}")
        unknown = set(game_options) - set(self.option_defaults)
        if unknown:
            raise TypeError(f"{self.name}: unknown option(s) {sorted(unknown)}; "
                            f"expected some of {sorted(self.option_defaults)}")
        fields = {"num_players": int(num_players), "max_turns": int(max_turns),
                  "reward_mode": REWARD_MODES[reward]}
        fields.update(self.configure(**game_options))
        return fields

    def new_states(self, batch: int, fields: dict) -> np.ndarray:
        """Return ``batch`` zeroed records with the option ``fields`` written in."""
        states = np.zeros(batch, self.state_dtype)
        states[f"{self.name}_format"] = self.format_version
        for name, value in fields.items():
            states[name] = value
        return states
