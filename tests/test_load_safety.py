"""Saved states from outside are checked before any kernel reads them; VecEnv adapter fixes."""

import os
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np
import pytest

import fatezoo
from fatezoo.envs.core import testing as T
from fatezoo.envs.core.registry import get_spec

# ---------------------------------------------------------------- the mutation fuzz


@pytest.mark.parametrize("game", fatezoo.GAMES)
def test_mutation_fuzz(game, long_run):
    """At least 2,000 mutated saved states per game (20,000 per player count with --long)."""
    spec = get_spec(game)
    counts = T.player_counts(game)
    option_sets = spec.evaluation.contract_options or ({},)
    per_count = 20_000 if long_run else -(-2000 // len(counts))
    for k, n in enumerate(counts):
        options = dict(option_sets[k % len(option_sets)])
        report = T.check_mutations(game, n, records=per_count, seed=100 + n, **options)
        assert report["refused"] + report["accepted"] == per_count
        assert report["accepted"] > 0, "no mutation was ever accepted: the fuzz tests nothing"


def test_mutation_fuzz_with_numba_boundscheck():
    """With NUMBA_BOUNDSCHECK=1 any kernel index outside its array raises: none may."""
    cache = os.path.join(tempfile.gettempdir(), "fatezoo-numba-boundscheck")
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=cache)
    code = """
import numpy as np
import fatezoo
from fatezoo.envs.core import kernels as K
from fatezoo.envs.core.testing import check_mutations
env = fatezoo.make("fatefell")
env.reset(seed=0)
bad = env.states.copy()
bad["coin"] = 100  # what the loader refuses: proves the bounds are checked in this process
try:
    K.encode_one(bad, 0, 0, np.zeros(env.SPEC.obs_size, np.float32))
except IndexError:
    print("boundscheck on")
print(check_mutations("fatefell", 3, records=400, seed=7, steps=60))
"""
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=1200)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert "boundscheck on" in out.stdout
    assert "'accepted'" in out.stdout


def test_the_fuzz_catches_a_crash_and_names_the_record():
    # a child that dies on one record: the outcome is pinned on that record, the rest run
    results = T.run_forked("fatefell", 2, [b"", b"x", b"", b"\x00"], steps=1, seed=0)
    assert [r[0] for r in results] == ["refused"] * 4
    base = T.base_records("fatefell", 2, games=2)[0]
    rec = np.frombuffer(base, get_spec("fatefell").state_dtype).copy()
    rec["seasons"] = 9
    kinds = [r[0] for r in T.run_forked("fatefell", 2, [base, rec.tobytes()], steps=5)]
    assert kinds == ["accepted", "refused"]


@pytest.mark.parametrize("lanes", [1, 2])
def test_a_dead_or_hung_child_is_pinned_on_its_record_and_the_rest_run(monkeypatch, lanes):
    # the children are forks: a load_state patched here kills or stalls them there
    base = T.base_records("fatefell", 2, games=2)[0]
    env_type = type(T.get_module("fatefell").env(num_players=2))
    load = env_type.load_state

    def load_or_die(self, data):
        if data == b"kill":  # (SIGKILL: a fault handler would print a SIGSEGV's traceback)
            os.kill(os.getpid(), signal.SIGKILL)
        if data == b"exit":
            os._exit(3)
        if data == b"hang":
            time.sleep(60)
        return load(self, data)

    monkeypatch.setattr(env_type, "load_state", load_or_die)
    items = [base, b"kill", b"", b"hang", base, b"exit"]
    results = T.run_forked("fatefell", 2, items, steps=3, timeout=3, lanes=lanes)
    assert [r[0] for r in results] == ["accepted", "crashed", "refused", "crashed", "accepted",
                                      "crashed"]
    assert results[1][1] == f"killed by signal {int(signal.SIGKILL)}"
    assert results[3][1] == "no progress for 3 s"
    assert results[5][1] == "exited with 3"


