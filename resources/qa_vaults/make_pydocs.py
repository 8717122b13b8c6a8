"""Generate the `pydocs` QA vault from the Python standard library's own documentation.

The text of the library notes comes from docstrings of standard-library modules and classes
and from the language-reference topics bundled with CPython (`pydoc_data.topics`); both are
part of CPython and licensed under the PSF License Agreement (see LICENSE-pydocs.md here).
The decision, project, person and journal notes are hand-written (pydocs_handwritten.py).

The generated vault is committed, so the QA benchmark does not depend on the Python version
that happens to be installed. Re-run to regenerate (deterministic for one Python version):

    /work/main/.venv/bin/python resources/qa_vaults/make_pydocs.py [--out DIR]

The output folder is wiped and rewritten. README.md and LICENSE-pydocs.md live next to this
script, outside the vault, so they are not imported as notes.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import io
import re
import shutil
import sys
import warnings
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "pydocs"
DOCS = "https://docs.python.org/3.11/library"

# Category folder -> modules. One note per module under Library/<category>/<module>.md.
MODULES: dict[str, list[str]] = {
    "Text Processing": [
        "string",
        "re",
        "difflib",
        "textwrap",
        "unicodedata",
        "stringprep",
        "rlcompleter",
    ],
    "Binary Data": ["struct", "codecs"],
    "Data Types": [
        "datetime",
        "zoneinfo",
        "calendar",
        "collections",
        "collections.abc",
        "heapq",
        "bisect",
        "array",
        "weakref",
        "types",
        "copy",
        "pprint",
        "reprlib",
        "enum",
        "graphlib",
    ],
    "Numeric and Math": [
        "numbers",
        "math",
        "cmath",
        "decimal",
        "fractions",
        "random",
        "statistics",
    ],
    "Functional Programming": ["itertools", "functools", "operator"],
    "File and Directory Access": [
        "pathlib",
        "os.path",
        "fileinput",
        "stat",
        "filecmp",
        "tempfile",
        "glob",
        "fnmatch",
        "linecache",
        "shutil",
    ],
    "Data Persistence": ["pickle", "copyreg", "shelve", "marshal", "dbm", "sqlite3"],
    "Compression and Archiving": ["zlib", "gzip", "bz2", "lzma", "zipfile", "tarfile"],
    "File Formats": ["csv", "configparser", "tomllib", "netrc", "plistlib"],
    "Cryptographic Services": ["hashlib", "hmac", "secrets"],
    "Operating System Services": [
        "os",
        "io",
        "time",
        "argparse",
        "getopt",
        "logging",
        "logging.config",
        "logging.handlers",
        "getpass",
        "platform",
        "errno",
        "ctypes",
    ],
    "Concurrent Execution": [
        "threading",
        "multiprocessing",
        "concurrent.futures",
        "subprocess",
        "sched",
        "queue",
        "contextvars",
        "asyncio",
    ],
    "Networking and IPC": ["socket", "ssl", "select", "selectors", "signal", "mmap"],
    "Internet Data Handling": [
        "email",
        "email.message",
        "json",
        "mailbox",
        "mimetypes",
        "base64",
        "binascii",
        "quopri",
    ],
    "Structured Markup": [
        "html",
        "html.parser",
        "html.entities",
        "xml.etree.ElementTree",
        "xml.dom.minidom",
        "xml.sax",
    ],
    "Internet Protocols": [
        "webbrowser",
        "wsgiref",
        "urllib.request",
        "urllib.parse",
        "urllib.error",
        "urllib.robotparser",
        "http",
        "http.client",
        "ftplib",
        "poplib",
        "imaplib",
        "smtplib",
        "uuid",
        "socketserver",
        "http.server",
        "http.cookies",
        "http.cookiejar",
        "xmlrpc.client",
        "ipaddress",
    ],
    "Multimedia": ["wave", "colorsys"],
    "Internationalization": ["gettext", "locale"],
    "Program Frameworks": ["cmd", "shlex"],
    "Development Tools": ["typing", "pydoc", "doctest", "unittest", "unittest.mock"],
    "Debugging and Profiling": [
        "bdb",
        "faulthandler",
        "pdb",
        "timeit",
        "trace",
        "tracemalloc",
        "cProfile",
        "profile",
        "pstats",
    ],
    "Packaging and Distribution": ["venv", "zipapp", "ensurepip"],
    "Python Runtime Services": [
        "sys",
        "sysconfig",
        "builtins",
        "warnings",
        "dataclasses",
        "contextlib",
        "abc",
        "atexit",
        "traceback",
        "gc",
        "inspect",
        "site",
    ],
    "Importing Modules": [
        "zipimport",
        "pkgutil",
        "modulefinder",
        "runpy",
        "importlib",
        "importlib.resources",
        "importlib.metadata",
    ],
    "Python Language Services": [
        "ast",
        "symtable",
        "token",
        "keyword",
        "tokenize",
        "tabnanny",
        "pyclbr",
        "py_compile",
        "compileall",
        "dis",
        "pickletools",
    ],
    "Unix Specific Services": ["pwd", "grp", "termios", "tty", "pty", "fcntl", "resource"],
}

# Classes that get a note of their own under Classes/<module>.<Class>.md.
CLASSES: list[str] = [
    "collections.OrderedDict",
    "collections.defaultdict",
    "collections.Counter",
    "collections.deque",
    "collections.ChainMap",
    "datetime.datetime",
    "datetime.date",
    "datetime.timedelta",
    "datetime.timezone",
    "decimal.Decimal",
    "fractions.Fraction",
    "pathlib.Path",
    "pathlib.PurePath",
    "argparse.ArgumentParser",
    "logging.Logger",
    "logging.Handler",
    "logging.Formatter",
    "logging.handlers.RotatingFileHandler",
    "threading.Thread",
    "threading.Lock",
    "threading.Event",
    "threading.Semaphore",
    "threading.Condition",
    "queue.Queue",
    "queue.PriorityQueue",
    "subprocess.Popen",
    "subprocess.CompletedProcess",
    "concurrent.futures.ThreadPoolExecutor",
    "concurrent.futures.ProcessPoolExecutor",
    "concurrent.futures.Future",
    "asyncio.Queue",
    "asyncio.Event",
    "asyncio.Task",
    "multiprocessing.pool.Pool",
    "sqlite3.Connection",
    "sqlite3.Cursor",
    "csv.DictReader",
    "csv.DictWriter",
    "configparser.ConfigParser",
    "zipfile.ZipFile",
    "tarfile.TarFile",
    "json.JSONEncoder",
    "json.JSONDecoder",
    "io.StringIO",
    "io.BytesIO",
    "io.TextIOWrapper",
    "tempfile.TemporaryDirectory",
    "unittest.TestCase",
    "unittest.mock.Mock",
    "unittest.mock.MagicMock",
    "enum.Enum",
    "enum.Flag",
    "contextlib.ExitStack",
    "email.message.EmailMessage",
    "http.server.SimpleHTTPRequestHandler",
    "urllib.request.Request",
    "ipaddress.IPv4Address",
    "ipaddress.IPv4Network",
    "random.Random",
    "string.Template",
    "string.Formatter",
    "textwrap.TextWrapper",
    "difflib.SequenceMatcher",
    "socket.socket",
    "selectors.DefaultSelector",
    "smtplib.SMTP",
    "uuid.UUID",
    "typing.NamedTuple",
    "weakref.WeakValueDictionary",
    "array.array",
    "struct.Struct",
    "hmac.HMAC",
    "shelve.Shelf",
    "pickle.Pickler",
    "timeit.Timer",
    "pdb.Pdb",
    "cProfile.Profile",
    "tracemalloc.Snapshot",
    "xml.etree.ElementTree.ElementTree",
    "html.parser.HTMLParser",
    "sched.scheduler",
    "statistics.NormalDist",
    "graphlib.TopologicalSorter",
    "zoneinfo.ZoneInfo",
]

# A few modules carry aliases in their frontmatter, as people write them in real vaults.
ALIASES: dict[str, list[str]] = {
    "re": ["Regular expressions", "Regex"],
    "json": ["JSON"],
    "os.path": ["posixpath"],
    "sqlite3": ["SQLite"],
    "asyncio": ["async IO", "Asynchronous I/O"],
    "unittest.mock": ["mock"],
    "concurrent.futures": ["futures"],
    "cProfile": ["profiler"],
    "xml.etree.ElementTree": ["ElementTree", "etree"],
    "tomllib": ["TOML"],
    "pdb": ["Python debugger"],
    "venv": ["virtual environment", "virtualenv"],
    "zoneinfo": ["time zones"],
    "hashlib": ["hashing"],
}

# Hand-picked "See also" links between library notes (both ends must be in MODULES).
SEE_ALSO: dict[str, list[str]] = {
    "pathlib": ["os.path", "shutil", "glob", "tempfile"],
    "os.path": ["pathlib", "os"],
    "shutil": ["os", "pathlib", "tarfile", "zipfile"],
    "glob": ["fnmatch", "pathlib"],
    "fnmatch": ["glob", "re"],
    "pickle": ["copyreg", "shelve", "marshal", "json", "pickletools"],
    "shelve": ["pickle", "dbm"],
    "json": ["pickle", "marshal"],
    "marshal": ["pickle"],
    "sqlite3": ["dbm", "shelve"],
    "gzip": ["zlib", "tarfile"],
    "bz2": ["lzma", "zlib"],
    "lzma": ["bz2", "zlib"],
    "zipfile": ["tarfile", "zlib", "zipapp"],
    "tarfile": ["zipfile", "gzip", "shutil"],
    "csv": ["configparser"],
    "configparser": ["tomllib", "csv"],
    "tomllib": ["configparser"],
    "hashlib": ["hmac", "secrets"],
    "hmac": ["hashlib", "secrets"],
    "secrets": ["random", "hashlib"],
    "random": ["secrets", "statistics"],
    "statistics": ["math", "random", "decimal"],
    "math": ["cmath", "decimal", "fractions"],
    "decimal": ["fractions", "math"],
    "threading": ["multiprocessing", "concurrent.futures", "queue", "asyncio"],
    "multiprocessing": ["threading", "concurrent.futures"],
    "concurrent.futures": ["threading", "multiprocessing", "asyncio"],
    "asyncio": ["concurrent.futures", "selectors", "threading", "contextvars"],
    "subprocess": ["os", "shlex", "signal"],
    "queue": ["threading", "heapq"],
    "heapq": ["bisect", "queue"],
    "bisect": ["heapq"],
    "collections": ["collections.abc", "heapq", "dataclasses"],
    "dataclasses": ["collections", "typing", "enum"],
    "itertools": ["functools", "operator"],
    "functools": ["itertools", "operator"],
    "logging": ["logging.config", "logging.handlers", "warnings"],
    "warnings": ["logging"],
    "argparse": ["getopt", "shlex"],
    "getopt": ["argparse"],
    "unittest": ["unittest.mock", "doctest"],
    "doctest": ["unittest"],
    "timeit": ["cProfile", "profile"],
    "cProfile": ["pstats", "timeit", "profile"],
    "profile": ["cProfile", "pstats"],
    "pdb": ["bdb", "faulthandler", "traceback"],
    "tracemalloc": ["gc"],
    "socket": ["ssl", "select", "selectors", "socketserver"],
    "selectors": ["select", "asyncio"],
    "urllib.request": ["urllib.parse", "http.client", "urllib.error"],
    "urllib.parse": ["urllib.request"],
    "http.server": ["socketserver", "wsgiref", "http.client"],
    "http.client": ["urllib.request", "http.server"],
    "html.parser": ["html", "xml.etree.ElementTree"],
    "xml.etree.ElementTree": ["xml.dom.minidom", "xml.sax", "html.parser"],
    "smtplib": ["email", "email.message", "imaplib", "poplib"],
    "email": ["email.message", "smtplib", "mailbox"],
    "datetime": ["time", "zoneinfo", "calendar"],
    "time": ["datetime"],
    "zoneinfo": ["datetime"],
    "typing": ["collections.abc", "abc", "dataclasses"],
    "abc": ["collections.abc", "numbers"],
    "contextlib": ["contextvars"],
    "venv": ["ensurepip", "site", "sysconfig"],
    "importlib": ["importlib.resources", "importlib.metadata", "pkgutil", "runpy"],
    "ast": ["dis", "tokenize", "symtable"],
    "dis": ["ast"],
    "copy": ["copyreg", "pickle"],
    "string": ["re", "textwrap"],
    "re": ["fnmatch", "string"],
    "base64": ["binascii"],
    "enum": ["dataclasses"],
    "weakref": ["gc"],
    "uuid": ["secrets"],
}

# Modules without a docstring of their own get the title of their page in the library
# reference (docs.python.org/3.11/library), which is PSF-licensed documentation as well.
SUMMARIES: dict[str, str] = {
    "zoneinfo": "IANA time zone support.",
    "collections.abc": "Abstract Base Classes for Containers.",
    "enum": "Support for enumerations.",
    "graphlib": "Functionality to operate with graph-like structures.",
    "pathlib": "Object-oriented filesystem paths.",
    "tomllib": "Parse TOML files.",
    "multiprocessing": "Process-based parallelism.",
    "contextvars": "Context Variables.",
    "signal": "Set handlers for asynchronous events.",
    "mmap": "Memory-mapped file support.",
    "http": "HTTP modules.",
    "unittest.mock": "mock object library.",
    "tracemalloc": "Trace memory allocations.",
    "zipapp": "Manage executable Python zip archives.",
    "ensurepip": "Bootstrapping the pip installer.",
    "dataclasses": "Data Classes.",
    "importlib.metadata": "Accessing package metadata.",
    "resource": "Resource usage information.",
}

# Language-reference topics bundled with CPython (pydoc_data.topics) -> note title.
TOPICS: dict[str, str] = {
    "with": "The with statement",
    "context-managers": "With statement context managers",
    "try": "The try statement",
    "exceptions": "Exceptions",
    "raise": "The raise statement",
    "assert": "The assert statement",
    "lambda": "Lambdas",
    "yield": "The yield statement",
    "global": "The global statement",
    "nonlocal": "The nonlocal statement",
    "import": "The import statement",
    "class": "Class definitions",
    "function": "Function definitions",
    "for": "The for statement",
    "while": "The while statement",
    "comparisons": "Comparisons",
    "booleans": "Boolean operations",
    "truth": "Truth value testing",
    "slicings": "Slicings",
    "formatstrings": "Format string syntax",
    "string-methods": "String methods",
    "typesmapping": "Mapping types (dict)",
    "typesseq-mutable": "Mutable sequence types",
    "async": "Coroutines",
    "execmodel": "Execution model",
    "naming": "Naming and binding",
    "del": "The del statement",
    "augassign": "Augmented assignment statements",
    "operator-summary": "Operator precedence",
    "debugger": "The Python debugger (pdb commands)",
}

MAX_DOC = 7000  # characters of a docstring kept in one note
MAX_TOPIC = 14000
MAX_FUNCS = 30
MAX_METHODS = 25
MAX_OTHER_CLASSES = 15

_ADDR = re.compile(r" at 0x[0-9a-fA-F]+")


def clean(text: str) -> str:
    """Docstring text made safe for Markdown: no wikilinks, no headings, no addresses."""
    text = _ADDR.sub("", text)
    text = text.replace("[[", "[ [").replace("]]", "] ]")
    lines = []
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            line = line.replace("#", "\\#", 1)
        if line.strip() == "---":
            line = "- - -"
        lines.append(line.rstrip())
    return "\n".join(lines).strip()


def first_line(obj: object) -> str:
    doc = inspect.getdoc(obj) or ""
    para = doc.strip().split("\n\n", 1)[0]
    return clean(" ".join(para.split()))[:240]


def item(label: str, text: str) -> str:
    """One bullet: `- label: text`, or just `- label` when there is no text."""
    return f"- {label}: {text}" if text else f"- {label}"


def signature(obj: object) -> str:
    try:
        return clean(str(inspect.signature(obj)))
    except (TypeError, ValueError):
        return "(...)"


def truncate(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text.rfind("\n\n", 0, limit)
    return text[: cut if cut > limit // 2 else limit].rstrip() + "\n\n(…)"


def load(name: str) -> object:
    with warnings.catch_warnings(), redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        return importlib.import_module(name)


def home_module(module_name: str, modules: set[str]) -> str:
    """The nearest module with a note of its own (`multiprocessing.pool` -> `multiprocessing`)."""
    while module_name not in modules:
        module_name = module_name.rpartition(".")[0]
    return module_name


def resolve_class(dotted: str) -> tuple[str, type]:
    module_name, _, cls_name = dotted.rpartition(".")
    return module_name, getattr(load(module_name), cls_name)


def frontmatter(**fields: object) -> str:
    out = ["---"]
    for key, value in fields.items():
        if value in (None, [], ""):
            continue
        if isinstance(value, list):
            out.append(f"{key}: [{', '.join(_yaml_str(v) for v in value)}]")
        else:
            out.append(f"{key}: {_yaml_str(value)}")
    out.append("---")
    return "\n".join(out) + "\n"


def _yaml_str(value: object) -> str:
    text = str(value)
    if re.fullmatch(r"[A-Za-z0-9_. -]+", text) and not text[0].isdigit():
        return text
    return '"' + text.replace('"', '\\"') + '"'


def public_members(module: object, predicate) -> list[tuple[str, object]]:
    """Public members defined in `module` itself (or listed in __all__)."""
    names = getattr(module, "__all__", None)
    result = []
    for name, obj in sorted(inspect.getmembers(module, predicate)):
        if name.startswith("_"):
            continue
        if names is not None:
            if name not in names:
                continue
        elif getattr(obj, "__module__", None) != module.__name__:
            continue
        result.append((name, obj))
    return result


def module_note(
    name: str, category: str, class_notes: dict[str, list[str]], modules: set[str]
) -> str:
    module = load(name)
    doc = clean(inspect.getdoc(module) or "")
    if not doc:
        doc = f"{name}: {SUMMARIES[name]}"
    summary = " ".join(doc.split("\n\n", 1)[0].split())
    tags = ["python", "stdlib", re.sub(r"[^a-z0-9]+", "-", category.lower()).strip("-")]
    parts = [
        frontmatter(
            type="source",
            tags=tags,
            aliases=ALIASES.get(name, []),
            source=f"{DOCS}/{name}.html",
            licence="PSF-2.0",
        )
    ]
    parts.append(f"# {name}\n")
    if len(summary) < 200 and "\n\n" in doc:
        parts.append(f"{summary}\n\n{truncate(doc.split(chr(10) * 2, 1)[1], MAX_DOC)}\n")
    else:
        parts.append(truncate(doc, MAX_DOC) + "\n")
    parent = name.rpartition(".")[0]
    if parent in modules:
        parts.append(f"Part of the [[{parent}]] package.\n")
    children = sorted(m for m in modules if m.rpartition(".")[0] == name)
    if children:
        parts.append("## Submodules\n\n" + "\n".join(f"- [[{c}]]" for c in children) + "\n")
    own = class_notes.get(name, [])
    others = [
        (n, c)
        for n, c in public_members(module, inspect.isclass)
        if f"{name}.{n}" not in own and not issubclass(c, BaseException)
    ]
    if own or others:
        lines = [item(f"[[{d}]]", first_line(resolve_class(d)[1])) for d in own]
        lines += [item(f"`{n}`", first_line(c)) for n, c in others[:MAX_OTHER_CLASSES]]
        parts.append("## Classes\n\n" + "\n".join(lines) + "\n")
    errors = [n for n, c in public_members(module, inspect.isclass) if issubclass(c, BaseException)]
    if errors:
        parts.append("## Exceptions\n\n" + ", ".join(f"`{n}`" for n in errors[:20]) + "\n")
    funcs = public_members(module, lambda o: inspect.isfunction(o) or inspect.isbuiltin(o))
    if funcs:
        lines = [item(f"`{n}{signature(f)}`", first_line(f)) for n, f in funcs[:MAX_FUNCS]]
        parts.append("## Functions\n\n" + "\n".join(lines) + "\n")
    see = [m for m in SEE_ALSO.get(name, []) if m in modules and m != name]
    if see:
        parts.append("## See also\n\n" + "\n".join(f"- [[{m}]]" for m in see) + "\n")
    return "\n".join(parts)


def class_note(dotted: str, short_names: dict[str, int], modules: set[str]) -> str:
    module_name, cls = resolve_class(dotted)
    home = home_module(module_name, modules)
    doc = clean(inspect.getdoc(cls) or "") or f"The `{cls.__name__}` class."
    short = cls.__name__ if dotted.rsplit(".", 1)[1] == cls.__name__ else dotted.rsplit(".", 1)[1]
    aliases = [short] if short_names[short] == 1 else []
    parts = [
        frontmatter(
            type="concept",
            tags=["python", "class", module_name.replace(".", "-")],
            aliases=aliases,
            source=f"{DOCS}/{module_name}.html#{dotted}",
            licence="PSF-2.0",
        )
    ]
    parts.append(f"# {dotted}\n")
    parts.append(f"Class `{short}{signature(cls)}`, defined in [[{home}]].\n")
    parts.append(truncate(doc, MAX_DOC) + "\n")
    methods = []
    for name, member in sorted(getattr(cls, "__dict__", {}).items()):
        if name.startswith("_") and name not in ("__init__", "__enter__", "__exit__"):
            continue
        if not callable(member) and not isinstance(member, (classmethod, staticmethod)):
            continue
        func = getattr(cls, name, member)
        line = first_line(func)
        if line:
            methods.append(f"- `{name}{signature(func)}`: {line}")
    if methods:
        parts.append("## Methods\n\n" + "\n".join(methods[:MAX_METHODS]) + "\n")
    bases = [b for b in getattr(cls, "__mro__", ())[1:] if b is not object]
    known = [f"{b.__module__}.{b.__qualname__}" for b in bases]
    links = [k for k in known if k in CLASSES]
    if links:
        parts.append("## Base classes\n\n" + "\n".join(f"- [[{k}]]" for k in links) + "\n")
    return "\n".join(parts)


def topic_note(key: str, title: str) -> str:
    from pydoc_data.topics import topics

    text = clean(topics[key])
    body = truncate(text, MAX_TOPIC)
    parts = [
        frontmatter(
            type="concept",
            tags=["python", "language-reference"],
            source="https://docs.python.org/3.11/reference/",
            licence="PSF-2.0",
        )
    ]
    parts.append(f"# {title}\n")
    parts.append(body + "\n")
    return "\n".join(parts)


def safe_filename(title: str) -> str:
    return re.sub(r'[\\/:*?"<>|]', "-", title)


def write(out: Path, rel: str, text: str) -> None:
    path = out / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.rstrip() + "\n", encoding="utf-8")


def generate(out: Path) -> int:
    from pydocs_handwritten import HANDWRITTEN  # noqa: PLC0415 - sibling of this script

    if out.exists():
        strays = [p for p in out.rglob("*") if p.is_file() and p.suffix != ".md"]
        if strays:
            raise SystemExit(f"{out} holds files that are not notes ({strays[0]}); not wiping it")
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    modules = {m for names in MODULES.values() for m in names}
    class_notes: dict[str, list[str]] = {}
    short_names: dict[str, int] = {}
    for dotted in CLASSES:
        module_name, short = dotted.rsplit(".", 1)
        class_notes.setdefault(home_module(module_name, modules), []).append(dotted)
        short_names[short] = short_names.get(short, 0) + 1
    count = 0
    for category, names in MODULES.items():
        for name in names:
            write(
                out,
                f"Library/{category}/{name}.md",
                module_note(name, category, class_notes, modules),
            )
            count += 1
    for dotted in CLASSES:
        write(out, f"Classes/{dotted}.md", class_note(dotted, short_names, modules))
        count += 1
    for key, title in TOPICS.items():
        write(out, f"Language/{safe_filename(title)}.md", topic_note(key, title))
        count += 1
    for rel, text in HANDWRITTEN.items():
        write(out, rel, text)
        count += 1
    return count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    count = generate(args.out)
    size = sum(p.stat().st_size for p in args.out.rglob("*.md"))
    print(f"{count} notes written to {args.out} ({size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
