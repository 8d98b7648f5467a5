"""The contract every fatezoo game must satisfy, as plain functions.

A researcher who adds a game runs ``check_game("mygame", num_players=3)``; the test
suite calls each check separately for every registered game and player count. Every
check raises AssertionError (or the error under test) with a message naming the game.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing as mp
import os
import pickle
import random
import subprocess
import sys
import warnings

import numpy as np

from . import kernels as K
from .registry import get_module, get_spec
from .rng import rng_rows, seed_words
from .spec import IllegalActionError


def player_counts(game: str) -> list[int]:
    """Every supported player count of ``game``."""
    spec = get_spec(game)
    return list(range(spec.min_players, spec.max_players + 1))


# ---------------------------------------------------------------- rule tests


class RuleGame:
    """One record of a game and its legal mask: the base of every game's rule-test harness.

    A game's rule tests subclass it with the game's spec and add the position builders of
    that game (``arrange``...)::

        class Game(RuleGame):
            SPEC = SPEC

    ``Game(num_players=3, seed=1, **options)`` deals a game exactly as the envs do. An
    action is its id or its name in the spec's ``action_names``. ``act(a, ...)`` applies
    decisions as the envs do (the lone legal decisions that follow are applied too) and
    checks the record after each; ``apply(a, ...)`` runs the game's ``apply`` kernel
    alone, for a rule test of one decision.
    """

    SPEC = None  # the game's GameSpec, set by the subclass

    def __init__(self, seed: int = 0, words=None, **options):
        self.states = self.SPEC.new_states(1, self.SPEC.options(**options))
        self.states["rng"] = seed_words(seed, 0) if words is None else words
        self.mask = np.zeros(self.SPEC.num_actions, np.int8)
        K.reset_one(self.states, 0, self.mask)

    @classmethod
    def of(cls, states):
        """The harness over an existing one-record ``states`` array (shared, not copied).

        For tests that build and pass the array itself.
        """
        game = cls.__new__(cls)
        game.states = states
        game.mask = np.zeros(cls.SPEC.num_actions, np.int8)
        return game

    @property
    def r(self):
        """The record (a view: writes go into the game)."""
        return self.states[0]

    @property
    def n(self) -> int:
        """The number of players."""
        return int(self.r["num_players"])

    def legal(self) -> list:
        """The current player's legal actions, ascending."""
        K.mask_one(self.states, 0, self.mask)
        return np.flatnonzero(self.mask).tolist()

    def legal_names(self) -> list:
        """The names of the current player's legal actions."""
        return [self.SPEC.action_names[a] for a in self.legal()]

    def action(self, a) -> int:
        """The id of action ``a``: an id, or a name from the spec's ``action_names``."""
        if isinstance(a, str):
            assert a in self.SPEC.action_names, f"{self.SPEC.name}: no action named {a!r}"
            return self.SPEC.action_names.index(a)
        return int(a)

    def is_legal(self, a) -> bool:
        """Whether action ``a`` (an id or a name) is legal now."""
        return self.action(a) in self.legal()

    def _check_legal(self, a) -> int:
        a = self.action(a)
        assert a in self.legal(), (f"{self.SPEC.name}: action {a} "
                                   f"({self.SPEC.action_names[a]}) is not legal; legal: "
                                   f"{self.legal_names()}")
        return a

    def act(self, *actions):
        """Apply each decision as the envs do, checking it is legal and the record after.

        The lone legal decisions that follow are applied too; returns the game.
        """
        for a in map(self._check_legal, actions):
            K.step_one(self.states, 0, a, self.mask)
            self.SPEC.check_record(self.r)
        return self

    def apply(self, *actions):
        """Apply each decision with the game's ``apply`` kernel alone, checking it is legal.

        No forced decision follows and the record is not checked; returns the game.
        """
        for a in map(self._check_legal, actions):
            self.SPEC.kernels.apply(self.r, a)
        return self


# ---------------------------------------------------------------- PettingZoo / gymnasium


def check_pettingzoo(game: str, num_players: int = 2, num_cycles: int = 1000) -> None:
    """PettingZoo's api_test, seed_test and render_test, with warnings as errors.

    Two advisories are exempt: api_test suggests Box or Discrete observation spaces,
    and NumPy-array observations, to every env outside PettingZoo's own list of Dict
    envs; fatezoo's Dict of ``observation`` and ``action_mask`` is the layout
    PettingZoo's classic games use (they are on that list).
    """
    from pettingzoo.test import api_test, render_test, seed_test

    mod = get_module(game)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(mod.env(num_players=num_players), num_cycles=num_cycles)
        seed_test(lambda: mod.env(num_players=num_players), num_cycles=num_cycles)
        render_test(lambda render_mode=None: mod.env(num_players=num_players,
                                                     render_mode=render_mode))


def check_gym(game: str, num_players: int = 2) -> None:
    """Gymnasium's and SB3's check_env through ``gymnasium.make``, render and masks too.

    Gymnasium's check_env (render included) runs on the env and on the wrapper that
    ``gymnasium.make`` returns; ``action_masks`` must be reachable as the README says.
    """
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    spec = get_spec(game)
    env = gymnasium.make(spec.gym_id, num_players=num_players, opponent="random",
                         render_mode="ansi")
    assert env.spec.id == spec.gym_id, f"{game}: gymnasium's EnvSpec was overwritten"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=".*different from the unwrapped version")
        check_env(env.unwrapped)
        check_env(env)
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and text, f"{game}: render() gave {text!r}"
    mask = env.unwrapped.action_masks()
    assert mask.dtype == bool and mask.shape == (spec.num_actions,) and mask.any()
    assert (env.get_wrapper_attr("action_masks")() == mask).all()
    try:
        from stable_baselines3.common.env_checker import check_env as sb3_check
    except ImportError:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SB3 advises on Dict spaces; that is not a failure
        sb3_check(gymnasium.make(spec.gym_id, num_players=num_players).unwrapped)


