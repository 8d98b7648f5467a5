"""``fatezoo train GAME --backend rllib``: one shared masked PPO policy for every seat, on RLlib.

Read top to bottom: the env RLlib steps, the policy (a PPO module that masks illegal
actions), the fixed opponents (the game's heuristic, uniform random), self-play snapshots,
the config, and the training loop. Needs the ``ray`` extra (``pip install 'fatezoo[ray]'``);
nothing here is imported by ``fatezoo`` or its CLI unless asked for.

The env: a :class:`FatezooMultiAgentEnv` drives one record of the batched core through the
core's single-record path (:class:`~fatezoo.envs.core.session.Session`, the engine under the
AEC env), turn by turn: only the seat to act gets an observation; when the game ends every
seat that has acted gets its last observation and reward. It was measured against RLlib's
``PettingZooEnv`` wrapper around the AEC env (``fatezoo.make(game)``) on 2 shared cores:
the README's "Scaling out" section has the numbers; it is faster because it skips the AEC
bookkeeping (agent dicts, cumulative rewards, the ``step(None)`` of every finished seat) and
copies no observation dicts. RLlib's own per-step work (episodes, connectors) dominates
either way, so the batched vector env is not used: RLlib's multi-agent env runner steps its
envs one by one.

Masks: observations are ``{"observations": float32, "action_mask": float32}``; the module
sets the logits of illegal actions to the lowest float before any sampling, so an illegal
action has probability 0 (the env raises if one is ever played; a test samples thousands).

Opponents (per episode, drawn from ``w_random``, ``w_heuristic`` and ``w_self``): the
learner takes one random seat and the opponent module every other seat; a self-play
episode puts either the learner itself in every seat (one shared policy, all seats
trained) or a past snapshot of it in the other seats (``pool_size`` slots, refreshed in
turn every ``snapshot_every`` timesteps, the first at the start).

A run writes ``out_dir/{game}__rllib__{seed}__{time}/``: ``options.json``, ``progress.csv``
(per iteration), ``evals.csv``, ``checkpoint/`` (the RLlib algorithm checkpoint: the agent
``rllib:PATH``) and ``result.json``. Timesteps count the learner's decisions, as
``fatezoo train`` counts them.
"""

from __future__ import annotations

import csv
import dataclasses
import functools
import json
import math
import sys
import time
import zlib
from pathlib import Path

import gymnasium as gym
import numpy as np
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.utils.metrics import (
    ENV_RUNNER_RESULTS,
    NUM_ENV_STEPS_SAMPLED_LIFETIME,
    NUM_MODULE_STEPS_SAMPLED_LIFETIME,
)

from fatezoo.agents.base import HeuristicAgent, RandomAgent
from fatezoo.agents.rllib import MODULE_ID, RllibAgent
from fatezoo.envs.core.registry import get_spec
from fatezoo.envs.core.session import Session

from .options import TrainOptions
from .train_eval import eval_opponents, evaluate

LEARNER = MODULE_ID
HEURISTIC, RANDOM = "heuristic", "random"
LOWEST = torch.finfo(torch.float32).min


# ---------------------------------------------------------------- the env


