"""Measure obsidian-hub's note shapes for the benchmark vault generator (issue 32 item 3).

Two ways in, one aggregation:

    # a local clone of obsidian-community/obsidian-hub: every note, or a seeded sample
    python tools/research/obsidian_hub_stats.py --vault ~/obsidian-hub [--sample 300]
    # the per-note figures recorded from the stored copy of the repository (how the figures
    # in docs/benchmarks.md were made: no clone on the benchmark machine)
    python tools/research/obsidian_hub_stats.py \
        --features tools/research/obsidian_hub_features.jsonl

Both print the summary table and, with `--write`, rewrite
`mindnet_desktop/bench/hub_profile.py`, the numbers the generator draws from. Only numbers
are kept: no note text, and link targets as anonymous ids (the in-degree is what counts).

What counts as what (the rules Mindnet's parser uses, see core/ingest):
- size: characters of the whole file, frontmatter included;
- links: `[[...]]` wikilinks outside code, `%%comments%%` and `<!-- -->` (embeds `![[...]]`
  are not links), plus links held in frontmatter properties; a link to a heading of the
  same note (`[[#...]]`) counts as a link but not as a target;
- tags: frontmatter `tags` entries that are not empty, and inline `#tag` outside code and
  comments;
- headings: ATX headings outside code fences and comments;
- depth: folders above the note (`People/x.md` in `01 - Community` is 2).

Sampling (the stored copy lists at most 100 files per folder): strata by folder (people,
plugins, themes, the rest), notes drawn with `random.Random(32)` / `Random(33)` from each
folder's listing; each stratum weighs by its share of the repository's notes, so the
template-made strata (people, plugins, themes) need few notes each. The sample is
`tools/research/obsidian_hub_sample.txt`.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROFILE = ROOT / "mindnet_desktop" / "bench" / "hub_profile.py"
# Notes per stratum: people, plugins and themes are the stored index's counts of paths in
# their folders (over the history, so renamed notes count more than once; used only as the
# strata's relative weights); "other" is the 344 notes listed in the other folders (00, 02.01
# to 02.04, 03, 04, 05) and an estimate for 01 - Community's other folders.
STRATA_NOTES = {"people": 5431, "plugins": 6501, "themes": 266, "other": 500}
QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9, 0.99)
HUB_MIN_SAMPLED = 3  # sampled notes linking to a target that make it a hub

FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
COMMENTS = re.compile(r"%%.*?%%|<!--.*?-->", re.S)
INLINE_CODE = re.compile(r"`[^`\n]*`")
WIKILINK = re.compile(r"(!?)\[\[([^\]|#]*)(#[^\]|]*)?(\|[^\]]*)?\]\]")
TAG = re.compile(r"(?:^|\s)#([^\s#\[\]`'\",.;:!?()]+)")
HEADING = re.compile(r"^#{1,6}\s", re.M)
FRONTMATTER = re.compile(r"\A---\n(.*?)\n---\n", re.S)


def stratum(path: str) -> str:
    if "/People/" in path:
        return "people"
    if "/Plugins/" in path:
        return "plugins"
    if "/Themes/" in path:
        return "themes"
    return "other"


def features(path: str, text: str) -> dict:
    """One note's figures, by the rules in the module docstring."""
    front = FRONTMATTER.match(text)
    body = text[front.end() :] if front else text
    fm_tags, links = 0, []
    if front:
        block = front.group(1)
        # The value of `tags:` up to the next key (a line starting with neither space nor
        # `-`): a YAML list in either form, or comma-separated words; empty items not counted.
        inside = re.search(r"^tags:(.*?)(?=^[^\s-]|\Z)", block, re.M | re.S)
        if inside:
            items = re.split(r"[\s,\[\]]+", inside.group(1))
            fm_tags = sum(1 for item in items if item and item != "-")
        links += [m.group(2) for m in WIKILINK.finditer(block) if not m.group(1)]
    live = INLINE_CODE.sub("", COMMENTS.sub("", FENCE.sub("", body)))
    for match in WIKILINK.finditer(live):
        if not match.group(1):
            links.append(match.group(2).strip() or "#self")
    return {
        "path": path,
        "stratum": stratum(path),
        "chars": len(text),
        "frontmatter": front is not None,
        "fm_tags": fm_tags,
        "inline_tags": len(TAG.findall(WIKILINK.sub("", live))),
        "links": links,
        "headings": len(HEADING.findall(live)),
    }


def depth(path: str) -> int:
    return path.count("/")


def weighted_quantiles(values: list[float], weights: list[float]) -> dict[str, float]:
    pairs = sorted(zip(values, weights))
    total, seen, out = sum(weights), 0.0, {}
    wanted = list(QUANTILES)
    for value, weight in pairs:
        seen += weight
        while wanted and seen >= wanted[0] * total:
            out[f"p{round(wanted.pop(0) * 100)}"] = value
    mean = sum(v * w for v, w in zip(values, weights)) / total
    return {**out, "mean": round(mean, 2)}


