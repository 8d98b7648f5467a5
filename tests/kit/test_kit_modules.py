"""Unit tests of the rule-kit modules on hand-built arrays, with exact expected results."""

from fractions import Fraction

import numpy as np
import pytest

from fatezoo.envs.core import decisions as D
from fatezoo.envs.core import dice
from fatezoo.envs.core import knowledge as KN
from fatezoo.envs.core import stack as S
from fatezoo.envs.core import zones as Z
from fatezoo.envs.core.rng import pick_flagged, randint, seed_words


def make_zones(*contents, cap=8):
    cards = np.full((len(contents), cap), -1, np.int16)
    counts = np.zeros(len(contents), np.int16)
    for z, cs in enumerate(contents):
        cards[z, : len(cs)] = cs
        counts[z] = len(cs)
    return cards, counts


def contents(cards, counts, z):
    return Z.zone_contents(cards, counts, z).tolist()


# ---------------------------------------------------------------- zones


def test_zone_fields_declare_cards_and_counts():
    assert Z.zone_fields("zone", 5, 20) == [("zone", np.int16, (5, 20)),
                                            ("zone_n", np.int16, (5,))]


def test_push_pop_take_insert_move_draw():
    cards, counts = make_zones([0, 1, 2, 3], [], [7])
    assert Z.zone_pop(cards, counts, 0) == 3
    assert contents(cards, counts, 0) == [0, 1, 2]
    assert Z.zone_take(cards, counts, 0, 0) == 0  # order of the rest kept
    assert contents(cards, counts, 0) == [1, 2]
    Z.zone_insert(cards, counts, 0, 1, 9)
    assert contents(cards, counts, 0) == [1, 9, 2]
    assert Z.zone_top(cards, counts, 0) == 2 and Z.zone_top(cards, counts, 1) == -1
    assert Z.zone_move(cards, counts, 0, 1, 1) == 9
    assert contents(cards, counts, 1) == [9]
    assert Z.zone_draw(cards, counts, 0, 1, 5) == 2  # only two left: top first
    assert contents(cards, counts, 1) == [9, 2, 1] and contents(cards, counts, 0) == []
    assert Z.zone_move_card(cards, counts, 2, 7, 0) and contents(cards, counts, 0) == [7]
    assert not Z.zone_move_card(cards, counts, 2, 7, 0)
    assert Z.zone_find(cards, counts, 1, 2) == 1 and Z.zone_find(cards, counts, 1, 5) == -1
    Z.zone_push(cards, counts, 1, 9)  # a second copy of 9: zone 1 is [9, 2, 1, 9]
    assert Z.zone_find(cards, counts, 1, 9) == 0 and Z.zone_find_top(cards, counts, 1, 9) == 3
    assert Z.zone_find_top(cards, counts, 1, 2) == 1 and Z.zone_find_top(cards, counts, 1, 5) == -1


def test_find_and_count_by_kind():
    kinds = np.array([0, 0, 1, 1, 2], np.int64)
    cards, counts = make_zones([0, 2, 1, 3])
    assert Z.zone_find_kind(cards, counts, 0, kinds, 0) == 2  # the topmost of kind 0
    assert Z.zone_find_kind(cards, counts, 0, kinds, 2) == -1
    assert Z.zone_count_kind(cards, counts, 0, kinds, 1) == 2
    # cards 2 and 3 (kind 1) lie at positions 1 and 3; the j-th counts from the bottom
    assert [Z.zone_nth_kind(cards, counts, 0, kinds, 1, j) for j in range(3)] == [1, 3, -1]


def test_full_and_empty_zones_raise_instead_of_writing_past_them():
    cards, counts = make_zones([0, 1], [], cap=2)
    with pytest.raises(IndexError):
        Z.zone_push(cards, counts, 0, 5)
    with pytest.raises(IndexError):
        Z.zone_pop(cards, counts, 1)
    with pytest.raises(IndexError):
        Z.zone_take(cards, counts, 0, 2)
    cards, counts = make_zones([0, 1], [2, 3], cap=2)
    with pytest.raises(IndexError):
        Z.zone_move(cards, counts, 0, 0, 1)
    assert contents(cards, counts, 0) == [0, 1]  # nothing moved


def test_shuffle_is_a_seeded_permutation():
    cards, counts = make_zones(list(range(8)))
    Z.zone_shuffle(cards, counts, 0, seed_words(3))
    first = contents(cards, counts, 0)
    assert sorted(first) == list(range(8)) and first != list(range(8))
    cards2, counts2 = make_zones(list(range(8)))
    Z.zone_shuffle(cards2, counts2, 0, seed_words(3))
    assert contents(cards2, counts2, 0) == first


