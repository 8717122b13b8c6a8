"""Hand-written notes of the `pydocs` QA vault: projects, decisions, people, daily notes.

Written for Mindnet Desktop (same licence as the project). They give the generated library
notes what a real vault has around them: projects that depend on modules, decision notes
("why X instead of Y"), people, and daily notes that all share the same headings.
"""

from __future__ import annotations

HANDWRITTEN: dict[str, str] = {}


def _note(path: str, text: str) -> None:
    HANDWRITTEN[path] = text.strip() + "\n"


# --------------------------------------------------------------------------------- projects
_note(
    "Projects/Backup Tool.md",
    """
---
type: project
status: active
tags: [project, backup]
aliases: [bkp]
---
# Backup Tool

A small command-line tool that backs up my home directory every night. It walks the
folders, packs changed files into a compressed tar archive per day, records every file's
SHA-256 digest in a catalogue and finally copies the archive to the NAS with rsync.

## Building blocks

- File walking and path handling: [[rel:depends_on pathlib]]
  (see [[Why pathlib instead of os.path]]).
- Archives: [[rel:depends_on tarfile]] with gzip compression; old archives are removed
  with [[rel:depends_on shutil]].
- Digests: [[rel:depends_on hashlib]]; archives are signed with [[hmac]] so a tampered
  archive is detected before a restore.
- Catalogue: [[rel:depends_on sqlite3]], one table `files(path, digest, archive, mtime)`
  (see [[Why SQLite for the backup catalogue]]).
- Command line: [[rel:depends_on argparse]] with the sub-commands `run`, `list` and
  `restore` (see [[Why argparse instead of getopt]]).
- Copy to the NAS: rsync called through [[rel:depends_on subprocess]]
  (see [[Why subprocess.run instead of os.system]]).
- Logging to a rotating file: [[logging.handlers.RotatingFileHandler]].

## Status

Runs every night at 02:30 from cron. A full backup of 40 GB takes about 25 minutes,
an incremental one under two minutes. Restores were tested twice.

## Open points

- Restore of single files by pattern (use [[fnmatch]]).
- [[Priya Raman]] reviews the catalogue schema and the HMAC key handling.
""",
)

_note(
    "Projects/Log Analyzer.md",
    """
---
type: project
status: active
tags: [project, logs]
---
# Log Analyzer

Reads the rotated nginx access logs of our web servers (plain and `.gz`), counts requests
per status code, path and hour, and writes a weekly CSV report for the team. Owner:
[[Jonas Weber]].

## Building blocks

- Parsing each log line with one compiled pattern: [[rel:depends_on re]].
- Reading rotated logs without unpacking them: [[rel:depends_on gzip]].
- Counting: [[rel:depends_on collections]] (`Counter` per status code, `defaultdict` per hour).
- Report: [[rel:depends_on csv]] (`DictWriter`).
- Cache of already parsed files: [[rel:depends_on json]]
  (see [[Why JSON instead of pickle for the cache]]).
- Timestamps: [[rel:depends_on datetime]] and [[zoneinfo]]
  (see [[Warum zoneinfo statt fester UTC-Offsets]]).
- Rows are dataclasses (see [[Why dataclasses instead of namedtuple]]).

## Numbers

About 3 million lines per week; a full run takes 40 seconds, a cached run 6 seconds.
The biggest speed-up came from compiling the regular expression once instead of per line.
""",
)

_note(
    "Projects/Link Checker.md",
    """
---
type: project
status: active
tags: [project, web]
aliases: [linkcheck]
---
# Link Checker

Crawls our documentation site every morning and reports broken links (HTTP 404, timeouts,
redirect loops) in the team chat.

## Building blocks

- Fetching pages: [[rel:depends_on urllib.request]] with a 10-second timeout.
- Extracting `<a href>` targets: [[rel:depends_on html.parser]].
- Joining relative links: [[rel:depends_on urllib.parse]] (`urljoin`).
- Respecting robots.txt: [[rel:depends_on urllib.robotparser]].
- Parallel fetching with 16 worker threads: [[rel:depends_on concurrent.futures]]
  (see [[Why threads instead of asyncio for the link checker]]).
- Output through [[logging]] (see [[Why logging instead of print]]).

## Status

About 2,300 pages, one run takes four minutes. False positives came from servers that
answer HEAD requests with 405; the checker now falls back to GET.
""",
)

