"""Rules of the client's own source, read with ``ast`` (no engine, no Textual needed):

- no module of ``stol_client`` imports itself back through others, counting every import (inside
  functions and under ``TYPE_CHECKING`` too); in the browser, the app imports the tabs and the
  tabs import a small shared base, never the app or each other;
- the CLI and the browser format answers with one shared module, ``stol_client.format``, which
  needs neither Textual nor Rich;
- what shows answers reads only keys that ``protocol/openrpc.json`` documents.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Set, Tuple

from _engine_support import REPO_ROOT, SRC

PACKAGE = SRC / "stol_client"


def module_name(root: Path, path: Path) -> str:
    """``stol_client.tui.app`` for ``<root>/stol_client/tui/app.py``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path, package: str) -> Dict[str, Path]:
    """Every module of ``package`` under ``root``, by dotted name."""
    return {module_name(root, path): path for path in sorted((root / package).rglob("*.py"))}


def imports_of(name: str, path: Path, known: Set[str]) -> Set[str]:
    """The modules of ``known`` that module ``name`` imports, anywhere in its file."""
    is_package = path.name == "__init__.py"
    found: Set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[:len(base) - (node.level - 1)]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            # `from package import module` imports that module; `from module import name` the module.
            targets = [f"{origin}.{alias.name}" if f"{origin}.{alias.name}" in known else origin
                       for alias in node.names]
        else:
            continue
        found.update(target for target in targets if target in known and target != name)
    return found


def import_graph(root: Path, package: str) -> Dict[str, Set[str]]:
    """Module → the package's modules it imports."""
    found = modules(root, package)
    return {name: imports_of(name, path, set(found)) for name, path in found.items()}


def find_cycle(graph: Dict[str, Set[str]]) -> Optional[List[str]]:
    """A cycle of imports (``[a, b, a]``), or ``None`` when there is none."""
    state: Dict[str, int] = {}  # 1: on the current path, 2: done
    path: List[str] = []

    def visit(node: str) -> Optional[List[str]]:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def test_the_cycle_finder_finds_a_cycle_hidden_under_type_checking(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "app.py").write_text("from .pane import Pane\n")
    (package / "sub" / "pane.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .app import App\n")
    (package / "other.py").write_text("def f():\n    from pkg.sub import pane\n")
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.other"] == {"pkg.sub.pane"}
    cycle = find_cycle(graph)
    assert cycle and cycle[0] == cycle[-1] and set(cycle) == {"pkg.sub.app", "pkg.sub.pane"}
    (package / "sub" / "pane.py").write_text("from .. import other\n")
    (package / "other.py").write_text("import json\n")
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.sub.pane"] == {"pkg.other"} and find_cycle(graph) is None


def test_no_module_imports_itself_back():
    graph = import_graph(SRC, "stol_client")
    assert "stol_client.tui.app" in graph and graph["stol_client.tui.app"], "the graph was read"
    assert find_cycle(graph) is None


def test_the_app_depends_on_the_tabs_and_the_tabs_on_a_small_base():
    graph = import_graph(SRC, "stol_client")
    tui = {name for name in graph if name.startswith("stol_client.tui.")}
    tabs = {name for name in tui if name.endswith("_pane") or name.endswith("_screen")}
    assert {"stol_client.tui.search_pane", "stol_client.tui.detail_screen"} <= tabs
    assert tabs <= graph["stol_client.tui.app"], "the app imports every tab"
    for name in tui:
        assert "stol_client.tui.app" not in graph[name], f"{name} imports the app"
    for tab in tabs:
        assert not graph[tab] & tabs, f"{tab} imports another tab: {graph[tab] & tabs}"
        assert "stol_client.tui.base" in graph[tab]


def test_the_cli_and_the_browser_share_one_formatting_module():
    graph = import_graph(SRC, "stol_client")
    assert "stol_client.format" in graph["stol_client.cli"]
    assert "stol_client.format" in graph["stol_client.tui.styled"]
    tree = ast.parse((PACKAGE / "format.py").read_text(encoding="utf-8"))
    third_party = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                   for alias in node.names}
    third_party |= {node.module.split(".")[0] for node in ast.walk(tree)
                    if isinstance(node, ast.ImportFrom) and node.module and not node.level}
    assert not third_party & {"textual", "rich"}, "the CLI needs nothing but the standard library"


# -- keys read from answers ---------------------------------------------------------------------

#: camelCase words: the shape of the protocol's keys and error kinds.
CAMEL_CASE = re.compile(r"[a-z]+(?:[A-Z][a-z0-9]*)+")


def documented_names() -> Set[str]:
    """Every property name that ``protocol/openrpc.json`` gives a schema for, and every value it
    lists as one word (the error kinds, ranks, statuses…)."""
    names: Set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            properties = value.get("properties")
            if isinstance(properties, dict):
                names.update(properties)
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", value):
            names.add(value)

    walk(json.loads((REPO_ROOT / "protocol" / "openrpc.json").read_text(encoding="utf-8")))
    return names


def keys_read(tree: ast.AST) -> Iterator[Tuple[int, str]]:
    """``(line, key)`` for each constant key read with ``x.get("key")`` or ``x["key"]``
    (``os.environ`` aside)."""
    for node in ast.walk(tree):
        key = None
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "get" and node.args
                and not (isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "environ")):
            key = node.args[0]
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            yield node.lineno, key.value


def camel_case_words(tree: ast.AST) -> Iterator[Tuple[int, str]]:
    """``(line, word)`` for each camelCase string constant (a key read in a loop, a key a helper
    is given), except the kinds of the CLI's own errors (``CLIError(message, "noMatch")``)."""
    own = {id(arg) for node in ast.walk(tree) if isinstance(node, ast.Call)
           and isinstance(node.func, ast.Name) and node.func.id == "CLIError" for arg in node.args}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in own
                and CAMEL_CASE.fullmatch(node.value)):
            yield node.lineno, node.value


def undocumented(path: Path, documented: Set[str]) -> List[str]:
    """What ``path`` reads, or names like a key, that the protocol does not document."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = sorted(set(keys_read(tree)) | set(camel_case_words(tree)))
    return [f"{path.name}:{line}: {word!r}" for line, word in found if word not in documented]


def test_the_key_scan_finds_keys_the_protocol_never_sends(tmp_path):
    source = tmp_path / "old_cli.py"
    source.write_text(
        "def label(t):\n"
        "    name = _first_str(t, 'scientificName', 'canonicalName')\n"
        "    common = t.get('vernacularName') or t['displayName'] or t.get('preferredCommonName')\n"
        "    raise CLIError('no taxon', 'noMatch')\n")
    assert [entry.split(": ")[1] for entry in undocumented(source, documented_names())] == \
        ["'canonicalName'", "'displayName'", "'vernacularName'"]


def test_what_shows_answers_reads_only_documented_keys():
    documented = documented_names()
    assert {"scientificName", "preferredCommonName", "commonName", "matchedName",
            "taxonNotFound"} <= documented
    assert not {"canonicalName", "vernacularName"} & documented
    files = [PACKAGE / "format.py", PACKAGE / "cli.py", *sorted((PACKAGE / "tui").glob("*.py"))]
    read = [key for path in files for _, key in keys_read(ast.parse(path.read_text("utf-8")))]
    assert len(read) > 100, "the scan found the keys"
    problems = [entry for path in files for entry in undocumented(path, documented)]
    assert not problems, "keys the protocol does not document:\n" + "\n".join(problems)
