"""``fatezoo export-baseline RUN_OR_ZIP``: a ``fatezoo train`` policy as a baseline file.

The checkpoint's actor (shared trunk, policy MLP, action head) becomes the chain of dense
layers that :mod:`fatezoo.agents.baseline` plays with numpy (weights as float32, the value
network and the optimizer left out), and a JSON sidecar beside it records where it came
from: the checkpoint and both files' SHA-256, the run's options and the ``fatezoo train``
command that reproduces them, its timesteps and final evaluation.

Loading the checkpoint unpickles it (trusted files only); torch and sb3-contrib load here,
never when the baseline plays.

>>> from fatezoo.training.baseline_export import export_baseline
>>> export_baseline("runs/fatefell__ppo__0__1700000000", "fatefell_v1.npz")  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

from fatezoo.agents.baseline import FORMAT, greedy_actions, load_network
from fatezoo.envs.core.docs import install_hint
from fatezoo.envs.core.registry import game_names, get_spec

from .options import train_command
from .train_monitor import atomic_write, write_text

ACTIVATION_NAMES = {"ReLU": "relu", "Tanh": "tanh"}


def policy_layers(policy) -> tuple[list, list]:
    """The actor of a ``MaskableActorCriticPolicy`` as dense layers.

    Returns:
        (weights ``[(w (out, in) float32, b (out,) float32), ...]``, activations, one per
        layer: ``"relu"``, ``"tanh"`` or None); raises ValueError naming a module that is
        not a Linear layer, one of those activations or a Flatten.
    """
    modules = [*policy.pi_features_extractor.modules(),
               *policy.mlp_extractor.policy_net.modules(), policy.action_net]
    weights, acts = [], []
    for mod in modules:
        kind = type(mod).__name__
        if list(mod.children()) or kind == "Flatten":  # containers; flat observations
            continue
        if kind == "Linear":
            weights.append((mod.weight.detach().cpu().numpy().astype(np.float32),
                            mod.bias.detach().cpu().numpy().astype(np.float32)))
            acts.append(None)
        elif kind in ACTIVATION_NAMES and weights and acts[-1] is None:
            acts[-1] = ACTIVATION_NAMES[kind]
        else:
            raise ValueError(f"export-baseline: the policy has a {kind} layer; a baseline "
                             f"holds Linear layers with {sorted(ACTIVATION_NAMES)} only")
    return weights, acts


MAX_BYTES = 3_000_000
"""The largest baseline file shipped in the package (issue 29's limit)."""


def agreement_sample(game: str, games: int = 64, steps: int = 48) -> tuple:
    """Observations and masks from ``games`` random-action games (seeds 0..), every step."""
    import fatezoo

    vec = fatezoo.make_vec(game, num_envs=games, seed=list(range(games)))
    obs, mask, _ = vec.reset()
    seen, masks = [obs.copy()], [mask.copy()]
    rng = np.random.default_rng(0)
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, mask, *_ = vec.step(actions)
        seen.append(obs.copy())
        masks.append(mask.copy())
    return np.concatenate(seen), np.concatenate(masks)


def as_layers(weights: list, acts: list, dtype) -> list:
    """``policy_layers``'s output as :func:`load_network` reads it, weights stored as ``dtype``."""
    return [(w.astype(dtype).astype(np.float64), b.astype(np.float64), act)
            for (w, b), act in zip(weights, acts)]


def greedy_agreement(game: str, full: list, stored: list) -> float:
    """The share of sampled positions where two layer lists pick the same greedy action."""
    obs, masks = agreement_sample(game)
    return float(np.mean(greedy_actions(full, obs, masks) == greedy_actions(stored, obs, masks)))


def write_baseline(policy, game: str, out, max_bytes: int = MAX_BYTES) -> dict:
    """Write ``policy``'s actor to ``out`` (``.npz``) and check it reads back; its meta.

    Weights are float32. A network whose float32 file would exceed ``max_bytes`` stores its
    weight matrices as float16 (biases stay float32), and ``meta["float16_agreement"]``
    records how often the stored network's greedy action equals the float32 network's on
    random-play positions; a file still over ``max_bytes`` is refused in one line.
    """
    spec = get_spec(game)
    weights, acts = policy_layers(policy)
    meta = {"format": FORMAT, "game": game, "obs_size": spec.obs_size,
            "num_actions": spec.num_actions, "activations": acts,
            "layers": [list(w.shape) for w, _ in weights]}
    for dtype in (np.float32, np.float16):
        meta["weights_dtype"] = np.dtype(dtype).name
        if dtype is np.float16:
            meta["float16_agreement"] = greedy_agreement(
                game, as_layers(weights, acts, np.float32), as_layers(weights, acts, dtype))
        arrays = {"meta": np.array(json.dumps(meta))}
        for i, (w, b) in enumerate(weights):
            arrays[f"w{i}"], arrays[f"b{i}"] = w.astype(dtype), b
        with atomic_write(out) as f:
            np.savez_compressed(f, **arrays)
        size = Path(out).stat().st_size
        if size <= max_bytes:
            break
    else:
        Path(out).unlink()
        raise ValueError(f"export-baseline: the policy's weights take {size:,} bytes as "
                         f"float16; a baseline file holds at most {max_bytes:,} bytes (train a "
                         "smaller --net-arch)")
    load_network(out, game)  # refuses a file that would not play
    return meta


def sha256(path) -> str:
    """The SHA-256 of a file, hex."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def find_checkpoint(source) -> tuple[Path, dict, dict]:
    """``(checkpoint zip, run options or {}, run result or {})`` of a run folder or a zip.

    A run folder gives ``checkpoints/final.zip``; a zip inside ``<run>/checkpoints/`` finds
    its run's ``options.json`` and ``result.json``.
    """
    path = Path(source)
    zip_path = path / "checkpoints" / "final.zip" if path.is_dir() else path
    if not zip_path.is_file():
        raise ValueError(f"export-baseline: {str(source)!r} is neither a checkpoint .zip nor "
                         "a fatezoo train run folder holding checkpoints/final.zip")
    run = zip_path.parent.parent
    found = []
    for name in ("options.json", "result.json"):
        try:
            found.append(json.loads((run / name).read_text()))
        except (OSError, ValueError):
            found.append({})
    return zip_path, found[0], found[1]


def game_of(model, options: dict, game: str | None) -> str:
    """The game a checkpoint plays: given, the run's, or the only one its spaces fit."""
    shape = model.observation_space.shape
    n = getattr(model.action_space, "n", None)
    fits = [g for g in game_names()
            if (get_spec(g).obs_size,) == shape and get_spec(g).num_actions == n]
    game = game or options.get("game")
    if game is None:
        if len(fits) != 1:
            raise ValueError(f"export-baseline: the checkpoint has observations {shape} and "
                             f"{n} actions, which fit {fits or 'no game'}; name the game with "
                             "--game")
        return fits[0]
    if game not in fits:
        raise ValueError(f"export-baseline: the checkpoint has observations {shape} and {n} "
                         f"actions; {game} needs ({get_spec(game).obs_size},) and "
                         f"{get_spec(game).num_actions}")
    return game


def export_baseline(source, out=None, game: str | None = None) -> dict:
    """Export a ``fatezoo train`` checkpoint (run folder or ``.zip``) as a baseline file.

    Args:
        source: a run folder (its ``checkpoints/final.zip``) or a checkpoint ``.zip``.
        out: the ``.npz`` to write (default: beside the checkpoint, same stem); the
            sidecar is the same path with ``.json``.
        game: the game, when neither the run's options nor the spaces tell it.

    Returns:
        The sidecar's contents (also written).
    """
    zip_path, options, result = find_checkpoint(source)
    out = Path(out) if out is not None else zip_path.with_suffix(".npz")
    if out.suffix != ".npz":
        raise ValueError(f"export-baseline: --out {str(out)!r} must end in .npz")
    try:
        from sb3_contrib import MaskablePPO
    except ImportError:
        raise ImportError(f"export-baseline needs the train extra: {install_hint('train')}") \
            from None
    try:
        model = MaskablePPO.load(str(zip_path), device="cpu")
    except Exception as err:  # not a zip, a corrupt or foreign pickle, ...
        raise ValueError(f"export-baseline: cannot load checkpoint {str(zip_path)!r}: "
                         f"{type(err).__name__}") from None
    game = game_of(model, options, game)
    meta = write_baseline(model.policy, game, out)
    sidecar = {
        "game": game, "format": FORMAT, "file": out.name, "sha256": sha256(out),
        "layers": meta["layers"], "activations": meta["activations"],
        "weights_dtype": meta["weights_dtype"],
        "float16_agreement": meta.get("float16_agreement"),
        "checkpoint": str(zip_path), "checkpoint_sha256": sha256(zip_path),
        "train_command": train_command(options) if options else None,
        "train_options": options or None,
        "timesteps": result.get("timesteps"), "cpu_seconds": result.get("cpu_seconds"),
        "final_eval": result.get("final_eval"),
        "final_eval_games": result.get("final_eval_games"),
    }
    write_text(out.with_suffix(".json"), json.dumps(sidecar, indent=1) + "\n")
    return sidecar


__all__ = ["MAX_BYTES", "export_baseline", "find_checkpoint", "greedy_agreement", "policy_layers",
           "sha256", "write_baseline"]