# ---------------------------------------------------------------------------------- people
_note(
    "People/Priya Raman.md",
    """
---
type: person
tags: [person, colleague]
aliases: [Priya]
---
# Priya Raman

Security engineer on the platform team. Knows SQLite internals and cryptography well.

- Reviews the [[Backup Tool]]: the catalogue schema and how the HMAC key is stored.
- Her rule of thumb: "Never unpickle anything you did not write yourself" – the reason
  behind [[Why JSON instead of pickle for the cache]].
- Suggested [[secrets]] for generating the restore tokens
  (see [[Why secrets instead of random for tokens]]).
- Best reached in the mornings; prefers written questions.
""",
)

_note(
    "People/Jonas Weber.md",
    """
---
type: person
tags: [person, colleague]
aliases: [Jonas]
---
# Jonas Weber

Backend-Entwickler im Ops-Team in Hamburg, betreut den [[Log Analyzer]].

- Schreibt am liebsten stark typisierten Code, Fan von [[dataclasses]] und [[typing]].
- Hat die Entscheidung [[Warum zoneinfo statt fester UTC-Offsets]] angestoßen, nachdem
  der Wochenbericht nach der Zeitumstellung eine Stunde doppelt zählte.
- Erreichbar per Chat, freitags meist im Homeoffice.
""",
)

# ------------------------------------------------------------------------------- decisions
_note(
    "Decisions/Why pathlib instead of os.path.md",
    """
---
type: decision
status: stable
tags: [decision, files]
date: 2026-09-14
---
# Why pathlib instead of os.path

## Context

The first version of the [[Backup Tool]] built paths by string concatenation and
`os.path.join`. Two bugs came from that: a missing separator on a path that ended without
a slash, and a Windows test run that mixed `\\` and `/`.

## Options

1. Keep [[os.path]] and be more careful.
2. Use [[pathlib]]: `Path` objects with the `/` operator, `.suffix`, `.stem`, `.rglob()`,
   `.read_text()`.

## Decision

All path handling uses `pathlib.Path`. Strings only at the boundary (the SQLite catalogue
stores `path.as_posix()`).

## Consequences

- Walking the home directory is one `Path.rglob("*")` call instead of `os.walk` plus joins.
- Functions that still expect strings get `str(path)`; since Python 3.6 most of the
  standard library accepts path-like objects anyway.
""",
)

_note(
    "Decisions/Why JSON instead of pickle for the cache.md",
    """
---
type: decision
status: stable
tags: [decision, security, cache]
date: 2026-10-02
---
# Why JSON instead of pickle for the cache

## Context

The [[Log Analyzer]] caches the counts of every log file it has already parsed. The first
cache was a pickle file: one line of code, and it handled `Counter` and `datetime` objects
without any work.

During the review [[Priya Raman]] pointed out that the cache lives in a shared folder.
Loading a pickle can execute arbitrary code: whoever can write that file can run code as
the analyzer's user. The documentation of [[pickle]] warns about exactly this.

## Options

1. pickle plus an HMAC signature on the file.
2. [[json]]: only plain data (dicts, lists, strings, numbers), safe to load, readable.
3. [[shelve]]: built on pickle, same problem.

## Decision

The cache is JSON. Timestamps are stored as ISO 8601 strings, counters as plain dicts.

## Consequences

- Ten lines of conversion code (`Counter` to dict and back, `datetime.fromisoformat`).
- The cache can be inspected and fixed by hand with any editor.
- About 20 % slower to load than pickle, irrelevant at our size.
""",
)

