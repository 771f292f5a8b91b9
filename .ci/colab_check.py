#!/usr/bin/env python
"""Checks of CI's Colab-shaped environment, run with its Python (`_colab/bin/python .ci/colab_check.py WHAT`):

- `install-cell`: before the install cell's command runs there, `pip install --dry-run --report` of it
  (`pip install -e ".[colab]"`): it may add packages, but none that is installed at another version (on Colab that
  replaces a package the runtime imported at start-up). Exit 1 naming each one.
- `widgets`: tqdm's notebook bars render in a kernel of this environment (Colab's ipywidgets): `tqdm.notebook.tqdm`
  builds its ipywidgets.HBox, `tqdm.auto` picks it, no TqdmWarning (the text-bar fallback), and the kernel sends the
  widget's view (application/vnd.jupyter.widget-view+json) as a front end receives it.
"""
import json, os, subprocess, sys, tempfile
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CELL = ["-e", ".[colab]"]      # the install cell's `pip install -q -e {home}[colab]`, as the README's command spells it


def norm(name):
    import re
    return re.sub(r"[-_.]+", "-", name).lower()


def install_cell():
    with tempfile.TemporaryDirectory() as d:
        report = Path(d, "report.json")
        p = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--report", str(report), *CELL],
                           cwd=ROOT, capture_output=True, text=True)
        if p.returncode:
            sys.exit(f"colab_check: the install cell's dry run failed (exit {p.returncode}):\n{p.stderr}")
        plan = [(i["metadata"]["name"], i["metadata"]["version"]) for i in json.loads(report.read_text())["install"]]
    have = {norm(d.metadata["Name"]): d.version for d in metadata.distributions()}
    replaced = [f"{n} {have[norm(n)]} -> {v}" for n, v in plan if norm(n) in have and have[norm(n)] != v
                and norm(n) != "shape-of-learning"]
    added = [f"{n}=={v}" for n, v in plan if norm(n) not in have]
    print(f"colab_check: the install cell adds {len(added)}: {', '.join(added)}")
    if replaced:
        sys.exit(f"colab_check: the install cell would replace {len(replaced)} of Colab's packages (fix pyproject.toml's "
                 f"requirements): {'; '.join(replaced)}")
    print(f"colab_check: it replaces none of the {len(have)} installed packages")


KERNEL_CODE = r"""
import warnings, ipywidgets, tqdm
warnings.simplefilter("error", tqdm.TqdmWarning)
from tqdm.notebook import tqdm as notebook_tqdm
from tqdm.auto import tqdm as auto_tqdm
assert issubclass(auto_tqdm, notebook_tqdm), auto_tqdm.__mro__
bar = notebook_tqdm(range(3), desc="widget check")
for _ in bar: pass
assert isinstance(bar.container, ipywidgets.HBox), type(bar.container)
assert bar.container.children[1].value == 3, bar.container.children[1].value
print("versions", ipywidgets.__version__, tqdm.__version__)
"""


def widgets():
    from jupyter_client.manager import start_new_kernel
    km, kc = start_new_kernel(kernel_name="python3", env=dict(os.environ, PYDEVD_DISABLE_FILE_VALIDATION="1"))
    msgs = []
    try:
        reply = kc.execute_interactive(KERNEL_CODE, output_hook=msgs.append, timeout=120)
    finally:
        kc.stop_channels(); km.shutdown_kernel(now=True)
    kinds = [m["header"]["msg_type"] for m in msgs]
    text = "".join(m["content"].get("text", "") for m in msgs if m["header"]["msg_type"] == "stream")
    views = [m for m in msgs if m["header"]["msg_type"] == "display_data"
             and "application/vnd.jupyter.widget-view+json" in m["content"]["data"]]
    errors = [m["content"] for m in msgs if m["header"]["msg_type"] == "error"]
    if reply["content"]["status"] != "ok" or errors:
        e = (errors or [reply["content"]])[0]
        sys.exit(f"colab_check: tqdm's notebook bar failed in the kernel: {e.get('ename')}: {e.get('evalue')}")
    if not views:
        sys.exit(f"colab_check: the kernel sent no widget view for tqdm's bar (messages: {kinds}; output: {text!r})")
    if "IProgress not found" in text or "TqdmWarning" in text:
        sys.exit(f"colab_check: tqdm fell back to text bars: {text!r}")
    iw, tq = text.split('versions')[-1].split()[:2]
    print(f"colab_check: tqdm's notebook bar renders as a widget (ipywidgets {iw}, tqdm {tq})")


if __name__ == "__main__":
    what = sys.argv[1:] or ["install-cell"]
    for w in what: {"install-cell": install_cell, "widgets": widgets}[w]()
