"""Run Inspect tasks of a benchmark folder with Inspect's mock model, which replies from a
table of prompts; print each log's status and metrics as JSON, a line starting
``inspect-report:`` each (tests/task_tools.py's run_inspect_many).

    python tests/inspect_run.py LOG_DIR RUNS.json

``RUNS.json`` is a list of runs, each ``{"spec": "FILE.py@TASK", "replies": {…}, "limit": N,
"args": {NAME: VALUE}}``, run one after the other in this one process (importing Inspect
takes seconds). ``replies`` maps a text to the reply: the reply of the longest text the
prompt contains (an empty text matches every prompt). The mock model's replies carry their
token usage, so Inspect does not count tokens itself (it would fetch a tokenizer from the
network).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

MARK = "inspect-report: "
"""What starts a report's line (Inspect may print lines of its own)."""


def replier(replies: dict[str, str]) -> Any:
    """The mock model's answer function."""
    texts = sorted(replies, key=len, reverse=True)

    def reply(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        prompt = messages[-1].text
        text = next((replies[t] for t in texts if t in prompt), "no reply for this prompt")
        output = ModelOutput.from_content(model="mockllm", content=text)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    return reply


def run(spec: str, log_dir: str, replies: dict[str, str], limit: int, args: dict[str, str]) -> str:
    """One task's run: ``{"status", "error", "samples", "metrics"}`` as JSON."""
    model = get_model("mockllm/model", custom_outputs=replier(replies), memoize=False)
    (log,) = inspect_eval(
        spec, model=model, limit=limit, log_dir=log_dir, display="none", task_args=args
    )
    metrics = {}
    for score in log.results.scores if log.results else []:
        for name, metric in score.metrics.items():
            metrics[f"{score.name}/{name}"] = metric.value
    samples = log.results.completed_samples if log.results else 0
    error = str(log.error) if log.error else None
    return json.dumps(
        {"status": log.status, "error": error, "samples": samples, "metrics": metrics}
    )


def main() -> None:
    """Run the runs in order, print a line of JSON for each."""
    log_dir, runs_file = sys.argv[1:]
    for asked in json.loads(Path(runs_file).read_text()):
        report = run(asked["spec"], log_dir, asked["replies"], asked["limit"], asked["args"])
        print(f"{MARK}{report}", flush=True)


if __name__ == "__main__":
    main()
