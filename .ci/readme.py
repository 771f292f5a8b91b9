"""Write README.md from nbs/index.ipynb (quarto, which `nbdev-readme` needs, cannot be installed here).

Markdown cells are copied, code cells become ```python blocks, and their stream/text outputs follow as plain
blocks. `python .ci/readme.py --check` exits 1 when README.md is out of step with the notebook.
"""
import json, sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent

def render(nb_path=root / "nbs" / "index.ipynb") -> str:
    nb = json.loads(Path(nb_path).read_text())
    out = []
    for c in nb["cells"]:
        src = "".join(c["source"]).strip()
        if not src or src.startswith("#| hide"): continue
        if c["cell_type"] == "markdown": out.append(src)
        elif c["cell_type"] == "code":
            out.append(f"```python\n{src}\n```")
            text = "".join("".join(o.get("text", "")) if o.get("output_type") == "stream"
                           else "".join(o.get("data", {}).get("text/plain", ""))
                           for o in c.get("outputs", []) if o.get("output_type") in ("stream", "execute_result"))
            if text.strip(): out.append(f"```\n{text.rstrip()}\n```")
    text = "\n\n".join(out).replace("](../figures/", "](figures/")   # the notebook sits in nbs/, the README at the root
    return "<!-- generated from nbs/index.ipynb by .ci/readme.py; edit the notebook -->\n\n" + text + "\n"

if __name__ == "__main__":
    text, readme = render(), root / "README.md"
    if "--check" in sys.argv:
        if not readme.exists() or readme.read_text() != text:
            sys.exit("README.md is out of step with nbs/index.ipynb: run `python .ci/readme.py`")
        print("README.md is in step with nbs/index.ipynb")
    else:
        readme.write_text(text)
        print(f"wrote {readme}")
