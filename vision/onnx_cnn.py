"""The letter CNN run by onnxruntime, where it is installed: the same network and weights as
:func:`vision.letters.cnn_forward`, about three times faster on one core.

numpy reads a 28x28 glyph through the two convolutions in ~0.085 ms (im2col copies and skinny
matrix products); onnxruntime's convolutions take ~0.03 ms.  On a first frame that is ~10 ms of
the reader's ~50.  onnxruntime is optional: it has wheels for PCs and 64-bit Raspberry Pi OS,
not for 32-bit ARM, where the numpy path reads the same letters (the two agree to float
rounding, ~1e-5 on a logit; tests compare them).

onnxruntime is imported only once a process has read ``START_AFTER_ROWS`` glyphs with numpy:
its import and sessions cost ~130 ms, the saving of ~1,700 glyphs, so a one-shot ``vision read``
of one photo (~150 glyphs) stays with numpy and a camera game, a replay or the app (~150 a
first frame, tens a move after) switches within its first dozen frames.

No model file: the network is written as an ONNX graph from the weights already loaded
(``vision/models/*.npz``), by the few lines of protobuf encoding below, so there is one set of
weights to train, commit and keep in step, and no ``onnx`` package to install.

Set ``TC_NUMPY_CNN=1`` to read with numpy even where onnxruntime is installed (benchmarks
compare the two that way).
"""

from __future__ import annotations

import importlib.util
import os

import numpy as np

GLYPH = 28
START_AFTER_ROWS = 2000     # glyphs read with numpy in this process before onnxruntime is started

_rows_read = 0


def available() -> bool:
    """Whether letters can be read by onnxruntime here (installed and not switched off)."""
    return os.environ.get("TC_NUMPY_CNN", "") in ("", "0") and importlib.util.find_spec("onnxruntime") is not None


def worth_starting(rows: int) -> bool:
    """Count ``rows`` glyphs about to be read with numpy; True once this process has read
    enough of them that onnxruntime's start pays (see the module docstring)."""
    global _rows_read
    _rows_read += rows
    return _rows_read > START_AFTER_ROWS


# --------------------------------------------------------------------------- protobuf

# ONNX is protobuf; a graph needs only varints, length-delimited fields and packed floats.
# Field numbers are those of onnx/onnx.proto (ModelProto, GraphProto, NodeProto, ...).

def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _key(field: int, wire: int) -> bytes:
    return _varint(field << 3 | wire)


def _int(field: int, n: int) -> bytes:
    return _key(field, 0) + _varint(n)


def _bytes(field: int, data: bytes | str) -> bytes:
    if isinstance(data, str):
        data = data.encode()
    return _key(field, 2) + _varint(len(data)) + data


_FLOAT = 1                             # TensorProto.DataType
_ATTR_INT, _ATTR_INTS = 2, 7           # AttributeProto.AttributeType


def _tensor(name: str, a: np.ndarray) -> bytes:
    """A float32 TensorProto: dims (1), data_type (2), name (8), raw_data (9, little-endian)."""
    raw = np.ascontiguousarray(a, "<f4").tobytes()
    return b"".join(_int(1, d) for d in a.shape) + _int(2, _FLOAT) + _bytes(8, name) + _bytes(9, raw)


def _attr(name: str, value: int | list[int]) -> bytes:
    """AttributeProto: name (1), i (3), ints (8), type (20)."""
    if isinstance(value, int):
        return _bytes(1, name) + _int(3, value) + _int(20, _ATTR_INT)
    return _bytes(1, name) + b"".join(_int(8, v) for v in value) + _int(20, _ATTR_INTS)


def _node(op: str, inputs: list[str], outputs: list[str], **attrs) -> bytes:
    """NodeProto: input (1), output (2), op_type (4), attribute (5)."""
    body = b"".join(_bytes(1, s) for s in inputs) + b"".join(_bytes(2, s) for s in outputs)
    body += _bytes(4, op) + b"".join(_bytes(5, _attr(k, v)) for k, v in attrs.items())
    return body


def _value_info(name: str, dims: list[int | str]) -> bytes:
    """ValueInfoProto of a float tensor; a str dim is symbolic (the batch)."""
    shape = b"".join(_bytes(1, _bytes(2, d) if isinstance(d, str) else _int(1, d)) for d in dims)
    tensor_type = _int(1, _FLOAT) + _bytes(2, shape)
    return _bytes(1, name) + _bytes(2, _bytes(1, tensor_type))


