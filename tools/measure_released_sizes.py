#!/usr/bin/python3
"""Measures what the released Hermes code sends over the wire, for the "released-code" accounting.

The released code (GitHub DaSH-Lab-CSIS/Hermes, helper/Communication.py) sends each chunk as
gzip.compress(pickle.dumps({"x_train": x, "y_train": y})) with x the chunk's pixels as float32
scaled to [0, 1] and y its labels one-hot as float32 (examples/master.py prepares them so). The
simulator charges a chunk in the clean accounting as its pixels in float32 plus one label byte
per sample; this script prints, per dataset, the ratio of the gzipped pickle's size to that, over
random chunks of the default size. scenarios/README.md ("transfers") records the figures, and
sim/scenario/transfers_section.cc uses them as defaults.

With --h5 it instead writes, with h5py, an HDF5 file of the layout Keras 2's model.save(...h5)
gives the paper's MLP (784-128-64-10, SGD, mixed_bfloat16 policy): root attributes keras_version,
backend, model_config and training_config (JSON); a model_weights group with a group per layer
holding its kernel and bias as float32 datasets; an optimizer_weights group with SGD's iteration
counter. It prints the file's size beyond the 4-byte weights. TensorFlow is not needed (nor
installed here): the layout is Keras' (keras/saving/legacy/hdf5_format.py), the values are zeros.

Usage: /usr/bin/python3 tools/measure_released_sizes.py [DATA_DIR] [--chunks N] [--size B]
       /usr/bin/python3 tools/measure_released_sizes.py --h5
(needs numpy, and h5py for --h5: Debian's python3-h5py; DATA_DIR defaults to ../shared/data
beside the repository).
"""
import argparse
import gzip
import os
import pickle
import sys

import numpy as np


def idx_images(path):
    with gzip.open(path, "rb") as f:
        raw = f.read()
    n, rows, cols = (int.from_bytes(raw[i:i + 4], "big") for i in (4, 8, 12))
    return np.frombuffer(raw, np.uint8, offset=16).reshape(n, rows * cols)


def idx_labels(path):
    with gzip.open(path, "rb") as f:
        raw = f.read()
    return np.frombuffer(raw, np.uint8, offset=8)


def cifar_batches(folder):
    xs, ys = [], []
    for i in range(1, 6):
        with gzip.open(os.path.join(folder, f"data_batch_{i}.bin.gz"), "rb") as f:
            rec = np.frombuffer(f.read(), np.uint8).reshape(-1, 3073)
        ys.append(rec[:, 0])
        xs.append(rec[:, 1:])
    return np.concatenate(xs), np.concatenate(ys)


def datasets(data_dir):
    mnist = os.path.join(data_dir, "mnist")
    if os.path.isdir(mnist):
        yield "mnist", idx_images(os.path.join(mnist, "train-images-idx3-ubyte.gz")), idx_labels(
            os.path.join(mnist, "train-labels-idx1-ubyte.gz"))
    fashion = "/usr/share/datasets/fashion-mnist"
    if os.path.isdir(fashion):
        yield "fashion-mnist", idx_images(os.path.join(
            fashion, "train-images-idx3-ubyte.gz")), idx_labels(
                os.path.join(fashion, "train-labels-idx1-ubyte.gz"))
    cifar = os.path.join(data_dir, "cifar-10")
    if os.path.isdir(cifar):
        x, y = cifar_batches(cifar)
        yield "cifar10", x, y


def dense_config(name, units, activation):
    return {"class_name": "Dense", "config": {
        "name": name, "trainable": True,
        "dtype": {"class_name": "Policy", "config": {"name": "mixed_bfloat16"}},
        "units": units, "activation": activation, "use_bias": True,
        "kernel_initializer": {"class_name": "GlorotUniform", "config": {"seed": None}},
        "bias_initializer": {"class_name": "Zeros", "config": {}},
        "kernel_regularizer": None, "bias_regularizer": None, "activity_regularizer": None,
        "kernel_constraint": None, "bias_constraint": None}}