def check_pickle(game: str, num_players: int = 2) -> None:
    """The AEC env pickles before and after reset, and the copy continues identically."""
    env = get_module(game).env(num_players=num_players)
    pickle.loads(pickle.dumps(env))
    env.reset(seed=3)
    copy = pickle.loads(pickle.dumps(env))
    for _ in range(20):
        if not env.agents or env.terminations[env.agent_selection]:
            break
        a = env.legal_actions()[0]
        env.step(a)
        copy.step(a)
        assert env.save_state() == copy.save_state(), f"{game}: unpickled env diverged"


def check_render(game: str, num_players: int = 2, steps: int = 12) -> None:
    """``render_mode="rgb_array"`` draws the SVG view, per seat, in the AEC and gym envs.

    Every picture is ``(H, W, 3)`` uint8, equal to the rasterized ``render_svg`` of the
    same view, and not one flat colour, and no text in it runs past the picture or out
    of the box it is drawn in (:func:`~fatezoo.envs.core.raster.overflowing_text`); a
    ``render_svg`` outside the rasterized SVG subset fails here with the element it used.
    """
    import gymnasium

    from .raster import overflowing_text, rasterize

    spec = get_spec(game)
    env = get_module(game).env(num_players=num_players, render_mode="rgb_array")
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    for k in range(steps + 1):
        for seat in [None, *range(num_players)]:
            env.render_seat = seat
            img = env.render()
            assert isinstance(img, np.ndarray) and img.dtype == np.uint8 and img.ndim == 3 \
                and img.shape[2] == 3, f"{game}: rgb_array render gave {type(img).__name__} " \
                f"{getattr(img, 'shape', '')}"
            svg = spec.render_svg(env.record, seat)
            assert np.array_equal(img, rasterize(svg)), \
                f"{game}: rgb_array is not the picture of render_svg (seat {seat})"
            assert (img != img[0, 0]).any(), f"{game}: rgb_array picture is blank"
            over = overflowing_text(svg)
            assert not over, f"{game}: text cut in the picture (seat {seat}): {over[0]}"
        if not env.agents or env.terminations[env.agent_selection]:
            break
        env.step(int(rng.choice(env.legal_actions())))
    g = gymnasium.make(spec.gym_id, num_players=num_players, render_mode="rgb_array")
    g.reset(seed=3)
    img = g.render()
    u = g.unwrapped
    assert np.array_equal(img, rasterize(spec.render_svg(u._game.record, u.seat))), \
        f"{game}: the gym env's rgb_array is not the learner's view"


def check_terminal_masks(game: str, num_players: int = 2, games: int = 16) -> None:
    """At an ended game the vector and gym envs mark every action legal and ignore it.

    The AEC env keeps PettingZoo's rule: every agent's mask is all zeros at the end and
    only None is accepted (``check_bad_input`` checks the None part).
    """
    import gymnasium

    spec = get_spec(game)
    mod = get_module(game)
    a_n = spec.num_actions
    vec = mod.vec(games, num_players=num_players, seed=3, auto_reset=False)
    _, mask, _ = vec.reset()
    rng = rng_rows(4, games)
    acts = np.empty(games, np.int64)
    done = np.zeros(games, bool)
    pick = np.random.default_rng(4)
    while not done.all():
        K.batch_random_actions(mask, rng, acts)
        # an ended game takes any action id, or -1, and ignores it
        acts[done] = pick.integers(-1, a_n, size=int(done.sum()))
        before = vec.states[done].tobytes()
        _, mask, _, rewards, term, trunc = vec.step(acts)
        assert vec.states[done].tobytes() == before, f"{game}: an ended game changed"
        assert not rewards[done].any(), f"{game}: an ended game got a reward"
        done |= term | trunc
        assert (mask[done] == 1).all(), f"{game}: an ended game's mask is not all ones"
        assert (mask[~done].sum(1) > 0).all(), f"{game}: a running game has an empty mask"
    saved = vec.save_states()
    for bad in (a_n, -2):
        try:
            vec.step(np.full(games, bad))
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"{game}: action {bad} for an ended game was accepted")
    again = mod.vec(games, num_players=num_players, auto_reset=False)
    again.load_states(saved)
    assert (again.mask == 1).all(), f"{game}: a loaded ended game's mask is not all ones"
    aec = mod.env(num_players=num_players)
    aec.reset(seed=3)
    arng = np.random.default_rng(3)
    while not (aec.terminations[aec.agent_selection] or aec.truncations[aec.agent_selection]):
        aec.step(int(arng.choice(aec.legal_actions())))
    for agent in aec.agents:
        assert not aec.observe(agent)["action_mask"].any(), \
            f"{game}: the AEC env's mask of a finished agent is not all zeros"
    env = gymnasium.make(spec.gym_id, num_players=num_players)
    obs, _ = env.reset(seed=5)
    prng = np.random.default_rng(5)
    end = False
    while not end:
        assert obs["action_mask"].any()
        obs, _, term, trunc, _ = env.step(int(prng.choice(np.flatnonzero(obs["action_mask"]))))
        end = term or trunc
    assert (obs["action_mask"] == 1).all() and env.unwrapped.action_masks().all(), \
        f"{game}: the gym env's final mask does not mark every action legal"
    try:
        env.step(0)
    except RuntimeError:
        pass
    else:
        raise AssertionError(f"{game}: the gym env stepped past the end of an episode")
    obs, _ = env.reset(seed=6)  # an illegal action ends the episode the same way
    illegal = np.flatnonzero(obs["action_mask"] == 0)
    if illegal.size:
        obs, r, term, trunc, info = env.step(int(illegal[0]))
        assert term and info["illegal_action"] and (obs["action_mask"] == 1).all()


def check_mask_blind(game: str, num_players: int = 2, runs: int = 10) -> None:
    """``illegal="lose"``: tools that step with ``action_space.sample()`` run as they are.

    PettingZoo's api_test and its parallel_seed_test over ``turn_based_aec_to_parallel``
    (which samples without the mask), each with warnings as errors, and a mask-blind
    random game to its end, ``runs`` times.
    """
    from pettingzoo.test import api_test, parallel_seed_test
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    mod = get_module(game)

    def parallel():
        return turn_based_aec_to_parallel(mod.env(num_players=num_players, illegal="lose"))

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(mod.env(num_players=num_players, illegal="lose"), num_cycles=200)
        for _ in range(runs):
            parallel_seed_test(parallel, num_cycles=200)
    for run in range(runs):
        env = parallel()
        env.reset(seed=run)
        for agent in env.possible_agents:
            env.action_space(agent).seed(run)
        for _ in range(100_000):
            if not env.agents:
                break
            env.step({a: env.action_space(a).sample() for a in env.agents})
        assert not env.agents, f"{game}: a mask-blind game under illegal='lose' did not end"
        returns = env.aec_env.unwrapped.record["returns"]
        assert abs(float(returns.sum())) < 1e-4, f"{game}: returns {returns} are not zero-sum"


