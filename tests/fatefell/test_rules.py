"""Fatefell rules, one hand-built position per rule (rules text: envs/fatefell/RULES.md).

Cards are written like ``card_short``: value, ``s``un/``m``oon, ``C``haracter/``S``keleton,
so ``"5sC"`` is the Character of the 5-Sun identity and ``"1mS"`` The Lovers' Skeleton;
``"F3"`` is Fate card 3 (row 3 of data/fate.csv). Positions are drawn as::

    player_0 [ 5sC][ 7mS]   slots 0 1: Hidden cards
             [ 1sC][ 9mS]   slots 2 3: Revealed cards      ={ 4sC}= : a Completed Match
    draw (top first): F0 8sS ...     discard (top first): 10mC

Unlisted Arcana lie below the listed draw cards in id order (``rest="draw"``) or below
the listed discard cards (``rest="discard"``); unlisted Fate cards are out of the season.
Unless a test says otherwise every player knows their own Revealed cards (slots 2, 3),
nothing else, and Completed Matches are known to everyone.

``Game.act`` applies a decision with ``K.step_one``, which also applies every following
forced (single-choice) decision; expected values account for that.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from fatezoo.envs.core import kernels as K
from fatezoo.envs.core.registry import get_spec
from fatezoo.envs.core.rng import randint, seed_words
from fatezoo.envs.core.testing import RuleGame
from fatezoo.envs.fatefell import card_zones, check_record, configure, rules
from fatezoo.envs.fatefell.cards import (
    ARCANA_NAMES,
    FATE_MOON,
    FATE_NAMES,
    FATE_SUN,
    card_name,
)
from fatezoo.envs.fatefell.encode import CARD, OBS
from fatezoo.envs.fatefell.state import (
    DECLARE,
    DISCARD,
    DRAW_DECK,
    DRAW_DISCARD,
    END_TURN,
    FATE0,
    NUM_FATE,
    PAIRS,
    PILE,
    SLOT,
    TARGET,
    Effect,
    Phase,
    Season,
)

SPEC = get_spec("fatefell")
E = Effect

# ---------------------------------------------------------------- helpers


def C(label: str) -> int:
    """Card id of a label: ``"5sC"`` (value, sun/moon, Character/Skeleton) or ``"F3"``."""
    if label.startswith("F"):
        return FATE0 + int(label[1:])
    value, moon, skel = int(label[:-2]), "sm".index(label[-2]), "CS".index(label[-1])
    assert 1 <= value <= 12, label
    return 4 * (value - 1) + 2 * moon + skel


def L(c) -> str | None:
    """Label of card id ``c`` (None for an empty slot)."""
    c = int(c)
    if c < 0:
        return None
    if c >= FATE0:
        return f"F{c - FATE0}"
    return f"{(c >> 2) + 1}{'sm'[(c >> 1) & 1]}{'CS'[c & 1]}"


def DRAW_PILE(k: int = 0, depth: int = 0) -> int:
    return DRAW_DISCARD + 3 * k + depth


def DECL(x: int, y: int) -> int:
    return DECLARE + [tuple(p) for p in PAIRS.tolist()].index((x, y))


def TGT(seat: int, slot: int) -> int:
    """Target ``slot`` of the player ``seat`` places to the chooser's left."""
    return TARGET + 4 * (seat - 1) + slot


def words_for(*spins) -> np.ndarray:
    """RNG words whose next ``randint(words, m)`` calls give the wanted values ``(m, v)``."""
    for i in range(20000):
        w = seed_words(2024, i)
        c = w.copy()
        if all(randint(c, m) == v for m, v in spins):
            return w
    raise AssertionError(f"no RNG words found for {spins}")


def cards_for_values(rows, avoid=()) -> list[list[str]]:
    """Distinct card labels with the given values (lowest free card id of each value)."""
    used = {C(a) for a in avoid}
    out = []
    for row in rows:
        labels = []
        for v in row:
            c = next(c for c in range(4 * (v - 1), 4 * v) if c not in used)
            used.add(c)
            labels.append(L(c))
        out.append(labels)
    return out


def sync_discard_seen(r):
    """Recount the identities in the discard piles after editing them by hand."""
    r["discard_seen"][:] = 0
    for k in range(2):
        for c in r["discard"][k, : r["discard_n"][k]]:
            r["discard_seen"][c >> 1] += 1


class Game(RuleGame):
    """A Fatefell game (the core's rule-test harness) plus position-building helpers."""

    SPEC = SPEC

    def __init__(self, n=2, seasons=1, words=None, **opts):
        super().__init__(words=words, num_players=n, seasons=seasons, **opts)

    def arrange(self, layouts, *, draw=(), discard=(), discard2=None, matched=(), see=(),
                unsee=(), turn=0, aside=(), rest="draw", kind=None, fx=None, ender=-1,
                final_left=0):
        """Replace the current season's position (see the module docstring)."""
        r = self.r
        n = int(r["num_players"])
        assert len(layouts) == n
        used = []

        def use(labels):
            ids = [C(x) for x in labels]
            used.extend(ids)
            return ids

        lay = [use(row) for row in layouts]
        draw_top = use(draw)
        disc = use(discard)
        disc2 = use(discard2) if discard2 is not None else None
        aside_ids = use(aside)
        assert len(set(used)) == len(used), "a card is listed twice"
        rest_arcana = [c for c in range(FATE0) if c not in used]
        rest_fate = [c for c in range(FATE0, FATE0 + 12) if c not in used]
        draw_arr = (rest_arcana if rest == "draw" else []) + draw_top[::-1]
        disc_arr = (rest_arcana if rest == "discard" else []) + disc[::-1]
        r["layout"][:] = -1
        r["matched"][:] = 0
        r["known"][:] = 0
        for p in range(n):
            r["layout"][p] = lay[p]
            r["known"][p, p, 2] = r["known"][p, p, 3] = 1
        for p, x in matched:
            r["matched"][p, x] = 1
            r["known"][:n, p, x] = 1
        for v, p, x in see:
            r["known"][v, p, x] = 1
        for v, p, x in unsee:
            r["known"][v, p, x] = 0
        r["draw"][0, :] = -1
        r["draw"][0, : len(draw_arr)] = draw_arr
        r["draw_n"][0] = len(draw_arr)
        r["discard"][:] = -1
        r["discard"][0, : len(disc_arr)] = disc_arr
        r["discard_n"][0] = len(disc_arr)
        r["discard_n"][1] = 0
        if disc2 is not None:
            r["discard"][1, : len(disc2)] = disc2[::-1]
            r["discard_n"][1] = len(disc2)
        r["num_piles"] = 1 if disc2 is None else 2
        sync_discard_seen(r)
        r["aside"][:] = -1
        r["aside"][: len(aside_ids)] = aside_ids
        r["aside_n"] = len(aside_ids)
        r["out"][:] = -1
        r["out"][: len(rest_fate)] = rest_fate
        r["out_n"] = len(rest_fate)
        r["turn_player"] = r["current_player"] = turn
        r["phase"] = Phase.DRAW
        for name in ("hand", "pending", "fate_card", "coin", "first_slot"):
            r[name] = -1
        r["effect"] = r["hand_from_discard"] = 0
        r["ender"] = ender
        r["final_left"] = final_left
        if kind is not None:
            r["season_kind"][r["season"]] = kind
        if fx is not None:  # both sides of every Fate card carry the effect under test
            r["fate_sun"][:] = fx
            r["fate_moon"][:] = fx
        check_record(r)
        K.mask_one(self.states, 0, self.mask)
        return self

    def leave_one_card(self):
        """Keep only the topmost Arcana in the draw pile: Arcana under the discard pile,
        Fate cards out of the season (so the next turn ends the season)."""
        r = self.r
        pile = r["draw"][0, : r["draw_n"][0]].tolist()
        arcana = [c for c in pile if c < FATE0]
        fates = [c for c in pile if c >= FATE0]
        keep = arcana[-1]
        disc = arcana[:-1] + r["discard"][0, : r["discard_n"][0]].tolist()
        r["discard"][0, : len(disc)] = disc
        r["discard_n"][0] = len(disc)
        sync_discard_seen(r)
        r["draw"][0, 0] = keep
        r["draw_n"][0] = 1
        r["out"][r["out_n"]: r["out_n"] + len(fates)] = fates
        r["out_n"] += len(fates)
        check_record(r)
        K.mask_one(self.states, 0, self.mask)
        return L(keep)

    def layout(self, p) -> list[str]:
        return [L(c) for c in self.r["layout"][p]]

    def known(self, v, p) -> list[int]:
        return self.r["known"][v, p].tolist()

    def matched(self, p) -> list[int]:
        return self.r["matched"][p].tolist()

    def draw_top(self, k) -> list[str]:
        n = int(self.r["draw_n"][0])
        return [L(c) for c in self.r["draw"][0, max(0, n - k): n][::-1]]

    def discard(self, k=0) -> list[str]:
        n = int(self.r["discard_n"][k])
        return [L(c) for c in self.r["discard"][k, :n][::-1]]

    def aside(self) -> list[str]:
        return [L(c) for c in self.r["aside"][: self.r["aside_n"]]]

    def where(self):
        r = self.r
        return int(r["phase"]), int(r["current_player"]), int(r["turn_player"])

    def rewards(self) -> list[float]:
        return self.r["rewards"][: self.r["num_players"]].tolist()

    def obs(self, player) -> np.ndarray:
        out = np.zeros(OBS.size, np.float32)
        K.encode_one(self.states, 0, player, out)
        return out


