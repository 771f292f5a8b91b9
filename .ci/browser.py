"""The notebooks and the docs site as a reader sees them: JupyterLab and the built site in headless Chromium.

  python .ci/browser.py [--executed _executed] [--docs _docs] [--shots _screenshots]

Starts JupyterLab and a static server for the docs site on 127.0.0.1, drives Debian's Chromium (/usr/bin/chromium,
or $SOL_CHROMIUM) with Playwright, and checks what a reader would see:

1. JupyterLab, nbs/index.ipynb: every gallery image of the front page is fetched and decoded (naturalWidth > 0),
   at least as many as the notebook's markdown links.
2. JupyterLab, each executed figure notebook (sol-runall's copies in EXECUTED/figures/): every figure output
   renders as an image, and there are as many as the notebook has image outputs; no error output is shown.
3. JupyterLab's own Run All (Run > Run All Cells, clicked) on the figure notebooks named by --run-all (default:
   p2_cosine; `all` for every one): a copy beside the notebook (nbs/figures/_runall_NAME.ipynb, removed after) is run
   in a real kernel, saved, and its outputs read back: the time until the last cell finished, error outputs (none
   allowed), and figures shown.
4. The docs site (DOCS/, built by `python docs/build.py`): every page reached by following internal links from
   the front page loads (HTTP 200), every anchor a link names exists on its page, and every image decodes.

One screenshot per page goes to SHOTS/ (ignored by git; CI keeps it as an artifact). Exits 1 naming each failure,
2 when the browser or JupyterLab cannot start (with what to install).
"""
from __future__ import annotations
import argparse, contextlib, functools, http.server, json, os, re, secrets, shutil, socket, subprocess, sys, tempfile
import threading, time, urllib.parse, urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage"]
INDEX_NOTEBOOKS = {"00_tasks"}        # nbs/figures' list of tasks (the figures package's __init__): a table, no figure
INSTALL = "apt-get install -y chromium && pip install -e '.[browser]'"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0)); return s.getsockname()[1]


def wait_for(url: str, seconds: float = 90) -> None:
    "Poll `url` until it answers 200, or fail after `seconds`."
    end = time.time() + seconds
    while time.time() < end:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200: return
        except OSError: time.sleep(0.3)
    raise TimeoutError(f"{url} did not answer within {seconds:g} s")


@contextlib.contextmanager
def jupyterlab(root: Path, log: Path):
    "JupyterLab on 127.0.0.1 serving `root`, with notebook windowing off (every cell rendered, not only those in view)."
    token, port = secrets.token_hex(16), free_port()
    with tempfile.TemporaryDirectory() as home:
        settings = Path(home, "settings", "@jupyterlab", "notebook-extension")
        settings.mkdir(parents=True)
        (settings / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
        docs = Path(home, "settings", "@jupyterlab", "docmanager-extension"); docs.mkdir(parents=True)
        (docs / "plugin.jupyterlab-settings").write_text(json.dumps({"autosave": False}))   # nothing written unasked
        news = Path(home, "settings", "@jupyterlab", "apputils-extension"); news.mkdir(parents=True)
        (news / "notification.jupyterlab-settings").write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}))
        env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}    # a reader's kernel draws inline (CI sets Agg)
        env.update(JUPYTER_CONFIG_DIR=str(Path(home, "config")), JUPYTER_RUNTIME_DIR=str(Path(home, "runtime")),
                   JUPYTERLAB_SETTINGS_DIR=str(Path(home, "settings")), JUPYTERLAB_WORKSPACES_DIR=str(Path(home, "ws")))
        cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
               f"--ServerApp.root_dir={root}", f"--IdentityProvider.token={token}", "--ServerApp.open_browser=False",
               "--allow-root", "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
        with open(log, "w") as out:
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
            try:
                wait_for(f"http://127.0.0.1:{port}/api/status?token={token}")
                yield f"http://127.0.0.1:{port}", token
            finally:
                proc.terminate()
                try: proc.wait(10)
                except subprocess.TimeoutExpired: proc.kill()


@contextlib.contextmanager
def static_server(folder: Path):
    "The built docs site on 127.0.0.1 (Python's http.server, quiet)."
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args): pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True); thread.start()
    try: yield f"http://127.0.0.1:{server.server_address[1]}"
    finally: server.shutdown()


