#!/usr/bin/env python3
"""Fits the embedded analyzer's calibration: the scene classifier's 1280-d embedding of a
photo mapped to a careful person's 1-10 labels, one small linear model per category.

    make calibration        # = the two steps below
    cargo run --release -p setupiq-analyzer --example features -- ../shared/photos-extra > features.jsonl
    python3 scripts/fit-calibration.py features.jsonl crates/analyzer/data/calibration.json

Only the tuning split is read (the analyzer issue fixed it: every third setup by file
number, x03, x06, ..., x30, is validation and never seen here). For each category:

- the embedding is standardised with the tuning photos' mean and deviation;
- a ridge model is fitted on pairwise differences (a pairwise ranking loss: for every two
  tuning photos whose labels differ, the difference of their predictions should be the
  difference of their labels), plus the same on the labels themselves to anchor the level;
- the strength of the ridge penalty is chosen by leave-pair-out cross-validation on the
  tuning photos: each clear pair (3+ points apart) ordered by a model fitted without both
  of its photos; the most pairs right wins, then the strongest penalty; printed;
- the predictions are then stretched linearly so that, over the held-out predictions, they
  match the labels' level and spread (ridge shrinks towards the mean; this keeps the order
  and puts the scores back on the person's scale).

The weights are written folded (standardisation included) as plain JSON: score =
bias + weights . embedding, clamped to 1-10 by the analyzer. numpy is the only dependency.
"""

import json
import sys

import numpy as np

CATEGORIES = [
    "cable_management",
    "rgb_lighting",
    "desk_cleanliness",
    "monitor_setup",
    "chair_comfort",
    "aesthetic_vibe",
]
ALPHAS = [1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0]
CLEAR_GAP = 3.0
# How much of the rubric's own evidence score is mixed into the prediction.
SHARES = [0.6, 0.75]
NAMES = {
    "cable_management": "Cable Management",
    "rgb_lighting": "RGB/Lighting",
    "desk_cleanliness": "Desk Cleanliness",
    "monitor_setup": "Monitor Setup",
    "chair_comfort": "Chair & Comfort",
    "aesthetic_vibe": "Aesthetic Vibe",
}


def evidence_score(row, category):
    """The rubric's score from what it saw (the middle of the scale if it refused the photo)."""
    return float(row["rubric"].get(NAMES[category], 5))


def is_validation(file):
    """Every third setup by file number (x03, x06, ..., x30): the analyzer issue's split."""
    if not file.startswith("x") or not file[1:3].isdigit():
        return False
    return int(file[1:3]) % 3 == 0


def fit(x, y, alpha):
    """Ridge on the labels and on every pair's difference (x standardised), solved in its
    dual form (a few hundred rows instead of 1280 columns). Answers (w, b)."""
    n = len(y)
    i, j = np.triu_indices(n, 1)
    keep = y[i] != y[j]
    # Both terms weigh the same per photo: the pair term is averaged over pairs per photo.
    root = np.sqrt(n / max(int(keep.sum()), 1))
    z = np.vstack([x - x.mean(axis=0), root * (x[i[keep]] - x[j[keep]])])
    t = np.concatenate([y - y.mean(), root * (y[i[keep]] - y[j[keep]])])
    w = z.T @ np.linalg.solve(z @ z.T + alpha * np.eye(len(t)), t)
    b = y.mean() - x.mean(axis=0) @ w
    return w, b


def blended(prediction, evidence, share):
    """The prediction (clamped to the scale) mixed with the rubric's evidence score, before
    the analyzer rounds it (held-out predictions are not stretched yet: rounding them would
    tie pairs the stretched scores tell apart)."""
    return (1 - share) * np.clip(prediction, 1, 10) + share * evidence


