"""Runs a `testgate batch` manifest on a Ray cluster: one Ray task per line.

Each task calls the testgate Python package on the node Ray placed it on,
`testgate.batch(manifest, index=i)`, which runs line i exactly as
`testgate batch --index i` does; the driver appends each task's result to
`--out` as it ends, in the same JSON lines as `testgate batch --out`, and
skips the ids already there (resume). The manifest and every workspace must
be at a path the nodes see (one machine, or a shared filesystem), and every
node needs the testgate wheel and bwrap (docs/scale.md).

    python examples/ray/run_manifest.py manifest.jsonl --out results.jsonl \\
        [--address auto] [--num-cpus 1] [--resources '{"testgate": 1}']
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ray

import testgate


@ray.remote
def check_line(manifest: str, index: int) -> tuple[str, dict[str, Any]]:
    """The node that ran it and the result line of the manifest's check
    number `index`."""
    results = testgate.batch(manifest, index=index)
    if len(results) != 1:
        raise RuntimeError(f"{manifest}: line index {index} gave {len(results)} results")
    return ray.get_runtime_context().get_node_id(), results[0].raw


def manifest_ids(manifest: Path) -> Iterator[tuple[int, Any]]:
    """(index, id) of each check: non-blank lines from 0; the id is the
    line's `id`, else its line number from 1, as `testgate batch` says."""
    index = 0
    with manifest.open("rb") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                found = json.loads(line).get("id")
            except (json.JSONDecodeError, AttributeError):
                found = None
            yield index, number if found is None else found
            index += 1


def done_ids(out: Path) -> set[str]:
    """The ids already in `out`, as JSON text; a torn last line is cut off."""
    if not out.exists():
        return set()
    data = out.read_bytes()
    complete = data[: data.rfind(b"\n") + 1]
    if len(complete) < len(data):
        with out.open("r+b") as file:
            file.truncate(len(complete))
    return {json.dumps(json.loads(line)["id"]) for line in complete.splitlines() if line.strip()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("manifest", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--address", default="auto",
                        help="the Ray cluster: auto (default) joins the one running here, "
                             "local starts one inside this process, or HOST:PORT")
    parser.add_argument("--num-cpus", type=float, default=1, help="CPUs each check requests")
    parser.add_argument("--resources", type=json.loads, default={}, help="further resources, JSON")
    parser.add_argument("--in-flight", type=int, default=0,
                        help="tasks submitted at once (default: twice the cluster's CPUs)")
    args = parser.parse_args()

    manifest = args.manifest.resolve()
    ray.init(address=args.address, log_to_driver=False)
    in_flight = args.in_flight or max(2, int(2 * ray.cluster_resources().get("CPU", 1)))
    task = check_line.options(num_cpus=args.num_cpus, resources=args.resources)
    done = done_ids(args.out)
    pending = (i for i, id_ in manifest_ids(manifest) if json.dumps(id_) not in done)

    started = time.monotonic()
    written = 0
    per_node: dict[str, int] = {}
    running: list[ray.ObjectRef] = []
    with args.out.open("a") as out:
        while True:
            # Bounded: at most `in_flight` tasks submitted and not gathered.
            for index in pending:
                running.append(task.remote(str(manifest), index))
                if len(running) >= in_flight:
                    break
            if not running:
                break
            ready, running = ray.wait(running, num_returns=1)
            for ref in ready:
                node, line = ray.get(ref)
                per_node[node] = per_node.get(node, 0) + 1
                out.write(json.dumps(line) + "\n")
                out.flush()
                written += 1
    elapsed = time.monotonic() - started
    rate = written / elapsed * 60 if elapsed > 0 else 0.0
    print(f"ray: {written} checks in {elapsed:.1f}s, {rate:.1f} per minute, "
          f"{len(done)} skipped (already in {args.out}), on {len(per_node)} nodes: "
          f"{sorted(per_node.values(), reverse=True)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