def h5_overhead():
    import json
    import tempfile
    import h5py
    layers = [("dense", 784, 128, "relu"), ("dense_1", 128, 64, "relu"),
              ("dense_2", 64, 10, "softmax")]
    config = {"class_name": "Sequential", "config": {"name": "sequential", "layers": [
        {"class_name": "InputLayer", "config": {"batch_input_shape": [None, 784, 1],
                                                "dtype": "float32", "sparse": False,
                                                "ragged": False, "name": "flatten_input"}},
        {"class_name": "Flatten", "config": {
            "name": "flatten", "trainable": True,
            "dtype": {"class_name": "Policy", "config": {"name": "mixed_bfloat16"}},
            "batch_input_shape": [None, 784, 1], "data_format": "channels_last"}}] + [
        dense_config(n, u, a) for n, _, u, a in layers]}}
    training = {"loss": "categorical_crossentropy", "metrics": [[{
        "class_name": "MeanMetricWrapper", "config": {"name": "accuracy", "dtype": "float32",
                                                      "fn": "categorical_accuracy"}}]],
        "weighted_metrics": None, "loss_weights": None, "optimizer_config": {
            "class_name": "SGD", "config": {"name": "SGD", "learning_rate": 0.1, "decay": 0.0,
                                            "momentum": 0.0, "nesterov": False}}}
    weights = 0
    with tempfile.NamedTemporaryFile(suffix=".h5") as tmp:
        with h5py.File(tmp.name, "w") as f:
            f.attrs["keras_version"] = "2.12.0"
            f.attrs["backend"] = "tensorflow"
            f.attrs["model_config"] = json.dumps(config)
            f.attrs["training_config"] = json.dumps(training)
            mw = f.create_group("model_weights")
            names = ["flatten"] + [n for n, *_ in layers]
            mw.attrs["layer_names"] = [n.encode() for n in names]
            mw.attrs["backend"] = "tensorflow"
            mw.attrs["keras_version"] = "2.12.0"
            mw.create_group("flatten").attrs["weight_names"] = []
            for n, fan_in, units, _ in layers:
                g = mw.create_group(n)
                g.attrs["weight_names"] = [f"{n}/kernel:0".encode(), f"{n}/bias:0".encode()]
                sub = g.create_group(n)
                sub.create_dataset("kernel:0", data=np.zeros((fan_in, units), np.float32))
                sub.create_dataset("bias:0", data=np.zeros((units,), np.float32))
                weights += 4 * (fan_in * units + units)
            ow = f.create_group("optimizer_weights")
            ow.attrs["weight_names"] = [b"SGD/iter:0"]
            ow.create_group("SGD").create_dataset("iter:0", data=np.int64(0))
        size = os.path.getsize(tmp.name)
    print(f"h5py {h5py.__version__}, HDF5 {h5py.version.hdf5_version}: file {size} bytes, "
          f"weights {weights} bytes, overhead {size - weights} bytes")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data_dir", nargs="?", default=os.path.join(here, "..", "..", "shared", "data"))
    ap.add_argument("--chunks", type=int, default=8, help="random chunks per dataset (8)")
    ap.add_argument("--size", type=int, default=2500, help="samples per chunk (2500)")
    ap.add_argument("--h5", action="store_true", help="measure the .h5 model file's overhead")
    args = ap.parse_args()
    if args.h5:
        h5_overhead()
        return
    rng = np.random.default_rng(1)
    found = False
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, pickle protocol "
          f"{pickle.DEFAULT_PROTOCOL}, gzip level 9; {args.chunks} chunks of {args.size}")
    for name, x, y in datasets(args.data_dir):
        found = True
        ratios = []
        for _ in range(args.chunks):
            pick = rng.choice(len(x), args.size, replace=False)
            xs = x[pick].astype(np.float32) / 255.0
            ys = np.eye(10, dtype=np.float32)[y[pick]]
            sent = len(gzip.compress(pickle.dumps({"x_train": xs, "y_train": ys})))
            clean = args.size * (x.shape[1] * 4 + 1)
            ratios.append(sent / clean)
        print(f"{name}: gzipped pickle / clean chunk bytes = {np.mean(ratios):.4f} "
              f"(min {min(ratios):.4f}, max {max(ratios):.4f})")
    if not found:
        sys.exit(f"no dataset under {args.data_dir}")


if __name__ == "__main__":
    main()
