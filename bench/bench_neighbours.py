#!/usr/bin/env python
"""Benchmark: `pair_geometry` (neighbourhood overlap + information imbalances both ways) against one float64 Gram matrix.

Run:  python bench/bench_neighbours.py [--n 4096] [--dim 640] [--k 30] [--repeat 3] [--device cpu] [--threads N]

Not a test; never run in CI. The baseline is one float64 Gram matrix `X @ X.T` of the same batch (X = A in float64,
converted outside the timer), measured in the same run. `pair_geometry` needs one squared distance matrix per
representation, each about the cost of a Gram matrix, so a ratio near 2 is the floor; the rest is the per-row work
(top-k, overlap, mid-ranks, the tie rule). The pairs are float32, seeded:

* related: B = A + 0.5 * noise (like two consecutive layers: neighbourhoods mostly kept);
* independent: B drawn independently of A (every rank counted over a whole row);
* copies: both rows drawn from a vocabulary of 1,000 vectors with Zipf-distributed ids, as at layer 0 (token
  embeddings): exact copies and ties everywhere, so the tie rule takes its dense paths.

Prints per case: the best time of `pair_geometry` and of the Gram matrix over `--repeat` runs, their ratio, and the
three numbers. The header gives versions, threads and the load average: if the load average is well above the thread
count, something else shared the cores and the ratios are suspect.
"""
from __future__ import annotations
import argparse, os, platform, time

import numpy as np
import torch

from shape_of_learning.neighbours import pair_geometry


def pairs(n, dim, seed=0):
    "The three float32 pairs (A, B) described in the module docstring."
    g = torch.Generator().manual_seed(seed)
    A = torch.randn(n, dim, generator=g)
    ids = lambda: torch.from_numpy(np.random.default_rng(seed).zipf(1.3, size=n) % 1000)
    vocab = torch.randn(1000, dim, generator=g)
    return {"related": (A, A + 0.5 * torch.randn(n, dim, generator=g)),
            "independent": (A, torch.randn(n, dim, generator=g)),
            "copies": (vocab[ids()], (vocab + 0.1 * torch.randn(1000, dim, generator=g))[ids()])}


def best(f, repeat, sync):
    "Best wall time of `f()` over `repeat` runs (after one warm-up run), and its last result."
    out = f(); sync()
    times = []
    for _ in range(repeat):
        t = time.perf_counter(); out = f(); sync()
        times.append(time.perf_counter() - t)
    return min(times), out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=4096); ap.add_argument("--dim", type=int, default=640)
    ap.add_argument("--k", type=int, default=30); ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--device", default="cpu"); ap.add_argument("--threads", type=int, default=None)
    a = ap.parse_args()
    if a.threads: torch.set_num_threads(a.threads)
    dev = torch.device(a.device)
    sync = (lambda: torch.cuda.synchronize(dev)) if dev.type == "cuda" else (lambda: None)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"bench_neighbours: n={a.n} dim={a.dim} k={a.k} repeat={a.repeat} device={dev} | torch {torch.__version__} "
          f"numpy {np.__version__} python {platform.python_version()} | threads {torch.get_num_threads()} | load {load:.2f}")
    print(f"{'case':12s} {'pair_geometry s':>16s} {'gram f64 s':>11s} {'ratio':>6s} {'overlap':>8s} {'D(A->B)':>8s} {'D(B->A)':>8s}")
    for name, (A, B) in pairs(a.n, a.dim).items():
        A, B = A.to(dev), B.to(dev)
        X = A.double()
        t_pair, g = best(lambda: pair_geometry(A, B, k=a.k), a.repeat, sync)
        t_gram, _ = best(lambda: X @ X.T, a.repeat, sync)
        print(f"{name:12s} {t_pair:16.3f} {t_gram:11.3f} {t_pair / t_gram:6.2f} {g.overlap:8.4f} "
              f"{g.imbalance_forward:8.4f} {g.imbalance_backward:8.4f}")
    end = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average at the end {end:.2f}")


if __name__ == "__main__":
    main()