# The 2-player position most turn tests start from:
#
#   player_0 [ 5sC][ 7mS]      player_1 [ 2sC][ 3mS]
#            [ 1sC][ 9mS]               [ 4sC][ 6mS]
#   draw (top first): 8sS 11mC ...     discard (top first): 10mC
BASE2 = [["5sC", "7mS", "1sC", "9mS"], ["2sC", "3mS", "4sC", "6mS"]]


def base2(**kw) -> Game:
    kw.setdefault("draw", ["8sS", "11mC"])
    kw.setdefault("discard", ["10mC"])
    return Game(n=2).arrange(BASE2, **kw)


# The 3-player position of the Fate tests; player_0 draws Fate card F0:
#
#   player_0 [ 5sC][ 7mS]     player_1 ={ 2sC}={ 2sS}=    player_2 [ 6sC][ 8mS]
#            ={ 1sC}={ 1sS}=           [ 4sC][ 6mS]               [10sS][12mC]
#   draw (top first): F0 8sS 11mC ...     discard (top first): 10mC
BASE3 = [["5sC", "7mS", "1sC", "1sS"], ["2sC", "2sS", "4sC", "6mS"],
         ["6sC", "8mS", "10sS", "12mC"]]
MATCHED3 = [(0, 2), (0, 3), (1, 0), (1, 1)]


def fate3(fx, **kw) -> Game:
    kw.setdefault("draw", ["F0", "8sS", "11mC"])
    return Game(n=3).arrange(BASE3, discard=["10mC"], matched=MATCHED3, fx=fx, **kw)


# ---------------------------------------------------------------- the cards


def test_card_set_48_arcana_24_identities_12_fate():
    assert len(ARCANA_NAMES) == 24
    assert ARCANA_NAMES[C("1sC") >> 1] == "The Emperor"
    assert ARCANA_NAMES[C("1mC") >> 1] == "The Lovers"
    assert card_name(C("1mS")) == "The Lovers (Skeleton)"
    assert card_name(C("1sC")) == "The Emperor (Character)"
    ident = {}
    for c in range(48):
        assert 1 <= rules.value(c) <= 12
        ident.setdefault(int(rules.identity(c)), []).append(L(c))
    assert len(ident) == 24
    for cards in ident.values():  # one Character and one Skeleton, same value and symbol
        assert [x[-1] for x in cards] == ["C", "S"] and cards[0][:-1] == cards[1][:-1]
    for v in range(1, 13):  # per value one Sun and one Moon identity
        assert sorted({L(c)[:-1] for c in range(4 * (v - 1), 4 * v)}) == [f"{v}m", f"{v}s"]
    assert len(FATE_NAMES) == 12
    effects = set(FATE_SUN.tolist()) | set(FATE_MOON.tolist())
    assert effects == {int(e) for e in Effect if e != Effect.NONE}


# ---------------------------------------------------------------- setup


@pytest.mark.parametrize("n", [2, 3, 4])
def test_deal_for_2_3_4_players(n):
    g = Game(n=n)
    r = g.r
    assert (r["layout"][:n] >= 0).all() and (r["layout"][n:] == -1).all()
    assert (r["layout"][:n] < FATE0).all()  # Fate cards are kept out of the deal
    pile = r["draw"][0, : r["draw_n"][0]]
    assert r["draw_n"][0] == 48 - 4 * n - 1 + 6
    assert (pile >= FATE0).sum() == 6 and r["out_n"] == 6 and r["aside_n"] == 0
    assert r["discard_n"].tolist() == [1, 0] and r["num_piles"] == 1
    assert r["discard"][0, 0] < FATE0
    assert (card_zones(r) == 1).all()
    assert g.where() == (Phase.DRAW, 0, 0)
    assert r["season"] == 0 and r["season_kind"][0] == Season.SPRING and r["fate_count"][0] == 6
    for bad in (1, 5):
        with pytest.raises(ValueError, match="num_players"):
            SPEC.options(num_players=bad)


def test_deal_revealed_known_hidden_unknown():
    g = Game(n=3)
    for v in range(3):
        for p in range(3):
            assert g.known(v, p) == ([0, 0, 1, 1] if v == p else [0, 0, 0, 0])
    obs = g.obs(0)
    seat = OBS.view(obs, "seat_slots")  # seat, slot, (exists, known, completed, value, moon, skel)
    c2 = int(g.r["layout"][0, 2])
    assert seat[0, 0].tolist() == [1, 0, 0, 0, 0, 0]  # own Hidden card: exists, unknown
    assert seat[0, 2].tolist() == pytest.approx([1, 1, 0, ((c2 >> 2) + 1) / 12,
                                                 (c2 >> 1) & 1, c2 & 1])
    assert seat[1, 2].tolist() == [1, 0, 0, 0, 0, 0]  # another player's Revealed card


def test_first_discard_is_never_a_fate_card():
    # draw (top first): F2 F5 9sC 12sS ...   discard: (empty)
    g = Game(n=2).arrange(BASE2, draw=["F2", "F5", "9sC", "12sS"], discard=["10mC"])
    r = g.r
    # empty the discard pile: 10mC goes under the draw pile
    pile = [C("10mC")] + r["draw"][0, : r["draw_n"][0]].tolist()
    r["draw"][0, : len(pile)] = pile
    r["draw_n"][0] = len(pile)
    r["discard_n"][0] = 0
    sync_discard_seen(r)
    before = [c for c in pile if c != C("9sC")]
    rules.turn_up(r, 0)
    check_record(r)
    assert g.discard() == ["9sC"]
    after = r["draw"][0, : r["draw_n"][0]].tolist()
    assert sorted(after) == sorted(before)  # both Fate cards went back into the draw pile
    assert [c for c in after if c < FATE0] == [c for c in before if c < FATE0]
    assert g.draw_top(1) != ["9sC"]
    # and in real deals, for many seeds
    for seed in range(30):
        g = Game(n=2, words=seed_words(seed, 0))
        assert g.r["discard_n"][0] == 1 and g.r["discard"][0, 0] < FATE0


# ---------------------------------------------------------------- a turn


def test_draw_from_draw_pile_is_secret():
    # BASE2; player_0 draws 8sS from the draw pile.
    g = base2()
    assert g.legal() == [DRAW_DECK, DRAW_PILE(0)]
    g.act(DRAW_DECK)
    r = g.r
    assert L(r["hand"]) == "8sS" and r["hand_from_discard"] == 0
    assert g.where() == (Phase.PLACE, 0, 0)
    assert g.legal() == [SLOT + 0, SLOT + 1, SLOT + 2, SLOT + 3, DISCARD]
    assert g.draw_top(1) == ["11mC"] and g.discard() == ["10mC"]
    hand = OBS["hand"]
    assert g.obs(0)[hand][:CARD].tolist() == pytest.approx([1, 8 / 12, 0, 1])
    assert not g.obs(1)[hand].any()  # the other player does not see it


def test_match_hints_flag_own_known_slots_only_from_seen_cards():
    # player_0 [ 8mC][ 2mS]   player_1 [10sC][11mS]
    #          [ 8sC][ 9mS]            [ 5mC][ 8sS]
    # draw (top first): 8mS      discard (top first): 9mC
    # player_0 knows its Revealed 8sC (slot 2) and 9mS (slot 3), not its Hidden 8mC.
    lay = [["8mC", "2mS", "8sC", "9mS"], ["10sC", "11mS", "5mC", "8sS"]]
    g = Game(n=2).arrange(lay, draw=["8mS"], discard=["9mC"])
    hand, disc = OBS["hand_matches"], OBS["discard_matches"]
    assert g.obs(0)[disc].tolist() == [0, 0, 0, 1, 0, 0, 0, 0]  # 9mC matches 9mS (slot 3)
    assert not g.obs(0)[hand].any()  # nothing drawn yet
    g.act(DRAW_DECK)  # 8mS: same identity as the Hidden 8mC, which player_0 has not seen
    assert not g.obs(0)[hand].any()
    g.r["known"][0, 0, 0] = 1  # once seen, the hint appears
    assert g.obs(0)[hand].tolist() == [1, 0, 0, 0]
    assert not g.obs(1)[hand].any()  # player_1 does not see the drawn card


@pytest.mark.parametrize("slot", [0, 1, 2, 3])
def test_swap_puts_old_card_face_up_on_discard(slot):
    # BASE2; player_0 draws 8sS and swaps it into `slot` (Hidden 0/1 or Revealed 2/3).
    g = base2(see=[(1, 0, 0)])  # player_1 knows player_0's 5sC in slot 0
    g.act(DRAW_DECK, SLOT + slot)
    lay = list(BASE2[0])
    old = lay[slot]
    lay[slot] = "8sS"
    assert g.layout(0) == lay
    assert g.discard() == [old, "10mC"]
    assert g.r["known"][0, 0, slot] == 1 and g.r["known"][1, 0, slot] == 0
    assert g.r["hand"] == -1
    assert g.where() == (Phase.DECLARE, 0, 0)
    assert g.legal() == [DECL(0, 1), DECL(0, 2), DECL(0, 3), DECL(1, 2), DECL(1, 3),
                         DECL(2, 3), END_TURN]
    g.act(END_TURN)
    assert g.where() == (Phase.DRAW, 1, 1) and g.r["turn"] == 1