def cnn_graph(params: dict, channels: int = 1, side: int = GLYPH, name: str = "letters",
              hidden: bool = True) -> bytes:
    """The ONNX model (serialised ModelProto) of :func:`vision.letters.cnn_forward`'s network
    for ``params``: inputs ``x`` (N, channels, side, side) and ``meta`` (N, meta width); outputs
    ``logits`` and, with ``hidden``, ``hidden`` (the hidden layer, what per-set prototypes
    compare).  The square model's second look (``vision.read.SquareModel.look``) is the same
    network over 9 channels of 24 px."""
    k1, k2 = params["k1"], params["k2"]            # (25*C, C1), (9*C1, C2): patch rows (ky, kx, c)
    c1, c2 = k1.shape[1], k2.shape[1]
    w1 = k1.reshape(5, 5, channels, c1).transpose(3, 2, 0, 1)     # (C1, C, 5, 5)
    w2 = k2.reshape(3, 3, c1, c2).transpose(3, 2, 0, 1)           # (C2, C1, 3, 3)
    inits = dict(w1=w1, b1=params["b1"], w2=w2, b2=params["b2"], w3=params["w3"], b3=params["b3"],
                 w4=params["w4"], b4=params["b4"], mmean=params["mmean"].reshape(1, -1),
                 mscale=(1.0 / params["mstd"]).reshape(1, -1))
    nodes = [
        _node("Conv", ["x", "w1", "b1"], ["a1"], kernel_shape=[5, 5], pads=[2, 2, 2, 2]),
        _node("Relu", ["a1"], ["r1"]),
        _node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
        _node("Conv", ["p1", "w2", "b2"], ["a2"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        _node("Relu", ["a2"], ["r2"]),
        _node("MaxPool", ["r2"], ["p2"], kernel_shape=[2, 2], strides=[2, 2]),
        # numpy's layout flattens (y, x, channel): the same order here, so w3 is used as it is
        _node("Transpose", ["p2"], ["t2"], perm=[0, 2, 3, 1]),
        _node("Flatten", ["t2"], ["f2"], axis=1),
        _node("Sub", ["meta", "mmean"], ["m1"]),
        _node("Mul", ["m1", "mscale"], ["m2"]),
        _node("Concat", ["f2", "m2"], ["f"], axis=1),
        _node("Gemm", ["f", "w3", "b3"], ["h0"]),
        _node("Relu", ["h0"], ["hidden"]),
        _node("Gemm", ["hidden", "w4", "b4"], ["logits"]),
    ]
    graph = b"".join(_bytes(1, n) for n in nodes) + _bytes(2, name)
    graph += b"".join(_bytes(5, _tensor(k, v)) for k, v in inits.items())
    graph += _bytes(11, _value_info("x", ["N", channels, side, side]))
    graph += _bytes(11, _value_info("meta", ["N", params["mmean"].size]))
    graph += _bytes(12, _value_info("logits", ["N", params["w4"].shape[1]]))
    if hidden:
        graph += _bytes(12, _value_info("hidden", ["N", params["w3"].shape[1]]))
    opset = _bytes(1, "") + _int(2, 13)                       # OperatorSetIdProto: domain, version
    return _int(1, 8) + _bytes(2, "table-companion") + _bytes(7, graph) + _bytes(8, opset)


def _session(model: bytes):
    import onnxruntime as ort         # here, not at the top: ~100 ms, paid only when used

    opts = ort.SessionOptions()
    # one core, as the reader's figures are measured; no spinning threads left behind
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    opts.log_severity_level = 3
    return ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])


class OnnxCNN:
    """An onnxruntime session of the letter CNN on one core; call it like ``cnn_forward``."""

    def __init__(self, params: dict):
        self.session = _session(cnn_graph(params))

    def __call__(self, images: np.ndarray, meta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        b = len(images)
        x = np.ascontiguousarray(images, np.float32).reshape(b, 1, GLYPH, GLYPH)
        logits, hidden = self.session.run(["logits", "hidden"],
                                          {"x": x, "meta": np.ascontiguousarray(meta, np.float32)})
        return logits, hidden


class OnnxLook:
    """An onnxruntime session of the square model's second look (``SquareModel.look``): the
    letter CNN's network over the squares' 9-channel pictures; call it with the pictures
    (n, side, side, 9) and meta rows, get the logits."""

    def __init__(self, params: dict, side: int, channels: int):
        self.session = _session(cnn_graph(params, channels, side, "look", hidden=False))

    def __call__(self, pictures: np.ndarray, meta: np.ndarray) -> np.ndarray:
        x = np.ascontiguousarray(np.asarray(pictures, np.float32).transpose(0, 3, 1, 2))
        return self.session.run(["logits"], {"x": x, "meta": np.ascontiguousarray(meta, np.float32)})[0]


def session_for(params: dict, look: tuple[int, int] | None = None) -> OnnxCNN | OnnxLook | None:
    """An :class:`OnnxCNN` for ``params`` (with ``look``, the second look's (side, channels): an
    :class:`OnnxLook`) where onnxruntime is available and starts, else None (numpy reads: an
    installed onnxruntime that cannot load -- a library too old for its wheel, a damaged
    install -- costs speed, never a reading)."""
    if not available():
        return None
    try:
        return OnnxCNN(params) if look is None else OnnxLook(params, *look)
    except Exception:       # ImportError, OSError, onnxruntime's own errors: all mean "not here"
        return None

