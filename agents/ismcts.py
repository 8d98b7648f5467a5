"""Information-set Monte Carlo tree search (single-observer ISMCTS), run in numba.

The searcher sees a game only through its ``determinize`` kernel: each simulation
copies the record of the decision, resamples in the copy everything the player to
move cannot see (the game's ``determinize``, seeded from the row's generator words: the
caller's ``rng`` row, else the agent's own generator),
and then walks one tree shared by all determinizations (Cowling, Powley and Whitehouse
2012, "SO-ISMCTS"):

1. Selection: among the children legal in this determinization, the highest
   ``mean + c * sqrt(ln(availability) / visits)``; availability counts the simulations
   in which the child was legal, which keeps rarely-legal moves from being over-explored.
   With ``prior > 0`` the action the game's rollout policy would take there (a
   progressive bias: the policy reads the determinized observation with fixed generator
   words, so the search's own stream is not touched) adds ``prior / (1 + visits)``.
   With a network prior (``prior=baseline``, a policy file of :mod:`.baseline`), each
   child adds the PUCT term ``prior_weight * P(a) * sqrt(availability) / (1 + visits)``,
   ``P`` the network's softmax over the actions legal in this determinization.
2. Expansion: the first node with a legal action not yet in the tree gets one child, for
   a uniformly drawn untried action (with ``prior > 0``: the policy's action first; with
   a network: the untried action of highest ``P``).
3. Rollout: the rollout policy (the game's registered ``policy`` kernel, e.g. its
   heuristic, uniform random, or with ``rollout=baseline`` the network prior's own
   choice, its first largest legal logit as :class:`.baseline.BaselineAgent` plays)
   plays on for ``depth`` decisions (0: to the end).
4. Backpropagation: a game that ended scores its returns; a rollout cut short scores
   the game's ``evaluate`` estimates. Every node on the path adds the value of the seat
   that chose the action leading to it.

The move played is the root child with the most visits (ties: higher mean). Rows of a
batch are searched in parallel (``prange``); every simulation of a row runs inside one
numba call, through the same kernels as the envs (``step_record`` and friends).
The network reads a node's observation (its mover's, in the determinization that first
reaches the node) once, as AlphaZero evaluates a leaf once; its logits are kept with the
node and each visit takes their softmax over the actions legal in its own determinization.
Because the true hidden cards are resampled before they are read (games sort the pool
of unseen cards before shuffling it), the agent's choices depend only on the viewer's
information set and its generator words.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from fatezoo.agents.base import Agent
from fatezoo.agents.baseline import VERSIONS, load_network, shipped_path
from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.kernels import (
    game_determinize,
    game_encode,
    game_evaluate,
    game_legal,
    game_policy,
    has_kernel,
    random_legal,
    step_record,
)
from fatezoo.envs.core.registry import get_spec
from fatezoo.envs.core.rng import randint
from fatezoo.envs.core.state import MAX_PLAYERS

DEFAULT_PRIOR_WEIGHT = 1.0  # chosen in Fatefell: docs/EVALUATION.md, "Search guided by..."
ACTIVATION_CODES = {None: 0, "relu": 1, "tanh": 2}  # net_forward's activation numbers
# a search without a network: no layers. One type for both, so that the one compiled search
# (what `fatezoo compile` builds) serves plain and guided search alike.
NO_NETWORK = (np.zeros(0), np.zeros((0, 5), np.int64))
# who plays a rollout: _rollout_action's mode numbers
ROLLOUT_CODES = {"random": 0, "heuristic": 1, "baseline": 2}


def flat_network(layers) -> tuple[np.ndarray, np.ndarray]:
    """:func:`.baseline.load_network`'s layers as ``(weights, shapes)`` for numba.

    ``weights`` (float64) holds each layer's ``w`` transposed (row-major, (in, out): one
    input's weights are contiguous) then its ``b``; ``shapes`` (L, 5) int64 holds each
    layer's out, in, offset of ``w``, offset of ``b`` and activation
    (:data:`ACTIVATION_CODES`).
    """
    parts, shapes, offset = [], [], 0
    for w, b, act in layers:
        out, size = w.shape
        shapes.append((out, size, offset, offset + out * size, ACTIVATION_CODES[act]))
        parts += [np.asarray(w, np.float64).T.ravel(), np.asarray(b, np.float64)]
        offset += out * size + out
    return np.concatenate(parts), np.array(shapes, np.int64).reshape(-1, 5)


@njit(cache=True)
def net_forward(weights, shapes, obs):
    """The network's logits (float64) for one observation, as :func:`.baseline.forward`.

    Each input adds its row of weights to the outputs and a zero input is skipped:
    observations are mostly zeros, so the first (widest) layer costs what its non-zero
    inputs do.
    """
    x = obs.astype(np.float64)
    for layer in range(shapes.shape[0]):
        out, size, wo, bo, act = shapes[layer]
        y = weights[bo:bo + out].copy()
        for k in range(size):
            xk = x[k]
            if xk != 0.0:
                row = wo + k * out
                for o in range(out):
                    y[o] += xk * weights[row + o]
        if act == 1:
            y = np.maximum(y, 0.0)
        elif act == 2:
            y = np.tanh(y)
        x = y
    return x


@njit(cache=True)
def net_policy(logits, mask, out):
    """Write the softmax of ``logits`` over the legal actions of ``mask`` (0 elsewhere)."""
    top = -np.inf
    for a in range(mask.shape[0]):
        if mask[a] and logits[a] > top:
            top = logits[a]
    total = 0.0
    for a in range(mask.shape[0]):
        out[a] = np.exp(logits[a] - top) if mask[a] else 0.0
        total += out[a]
    for a in range(mask.shape[0]):
        out[a] /= total


@njit(cache=True)
def _rollout_action(rec, mask, obs, words, mode, net_w, net_shapes):
    """The rollout's action, played by ``mode`` (a :data:`ROLLOUT_CODES` number).

    Mode 2 plays the network's first largest legal logit, as the baseline agent does.
    """
    if mode == 0:
        return random_legal(mask, words)
    game_encode(rec, rec["current_player"], 0, obs)
    if mode == 1:
        return game_policy(obs, mask, words, rec)
    logits = net_forward(net_w, net_shapes, obs)
    best = -1
    for a in range(mask.shape[0]):
        if mask[a] and (best < 0 or logits[a] > logits[best]):
            best = a
    return best


@njit(cache=True)
def search_row(work, work_u8, root_u8, i, sims, c, depth, rollout, words, num_actions,
               obs_size, visits_out, prior, net_w, net_shapes, prior_weight):
    """Run ``sims`` simulations from the decision in ``root_u8[i]``; return the action.

    ``work[i]`` (viewed as bytes by ``work_u8[i]``) is scratch for the determinized copy.
    ``visits_out`` receives the root children's visit counts; ``rollout`` is a
    :data:`ROLLOUT_CODES` number. ``prior`` > 0: the rollout
    policy's action at each tree node is expanded first and biased in selection. A network
    (``net_w``, ``net_shapes`` of :func:`flat_network`; no layers for none): its policy orders
    expansion and adds the PUCT term weighted by ``prior_weight``.
    """
    max_nodes = sims + 1
    children = np.full((max_nodes, num_actions), -1, np.int32)
    visits = np.zeros(max_nodes)
    value = np.zeros(max_nodes)
    avail = np.zeros(max_nodes)
    mover = np.zeros(max_nodes, np.int64)
    path = np.zeros(max_nodes + 1, np.int64)
    mask = np.zeros(num_actions, np.int8)
    obs = np.zeros(obs_size, np.float32)
    values = np.zeros(MAX_PLAYERS)
    prior_words = np.zeros(4, np.int64)
    logits = np.zeros((0, num_actions))
    netted = np.zeros(0, np.bool_)
    guided = net_shapes.shape[0] > 0  # a network's layers: its policy guides the search
    if guided:
        logits = np.zeros((max_nodes, num_actions))
        netted = np.zeros(max_nodes, np.bool_)
    net_p = np.zeros(num_actions)
    nodes = 1
    work_u8[i, :] = root_u8[i, :]
    viewer = work[i]["current_player"]
    for _ in range(sims):
        work_u8[i, :] = root_u8[i, :]
        rec = work[i]
        game_determinize(rec, viewer, words)
        game_legal(rec, mask)
        node = 0
        plen = 1
        path[0] = 0
        # selection and expansion
        while not (rec["terminated"] or rec["truncated"]):
            pa = -1
            if prior > 0.0:
                for w in range(4):  # fixed words: the policy's choice depends on the position
                    prior_words[w] = w + 1
                game_encode(rec, rec["current_player"], 0, obs)
                pa = game_policy(obs, mask, prior_words, rec)
            if guided:
                if not netted[node]:
                    game_encode(rec, rec["current_player"], 0, obs)
                    logits[node, :] = net_forward(net_w, net_shapes, obs)
                    netted[node] = True
                net_policy(logits[node], mask, net_p)
            untried = 0
            for a in range(num_actions):
                if mask[a]:
                    ch = children[node, a]
                    if ch < 0:
                        untried += 1
                    else:
                        avail[ch] += 1.0
            player = rec["current_player"]
            if untried > 0:
                pick = -1
                if pa >= 0 and children[node, pa] < 0:
                    pick = pa
                elif guided:  # the untried action the network likes best
                    for a in range(num_actions):
                        if mask[a] and children[node, a] < 0 \
                                and (pick < 0 or net_p[a] > net_p[pick]):
                            pick = a
                else:
                    k = randint(words, untried)
                    for a in range(num_actions):
                        if mask[a] and children[node, a] < 0:
                            if k == 0:
                                pick = a
                                break
                            k -= 1
                child = nodes
                nodes += 1
                children[node, pick] = child
                mover[child] = player
                avail[child] = 1.0
                step_record(rec, pick, mask)
                path[plen] = child
                plen += 1
                break
            best = -1
            best_score = -np.inf
            for a in range(num_actions):
                if mask[a]:
                    ch = children[node, a]
                    score = value[ch] / visits[ch] + c * np.sqrt(np.log(avail[ch]) / visits[ch])
                    if a == pa:
                        score += prior / (1.0 + visits[ch])
                    if guided:
                        score += (prior_weight * net_p[a] * np.sqrt(avail[ch])
                                  / (1.0 + visits[ch]))
                    if score > best_score:
                        best, best_score = a, score
            node = children[node, best]
            step_record(rec, best, mask)
            path[plen] = node
            plen += 1
        # rollout
        steps = 0
        while not (rec["terminated"] or rec["truncated"]) and (depth <= 0 or steps < depth):
            step_record(rec, _rollout_action(rec, mask, obs, words, rollout, net_w,
                                             net_shapes), mask)
            steps += 1
        if rec["terminated"] or rec["truncated"]:
            for p in range(rec["num_players"]):
                values[p] = rec["returns"][p]
        else:
            game_evaluate(rec, values)
        for j in range(1, plen):
            nd = path[j]
            visits[nd] += 1.0
            value[nd] += values[mover[nd]]
    best = -1
    for a in range(num_actions):
        ch = children[0, a]
        visits_out[a] = 0.0 if ch < 0 else visits[ch]
        if ch >= 0 and (best < 0 or visits[ch] > visits[children[0, best]]
                        or (visits[ch] == visits[children[0, best]]
                            and value[ch] / visits[ch] > value[children[0, best]]
                            / visits[children[0, best]])):
            best = a
    return best


@njit(cache=True, parallel=True)
def search_batch(work, work_u8, root_u8, sims, c, depth, rollout, words, num_actions,
                 obs_size, actions, visits, prior, net_w, net_shapes, prior_weight):
    """:func:`search_row` for every row, in parallel.

    One kernel for any number of rows, with a network or without: a single row pays the
    thread pool's wake-up (microseconds), and ``fatezoo compile`` builds the one kernel
    every search uses.
    """
    for i in prange(work.shape[0]):  # a prange index is unsigned: one search_row for both
        actions[i] = search_row(work, work_u8, root_u8, np.int64(i), sims, c, depth, rollout,
                                words[i], num_actions, obs_size, visits[i], prior, net_w,
                                net_shapes, prior_weight)


def _network_prior(game: str, text: str) -> tuple[str, tuple[np.ndarray, np.ndarray]]:
    """``(text, flat_network(...))`` of a ``baseline[:v1|:FILE.npz]`` prior; one-line errors."""
    name, _, which = text.partition(":")
    if name.strip() != "baseline":
        raise ValueError("ismcts: prior must be a finite number >= 0 or "
                         f"baseline[:v1|:FILE.npz], got {text!r}")
    which = which.strip()
    if not which or which in VERSIONS:
        path = shipped_path(game, which or VERSIONS[-1])
        if not path.is_file():
            raise ValueError(f"ismcts: prior={text}: no {which or VERSIONS[-1]} baseline is "
                             f"shipped for {game}; make one from a `fatezoo train` run with "
                             "`fatezoo export-baseline RUN --out FILE.npz` and give "
                             "prior=baseline:FILE.npz")
    else:
        path = which
    try:
        _, layers = load_network(path, game)
    except FileNotFoundError:
        raise ValueError(f"ismcts: prior={text}: no file at {str(path)!r} (expected a "
                         "baseline .npz written by `fatezoo export-baseline`)") from None
    except ValueError as err:
        raise ValueError(f"ismcts: prior={text}: {err}") from None
    return text, flat_network(layers)


def _as_int(name, value, low):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"ismcts: {name} must be an int >= {low}, got {value!r}")
    return int(value)


class ISMCTSAgent(Agent):
    """Single-observer ISMCTS over the game's ``determinize`` (see the module docs).

    Args:
        game: registered game name (it must register a ``determinize`` kernel).
        sims: simulations per decision.
        rollout: ``"heuristic"`` (the game's registered rollout policy), ``"random"``, or
            ``"baseline"`` (the network of a network prior, its first largest legal
            logit); None picks heuristic where the game has one.
        c: exploration constant of the selection rule (values are in [-1, 1]).
        depth: rollout decisions before the game's ``evaluate`` scores the position
            (0: play every rollout to the end); None takes the game's ``rollout_depth``.
        prior: weight of the rollout policy's action in the tree (see the module docs;
            0: none); None takes the game's ``ismcts_prior``. Needs a registered policy.
            Or a network prior: ``"baseline"`` / ``"baseline:v1"`` (the file shipped for
            the game) or ``"baseline:PATH.npz"`` (a ``fatezoo export-baseline`` file).
        prior_weight: the PUCT weight of a network prior (a number > 0; None:
            :data:`DEFAULT_PRIOR_WEIGHT`).
        seed: the agent's generator seed (None: fresh entropy).
    """

    name = "ismcts"
    needs_records = True

    def __init__(self, game: str, sims: int = 200, rollout: str | None = None, c: float = 1.4,
                 depth: int | None = None, prior: float | str | None = None,
                 prior_weight: float | None = None, seed=None):
        super().__init__(seed)
        self.spec = get_spec(game)
        self.game = game
        if not has_kernel(self.spec.state_dtype, "determinize"):
            raise ValueError(f"ismcts: {game} registers no determinize kernel")
        self.sims = _as_int("sims", sims, 1)
        has_policy = has_kernel(self.spec.state_dtype, "policy")
        if rollout is None:
            rollout = "heuristic" if has_policy else "random"
        if rollout not in ROLLOUT_CODES:
            raise ValueError("ismcts: rollout must be 'heuristic', 'random' or 'baseline', "
                             f"got {rollout!r}")
        if rollout == "heuristic" and not has_policy:
            raise ValueError(f"ismcts: {game} registers no rollout policy; use rollout=random")
        self.rollout = rollout
        if isinstance(c, bool) or not isinstance(c, (int, float, np.floating)) or not c >= 0:
            raise ValueError(f"ismcts: c must be a number >= 0, got {c!r}")
        self.c = float(c)
        settings = self.spec.evaluation
        self.depth = _as_int("depth", settings.rollout_depth if depth is None else depth, 0)
        self.network, self.prior_weight = None, None
        self.net = NO_NETWORK
        if isinstance(prior, str):
            self.network, self.net = _network_prior(game, prior)
            weight = DEFAULT_PRIOR_WEIGHT if prior_weight is None else prior_weight
            if isinstance(weight, bool) or not isinstance(weight, (int, float, np.floating)) \
                    or not 0 < weight < np.inf:
                raise ValueError("ismcts: prior_weight must be a finite number > 0, got "
                                 f"{weight!r}")
            self.prior_weight = float(weight)
            prior = 0.0  # the network replaces the rollout policy's bias
        elif prior_weight is not None:
            raise ValueError(f"ismcts: prior_weight={prior_weight!r} weighs a network prior; "
                             "give prior=baseline[:v1|:FILE.npz] too")
        if rollout == "baseline" and self.network is None:
            raise ValueError("ismcts: rollout=baseline plays the network prior's choices; "
                             f"give prior=baseline[:v1|:FILE.npz] too, got prior={prior!r}")
        prior = settings.ismcts_prior if prior is None else prior
        if isinstance(prior, bool) or not isinstance(prior, (int, float, np.floating)) \
                or not 0 <= prior < np.inf:
            raise ValueError(f"ismcts: prior must be a finite number >= 0, got {prior!r}")
        if prior > 0 and not has_policy:
            raise ValueError(f"ismcts: prior needs a rollout policy; {game} registers none "
                             "(use prior=0)")
        self.prior = float(prior)
        self.last_visits = None

    def act_batch(self, obs, masks, rng=None):
        """ISMCTS needs the game records; use :meth:`act_records`."""
        raise TypeError("ISMCTSAgent searches game records: call act_records(records, masks) "
                        "(the arena and `fatezoo play` do)")

    def act_records(self, records, masks, rng=None):
        """One searched action per record (each at a decision of its current player).

        ``rng``: None (the agent's own generator, one stream per row position) or (B, 4)
        int64 generator words, one stream per row, advanced in place: row ``i``'s
        determinizations, expansions and rollouts draw from ``rng[i]`` only, so its
        action depends on its record and its words, not on the other rows.
        """
        roots = np.array(records, dtype=self.spec.state_dtype, copy=True).reshape(-1)
        masks = np.ascontiguousarray(masks, np.int8)
        b = len(roots)
        if masks.shape != (b, self.spec.num_actions):
            raise ValueError(f"ismcts: masks must have shape ({b}, {self.spec.num_actions}), "
                             f"got {masks.shape}")
        if (roots["terminated"] != 0).any() or (roots["truncated"] != 0).any():
            raise ValueError("ismcts: every record must be at a decision (game not over)")
        work = roots.copy()
        root_u8 = roots.view(np.uint8).reshape(b, -1)
        work_u8 = work.view(np.uint8).reshape(b, -1)
        actions = np.empty(b, np.int64)
        visits = np.zeros((b, self.spec.num_actions))
        search_batch(work, work_u8, root_u8, self.sims, self.c, self.depth,
                     ROLLOUT_CODES[self.rollout], self._words(b, rng), self.spec.num_actions,
                     self.spec.obs_size, actions, visits, self.prior, *self.net,
                     self.prior_weight or 0.0)
        bad = np.flatnonzero(masks[np.arange(b), actions] == 0)
        if bad.size:
            raise RuntimeError(f"ismcts: searched action {actions[bad[0]]} is not legal in row "
                               f"{bad[0]} (is the mask that of the record's current player?)")
        self.last_visits = visits
        return actions

    def __repr__(self):
        return (f"ISMCTSAgent({self.game!r}, sims={self.sims}, rollout={self.rollout!r}, "
                f"c={self.c}, depth={self.depth}, prior={self.network or self.prior!r}"
                + (f", prior_weight={self.prior_weight}" if self.network else "") + ")")
