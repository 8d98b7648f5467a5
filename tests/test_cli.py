"""Smoke tests of the ``fatezoo`` command line, run as subprocesses with tiny budgets.

Speed is never asserted here: the benchmark is only checked for its shape.
"""

import io
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import fatezoo
from fatezoo.agents import make_agent
from fatezoo.agents.human import parse_choice
from fatezoo.training.arena import make_lineups, run_arena, split_agents, wilson_interval
from fatezoo.training.play import play
from fatezoo.training.progress import Progress
from fatezoo.training.replay import ReplayError, replay_record

CLI = [sys.executable, "-m", "fatezoo.training.cli"]
GAME = "fatefell"


def run_cli(*args, stdin=None, timeout=600, **env_vars):
    env = dict(os.environ, PYTHONUNBUFFERED="1", **env_vars)
    return subprocess.run(CLI + [str(a) for a in args], input=stdin, capture_output=True,
                          text=True, timeout=timeout, env=env)


def played_game(tmp_path, seed=5, **options):
    """Play a seeded game (heuristic vs random) on the AEC env; save its record."""
    env = fatezoo.make(GAME, render_mode="ansi", **options)
    env.reset(seed=seed)
    agents = {"player_0": make_agent("heuristic", GAME, seed=1),
              "player_1": make_agent("random", GAME, seed=2)}
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc
                 else agents[agent].act(obs["observation"], obs["action_mask"]))
    path = tmp_path / "game.json"
    env.unwrapped.save_game(path)
    return env, path


def test_list():
    out = run_cli("list")
    assert out.returncode == 0, out.stderr
    spec = fatezoo.envs.get_spec(GAME)
    line = next(ln for ln in out.stdout.splitlines() if ln.startswith(GAME))
    assert "2-4" in line and str(spec.num_actions) in line and str(spec.obs_size) in line
    rows = json.loads(run_cli("list", "--json").stdout)
    assert {r["game"] for r in rows} == set(fatezoo.GAMES)


def test_arena_json_counts_add_up():
    out = run_cli("arena", GAME, "--agents", "random,heuristic", "--games", 20, "--json",
                  "--batch", 8)
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout)
    assert res["agents"] == ["random", "heuristic"]
    for key in ("matrix", "counts", "ci", "ratings", "wins", "ties", "losses"):
        assert key in res
    assert set(res["matrix"]) == {"random", "heuristic"}
    assert set(res["matrix"]["random"]) == {"heuristic"}
    # 2 players: each game is one pairing of the two agents, seen from both sides
    assert res["counts"]["random"]["heuristic"] == res["counts"]["heuristic"]["random"] == 20
    for a, b in (("random", "heuristic"), ("heuristic", "random")):
        assert res["wins"][a][b] + res["ties"][a][b] + res["losses"][a][b] == 20
        assert res["wins"][a][b] == res["losses"][b][a]
        lo, hi = res["ci"][a][b]
        assert 0.0 <= lo <= res["matrix"][a][b] <= hi <= 1.0
    assert res["matrix"]["random"]["heuristic"] + res["matrix"]["heuristic"]["random"] == \
        pytest.approx(1.0)
    # seats rotated: every agent held every seat equally often
    assert res["per_agent"]["random"]["seat_games"] == [10, 10]
    assert res["per_agent"]["heuristic"]["seat_games"] == [10, 10]
    for r in res["ratings"].values():
        assert r["ci"][0] < r["rating"] < r["ci"][1]
    assert res["rating_model"].startswith("plackett-luce")
    # the heuristic scores more than half against random, so it is rated higher
    higher = res["matrix"]["heuristic"]["random"] > 0.5
    assert (res["ratings"]["heuristic"]["rating"] > res["ratings"]["random"]["rating"]) \
        == higher