def notebook_images(path: Path) -> tuple:
    "(markdown image links, image outputs, error outputs) of a notebook, read from its JSON: what the browser must show."
    nb = json.loads(path.read_text())
    md = sum(len(re.findall(r"!\[[^\]]*\]\(|<img\b", "".join(c["source"]))) for c in nb["cells"] if c["cell_type"] == "markdown")
    outputs = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])]
    images = sum(any(k.startswith("image/") for k in o.get("data", {})) for o in outputs)
    errors = sum(o.get("output_type") == "error" for o in outputs)
    return md, images, errors


# images served from elsewhere (the Colab badge) cannot load on a closed network: they are counted, not checked
IMAGES_JS = """sel => Array.from(document.querySelectorAll(sel))
              .filter(i => !/^https?:/.test(i.src) || new URL(i.src).origin === location.origin)
              .map(i => ({src: (i.getAttribute('src') || '').slice(0, 120), ok: i.complete && i.naturalWidth > 0}))"""
EXTERNAL_JS = """sel => Array.from(document.querySelectorAll(sel)).filter(i => /^https?:/.test(i.src) && new URL(i.src).origin !== location.origin).length"""


def settle_images(page, selector: str, want: int, seconds: float = 60) -> list:
    "The images under `selector` once at least `want` are there and every one has finished loading (or `seconds` passed)."
    end = time.time() + seconds
    while True:
        found = page.evaluate(IMAGES_JS, selector)
        if (len(found) >= want and all(i["ok"] for i in found)) or time.time() > end: return found
        page.wait_for_timeout(300)


def check_lab_notebook(page, base: str, token: str, rel: str, want_md: int, want_out: int, shots: Path, name: str) -> list:
    "Open `rel` in JupyterLab; the failures seen (empty: all images of the notebook rendered, no error shown)."
    failures, start = [], time.time()
    page.goto(f"{base}/lab/tree/{urllib.parse.quote(rel)}?token={token}&reset", wait_until="domcontentloaded")
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
    page.wait_for_timeout(500)
    md = settle_images(page, ".jp-Notebook .jp-MarkdownOutput img", want_md) if want_md else []
    out = settle_images(page, ".jp-Notebook .jp-OutputArea-output img", want_out) if want_out else []
    bad = [i["src"] for i in md + out if not i["ok"]]
    if len(md) < want_md: failures.append(f"{rel}: {len(md)} of the {want_md} markdown images are in the page")
    if len(out) < want_out: failures.append(f"{rel}: {len(out)} of the {want_out} figure outputs rendered")
    if bad: failures.append(f"{rel}: {len(bad)} image(s) did not load, e.g. {bad[0]}")
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count()
    tracebacks = page.locator(".jp-RenderedText[data-mime-type='application/vnd.jupyter.error']").count()
    if tracebacks: failures.append(f"{rel}: {tracebacks} error output(s) shown")
    for selector in (".jp-Notebook .jp-OutputArea-output img", ".jp-Notebook .jp-MarkdownOutput img[src*='/files/']"):
        if page.locator(selector).count():                          # the screenshot shows the first figure
            page.locator(selector).first.evaluate("e => e.scrollIntoView({block: 'start'})"); page.wait_for_timeout(300); break
    page.screenshot(path=str(shots / f"lab_{name}.png"), full_page=False)
    print(f"  JupyterLab {rel}: {sum(i['ok'] for i in md)}/{want_md} markdown images, "
          f"{sum(i['ok'] for i in out)}/{want_out} figures, {errors} stderr output(s), {tracebacks} error(s) "
          f"({time.time() - start:.1f} s)")
    return failures


