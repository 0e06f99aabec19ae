// Fetch helpers for the service's JSON routes: problem+json answers become ApiError (with the
// title and detail the page shows), and a 202 job is polled until its result can be read.

const POLL_MS = 500;
const MAX_POLLS = 600;

export class ApiError extends Error {
  constructor(status, title, detail, problem) {
    super(detail ? `${title}: ${detail}` : title);
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.problem = problem;
  }
}

export function query(params) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params ?? {})) {
    for (const one of [value].flat()) {
      if (one !== null && one !== undefined && one !== "") search.append(name, String(one));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

async function failure(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    // a proxy's HTML error page, or an empty body: fall back to the status line
  }
  const title = body?.title ?? `HTTP ${response.status} ${response.statusText}`.trim();
  return new ApiError(response.status, title, body?.detail ?? "", body);
}

function wait(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

async function untilDone(location, signal, onWait) {
  for (let poll = 0; poll < MAX_POLLS; poll += 1) {
    const response = await fetch(location, { signal, headers: { Accept: "application/json" } });
    if (!response.ok) throw await failure(response);
    const job = await response.json();
    if (job.status === "done") return;
    if (job.status === "failed") {
      throw new ApiError(500, "The classification failed", job.error ?? job.error_kind ?? "", job);
    }
    onWait?.(job);
    await wait(POLL_MS, signal);
  }
  throw new ApiError(504, "Still being made", "the classification took too long; try again later");
}

// GET path+params as JSON. onWait(job) is told while a 202 job is being made.
export async function getJson(path, params, { signal, onWait } = {}) {
  const url = path + query(params);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const response = await fetch(url, { signal, headers: { Accept: "application/json" } });
    if (response.status === 202) {
      const job = await response.json();
      onWait?.(job);
      await untilDone(response.headers.get("Location") ?? `/v1/jobs/${job.id}`, signal, onWait);
      continue;
    }
    if (!response.ok) throw await failure(response);
    return response.json();
  }
  throw new ApiError(503, "Not ready", "the service kept answering 202; try again later");
}

export function isAbort(error) {
  return error?.name === "AbortError";
}