# ---------------------------------------------------------------- random-play fuzz


def declared_bounds(game: str, num_players: int = 2, **options):
    """A checker ``(states, i, when)`` of the declared observation spaces.

    It raises AssertionError unless every seat's observation of row ``i`` and its state
    vector are finite and inside the Boxes the AEC env declares, naming the field.
    """
    spec = get_spec(game)
    env = get_module(game).env(num_players=num_players, **options)
    fields = {k: name for name, sl in spec.obs.slices.items() for k in range(sl.start, sl.stop)}
    boxes = [(f"player_{p}'s observation", env.observation_space(f"player_{p}")["observation"],
              lambda states, i, out, p=p: K.encode_one(states, i, p, out), fields)
             for p in range(num_players)]
    boxes.append(("the state vector", env.state_space, K.state_one, {}))
    bufs = [np.zeros(box.shape, np.float32) for _, box, _, _ in boxes]

    def inside(states, i, when=""):
        for (what, box, write, names), out in zip(boxes, bufs):
            write(states, i, out)
            bad = np.flatnonzero(~(np.isfinite(out) & (out >= box.low) & (out <= box.high)))
            if bad.size:
                k = int(bad[0])
                raise AssertionError(f"{game}: {what} {when} holds {out[k]} at index {k} "
                                     f"(field {names.get(k, '?')}), outside the declared "
                                     f"[{box.low[k]}, {box.high[k]}]")
    return inside


def fuzz(game: str, num_players: int = 2, games: int = 2000, seed: int = 0,
         sample_rows: int = 4, **options) -> dict:
    """Play ``games`` random games on the batched core, checking invariants at every state.

    Checked at every step, for every game still running (its final observation included):
    the player to act has a legal action; observations are finite, float32 and inside
    [-1, 1]; masks are int8 0/1; step rewards sum to zero and add up to the returns; the
    game ends within ``max_turns``. ``check_record`` (every card in exactly one zone, fields
    in range) holds for ``sample_rows`` running games every step, taken in turn so that
    every game is visited throughout its play, and for every game at the end; for those
    rows every seat's observation and the state vector lie inside the spaces the AEC env
    declares (:func:`declared_bounds`). Returns counts for the report.
    """
    spec = get_spec(game)
    vec = get_module(game).vec(games, num_players=num_players, seed=seed, auto_reset=False,
                               **options)
    inside = declared_bounds(game, num_players, **options)
    obs, mask, _ = vec.reset()
    rng = rng_rows(seed + 1, games)
    actions = np.empty(games, np.int64)
    returns = np.zeros((games, num_players), np.float64)
    done = np.zeros(games, bool)
    rows = np.arange(games)  # the games whose current observation and mask are checked
    max_turns = vec.fields["max_turns"]
    steps = offset = 0  # offset: where this step's check_record rows start among the running games
    while True:
        o, m = (obs, mask) if rows.size == games else (obs[rows], mask[rows])
        assert mask.dtype == np.int8 and m.min() >= 0 and m.max() <= 1, \
            f"{game}: mask not int8 0/1"
        assert obs.dtype == np.float32, f"{game}: obs not float32"
        lo, hi = o.min(), o.max()  # NaN propagates into both
        assert np.isfinite(lo) and np.isfinite(hi), f"{game}: obs not finite"
        assert lo >= -1 and hi <= 1, f"{game}: obs outside [-1, 1]"
        if done.all():
            break
        live = ~done
        assert (mask[live].sum(1) > 0).all(), f"{game}: a running game has an empty mask"
        K.batch_random_actions(mask, rng, actions)
        actions[done] = -1
        obs, mask, _, rewards, term, trunc = vec.step(actions, copy=False)
        steps += int(live.sum())
        assert np.allclose(rewards.sum(1), 0.0, atol=1e-5), f"{game}: rewards not zero-sum"
        returns += rewards
        assert np.allclose(returns, vec.states["returns"][:, :num_players], atol=1e-4), \
            f"{game}: step rewards do not add up to the returns"
        assert (vec.states["turn"] <= max_turns).all(), f"{game}: game ran past max_turns"
        rows = np.flatnonzero(live)
        for j in range(min(sample_rows, rows.size)):
            spec.check_record(vec.states[rows[(offset + j) % rows.size]])
            inside(vec.states, int(rows[(offset + j) % rows.size]), f"after {steps} steps")
        offset += sample_rows
        done |= term | trunc
    for i in range(games):
        spec.check_record(vec.states[i])
    term_all = vec.states["terminated"].astype(bool)
    if term_all.any():
        wins = vec.states["returns"][term_all, :num_players]
        assert np.allclose(wins.sum(1), 0.0, atol=1e-4)
    return {"games": games, "steps": steps, "terminated": int(term_all.sum()),
            "truncated": int(vec.states["truncated"].sum())}


# ---------------------------------------------------------------- determinism


