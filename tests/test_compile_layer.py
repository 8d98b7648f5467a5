"""The compile layer: several games in one process from a cache built any way, and fast.

The defect these tests pin (numba issue 10486, see ``envs/core/numba_fixes.py``): a
process that loaded from the cache two games compiled in different processes ran one
game's machine code for the other. Each test builds a fresh cache (``NUMBA_CACHE_DIR``)
in subprocesses and compares a process that uses several games with processes that each
used one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

import fatezoo
from fatezoo.training.firstuse import ENTRY_NAMES

from .conftest import DIGESTS_ENV, game_digests

RECORD_MODULE = '''
import numpy as np
{njit_import}

A = np.dtype([("a_format", np.int8), ("x", np.int64), ("y", np.int64)])
B = np.dtype([("b_format", np.int8), ("y", np.int64), ("x", np.int64), ("z", np.int64)])


@njit(cache=True)
def inner(rec, k):
    t = 0
    for j in range(k):
        if j % 3 == 0:
            t += rec["x"] * 10 + rec["y"]
        elif j % 3 == 1:
            t -= rec["y"] * 7 - rec["x"]
        else:
            t ^= rec["x"] << 3
        if t > 1000000:
            t = t // 7 + rec["y"]
    return t


@njit(cache=True)
def outer(states, i):
    a = inner(states[i], 5)
    b = inner(states[i], 7) if states[i]["x"] > 0 else inner(states[i], 9)
    c = inner(states[i], 11) + inner(states[i], 13)
    return a * 1000000 + b * 1000 + c


def use(name):
    s = np.zeros(1, A if name == "a" else B)
    s["x"], s["y"] = 1, 2
    return int(outer(s, 0))


if __name__ == "__main__":
    import sys
    print(" ".join(str(use(n)) for n in sys.argv[1:]))
'''


def _run(args, cache, cwd=None, timeout=1800, **extra_env):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), FATEZOO_QUIET_COMPILE="1", **extra_env)
    out = subprocess.run([sys.executable, *args], env=env, cwd=cwd, capture_output=True,
                         text=True, timeout=timeout)
    assert out.returncode == 0, f"{args} exited {out.returncode}: {out.stderr[-2000:]}"
    return out.stdout


def _two_records_in_one_process(tmp_path, njit_import):
    (tmp_path / "recmod.py").write_text(RECORD_MODULE.format(njit_import=njit_import))
    cache = tmp_path / "cache"
    alone = [_run(["recmod.py", name], cache, cwd=tmp_path).split() for name in "ab"]
    together = _run(["recmod.py", "a", "b"], cache, cwd=tmp_path).split()
    return [a[0] for a in alone], together


def test_plain_numba_runs_one_record_kernel_for_another(tmp_path):
    """The scenario is real: with numba's own njit the second record runs the first's code."""
    alone, together = _two_records_in_one_process(tmp_path, "from numba import njit")
    if alone == together:
        pytest.skip("this numba no longer shares symbols between record types")
    assert alone[0] == together[0] and alone[1] != together[1]


def test_core_njit_keeps_two_records_apart(tmp_path):
    alone, together = _two_records_in_one_process(
        tmp_path, "from fatezoo.envs.core.jit import njit")
    assert alone[0] == alone[1]  # the same x and y, read from other offsets
    assert together == alone


SIGNATURES_MODULE = '''
import sys
import numpy as np
from fatezoo.envs.core.jit import njit


@njit(cache=True)
def f(x):
    return x * 3 + 1


VALUES = [np.int64(5), np.float64(2.5), np.complex128(1 + 2j), np.float32(1.5), np.uint64(7),
          np.bool_(True)]

if __name__ == "__main__":
    picks = [int(a) for a in sys.argv[1:]]
    print(" ".join(repr(f(VALUES[k])) for k in picks))
    print(sum(f.stats.cache_hits.values()))
'''


def test_concurrent_saves_keep_every_signature(tmp_path):
    """Six processes save six signatures of one function at once; a seventh loads all six."""
    (tmp_path / "sigmod.py").write_text(SIGNATURES_MODULE)
    cache = tmp_path / "cache"
    with ThreadPoolExecutor(6) as pool:
        outs = list(pool.map(lambda k: _run(["sigmod.py", str(k)], cache, cwd=tmp_path),
                             range(6)))
    each = [o.split("\n")[0] for o in outs]
    out = _run(["sigmod.py", *map(str, range(6))], cache, cwd=tmp_path).split("\n")
    assert out[0].split(" ") == each
    assert out[1] == "6", "every signature loads from the cache"


CHAIN_MODULE = '''
import numpy as np
from fatezoo.envs.core import numba_fixes
from fatezoo.envs.core.jit import njit


@njit(cache=True)
def leaf(x):
    return x * 2 + 1


@njit(cache=True)
def middle(x):
    return leaf(x) + leaf(x + 1)


@njit(cache=True)
def top(x):
    return middle(x) * middle(x - 1)


print(top(3), top(np.int64(-7)), [n for n in numba_fixes.OPTIMISED if n != "nrt"])
'''


def test_a_call_graph_is_optimised_once_at_its_top_level_kernel(tmp_path):
    """Only the kernel called from Python runs LLVM's whole-module passes; same results."""
    (tmp_path / "chainmod.py").write_text(CHAIN_MODULE)
    once = _run(["chainmod.py"], tmp_path / "once", cwd=tmp_path).split(" ", 2)
    every = _run(["chainmod.py"], tmp_path / "every", cwd=tmp_path,
                 FATEZOO_OPTIMISE_EVERY_LIBRARY="1").split(" ", 2)
    assert once[:2] == every[:2] == ["192", "672"]
    assert once[2].strip() == "['top']"  # neither middle nor leaf
    assert every[2].strip() == "[]"  # numba's own finalize: the fix is not installed


