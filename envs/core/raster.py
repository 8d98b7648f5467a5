"""Rasterize a game's ``render_svg`` picture to an ``(H, W, 3)`` uint8 array.

``render_mode="rgb_array"`` (SB3's ``make_vec_env`` default, gymnasium's ``RecordVideo``)
needs pixels of the same view as the SVG. Every game draws with one small, flat subset of
SVG, which this module parses with :mod:`xml.etree` and draws with Pillow:

- one root ``<svg width height>`` (``xmlns``, ``font-size``, ``font-family`` allowed);
- ``<rect x y width height rx ry fill stroke stroke-width>``;
- ``<circle cx cy r fill stroke stroke-width>``;
- ``<line x1 y1 x2 y2 stroke stroke-width>``;
- ``<polygon points fill stroke stroke-width>``;
- ``<text x y font-size font-family font-weight fill text-anchor>plain text</text>``.

Colours are ``#rrggbb``, ``#rgb``, a colour name or ``none``. Fill defaults to black,
stroke to none, as in SVG. Anything else (``<g>``, ``transform``, ``<path>``, ``style``,
CSS classes, nested elements) is refused with a one-line ``ValueError`` naming it: a game
that leaves the subset fails the shared render test instead of drawing something else.
Text uses Pillow's bundled font, so pixels match the SVG's layout, not its typeface.

Games set their labels with :func:`text_block`, which wraps and shrinks a text to fit its
box and never cuts it; :func:`overflowing_text` names any text that still runs out of its
box or off the picture (the render tests run it on every game).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import lru_cache
from xml.sax.saxutils import escape

import numpy as np

SVG_NS = "http://www.w3.org/2000/svg"
_PAINT = ("fill", "stroke", "stroke-width")
_FONT = ("font-size", "font-family", "font-weight")
ATTRIBUTES = {
    "svg": {"width", "height", "xmlns", "font-size", "font-family", "font-weight"},
    "rect": {"x", "y", "width", "height", "rx", "ry", *_PAINT},
    "circle": {"cx", "cy", "r", *_PAINT},
    "line": {"x1", "y1", "x2", "y2", "stroke", "stroke-width"},
    "polygon": {"points", *_PAINT},
    "text": {"x", "y", "fill", "text-anchor", *_FONT},
}
_ANCHORS = {"start": "ls", "middle": "ms", "end": "rs"}
_NUMBER = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)(px)?\s*$")
MAX_SIDE = 8192  # pixels: a picture larger than this is a bug in the game's render_svg


def _tag(el) -> str:
    tag = el.tag
    if isinstance(tag, str) and tag.startswith("{"):
        ns, _, local = tag[1:].partition("}")
        return local if ns == SVG_NS else tag
    return tag if isinstance(tag, str) else "comment"


def _number(el, name: str, default=None) -> float:
    raw = el.get(name)
    if raw is None:
        if default is None:
            raise ValueError(f"svg: <{_tag(el)}> needs the attribute {name!r}")
        return float(default)
    m = _NUMBER.match(raw)
    if not m or not np.isfinite(float(m.group(1))):
        raise ValueError(f"svg: <{_tag(el)}> {name}={raw!r} is not a number")
    return float(m.group(1))


def _colour(el, name: str, default: str | None):
    """An RGB tuple, or None for ``none`` (no paint)."""
    from PIL import ImageColor

    raw = el.get(name, default)
    if raw is None or raw.strip().lower() in ("none", "transparent"):
        return None
    try:
        return ImageColor.getrgb(raw.strip())[:3]
    except ValueError:
        raise ValueError(f"svg: <{_tag(el)}> {name}={raw!r} is not a colour "
                         "(#rrggbb, #rgb, a colour name or none)") from None


@lru_cache(maxsize=64)
def _font(size: float):
    from PIL import ImageFont

    return ImageFont.load_default(size=max(1.0, size))


@lru_cache(maxsize=65536)
def text_width(text: str, size: float) -> float:
    """Pixels ``text`` spans at font ``size`` as :func:`rasterize` draws it.

    Remembered: a game's pictures set the same labels frame after frame.
    """
    return float(_font(float(size)).getlength(text))


@lru_cache(maxsize=65536)
def _text_bbox(text: str, size: float, anchor: str) -> tuple[float, float, float, float]:
    """Pillow's box of ``text`` at ``size`` drawn at the origin with ``anchor``."""
    return tuple(float(v) for v in _font(size).getbbox(text, anchor=anchor))


