"""Row vectors as the chunk snapshot writes and reads them: scaled to unit length, written
to a `.npy` file block by block (the whole matrix is never held), and summed per note into
each note's vector."""

from __future__ import annotations

import io
import os
from typing import IO

import numpy as np


def unit_rows(block: np.ndarray) -> np.ndarray:
    """`block`'s rows scaled to unit length in place (zero rows stay zero)."""
    norms = np.sqrt(np.einsum("ij,ij->i", block, block))
    norms[norms == 0] = 1.0
    block /= norms[:, None]
    return block


class VectorFile:
    """A float32 `.npy` matrix written row block by row block into `handle`; its header,
    which holds the number of rows, is written again when the last block is in."""

    def __init__(self, handle: IO[bytes]) -> None:
        self._handle = handle
        self._rows = 0
        self._width: int | None = None

    def write(self, block: np.ndarray) -> None:
        if self._width is None:
            self._width = block.shape[1]
            self._handle.write(npy_header((0, self._width)))
        self._handle.write(np.ascontiguousarray(block, dtype=np.float32).tobytes())
        self._rows += len(block)

    def close(self) -> None:
        if self._width is None:  # no chunks: an empty matrix
            np.save(self._handle, np.zeros((0, 0), np.float32))
            return
        header = npy_header((self._rows, self._width))
        if len(header) != len(npy_header((0, self._width))):  # padded to 64 bytes: never
            raise OSError("the chunk snapshot's vector header changed length")
        self._handle.seek(0)
        self._handle.write(header)
        self._handle.seek(0, os.SEEK_END)


def npy_header(shape: tuple[int, int]) -> bytes:
    buffer = io.BytesIO()
    descr = np.lib.format.dtype_to_descr(np.dtype(np.float32))
    np.lib.format.write_array_header_1_0(
        buffer, {"descr": descr, "fortran_order": False, "shape": shape}
    )
    return buffer.getvalue()


class NoteSums:
    """Each note's rows summed as the pages come (a note's rows may span pages or lie
    apart); `matrix()`: every note's vector, unit length, in the order of the sorted ids."""

    def __init__(self) -> None:
        self._slots: dict[str, int] = {}
        self._sums = np.zeros((0, 0), np.float32)

    def add(self, owners: list[str], block: np.ndarray) -> None:
        slots = np.fromiter(
            (self._slots.setdefault(o, len(self._slots)) for o in owners), np.int64, len(owners)
        )
        if len(self._slots) > len(self._sums):
            rows = max(2 * len(self._sums), len(self._slots))
            grown = np.zeros((rows, block.shape[1]), dtype=np.float32)
            if len(self._sums):
                grown[: len(self._sums)] = self._sums
            self._sums = grown
        starts = np.flatnonzero(np.concatenate([[True], slots[1:] != slots[:-1]]))
        np.add.at(self._sums, slots[starts], np.add.reduceat(block, starts, axis=0))

    def note_ids(self) -> list[str]:
        return sorted(self._slots)

    def matrix(self) -> np.ndarray:
        if not self._slots:
            return np.zeros((0, 0), np.float32)
        order = [self._slots[n] for n in self.note_ids()]
        return unit_rows(self._sums[order])  # a copy: the sums stay as they are


def mean_note_vectors(note_ids: list[str], matrix: np.ndarray) -> tuple[list[str], np.ndarray]:
    """The sorted note ids of `note_ids` (one per row of `matrix`) and each note's vector:
    the mean of its rows, unit length."""
    if not len(note_ids):
        return [], np.zeros((0, matrix.shape[1] if matrix.ndim == 2 else 0))
    owners = np.asarray(note_ids, dtype=object)
    runs = np.flatnonzero(np.concatenate([[True], owners[1:] != owners[:-1]]))
    if len(set(owners[runs])) == len(runs):
        # Each note's rows lie together (as the store pages them): summed where they lie,
        # then the notes sorted, instead of copying the whole matrix into note order.
        sums = np.add.reduceat(np.asarray(matrix, dtype=np.float32), runs, axis=0)
        by_id = np.argsort(owners[runs], kind="stable")
        notes, sums = owners[runs][by_id], sums[by_id]
    else:
        notes, inverse = np.unique(owners, return_inverse=True)
        order = np.argsort(inverse, kind="stable")
        starts = np.searchsorted(inverse[order], np.arange(len(notes)))
        sums = np.add.reduceat(np.asarray(matrix[order], dtype=np.float32), starts, axis=0)
    return [str(n) for n in notes], unit_rows(sums)