def test_discard_the_drawn_card():
    # BASE2; player_0 draws 8sS and discards it; the layout is unchanged.
    g = base2()
    g.act(DRAW_DECK, DISCARD)
    assert g.layout(0) == BASE2[0]
    assert g.discard() == ["8sS", "10mC"]
    assert g.known(0, 0) == [0, 0, 1, 1] and g.known(1, 0) == [0, 0, 0, 0]
    assert g.where() == (Phase.DECLARE, 0, 0)


def test_card_from_discard_may_be_swapped_and_is_public():
    # BASE2; player_0 takes 10mC from the discard pile: SWAP or DISCARD, as for any card.
    g = base2()
    g.act(DRAW_PILE(0))
    r = g.r
    assert L(r["hand"]) == "10mC" and r["hand_from_discard"] == 1
    assert r["discard_n"][0] == 0
    assert g.legal() == [SLOT + 0, SLOT + 1, SLOT + 2, SLOT + 3, DISCARD]
    assert g.obs(1)[OBS["hand"]][:CARD].tolist() == pytest.approx([1, 10 / 12, 1, 0])
    g.act(SLOT + 1)
    assert g.layout(0) == ["5sC", "10mC", "1sC", "9mS"]
    assert g.known(0, 0) == [0, 1, 1, 1] and g.known(1, 0) == [0, 1, 0, 0]
    assert g.discard() == ["7mS"]
    assert g.draw_top(1) == ["8sS"]


def test_card_from_discard_may_be_discarded_again():
    # BASE2; player_0 takes 10mC from the discard pile and discards it: the layout is
    # unchanged, 10mC is back on top (face up), the draw pile untouched.
    g = base2()
    g.act(DRAW_PILE(0), DISCARD)
    assert g.where() == (Phase.DECLARE, 0, 0)
    assert g.layout(0) == ["5sC", "7mS", "1sC", "9mS"] and g.discard() == ["10mC"]
    assert g.known(1, 0) == [0, 0, 0, 0] and g.draw_top(1) == ["8sS"]
    assert g.r["hand"] == -1
    check_record(g.r)


def test_hidden_cards_stay_unknown_and_revealed_rechecked_at_turn_start():
    # BASE2, but player_1 has lost track of their Revealed cards (slots 2, 3):
    #   player_1 [ 2sC][ 3mS]   known by player_1: none
    #            [ 4sC][ 6mS]
    g = base2(unsee=[(1, 1, 2), (1, 1, 3)])
    assert g.known(1, 1) == [0, 0, 0, 0]
    g.act(DRAW_DECK, DISCARD, END_TURN)
    assert g.where() == (Phase.DRAW, 1, 1)
    assert g.known(1, 1) == [0, 0, 1, 1]  # looked at before drawing
    assert g.known(0, 0) == [0, 0, 1, 1]


@pytest.mark.parametrize("rules_on,expect", [(True, [0, 0, 0, 0]), (False, [0, 0, 1, 1])])
def test_advanced_winter_no_recheck(rules_on, expect):
    # As above, in Winter: with the seasonal rules player_1 may not check again.
    g = Game(n=2, seasonal_rules=rules_on)
    g.arrange(BASE2, draw=["8sS", "11mC"], discard=["10mC"], kind=Season.WINTER,
              unsee=[(1, 1, 2), (1, 1, 3)])
    g.act(DRAW_DECK, DISCARD, END_TURN)
    assert g.where() == (Phase.DRAW, 1, 1)
    assert g.known(1, 1) == expect


def test_no_recheck_after_a_fate_card_until_next_turn():
    # BASE2 with F0 (NEXT_BURIES) on top: player_1 buries player_0's Revealed 1sC (slot 2);
    # the replacement 8sS is unseen; player_0 draws again but cannot look until next turn.
    # draw (top first): F0 8sS 11mC 12sC ...
    g = base2(draw=["F0", "8sS", "11mC", "12sC"], fx=E.NEXT_BURIES)
    g.act(DRAW_DECK)
    assert g.where() == (Phase.FX_TARGET, 1, 0)
    assert g.legal() == [TGT(1, x) for x in range(4)]
    g.act(TGT(1, 2))
    assert g.layout(0) == ["5sC", "7mS", "8sS", "9mS"]
    assert g.known(0, 0) == [0, 0, 0, 1] and g.known(1, 0) == [0, 0, 0, 0]
    assert g.where() == (Phase.DRAW, 0, 0)
    g.act(DRAW_DECK, DISCARD, END_TURN)  # draws 11mC
    assert g.known(0, 0) == [0, 0, 0, 1]
    g.act(DRAW_DECK, DISCARD, END_TURN)  # player_1 draws 12sC
    assert g.where() == (Phase.DRAW, 0, 0)
    assert g.known(0, 0) == [0, 0, 1, 1]


# ---------------------------------------------------------------- Matches


# player_0 [ 1mC][ 1sS]     The Lovers (1 Moon) and The Emperor (1 Sun), both sides
#          [ 1mS][ 1sC]
LOVERS_EMPEROR = [["1mC", "1sS", "1mS", "1sC"], ["2sC", "3mS", "4sC", "6mS"]]


@pytest.mark.parametrize("pair,genuine", [
    ((0, 2), True),    # Lovers Character + Lovers Skeleton
    ((1, 3), True),    # Emperor Skeleton + Emperor Character
    ((0, 1), False),   # Lovers Character + Emperor Skeleton: same value, other symbol
    ((2, 3), False),   # Lovers Skeleton + Emperor Character
    ((0, 3), False),   # two Characters of value 1
])
def test_match_only_character_and_skeleton_of_same_identity(pair, genuine):
    g = Game(n=2).arrange(LOVERS_EMPEROR, draw=["8sS"], discard=["10mC"])
    n0 = int(g.r["draw_n"][0])
    g.act(DRAW_DECK, DISCARD, DECL(*pair))
    x, y = pair
    assert g.layout(0) == LOVERS_EMPEROR[0]  # cards stay in place either way
    assert g.r["draw_n"][0] == n0 - 1 and g.discard() == ["8sS", "10mC"]  # no replacements
    for v in range(2):
        assert g.r["known"][v, 0, x] == 1 and g.r["known"][v, 0, y] == 1
    if genuine:
        assert g.matched(0) == [int(s in pair) for s in range(4)]
        assert g.where() == (Phase.DRAW, 1, 1)
    else:
        assert g.matched(0) == [0, 0, 0, 0]
        # false Match: player_1 may look at one of their Hidden cards
        assert g.where() == (Phase.PEEK_HIDDEN, 1, 0)
        assert g.legal() == [SLOT + 0, SLOT + 1]
        g.act(SLOT + 1)
        assert g.known(1, 1) == [0, 1, 1, 1]
        assert g.where() == (Phase.DRAW, 1, 1)


def test_completed_match_cannot_be_swapped_or_declared_again():
    # player_0 ={ 4mC}={ 4mS}=    (Completed Match, slots 0 1)
    #          [ 9mC][ 2sS]
    # draw (top first): 3mC ...
    g = Game(n=2).arrange([["4mC", "4mS", "9mC", "2sS"], BASE2[1]], draw=["3mC"],
                          discard=["10mC"], matched=[(0, 0), (0, 1)])
    g.act(DRAW_DECK)
    assert g.legal() == [SLOT + 2, SLOT + 3, DISCARD]
    g.act(SLOT + 3)
    assert g.layout(0) == ["4mC", "4mS", "9mC", "3mC"]
    assert g.legal() == [DECL(2, 3), END_TURN]
    g.act(END_TURN)
    assert g.matched(0) == [1, 1, 0, 0]


def test_completed_match_from_the_discard_pile_is_also_protected():
    # player_0 ={ 4mC}={ 4mS}=      drawing 10mC from the discard pile: only slots 2, 3
    #          [ 9mC][ 2sS]         (or discard it)
    g = Game(n=2).arrange([["4mC", "4mS", "9mC", "2sS"], BASE2[1]], draw=["3mC"],
                          discard=["10mC"], matched=[(0, 0), (0, 1)])
    g.act(DRAW_PILE(0))
    assert g.legal() == [SLOT + 2, SLOT + 3, DISCARD]


def test_undeclared_match_is_not_protected():
    # player_1 knows their Revealed cards are a Match but never declared it:
    #   player_0 [ 5sC][ 7mS]      player_1 [ 2sC][ 3mS]
    #            [ 1sC][ 9mS]               [ 4sC][ 4sS]
    # draw (top first): F0 (SWAP_OPP) 8sS ...
    lay = [BASE2[0], ["2sC", "3mS", "4sC", "4sS"]]
    g = Game(n=2).arrange(lay, draw=["8sS"], discard=["10mC"], turn=1)
    g.act(DRAW_DECK, DISCARD)
    assert END_TURN in g.legal() and DECL(2, 3) in g.legal()  # declaring is optional
    g.act(END_TURN)
    g.arrange(lay, draw=["F0", "8sS"], discard=["10mC"], fx=E.SWAP_OPP)
    g.act(DRAW_DECK, SLOT + 3)
    assert g.legal() == [TGT(1, x) for x in range(4)]
    g.act(TGT(1, 2))
    assert g.layout(0) == ["5sC", "7mS", "1sC", "4sC"]
    assert g.layout(1) == ["2sC", "3mS", "9mS", "4sS"]


