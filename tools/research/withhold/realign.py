"""Re-align stored `bench answers --json` answers with the current code and count, for two
withholding rules, the unanswerable questions told and the right answers withheld or marked
(a claim underlined as not found in the notes).

    python tools/research/withhold/realign.py docs/bench-answers-dev-answers-150.json \
        docs/bench-answers-dev-fresh.json

A right answer is one whose text (the draft when it was withheld) matches an expected regex.
"Told" counts the model's own "not found", a figure no source holds, a marked claim or a
withheld answer. Rule `all-weak`: every claim weak or unsupported; `one-unsupported` (shipped):
that, and one claim unsupported.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from mindnet_desktop.core.chat.align import align_citations  # noqa: E402
from mindnet_desktop.core.chat.stages import unsupported_throughout  # noqa: E402
from mindnet_desktop.core.ingest.parse import parse_markdown  # noqa: E402

SETS = ("answers", "fresh")
RULES = {
    "all-weak": lambda a: bool(a) and all(x.action in ("weak", "unsupported") for x in a),
    "one-unsupported": unsupported_throughout,  # what ships
}


def note_text(path: Path) -> str:
    if not path.is_file():
        return ""
    text = path.read_text(encoding="utf-8")
    return parse_markdown(path.name, text, "").body if path.suffix == ".md" else text


def main(files: list[str]) -> None:
    questions = {
        q["id"]: q
        for name in SETS
        for q in yaml.safe_load((ROOT / f"resources/qa/chat/{name}.yaml").read_text())["questions"]
    }
    totals = {
        rule: {"unanswerable": 0, "told": 0, "right": 0, "withheld": 0, "marked": 0}
        for rule in RULES
    }
    for file in files:
        rows = json.loads(Path(file).read_text())["models"]["default"]["rows"]
        for row in rows:
            q = questions[row["id"]]
            text = row.get("draft_answer") or row["answer"]
            model_said = row["not_found"] and not row.get("draft_answer")
            texts = [note_text(ROOT / q["vault"] / p) for p in row["source_paths"]]
            fact = row["intent"] == "FACT"
            aligned = None if model_said else align_citations(text, texts, row["q"], fact)
            alignments = aligned.alignments if aligned else []
            marked = any(a.action == "unsupported" for a in alignments)
            for rule, withholds in RULES.items():
                withheld = fact and withholds(alignments)
                count = totals[rule]
                if q["kind"] == "unanswerable":
                    count["unanswerable"] += 1
                    told = withheld or model_said or row["unsupported_figures"] or marked
                    count["told"] += bool(told)
                elif any(re.search(e, text, re.IGNORECASE) for e in q["expect"]):
                    count["right"] += 1
                    count["withheld"] += withheld
                    count["marked"] += marked and not withheld
    for rule, count in totals.items():
        print(
            f"{rule}: unanswerable told {count['told']} of {count['unanswerable']}, "
            f"right answers withheld {count['withheld']} of {count['right']}, "
            f"marked {count['marked']}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
