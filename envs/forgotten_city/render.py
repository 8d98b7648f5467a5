"""Text and SVG views of one Forgotten City record.

Everything on the table is public, so every seat's view is the same; ``seat`` only marks
"you". Face-down stacks and unrevealed nightmares are never shown (``seat=None`` shows
the face-down nightmares, a spectator's view).
"""

from __future__ import annotations

import math
from pathlib import Path

from fatezoo.envs.core.docs import csv_cards
from fatezoo.envs.core.raster import text_block

from .state import (
    ACTION_NAMES,
    COLOR_LETTERS,
    HEX_Q,
    HEX_R,
    MIR_TYPE,
    MIR_TYPE_NAMES,
    MON_COLOR,
    MON_NAMES,
    NM_HP,
    NM_NAMES,
    NUM_COLORS,
    NUM_HEX,
    NUM_NM_POS,
    PICK_FIRST,
    Dec,
    Phase,
)

HOW_TO_WIN = ("score the most VP over six rounds: build monuments, decode them, buy "
              "miracles and fight nightmares; leftover resources (3 = 1 VP) and coins "
              "(5 = 1 VP) and grey miracles score at the end.")
LEGEND = """map: every hex as <id><terrain><mark>, the id that actions name ("hex 41 build
slot 0", "leader to hex 41"); terrain P R B Y basic (Storm, Sun, Rain, Lightning),
S stone, O portal, C the central space; mark M a monument (listed under "built" by hex
id), L a leader, h a placed helper. The picture numbers the same hexes.
player line: p<seat> (* you), VP victory points, c coins, P R B Y resources of each
colour, i inspiration, d defense, lv production levels (inspiration, defense, income),
L the hex of your leader, h[..] hexes of your helpers placed this round, r exhausted
helpers, m free player markers, zone[slot 0, slot 1] your construction zone (the
monuments "build slot 0/1", "discard/abandon zone slot 0/1" name), picks[..] this
Meditation's picks, mir[..] your miracle tree.
track <space>:<monument>+<coins> or [p<seat>] a player's marker ("pick track space N");
miracles white <k>:<name>, grey <k>:<name> ("buy white k"; Dig = Bountiful Dig and
E. = Enlightenment of, with the colours' letters); nightmares <k>:<name>
hits/hit points ("damage nightmare k"); supply: resources left of each colour, then the
face-down stacks. Type card NAME for a monument's, miracle's or nightmare's text."""

TERRAIN = "PRBYSOC"
FILL = ("#7b4fa8", "#c8463c", "#3c78c8", "#d8b830", "#9a9a9a", "#202020", "#e8e0c8")
SEAT_COLORS = ("#ffffff", "#ff8800", "#00c080", "#ff40c0")


def _mon(m) -> str:
    return MON_NAMES[m] if m >= 0 else "-"


def _mir(x) -> str:
    return MIR_SHORT[MIR_TYPE[x]] if x >= 0 else "-"


def _short(name: str) -> str:
    name = name.replace("Enlightenment of ", "E.").replace("Bountiful Dig ", "Dig")
    for a, b in (("(Storm and ", "P"), ("(Sun and ", "R"), ("(Rain and ", "B"), ("Storm)", "P"),
                 ("Sun)", "R"), ("Rain)", "B"), ("Lightning)", "Y"), ("the ", "")):
        name = name.replace(a, b)
    return name.replace(" ", "")


MIR_SHORT = tuple(_short(x) for x in MIR_TYPE_NAMES)


def _head(rec) -> str:
    ph = int(rec["phase"])
    head = f"round {int(rec['round']) + 1}/6 {Phase(ph).name} turn {int(rec['turn'])}; "
    if rec["terminated"] or rec["truncated"]:
        head += "game over" if rec["terminated"] else "truncated"
    else:
        head += f"player_{int(rec['current_player'])} decides {Dec(int(rec['dec'])).name}"
    if rec["last_player"] >= 0 and 0 <= rec["last_action"] < len(ACTION_NAMES):
        head += (f"; last: player_{int(rec['last_player'])} "
                 f"{ACTION_NAMES[int(rec['last_action'])]}")
    return head