# ---------------------------------------------------------------- every game, every entry

ALL_GAMES = list(fatezoo.GAMES)

MULTI_GAME = '''
import json, sys
from fatezoo.training.firstuse import ENTRY_NAMES, run_entries
from tests.golden_util import golden_files, parse, transcript

games = sys.argv[1:]
out = {}
for order in (games, games[::-1]):
    for g in order:
        digests = run_entries(g, ENTRY_NAMES)["digests"]
        path = golden_files(g)[0]
        text = path.read_text(encoding="utf-8")
        options, seed, actions = parse(text)
        digests["golden"] = transcript(g, options, seed, actions) == text
        out.setdefault(g, []).append(digests)
print(json.dumps(out))
'''


def _check_games_together(tmp_path, cache, alone, games):
    """Every entry point of ``games`` in one process, both orders, on ``cache``."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    script = tmp_path / "multi.py"
    script.write_text(MULTI_GAME)
    path = root + os.pathsep + os.environ.get("PYTHONPATH", "")
    together = json.loads(_run([str(script), *games], cache, cwd=root,
                               PYTHONPATH=path).splitlines()[-1])
    for game in games:
        assert "error" not in alone[game], f"{game}: {alone[game].get('error')}"
        for run in together[game]:  # both orders
            assert run.pop("golden"), f"{game}: golden playthrough differs with every game loaded"
            assert run == alone[game], f"{game}: entry points differ with every game loaded"
    if games == ALL_GAMES:
        out = _run(["-c", "import sys; from fatezoo.training.cli import main; sys.exit(main())",
                    "bench", "all", "--seconds", "0.2", "--envs", "64"], cache)
        for game in ALL_GAMES:
            assert game in out


def _check_fresh_build(tmp_path, games, jobs):
    cache = tmp_path / "cache"
    _check_games_together(tmp_path, cache, game_digests(games, cache, jobs), games)


# The suite's own cache (tests/conftest.py) is every game built one game per process, two
# at once, from a fresh cache in CI, so the check of all five on it costs no compiling.
# The one-at-a-time build pays for its own: the two smallest games in CI (any two games
# share the drivers whose symbols collided), every game with --long.
SEQUENTIAL_SHORT = ["fatefell", "forgotten_city"]


@pytest.mark.xdist_group("compile_sequential")
def test_every_game_in_one_process_cache_built_one_game_per_process(tmp_path, long_run):
    _check_fresh_build(tmp_path, ALL_GAMES if long_run else SEQUENTIAL_SHORT, jobs=1)


@pytest.mark.xdist_group("compile_concurrent")
def test_every_game_in_one_process_cache_built_two_at_once(tmp_path, long_run):
    digests = os.environ.get(DIGESTS_ENV)
    if digests:  # the session's cache, built before the workers started
        with open(digests) as f:
            alone = json.load(f)
        assert sorted(alone) == sorted(ALL_GAMES)
        _check_games_together(tmp_path, os.environ["NUMBA_CACHE_DIR"], alone, ALL_GAMES)
        return
    _check_fresh_build(tmp_path, ALL_GAMES if long_run else SEQUENTIAL_SHORT, jobs=2)


# ---------------------------------------------------------------- the first-use notice

NOTICE_MODULE = '''
import numpy as np
from fatezoo.envs.core.jit import njit

R = np.dtype([("noticegame_format", np.int8), ("x", np.int64)])


@njit(cache=True)
def bump(states, i):
    states[i]["x"] += 1


s = np.zeros(1, R)
bump(s, 0)
bump(s, 0)
print(int(s[0]["x"]))
'''


def test_compile_notice_once_per_first_use_and_silent_from_cache(tmp_path):
    (tmp_path / "noticemod.py").write_text(NOTICE_MODULE)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               FATEZOO_COMPILE_NOTICE_AFTER="0")
    env.pop("FATEZOO_QUIET_COMPILE", None)
    runs = [subprocess.run([sys.executable, "noticemod.py"], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=600) for _ in range(2)]
    assert [r.stdout.strip() for r in runs] == ["2", "2"]
    first = runs[0].stderr.strip().splitlines()
    assert len(first) == 2, first
    assert first[0].startswith("fatezoo: compiling noticegame kernels for bump (first use")
    assert first[1].startswith("fatezoo: noticegame kernels for bump compiled in ")
    assert runs[1].stderr.strip() == "", "loading from the cache prints nothing"


def test_every_game_quotes_its_compile_seconds_in_the_notice():
    """Each game declares its measured cold seconds per entry point; the notice says them."""
    import io

    from fatezoo.envs.core.compile_notice import CompileNotice
    from fatezoo.envs.core.registry import get_spec

    for game in ALL_GAMES:
        seconds = get_spec(game).evaluation.compile_seconds
        assert set(seconds) == {"aec", "vector", "heuristic", "ismcts"}, game
        assert all(0 < v < 600 for v in seconds.values()), (game, seconds)
        out = io.StringIO()
        CompileNotice(stream=out)._announce({"key": (game, "the AEC env"), "said": False})
        assert out.getvalue() == (f"fatezoo: compiling {game} kernels for the AEC env (first "
                                  f"use; about {seconds['aec']:.0f} s on 2 cores; later runs "
                                  "load them from the cache)\n")


def test_every_kernel_uses_the_core_njit():
    """A kernel decorated with numba's own njit would compile once per literal again."""
    import importlib
    import pkgutil

    from numba.core.registry import CPUDispatcher

    from fatezoo.envs.core.jit import KernelDispatcher

    roots = [importlib.import_module(n) for n in ("fatezoo.envs", "fatezoo.agents")]
    plain, kernels = [], 0
    for root in roots:
        for info in pkgutil.walk_packages(root.__path__, root.__name__ + "."):
            if info.name.endswith(("_v0", "rllib")):
                continue
            module = importlib.import_module(info.name)
            for name, obj in vars(module).items():
                if isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == module.__name__:
                    kernels += 1
                    if not isinstance(obj, KernelDispatcher):
                        plain.append(f"{info.name}.{name}")
    assert kernels > 100 and plain == []