def wrap_text(text: str, width: float, size: float) -> list[str]:
    """``text``'s words over as many lines as keep each within ``width`` at ``size``.

    A single word wider than ``width`` keeps a line of its own (it is never cut).
    """
    lines: list[str] = []
    for word in str(text).split():
        if lines and text_width(lines[-1] + " " + word, size) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def text_block(lines, x: float, y: float, width: float, height: float, size: float,
               min_size: float = 5.0, anchor: str = "start", fill: str = "#000000",
               leading: float = 1.25) -> str:
    """SVG ``<text>`` elements that set ``lines`` inside a box, never cutting a word.

    The box's top left is ``(x, y)``. The font is the largest size from ``size`` down
    to ``min_size`` (in steps of 0.5) at which every line, wrapped to ``width``, fits
    ``height`` and no word is wider than ``width``; ``anchor`` is ``start``
    (left-aligned) or ``middle`` (centred). Lines keep their order and all their words;
    a text that cannot fit even at ``min_size`` is still written whole (the render tests
    then name it).
    """
    s = float(size)
    while True:
        wrapped = [w for line in lines for w in wrap_text(line, width, s)]
        fits = len(wrapped) * s * leading <= height and \
            all(text_width(w, s) <= width for w in wrapped)
        if fits or s - 0.5 < min_size:
            break
        s -= 0.5
    tx = x + width / 2 if anchor == "middle" else x
    top = y + (height - len(wrapped) * s * leading) / 2 if anchor == "middle" else y
    return "".join(f'<text x="{tx:.1f}" y="{top + s + k * s * leading:.1f}" font-size="{s:g}" '
                   f'fill="{fill}" text-anchor="{anchor}">{escape(line)}</text>'
                   for k, line in enumerate(wrapped))


def _text_box(el, base_size: float) -> tuple[float, float, float, float]:
    """The pixel box a ``<text>`` element covers when drawn (left, top, right, bottom)."""
    text = " ".join((el.text or "").split())
    size = _number(el, "font-size", base_size)
    anchor = _ANCHORS.get(el.get("text-anchor", "start"), "ls")
    x, y = _number(el, "x", 0), _number(el, "y", 0)
    left, top, right, bottom = _text_bbox(text, size, anchor)
    return x + left, y + top, x + right, y + bottom


def overflowing_text(svg: str) -> list[str]:
    """Texts of ``svg`` drawn past the picture's edge or out of the box they are in.

    A text's box is the smallest ``<rect>`` (drawn before it) that holds the text's anchor
    point; a text in no rect must stay inside the picture. One line per offending text.
    """
    root = parse(svg)
    w, h = _number(root, "width"), _number(root, "height")
    base_size = _number(root, "font-size", 16)
    rects, out = [], []
    for el in root:
        tag = _tag(el)
        if tag == "rect":
            x, y = _number(el, "x", 0), _number(el, "y", 0)
            rects.append((x, y, x + _number(el, "width"), y + _number(el, "height")))
        elif tag == "text" and (el.text or "").strip():
            x0, y0, x1, y1 = _text_box(el, base_size)
            ax, ay = _number(el, "x", 0), _number(el, "y", 0)
            holders = [r for r in rects if r[0] <= ax <= r[2] and r[1] <= ay <= r[3]
                       and (r[2] - r[0]) * (r[3] - r[1]) < w * h]
            box = min(holders, key=lambda r: (r[2] - r[0]) * (r[3] - r[1])) if holders \
                else (0.0, 0.0, w, h)
            if x0 < box[0] - 1 or x1 > box[2] + 1:
                where = "its box" if holders else "the picture"
                out.append(f"{el.text.strip()!r} (x {x0:.0f}..{x1:.0f}) leaves {where} "
                           f"(x {box[0]:.0f}..{box[2]:.0f})")
    return out


def _stroke(el) -> int:
    w = _number(el, "stroke-width", 1)
    if w < 0:
        raise ValueError(f"svg: <{_tag(el)}> stroke-width={el.get('stroke-width')!r} is negative")
    return max(1, round(w)) if w > 0 else 0


def _check(el, where: str) -> str:
    tag = _tag(el)
    if tag not in ATTRIBUTES:
        raise ValueError(f"svg: unsupported element <{tag}> in {where} (the rasterized subset is "
                         f"{', '.join('<' + t + '>' for t in ATTRIBUTES)})")
    extra = sorted(set(el.attrib) - ATTRIBUTES[tag])
    if extra:
        raise ValueError(f"svg: unsupported attribute {extra[0]!r} on <{tag}> (allowed: "
                         f"{', '.join(sorted(ATTRIBUTES[tag]))})")
    return tag


