"""Re-align the model's own answers of stored `bench answers --json` runs with the current
code, and list every citation the alignment adds or replaces, with whether the note it now
cites is a gold note of the question; and the counts of `realign.py` (unanswerable told,
right answers withheld or marked).

    python tools/research/align/corrections.py docs/bench-answers-dev-answers-150.json \
        docs/bench-answers-dev-fresh.json

A run stores the aligned answer; the model's citations are put back first from its
`alignments` (each changed sentence gets the citations the model gave it), so the answers
are aligned as the model wrote them.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from mindnet_desktop.core.chat.align import _cite, align_citations  # noqa: E402
from mindnet_desktop.core.chat.stages import unsupported_throughout  # noqa: E402
from mindnet_desktop.core.ingest.parse import parse_markdown  # noqa: E402

SETS = ("answers", "fresh")


def note_text(path: Path) -> str:
    if not path.is_file():
        return ""
    text = path.read_text(encoding="utf-8")
    return parse_markdown(path.name, text, "").body if path.suffix == ".md" else text


def as_written(row: dict) -> str:
    """The answer with the model's own citations on the sentences the run changed."""
    text = row.get("draft_answer") or row["answer"]
    for a in row.get("alignments") or []:
        if a["action"] in ("added", "replaced"):
            given = "".join(f" [{n}]" for n in a["cited"])
            text = text.replace(_cite(a["sentence"], a["source"]), _cite(a["sentence"], 0), 1)
            text = text.replace(" [0]", given, 1)
    return text


def main(files: list[str]) -> None:
    questions = {
        q["id"]: q
        for name in SETS
        for q in yaml.safe_load((ROOT / f"resources/qa/chat/{name}.yaml").read_text())["questions"]
    }
    counts = {"unanswerable": 0, "told": 0, "right": 0, "withheld": 0, "marked": 0}
    changes = {"to gold": 0, "to other": 0, "from gold": 0}
    for file in files:
        for row in json.loads(Path(file).read_text())["models"]["default"]["rows"]:
            q = questions[row["id"]]
            model_said = row["not_found"] and not row.get("draft_answer")
            if model_said:
                alignments = []
                text = row["answer"]
            else:
                text = as_written(row)
                texts = [note_text(ROOT / q["vault"] / p) for p in row["source_paths"]]
                fact = row["intent"] == "FACT"
                alignments = align_citations(text, texts, row["q"], fact).alignments
            gold = set(q.get("gold") or [])
            for a in alignments:
                if a.action not in ("added", "replaced"):
                    continue
                now = row["source_paths"][a.source - 1] in gold
                was = any(row["source_paths"][n - 1] in gold for n in a.cited if n <= 5)
                changes["to gold" if now else "to other"] += 1
                changes["from gold"] += was and not now
                print(
                    f"{row['id']} {a.action} {list(a.cited)} -> {a.source} "
                    f"({'gold' if now else 'not gold'}): {a.sentence[:80]}"
                )
                print(f"    support: {a.support[:100]}")
            marked = any(a.action == "unsupported" for a in alignments)
            withheld = row["intent"] == "FACT" and unsupported_throughout(alignments)
            if q["kind"] == "unanswerable":
                counts["unanswerable"] += 1
                counts["told"] += bool(
                    withheld or model_said or row["unsupported_figures"] or marked
                )
            elif any(re.search(e, text, re.IGNORECASE) for e in q["expect"]):
                counts["right"] += 1
                counts["withheld"] += withheld
                counts["marked"] += marked and not withheld
    print(json.dumps({"citations changed": changes, **counts}))


if __name__ == "__main__":
    main(sys.argv[1:])
