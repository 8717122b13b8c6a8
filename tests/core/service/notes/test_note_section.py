"""`note_section`: one section of a note by its heading (the MCP `get_note` tool)."""

from __future__ import annotations

from mindnet_desktop.core.service.notes.text import note_section

BODY = (
    "# Titel\nIntro\n## Ursache\nFach 2\n```\n# kein Titel\n```\n"
    "### Detail\nRolle\n## Lehre\nEnde\n"
)


def test_a_section_runs_to_the_next_heading_of_its_level() -> None:
    assert (
        note_section(BODY, "ursache")
        == "## Ursache\nFach 2\n```\n# kein Titel\n```\n### Detail\nRolle"
    )
    assert note_section(BODY, "## Lehre") == "## Lehre\nEnde"
    assert note_section(BODY, "Detail") == "### Detail\nRolle"
    assert note_section(BODY, "Titel") == BODY.rstrip()


def test_no_section_for_an_unknown_heading_or_one_inside_code() -> None:
    assert note_section(BODY, "Fehlt") is None
    assert note_section(BODY, "kein Titel") is None