def test_pick_flagged_draws_one_index_among_the_flagged_items():
    flags = np.array([0, 1, 0, 1, 1, 0], np.bool_)
    words = seed_words(5)
    expect = [1, 3, 4][randint(seed_words(5), 3)]
    assert pick_flagged(flags, words) == expect
    assert words.tolist() != seed_words(5).tolist()  # one draw made
    picks = {pick_flagged(flags, seed_words(s)) for s in range(40)}
    assert picks == {1, 3, 4}


def test_pick_flagged_draws_nothing_for_one_item_and_gives_minus_one_for_none():
    words = seed_words(5)
    assert pick_flagged(np.array([0, 0, 1], np.bool_), words) == 2
    assert words.tolist() == seed_words(5).tolist()
    assert pick_flagged(np.zeros(4, np.bool_), words) == -1


def test_conservation_names_the_duplicated_and_the_missing_card():
    cards, counts = make_zones([0, 1, 2], [3])
    Z.check_conservation([(cards, counts)], 4, ["deck", "hand"])
    cards[1, 0] = 1  # card 1 twice, card 3 nowhere
    with pytest.raises(ValueError, match=r"card 1 appears 2 times \(in deck, hand\)"):
        Z.check_conservation([(cards, counts)], 4, ["deck", "hand"])
    cards[1, 0] = 4
    with pytest.raises(ValueError, match="card id 4 is out of range"):
        Z.check_conservation([(cards, counts)], 4)
    cards[1, 0] = 3
    counts[0] = 2  # card 2 dropped out of the deck
    with pytest.raises(ValueError, match="card 2 appears 0 times"):
        Z.check_conservation([(cards, counts)], 4)
    counts[0] = 9
    with pytest.raises(ValueError, match=r"zone_n\[0\] must be in \[0, 8\], got 9"):
        Z.check_conservation([(cards, counts)], 4)
    Z.check_conservation([(cards[:, :0], np.zeros(2, np.int16)), np.array([0, 1, 2, 3])], 4)


# ---------------------------------------------------------------- knowledge


def test_reveal_forget_and_shuffle_levels():
    known = np.zeros((3, 6), np.int8)
    KN.reveal(known, 2, 1)
    KN.reveal_all(known, 4, 3)
    assert known[:, 2].tolist() == [0, 2, 0] and known[:, 4].tolist() == [2, 2, 2]
    KN.forget_all_but(known, 4, 3, 0)
    assert known[:, 4].tolist() == [2, 0, 0]
    cards, counts = make_zones([4, 5, 2])
    KN.shuffle_known(cards, counts, known, 3, 0, seed_words(0))
    assert known[:, 4].tolist() == [1, 0, 0]  # known -> somewhere in the zone
    assert known[:, 2].tolist() == [0, 1, 0] and known[:, 5].tolist() == [0, 0, 0]


def test_search_then_unseen_draw_forgets_the_whole_zone():
    cards, counts = make_zones([0, 1, 2, 3], [])
    known = np.zeros((2, 4), np.int8)
    KN.look_at_zone(cards, counts, known, 0, 0)  # seat 0 searches the deck
    assert known[0].tolist() == [2, 2, 2, 2]
    KN.shuffle_known(cards, counts, known, 2, 0, seed_words(1))
    assert known[0].tolist() == [1, 1, 1, 1]
    top = Z.zone_top(cards, counts, 0)
    assert KN.draw_seen(cards, counts, known, 2, 0, 1, 1) == top  # seat 1 draws, unseen by 0
    assert known[1, top] == 2
    assert known[0].tolist() == [0, 0, 0, 0]  # seat 0 cannot tell which card left
    cards, counts = make_zones([0, 1, 2], [])
    known[:] = 0
    KN.reveal(known, 2, 0)  # seat 0 knows the top card exactly: it still does
    KN.draw_seen(cards, counts, known, 2, 0, 1, 1)
    assert known[:, 2].tolist() == [2, 2]
    assert KN.draw_seen(cards, counts[:], known, 2, 1, 1, 1) == 2  # own zone: allowed