def _map_lines(rec) -> list[str]:
    """The hex map as text, one line per row: each hex ``<id><terrain><mark>``."""
    n = int(rec["num_players"])
    helpers = {int(rec["placed"][p, i]) for p in range(n) for i in range(int(rec["nplaced"][p]))}
    leaders = {int(rec["leader"][p]) for p in range(n)}
    rows: dict[int, list] = {}
    for hx in range(NUM_HEX):
        rows.setdefault(int(HEX_R[hx]), []).append((int(HEX_Q[hx]), hx))
    lines = []
    for r in sorted(rows):
        cells = []
        for _, hx in sorted(rows[r]):
            mark = ("M" if rec["mon_at"][hx] >= 0 else "L" if hx in leaders
                    else "h" if hx in helpers else " ")
            cells.append(f"{hx:>2}{TERRAIN[int(rec['terrain'][hx])]}{mark}")
        lines.append((" " * (3 * abs(r)) + "  ".join(cells)).rstrip())
    return lines


def _player_line(rec, p, seat) -> str:
    you = "*" if seat == p else ""
    res = "".join(f"{COLOR_LETTERS[c]}{int(rec['res'][p, c])}" for c in range(NUM_COLORS))
    tree = ",".join(_mir(int(rec["tree"][p, i])) for i in range(int(rec["tree_n"][p])))
    helpers = ",".join(str(int(rec["placed"][p, i])) for i in range(int(rec["nplaced"][p])))
    lv = "".join(str(int(x)) for x in rec["level"][p])
    picks = ""
    if rec["picks"][p, PICK_FIRST] >= 0:
        picks = f" picks[{','.join(_mon(int(m)) for m in rec['picks'][p])}]"
    return (f"p{p}{you} VP{int(rec['vp'][p])} c{int(rec['coins'][p])} {res} "
            f"i{int(rec['insp'][p])} d{int(rec['defense'][p])} lv{lv} L{int(rec['leader'][p])} "
            f"h[{helpers}] r{int(rec['nrest'][p])} m{int(rec['free'][p])} "
            f"zone[{','.join(_mon(int(m)) for m in rec['zone'][p])}]{picks} "
            f"mir[{tree}]")


def _nightmares(rec, seat) -> str:
    n = int(rec["num_players"])
    nms = []
    for k in range(NUM_NM_POS):
        t = int(rec["nm_at"][k])
        if k < rec["nm_shown"] or seat is None:
            state = (f"held p{int(rec['killer'][k])}" if rec["killer"][k] >= 0 else
                     f"{int(rec['hits'][k])}/{int(NM_HP[t, n])}")
            down = "" if k < rec["nm_shown"] else "(down)"
            nms.append(f"{k}:{NM_NAMES[t]}{down} {state}")
        else:
            nms.append(f"{k}:face down")
    return "nightmares " + "; ".join(nms)


def _status_lines(rec, seat) -> list[str]:
    """Everything but the map: the track, the players, monuments, miracles, nightmares."""
    track = []
    for s in range(len(rec["track_mon"])):
        m, q = int(rec["track_mon"][s]), int(rec["track_marker"][s])
        if q >= 0:
            track.append(f"{s}:[p{q}]")
        elif m >= 0:
            track.append(f"{s}:{MON_NAMES[m]}+{int(rec['track_coins'][s])}")
    lines = ["track " + " ".join(track)]
    lines += [_player_line(rec, p, seat) for p in range(int(rec["num_players"]))]
    built = [f"{h}:{MON_NAMES[m]}/p{int(rec['mon_owner'][m])}"
             for h, m in enumerate(rec["mon_at"].tolist()) if m >= 0]
    if built:
        lines.append("built " + " ".join(built))
    lines.append("miracles white " + " ".join(f"{k}:{_mir(int(x))}"
                                              for k, x in enumerate(rec["wshow"]))
                 + " grey " + " ".join(f"{k}:{_mir(int(x))}" for k, x in enumerate(rec["gshow"])))
    lines.append(_nightmares(rec, seat))
    supply = "".join(f"{COLOR_LETTERS[c]}{int(rec['supply'][c])}" for c in range(NUM_COLORS))
    lines.append(f"supply {supply} stacks: monuments {int(rec['mstack_n'])} "
                 f"white {int(rec['wstack_n'])}")
    return lines


