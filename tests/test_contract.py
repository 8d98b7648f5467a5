"""The contract, run against every registered game, player count and declared option set.

No game is named here: each game's ``spec.evaluation.contract_options`` says which option sets the
option-aware checks (fuzz, the no-JIT comparison) run with, besides the defaults.
"""

import json

import pytest

import fatezoo
from fatezoo.envs.core import testing as T
from fatezoo.envs.core.registry import get_spec

CASES = [(g, n) for g in fatezoo.GAMES for n in T.player_counts(g)]
IDS = [f"{g}-{n}p" for g, n in CASES]


def option_sets(game: str) -> list[dict]:
    """The defaults ({}) first, then the game's declared contract option sets."""
    return [{}] + [dict(o) for o in get_spec(game).evaluation.contract_options if o]


def _opt_id(options: dict) -> str:
    return json.dumps(options, sort_keys=True, separators=(",", ":")) if options else "defaults"


OPT_CASES = [(g, n, o) for g, n in CASES for o in option_sets(g)]
OPT_IDS = [f"{g}-{n}p-{_opt_id(o)}" for g, n, o in OPT_CASES]
GAME_OPTS = [(g, o) for g in fatezoo.GAMES for o in option_sets(g)]
GAME_OPT_IDS = [f"{g}-{_opt_id(o)}" for g, o in GAME_OPTS]


@pytest.mark.parametrize("game,n", CASES, ids=IDS)
def test_pettingzoo_api(game, n):
    T.check_pettingzoo(game, n, num_cycles=1000)


@pytest.mark.parametrize("game", fatezoo.GAMES)
def test_gym_check_env(game):
    T.check_gym(game)


@pytest.mark.parametrize("game", fatezoo.GAMES)
def test_pickle(game):
    T.check_pickle(game)


@pytest.mark.parametrize("game,n,options", OPT_CASES, ids=OPT_IDS)
def test_fuzz(game, n, options, long_run):
    spec = get_spec(game)
    games = 100_000 if long_run else (spec.evaluation.fuzz_option_games if options
                                    else spec.evaluation.fuzz_games)
    report = T.fuzz(game, n, games=games, seed=n + (10 if options else 0),
                    sample_rows=spec.evaluation.fuzz_sample_rows, **options)
    assert report["games"] == games
    assert report["terminated"] + report["truncated"] == report["games"]


@pytest.mark.parametrize("game", fatezoo.GAMES)
def test_determinism(game):
    T.check_determinism(game, get_spec(game).min_players)


@pytest.mark.parametrize("game,options", GAME_OPTS, ids=GAME_OPT_IDS)
def test_nojit_matches_jit(game, options):
    T.check_nojit(game, get_spec(game).min_players, **options)


@pytest.mark.parametrize("game,n", CASES, ids=IDS)
def test_save_load_clone(game, n):
    T.check_save_load(game, n)


@pytest.mark.parametrize("game,n", CASES, ids=IDS)
def test_hidden_information(game, n):
    T.check_hidden_info(game, n)


@pytest.mark.parametrize("game", fatezoo.GAMES)
def test_bad_input(game):
    T.check_bad_input(game)


@pytest.mark.parametrize("game,options", GAME_OPTS, ids=GAME_OPT_IDS)
def test_end_flags_agree_with_the_end_state(game, options):
    T.check_end_flags(game, get_spec(game).min_players, **options)


# every game under spawn; forkserver (the same pickling path, another start) on the first
SUBPROCESS_CASES = [(g, "spawn") for g in fatezoo.GAMES] + [(fatezoo.GAMES[0], "forkserver")]


@pytest.mark.parametrize("game,context", SUBPROCESS_CASES)
def test_subprocess_vector_env(game, context):
    T.check_vector_subprocess(game, context)


@pytest.mark.parametrize("game", fatezoo.GAMES)
def test_truncation(game):
    report = T.fuzz(game, get_spec(game).min_players, games=200, seed=3, max_turns=4)
    assert report["truncated"] == 200 and report["terminated"] == 0


def test_check_game_battery_runs():
    # the battery game authors call, on the shipped game quickest to compile, at its most
    # seats (the kit's tests run it on the kit's game); each of its checks also runs on
    # its own, per game and player count, above and in test_clients and test_load_safety,
    # so one game here and small counts
    game = min(fatezoo.GAMES,
               key=lambda g: sum(get_spec(g).evaluation.compile_seconds.values()))
    T.check_game(game, num_players=T.player_counts(game)[-1], fuzz_games=50, mutations=200)


@pytest.mark.parametrize("game,n", CASES, ids=IDS)
def test_sample_worlds(game, n):
    T.check_sample_worlds(game, n)
