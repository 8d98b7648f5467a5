"""The Fathoming's rules (RULES.md) as numba kernels over one record.

Every decision belongs to the player whose turn it is (the text gives no way to act on
the other's turn). Effective values are recomputed from the whole board whenever they
are read (:func:`compute_props`, R40-R46): no modifier is stored as game state. The
record keeps one cache of the result (``eff``, ``eff_cls``) together with the board it
was computed from (``eff_key``, :func:`props_key_matches`); :func:`board_props` reuses
it while the board is unchanged (legal actions, the observation, the next action) and
recomputes it otherwise, so a stale or forged cache is never read (``check_record``
also recomputes a matching one).
"""

from __future__ import annotations

import numpy as np

from fatezoo.envs.core.decisions import in_block
from fatezoo.envs.core.jit import njit
from fatezoo.envs.core.kernels import split_rewards
from fatezoo.envs.core.knowledge import (
    IN_ZONE,
    determinize_zones,
    draw_seen,
    look_at_zone,
    reveal_all,
    shuffle_known,
)
from fatezoo.envs.core.rng import next_u32, randint
from fatezoo.envs.core.state import REWARD_SCORE, SPLIT_ALL, SPLIT_TRAIN
from fatezoo.envs.core.zones import (
    zone_fill,
    zone_find,
    zone_move_card,
    zone_push,
    zone_shuffle,
    zone_take,
)

from .cards import (
    A_CLS,
    A_COST,
    A_CTYPE,
    A_EFFECT,
    A_PROP,
    A_TARGET,
    A_TRIGGER,
    A_VALUE,
    A_VS,
    ABIL,
    ABIL_N,
    ACTION,
    ACTIVATE_ABIL,
    ATTACK,
    ATTACK_COST,
    CLASS_BIT,
    CLASS_GLOBAL,
    CLASS_PERSONAL,
    CLASS_WARRIORS,
    CONSTANT,
    COST,
    CTYPE,
    DIVINE,
    DIVINE_KINDS,
    E_ADD,
    E_BOUNCE,
    E_DAMAGE,
    E_DESTROY,
    E_DISCARD_RANDOM,
    E_DRAW,
    E_ENERGY,
    E_HEAL,
    E_LOOT,
    E_MEDALLION,
    E_MILL,
    E_READY,
    E_ROLL_DAMAGE,
    E_SEARCH,
    E_SEARCH_PLAY,
    E_SET,
    E_STRIP,
    E_TURN_ADD,
    E_TURN_SET,
    E_WIN_CLASSES,
    E_WIN_COUNT,
    E_WIN_ITEMS,
    END_TURN,
    FILLER_BASE,
    FILLER_DIVINE,
    GLOBAL,
    HAS_TEMP,
    HEALTH,
    ITEM,
    LOOT_VALUE,
    NUM_BASE_CLASSES,
    NUM_PROPS,
    ON_KILL,
    P_ATK,
    P_ATK_COST,
    P_ATTACKS,
    P_CAN_ATTACK,
    P_GUARD,
    P_HP,
    P_ITEM_LIMIT,
    P_ITEMS_ACTIVE,
    P_SUMMON_COST,
    PARTNER,
    PERSONAL,
    PLAYED,
    PLAYED_TARGET,
    S_ALL_HANDS,
    S_ALL_WARRIORS,
    S_ALLY_WARRIOR,
    S_ALLY_WARRIORS,
    S_ENEMY_CARD,
    S_ENEMY_TERRAIN,
    S_ENEMY_WARRIOR,
    S_ENEMY_WARRIORS,
    S_EQUIPPED,
    S_OWN_HAND,
    S_SELF,
    SUBTYPE,
    TERRAIN,
    WARRIOR,
)
from .state import (
    ACTIVATE_A,
    ATTACK_A,
    CANCEL_A,
    DECK0,
    DECK_SIZE,
    DISC0,
    DRAW_A,
    DRAW_PRICE,
    END_A,
    FIRST_POS,
    GLOBAL_Z,
    HAND0,
    KEY_TEMP0,
    KEY_TEMP_N,
    KEY_TURN,
    KEY_ZCARD0,
    KEY_ZONE0,
    KEY_ZSIZE,
    KEY_ZSTRIDE,
    MAIN,
    MAX_CANCELS,
    MAX_ENERGY,
    MAX_ITEMS,
    NUM_SOURCES,
    NUM_TARGETS,
    OVER,
    P_ACTIVATE,
    P_ATTACK,
    P_NONE,
    P_PLAY,
    PD_ARG,
    PD_ROW,
    PD_WHAT,
    PICK_A,
    PICK_PH,
    PLAY,
    PTER0,
    R_ALT,
    R_DECKOUT,
    R_LOOT,
    SLOT0,
    SLOTS,
    SR_HAND,
    SR_PLAY,
    SRC_GLOBAL,
    SRC_PERSONAL,
    START_ENERGY,
    START_HAND,
    T_CARD,
    T_CLS,
    T_LAYER,
    T_OP,
    T_PROP,
    T_SEAT,
    T_SEL,
    T_VALUE,
    TARGET_A,
    TARGET_PH,
    TEMP_CAP,
    TEMP_W,
    TG_GLOBAL,
    TG_OPP_PT,
    TG_OPP_W,
    TG_OWN_PT,
    TG_OWN_W,
    WIN_LOOT,
)

NUM_KINDS = CTYPE.shape[0]
DIE = np.array([1, 2, 3, 4, 5, 6], np.int64)  # R58

# ---------------------------------------------------------------- small readers


@njit(cache=True, inline="always")
def kind_in(dl, c):
    """``dl[c // 40, c % 40]``: the kind of card ``c`` (0 <= c < 80) in ``rec["deck_list"]``.

    Hot (every card the key check, the observation and the legal actions read): unsigned
    arithmetic, so no sign fix-ups of the division and no negative-index wraparound.
    """
    u = np.uintp(c)
    r = u // np.uintp(DECK_SIZE)
    return int(dl[r, u - r * np.uintp(DECK_SIZE)])


@njit(cache=True)
def kind_of(rec, c):
    """The card kind (row of cards.csv) of card id ``c``."""
    return kind_in(rec["deck_list"], c)


@njit(cache=True)
def warrior_at(rec, s, k):
    """The Warrior card in slot ``k`` of seat ``s``, or -1."""
    z = SLOT0 + SLOTS * s + k
    if rec["zone_n"][z] == 0:
        return -1
    return int(rec["zone"][z, FIRST_POS])


@njit(cache=True)
def items_on(rec, s, k):
    """How many Items the Warrior in slot ``k`` of seat ``s`` holds."""
    n = int(rec["zone_n"][SLOT0 + SLOTS * s + k])
    return n - 1 if n > 0 else 0


@njit(cache=True)
def personal_of(rec, s):
    """Seat ``s``'s Personal Terrain card, or -1."""
    if rec["zone_n"][PTER0 + s] == 0:
        return -1
    return int(rec["zone"][PTER0 + s, FIRST_POS])


@njit(cache=True)
def global_card(rec):
    """The Global Terrain card, or -1 (its controller is ``card // 40``)."""
    if rec["zone_n"][GLOBAL_Z] == 0:
        return -1
    return int(rec["zone"][GLOBAL_Z, FIRST_POS])


@njit(cache=True)
def num_warriors(rec, s):
    m = 0
    for k in range(SLOTS):
        if rec["zone_n"][SLOT0 + SLOTS * s + k] > 0:
            m += 1
    return m


@njit(cache=True)
def free_slot(rec, s):
    """The lowest free Warrior slot of seat ``s``, or -1 (R17)."""
    for k in range(SLOTS):
        if rec["zone_n"][SLOT0 + SLOTS * s + k] == 0:
            return k
    return -1


# ---------------------------------------------------------------- effective values


# Static effects (CONSTANT ADD/SET with a property and no vs-class: the only abilities
# that change effective values, R41) per card kind, in ability order, read once at import
# so that compute_props touches only the cards that have one.
ST_N = np.zeros(NUM_KINDS, np.int64)
STATIC_PARTS = ("op", "prop", "value", "sel", "cls")  # op, prop, value, selector, class mask
ST_OP, ST_PROP, ST_VALUE, ST_SEL, ST_CLS = range(len(STATIC_PARTS))
ST = np.zeros((NUM_KINDS, 2, len(STATIC_PARTS)), np.int64)
ST_IA = np.zeros(NUM_KINDS, np.int64)  # has a static on ITEMS_ACTIVE (the first pass)
MED_CLS = np.zeros(NUM_KINDS, np.int64)  # the classes a Medallion gives (R46), 0 none
HAND_SRC = np.zeros(NUM_KINDS, np.int64)  # has a CONSTANT Summon Cost effect on hands
for _k in range(NUM_KINDS):
    for _n in range(ABIL_N[_k]):
        _a = ABIL[_k, _n]
        if _a[A_EFFECT] == E_MEDALLION:
            MED_CLS[_k] |= _a[A_CLS]
        if _a[A_TRIGGER] == CONSTANT and _a[A_PROP] == P_SUMMON_COST:
            HAND_SRC[_k] = 1
        if (_a[A_TRIGGER] != CONSTANT or _a[A_EFFECT] not in (E_ADD, E_SET) or _a[A_PROP] < 0
                or _a[A_VS] != 0):
            continue
        _row = ST[_k, ST_N[_k]]
        _row[ST_OP], _row[ST_PROP], _row[ST_VALUE] = _a[A_EFFECT], _a[A_PROP], _a[A_VALUE]
        _row[ST_SEL], _row[ST_CLS] = _a[A_TARGET], _a[A_CLS]
        ST_N[_k] += 1
        if _a[A_PROP] == P_ITEMS_ACTIVE:
            ST_IA[_k] = 1


