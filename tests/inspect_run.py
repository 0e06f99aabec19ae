"""Run one Inspect task of a benchmark folder with Inspect's mock model, which replies from a
table of prompts; print the log's status and metrics as JSON (tests/test_benchmark_tasks.py).

    python tests/inspect_run.py FILE.py@TASK LOG_DIR REPLIES.json LIMIT [NAME=VALUE …]

``REPLIES.json`` maps a text to the reply: the reply of the longest text the prompt contains
(an empty text matches every prompt). The mock model's replies carry their token usage, so
Inspect does not count tokens itself (it would fetch a tokenizer from the network).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model


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


def main() -> None:
    """Run the task, print ``{"status", "error", "samples", "metrics"}``."""
    spec, log_dir, replies_file, limit, *arguments = sys.argv[1:]
    replies = json.loads(Path(replies_file).read_text())
    model = get_model("mockllm/model", custom_outputs=replier(replies))
    task_args = dict(argument.split("=", 1) for argument in arguments)
    (log,) = inspect_eval(
        spec, model=model, limit=int(limit), log_dir=log_dir, display="none", task_args=task_args
    )
    metrics = {}
    for score in log.results.scores if log.results else []:
        for name, metric in score.metrics.items():
            metrics[f"{score.name}/{name}"] = metric.value
    samples = log.results.completed_samples if log.results else 0
    error = str(log.error) if log.error else None
    print(
        json.dumps({"status": log.status, "error": error, "samples": samples, "metrics": metrics})
    )


if __name__ == "__main__":
    main()