_note(
    "Decisions/Why subprocess.run instead of os.system.md",
    """
---
type: decision
status: stable
tags: [decision, processes]
date: 2026-09-20
---
# Why subprocess.run instead of os.system

## Context

The [[Backup Tool]] copies each archive to the NAS with rsync. The first version called
`os.system("rsync -a " + archive + " nas:/backup/")`. A file name with a space broke it,
and a name with a semicolon would have run a second command (shell injection). The exit
status was easy to ignore, and rsync's error output went straight to the terminal.

## Decision

Use [[subprocess]]: `subprocess.run(["rsync", "-a", str(archive), target], check=True,
capture_output=True, text=True, timeout=3600)`.

- Arguments as a list, no shell: spaces and special characters are safe.
- `check=True` raises `CalledProcessError` on a non-zero exit code.
- `capture_output=True` keeps stderr for the log.
- `timeout` stops a hanging transfer.

## Consequences

Errors of the NAS copy now appear in the backup log with rsync's own message.
`os.system` is banned in our code review checklist.
""",
)

_note(
    "Decisions/Why SQLite for the backup catalogue.md",
    """
---
type: decision
status: stable
tags: [decision, storage]
date: 2026-09-16
---
# Why SQLite for the backup catalogue

## Context

The [[Backup Tool]] must answer "which archive holds the newest version of this file?"
and "which files changed since yesterday?" for about 400,000 files.

## Options

1. A JSON file per backup: simple, but every question loads everything.
2. [[shelve]] or [[dbm]]: key-value only, no queries over several fields, and shelve
   is built on pickle.
3. [[sqlite3]]: a real SQL database in one file, in the standard library, with
   transactions and indexes.

## Decision

SQLite. One table `files(path, digest, archive, mtime)` with an index on `path`.
Every backup run is one transaction, so an interrupted run leaves the catalogue unchanged.

## Consequences

- Queries like "newest version of path X" are one indexed SELECT (under a millisecond).
- The catalogue file is copied to the NAS together with the archives.
- Concurrent writers are not needed; SQLite's single-writer lock is fine.
""",
)

_note(
    "Decisions/Why threads instead of asyncio for the link checker.md",
    """
---
type: decision
status: stable
tags: [decision, concurrency]
date: 2026-10-10
---
# Why threads instead of asyncio for the link checker

## Context

Checking 2,300 pages one after another took 40 minutes in the [[Link Checker]]; almost
all of it was waiting for the network.

## Options

1. [[asyncio]] with an async HTTP client: the fastest option, but the standard library
   has no async HTTP client, so it would need a third-party package, and every function
   would become `async`.
2. [[concurrent.futures]] `ThreadPoolExecutor` around the existing blocking
   [[urllib.request]] code.
3. [[multiprocessing]]: separate processes, pointless for work that only waits on I/O.

## Decision

A `ThreadPoolExecutor(max_workers=16)` and `executor.map` over the URLs. The GIL is
released while a thread waits for the network, so threads are enough for I/O-bound work.

## Consequences

- Run time dropped from 40 to 4 minutes with no new dependency.
- Shared state (the set of visited URLs) is guarded by a `threading.Lock`.
- If we ever need thousands of parallel connections, asyncio is the next step.
""",
)

_note(
    "Decisions/Why logging instead of print.md",
    """
---
type: decision
status: stable
tags: [decision, logging]
date: 2026-10-12
---
# Why logging instead of print

## Context

The [[Link Checker]] and the [[Backup Tool]] run unattended from cron. With `print`,
output went to cron's mail, debug lines could not be switched off, and there were no
timestamps when something failed at night.

## Decision

Both tools use [[logging]]: one logger per module (`logging.getLogger(__name__)`),
INFO level by default, DEBUG with `--verbose`. The backup tool writes to a
[[logging.handlers.RotatingFileHandler]] (5 files of 1 MB), the link checker to stderr.

## Consequences

- Every line has a timestamp and a level; warnings about broken links are easy to grep.
- Libraries we use can log into the same handlers.
- `print` stays for real program output (the list command of the backup tool).
""",
)