def test_compile_command_compiles_every_entry_point():
    """``fatezoo compile GAME`` runs each entry point in a process of its own, then says so."""
    out = subprocess.run([sys.executable, "-c",
                          "import sys; from fatezoo.training.cli import main; sys.exit(main())",
                          "compile", "fatefell", "--jobs", "2"],
                         capture_output=True, text=True, timeout=1800)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == ("compiled every entry point of fatefell; later runs load "
                                  "them from the numba cache")
    done = sorted(ln.split()[2] for ln in out.stderr.splitlines() if ln.startswith("compiled "))
    assert done == sorted(ENTRY_NAMES)


FIRST_USES = """
import json
import numpy as np
import fatezoo
from fatezoo.agents import ismcts, make_agent
from fatezoo.envs.core import kernels as K
from fatezoo.training.firstuse import ENTRIES

KERNELS = {"_row": K._row, "_rows_serial": K._rows_serial, "_rows_parallel": K._rows_parallel,
           "serial_policy_actions": K.serial_policy_actions,
           "batch_policy_actions": K.batch_policy_actions, "search_batch": ismcts.search_batch}


def signatures():
    return {name: len(k.signatures) for name, k in KERNELS.items()}


for run in ENTRIES.values():  # what `fatezoo compile fatefell` runs
    run("fatefell")
built = signatures()
for rows in (1, 2, 64, 256):  # what a user runs next: envs, the heuristic and searches
    vec = fatezoo.make_vec("fatefell", num_envs=rows, seed=0)
    obs, mask, _ = vec.reset()
    obs, mask, *_ = vec.step(make_agent("heuristic", "fatefell").act_batch(obs, mask))
    for spec in ("ismcts:sims=4", "ismcts:sims=4,prior=baseline"):
        make_agent(spec, "fatefell", seed=0).act_records(vec.states[:2].copy(), mask[:2])
        make_agent(spec, "fatefell", seed=0).act_records(vec.states[:1].copy(), mask[:1])
print(json.dumps([built, signatures()]))
"""


