"""Foretold: rearranging the Temple in the Marketplace Step (R24).

The dealt T (R2): Treasury (cell 0, doorways E S), Entrance (1, N E S W), Sanctum (2, S W),
Pathway (5, N S), Heart (9, N).
"""

from __future__ import annotations

import numpy as np
import pytest

import fatezoo
from fatezoo.envs.core.jit import njit
from fatezoo.envs.foretold import check_record, temple_is_legal
from fatezoo.envs.foretold.state import CELL, MOVE_FROM, PLAY_GOLD, REARRANGE_CAP, Phase

from .test_fate import quiet_market
from .test_rules import F, T, act, place_tile, ready


def moves(legal):
    return {a - MOVE_FROM for a in legal if MOVE_FROM <= a < MOVE_FROM + 16}


def test_rearrange_move_must_stay_legal():
    # R24, R27: the Entrance never moves; the Pathway cannot move (the Heart hangs on it);
    # the Heart may go under the Treasury (cell 4) or the Sanctum (cell 6), facing north
    # (one rotation: applied without asking); the Treasury and the Sanctum may turn in place
    states = quiet_market()
    rec = states[0]
    assert moves(ready(states)) == {0, 2, 9}
    legal = act(states, MOVE_FROM + 9)
    assert rec["phase"] == Phase.MOVE_CELL and rec["sel_cell"] == 9
    assert {a - CELL for a in legal if CELL <= a < CELL + 16} == {4, 6}
    act(states, CELL + 6)
    assert rec["phase"] == Phase.MARKET and rec["sel_cell"] == -1 and rec["move_to"] == -1
    assert rec["grid"][0, 6] == T["Heart"] and rec["rot"][0, 6] == 0 and rec["grid"][0, 9] == -1
    assert rec["rearranged"] == 1
    assert temple_is_legal(rec["grid"][0], rec["side"][0], rec["rot"][0])


def test_rearrange_swap_two_tiles():
    # R24: a deck Tile (A-side N S, rotation 2) under the Treasury; the Heart moves to its
    # cell and the deck Tile goes to the Heart's cell unturned, under the Pathway
    states = quiet_market()
    rec = states[0]
    place_tile(rec, 0, 4, "Gallery", rot=2)
    act(states, MOVE_FROM + 9, CELL + 4)  # the Heart's one rotation: north
    assert rec["grid"][0, 4] == T["Heart"] and rec["rot"][0, 4] == 0
    assert rec["grid"][0, 9] == T["Gallery"] and rec["rot"][0, 9] == 2
    assert rec["side"][0, 9] == 0 and rec["phase"] == Phase.MARKET
    assert temple_is_legal(rec["grid"][0], rec["side"][0], rec["rot"][0])


def test_rearrange_cap_per_marketplace_step():
    # R24 designed cap: after REARRANGE_CAP moves no Tile is offered; the Step goes on
    states = quiet_market()
    rec = states[0]
    for k in range(REARRANGE_CAP):
        act(states, MOVE_FROM + (9 if k % 2 == 0 else 6), CELL + (6 if k % 2 == 0 else 9))
    legal = ready(states)
    assert rec["rearranged"] == REARRANGE_CAP and not moves(legal)
    assert PLAY_GOLD + F["Guard"] in legal and rec["phase"] == Phase.MARKET


def test_a_move_in_progress_at_the_cap_is_refused():
    # R24: a move counts when it ends, so a record in the middle of a move (Phase.MOVE_CELL)
    # with `rearranged` already at the cap is impossible; loaded, the move would make it 5
    # and the observation's `misc` would hold 1.25, outside the declared Box(-1, 1)
    states = quiet_market()
    rec = states[0]
    act(states, MOVE_FROM + 9)
    assert rec["phase"] == Phase.MOVE_CELL
    rec["rearranged"] = REARRANGE_CAP - 1
    check_record(rec)  # one move left: sound
    rec["rearranged"] = REARRANGE_CAP
    with pytest.raises(ValueError, match=r"rearranged must be below the cap 4 while a "
                                         r"rearranging move is in progress \(.*\), got 4"):
        check_record(rec)
    env = fatezoo.make("foretold")
    with pytest.raises(ValueError, match="^foretold: saved state 0 is corrupt: rearranged"):
        env.load_state(states.tobytes())


def random_temples(count, seed=24):
    """``count`` (record, seat) pairs: legal Temples grown from the dealt T by random legal
    placements (two in three) and random grids (illegal, half without an Entrance)."""
    from fatezoo.envs.foretold.cards import ENTRANCE, NT
    from fatezoo.envs.foretold.rules.helpers import legal_with
    rng = np.random.default_rng(seed)
    dealt = quiet_market()[0]
    for trial in range(count):
        rec, p = dealt.copy(), trial % 2
        if trial % 3:
            for _ in range(rng.integers(0, 40)):
                c, t, side, r = rng.integers(0, 16), rng.integers(0, NT), rng.integers(0, 2), \
                    rng.integers(0, 4)
                if t != ENTRANCE and rec["grid"][p, c] < 0 and legal_with(rec, p, c, t, side, r):
                    rec["grid"][p, c], rec["side"][p, c], rec["rot"][p, c] = t, side, r
        else:
            tiles = rng.integers(0, NT, 16)
            tiles[(rng.random(16) < rng.uniform(0.2, 0.9)) | (tiles == ENTRANCE)] = -1
            if trial % 2:
                tiles[rng.integers(0, 16)] = ENTRANCE
            rec["grid"][p] = tiles
            rec["side"][p] = np.where(tiles >= 0, rng.integers(0, 2, 16), 0)
            rec["rot"][p] = np.where(tiles >= 0, rng.integers(0, 4, 16), 0)
        yield rec, p


