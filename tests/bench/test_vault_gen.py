"""The generated vault has obsidian-hub's measured shapes (`bench/hub_profile.py`)."""

from __future__ import annotations

import re
import statistics
from collections import Counter

from mindnet_desktop.bench.hub_profile import HUB_SHARE, NOTES, STRATUM_SHARE
from mindnet_desktop.bench.vault_gen import generate_vault, note_name, note_path

LINK = re.compile(r"\[\[(?:rel:\w+ )?(Notiz \d{5})\]\]")


def profile_mean(column: int) -> float:
    """The measured mean of one column, each stratum weighted by its share of the vault."""
    total = 0.0
    for stratum, share in STRATUM_SHARE.items():
        values = [row[column] for row in NOTES if row[0] == stratum]
        total += share * statistics.fmean(values)
    return total


def test_generated_notes_have_the_measured_sizes_links_and_hub_skew(tmp_path):
    root = generate_vault(tmp_path / "v", 1500, seed=3)
    texts = [p.read_text(encoding="utf-8") for p in root.rglob("*.md")]
    assert len(texts) == 1500
    assert all(t.startswith("---\ntype: ") for t in texts)  # obsidian-hub: all frontmatter
    mean_chars = statistics.fmean(len(t) for t in texts)
    assert abs(mean_chars - profile_mean(1)) < 0.1 * profile_mean(1)
    links = [LINK.findall(t) for t in texts]
    mean_links = statistics.fmean(len(found) for found in links)
    assert abs(mean_links - profile_mean(2)) < 0.15 * profile_mean(2)
    inbound = Counter(target for found in links for target in found)
    (hub, hub_links), *_ = inbound.most_common(1)
    total = sum(inbound.values())
    # The most linked note holds a large share of all links, as obsidian-hub's top hub does;
    # drawn uniformly, no note would hold more than a few of ~3,000 links.
    assert hub_links > 0.5 * HUB_SHARE * total
    depths = {len(p.relative_to(root).parts) - 1 for p in root.rglob("*.md")}
    assert depths <= {1, 2, 3} and len(depths) >= 2
    assert note_path(root, 17).name == f"{note_name(17)}.md"
