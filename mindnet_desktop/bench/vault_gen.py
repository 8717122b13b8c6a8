"""A generated vault for benchmarks: many notes with types, headings, links of every rule."""

from __future__ import annotations

import random
from pathlib import Path

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


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(8, 18))]
    return " ".join(words).capitalize() + "."


def generate_vault(root: Path, notes: int, seed: int = 7) -> Path:
    """Write `notes` Markdown notes under `root` (deterministic for a seed)."""
    rng = random.Random(seed)
    root.mkdir(parents=True, exist_ok=True)
    names = [f"Notiz {i:05d}" for i in range(notes)]
    for i, name in enumerate(names):
        folder = root / f"Bereich {i % 50:02d}"
        folder.mkdir(exist_ok=True)
        kind = TYPES[i % len(TYPES)]
        lines = [
            "---",
            f"type: {kind}",
            f"tags: [{rng.choice(WORDS)}, {rng.choice(WORDS)}]",
            f"aliases: [N{i}]",
            "---",
            f"# {name}",
            "",
        ]
        for section in range(rng.randint(1, 4)):
            lines += [f"## Abschnitt {section + 1}", ""]
            for _ in range(rng.randint(1, 3)):
                paragraph = " ".join(_sentence(rng) for _ in range(rng.randint(2, 6)))
                if rng.random() < 0.6:
                    paragraph += f" Siehe [[{rng.choice(names)}]]."
                if rng.random() < 0.3:
                    paragraph += f" [[rel:{rng.choice(KINDS)} {rng.choice(names)}]]"
                lines += [paragraph, ""]
        if rng.random() < 0.3:
            lines.append(f"> [!edge] related_to: [[{rng.choice(names)}]] [[{rng.choice(names)}]]")
        (folder / f"{name}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root