def test_move_rotations_agree_with_the_moved_temple_on_random_temples():
    # R24, R27: move_ok (move_rotations, with its quick refusals) holds exactly when the
    # Temple after the move (move_tile on a copy) passes legal_doors, for every Tile, cell
    # and rotation of 400 Temples of both seats (random_temples); can_move is "some move_ok"
    from fatezoo.envs.foretold.cards import ENTRANCE, T_DOORS
    from fatezoo.envs.foretold.rules.helpers import (
        can_move,
        legal_doors,
        move_ok,
        move_tile,
        rotate,
        temple_cells,
        tile_doors,
    )

    @njit
    def moved_temple_legal(states, p, c, d, r, occ, doors):
        rec = states[0]
        t, u = rec["grid"][p, c], rec["grid"][p, d]
        if t < 0 or t == ENTRANCE or u == ENTRANCE:
            return False
        if d == c and rotate(T_DOORS[t, rec["side"][p, c]], r) == tile_doors(rec, p, c):
            return False  # the same doorways: not a move
        moved = states.copy()
        move_tile(moved[0], p, c, d, r)
        temple_cells(moved[0], p, occ, doors)
        return legal_doors(occ, doors)

    @njit
    def every_move(states, p, want, got, occ, doors):
        for c in range(16):
            for d in range(16):
                for r in range(4):
                    want[c, d, r] = moved_temple_legal(states, p, c, d, r, occ, doors)
                    got[c, d, r] = move_ok(states[0], p, c, d, r, occ, doors)

    occ, doors = np.zeros(16, np.int8), np.zeros(16, np.int64)
    want, got = np.zeros((16, 16, 4), np.bool_), np.zeros((16, 16, 4), np.bool_)
    answers = {True: 0, False: 0}
    for rec, p in random_temples(400):
        every_move(rec.reshape(1), p, want, got, occ, doors)
        assert (got == want).all(), (np.argwhere(got != want)[0], rec["grid"][p].tolist())
        for c in range(16):
            assert can_move(rec, p, c, occ, doors) == want[c].any()
            answers[bool(want[c].any())] += 1
    assert min(answers.values()) > 600  # both answers are met often


def test_can_place_anywhere_is_some_legal_with_on_random_temples():
    # R21: can_place_anywhere (the Tile Deck's mask) answers exactly "legal_with holds for
    # some empty cell and rotation", for every Tile type and side (the Entrance too) on 300
    # Temples of both seats
    from fatezoo.envs.foretold.cards import NT
    from fatezoo.envs.foretold.rules.helpers import legal_with
    from fatezoo.envs.foretold.rules.market import can_place_anywhere

    @njit
    def any_legal_with(rec, p, t, side):
        for c in range(16):
            if rec["grid"][p, c] < 0:
                for r in range(4):
                    if legal_with(rec, p, c, t, side, r):
                        return True
        return False

    answers = {True: 0, False: 0}
    for rec, p in random_temples(300, seed=21):
        for t in range(NT):
            for side in range(2):
                want = any_legal_with(rec, p, t, side)
                assert can_place_anywhere(rec, p, t, side) == want, (t, side,
                                                                     rec["grid"][p].tolist())
                answers[want] += 1
    assert min(answers.values()) > 600


def plain_r27(grid, side, rot):
    """R27 read plainly, in Python: the oracle of ``legal_doors``."""
    from fatezoo.envs.foretold.cards import ENTRANCE, T_DOORS
    from fatezoo.envs.foretold.rules.helpers import neighbour, rotate

    tiles = {c for c in range(16) if grid[c] >= 0}
    doors = {c: int(rotate(T_DOORS[grid[c], side[c]], rot[c])) for c in tiles}
    entrances = [c for c in tiles if grid[c] == ENTRANCE]
    if not entrances or neighbour(entrances[-1], 0) in tiles:
        return False  # no Entrance, or a Tile north of it
    for c in tiles:
        for d in range(4):
            o = neighbour(c, d)
            if o in tiles and (doors[c] >> d) & 1 != (doors[o] >> (d + 2) % 4) & 1:
                return False  # doorways that do not match
    reached, todo = {entrances[-1]}, [entrances[-1]]
    while todo:
        c = todo.pop()
        for d in range(4):
            o = neighbour(c, d)
            if (doors[c] >> d) & 1 and o in tiles and o not in reached:
                reached.add(o)
                todo.append(o)
    return reached == tiles


def test_legal_doors_is_the_plain_reading_of_r27_on_random_temples():
    # R27: the kernels' check (legal_doors, through the loader's temple_is_legal) answers as
    # a plain reading for 600 Temples of random_temples and each of them with every Tile
    # turned a quarter more; both answers are met often
    answers = {True: 0, False: 0}
    for rec, p in random_temples(600, seed=27):
        grid, side = rec["grid"][p], rec["side"][p]
        for rot in (rec["rot"][p], (rec["rot"][p] + 1) % 4):
            want = plain_r27(grid, side, rot)
            assert temple_is_legal(grid, side, rot) == want, (grid.tolist(), rot.tolist())
            answers[want] += 1
    assert min(answers.values()) > 200