def test_false_match_three_players_peek_in_turn_order():
    # player_0 [ 5sC][ 7mS]    player_1 [ 2sC][ 3mS]    player_2 [ 6sC][ 8mS]
    #          [ 1sC][ 9mS]             [ 4sC][ 6mS]             [10sS][12mC]
    # player_2 already knows their slot 0. player_0 declares 5sC + 9mS (slots 0, 3).
    lay = [BASE2[0], BASE2[1], ["6sC", "8mS", "10sS", "12mC"]]
    g = Game(n=3).arrange(lay, draw=["8sS"], discard=["10mC"], see=[(2, 2, 0)])
    g.act(DRAW_DECK, DISCARD, DECL(0, 3))
    assert g.matched(0) == [0, 0, 0, 0]
    for v in range(3):
        assert g.known(v, 0) == ([1, 0, 1, 1] if v == 0 else [1, 0, 0, 1])
    assert g.where() == (Phase.PEEK_HIDDEN, 1, 0)
    assert g.legal() == [SLOT + 0, SLOT + 1]
    g.act(SLOT + 0)  # player_1 looks at 2sC; player_2's only choice (slot 1) is forced
    assert g.known(1, 1) == [1, 0, 1, 1]
    assert g.known(2, 2) == [1, 1, 1, 1]
    assert g.where() == (Phase.DRAW, 1, 1)


def test_false_match_skips_players_who_know_their_hidden_cards():
    # As above, but player_1 knows both Hidden cards and player_2 neither.
    lay = [BASE2[0], BASE2[1], ["6sC", "8mS", "10sS", "12mC"]]
    g = Game(n=3).arrange(lay, draw=["8sS"], discard=["10mC"], see=[(1, 1, 0), (1, 1, 1)])
    g.act(DRAW_DECK, DISCARD, DECL(0, 1))
    assert g.where() == (Phase.PEEK_HIDDEN, 2, 0)
    g.act(SLOT + 1)
    assert g.known(2, 2) == [0, 1, 1, 1]
    assert g.where() == (Phase.DRAW, 1, 1)


# ---------------------------------------------------------------- season end and scoring


def test_season_ends_at_end_of_turn_when_draw_pile_runs_out():
    # player_0 [ 6sC][ 2mS]      player_1 [10sC][11mS]
    #          [ 3sC][ 3sS]               [ 5mC][ 5mS]   (a Match, never declared)
    # draw (top first): 8sS       discard (top first): 10mC, then every other card
    lay = [["6sC", "2mS", "3sC", "3sS"], ["10sC", "11mS", "5mC", "5mS"]]
    g = Game(n=2).arrange(lay, draw=["8sS"], discard=["10mC"], rest="discard")
    g.act(DRAW_DECK)
    assert g.r["draw_n"][0] == 0 and g.where() == (Phase.PLACE, 0, 0)  # the turn goes on
    g.act(DISCARD, DECL(2, 3))  # the last turn may still complete a Match
    r = g.r
    assert r["terminated"] == 1 and r["phase"] == Phase.OVER
    assert r["season_score"][0, :2].tolist() == [8, 31]  # 6+2+0+0 and 10+11+5+5
    assert r["total"][:2].tolist() == [8, 31]
    assert (r["known"][:2, :2] == 1).all()  # every card turned face up
    assert g.rewards() == [1.0, -1.0]
    assert g.legal() == []


def test_both_matches_then_one_final_turn_two_players():
    # player_0 [ 9mC][ 9mS]      player_1 [ 2sC][ 3mS]
    #          ={ 4sC}={ 4sS}=            [ 4mC][ 6mS]
    # draw (top first): 8sS 11mC ...
    lay = [["9mC", "9mS", "4sC", "4sS"], ["2sC", "3mS", "4mC", "6mS"]]
    g = Game(n=2).arrange(lay, draw=["8sS", "11mC"], discard=["10mC"],
                          matched=[(0, 2), (0, 3)])
    g.act(DRAW_DECK, DISCARD, DECL(0, 1))
    r = g.r
    assert g.matched(0) == [1, 1, 1, 1]
    assert r["ender"] == 0 and r["final_left"] == 1 and r["terminated"] == 0
    assert g.where() == (Phase.DRAW, 1, 1)
    g.act(DRAW_DECK, SLOT + 0, END_TURN)  # player_1's final turn: 11mC replaces 2sC
    assert r["terminated"] == 1
    assert r["season_score"][0, :2].tolist() == [0, 11 + 3 + 4 + 6]
    assert g.rewards() == [1.0, -1.0]


def test_both_matches_then_final_turns_three_players_and_next_season():
    # player_1 completes both Matches on their turn; player_2 and player_0 get one final
    # turn each, then Summer is dealt and player_1 starts it (season 1 % 3).
    # player_0 [ 5sC][ 7mS]    player_1 [ 9mC][ 9mS]     player_2 [ 6sC][ 8mS]
    #          [ 1sC][ 9sS]             ={ 4sC}={ 4sS}=           [10sS][12mC]
    lay = [["5sC", "7mS", "1sC", "9sS"], ["9mC", "9mS", "4sC", "4sS"],
           ["6sC", "8mS", "10sS", "12mC"]]
    g = Game(n=3, seasons=2).arrange(lay, draw=["8sS", "11mC", "12sS"], discard=["10mC"],
                                     matched=[(1, 2), (1, 3)], turn=1)
    g.act(DRAW_DECK, DISCARD, DECL(0, 1))
    r = g.r
    assert (r["ender"], r["final_left"]) == (1, 2)
    assert g.where() == (Phase.DRAW, 2, 2)
    g.act(DRAW_DECK, DISCARD, END_TURN)
    assert (r["final_left"], r["season"]) == (1, 0)
    assert g.where() == (Phase.DRAW, 0, 0)
    g.act(DRAW_DECK, DISCARD, END_TURN)
    assert r["season_score"][0, :3].tolist() == [5 + 7 + 1 + 9, 0, 6 + 8 + 10 + 12]
    assert r["total"][:3].tolist() == [22, 0, 36]
    assert r["terminated"] == 0 and r["turn"] == 3
    # Summer: cards collected and dealt again, 8 Fate cards, player_1 starts
    assert r["season"] == 1 and r["season_kind"][1] == Season.SUMMER
    assert r["fate_count"][1] == 8 and r["ender"] == -1 and r["aside_n"] == 0
    assert r["draw_n"][0] == 48 - 12 - 1 + 8 and r["out_n"] == 4
    assert (r["matched"] == 0).all()
    for v in range(3):
        for p in range(3):
            assert g.known(v, p) == ([0, 0, 1, 1] if v == p else [0, 0, 0, 0])
    assert g.where() == (Phase.DRAW, 1, 1)
    assert (card_zones(r) == 1).all()


def test_four_seasons_fate_counts_rotation_and_totals():
    # Each season the turn player draws the only draw-pile card (12mS) and discards it:
    #   season  layouts (player_0 | player_1)          scores
    #   Spring  [1sC 2sC 3sC 4sC] | [1mC 2mC 3mC 6mC]  10 | 12
    #   Summer  [1sS 1mS 2sS 1sC] | [2mS 2mC 3sS 1mC]   5 |  8
    #   Autumn  [5sC 5mC 5sS 5mS] | [1sC 1sS 1mC 1mS]  20 |  4
    #   Winter  [1sC 1sS 1mC 1mS] | [5sC 5mC 5sS 5mS]   4 | 20
    seasons = [
        ([["1sC", "2sC", "3sC", "4sC"], ["1mC", "2mC", "3mC", "6mC"]], [10, 12]),
        ([["1sS", "1mS", "2sS", "1sC"], ["2mS", "2mC", "3sS", "1mC"]], [5, 8]),
        ([["5sC", "5mC", "5sS", "5mS"], ["1sC", "1sS", "1mC", "1mS"]], [20, 4]),
        ([["1sC", "1sS", "1mC", "1mS"], ["5sC", "5mC", "5sS", "5mS"]], [4, 20]),
    ]
    g = Game(n=2, seasons=4)
    totals = [0, 0]
    for s, (lay, scores) in enumerate(seasons):
        r = g.r
        f = 6 + 2 * s
        assert r["season"] == s and r["season_kind"][s] == s and r["fate_count"][s] == f
        assert r["draw_n"][0] == 48 - 8 - 1 + f
        assert (r["draw"][0, : r["draw_n"][0]] >= FATE0).sum() == f
        assert r["out_n"] == 12 - f
        assert g.where() == (Phase.DRAW, s % 2, s % 2)
        g.arrange(lay, draw=["12mS"], discard=["10mC"], rest="discard", turn=s % 2)
        g.act(DRAW_DECK, DISCARD, END_TURN)
        totals = [t + x for t, x in zip(totals, scores)]
        assert r["season_score"][s, :2].tolist() == scores
        assert r["total"][:2].tolist() == totals
        assert r["terminated"] == (s == 3)
    assert totals == [39, 44]
    assert g.rewards() == [1.0, -1.0]
    assert g.r["returns"][:2].tolist() == [1.0, -1.0]


