"""Command-line interface: ``python -m stol_client [options] COMMAND``.

Results go to stdout (human-readable, or JSON with ``--json``); progress, logs and errors go to
stderr. Errors print ``error: <message> (<kind>)`` and exit with status 1; Ctrl-C during a long
command cancels it on the engine and exits with status 130.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import signal
import sys
import time
from typing import Any, Callable, Dict, List, Optional, TextIO

from .client import Call, EngineClient, Progress
from .errors import EngineError, StolClientError
from .format import comparison_facts, comparison_rows, listed, plain_label, taxon_id

PROG = "python -m stol_client"


class CLIError(StolClientError):
    """An error found by the CLI itself (printed like engine errors)."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


class Interrupted(Exception):
    """The user pressed Ctrl-C and the engine confirmed the cancellation."""


# --------------------------------------------------------------------------------------------
# Output helpers


def _print_json(value: Any, out: TextIO) -> None:
    out.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")


def _is_scalar(v: Any) -> bool:
    return v is None or isinstance(v, (str, int, float, bool))


def _fmt_scalar(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def _taxon_label(item: Dict[str, Any], lang: Optional[str] = None) -> str:
    """``ID  rank  Scientific name — Common name``; with ``lang``, a common name in another
    language (the engine fell back to English) is tagged with its language: ``— Lion [en]``."""
    tid = taxon_id(item)
    if item.get("available") is False:  # a favourite the active database does not have
        return f"{tid if tid is not None else '':>8}  (not in the active database)"
    rank, _, rest = plain_label(item, lang).partition(" ")
    return f"{tid if tid is not None else '':>8}  {rank:<8}  {rest}".rstrip()


def _dump_human(value: Any, out: TextIO, indent: int = 0, lang: Optional[str] = None) -> None:
    """A YAML-like rendering of any JSON value; taxa in it as one-line labels (names in ``lang``)."""
    pad = "  " * indent
    if _is_scalar(value):
        out.write(f"{pad}{_fmt_scalar(value)}\n")
    elif isinstance(value, dict):
        if not value:
            out.write(f"{pad}(empty)\n")
        for key, v in value.items():
            if _is_scalar(v):
                out.write(f"{pad}{key}: {_fmt_scalar(v)}\n")
            elif isinstance(v, list) and all(_is_scalar(x) for x in v):
                out.write(f"{pad}{key}: {', '.join(_fmt_scalar(x) for x in v) or '(none)'}\n")
            else:
                out.write(f"{pad}{key}:\n")
                _dump_human(v, out, indent + 1, lang)
    elif isinstance(value, list):
        if not value:
            out.write(f"{pad}(none)\n")
        for item in value:
            if _is_scalar(item):
                out.write(f"{pad}- {_fmt_scalar(item)}\n")
            elif isinstance(item, dict) and taxon_id(item) is not None:
                out.write(f"{pad}- {_taxon_label(item, lang).strip()}\n")
            else:
                out.write(f"{pad}-\n")
                _dump_human(item, out, indent + 1, lang)


def _print_detail(result: Any, out: TextIO, lang: Optional[str] = None) -> None:
    """A taxon detail: a headline, then the taxon's fields and the other sections."""
    taxon = result.get("taxon") if isinstance(result, dict) else None
    if not isinstance(taxon, dict):
        _dump_human(result, out)
        return
    # The detail's own preferred name (and its language) names the taxon.
    names = ("preferredCommonName", "preferredCommonNameLang")
    headline = {**taxon, **{key: result[key] for key in names if key in result}}
    out.write(_taxon_label(headline, lang).strip() + "\n")
    shown = ("id", "rank", "scientificName") + names
    rest = {k: v for k, v in taxon.items() if k not in shown}
    rest.update((k, v) for k, v in result.items() if k not in ("taxon",) + shown)
    _dump_human(rest, out, 1, lang)


def _print_comparison(result: Any, out: TextIO, lang: Optional[str] = None) -> None:
    """A ``compare/taxa`` answer drawn as the browser draws it: two branches joining at the
    common ancestor, then the distance, the shared clade and the traits."""
    if not isinstance(result, dict) or not isinstance(result.get("lca"), dict):
        _dump_human(result, out)
        return
    for row in comparison_rows(result):
        mark = f"  {row.mark}" if row.mark else ""
        out.write(f"{row.indent}{row.connector}{plain_label(row.taxon, lang)}{mark}\n")
    out.write("\n")
    for label, words in comparison_facts(result):
        out.write(f"{label}: {words}\n")


def _print_taxa(result: Any, out: TextIO, empty: str, lang: Optional[str] = None) -> None:
    items = listed(result)
    if items is None:
        _dump_human(result, out)
        return
    if not items:
        out.write(empty + "\n")
        return
    for item in items:
        out.write((_taxon_label(item, lang) if isinstance(item, dict) else _fmt_scalar(item)) + "\n")
    if isinstance(result, dict) and result.get("nextCursor"):
        out.write("(more results: use --limit or `raw` with the cursor)\n")


# --------------------------------------------------------------------------------------------
# Progress bar and Ctrl-C handling


class ProgressBar:
    """Draws ``$/progress`` on stderr: a redrawn bar on a terminal, one line per 10 % otherwise."""

    def __init__(self, stream: TextIO, label: str, width: int = 30) -> None:
        self.stream = stream
        self.label = label
        self.width = width
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.title: Optional[str] = None
        self.message: Optional[str] = None
        self.fraction = 0.0
        self._drawn = False
        self._last_step = -1

    def announce(self) -> None:
        self.stream.write(f"{self.label}… (Ctrl-C to cancel)\n")
        self.stream.flush()

    def update(self, p: Progress) -> None:
        if p.kind == "begin":
            self.title = p.title or self.title
            self.fraction = p.fraction or 0.0
        elif p.kind == "report":
            if p.fraction is not None:
                self.fraction = max(self.fraction, min(1.0, p.fraction))
        elif p.kind == "end" and not self._failed(p.message):
            self.fraction = 1.0
        if p.message is not None:
            self.message = p.message
        self._draw(force=p.kind in ("begin", "end"))

    @staticmethod
    def _failed(message: Optional[str]) -> bool:
        """Whether an ``end`` says the work stopped short (``failed: <kind>``, ``cancelled``):
        the bar then stays where the work stopped instead of jumping to 100 %."""
        return bool(message) and message.split(":")[0].strip() in ("failed", "cancelled")

    def _draw(self, force: bool) -> None:
        pct = int(round(self.fraction * 100))
        title = self.title or self.label
        suffix = f"  {self.message}" if self.message else ""
        if self.tty:
            filled = int(self.fraction * self.width)
            bar = "#" * filled + "-" * (self.width - filled)
            self.stream.write(f"\r\x1b[2K{title} [{bar}] {pct:3d}%{suffix}")
            self._drawn = True
        else:
            step = pct // 10
            if not force and step == self._last_step:
                return
            self._last_step = step
            self.stream.write(f"{title} {pct:3d}%{suffix}\n")
        self.stream.flush()

    def finish(self) -> None:
        if self.tty and self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False


async def run_with_progress(client: EngineClient, method: str, params: Dict[str, Any],
                            label: str, stream: TextIO = sys.stderr) -> Any:
    """Call ``method`` with a progress bar on ``stream``. The first Ctrl-C sends
    ``$/cancelRequest`` and waits for the engine to confirm (then raises :class:`Interrupted`);
    a second Ctrl-C stops waiting."""
    bar = ProgressBar(stream, label)
    loop = asyncio.get_running_loop()
    interrupted = asyncio.Event()
    main_task = asyncio.current_task()
    presses = 0

    def on_sigint() -> None:
        nonlocal presses
        presses += 1
        if presses == 1:
            interrupted.set()
        elif main_task is not None:
            main_task.cancel()

    installed = False
    try:
        loop.add_signal_handler(signal.SIGINT, on_sigint)
        installed = True
    except (NotImplementedError, RuntimeError, ValueError):  # pragma: no cover (Windows)
        pass
    try:
        call: Call = await client.request(method, params, progress=bar.update)
        bar.announce()

        async def result() -> Any:
            return await call

        waiter = asyncio.ensure_future(result())
        stopper = asyncio.ensure_future(interrupted.wait())
        try:
            await asyncio.wait({waiter, stopper}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            waiter.cancel()
            call._abandon()
            raise
        finally:
            stopper.cancel()
        if waiter.done():
            bar.finish()
            return waiter.result()
        waiter.cancel()
        bar.finish()
        stream.write(f"cancelling {method}…\n")
        stream.flush()
        try:
            cancelled = await call.cancel(timeout=60)
        except asyncio.TimeoutError:
            raise CLIError(f"the engine did not confirm the cancellation of {method}", "timeout")
        if cancelled:
            raise Interrupted(f"{label} cancelled")
        return await call  # it finished before the cancel arrived
    finally:
        if installed:
            loop.remove_signal_handler(signal.SIGINT)


# --------------------------------------------------------------------------------------------
# Commands


def _timed(client: EngineClient, args: argparse.Namespace) -> Callable[..., Any]:
    """``client.call`` with the ``--timeout`` option applied."""

    async def call(method: str, params: Any = None, /, **kwparams: Any) -> Any:
        return await client.call(method, params, timeout=args.timeout, **kwparams)

    return call


async def resolve_taxon(client: EngineClient, text: str, timeout: Optional[float] = None,
                        lang: Optional[str] = None) -> int:
    """A taxon id from an integer or a name (the top ``search/query`` result, names in ``lang``
    preferred)."""
    try:
        return int(text)
    except ValueError:
        pass
    result = await client.call("search/query", query=text, limit=1, timeout=timeout, **_lang_params(lang))
    items = listed(result) or []
    if not items:
        raise CLIError(f"no taxon matches {text!r}", "noMatch")
    tid = taxon_id(items[0])
    if tid is None:
        raise CLIError(f"search result for {text!r} carries no id", "protocolError")
    return tid


def _sort_params(args: argparse.Namespace) -> Dict[str, Any]:
    return {"sort": args.sort} if args.sort else {}


def _lang_params(lang: Optional[str]) -> Dict[str, Any]:
    """``{"lang": lang}`` when a language was asked for; the engine's default (English) otherwise."""
    return {"lang": lang} if lang else {}


def _lang(args: argparse.Namespace) -> Optional[str]:
    return getattr(args, "lang", None)


async def cmd_ping(client: EngineClient, args: argparse.Namespace, out: TextIO) -> int:
    t0 = time.perf_counter()
    result = await _timed(client, args)("ping")
    ms = (time.perf_counter() - t0) * 1000
    if args.json:
        _print_json(result, out)
    else:
        info = client.server_info.get("serverInfo", {}) if isinstance(client.server_info, dict) else {}
        who = " ".join(str(x) for x in (info.get("name"), info.get("version")) if x) or "engine"
        out.write(f"pong from {who} in {ms:.1f} ms\n")
    return 0


async def cmd_search(client: EngineClient, args: argparse.Namespace, out: TextIO) -> int:
    params: Dict[str, Any] = {"limit": args.limit, **_lang_params(_lang(args))}
    if args.query:
        params["query"] = args.query
    if args.rank:
        params["rank"] = args.rank
    if args.conservation:
        params["conservation"] = args.conservation
    if "query" not in params and "rank" not in params and "conservation" not in params:
        raise CLIError("give a query, --rank or --conservation", "usage")
    result = await _timed(client, args)("search/query", params)
    if args.json:
        _print_json(result, out)
    else:
        what = repr(args.query) if args.query else "these filters"
        _print_taxa(result, out, f"no taxon matches {what}", _lang(args))
    return 0


async def cmd_detail(client: EngineClient, args: argparse.Namespace, out: TextIO) -> int:
    tid = await resolve_taxon(client, args.taxon, args.timeout, _lang(args))
    result = await _timed(client, args)("taxon/detail", id=tid, **_lang_params(_lang(args)))
    if args.json:
        _print_json(result, out)
    else:
        _print_detail(result, out, _lang(args))
    return 0


async def cmd_compare(client: EngineClient, args: argparse.Namespace, out: TextIO) -> int:
    a, b = await asyncio.gather(resolve_taxon(client, args.name_a, args.timeout, _lang(args)),
                                resolve_taxon(client, args.name_b, args.timeout, _lang(args)))
    result = await _timed(client, args)("compare/taxa", a=a, b=b, **_lang_params(_lang(args)))
    if args.json:
        _print_json(result, out)
    else:
        _print_comparison(result, out, _lang(args))
    return 0


async def cmd_relatives(client: EngineClient, args: argparse.Namespace, out: TextIO) -> int:
    tid = await resolve_taxon(client, args.name, args.timeout, _lang(args))
    call = _timed(client, args)
    try:
        result = await call("compare/relatives", id=tid, **_lang_params(_lang(args)))
    except EngineError as e:
        if e.kind != "notASpecies":
            raise
        raise CLIError(await _not_a_species_hint(call, tid), "notASpecies") from e
    if args.json:
        _print_json(result, out)
    else:
        _print_taxa(result, out, "no relatives", _lang(args))
    return 0


async def _not_a_species_hint(call: Callable[..., Any], tid: int) -> str:
    """Why ``relatives`` refused ``tid`` and what to run instead: a few of its species, or the
    ``detail`` command that lists its children."""
    taxon = await call("taxon/get", id=tid)
    name = taxon.get("scientificName", str(tid))
    rank = taxon.get("rank") or "unranked taxon"
    message = f"{name} is a {rank}, and relatives works on a species"
    species = await call("search/query", within=tid, rank="species", limit=3)
    names = [r.get("scientificName") for r in listed(species) or [] if r.get("scientificName")]
    if names:
        return message + f": try one of its species, e.g. relatives {json.dumps(names[0], ensure_ascii=False)}" \
            + (f" (also {', '.join(names[1:])})" if names[1:] else "")
    return message + f"; `detail {tid}` shows what it contains"


async def cmd_favourites(client: EngineClient, args: argparse.Namespace, out: TextIO) -> int:
    action = args.action
    if action in ("add", "remove"):
        tid = await resolve_taxon(client, args.taxon, args.timeout, _lang(args))
        result = await _timed(client, args)(f"favorites/{action}", taxonId=tid)
        if args.json:
            _print_json(result, out)
        else:
            out.write(_favourite_change(action, tid, result) + "\n")
    elif action == "list":
        result = await _timed(client, args)("favorites/list", **_sort_params(args), **_lang_params(_lang(args)))
        if args.json:
            _print_json(result, out)
        else:
            _print_taxa(result, out, "no favourites", _lang(args))
    else:  # export
        result = await _timed(client, args)("favorites/export", **_sort_params(args), **_lang_params(_lang(args)))
        text = result.get("text") if isinstance(result, dict) and not args.json else None
        if not isinstance(text, str):
            text = json.dumps(result, indent=2, ensure_ascii=False) + "\n"
        if args.output:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
            sys.stderr.write(f"wrote {args.output}\n")
        else:
            out.write(text if text.endswith("\n") else text + "\n")
    return 0


def _favourite_change(action: str, tid: int, result: Any) -> str:
    """What ``favorites/add`` or ``favorites/remove`` did, as the engine answered it: an add that
    changed nothing says the taxon already was a favourite, a remove that removed nothing that it
    was not one."""
    result = result if isinstance(result, dict) else {}
    if action == "add":
        text = f"added {tid} to favourites" if result.get("added") else f"{tid} is already a favourite"
        if result.get("available") is False:
            text += " (the active database has no such taxon; it is kept for another database)"
        return text
    return f"removed {tid} from favourites" if result.get("removed") else f"{tid} was not a favourite"


async def cmd_import(client: EngineClient, args: argparse.Namespace, out: TextIO) -> int:
    # The engine takes absolute paths only (it expands no ~ and has its own working directory).
    path = os.path.abspath(os.path.expanduser(args.file))
    result = await run_with_progress(client, "database/import", {"path": path},
                                     f"importing {args.file}")
    if args.json:
        _print_json(result, out)
    else:
        out.write("import finished\n")
        if result not in (None, {}):
            _dump_human(result, out)
    return 0


async def cmd_raw(client: EngineClient, args: argparse.Namespace, out: TextIO) -> int:
    params = args.params_value
    if args.progress:
        result = await run_with_progress(client, args.method, params or {}, args.method)
    else:
        result = await _timed(client, args)(args.method, params)
    _print_json(result, out)
    return 0


COMMANDS: Dict[str, Callable[..., Any]] = {
    "ping": cmd_ping,
    "search": cmd_search,
    "detail": cmd_detail,
    "compare": cmd_compare,
    "relatives": cmd_relatives,
    "favourites": cmd_favourites,
    "favorites": cmd_favourites,
    "import": cmd_import,
    "raw": cmd_raw,
}


# --------------------------------------------------------------------------------------------
# Argument parsing and main


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                        help="print results as JSON")
    # Commands that show names take --lang, before or after the command.
    named = argparse.ArgumentParser(add_help=False)
    named.add_argument("--lang", metavar="CODE", default=argparse.SUPPRESS,
                       help="language of common names (en, de, es, fr, pt-BR…); a name that falls "
                            "back to English is tagged [en]")

    p = argparse.ArgumentParser(
        prog=PROG, description="Talk to stol-engine from the command line.",
        epilog="Errors print `error: <message> (<kind>)` on stderr and exit with status 1.")
    p.add_argument("--engine", metavar="PATH",
                   help="engine executable (default: $STOL_ENGINE or stol-engine on PATH)")
    p.add_argument("--data-dir", metavar="DIR", help="passed to the engine as --data-dir")
    p.add_argument("--engine-arg", metavar="ARG", action="append", default=[],
                   help="extra engine argument, repeatable (e.g. --engine-arg=--conformance-methods)")
    p.add_argument("--json", action="store_true", help="print results as JSON")
    p.add_argument("--lang", metavar="CODE", help="language of common names (default: the engine's, en)")
    p.add_argument("--timeout", type=float, metavar="SECONDS",
                   help="give up on an answer after SECONDS (not for import / --progress)")
    p.add_argument("-v", "--verbose", action="count", default=0,
                   help="show engine logs (-v: info, -vv: debug)")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)

    s = sub.add_parser("search", parents=[common, named], help="search taxa (search/query)")
    s.add_argument("query", nargs="?", help="words to look for; may be left out with --rank or --conservation")
    s.add_argument("--limit", type=int, default=20)
    s.add_argument("--rank", metavar="RANK", help="only taxa of this rank (species, genus, …)")
    s.add_argument("--conservation", metavar="STATUS",
                   help="only taxa with this IUCN status (LC, NT, VU, EN, CR, EW, EX, DD, NE) or 'threatened'")

    s = sub.add_parser("detail", parents=[common, named], help="a taxon's details (taxon/detail)")
    s.add_argument("taxon", metavar="ID", help="taxon id (or a name, resolved by search)")

    s = sub.add_parser("compare", parents=[common, named], help="compare two taxa (compare/taxa)")
    s.add_argument("name_a", metavar="NAME_A")
    s.add_argument("name_b", metavar="NAME_B")

    s = sub.add_parser("relatives", parents=[common, named], help="close relatives (compare/relatives)")
    s.add_argument("name", metavar="NAME")

    fav = sub.add_parser("favourites", aliases=["favorites"], parents=[common, named],
                         help="manage favourites (favorites/*)")
    fsub = fav.add_subparsers(dest="action", metavar="ACTION", required=True)
    for action in ("add", "remove"):
        s = fsub.add_parser(action, parents=[common, named], help=f"{action} a favourite")
        s.add_argument("taxon", metavar="ID", help="taxon id (or a name, resolved by search)")
    for action in ("list", "export"):
        s = fsub.add_parser(action, parents=[common, named], help=f"{action} favourites")
        s.add_argument("--sort", help="sort order passed to the engine")
        if action == "export":
            s.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")

    s = sub.add_parser("import", parents=[common],
                       help="import a database file (database/import), Ctrl-C cancels")
    s.add_argument("file", metavar="FILE")

    s = sub.add_parser("raw", parents=[common], help="call any method, print the result as JSON")
    s.add_argument("method", metavar="METHOD")
    s.add_argument("params", metavar="JSON", nargs="?", help="params: a JSON object (or array)")
    s.add_argument("--progress", action="store_true",
                   help="ask for progress, draw a bar on stderr; Ctrl-C cancels")

    sub.add_parser("ping", parents=[common], help="check that the engine answers")

    s = sub.add_parser("browse", help="terminal species browser (needs the [tui] extra)")
    s.add_argument("--lang", default=argparse.SUPPRESS, metavar="CODE",
                   help="language of common names at start (F6 changes it), default en")
    return p


