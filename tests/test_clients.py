"""fatezoo from the clients' side: the libraries researchers bring, used as they document.

The examples of docs/CLIENTS.md run here on every registered game (a client that is not
installed is skipped, naming it); the rest checks, for every game, what those clients
rely on: rgb_array pictures, the mask of an ended game, the mask-blind way
(``illegal="lose"``), RLlib's key name and gymnasium's wrappers keeping ``.spec``.
"""

import importlib.util
import re
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import fatezoo
from fatezoo.envs.core import testing as T
from fatezoo.envs.core.gym_env import GymEnv
from fatezoo.envs.core.raster import overflowing_text, parse, rasterize, text_block, text_width
from fatezoo.envs.core.registry import get_module, get_spec, register_game_package

ROOT = Path(__file__).resolve().parent.parent
CLIENTS = (ROOT / "docs" / "CLIENTS.md").read_text(encoding="utf-8")
EXAMPLES = dict(re.findall(r"<!-- example: (\w+) -->\n```python\n(.*?)```", CLIENTS, re.S))
FIRST = re.compile(r'\AGAME, STEPS = "fatefell", (\d+)\n')
# the packages each example needs (skipped, naming them, where one is missing)
NEEDS = {"torchrl": ("torchrl", "tensordict"), "tianshou": ("tianshou",),
         "rllib": ("ray.rllib",), "sb3": ("sb3_contrib",), "cleanrl": ("torch",),
         "parallel": ()}
GAMES = fatezoo.GAMES


@pytest.fixture
def kitgame():
    """The rule kit's test game (tests/kitgame), registered as tests/kit/conftest.py does."""
    register_game_package("kitgame", "kitgame", path=str(ROOT / "tests"))
    return "kitgame"


def _missing(modules) -> list[str]:
    out = []
    for m in modules:
        try:
            found = importlib.util.find_spec(m) is not None
        except ModuleNotFoundError:
            found = False
        if not found:
            out.append(m)
    return out


def test_clients_page_has_one_example_per_library():
    assert sorted(EXAMPLES) == sorted(NEEDS)
    for name, code in EXAMPLES.items():
        assert FIRST.match(code), f"{name}: the example must start with GAME, STEPS = ..."
        assert "illegal" in code and "assert illegal == 0" in code, name
    for version in ("TorchRL 0.14.1", "Tianshou 2.0.1", "Ray 2.60.0", "sb3-contrib",
                    "PettingZoo 1.27.0", "gymnasium 1.4.0"):
        assert version in CLIENTS, f"docs/CLIENTS.md does not name {version}"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", sorted(NEEDS))
def test_clients_example_runs_with_no_illegal_action(name, game, capsys):
    missing = _missing(NEEDS[name])
    if missing:
        pytest.skip(f"{name} example: {', '.join(missing)} not installed "
                    "(pip install -c constraints.txt '.[train,clients]'; RLlib: ray[rllib])")
    code = EXAMPLES[name]
    steps = int(FIRST.match(code).group(1))
    ns = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the clients' own deprecation notices
        exec(compile(FIRST.sub(f"GAME, STEPS = {game!r}, {steps}\n", code),
                     f"docs/CLIENTS.md[{name}]", "exec"), ns)
    assert ns["illegal"] == 0
    assert ns["steps"] >= steps
    assert f"{ns['steps']} steps, 0 illegal actions" in capsys.readouterr().out


# ---------------------------------------------------------------- rgb_array


@pytest.mark.parametrize("game", GAMES)
def test_rgb_array_is_the_svg_view_for_every_seat(game):
    T.check_render(game, get_spec(game).min_players)


def test_the_rule_kit_game_renders_rgb_array_too(kitgame):
    T.check_render("kitgame", 2, steps=4)


def _svg_words(svg: str) -> str:
    """Every word the picture writes, in drawing order, one space apart."""
    return " ".join(" ".join((el.text or "").split()) for el in parse(svg)
                    if el.tag.endswith("text") and (el.text or "").strip())


def _words(text: str) -> str:
    return " ".join(text.split())