@pytest.mark.parametrize("n", [3, 4])
def test_first_player_rotates_each_season(n):
    g = Game(n=n, seasons=4)
    for s in range(4):
        assert g.r["season"] == s and g.where() == (Phase.DRAW, s % n, s % n)
        g.leave_one_card()
        g.act(DRAW_DECK, DISCARD, END_TURN)
        assert g.r["season"] == min(s + 1, 3) and g.r["turn"] == s + 1
    assert g.r["terminated"] == 1


@pytest.mark.parametrize("values,rewards", [
    ([[1, 2, 3, 4], [1, 2, 3, 4]], [0.0, 0.0]),                         # 10 10
    ([[1, 2, 3, 4], [1, 2, 3, 5], [5, 5, 5, 6]], [1.0, -0.5, -0.5]),    # 10 11 21
    ([[1, 2, 3, 4], [1, 2, 3, 4], [5, 5, 5, 5]], [0.25, 0.25, -0.5]),   # 10 10 20
    ([[1, 2, 3, 4], [1, 2, 5, 6], [1, 2, 5, 6], [1, 2, 3, 8]],          # 10 14 14 14
     [1.0, -1 / 3, -1 / 3, -1 / 3]),
    ([[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 5, 6], [1, 2, 5, 6]],          # 10 10 14 14
     [1 / 3, 1 / 3, -1 / 3, -1 / 3]),
    ([[1, 2, 3, 4]] * 4, [0.0] * 4),                                    # 10 10 10 10
])
def test_lowest_total_wins_ties_split(values, rewards):
    # Layouts of the given values (lowest free card of each value); player_0 draws the
    # only draw-pile card (12mS) and discards it, which ends the only season.
    lay = cards_for_values(values, avoid=["12mS"])
    g = Game(n=len(values)).arrange(lay, draw=["12mS"], rest="discard")
    g.act(DRAW_DECK, DISCARD, END_TURN)
    assert g.r["total"][: len(values)].tolist() == [sum(v) for v in values]
    assert g.r["terminated"] == 1
    assert g.rewards() == pytest.approx(rewards, abs=1e-6)
    assert sum(g.rewards()) == pytest.approx(0.0, abs=1e-6)


def test_score_reward_shaping_each_season():
    # reward="score", 3 players, 2 seasons; the turn player draws 12mS and discards it.
    #   Spring  player_0 [2mC 2mS 4sS 4mC]=12  player_1 [1sC 1sS 2sC 2sS]=6
    #           player_2 [1mC 1mS 3sC 4sC]=9   mean 9
    #   Summer  player_0 [1sC 1sS 2sC 2sS]=6   player_1 [3sC 3mC 3sS 3mS]=12
    #           player_2 [1mC 1mS 2mC 2mS]=6   mean 8; totals 18 18 15: player_2 wins
    g = Game(n=3, seasons=2, reward="score")
    g.arrange([["2mC", "2mS", "4sS", "4mC"], ["1sC", "1sS", "2sC", "2sS"],
               ["1mC", "1mS", "3sC", "4sC"]], draw=["12mS"], rest="discard")
    g.act(DRAW_DECK, DISCARD, END_TURN)
    assert g.r["terminated"] == 0
    assert g.rewards() == pytest.approx([-3 / 48, 3 / 48, 0.0], abs=1e-7)
    g.arrange([["1sC", "1sS", "2sC", "2sS"], ["3sC", "3mC", "3sS", "3mS"],
               ["1mC", "1mS", "2mC", "2mS"]], draw=["12mS"], rest="discard", turn=1)
    g.act(DRAW_DECK, DISCARD, END_TURN)
    assert g.r["terminated"] == 1 and g.r["total"][:3].tolist() == [18, 18, 15]
    assert g.rewards() == pytest.approx([2 / 48 - 0.5, -4 / 48 - 0.5, 2 / 48 + 1.0], abs=1e-6)


def test_win_rewards_without_shaping_only_at_the_end():
    g = Game(n=2, seasons=2)
    g.arrange(BASE2, draw=["12mS"], rest="discard")
    g.act(DRAW_DECK, DISCARD, END_TURN)  # Spring ends: 22 vs 15, no reward yet
    assert g.r["total"][:2].tolist() == [22, 15] and g.rewards() == [0.0, 0.0]


def test_truncation_after_max_turns_gives_zero():
    g = Game(n=2, max_turns=2).arrange(BASE2, draw=["8sS", "11mC"])
    g.act(DRAW_DECK, DISCARD, END_TURN)
    assert g.r["truncated"] == 0 and g.where() == (Phase.DRAW, 1, 1)
    g.act(DRAW_DECK, DISCARD, END_TURN)
    r = g.r
    assert r["truncated"] == 1 and r["terminated"] == 0 and r["turn"] == 2
    assert g.rewards() == [0.0, 0.0] and g.legal() == []


# ---------------------------------------------------------------- Fate cards


def test_fate_card_set_aside_then_draw_again():
    # BASE2 with F0 (PEEK_HIDDEN_ALL: no choice) on top of the draw pile.
    g = base2(draw=["F0", "8sS", "11mC"], fx=E.PEEK_HIDDEN_ALL)
    g.act(DRAW_DECK)
    r = g.r
    assert g.known(0, 0) == [1, 1, 1, 1] and g.known(1, 0) == [0, 0, 0, 0]
    assert g.aside() == ["F0"] and r["fate_card"] == -1 and r["effect"] == 0
    assert g.where() == (Phase.DRAW, 0, 0) and g.legal() == [DRAW_DECK, DRAW_PILE(0)]
    g.act(DRAW_DECK)
    assert L(r["hand"]) == "8sS" and g.where() == (Phase.PLACE, 0, 0)


@pytest.mark.parametrize("coin,effect", [(0, E.SWAP_OWN), (1, E.REVEAL_OWN)])
def test_fate_coin_sun_and_moon(coin, effect):
    # BASE2 with F3 (The Mirror: Sun SWAP_OWN, Moon REVEAL_OWN) on top; the coin is the
    # next RNG draw.
    g = base2(draw=["F3", "8sS"])
    assert (FATE_SUN[3], FATE_MOON[3]) == (E.SWAP_OWN, E.REVEAL_OWN)
    g.r["rng"] = words_for((2, coin))
    g.act(DRAW_DECK)
    r = g.r
    assert (r["coin"], r["effect"], L(r["fate_card"])) == (coin, effect, "F3")
    assert g.where() == (Phase.FX_SLOT, 0, 0)
    assert g.legal() == [SLOT + x for x in range(4)]
    text = SPEC.render_ansi(r, None)
    side = ("Sun: Exchange the positions of two of your cards." if coin == 0
            else "Moon: Show one of your cards to every player.")
    assert f"Fate: The Mirror landed {side}" in text
    assert g.obs(1)[OBS["effect"]][effect] == 1  # revealed to everyone


@pytest.mark.parametrize("see,legal,known", [
    ([], [SLOT + 0, SLOT + 1], None),
    ([(0, 0, 0)], None, [1, 1, 1, 1]),           # one choice: applied at once
    ([(0, 0, 0), (0, 0, 1)], None, [1, 1, 1, 1]),  # nothing to look at: fizzles
])
def test_fate_peek_own(see, legal, known):
    # fate3 position; PEEK_OWN offers only own cards player_0 does not know.
    g = fate3(E.PEEK_OWN, see=see)
    g.act(DRAW_DECK)
    if legal is not None:
        assert g.where() == (Phase.FX_SLOT, 0, 0) and g.legal() == legal
        g.act(SLOT + 1)
        known = [0, 1, 1, 1]
    assert g.known(0, 0) == known
    assert g.known(1, 0) == [0, 0, 1, 1]
    assert g.aside() == ["F0"] and g.where() == (Phase.DRAW, 0, 0)


def test_fate_peek_hidden_all_skips_matched():
    # player_0 ={ 5sC}={ 5sS}=   (matched Hidden cards stay as they are: known to all)
    #          [ 1sC][ 9mS]
    g = Game(n=2).arrange([["5sC", "5sS", "1sC", "9mS"], BASE2[1]], draw=["F0", "8sS"],
                          discard=["10mC"], matched=[(0, 0), (0, 1)], fx=E.PEEK_HIDDEN_ALL)
    g.act(DRAW_DECK)
    assert g.known(0, 0) == [1, 1, 1, 1] and g.where() == (Phase.DRAW, 0, 0)


def test_fate_peek_opp():
    # fate3; player_0 already knows player_2's 12mC (slot 3). Targets: player_1 slots 2, 3
    # (0, 1 are a Completed Match), player_2 slots 0-2.
    g = fate3(E.PEEK_OPP, see=[(0, 2, 3)])
    g.act(DRAW_DECK)
    assert g.where() == (Phase.FX_TARGET, 0, 0)
    assert g.legal() == [TGT(1, 2), TGT(1, 3), TGT(2, 0), TGT(2, 1), TGT(2, 2)]
    g.act(TGT(2, 0))
    assert g.known(0, 2) == [1, 0, 0, 1] and g.known(0, 1) == [1, 1, 0, 0]
    assert g.where() == (Phase.DRAW, 0, 0) and g.aside() == ["F0"]