def test_compile_builds_what_a_first_use_runs():
    """After `fatezoo compile`'s entry points, vector envs and the heuristic of any batch
    size and plain and guided searches of one row or several compile nothing more."""
    cache = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), ".test-numba-cache")
    built, after = json.loads(_run(["-c", FIRST_USES], cache).splitlines()[-1])
    assert after == built
    assert built["search_batch"] == 1, "plain and guided search share one compiled search"
    assert built["batch_policy_actions"] == built["serial_policy_actions"] == 1


def test_a_table_read_as_a_module_is_typed_as_a_global():
    """``S.PASS`` (a module of this package) reaches type inference as the global ``PASS``."""
    import numpy as np
    from numba.core.compiler import run_frontend

    from fatezoo.envs.core.jit import njit
    from fatezoo.envs.core.numba_fixes import ModuleConstants
    from fatezoo.envs.foretold import state as S
    from fatezoo.envs.foretold.rules import tables as T

    def reads(x):
        return S.PASS + T.E_SMASH * x + np.int64(x)

    rewrite, func_ir = ModuleConstants(), run_frontend(reads)
    assert rewrite.match(func_ir, func_ir.blocks[0], None, None)
    assert sorted(v for v in rewrite.values.values()) == sorted([S.PASS, T.E_SMASH])
    rewritten = {inst.target.name: inst.value for inst in rewrite.apply().body
                 if hasattr(inst, "target")}
    globals_ = {(g.name, g.value) for g in rewritten.values() if type(g).__name__ == "Global"}
    assert {("PASS", S.PASS), ("E_SMASH", T.E_SMASH)} <= globals_
    getattrs = [e.attr for e in rewritten.values() if getattr(e, "op", "") == "getattr"]
    assert getattrs == ["int64"]  # numpy's attributes are numba's to type, left alone
    assert njit(reads)(3) == S.PASS + T.E_SMASH * 3 + 3


def test_an_inlined_kernel_is_inlined_from_fresh_ir_without_copies():
    """The inliner's deep copies are skipped; each call site still gets its own inlined body."""
    import numpy as np
    from numba.core import inline_closurecall

    from fatezoo.envs.core.jit import njit

    assert inline_closurecall.InlineWorker.inline_function.__module__.endswith("numba_fixes")

    def clamp_sum(a, lo, hi):
        total = 0
        for x in a:
            total += min(max(x, lo), hi)
        return total

    inlined = njit(inline="always")(clamp_sum)

    @njit
    def twice(a):
        return inlined(a, 0, 3) * 100 + inlined(a[::-1], 2, 5)

    @njit
    def once(a):
        return inlined(a, 1, 1)

    a = np.array([-2, 0, 1, 4, 7, 3], dtype=np.int64)
    assert twice(a) == clamp_sum(a, 0, 3) * 100 + clamp_sum(a[::-1], 2, 5) == 1018
    assert once(a) == 6
    assert twice(a[:2]) == 4
