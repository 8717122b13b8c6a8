"""The whole-vault layout kept between starts (`core/graph/layout_cache.py`)."""

from __future__ import annotations

from mindnet_desktop.core.graph.layout_cache import LAYOUT_FILE, load_layout, save_layout


def test_positions_read_back_as_saved_and_a_broken_file_is_no_cache(tmp_path):
    path = tmp_path / LAYOUT_FILE
    assert load_layout(path) is None
    positions = {"A/Note": (1.5, -2.25), "B": (0.0, 70.0)}
    save_layout(path, positions)
    assert load_layout(path) == positions
    path.write_bytes(b"not a pickle")
    assert load_layout(path) is None
    save_layout(tmp_path / "missing-dir" / LAYOUT_FILE, positions)  # no data dir: none kept
