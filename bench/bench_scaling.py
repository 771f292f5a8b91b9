"""Benchmark: the ID across scales (`intrinsic_dim.id_scaling`: GRIDE at ranks (n, 2n) and TwoNN on nested halvings)
against DADApy's `return_id_scaling_gride` + `return_id_scaling_2NN` on the same points (issue 16).

DADApy 0.3.4 pins numpy<2 and jax, so it runs in an environment of its own with this package installed beside it:

    python -m venv /tmp/dadavenv && /tmp/dadavenv/bin/pip install dadapy==0.3.4 torch==2.13.0
    /tmp/dadavenv/bin/pip install --no-deps -e . && /tmp/dadavenv/bin/pip install numba pandas fastcore tqdm transformers
    /tmp/dadavenv/bin/python bench/bench_scaling.py [--sizes 4096x768,16384x768] [--range-max 64]

Prints seconds (best of --repeat), the ratio DADApy / ours, and the largest difference between the two GRIDE ladders
(the same estimator on the same neighbours: round-off and DADApy's 1e-7 bisection). Not a test: never run in CI.
"""
import argparse, os, time
import numpy as np


def points(n, D, seed=0):
    "An ID-10 Gaussian on a random frame in D dimensions, plus small isotropic noise and a common offset (like hidden states)."
    rng = np.random.default_rng(seed)
    frame = np.linalg.qr(rng.standard_normal((D, 10)))[0]
    return (rng.standard_normal((n, 10)) * np.linspace(3, 1, 10)) @ frame.T + 1e-3 * rng.standard_normal((n, D)) + 5.0


def best(f, repeat):
    out, ts = None, []
    for _ in range(repeat):
        t = time.perf_counter(); out = f(); ts.append(time.perf_counter() - t)
    return min(ts), out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="4096x768,16384x768"); ap.add_argument("--range-max", type=int, default=64)
    ap.add_argument("--n-min", type=int, default=20); ap.add_argument("--repeat", type=int, default=1)
    a = ap.parse_args()
    import torch, dadapy
    from dadapy import Data
    from shape_of_learning.intrinsic_dim import id_scaling
    torch.set_num_threads(os.cpu_count())
    print(f"bench_scaling  torch {torch.__version__} ({torch.get_num_threads()} threads), numpy {np.__version__}, dadapy "
          f"{getattr(dadapy, '__version__', '0.3.4')}, load average {os.getloadavg()[0]:.1f}; float64 points, range_max "
          f"{a.range_max}, n_min {a.n_min}")
    print(f"{'n':>6} {'D':>5} {'ours s':>8} {'dadapy s':>9} {'speedup':>8} {'GRIDE max |diff|':>17}")
    id_scaling(points(512, 32), range_max=8)                       # compile numba kernels outside the timers
    for size in a.sizes.split(","):
        n, D = map(int, size.split("x"))
        X = points(n, D)
        t_ours, ours = best(lambda: id_scaling(X, range_max=a.range_max, n_min=a.n_min), a.repeat)
        def peer():
            g = Data(coordinates=X.copy(), n_jobs=os.cpu_count()).return_id_scaling_gride(range_max=a.range_max)
            Data(coordinates=X.copy(), n_jobs=os.cpu_count()).return_id_scaling_2NN(n_min=a.n_min)
            return g
        t_peer, g = best(peer, a.repeat)
        diff = np.abs(ours[ours.estimator == "gride"].dim.to_numpy() - g[0]).max()
        print(f"{n:6d} {D:5d} {t_ours:8.1f} {t_peer:9.1f} {t_peer / t_ours:7.2f}x {diff:17.1e}")


if __name__ == "__main__":
    main()