def parse(svg: str):
    """Parse ``svg`` and check it is inside the subset; return the root element."""
    if not isinstance(svg, str):
        raise TypeError(f"svg: expected the SVG text as str, got {type(svg).__name__}")
    try:
        root = ET.fromstring(svg)
    except ET.ParseError as err:
        raise ValueError(f"svg: not well-formed XML ({err})") from None
    if _check(root, "the document") != "svg":
        raise ValueError(f"svg: the root element must be <svg>, got <{_tag(root)}>")
    for el in root:
        tag = _check(el, "<svg>")
        if len(el):
            raise ValueError(f"svg: unsupported element <{_tag(el[0])}> inside <{tag}> "
                             "(elements are flat: no nesting)")
        if tag == "svg":
            raise ValueError("svg: unsupported element <svg> inside <svg> (no nested svg)")
        if tag != "text" and (el.text or "").strip():
            raise ValueError(f"svg: <{tag}> holds text {el.text.strip()[:20]!r}")
    return root


def _points(el) -> list[tuple[float, float]]:
    raw = el.get("points")
    if raw is None:
        raise ValueError("svg: <polygon> needs the attribute 'points'")
    try:
        nums = [float(v) for v in re.split(r"[\s,]+", raw.strip()) if v]
    except ValueError:
        raise ValueError(f"svg: <polygon> points={raw!r} are not numbers") from None
    if len(nums) % 2 or len(nums) < 6 or not np.isfinite(nums).all():
        raise ValueError(f"svg: <polygon> points={raw!r} must be at least 3 x,y pairs")
    return list(zip(nums[::2], nums[1::2]))


def rasterize(svg: str) -> np.ndarray:
    """The picture of ``svg`` as a new ``(height, width, 3)`` uint8 array.

    Raises:
        ValueError: an element or attribute outside the subset, or a bad value (one
            line naming it).
    """
    from PIL import Image, ImageDraw

    root = parse(svg)
    w, h = _number(root, "width"), _number(root, "height")
    if not (1 <= w <= MAX_SIDE and 1 <= h <= MAX_SIDE):
        raise ValueError(f"svg: width and height must be in [1, {MAX_SIDE}], got {w} x {h}")
    img = Image.new("RGB", (round(w), round(h)), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    base_size = _number(root, "font-size", 16)
    for el in root:
        tag = _tag(el)
        if tag == "rect":
            x, y = _number(el, "x", 0), _number(el, "y", 0)
            rw, rh = _number(el, "width"), _number(el, "height")
            if rw < 0 or rh < 0:
                raise ValueError(f"svg: <rect> width and height must be >= 0, got {rw}, {rh}")
            if rw == 0 or rh == 0:
                continue  # SVG: a zero-size rect is not drawn
            fill, stroke, sw = _colour(el, "fill", "black"), _colour(el, "stroke", None), \
                _stroke(el)
            r = _number(el, "rx" if "rx" in el.attrib else "ry", 0)
            r = min(max(r, 0.0), rw / 2, rh / 2)
            box = (x, y, x + rw - 1, y + rh - 1)
            width = sw if stroke is not None else 0
            if r >= 1:
                draw.rounded_rectangle(box, radius=round(r), fill=fill, outline=stroke,
                                       width=width)
            else:
                draw.rectangle(box, fill=fill, outline=stroke, width=width)
        elif tag == "circle":
            cx, cy, r = _number(el, "cx", 0), _number(el, "cy", 0), _number(el, "r")
            if r < 0:
                raise ValueError(f"svg: <circle> r must be >= 0, got {r}")
            if r == 0:
                continue
            stroke = _colour(el, "stroke", None)
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=_colour(el, "fill", "black"),
                         outline=stroke, width=_stroke(el) if stroke is not None else 0)
        elif tag == "line":
            stroke, sw = _colour(el, "stroke", None), _stroke(el)
            if stroke is not None and sw:
                draw.line((_number(el, "x1", 0), _number(el, "y1", 0), _number(el, "x2", 0),
                           _number(el, "y2", 0)), fill=stroke, width=sw)
        elif tag == "polygon":
            pts, stroke = _points(el), _colour(el, "stroke", None)
            draw.polygon(pts, fill=_colour(el, "fill", "black"), outline=stroke,
                         width=_stroke(el) if stroke is not None else 0)
        else:  # text
            anchor = el.get("text-anchor", "start")
            if anchor not in _ANCHORS:
                raise ValueError(f"svg: <text> text-anchor={anchor!r}, expected one of "
                                 f"{list(_ANCHORS)}")
            size = _number(el, "font-size", base_size)
            fill = _colour(el, "fill", "black")
            text = " ".join((el.text or "").split())  # SVG collapses white space
            if text and fill is not None:
                draw.text((_number(el, "x", 0), _number(el, "y", 0)), text, fill=fill,
                          font=_font(size), anchor=_ANCHORS[anchor])
    return np.asarray(img, dtype=np.uint8).copy()
