"""scripts/profile_rollout.py: the parts of an ISMCTS simulation's cost, timed in numba."""

import numpy as np

from tests.script_util import SCRIPTS, load_script


def test_the_profile_plays_whole_rollouts_and_splits_their_cost(capsys):
    mod = load_script("profile_rollout")
    r = mod.profile("fatefell", moves=10, rollouts=4, calls=200)
    assert r["heuristic_steps"] >= 1 and r["random_steps"] >= 1
    for key in ("encode_us", "policy_us", "start_us", "heuristic_us_per_step",
                "random_us_per_step"):
        assert np.isfinite(r[key]) and r[key] > 0, key
    assert r["encode_share"] > 0  # a ratio of two timings: no bound on a noisy machine
    assert mod.main(["fatefell", "--moves", "10", "--rollouts", "4", "--calls", "200"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("fatefell: record ") and "encode" in out[1] and len(out) == 4


def test_the_script_runs_as_a_command_after_being_loaded_as_a_module():
    """numba cannot reload a cache written by a file loaded under another module name."""
    import subprocess
    import sys

    load_script("profile_rollout").profile("fatefell", moves=10, rollouts=2, calls=100)
    run = subprocess.run([sys.executable, str(SCRIPTS / "profile_rollout.py"), "fatefell",
                          "--moves", "10", "--rollouts", "2", "--calls", "100"],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0 and run.stdout.startswith("fatefell: record "), run.stderr
