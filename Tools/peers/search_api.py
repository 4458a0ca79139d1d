#!/usr/bin/env python3
"""An Elasticsearch-shaped search origin and a keyset origin on a free loopback port, standard
library only, for the sync tests and the e2e.

    python3 Tools/peers/search_api.py [--items N] [--quiet]

Prints its base URL (http://127.0.0.1:PORT) as the first line on stdout, then serves until
killed (or for --lifetime seconds, default 600). The data: --items N (default 95) documents
{"id": i, "title": "Document i", "score": (37 * i) % 23} for i in 1..N. Routes (GET and HEAD):

    /search?size=K[&search_after=JSON]
        {"took": 1, "timed_out": false, "hits": {"total": {"value": N, "relation": "eq"},
         "max_score": null, "hits": [{"_index": "documents", "_id": "doc-I", "_score": null,
         "_source": {...}, "sort": [SCORE, "doc-I"]}, ...]}}
        ordered by the sort array ascending (score, then _id as a string); size defaults to 10
        (0..10000). The next page: search_after = the JSON text of the last hit's "sort" array,
        URL-encoded (e.g. search_after=%5B12%2C%22doc-12%22%5D). After the last page, "hits": [].
        A search_after that is not a JSON array [number, string] is a 400 with a JSON error.
    /search-capped?size=K
        the same shape, but search_after is ignored: always the first page, while the total
        still says N.
    /keyset/items?limit=K[&after=ID]
        a bare JSON array of the items with id > ID, by id, at most K (default 20, 1..1000);
        [] at the end.
    /private/items?limit=K[&after=ID]
        like /keyset/items, but needs "Authorization: Bearer letmein"; otherwise 401 with
        WWW-Authenticate: Bearer and a JSON error.
    /ndjson/items   every item, one JSON object a line (application/x-ndjson)
    /scalars        a JSON array of 12 strings, not paginated
    /object         a single JSON object {"name": "settings", "version": 3, ...}

Every 200 carries a strong ETag (a hash of the body) and answers a matching If-None-Match with
304. JSON bodies are Content-Type: application/json. Errors are {"error": {"type", "reason"},
"status"}. Each request is logged to stderr as one line "METHOD PATH STATUS" unless --quiet.
"""
import argparse
import hashlib
import json
import math
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from peer_serving import serve
from urllib.parse import parse_qs, urlsplit

parser = argparse.ArgumentParser()
parser.add_argument("--items", type=int, default=95)
parser.add_argument("--lifetime", type=float, default=600)
parser.add_argument("--quiet", action="store_true")
args = parser.parse_args()

ITEMS = [{"id": i, "title": f"Document {i}", "score": (37 * i) % 23} for i in range(1, args.items + 1)]
HITS = sorted(({"_index": "documents", "_id": f"doc-{item['id']}", "_score": None, "_source": item,
                "sort": [item["score"], f"doc-{item['id']}"]} for item in ITEMS), key=lambda hit: hit["sort"])
SCALARS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu"]
OBJECT = {"name": "settings", "version": 3, "enabled": True, "limits": {"requests": 100, "window": "1m"},
          "tags": ["a", "b"], "owner": None}


class BadRequest(Exception):
    pass


def integer(query, name, default, low, high):
    values = query.get(name)
    if not values:
        return default
    try:
        value = int(values[-1])
    except ValueError:
        raise BadRequest(f"[{name}] must be an integer, got [{values[-1]}]") from None
    if not low <= value <= high:
        raise BadRequest(f"[{name}] must be between {low} and {high}, got [{value}]")
    return value


def search(query, capped):
    size = integer(query, "size", 10, 0, 10000)
    hits = HITS
    if not capped and query.get("search_after"):
        text = query["search_after"][-1]
        try:
            after = json.loads(text)
        except ValueError:
            raise BadRequest(f"[search_after] is not valid JSON: [{text}]") from None
        if not isinstance(after, list) or len(after) != 2:
            raise BadRequest(f"[search_after] has to be an array of 2 sort values (score, _id), got [{text}]")
        score, key = after
        if isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score) \
                or not isinstance(key, str):
            raise BadRequest(f"[search_after] has to be [number, string], got [{text}]")
        hits = [hit for hit in HITS if (hit["sort"][0], hit["sort"][1]) > (score, key)]
    return {"took": 1, "timed_out": False,
            "hits": {"total": {"value": len(ITEMS), "relation": "eq"}, "max_score": None, "hits": hits[:size]}}


def keyset(query):
    limit = integer(query, "limit", 20, 1, 1000)
    after = integer(query, "after", 0, -(2 ** 63), 2 ** 63 - 1)
    return [item for item in ITEMS if item["id"] > after][:limit]


def encode(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def etag_matches(header, etag):
    if header is None:
        return False
    if header.strip() == "*":
        return True
    tags = [tag.strip() for tag in header.split(",")]
    return any((tag[2:] if tag.startswith("W/") else tag) == etag for tag in tags)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "search-peer/1"

    def do_GET(self):
        url = urlsplit(self.path)
        query = parse_qs(url.query, keep_blank_values=True)
        try:
            if url.path == "/search":
                self.send_json(200, search(query, capped=False))
            elif url.path == "/search-capped":
                self.send_json(200, search(query, capped=True))
            elif url.path == "/keyset/items":
                self.send_json(200, keyset(query))
            elif url.path == "/private/items":
                if self.headers.get("Authorization") != "Bearer letmein":
                    self.send_error_json(401, "security_exception", "missing or wrong bearer token",
                                         {"WWW-Authenticate": "Bearer"})
                else:
                    self.send_json(200, keyset(query))
            elif url.path == "/ndjson/items":
                self.send_body(200, b"".join(encode(item) + b"\n" for item in ITEMS), "application/x-ndjson")
            elif url.path == "/scalars":
                self.send_json(200, SCALARS)
            elif url.path == "/object":
                self.send_json(200, OBJECT)
            else:
                self.send_error_json(404, "not_found", f"no route for [{url.path}]")
        except BadRequest as error:
            self.send_error_json(400, "illegal_argument_exception", str(error))

    def do_HEAD(self):
        self.do_GET()

    def not_allowed(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length > 0:
            self.rfile.read(length)  # so that the next request on this connection starts where it should
        self.send_error_json(405, "method_not_allowed", f"{self.command} is not allowed here", {"Allow": "GET, HEAD"})

    do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = not_allowed

    def send_json(self, status, value, headers=None):
        self.send_body(status, encode(value), "application/json", headers)

    def send_error_json(self, status, kind, reason, headers=None):
        self.send_json(status, {"error": {"type": kind, "reason": reason}, "status": status}, headers)

    def send_body(self, status, body, content_type, headers=None):
        etag = None
        if status == 200:
            etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
            if etag_matches(self.headers.get("If-None-Match"), etag):
                self.send_response(304)
                self.send_header("ETag", etag)
                self.end_headers()
                return
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        if etag:
            self.send_header("ETag", etag)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_request(self, code="-", size="-"):
        if not args.quiet:
            sys.stderr.write(f"{self.command} {self.path} {int(code) if isinstance(code, int) else code}\n")
            sys.stderr.flush()

    def log_message(self, format, *values):
        if not args.quiet:
            sys.stderr.write((format % values).replace("\n", " ") + "\n")
            sys.stderr.flush()


class Server(ThreadingHTTPServer):
    daemon_threads = True


def main():
    serve(Server(("127.0.0.1", 0), Handler), args.lifetime)


main()
