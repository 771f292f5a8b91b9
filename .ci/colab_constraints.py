#!/usr/bin/env python
"""Write `.ci/colab-constraints.txt`: Colab's GPU runtime's version of every package that CI's Colab-shaped environment
installs (torch, ipykernel and `pip install -e ".[colab]"`, transitively) and that Colab also has.

    python .ci/colab_constraints.py PIP_FREEZE [--source "DATE COMMIT"] [--out .ci/colab-constraints.txt]

PIP_FREEZE is googlecolab/backend-info's `pip-freeze.gpu.txt` (CI has no copy and needs none: it reads only the file this
writes). When Colab moves (a new commit there touching pip-freeze.gpu.txt), update with, from the repository root:

    git clone -q https://github.com/googlecolab/backend-info /tmp/backend-info
    python .ci/colab_constraints.py /tmp/backend-info/pip-freeze.gpu.txt \
        --source "$(git -C /tmp/backend-info log -1 --format='%ad %H' --date=short -- pip-freeze.gpu.txt)"

then build the Colab-shaped environment as `.ci/run` does and run the rehearsal (README, "The paper run as a Colab reader
meets it"); `pyproject.toml`'s minimums for the packages Colab has are Colab's versions (the oldest CI tests): raise them
to the new ones, and commit both with what the rehearsal measured.

How: one `pip install --dry-run --ignore-installed --only-binary :all: --report` of what `.ci/run` installs there, with
every `NAME==VERSION` line of the freeze file as a constraint (less the exceptions below), on this Python (CI's, 3.11; Colab's
is 3.13). Its install list is the environment; each package of it that Colab has is written with Colab's version.
`--only-binary` makes a pin without a wheel for this Python fail the resolution; such a pin is then dropped, the
resolution run again, and the package named in the file's header with the version pip chose instead. A pin that
conflicts with this project's own requirements also fails it: that is the install cell replacing one of Colab's
packages, and this script stops and names it (fix `pyproject.toml`, or add an exception below with its reason).
Needs PyPI (the resolution), as every pip install does.
"""
import argparse, json, re, subprocess, sys, tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# what .ci/run installs in the Colab-shaped environment: the CPU torch (below), ipykernel (Colab's kernel), the install cell's extra
TORCH = "torch==2.13.0"
INSTALL = [TORCH, "ipykernel", "-e", ".[colab]"]
# Colab's pins that CI does not take, with the reason written into the file
EXCEPTIONS = {
    "torch": "Colab's is a CUDA build; no CPU wheel of 2.11.0 is installable here (PyPI's 2.11.0 is the CUDA 13 build with "
             "several GB of nvidia-* packages), so CI installs the local CPU wheel torch==2.13.0 instead (.ci/run names it "
             "beside this file)",
    "torchvision": "a CUDA build beside Colab's torch; nothing here installs it",
    "torchaudio": "a CUDA build beside Colab's torch; nothing here installs it",
    "torchcodec": "a CUDA build beside Colab's torch; nothing here installs it",
    "setuptools": "torch 2.13.0 (CI's CPU build, above) requires setuptools>=77.0.3: pip's newest is taken",
}


def norm(name): return re.sub(r"[-_.]+", "-", name).lower()


def read_freeze(path):
    "`{normalised name: (name, version)}` of the freeze file's `NAME==VERSION` lines (URL and VCS lines skipped)"
    pins = {}
    for line in Path(path).read_text().splitlines():
        m = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)\s*$", line)
        if m: pins[norm(m[1])] = (m[1], m[2])
    return pins


def resolve(pins, skip):
    "pip's dry-run resolution of INSTALL under `pins` less `skip`: (install list [(name, version)], pip's stderr, rc)"
    with tempfile.TemporaryDirectory() as d:
        cons, report = Path(d, "constraints.txt"), Path(d, "report.json")
        cons.write_text("".join(f"{n}=={v}\n" for k, (n, v) in sorted(pins.items()) if k not in skip))
        p = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--only-binary", ":all:",
                            "--quiet", "--report", str(report), "-c", str(cons), *INSTALL], cwd=ROOT, capture_output=True, text=True)
        if p.returncode: return None, p.stderr, p.returncode
        r = json.loads(report.read_text())
        return [(i["metadata"]["name"], i["metadata"]["version"]) for i in r["install"]], p.stderr, 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("freeze", help="googlecolab/backend-info's pip-freeze.gpu.txt")
    ap.add_argument("--source", default="", help='its date and commit, e.g. "2026-08-19 a724079..." (git log -1 of the file)')
    ap.add_argument("--out", default=str(ROOT / ".ci" / "colab-constraints.txt"))
    a = ap.parse_args()
    pins, skip, no_wheel = read_freeze(a.freeze), set(EXCEPTIONS), {}
    for _ in range(20):
        inst, err, rc = resolve(pins, skip | set(no_wheel))
        if inst is not None: break
        # a pin with no wheel for this Python: "No matching distribution found for NAME==VERSION"
        m = re.search(r"No matching distribution found for ([A-Za-z0-9._-]+)==", err)
        if m and norm(m[1]) in pins and norm(m[1]) not in no_wheel:
            no_wheel[norm(m[1])] = None
            continue
        sys.exit(f"colab_constraints: pip could not install Colab's versions (exit {rc}): a conflict with pyproject.toml's "
                 f"requirements is the install cell replacing a package Colab ships; fix it there, or add an exception here\n{err}")
    else:
        sys.exit("colab_constraints: too many pins without a wheel for this Python")
    chosen = {norm(n): v for n, v in inst}
    for k in no_wheel: no_wheel[k] = chosen.get(k)
    py = ".".join(map(str, sys.version_info[:2]))
    lines = [
        "# Colab's GPU runtime's versions of everything CI's Colab-shaped environment installs that Colab also has",
        f"# (torch, ipykernel and pip install -e \".[colab]\", transitively; {len(inst)} packages, {len(inst) - 1} less the project).",
        f"# Generated by .ci/colab_constraints.py from googlecolab/backend-info's pip-freeze.gpu.txt of {a.source or '(source not given)'}:",
        "# do not edit; its docstring says how to update it when Colab moves. .ci/run installs these lines as requirements",
        "# (Colab has them before the install cell runs), then the install cell's pip install -e \".[colab]\" unconstrained.",
        f"# Resolved for Python {py} (CI's; Colab's is 3.13) from wheels only.",
        f"# No wheel for Python {py} at Colab's version: "
        + (", ".join(f"{pins[k][0]}=={pins[k][1]} (CI gets {v})" for k, v in sorted(no_wheel.items())) or "none") + ".",
        "# Not taken from Colab:",
        *(f"#   {pins[k][0]}=={pins[k][1]}: {why}" for k, why in EXCEPTIONS.items() if k in pins and k in chosen),
        "# In the environment and not in Colab's freeze (pip's newest): "
        + ", ".join(f"{n}=={v}" for n, v in sorted(inst, key=lambda t: norm(t[0]))
                    if norm(n) not in pins and norm(n) != "shape-of-learning") + ".",
    ]
    body = [f"{pins[norm(n)][0]}=={pins[norm(n)][1]}" for n, v in sorted(inst, key=lambda t: norm(t[0]))
            if norm(n) in pins and norm(n) not in skip and norm(n) not in no_wheel]
    Path(a.out).write_text("\n".join(lines + body) + "\n")
    print(f"colab_constraints: {len(body)} pins written to {a.out}; no wheel: {len(no_wheel)}; exceptions taken: "
          f"{sorted(k for k in EXCEPTIONS if k in chosen)}")


if __name__ == "__main__": main()