def trajectory_digest(game: str, num_players: int, seeds, action_seed: int, steps: int,
                      noise: bool = False, keep: int = 64, options=None) -> list[str]:
    """Digest of each of the first ``keep`` games' trajectories over ``steps`` steps.

    Game j is dealt from ``seeds[j]`` and plays uniform legal actions from its own
    stream ``(action_seed, j)``, so its trajectory must not depend on the batch. The
    digest covers observations, masks, players, rewards, end flags and final records.
    """
    seeds = list(seeds)
    b = len(seeds)
    k = min(b, keep)
    vec = get_module(game).vec(b, num_players=num_players, auto_reset=True, **(options or {}))
    obs, mask, player = vec.reset(seed=seeds)
    rng = rng_rows(action_seed, b)
    actions = np.empty(b, np.int64)
    frames = []
    for _ in range(steps):
        if noise:
            random.random()
            np.random.rand(3)
        K.batch_random_actions(mask, rng, actions)
        obs, mask, player, rewards, term, trunc = vec.step(actions, copy=False)
        frames.append((obs[:k].copy(), mask[:k].copy(), player[:k].copy(), rewards[:k].copy(),
                       term[:k].copy(), trunc[:k].copy()))
    out = []
    for j in range(k):
        d = hashlib.sha256()
        for frame in frames:
            for arr in frame:
                d.update(arr[j].tobytes())
        d.update(vec.states[j].tobytes())
        out.append(d.hexdigest())
    return out


def _digest_job(args):
    return trajectory_digest(*args)


def check_determinism(game: str, num_players: int = 2, steps: int = 300,
                      batch_sizes=(1, 7, 64, 1024)) -> None:
    """Same seed and actions give bit-identical games in any batch size and process."""
    seeds = list(range(1000, 1000 + max(batch_sizes)))
    ref = trajectory_digest(game, num_players, seeds, 7, steps)
    for b in batch_sizes[:-1]:
        got = trajectory_digest(game, num_players, seeds[:b], 7, steps)
        assert got == ref[:b], f"{game}: batch size {b} changed a trajectory"
    noisy = trajectory_digest(game, num_players, seeds[:7], 7, steps, noise=True)
    assert noisy == ref[:7], f"{game}: global random state leaked into the game"
    ctx = mp.get_context("spawn")
    with ctx.Pool(2) as pool:
        outs = pool.map(_digest_job, [(game, num_players, seeds[:7], 7, steps)] * 2)
    assert outs[0] == outs[1] == ref[:7], f"{game}: a spawned process dealt another game"


def check_nojit(game: str, num_players: int = 2, steps: int = 400, **options) -> None:
    """``NUMBA_DISABLE_JIT=1`` plays exactly the same game as the compiled kernels."""
    code = ("import json,sys; from fatezoo.envs.core.testing import trajectory_digest; "
            f"print(json.dumps(trajectory_digest({game!r}, {num_players}, [11, 12], 5, {steps}, "
            f"options={options!r})))")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=900)
    assert out.returncode == 0, f"{game}: NUMBA_DISABLE_JIT run failed:\n{out.stderr[-3000:]}"
    import json

    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == trajectory_digest(game, num_players, [11, 12], 5, steps, options=options), \
        f"{game}: interpreted kernels diverge from compiled ones"


# ---------------------------------------------------------------- clone / save / load


def _random_actions(env, rng, steps, saves=None):
    """Play up to ``steps`` uniform legal actions; return them (and append each state)."""
    out = []
    for _ in range(steps):
        agent = env.agent_selection
        if not env.agents:
            break
        if env.terminations[agent] or env.truncations[agent]:
            a = None
        else:
            a = int(rng.choice(env.legal_actions()))
        env.step(a)
        out.append(a)
        if saves is not None:
            saves.append(env.save_state())
    return out