_note(
    "Decisions/Why argparse instead of getopt.md",
    """
---
type: decision
status: stable
tags: [decision, cli]
date: 2026-09-15
---
# Why argparse instead of getopt

## Context

The [[Backup Tool]] needs sub-commands (`run`, `list`, `restore`), options with defaults
and a usable `--help`.

## Options

1. [[getopt]]: C-style parsing; help texts, types and sub-commands all by hand.
2. [[argparse]]: generates usage and help, converts types, supports sub-parsers and
   mutually exclusive groups.
3. A third-party library such as click: nicer API, but a dependency.

## Decision

argparse with `add_subparsers()`; every sub-command sets its handler with
`set_defaults(func=...)`.

## Consequences

`--help` is always in step with the code. Error messages for wrong arguments come for
free and exit with status 2.
""",
)

_note(
    "Decisions/Why dataclasses instead of namedtuple.md",
    """
---
type: decision
status: stable
tags: [decision, typing]
date: 2026-10-04
---
# Why dataclasses instead of namedtuple

## Context

A parsed log line in the [[Log Analyzer]] was a `collections.namedtuple`. We wanted
type hints, default values and a computed field, and some code tried to change a
field, which a tuple does not allow.

## Options

1. `collections.namedtuple` (immutable, no type hints).
2. `typing.NamedTuple` (type hints, still a tuple, still immutable).
3. [[dataclasses]]: a normal class with generated `__init__`, `__repr__` and `__eq__`,
   type hints, defaults, `field(default_factory=...)`, optional `frozen=True` and
   `slots=True`.

## Decision

`@dataclass(slots=True)` for log rows. `__post_init__` computes the hour bucket.

## Consequences

Memory use per row stayed the same thanks to slots. Rows are no longer tuples, so code
that unpacked them positionally had to change (three places).
""",
)

_note(
    "Decisions/Warum zoneinfo statt fester UTC-Offsets.md",
    """
---
type: decision
status: stable
tags: [entscheidung, zeit]
date: 2026-10-27
---
# Warum zoneinfo statt fester UTC-Offsets

## Kontext

Der [[Log Analyzer]] hat Zeitstempel mit einem festen Offset von +01:00 in Ortszeit
umgerechnet. Nach der Umstellung auf Winterzeit am 25. Oktober zählte der Wochenbericht
die Stunde zwischen 2 und 3 Uhr doppelt. Gemeldet hat das [[Jonas Weber]].

## Optionen

1. Fester Offset mit `datetime.timezone(timedelta(hours=1))`: kennt keine Sommerzeit.
2. Das Drittpaket pytz: funktioniert, aber mit eigenwilliger API (`localize`).
3. [[zoneinfo]] aus der Standardbibliothek (seit Python 3.9) mit der IANA-Zeitzone
   `Europe/Berlin`.

## Entscheidung

Alle Zeitstempel werden als UTC gespeichert und erst für den Bericht mit
`ZoneInfo("Europe/Berlin")` in Ortszeit umgerechnet.

## Konsequenzen

- Sommer- und Winterzeit stimmen automatisch.
- Auf Windows braucht zoneinfo das Paket `tzdata`, weil dort keine Zeitzonendatenbank
  mitgeliefert wird.
""",
)

_note(
    "Decisions/Why secrets instead of random for tokens.md",
    """
---
type: decision
status: stable
tags: [decision, security]
date: 2026-10-20
---
# Why secrets instead of random for tokens

## Context

A restore in the [[Backup Tool]] is confirmed with a one-time token sent by mail. The
first version used `random.choice` over letters and digits.

## Decision

Tokens come from [[secrets]] (`secrets.token_urlsafe(16)`), and tokens are compared
with `hmac.compare_digest`. [[random]] uses the Mersenne Twister, which is fine for
simulations but predictable: after enough outputs an attacker can compute the next ones.
Suggested by [[Priya Raman]].

## Consequences

No visible change for users; tokens are now 22 URL-safe characters.
""",
)