def test_fate_swap_own():
    # fate3; player_0 knows slot 0 (5sC), player_2 knows player_0's slot 1 (7mS).
    # Open cards: slots 0, 1 only, so the second slot is forced.
    g = fate3(E.SWAP_OWN, see=[(0, 0, 0), (2, 0, 1)])
    g.act(DRAW_DECK)
    assert g.where() == (Phase.FX_SLOT, 0, 0) and g.legal() == [SLOT + 0, SLOT + 1]
    g.act(SLOT + 0)
    assert g.layout(0) == ["7mS", "5sC", "1sC", "1sS"]
    assert g.known(0, 0) == [0, 1, 1, 1] and g.known(2, 0) == [1, 0, 1, 1]
    assert g.where() == (Phase.DRAW, 0, 0)


def test_fate_swap_own_second_choice():
    # BASE2 (no Matches): after slot 1 the second slot is any other open slot.
    g = base2(draw=["F0", "8sS"], fx=E.SWAP_OWN)
    g.act(DRAW_DECK, SLOT + 1)
    assert g.where() == (Phase.FX_SLOT2, 0, 0)
    assert g.legal() == [SLOT + 0, SLOT + 2, SLOT + 3]
    g.act(SLOT + 3)
    assert g.layout(0) == ["5sC", "9mS", "1sC", "7mS"]
    assert g.known(0, 0) == [0, 1, 1, 0]


def test_fate_swap_opp():
    # fate3; player_0 gives 7mS (slot 1) for player_2's 12mC (slot 3), unseen.
    g = fate3(E.SWAP_OPP)
    g.act(DRAW_DECK)
    assert g.where() == (Phase.FX_SLOT, 0, 0) and g.legal() == [SLOT + 0, SLOT + 1]
    g.act(SLOT + 1)
    assert g.where() == (Phase.FX_TARGET, 0, 0)
    assert g.legal() == [TGT(1, 2), TGT(1, 3)] + [TGT(2, x) for x in range(4)]
    g.act(TGT(2, 3))
    assert g.layout(0) == ["5sC", "12mC", "1sC", "1sS"]
    assert g.layout(2) == ["6sC", "8mS", "10sS", "7mS"]
    # knowledge moves with the cards: player_2 knows the 12mC they gave away
    assert g.known(0, 0) == [0, 0, 1, 1] and g.known(2, 0) == [0, 1, 1, 1]
    assert g.known(2, 2) == [0, 0, 1, 0] and g.known(0, 2) == [0, 0, 0, 0]
    assert g.where() == (Phase.DRAW, 0, 0)


def test_fate_bury_seen_skips_fate_cards_in_refill():
    # fate3 with draw (top first): F0 F1 8sS 11mC ...; player_0 buries 5sC (slot 0):
    # it goes to the bottom, F1 is set aside unresolved, 8sS fills the slot (seen).
    g = fate3(E.BURY_SEEN, draw=["F0", "F1", "8sS", "11mC"])
    n0 = int(g.r["draw_n"][0])
    g.act(DRAW_DECK)
    assert g.legal() == [SLOT + 0, SLOT + 1]
    g.act(SLOT + 0)
    r = g.r
    assert g.layout(0) == ["8sS", "7mS", "1sC", "1sS"]
    assert g.known(0, 0) == [1, 0, 1, 1] and g.known(1, 0)[0] == 0
    assert L(r["draw"][0, 0]) == "5sC" and r["draw_n"][0] == n0 - 3 + 1
    assert g.draw_top(1) == ["11mC"]
    assert g.aside() == ["F1", "F0"]
    assert g.where() == (Phase.DRAW, 0, 0)


def test_fate_bury_blind():
    # fate3; player_0 buries 7mS (slot 1); 8sS fills the slot, seen by nobody.
    g = fate3(E.BURY_BLIND, see=[(0, 0, 1), (2, 0, 1)])
    g.act(DRAW_DECK, SLOT + 1)
    assert g.layout(0) == ["5sC", "8sS", "1sC", "1sS"]
    assert [g.r["known"][v, 0, 1] for v in range(3)] == [0, 0, 0]
    assert L(g.r["draw"][0, 0]) == "7mS" and g.aside() == ["F0"]


def test_bury_with_empty_draw_pile_returns_the_card_and_ends_season():
    # player_0 as BASE2; draw (top first): F0 only; discard: 10mC and everything else.
    # BURY_SEEN on slot 0: 5sC goes under an empty pile and comes straight back.
    # The draw pile is empty: player_0 must take 10mC (forced), then swaps it in; the
    # season ends at the end of this turn.
    g = Game(n=2).arrange(BASE2, draw=["F0"], discard=["10mC"], rest="discard",
                          fx=E.BURY_SEEN)
    g.act(DRAW_DECK, SLOT + 0)
    r = g.r
    assert g.layout(0)[0] == "5sC" and g.known(0, 0) == [1, 0, 1, 1]
    assert r["draw_n"][0] == 0 and L(r["hand"]) == "10mC"  # the forced discard draw
    assert g.where() == (Phase.PLACE, 0, 0)
    assert g.legal() == [SLOT + x for x in range(4)] + [DISCARD]
    g.act(SLOT + 3, END_TURN)
    assert r["terminated"] == 1
    assert r["season_score"][0, :2].tolist() == [5 + 7 + 1 + 10, 2 + 3 + 4 + 6]


def test_fate_swap_discard():
    # fate3; player_0 exchanges 5sC (slot 0) with 10mC, the top of the only discard pile
    # (the pile choice is forced). 10mC was face up: everyone knows it.
    g = fate3(E.SWAP_DISCARD)
    g.act(DRAW_DECK)
    assert g.legal() == [SLOT + 0, SLOT + 1]
    g.act(SLOT + 0)
    assert g.layout(0) == ["10mC", "7mS", "1sC", "1sS"]
    assert [g.r["known"][v, 0, 0] for v in range(3)] == [1, 1, 1]
    assert g.discard() == ["5sC"]
    assert g.where() == (Phase.DRAW, 0, 0) and g.aside() == ["F0"]


def test_fate_swap_discard_autumn_two_piles():
    # BASE2 with two discard piles (top first): pile 0: 10mC   pile 1: 12sS
    g = Game(n=2, seasonal_rules=True)
    g.arrange(BASE2, draw=["F0", "8sS"], discard=["10mC"], discard2=["12sS"],
              kind=Season.AUTUMN, fx=E.SWAP_DISCARD)
    g.act(DRAW_DECK, SLOT + 2)
    assert g.where() == (Phase.FX_PILE, 0, 0) and g.legal() == [PILE + 0, PILE + 1]
    g.act(PILE + 1)
    assert g.layout(0) == ["5sC", "7mS", "12sS", "9mS"]
    assert g.discard(0) == ["10mC"] and g.discard(1) == ["1sC"]


def test_fate_others_peek_hidden():
    # fate3; player_1's Hidden cards are a Completed Match: skipped. player_2 peeks.
    g = fate3(E.OTHERS_PEEK_HIDDEN)
    g.act(DRAW_DECK)
    assert g.where() == (Phase.PEEK_HIDDEN, 2, 0) and g.legal() == [SLOT + 0, SLOT + 1]
    g.act(SLOT + 1)
    assert g.known(2, 2) == [0, 1, 1, 1] and g.known(0, 0) == [0, 0, 1, 1]
    assert g.where() == (Phase.DRAW, 0, 0) and g.aside() == ["F0"]


def test_fate_next_peeks():
    # fate3; the next player (player_1) looks at one of player_0's open cards; player_0
    # is two seats to player_1's left in a 3-player game.
    g = fate3(E.NEXT_PEEKS)
    g.act(DRAW_DECK)
    assert g.where() == (Phase.FX_TARGET, 1, 0)
    assert g.legal() == [TGT(2, 0), TGT(2, 1)]
    g.act(TGT(2, 1))
    assert g.known(1, 0) == [0, 1, 1, 1] and g.known(0, 0) == [0, 0, 1, 1]
    assert g.where() == (Phase.DRAW, 0, 0)


def test_fate_next_peeks_wraps_to_player_0_in_4_players():
    # 4 players, player_3's turn: the next player is player_0 (to player_3's left).
    #   player_3 [ 6sC][ 8mS]   player_0 already knows player_3's slot 0
    #            [10sS][12mC]
    lay = [BASE2[0], BASE2[1], ["11sC", "11sS", "7sC", "3sS"], ["6sC", "8mS", "10sS", "12mC"]]
    g = Game(n=4).arrange(lay, draw=["F0", "8sS"], discard=["10mC"], turn=3,
                          see=[(0, 3, 0)], fx=E.NEXT_PEEKS)
    g.act(DRAW_DECK)
    assert g.where() == (Phase.FX_TARGET, 0, 3)
    assert g.legal() == [TGT(3, 1), TGT(3, 2), TGT(3, 3)]
    g.act(TGT(3, 2))
    assert g.known(0, 3) == [1, 0, 1, 0] and g.where() == (Phase.DRAW, 3, 3)


