"""Format tags: `"NCHW->nChw16c"`, and named formats (oneDNN and MegEngine) without `SRC->`.

DST lists physical dims outermost first; each term is `[size]letter`, case ignored. A letter
without a size is the rest of that logical dim; with a size it is a block (see `blocked`).
"""

from __future__ import annotations

import difflib
import re

from heterolayout.layout.blocked import Term, check_terms

_TERM = re.compile(r"(\d*)([A-Za-z])")

# Named formats whose name alone does not say the logical order or the blocks.
MEGENGINE_FORMATS = {
    "NCHW4": "NCHW->NCHW4c",
    "NCHW32": "NCHW->NCHW32c",
    "NCHW64": "NCHW->NCHW64c",
    "NCHW44": "NCHW->NCHW4c",
    "NCHW88": "NCHW->NCHW8c",
    "CHWN4": "NCHW->CHWN4c",
    "NHWCD4": "NCHW->NHCW4c",
}

# Canonical logical orders of oneDNN's letter families.
_FAMILIES = ("ncdhw", "goidhw", "x", "abcdefghijkl")

# oneDNN format tags, listed for suggestions; any tag of a family parses by its letters.
ONEDNN_FORMATS = (
    "x",
    "nc",
    "cn",
    "ncw",
    "nwc",
    "nchw",
    "nhwc",
    "chwn",
    "ncdhw",
    "ndhwc",
    "oi",
    "io",
    "oiw",
    "wio",
    "oihw",
    "hwio",
    "ohwi",
    "ihwo",
    "iohw",
    "oidhw",
    "dhwio",
    "goiw",
    "goihw",
    "hwigo",
    "giohw",
    "goidhw",
    "nCw8c",
    "nCw16c",
    "nChw4c",
    "nChw8c",
    "nChw16c",
    "nCdhw8c",
    "nCdhw16c",
    "NChw16n16c",
    "NCdhw16n16c",
    "NC16c16n",
    "OIhw4i4o",
    "OIhw8i8o",
    "OIhw16i16o",
    "OIhw8o8i",
    "OIhw16o16i",
    "IOhw16o16i",
    "Ohwi8o",
    "Ohwi16o",
    "Oihw8o",
    "Oihw16o",
    "OIdhw16i16o",
    "Odhwi16o",
    "OIhw4i16o4i",
    "OIhw8i16o2i",
    "gOIhw16i16o",
    "gOihw16o",
    "Goihw8g",
    "Goihw16g",
    "abcd",
    "acdb",
    "aBcd8b",
    "aBcd16b",
    "ABcd16a16b",
)

MISSING = object()


class TagError(ValueError):
    """Raised inside this module; `parse_layout` turns it into a `LayoutError` with context."""


def parse_tag(tag: str) -> tuple[str, tuple[Term, ...]]:
    """`"SRC->DST"` or a named format → (SRC letters, uppercase; terms over them)."""
    text = tag.strip()
    if "->" in text:
        source, _, target = text.partition("->")
        source, target = source.strip(), target.strip()
    else:
        source, target = _named_source(text)
    if not target:
        raise TagError(f"tag '{tag}': the physical order after '->' is empty")
    if not source or not source.isalpha():
        raise TagError(
            f"tag '{tag}': the source '{source}' must be letters naming the logical dims"
        )
    names = source.upper()
    for letter in names:
        if names.count(letter) > 1:
            raise TagError(f"tag '{tag}': letter '{letter}' is repeated in the source '{source}'")
    terms = []
    position = 0
    for match in _TERM.finditer(target):
        if match.start() != position:
            raise TagError(
                f"tag '{tag}': unexpected '{target[position : match.start()]}' in '{target}'"
            )
        position = match.end()
        digits, letter = match.groups()
        upper = letter.upper()
        if upper not in names:
            raise TagError(
                f"tag '{tag}': letter '{letter}' does not name a logical dim of '{source}'"
            )
        size = int(digits) if digits else None
        if size is not None and size <= 0:
            raise TagError(f"tag '{tag}': block size {size} of '{letter}' must be positive")
        terms.append(Term(names.index(upper), size))
    if position != len(target) or not target:
        raise TagError(f"tag '{tag}': unexpected '{target[position:]}' in '{target}'")
    try:
        check_terms(terms, len(names), f"tag '{tag}'", names)
    except ValueError as error:
        raise TagError(str(error)) from None
    return names, tuple(terms)


def render_tag(names: str, terms: tuple[Term, ...]) -> str:
    """Canonical tag text: the rest in uppercase, blocks as `size` + lowercase."""
    target = "".join(
        names[t.dim].upper() if t.size is None else f"{t.size}{names[t.dim].lower()}" for t in terms
    )
    return f"{names.upper()}->{target}"


def known_formats() -> list[str]:
    return [*ONEDNN_FORMATS, *MEGENGINE_FORMATS]


def _named_source(name: str) -> tuple[str, str]:
    for known, tag in MEGENGINE_FORMATS.items():
        if name.upper() == known:
            source, _, target = tag.partition("->")
            return source, target
    letters = [m.group(2).lower() for m in _TERM.finditer(name)]
    well_formed = "".join(m.group(0) for m in _TERM.finditer(name)) == name and name
    if well_formed:
        present = set(letters)
        for family in _FAMILIES:
            if present <= set(family) and _family_fits(family, present):
                source = "".join(letter for letter in family if letter in present)
                return source, name
    suggestion = difflib.get_close_matches(name, known_formats(), n=1, cutoff=0.6)
    hint = f"; did you mean '{suggestion[0]}'?" if suggestion else ""
    raise TagError(
        f"unknown format '{name}' (a tag without 'SRC->' must be a named oneDNN or MegEngine "
        f"format){hint}"
    )


def _family_fits(family: str, present: set[str]) -> bool:
    """The letter family is unambiguous: activations need c or n, weights o or i or g."""
    if family == "ncdhw":
        return bool(present & {"n", "c"})
    if family == "x":
        return True
    if family == "goidhw":
        return bool(present & {"g", "o", "i"})
    if family == "abcdefghijkl":
        letters = sorted(present)
        return letters == [chr(ord("a") + i) for i in range(len(letters))]
    return False
