"""The whole vault's layout is saved and the next start lays out from it (issue 32: the
whole-vault view usable within 3 s, its layout cached between starts)."""

from __future__ import annotations

from mindnet_desktop.ui.graph import layout, ops


class FakeJob:
    def cancelled(self) -> bool:
        return False


def test_a_second_start_takes_the_saved_positions_without_laying_out_again(tmp_path, monkeypatch):
    ids = [f"N{i}" for i in range(40)]
    pairs = [(ids[i], ids[(i + 1) % 40]) for i in range(40)] + [("N0", "N20")]
    cache = tmp_path / "graph.layout"
    first, _ = ops.lay_out(FakeJob(), ids=ids, pairs=pairs, previous={}, cache=cache)
    assert cache.exists()

    def no_layout(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("laid out again although the positions were saved")

    monkeypatch.setattr(layout, "_component_layout", no_layout)
    again, _ = ops.lay_out(FakeJob(), ids=ids, pairs=pairs, previous={}, cache=cache)
    assert again == first
    # One note more: the saved positions stay, the new note is placed beside its neighbour.
    more, _ = ops.lay_out(
        FakeJob(), ids=[*ids, "New"], pairs=[*pairs, ("New", "N3")], previous={}, cache=cache
    )
    assert all(more[n] == first[n] for n in ids) and "New" in more
    # Without a cache (a neighbourhood), nothing is read or kept.
    monkeypatch.undo()
    ops.lay_out(FakeJob(), ids=ids[:5], pairs=pairs[:4], previous={}, cache=None)
    assert ops.load_layout(cache) == more
