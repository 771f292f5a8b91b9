#!/usr/bin/env python
"""Benchmark: one pair of a chain (`neighbours.chain_geometry` with the deeper layer's distances kept), float32 product
settled in float64 (the CPU's default) against the float64 product, on the same batches (issue 58, the pair lever).

Run:  python bench/bench_chain.py [--tokens 4096] [--k 30] [--repeat 3] [--layers 0,1,2,15,29,30]

Not a test; never run in CI. Each pair (l, l + 1) is timed as a profile runs it: layer l's `PairDistances` formed
beforehand (by the previous pair) and passed as `before`, so one matrix is formed per pair. Cases:

* SmolLM2-135M's hidden states (d = 576) of `--tokens` tokens of the offline Wikipedia sample, windows of 512, for
  the pairs that start at `--layers` (0: the embeddings, 31: the final norm);
* Gaussian: 4,096 x 576 float32 points with a large offset, and a noisy tanh of them.

Prints per pair the best seconds of each precision over `--repeat` runs, their ratio, and whether the three numbers
are equal bit for bit (they must be). The header gives the load average: above the thread count, something else
shared the cores and the times are suspect.
"""
from __future__ import annotations
import argparse, os, time

import numpy as np
import torch

from shape_of_learning.neighbours import chain_geometry, pair_distances


def best(f, repeat):
    "(best seconds over `repeat` calls, the last result)."
    out, t_best = None, float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        out = f()
        t_best = min(t_best, time.perf_counter() - t)
    return t_best, out


def smollm2_states(tokens):
    "Every entry's hidden states (float32, tokens x 576) of `tokens` tokens of the offline Wikipedia sample."
    from shape_of_learning.models import load_model
    from shape_of_learning.hidden import layer_states
    from shape_of_learning.data import text_source
    model, tok, _ = load_model("smollm2")
    text = []
    for doc in text_source("wiki"):
        text.append(doc)
        if sum(map(len, text)) > 12 * tokens: break
    windows = tokens // 512
    ids = tok("\n".join(text), return_tensors="pt").input_ids[0][:windows * 512].reshape(windows, 512)
    return [s.reshape(-1, s.shape[-1]).float() for s in layer_states(model, ids).states]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokens", type=int, default=4096); ap.add_argument("--k", type=int, default=30)
    ap.add_argument("--repeat", type=int, default=3); ap.add_argument("--layers", default="0,1,2,15,29,30")
    a = ap.parse_args()
    print(f"bench_chain  torch {torch.__version__}  threads {torch.get_num_threads()}  tokens {a.tokens}  k {a.k}"
          f"  load avg {os.getloadavg()[0]:.1f}")
    g = torch.Generator().manual_seed(0)
    G = (torch.randn(4096, 40, generator=g) @ torch.randn(40, 576, generator=g) + 0.3 * torch.randn(4096, 576, generator=g) + 5).float()
    H = torch.tanh(G / 5 @ torch.randn(576, 576, generator=g) / 24) + 0.01 * torch.randn(4096, 576, generator=g)
    states = smollm2_states(a.tokens)
    cases = [("Gaussian + offset -> tanh", G, H)]
    cases += [(f"SmolLM2 {l} -> {l + 1}", states[l], states[l + 1]) for l in map(int, a.layers.split(","))]
    chain_geometry(G[:300], H[:300], a.k)                        # numba's kernels compiled (or read from the cache)
    print(f"\n{'pair':28s} {'float64 s':>10s} {'float32 s':>10s} {'ratio':>6s}  same numbers")
    totals = [0.0, 0.0]
    for name, A, B in cases:
        row, got = [], []
        for precision in ("float64", "float32"):
            before = pair_distances(A, a.k, precision=precision)
            t, (geometry, _) = best(lambda: chain_geometry(A, B, a.k, before=before), a.repeat)
            row.append(t); got.append((geometry.overlap, geometry.imbalance_forward, geometry.imbalance_backward))
        totals = [x + y for x, y in zip(totals, row)]
        print(f"{name:28s} {row[0]:10.3f} {row[1]:10.3f} {row[0] / row[1]:6.2f}  {got[0] == got[1]}")
    print(f"{'all pairs above':28s} {totals[0]:10.3f} {totals[1]:10.3f} {totals[0] / totals[1]:6.2f}")
    print(f"load avg at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
