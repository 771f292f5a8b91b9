"""Benchmark: streaming InterSim / IntraSim against the direct pairwise formulas, and the per-layer cosine pass.

Run:  python bench/bench_cosine.py [--n 16384] [--dim 576] [--vocab 4000] [--model smollm2 --tokens 16384]
Part 1 (synthetic hidden-state-like vectors, Zipf-distributed token ids): seconds of the streaming accumulators fed in
chunks of 4096 vs the direct float64 formulas (InterSim: mean off-diagonal entry of the n x n cosine matrix, in row
blocks; IntraSim: the same per token with >= 2 occurrences, averaged over tokens), their ratio, and the absolute
difference of the values. Part 2 (with --model): the per-layer InterSim + IntraSim pass of `layer_profile` over every
layer, streaming vs stored path vs a bare forward pass over the same tokens, and peak resident memory.
Not a test: never run in CI.
"""
import argparse, os, resource, time
import numpy as np, torch
from shape_of_learning.anisotropy import InterSim, IntraSim


def peak_mb(): return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def direct_intersim(X, block=2048):
    U = X.double(); U = U / U.norm(dim=1, keepdim=True)
    n, total = len(U), 0.0
    for s in range(0, n, block): total += float((U[s:s + block] @ U.T).sum())
    return (total - n) / (n * (n - 1))


def direct_intrasim(X, ids):
    U = X.double(); U = U / U.norm(dim=1, keepdim=True)
    vals = []
    for t in np.unique(ids):
        rows = np.flatnonzero(ids == t)
        if len(rows) < 2: continue
        C = U[torch.from_numpy(rows)] @ U[torch.from_numpy(rows)].T
        m = len(rows)
        vals.append((float(C.sum()) - m) / (m * (m - 1)))
    return float(np.mean(vals))


def synthetic(n, d, vocab, seed=0):
    g = torch.Generator().manual_seed(seed)
    ids = np.random.default_rng(seed).zipf(1.3, size=n) % vocab
    proto = torch.randn(vocab, d, generator=g)
    X = proto[torch.from_numpy(ids)] + 0.8 * torch.randn(n, d, generator=g) + 2.0   # token identity + noise + offset
    return X.float(), ids


def part1(a):
    X, ids = synthetic(a.n, a.dim, a.vocab)
    print(f"part 1: n={a.n} d={a.dim} vocab={a.vocab} ({len(np.unique(ids))} distinct ids)  threads {torch.get_num_threads()}")
    rows = []
    for name, stream, direct in [
        ("InterSim", lambda: _stream(InterSim(), X, None), lambda: direct_intersim(X)),
        ("IntraSim", lambda: _stream(IntraSim(min_count=2), X, ids), lambda: direct_intrasim(X, ids))]:
        stream(); t = time.perf_counter(); v1 = stream(); t1 = time.perf_counter() - t
        t = time.perf_counter(); v2 = direct(); t2 = time.perf_counter() - t
        rows.append((name, t1, t2, t2 / t1, abs(v1 - v2), v1))
    print(f"{'':10s} {'stream s':>9s} {'direct s':>9s} {'speedup':>8s} {'|diff|':>9s} {'value':>9s}")
    for r in rows: print(f"{r[0]:10s} {r[1]:9.3f} {r[2]:9.3f} {r[3]:8.1f} {r[4]:9.2e} {r[5]:9.5f}")


def _stream(acc, X, ids, chunk=4096):
    for s in range(0, len(X), chunk):
        if ids is None: acc.update(X[s:s + chunk])
        else: acc.update(X[s:s + chunk], ids[s:s + chunk])
    return acc.value


def part2(a):
    from shape_of_learning.models import load_model
    from shape_of_learning.profile import layer_profile, special_affixes, window_inputs
    from shape_of_learning.data import wiki_source, token_windows
    model, tok, kind = load_model(a.model)
    src = wiki_source()
    pre, _ = special_affixes(tok)
    W = token_windows(src, tok, length=512, n_windows=int(np.ceil(a.tokens / (512 if pre else 511))), seed=0)
    ids = window_inputs(tok, W)
    with torch.no_grad(): model(ids[:1])
    t = time.perf_counter()
    with torch.no_grad():
        for s in range(0, len(ids), 8): model(ids[s:s + 8])
    t_fwd = time.perf_counter() - t
    out = [("bare forward pass", t_fwd, peak_mb())]
    for stream in (True, False):
        t = time.perf_counter()
        df = layer_profile(model, tok, src, metrics=("intersim", "intrasim"), n_tokens=a.tokens, stream=stream)
        out.append((f"InterSim+IntraSim, {'streaming' if stream else 'stored'}", time.perf_counter() - t, peak_mb()))
    print(f"\npart 2: {a.model} ({kind}), {a.tokens} tokens, {df.layer.nunique()} layers")
    print(f"{'':34s} {'seconds':>8s} {'x forward':>9s} {'peak RSS MB':>12s}")
    for name, sec, mem in out: print(f"{name:34s} {sec:8.2f} {sec / t_fwd:9.2f} {mem:12.0f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=16384); ap.add_argument("--dim", type=int, default=576)
    ap.add_argument("--vocab", type=int, default=4000); ap.add_argument("--model", default=None)
    ap.add_argument("--tokens", type=int, default=16384)
    a = ap.parse_args()
    torch.set_num_threads(os.cpu_count())
    part1(a)
    if a.model: part2(a)


if __name__ == "__main__":
    main()
