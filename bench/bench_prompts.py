#!/usr/bin/env python
"""Benchmark: a prompt profile's metrics, one cloud at a time on the host against a forward batch at once on the device (issue 50).

    python bench/bench_prompts.py --clouds 32 --n 1024 --d 768 --device cuda     # Viswanathan et al.'s prompts (GPT-2 width)
    python bench/bench_prompts.py --clouds 32 --n 1024 --d 768 --device cuda --parts --group 32
    python bench/bench_prompts.py --clouds 8 --n 256 --d 576 --device cpu          # smoke run: the batched path on the CPU

Random clouds shaped like hidden states (a 20-dimensional Gaussian on a random orthonormal frame in d dimensions, noise,
a large common offset; float32, seeded) are measured the two ways `prompt_profile` can:

- per cloud: each cloud brought to the host (`.cpu()`) and measured by `prompts.window_rows` in one thread (`one_thread`):
  today's path, and still the CPU's default;
- batched: `--group` clouds at a time (one forward batch at one layer; `PromptSpec.forward_batch` is 8) measured by
  `prompts.batched_window_rows` on the device: batched kNN, tolerance, Gram eigenvalues and turning angles there, the GRIDE
  fits on the host.

Each path is timed after one warm-up (numba's compilation, CUDA's start), best of `--repeat`, synchronized. Printed:
seconds per cloud of each, the ratio per cloud / batched (the speed-up), both projected to the paper's configuration
(`--paper-clouds`, about 125,000 clouds: 2,244 prompts x 12-14 entries x two models x text and shuffle), the largest
relative difference of the rows per metric (on the CPU: GRIDE 0, curvature <= 1e-12, entropy <= 1e-10; on a GPU the
eigensolver and the kNN re-rank kernel differ, so the differences are printed, not asserted), and which clouds fell back
to a per-cloud function. `--parts` also times the batched pieces alone on one group (each synchronized): what is left
of the batched time is the host (the GRIDE fits, the rows). Not a test: never run in CI.
"""
import argparse, math, os, time
import numpy as np, pandas as pd, torch
from shape_of_learning.prompts import (PromptSpec, window_rows, batched_window_rows, batched_gram_eigenvalues,
                                       batched_turning_angles, one_thread)
from shape_of_learning.knn import batched_knn
from shape_of_learning.engine import batched_tolerance


def clouds_like_states(W, n, d, seed=0):
    "W clouds (W, n, d) float32: a 20-dimensional Gaussian on a random frame, 1e-2 isotropic noise, a common offset of norm ~30."
    g = torch.Generator().manual_seed(seed)
    r = min(20, d)
    frame = torch.linalg.qr(torch.randn(d, r, generator=g, dtype=torch.float64))[0]
    offset = 30 * torch.randn(d, generator=g, dtype=torch.float64) / math.sqrt(d)
    X = torch.randn(W, n, r, generator=g, dtype=torch.float64) @ frame.T + 1e-2 * torch.randn(W, n, d, generator=g, dtype=torch.float64)
    return (X + offset).float()


