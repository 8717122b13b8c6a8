"""A generated vault for benchmarks: notes shaped like obsidian-hub's, with Mindnet's types and
links of every rule.

Each note takes the shape of one measured obsidian-hub note (`hub_profile.py`, drawn by the
strata's shares): its size in characters, its number of links, tags and headings, its folder
depth and whether it has frontmatter. Links concentrate as they do there: `HUB_SHARE` of all
links point at a few hub notes (whose in-degree grows with the vault, as "Mobile-compatible
plugins" does), the rest at notes drawn uniformly. On top, what Mindnet reads and obsidian-hub
does not use: a `type` in the frontmatter, an alias, some links written as typed inline
relations (`[[rel:kind X]]`) and some as `> [!edge]` callouts. The words are a small mixed
German / English vocabulary. Deterministic for a seed; the seed changes the text, not the
note names.
"""

from __future__ import annotations

import bisect
import itertools
import random
from dataclasses import dataclass
from pathlib import Path

from mindnet_desktop.bench.hub_profile import HUB_SHARE, HUB_WEIGHTS, NOTES, STRATUM_SHARE

TYPES = [
    "concept",
    "project",
    "journal",
    "experience",
    "person",
    "source",
    "task",
    "decision",
    "value",
    "principle",
    "goal",
    "default",
]
WORDS = (  # noqa: SIM905 - a word list reads best as text
    "vektor daten modell graph notiz projekt wert ziel entscheidung drucker papier embedding "
    "suche wissen lernen system agent python code test index chunk kante knoten frage "
    "antwort search memory network local private vault obsidian markdown link heading "
    "summary review meeting plan risk budget team release feature bug fix deploy server "
    "client cache latency "
).split()
KINDS = ["depends_on", "related_to", "resolves", "caused_by", "derived_from", "beeinflusst_von"]
REL_SHARE = 0.1  # links written as a typed inline relation
CALLOUT_SHARE = 0.3  # notes with links whose last one is written as an `[!edge]` callout
FOLDERS = 50


@dataclass(frozen=True)
class Shape:
    """One measured note's figures (a row of `hub_profile.NOTES`)."""

    stratum: str
    chars: int
    links: int
    fm_tags: int
    inline_tags: int
    headings: int
    depth: int
    frontmatter: bool


SHAPES = [Shape(*row) for row in NOTES]


def note_name(i: int) -> str:
    return f"Notiz {i:05d}"


def note_folder(i: int, depth: int) -> str:
    """`Bereich NN` for every note, then as many subfolders as the note's depth asks."""
    parts = [f"Bereich {i % FOLDERS:02d}", f"Teil {i // FOLDERS % 4}", f"Stufe {i // 200 % 3}"]
    return "/".join(parts[: max(1, depth)])


class _Drawer:
    """Draws a note's shape and its link targets from the measured distributions."""

    def __init__(self, rng: random.Random, notes: int) -> None:
        self.rng = rng
        # Shapes (and so folders) come from a fixed draw: the seed changes text and links.
        self.layout = random.Random(notes)
        self.notes = notes
        by_stratum: dict[str, list[Shape]] = {}
        for shape in SHAPES:
            by_stratum.setdefault(shape.stratum, []).append(shape)
        self.strata = sorted(by_stratum.items())
        self.stratum_cum = list(itertools.accumulate(STRATUM_SHARE[s] for s, _ in self.strata))
        # The hubs: a few fixed notes spread over the vault, the most linked first.
        hubs = min(len(HUB_WEIGHTS), notes)
        step = max(1, notes // max(1, hubs))
        self.hubs = [(k * step + step // 2) % notes for k in range(hubs)]
        self.hub_cum = list(itertools.accumulate(HUB_WEIGHTS[:hubs]))

    def shape(self) -> Shape:
        pick = self.layout.random() * self.stratum_cum[-1]
        shapes = self.strata[bisect.bisect_right(self.stratum_cum, pick)][1]
        return self.layout.choice(shapes)

    def target(self, source: int) -> int:
        if self.hub_cum and self.rng.random() < HUB_SHARE:
            pick = self.rng.random() * self.hub_cum[-1]
            hub = self.hubs[bisect.bisect_right(self.hub_cum, pick)]
            if hub != source:
                return hub
        return self.rng.randrange(self.notes)


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(8, 18))]
    return " ".join(words).capitalize() + "."


def _link(rng: random.Random, target: str) -> str:
    if rng.random() < REL_SHARE:
        return f"[[rel:{rng.choice(KINDS)} {target}]]"
    return f"Siehe [[{target}]]."


def note_text(i: int, shape: Shape, targets: list[str], rng: random.Random) -> str:
    """A note of about `shape.chars` characters with the shape's links, tags and headings."""
    name = note_name(i)
    lines: list[str] = []
    if shape.frontmatter:
        tags = ", ".join(rng.choice(WORDS) for _ in range(shape.fm_tags))
        lines += ["---", f"type: {TYPES[i % len(TYPES)]}", f"tags: [{tags}]"]
        lines += [f"aliases: [N{i}]", "---"]
    lines += [f"# {name}", ""]
    callout = targets[-1:] if targets and rng.random() < CALLOUT_SHARE else []
    inline = targets[: len(targets) - len(callout)]
    sections = max(1, shape.headings - 1)
    # Every section gets prose; links and inline tags go to sections in turn.
    placed: list[list[str]] = [[] for _ in range(sections)]
    for k, target in enumerate(inline):
        placed[k % sections].append(_link(rng, target))
    for k in range(shape.inline_tags):
        placed[k % sections].append(f"#{rng.choice(WORDS)}")
    # Characters drawn within ±15 % of the measured note's, so sizes are not repeated.
    budget = int(shape.chars * rng.uniform(0.85, 1.15)) - sum(len(x) + 1 for x in lines)
    per_section = max(40, budget // sections)
    for section in range(sections):
        if shape.headings > 1:
            lines += [f"## Abschnitt {section + 1}", ""]
            per = per_section - 16
        else:
            per = per_section
        text = ""
        while len(text) < per - 60:
            text += (" " if text else "") + _sentence(rng)
        extra = " ".join(placed[section])
        lines += [" ".join(x for x in (text, extra) if x), ""]
    if callout:
        lines.append(f"> [!edge] related_to: [[{callout[0]}]]")
    return "\n".join(lines) + "\n"


def generate_vault(root: Path, notes: int, seed: int = 7) -> Path:
    """Write `notes` Markdown notes under `root` (deterministic for a seed)."""
    rng = random.Random(seed)
    root.mkdir(parents=True, exist_ok=True)
    drawer = _Drawer(rng, notes)
    made: set[str] = set()
    for i in range(notes):
        shape = drawer.shape()
        folder = note_folder(i, shape.depth)
        if folder not in made:
            (root / folder).mkdir(parents=True, exist_ok=True)
            made.add(folder)
        targets = [note_name(drawer.target(i)) for _ in range(shape.links)]
        text = note_text(i, shape, targets, rng)
        (root / folder / f"{note_name(i)}.md").write_text(text, encoding="utf-8")
    return root


def note_path(root: Path, i: int) -> Path:
    """Where `generate_vault` put note `i` (its folder depends on the drawn shape)."""
    return next(root.glob(f"**/{note_name(i)}.md"))
