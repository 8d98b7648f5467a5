"""A game's spec checks itself at import: each broken spec fails with a message naming it."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
import types

import numpy as np
import pytest

import fatezoo
from fatezoo.envs.core import registry
from fatezoo.envs.core.layout import ObsField, ObsLayout
from fatezoo.envs.core.spec import EvalSettings, GameSpec, Kernels
from fatezoo.envs.core.state import code_fingerprint
from fatezoo.envs.fatefell import SPEC, configure

replace = dataclasses.replace


def broken(match, kind=ValueError, **changes):
    """A spec with ``changes`` (an :class:`EvalSettings` field goes to its ``evaluation``)."""
    settings = {k: changes.pop(k) for k in list(changes)
                if k in {f.name for f in dataclasses.fields(EvalSettings)}}
    if settings:
        changes["evaluation"] = replace(SPEC.evaluation, **settings)
    with pytest.raises(kind, match=match) as err:
        replace(SPEC, **changes)
    return str(err.value)


def test_fatefell_spec_is_sound_and_rebuilds():
    again = replace(SPEC)  # re-checks and re-registers the same kernels
    assert again.obs_size == SPEC.obs_size == SPEC.obs.size
    assert list(SPEC.obs_layout) == [f.name for f in SPEC.obs.fields]


def test_bad_ismcts_prior_fails_naming_it():
    assert "ismcts_prior must be a finite number >= 0, got -1.0" in broken(
        "ismcts_prior", ismcts_prior=-1.0)
    broken("ismcts_prior must be a finite number >= 0, got True", ismcts_prior=True)
    broken("ismcts_prior must be a finite number >= 0, got inf", ismcts_prior=float("inf"))


def test_wrong_action_name_count_fails_naming_it():
    msg = broken(r"fatefell: 32 action_names for num_actions=33",
                 action_names=SPEC.action_names[:-1])
    assert "one name per action" in msg


def test_gap_in_observation_layout_fails_naming_the_field():
    fields = list(SPEC.obs.fields)
    i = [f.name for f in fields].index("pending")
    fields[i] = replace(fields[i], start=SPEC.obs.start("pending") + 3)
    msg = broken(r"fatefell: observation field 'pending' starts at \d+ but the field before "
                 r"it ends at \d+ \(a gap\)", obs=ObsLayout(tuple(fields)))
    assert "contiguous" in msg


def test_overlap_duplicate_and_bad_shape_in_layout_fail():
    fields = list(SPEC.obs.fields)
    fields[1] = replace(fields[1], start=0)
    broken(r"fatefell: observation field 'own_identity' .*an overlap", obs=ObsLayout(tuple(fields)))
    dup = ObsLayout(tuple(SPEC.obs.fields) + (ObsField("hand", (2,), "again"),))
    broken(r"fatefell: observation field 'hand' is declared twice", obs=dup)
    bad = ObsLayout((ObsField("a", (3, 0), "empty axis"),))
    broken(r"fatefell: observation field 'a' has shape \(3, 0\)", obs=bad)


def test_observation_layout_must_fit_the_state_vector():
    broken(r"fatefell: state_size=10 is smaller than obs_size=", state_size=10)


def test_folder_name_must_equal_spec_name(monkeypatch):
    fake = types.ModuleType("fatezoo.envs.tarot_golf")
    fake.SPEC = SPEC
    monkeypatch.setitem(sys.modules, "fatezoo.envs.tarot_golf", fake)
    with pytest.raises(ValueError, match=r"envs/tarot_golf: SPEC.name is 'fatefell'; a game's "
                                         r"name must equal its folder name \('tarot_golf'\)"):
        registry._load("tarot_golf")


def test_folder_without_spec_is_not_a_game_and_a_non_spec_fails(monkeypatch):
    helper = types.ModuleType("fatezoo.envs.shared_bits")
    monkeypatch.setitem(sys.modules, "fatezoo.envs.shared_bits", helper)
    assert registry._load("shared_bits") is None
    helper.SPEC = {"name": "shared_bits"}
    with pytest.raises(TypeError, match=r"envs/shared_bits: SPEC must be a GameSpec, got dict"):
        registry._load("shared_bits")


def test_gym_id_form_and_name_form():
    broken(r"fatefell: gym_id is 'Fatefell-v0'; expected 'fatezoo/Fatefell-v0'",
           gym_id="Fatefell-v0")
    broken(r"game name 'Fatefell' must be snake_case", name="Fatefell")


def test_missing_required_kernel_is_named():
    kernels = replace(SPEC.kernels, encode_state=None)
    broken(r"fatefell: missing required kernel\(s\) \['encode_state'\]", TypeError,
           kernels=kernels)
    broken(r"fatefell: kernel 'policy' must be callable", TypeError,
           kernels=replace(SPEC.kernels, policy=3))


def test_other_kernels_for_a_registered_dtype_fail():
    with pytest.raises(ValueError, match=r"'fatefell_format' already has other kernels "
                                         r"registered \(\['evaluate'\] differ\)"):
        replace(SPEC, kernels=replace(SPEC.kernels, evaluate=SPEC.kernels.apply))


def test_option_defaults_come_from_the_configure_signature_only():
    assert SPEC.option_defaults == {"seasons": 4, "advanced": False, "random_seasons": None,
                                    "random_fates": None, "seasonal_rules": None,
                                    "split": "all"}
    assert not any(f.name == "option_defaults" for f in dataclasses.fields(GameSpec))

    def loose(seasons=4, **more):
        return configure(seasons=seasons)

    def no_default(seasons):
        return configure(seasons=seasons)

    def shadow(seasons=4, max_turns=3):
        return configure(seasons=seasons)

    broken(r"fatefell: configure parameter 'more': options must be named parameters", TypeError,
           configure=loose)
    broken(r"fatefell: configure parameter 'seasons' has no default", TypeError,
           configure=no_default)
    broken(r"fatefell: configure parameter 'max_turns' shadows the common option", TypeError,
           configure=shadow)


def test_declarations_are_checked():
    broken(r"fatefell: contract_options \{'seasons': 9\} are not valid options: .*seasons",
           contract_options=({"seasons": 9},))
    broken(r"fatefell: bench_floor must be a finite number >= 0, got -1", bench_floor=-1)
    broken(r"fatefell: arena target \('heuristic', 'random', 1.5\)",
           arena_targets=(("heuristic", "random", 1.5),))
    broken(r"fatefell: train_preset must be a dict", TypeError, train_preset=[])
    broken(r"fatefell: fuzz_games must be an int >= 1, got 0", fuzz_games=0)
    broken(r"fatefell: fuzz_option_games must be an int >= 1, got True", fuzz_option_games=True)
    broken(r"fatefell: fuzz_sample_rows must be an int >= 1, got 0", fuzz_sample_rows=0)
    broken(r"fatefell: players must satisfy", max_players=1)


def test_fatefell_declares_its_kit_values():
    assert SPEC.evaluation.contract_options == ({}, {"advanced": True, "reward": "score"},
                                                {"split": "test"})
    assert SPEC.evaluation.bench_floor == 1_000_000.0
    assert SPEC.evaluation.arena_targets == (("heuristic", "random", 0.9),)
    assert isinstance(SPEC.evaluation.train_preset, dict)
    assert isinstance(SPEC.kernels, Kernels)


@pytest.mark.parametrize("value", [2**31, 3_000_000_000, 2**64])
def test_huge_max_turns_is_a_value_error_not_overflow(value):
    with pytest.raises(ValueError, match=rf"fatefell: max_turns must be an int in "
                                         rf"\[1, 2147483647\], got {value}"):
        fatezoo.make("fatefell", max_turns=value)
    with pytest.raises(ValueError, match="max_turns"):
        fatezoo.make_vec("fatefell", 2, max_turns=value)
    assert fatezoo.make("fatefell", max_turns=2**31 - 1).options["max_turns"] == 2**31 - 1


def test_option_values_that_do_not_fit_their_record_field_fail():
    def wide(seasons=4):
        return dict(configure(), seasons=seasons)

    spec = replace(SPEC, configure=wide, evaluation=replace(SPEC.evaluation,
                                                             contract_options=()))
    with pytest.raises(ValueError, match=r"fatefell: option value 300 for 'seasons' is outside "
                                         r"\[-128, 127\]"):
        spec.options(seasons=300)


def test_version_aliases_are_generated():
    import fatezoo.envs.fatefell_v0 as alias
    from fatezoo.envs import fatefell_v0
    assert alias is fatefell_v0
    assert fatefell_v0.env is fatezoo.envs.fatefell.env and fatefell_v0.vec is not None
    code = "import fatezoo.envs.fatefell_v0 as m; print(m.raw_env.__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "raw_env", out.stderr[-2000:]


def test_fingerprint_covers_subfolders(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "__init__.py").write_text("x = 1\n")
    (tmp_path / "rules" / "turn.py").write_text("y = 1\n")
    before = code_fingerprint(tmp_path)
    (tmp_path / "rules" / "turn.py").write_text("y = 2\n")
    assert code_fingerprint(tmp_path) != before
    (tmp_path / "rules" / "turn.py").write_text("y = 1\n")
    assert code_fingerprint(tmp_path) == before
    (tmp_path / "rules" / "__pycache__").mkdir()
    (tmp_path / "rules" / "__pycache__" / "junk.py").write_text("z = 1\n")
    assert code_fingerprint(tmp_path) == before


def test_obs_layout_readers():
    obs = np.arange(2 * SPEC.obs_size, dtype=np.float32).reshape(2, SPEC.obs_size)
    seat = SPEC.obs.view(obs, "seat_slots")
    assert seat.shape == (2,) + SPEC.obs.shape("seat_slots")
    s0, s1, s2 = SPEC.obs.strides("seat_slots")
    start = SPEC.obs.start("seat_slots")
    assert seat[1, 2, 3, 4] == obs[1, start + 2 * s0 + 3 * s1 + 4 * s2]
    with pytest.raises(KeyError, match="no observation field 'nope'"):
        SPEC.obs.start("nope")


def test_no_game_is_named_in_shared_tests():
    from pathlib import Path

    tests = Path(__file__).resolve().parent
    for name in ("test_contract.py", "test_golden.py", "golden_util.py"):
        text = (tests / name).read_text(encoding="utf-8")
        for game in fatezoo.GAMES:
            assert not re.search(rf"\b{game}\b", text, re.I), f"{name} names {game}"
