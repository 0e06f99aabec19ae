"""Command line of ``python -m bench.scale``."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from bench.scale import runner
from bench.scale.fit import FIT_ON, FULL_STATEMENTS, Growth
from bench.scale.markdown import markdown
from bench.scale.report import load_results, print_report, table_lines, write_json
from bench.scale.runner import Options, StepResult
from bench.scale.sizes import label, parse_size, parse_sizes
from bench.scale.steps import BY_NAME, DEFAULT_SERVE_ARGS, chosen

DEFAULT_DATA = Path("/work/bench-data/scale")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command-line options."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.scale",
        description="The scale ladder: every step of kgdiff on 3 snapshots of N statements.",
    )
    parser.add_argument("--sizes", default="25,50", help="statements per snapshot, in millions "
                        "(25,50,100,200) or with a unit (20k, 1.5M)")  # fmt: skip
    parser.add_argument("--steps", default=",".join(BY_NAME), help="comma-separated steps")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="inputs, work, results")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--timeout", type=float, default=7200.0, help="seconds a step may run")
    parser.add_argument("--ingest-max", default="50", help="largest size with a JSON dump")
    parser.add_argument("--one-core", default="", help="sizes also run pinned to one CPU")
    parser.add_argument("--fit-min", default="1k", help="smallest size the exponents are fitted on")
    parser.add_argument("--fit-on", choices=FIT_ON, default=FIT_ON[0],
                        help="the time the exponents are judged on: cpu (a shared machine's "
                        "wall time stretches with the other jobs) or wall")  # fmt: skip
    parser.add_argument("--serve-args", default=DEFAULT_SERVE_ARGS,
                        help="bench.serve_load options of the serve step")  # fmt: skip
    parser.add_argument("--keep", action="store_true", help="keep the work stores")
    parser.add_argument("--results", type=Path, nargs="*", default=[],
                        help="earlier results (JSON) fitted together with this run's")  # fmt: skip
    parser.add_argument("--report-only", action="store_true", help="only report --results")
    parser.add_argument("--markdown", type=Path, help="also write the tables here as Markdown")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the ladder (or report earlier runs), print the table, write the JSON."""
    args = parse_args(argv)
    earlier = load_results(args.results)
    fit_min = parse_size(args.fit_min)
    if args.report_only:
        found = print_report(earlier, fit_min=fit_min, fit_on=args.fit_on)
        _write_markdown(args.markdown, earlier, found)
        return 0
    sizes = parse_sizes(args.sizes)
    steps = chosen([name.strip() for name in args.steps.split(",") if name.strip()])
    options = Options(
        data=args.data.resolve(),
        seed=args.seed,
        timeout=args.timeout,
        ingest_max=parse_size(args.ingest_max),
        serve_args=args.serve_args,
        keep=args.keep,
    )
    pinned = set(parse_sizes(args.one_core)) if args.one_core else set()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    out = options.data / "results" / f"scale-{stamp}.json"
    results: list[StepResult] = []
    context = {"sizes": sizes, "steps": [s.name for s in steps], "full": FULL_STATEMENTS,
               "options": {k: str(v) for k, v in vars(args).items()}}  # fmt: skip

    def report(result: StepResult) -> None:
        results.append(result)
        print(table_lines([result])[-1], flush=True)
        write_json(out, [*earlier, *results], [], context)

    with runner.exclusive(options.data):
        for size in sizes:
            for cores in (2, 1) if size in pinned else (2,):
                print(f"== 3 × {label(size)} statements, {cores} core(s)", flush=True)
                rung = runner.prepare(size, cores, steps, options)
                runner.run_rung(rung, steps, options, report)
    found = print_report([*earlier, *results], fit_min=fit_min, fit_on=args.fit_on)
    write_json(out, [*earlier, *results], found, context)
    _write_markdown(args.markdown, [*earlier, *results], found)
    print(f"\nresults: {out}")
    return 0


def _write_markdown(path: Path | None, results: list[StepResult], found: list[Growth]) -> None:
    if path is not None:
        path.write_text(markdown(results, found))
        print(f"Markdown tables: {path}")