def test_fate_next_buries():
    # fate3; player_1 buries player_0's 5sC (slot 0); 8sS replaces it unseen.
    g = fate3(E.NEXT_BURIES, see=[(0, 0, 0)])
    g.act(DRAW_DECK)
    assert g.where() == (Phase.FX_TARGET, 1, 0)
    assert g.legal() == [TGT(2, 0), TGT(2, 1)]
    g.act(TGT(2, 0))
    assert g.layout(0) == ["8sS", "7mS", "1sC", "1sS"]
    assert [g.r["known"][v, 0, 0] for v in range(3)] == [0, 0, 0]
    assert L(g.r["draw"][0, 0]) == "5sC" and g.draw_top(1) == ["11mC"]
    assert g.where() == (Phase.DRAW, 0, 0)


def test_fate_next_swaps():
    # fate3; player_1 gives their 4sC (slot 2; slots 0, 1 are matched) for player_0's 7mS.
    g = fate3(E.NEXT_SWAPS)
    g.act(DRAW_DECK)
    assert g.where() == (Phase.FX_SLOT, 1, 0) and g.legal() == [SLOT + 2, SLOT + 3]
    g.act(SLOT + 2)
    assert g.where() == (Phase.FX_TARGET, 1, 0) and g.legal() == [TGT(2, 0), TGT(2, 1)]
    g.act(TGT(2, 1))
    assert g.layout(0) == ["5sC", "4sC", "1sC", "1sS"]
    assert g.layout(1) == ["2sC", "2sS", "7mS", "6mS"]
    assert g.known(1, 0) == [0, 1, 1, 1] and g.known(1, 1) == [1, 1, 0, 1]
    assert g.known(0, 0) == [0, 0, 1, 1]
    assert g.where() == (Phase.DRAW, 0, 0)


def test_fate_reveal_own():
    # fate3; player_0 shows 7mS (slot 1) to everyone.
    g = fate3(E.REVEAL_OWN)
    g.act(DRAW_DECK)
    assert g.legal() == [SLOT + 0, SLOT + 1]
    g.act(SLOT + 1)
    assert [g.known(v, 0) for v in range(3)] == [[0, 1, 1, 1], [0, 1, 1, 1], [0, 1, 1, 1]]
    assert g.where() == (Phase.DRAW, 0, 0)