def held_out_predictions(x, y, alpha):
    """Predictions of models fitted without the photos they predict: for each clear pair
    (better, worse, their predictions by a model fitted without both), and for each photo
    alone (for the stretch). They don't depend on the evidence share: made once per alpha."""
    everyone = np.arange(len(y))
    pairs = []
    for a in everyone:
        for b in everyone:
            if y[a] - y[b] >= CLEAR_GAP:
                w, c = fit(x[(everyone != a) & (everyone != b)], y[(everyone != a) & (everyone != b)], alpha)
                pairs.append((a, b, x[a] @ w + c, x[b] @ w + c))
    alone = np.empty(len(y))
    for k in everyone:
        w, c = fit(x[everyone != k], y[everyone != k], alpha)
        alone[k] = x[k] @ w + c
    return pairs, alone


def main():
    source, target = sys.argv[1], sys.argv[2]
    rows = [json.loads(line) for line in open(source) if line.strip()]
    tuning = [r for r in rows if r["labels"]["kind"] == "setup" and not is_validation(r["file"])]
    embedding = np.array([r["embedding"] for r in tuning], dtype=np.float64)
    mean = embedding.mean(axis=0)
    sd = embedding.std(axis=0) + 1e-6
    x_all = (embedding - mean) / sd

    out = {
        "about": "scripts/fit-calibration.py: ridge with a pairwise ranking loss from the scene "
        "classifier's embedding to a person's labels, fitted on the tuning split of "
        "../shared/photos-extra; score = bias + weights . embedding",
        "fitted_on": [r["file"] for r in tuning],
        "categories": {},
    }
    print(f"{len(tuning)} tuning photos; leave-pair-out cross-validation per category (each clear pair ordered by a model fitted without both photos)\n")
    print("| category | photos | alpha | evidence share | clear pairs right (held out) | RMSE (held out) |")
    print("|---|---|---|---|---|---|")
    for category in CATEGORIES:
        labelled = [k for k, r in enumerate(tuning) if r["labels"][category] not in ("na", "-")]
        x = x_all[labelled]
        y = np.array([float(tuning[k]["labels"][category]) for k in labelled])
        evidence = np.array([evidence_score(tuning[k], category) for k in labelled])
        best = None
        for alpha in ALPHAS:
            pairs, alone = held_out_predictions(x, y, alpha)
            rmse = float(np.sqrt(np.mean((alone - y) ** 2)))
            for share in SHARES:
                # Each clear pair ordered as the analyzer orders it: mixed with the evidence.
                right = sum(
                    int(blended(pa, evidence[a], share) > blended(pb, evidence[b], share))
                    for a, b, pa, pb in pairs
                )
                # The most pairs right; among equals, the least evidence mixed in and the
                # strongest penalty (the simplest model).
                key = (right, -share, alpha)
                if best is None or key > best[0]:
                    best = (key, alpha, alone, right, len(pairs), rmse, share)
        _, alpha, held_out, right, total, rmse, share = best
        # Stretch: the held-out predictions' level and spread onto the labels'.
        spread = held_out.std()
        scale = y.std() / spread if spread > 1e-9 else 1.0
        scale = float(np.clip(scale, 1.0, 4.0))
        w, b = fit(x, y, alpha)
        centre = float(held_out.mean())
        w_folded = scale * w / sd
        # score = y_mean + scale * (x_std @ w + b - centre), x_std = (e - mean) / sd
        b_folded = float(y.mean() + scale * (b - centre) - (mean @ w_folded))
        out["categories"][category] = {
            "alpha": alpha,
            "evidence_share": share,
            "photos": len(y),
            "cv_clear_pairs": [right, total],
            "cv_rmse": round(rmse, 3),
            "bias": b_folded,
            "weights": [float(v) for v in w_folded],
        }
        shown = f"{right}/{total}" if total else "-"
        print(f"| {category} | {len(y)} | {alpha:g} | {share:g} | {shown} | {rmse:.2f} |")
    with open(target, "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")
    print(f"\nwritten to {target}")


if __name__ == "__main__":
    main()