def test_the_mutation_fuzz_outcomes_do_not_depend_on_the_lanes():
    base = T.base_records("fatefell", 2, games=4)
    rng = np.random.default_rng(5)
    items = [T.mutate(base[k % 4], get_spec("fatefell").state_dtype, rng, base)[0]
             for k in range(40)]
    one = T.run_forked("fatefell", 2, items, steps=20, seed=9, lanes=1)
    assert T.run_forked("fatefell", 2, items, steps=20, seed=9, lanes=2) == one
    assert {r[0] for r in one} <= {"refused", "accepted"}


# ---------------------------------------------------------------- what the issue found


def _saved(n=2, steps=40, seed=0, **options):
    env = fatezoo.make("fatefell", num_players=n, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        env.step(int(rng.choice(env.legal_actions())))
    return env, np.frombuffer(env.save_state(), env.states.dtype).copy()


def _refused(env, rec, match):
    before = env.save_state()
    with pytest.raises(ValueError, match=match) as err:
        env.load_state(rec.tobytes())
    assert "\n" not in str(err.value) and str(err.value).startswith("fatefell: ")
    assert env.save_state() == before, "a refused state changed the env"


@pytest.mark.parametrize("words", [[2**32, 1, 1, 1], [-1, 1, 1, 1], [0, 0, 0, 0],
                                   [2**62, 5, 6, 7]])
def test_rng_words_out_of_range_are_refused(words):
    env, rec = _saved()
    rec["rng"] = words
    _refused(env, rec, "rng must be four words in")


@pytest.mark.parametrize("field,value", [("coin", 5), ("coin", -2), ("first_slot", 9),
                                         ("first_slot", -3), ("phase", 77), ("effect", 40),
                                         ("current_player", 3), ("final_left", 100)])
def test_indexes_encode_uses_are_range_checked(field, value):
    env, rec = _saved()
    rec[field] = value
    _refused(env, rec, field)


@pytest.mark.parametrize("game", fatezoo.GAMES)
def test_a_refusal_names_the_game_once(game):
    env = fatezoo.make(game)
    env.reset(seed=0)
    rec = env.states.copy()
    rec["phase"] = 99  # every game keeps its phase in "phase"; the game-side check refuses it
    with pytest.raises(ValueError, match=f"^{game}: saved state 0 is corrupt: phase") as err:
        env.load_state(rec.tobytes())
    assert str(err.value).count(f"{game}:") == 1, str(err.value)


def test_season_kind_out_of_range_is_refused():
    env, rec = _saved()
    rec["season_kind"][0] = 100
    _refused(env, rec, "season_kind")


def test_a_bad_row_cannot_touch_another_rows_observation():
    vec = fatezoo.make_vec("fatefell", num_envs=2, seed=0)
    vec.reset()
    states = vec.states.copy()
    states[0]["coin"] = 100  # encode would index past row 0 into row 1
    row1 = vec.observe(np.zeros(2, np.int64))[1].copy()
    with pytest.raises(ValueError, match="saved state 0 is corrupt: coin"):
        vec.load_states(states.tobytes())
    assert (vec.observe(np.zeros(2, np.int64))[1] == row1).all()


@pytest.mark.parametrize("field", ["matched", "known", "scratch"])
def test_flags_must_be_0_or_1(field):
    env, rec = _saved()
    flat = rec[field].reshape(-1)
    flat[0] = 127
    rec[field] = flat.reshape(rec[field].shape)
    _refused(env, rec, f"{field} must be 0 or 1")


def test_seasonal_rules_flag_must_be_0_or_1():
    env, rec = _saved()
    rec["seasonal_rules"] = 127
    _refused(env, rec, "seasonal_rules")


def test_a_fate_card_in_a_discard_pile_is_refused():
    env, rec = _saved(steps=0)
    r = rec[0]
    fate = int(r["out"][0])  # a Fate card out of the season, moved onto the discard pile
    r["out"][: r["out_n"] - 1] = r["out"][1: r["out_n"]]
    r["out_n"] -= 1
    r["discard"][0, r["discard_n"][0]] = fate
    r["discard_n"][0] += 1
    _refused(env, rec, "discard pile 0 must be Arcana")


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("field", ["rewards", "returns"])
def test_rewards_must_be_finite(field, value):
    env, rec = _saved()
    rec[field][0, 0] = value
    _refused(env, rec, f"{field} must be finite")


def test_a_running_game_needs_a_legal_action():
    env, rec = _saved(steps=0)
    rec["phase"] = 9  # OVER, but not terminated: a running game with no decision
    _refused(env, rec, "phase OVER")
    env, rec = _saved(steps=0)
    rec["matched"][0, 0, :] = 1  # every slot of the turn player matched: nothing to place
    rec["known"][0, :, 0, :] = 1
    rec["phase"] = 1
    _refused(env, rec, "corrupt")


@pytest.mark.parametrize("option,value,expect", [
    ("seasons", 2, "seasons=2, this env has seasons=4"),
    ("max_turns", 50, "max_turns=50, this env has max_turns=1000"),
    ("reward", "score", "reward_mode=1, this env has reward_mode=0"),
    ("advanced", True, "random_seasons=1, this env has random_seasons=0"),
])
def test_a_save_with_other_options_is_refused_naming_the_option(option, value, expect):
    _, rec = _saved(steps=5, **{option: value})
    env = fatezoo.make("fatefell", num_players=2)
    env.reset(seed=1)
    _refused(env, rec, expect)
    vec = fatezoo.make_vec("fatefell", num_envs=1)
    with pytest.raises(ValueError, match=expect):
        vec.load_states(rec.tobytes())


def test_every_state_of_play_is_accepted_by_the_loader():
    for n in (2, 3, 4):
        env = fatezoo.make("fatefell", num_players=n, advanced=True, reward="score")
        env.reset(seed=n)
        rng = np.random.default_rng(n)
        other = fatezoo.make("fatefell", num_players=n, advanced=True, reward="score")
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            env.step(int(rng.choice(env.legal_actions())))
            other.load_state(env.save_state())
        assert other.terminations[other.agent_selection]


# ---------------------------------------------------------------- VecEnv


def _finished_record(n=2):
    vec = fatezoo.make_vec("fatefell", num_envs=1, num_players=n, seed=4, auto_reset=False)
    _, mask, _ = vec.reset()
    rng = np.random.default_rng(0)
    while not (vec.states["terminated"][0] or vec.states["truncated"][0]):
        _, mask, *_ = vec.step(np.array([rng.choice(np.flatnonzero(mask[0]))]))
    return vec.states[0].tobytes()


def test_a_loaded_finished_game_auto_resets_on_the_next_step():
    done = _finished_record()
    vec = fatezoo.make_vec("fatefell", num_envs=3, seed=1, auto_reset=True)
    _, mask, _ = vec.reset()
    running = vec.states[0].tobytes()
    vec.load_states(running + done + running)
    assert (vec.mask[1] == 1).all() and vec.states["terminated"][1] == 1  # ended: all legal
    actions = mask.argmax(1)
    actions[1] = 12345  # ignored: the row is dealt anew
    obs, mask, player, rewards, term, trunc = vec.step(actions)
    assert not term[1] and not trunc[1] and (rewards[1] == 0).all()
    r = vec.states[1]
    assert r["terminated"] == 0 and r["turn"] == 0 and r["steps"] == 0
    assert mask[1].sum() >= 2 and vec.states["steps"][0] == vec.states["steps"][2]
    vec.step(mask.argmax(1))  # and it plays on like any other row


def test_a_loaded_finished_game_without_auto_reset_ignores_its_action():
    done = _finished_record()
    vec = fatezoo.make_vec("fatefell", num_envs=1, seed=1, auto_reset=False)
    vec.load_states(done)
    assert (vec.mask[0] == 1).all()
    with pytest.raises(ValueError, match=r"has ended; its action is ignored but must be an int "
                                         r"in \[-1, 33\), got 33"):
        vec.step(np.array([33]))
    for a in (0, 32, -1):
        vec.step(np.array([a]))
        assert vec.save_states() == done


@pytest.mark.parametrize("seed,exc", [("abc", TypeError), (1.5, TypeError), (True, TypeError),
                                      (-1, ValueError), ([0, 1, 2], ValueError),
                                      ([0, 1, 2, 1.5], TypeError), ([0, 1, 2, -3], ValueError),
                                      (b"abcd", TypeError)])
def test_bad_seeds_fail_at_construction(seed, exc):
    with pytest.raises(exc, match="seed"):
        fatezoo.make_vec("fatefell", num_envs=4, seed=seed)
    vec = fatezoo.make_vec("fatefell", num_envs=4)
    with pytest.raises(exc, match="seed"):
        vec.reset(seed=seed)


def test_good_seeds():
    a = fatezoo.make_vec("fatefell", num_envs=4, seed=np.int64(3))
    b = fatezoo.make_vec("fatefell", num_envs=4, seed=(3, 4, 5, 6))
    c = fatezoo.make_vec("fatefell", num_envs=4, seed=np.arange(4))
    for v in (a, b, c):
        v.reset()


def test_step_hands_out_again_only_arrays_nobody_holds():
    """step(copy=True) reuses the memory of arrays it handed out once the caller has dropped
    them (no fresh allocation per step), never of one still held directly or by a view."""
    from fatezoo.envs.core import vector

    vec = fatezoo.make_vec("fatefell", num_envs=8, seed=0)
    vec.reset()
    out = vec.step(vec.mask.argmax(1))
    row, mask = out[0][1], out[1]  # a view of the observation, the mask itself
    row_was, mask_was = row.copy(), mask.copy()
    del out
    for _ in range(4):
        new = vec.step(vec.mask.argmax(1))
        assert not np.shares_memory(new[0], row) and not np.shares_memory(new[1], mask)
    assert np.array_equal(row, row_was) and np.array_equal(mask, mask_was)
    assert vector._REFCOUNTS  # CPython: the reuse below is what the bench measures
    first = vec.step(vec.mask.argmax(1))[0].ctypes.data  # dropped at once
    assert vec.step(vec.mask.argmax(1))[0].ctypes.data == first
    assert np.array_equal(vec.obs, vec.observe(vec.current_player))


def test_step_returns_copies_unless_asked_for_the_buffers():
    vec = fatezoo.make_vec("fatefell", num_envs=8, seed=0)
    _, mask, _ = vec.reset()
    out = vec.step(mask.argmax(1))
    kept = [x.copy() for x in out]
    out2 = vec.step(out[1].argmax(1))
    for a, b in zip(out, kept):
        assert (a == b).all(), "a later step changed arrays returned earlier"
    assert out[0] is not vec.obs and out[1] is not vec.mask
    kept2 = [x.copy() for x in out2]
    saved = vec.save_states()
    views = vec.step(out2[1].argmax(1), copy=False)
    assert views[0] is vec.obs and views[1] is vec.mask
    assert np.shares_memory(views[3], vec._rewards)
    # step(copy=True) encodes straight into the array it hands out; whatever writes the
    # env's buffers later (a view step, load_states, reset) must not touch that array
    assert np.array_equal(views[0], vec.observe(vec.current_player))
    vec.load_states(saved)
    assert np.array_equal(vec.obs, kept2[0])  # the same records encode the same
    vec.reset()
    for a, b in zip(out2, kept2):
        assert (a == b).all(), "a view step, load_states or reset changed a returned array"
    again = vec.step(vec.mask.argmax(1))
    assert np.array_equal(again[0], vec.observe(vec.current_player))
