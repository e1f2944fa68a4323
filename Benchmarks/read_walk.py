#!/usr/bin/env python3
"""The baseline of Benchmarks/read.sh: the walk of

    query Directory { users(first: N) { __typename id name posts(first: M) { __typename title } } }

done by hand with the standard library's sqlite3 and json, as a short script
would do it: read QUERY_ROOT, follow the user references with batched
`SELECT key, record FROM records WHERE key IN (...)` lookups of at most 500
keys, then the post references the same way, and print the data as one line
of JSON, the shape `gqlcache read ... --format json` prints.

    read_walk.py CACHE [--users N] [--posts M]     (defaults: 1000 and 5)

Exits 1 when a record or field is missing.
"""
import json
import sqlite3
import sys

BATCH = 500  # keys per IN (...) lookup; well under SQLite's variable limit


def fail(message):
    sys.exit(f"read_walk.py: {message}")


def fetch(db, keys):
    """The records with these keys, parsed, looked up BATCH keys at a time."""
    keys = list(dict.fromkeys(keys))
    found = {}
    for start in range(0, len(keys), BATCH):
        chunk = keys[start:start + BATCH]
        sql = "SELECT key, record FROM records WHERE key IN (%s)" % ",".join("?" * len(chunk))
        for key, text in db.execute(sql, chunk):
            found[key] = json.loads(text)
    for key in keys:
        if key not in found:
            fail(f"no record '{key}'")
    return found


def field(record, key, name):
    if name not in record:
        fail(f"record '{key}' has no field '{name}'")
    return record[name]


def reference(value):
    return value["$reference"]


def main(argv):
    args = {"--users": 1000, "--posts": 5}
    path = None
    rest = list(argv)
    while rest:
        arg = rest.pop(0)
        if arg in args and rest:
            args[arg] = int(rest.pop(0))
        elif path is None and not arg.startswith("-"):
            path = arg
        else:
            fail(f"unexpected argument '{arg}'; usage: read_walk.py CACHE [--users N] [--posts M]")
    if path is None:
        fail("name the cache file")
    users_field = f"users(first:{args['--users']})"
    posts_field = f"posts(first:{args['--posts']})"

    # Read-only, as gqlcache opens it; %, ? and # would end the path in a URI.
    uri = "file:" + path.replace("%", "%25").replace("?", "%3f").replace("#", "%23") + "?mode=ro"
    db = sqlite3.connect(uri, uri=True)

    root = fetch(db, ["QUERY_ROOT"])["QUERY_ROOT"]
    user_keys = [reference(value) for value in field(root, "QUERY_ROOT", users_field)]
    users = fetch(db, user_keys)
    post_keys = [reference(value) for key in user_keys for value in field(users[key], key, posts_field)]
    posts = fetch(db, post_keys)

    def post(value):
        key = reference(value)
        record = posts[key]
        return {"__typename": field(record, key, "__typename"), "title": field(record, key, "title")}

    def user(key):
        record = users[key]
        return {
            "__typename": field(record, key, "__typename"),
            "id": field(record, key, "id"),
            "name": field(record, key, "name"),
            "posts": [post(value) for value in record[posts_field]],
        }

    data = {"users": [user(key) for key in user_keys]}
    sys.stdout.write(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