def _touched(g):
    """(owner, slot) pairs the current legal actions of a Fate decision point at."""
    r = g.r
    p, n = int(r["current_player"]), int(r["num_players"])
    out = []
    for a in g.legal():
        if SLOT <= a < DISCARD:
            out.append((p, a - SLOT))
        elif a >= TARGET:
            out.append(((p + 1 + (a - TARGET) // 4) % n, (a - TARGET) % 4))
    return out


@pytest.mark.parametrize("fx", [e for e in Effect if e != Effect.NONE])
def test_completed_matches_protected_from_every_fate_effect(fx):
    # fate3 (player_0 slots 2, 3 and player_1 slots 0, 1 are Completed Matches): walk
    # each effect, always choosing the lowest legal action; no choice ever offers a
    # matched card and the matched cards never move.
    g = fate3(fx)
    g.act(DRAW_DECK)
    while g.r["fate_card"] >= 0:
        for owner, slot in _touched(g):
            assert not g.r["matched"][owner, slot], (fx, owner, slot)
        g.act(g.legal()[0])
    assert g.layout(0)[2:] == ["1sC", "1sS"] and g.layout(1)[:2] == ["2sC", "2sS"]
    assert g.matched(0) == [0, 0, 1, 1] and g.matched(1) == [1, 1, 0, 0]
    assert g.aside() == ["F0"] and g.where() == (Phase.DRAW, 0, 0)


@pytest.mark.parametrize("fx", [E.PEEK_OPP, E.SWAP_OPP, E.NEXT_SWAPS])
def test_fate_without_legal_target_fizzles(fx):
    # player_1 completed both Matches (player_0 is taking the final turn):
    #   player_0 [ 5sC][ 7mS]      player_1 ={ 2sC}={ 2sS}=
    #            [ 1sC][ 9mS]               ={ 4sC}={ 4sS}=
    lay = [BASE2[0], ["2sC", "2sS", "4sC", "4sS"]]
    g = Game(n=2).arrange(lay, draw=["F0", "8sS"], discard=["10mC"], fx=fx,
                          matched=[(1, x) for x in range(4)], ender=1, final_left=1)
    g.act(DRAW_DECK)
    assert g.layout(0) == BASE2[0] and g.known(0, 1) == [1, 1, 1, 1]
    assert g.aside() == ["F0"] and g.where() == (Phase.DRAW, 0, 0)
    g.act(DRAW_DECK, DISCARD)
    assert g.legal() == [DECL(0, 1), DECL(0, 2), DECL(0, 3), DECL(1, 2), DECL(1, 3),
                         DECL(2, 3), END_TURN]
    g.act(END_TURN)
    assert g.r["terminated"] == 1  # that was player_0's final turn


def test_fate_as_last_card_then_forced_discard_draw():
    # BASE2; draw (top first): F0 only (PEEK_HIDDEN_ALL). After it the draw pile is empty,
    # so the only draw is 10mC from the discard pile (applied at once).
    g = Game(n=2).arrange(BASE2, draw=["F0"], discard=["10mC"], rest="discard",
                          fx=E.PEEK_HIDDEN_ALL)
    g.act(DRAW_DECK)
    assert L(g.r["hand"]) == "10mC" and g.where() == (Phase.PLACE, 0, 0)
    assert g.legal() == [SLOT + x for x in range(4)] + [DISCARD]
    g.act(SLOT + 1, END_TURN)
    assert g.r["terminated"] == 1


# ---------------------------------------------------------------- advanced play


def test_advanced_option_turns_on_all_three():
    assert {k: v for k, v in configure(advanced=True).items()
            if k in ("random_seasons", "random_fates", "seasonal_rules")} == {
        "random_seasons": 1, "random_fates": 1, "seasonal_rules": 1}
    assert configure(advanced=True, random_fates=False)["random_fates"] == 0
    assert configure()["seasonal_rules"] == 0


def test_summer_draw_any_of_top_three_discards():
    # Advanced Summer; discard (top first): 10mC 3sS 6mC 2mS. player_0 takes 6mC (depth 2).
    g = Game(n=2, seasonal_rules=True)
    g.arrange(BASE2, draw=["8sS"], discard=["10mC", "3sS", "6mC", "2mS"], kind=Season.SUMMER)
    assert g.legal() == [DRAW_DECK, DRAW_PILE(0, 0), DRAW_PILE(0, 1), DRAW_PILE(0, 2)]
    g.act(DRAW_PILE(0, 2))
    assert L(g.r["hand"]) == "6mC" and g.r["hand_from_discard"] == 1
    assert g.discard() == ["10mC", "3sS", "2mS"]
    assert g.legal() == [SLOT + x for x in range(4)] + [DISCARD]
    g.act(SLOT + 0)
    assert g.layout(0) == ["6mC", "7mS", "1sC", "9mS"] and g.known(1, 0) == [1, 0, 0, 0]
    assert g.discard() == ["5sC", "10mC", "3sS", "2mS"]


def test_summer_discarding_a_deeper_discard_brings_it_to_the_top():
    # Advanced Summer; discard (top first): 10mC 3sS 6mC 2mS 4sS. player_0 takes 6mC
    # (depth 2) and discards it: 6mC is now on top and 10mC, 3sS each lie one deeper, so
    # the next player reaches 6mC, 10mC and 3sS.
    g = Game(n=2, seasonal_rules=True)
    g.arrange(BASE2, draw=["8sS"], discard=["10mC", "3sS", "6mC", "2mS", "4sS"],
              kind=Season.SUMMER)
    g.act(DRAW_PILE(0, 2), DISCARD)
    assert g.discard() == ["6mC", "10mC", "3sS", "2mS", "4sS"]
    g.act(END_TURN)
    assert g.legal() == [DRAW_DECK, DRAW_PILE(0, 0), DRAW_PILE(0, 1), DRAW_PILE(0, 2)]
    g.act(DRAW_PILE(0, 2))
    assert L(g.r["hand"]) == "3sS"
    assert g.layout(0) == ["5sC", "7mS", "1sC", "9mS"]


def test_summer_without_seasonal_rules_only_top_card():
    g = Game(n=2)
    g.arrange(BASE2, draw=["8sS"], discard=["10mC", "3sS", "6mC"], kind=Season.SUMMER)
    assert g.legal() == [DRAW_DECK, DRAW_PILE(0, 0)]


def test_autumn_two_discard_piles():
    # Advanced Autumn; pile 0 (top first): 10mC   pile 1: 12sS 3sS
    g = Game(n=2, seasonal_rules=True)
    g.arrange(BASE2, draw=["8sS", "11mC"], discard=["10mC"], discard2=["12sS", "3sS"],
              kind=Season.AUTUMN)
    assert g.legal() == [DRAW_DECK, DRAW_PILE(0), DRAW_PILE(1)]
    g.act(DRAW_PILE(1), SLOT + 3)  # take 12sS, the old 9mS waits for a pile
    assert g.where() == (Phase.PILE, 0, 0) and g.legal() == [PILE + 0, PILE + 1]
    assert L(g.r["pending"]) == "9mS"
    g.act(PILE + 0)
    assert g.discard(0) == ["9mS", "10mC"] and g.discard(1) == ["3sS"]
    assert g.layout(0) == ["5sC", "7mS", "1sC", "12sS"]
    assert g.where() == (Phase.DECLARE, 0, 0)
    g.act(END_TURN, DRAW_DECK, DISCARD)  # player_1 draws 8sS and discards onto pile 1
    g.act(PILE + 1)
    assert g.discard(1) == ["8sS", "3sS"]


def test_autumn_a_discard_may_move_to_the_other_pile():
    # Advanced Autumn; pile 0 (top first): 10mC   pile 1: 12sS 3sS. player_0 takes 12sS
    # and discards it onto pile 0: it is on top of pile 0, 3sS now tops pile 1.
    g = Game(n=2, seasonal_rules=True)
    g.arrange(BASE2, draw=["8sS", "11mC"], discard=["10mC"], discard2=["12sS", "3sS"],
              kind=Season.AUTUMN)
    g.act(DRAW_PILE(1), DISCARD)
    assert g.where() == (Phase.PILE, 0, 0) and L(g.r["pending"]) == "12sS"
    g.act(PILE + 0)
    assert g.discard(0) == ["12sS", "10mC"] and g.discard(1) == ["3sS"]
    assert g.layout(0) == ["5sC", "7mS", "1sC", "9mS"]


def test_autumn_deal_starts_two_piles():
    # Advanced play with the basic season order: the third season is Autumn.
    g = Game(n=2, seasons=3, seasonal_rules=True)
    for s in range(2):
        assert g.r["num_piles"] == 1
        g.leave_one_card()
        g.act(DRAW_DECK, DISCARD, END_TURN)
    r = g.r
    assert r["season"] == 2 and r["season_kind"][2] == Season.AUTUMN
    assert r["num_piles"] == 2 and r["discard_n"].tolist() == [1, 1]
    assert r["discard"][0, 0] < FATE0 and r["discard"][1, 0] < FATE0
    assert r["draw_n"][0] == 48 - 8 - 2 + 10
    assert g.legal() == [DRAW_DECK, DRAW_PILE(0), DRAW_PILE(1)]


def test_random_seasons_spin_each_season_with_replacement():
    # The Fate Coin (RNG) is spun for each season's kind: forced to Autumn, Autumn,
    # Spring, Winter. Without random_fates the Fate count follows the kind.
    kinds = [2, 2, 0, 3]
    g = Game(n=2, seasons=4, random_seasons=True, words=words_for((4, kinds[0])))
    for s in range(4):
        assert g.r["season_kind"][s] == kinds[s] and g.r["fate_count"][s] == 6 + 2 * kinds[s]
        assert g.r["num_piles"] == 1  # no seasonal rules
        g.leave_one_card()
        if s < 3:
            g.r["rng"] = words_for((4, kinds[s + 1]))
        g.act(DRAW_DECK, DISCARD, END_TURN)
    assert g.r["season_kind"].tolist() == kinds
    assert g.r["fate_count"].tolist() == [10, 10, 6, 12]


def test_random_fates_spin_6_8_10_12():
    # random_fates alone: basic season order, Fate count spun: 12 then 6.
    g = Game(n=2, seasons=2, random_fates=True, words=words_for((4, 3)))
    r = g.r
    assert r["season_kind"][0] == Season.SPRING and r["fate_count"][0] == 12
    assert (r["draw"][0, : r["draw_n"][0]] >= FATE0).sum() == 12 and r["out_n"] == 0
    g.leave_one_card()
    r["rng"] = words_for((4, 0))
    g.act(DRAW_DECK, DISCARD, END_TURN)
    assert r["season_kind"][1] == Season.SUMMER and r["fate_count"][1] == 6


def test_random_seasons_and_fates_together():
    g = Game(n=2, random_seasons=True, random_fates=True, words=words_for((4, 1), (4, 3)))
    assert g.r["season_kind"][0] == Season.SUMMER and g.r["fate_count"][0] == 12


def test_obs_fate_counts_while_a_fate_card_resolves():
    # A fresh Spring deal (6 Fate cards) with one of its Fate cards moved to the top of
    # the draw pile; both sides REVEAL_OWN. While it resolves it is neither in the draw
    # pile nor set aside: 5 are left in the draw pile.
    g = Game(n=2)
    r = g.r
    pile = r["draw"][0, : r["draw_n"][0]]
    i = int(np.flatnonzero(pile >= FATE0)[0])
    pile[i], pile[-1] = pile[-1], pile[i]
    r["fate_sun"][:] = r["fate_moon"][:] = E.REVEAL_OWN
    g.act(DRAW_DECK)
    assert g.where() == (Phase.FX_SLOT, 0, 0)
    fates = OBS["fates"]
    assert g.obs(1)[fates].tolist() == pytest.approx([6 / 12, 0, 5 / 12])
    g.act(SLOT + 0)
    assert g.obs(1)[fates].tolist() == pytest.approx([6 / 12, 1 / 12, 5 / 12])
    assert (g.r["draw"][0, : g.r["draw_n"][0]] >= FATE0).sum() == 5


def test_obs_shows_the_fate_card_drawn_and_those_seen_this_season():
    # BASE2 with F3 (The Mirror: Moon REVEAL_OWN) on top; the coin lands Moon. Every
    # player sees which Fate card is resolving; once set aside it counts as seen.
    g = base2(draw=["F3", "8sS"])
    g.r["rng"] = words_for((2, 1))
    g.act(DRAW_DECK)
    assert g.where() == (Phase.FX_SLOT, 0, 0) and L(g.r["fate_card"]) == "F3"
    f3 = np.eye(NUM_FATE)[3].tolist()
    for p in range(2):
        assert g.obs(p)[OBS["fate_card"]].tolist() == f3
        assert g.obs(p)[OBS["fates_seen"]].tolist() == f3
    g.act(SLOT + 0)
    assert g.aside() == ["F3"] and g.r["fate_card"] == -1
    for p in range(2):
        assert not g.obs(p)[OBS["fate_card"]].any()
        assert g.obs(p)[OBS["fates_seen"]].tolist() == f3
    # the next season starts with none seen
    g.r["aside_n"] = 0
    assert not g.obs(1)[OBS["fates_seen"]].any()


def test_rules_md_names_existing_tests_and_every_card():
    from pathlib import Path

    import fatezoo.envs.fatefell as pkg

    text = (Path(pkg.__file__).parent / "RULES.md").read_text(encoding="utf-8")
    named = set(re.findall(r"T::(test_\w+)", text))
    defined = {k for k in globals() if k.startswith("test_")}
    assert named - defined == set()
    assert defined - named == {"test_rules_md_names_existing_tests_and_every_card"}
    for e in Effect:
        assert e == Effect.NONE or f"`{e.name}`" in text
    for name in FATE_NAMES + ARCANA_NAMES:
        assert name in text


# ---------------------------------------------------------------- search support (ISMCTS)


def test_evaluate_is_tanh_of_point_lead_over_the_others():
    # player_0 [ 6sC][ 2mS]   player_1 [10sC][11mS]   player_2 [ 1sC][ 1sS]
    #          [ 4sC][ 4sS]            [ 5mC][ 5mS]            [ 2sC][ 3mC]
    # player_0's 4s are a Completed Match (0 points); totals so far 5, 10, 20.
    lay = [["6sC", "2mS", "4sC", "4sS"], ["10sC", "11mS", "5mC", "5mS"],
           ["1sC", "1sS", "2sC", "3mC"]]
    g = Game(n=3).arrange(lay, matched=[(0, 2), (0, 3)])
    g.r["total"][:3] = [5, 10, 20]
    values = np.zeros(6)
    rules.evaluate(g.r, values)
    est = [5 + 8, 10 + 31, 20 + 7]
    expected = [np.tanh(((est[1] + est[2]) / 2 - est[0]) / rules.EVAL_SCALE),
                np.tanh(((est[0] + est[2]) / 2 - est[1]) / rules.EVAL_SCALE),
                np.tanh(((est[0] + est[1]) / 2 - est[2]) / rules.EVAL_SCALE)]
    np.testing.assert_allclose(values[:3], expected)
    assert values[0] > 0 > values[1]


def test_determinize_ignores_the_order_of_hidden_cards():
    # player_1's Hidden slots 0 and 1 are unknown to player_0: swapping them (and two
    # draw pile cards) is consistent with everything player_0 has seen, so the same
    # generator words must give the same world.
    lay = [["6sC", "2mS", "4sC", "4sS"], ["10sC", "11mS", "5mC", "5mS"]]
    a = Game(n=2).arrange(lay, draw=["7sC", "8mS"])
    b = Game(n=2).arrange([lay[0], ["11mS", "10sC", "5mC", "5mS"]], draw=["8mS", "7sC"])
    a.r["rng"] = b.r["rng"] = [1, 2, 3, 4]
    assert a.states.tobytes() != b.states.tobytes()
    for g in (a, b):
        rules.determinize_record(g.r, 0, np.array([5, 6, 7, 8], np.int64))
    assert a.states.tobytes() == b.states.tobytes()
    assert card_zones(a.r).tolist() == [1] * 60
