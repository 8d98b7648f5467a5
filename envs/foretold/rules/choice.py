"""An effect's choice (Phase.CHOOSE) and a Relic search (Phase.SEARCH)."""

# ruff: noqa: D103  (as for envs/*/rules.py: kernels named after the rule they apply)
from __future__ import annotations

from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.zones import zone_insert, zone_shuffle

from .. import state as S
from ..cards import NF, NR
from ..state import Phase
from .helpers import add_gold, count
from .tables import E_BUY_ANY, E_FREE_BUY, E_PAY_REMOVE, E_SMASH


@njit(cache=True)
def choice_legal(rec, mask):
    """CHOOSE: what the resolving effect lets its owner pick (section 13)."""
    p = int(rec["actor"])
    e, a = play_effect(int(rec["ch_card"]))
    if e == E_SMASH:
        q = int(rec["ch_seat"])
        for r in range(NR):
            if rec["r_owned"][q, r] > 0 and smashable(r, a):
                mask[S.PICK_RELIC + r] = 1
    elif e == E_FREE_BUY:
        for k in range(2 * S.SPOTS):
            if free_pick(rec, p, k, a):
                mask[S.SPOT + k] = 1
    elif e == E_BUY_ANY:
        if rec["gold"][p] >= a:
            for t in range(NF):
                if faithful_source(rec, t) >= 0:
                    mask[S.PICK_FAITHFUL + t] = 1
            for r in range(NR):
                if relic_source(rec, p, r) >= 0:
                    mask[S.PICK_RELIC + r] = 1
    else:
        s = fight_side(rec, p)
        if s < 0 or (e == E_PAY_REMOVE and rec["gold"][p] < a):
            return
        for t in range(NF):
            if removable(rec, 1 - s, t):
                mask[S.PICK_FAITHFUL + t] = 1
        if rec["ch_left"] < a and e != E_PAY_REMOVE:
            mask[S.PASS] = 1  # "up to": one taken, the rest may be left


@njit(cache=True)
def choice_apply(rec, act):
    """CHOOSE: apply the pick; when the effect is done the stack resolves on (R69)."""
    p = int(rec["actor"])
    e, a = play_effect(int(rec["ch_card"]))
    done = True
    if act == S.PASS:
        pass
    elif e == E_SMASH:
        r = act - S.PICK_RELIC
        rec["r_owned"][rec["ch_seat"], r] -= 1
        zone_insert(rec["r_deck"], rec["r_deck_n"], S.DECK, 0, r)  # sacrificed (R64)
    elif e == E_FREE_BUY:
        k = act - S.SPOT
        if k < S.SPOTS:
            take_faithful(rec, p, k, rec["f_row"][k, rec["f_row_n"][k] - 1])
        else:
            k -= S.SPOTS
            clear_choice(rec)
            acquire_relic(rec, p, int(rec["r_row"][k, rec["r_row_n"][k] - 1]), k, Phase.CHOOSE)
            return
    elif e == E_BUY_ANY:
        add_gold(rec, p, -a)
        if act < S.PICK_FAITHFUL + NF:
            t = act - S.PICK_FAITHFUL
            take_faithful(rec, p, faithful_source(rec, t), t)
        else:
            r = act - S.PICK_RELIC
            k = relic_source(rec, p, r)
            clear_choice(rec)
            acquire_relic(rec, p, r, k, Phase.CHOOSE)
            return
    else:
        o = 1 - fight_side(rec, p)
        if e == E_PAY_REMOVE:
            add_gold(rec, p, -a)
        take_combatant(rec, p, o, act - S.PICK_FAITHFUL, e)
        rec["ch_left"] -= 1
        done = rec["ch_left"] <= 0 or not any_removable(rec, o)
    if done:
        end_choice(rec)


@njit(cache=True)
def end_choice(rec):
    """CHOOSE: the effect is done; the stack resolves on (R69), or an emptied fight ends."""
    clear_choice(rec)
    rec["actor"] = -1
    if rec["fin"] > 0 and (count(rec["f_fight"][1]) == 0
                           or (rec["fin"] == 2 and count(rec["f_fight"][0]) == 0)):
        fight_emptied(rec)
        open_raid_window(rec)  # the Heart conquered: its Smite
    else:
        advance(rec)


@njit(cache=True)
def end_search(rec):
    """R39: the flip search is over: the Relic Deck is shuffled; the stack resolves on."""
    zone_shuffle(rec["r_deck"], rec["r_deck_n"], S.DECK, rec["rng"])
    rec["actor"] = -1
    advance(rec)


# the modules of the same import cycle, imported once this one's kernels are defined
from .dice import take_combatant  # noqa: E402
from .market import acquire_relic  # noqa: E402
from .plays import (  # noqa: E402
    any_removable,
    faithful_source,
    fight_side,
    free_pick,
    play_effect,
    relic_source,
    removable,
    smashable,
)
from .raid import open_raid_window  # noqa: E402
from .reset import clear_choice  # noqa: E402
from .resolve import take_faithful  # noqa: E402
from .rounds import advance, fight_emptied  # noqa: E402
