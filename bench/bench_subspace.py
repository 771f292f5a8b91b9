"""Benchmark: one subspace training step (DID, SAID) against one plain fine-tuning step, and Fastfood against a dense P.

Run:  python bench/bench_subspace.py [--ds 1000,10000] [--batch 16] [--length 64] [--repeat 3] [--device cpu]
Part 1 times fwd + backward + AdamW step of MiniLM + a 2-way head (plain, then wrapped in `Subspace`) and reports
the peak memory of each configuration, measured in a fresh child process (CPU: peak RSS; CUDA: max allocated).
Part 2 times P @ theta and its backward for D = 2^16..2^20, d = 1000, for the implicit Fastfood transform and a dense
Gaussian matrix (skipped where it would exceed --max-dense-gb). Ratios are measured in the same run. Not a test.
"""
import argparse, json, os, resource, subprocess, sys, time
import numpy as np, torch


def peak_mb(): return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(f, repeat, device):
    "Median wall time of f() over `repeat` calls after one warm-up."
    f()
    ts = []
    for _ in range(repeat):
        if device.type == "cuda": torch.cuda.synchronize()
        t = time.perf_counter(); f()
        if device.type == "cuda": torch.cuda.synchronize()
        ts.append(time.perf_counter() - t)
    return float(np.median(ts))


def one_step(a):
    "Child process: build one configuration, time its training step, report JSON."
    import transformers
    transformers.logging.set_verbosity_error()
    from transformers import AutoModelForSequenceClassification, AutoTokenizer
    from shape_of_learning.models import minilm_path
    from shape_of_learning.data import labeled_texts
    from shape_of_learning.subspace import Subspace
    dev = torch.device(a.device)
    tok = AutoTokenizer.from_pretrained(minilm_path())
    torch.manual_seed(0)
    model = AutoModelForSequenceClassification.from_pretrained(minilm_path(), num_labels=2).to(dev)
    lt = labeled_texts("wiki-topics", max_texts=4 * a.batch)
    enc = tok(lt.texts[:a.batch], padding="max_length", truncation=True, max_length=a.length, return_tensors="pt")
    batch = {**{k: v.to(dev) for k, v in enc.items()}, "labels": torch.as_tensor(lt.labels[:a.batch] % 2).to(dev)}
    if dev.type == "cuda": torch.cuda.synchronize(); torch.cuda.reset_peak_memory_stats()
    base_mem = torch.cuda.memory_allocated() / 2**20 if dev.type == "cuda" else peak_mb()
    t = time.perf_counter()
    net = model if a.one == "plain" else Subspace(model, a.d, a.one)
    build = time.perf_counter() - t
    opt = torch.optim.AdamW([p for p in net.parameters() if p.requires_grad], lr=1e-5)
    net.train()
    def step():
        loss = net(**batch).loss
        opt.zero_grad(set_to_none=True); loss.backward(); opt.step()
    sec = timed(step, a.repeat, dev)
    peak = torch.cuda.max_memory_allocated() / 2**20 if dev.type == "cuda" else peak_mb()
    print(json.dumps(dict(config=a.one, d=a.d, seconds=sec, build=build, base_mb=base_mem, peak_mb=peak,
                          D=sum(p.numel() for p in model.parameters()))))


def projection_bench(a, dev):
    from shape_of_learning.subspace import Fastfood, Dense
    d = a.proj_d
    print(f"\nFastfood vs dense P (d = {d}): forward P @ theta + backward, median of {a.repeat}")
    print(f"{'D':>9s} {'fastfood ms':>12s} {'dense ms':>9s} {'dense/ff':>9s} {'ff MB':>7s} {'dense MB':>9s}")
    for logD in range(16, 21):
        D = 2**logD
        res = {}
        for name, P in [("ff", Fastfood), ("dense", Dense)]:
            if name == "dense" and D * d * 4 / 2**30 > a.max_dense_gb: res[name] = None; continue
            proj = P(d, D, seed=0).to(dev)
            x = torch.zeros(d, device=dev, requires_grad=True)
            g = torch.randn(D, device=dev)
            def f():
                x.grad = None
                (proj(x) * g).sum().backward()
            res[name] = (timed(f, a.repeat, dev), sum(b.numel() * b.element_size() for b in proj.buffers()) / 2**20)
            del proj
        ff, de = res["ff"], res["dense"]
        print(f"{D:9d} {ff[0] * 1e3:12.2f} " + (f"{de[0] * 1e3:9.2f} {de[0] / ff[0]:9.2f} {ff[1]:7.1f} {de[1]:9.1f}"
              if de else f"{'-':>9s} {'-':>9s} {ff[1]:7.1f} {'(> ' + str(a.max_dense_gb) + ' GB)':>9s}"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ds", default="1000,10000,100000"); ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--length", type=int, default=64); ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--device", default="cpu"); ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--proj-d", type=int, default=1000); ap.add_argument("--max-dense-gb", type=float, default=1.0)
    ap.add_argument("--skip-steps", action="store_true"); ap.add_argument("--skip-proj", action="store_true")
    ap.add_argument("--one", help=argparse.SUPPRESS); ap.add_argument("--d", type=int, default=0, help=argparse.SUPPRESS)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    if a.one: return one_step(a)
    dev = torch.device(a.device)
    print(f"bench_subspace  torch {torch.__version__}  device {dev}  threads {torch.get_num_threads()}  "
          f"load average {os.getloadavg()[0]:.2f}")
    if not a.skip_steps:
        print(f"\nMiniLM + 2-way head, batch {a.batch} x length {a.length}: one training step (fwd + bwd + AdamW), "
              f"median of {a.repeat}; each row in a fresh process")
        configs = [("plain", 0)] + [(m, int(d)) for m in ("did", "said") for d in a.ds.split(",")]
        rows = []
        for cfg, d in configs:
            out = subprocess.run([sys.executable, __file__, "--one", cfg, "--d", str(d), "--batch", str(a.batch),
                                  "--length", str(a.length), "--repeat", str(a.repeat), "--device", a.device,
                                  "--threads", str(a.threads)], capture_output=True, text=True)
            line = [l for l in out.stdout.splitlines() if l.startswith("{")]
            if not line: print(out.stderr[-2000:]); raise SystemExit(f"{cfg} d={d} failed")
            rows.append(json.loads(line[-1]))
        plain = rows[0]
        print(f"D = {plain['D']:,} parameters")
        print(f"{'config':>8s} {'d':>7s} {'step s':>7s} {'x plain':>8s} {'build s':>8s} {'peak MB':>8s} {'x plain':>8s} {'+MB over load':>14s}")
        for r in rows:
            print(f"{r['config']:>8s} {r['d'] or '-':>7} {r['seconds']:7.3f} {r['seconds'] / plain['seconds']:8.2f} "
                  f"{r['build']:8.2f} {r['peak_mb']:8.0f} {r['peak_mb'] / plain['peak_mb']:8.2f} {r['peak_mb'] - r['base_mb']:14.0f}")
    if not a.skip_proj: projection_bench(a, dev)


if __name__ == "__main__":
    main()