def test_text_block_wraps_and_shrinks_but_never_cuts():
    words = "Ambassador of the Eight +Judgment of the Deep +Werewolf Medallion"
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60">'
           '<rect x="10" y="10" width="80" height="40" fill="#ffffff"/>'
           + text_block([words], 12, 12, 76, 36, size=11) + "</svg>")
    assert _svg_words(svg) == words  # every word, in order
    assert overflowing_text(svg) == []
    sizes = {float(el.get("font-size")) for el in parse(svg) if el.tag.endswith("text")}
    assert len(sizes) == 1 and 5 <= sizes.pop() < 11  # shrunk to fit the 36 px
    one = text_block(["Sanctuary"], 0, 0, 40, 20, size=9)
    assert text_width("Sanctuary", float(parse(f"<svg width='1' height='1'>{one}</svg>")[0]
                                         .get("font-size"))) <= 40


def test_overflowing_text_names_a_label_that_leaves_its_box():
    head = '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="40">'
    box = '<rect x="0" y="0" width="60" height="30" fill="#ffffff"/>'
    long = '<text x="4" y="20" font-size="11">Healing Spring Sanctuary</text>'
    (line,) = overflowing_text(head + box + long + "</svg>")
    assert line.startswith("'Healing Spring Sanctuary' (x 4..") \
        and line.endswith(") leaves its box (x 0..60)")
    edge = '<text x="250" y="20" font-size="11">Healing Spring</text>'
    assert "leaves the picture (x 0..300)" in overflowing_text(head + edge + "</svg>")[0]
    assert overflowing_text(head + box + '<text x="4" y="20" font-size="11">Heal</text>'
                            + "</svg>") == []


def _pictures(game: str, seeds: int = 2, steps: int = 150):
    """(record, seat, svg) along random games at each player count, every seat's view."""
    spec = get_spec(game)
    for n in sorted({spec.min_players, spec.max_players}):
        for seed in range(seeds):
            env = fatezoo.make(game, num_players=n)
            env.reset(seed=seed)
            rng = np.random.default_rng(seed)
            for _ in range(steps):
                for seat in [None, *range(n)]:
                    yield env.record, seat, spec.render_svg(env.record, seat)
                if not env.agents or env.terminations[env.agent_selection]:
                    break
                env.step(int(rng.choice(env.legal_actions())))


@pytest.mark.parametrize("game", GAMES)
def test_no_text_is_cut_in_the_picture(game):
    """Every text of the picture stays in its box and on the picture, and says all of it.

    Labels wrap or shrink to fit their box (``raster.text_block``); none is cut to a
    number of characters: the text view's lines, tile and card names appear whole.
    """
    spec = get_spec(game)
    shapes = set()
    for rec, seat, svg in _pictures(game):
        over = overflowing_text(svg)
        assert not over, f"{game} (seat {seat}): {over[0]}"
        root = parse(svg)
        shapes.add((root.get("width"), root.get("height"), int(rec["num_players"])))
        said = _svg_words(svg)
        if game == "foretold":  # the text view is the picture's panel
            panel = spec.render_ansi(rec, seat).splitlines()
        elif game == "forgotten_city":  # the text view less its map (drawn as hexes)
            from fatezoo.envs.forgotten_city.render import _head, _status_lines
            panel = [_head(rec), *_status_lines(rec, seat)]
        else:
            panel = []
        for line in panel:
            assert _words(line) in said, f"{game}: {line!r} is not whole in the picture"
        if game == "fatefell":
            from fatezoo.envs.fatefell.render import _status
            for line in _status(rec):
                assert _words(line) in said, f"{game}: {line!r} is not whole in the picture"
        if game == "fathoming":
            from fatezoo.envs.fathoming.render import _props, _seat_lines
            props, cls = _props(rec)
            for s in range(2):
                assert _words(_seat_lines(rec, s, seat, props, cls)[1]) in said  # the hand
        if game == "foretold" and seat is None:  # every placed Temple tile, by full name
            from fatezoo.envs.foretold.cards import T_NAMES
            for t in {int(t) for t in rec["grid"].ravel() if t >= 0}:
                assert T_NAMES[t] in said, f"{game}: tile {T_NAMES[t]!r} is not whole"
    # one picture size per player count (a video's frames keep one shape)
    assert len(shapes) == len({n for _, _, n in shapes}), f"{game}: sizes vary: {shapes}"


