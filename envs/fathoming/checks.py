"""The Fathoming's record checks: its ranges declared once, the relations by hand.

``check_record`` stands between a saved state and the kernels (``docs/ADDING_A_GAME.md``):
``RANGES`` says what each field may hold (``envs/core/checks.py`` checks them and names
the field), and the functions below check what ranges cannot say: the decks against the
deck-building rules (``deck_problem``, R2-R7), every card in exactly one zone of its
owner and of the right type, damage only in play, who knows which card, the decision in
progress, and the cache of effective values against the board.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from fatezoo.envs.core.checks import SEATS, Range, check_ranges, need, within
from fatezoo.envs.core.knowledge import IN_ZONE, KNOWN
from fatezoo.envs.core.state import SPLIT_TEST, SPLIT_TRAIN, SPLITS
from fatezoo.envs.core.zones import check_conservation

from . import rules
from .cards import (
    A_EFFECT,
    ABIL,
    ABIL_N,
    ACTIVATE_ABIL,
    CARD_NAMES,
    CLASS_BIT,
    CLASS_NAMES,
    CTYPE,
    DIVINE,
    E_SEARCH,
    E_SEARCH_PLAY,
    E_TURN_ADD,
    E_TURN_SET,
    EXPANSION,
    GLOBAL,
    HELD_OUT_PAIRS,
    ITEM,
    NUM_KINDS,
    NUM_PROPS,
    PERSONAL,
    PLAYED_TARGET,
    SUBTYPE,
    WARRIOR,
)
from .state import (
    DECK0,
    DECK_SIZE,
    DISC0,
    FIRST_POS,
    GLOBAL_Z,
    HAND0,
    MAIN,
    MAX_CANCELS,
    MAX_ENERGY,
    MAX_ITEMS,
    NUM_CARDS,
    NUM_P,
    NUM_SOURCES,
    OVER,
    P_ACTIVATE,
    P_ATTACK,
    P_NONE,
    P_PLAY,
    PD_ARG,
    PD_ROW,
    PD_WHAT,
    PHASE_NAMES,
    PTER0,
    R_ALT,
    SLOT0,
    SLOTS,
    SR_HAND,
    SR_PLAY,
    T_CARD,
    T_CLS,
    T_LAYER,
    T_OP,
    T_PROP,
    T_SEAT,
    T_SEL,
    T_VALUE,
    TARGET_PH,
    TEMP_CAP,
    WIN_LOOT,
    ZONE_NAMES,
)

MAX_TURNS_DONE = 30000  # turns a player has finished; far above any game's length

RANGES = {
    "num_players": Range(NUM_P, NUM_P + 1),
    "divine": Range(0, 2),
    "split": Range(0, len(SPLITS)),
    "turn_player": Range(0, SEATS),
    "first": Range(0, SEATS),
    "phase": Range(0, len(PHASE_NAMES)),
    "energy": Range(0, MAX_ENERGY + 1),
    "loot": Range(0, WIN_LOOT + 1),
    "done_turns": Range(0, MAX_TURNS_DONE + 1),
    "dmg": Range(0, 1000),
    "attacks": Range(-9, 10),  # READY lowers a count below 0
    "used": Range(0, 2),
    "cancels": Range(0, MAX_CANCELS + 1),
    "temp_n": Range(0, TEMP_CAP + 1),
    "last_search": Range(-1, NUM_KINDS),
    "last_roll": Range(0, 7),  # 0: no roll yet
    "deck_list": Range(0, NUM_KINDS),
    "known": Range(0, KNOWN + 1),
    "winner": Range(-1, SEATS),
    "reason": Range(0, R_ALT + 1),
    "zone_n": Range(0, DECK_SIZE + 1),
}

# a temporary effect's columns: what each may hold (the rows below ``temp_n``)
TEMP_RANGES = ((T_LAYER, "temp layer", 0, 4), (T_PROP, "temp prop", 0, NUM_PROPS),
               (T_VALUE, "temp value", -20, 21), (T_SEL, "temp selector", 0, 13),
               (T_SEAT, "temp seat", 0, NUM_P), (T_CARD, "temp card", -1, NUM_CARDS),
               (T_CLS, "temp class mask", 0, 512))


# ---------------------------------------------------------------- deck options (R2-R7)


def deck_problem(kinds, divine: bool, who: str) -> str | None:
    """The first deck-building rule (R2-R7) the list of card kinds breaks, or None."""
    if len(kinds) != DECK_SIZE:
        return f"{who} has {len(kinds)} cards; a deck needs exactly {DECK_SIZE}"
    copies = Counter(kinds)
    for k, m in sorted(copies.items()):
        if EXPANSION[k] and not divine:
            return (f"{who} has {CARD_NAMES[k]!r}, a Divine Intervention card; pass "
                    "divine=True to use it")
    for k, m in sorted(copies.items()):
        if m > 3:
            return f"{who} has {m} copies of {CARD_NAMES[k]!r}; at most 3 copies of a card"
        if not divine and CTYPE[k] != WARRIOR and m > 2:
            return (f"{who} has {m} copies of {CARD_NAMES[k]!r}; the base game allows at "
                    "most 2 copies of an Asset or Terrain")
    if not any(CTYPE[k] == WARRIOR for k in kinds):
        return f"{who} has no Warrior; a deck must include at least 1 Warrior"
    n_div = sum(m for k, m in copies.items() if DIVINE[k])
    if n_div > 1:
        return f"{who} has {n_div} Divine cards; at most 1 Divine card per deck"
    return None


# ---------------------------------------------------------------- held-out setups (R62)


def held_out_pair(kinds) -> tuple[str, str] | None:
    """The first held-out class pair (R62) with base-game Warriors of both its classes.

    None for a train deck; a deck with such a pair is a test deck.
    """
    classes = 0
    for k in kinds:
        if CTYPE[k] == WARRIOR and not EXPANSION[k]:
            classes |= int(CLASS_BIT[k])
    for pair in HELD_OUT_PAIRS:
        if all(classes >> CLASS_NAMES.index(c) & 1 for c in pair):
            return pair
    return None


def setup_split(rec) -> str:
    """``"test"`` if either dealt deck is a test deck (R62), else ``"train"``."""
    decks = rec["deck_list"]
    test = any(held_out_pair(decks[p].tolist()) is not None for p in range(NUM_P))
    return "test" if test else "train"


# ---------------------------------------------------------------- relations


def _check_fields(rec: dict) -> None:
    """What ranges cannot say of single fields: the turn count, the temporary effects."""
    need(sum(rec["done_turns"].tolist()) == rec["turn"], "turn", "the sum of done_turns",
         rec["turn"])
    temp = rec["temp"][: rec["temp_n"]]
    if len(temp):
        need(np.isin(temp[:, T_OP], (E_TURN_ADD, E_TURN_SET)).all(), "temp op",
             "TURN_ADD or TURN_SET", temp[:, T_OP])
        for col, name, lo, hi in TEMP_RANGES:
            need(within(temp[:, col], lo, hi), name, f"in [{lo}, {hi - 1}]", temp[:, col])


def _check_decks(rec: dict) -> None:
    """A fixed deck is its option's list, a random one legal; both in the split (R62)."""
    for p in range(NUM_P):
        opt = rec["deck_opt"][p]
        lst = rec["deck_list"][p]
        if int(opt[FIRST_POS]) >= 0:
            need((opt == lst).all(), f"deck_list[{p}]", "the deck option's list")
        else:
            bad = deck_problem(lst.tolist(), bool(rec["divine"]), f"deck_list[{p}]")
            need(bad is None, f"deck_list[{p}]", "a legal deck", bad)
    dealt = setup_split(rec)
    need(rec["split"] != SPLIT_TRAIN or dealt == "train", "deck_list",
         "a train setup under split=train (no held-out class pair, R62)", dealt)
    need(rec["split"] != SPLIT_TEST or dealt == "test", "deck_list",
         "a test setup under split=test (a held-out class pair, R62)", dealt)


