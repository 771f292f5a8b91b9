#!/usr/bin/env python
"""Checks on a CUDA device (issue 33, item 1): the kNN and every estimator on CUDA against the CPU.

    python bench/check_cuda.py            # prints one line per check and 'N checks, M failed'; exit 1 on a failure

* `knn` on CUDA (TF32x3 search, Triton re-rank; and float32 search; and the torch re-rank) against the CPU's numba
  engine: the same neighbours, distances to 1e-12 relative (float64 re-rank of float32 points: each term exact);
* TwoNN, MLE, MoM, MADA (and GRIDE where it runs) on a CUDA tensor against the CPU value, to 1e-12;
* twins: exact copies and copies one float32 ulp away are counted as on the CPU; bfloat16 states keep bfloat16's
  resolution after the upcast (`resolution_of`), so points within 4 bfloat16 ulps are twins on both devices;
* the certificate: rows the fast search cannot vouch for are settled exactly (forced with extra=0);
* the engine (issue 47): one layer's 16 batches of 4,096 x 576 points, every batch metric and a pair of layers, in
  groups on CUDA against one batch at a time on CUDA and on the CPU (kNN estimators and pair metrics to 1e-12,
  spectral metrics to 1e-9), with the time of each;
* a profile on CUDA (every metric of `profile.METRICS` but IntraSim's token ids, a tiny random Llama in float32 and
  bfloat16): its vectors stay on the GPU and the metric core measures them there; every value against the metric
  core on the CPU of the same vectors (`layer_vectors`, `metric_rows`, `pair_rows`), to 1e-9 relative.

    python bench/check_cuda.py --parts knn,estimators,twins,certificate,profile     # any subset
"""
import argparse, math, sys, tempfile, time
from pathlib import Path
import numpy as np, torch
sys.path.insert(0, __file__.rsplit("/", 1)[0])
from bench_metrics import make_data
import shape_of_learning.knn as K
from shape_of_learning.knn import knn, resolution_of
from shape_of_learning.intrinsic_dim import twonn, mada, mom, mle

results = []
def check(name, ok, detail=""):
    results.append(bool(ok))
    print(f"{'PASS' if ok else 'FAIL'}  {name}  {detail}", flush=True)

def rel(a, b): return float(((a.double().cpu() - b.double().cpu()).abs() / b.double().cpu().abs().clamp_min(1e-300)).max())

PARTS = ("knn", "estimators", "twins", "certificate", "profile", "engine")
KNN_CASES = {(4096, 768): (2, 20, 100), (16384, 768): (20,), (8192, 4096): (2, 100)}

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parts", default=",".join(PARTS), help=f"comma-separated subset of {PARTS}")
    parts = ap.parse_args().parts.split(",")
    unknown = sorted(set(parts) - set(PARTS))
    if unknown: sys.exit(f"--parts: unknown {unknown}; choose from {PARTS}")
    if not torch.cuda.is_available(): sys.exit("check_cuda.py needs a CUDA device: torch.cuda.is_available() is False here")
    dev = torch.device("cuda")
    print(f"torch {torch.__version__}  {torch.cuda.get_device_name(dev)}  triton re-rank: {K._has_triton()}")
    for part in parts:
        t = time.perf_counter()
        globals()[f"check_{part}"]()
        print(f"[{part}: {time.perf_counter() - t:.1f} s]", flush=True)
    print(f"\n{len(results)} checks, {results.count(False)} failed")
    sys.exit(1 if False in results else 0)

def check_knn():
    for (n, D), ks in KNN_CASES.items():
        X = make_data(n, D, seed=1)
        for k in ks:
            ref = knn(X, k)
            for search, rerank in (("tf32x3", "auto"), ("float32", "auto"), ("tf32x3", "torch")):
                K.RERANK = rerank
                torch.cuda.synchronize(); t = time.perf_counter()
                got = knn(X, k, device="cuda", search=search)
                torch.cuda.synchronize(); t = time.perf_counter() - t
                K.RERANK = "auto"
                same = torch.equal(got.idx.cpu(), ref.idx)
                r = rel(got.dist, ref.dist)
                check(f"knn n={n} D={D} k={k} search={search} rerank={rerank}", same and r <= 1e-12,
                      f"same neighbours {same}, dist rel diff {r:.1e}, settled {got.n_settled} (cpu {ref.n_settled}), {t * 1e3:.1f} ms")
