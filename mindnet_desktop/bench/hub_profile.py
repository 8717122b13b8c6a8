"""The shapes of obsidian-hub's notes, measured by
`tools/research/obsidian_hub_stats.py` (a weighted, stratified sample; see
docs/benchmarks.md). Generated: do not edit by hand.

NOTES: (stratum, characters, links, frontmatter tags, inline tags, headings, folder
depth, has frontmatter) of each sampled note. STRATUM_SHARE: each stratum's share of the
vault. HUB_SHARE: the share of all links that point at the HUB_WEIGHTS' few most linked
notes ("Mobile-compatible plugins" and the like), HUB_WEIGHTS relative among them.
"""

from __future__ import annotations

STRATUM_SHARE = {"people": 0.4277, "plugins": 0.512, "themes": 0.0209, "other": 0.0394}
HUB_SHARE = 0.2451
HUB_WEIGHTS = [0.1467, 0.0838, 0.0103, 0.0021, 0.0021]
NOTES = [
    ("people", 1703, 1, 0, 0, 4, 2, True),
    ("people", 1665, 2, 0, 0, 4, 2, True),
    ("people", 1666, 1, 0, 0, 4, 2, True),
    ("people", 1601, 1, 0, 0, 4, 2, True),
    ("people", 1602, 1, 0, 0, 4, 2, True),
    ("people", 1644, 1, 0, 0, 4, 2, True),
    ("people", 1665, 1, 0, 0, 4, 2, True),
    ("people", 1640, 1, 0, 0, 4, 2, True),
    ("people", 1697, 1, 0, 0, 4, 2, True),
    ("people", 1632, 1, 0, 0, 4, 2, True),
    ("people", 1613, 1, 0, 0, 4, 2, True),
    ("people", 1637, 1, 0, 0, 4, 2, True),
    ("people", 1652, 1, 0, 0, 4, 2, True),
    ("people", 1623, 1, 0, 0, 4, 2, True),
    ("people", 1607, 1, 0, 0, 4, 2, True),
    ("people", 1617, 1, 0, 0, 4, 2, True),
    ("people", 1514, 1, 0, 0, 4, 2, True),
    ("people", 1656, 1, 0, 0, 4, 2, True),
    ("people", 1638, 1, 0, 0, 4, 2, True),
    ("people", 1645, 1, 0, 0, 4, 2, True),
    ("plugins", 2075, 2, 0, 0, 2, 3, True),
    ("plugins", 2024, 2, 0, 0, 2, 3, True),
    ("plugins", 3188, 9, 3, 0, 5, 3, True),
    ("plugins", 2101, 2, 0, 0, 2, 3, True),
    ("plugins", 2061, 2, 0, 0, 2, 3, True),
    ("plugins", 2111, 2, 0, 0, 2, 3, True),
    ("plugins", 2105, 2, 0, 0, 2, 3, True),
    ("plugins", 2092, 2, 0, 0, 2, 3, True),
    ("themes", 1901, 3, 0, 0, 3, 3, True),
    ("themes", 1974, 3, 0, 0, 3, 3, True),
    ("themes", 1970, 2, 0, 0, 3, 3, True),
    ("themes", 1895, 2, 0, 0, 3, 3, True),
    ("other", 1149, 1, 1, 2, 4, 2, True),
    ("other", 1197, 7, 1, 1, 4, 2, True),
    ("other", 1300, 9, 1, 1, 4, 2, True),
    ("other", 850, 3, 1, 0, 1, 2, True),
    ("other", 1126, 1, 1, 1, 2, 2, True),
    ("other", 5551, 3, 1, 0, 5, 2, True),
    ("other", 2514, 0, 2, 0, 11, 1, True),
    ("other", 1171, 22, 1, 2, 3, 2, True),
    ("other", 3007, 21, 1, 0, 3, 1, True),
    ("other", 1186, 4, 1, 0, 2, 2, True),
    ("other", 2753, 8, 1, 0, 9, 1, True),
    ("other", 1962, 1, 0, 0, 2, 3, True),
    ("other", 413, 1, 1, 1, 3, 2, True),
    ("other", 1332, 1, 1, 0, 2, 2, True),
    ("other", 3631, 16, 2, 2, 10, 3, True),
    ("other", 961, 0, 1, 1, 4, 3, True),
    ("other", 4269, 9, 1, 0, 2, 3, True),
    ("other", 952, 0, 1, 1, 4, 3, True),
    ("other", 582, 4, 1, 0, 4, 2, True),
    ("other", 3565, 1, 1, 0, 6, 2, True),
    ("other", 2080, 0, 2, 0, 3, 2, True),
    ("other", 206, 0, 1, 1, 1, 1, True),
    ("other", 805, 1, 1, 1, 3, 1, True),
    ("other", 751, 0, 1, 1, 2, 1, True),
    ("other", 938, 0, 1, 1, 3, 1, True),
    ("other", 910, 3, 1, 1, 3, 1, True),
    ("other", 2686, 35, 1, 0, 3, 1, True),
    ("people", 1612, 1, 0, 0, 4, 2, True),
    ("people", 1663, 1, 0, 0, 4, 2, True),
    ("people", 1654, 1, 0, 0, 4, 2, True),
    ("people", 1662, 1, 0, 0, 4, 2, True),
    ("plugins", 2042, 2, 0, 0, 2, 3, True),
    ("plugins", 2146, 2, 0, 0, 2, 3, True),
    ("plugins", 2068, 2, 0, 0, 2, 3, True),
    ("plugins", 2206, 2, 0, 0, 2, 3, True),
]