def test_arena_text_and_bad_agent():
    out = run_cli("arena", GAME, "--agents", "random,heuristic", "--games", 4, "--seasons", 1)
    assert out.returncode == 0, out.stderr
    assert "win rate of row vs column" in out.stdout and "ratings" in out.stdout
    assert "game length (decisions asked of the agents): median " in out.stdout
    # stderr is not a terminal: progress is a line (the last one when the games are done)
    assert f"{GAME} arena: 4/4 games (100%)" in out.stderr and "; done" in out.stderr
    assert "\r" not in out.stderr
    quiet = run_cli("arena", GAME, "--agents", "random,heuristic", "--games", 4, "--seasons", 1,
                    "--no-progress")
    assert quiet.returncode == 0 and f"{GAME} arena:" not in quiet.stderr
    bad = run_cli("arena", GAME, "--agents", "random,nobody", "--games", 4)
    assert bad.returncode == 2 and "unknown agent spec 'nobody'" in bad.stderr


def test_arena_search_agent_and_plot(tmp_path):
    png = tmp_path / "arena.png"
    out = run_cli("arena", GAME, "--agents", "ismcts:sims=4,depth=5,random", "--games", 2,
                  "--seasons", 1, "--plot", png)
    assert out.returncode == 0, out.stderr
    assert "ismcts:sims=4,depth=5" in out.stdout and "random" in out.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_split_agents_keeps_search_options_together():
    assert split_agents("random, ismcts:sims=8,c=2,heuristic,ppo:a/b.zip") == [
        "random", "ismcts:sims=8,c=2", "heuristic", "ppo:a/b.zip"]


def test_arena_api_three_players():
    res = run_arena(GAME, ["random", "heuristic"], games=12, num_players=3, seed=1, batch=5,
                    options={"seasons": 1})
    assert len(res["lineups"]) == 6
    assert sum(res["per_agent"][a]["games"] for a in res["agents"]) == 12 * 3
    # the same seed gives the same arena, whatever the batch size
    again = run_arena(GAME, ["random", "heuristic"], games=12, num_players=3, seed=1,
                      batch=12, options={"seasons": 1})
    assert again["wins"] == res["wins"] and again["ties"] == res["ties"]
    assert again["ratings"] == res["ratings"]  # batches end at other games: same fit


def test_lineups_balanced():
    for k, n in ((2, 2), (3, 2), (2, 3), (3, 3), (4, 3), (2, 4)):
        lineups = np.array(make_lineups(k, n))
        for agent in range(k):
            per_seat = (lineups == agent).sum(axis=0)
            assert (per_seat == per_seat[0]).all() and per_seat[0] > 0


def test_wilson_interval():
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_bench_json_shape():
    out = run_cli("bench", GAME, "--seconds", 0.3, "--envs", 64, "--json")
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout)
    assert res["game"] == GAME
    for key in ("core", "core_view", "core_mixed", "kernel", "aec", "connect_four", "gym",
                "memory_floor", "openspiel"):
        assert key in res["results"]
    for key in ("core", "core_mixed", "kernel", "aec", "gym", "memory_floor"):
        assert res["results"][key]["steps"] > 0
    assert res["results"]["core_mixed"]["num_players"] == "2-4, drawn uniformly"
    assert res["ratios"]["core_mixed_vs_core"] == pytest.approx(
        res["results"]["core_mixed"]["steps_per_s"] / res["results"]["core"]["steps_per_s"])
    for key in ("core_vs_aec", "aec_us_vs_connect_four_us", "core_vs_memory_floor"):
        assert key in res["ratios"]
    assert set(res["targets"]) == {"core_vs_memory_floor", "core_steps_per_s",
                                   "aec_us_vs_connect_four_us"}
    floor = res["targets"]["core_vs_memory_floor"]
    assert floor["target"] == 0.25 and floor["op"] == ">="
    assert floor["value"] == pytest.approx(res["results"]["core"]["steps_per_s"]
                                           / res["results"]["memory_floor"]["steps_per_s"])
    assert floor["status"] == ("PASS" if floor["value"] >= 0.25 else "MISS")
    for check in res["targets"].values():
        assert check["status"] in ("PASS", "MISS", "SKIP")
    assert res["status"] in ("PASS", "MISS", "SKIP")