def render_ansi(rec, seat=None) -> str:
    """The table as text: the hex map, then the status (``seat`` is marked as "you").

    ``seat=None`` (a spectator) also names the face-down nightmares.
    """
    return "\n".join([_head(rec), *_map_lines(rec), *_status_lines(rec, seat)])


def _hex_points(cx, cy, size) -> str:
    pts = []
    for i in range(6):
        a = math.radians(60 * i + 30)
        pts.append(f"{cx + size * math.cos(a):.1f},{cy + size * math.sin(a):.1f}")
    return " ".join(pts)


def render_svg(rec, seat=None) -> str:
    """The hex map with monuments, helpers and leaders, and a status text column."""
    n = int(rec["num_players"])
    size = 26.0
    w, h = 900, 480
    cx0, cy0 = 240.0, 240.0
    parts = [f'<svg width="{w}" height="{h}" xmlns="http://www.w3.org/2000/svg">',
             f'<rect x="0" y="0" width="{w}" height="{h}" fill="#f4f0e6" stroke="#f4f0e6" '
             'stroke-width="0"/>']
    helpers = {}
    for p in range(n):
        for i in range(int(rec["nplaced"][p])):
            helpers.setdefault(int(rec["placed"][p, i]), []).append(p)
    for hx in range(NUM_HEX):
        q, r = int(HEX_Q[hx]), int(HEX_R[hx])
        x = cx0 + size * math.sqrt(3) * (q + r / 2)
        y = cy0 + size * 1.5 * r
        t = int(rec["terrain"][hx])
        parts.append(f'<polygon points="{_hex_points(x, y, size - 1)}" fill="{FILL[t]}" '
                     'stroke="#444444"/>')
        ink = "#ffffff" if t in (0, 5) else "#000000"
        parts.append(f'<text x="{x + 14:.1f}" y="{y + 3:.1f}" font-size="8" fill="{ink}" '
                     f'text-anchor="middle">{hx}</text>')
        m = int(rec["mon_at"][hx])
        if m >= 0:
            o = int(rec["mon_owner"][m])
            parts.append(f'<rect x="{x - 9:.1f}" y="{y - 9:.1f}" width="18" height="18" '
                         f'fill="{FILL[MON_COLOR[m]]}" stroke="{SEAT_COLORS[o]}" '
                         'stroke-width="3"/>')
        for j, p in enumerate(helpers.get(hx, [])):
            parts.append(f'<circle cx="{x - 12 + 6 * j:.1f}" cy="{y + 12:.1f}" r="4" '
                         f'fill="{SEAT_COLORS[p]}" stroke="#000000"/>')
        for p in range(n):
            if int(rec["leader"][p]) == hx:
                parts.append(f'<circle cx="{x - 12 + 8 * p:.1f}" cy="{y - 12:.1f}" r="5" '
                             f'fill="{SEAT_COLORS[p]}" stroke="#000000"/>')
    parts.append(text_block([_head(rec), *_status_lines(rec, seat)], 470, 4, w - 476, h - 8,
                            size=9))
    parts.append("</svg>")
    return "".join(parts)


DATA = Path(__file__).parent / "data"


def cards() -> dict:
    """Monument, Miracle and Nightmare name -> cost and text (``card NAME``, doc page)."""
    def cost(r):
        parts = [f"{r[f'cost_{c}']} {c}" for c in ("purple", "red", "blue", "yellow")
                 if r[f"cost_{c}"] not in ("", "0")]
        return ", ".join(parts) or "free"
    return csv_cards(DATA, {
        "monuments": lambda r: f"Monument ({r['color']}), cost {cost(r)}: {r['text']}",
        "miracles": lambda r: f"Miracle ({r['kind']}): {r['text']}",
        "nightmares": lambda r: f"Nightmare ({r['color']}), hit points {r['hp2']} / "
                                f"{r['hp3']} / {r['hp4']} (2 / 3 / 4 players): {r['text']}"})
