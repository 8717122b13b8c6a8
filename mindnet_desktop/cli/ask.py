"""Search, ask, feedback and the query log."""

from __future__ import annotations

import argparse
import sys

from mindnet_desktop.cli.common import CliError, open_mindnet, print_json
from mindnet_desktop.core.service.notes import edge_actions
from mindnet_desktop.core.service.quality.feedback import record_feedback
from mindnet_desktop.core.service.search.hybrid import hybrid_search
from mindnet_desktop.core.service.vault.mindnet import Mindnet


def cmd_search(args: argparse.Namespace, mn: Mindnet) -> int:
    root = edge_actions.resolve_node(mn, args.root) if args.root else None
    result = hybrid_search(
        mn,
        args.query,
        args.k,
        args.type,
        root,
        args.depth,
        args.lang,
        per_note=args.per_note,
        folder=args.folder,
    )
    if args.json:
        info = mn.queries.node_info(root) if root else None
        print_json(
            {
                **result.to_dict(),
                "root": info,
                "per_note": args.per_note,
                "count": len(result.hits),
            }
        )
        return 0
    routing = result.routing
    print(f"query {result.query_id}  intent {routing.intent} ({routing.source})")
    for rank, hit in enumerate(result.hits, start=1):
        mark = "  [injected]" if hit.injected else ""
        print(f"{rank}. {hit.score:.3f}  {hit.node_id}  [{hit.type}]  {hit.title}{mark}")
        print("   " + " ".join(hit.text.split())[:160])
        if args.explain:
            for reason in hit.reasons:
                print(f"   - {reason}")
            terms = ", ".join(
                f"{t['term']} {t['raw']:.3f}×{t['weight']:g}={t['contribution']:.3f}"
                for t in hit.score_breakdown
            )
            print(f"   = {terms}")
    return 0


def cmd_ask(args: argparse.Namespace, mn: Mindnet) -> int:
    from mindnet_desktop.core.chat.answer import generate
    from mindnet_desktop.core.models.llm import LlamaChat
    from mindnet_desktop.core.service.ask.pipeline import finish, pack, retrieve

    llm = None if args.no_llm else LlamaChat(args.model, n_ctx=args.ctx, max_tokens=args.max_tokens)
    prepared = retrieve(mn, args.question, llm, args.k, args.lang, args.expand)
    if not args.json:  # the sources first: known before the model is even loaded
        expansion = prepared.result.expansion
        if expansion.used:
            print(f"Rewritten ({expansion.mode}, {expansion.seconds:.1f} s): {expansion.text}")
        elif expansion.skipped:
            print(f"Not rewritten ({expansion.mode}): {expansion.skipped}")
        if prepared.result.evidence:
            print("From your notes:")
            for e in prepared.result.evidence:
                print(f"[{e.citation}] " + " ".join(e.sentence.split()))
            print()
        print("Closest notes:" if prepared.result.not_found else "Sources:")
        for n, hit in enumerate(prepared.result.sources, start=1):
            mark = " [injected]" if hit.injected else ""
            print(f"[{n}] {hit.title}{mark}  ({hit.path}, {hit.score:.3f})", flush=True)
        print()
    prepared = pack(mn, prepared, llm)  # loads the model (its tokenizer counts the prompt)
    streamed = False
    for token in generate(prepared, llm):
        streamed = True
        if not args.json:
            print(token.text, end="", flush=True)
    result = finish(mn, prepared)
    if args.json:
        print_json(result.to_dict())
    else:
        if not streamed and result.answer:  # said without the model ("not found")
            print(result.answer, end="")
        if result.draft_answer is not None:  # the second look withheld what was streamed
            print(f"\n\n{result.answer} (a check found the notes do not state the answer above)")
        routing = result.routing
        print(f"\n\nintent {routing.intent} ({routing.source}), query {result.query_id}")
        for a in result.alignments:  # citations set by what supports each sentence
            if a.action == "replaced":
                was = " ".join(f"[{n}]" for n in a.cited)
                print(f"cited [{a.source}] instead of {was}: {a.sentence}")
            elif a.action == "added":
                print(f"cited [{a.source}]: {a.sentence}")
            elif a.action == "unsupported":
                print(f"not found in your notes: {a.sentence}")
        for check in result.citation_checks:
            if not check.supported:  # a citation the source does not back up
                print(f"flagged [{check.citation}]: {check.reason}: {check.sentence}")
        if result.unsupported_figures:  # a figure no source holds: likely made up
            figures = ", ".join(result.unsupported_figures)
            print(f"not in your notes: {figures} (in none of the sources; check before use)")
    if result.error:
        print(f"mindnet: error: {result.error}", file=sys.stderr)
        return 2
    return 0


def cmd_feedback(args: argparse.Namespace, mn: Mindnet) -> int:
    if args.list:
        return _list_ratings(args, mn)
    if args.forget is not None:
        if bool(args.forget) == args.all:
            raise CliError("give --forget a QUERY_ID, or --forget --all")
        removed = mn.query_log.forget(args.forget or None)
        mn.feedback.changed()
        if args.json:
            print_json({"forgotten": removed, "query_id": args.forget or None})
        else:
            print(f"forgot {removed} rating line(s)")
        return 0
    if args.all:
        raise CliError("--all goes with --forget")
    if not (args.query_id and args.node_id and args.rating):
        raise CliError(
            "give QUERY_ID NODE_ID and --up, --down or --clear (or --list, --forget QUERY_ID)"
        )
    entry = record_feedback(mn, args.query_id, args.node_id, args.rating)
    if args.json:
        print_json({"feedback": entry})
    else:
        print(f"thumbs {entry['rating']} for {entry['node_id']} of query {entry['query_id']}")
    return 0


def _list_ratings(args: argparse.Namespace, mn: Mindnet) -> int:
    keys = ("time", "query_id", "node_id", "note_id", "rating", "query")
    ratings = [{k: e.get(k) for k in keys} for e in mn.query_log.standing()]
    if args.json:
        print_json({"ratings": ratings})
        return 0
    if not ratings:
        print("no ratings")
    for r in ratings:
        arrow = {"up": "▲", "down": "▼"}[str(r["rating"])]
        print(f"{r['time']}  {r['query_id']}  {arrow} {r['note_id'] or r['node_id']}  {r['query']}")
    return 0


def cmd_log(args: argparse.Namespace, mn: Mindnet) -> int:
    queries = mn.query_log.read_queries()[-args.limit :] if args.limit > 0 else []
    feedback = mn.query_log.read_feedback()
    if args.json:
        print_json({"queries": queries, "feedback": feedback})
        return 0
    ratings: dict[str, list[str]] = {}
    for entry in feedback:
        ratings.setdefault(entry["query_id"], []).append(f"{entry['rating']} {entry['node_id']}")
    for q in queries:
        print(f"{q['time']}  {q['query_id']}  {q['intent']:<8} {q['query']}")
        for rating in ratings.get(q["query_id"], []):
            print(f"    {rating}")
    return 0


COMMANDS = {
    "search": cmd_search,
    "ask": cmd_ask,
    "feedback": cmd_feedback,
    "log": cmd_log,
}


def run(args: argparse.Namespace) -> int:
    # A search or a question is answered from the chunk snapshot when it is in step (no
    # chromadb to import); the store is opened when something else needs it.
    with open_mindnet(args, lazy_store=args.command in ("search", "ask")) as mn:
        return COMMANDS[args.command](args, mn)