@njit(cache=True, inline="always")  # hot: no call overhead
def _effect(props, cls, op, prop, value, sel, seat, src_s, src_k, clsmask, first):
    """Apply one ADD/SET effect to every Warrior it reaches (R41).

    ``first``: the ITEMS_ACTIVE pass (only that property); otherwise every other one.
    ``cls[s, k] < 0`` marks an empty slot while the passes run. vs-class bonuses count
    only in an attack (R29), never here.
    """
    if first != (prop == P_ITEMS_ACTIVE):
        return
    one = sel == S_SELF or sel == S_EQUIPPED
    for s in range(2):
        if sel == S_ALLY_WARRIORS:
            if s != seat:
                continue
        elif sel == S_ENEMY_WARRIORS:
            if s == seat:
                continue
        elif one:
            if s != src_s:
                continue
        elif sel != S_ALL_WARRIORS:
            return
        for k in range(SLOTS):
            c = cls[s, k]
            if c < 0 or (one and k != src_k) or (clsmask != 0 and (c & clsmask) == 0):
                continue
            if op == E_ADD:
                props[s, k, prop] += value
            else:
                props[s, k, prop] = value


@njit(cache=True, inline="always")  # hot: inlined, ISMCTS runs 10% faster for 8 s more compile
def _card_statics(props, cls, kind, seat, src_s, src_k, first, specific):
    """A card's static effects (``specific``: only the SELF/EQUIPPED ones)."""
    for j in range(ST_N[kind]):
        sel = ST[kind, j, ST_SEL]
        if (sel == S_SELF or sel == S_EQUIPPED) != specific:
            continue
        _effect(props, cls, ST[kind, j, ST_OP], ST[kind, j, ST_PROP], ST[kind, j, ST_VALUE],
                sel, seat, src_s, src_k, ST[kind, j, ST_CLS], first)


@njit(cache=True)
def _find_warrior(rec, c):
    """(seat, slot) of Warrior card ``c`` in play, or (-1, -1)."""
    for s in range(2):
        for k in range(SLOTS):
            if warrior_at(rec, s, k) == c:
                return s, k
    return -1, -1


@njit(cache=True, inline="always")  # hot: see _card_statics
def _temps(rec, t, tn, props, cls, layer, first, specific):
    """The temporary effects of ``layer`` in creation order (R23 ``TURN_*``).

    ``t``, ``tn``: the record's ``temp`` table and ``temp_n``, read once by the caller.
    """
    for i in range(tn):
        if t[i, T_LAYER] != layer:
            continue
        sel = int(t[i, T_SEL])
        if (sel == S_SELF) != specific:
            continue
        src_s, src_k = -1, -1
        if sel == S_SELF:
            src_s, src_k = _find_warrior(rec, int(t[i, T_CARD]))
            if src_s < 0:
                continue
        op = E_ADD if t[i, T_OP] == E_TURN_ADD else E_SET
        _effect(props, cls, op, int(t[i, T_PROP]), int(t[i, T_VALUE]), sel, int(t[i, T_SEAT]),
                src_s, src_k, int(t[i, T_CLS]), first)


@njit(cache=True)
def _layers(rec, props, cls, first):
    """Apply every effect weakest layer first (R40).

    Global Terrain, Personal Terrains, Warriors with their Items, Action cards; inside a
    layer the non-active player's sources first, slots in order, wide effects before
    SELF/EQUIPPED ones. ``cls[s, k] < 0`` marks an empty slot (compute_props; no effect
    changes a class mask), so the Warrior kinds are read from the record, not from an
    array allocated per computation.
    Hot: the record's arrays are read once here (a record field read inside a loop costs
    a reference-count call pair per read).
    """
    a = int(rec["turn_player"])
    zn = rec["zone_n"]
    zone = rec["zone"]
    dl = rec["deck_list"]
    t = rec["temp"]
    tn = int(rec["temp_n"])
    if zn[GLOBAL_Z] > 0:
        g = int(zone[GLOBAL_Z, FIRST_POS])
        _card_statics(props, cls, kind_in(dl, g), g // DECK_SIZE, -1,
                      -1, first, False)
    _temps(rec, t, tn, props, cls, 0, first, False)
    for j in range(2):
        s = 1 - a if j == 0 else a
        if zn[PTER0 + s] > 0:
            c = int(zone[PTER0 + s, FIRST_POS])
            _card_statics(props, cls, kind_in(dl, c), s, -1, -1,
                          first, False)
    _temps(rec, t, tn, props, cls, 1, first, False)
    for sp in range(2):
        specific = sp == 1
        for j in range(2):
            s = 1 - a if j == 0 else a
            for k in range(SLOTS):
                if cls[s, k] < 0:
                    continue
                z = SLOT0 + SLOTS * s + k
                kd = kind_in(dl, zone[z, FIRST_POS])
                _card_statics(props, cls, kd, s, s, k, first, specific)
                if first or props[s, k, P_ITEMS_ACTIVE] <= 0:
                    continue
                for i in range(1, zn[z]):
                    _card_statics(props, cls, kind_in(dl, zone[z, i]), s, s, k, first, specific)
        _temps(rec, t, tn, props, cls, 2, first, specific)
    _temps(rec, t, tn, props, cls, 3, first, False)
    _temps(rec, t, tn, props, cls, 3, first, True)


@njit(cache=True)
def compute_props(rec, props, cls):
    """Effective properties and class masks of every Warrior in play (section 3, R33).

    Effective properties ``props[s, k, prop]`` and class masks ``cls[s, k]`` of every
    Warrior in play (RULES.md section 3: three passes, then the clamps of R33). The
    ITEMS_ACTIVE pass is skipped when no card in play or temporary effect touches it
    (it could change nothing).
    """
    any_ia = False
    zn = rec["zone_n"]
    zone = rec["zone"]
    dl = rec["deck_list"]  # hot: the record's arrays read once, not per card
    for s in range(2):
        for k in range(SLOTS):
            z = SLOT0 + SLOTS * s + k
            for q in range(NUM_PROPS):
                props[s, k, q] = 0
            cls[s, k] = -1
            if zn[z] == 0:
                continue
            w = int(zone[z, FIRST_POS])
            kd = kind_in(dl, w)
            props[s, k, P_ATK] = ATTACK[kd]
            props[s, k, P_HP] = HEALTH[kd]
            props[s, k, P_ATK_COST] = ATTACK_COST[kd]
            props[s, k, P_SUMMON_COST] = COST[kd]
            props[s, k, P_ATTACKS] = 1
            props[s, k, P_CAN_ATTACK] = 1
            props[s, k, P_ITEM_LIMIT] = 1
            props[s, k, P_ITEMS_ACTIVE] = 1
            cls[s, k] = CLASS_BIT[kd]
            if ST_IA[kd]:
                any_ia = True
    for z in range(PTER0, GLOBAL_Z + 1):  # both Personal Terrains and the Global Terrain
        if zn[z] > 0:
            c = int(zone[z, FIRST_POS])
            if ST_IA[kind_in(dl, c)]:
                any_ia = True
    temp = rec["temp"]
    for i in range(rec["temp_n"]):
        if temp[i, T_PROP] == P_ITEMS_ACTIVE:
            any_ia = True
    if any_ia:
        _layers(rec, props, cls, True)
    # Medallions (R46): the union of the active Medallions' classes
    for s in range(2):
        for k in range(SLOTS):
            z = SLOT0 + SLOTS * s + k
            m = zn[z]
            if m <= 1 or props[s, k, P_ITEMS_ACTIVE] <= 0:
                continue
            mask = 0
            for i in range(1, m):
                c = int(zone[z, i])
                mask |= MED_CLS[kind_in(dl, c)]
            if mask != 0:
                cls[s, k] = mask
    _layers(rec, props, cls, False)
    for s in range(2):
        for k in range(SLOTS):
            if cls[s, k] < 0:
                cls[s, k] = 0
            props[s, k, P_ATK] = max(0, props[s, k, P_ATK])
            props[s, k, P_ATK_COST] = max(0, props[s, k, P_ATK_COST])
            props[s, k, P_SUMMON_COST] = max(0, props[s, k, P_SUMMON_COST])
            props[s, k, P_ATTACKS] = min(9, max(0, props[s, k, P_ATTACKS]))
            props[s, k, P_CAN_ATTACK] = min(1, max(0, props[s, k, P_CAN_ATTACK]))
            props[s, k, P_ITEM_LIMIT] = min(MAX_ITEMS, max(0, props[s, k, P_ITEM_LIMIT]))
            props[s, k, P_ITEMS_ACTIVE] = min(1, max(0, props[s, k, P_ITEMS_ACTIVE]))


