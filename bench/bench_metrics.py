#!/usr/bin/env python
"""Benchmark: intrinsic-dimension estimators and the exact kNN step against scikit-dimension and a plain matmul.

Not a test; never run in CI. Everything is reported as a RATIO against a baseline measured in the same run:

* TwoNN, MADA (k=20), MoM (k=100), MLE (k=20, harmonic pooling): `shape_of_learning.intrinsic_dim` vs `skdim.id` on the same points,
  speedup = skdim_time / our_time, with both estimates and their relative difference.
* kNN step: achieved GFLOP/s of `shape_of_learning.knn.knn(X, k)` for k = 2, 20, 100, counted as 2*n*n*D
  (the search product only), against a plain float32 `X @ X.T` of the same shape, ratio = knn_rate / matmul_rate.

    python bench/bench_metrics.py                         # default grid 4096,16384 x 768,2560
    python bench/bench_metrics.py --sizes 4096x768 --repeat 3 --csv /tmp/bench.csv
    python bench/bench_metrics.py --skip-slow             # no skdim MADA/MoM at n >= 16384
    python bench/bench_metrics.py --device cuda           # torch side on the GPU; baseline torchid on the same GPU
    python bench/bench_metrics.py --device cuda --sizes 10000x768,20000x1024 --knn-variants

With `--device cuda` the baseline is torchid (a GPU port of scikit-dimension, float32 expanded distances, torch
top-k) on the same tensor, target 1.5x on every estimator; `--baseline skdim` keeps scikit-dimension on the CPU.
`--knn-variants` adds kNN rows for each search precision and block mode, with the rows the certificate settled.
"""
from __future__ import annotations
import argparse, csv, gc, math, os, platform, sys, time, warnings

import numpy as np
import torch

import shape_of_learning
from shape_of_learning.knn import knn
from shape_of_learning.intrinsic_dim import twonn, mada, mom, mle

DEFAULT_SIZES = "4096x768,4096x2560,16384x768,16384x2560"
KNN_KS = (2, 20, 100)
SLOW_N = 16384              # --skip-slow drops skdim MADA/MoM from this n up
KNN_TARGET = 0.70           # kNN rate >= 70% of the matmul rate

# (estimator, n, D) -> minimum speedup skdim_time / our_time; D=None means every D
SPEEDUP_TARGETS = {("twonn", 4096, 2560): 2.0, ("twonn", 16384, 768): 5.0, ("mom", 4096, 768): 2.0, ("mle", 4096, 768): 2.0}
MADA_TARGET = 20.0
TORCHID_TARGET = 1.5        # every estimator, every size, against torchid on the same GPU


def speedup_target(name, n, D, baseline="skdim"):
    if baseline == "torchid": return TORCHID_TARGET
    if name == "mada": return MADA_TARGET
    return SPEEDUP_TARGETS.get((name, n, D))


# ----------------------------------------------------------------------------------------------------------- data
def make_data(n, D, intrinsic=20, noise=1e-3, seed=0):
    """Anisotropic low-dimensional cloud in D dims, like transformer hidden states; float32 CPU tensor.

    A Gaussian of `intrinsic` dims with a decaying spectrum (scale 1/sqrt(i)) on a random orthonormal
    `intrinsic`-frame, isotropic noise of std `noise` per coordinate (full rank, so nothing is degenerate),
    and a large common offset: a random direction of norm 20 (about 10x the cloud's radius) plus three
    "massive activation" coordinates of value 50. Seeded by (seed, n, D)."""
    g = torch.Generator().manual_seed(1_000_003 * seed + 7919 * n + D)
    Q = torch.linalg.qr(torch.randn(D, intrinsic, generator=g, dtype=torch.float64)).Q.T    # (intrinsic, D)
    scales = torch.arange(1, intrinsic + 1, dtype=torch.float64).rsqrt()
    Z = torch.randn(n, intrinsic, generator=g, dtype=torch.float64) * scales
    offset = torch.randn(D, generator=g, dtype=torch.float64)
    offset *= 20 / offset.norm()
    offset[torch.randperm(D, generator=g)[:3]] = 50.0
    X = Z @ Q + noise * torch.randn(n, D, generator=g, dtype=torch.float64) + offset
    return X.float().contiguous()


# --------------------------------------------------------------------------------------------------------- timing
def make_sync(device):
    if device.type == "cuda": return lambda: torch.cuda.synchronize(device)
    if device.type == "mps": return torch.mps.synchronize
    return lambda: None