@pytest.mark.parametrize("game", GAMES)
def test_sb3_make_vec_env_by_id_uses_rgb_array(game):
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_util import make_vec_env

    venv = make_vec_env(get_spec(game).gym_id, n_envs=2, seed=0)
    assert venv.render_mode == "rgb_array"
    venv.reset()
    frames = venv.get_images()
    assert len(frames) == 2 and all(f.ndim == 3 and f.dtype == np.uint8 for f in frames)
    venv.close()


@pytest.mark.parametrize("game", GAMES)
def test_record_video_frames(game, tmp_path):
    env = gymnasium.make(get_spec(game).gym_id, render_mode="rgb_array")
    if importlib.util.find_spec("moviepy") is not None:
        from gymnasium.wrappers import RecordVideo

        env = RecordVideo(env, str(tmp_path), episode_trigger=lambda e: e == 0)
    obs, _ = env.reset(seed=0)
    frames = [env.render()]
    for _ in range(10):
        a = int(np.flatnonzero(obs["action_mask"])[0])
        obs, _, term, trunc, _ = env.step(a)
        frames.append(env.render())
        if term or trunc:
            break
    assert all(f.shape == frames[0].shape and f.dtype == np.uint8 for f in frames)
    assert any(not np.array_equal(f, frames[0]) for f in frames[1:]), "the video never changes"
    env.close()
    if importlib.util.find_spec("moviepy") is not None:
        assert list(tmp_path.glob("*.mp4")), "RecordVideo wrote no video"


def test_raster_draws_the_subset():
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30" font-size="10">'
           '<rect width="40" height="30" fill="#ffffff"/>'
           '<rect x="2" y="2" width="10" height="10" fill="#f00" stroke="black"/>'
           '<circle cx="30" cy="8" r="5" fill="blue"/>'
           '<line x1="0" y1="28" x2="39" y2="28" stroke="#00ff00" stroke-width="2"/>'
           '<polygon points="15,20 25,20 20,12" fill="black"/>'
           '<text x="2" y="26" font-size="8" text-anchor="start">a</text></svg>')
    img = rasterize(svg)
    assert img.shape == (30, 40, 3) and img.dtype == np.uint8
    assert tuple(img[6, 6]) == (255, 0, 0)  # inside the red square
    assert tuple(img[2, 2]) == (0, 0, 0)  # its black outline
    assert tuple(img[8, 30]) == (0, 0, 255)  # the circle's centre
    assert tuple(img[28, 35]) == (0, 255, 0)  # the line
    assert tuple(img[18, 20]) == (0, 0, 0)  # inside the triangle
    assert tuple(img[0, 39]) == (255, 255, 255)


@pytest.mark.parametrize("svg,named", [
    ('<svg width="9" height="9"><g><rect width="1" height="1"/></g></svg>', "<g>"),
    ('<svg width="9" height="9"><path d="M0 0"/></svg>', "<path>"),
    ('<svg width="9" height="9"><rect width="1" height="1" transform="scale(2)"/></svg>',
     "'transform'"),
    ('<svg width="9" height="9"><rect width="1" height="1" style="fill:red"/></svg>', "'style'"),
    ('<svg width="9" height="9"><text x="1" y="1">a<tspan>b</tspan></text></svg>', "<tspan>"),
    ('<svg width="9" height="9"><rect width="1" height="1" fill="nocolour"/></svg>',
     "'nocolour'"),
    ('<svg width="9" height="9"><circle r="x"/></svg>', "'x'"),
    ('<rect width="1" height="1"/>', "root element must be <svg>"),
    ('<svg width="9">', "not well-formed"),
    ('<svg width="0" height="9"></svg>', "width and height"),
])
def test_raster_refuses_what_is_outside_the_subset_in_one_line(svg, named):
    with pytest.raises(ValueError) as err:
        rasterize(svg)
    msg = str(err.value)
    assert named in msg and "\n" not in msg


def test_render_modes_are_validated():
    with pytest.raises(ValueError, match=r"render_mode must be one of .*'rgb_array'.*got 'rgb'"):
        fatezoo.make("fatefell", render_mode="rgb")
    with pytest.raises(ValueError, match="render_mode must be None, 'ansi' or 'rgb_array'"):
        GymEnv("fatefell", render_mode="human")


# ---------------------------------------------------------------- masks of ended games


