"""The games kept in cards/ behind the README's score cards (issue 29).

A Foretold card takes hours of a core, so its arenas keep their games in
``cards/<game>/`` (``fatezoo eval GAME AGENT --save-games cards/GAME``): the card goes on
over several runs, and anyone re-prints it from them in seconds. Every kept file must be
an arena of protocol v1 whose rows read back, and each README card of a game with kept
games must be the card those games give. ``cards/<game>/arenas/`` keeps the games of
docs/EVALUATION.md's long arenas (``fatezoo arena ... --save-games``), which must read back
and be what EVALUATION.md quotes: the result of a finished arena, the games so far of one
under way.
"""

import json
import re
import shutil
from pathlib import Path

import pytest

from fatezoo.envs.core.registry import game_names
from fatezoo.training.arena import played_arrays, run_arena
from fatezoo.training.evaluation import (
    PROTOCOLS,
    evaluate_agent,
    round_games,
    saved_games_name,
    score_field,
)
from fatezoo.training.saved_games import SavedGames, arena_header

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "cards"
PROTOCOL = PROTOCOLS["v1"]
KEPT = sorted(CARDS.glob("*/*.jsonl"))
KEPT_ARENAS = sorted(CARDS.glob("*/arenas/*.jsonl"))  # docs/EVALUATION.md's long arenas
# a README score-card row: game, agent label, four cells, rating, and its command
ROW = re.compile(r"^\| `(\w+)` \| [^|]+ \| ((?:[^|]+ \| ){4})(\d+ \[\d+, \d+\]) \| "
                 r"`fatezoo eval (\w+) ([^\s`]+)[^`]*`", re.M)


def readme_cards() -> list:
    text = (ROOT / "README.md").read_text()
    return [m for m in ROW.finditer(text) if (CARDS / m.group(1)).is_dir()]


def read_copy(path: Path, tmp_path: Path) -> SavedGames:
    """The file's games under its own header, read from a copy (reading appends a header
    to an empty file)."""
    header = json.loads(path.read_text().split("\n", 1)[0])
    copy = tmp_path / path.name
    shutil.copy(path, copy)
    saved = SavedGames(copy, header, played_arrays(header["games"], header["num_players"],
                                                   header["score_field"]))
    saved.close()
    return saved


def kept_games(path: Path, tmp_path: Path) -> SavedGames:
    """The file's games, which must be an arena of a protocol v1 card."""
    saved = read_copy(path, tmp_path)
    game, agents, n = saved.header["game"], saved.header["agents"], saved.header["num_players"]
    assert saved.header == arena_header(game, agents, n, PROTOCOL.seed,
                                        round_games(PROTOCOL.games, n), PROTOCOL.options,
                                        score_field(game)[0])
    return saved


def test_cards_keeps_games_of_known_games():
    assert KEPT, "cards/ keeps no games"
    assert {p.parent.name for p in KEPT} <= set(game_names())


@pytest.mark.parametrize("path", KEPT, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_kept_games_are_an_arena_of_a_protocol_v1_card(path, tmp_path):
    saved = kept_games(path, tmp_path)
    game, (agent, member), n = (saved.header["game"], saved.header["agents"],
                                saved.header["num_players"])
    assert path.parent.name == game and member in PROTOCOL.suite
    assert path.name == saved_games_name(game, [agent, member], n)
    assert saved.have.any() and not saved.dropped


@pytest.mark.parametrize("path", KEPT_ARENAS, ids=lambda p: p.name)
def test_kept_arena_games_read_back(path, tmp_path):
    saved = read_copy(path, tmp_path)
    assert saved.header["game"] == path.parent.parent.name
    assert saved.have.any() and not saved.dropped


@pytest.mark.parametrize("row", readme_cards(), ids=lambda m: f"{m.group(1)}-{m.group(5)}")
def test_a_readme_card_is_the_card_its_kept_games_give(row, tmp_path):
    game, cells, rating, agent = row.group(1), row.group(2), row.group(3), row.group(5)
    games = round_games(PROTOCOL.games, 2)
    for member in PROTOCOL.suite:  # all kept, or the card below would play the rest
        path = CARDS / game / saved_games_name(game, [agent, member], 2)
        assert path.is_file(), f"the README shows {agent}'s {game} card; {path} is missing"
        assert kept_games(path, tmp_path).have.all(), f"{path} lacks games"
    folder = tmp_path / game
    shutil.copytree(CARDS / game, folder)
    card = evaluate_agent(game, agent, save_games=str(folder), progress=False)
    assert card["games_resumed"] == len(PROTOCOL.suite) * games and card["full_protocol"]
    (c,) = card["cards"]
    assert c["anchors"]["source"] == "declared by protocol v1"
    shown = "".join(f"{100 * r['win_rate']:.1f}% [{100 * r['ci'][0]:.1f}, "
                    f"{100 * r['ci'][1]:.1f}] | " for r in c["opponents"])
    fit = c["rating"]
    assert (shown, f"{fit['rating']:.0f} [{fit['ci'][0]:.0f}, {fit['ci'][1]:.0f}]") == \
        (cells, rating)


ARENA_TARGET = 0.55  # issue 29's target for the guided search, each arena


def evaluation_row(name: str) -> str:
    """The line of docs/EVALUATION.md whose command saves to the kept arena ``name``."""
    rows = [line for line in (ROOT / "docs" / "EVALUATION.md").read_text().splitlines()
            if line.startswith("|") and name in line]
    assert len(rows) == 1, f"docs/EVALUATION.md has {len(rows)} table rows naming {name}"
    return rows[0]


@pytest.mark.parametrize("path", KEPT_ARENAS, ids=lambda p: p.name)
def test_evaluation_md_quotes_what_a_kept_arena_gives(path, tmp_path):
    saved = read_copy(path, tmp_path)
    header, row = saved.header, evaluation_row(path.name)
    kept = int(saved.have.sum())
    if kept < header["games"]:  # under way: the row says how far it is
        assert f"first {kept:,} of {header['games']:,} games" in row
        return
    copy = tmp_path / "arena.jsonl"
    shutil.copy(path, copy)
    result = run_arena(header["game"], header["agents"], games=header["games"],
                       num_players=header["num_players"], seed=header["seed"],
                       options=header["options"], save_games=str(copy))
    assert result["games_resumed"] == header["games"]  # read, none played
    a, b = result["agents"]
    low, high = result["ci"][a][b]
    rate = f"{100 * result['matrix'][a][b]:.1f}%"
    if result["matrix"][a][b] >= ARENA_TARGET:  # the table sets a met target in bold
        rate = f"**{rate}**"
    quoted = (f"{rate} [{100 * low:.1f}, {100 * high:.1f}] "
              f"({result['wins'][a][b]:,}, {result['ties'][a][b]:,}, "
              f"{result['losses'][a][b]:,})")
    assert quoted in row