def best_of(fn, repeat, sync):
    "Best wall time of `repeat` calls (synchronizing the device before each timer read) and the last result."
    best, out = math.inf, None
    for _ in range(repeat):
        out = None
        gc.collect()
        sync()
        t0 = time.perf_counter()
        out = fn()
        sync()
        best = min(best, time.perf_counter() - t0)
    return best, out


def warm_up(device, D, sync, baseline="skdim"):
    "One untimed pass of every torch kernel we time, and of each baseline estimator, on a small problem."
    X = make_data(1024, D, seed=12345).to(device)
    for k in KNN_KS: knn(X, k)
    float(twonn(X)); float(mada(X)); float(mom(X)); float(mle(X))
    X @ X.T
    sync()
    X64 = X.double().cpu().numpy()          # skdim's first call pays imports and sklearn/scipy set-up: not timed
    for name in ESTIMATORS: baseline_estimate(baseline, name, X, X64)
    sync()


# ----------------------------------------------------------------------------------------------------------- runs
def skdim_estimate(name, X64):
    import skdim
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if name == "twonn": return float(skdim.id.TwoNN().fit(X64).dimension_)
        if name == "mada": return float(skdim.id.MADA().fit(X64, n_neighbors=20).dimension_)
        if name == "mom": return float(skdim.id.MOM().fit(X64, n_neighbors=100).dimension_)
        if name == "mle": return float(skdim.id.MLE().fit(X64, n_neighbors=20, comb="mle").dimension_)
    raise ValueError(name)


def torchid_estimate(name, X):
    "torchid 0.5 on the float32 tensor where it is (its CUDA path: chunked expanded distances and torch top-k)."
    from torchid import estimators as E
    if name == "twonn": return float(E.TwoNN().fit(X).dimension_)
    if name == "mada": return float(E.MADA(n_neighbors=20).fit(X).dimension_)
    if name == "mom": return float(E.MOM(n_neighbors=100).fit(X).dimension_)
    if name == "mle": return float(E.MLE().fit(X, n_neighbors=20, comb="mle").dimension_)
    raise ValueError(name)


def baseline_estimate(baseline, name, X, X64):
    return torchid_estimate(name, X) if baseline == "torchid" else skdim_estimate(name, X64)


OURS = {"twonn": lambda X: twonn(X), "mada": lambda X: mada(X, k=20), "mom": lambda X: mom(X, k=100),
        "mle": lambda X: mle(X, k=20)}
LABEL = {"twonn": "TwoNN", "mada": "MADA k=20", "mom": "MoM k=100", "mle": "MLE k=20"}
ESTIMATORS = tuple(OURS)


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def bench_size(n, D, args, device, sync):
    "Rows for one (n, D): one row per estimator and three kNN rows."
    X_cpu = make_data(n, D, seed=args.seed)
    X = X_cpu.to(device)
    X64 = X_cpu.numpy().astype(np.float64)        # what skdim computes in anyway; copy made outside the timers
    rows = []
    for name in ESTIMATORS:
        t_ours, est = best_of(lambda: OURS[name](X), args.repeat, sync)
        ours = float(est)
        log(f"  n={n} D={D} {LABEL[name]:<10} ours  {t_ours:9.3f} s  est {ours:.6f}")
        skip = args.skip_slow and name in ("mada", "mom") and n >= SLOW_N and args.baseline == "skdim"
        t_ref = ref = math.nan
        if not skip:
            t_ref, ref = best_of(lambda: baseline_estimate(args.baseline, name, X, X64), args.repeat,
                                 sync if args.baseline == "torchid" else lambda: None)
            log(f"  n={n} D={D} {LABEL[name]:<10} {args.baseline} {t_ref:9.3f} s  est {ref:.6f}")
        else:
            log(f"  n={n} D={D} {LABEL[name]:<10} skdim skipped (--skip-slow)")
        target = speedup_target(name, n, D, args.baseline)
        ratio = t_ref / t_ours
        rows.append(dict(table="estimator", n=n, D=D, name=LABEL[name], k="", ours_s=t_ours, ref_s=t_ref,
                         ratio=ratio, target=target if target is not None else "",
                         met=("" if target is None or math.isnan(ratio) else ("yes" if ratio >= target else "NO")),
                         ours_est=ours, skdim_est=ref, rel_diff=abs(ours - ref) / abs(ref) if not skip else math.nan,
                         knn_gflops="", matmul_gflops=""))
        gc.collect()
    flop = 2.0 * n * n * D
    t_mm, _ = best_of(lambda: torch.matmul(X, X.T), args.repeat, sync)
    mm_rate = flop / t_mm / 1e9
    log(f"  n={n} D={D} matmul X@X.T {t_mm:9.3f} s  {mm_rate:.1f} GFLOP/s")
    for k in KNN_KS:
        t_knn, _ = best_of(lambda: knn(X, k), args.repeat, sync)
        rate = flop / t_knn / 1e9
        ratio = rate / mm_rate
        log(f"  n={n} D={D} knn k={k:<3}     {t_knn:9.3f} s  {rate:.1f} GFLOP/s  ({ratio:.2f} of matmul)")
        rows.append(dict(table="knn", n=n, D=D, name=f"knn k={k}", k=k, ours_s=t_knn, ref_s=t_mm, ratio=ratio,
                         target=KNN_TARGET, met="yes" if ratio >= KNN_TARGET else "NO",
                         ours_est="", skdim_est="", rel_diff="", knn_gflops=rate, matmul_gflops=mm_rate))
    if args.knn_variants:
        for k in KNN_KS:
            ref = knn(X, k, search="float32", engine="torch", symmetric=False)
            for search in (("float32", "tf32x3") if device.type == "cuda" else ("float32",)):
                for sym in (False, True):
                    t_v, res = best_of(lambda: knn(X, k, search=search, engine="torch", symmetric=sym), args.repeat, sync)
                    same = bool(torch.equal(res.idx, ref.idx)) and bool(torch.equal(res.dist, ref.dist))
                    log(f"  n={n} D={D} knn k={k:<3} search={search:<7} symmetric={sym!s:<5} {t_v:9.4f} s  "
                        f"settled {res.n_settled}  same as float32: {same}")
                    rows.append(dict(table="knn variant", n=n, D=D, name=f"knn k={k} {search} sym={sym}", k=k,
                                     ours_s=t_v, ref_s=t_mm, ratio=flop / t_v / 1e9 / mm_rate, target="", met="",
                                     ours_est=res.n_settled, skdim_est=same, rel_diff="", knn_gflops=flop / t_v / 1e9,
                                     matmul_gflops=mm_rate))
    del X, X_cpu, X64
    gc.collect()
    if device.type == "cuda": torch.cuda.empty_cache()
    return rows


