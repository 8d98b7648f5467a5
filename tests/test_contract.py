"""The contract, run against every registered game and player count."""

import pytest

import fatezoo
from fatezoo.envs.core import testing as T

CASES = [(g, n) for g in fatezoo.GAMES for n in T.player_counts(g)]
IDS = [f"{g}-{n}p" for g, n in CASES]


@pytest.mark.parametrize("game,n", CASES, ids=IDS)
def test_pettingzoo_api(game, n):
    T.check_pettingzoo(game, n, num_cycles=1000)


@pytest.mark.parametrize("game", fatezoo.GAMES)
def test_gym_check_env(game):
    T.check_gym(game)


@pytest.mark.parametrize("game", fatezoo.GAMES)
def test_pickle(game):
    T.check_pickle(game)


@pytest.mark.parametrize("game,n", CASES, ids=IDS)
def test_fuzz(game, n, long_run):
    report = T.fuzz(game, n, games=100_000 if long_run else 2000, seed=n)
    assert report["terminated"] + report["truncated"] == report["games"]


@pytest.mark.parametrize("game,n", CASES, ids=IDS)
def test_fuzz_advanced(game, n):
    if game != "fatefell":
        pytest.skip("fatefell option")
    T.fuzz(game, n, games=300, seed=10 + n, advanced=True, reward="score")


@pytest.mark.parametrize("game", fatezoo.GAMES)
def test_determinism(game):
    T.check_determinism(game, 2)


@pytest.mark.parametrize("game", fatezoo.GAMES)
def test_nojit_matches_jit(game):
    T.check_nojit(game, 2)


@pytest.mark.parametrize("game,n", CASES, ids=IDS)
def test_save_load_clone(game, n):
    T.check_save_load(game, n)


@pytest.mark.parametrize("game,n", CASES, ids=IDS)
def test_hidden_information(game, n):
    T.check_hidden_info(game, n)


@pytest.mark.parametrize("game", fatezoo.GAMES)
def test_bad_input(game):
    T.check_bad_input(game)


@pytest.mark.parametrize("context", ["spawn", "forkserver"])
def test_subprocess_vector_env(context):
    T.check_vector_subprocess("fatefell", context)


@pytest.mark.parametrize("game", fatezoo.GAMES)
def test_truncation(game):
    report = T.fuzz(game, 2, games=200, seed=3, max_turns=10)
    assert report["truncated"] == 200 and report["terminated"] == 0


def test_check_game_battery_runs():
    T.check_game("fatefell", num_players=3, fuzz_games=50)