def summarise(rows: list[dict]) -> dict:
    """Weighted figures: each note stands for its stratum's notes over the stratum's sample."""
    per = Counter(r["stratum"] for r in rows)
    total = sum(STRATA_NOTES[s] for s in per)
    weight = {s: STRATA_NOTES[s] / total / per[s] for s in per}
    w = [weight[r["stratum"]] for r in rows]
    inbound: dict[str, float] = defaultdict(float)
    seen: Counter[str] = Counter()
    for r, wr in zip(rows, w):
        for target in r["links"]:
            if target != "#self":
                inbound[target] += wr
                seen[target] += 1
    link_mass = sum(inbound.values())
    # A hub is a target that several sampled notes link to: one sampled link stands for a
    # whole stratum's share and says nothing of how that target's in-degree grows.
    hubs = sorted((inbound[t] for t in seen if seen[t] >= HUB_MIN_SAMPLED), reverse=True)
    return {
        "notes_sampled": len(rows),
        "per_stratum": dict(per),
        "stratum_share": {s: round(STRATA_NOTES[s] / total, 4) for s in per},
        "chars": weighted_quantiles([r["chars"] for r in rows], w),
        "links": weighted_quantiles([len(r["links"]) for r in rows], w),
        "tags": weighted_quantiles([r["fm_tags"] + r["inline_tags"] for r in rows], w),
        "headings": weighted_quantiles([r["headings"] for r in rows], w),
        "frontmatter_share": round(sum(wr for r, wr in zip(rows, w) if r["frontmatter"]), 3),
        "no_link_share": round(sum(wr for r, wr in zip(rows, w) if not r["links"]), 3),
        "depth": {
            str(d): round(sum(wr for r, wr in zip(rows, w) if depth(r["path"]) == d), 3)
            for d in sorted({depth(r["path"]) for r in rows})
        },
        # How links concentrate: the share of all links that point at each hub (its inbound
        # links estimated from the weighted sample), and its in-degree per note of the vault.
        "in_degree": {
            "hubs": len(hubs),
            "hub_share": round(sum(hubs) / link_mass, 4),
            "hub_weights": [round(v / link_mass, 4) for v in hubs],
            "top_hub_in_degree_per_note": round(hubs[0], 3) if hubs else 0.0,
        },
    }


def anonymous(rows: list[dict]) -> list[dict]:
    """The rows with link targets as stable ids (no names of people or notes kept)."""
    ids: dict[str, str] = {}
    out = []
    for r in rows:
        links = [
            t if t == "#self" else ids.setdefault(t, f"t{len(ids) + 1:03d}") for t in r["links"]
        ]
        out.append({**r, "links": links})
    return out


def write_profile(rows: list[dict], summary: dict) -> None:
    """`mindnet_desktop/bench/hub_profile.py`: one tuple a note, and the in-degree skew."""
    notes = [
        (
            r["stratum"],
            r["chars"],
            len(r["links"]),
            r["fm_tags"],
            r["inline_tags"],
            r["headings"],
            depth(r["path"]),
            r["frontmatter"],
        )
        for r in rows
    ]
    lines = [
        '"""The shapes of obsidian-hub\'s notes, measured by',
        "`tools/research/obsidian_hub_stats.py` (a weighted, stratified sample; see",
        "docs/benchmarks.md). Generated: do not edit by hand.",
        "",
        "NOTES: (stratum, characters, links, frontmatter tags, inline tags, headings, folder",
        "depth, has frontmatter) of each sampled note. STRATUM_SHARE: each stratum's share of the",
        "vault. HUB_SHARE: the share of all links that point at the HUB_WEIGHTS' few most linked",
        'notes ("Mobile-compatible plugins" and the like), HUB_WEIGHTS relative among them.',
        '"""',
        "",
        "from __future__ import annotations",
        "",
        f"STRATUM_SHARE = {summary['stratum_share']!r}",
        f"HUB_SHARE = {summary['in_degree']['hub_share']!r}",
        f"HUB_WEIGHTS = {summary['in_degree']['hub_weights']!r}",
        "NOTES = [",
        *[f"    {n!r}," for n in notes],
        "]",
        "",
    ]
    PROFILE.write_text("\n".join(lines), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--vault", type=Path, help="a local clone of obsidian-hub")
    source.add_argument("--features", type=Path, help="recorded per-note figures (JSONL)")
    parser.add_argument("--sample", type=int, help="with --vault: this many notes, seeded")
    parser.add_argument("--write", action="store_true", help="rewrite bench/hub_profile.py")
    args = parser.parse_args()
    if args.vault:
        paths = sorted(p for p in args.vault.rglob("*.md") if ".github" not in p.parts)
        if args.sample:
            paths = sorted(random.Random(32).sample(paths, min(args.sample, len(paths))))
        rows = [
            features(str(p.relative_to(args.vault)), p.read_text(encoding="utf-8")) for p in paths
        ]
    else:
        rows = [json.loads(line) for line in args.features.read_text("utf-8").splitlines()]
    summary = summarise(rows)
    print(json.dumps(summary, indent=1, ensure_ascii=False))
    print("chunks of the real vault for reference: 6,591 notes, 33,525 chunks (issue 32)")
    print(f"median size {statistics.median(r['chars'] for r in rows)} chars (unweighted)")
    if args.write:
        write_profile(rows, summary)


if __name__ == "__main__":
    main()