# ---------------------------------------------------------------------------------------------------------- print
def fmt(v, spec):
    if v == "" or v is None: return "-"
    if isinstance(v, float) and math.isnan(v): return "skipped"
    return format(v, spec)


def print_tables(rows):
    est = [r for r in rows if r["table"] == "estimator"]
    if est:
        base = "torchid (float32, same device)" if any(r["target"] == TORCHID_TARGET for r in est) else "skdim (float64 numpy)"
        print(f"\nIntrinsic-dimension estimators: ours (float32 torch) vs {base}; 'skdim' columns hold the baseline")
        hdr = (f"{'n':>6} {'D':>5}  {'estimator':<10} {'ours s':>9} {'skdim s':>9} {'speedup':>8} {'target':>7} "
               f"{'met':>4}  {'ours est':>11} {'skdim est':>11} {'rel diff':>9}")
        print(hdr); print("-" * len(hdr))
        for r in est:
            print(f"{r['n']:>6} {r['D']:>5}  {r['name']:<10} {fmt(r['ours_s'], '9.3f'):>9} {fmt(r['ref_s'], '9.3f'):>9} "
                  f"{fmt(r['ratio'], '7.2f') + 'x' if not math.isnan(r['ratio']) else 'skipped':>8} "
                  f"{fmt(r['target'], '6.1f') + 'x' if r['target'] != '' else '-':>7} {r['met'] or '-':>4}  "
                  f"{fmt(r['ours_est'], '11.6f'):>11} {fmt(r['skdim_est'], '11.6f'):>11} {fmt(r['rel_diff'], '9.1e'):>9}")
    kn = [r for r in rows if r["table"] == "knn"]
    if kn:
        print("\nkNN step: knn(X, k) GFLOP/s (2*n*n*D / time) vs plain float32 X @ X.T of the same shape")
        hdr = (f"{'n':>6} {'D':>5}  {'k':>4} {'knn s':>9} {'knn GF/s':>9} {'matmul s':>9} {'mm GF/s':>9} "
               f"{'ratio':>6} {'target':>7} {'met':>4}")
        print(hdr); print("-" * len(hdr))
        for r in kn:
            print(f"{r['n']:>6} {r['D']:>5}  {r['k']:>4} {r['ours_s']:9.3f} {r['knn_gflops']:9.1f} {r['ref_s']:9.3f} "
                  f"{r['matmul_gflops']:9.1f} {r['ratio']:6.2f} {'>=' + format(r['target'], '.2f'):>7} {r['met']:>4}")


    var = [r for r in rows if r["table"] == "knn variant"]
    if var:
        print("\nkNN variants (engine torch): time, rate as a fraction of X @ X.T, rows settled by the float64 search, same result as float32")
        for r in var:
            print(f"{r['n']:>6} {r['D']:>5}  {r['name']:<32} {r['ours_s']:9.4f} s  {r['ratio']:6.2f}  settled {r['ours_est']:>6}  same {r['skdim_est']}")