def check_save_load(game: str, num_players: int = 2, seed: int = 5) -> None:
    """Restore-then-replay is bit-identical, chance included; clones are independent."""
    mod = get_module(game)
    env = mod.env(num_players=num_players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    _random_actions(env, rng, 40)
    saved = env.save_state()
    future_states = []
    future = _random_actions(env, rng, 400, future_states)
    other = mod.env(num_players=num_players)
    other.reset(seed=seed + 999)
    other.load_state(saved)
    assert other.save_state() == saved
    for k, a in enumerate(future):
        other.step(a)
        assert other.save_state() == future_states[k], \
            f"{game}: restored game diverged {k + 1} steps after the restore"
    vec = mod.vec(8, num_players=num_players, seed=seed)
    vec.reset()
    clone = vec.clone()
    before = vec.save_states()
    acts = np.empty(8, np.int64)
    K.batch_random_actions(clone.mask, rng_rows(1, 8), acts)
    clone.step(acts)
    assert vec.save_states() == before, f"{game}: stepping a clone changed the original"
    restored = mod.vec(8, num_players=num_players)
    restored.load_states(before)
    restored.step(acts)
    assert restored.save_states() == clone.save_states(), f"{game}: load_states diverged"
    try:
        env.load_state(saved[:-3])
    except ValueError:
        pass
    else:
        raise AssertionError(f"{game}: a truncated saved state was accepted")
    corrupt = bytearray(saved)
    corrupt[0] ^= 0x7F  # the format byte
    try:
        env.load_state(bytes(corrupt))
    except ValueError:
        pass
    else:
        raise AssertionError(f"{game}: a corrupt saved state was accepted")


# ---------------------------------------------------------------- hidden information


def check_hidden_info(game: str, num_players: int = 2, positions: int = 12,
                      resamples: int = 10, seed: int = 0) -> None:
    """Observations, masks and views leak nothing ``determinize`` can change."""
    spec = get_spec(game)
    mod = get_module(game)
    rng = np.random.default_rng(seed)
    obs = np.zeros(spec.obs_size, np.float32)
    obs2 = np.zeros(spec.obs_size, np.float32)
    mask = np.zeros(spec.num_actions, np.int8)
    mask2 = np.zeros(spec.num_actions, np.int8)
    checked = sensitive = 0
    # a game whose seats all see the same table (its spec's symmetric_information: only
    # face-down stacks are hidden, from everyone alike) has no seat-private cards to show
    symmetric = spec.symmetric_information
    full = np.zeros(spec.state_size, np.float32)
    full2 = np.zeros(spec.state_size, np.float32)
    for k in range(positions):
        env = mod.env(num_players=num_players)
        env.reset(seed=seed + k)
        _random_actions(env, rng, int(rng.integers(0, 250)))
        if not env.agents:
            continue
        base = env.states.copy()
        for p in range(num_players):
            K.encode_one(base, 0, p, obs)
            K.mask_one(base, 0, mask)
            if base[0]["current_player"] != p:
                mask[:] = 0
            view = spec.render_ansi(base[0], p)
            for _ in range(resamples):
                world = base.copy()
                spec.determinize(world[0], p, rng)
                spec.check_record(world[0])
                K.encode_one(world, 0, p, obs2)
                K.mask_one(world, 0, mask2)
                if world[0]["current_player"] != p:
                    mask2[:] = 0
                assert obs.tobytes() == obs2.tobytes(), \
                    f"{game}: player {p}'s observation changed under determinize"
                assert mask.tobytes() == mask2.tobytes(), f"{game}: mask changed"
                assert view == spec.render_ansi(world[0], p), f"{game}: ansi view changed"
                checked += 1
            # resampling what another player cannot see changes cards ``p`` knows, and
            # so ``p``'s observation: the observation really reflects the own cards
            for _ in range(resamples):
                world = base.copy()
                spec.determinize(world[0], (p + 1) % num_players, rng)
                K.encode_one(world, 0, p, obs2)
                sensitive += obs.tobytes() != obs2.tobytes()
                if symmetric:  # the hidden part is really resampled (the full state moves)
                    K.state_one(base, 0, full)
                    K.state_one(world, 0, full2)
                    sensitive += full.tobytes() != full2.tobytes()
    assert checked > 0
    assert sensitive > 0, f"{game}: no observation ever changed when known cards changed"


# ---------------------------------------------------------------- belief sampling

# the record's header fields a sample must keep (with the options, every public fact the
# core itself keeps; the game's own public facts are in the viewer's observation and view)
HEADER_FIELDS = ("num_players", "current_player", "terminated", "truncated", "turn", "steps",
                 "max_turns", "reward_mode", "rewards", "returns")


def check_sample_worlds(game: str, num_players: int = 2, rows: int = 8, samples: int = 1000,
                        stops=(3, 30, 120), seed: int = 0) -> None:
    """``sample_worlds`` keeps what the viewer has, redraws the rest, and covers the truth.

    At the positions of ``rows`` random-play games after each of ``stops`` steps, for the
    seat to move and for the next seat, every one of ``samples`` samples keeps the viewer's
    observation (byte-identical), legal mask and text view, the header and the options; it
    redraws the record's RNG (the future is not the true one); the first few load into an
    env (the game's record checks) and play a legal step. Over a position's samples, every
    entry of the full state vector takes its true value in some sample (the truth is in
    the sampler's support), and the state vectors vary between samples in more than half
    of the positions (the hidden part is resampled). The env's games are left unchanged,
    an int seed gives the same samples twice, and the AEC env's ``sample_world(agent,
    seed)`` is row 0 of ``sample_worlds`` with that seed.
    """
    spec = get_spec(game)
    mod = get_module(game)
    n = num_players
    gen = np.random.default_rng(seed)
    vec = mod.vec(rows, seed=seed, auto_reset=False, num_players=n)
    vec.reset()
    sim = vec.clone()
    state = np.zeros((samples, rows, spec.state_size), np.float32)
    truth_state = np.zeros((rows, spec.state_size), np.float32)
    obs = np.zeros((rows, spec.obs_size), np.float32)
    mask, mask2 = np.zeros(spec.num_actions, np.int8), np.zeros(spec.num_actions, np.int8)
    steps = varied = positions = 0
    for stop in stops:
        while steps < stop:
            vec.step(np.array([gen.choice(np.flatnonzero(m)) for m in vec.mask]))
            steps += 1
        truth = vec.states.copy()
        before = vec.save_states()
        for shift in (0, 1):
            viewers = (truth["current_player"].astype(np.int64) + shift) % n
            seen = vec.observe(viewers)
            for i in range(rows):
                K.state_one(truth, i, truth_state[i])
            for s in range(samples):
                worlds = vec.sample_worlds(viewers, gen)
                K.batch_encode(worlds, viewers, obs)
                bad = np.flatnonzero((obs != seen).any(axis=1))
                assert bad.size == 0, (f"{game}: seat {viewers[bad[0]]}'s observation of game "
                                       f"{bad[0]} changed in a sampled world (after {stop} steps)")
                for name in HEADER_FIELDS + tuple(vec.fields):
                    assert (worlds[name] == truth[name]).all(), \
                        f"{game}: a sampled world changed the public field {name!r}"
                assert (worlds["rng"] != truth["rng"]).any(axis=1).all(), \
                    f"{game}: a sampled world kept the true RNG (it knows the true future)"
                for i in range(rows):
                    K.state_one(worlds, i, state[s, i])
                if s < 3:
                    _check_world_rows(spec, truth, worlds, viewers, mask, mask2)
                    sim.load_states(worlds.tobytes())
                    sim.step(np.array([gen.choice(np.flatnonzero(m)) for m in sim.mask]))
            for i in range(rows):
                missed = np.flatnonzero(~(state[:, i] == truth_state[i]).any(axis=0))
                assert missed.size == 0, (
                    f"{game}: in {samples} worlds sampled for seat {viewers[i]} of game {i} "
                    f"(after {stop} steps), state entries {missed[:8].tolist()} never took "
                    "their true value: the truth is outside the sampler's support")
                varied += bool((state[:, i] != truth_state[i]).any())
                positions += 1
        assert vec.save_states() == before, f"{game}: sample_worlds changed the env's games"
    assert varied * 2 > positions, \
        f"{game}: sampled worlds varied in only {varied} of {positions} positions"
    again = vec.sample_worlds(0, rng=7)
    assert again.tobytes() == vec.sample_worlds(0, rng=7).tobytes(), \
        f"{game}: the same seed sampled different worlds"
    env = mod.env(num_players=n)
    env.reset(seed=seed)
    env.load_state(vec.states[:1].tobytes())
    assert env.sample_world("player_0", seed=7).tobytes() == again[:1].tobytes(), \
        f"{game}: the AEC env's sample_world differs from the vector env's"


def _check_world_rows(spec, truth, worlds, viewers, mask, mask2) -> None:
    """Per row: the viewer's legal mask (when it is to move) and text view are kept."""
    for i in range(truth.shape[0]):
        v = int(viewers[i])
        if truth[i]["current_player"] == v:
            K.mask_one(truth, i, mask)
            K.mask_one(worlds, i, mask2)
            assert mask.tobytes() == mask2.tobytes(), \
                f"{spec.name}: seat {v}'s legal mask of game {i} changed in a sampled world"
        assert spec.render_ansi(truth[i], v) == spec.render_ansi(worlds[i], v), \
            f"{spec.name}: seat {v}'s view of game {i} changed in a sampled world"


# ---------------------------------------------------------------- bad input


def _raises(fn, exc, what):
    try:
        fn()
    except exc:
        return
    raise AssertionError(f"{what} did not raise {exc.__name__}")


def check_bad_input(game: str, num_players: int = 2) -> None:
    """Every kind of bad action raises a clear error and leaves the state unchanged."""
    spec = get_spec(game)
    mod = get_module(game)
    env = mod.env(num_players=num_players)
    _raises(lambda: env.step(0), RuntimeError, "step before reset")
    env.reset(seed=1)
    legal = env.legal_actions()
    illegal = [a for a in range(spec.num_actions) if a not in legal]
    before = env.save_state()
    not_actions = [1.0, 1.5, "0", True, float("nan"), np.array([0, 1]), np.float32(legal[0]),
                   None]
    bad = [-1, spec.num_actions, 2**31] + ([illegal[0]] if illegal else [])
    for exc, values in ((TypeError, not_actions), (IllegalActionError, bad)):
        for a in values:
            _raises(lambda a=a: env.step(a), exc, f"{game}: action {a!r}")
            assert env.save_state() == before, f"{game}: bad action {a!r} changed the state"
    for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64):
        probe = mod.env(num_players=num_players)
        probe.load_state(before)
        probe.reset(seed=1)
        probe.step(t(legal[0]))
    lose = mod.env(num_players=num_players, illegal="lose")
    lose.reset(seed=1)
    agent = lose.agent_selection
    start = lose.save_state()
    for a in not_actions:  # not an action at all: an error under every policy, no penalty
        _raises(lambda a=a: lose.step(a), TypeError, f"{game}: illegal='lose' action {a!r}")
        assert lose.save_state() == start and not lose.terminations[agent]
    lose.step(illegal[0] if illegal else -1)
    assert lose.terminations[agent] and lose._cumulative_rewards[agent] == -1.0
    # a finished game: non-None actions for dead agents raise, then stepping past the end
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    while env.agents and not env.terminations[env.agent_selection] \
            and not env.truncations[env.agent_selection]:
        env.step(int(rng.choice(env.legal_actions())))
    _raises(lambda: env.step(0), ValueError, f"{game}: action for a finished agent")
    while env.agents:
        env.step(None)
    _raises(lambda: env.step(None), RuntimeError, f"{game}: step after the end")
    # the vector env validates before numba
    vec = mod.vec(4, num_players=num_players, seed=0)
    _raises(lambda: vec.step(np.zeros(4, np.int64)), RuntimeError, "vec step before reset")
    _, m, _ = vec.reset()
    saved = vec.save_states()
    good = m.argmax(1)
    for acts in (good[:3], good.astype(np.float64), np.full(4, -1), np.full(4, spec.num_actions),
                 good.astype(bool), np.where(m == 0, np.arange(spec.num_actions), -1).max(1)):
        _raises(lambda acts=acts: vec.step(acts), (ValueError, IllegalActionError),
                f"{game}: vec actions {acts!r}")
        assert vec.save_states() == saved, f"{game}: bad vec actions changed the states"
    vec.step(good.astype(np.int16))
    _raises(lambda: mod.env(num_players=spec.max_players + 1), ValueError, "too many players")
    _raises(lambda: mod.env(reward="dense"), ValueError, "bad reward option")
    _raises(lambda: mod.env(max_turns=0), ValueError, "bad max_turns")
    _raises(lambda: mod.env(no_such_option=1), TypeError, "unknown option")


