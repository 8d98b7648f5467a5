"""Dice and other chance with explicit face lists, drawn from the record's RNG.

A die is a numpy array of its faces, declared once at module level (numba reads a
global array as a constant)::

    SMITING_DIE = die(3, 4, 4, 5, 5, 6)       # Foretold's Smiting Die
    D6 = die(1, 2, 3, 4, 5, 6)

    damage = roll(SMITING_DIE, rec["rng"])     # one face, uniform over the six faces
    roll_into(D6, 3, rec["rng"], rec["dice"])  # three combat dice into a record field

Faces repeat as often as they are printed, so ``roll`` gives each face value with
probability (copies / faces): 4 and 5 each 1/3 on the Smiting Die. ``face_odds`` gives
those probabilities (for tests and docs). ``pick_weighted`` draws an index from integer
weights (a bag of tokens, a spinner). Everything draws from a record's ``rng`` words
(see rng.py), so the same seed rolls the same dice in numba and in plain Python.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .jit import njit
from .rng import randint


def die(*faces) -> np.ndarray:
    """A die with the given faces (ints, repeats allowed), as an int64 array."""
    if not faces:
        raise ValueError("a die needs at least one face")
    if len(faces) > 1024:
        raise ValueError(f"a die has at most 1024 faces, got {len(faces)}")
    for f in faces:
        if isinstance(f, bool) or not isinstance(f, (int, np.integer)):
            raise TypeError(f"die faces must be ints, got {f!r}")
    return np.array(faces, np.int64)


D6 = die(1, 2, 3, 4, 5, 6)
D20 = die(*range(1, 21))
COIN = die(0, 1)


def face_odds(faces) -> dict:
    """Probability of each face value of ``faces``: {value: Fraction}."""
    values, copies = np.unique(np.asarray(faces), return_counts=True)
    return {int(v): Fraction(int(k), len(faces)) for v, k in zip(values, copies)}


@njit(cache=True)
def roll(faces, rng):
    """Roll the die ``faces`` once: a uniform face (mutates ``rng``)."""
    return faces[randint(rng, faces.shape[0])]


@njit(cache=True)
def roll_into(faces, k, rng, out):
    """Roll the die ``faces`` ``k`` times into ``out[:k]``; return the sum."""
    total = 0
    for i in range(k):
        out[i] = roll(faces, rng)
        total += out[i]
    return total


@njit(cache=True)
def pick_weighted(weights, rng):
    """An index ``i`` drawn with probability ``weights[i] / sum(weights)`` (ints >= 0).

    The sum must be in [1, 1024] (the range of ``rng.randint``); returns -1 if it is 0.
    """
    total = 0
    for i in range(weights.shape[0]):
        total += weights[i]
    if total <= 0:
        return -1
    r = randint(rng, total)
    for i in range(weights.shape[0]):
        r -= weights[i]
        if r < 0:
            return i
    return weights.shape[0] - 1