def write_csv(rows, path):
    fields = ["table", "n", "D", "name", "k", "ours_s", "ref_s", "ratio", "target", "met",
              "ours_est", "skdim_est", "rel_diff", "knn_gflops", "matmul_gflops"]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for r in rows: w.writerow({k: ("" if isinstance(v, float) and math.isnan(v) else v) for k, v in r.items()})


# ----------------------------------------------------------------------------------------------------------- main
def parse_sizes(s):
    out = []
    for tok in s.split(","):
        tok = tok.strip().lower()
        if not tok: continue
        try: n, D = (int(x) for x in tok.split("x"))
        except ValueError: raise SystemExit(f"--sizes: expected NxD items like 4096x768, got {tok!r}")
        out.append((n, D))
    return out


def load():
    try: return "/".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError: return "?"


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"): return line.split(":", 1)[1].strip()
    except OSError: pass
    return platform.processor() or platform.machine()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", default=DEFAULT_SIZES, help=f"comma-separated NxD (default {DEFAULT_SIZES})")
    p.add_argument("--repeat", type=int, default=1, help="best of this many runs per timing (default 1)")
    p.add_argument("--device", default="cpu", help="torch device for our side (default cpu; e.g. cuda)")
    p.add_argument("--skip-slow", action="store_true", help=f"skip skdim MADA/MoM at n >= {SLOW_N}")
    p.add_argument("--threads", type=int, default=None, help="torch threads (default: all usable cores)")
    p.add_argument("--seed", type=int, default=0, help="data seed (default 0)")
    p.add_argument("--baseline", choices=("skdim", "torchid"), default=None,
                   help="skdim (CPU, float64; default on CPU) or torchid (same device; default on CUDA)")
    p.add_argument("--knn-variants", action="store_true", help="also time knn for each search precision and block mode")
    p.add_argument("--csv", default=None, metavar="PATH", help="also write the rows as CSV here")
    args = p.parse_args(argv)
    if args.repeat < 1: p.error("--repeat must be >= 1")
    sizes = parse_sizes(args.sizes)

    args.baseline = args.baseline or ("torchid" if args.device.startswith("cuda") else "skdim")
    import importlib, sklearn, scipy
    ref_lib = importlib.import_module(args.baseline)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    torch.set_num_threads(args.threads or cores)
    device = torch.device(args.device)
    sync = make_sync(device)
    try:
        from threadpoolctl import threadpool_info
        blas = ", ".join(sorted({f"{i['internal_api']}={i['num_threads']}" for i in threadpool_info()}))
    except Exception: blas = "?"

    t_start = time.perf_counter()
    print(f"bench_metrics  shape_of_learning {getattr(shape_of_learning, '__version__', '?')}  torch {torch.__version__}  "
          f"{args.baseline} {getattr(ref_lib, '__version__', '?')}  sklearn {sklearn.__version__}  scipy {scipy.__version__}  numpy {np.__version__}")
    dev_name = torch.cuda.get_device_name(device) if device.type == "cuda" else cpu_name()
    print(f"device {device} ({dev_name})  cores {cores}  torch threads {torch.get_num_threads()}  "
          f"numpy/skdim thread pools: {blas}")
    print(f"sizes {', '.join(f'{n}x{D}' for n, D in sizes)}  repeat {args.repeat} (best of)  skip-slow {args.skip_slow}  "
          f"seed {args.seed}  loadavg {load()}")
    print("data: 20-dim anisotropic Gaussian on a random orthonormal frame in D dims + 1e-3 isotropic noise + large "
          "common offset (norm 20, three coordinates at 50), float32")
    print("ours gets the float32 torch tensor (already on the device); skdim gets a float64 numpy copy "
          "(conversion untimed). Times are wall seconds, perf_counter, device synchronized.", flush=True)

    log("warming up torch ...")
    warm_up(device, max(D for _, D in sizes), sync, args.baseline)
    rows = []
    for n, D in sizes:
        log(f"size n={n} D={D}")
        rows += bench_size(n, D, args, device, sync)
    print_tables(rows)
    if args.csv:
        write_csv(rows, args.csv)
        print(f"\nCSV written to {args.csv}")
    print(f"\ntotal runtime {time.perf_counter() - t_start:.1f} s  loadavg {load()} (1/5/15 min; above the thread "
          f"count means something else shared the cores and the ratios are suspect)")
    return rows


if __name__ == "__main__":
    main()