def _setup_logging(verbose: int) -> None:
    level = logging.WARNING if verbose == 0 else logging.INFO if verbose == 1 else logging.DEBUG
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(name)s: %(message)s"))
    root = logging.getLogger("stol_client")
    root.handlers[:] = [handler]
    root.setLevel(level)
    root.propagate = False


def _print_error(e: BaseException) -> None:
    kind = getattr(e, "kind", None) or type(e).__name__
    sys.stderr.write(f"error: {e} ({kind})\n")
    sys.stderr.flush()


async def _run(args: argparse.Namespace) -> int:
    try:
        async with EngineClient.start(args.engine, args.engine_arg, data_dir=args.data_dir) as client:
            return await COMMANDS[args.command](client, args, sys.stdout)
    except Interrupted as e:
        sys.stderr.write(f"{e}\n")
        return 130
    except asyncio.TimeoutError:
        _print_error(CLIError(f"no answer within {args.timeout:g} s", "timeout"))
        return 1
    except StolClientError as e:
        _print_error(e)
        return 1


def _browse(args: argparse.Namespace) -> int:
    """Run the Textual browser (imported only here: the rest of the CLI needs no Textual)."""
    from .tui import MISSING_TEXTUAL

    try:
        from .tui.app import run
    except ImportError as e:
        if "textual" not in str(e) and "rich" not in str(e):
            raise
        _print_error(CLIError(MISSING_TEXTUAL, "missingExtra"))
        return 1
    return run(args.engine, data_dir=args.data_dir, engine_args=args.engine_arg, lang=args.lang or "en")


def main(argv: Optional[List[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "browse":
        # Log lines on stderr would be drawn over the screen: the browser shows engine
        # problems itself (the engine's last stderr lines are kept by the client).
        root = logging.getLogger("stol_client")
        root.handlers[:] = [logging.NullHandler()]
        root.propagate = False
        return _browse(args)
    if args.command == "raw":
        args.params_value = None
        if args.params is not None:
            try:
                args.params_value = json.loads(args.params)
            except ValueError as e:
                parser.error(f"JSON params are not valid JSON: {e}")
            if not isinstance(args.params_value, (dict, list)):
                parser.error("JSON params must be an object (or an array)")
            if args.progress and not isinstance(args.params_value, dict):
                parser.error("--progress needs object params")
    _setup_logging(args.verbose)
    try:
        return asyncio.run(_run(args))
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130
    except OSError as e:
        _print_error(e)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