@pytest.mark.parametrize("game", GAMES)
def test_ended_games_mark_every_action_legal_in_vector_and_gym(game):
    T.check_terminal_masks(game, get_spec(game).min_players)


def test_ended_games_on_the_rule_kit_game(kitgame):
    T.check_terminal_masks("kitgame", 3, games=8)


@pytest.mark.parametrize("game", GAMES)
def test_masked_softmax_on_the_final_observation_of_gym_make_vec(game):
    # gymnasium 1.x next-step autoreset: the policy sees each final observation
    envs = gymnasium.make_vec(get_spec(game).gym_id, num_envs=3, vectorization_mode="sync")
    obs, _ = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    finals = 0
    for _ in range(3000):
        mask = obs["action_mask"].astype(bool)
        logits = np.where(mask, rng.normal(size=mask.shape), -np.inf)
        p = np.exp(logits - logits.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        assert np.isfinite(p).all(), "a masked softmax gave NaN"
        acts = np.array([rng.choice(len(row), p=row) for row in p])
        obs, _, term, trunc, _ = envs.step(acts)
        ended = term | trunc
        assert (obs["action_mask"][ended] == 1).all()
        finals += int(ended.sum())
        if finals >= 3:
            break
    assert finals >= 3
    envs.close()


# ---------------------------------------------------------------- mask-blind tools


@pytest.mark.parametrize("game", GAMES)
def test_mask_blind_tools_run_with_illegal_lose(game):
    T.check_mask_blind(game, get_spec(game).min_players)


@pytest.mark.parametrize("game", GAMES)
def test_parallel_seed_test_needs_illegal_lose(game):
    from pettingzoo.test import parallel_seed_test
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    mod = get_module(game)
    with pytest.raises(fatezoo.IllegalActionError):  # the default catches agent bugs
        for _ in range(20):
            parallel_seed_test(lambda: turn_based_aec_to_parallel(mod.env()))
    parallel_seed_test(lambda: turn_based_aec_to_parallel(mod.env(illegal="lose")))


@pytest.mark.parametrize("game", GAMES)
def test_rllib_env_pre_check(game):
    pytest.importorskip("ray.rllib", reason="RLlib (ray[rllib]) is not installed")
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    for _ in range(20):  # it samples actions without the mask: 4 runs in 5 failed before
        check_multiagent_environments(PettingZooEnv(fatezoo.make(game, illegal="lose")))


# ---------------------------------------------------------------- RLlib's key name


@pytest.mark.parametrize("game", GAMES)
def test_obs_key_observations_for_rllib(game):
    spec = get_spec(game)
    env = fatezoo.make(game, obs_key="observations")
    space = env.observation_space("player_0")
    assert sorted(space.spaces) == ["action_mask", "observations"]  # RLlib's module's keys
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    assert sorted(obs) == ["action_mask", "observations"] and space.contains(obs)
    plain = fatezoo.make(game)
    plain.reset(seed=0)
    assert np.array_equal(plain.observe(plain.agent_selection)["observation"],
                          obs["observations"])
    assert obs["observations"].shape == (spec.obs_size,)
    with pytest.raises(ValueError, match="obs_key must be one of"):
        fatezoo.make(game, obs_key="obs")


# ---------------------------------------------------------------- gymnasium's wrappers


@pytest.mark.parametrize("game", GAMES)
def test_wrappers_keep_the_spec_of_a_directly_built_gym_env(game):
    from gymnasium.wrappers import RecordEpisodeStatistics, TimeLimit

    gym_id = get_spec(game).gym_id
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = GymEnv(game)
        assert env.spec.id == gym_id and env.game_spec.name == game
        wrapped = RecordEpisodeStatistics(TimeLimit(env, max_episode_steps=7))
        spec = wrapped.spec
        assert spec.id == gym_id and spec.max_episode_steps == 7  # TimeLimit's own field
        assert [w.name for w in spec.additional_wrappers] == ["RecordEpisodeStatistics"]
        obs, _ = wrapped.reset(seed=0)
        for _ in range(7):
            obs, _, term, trunc, info = wrapped.step(int(np.flatnonzero(obs["action_mask"])[0]))
            if term or trunc:
                break
        assert (term or trunc) and "episode" in info
        made = gymnasium.make(gym_id, max_episode_steps=5)
        assert made.spec.id == gym_id and made.spec.max_episode_steps == 5
