"""A second look at a finished answer: the model is asked, in one step each, whether the
numbered notes it read state its answer and whether they answer the question at all. Each
check reads only a few tokens beyond the answer's prompt (llama.cpp keeps that prompt), and
yields the log-odds of "yes" against "no"; `prompts.yaml` sets the cut-off (`answer.second_look`
withholds an answer below it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mindnet_desktop.core.chat.grounding import CITED
from mindnet_desktop.core.models.llm import LlamaChat

ANSWER_CHECK = (
    "Check your answer against the numbered notes above. Do the notes state it (in their own "
    "words or with the same meaning)? Reply only yes or no."
)
QUESTION_CHECK = (
    'Do the numbered notes above state the answer to this question: "{question}"? '
    "Reply only yes or no."
)


@dataclass(frozen=True)
class Verification:
    """Log-odds of "yes" (positive: the model finds support) for the two checks."""

    answer: float  # do the notes state this answer?
    question: float  # do the notes answer this question?

    def to_dict(self) -> dict[str, Any]:
        return {"answer": round(self.answer, 2), "question": round(self.question, 2)}


def verify(llm: LlamaChat, messages: list[dict[str, str]], answer: str) -> Verification:
    """Both checks for `answer`, generated from `messages` (system prompt with the notes,
    history, question)."""
    bare = " ".join(CITED.sub("", answer).split())
    followed = [
        *messages,
        {"role": "assistant", "content": bare},
        {"role": "user", "content": ANSWER_CHECK},
    ]
    by_answer = llm.yes_no(followed)
    question = messages[-1]["content"]
    asked = [*messages[:-1], {"role": "user", "content": QUESTION_CHECK.format(question=question)}]
    return Verification(by_answer, llm.yes_no(asked))
