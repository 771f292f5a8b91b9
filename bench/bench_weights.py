"""Benchmark: `partition_isotropy` (chunked, log space) against the direct float64 formula on one random matrix.

Run:  python bench/bench_weights.py [--vocab 50000] [--dim 4096] [--offset 0.03] [--device cpu] [--skip-direct]
      python bench/bench_weights.py --vocab 250000          # BLOOM's size; the direct formula then needs ~16 GB

The matrix is float32, seeded: N(0, 0.02^2) entries plus a common offset vector (like a trained embedding matrix),
generated in row blocks. The direct formula is Eq. 4 as the authors' script computes it, but in float64: the full
W^T W, eigh, the full (vocab x dim) product W @ V, exp, column sums, min / max, with the same sign convention
("fixed") so that the two values must agree to round-off. Prints both times, their ratio, the time of the direct route's eigh
(both routes make the same eigh call), the relative difference of the two values and the peak resident memory
after each. Not a test: never run in CI.
"""
import argparse, os, resource, time
import torch
from shape_of_learning.weights import partition_isotropy, fix_signs


def peak_mb(): return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def make_matrix(vocab, dim, offset, seed=0, block=16384):
    g = torch.Generator().manual_seed(seed)
    mu = offset * (1 + torch.randn(dim, generator=g, dtype=torch.float32))
    W = torch.empty(vocab, dim, dtype=torch.float32)
    for s in range(0, vocab, block):
        W[s:s + block] = 0.02 * torch.randn(min(block, vocab - s), dim, generator=g) + mu
    return W


def direct(W, device, sync):
    "Eq. 4 in float64 with the full product in memory (exp in place to spare one copy); also times its eigh."
    W64 = W.to(device=device, dtype=torch.float64)
    G = W64.T @ W64
    sync(); t = time.perf_counter()
    lam, V = torch.linalg.eigh(G)
    sync(); t_eigh = time.perf_counter() - t
    P = W64 @ fix_signs(V)
    del W64
    Z = P.exp_().sum(0)
    return (Z.min() / Z.max()).item(), t_eigh


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--vocab", type=int, default=50000); ap.add_argument("--dim", type=int, default=4096)
    ap.add_argument("--offset", type=float, default=0.03, help="scale of the common offset vector")
    ap.add_argument("--device", default="cpu"); ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--chunk-rows", type=int, default=None)
    ap.add_argument("--skip-direct", action="store_true", help="time only partition_isotropy")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    W = make_matrix(a.vocab, a.dim, a.offset)
    gb = lambda n: n * 8 / 2**30
    print(f"bench_weights  W {a.vocab} x {a.dim} float32 ({W.numel() * 4 / 2**30:.2f} GiB)  device {a.device}  "
          f"torch {torch.__version__}  threads {torch.get_num_threads()}  load avg {os.getloadavg()[0]:.2f}")
    print(f"direct formula holds a float64 copy of W and the full product: {2 * gb(W.numel()):.2f} GiB extra")
    torch.linalg.eigh(torch.eye(8, dtype=torch.float64, device=a.device))   # first eigh call loads the solver (seconds)
    mem0 = peak_mb()
    sync = (lambda: torch.cuda.synchronize()) if str(a.device).startswith("cuda") else (lambda: None)
    t = time.perf_counter()
    r = partition_isotropy(W, signs="fixed", device=a.device, chunk_rows=a.chunk_rows)
    sync(); t_ours = time.perf_counter() - t
    mem_ours = peak_mb()
    print(f"\n{'':28s} {'seconds':>9s} {'I(W)':>20s} {'peak RSS MB':>12s}")
    print(f"{'partition_isotropy':28s} {t_ours:9.2f} {r.I:20.15f} {mem_ours:12.0f}")
    print(f"  log Z min {r.log_z_min:.6f} max {r.log_z_max:.6f}; mean share {r.mean_share:.3f}; "
          f"I with both signs {r.select('both').I:.6f}, solver signs {r.select('solver').I:.6f}")
    if a.skip_direct:
        print(f"\npeak RSS before {mem0:.0f} MB (W included), after ours +{mem_ours - mem0:.0f} MB")
        return
    t = time.perf_counter()
    I_direct, t_eigh = direct(W, a.device, sync)
    sync(); t_direct = time.perf_counter() - t
    mem_direct = peak_mb()
    print(f"{'direct float64 formula':28s} {t_direct:9.2f} {I_direct:20.15f} {mem_direct:12.0f}")
    print(f"  of which eigh of the {a.dim} x {a.dim} Gram matrix: {t_eigh:.2f} s (the same call happens inside "
          "partition_isotropy; on a shared CPU its time varies most)")
    print(f"\nratio ours / direct time: {t_ours / t_direct:.2f}   relative difference of I: "
          f"{abs(r.I - I_direct) / abs(I_direct):.2e}   peak RSS before {mem0:.0f} MB, "
          f"after ours +{mem_ours - mem0:.0f} MB, after direct +{mem_direct - mem0:.0f} MB")


if __name__ == "__main__":
    main()