def check_estimators():
    X = make_data(16384, 1024, seed=2)
    Xg = X.cuda()
    for name, f in (("twonn", twonn), ("mada", mada), ("mom", mom), ("mle", mle)):
        a, b = float(f(Xg)), float(f(X))
        check(f"{name} cuda vs cpu (16384 x 1024)", abs(a - b) <= 1e-12 * abs(b), f"{a:.15g} vs {b:.15g}")
def check_twins():
    # twins: exact copies, copies one float32 ulp away, and a near pair just outside the resolution
    Y = make_data(3000, 256, seed=3)
    Y[10] = Y[20]; Y[30] = torch.nextafter(Y[40], torch.full_like(Y[40], math.inf))
    Y[50] = Y[60] * (1 + 64 * torch.finfo(torch.float32).eps)
    a, b = knn(Y, 5), knn(Y.cuda(), 5)
    check("twins cuda vs cpu (float32)", a.n_duplicates == b.n_duplicates == 2 and torch.equal(a.twin, b.twin.cpu()),
          f"cpu {a.n_duplicates}, cuda {b.n_duplicates}")
    Yb = torch.randn(3000, 256, generator=torch.Generator().manual_seed(4)).bfloat16()   # no offset: few near pairs
    Yb[100] = Yb[200]                                                   # an exact copy
    Yb[300] = (Yb[400].float() * (1 + 2 * torch.finfo(torch.bfloat16).eps)).bfloat16()   # about 2 bf16 ulps away
    a, b = knn(Yb, 5), knn(Yb.cuda(), 5)
    a32 = knn(Yb.float(), 5)                                            # the same values, declared float32
    check("bfloat16 resolution kept after the upcast", resolution_of(Yb) == 4 * torch.finfo(torch.bfloat16).eps
          and a.n_duplicates == b.n_duplicates == 2 and a32.n_duplicates == 1 and torch.equal(a.twin, b.twin.cpu()),
          f"bfloat16: cpu {a.n_duplicates}, cuda {b.n_duplicates}; as float32: {a32.n_duplicates}")
def check_certificate():
    # the certificate's fallback on CUDA: extra=0 leaves every row unproven, all settled exactly
    Z = make_data(4096, 768, seed=5)
    a, b = knn(Z, 20), knn(Z.cuda(), 20, extra=0)
    check("settled rows exact on cuda (extra=0)", torch.equal(a.idx, b.idx.cpu()) and rel(b.dist, a.dist) <= 1e-12, f"settled {b.n_settled}")

PROFILE_DEVICE = "cuda"     # check_profile's device (set to "cpu" for a dry run of the script without a GPU)