class FatezooMultiAgentEnv(MultiAgentEnv):
    """A fatezoo game as an RLlib multi-agent env, turn by turn (see the module docs).

    ``config``: ``game``, ``num_players``, ``options`` (env options: ``reward``,
    ``max_turns``, the game's own) and ``seed`` (the first game's seed; each env runner
    and vector slot offsets it, so runs with the same seed deal the same games).
    """

    def __init__(self, config=None):
        super().__init__()
        config = dict(config or {})
        self.game_spec = spec = get_spec(config["game"])
        fields = spec.options(num_players=int(config.get("num_players", 2)),
                              **dict(config.get("options") or {}))
        self._game = Session(spec, fields)
        n = fields["num_players"]
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = list(self.possible_agents)
        space = gym.spaces.Dict({
            "observations": gym.spaces.Box(-1.0, 1.0, (spec.obs_size,), np.float32),
            "action_mask": gym.spaces.Box(0.0, 1.0, (spec.num_actions,), np.float32)})
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: gym.spaces.Discrete(spec.num_actions)
                              for a in self.possible_agents}
        slot = int(getattr(config, "worker_index", 0)) * 1009 + \
            int(getattr(config, "vector_index", 0))
        self._next_seed = int(config.get("seed", 0)) * 1_000_003 + slot
        self._seen: set[int] = set()
        self._all_legal = np.ones(spec.num_actions, np.float32)

    def _obs(self, seat: int, final: bool = False) -> dict:
        # a finished game has no legal action: the last observation gets an all-legal mask
        # (never sampled from; it keeps the masked logits finite for the value function)
        mask = self._all_legal if final else self._game.mask.astype(np.float32)
        return {"observations": self._game.observe(seat).copy(), "action_mask": mask}

    def reset(self, *, seed=None, options=None):
        """Deal a new game (``seed`` fixes it; else the env's own sequence of seeds)."""
        if seed is None:
            seed, self._next_seed = self._next_seed, self._next_seed + 7919
        self._game.reset(int(seed))
        seat = self._game.current_player
        self._seen = {seat}
        return {self.possible_agents[seat]: self._obs(seat)}, {}

    def step(self, action_dict):
        """Apply the acting seat's action; the next seat's observation (all at the end)."""
        seat = self._game.current_player
        agent = self.possible_agents[seat]
        a = int(action_dict[agent])
        if not (0 <= a < self.game_spec.num_actions and self._game.mask[a]):
            raise ValueError(f"{self.game_spec.name}: {agent} played illegal action {a}; legal: "
                             f"{np.flatnonzero(self._game.mask).tolist()}")
        self._game.step(a)
        rewards = self._game.rewards()
        if self._game.done:
            trunc = bool(self._game._trunc[0])
            names = [self.possible_agents[s] for s in sorted(self._seen)]
            obs = {name: self._obs(s, final=True) for s, name in zip(sorted(self._seen), names)}
            rew = {name: float(rewards[s]) for s, name in zip(sorted(self._seen), names)}
            terminated = {name: not trunc for name in names}
            truncated = {name: trunc for name in names}
            terminated["__all__"], truncated["__all__"] = not trunc, trunc
            return obs, rew, terminated, truncated, {}
        nxt = self._game.current_player
        self._seen.add(nxt)
        rew = {self.possible_agents[s]: float(rewards[s]) for s in self._seen
               if rewards[s] or s == nxt}
        return ({self.possible_agents[nxt]: self._obs(nxt)}, rew, {"__all__": False},
                {"__all__": False}, {})


class AECMultiAgentEnv(MultiAgentEnv):
    """The other candidate: RLlib's ``PettingZooEnv`` over the AEC env, keys renamed.

    Kept for :func:`bench_envs` (the measurement behind the choice in the module docs).
    """

    def __init__(self, config=None):
        super().__init__()
        from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

        import fatezoo

        config = dict(config or {})
        self._env = PettingZooEnv(fatezoo.make(config["game"],
                                               num_players=int(config.get("num_players", 2)),
                                               **dict(config.get("options") or {})))
        self.possible_agents = list(self._env.possible_agents)
        self.agents = list(self.possible_agents)
        self.observation_spaces = FatezooMultiAgentEnv(config).observation_spaces
        self.action_spaces = self._env.action_spaces
        self._seed = int(config.get("seed", 0))

    @staticmethod
    def _rename(obs: dict) -> dict:
        return {a: {"observations": o["observation"],
                    "action_mask": o["action_mask"].astype(np.float32)} for a, o in obs.items()}

    def reset(self, *, seed=None, options=None):
        """Deal a new game."""
        if seed is None:
            seed, self._seed = self._seed, self._seed + 7919
        obs, info = self._env.reset(seed=seed)
        return self._rename(obs), info

    def step(self, action_dict):
        """One AEC step (and the ``step(None)`` of every finished seat)."""
        obs, rew, term, trunc, info = self._env.step(action_dict)
        return self._rename(obs), rew, term, trunc, info


