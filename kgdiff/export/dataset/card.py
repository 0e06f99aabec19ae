"""The dataset card (``README.md``) and ``kgdiff_build.json`` of an exported benchmark.

The card is a Hugging Face dataset card: YAML front matter that the ``datasets`` library reads
(``configs`` with the data files of each split, ``dataset_info`` with the features, the
licences), then prose. Both files say only what the inputs determine (no time of creation), so
an export of the same store, dates and seed is the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from kgdiff.export.core.benchmark_model import BuildFacts, ConfigExport
from kgdiff.export.core.drop_counts import dropped_json
from kgdiff.export.dataset.schema import WIKIPEDIA_FIELDS, feature_lines

BUILD_FILE = "kgdiff_build.json"
CARD_FILE = "README.md"


def data_file(config: str, split: str, suffix: str) -> str:
    """A split's file, relative to the dataset folder."""
    return f"data/{config}/{split}.{suffix}"


def _yaml(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML double-quoted one


def loadable_splits(config: ConfigExport) -> list[str]:
    """The splits the card lists: those with records (the datasets library cannot load an
    empty split; its files are written all the same, and kgdiff_build.json counts it)."""
    return [split for split, count in config.records().items() if count]


def _front_matter(configs: Sequence[ConfigExport], facts: BuildFacts) -> list[str]:
    listed = [config for config in configs if loadable_splits(config)]
    lines = ["---", "license:", "- cc0-1.0", "- cc-by-sa-4.0", "language:"]
    lines += [f"- {_yaml(facts.parameters['lang'])}", "pretty_name: kgdiff benchmark"]
    lines += ["task_categories:", "- question-answering", "- multiple-choice", "tags:"]
    lines += ["- temporal", "- knowledge-cutoff", "- wikidata", "configs:"]
    for config in listed:
        lines += [f"- config_name: {config.name}", "  data_files:"]
        for split in loadable_splits(config):
            path = data_file(config.name, split, "parquet")
            lines += [f"  - split: {split}", f"    path: {path}"]
    lines.append("dataset_info:")
    for config in listed:
        lines += [f"- config_name: {config.name}", "  features:"]
        lines += feature_lines(config.schema, "  ")
    return [*lines, "---"]


def _parameter_lines(facts: BuildFacts) -> list[str]:
    lines = [f"- `{key}`: {json.dumps(value)}" for key, value in facts.parameters.items()]
    lines += [f"- store `{key}`: {json.dumps(value)}" for key, value in facts.store.items()]
    return [*lines, f"- kgdiff version: {facts.kgdiff_version}"]


def _config_lines(config: ConfigExport) -> list[str]:
    lines = [f"### `{config.name}`", "", config.description, "", "| split | records |"]
    lines.append("|---|---|")
    lines += [f"| {split} | {count:,} |" for split, count in config.records().items()]
    empty = [split for split, count in config.records().items() if not count]
    if empty:
        lines += ["", f"Empty here, so not listed among the data files: {', '.join(empty)}."]
    return [*lines, ""]


FILTER_REASONS = {
    "below_min_sitelinks": ("min_sitelinks", "sitelinks (articles in Wikimedia projects)"),
    "below_min_pageviews": ("min_pageviews", "median monthly views of its article"),
}
"""The salience filters (docs/benchmark-export.md#what-is-left-out): the reason a record is
counted under in ``dropped``, the parameter, and what it counts."""


def _removed(config: ConfigExport, reason: str) -> dict[str, int]:
    dropped = dropped_json(config.counts.get("dropped", {}))
    return {split: found[reason] for split, found in dropped.items() if found.get(reason)}


def _filter_lines(configs: Sequence[ConfigExport], facts: BuildFacts) -> list[str]:
    """The card's section on the salience filters and the records each left out."""
    lines = ["## Filters", ""]
    for reason, (parameter, what) in FILTER_REASONS.items():
        threshold = facts.parameters.get(parameter)
        if threshold is None:
            lines.append(f"- `--{parameter.replace('_', '-')}`: not set.")
            continue
        removed = {config.name: _removed(config, reason) for config in configs}
        parts = [
            f"{name} {sum(splits.values()):,} ("
            + ", ".join(f"{split} {count:,}" for split, count in splits.items())
            + ")"
            for name, splits in removed.items()
            if splits
        ]
        left = "; ".join(parts) if parts else "none"
        lines.append(
            f"- `--{parameter.replace('_', '-')} {threshold}`: a subject needs at least"
            f" {threshold:,} {what}. Records left out: {left}."
        )
    return [*lines, ""]


def card_text(configs: Sequence[ConfigExport], facts: BuildFacts) -> str:
    """The whole ``README.md``."""
    wikipedia = ", ".join(f"`{name}`" for name in sorted(WIKIPEDIA_FIELDS))
    lines = [
        *_front_matter(configs, facts),
        "",
        "# kgdiff benchmark",
        "",
        "Questions about Wikidata facts, built by kgdiff for a language model's knowledge cutoff:"
        " which facts held all along, which changed around the cutoff, and which are new since."
        " The answers come from the Wikidata snapshots of the store named below; the contexts,"
        " when there are any, from Wikipedia articles that state the latest answer.",
        "",
        "## Configs",
        "",
    ]
    for config in configs:
        lines += _config_lines(config)
    lines += ["## How it was built", "", *_parameter_lines(facts), ""]
    lines += [
        f"The same parameters, the counts of every split and what was left out (per split and"
        f" reason, under `dropped`) are in `{BUILD_FILE}`. Each split is a Parquet file with a"
        " JSON lines copy beside it (`data/<config>/<split>.jsonl`).",
        "",
        *_filter_lines(configs, facts),
        "## Licence",
        "",
        "The fields taken from Wikidata (identifiers, labels, aliases, values, and the questions"
        " made from them) are under CC0 1.0, as Wikidata is. The fields quoting Wikipedia"
        f" ({wikipedia}) are under CC BY-SA 4.0: reusing them requires attribution to the"
        " Wikipedia article named in `context_page` (its revision is `context_revision`) and"
        " sharing alike.",
        "",
    ]
    return "\n".join(lines)


def build_json(configs: Sequence[ConfigExport], facts: BuildFacts) -> str:
    """The whole ``kgdiff_build.json`` (sorted keys, one value per line)."""
    document: dict[str, Any] = {
        "kgdiff_version": facts.kgdiff_version,
        "parameters": facts.parameters,
        "store": facts.store,
        "configs": {
            config.name: {
                "splits": {
                    split: {
                        "records": count,
                        "parquet": data_file(config.name, split, "parquet"),
                        "jsonl": data_file(config.name, split, "jsonl"),
                    }
                    for split, count in config.records().items()
                },
                **{
                    key: dropped_json(value) if key == "dropped" else value
                    for key, value in config.counts.items()
                },
            }
            for config in configs
        },
    }
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