def lab_run_all(page, base: str, token: str, notebook: Path, shots: Path, timeout: float = 900) -> tuple:
    "JupyterLab's Run All on a copy of `notebook` beside it: (seconds, error outputs, image outputs, code cells run, code cells)."
    copy = notebook.with_name(f"_runall_{notebook.name}")
    shutil.copyfile(notebook, copy)
    try:
        page.goto(f"{base}/lab/tree/{urllib.parse.quote(str(copy.relative_to(ROOT)))}?token={token}&reset", wait_until="domcontentloaded")
        page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
        page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=90_000)   # the kernel is up
        start = time.time()
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        page.wait_for_timeout(1000)
        def settled() -> bool:                        # no cell waiting or running ([*]) and the kernel idle
            busy = page.evaluate("() => Array.from(document.querySelectorAll('.jp-Notebook .jp-InputPrompt')).some(p => p.textContent.includes('*'))")
            return not busy and page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").count() > 0
        while time.time() - start < timeout:          # settled twice, 1.5 s apart: the next cell had its chance to start
            if settled():
                page.wait_for_timeout(1500)
                if settled(): break
            page.wait_for_timeout(500)
        seconds = time.time() - start
        page.keyboard.press("Control+s"); page.wait_for_timeout(1500)
        shown = page.locator(".jp-Notebook .jp-OutputArea-output img")
        if shown.count(): shown.first.evaluate("e => e.scrollIntoView({block: 'start'})"); page.wait_for_timeout(300)
        page.screenshot(path=str(shots / f"lab_runall_{notebook.stem}.png"))
        nb = json.loads(copy.read_text())
        code = [c for c in nb["cells"] if c["cell_type"] == "code"]
        outputs = [o for c in code for o in c.get("outputs", [])]
        errors = [o for o in outputs if o.get("output_type") == "error"]
        images = sum(any(k.startswith("image/") for k in o.get("data", {})) for o in outputs)
        ran = sum(c.get("execution_count") is not None for c in code)
        return seconds, errors, images, ran, len(code)
    finally:
        for leftover in (copy, copy.with_name(f".~{copy.name}"),          # the copy, and what saving it in JupyterLab left
                         copy.parent / ".ipynb_checkpoints" / f"{copy.stem}-checkpoint.ipynb"):
            leftover.unlink(missing_ok=True)
        with contextlib.suppress(OSError): (copy.parent / ".ipynb_checkpoints").rmdir()     # only when it is empty


