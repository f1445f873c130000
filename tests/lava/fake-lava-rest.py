#!/usr/bin/env python3
"""A stand-in for a LAVA server's REST API v0.2, for tests/lava/rest.sh: only what `rig lava
submit` and `rig lava import --server` ask, with LAVA's limit/offset pagination (an absolute
`next` URL, as Django REST framework writes it). The real server is exercised by
tests/lava/lava-lab-e2e.sh; this one makes pages as small as a test wants and misbehaves on demand.

usage: fake-lava-rest.py PORT_FILE JOBS.json [--page-size N] [--foreign-next] [--endless]

JOBS.json: {"7": {"health": "Complete", "device": "qemu-rig", "end_time": "...",
             "tests": <a /tests/ export: {"results": [...]} with suite ids and metadata>,
             "log": <optional: the job's dispatcher log, served as /api/v0.2/jobs/7/logs/>}}
--foreign-next  `next` names another host (the client must ask its own server, not follow it)
--endless       `next` of the tests list points at the same page forever
A POST to /api/v0.2/jobs/ with "Authorization: Token secret" creates a job that reads
Submitted, Running, then Finished (copying job "7") on three successive GETs.
Listens on 127.0.0.1 only; the chosen port is written to PORT_FILE.
"""
import copy
import json
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

TOKEN = "secret"


class State:
    jobs = {}
    page_size = 50
    foreign_next = False
    endless = False
    lock = threading.Lock()
    gets = {}


def suites_of(job):
    """Suite ids -> names, from the cases' metadata (what the real server keeps in its table)."""
    names = {}
    for case in job["tests"]["results"]:
        m = re.search(r"^definition: (.*)$", case.get("metadata") or "", re.M)
        if m and isinstance(case["suite"], int):
            names[case["suite"]] = m.group(1)
    return [{"id": i, "name": n, "job": job["id"]} for i, n in sorted(names.items())]


def cases_of(job):
    """The cases as the v0.2 API gives them, but for the suite's name in the metadata: a suite id
    is resolved only through /suites/."""
    out = []
    for case in job["tests"]["results"]:
        c = dict(case)
        if isinstance(c["suite"], int) and c.get("metadata"):
            c["metadata"] = re.sub(r"^definition: .*\n?", "", c["metadata"], flags=re.M)
        out.append(c)
    return out


class Handler(BaseHTTPRequestHandler):
    def log_message(self, fmt, *args):
        sys.stderr.write("fake-lava: " + fmt % args + "\n")

    def reply(self, code, body):
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def page(self, items, url):
        q = parse_qs(url.query)
        limit = int(q.get("limit", [State.page_size])[0])
        limit = min(limit, State.page_size)
        offset = int(q.get("offset", ["0"])[0])
        host = "lava.invalid:8080" if State.foreign_next else self.headers["Host"]
        nxt = None
        if offset + limit < len(items):
            rest = {k: v[0] for k, v in q.items() if k not in ("limit", "offset")}
            rest.update({"limit": limit, "offset": offset + limit})
            query = "&".join("%s=%s" % kv for kv in rest.items())
            nxt = "http://%s%s?%s" % (host, url.path, query)
        if State.endless and "/tests/" in url.path:
            nxt = "http://%s%s?%s" % (host, url.path, url.query)
        self.reply(200, {"count": len(items), "next": nxt, "previous": None,
                         "results": items[offset:offset + limit]})

    def job_view(self, jid):
        job = State.jobs[jid]
        with State.lock:
            n = State.gets[jid] = State.gets.get(jid, 0) + 1
        state = job.get("states", ["Finished"])
        state = state[min(n - 1, len(state) - 1)]
        return {"id": int(jid), "state": state,
                "health": job["health"] if state == "Finished" else "Unknown",
                "actual_device": job.get("device") if state != "Submitted" else None,
                "end_time": job.get("end_time") if state == "Finished" else None,
                "definition": job.get("definition", "")}

    def do_GET(self):
        url = urlparse(self.path)
        m = re.fullmatch(r"/api/v0\.2/jobs/(\d+)/(suites/|tests/|logs/)?", url.path)
        if m and m.group(1) in State.jobs:
            job = State.jobs[m.group(1)]
            if m.group(2) == "logs/":
                if "log" not in job:
                    return self.reply(404, {"detail": "Not found."})
                body = job["log"].encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/yaml")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                return self.wfile.write(body)
            if m.group(2) == "suites/":
                return self.page(suites_of(job), url)
            if m.group(2) == "tests/":
                return self.page(cases_of(job), url)
            return self.reply(200, self.job_view(m.group(1)))
        if m:
            return self.reply(404, {"detail": "Not found."})
        if url.path == "/api/v0.2/jobs/":
            q = parse_qs(url.query)
            since = q.get("end_time__gt", [""])[0]
            if not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?", since):
                return self.reply(400, {"end_time__gt": ["Enter a valid date/time."]})
            device = q.get("actual_device", [None])[0]
            items = [{"id": int(i), "state": "Finished", "health": j["health"],
                      "actual_device": j.get("device"), "end_time": j["end_time"]}
                     for i, j in sorted(State.jobs.items(), key=lambda kv: int(kv[0]))
                     if "states" not in j and j["end_time"] > since
                     and (device is None or j.get("device") == device)]
            return self.page(items, url)
        self.reply(404, {"detail": "Not found."})

    def do_POST(self):
        if self.path != "/api/v0.2/jobs/":
            return self.reply(404, {"detail": "Not found."})
        if self.headers.get("Authorization") != "Token " + TOKEN:
            return self.reply(401, {"detail": "Invalid token."})
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if "actions:" not in body.get("definition", ""):
            return self.reply(400, {"message": "job submission failed: no actions"})
        with State.lock:
            jid = str(max(int(i) for i in State.jobs) + 1)
            job = copy.deepcopy(State.jobs["7"])
            job["states"] = ["Submitted", "Running", "Finished"]
            job["definition"] = body["definition"]
            State.jobs[jid] = job
        self.reply(201, {"message": "job(s) successfully submitted", "job_ids": [int(jid)]})


def main():
    args = sys.argv[1:]
    port_file, jobs_file = args[0], args[1]
    if "--page-size" in args:
        State.page_size = int(args[args.index("--page-size") + 1])
    State.foreign_next = "--foreign-next" in args
    State.endless = "--endless" in args
    with open(jobs_file) as f:
        State.jobs = json.load(f)
    for jid, job in State.jobs.items():
        job["id"] = int(jid)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    import os
    os.rename(port_file + ".tmp", port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