def test_determinize_keeps_known_cards_and_in_zone_cards_in_their_zone():
    # zones: deck [0..5], hand0 [6, 7], hand1 [8, 9]; viewer 0 knows its hand, that 0 and 1
    # are in the deck, and card 8 (shown to it)
    cards, counts = make_zones([0, 1, 2, 3, 4, 5], [6, 7], [8, 9])
    known = np.zeros((2, 10), np.int8)
    known[0, [6, 7, 8]] = 2
    known[0, [0, 1]] = 1
    known[1, [8, 9]] = 2
    known[1, 3] = 2  # seat 1 knows what sits at deck position 3
    seen = set()
    for s in range(40):
        c2, n2, k2 = cards.copy(), counts.copy(), known.copy()
        KN.determinize_zones(c2, n2, k2, 2, 0, seed_words(s))
        assert n2.tolist() == [6, 2, 2]
        assert c2[1, :2].tolist() == [6, 7] and c2[2, 0] == 8
        deck = c2[0, :6].tolist()
        assert {0, 1} <= set(deck)
        assert sorted(deck + [int(c2[2, 1])]) == [0, 1, 2, 3, 4, 5, 9]
        assert (k2[0] == known[0]).all()  # the viewer's own flags never change
        assert k2[1, c2[0, 3]] == 2 and k2[1, c2[2, 1]] == 2  # others' flags follow position
        seen.add(tuple(deck) + (int(c2[2, 1]),))
    assert len(seen) > 20


def test_determinize_depends_only_on_the_information_set():
    # the same information, two different hidden arrangements: identical determinizations
    a, n = make_zones([0, 1, 2, 3], [4, 5])
    b, _ = make_zones([3, 2, 5, 0], [4, 1])
    known = np.zeros((2, 6), np.int8)
    known[0, 4] = 2
    known[1, [4, 5]] = 2
    known_b = known.copy()
    known_b[1, 5], known_b[1, 1] = 0, 2  # seat 1 knows its own hand in both worlds
    ka, kb = known.copy(), known_b.copy()
    KN.determinize_zones(a, n.copy(), ka, 2, 0, seed_words(9))
    KN.determinize_zones(b, n.copy(), kb, 2, 0, seed_words(9))
    assert a.tolist() == b.tolist() and ka.tolist() == kb.tolist()


def test_check_knowledge():
    known = np.zeros((2, 3), np.int8)
    cards, counts = make_zones([0], [1, 2])
    known[1, [1, 2]] = 2
    KN.check_knowledge(known, 2, {1: 1}, cards, counts)
    known[1, 2] = 0
    with pytest.raises(ValueError, match="seat 1 does not know card 2"):
        KN.check_knowledge(known, 2, {1: 1}, cards, counts)
    known[0, 0] = 3
    with pytest.raises(ValueError, match="0, 1 or 2"):
        KN.check_knowledge(known, 2)


# ---------------------------------------------------------------- stack and windows


def test_stack_is_last_in_first_out():
    stack = np.zeros((4, 4), np.int16)
    top = np.zeros(1, np.int16)
    for kind in (5, 6, 7):
        i = S.stack_push(stack, top, kind, 0)
        stack[i, S.PAYLOAD] = 10 * kind
    assert top[0] == 3 and S.stack_peek(stack, top) == 2
    order = [int(stack[S.stack_pop(stack, top), S.PAYLOAD]) for _ in range(3)]
    assert order == [70, 60, 50]
    with pytest.raises(IndexError):
        S.stack_pop(stack, top)
    for _ in range(4):
        S.stack_push(stack, top, 1, 0)
    with pytest.raises(IndexError):
        S.stack_push(stack, top, 1, 0)


def test_window_asks_only_eligible_seats_in_turn_order_from_the_owner():
    stack = np.zeros((4, 3), np.int16)
    top = np.zeros(1, np.int16)
    S.stack_push(stack, top, 1, 2)  # seat 2 acts, 4 players
    eligible = np.array([1, 0, 1, 1], np.int8)
    assert S.next_responder(stack, top, 4, eligible) == 3
    assert S.asked_seat(stack, top, 4) == 3
    assert S.next_responder(stack, top, 4, eligible) == 0  # seat 3 passed; seat 1 skipped
    assert S.next_responder(stack, top, 4, eligible) == -1  # closed: resolve
    assert S.next_responder(stack, top, 4, eligible) == -1
    assert S.asked_seat(stack, top, 4) == -1


def test_window_below_a_response_resumes_after_the_responder():
    stack = np.zeros((4, 3), np.int16)
    top = np.zeros(1, np.int16)
    everyone = np.ones(3, np.int8)
    S.stack_push(stack, top, 1, 0)
    assert S.next_responder(stack, top, 3, everyone) == 1  # seat 1 responds:
    S.stack_push(stack, top, 2, 1)
    assert S.next_responder(stack, top, 3, everyone) == 2
    assert S.next_responder(stack, top, 3, everyone) == 0
    assert S.next_responder(stack, top, 3, everyone) == -1
    S.stack_pop(stack, top)
    assert S.next_responder(stack, top, 3, everyone) == 2  # seat 2, not seat 1 again
    assert S.next_responder(stack, top, 3, everyone) == -1


