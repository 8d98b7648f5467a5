"""envs/core/checks.py: range checks derived from declarations, one message per failure."""

from __future__ import annotations

from enum import IntEnum

import numpy as np
import pytest

from fatezoo.envs.core.checks import SEATS, Range, RecordError, check_ranges

DTYPE = np.dtype([("num_players", np.int8), ("phase", np.int8), ("current_player", np.int8),
                  ("score", np.int16, (4,)), ("hand", np.int8, (4,)), ("flag", np.int8)])


class Phase(IntEnum):
    PLAY = 0
    SCORE = 1
    OVER = 2


RANGES = {
    "phase": Range.of(Phase),
    "current_player": Range(0, SEATS),
    "score": Range(0, 100, per_seat=True),
    "hand": Range(0, 10, per_seat=True, absent=-1),
    "flag": Range(0, 2),
    "num_players": Range(2, 5),
}


def record(**fields):
    rec = np.zeros(1, DTYPE)[0]
    rec["num_players"] = 3
    rec["hand"] = [1, 2, 3, -1]
    for name, value in fields.items():
        rec[name] = value
    return rec


def test_a_sound_record_passes_and_each_range_names_its_field():
    check_ranges(record(), RANGES)
    cases = [
        ({"phase": 3}, r"phase must be in \[0, 2\], got 3"),
        ({"current_player": 3}, r"current_player must be in \[0, 2\], got 3"),
        ({"score": [0, 0, 0, 5]}, r"score must be in \[0, 99\] for the 3 seats in play, 0 for "
                                  r"the others, got \[0, 0, 0, 5\]"),
        ({"hand": [1, 2, 3, 4]}, r"hand must be .* -1 for the others"),
        ({"hand": [1, 10, 3, -1]}, r"hand must be in \[0, 9\]"),
        ({"flag": 2}, r"flag must be 0 or 1, got 2"),
    ]
    for fields, message in cases:
        with pytest.raises(RecordError, match=message):
            check_ranges(record(**fields), RANGES)


def test_the_player_count_is_checked_before_the_ranges_that_use_it():
    with pytest.raises(RecordError, match=r"num_players must be in \[2, 4\], got 9"):
        check_ranges(record(num_players=9, current_player=7), RANGES)
    check_ranges(record(num_players=4, current_player=3, hand=[1, 2, 3, 4]), RANGES)


def test_a_dict_of_field_values_is_checked_the_same():
    rec = record(phase=5)
    with pytest.raises(RecordError, match="phase"):
        check_ranges(dict(zip(rec.dtype.names, rec.item())), RANGES)


def test_an_enum_with_gaps_is_refused():
    class Gappy(IntEnum):
        A = 0
        B = 2

    with pytest.raises(ValueError, match="Gappy's values are not 0..1"):
        Range.of(Gappy)