def crawl_docs(page, base: str, shots: Path, limit: int = 400) -> tuple:
    "Every docs page reachable from the front page by internal links: (failures, pages seen, links checked, images of the site)."
    failures, seen, queue, anchors_wanted, n_links, n_images, n_external = [], {}, ["/index.html"], [], 0, 0, 0
    while queue and len(seen) < limit:
        path = queue.pop(0)
        if path in seen: continue
        response = page.goto(base + path, wait_until="load")
        seen[path] = response.status if response else 0
        if seen[path] != 200: failures.append(f"docs: {path} answered {seen[path]}"); continue
        images = settle_images(page, "img", 0, seconds=20)
        n_images += len(images); n_external += page.evaluate(EXTERNAL_JS, "img")
        failures += [f"docs: {path}: image {i['src']} did not load" for i in images if not i["ok"]]
        ids = set(page.evaluate("() => Array.from(document.querySelectorAll('[id]')).map(e => e.id)"))
        seen[path] = (200, ids)
        if len(seen) <= 3 or "figures" in path and len([p for p in seen if "figures" in p]) <= 2:
            page.screenshot(path=str(shots / f"docs_{path.strip('/').replace('/', '_')}.png"))
        for href in page.evaluate("() => Array.from(document.querySelectorAll('a[href]')).map(a => a.href)"):
            url = urllib.parse.urlsplit(href)
            if url.scheme not in ("http", "https") or f"{url.scheme}://{url.netloc}" != base: continue
            n_links += 1
            target = url.path if not url.path.endswith("/") else url.path + "index.html"
            if url.fragment: anchors_wanted.append((path, target, urllib.parse.unquote(url.fragment)))
            if target.endswith(".html") and target not in seen and target not in queue: queue.append(target)
            elif not target.endswith(".html") and target not in seen:
                with contextlib.suppress(Exception):
                    seen[target] = urllib.request.urlopen(base + urllib.parse.quote(target), timeout=10).status
                if seen.get(target) != 200: failures.append(f"docs: {path} links {target}, which does not load")
    for page_path, target, anchor in anchors_wanted:
        entry = seen.get(target)
        if isinstance(entry, tuple) and anchor not in entry[1]:
            failures.append(f"docs: {page_path} links {target}#{anchor}, and that page has no such anchor")
    print(f"  {n_external} image(s) from other sites (the Colab badge) not checked: the network is closed")
    return failures, len(seen), n_links, n_images


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--executed", default="_executed", help="where sol-runall put the executed figure notebooks")
    parser.add_argument("--docs", default="_docs", help="the built docs site (python docs/build.py)")
    parser.add_argument("--run-all", default="p2_cosine",
                        help="figure notebooks (comma-separated names, or all, or none) to run with JupyterLab's Run All")
    parser.add_argument("--shots", default="_screenshots", help="folder for the screenshots (ignored by git)")
    args = parser.parse_args(argv)
    executed, docs, shots = ROOT / args.executed, ROOT / args.docs, ROOT / args.shots
    if not executed.resolve().is_relative_to(ROOT):   # JupyterLab serves the repository: the copies must be inside it
        print(f"browser check: --executed {args.executed} is outside the repository {ROOT}; copy it inside", file=sys.stderr); return 2
    shots.mkdir(parents=True, exist_ok=True)
    chromium = os.environ.get("SOL_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print(f"browser check: Playwright is not installed ({INSTALL})", file=sys.stderr); return 2
    if not chromium:
        print(f"browser check: no Chromium found (set SOL_CHROMIUM, or: {INSTALL})", file=sys.stderr); return 2
    figures = sorted((executed / "figures").glob("*.ipynb"))
    if not figures:
        print(f"browser check: no executed figure notebooks in {executed}/figures (run sol-runall first)", file=sys.stderr); return 2
    if not (docs / "index.html").is_file():
        print(f"browser check: no docs site in {docs} (run python docs/build.py first)", file=sys.stderr); return 2
    names = [n for n in args.run_all.split(",") if n and n != "none"]
    sources = {p.stem: p for p in sorted((ROOT / "nbs" / "figures").glob("*.ipynb")) if not p.name.startswith("_")}
    unknown = [n for n in names if n != "all" and n not in sources]
    if unknown:
        print(f"browser check: --run-all names no figure notebook {unknown}; there are {', '.join(sources)}", file=sys.stderr); return 2
    to_run = list(sources.values()) if "all" in names else [sources[n] for n in names]
    failures, start = [], time.time()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        with jupyterlab(ROOT, shots / "jupyterlab.log") as (base, token):
            print(f"== JupyterLab on {base} (Chromium {browser.version})")
            want_md, _, _ = notebook_images(ROOT / "nbs" / "index.ipynb")
            failures += check_lab_notebook(page, base, token, "nbs/index.ipynb", want_md, 0, shots, "index")
            for nb in figures:
                md, images, errors = notebook_images(nb)
                if errors: failures.append(f"{nb.relative_to(ROOT)}: the executed notebook holds {errors} error output(s)")
                if not images and nb.stem not in INDEX_NOTEBOOKS:
                    failures.append(f"{nb.relative_to(ROOT)}: the executed notebook holds no figure")
                failures += check_lab_notebook(page, base, token, str(nb.relative_to(ROOT)), 0, images, shots, nb.stem)
            for nb in to_run:
                seconds, errors, images, ran, cells = lab_run_all(page, base, token, nb, shots)
                print(f"  JupyterLab Run All {nb.relative_to(ROOT)}: {ran}/{cells} code cells run in {seconds:.0f} s, "
                      f"{len(errors)} error(s), {images} figure(s)")
                if errors: failures.append(f"Run All {nb.name}: {errors[0].get('ename')}: {str(errors[0].get('evalue'))[:200]}")
                if ran < cells: failures.append(f"Run All {nb.name}: {cells - ran} of {cells} code cells did not run")
                if not images and nb.stem not in INDEX_NOTEBOOKS: failures.append(f"Run All {nb.name}: no figure shown")
        with static_server(docs) as base:
            print(f"== docs site on {base}")
            docs_failures, pages, links, images = crawl_docs(page, base, shots)
            failures += docs_failures
            print(f"  {pages} pages and files, {links} internal links, {images} images")
        browser.close()
    print(f"browser check: {len(failures)} failure(s) in {time.time() - start:.0f} s; screenshots in {shots.relative_to(ROOT)}/")
    for f in failures: print("  FAILED", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