def _check_zones(rec: dict) -> None:
    """Every card in one zone of its owner; zone limits and types; damage; knowledge."""
    zone, zn = rec["zone"], rec["zone_n"]
    check_conservation([(zone, zn)], NUM_CARDS, ZONE_NAMES)
    kinds = rec["deck_list"].reshape(-1).astype(np.int64)
    for p in range(NUM_P):
        for z in (DECK0 + p, HAND0 + p, DISC0 + p, PTER0 + p):
            cards = zone[z, : zn[z]].astype(np.int64)
            need((cards // DECK_SIZE == p).all(), ZONE_NAMES[z], f"cards of player_{p}")
        need(zn[PTER0 + p] <= 1, ZONE_NAMES[PTER0 + p], "at most 1 card", int(zn[PTER0 + p]))
        if zn[PTER0 + p]:
            k = kinds[zone[PTER0 + p, FIRST_POS]]
            need(SUBTYPE[k] == PERSONAL, ZONE_NAMES[PTER0 + p], "a Personal Terrain")
        for s in range(SLOTS):
            z = SLOT0 + SLOTS * p + s
            m = int(zn[z])
            need(m <= 1 + MAX_ITEMS, ZONE_NAMES[z], f"at most 1 + {MAX_ITEMS} cards", m)
            cards = zone[z, :m].astype(np.int64)
            need((cards // DECK_SIZE == p).all(), ZONE_NAMES[z], f"cards of player_{p}")
            if m:
                need(CTYPE[kinds[cards[0]]] == WARRIOR, ZONE_NAMES[z], "a Warrior first")
                need((CTYPE[kinds[cards[1:]]] == ITEM).all(), ZONE_NAMES[z],
                     "Items after the Warrior")
    need(zn[GLOBAL_Z] <= 1, "global", "at most 1 card", int(zn[GLOBAL_Z]))
    if zn[GLOBAL_Z]:
        need(SUBTYPE[kinds[zone[GLOBAL_Z, FIRST_POS]]] == GLOBAL, "global", "a Global Terrain")
    # damage only on cards in play (Warriors and Terrains)
    in_play = np.zeros(NUM_CARDS, bool)
    for z in [PTER0, PTER0 + 1, GLOBAL_Z] + list(range(SLOT0, SLOT0 + NUM_P * SLOTS)):
        if zn[z]:
            in_play[int(zone[z, FIRST_POS])] = True
    need(not rec["dmg"][~in_play].any(), "dmg", "0 for cards not in play (Warriors, Terrains)")
    # knowledge: owners know their hand; public zones are known to both
    known = rec["known"]
    for p in range(NUM_P):
        hand = zone[HAND0 + p, : zn[HAND0 + p]].astype(np.int64)
        need((known[p, hand] == KNOWN).all(), f"hand{p}", "known to its owner")
        deck = zone[DECK0 + p, : zn[DECK0 + p]].astype(np.int64)
        need((known[p, deck] >= IN_ZONE).all(), f"deck{p}", "known (in zone) to its owner")
    public = ([DISC0, DISC0 + 1, PTER0, PTER0 + 1, GLOBAL_Z]
              + list(range(SLOT0, SLOT0 + NUM_P * SLOTS)))
    for z in public:
        cards = zone[z, : zn[z]].astype(np.int64)
        need((known[:, cards] == KNOWN).all(), ZONE_NAMES[z], "known to both players")


def _check_end(rec: dict) -> None:
    """Whose turn it is, and the game's end: phase, winner, reason and Loot agree."""
    ph = rec["phase"]
    terminated = bool(rec["terminated"])
    running = not (terminated or rec["truncated"])
    need(not running or rec["current_player"] == rec["turn_player"], "current_player",
         f"the turn player {rec['turn_player']}", rec["current_player"])
    need((ph == OVER) == terminated, "phase", "3 (over) exactly when terminated", ph)
    need((rec["winner"] >= 0) == terminated, "winner", "-1, or the winner's seat when "
         "terminated", rec["winner"])
    need((rec["reason"] > 0) == terminated, "reason", "0, or 1-3 when terminated",
         rec["reason"])
    need(terminated or (rec["loot"] < WIN_LOOT).all(), "loot",
         f"below {WIN_LOOT} in a running game", rec["loot"])


def _activate_source(x: int, p: int) -> int:
    """The zone of Activate source ``x`` (a Warrior slot, the Personal or Global Terrain)."""
    if x < SLOTS:
        return SLOT0 + SLOTS * p + x
    return PTER0 + p if x == SLOTS else GLOBAL_Z


def _check_target(rec: dict, p: int, pend: list) -> None:
    """A target decision: what it is for and its argument (a card, a slot, a source)."""
    zone, zn, decks = rec["zone"], rec["zone_n"], rec["deck_list"]
    what, x = pend[PD_WHAT], pend[PD_ARG]
    need(pend[PD_ROW] == -1, "pend[2]", "-1 in a target decision", pend[PD_ROW])
    if what == P_PLAY:
        hand = [int(decks[c // DECK_SIZE, c % DECK_SIZE])
                for c in zone[HAND0 + p, : zn[HAND0 + p]].tolist()]
        need(x in hand, "pend[1]", "a kind in the turn player's hand", x)
        need(CTYPE[x] == ITEM or PLAYED_TARGET[x] >= 0, "pend[1]",
             "an Item or a card with a chosen target", x)
    elif what == P_ATTACK:
        need(0 <= x < SLOTS and zn[SLOT0 + SLOTS * p + x] > 0, "pend[1]",
             "a slot holding a Warrior of the turn player", x)
    elif what == P_ACTIVATE:
        need(0 <= x < NUM_SOURCES, "pend[1]", f"in [0, {NUM_SOURCES})", x)
        z = _activate_source(x, p)
        need(zn[z] > 0, "pend[1]", "an Activate source in play", x)
        c = int(zone[z, FIRST_POS])
        k = int(decks[c // DECK_SIZE, c % DECK_SIZE])
        need(ACTIVATE_ABIL[k] >= 0, "pend[1]", "a source with an Activate ability", x)
        need(rules._chosen_activate(k), "pend[1]", "a source whose ability has a target", x)
    else:
        need(False, "pend[0]", "1-3 in a target decision", what)


def _check_pick(rec: dict, p: int, pend: list) -> None:
    """A pick decision: a search ability of a card kind, with room for what it plays."""
    mode, sk, n = pend
    need(mode in (SR_HAND, SR_PLAY), "pend[0]", "1 or 2 in a pick decision", mode)
    need(0 <= sk < NUM_KINDS and 0 <= n < ABIL_N[sk], "pend[1:]",
         "a card kind and one of its abilities", pend)
    want = E_SEARCH_PLAY if mode == SR_PLAY else E_SEARCH
    word = "SEARCH_PLAY" if mode == SR_PLAY else "SEARCH"
    need(ABIL[sk, n, A_EFFECT] == want, "pend[1:]", f"a {word} ability", pend)
    if mode == SR_PLAY:
        zn = rec["zone_n"]
        need(any(zn[SLOT0 + SLOTS * p + k] == 0 for k in range(SLOTS)), "the Warrior Zone",
             "not full while a SEARCH_PLAY waits for its pick")


def _check_decision(rec: dict) -> None:
    """The decision in progress: nothing pending in the main step, else a target or pick."""
    ph = rec["phase"]
    pend = rec["pend"].tolist()
    if ph in (MAIN, OVER):
        need(pend == [P_NONE, -1, -1], "pend", "[0, -1, -1] with no decision pending", pend)
    elif ph == TARGET_PH:
        _check_target(rec, rec["turn_player"], pend)
    else:
        _check_pick(rec, rec["turn_player"], pend)


def _check_cache(rec) -> None:
    """The cache of effective values, where its key says it is current, must be exact."""
    if not rules.props_key_matches(rec):
        return  # never read: the kernels recompute it
    props, cls = rules.new_props()
    rules.compute_props(rec, props, cls)
    need((rec["eff"] == props).all(), "eff", "the board's effective values (or eff_key "
         "not matching the board)")
    need((rec["eff_cls"] == cls).all(), "eff_cls", "the board's class masks (or eff_key "
         "not matching the board)")


def check_record(rec) -> None:
    """Raise ValueError naming the first thing wrong with a Fathoming record.

    Checked in order, so that no check reads an index an earlier one has not vetted:
    field ranges (``RANGES``), the temporary effects, the decks, every card in exactly one
    zone of the right owner and type, damage only in play, knowledge of public and own
    cards, the game's end, the decision in progress (what is pending and for whom), then
    the cache of effective values where its key matches the board.
    """
    r = dict(zip(rec.dtype.names, rec.item()))  # plain ints: faster to compare
    check_ranges(rec, RANGES)
    _check_fields(r)
    _check_decks(r)
    _check_zones(r)
    _check_end(r)
    _check_decision(r)
    _check_cache(rec)
