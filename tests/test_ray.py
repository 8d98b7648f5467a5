"""Ray: the arena on Ray workers equals the local arena; RLlib training (the ``ray`` extra).

Everything but the import test is skipped when ray is not installed. The tests share one
local Ray with 2 CPUs, started here.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from fatezoo.training.arena import run_arena
from fatezoo.training.cli import main

GAME = "fatefell"
OPTIONS = {"seasons": 1}


def test_fatezoo_and_its_cli_import_no_ray():
    code = ("import sys, fatezoo, fatezoo.training.cli, fatezoo.training.arena; "
            "fatezoo.training.cli.build_parser('fatefell'); "
            "print(sorted(m for m in sys.modules if m == 'ray' or m.startswith('ray.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray", reason="the ray extra is not installed "
                                            "(pip install 'fatezoo[ray]')")
    ray.init(num_cpus=2, include_dashboard=False, configure_logging=False)
    yield ray
    ray.shutdown()


def without_seconds(result: dict) -> dict:
    return {k: v for k, v in result.items() if k != "seconds"}


@pytest.mark.parametrize("num_players,specs", [
    (2, ["random", "heuristic", "ismcts:sims=8"]),
    (3, ["random", "heuristic"]),
])
def test_ray_arena_equals_the_local_arena(local_ray, num_players, specs):
    from fatezoo.training.ray_arena import run_ray_arena

    kwargs = dict(games=60, num_players=num_players, seed=5, batch=16, options=OPTIONS)
    local = without_seconds(run_arena(GAME, specs, **kwargs))
    assert len(set(map(tuple, np.asarray(
        [[local["wins"][a][b] for b in local["agents"] if b != a]
         for a in local["agents"]])))) > 1  # not all alike: the comparison has teeth
    for workers, chunk in ((1, None), (2, None), (2, 7), (3, 1)):
        got = run_ray_arena(GAME, specs, workers=workers, chunk=chunk, **kwargs)
        assert without_seconds(got) == local, f"workers={workers} chunk={chunk} differ"


def test_ray_arena_reruns_the_games_of_a_killed_worker(local_ray, tmp_path):
    from fatezoo.training.ray_arena import run_ray_arena

    kwargs = dict(games=48, seed=11, batch=8, options=OPTIONS)
    local = without_seconds(run_arena(GAME, ["random", "heuristic"], **kwargs))
    marker = tmp_path / "killed"
    got = run_ray_arena(GAME, ["random", "heuristic"], workers=2, chunk=8,
                        kill_once=str(marker), **kwargs)
    assert marker.exists()  # a worker really was killed mid-arena
    assert without_seconds(got) == local


def test_ray_arena_gives_up_after_the_reruns_with_one_line(local_ray, tmp_path):
    from fatezoo.training.ray_arena import run_ray_arena

    with pytest.raises(RuntimeError, match=r"games 0\.\.7 failed after 0 reruns"):
        run_ray_arena(GAME, ["random", "heuristic"], games=8, batch=8, workers=1, chunk=8,
                      max_retries=0, kill_once=str(tmp_path / "killed"), options=OPTIONS)


def test_cli_arena_ray_json_equals_the_local_json(local_ray, capsys):
    args = ["arena", GAME, "--agents", "random,heuristic", "--games", "40", "--seed", "2",
            "--seasons", "1", "--json", "--no-progress"]
    assert main(args) == 0
    local = json.loads(capsys.readouterr().out)
    assert main(args + ["--ray", "--ray-workers", "2"]) == 0
    out = capsys.readouterr()
    assert without_seconds(json.loads(out.out)) == without_seconds(local)


@pytest.mark.parametrize("extra,expected", [
    (["--ray-workers", "2"], "--ray-workers needs --ray"),
    (["--ray", "--ray-workers", "0"], "workers must be a positive int or None, got 0"),
])
def test_cli_arena_ray_bad_flags_are_one_line(capsys, extra, expected):
    if "--ray" in extra:
        pytest.importorskip("ray", reason="the ray extra is not installed")
    rc = main(["arena", GAME, "--agents", "random,heuristic", "--games", "4"] + extra)
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and expected in err, err
