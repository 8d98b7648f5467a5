"""Held-out setups: every game's ``split`` option, checked against its own classifier.

Each game declares ``setup_split(record) -> "train" | "test"`` apart from the reset kernel
that deals setups; here every game's ``train`` env deals only ``train`` setups, its
``test`` env only ``test`` ones (also after auto-resets), the spaces are the same across
splits, and the CLI's ``train`` and ``eval`` take the option. Each game's own test file
checks its split with hand-built expectations.
"""

from __future__ import annotations

import json

import gymnasium
import numpy as np
import pytest

import fatezoo
from fatezoo.envs.core import testing as T
from fatezoo.envs.core.registry import game_names, get_spec
from fatezoo.training.cli import main
from fatezoo.training.options import TrainOptions

GAMES = game_names()


def dealt(game: str, split: str, n: int, games: int = 256, seed: int = 11) -> list[str]:
    """The classes of ``games`` setups dealt at reset and after auto-resets."""
    vec = fatezoo.make_vec(game, num_envs=games, seed=seed, num_players=n, split=split,
                           max_turns=3)
    vec.reset()
    spec = get_spec(game)
    kinds = [spec.setup_split(r) for r in vec.states]
    rng = np.random.default_rng(seed)
    for _ in range(12):  # short games: each ends and a new one is dealt in its row
        obs, mask, player, rewards, term, trunc = vec.step(
            (rng.random(vec.mask.shape) * vec.mask).argmax(1))
        ended = np.flatnonzero(term | trunc)
        kinds += [spec.setup_split(vec.states[i]) for i in ended]
    return kinds


@pytest.mark.parametrize("game", GAMES)
def test_every_game_declares_a_split_with_its_classifier(game):
    spec = get_spec(game)
    assert spec.option_defaults.get("split") == "all"
    assert spec.setup_split is not None
    assert any(o.get("split") == "test" for o in spec.evaluation.contract_options), \
        "the contract's option-aware checks should run on test setups"
    with pytest.raises(ValueError, match=f"{game}: split must be one of 'all', 'train', "
                                         "'test', got 'valid'"):
        fatezoo.make(game, split="valid")


@pytest.mark.parametrize("game,n", [(g, n) for g in GAMES for n in T.player_counts(g)])
def test_no_setup_crosses_its_split(game, n):
    # (what split=all deals at the game's defaults is each game's own test: Fatefell's
    # default game has no random seasons, so only train ones)
    train, test = dealt(game, "train", n), dealt(game, "test", n)
    assert set(train) == {"train"}, f"{game}: a train env dealt a test setup"
    assert set(test) == {"test"}, f"{game}: a test env dealt a train setup"


@pytest.mark.parametrize("game", GAMES)
def test_split_all_is_the_default_and_deals_todays_games(game):
    """The default deals byte for byte what ``split="all"`` deals (the golden transcripts pin
    those games to the ones dealt before the option existed), under every contract option
    set too."""
    spec = get_spec(game)
    for options in [{}] + [{k: v for k, v in o.items() if k != "split"}
                           for o in spec.evaluation.contract_options]:
        a = fatezoo.make_vec(game, num_envs=64, seed=3, **options)
        b = fatezoo.make_vec(game, num_envs=64, seed=3, split="all", **options)
        a.reset()
        b.reset()
        assert (a.states["split"] == 0).all() and (b.states["split"] == 0).all()
        assert a.states.tobytes() == b.states.tobytes(), options


@pytest.mark.parametrize("game", GAMES)
def test_spaces_are_the_same_across_splits(game):
    spaces = []
    for split in ("all", "train", "test"):
        env = gymnasium.make(get_spec(game).gym_id, opponent="random", split=split)
        env.reset(seed=0)
        spaces.append((env.observation_space, env.action_space))
        env.close()
    assert spaces[0] == spaces[1] == spaces[2]


def test_training_defaults_to_the_train_split_and_eval_takes_the_test_split(capsys):
    assert TrainOptions("fatefell").game_options == {"split": "train"}
    assert TrainOptions("fatefell", game_options={"split": "all"}).game_options == \
        {"split": "all"}
    status = main(["eval", "fatefell", "heuristic", "--games", "2", "--json", "--no-progress",
                   "--option", "split=test"])
    out, _ = capsys.readouterr()
    card = json.loads(out)
    assert status == 0 and card["own_options"] == {"split": "test"}
    assert card["options"] == {"reward": "win", "split": "test"}
    (c,) = card["cards"]
    assert "this card's options" in c["anchors"]["source"]
    status = main(["eval", "fatefell", "heuristic", "--reward", "score"])
    _, err = capsys.readouterr()
    assert status == 2 and "protocol v1 fixes reward='win'" in err and err.count("\n") == 1