@njit(cache=True)
def props_key_matches(rec):
    """Whether ``eff_key`` describes the board now (the cache ``eff``/``eff_cls`` is valid).

    Reads only the record's own fields; a board zone holding more than the key stores
    (never in a sound record) never matches.
    """
    key = rec["eff_key"]
    if key[KEY_TURN] != 1 + int(rec["turn_player"]) or key[KEY_TEMP_N] != int(rec["temp_n"]):
        return False
    zn = rec["zone_n"]
    zone = rec["zone"]
    dl = rec["deck_list"]  # hot: the record's arrays read once, not per card
    for j in range(11):
        z = GLOBAL_Z if j == 0 else (PTER0 + j - 1 if j < 3 else SLOT0 + j - 3)
        o = KEY_ZONE0 + j * KEY_ZSTRIDE
        m = int(zn[z])
        if key[o + KEY_ZSIZE] != m or m >= KEY_ZSTRIDE:
            return False
        for i in range(m):
            c = int(zone[z, i])
            if key[o + KEY_ZCARD0 + i] != c * 256 + kind_in(dl, c):
                return False
    tn = int(rec["temp_n"])
    if tn < 0 or tn > TEMP_CAP:
        return False
    temp = rec["temp"]
    for i in range(tn):
        for f in range(TEMP_W):
            if key[KEY_TEMP0 + i * TEMP_W + f] != temp[i, f]:
                return False
    return True


@njit(cache=True)
def _store_key(rec):
    key = rec["eff_key"]
    zn = rec["zone_n"]
    zone = rec["zone"]
    dl = rec["deck_list"]
    key[KEY_TURN] = 1 + int(rec["turn_player"])
    key[KEY_TEMP_N] = int(rec["temp_n"])
    for j in range(11):
        z = GLOBAL_Z if j == 0 else (PTER0 + j - 1 if j < 3 else SLOT0 + j - 3)
        o = KEY_ZONE0 + j * KEY_ZSTRIDE
        m = min(int(zn[z]), KEY_ZSTRIDE - KEY_ZCARD0)
        key[o + KEY_ZSIZE] = m
        for i in range(m):
            c = int(zone[z, i])
            key[o + KEY_ZCARD0 + i] = c * 256 + kind_in(dl, c)
    temp = rec["temp"]
    for i in range(min(max(int(rec["temp_n"]), 0), TEMP_CAP)):
        for f in range(TEMP_W):
            key[KEY_TEMP0 + i * TEMP_W + f] = temp[i, f]


@njit(cache=True)
def board_props(rec):
    """The board's effective values ``(props, cls)``: the record's cache, refreshed if stale.

    The arrays are the record's own (``eff``, ``eff_cls``): the next call after a change
    of the board overwrites them.
    """
    props = rec["eff"]
    cls = rec["eff_cls"]
    if not props_key_matches(rec):
        compute_props(rec, props, cls)
        _store_key(rec)
    return props, cls


@njit(cache=True)
def new_props():
    return np.zeros((2, SLOTS, NUM_PROPS), np.int16), np.zeros((2, SLOTS), np.int16)


@njit(cache=True)
def divine_cost(rec, p):
    """A Divine card's Summon Cost for ``p``: 10 - max(0, opponent's Loot - own) (R45)."""
    return 10 - max(0, int(rec["loot"][1 - p]) - int(rec["loot"][p]))


@njit(cache=True)
def _hand_effects(kind, src_kind, sel_ok, cost):
    for n in range(ABIL_N[src_kind]):
        if ABIL[src_kind, n, A_TRIGGER] != CONSTANT or ABIL[src_kind, n, A_PROP] != P_SUMMON_COST:
            continue
        sel = ABIL[src_kind, n, A_TARGET]
        if sel != S_ALL_HANDS and not (sel == S_OWN_HAND and sel_ok):
            continue
        ct = ABIL[src_kind, n, A_CTYPE]
        if ct >= 0 and ct != CTYPE[kind]:
            continue
        cm = ABIL[src_kind, n, A_CLS]
        if cm != 0 and (CLASS_BIT[kind] & cm) == 0:
            continue
        if ABIL[src_kind, n, A_EFFECT] == E_ADD:
            cost += ABIL[src_kind, n, A_VALUE]
        elif ABIL[src_kind, n, A_EFFECT] == E_SET:
            cost = ABIL[src_kind, n, A_VALUE]
    return cost


@njit(cache=True)
def hand_sources(rec):
    """The board zones whose card has a CONSTANT Summon Cost effect on hands (HAND_SRC).

    A bit mask: bit ``z`` set when zone ``z`` (a Personal Terrain, the Global Terrain or a
    Warrior slot; the card at position 0, Items never have a hand effect of their own
    here) holds such a card; 0 when none does.
    """
    zn = rec["zone_n"]
    zone = rec["zone"]
    dl = rec["deck_list"]
    bits = 0
    for z in range(PTER0, SLOT0 + 2 * SLOTS):
        if zn[z] > 0 and HAND_SRC[kind_in(dl, zone[z, FIRST_POS])]:
            bits |= 1 << z
    return bits