# ------------------------------------------------------------------------- daily notes
# All daily notes share the same headings on purpose (Today / Learned / Tomorrow).
_JOURNAL = {
    "2026-10-05": (
        "- Started the [[Log Analyzer]] rewrite; first regex for the nginx log format.\n"
        "- Meeting with [[Jonas Weber]] about the weekly report columns.",
        "- `re.compile` once at module level; compiling inside the loop cost 30 % of the run.\n"
        "- `re.VERBOSE` lets me comment the pattern.",
        "- Read rotated `.gz` logs directly.",
    ),
    "2026-10-06": (
        "- [[gzip]] `open(path, 'rt')` reads compressed logs like text files. Done.\n"
        "- Counted status codes with `Counter`, top ten with `most_common(10)`.",
        "- `Counter` subtraction drops zero and negative counts.",
        "- CSV report.",
    ),
    "2026-10-07": (
        "- Weekly report as CSV with `DictWriter`; Excel wanted `utf-8-sig` for umlauts.\n"
        "- Backup ran fine overnight.",
        "- Open CSV files with `newline=''`, otherwise Windows gets blank lines.",
        "- Cache parsed files.",
    ),
    "2026-10-08": (
        "- Pickle cache for the [[Log Analyzer]] works, twice as fast.\n"
        "- Priya is sceptical about pickle in a shared folder.",
        "- `functools.lru_cache` on the user-agent parser: 8 % faster.",
        "- Talk to Priya about the cache.",
    ),
    "2026-10-09": (
        "- Switched the cache to JSON after the review.\n"
        "- Link checker prototype: one page per second. Far too slow.",
        "- `json.dumps(default=str)` serialises datetimes quickly, but one-way.",
        "- Make the link checker parallel.",
    ),
    "2026-10-12": (
        "- [[Link Checker]] now with 16 threads; four minutes for the whole site.\n"
        "- Replaced all prints with logging in both tools.",
        "- `executor.map` returns results in input order, `as_completed` as they finish.",
        "- Handle HEAD requests answered with 405.",
    ),
    "2026-10-14": (
        "- HEAD 405 fallback to GET in the link checker.\n"
        "- Profiled the analyzer with `cProfile`; 60 % of the time in `strptime`.",
        "- `datetime.fromisoformat` is much faster than `strptime` for ISO strings.\n"
        "- `pstats` can sort by cumulative time.",
        "- Replace strptime in the hot loop.",
    ),
    "2026-10-16": (
        "- Backup tool: the catalogue query for the newest version takes under a millisecond.\n"
        "- Wrote tests with `unittest.mock.patch` for the rsync call.",
        "- `mock.patch` must patch where the name is looked up, not where it is defined.",
        "- Restore by pattern.",
    ),
    "2026-10-19": (
        "- Restore by pattern works with `fnmatch`.\n"
        "- Priya reviewed the HMAC key handling: key now read from a file with mode 600.",
        "- `hmac.compare_digest` for comparing digests in constant time.",
        "- Restore tokens.",
    ),
    "2026-10-21": (
        "- Restore tokens now from `secrets`.\n"
        "- Looked at `heapq.nlargest` for the top-10 paths instead of sorting everything.",
        "- `heapq.nlargest(k, data)` beats `sorted()[:k]` when k is small.",
        "- Weekly report timezone check.",
    ),
    "2026-10-26": (
        "- Weekly report counts 02:00-03:00 twice. Clock change yesterday!\n"
        "- Jonas found it first.",
        "- A fixed UTC offset knows nothing about daylight saving time.",
        "- Fix timestamps with zoneinfo.",
    ),
    "2026-10-27": (
        "- Timestamps in UTC, report in Europe/Berlin via zoneinfo. Report correct again.\n"
        "- Windows CI needed the `tzdata` package.",
        "- `ZoneInfo` objects are cached; creating them repeatedly is cheap.",
        "- Write the decision down.",
    ),
}

for _day, (_today, _learned, _tomorrow) in _JOURNAL.items():
    _note(
        f"Journal/{_day}.md",
        f"""
---
type: journal
date: {_day}
tags: [journal]
---
# {_day}

## Today

{_today}

## Learned

{_learned}

## Tomorrow

- {_tomorrow.lstrip("- ")}
""",
    )