def test_order_by_strength_is_stable_weakest_first():
    order = np.zeros(5, np.int64)
    S.order_by_strength(np.array([3, 0, 2, 0, 1]), 5, order)
    assert order.tolist() == [1, 3, 4, 2, 0]


def test_encode_stack_layout():
    codec = S.StackCodec(depth=2, columns=[("kind", S.ONEHOT, 3), ("owner", S.SEAT, 3),
                                           ("ask", S.SKIP, 0), ("x", S.SCALAR, 4)])
    assert codec.entry_size == 1 + 3 + 3 + 1 and codec.size == 1 + 3 + 2 * 8
    stack = np.zeros((4, 4), np.int16)
    top = np.zeros(1, np.int16)
    i = S.stack_push(stack, top, 2, 1)
    stack[i, 3] = 2
    S.next_responder(stack, top, 3, np.ones(3, np.int8))  # seat 2 asked
    out = np.full(codec.size + 1, 9.0, np.float32)
    end = S.encode_stack(stack, top, 2, 3, codec.codes, codec.sizes, 2, out, 1)
    assert end == 1 + codec.size and out[0] == 9.0
    want = [0.25, 1, 0, 0,  # 1 of 4 entries; asked seat 2 = the viewer
            1, 0, 0, 1, 0, 0, 1, 0.5,  # present, kind 2, owner seat 1 = viewer + 2, x 2/4
            0, 0, 0, 0, 0, 0, 0, 0]  # no second entry
    assert out[1:].tolist() == want
    assert codec.obs_field("stack").size == codec.size
    with pytest.raises(ValueError):
        S.StackCodec(1, [("kind", S.ONEHOT, 3), ("owner", S.ONEHOT, 3), ("ask", S.SKIP, 0)])


# ---------------------------------------------------------------- decisions


def test_action_space_blocks_offsets_and_names():
    space = D.ActionSpace([D.Block("play", 2, ("play a", "play b")),
                           D.Block("target", 3, "target +{}", start=1),
                           D.Block("pass", 1, ("pass",))])
    assert space.size == 6 and space.offset("target") == 2 and space.block_size("target") == 3
    assert space.names == ("play a", "play b", "target +1", "target +2", "target +3", "pass")
    assert space.split(4) == ("target", 2) and space.split(5) == ("pass", 0)
    with pytest.raises(ValueError, match="action 6 is not in"):
        space.split(6)
    with pytest.raises(KeyError, match="no action block 'x'"):
        space.offset("x")
    with pytest.raises(ValueError, match="duplicate"):
        D.ActionSpace([D.Block("a", 1), D.Block("a", 1)])
    with pytest.raises(ValueError, match="2 actions but 1 names"):
        D.ActionSpace([D.Block("a", 2, ("x",))])


def test_mask_blocks():
    mask = np.zeros(6, np.int8)
    D.set_block(mask, 2, 3, 1)
    assert mask.tolist() == [0, 0, 1, 1, 1, 0]
    assert D.in_block(4, 2, 3) and not D.in_block(5, 2, 3) and not D.in_block(1, 2, 3)


# ---------------------------------------------------------------- dice


SMITING = dice.die(3, 4, 4, 5, 5, 6)


def test_face_odds():
    assert dice.face_odds(SMITING) == {3: Fraction(1, 6), 4: Fraction(1, 3), 5: Fraction(1, 3),
                                       6: Fraction(1, 6)}
    with pytest.raises(TypeError):
        dice.die(1, 2.5)
    with pytest.raises(ValueError):
        dice.die()


@pytest.mark.parametrize("faces", [SMITING, dice.D6, dice.D20])
def test_rolls_give_only_listed_faces_at_their_frequency(faces):
    rolls = 60_000
    out = np.zeros(rolls, np.int64)
    rng = seed_words(11)
    total = dice.roll_into(faces, rolls, rng, out)
    assert total == out.sum()
    assert set(out.tolist()) == set(faces.tolist())
    for face, p in dice.face_odds(faces).items():
        sd = np.sqrt(rolls * float(p) * (1 - float(p)))
        assert abs((out == face).sum() - rolls * float(p)) < 5 * sd, face
    again = np.zeros(rolls, np.int64)
    dice.roll_into(faces, rolls, seed_words(11), again)
    assert (again == out).all()  # same seed, same rolls


def test_roll_and_pick_weighted():
    rng = seed_words(2)
    assert all(dice.roll(SMITING, rng) in (3, 4, 5, 6) for _ in range(200))
    w = np.array([0, 3, 1], np.int64)
    picks = [dice.pick_weighted(w, rng) for _ in range(4000)]
    assert set(picks) == {1, 2} and 2700 < picks.count(1) < 3300
    assert dice.pick_weighted(np.zeros(2, np.int64), rng) == -1