# ---------------------------------------------------------------- saved-state mutation fuzz


def base_records(game: str, num_players: int = 2, seed: int = 0, games: int = 24,
                 **options) -> list[bytes]:
    """Sound records of random play: fresh deals, early, middle and late positions, ends."""
    mod = get_module(game)
    vec = mod.vec(games, num_players=num_players, seed=seed, auto_reset=False, **options)
    _, mask, _ = vec.reset()
    rng = rng_rows(seed + 7, games)
    actions = np.empty(games, np.int64)
    keep = {0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610}
    out = []
    step = 0
    while True:
        if step in keep:
            out.extend(vec.states[i].tobytes() for i in range(games))
        ended = (vec.states["terminated"] | vec.states["truncated"]).astype(bool)
        if ended.all():
            break
        K.batch_random_actions(mask, rng, actions)
        actions[ended] = -1
        _, mask, *_ = vec.step(actions, copy=False)
        step += 1
    out.extend(vec.states[i].tobytes() for i in range(games))  # every game ended
    return out


def check_end_flags(game: str, num_players: int = 2, **options) -> None:
    """The header's end flag must agree with the game's own end state.

    A running record (legal moves, no winner) marked terminated, and a terminated record
    with the flag cleared, are both refused by the loader.
    """
    spec = get_spec(game)
    env = get_module(game).env(num_players=num_players, **options)
    recs = [np.frombuffer(b, spec.state_dtype).copy()
            for b in base_records(game, num_players, seed=3, games=8, **options)]
    running = [r for r in recs if not (r["terminated"] or r["truncated"])]
    ended = [r for r in recs if r["terminated"]]
    assert running and ended, f"{game}: random play gave no running or no terminated record"
    for rec, flag in ((running[len(running) // 2], 1), (ended[-1], 0)):
        rec["terminated"] = flag
        try:
            env.load_state(rec.tobytes())
        except ValueError as err:
            assert str(err).startswith(f"{game}: "), str(err)
            continue
        state = "a running" if flag else "an ended"
        raise AssertionError(f"{game}: {state} record with terminated={flag} was accepted")


_INT_PROBES = (-1, 0, 1, 2, 3, 4, 5, 7, 12, 47, 48, 59, 60, 64, 127, 128, 255, 256, 1000,
               2**31 - 1, 2**32, 2**32 - 1, 2**63 - 1)
_FLOAT_PROBES = (float("nan"), float("inf"), float("-inf"), 1e30, -1e30, 1.0, -1.0, 0.5, 3e38)


def _probe(rng, dtype: np.dtype, old):
    """A value for one element of ``dtype``: an extreme, a neighbour or a random one."""
    if dtype.kind == "f":
        return _FLOAT_PROBES[rng.integers(len(_FLOAT_PROBES))] if rng.random() < 0.7 \
            else float(old) + float(rng.normal()) * 2.0
    info = np.iinfo(dtype)
    pick = rng.random()
    if pick < 0.2:
        v = (info.min, info.max)[rng.integers(2)]
    elif pick < 0.5:
        v = int(old) + int(rng.choice([-2, -1, 1, 2]))
    elif pick < 0.8:
        v = -_INT_PROBES[rng.integers(len(_INT_PROBES))] if rng.random() < 0.2 \
            else _INT_PROBES[rng.integers(len(_INT_PROBES))]
    else:
        v = int(rng.integers(info.min, info.max, endpoint=True))
    return min(max(v, info.min), info.max)  # what a corrupt file can hold in this field


def _elements(dtype: np.dtype):
    """(field name, element count, element dtype) of every field of a record dtype."""
    out = []
    for name in dtype.names:
        sub = dtype.fields[name][0]
        base = sub.base if sub.subdtype is not None else sub
        count = int(np.prod(sub.shape)) if sub.subdtype is not None else 1
        out.append((name, count, base))
    return out


def mutate(base: bytes, dtype: np.dtype, rng, others=()) -> tuple[bytes, str]:
    """One mutated saved state of ``base`` and a description of the mutation.

    Kinds: one field element pushed to an extreme, out of range, next to its value or
    to a random value (NaN and infinities for floats); several at once; random bytes
    overwritten; halves of two sound records spliced; wholly random bytes; and wrong
    lengths and dtypes (truncated, extended, re-encoded).
    """
    fields = _elements(dtype)
    kind = rng.random()
    if kind < 0.70:
        rec = np.frombuffer(base, dtype).copy()
        parts = []
        for _ in range(1 if kind < 0.5 else int(rng.integers(2, 5))):
            name, count, base_dt = fields[int(rng.integers(len(fields)))]
            flat = rec[name].reshape(-1)  # every element, scalars and (1,) arrays alike
            j = int(rng.integers(count))
            v = _probe(rng, base_dt, flat[j])
            flat[j] = v
            rec[name] = flat.reshape(rec[name].shape)
            parts.append(f"{name}[{j}]={v!r}" if count > 1 else f"{name}={v!r}")
        return rec.tobytes(), "field " + ", ".join(parts)
    data = bytearray(base)
    if kind < 0.82:
        k = int(rng.integers(1, 9))
        where = rng.integers(0, len(data), size=k)
        for w in where:
            data[w] = int(rng.integers(256))
        return bytes(data), f"bytes at {sorted(where.tolist())}"
    if kind < 0.90 and len(others):
        other = others[int(rng.integers(len(others)))]
        cut = int(rng.integers(1, len(data)))
        return bytes(data[:cut]) + other[cut:], f"splice at byte {cut}"
    if kind < 0.95:
        junk = bytearray(rng.integers(0, 256, size=len(data), dtype=np.uint8).tobytes())
        if rng.random() < 0.7:
            junk[0] = data[0]  # the right format byte, so the checks behind it run
        return bytes(junk), "random bytes"
    pick = int(rng.integers(5))
    if pick == 0:
        return bytes(data[: int(rng.integers(0, len(data)))]), "truncated"
    if pick == 1:
        return bytes(data) + bytes(int(rng.integers(1, 64))), "extended"
    if pick == 2:
        return bytes(data) * 2, "two records"
    if pick == 3:
        return np.frombuffer(bytes(data), np.uint8).astype(np.int16).tobytes(), "as int16"
    return b"", "empty"


def _mutation_child(game, num_players, options, items, start, stop, out_fd, steps,
                    seed) -> None:
    """In a forked child: load records ``start .. stop - 1``, report each on ``out_fd``.

    Before each record the child writes ``S <i>``, after it ``R <i> <outcome> <message>``,
    so a crash is pinned on the record that caused it. Record ``i``'s random play is seeded
    by ``seed + i``, whichever child runs it. Only single-record kernels run here (numba's
    OpenMP pool must not be used after a fork).
    """
    from .session import load_records

    spec = get_spec(game)
    mod = get_module(game)
    env = mod.env(num_players=num_players, **options)
    fields = env._fields
    inside = declared_bounds(game, num_players, **options)
    w = os.fdopen(out_fd, "w", buffering=1)
    for i in range(start, stop):
        w.write(f"S {i}\n")
        rng = np.random.default_rng(seed + i)
        try:
            try:
                env.load_state(items[i])
            except (ValueError, TypeError) as err:
                msg = str(err)
                if "\n" in msg or not msg.startswith(f"{game}:") or f": {game}:" in msg:
                    raise AssertionError(f"unclear refusal {msg!r}") from None
                w.write(f"R {i} refused {msg}\n")
                continue
            for seat in range(num_players):
                spec.render_ansi(env.record, seat)
            for k in range(steps):
                if not env.agents or env.terminations[env.agent_selection] \
                        or env.truncations[env.agent_selection]:
                    env.reset(seed=int(rng.integers(2**31)))
                else:
                    env.step(int(rng.choice(env.legal_actions())))
                load_records(spec, env.save_state(), 1, fields)  # sound after every step
                inside(env.states, 0, f"after {k + 1} steps")
            w.write(f"R {i} accepted\n")
        except BaseException as err:  # noqa: BLE001  (reported to the parent, not raised)
            text = f"{type(err).__name__}: {err}".replace("\n", " | ")
            w.write(f"R {i} failed {text}\n")
    w.close()
    os._exit(0)


def run_forked(game: str, num_players: int, items: list, options: dict | None = None,
               steps: int = 100, seed: int = 0, timeout: float = 60.0,
               lanes: int | None = None) -> list:
    """Load each of ``items`` (saved-state bytes) in forked children; one outcome each.

    Outcomes are ``("refused", message)``, ``("accepted", "")``, ``("failed", error)``
    or ``("crashed", how)``: a child that dies (a signal, an exit) or hangs (no progress
    for ``timeout`` seconds) has the record it was on pinned as crashed and is replaced by a
    fresh one from the next record. ``lanes`` children (default: one per core, at most 2)
    each take a contiguous share of the items at once; the outcomes do not depend on it.
    """
    import select
    import signal
    import time

    options = dict(options or {})
    env = get_module(game).env(num_players=num_players, **options)  # compile here, once
    env.reset(seed=0)
    env.load_state(env.save_state())
    env.step(env.legal_actions()[0])
    env.observe(env.agent_selection)
    results: list = [None] * len(items)
    if lanes is None:
        lanes = min(2, os.cpu_count() or 1)
    cuts = np.linspace(0, len(items), max(1, lanes) + 1).astype(int)
    running: dict = {}  # read end of a child's pipe -> that child's lane

    def spawn(start: int, stop: int) -> None:
        r, w = os.pipe()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # fork of a threaded parent
            pid = os.fork()
        if pid == 0:  # pragma: no cover (the child)
            os.close(r)
            try:
                _mutation_child(game, num_players, options, items, start, stop, w, steps, seed)
            finally:
                os._exit(1)
        os.close(w)
        running[r] = {"pid": pid, "next": start, "stop": stop, "current": None, "buf": b"",
                      "seen": time.monotonic()}

    for start, stop in zip(cuts[:-1], cuts[1:]):
        if stop > start:
            spawn(int(start), int(stop))
    while running:
        quiet = min(lane["seen"] for lane in running.values()) + timeout - time.monotonic()
        ready, _, _ = select.select(list(running), [], [], max(0.0, quiet))
        now = time.monotonic()
        ended = []  # (read end, whether it hung)
        for fd, lane in running.items():
            if fd not in ready:
                if now - lane["seen"] >= timeout:
                    os.kill(lane["pid"], signal.SIGKILL)
                    ended.append((fd, True))
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                ended.append((fd, False))
                continue
            lane["seen"] = now
            *lines, lane["buf"] = (lane["buf"] + chunk).split(b"\n")
            for line in lines:
                kind, idx, *rest = line.decode(errors="replace").split(" ", 3)
                i = int(idx)
                if kind == "S":
                    lane["current"] = i
                else:
                    results[i] = (rest[0], rest[1] if len(rest) > 1 else "")
                    lane["current"], lane["next"] = None, i + 1
        for fd, hung in ended:
            lane = running.pop(fd)
            os.close(fd)
            _, status = os.waitpid(lane["pid"], 0)
            # the record it was on; or, dead between records, the next one
            at = lane["next"] if lane["current"] is None else lane["current"]
            if at >= lane["stop"]:
                continue  # the child finished its share
            results[at] = ("crashed",
                           f"no progress for {timeout:.0f} s" if hung else
                           f"killed by signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status)
                           else f"exited with {os.WEXITSTATUS(status)}")
            if at + 1 < lane["stop"]:
                spawn(at + 1, lane["stop"])
    return results


def check_mutations(game: str, num_players: int = 2, records: int = 2000, seed: int = 0,
                    steps: int = 100, **options) -> dict:
    """Mutation fuzz of ``load_state``: no corrupt saved state may crash or mislead the env.

    ``records`` mutations (see :func:`mutate`) of sound records from random play are
    loaded, each in a forked child (many per child; a crash is pinned on its record).
    Every one must be refused with a one-line ValueError/TypeError naming the game once, or
    accepted and then play ``steps`` random steps (a new deal when a game ends) with the
    loader's own checks passing after every step and every observation in [-1, 1].
    Returns the counts of refused and accepted records.
    """
    spec = get_spec(game)
    rng = np.random.default_rng(seed)
    bases = base_records(game, num_players, seed=seed, **options)
    items, labels = [], []
    for _ in range(records):
        base = bases[int(rng.integers(len(bases)))]
        data, label = mutate(base, spec.state_dtype, rng, bases)
        items.append(data)
        labels.append(label)
    results = run_forked(game, num_players, items, options, steps=steps, seed=seed)
    bad = [(i, r, labels[i]) for i, r in enumerate(results) if r[0] not in ("refused", "accepted")]
    if bad:
        lines = [f"  record {i} ({label}): {kind}: {msg}" for i, (kind, msg), label in bad[:10]]
        raise AssertionError(f"{game}: {len(bad)} of {records} mutated saved states crashed "
                             "or broke the env:\n" + "\n".join(lines))
    counts = {"records": records, "refused": 0, "accepted": 0}
    for kind, _ in results:
        counts[kind] += 1
    return counts


def check_vector_subprocess(game: str, context: str) -> None:
    """The gym wrapper runs in gymnasium's AsyncVectorEnv under ``spawn``/``forkserver``."""
    import gymnasium

    spec = get_spec(game)
    envs = gymnasium.vector.AsyncVectorEnv(
        [lambda: gymnasium.make(spec.gym_id, opponent="random") for _ in range(2)],
        context=context)
    try:
        obs, _ = envs.reset(seed=0)
        for _ in range(5):
            masks = obs["action_mask"]
            acts = np.array([int(np.flatnonzero(m)[0]) for m in masks])
            obs, rew, term, trunc, info = envs.step(acts)
            assert all(math.isfinite(r) for r in rew)
    finally:
        envs.close()


def check_game(game: str, num_players: int = 2, fuzz_games: int = 200,
               mutations: int = 2000) -> None:
    """Run the whole contract on one game and player count (what tests/ runs per game)."""
    check_pettingzoo(game, num_players, num_cycles=200)
    check_gym(game, num_players)
    check_render(game, num_players)
    check_terminal_masks(game, num_players)
    check_mask_blind(game, num_players)
    check_pickle(game, num_players)
    fuzz(game, num_players, games=fuzz_games)
    check_determinism(game, num_players, steps=100, batch_sizes=(1, 7, 64))
    check_save_load(game, num_players)
    check_hidden_info(game, num_players, positions=4, resamples=5)
    check_bad_input(game, num_players)
    check_end_flags(game, num_players)
    check_mutations(game, num_players, records=mutations)
