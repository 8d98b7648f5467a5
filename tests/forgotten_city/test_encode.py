"""The encoder's scaled counts come from a table (``encode.FRAC``), not a division per call.

The table must give the very bytes of the float64 division it replaces (the observation of
a saved state or a trained policy must not change), for every value a record field can
hold, inside the table and outside it (the fallback division).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from fatezoo.envs.core import kernels as K
from fatezoo.envs.core.registry import get_spec
from fatezoo.envs.core.rng import seed_words
from fatezoo.envs.forgotten_city.encode import (
    OBS,
    OBS_SIZE,
    S_COINS,
    S_INSP,
    S_RES,
    S_VP,
    encode,
    frac,
    frac1,
)
from fatezoo.envs.forgotten_city.state import NUM_COLORS, TRACK_CAP

# every divisor the encoder uses
DIVISORS = (3, 4, 6, 7, 8, 9, 10, 12, 14, 15, 19, 20, 28, 30, 100)


@njit(cache=True)
def _fracs(ks, d, out, out1):
    for i in range(ks.shape[0]):
        out[i] = frac(ks[i], d)
        out1[i] = frac1(ks[i], d)


def test_frac_is_the_division_for_every_int16():
    ks = np.arange(-(2**15), 2**15, dtype=np.int64)
    got = np.empty(ks.size, np.float32)
    got1 = np.empty(ks.size, np.float32)
    for d in DIVISORS:
        _fracs(ks, d, got, got1)
        want = (ks / d).astype(np.float32)  # float64 division, then float32: the old encoder
        want1 = np.minimum(1.0, ks / d).astype(np.float32)
        assert np.array_equal(got.view(np.uint32), want.view(np.uint32)), d
        assert np.array_equal(got1.view(np.uint32), want1.view(np.uint32)), d


def test_encoder_scales_counts_beyond_the_table():
    """A seat row with counts past the table (fallback) and inside it, against the formula."""
    spec = get_spec("forgotten_city")
    states = spec.new_states(1, spec.options(num_players=2))
    states["rng"] = seed_words(3, 0)
    K.reset_one(states, 0, np.zeros(spec.num_actions, np.int8))
    rec = states[0]
    rec["vp"][0] = 300  # past the table: min(1, 300 / 100)
    rec["coins"][0] = 29  # inside: 29 / 30
    rec["coins"][1] = 1000  # past: min(1, 1000 / 30)
    rec["vp"][1] = 57
    for c in range(NUM_COLORS):
        rec["res"][0, c] = 3 * c + 1
    rec["insp"][0] = 7
    obs = np.full(OBS_SIZE, -1.0, np.float32)  # every slot must be written
    encode(rec, 0, 0, obs)
    seats = OBS.view(obs, "seats")
    f32 = np.float32
    assert seats[0, S_VP] == f32(1.0) and seats[1, S_VP] == f32(57 / 100)
    assert seats[0, S_COINS] == f32(29 / 30) and seats[1, S_COINS] == f32(1.0)
    for c in range(NUM_COLORS):
        assert seats[0, S_RES + c] == f32((3 * c + 1) / 20)
    assert seats[0, S_INSP] == f32(7 / TRACK_CAP)
    assert (obs >= 0).all()  # nothing left from before
