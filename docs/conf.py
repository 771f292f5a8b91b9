"""Sphinx configuration of the documentation site. Build it with `python docs/build.py`, which stages the notebooks
and the API pages under build/docs/src/ and runs Sphinx with this file (see that script's docstring)."""
from pathlib import Path
from nbdev.config import get_config

cfg = get_config(path=Path(__file__).resolve().parent.parent)
project = cfg.lib_name
author = cfg.author
html_title = cfg.lib_name
html_baseurl = f"{cfg.doc_host.rstrip('/')}{cfg.doc_baseurl.rstrip('/')}/"      # the [project.urls] Documentation
language = "en"

extensions = ["myst_nb"]
root_doc = "index"
exclude_patterns = ["**.ipynb_checkpoints"]

# notebooks are rendered as they are: committed without outputs, or the executed copies build.py picked
nb_execution_mode = "off"
nb_merge_streams = True
nb_render_markdown_format = "myst"       # Markdown outputs (display(Markdown(...))) as the prose is
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "attrs_inline"]
myst_dmath_double_inline = True
suppress_warnings = ["myst.header"]      # nbdev pages jump heading levels (a show_doc's ### under a notebook's #)

html_theme = "furo"
html_static_path = ["_static"]
html_css_files = ["sol.css"]
html_copy_source = False                 # no _sources/ copies of the staged notebooks
html_show_sourcelink = False
html_theme_options = {"source_repository": cfg.git_url + "/", "source_branch": cfg.branch, "source_directory": "nbs/",
                      "top_of_page_buttons": []}
pygments_style = "friendly"