def check_profile():
    from shape_of_learning.models import tiny_model, load_model
    from shape_of_learning.profile import METRICS, layer_profile, layer_vectors, metric_rows, pair_rows
    metrics = tuple(name for name in METRICS if name != "intrasim")
    pairs = sum(METRICS[name].scope == "pair" for name in metrics)        # none at the first measured layer
    rng = np.random.default_rng(0)
    words = ["".join(rng.choice(list("abcdefghijklmnopqrstuvwxyz"), rng.integers(2, 9))) for _ in range(400)]
    docs = [" ".join(rng.choice(words, 300)) for _ in range(40)]
    options = dict(metrics=metrics, layers=(1, 2, 3, 4), n_tokens=2048, window=64, batch_size=1024, forward_batch=8, progress=False)
    with tempfile.TemporaryDirectory() as folder:
        model, tok, _ = load_model(tiny_model("llama", Path(folder) / "ll", layers=3, d=64))
    for dtype in (torch.float32, torch.bfloat16):
        gpu_model = model.to(PROFILE_DEVICE, dtype)
        if PROFILE_DEVICE == "cuda": torch.cuda.reset_peak_memory_stats()
        t = time.perf_counter()
        table = layer_profile(gpu_model, tok, docs, **options)
        elapsed = time.perf_counter() - t
        vectors = layer_vectors(gpu_model, tok, docs, [1, 2, 3, 4], n_tokens=2048, window=64, forward_batch=8, progress=False)
        stored = {layer: v.to(dtype) for layer, v in vectors.items()}      # float32 copies of the store: exact
        worst, where = 0.0, ""
        for layer, X in stored.items():
            want = metric_rows(X, np.zeros(len(X), dtype=np.int64), [m for m in metrics if METRICS[m].scope != "pair"], 1024, 0)
            if layer > 1: want += pair_rows(stored[layer - 1], X, metrics, 1024, 0)
            for row in want:
                got = table[(table.layer == layer) & (table.metric == row["metric"])].value
                diff = abs(float(got.iloc[0]) - row["value"]) / max(abs(row["value"]), 1e-300)
                if diff > worst: worst, where = diff, f"layer {layer} {row['metric']}"
        check(f"profile on cuda ({str(dtype)[6:]}) = metric core on the cpu", len(table) == 4 * len(metrics) - pairs and worst <= 1e-9,
              f"{len(table)} rows, largest relative difference {worst:.1e} ({where}), {elapsed:.1f} s, "
              f"peak {torch.cuda.max_memory_allocated() / 2**20 if PROFILE_DEVICE == 'cuda' else 0:.0f} MiB")

def check_engine():
    import shape_of_learning.engine as E
    from shape_of_learning.profile import METRICS
    from shape_of_learning.intrinsic_dim import batch_indices
    g = torch.Generator().manual_seed(0)
    points = torch.randn(65536, 24, generator=g) @ torch.randn(24, 576, generator=g) + 0.05 * torch.randn(65536, 576, generator=g)
    after = torch.tanh(points @ torch.randn(576, 576, generator=g) / 24)
    batch_ms = [m for m in METRICS.values() if m.scope == "batch"]
    batches = batch_indices(len(points), 4096, True, 0)
    cpu = E.layer_batch_values(points, batch_ms, batches, 1)
    cpu_pairs = E.pair_batch_values(points, after, METRICS["overlap"], batches, 1)
    on = points.cuda(), after.cuda()
    for group in (1, None):
        for attempt in range(2):                                           # the second timed: kernels compiled, memory pooled
            torch.cuda.synchronize(); t = time.perf_counter()
            got = E.layer_batch_values(on[0], batch_ms, batches, group)
            torch.cuda.synchronize(); t_single = time.perf_counter() - t
            t = time.perf_counter()
            got_pairs = E.pair_batch_values(on[0], on[1], METRICS["overlap"], batches, group)
            torch.cuda.synchronize(); t_pair = time.perf_counter() - t
        label = f"groups of {E.group_size(4096, 576, 'cuda')}" if group is None else "one batch at a time"
        worst = {m: max(abs(a / b - 1) for a, b in zip(got[m], cpu[m])) for m in cpu}
        spectral = ("anisotropy", "anisotropy_uncentered", "rankme", "alpha_req")
        ok = all(w <= (1e-9 if m in spectral else 1e-12) for m, w in worst.items())
        pair_worst = max(abs(getattr(a, f) - getattr(b, f)) for a, b in zip(got_pairs, cpu_pairs)
                         for f in ("overlap", "imbalance_forward", "imbalance_backward"))
        check(f"engine on cuda, {label} = cpu", ok and pair_worst <= 1e-12,
              f"largest relative difference {max(worst.values()):.1e} ({max(worst, key=worst.get)}), pairs {pair_worst:.1e}; "
              f"one layer's 9 batch metrics {t_single:.3f} s, its pair {t_pair:.3f} s")


if __name__ == "__main__":
    main()