def test_bench_all_is_one_table_over_every_game(monkeypatch, capsys):
    # The table's shape, not the speeds, is under test: the kernels run as plain Python
    # (NUMBA_DISABLE_JIT), so this process does not compile every game's kernels a second
    # time (minutes of CPU in a fresh environment). The contract's no-JIT check covers
    # that the kernels run the same without numba.
    out = run_cli("bench", "--seconds", 0.05, "--envs", 16, "--json", timeout=1800,
                  NUMBA_DISABLE_JIT="1")
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout)
    assert [r["game"] for r in res["games"]] == list(fatezoo.GAMES)
    assert [r["game"] for r in res["table"]] == list(fatezoo.GAMES)
    for row, rep in zip(res["table"], res["games"]):
        assert row["core_steps_per_s"] == rep["results"]["core"]["steps_per_s"]
        assert row["status"] == rep["status"]
        assert row["bench_floor"] == float(fatezoo.envs.get_spec(row["game"])
                                                   .evaluation.bench_floor)
    # the table form of the same reports, through the CLI (the benches themselves ran above)
    from fatezoo.training import bench

    reports = iter(res["games"])
    monkeypatch.setattr(bench, "run_bench", lambda game, **kw: next(reports))
    rc, stdout, stderr = cli_in_process(capsys, "bench", "all", "--seconds", 0.05, "--envs", 16)
    assert rc == 0, stderr
    lines = stdout.splitlines()
    header = next(i for i, ln in enumerate(lines) if ln.startswith("game "))
    assert "core/memory floor" in lines[header] and "status" in lines[header]
    rows = [ln.split()[0] for ln in lines[header + 1:header + 1 + len(fatezoo.GAMES)]]
    assert rows == list(fatezoo.GAMES)


def test_bench_core_times_views_when_step_takes_copy(monkeypatch):
    from fatezoo.training import bench

    real = bench.fatezoo.make_vec
    seen = []

    class CopyingVec:
        """A VecEnv whose step copies by default and returns views with copy=False."""

        def __init__(self, vec):
            self.vec = vec

        def reset(self):
            return self.vec.reset()

        def step(self, actions, copy=True):
            seen.append(copy)
            out = self.vec.step(actions)
            return tuple(x.copy() for x in out) if copy else out

    monkeypatch.setattr(bench.fatezoo, "make_vec", lambda *a, **k: CopyingVec(real(*a, **k)))
    view = bench.bench_core(GAME, 8, 0.01, copy=False)
    assert view["steps"] > 0 and view["copy"] is False and set(seen) == {False}
    seen.clear()
    default = bench.bench_core(GAME, 8, 0.01)
    assert default["copy"] == "default" and set(seen) == {True}
    monkeypatch.setattr(bench.fatezoo, "make_vec", real)


