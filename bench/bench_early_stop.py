"""Benchmark: a profile of a few layers with the early stop (`layer_states(..., layers=)`) against the same profile
with the whole forward pass (issue 16).

Run:  python bench/bench_early_stop.py [--model smollm2] [--tokens 8192] [--layers 0,1,2 --layers 0,8 ...] [--device cuda]

Every configuration runs in its own process, so that its peak memory is its own: on CPU the peak resident set
(ru_maxrss) minus the resident set after loading the model; on CUDA `torch.cuda.max_memory_allocated` minus the
model's allocation. The baseline of each line is the same profile (same layers, same windows, same metrics) with the
early stop switched off (`hidden.block_list` made to return None, so `layer_states` runs every block and keeps every
hidden state, as before issue 16). Prints seconds, peak memory, and the ratios early / full. Not a test: never run in CI.
"""
import argparse, json, os, resource, subprocess, sys, time


def child(a):
    import torch
    import shape_of_learning.hidden as H
    from shape_of_learning.profile import layer_profile
    from shape_of_learning.models import load_model
    from shape_of_learning.data import wiki_source
    torch.set_num_threads(os.cpu_count())
    model, tok, kind = load_model(a.model, device=a.device)
    cuda = str(model.device).startswith("cuda")
    if not a.early: H.block_list = lambda model: None            # the whole pass, every hidden state kept
    layers = [int(x) for x in a.layers[-1].split(",")]
    kw = dict(metrics=("anisotropy", "intersim"), n_tokens=a.tokens, window=a.window, batch_size=min(4096, a.tokens),
              layers=layers, forward_batch=a.forward_batch)
    layer_profile(model, tok, wiki_source(), n_tokens=a.window, **{k: v for k, v in kw.items() if k != "n_tokens"})  # warm-up
    if cuda: torch.cuda.synchronize(); torch.cuda.reset_peak_memory_stats(); base = torch.cuda.memory_allocated()
    else: base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    t = time.perf_counter()
    prof = layer_profile(model, tok, wiki_source(), **kw)
    if cuda: torch.cuda.synchronize()
    dt = time.perf_counter() - t
    peak = (torch.cuda.max_memory_allocated() if cuda else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024) - base
    print(json.dumps(dict(seconds=dt, peak=peak, values=prof.value.round(12).tolist(), n_layers=model.config.num_hidden_layers)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="smollm2"); ap.add_argument("--tokens", type=int, default=8192)
    ap.add_argument("--window", type=int, default=512); ap.add_argument("--forward-batch", type=int, default=8)
    ap.add_argument("--device", default=None)
    ap.add_argument("--layers", action="append", help="comma-separated entries; repeat for several lines")
    ap.add_argument("--child", action="store_true"); ap.add_argument("--early", type=int, default=1)
    a = ap.parse_args()
    if a.child: return child(a)
    sets = a.layers or ["0,1,2", "0,4,8", "0,15"]
    print(f"bench_early_stop  model {a.model}, {a.tokens} tokens in windows of {a.window}, forward batch {a.forward_batch}, "
          f"metrics anisotropy + intersim, device {a.device or 'cpu'}; each line in its own process")
    print(f"{'layers':>12} {'full s':>8} {'early s':>8} {'time':>6} {'full MB':>8} {'early MB':>9} {'memory':>7}  same values")
    for s in sets:
        out = {}
        for early in (0, 1):
            cmd = [sys.executable, __file__, "--child", "--early", str(early), "--layers", s, "--model", a.model, "--tokens",
                   str(a.tokens), "--window", str(a.window), "--forward-batch", str(a.forward_batch)] + \
                  (["--device", a.device] if a.device else [])
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode: sys.exit(f"child failed ({s}, early={early}):\n{r.stderr[-3000:]}")
            out[early] = json.loads(r.stdout.strip().splitlines()[-1])
        f, e = out[0], out[1]
        print(f"{s:>12} {f['seconds']:8.1f} {e['seconds']:8.1f} {e['seconds'] / f['seconds']:5.2f}x {f['peak'] / 2**20:8.0f} "
              f"{e['peak'] / 2**20:9.0f} {e['peak'] / max(f['peak'], 1):6.2f}x  {f['values'] == e['values']}")
    print(f"({out[1]['n_layers']} blocks; time and memory are early / full; memory is the peak above the loaded model)")


if __name__ == "__main__":
    main()