@njit(cache=True, inline="always")
def hand_cost_if(rec, p, kind, sources):
    """:func:`hand_cost` given ``sources`` (:func:`hand_sources`): only those zones are read.

    The same sources in the same order as :func:`hand_cost` (whose zones without a
    source change nothing); with no source on the board it is the printed cost.
    """
    cost = divine_cost(rec, p) if DIVINE[kind] else COST[kind]
    if sources == 0:
        return max(0, cost)
    zone = rec["zone"]
    dl = rec["deck_list"]
    if (sources >> GLOBAL_Z) & 1:
        g = int(zone[GLOBAL_Z, FIRST_POS])
        cost = _hand_effects(kind, kind_in(dl, g), g // DECK_SIZE == p, cost)
    if (sources >> (PTER0 + p)) & 1:
        cost = _hand_effects(kind, kind_in(dl, zone[PTER0 + p, FIRST_POS]), True, cost)
    a = int(rec["turn_player"])
    for j in range(2):
        s = 1 - a if j == 0 else a
        for k in range(SLOTS):
            z = SLOT0 + SLOTS * s + k
            if (sources >> z) & 1:
                cost = _hand_effects(kind, kind_in(dl, zone[z, FIRST_POS]), s == p, cost)
    return max(0, cost)


@njit(cache=True)
def hand_cost(rec, p, kind):
    """Effective Summon Cost of a card of ``kind`` in ``p``'s hand (R33, R45, section 3)."""
    cost = divine_cost(rec, p) if DIVINE[kind] else COST[kind]
    zn = rec["zone_n"]
    zone = rec["zone"]
    dl = rec["deck_list"]  # hot: the record's arrays read once
    if zn[GLOBAL_Z] > 0:
        g = int(zone[GLOBAL_Z, FIRST_POS])
        gk = kind_in(dl, g)
        if HAND_SRC[gk]:
            cost = _hand_effects(kind, gk, g // DECK_SIZE == p, cost)
    if zn[PTER0 + p] > 0:
        t = int(zone[PTER0 + p, FIRST_POS])
        tk = kind_in(dl, t)
        if HAND_SRC[tk]:
            cost = _hand_effects(kind, tk, True, cost)
    a = int(rec["turn_player"])
    for j in range(2):
        s = 1 - a if j == 0 else a
        for k in range(SLOTS):
            z = SLOT0 + SLOTS * s + k
            if zn[z] > 0:
                w = int(zone[z, FIRST_POS])
                wk = kind_in(dl, w)
                if HAND_SRC[wk]:
                    cost = _hand_effects(kind, wk, s == p, cost)
    return max(0, cost)


# ---------------------------------------------------------------- loot, winning


@njit(cache=True)
def win(rec, p, reason):
    """``p`` wins now: +1 / -1, the game ends (R38, R39, R47)."""
    if rec["terminated"]:
        return
    scores = np.zeros(2, np.int64)
    scores[p] = 1
    split_rewards(rec, scores, False)
    rec["winner"] = p
    rec["reason"] = reason
    rec["phase"] = OVER
    rec["pend"][PD_WHAT] = P_NONE
    rec["pend"][PD_ARG] = -1
    rec["pend"][PD_ROW] = -1


@njit(cache=True)
def gain_loot(rec, p, v):
    """``p`` collects ``v`` Loot; 10 wins at once (R38)."""
    if rec["terminated"] or v <= 0:
        return
    old = int(rec["loot"][p])
    new = min(WIN_LOOT, old + v)
    rec["loot"][p] = new
    if rec["reward_mode"] == REWARD_SCORE:
        rec["rewards"][p] += (new - old) / 10.0
        rec["rewards"][1 - p] -= (new - old) / 10.0
    if new >= WIN_LOOT:
        win(rec, p, R_LOOT)


# ---------------------------------------------------------------- moving cards


@njit(cache=True)
def _drop_temps(rec, c):
    """Temporary effects bound to card ``c`` lapse (R57)."""
    j = 0
    for i in range(rec["temp_n"]):
        if rec["temp"][i, T_CARD] == c:
            continue
        for x in range(rec["temp"].shape[1]):
            rec["temp"][j, x] = rec["temp"][i, x]
        j += 1
    rec["temp_n"] = j


@njit(cache=True)
def strip_items(rec, s, k):
    """Every Item on the Warrior (s, k) goes to its owner's discard pile (R25)."""
    z = SLOT0 + SLOTS * s + k
    while rec["zone_n"][z] > 1:
        c = zone_take(rec["zone"], rec["zone_n"], z, int(rec["zone_n"][z]) - 1)
        zone_push(rec["zone"], rec["zone_n"], DISC0 + c // DECK_SIZE, c)


@njit(cache=True)
def leave_warrior(rec, s, k, to_hand):
    """The Warrior (s, k) leaves the field with its Items (R25, R57).

    The Warrior (s, k) leaves the field with its Items: to the discard pile, or to its
    owner's hand (``BOUNCE``), losing damage and its turn's attacks (R25, R57).
    """
    z = SLOT0 + SLOTS * s + k
    strip_items(rec, s, k)
    if rec["zone_n"][z] == 0:
        return
    c = zone_take(rec["zone"], rec["zone_n"], z, 0)
    o = c // DECK_SIZE
    zone_push(rec["zone"], rec["zone_n"], (HAND0 if to_hand else DISC0) + o, c)
    rec["dmg"][c] = 0
    rec["attacks"][s, k] = 0
    _drop_temps(rec, c)


@njit(cache=True)
def destroy_warrior(rec, s, k):
    """Destroy the Warrior (s, k): its opponent collects ceil(printed cost / 2) (R31)."""
    w = warrior_at(rec, s, k)
    if w < 0:
        return
    loot = LOOT_VALUE[kind_of(rec, w)]
    leave_warrior(rec, s, k, False)
    gain_loot(rec, 1 - s, loot)


@njit(cache=True)
def discard_terrain(rec, z):
    """The Terrain in zone ``z`` goes to its owner's discard pile (no Loot, R32)."""
    if rec["zone_n"][z] == 0:
        return
    c = zone_take(rec["zone"], rec["zone_n"], z, 0)
    zone_push(rec["zone"], rec["zone_n"], DISC0 + c // DECK_SIZE, c)
    rec["dmg"][c] = 0
    _drop_temps(rec, c)


@njit(cache=True)
def enter_slot(rec, s, c):
    """Warrior card ``c`` (from wherever it was) enters the lowest free slot of ``s``."""
    k = free_slot(rec, s)
    zone_push(rec["zone"], rec["zone_n"], SLOT0 + SLOTS * s + k, c)
    rec["dmg"][c] = 0
    rec["attacks"][s, k] = 0
    rec["used"][s, k] = 0
    return k


@njit(cache=True)
def draw_cards(rec, p, v):
    """``p`` draws up to ``v`` cards, seen only by them (none from an empty deck, R39).

    ``p`` draws up to ``v`` cards, seen only by them (a draw from an empty deck draws
    nothing, R39).
    """
    for _ in range(v):
        draw_seen(rec["zone"], rec["zone_n"], rec["known"], 2, DECK0 + p, HAND0 + p, p)


# ---------------------------------------------------------------- state checks


@njit(cache=True)
def state_check(rec):
    """Destroy every card whose damage reached its Health (R30, R53).

    Destroy every card whose damage reached its Health, opponent of the acting player
    first, Warriors in slot order then Terrains, until none is left (R30, R53). Unless
    the game ended, the record's cache holds the board's effective values afterwards.
    """
    a = int(rec["turn_player"])
    while not rec["terminated"]:
        props, cls = board_props(rec)
        found = False
        for j in range(2):
            s = 1 - a if j == 0 else a
            for k in range(SLOTS):
                w = warrior_at(rec, s, k)
                if w >= 0 and rec["dmg"][w] >= props[s, k, P_HP]:
                    destroy_warrior(rec, s, k)
                    found = True
                    break
            if found:
                break
            t = personal_of(rec, s)
            if t >= 0 and rec["dmg"][t] >= HEALTH[kind_of(rec, t)]:
                discard_terrain(rec, PTER0 + s)
                found = True
                break
            g = global_card(rec)
            if g >= 0 and g // DECK_SIZE == s and rec["dmg"][g] >= HEALTH[kind_of(rec, g)]:
                discard_terrain(rec, GLOBAL_Z)
                found = True
                break
        if not found:
            return


@njit(cache=True)
def _win_condition(rec, p, kind, cls):
    for n in range(ABIL_N[kind]):
        e = ABIL[kind, n, A_EFFECT]
        v = ABIL[kind, n, A_VALUE]
        if e == E_WIN_COUNT:
            m = 0
            for k in range(SLOTS):
                if warrior_at(rec, p, k) >= 0 and (cls[p, k] & ABIL[kind, n, A_CLS]) != 0:
                    m += 1
            if m >= v:
                return True
        elif e == E_WIN_CLASSES:
            mask = 0
            for k in range(SLOTS):
                if warrior_at(rec, p, k) >= 0:
                    mask |= cls[p, k]
            m = 0
            for b in range(16):
                m += (mask >> b) & 1
            if m >= v:
                return True
        elif e == E_WIN_ITEMS:
            m = 0
            for k in range(SLOTS):
                m += items_on(rec, p, k)
            if m >= v:
                return True
    return False


@njit(cache=True)
def check_alt_wins(rec, cls):
    """Instant wins of cards on a player's field, the acting player first (R47).

    ``cls``: the effective class masks of the board as it is now.
    """
    if rec["terminated"] or not rec["divine"]:  # only expansion cards have them (R7)
        return
    a = int(rec["turn_player"])
    for j in range(2):
        p = a if j == 0 else 1 - a
        for k in range(SLOTS):
            w = warrior_at(rec, p, k)
            if w >= 0 and _win_condition(rec, p, kind_of(rec, w), cls):
                win(rec, p, R_ALT)
                return
        t = personal_of(rec, p)
        if t >= 0 and _win_condition(rec, p, kind_of(rec, t), cls):
            win(rec, p, R_ALT)
            return
        g = global_card(rec)
        if g >= 0 and g // DECK_SIZE == p and _win_condition(rec, p, kind_of(rec, g), cls):
            win(rec, p, R_ALT)
            return


@njit(cache=True)
def after_action(rec):
    """State checks and instant wins; the record's cache is current afterwards."""
    state_check(rec)
    if not rec["terminated"]:
        check_alt_wins(rec, rec["eff_cls"])


# ---------------------------------------------------------------- targets


@njit(cache=True)
def target_card(rec, p, t):
    """The card of target ``t`` (relative to ``p``), or -1."""
    if t < TG_OPP_W:
        return warrior_at(rec, p, t - TG_OWN_W)
    if t < TG_OWN_PT:
        return warrior_at(rec, 1 - p, t - TG_OPP_W)
    if t == TG_OWN_PT:
        return personal_of(rec, p)
    if t == TG_OPP_PT:
        return personal_of(rec, 1 - p)
    return global_card(rec)


@njit(cache=True)
def selector_targets(rec, p, sel, effect, value, out, base):
    """Mark the legal targets of a chosen-target ability (R51) in ``out[base:]``; count them.

    ``base``: where the target block starts in ``out`` (the legal mask writes its own
    target block: no slice of the batch's mask array, whose reference count the threads
    of a batched step would share).
    """
    for t in range(NUM_TARGETS):
        out[base + t] = 0
    zn = rec["zone_n"]
    zone = rec["zone"]
    dl = rec["deck_list"]  # hot (every legal mask): the record's arrays read once
    q = 1 - p
    for k in range(SLOTS):
        if sel == S_ALLY_WARRIOR and zn[SLOT0 + SLOTS * p + k] > 0:
            out[base + TG_OWN_W + k] = 1
        z = SLOT0 + SLOTS * q + k
        m = int(zn[z])
        if m > 0 and (sel == S_ENEMY_WARRIOR or sel == S_ENEMY_CARD):
            if effect == E_DESTROY:
                w = int(zone[z, FIRST_POS])
                if COST[kind_in(dl, w)] > value:
                    continue
            if effect == E_STRIP and m <= 1:  # no Items
                continue
            out[base + TG_OPP_W + k] = 1
    if sel == S_ENEMY_CARD or sel == S_ENEMY_TERRAIN:
        if zn[PTER0 + q] > 0:
            out[base + TG_OPP_PT] = 1
        if zn[GLOBAL_Z] > 0 and int(zone[GLOBAL_Z, FIRST_POS]) // DECK_SIZE != p:
            out[base + TG_GLOBAL] = 1
    m = 0
    for t in range(NUM_TARGETS):
        m += out[base + t]
    return m


@njit(cache=True)
def attack_targets(rec, p, out, base):
    """An attack's targets: the opponent's Warriors and Terrains (R27)."""
    return selector_targets(rec, p, S_ENEMY_CARD, E_DAMAGE, 0, out, base)


@njit(cache=True)
def item_targets(rec, p, props, out, base):
    """Own Warriors holding fewer Items than their Item limit (R24), in ``out[base:]``."""
    for t in range(NUM_TARGETS):
        out[base + t] = 0
    zn = rec["zone_n"]
    m = 0
    for k in range(SLOTS):
        n = int(zn[SLOT0 + SLOTS * p + k])
        if n > 0 and n - 1 < props[p, k, P_ITEM_LIMIT]:
            out[base + TG_OWN_W + k] = 1
            m += 1
    return m


# ---------------------------------------------------------------- resolving abilities


@njit(cache=True)
def add_temp(rec, layer, kind, n, p, card):
    i = int(rec["temp_n"])
    if i >= TEMP_CAP:  # never reached: cards with TURN_* are illegal with a full table
        return
    sel = ABIL[kind, n, A_TARGET]
    row = rec["temp"][i]
    row[T_LAYER] = layer
    row[T_OP] = ABIL[kind, n, A_EFFECT]
    row[T_PROP] = ABIL[kind, n, A_PROP]
    row[T_VALUE] = ABIL[kind, n, A_VALUE]
    row[T_SEL] = sel
    row[T_SEAT] = p
    row[T_CARD] = card if sel == S_SELF else -1
    row[T_CLS] = ABIL[kind, n, A_CLS]
    rec["temp_n"] = i + 1


@njit(cache=True)
def _search_matches(kind, sk, n):
    ct = ABIL[sk, n, A_CTYPE]
    cm = ABIL[sk, n, A_CLS]
    if ct >= 0 and CTYPE[kind] != ct:
        return False
    if cm != 0 and (CLASS_BIT[kind] & cm) == 0:
        return False
    if ABIL[sk, n, A_EFFECT] == E_SEARCH_PLAY and COST[kind] > ABIL[sk, n, A_VALUE]:
        return False
    return True


@njit(cache=True)
def search_count(rec, p, sk, n):
    """How many cards of ``p``'s deck match the search ability (sk, n)."""
    m = 0
    z = DECK0 + p
    for i in range(rec["zone_n"][z]):
        if _search_matches(kind_of(rec, int(rec["zone"][z, i])), sk, n):
            m += 1
    return m


@njit(cache=True)
def end_search(rec, p):
    """The searched deck is looked at and shuffled (R37)."""
    z = DECK0 + p
    look_at_zone(rec["zone"], rec["zone_n"], rec["known"], z, p)
    shuffle_known(rec["zone"], rec["zone_n"], rec["known"], 2, z, rec["rng"])


@njit(cache=True)
def start_search(rec, p, sk, n):
    """A SEARCH / SEARCH_PLAY ability opens the pick decision (R36, R37, R48).

    A SEARCH / SEARCH_PLAY ability: open the pick decision, or shuffle if nothing
    matches; SEARCH_PLAY with a full Warrior Zone does nothing (R48).
    """
    mode = SR_PLAY if ABIL[sk, n, A_EFFECT] == E_SEARCH_PLAY else SR_HAND
    if mode == SR_PLAY and free_slot(rec, p) < 0:
        return
    if search_count(rec, p, sk, n) == 0:
        end_search(rec, p)
        return
    rec["phase"] = PICK_PH
    rec["pend"][PD_WHAT] = mode
    rec["pend"][PD_ARG] = sk
    rec["pend"][PD_ROW] = n


@njit(cache=True)
def finish_search(rec, p, kind):
    """``p`` picked a card of ``kind`` (R36, R37, R56).

    ``p`` picked a card of ``kind``: shown to both (R36), to the hand or into play
    (R56), then the deck is shuffled (R37).
    """
    z = DECK0 + p
    pos = -1
    for i in range(rec["zone_n"][z]):
        if kind_of(rec, int(rec["zone"][z, i])) == kind:
            pos = i
            break
    c = zone_take(rec["zone"], rec["zone_n"], z, pos)
    reveal_all(rec["known"], c, 2)
    rec["last_search"][p] = kind
    if rec["pend"][PD_WHAT] == SR_PLAY:
        enter_slot(rec, p, c)
    else:
        zone_push(rec["zone"], rec["zone_n"], HAND0 + p, c)
    end_search(rec, p)
    rec["phase"] = MAIN
    rec["pend"][PD_WHAT] = P_NONE
    rec["pend"][PD_ARG] = -1
    rec["pend"][PD_ROW] = -1


@njit(cache=True)
def _damage(rec, c, v):
    if c >= 0:
        rec["dmg"][c] = min(999, int(rec["dmg"][c]) + v)


@njit(cache=True)
def _heal(rec, c, v):
    if c >= 0:
        rec["dmg"][c] = max(0, int(rec["dmg"][c]) - v)


@njit(cache=True)
def resolve(rec, p, kind, n, src_s, src_k, card, target, layer):
    """Resolve ability ``n`` of ``kind`` for player ``p``.

    Resolve ability ``n`` of ``kind`` for player ``p``; (src_s, src_k) the Warrior it
    belongs to (or is equipped to), ``card`` the card, ``target`` the chosen target.
    """
    e = ABIL[kind, n, A_EFFECT]
    sel = ABIL[kind, n, A_TARGET]
    v = ABIL[kind, n, A_VALUE]
    q = 1 - p
    if e == E_TURN_ADD or e == E_TURN_SET:
        add_temp(rec, layer, kind, n, p, card)
    elif e == E_DAMAGE or e == E_ROLL_DAMAGE:
        if e == E_ROLL_DAMAGE:
            v = DIE[randint(rec["rng"], 6)]
            rec["last_roll"] = v
        if target >= 0:
            _damage(rec, target_card(rec, p, target), v)
        else:
            for s in range(2):
                if (sel == S_ENEMY_WARRIORS and s == p):
                    continue
                for k in range(SLOTS):
                    _damage(rec, warrior_at(rec, s, k), v)
    elif e == E_HEAL:
        if target >= 0:
            _heal(rec, target_card(rec, p, target), v)
        elif sel == S_EQUIPPED or sel == S_SELF:
            _heal(rec, warrior_at(rec, src_s, src_k), v)
        else:
            for k in range(SLOTS):
                _heal(rec, warrior_at(rec, p, k), v)
    elif e == E_DESTROY:
        if target >= 0:
            destroy_warrior(rec, q, target - TG_OPP_W)
        else:
            for k in range(SLOTS):
                w = warrior_at(rec, q, k)
                if w >= 0 and COST[kind_of(rec, w)] <= v:
                    destroy_warrior(rec, q, k)
    elif e == E_BOUNCE:
        if target >= 0:
            s = p if target < TG_OPP_W else q
            leave_warrior(rec, s, target % SLOTS, True)
    elif e == E_STRIP:
        if target >= 0:
            strip_items(rec, q, target - TG_OPP_W)
    elif e == E_DRAW:
        draw_cards(rec, p, v)
    elif e == E_ENERGY:
        rec["energy"][p] = min(MAX_ENERGY, int(rec["energy"][p]) + v)
    elif e == E_LOOT:
        gain_loot(rec, p, v)
    elif e == E_SEARCH or e == E_SEARCH_PLAY:
        start_search(rec, p, kind, n)
    elif e == E_READY:
        if target >= 0:
            k = target - TG_OWN_W
        else:
            k = src_k
        if k >= 0 and warrior_at(rec, p, k) >= 0:
            rec["attacks"][p, k] = max(-9, int(rec["attacks"][p, k]) - v)
    elif e == E_DISCARD_RANDOM:
        for _ in range(v):
            h = HAND0 + q
            m = int(rec["zone_n"][h])
            if m == 0:
                break
            c = zone_take(rec["zone"], rec["zone_n"], h, randint(rec["rng"], m))
            reveal_all(rec["known"], c, 2)
            zone_push(rec["zone"], rec["zone_n"], DISC0 + q, c)
    elif e == E_MILL:
        for _ in range(v):
            d = DECK0 + q
            m = int(rec["zone_n"][d])
            if m == 0:
                break
            c = zone_take(rec["zone"], rec["zone_n"], d, m - 1)
            reveal_all(rec["known"], c, 2)
            zone_push(rec["zone"], rec["zone_n"], DISC0 + q, c)


@njit(cache=True)
def resolve_trigger(rec, p, kind, trigger, src_s, src_k, card, target, layer):
    """Resolve every ``trigger`` ability of ``kind`` in ``n`` order (R52)."""
    for n in range(ABIL_N[kind]):
        if ABIL[kind, n, A_TRIGGER] != trigger:
            continue
        sel = ABIL[kind, n, A_TARGET]
        chosen = (sel == S_ALLY_WARRIOR or sel == S_ENEMY_WARRIOR or sel == S_ENEMY_CARD
                  or sel == S_ENEMY_TERRAIN)
        if chosen and target < 0:
            continue  # no legal target when played: the ability does nothing (R51)
        resolve(rec, p, kind, n, src_s, src_k, card, target if chosen else -1, layer)
        if rec["terminated"] or rec["phase"] == PICK_PH:
            return


# ---------------------------------------------------------------- play phase


@njit(cache=True)
def hand_card_of_kind(rec, p, kind):
    """The lowest card id of ``kind`` in ``p``'s hand, or -1."""
    z = HAND0 + p
    best = -1
    for i in range(rec["zone_n"][z]):
        c = int(rec["zone"][z, i])
        if kind_of(rec, c) == kind and (best < 0 or c < best):
            best = c
    return best


@njit(cache=True)
def needs_target(rec, p, kind):
    """Whether playing ``kind`` asks for a target (Items; chosen-target abilities)."""
    if CTYPE[kind] == ITEM:
        return True
    n = PLAYED_TARGET[kind]
    if n < 0:
        return False
    if CTYPE[kind] == WARRIOR:
        out = np.zeros(NUM_TARGETS, np.int8)
        return selector_targets(rec, p, ABIL[kind, n, A_TARGET], ABIL[kind, n, A_EFFECT],
                                ABIL[kind, n, A_VALUE], out, 0) > 0
    return True


@njit(cache=True)
def play_card(rec, p, kind, target):
    """Pay for and play a card of ``kind`` from ``p``'s hand (R17, R18, R20-R24)."""
    c = hand_card_of_kind(rec, p, kind)
    rec["energy"][p] = max(0, int(rec["energy"][p]) - hand_cost(rec, p, kind))
    hand = HAND0 + p
    reveal_all(rec["known"], c, 2)
    t = CTYPE[kind]
    if t == WARRIOR:
        zone_take(rec["zone"], rec["zone_n"], hand,
                  zone_find(rec["zone"], rec["zone_n"], hand, c))
        k = enter_slot(rec, p, c)
        resolve_trigger(rec, p, kind, PLAYED, p, k, c, target, 2)
    elif t == TERRAIN:
        if SUBTYPE[kind] == PERSONAL:
            discard_terrain(rec, PTER0 + p)
            zone_move_card(rec["zone"], rec["zone_n"], hand, c, PTER0 + p)
            rec["used"][p, SRC_PERSONAL] = 0
        else:
            discard_terrain(rec, GLOBAL_Z)
            zone_move_card(rec["zone"], rec["zone_n"], hand, c, GLOBAL_Z)
            rec["used"][0, SRC_GLOBAL] = 0
            rec["used"][1, SRC_GLOBAL] = 0
        rec["dmg"][c] = 0
    elif t == ACTION:
        zone_move_card(rec["zone"], rec["zone_n"], hand, c, DISC0 + p)
        resolve_trigger(rec, p, kind, PLAYED, -1, -1, c, target, 3)
    else:  # an Item, equipped to the target Warrior
        zone_move_card(rec["zone"], rec["zone_n"], hand, c, SLOT0 + SLOTS * p + target - TG_OWN_W)


@njit(cache=True)
def attack(rec, p, k, target):
    """Warrior (p, k) attacks ``target`` (R27, R29, R31, ON_KILL)."""
    # the cache (current: the board has not changed since the legal actions); nothing
    # below reads it after the first destruction, which may refresh it
    props, cls = board_props(rec)
    rec["energy"][p] = max(0, int(rec["energy"][p]) - props[p, k, P_ATK_COST])
    rec["attacks"][p, k] = min(9, int(rec["attacks"][p, k]) + 1)
    c = target_card(rec, p, target)
    tclass = CLASS_BIT[kind_of(rec, c)]
    guard = 0
    is_w = target >= TG_OPP_W and target < TG_OWN_PT
    if is_w:
        tk = target - TG_OPP_W
        tclass = cls[1 - p, tk]
        guard = props[1 - p, tk, P_GUARD]
    atk = props[p, k, P_ATK]
    # vs-class bonuses of the attacker's own abilities and of its active Items
    z = SLOT0 + SLOTS * p + k
    m = int(rec["zone_n"][z])
    upto = m if props[p, k, P_ITEMS_ACTIVE] > 0 else 1
    for i in range(upto):
        kd = kind_of(rec, int(rec["zone"][z, i]))
        for n in range(ABIL_N[kd]):
            vs = ABIL[kd, n, A_VS]
            if vs != 0 and ABIL[kd, n, A_PROP] == P_ATK and (tclass & vs) != 0:
                atk += ABIL[kd, n, A_VALUE]
    dmg = max(0, atk - guard)
    _damage(rec, c, dmg)
    if is_w:  # damage changes no effective value: props are still current
        if rec["dmg"][c] >= props[1 - p, tk, P_HP]:
            active = props[p, k, P_ITEMS_ACTIVE] > 0
            destroy_warrior(rec, 1 - p, tk)
            if rec["terminated"] or warrior_at(rec, p, k) < 0:
                return
            upto = int(rec["zone_n"][z]) if active else 1
            for i in range(upto):
                cc = int(rec["zone"][z, i])
                resolve_trigger(rec, p, kind_of(rec, cc), ON_KILL, p, k, cc, -1, 2)
                if rec["terminated"]:
                    return


@njit(cache=True)
def source_zone(p, j):
    """The zone whose first card is player ``p``'s Activate source ``j``.

    A Warrior slot, the Personal Terrain or the Global Terrain.
    """
    if j < SLOTS:
        return SLOT0 + SLOTS * p + j
    if j == SRC_PERSONAL:
        return PTER0 + p
    return GLOBAL_Z


@njit(cache=True)
def source_card(rec, p, j):
    """The card of Activate source ``j`` for player ``p``, or -1."""
    z = source_zone(p, j)
    if rec["zone_n"][z] == 0:
        return -1
    return int(rec["zone"][z, FIRST_POS])


@njit(cache=True)
def activate(rec, p, j, target):
    """Use the Activate ability of source ``j`` (R26)."""
    c = source_card(rec, p, j)
    kind = kind_of(rec, c)
    n = ACTIVATE_ABIL[kind]
    rec["energy"][p] = max(0, int(rec["energy"][p]) - ABIL[kind, n, A_COST])
    rec["used"][p, j] = 1
    if j < SLOTS:
        layer = 2
    elif j == SRC_PERSONAL:
        layer = 1
    else:
        layer = 0
    sk = j if j < SLOTS else -1
    resolve(rec, p, kind, n, p, sk, c, target, layer)


# ---------------------------------------------------------------- turns


@njit(cache=True)
def start_turn(rec, p):
    """Deck check (R39), Draw Phase (R11), Energy Phase (R12-R14)."""
    rec["turn_player"] = p
    rec["current_player"] = p
    rec["phase"] = MAIN
    rec["pend"][PD_WHAT] = P_NONE
    rec["pend"][PD_ARG] = -1
    rec["pend"][PD_ROW] = -1
    rec["cancels"] = 0  # R61: a new turn allows MAX_CANCELS cancels again
    if rec["zone_n"][DECK0 + p] == 0:
        win(rec, 1 - p, R_DECKOUT)
        return
    draw_cards(rec, p, 1)
    e = START_ENERGY + int(rec["done_turns"][p])
    if not rec["divine"] and p != rec["first"]:
        e += 1  # R13: the base game's second player counts the first player's opening turn
    rec["energy"][p] = min(MAX_ENERGY, e)
    for k in range(SLOTS):
        rec["attacks"][p, k] = 0
    for s in range(2):
        for j in range(NUM_SOURCES):
            rec["used"][s, j] = 0


@njit(cache=True)
def end_turn(rec):
    """End Phase (R15, R52), then the no-Warrior Loot (R34), then the next turn."""
    p = int(rec["turn_player"])
    props, cls = board_props(rec)  # the record's cache, kept current by after_action
    for k in range(SLOTS):
        z = SLOT0 + SLOTS * p + k
        if rec["zone_n"][z] == 0:
            continue
        active = props[p, k, P_ITEMS_ACTIVE] > 0
        i = 0
        while i < rec["zone_n"][z] and (i == 0 or active):
            c = int(rec["zone"][z, i])
            resolve_trigger(rec, p, kind_of(rec, c), END_TURN, p, k, c, -1, 2)
            i += 1
        after_action(rec)
        if rec["terminated"]:
            return
    t = personal_of(rec, p)
    if t >= 0:
        resolve_trigger(rec, p, kind_of(rec, t), END_TURN, p, -1, t, -1, 1)
        after_action(rec)
        if rec["terminated"]:
            return
    g = global_card(rec)
    if g >= 0:
        resolve_trigger(rec, g // DECK_SIZE, kind_of(rec, g), END_TURN, -1, -1, g, -1, 0)
        after_action(rec)
        if rec["terminated"]:
            return
    rec["energy"][p] = 0
    if num_warriors(rec, p) == 0 and rec["done_turns"][p] >= 1:
        gain_loot(rec, 1 - p, 1)
        if rec["terminated"]:
            return
    rec["done_turns"][p] = min(30000, int(rec["done_turns"][p]) + 1)
    rec["turn"] += 1
    rec["temp_n"] = 0
    start_turn(rec, 1 - p)


# ---------------------------------------------------------------- random decks (R60)


@njit(cache=True)
def _add(counts, deck, m, kind, copies):
    for _ in range(copies):
        deck[m] = kind
        m += 1
    counts[kind] += copies
    return m


# which class pairs a random deck may draw (R62): any, a train pair, a held-out pair
DECK_ANY, DECK_TRAIN, DECK_TEST = range(3)
# splash classes of a focus in a train deck: all but the focus and its held-out partner
TRAIN_SPLASHES = NUM_BASE_CLASSES - 2


@njit(cache=True)
def class_pair(rng, want):
    """A random deck's focus and splash classes (R60) among the pairs ``want`` allows (R62).

    ``DECK_ANY`` draws as R60 always has (so ``split="all"`` deals the same decks); the
    others draw the focus the same way, then the splash uniformly from the allowed ones.
    """
    focus = randint(rng, NUM_BASE_CLASSES)
    if want == DECK_TEST:
        return focus, PARTNER[focus]
    if want == DECK_ANY:
        splash = randint(rng, NUM_BASE_CLASSES - 1)
        if splash >= focus:
            splash += 1
        return focus, splash
    skip = randint(rng, TRAIN_SPLASHES)  # the skip-th class neither focus nor partner
    splash = -1
    for c in range(NUM_BASE_CLASSES):
        if c != focus and c != PARTNER[focus]:
            if skip == 0:
                splash = c
            skip -= 1
    return focus, splash


@njit(cache=True)
def random_deck(rec, p, want):
    """A legal random deck for seat ``p`` from the record's RNG (R60); ``want``: R62."""
    rng = rec["rng"]
    divine = rec["divine"] != 0
    counts = np.zeros(NUM_KINDS, np.int64)
    deck = np.empty(DECK_SIZE, np.int64)
    focus, splash = class_pair(rng, want)
    m = 0
    for i in range(5):
        m = _add(counts, deck, m, CLASS_WARRIORS[focus, i], 2 + randint(rng, 2))
    a = randint(rng, 5)
    b = randint(rng, 4)
    if b >= a:
        b += 1
    m = _add(counts, deck, m, CLASS_WARRIORS[splash, a], 1 + randint(rng, 3))
    m = _add(counts, deck, m, CLASS_WARRIORS[splash, b], 1 + randint(rng, 3))
    m = _add(counts, deck, m, CLASS_PERSONAL[focus], 1 + randint(rng, 2))
    m = _add(counts, deck, m, CLASS_GLOBAL[focus], 1 + randint(rng, 2))
    if divine and randint(rng, 2) == 1:
        m = _add(counts, deck, m, DIVINE_KINDS[randint(rng, DIVINE_KINDS.shape[0])], 1)
    pool = FILLER_DIVINE if divine else FILLER_BASE
    cap = 3 if divine else 2
    avail = np.empty(pool.shape[0], np.int64)
    while m < DECK_SIZE:
        f = 0
        for i in range(pool.shape[0]):
            if counts[pool[i]] < cap:
                avail[f] = pool[i]
                f += 1
        m = _add(counts, deck, m, avail[randint(rng, f)], 1)
    for i in range(DECK_SIZE):
        rec["deck_list"][p, i] = deck[i]


# ---------------------------------------------------------------- kernels


@njit(cache=True)
def deck_wants(rec):
    """What class pair each seat's random deck may draw under the record's ``split`` (R62).

    ``train``: train pairs only. ``test``: a test game holds at least one test deck; with
    both decks random, both are test decks (1 in 13), seat 0's alone (6 in 13) or seat 1's
    alone (6 in 13), the odds ``all`` deals them with; with one deck pinned, the random one
    is a test deck. ``all``: any pair, and no draw here.
    """
    split = rec["split"]
    if split == SPLIT_ALL:
        return DECK_ANY, DECK_ANY
    if split == SPLIT_TRAIN:
        return DECK_TRAIN, DECK_TRAIN
    if rec["deck_opt"][0, FIRST_POS] >= 0 or rec["deck_opt"][1, FIRST_POS] >= 0:
        return DECK_TEST, DECK_TEST  # only the random seat draws
    u = randint(rec["rng"], 1 + 2 * TRAIN_SPLASHES)  # weights 1*1, 1*6, 6*1
    if u == 0:
        return DECK_TEST, DECK_TEST
    if u <= TRAIN_SPLASHES:
        return DECK_TEST, DECK_TRAIN
    return DECK_TRAIN, DECK_TEST


@njit(cache=True)
def reset_game(rec):
    """Decks (R8, R60, R62), shuffle and draw 5 (R9), coin flip (R10), first turn."""
    wants = deck_wants(rec)
    for p in range(2):
        if rec["deck_opt"][p, FIRST_POS] < 0:
            random_deck(rec, p, wants[p])
        else:
            for i in range(DECK_SIZE):
                rec["deck_list"][p, i] = rec["deck_opt"][p, i]
    zone = rec["zone"]
    zn = rec["zone_n"]
    for z in range(zn.shape[0]):
        zn[z] = 0
    known = rec["known"]
    for v in range(known.shape[0]):
        for c in range(known.shape[1]):
            known[v, c] = 0
    for p in range(2):
        zone_fill(zone, zn, DECK0 + p, DECK_SIZE * p, DECK_SIZE)
        zone_shuffle(zone, zn, DECK0 + p, rec["rng"])
        for i in range(DECK_SIZE):
            known[p, DECK_SIZE * p + i] = IN_ZONE  # they built it
    for c in range(rec["dmg"].shape[0]):
        rec["dmg"][c] = 0
    for p in range(2):
        rec["energy"][p] = 0
        rec["loot"][p] = 0
        rec["done_turns"][p] = 0
        rec["last_search"][p] = -1
        for k in range(SLOTS):
            rec["attacks"][p, k] = 0
        for j in range(NUM_SOURCES):
            rec["used"][p, j] = 0
    rec["temp"][:, :] = 0
    rec["temp_n"] = 0
    rec["eff"][:, :, :] = 0  # no cache: a new game's bytes never depend on the last one
    rec["eff_cls"][:, :] = 0
    rec["eff_key"][:] = 0
    rec["last_roll"] = 0
    rec["winner"] = -1
    rec["reason"] = 0
    for p in range(2):
        draw_cards(rec, p, START_HAND)
    rec["first"] = randint(rec["rng"], 2)
    start_turn(rec, int(rec["first"]))


@njit(cache=True)
def legal_mask(rec, mask):
    """The player to act's legal actions: the pick, target or main step's block."""
    for a in range(mask.shape[0]):
        mask[a] = 0
    if rec["terminated"] or rec["truncated"] or rec["phase"] == OVER:
        return
    p = int(rec["turn_player"])
    ph = rec["phase"]
    if ph == PICK_PH:
        _pick_mask(rec, p, mask)
        return
    # the target block of the mask (from TARGET_A) is the scratch of the target searches
    # below (no allocation, no slice): a target step's targets are written straight into
    # it, the main step clears it again before returning
    props, cls = board_props(rec)
    if ph == TARGET_PH:
        _target_mask(rec, p, props, mask)
    else:
        _main_mask(rec, p, props, mask)


@njit(cache=True, inline="always")  # called once, from legal_mask
def _pick_mask(rec, p, mask):
    """A search's pick: the kinds in the deck that the pending ability may reveal."""
    sk = int(rec["pend"][PD_ARG])
    n = int(rec["pend"][PD_ROW])
    z = DECK0 + p
    zone = rec["zone"]
    dl = rec["deck_list"]
    for i in range(rec["zone_n"][z]):
        c = int(zone[z, i])
        kd = kind_in(dl, c)
        if _search_matches(kd, sk, n):
            mask[PICK_A + kd] = 1


@njit(cache=True, inline="always")  # called once, from legal_mask
def _target_mask(rec, p, props, mask):
    """A target step: the targets of the card played, the attack or the Activate; cancel."""
    what = rec["pend"][PD_WHAT]
    x = int(rec["pend"][PD_ARG])
    if what == P_PLAY:
        if CTYPE[x] == ITEM:
            item_targets(rec, p, props, mask, TARGET_A)
        else:
            n = PLAYED_TARGET[x]
            selector_targets(rec, p, ABIL[x, n, A_TARGET], ABIL[x, n, A_EFFECT],
                             ABIL[x, n, A_VALUE], mask, TARGET_A)
    elif what == P_ATTACK:
        attack_targets(rec, p, mask, TARGET_A)
    else:
        kind = kind_of(rec, source_card(rec, p, x))
        n = ACTIVATE_ABIL[kind]
        selector_targets(rec, p, ABIL[kind, n, A_TARGET], ABIL[kind, n, A_EFFECT],
                         ABIL[kind, n, A_VALUE], mask, TARGET_A)
    # R61: cancel only while this turn has cancels left (a target step is entered only
    # with a legal target, so the mask is never empty)
    if rec["cancels"] < MAX_CANCELS:
        mask[CANCEL_A] = 1


@njit(cache=True, inline="always")  # called once, from _main_mask
def _play_mask(rec, p, props, mask, energy, room):
    """The main step's plays: each kind in hand that is affordable and has a place or target."""
    z = HAND0 + p
    hs = hand_sources(rec)
    zone = rec["zone"]
    dl = rec["deck_list"]  # hot: the record's arrays read once, not per card
    for i in range(rec["zone_n"][z]):
        kind = kind_in(dl, zone[z, i])
        if mask[PLAY + kind]:
            continue
        if hand_cost_if(rec, p, kind, hs) > energy or (HAS_TEMP[kind] and not room):
            continue
        t = CTYPE[kind]
        ok = True
        if t == WARRIOR:
            ok = free_slot(rec, p) >= 0
        elif t == TERRAIN:
            if SUBTYPE[kind] == GLOBAL:
                g = global_card(rec)
                ok = g < 0 or g // DECK_SIZE == p  # R20
        elif t == ACTION:
            n = PLAYED_TARGET[kind]
            if n >= 0:
                ok = selector_targets(rec, p, ABIL[kind, n, A_TARGET], ABIL[kind, n, A_EFFECT],
                                      ABIL[kind, n, A_VALUE], mask, TARGET_A) > 0
        else:
            ok = item_targets(rec, p, props, mask, TARGET_A) > 0
        if ok:
            mask[PLAY + kind] = 1


@njit(cache=True, inline="always")  # called once, from legal_mask
def _main_mask(rec, p, props, mask):
    """The main step: play, attack, activate, pay to draw, end the turn."""
    energy = int(rec["energy"][p])
    room = rec["temp_n"] < TEMP_CAP
    _play_mask(rec, p, props, mask, energy, room)
    # attack
    has_targets = attack_targets(rec, p, mask, TARGET_A) > 0
    zn = rec["zone_n"]
    if has_targets:
        attacks = rec["attacks"]
        for k in range(SLOTS):
            if zn[SLOT0 + SLOTS * p + k] == 0:
                continue
            if props[p, k, P_CAN_ATTACK] and attacks[p, k] < props[p, k, P_ATTACKS] \
                    and props[p, k, P_ATK_COST] <= energy:
                mask[ATTACK_A + k] = 1
    # activate
    used = rec["used"]
    zone = rec["zone"]
    dl = rec["deck_list"]
    for j in range(NUM_SOURCES):
        z = source_zone(p, j)  # the zone's count and card read from the locals above
        if zn[z] == 0 or used[p, j]:
            continue
        c = int(zone[z, FIRST_POS])
        kind = kind_in(dl, c)
        n = ACTIVATE_ABIL[kind]
        if n < 0 or ABIL[kind, n, A_COST] > energy or (HAS_TEMP[kind] and not room):
            continue
        sel = ABIL[kind, n, A_TARGET]
        if (sel == S_ALLY_WARRIOR or sel == S_ENEMY_WARRIOR or sel == S_ENEMY_CARD
                or sel == S_ENEMY_TERRAIN):
            if selector_targets(rec, p, sel, ABIL[kind, n, A_EFFECT], ABIL[kind, n, A_VALUE],
                                mask, TARGET_A) == 0:
                continue
        mask[ACTIVATE_A + j] = 1
    if energy >= DRAW_PRICE and zn[DECK0 + p] > 0:
        mask[DRAW_A] = 1
    mask[END_A] = 1
    for t in range(NUM_TARGETS):
        mask[TARGET_A + t] = 0


@njit(cache=True)
def _chosen_activate(kind):
    n = ACTIVATE_ABIL[kind]
    sel = ABIL[kind, n, A_TARGET]
    return (sel == S_ALLY_WARRIOR or sel == S_ENEMY_WARRIOR or sel == S_ENEMY_CARD
            or sel == S_ENEMY_TERRAIN)


@njit(cache=True)
def _to_main(rec):
    rec["phase"] = MAIN
    rec["pend"][PD_WHAT] = P_NONE
    rec["pend"][PD_ARG] = -1
    rec["pend"][PD_ROW] = -1


@njit(cache=True)
def apply_action(rec, action):
    """Apply one legal decision of the player to act."""
    p = int(rec["turn_player"])
    ph = rec["phase"]
    if ph == PICK_PH:
        finish_search(rec, p, action - PICK_A)
        after_action(rec)
        return
    if ph == TARGET_PH:
        if action == CANCEL_A:
            rec["cancels"] += 1  # R61; legal only below MAX_CANCELS
            _to_main(rec)
            return
        t = action - TARGET_A
        what = rec["pend"][PD_WHAT]
        x = int(rec["pend"][PD_ARG])
        _to_main(rec)
        if what == P_PLAY:
            play_card(rec, p, x, t)
        elif what == P_ATTACK:
            attack(rec, p, x, t)
        else:
            activate(rec, p, x, t)
        after_action(rec)
        return
    if action == END_A:
        end_turn(rec)
        return
    if action == DRAW_A:
        rec["energy"][p] -= DRAW_PRICE
        draw_cards(rec, p, 1)
        return
    if in_block(action, PLAY, NUM_KINDS):
        kind = action - PLAY
        if needs_target(rec, p, kind):
            # the card is declared (shown, as when it is played) before its target is
            # chosen: both players know it, so determinize keeps it in the hand the
            # pending decision reads; it stays known if the target step is cancelled
            reveal_all(rec["known"], hand_card_of_kind(rec, p, kind), 2)
            rec["phase"] = TARGET_PH
            rec["pend"][PD_WHAT] = P_PLAY
            rec["pend"][PD_ARG] = kind
            return
        play_card(rec, p, kind, -1)
        after_action(rec)
        return
    if in_block(action, ATTACK_A, SLOTS):
        rec["phase"] = TARGET_PH
        rec["pend"][PD_WHAT] = P_ATTACK
        rec["pend"][PD_ARG] = action - ATTACK_A
        return
    # the activate block, the one left in the main step
    j = action - ACTIVATE_A
    if _chosen_activate(kind_of(rec, source_card(rec, p, j))):
        rec["phase"] = TARGET_PH
        rec["pend"][PD_WHAT] = P_ACTIVATE
        rec["pend"][PD_ARG] = j
        return
    activate(rec, p, j, -1)
    after_action(rec)


@njit(cache=True)
def determinize_record(rec, player, words):
    """Resample what ``player`` does not know and reseed the RNG from ``words``.

    Resample the cards ``player`` does not know (the opponent's hand and deck, and the
    order of their own deck), and reseed the RNG from ``words``.
    """
    determinize_zones(rec["zone"], rec["zone_n"], rec["known"], 2, player, words)
    for i in range(rec["rng"].shape[0]):
        rec["rng"][i] = next_u32(words) | (1 if i == 0 else 0)


@njit(cache=True)
def evaluate(rec, values):
    """Value estimates of a running game: Loot lead plus board (cost of Warriors)."""
    est = np.zeros(2)
    for p in range(2):
        est[p] = 2.0 * rec["loot"][p]
        for k in range(SLOTS):
            w = warrior_at(rec, p, k)
            if w >= 0:
                est[p] += 0.5 * COST[kind_of(rec, w)]
    for p in range(2):
        values[p] = np.tanh((est[p] - est[1 - p]) / 10.0)