def test_replay_matches_env(tmp_path):
    env, path = played_game(tmp_path, seasons=1)
    final = env.render()
    out = run_cli("replay", path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.rstrip("\n").endswith(final)
    n_actions = len(json.loads(path.read_text())["actions"])
    assert out.stdout.count("\nstep ") == n_actions
    last = run_cli("replay", path, "--last", "--seat", 1)
    assert last.stdout.strip() == fatezoo.envs.get_spec(GAME).render_ansi(
        env.unwrapped.record, 1).strip()


def test_replay_errors(tmp_path):
    _, path = played_game(tmp_path, seasons=1)
    data = json.loads(path.read_text())
    cases = {
        "missing": ({"game": GAME, "seed": 0}, "missing key(s) ['options', 'actions']"),
        "game": (dict(data, game="nosuch"), "unknown game 'nosuch'"),
        "illegal": (dict(data, actions=[0, 0, 0]),
                    "step 1: fatefell: player_0 gave illegal action 0"),
        "extra": (dict(data, actions=data["actions"] + [0]), "already over"),
    }
    for name, (record, message) in cases.items():
        bad = tmp_path / f"{name}.json"
        bad.write_text(json.dumps(record))
        out = run_cli("replay", bad)
        assert out.returncode == 2, name
        assert message in out.stderr, (name, out.stderr)
    notjson = tmp_path / "x.json"
    notjson.write_text("not json")
    assert "is not JSON" in run_cli("replay", notjson).stderr
    with pytest.raises(ReplayError, match="seat must be in"):
        replay_record(data, seat=5)


def test_play_scripted_stdin():
    out = run_cli("play", GAME, "--seed", 3, "--opponent", "random",
                  stdin="hello\n999\n\n0\nq\n")
    assert out.returncode == 0, out.stderr
    assert "error: not an action id: 'hello'" in out.stdout
    assert "error: action 999 is out of range" in out.stdout
    assert "player_0 (you): draw from the draw pile" in out.stdout
    assert "quitting" in out.stdout
    # EOF quits cleanly too
    eof = run_cli("play", GAME, "--seed", 3, stdin="")
    assert eof.returncode == 0 and "end of input" in eof.stdout


def test_play_whole_game_in_process(tmp_path):
    """Always answering the first legal action finishes a game; the record replays."""
    spec = fatezoo.envs.get_spec(GAME)

    class FirstLegal(io.StringIO):
        """Answers each prompt with the first legal id listed just before it."""

        def __init__(self, out):
            super().__init__()
            self.out = out

        def readline(self, *args):
            listing = self.out.getvalue().rsplit("legal actions:\n", 1)[1]
            return listing.split()[0] + "\n"

    out = io.StringIO()
    save = tmp_path / "played.json"
    assert play(GAME, seat=1, opponent="random", seed=4, options={"seasons": 1},
                stdin=FirstLegal(out), stdout=out, save=str(save)) == 0
    text = out.getvalue()
    assert "result:" in text and "error" not in text
    record = json.loads(save.read_text())
    frames = replay_record(record, seat=1)
    assert "game over" in frames[-1]
    assert spec.name == record["game"]


def test_parse_choice():
    mask = np.zeros(5, np.int8)
    mask[[1, 3]] = 1
    assert parse_choice(" 3 ", mask) == (3, None)
    assert "not legal" in parse_choice("2", mask)[1]
    assert "out of range" in parse_choice("-1", mask)[1]
    assert "not an action id" in parse_choice("x", mask)[1]


def test_progress_bar_draws_only_when_enabled():
    buf = io.StringIO()
    with Progress(10, "games", stream=buf) as bar:  # StringIO is not a tty
        bar.update(10)
    assert buf.getvalue() == ""
    with Progress(10, "games", stream=buf, enabled=True, interval=0) as bar:
        bar.update(4)
        bar.update(6)
    assert "10/10" in buf.getvalue() and buf.getvalue().endswith("\n")


def test_unknown_game_is_a_clear_error():
    out = run_cli("arena", "nosuch", "--games", 2)
    assert out.returncode == 2 and "unknown game 'nosuch'" in out.stderr


def cli_in_process(capsys, *args):
    """Run the CLI in this process: (exit status, stdout, stderr)."""
    from fatezoo.training.cli import main

    rc = main([str(a) for a in args])
    out = capsys.readouterr()
    return rc, out.out, out.err


def assert_one_line_error(rc, err, *needles):
    assert rc == 2, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and ": error: " in lines[0], err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


def test_missing_or_broken_ppo_checkpoint_is_one_line(tmp_path, capsys):
    missing = tmp_path / "nope.zip"
    rc, out, err = cli_in_process(capsys, "arena", GAME, "--agents", f"heuristic,ppo:{missing}",
                                  "--games", 2)
    assert_one_line_error(rc, err, "fatezoo arena: error: ppo: no checkpoint file at",
                          str(missing))
    rc, out, err = cli_in_process(capsys, "play", GAME, "--opponent", f"ppo:{missing}")
    assert_one_line_error(rc, err, "fatezoo play: error: ppo: no checkpoint file at")
    pytest.importorskip("sb3_contrib")
    junk = tmp_path / "junk.zip"
    junk.write_bytes(b"not a zip at all")
    rc, out, err = cli_in_process(capsys, "arena", GAME, "--agents", f"ppo:{junk},random",
                                  "--games", 2)
    assert_one_line_error(rc, err, "ppo: cannot load checkpoint", str(junk))


def test_plot_into_missing_folder_is_refused_before_any_game(tmp_path, capsys, monkeypatch):
    from fatezoo.training import arena

    def no_games(*args, **kwargs):
        raise AssertionError("games were played before the --plot path was checked")

    monkeypatch.setattr(arena, "run_arena", no_games)
    target = tmp_path / "no" / "such" / "arena.png"
    rc, out, err = cli_in_process(capsys, "arena", GAME, "--games", 5, "--plot", target)
    assert_one_line_error(rc, err, f"--plot '{target}'", "does not exist")
    rc, out, err = cli_in_process(capsys, "arena", GAME, "--games", 5, "--plot", tmp_path)
    assert_one_line_error(rc, err, "is a folder")
    assert out == ""


def test_human_agent_end_of_input_in_arena_is_one_line():
    out = run_cli("arena", GAME, "--agents", "human,random", "--games", 2, "--seasons", 1,
                  stdin="")
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr
    # a cold cache compiles first, and says so: those lines are fine
    lines = [ln for ln in out.stderr.strip().splitlines()
             if not ln.startswith((f"fatezoo: compiling {GAME} kernels for ",
                                   f"fatezoo: {GAME} kernels for "))]
    assert lines == [
        "fatezoo arena: error: human agent: end of input (stdin closed) while asking for an "
        "action"]


def test_help_says_ppo_loads_a_pickle():
    for command in ("arena", "play"):
        out = run_cli(command, "--help")
        text = " ".join(out.stdout.split())
        assert out.returncode == 0
        assert "ppo:PATH loads a MaskablePPO checkpoint, which is a pickle" in text, command
        assert "trusted files only" in text and "trust." in text


def test_play_help_command_explains_cards_and_how_to_win():
    out = io.StringIO()
    assert play(GAME, seed=3, stdin=io.StringIO("?\nhelp\nq\n"), stdout=out) == 0
    text = out.getvalue()
    intro = text.splitlines()[1]
    assert intro.startswith("how to win: ") and "lowest total wins" in intro
    assert text.count("card codes: value, Sun (s) or Moon (m), Character (C) or Skeleton "
                      "(S)") == 2
    assert "=..=  part of a completed Match" in text and "help, ?  this help" in text
    # the legal actions are listed again after the help, then the prompt
    after = text.rsplit("how to win: ", 1)[1]
    assert "legal actions:" in after and "quitting" in after


def test_game_text_falls_back_gracefully():
    from types import SimpleNamespace

    from fatezoo.agents.human import game_text, help_text

    bare = SimpleNamespace(render_ansi=len)  # a game with no texts at all
    assert game_text(bare, "how_to_win") is None
    assert "commands:" in help_text(bare) and "how to win" not in help_text(bare)
    own = SimpleNamespace(render_ansi=len, how_to_win="most points")
    assert game_text(own, "how_to_win") == "most points"


def test_cold_numba_cache_says_compiling(tmp_path):
    """On a fresh numba cache the arena says that kernels compile (then it is stopped)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1", NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    proc = subprocess.Popen(CLI + ["arena", GAME, "--games", "2", "--no-progress"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        first = proc.stderr.readline()  # blocks until the notice (or the end)
    finally:
        proc.kill()
        proc.communicate(timeout=60)
    assert first.startswith(f"fatezoo: compiling {GAME} kernels for the vector env (first use; ")
    assert first.endswith("later runs load them from the cache)\n")


def test_play_save_into_missing_folder_is_refused_before_the_game(tmp_path, capsys):
    target = tmp_path / "missing" / "game.json"
    rc, out, err = cli_in_process(capsys, "play", GAME, "--save", target)
    assert_one_line_error(rc, err, f"--save '{target}'", "does not exist")
    assert out == ""  # no game was started


def test_arena_help_prints_one_percent_sign():
    out = run_cli("arena", "--help")
    text = " ".join(out.stdout.split())
    assert out.returncode == 0 and "matrix with 95% CIs" in text and "%%" not in text


def test_install_hints_say_pypi_and_checkout(tmp_path, capsys, monkeypatch):
    both = ("pip install 'fatezoo[{0}]' (from PyPI) or, in a checkout, "
            "pip install -c constraints.txt \".[{0}]\"")
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    rc, out, err = cli_in_process(capsys, "arena", GAME, "--games", 2, "--plot",
                                  tmp_path / "a.png")
    assert_one_line_error(rc, err, "--plot needs matplotlib: " + both.format("train"))
    monkeypatch.setitem(sys.modules, "fatezoo.training.rllib_ppo", None)
    rc, out, err = cli_in_process(capsys, "train", GAME, "--backend", "rllib")
    assert_one_line_error(rc, err, "--backend rllib needs the ray extra: " + both.format("ray"))
    monkeypatch.setitem(sys.modules, "sb3_contrib", None)
    checkpoint = tmp_path / "p.zip"
    checkpoint.write_bytes(b"x")
    with pytest.raises(ImportError, match=r"\(from PyPI\) or, in a checkout, pip install -c "
                                          r"constraints.txt \"\.\[train\]\""):
        make_agent(f"ppo:{checkpoint}", GAME)


def test_every_game_option_has_its_meaning_in_help_list_and_docs():
    from fatezoo.envs.core.docs import option_docs

    listing = run_cli("list").stdout
    rows = {r["game"]: r for r in json.loads(run_cli("list", "--json").stdout)}
    for game in fatezoo.GAMES:
        spec = fatezoo.envs.get_spec(game)
        meanings = option_docs(spec)
        assert set(meanings) == set(spec.option_defaults)
        helptext = " ".join(run_cli("play", game, "--help").stdout.split())
        page = " ".join(run_cli("docs", game).stdout.split())
        assert rows[game]["option_docs"] == meanings
        for name, meaning in meanings.items():
            words = " ".join(meaning.replace("``", "").rstrip(".").split())
            assert len(words) > 10, (game, name)
            assert f"--{name.replace('_', '-')}" in helptext and words in helptext, (game, name)
            assert f"`{name}`" in page and " ".join(meaning.split()) in page, (game, name)
            assert f"{name}=" in listing and words[:30] in " ".join(listing.split())


def test_help_and_fatezoo_docs_show_each_games_page():
    import pydoc

    from fatezoo.envs.core.docs import card_glossary, option_docs

    for game in fatezoo.GAMES:
        spec = fatezoo.envs.get_spec(game)
        shown = {
            "help(env)": pydoc.render_doc(fatezoo.make(game), renderer=pydoc.plaintext),
            "help(env())": pydoc.render_doc(fatezoo.envs.get_module(game).env,
                                            renderer=pydoc.plaintext),
            "_v0 module": getattr(fatezoo.envs, f"{game}_v0").__doc__,
            "fatezoo docs": run_cli("docs", game).stdout,
        }
        cards = card_glossary(spec)
        assert len(cards) >= 10, game
        for where, text in shown.items():
            flat = " ".join(text.split())
            for field, meaning in spec.obs_docs.items():
                assert f"| {field} | {' '.join(meaning.split())} |" in flat, (game, where, field)
            assert f"| {spec.num_actions - 1} | {spec.action_names[-1]} |" in flat
            assert "## Episode end" in text and "## Options" in text and ".. end" not in text
            for name, meaning in option_docs(spec).items():
                assert f"`{name}`" in flat and " ".join(meaning.split()) in flat
            for name, card_text in list(cards.items())[::7]:
                assert f"**{name}**: {' '.join(card_text.split())}" in flat, (game, where, name)


@pytest.mark.parametrize("game", fatezoo.GAMES)
def test_card_command_at_the_prompt_prints_cost_and_text(game):
    from fatezoo.envs.core.docs import card_glossary

    cards = card_glossary(fatezoo.envs.get_spec(game))
    name, text = list(cards.items())[len(cards) // 2]
    out = io.StringIO()
    assert play(game, seed=3, opponent="random",
                stdin=io.StringIO(f"card {name.lower()}\ncard zzqx\nq\n"),
                stdout=out) == 0
    shown = out.getvalue()
    assert f"{name}: {text}" in shown and "no card named 'zzqx'" in shown
    assert "error" not in shown


def _positions(game, steps=60, seed=0):
    """(record, legal action names) along a random game."""
    env = fatezoo.make(game)
    env.reset(seed=seed)
    spec = env.unwrapped.SPEC
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            return
        legal = np.flatnonzero(obs["action_mask"])
        yield env.unwrapped.record, [spec.action_names[a] for a in legal]
        env.step(int(rng.choice(legal)))


def _svg_texts(svg):
    import re

    return [" ".join(t.split()) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]


def test_forgotten_city_shows_every_hex_id_its_actions_name_and_explains_its_lines():
    import re

    spec = fatezoo.envs.get_spec("forgotten_city")
    for step, (rec, names) in enumerate(_positions("forgotten_city", 80)):
        text = spec.render_ansi(rec, 0)
        svg_texts = _svg_texts(spec.render_svg(rec, 0))
        for name in names:
            for hx in re.findall(r"hex (\d+)", name):
                assert re.search(rf"(^|\s){hx}[PRBYSOC]", text, re.M), (step, name)
                assert hx in svg_texts, (step, name)
            for k in re.findall(r"(?:white|grey|track space|nightmare) (\d+)", name):
                assert f" {k}:" in text, (step, name)
    for words in ("VP victory points", "c coins", "i inspiration", "d defense",
                  "lv production levels", "L the hex of your leader", "h[..] hexes",
                  "r exhausted", "m free player markers", "zone[slot 0, slot 1]", "mir[..]"):
        assert words in " ".join(spec.legend.split()), words


def test_villainous_numbers_locations_slots_and_cards_and_spells_out_symbols():
    import re

    spec = fatezoo.envs.get_spec("villainous")
    choosing = set()
    for step, (rec, names) in enumerate(_positions("villainous", 120, seed=2)):
        seat = int(rec["current_player"])
        text = spec.render_ansi(rec, seat)
        svg_texts = _svg_texts(spec.render_svg(rec, seat))
        choosing |= {ln for ln in text.splitlines() if ln.startswith("choosing:")}
        for name in names:
            m = re.fullmatch(r"location (\d)", name)
            if m:
                assert re.search(rf"^ {m[1]}[* ]", text, re.M), (step, name)
                assert any(t.startswith(f"{m[1]} ") for t in svg_texts), (step, name)
            m = re.fullmatch(r"slot (\d) .*", name)
            if m:
                assert any(f"{m[1]}:" in t for t in svg_texts), (step, name)
            m = re.fullmatch(r"(?:villain|Fate) card (\d+)", name)
            if m and "choosing:" not in text:  # a card in view: hand, location, revealed
                assert re.search(rf"(^|[\s,+(]){m[1]}:\w", text, re.M), (step, name, text)
    legend = " ".join(spec.legend.split())
    for words in ("P1 P2 P3 gain 1, 2 or 3 Power", "MvH move a Hero", "Vnq vanquish a Hero",
                  "MvA move an Item or Ally", "Act activate", "Disc discard",
                  "Fate target seat +k"):
        assert words in legend, words
    assert choosing and not any(re.search(r"[A-Z]+_[A-Z]+", ln) for ln in choosing), choosing


def test_foretold_names_its_rows_and_decks_in_words():
    spec = fatezoo.envs.get_spec("foretold")
    for rec, names in _positions("foretold", 40):
        text = spec.render_ansi(rec, 0)
        assert "rows F" not in text and "Cdisc" not in text
        assert "Faithful Row spots 0:" in text and "Relic Row spots 0:" in text
        assert "decks: Faithful " in text and "Fate discard " in text
        for name in names:
            if "Row spot" in name:
                row, k = name.split(" Row spot ")
                assert f"{row} Row spots" in text and f" {k}:" in text
        svg_texts = _svg_texts(spec.render_svg(rec, 0))
        assert all(str(c) in svg_texts for c in range(16))  # cell numbers in the picture
    assert "Faithful Row and the Relic Row list each spot" in " ".join(spec.legend.split())