def bench_envs(game: str = "fatefell", steps: int = 20_000, num_players: int = 2,
               options: dict | None = None) -> dict:
    """Env steps/s of both candidate envs, uniform random legal actions, one process.

    Returns:
        ``{"core": steps/s of FatezooMultiAgentEnv, "aec": steps/s of AECMultiAgentEnv}``.
    """
    config = {"game": game, "num_players": num_players, "options": dict(options or {})}
    out = {}
    for name, cls in (("core", FatezooMultiAgentEnv), ("aec", AECMultiAgentEnv)):
        env = cls(config)
        rng = np.random.default_rng(0)
        obs, _ = env.reset(seed=0)
        start = time.perf_counter()
        for _ in range(steps):
            (agent, o), = obs.items() if len(obs) == 1 else list(obs.items())[:1]
            legal = np.flatnonzero(o["action_mask"])
            obs, _, term, trunc, _ = env.step({agent: int(rng.choice(legal))})
            if term["__all__"] or trunc["__all__"]:
                obs, _ = env.reset()
        out[name] = steps / (time.perf_counter() - start)
    return out


# ---------------------------------------------------------------- the policy


def _split(batch: dict):
    """``(batch with the plain observations, the action mask)`` from a dict-obs batch."""
    obs = batch[Columns.OBS]
    inner = dict(batch)
    inner[Columns.OBS] = obs["observations"]
    return inner, obs["action_mask"]


class MaskedPPOModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO module over the plain observations, illegal logits masked.

    Illegal logits are set to the lowest float32, so they get probability 0 in sampling,
    log-probabilities and entropy.
    """

    def __init__(self, *args, observation_space=None, **kwargs):
        self.masked_space = observation_space
        super().__init__(*args, observation_space=observation_space["observations"], **kwargs)
        self.observation_space = observation_space  # what RLlib checks the env against

    def _forward(self, batch, **kwargs):
        inner, mask = _split(batch)
        return self._masked(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch, **kwargs):
        inner, mask = _split(batch)
        return self._masked(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch, embeddings=None):
        """The value head on the plain observations."""
        if isinstance(batch[Columns.OBS], dict):
            batch, _ = _split(batch)
        return super().compute_values(batch, embeddings)

    @staticmethod
    def _masked(out: dict, mask) -> dict:
        logits = out[Columns.ACTION_DIST_INPUTS]
        out[Columns.ACTION_DIST_INPUTS] = torch.where(mask > 0, logits,
                                                      torch.full_like(logits, LOWEST))
        return out


class FixedAgentModule(RLModule):
    """A fatezoo agent (the heuristic, or uniform random) as an untrained RLlib module.

    ``model_config``: ``game``, ``agent`` (``"heuristic"`` or ``"random"``) and ``seed``.
    """

    def setup(self):
        """Build the agent."""
        cfg = self.model_config
        seed = int(cfg.get("seed", 0))
        self.agent = (HeuristicAgent(cfg["game"], seed) if cfg["agent"] == HEURISTIC
                      else RandomAgent(seed))

    def _forward(self, batch, **kwargs):
        obs = batch[Columns.OBS]
        o, m = (np.asarray(x.cpu() if hasattr(x, "cpu") else x)
                for x in (obs["observations"], obs["action_mask"]))
        actions = self.agent.act_batch(o.astype(np.float32), (m > 0).astype(np.int8))
        return {Columns.ACTIONS: actions}

    def _forward_train(self, batch, **kwargs):
        raise NotImplementedError(f"{self.model_config['agent']} is not trained")

    def get_state(self, *args, **kwargs):
        """No weights."""
        return {}

    def set_state(self, state):
        """No weights."""


# ---------------------------------------------------------------- opponents and self-play


def past(i: int) -> str:
    """The module id of self-play snapshot slot ``i``."""
    return f"past_{i}"


def opponent_mapping(weights: dict, pool_size: int, num_players: int, seed: int):
    """``agent_to_module_mapping_fn``: per episode, the learner's seat and the opponent.

    Drawn from a generator seeded by (``seed``, episode id), so every seat of an episode
    agrees. ``weights``: ``random`` / ``heuristic`` / ``self`` -> weight.
    """
    kinds = [k for k, w in weights.items() if w > 0]
    probs = np.array([weights[k] for k in kinds], float)
    probs /= probs.sum()

    def mapping(agent_id, episode, **kwargs):
        key = zlib.crc32(f"{seed}/{episode.id_}".encode())
        rng = np.random.default_rng(key)
        learner_seat = int(rng.integers(num_players))
        kind = kinds[int(rng.choice(len(kinds), p=probs))]
        if kind == "self":
            k = int(rng.integers(pool_size + 1))  # pool_size: the learner in every seat
            opponent = LEARNER if k == pool_size else past(k)
        else:
            opponent = kind
        return LEARNER if int(str(agent_id).rsplit("_", 1)[1]) == learner_seat else opponent

    return mapping


class SelfPlaySnapshots(RLlibCallback):
    """Self-play snapshots: the learner copied into the pool's slots in turn.

    Slot ``k % pool_size`` gets the ``k``-th snapshot, one every ``every`` learner steps;
    every slot starts as the initial learner.
    """

    def __init__(self, pool_size: int = 1, every: int = 100_000):
        super().__init__()
        self.pool_size, self.every = int(pool_size), int(every)
        self.taken = 0
        self.next_at = self.every

    def _copy(self, algorithm, slots):
        state = algorithm.learner_group.get_state(
            components=f"learner/rl_module/{LEARNER}")["learner"]["rl_module"][LEARNER]
        algorithm.set_state({"learner_group": {"learner": {"rl_module": {
            past(i): state for i in slots}}}})

    def on_algorithm_init(self, *, algorithm, **kwargs):
        """Every slot starts as the initial learner."""
        self._copy(algorithm, range(self.pool_size))

    def on_train_result(self, *, algorithm, result, **kwargs):
        """Snapshot when the learner has taken ``every`` more steps."""
        steps = learner_steps(result)
        while steps >= self.next_at:
            self._copy(algorithm, [self.taken % self.pool_size])
            self.taken += 1
            self.next_at += self.every
        result["snapshots"] = self.taken


def learner_steps(result: dict) -> int:
    """Decisions the learner has taken so far (from an RLlib training result)."""
    per_module = result.get(ENV_RUNNER_RESULTS, {}).get(NUM_MODULE_STEPS_SAMPLED_LIFETIME, {})
    return int(per_module.get(LEARNER, 0))


# ---------------------------------------------------------------- the config


def make_config(opts: TrainOptions, num_env_runners: int = 0,
                envs_per_runner: int | None = None, env_class=None) -> PPOConfig:
    """The RLlib PPO config of a run: env, modules, opponents and PPO settings from ``opts``.

    ``n_steps * num_envs`` is the train batch (timesteps per iteration), ``batch_size`` the
    minibatch, ``num_envs`` spread over the env runners (each steps its envs one by one).
    ``env_class``: :class:`FatezooMultiAgentEnv` (default) or :class:`AECMultiAgentEnv`.
    """
    spec = get_spec(opts.game)
    weights = dict(opts.weights())
    if spec.heuristic is None:
        weights.pop("heuristic")
    runners = max(int(num_env_runners), 1)
    envs = envs_per_runner or max(1, min(64, math.ceil(opts.num_envs / runners)))
    if opts.shared_layers:  # a shared trunk, then policy and value heads of net_arch
        model = {"fcnet_hiddens": list(opts.shared_layers), "fcnet_activation": "tanh",
                 "head_fcnet_hiddens": list(opts.net_arch), "head_fcnet_activation": "tanh",
                 "vf_share_layers": True}
    else:  # separate policy and value networks of net_arch
        model = {"fcnet_hiddens": list(opts.net_arch), "fcnet_activation": "tanh",
                 "vf_share_layers": False}
    modules = {LEARNER: RLModuleSpec(module_class=MaskedPPOModule, model_config=model)}
    for i in range(opts.pool_size):
        modules[past(i)] = RLModuleSpec(module_class=MaskedPPOModule, model_config=model)
    for kind in (HEURISTIC, RANDOM):
        if kind in weights:
            modules[kind] = RLModuleSpec(module_class=FixedAgentModule, model_config={
                "game": opts.game, "agent": kind, "seed": opts.seed + 17})
    env_config = {"game": opts.game, "num_players": opts.num_players,
                  "options": opts.env_options(), "seed": opts.seed}
    return (
        PPOConfig()
        .environment(env_class or FatezooMultiAgentEnv, env_config=env_config,
                     disable_env_checking=True)
        .env_runners(num_env_runners=int(num_env_runners), num_envs_per_env_runner=envs,
                     rollout_fragment_length="auto")
        .multi_agent(policies=set(modules),
                     policy_mapping_fn=opponent_mapping(weights, opts.pool_size,
                                                        opts.num_players, opts.seed),
                     policies_to_train=[LEARNER])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=modules))
        .training(train_batch_size_per_learner=opts.rollout_size(),
                  minibatch_size=opts.batch_size, num_epochs=opts.n_epochs,
                  lr=opts.learning_rate, gamma=opts.gamma, lambda_=opts.gae_lambda,
                  entropy_coeff=opts.ent_coef, clip_param=opts.clip_range,
                  vf_loss_coeff=opts.vf_coef, grad_clip=opts.max_grad_norm,
                  grad_clip_by="global_norm", use_kl_loss=False)
        .callbacks(functools.partial(SelfPlaySnapshots, pool_size=opts.pool_size,
                                     every=opts.snapshot_every))
        .debugging(seed=opts.seed, log_level="ERROR")
        .reporting(metrics_num_episodes_for_smoothing=100)
    )


# ---------------------------------------------------------------- the training loop


def run_dir_for(opts: TrainOptions) -> Path:
    """``out_dir/run_name`` or ``out_dir/{game}__rllib__{seed}__{unix time}`` (made unique)."""
    if opts.run_name:
        return Path(opts.out_dir) / opts.run_name
    base = Path(opts.out_dir) / f"{opts.game}__rllib__{opts.seed}__{int(time.time())}"
    path, k = base, 1
    while path.exists():
        k += 1
        path = base.with_name(f"{base.name}__{k}")
    return path


def init_ray(address: str | None, num_env_runners: int) -> bool:
    """Join ``address`` or start a local Ray for the run; True when this call started it."""
    import ray

    if ray.is_initialized():
        return False
    if address in (None, "", "local"):
        ray.init(num_cpus=max(int(num_env_runners), 1), include_dashboard=False,
                 configure_logging=False)
    else:
        try:
            ray.init(address=address, configure_logging=False)
        except ConnectionError as err:
            raise ValueError(f"--address {address!r}: cannot connect to a Ray cluster there "
                             f"({str(err).splitlines()[0] if str(err) else 'no answer'}); "
                             "start one with `ray start --head`") from None
    return True


def _log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


SB3_ONLY = {  # TrainOptions field -> why the RLlib backend refuses a value other than its default
    "vec": "RLlib steps its own multi-agent env",
    "lr_schedule": "RLlib schedules count env steps of every seat, not the learner's timesteps",
    "target_kl": "RLlib's PPO has no early stop of an update's epochs",
    "device": "the RLlib backend trains on CPU",
    "verbose": "SB3's own tables",
    "cpu_time_limit": "RLlib's env runners are other processes; use time_limit",
}


def check_rllib_options(opts: TrainOptions) -> None:
    """Raise ValueError (one line) where ``opts`` asks for something only SB3 does.

    The imitation warm start is SB3's too; an explicit ``imitation_steps`` > 0 is refused,
    the automatic one (``imitation_steps`` None) is skipped and the run's log says so.
    """
    neutral_defaults = TrainOptions.neutral_defaults()
    for name, why in SB3_ONLY.items():
        neutral = neutral_defaults[name]
        if getattr(opts, name) != neutral:
            raise ValueError(f"train --backend rllib: {name}={getattr(opts, name)!r} is an "
                             f"SB3 option ({why}); expected {neutral!r} or --backend sb3")
    if opts.imitation_steps:
        raise ValueError(f"train --backend rllib: imitation_steps={opts.imitation_steps!r} "
                         "asks for the imitation warm start, which only --backend sb3 has; "
                         "expected 0 or none")


def train_rllib(opts: TrainOptions, num_env_runners: int = 0, address: str | None = None,
                envs_per_runner: int | None = None, log=_log) -> dict:
    """Train the shared masked policy with RLlib PPO; evaluate, checkpoint, return the result.

    SB3-only settings are refused (:func:`check_rllib_options`); ``shared_layers`` is a
    trunk shared by the policy and value heads (``net_arch``); ``checkpoint_every`` saves
    ``checkpoints/step_N`` (each an ``rllib:PATH``) as the learner passes each multiple.

    Args:
        opts: the run's options (checked first); see the module docs for what they mean here.
        num_env_runners: Ray actors sampling games (0: sample in this process).
        address: a Ray cluster to join (None: a local Ray for the run, stopped at the end).
        envs_per_runner: games each env runner steps in turn (None: ``num_envs`` spread
            over the runners, at most 64 each).
        log: where progress lines go (None: nowhere).

    Returns:
        A JSON-able dict: ``run_dir``, ``checkpoint`` (the ``rllib:PATH`` folder),
        ``timesteps`` (learner decisions), ``env_steps`` (decisions of every seat),
        ``seconds``, ``steps_per_s``, ``env_steps_per_s``, ``iterations``, ``final_eval``
        (opponent -> win rate), ``evals``, ``stopped_by_time`` and ``options``.
    """
    opts.check()
    check_rllib_options(opts)
    if isinstance(num_env_runners, bool) or not isinstance(num_env_runners, int) \
            or num_env_runners < 0:
        raise ValueError(f"train: num_env_runners must be an int >= 0, got {num_env_runners!r}")
    log = log or (lambda text: None)
    torch.set_num_threads(opts.torch_threads)
    run_dir = run_dir_for(opts)
    run_dir.mkdir(parents=True, exist_ok=False)
    (run_dir / "options.json").write_text(json.dumps(
        dict(dataclasses.asdict(opts), backend="rllib", num_env_runners=num_env_runners,
             address=address), indent=1))
    if opts.imitation_steps is None and opts.warm_start_steps():
        log(f"{opts.game} rllib: no imitation warm start (--backend sb3 has it); PPO from "
            "scratch")
    started = init_ray(address, num_env_runners)
    algo = None
    try:
        algo = make_config(opts, num_env_runners, envs_per_runner).build_algo()
        evals, rows = [], []
        opponents = eval_opponents(opts)
        next_eval = opts.eval_every or math.inf
        next_checkpoint = opts.checkpoint_every or math.inf
        checkpoints = []
        start = time.perf_counter()
        steps = env_steps = iterations = 0
        stopped_by_time = False
        while steps < opts.timesteps:
            result = algo.train()
            iterations += 1
            steps = learner_steps(result)
            env_steps = int(result[ENV_RUNNER_RESULTS].get(NUM_ENV_STEPS_SAMPLED_LIFETIME, 0))
            wall = time.perf_counter() - start
            rows.append({"iteration": iterations, "timesteps": steps, "env_steps": env_steps,
                         "seconds": round(wall, 2), "snapshots": result.get("snapshots", 0),
                         "episode_len_mean": result[ENV_RUNNER_RESULTS].get(
                             "episode_len_mean")})
            log(f"{opts.game} rllib: iteration {iterations}, {steps:,} timesteps "
                f"({env_steps:,} env steps) in {wall:.0f}s, {steps / max(wall, 1e-9):,.0f} "
                f"timesteps/s")
            if steps >= next_eval:
                evals.append(_evaluate(algo, opts, opponents, opts.eval_games, steps, wall))
                log(f"  eval: {evals[-1]}")
                next_eval += opts.eval_every
            if steps >= next_checkpoint and steps < opts.timesteps:
                path = run_dir / "checkpoints" / f"step_{steps}"
                algo.save_to_path(str(path.resolve()))
                checkpoints.append(str(path))
                log(f"  checkpoint: {path}")
                while next_checkpoint <= steps:
                    next_checkpoint += opts.checkpoint_every
            if opts.time_limit is not None and wall >= opts.time_limit:
                stopped_by_time = True
                break
        seconds = time.perf_counter() - start
        checkpoint = run_dir / "checkpoint"
        algo.save_to_path(str(checkpoint.resolve()))
        final = None
        if opts.final_eval_games:
            row = _evaluate(algo, opts, opponents, opts.final_eval_games, steps, seconds)
            evals.append(row)
            final = {o: row[f"win_vs_{o}"] for o in opponents}
    finally:
        if algo is not None:
            algo.stop()
        if started:
            import ray

            ray.shutdown()
    _write_csv(run_dir / "progress.csv", rows)
    _write_csv(run_dir / "evals.csv", evals)
    result = {"run_dir": str(run_dir), "checkpoint": str(checkpoint), "backend": "rllib",
              "timesteps": steps, "env_steps": env_steps, "seconds": seconds,
              "steps_per_s": steps / seconds if seconds > 0 else None,
              "env_steps_per_s": env_steps / seconds if seconds > 0 else None,
              "iterations": iterations, "final_eval": final,
              "final_eval_games": int(opts.final_eval_games), "evals": evals,
              "stopped_by_time": stopped_by_time, "num_env_runners": num_env_runners,
              "checkpoints": checkpoints,
              "options": dataclasses.asdict(opts)}
    (run_dir / "result.json").write_text(json.dumps(result, indent=1))
    return result


def _evaluate(algo, opts: TrainOptions, opponents, games: int, steps: int, wall: float):
    """The greedy learner against each eval opponent (win reward), as ``fatezoo train``."""
    agent = RllibAgent(None, opts.game, module=algo.get_module(LEARNER))
    row = {"timesteps": steps, "seconds": round(wall, 2)}
    for o in opponents:
        r = evaluate(opts.game, agent, o, games, opts.num_players, seed=opts.seed + 99,
                     options=dict(opts.env_options(), reward="win"))
        row[f"win_vs_{o}"] = r["win_rate"]
    return row


def _write_csv(path: Path, rows: list[dict]) -> None:
    if not rows:
        path.write_text("")
        return
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[-1]))
        writer.writeheader()
        writer.writerows(rows)


def run_rllib_command(opts: TrainOptions, num_env_runners: int, address: str | None) -> int:
    """``fatezoo train GAME --backend rllib``: train, print the result; the exit status."""
    result = train_rllib(opts, num_env_runners=num_env_runners, address=address,
                         log=_log if opts.progress is not False else None)
    how = " (stopped by the time limit)" if result["stopped_by_time"] else ""
    print(f"trained {result['timesteps']:,} timesteps ({result['env_steps']:,} env steps) in "
          f"{result['seconds']:.0f}s ({result['steps_per_s'] or 0:,.0f} timesteps/s){how}")
    print(f"run: {result['run_dir']}\ncheckpoint: {result['checkpoint']}")
    for o, w in (result["final_eval"] or {}).items():
        print(f"win rate vs {o}: {100 * w:.1f}% over {result['final_eval_games']} games")
    print(f"try: fatezoo arena {opts.game} --agents heuristic,rllib:{result['checkpoint']}")
    return 0


__all__ = ["SB3_ONLY", "AECMultiAgentEnv", "FatezooMultiAgentEnv", "FixedAgentModule",
           "MaskedPPOModule", "SelfPlaySnapshots", "bench_envs", "check_rllib_options",
           "init_ray", "make_config", "opponent_mapping", "run_rllib_command", "train_rllib"]