def rows_difference(a, b):
    "Largest relative difference per metric between two row lists (the same rows in the same order)."
    A, B = pd.DataFrame(a), pd.DataFrame(b)
    assert A.metric.tolist() == B.metric.tolist(), "the two paths gave different rows"
    out = {}
    for metric, cols in (("gride", ["value", "err", "scale"]), ("entropy", ["value"]), ("curvature", ["value"])):
        x, y = (t.loc[t.metric == metric, cols].to_numpy(float) for t in (A, B))
        out[metric] = float(np.max(np.abs(x - y) / np.abs(y)))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clouds", type=int, default=32, help="clouds in all (default 32)")
    ap.add_argument("--n", type=int, default=1024, help="points per cloud (default 1024)")
    ap.add_argument("--d", type=int, default=768, help="dimensions (default 768)")
    ap.add_argument("--group", type=int, default=8, help="clouds per batched call: one forward batch at one layer (default 8)")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--range-max", type=int, default=64); ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--paper-clouds", type=int, default=125_000, help="clouds of the configuration to project to")
    ap.add_argument("--parts", action="store_true", help="also time each batched piece alone on one group")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    dev = torch.device(a.device)
    cuda = dev.type == "cuda"
    sync = (lambda: torch.cuda.synchronize(dev)) if cuda else (lambda: None)
    spec = PromptSpec(range_max=a.range_max)
    X = clouds_like_states(a.clouds, a.n, a.d, a.seed).to(dev)
    groups = [X[s:s + a.group] for s in range(0, a.clouds, a.group)]
    print(f"{a.clouds} clouds of {a.n} x {a.d} float32 on {dev}"
          f"{' (' + torch.cuda.get_device_name(dev) + ')' if cuda else ''}, groups of {a.group}; torch {torch.__version__}, "
          f"{torch.get_num_threads()} threads, load average {os.getloadavg()[0]:.1f}")

    def per_cloud():
        with one_thread("cpu"): return [window_rows(points, spec) for points in X.cpu()]     # prompt_profile's CPU path

    def batched():
        out, fell = [], {}
        for s, G in enumerate(groups):
            rows, f = batched_window_rows(G, spec)
            out += rows
            for k, v in f.items(): fell.setdefault(k, []).extend(s * a.group + w for w in v)
        return out, fell

    def best(f):
        f(); sync()                                                  # warm-up: numba, CUDA kernels, the allocator
        times = []
        for _ in range(a.repeat):
            sync(); start = time.perf_counter(); out = f(); sync(); times.append(time.perf_counter() - start)
        return min(times), out

    t_cloud, ref = best(per_cloud)
    t_batched, (got, fell) = best(batched)
    per, bat = t_cloud / a.clouds, t_batched / a.clouds
    print(f"per cloud (host, one thread): {per * 1e3:8.1f} ms a cloud; {a.paper_clouds:,} clouds: {per * a.paper_clouds / 3600:6.2f} h")
    print(f"batched ({dev.type}):{' ' * max(0, 13 - len(dev.type))}     {bat * 1e3:8.1f} ms a cloud; {a.paper_clouds:,} clouds: {bat * a.paper_clouds / 3600:6.2f} h")
    print(f"ratio per cloud / batched: {t_cloud / t_batched:.2f}x")
    diff = rows_difference([r for rows in got for r in rows], [r for rows in ref for r in rows])
    print("largest relative difference, batched against per cloud:", {k: f"{v:.1e}" for k, v in diff.items()})
    print("clouds measured by a per-cloud function in the batched path:", {k: len(v) for k, v in fell.items()})
    if dev.type == "cpu":
        assert diff["gride"] == 0 and diff["curvature"] <= 1e-12 and diff["entropy"] <= 1e-10, diff

    if a.parts:
        G = groups[0]
        kmax = 2 ** int(math.log2(min(a.range_max, a.n - 1)))
        pieces = {"kNN (batched_knn, to the host)": lambda: batched_knn(G, kmax),
                  "tie tolerance (batched_tolerance)": lambda: batched_tolerance(G),
                  "Gram eigenvalues (float64 eigvalsh)": lambda: batched_gram_eigenvalues(G, spec.center),
                  "turning angles": lambda: batched_turning_angles(G)}
        total, _ = best(lambda: batched_window_rows(G, spec))
        print(f"one group of {len(G)}: batched_window_rows {total * 1e3:.1f} ms")
        with one_thread(dev):
            spent = 0.0
            for name, f in pieces.items():
                t, _ = best(f); spent += t
                print(f"  {name:38} {t * 1e3:9.1f} ms")
        print(f"  {'the rest (host: GRIDE fits, rows)':38} {(total - spent) * 1e3:9.1f} ms")


if __name__ == "__main__":
    main()
