"""Where an ISMCTS simulation's time goes in one game: encoding, policy, step.

    python scripts/profile_rollout.py foretold [--moves 20] [--rollouts 200] [--seed 3]

From a position ``--moves`` random decisions into a game, it times in numba (one thread):
the game's ``encode`` of the mover's observation, its rollout ``policy`` given that
observation, a whole heuristic rollout and a whole random one (both from a determinized
copy, as :func:`fatezoo.agents.ismcts.search_row` plays them), and the copy, determinize
and legal mask that start each simulation. The encode share is the encode's cost times
the heuristic rollout's decisions over the rollout's time. Its own kernels compile on
every run (seconds): numba cannot reload a cache of a file run as a script.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from fatezoo.agents.ismcts import NO_NETWORK, ROLLOUT_CODES, _rollout_action
from fatezoo.envs.core import kernels as K
from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.kernels import (
    game_determinize,
    game_encode,
    game_legal,
    game_policy,
    step_record,
)
from fatezoo.envs.core.registry import game_names, get_spec
from fatezoo.envs.core.rng import seed_words


@njit  # not cached: the script is loaded as __main__ and as a test module
def encode_n(rec, obs, n):
    """``encode`` of the mover's observation ``n`` times."""
    total = 0.0
    for _ in range(n):
        game_encode(rec, rec["current_player"], 0, obs)
        total += obs[0]
    return total


@njit  # not cached: the script is loaded as __main__ and as a test module
def policy_n(rec, obs, mask, words, n):
    """The rollout policy on one encoded observation ``n`` times."""
    total = 0
    game_encode(rec, rec["current_player"], 0, obs)
    for _ in range(n):
        total += game_policy(obs, mask, words, rec)
    return total


@njit  # not cached: the script is loaded as __main__ and as a test module
def start_n(work, work_u8, root_u8, words, mask, n):
    """A simulation's start ``n`` times: copy the root, determinize, legal mask."""
    viewer = work[0]["current_player"]
    for _ in range(n):
        work_u8[0, :] = root_u8[0, :]
        game_determinize(work[0], viewer, words)
        game_legal(work[0], mask)


@njit  # not cached: the script is loaded as __main__ and as a test module
def rollouts_n(work, work_u8, root_u8, words, obs, mask, n, mode, net_w, net_shapes):
    """``n`` simulations played to the end; the decisions played."""
    steps = 0
    viewer = work[0]["current_player"]
    for _ in range(n):
        work_u8[0, :] = root_u8[0, :]
        rec = work[0]
        game_determinize(rec, viewer, words)
        game_legal(rec, mask)
        while not (rec["terminated"] or rec["truncated"]):  # search_row's rollout
            step_record(rec, _rollout_action(rec, mask, obs, words, mode, net_w, net_shapes),
                        mask)
            steps += 1
    return steps


def timed(fn, *args):
    """(seconds, result) of one call."""
    start = time.perf_counter()
    out = fn(*args)
    return time.perf_counter() - start, out


def profile(game: str, moves: int = 20, rollouts: int = 200, calls: int = 20000,
            seed: int = 3) -> dict:
    """The measurements of one game (microseconds and counts)."""
    spec = get_spec(game)
    states = spec.new_states(1, spec.options())
    states["rng"] = seed_words(seed, 0)
    mask = np.zeros(spec.num_actions, np.int8)
    K.reset_one(states, 0, mask)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        K.step_one(states, 0, int(rng.choice(np.flatnonzero(mask))), mask)
        if states[0]["terminated"] or states[0]["truncated"]:
            raise SystemExit(f"{game}: the game ended within {moves} random moves; "
                             "give fewer --moves")
    obs = np.zeros(spec.obs_size, np.float32)
    words = seed_words(seed + 1, 0).copy()
    work = states.copy()
    root_u8 = states.view(np.uint8).reshape(1, -1)
    work_u8 = work.view(np.uint8).reshape(1, -1)
    # compile (or load) first, then time
    encode_n(states[0], obs, 1)
    policy_n(states[0], obs, mask, words, 1)
    start_n(work, work_u8, root_u8, words, mask, 1)
    heuristic, random = ROLLOUT_CODES["heuristic"], ROLLOUT_CODES["random"]
    rollouts_n(work, work_u8, root_u8, words, obs, mask, 1, heuristic, *NO_NETWORK)
    t_encode, _ = timed(encode_n, states[0], obs, calls)
    K.mask_one(states, 0, mask)
    t_policy, _ = timed(policy_n, states[0], obs, mask, words, calls)
    t_start, _ = timed(start_n, work, work_u8, root_u8, words, mask, calls // 10)
    t_heur, heur_steps = timed(rollouts_n, work, work_u8, root_u8, words, obs, mask,
                               rollouts, heuristic, *NO_NETWORK)
    t_rand, rand_steps = timed(rollouts_n, work, work_u8, root_u8, words, obs, mask,
                               rollouts, random, *NO_NETWORK)
    encode_us = 1e6 * t_encode / calls
    return {"game": game, "record_bytes": int(root_u8.shape[1]), "obs_size": spec.obs_size,
            "encode_us": encode_us, "policy_us": 1e6 * t_policy / calls,
            "start_us": 1e6 * t_start / (calls // 10),
            "heuristic_steps": heur_steps / rollouts,
            "heuristic_us_per_step": 1e6 * t_heur / max(heur_steps, 1),
            "random_steps": rand_steps / rollouts,
            "random_us_per_step": 1e6 * t_rand / max(rand_steps, 1),
            "encode_share": 1e-6 * encode_us * heur_steps / t_heur}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=game_names())
    parser.add_argument("--moves", type=int, default=20, help="random moves before timing")
    parser.add_argument("--rollouts", type=int, default=200, help="rollouts timed per kind")
    parser.add_argument("--calls", type=int, default=20000, help="encode and policy calls")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)
    r = profile(args.game, args.moves, args.rollouts, args.calls, args.seed)
    print(f"{r['game']}: record {r['record_bytes']} bytes, observation {r['obs_size']} floats")
    print(f"  encode {r['encode_us']:.2f} us, policy (observation given) {r['policy_us']:.2f} us,"
          f" simulation start (copy, determinize, legal) {r['start_us']:.1f} us")
    print(f"  heuristic rollout: {r['heuristic_steps']:.0f} decisions, "
          f"{r['heuristic_us_per_step']:.2f} us each; encode {100 * r['encode_share']:.0f}% "
          "of it")
    print(f"  random rollout: {r['random_steps']:.0f} decisions, "
          f"{r['random_us_per_step']:.2f} us each")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
