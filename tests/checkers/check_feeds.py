#!/usr/bin/env python3
"""Checks a built site's change feeds as Atom (RFC 4287).

    check_feeds.py --dist DIR [--max-entries 50]

Every feed.xml of the site (feed.xml, tasks/<key>/feed.xml, <ns>/-/feed.xml)
is parsed as XML by the standard library's parser (expat) and must be an
Atom feed:
- the root is atom:feed with exactly one atom:id (an absolute IRI),
  atom:title and atom:updated (an RFC 3339 date-time), a self link naming
  the feed's own path, and an atom:author (so entries need none);
- at most --max-entries entries, each with exactly one atom:id (absolute,
  unique in the feed), atom:title, atom:updated (RFC 3339, and none later
  than the feed's), a text/html alternate link to a model page the site
  has, and atom:summary; published, when present, RFC 3339 and not after
  updated; entries newest first; the feed's updated is its newest entry's;
- no element of the feed is outside the Atom namespace.
Every page whose head links a feed (<link rel="alternate"
type="application/atom+xml">) links one the site has, and the home page,
each task's front page and each namespace's front page link theirs.

Prints one line per failure, then "checked N feeds (M entries)", then
"N passed, M failed" (one check per feed and one per linking page).
"""
import argparse
import pathlib
import re
import sys
import xml.etree.ElementTree as ET
from datetime import datetime
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

ATOM = "{http://www.w3.org/2005/Atom}"
RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")
ABSOLUTE_IRI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:\S+$")


def timestamp(text):
    if text is None or not RFC3339.match(text):
        return None
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


class FeedLinks(HTMLParser):
    """The Atom feeds a page's head links."""

    def __init__(self):
        super().__init__()
        self.feeds = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "link" and a.get("rel") == "alternate" and a.get("type") == "application/atom+xml":
            self.feeds.append(a.get("href", ""))


def one(parent, name, where, problems):
    found = parent.findall(ATOM + name)
    if len(found) != 1:
        problems.append(f"{where}: {len(found)} atom:{name} elements, not 1")
        return None
    return found[0]


def check_feed(dist, path, base, max_entries):
    """Problems of the feed at `path` (site-relative), and its entry count."""
    problems = []
    try:
        root = ET.parse(dist / path).getroot()
    except ET.ParseError as e:
        return [f"{path}: not XML: {e}"], 0
    if root.tag != ATOM + "feed":
        return [f"{path}: root is {root.tag}, not atom:feed"], 0
    for element in root.iter():
        if not element.tag.startswith(ATOM):
            problems.append(f"{path}: element {element.tag} outside the Atom namespace")
    feed_id = one(root, "id", path, problems)
    if feed_id is not None and not ABSOLUTE_IRI.match(feed_id.text or ""):
        problems.append(f"{path}: feed id {feed_id.text!r} is not an absolute IRI")
    title = one(root, "title", path, problems)
    if title is not None and not (title.text or "").strip():
        problems.append(f"{path}: empty feed title")
    updated_el = one(root, "updated", path, problems)
    feed_updated = timestamp(updated_el.text if updated_el is not None else None)
    if updated_el is not None and feed_updated is None:
        problems.append(f"{path}: feed updated {updated_el.text!r} is not RFC 3339")
    selves = [l.get("href") for l in root.findall(ATOM + "link") if l.get("rel") == "self"]
    if len(selves) != 1 or not (selves[0] or "").endswith(path):
        problems.append(f"{path}: self links {selves} do not name the feed")
    if not root.findall(ATOM + "author/" + ATOM + "name"):
        problems.append(f"{path}: no feed author")
    entries = root.findall(ATOM + "entry")
    if len(entries) > max_entries:
        problems.append(f"{path}: {len(entries)} entries, more than {max_entries}")
    ids, times = set(), []
    for n, entry in enumerate(entries):
        where = f"{path} entry {n + 1}"
        entry_id = one(entry, "id", where, problems)
        if entry_id is not None:
            if not ABSOLUTE_IRI.match(entry_id.text or ""):
                problems.append(f"{where}: id {entry_id.text!r} is not an absolute IRI")
            if entry_id.text in ids:
                problems.append(f"{where}: id {entry_id.text!r} repeated")
            ids.add(entry_id.text)
        one(entry, "title", where, problems)
        one(entry, "summary", where, problems)
        updated = one(entry, "updated", where, problems)
        when = timestamp(updated.text if updated is not None else None)
        if updated is not None and when is None:
            problems.append(f"{where}: updated {updated.text!r} is not RFC 3339")
        if when is not None:
            times.append(when)
            if feed_updated is not None and when > feed_updated:
                problems.append(f"{where}: updated after the feed's")
        for published in entry.findall(ATOM + "published"):
            at = timestamp(published.text)
            if at is None:
                problems.append(f"{where}: published {published.text!r} is not RFC 3339")
        links = [l.get("href", "") for l in entry.findall(ATOM + "link") if l.get("rel", "alternate") == "alternate"]
        if len(links) != 1:
            problems.append(f"{where}: {len(links)} alternate links, not 1")
        else:
            page = urlsplit(urljoin(base + path, links[0])).path
            rel = page[len(urlsplit(base).path):] if page.startswith(urlsplit(base).path) else page
            if not (dist / rel / "index.html").is_file():
                problems.append(f"{where}: links {links[0]!r}, which the site does not have")
    if times != sorted(times, reverse=True):
        problems.append(f"{path}: entries are not newest first")
    if times and feed_updated is not None and max(times) != feed_updated:
        problems.append(f"{path}: feed updated is not its newest entry's")
    return problems, len(entries)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dist", required=True, type=pathlib.Path)
    parser.add_argument("--base-url", default="/", help="the base URL the site was built with")
    parser.add_argument("--max-entries", type=int, default=50)
    args = parser.parse_args()
    dist = args.dist
    base = args.base_url if "://" in args.base_url else "https://site.invalid" + args.base_url
    passed, failed, entries = 0, 0, 0
    feeds = sorted(p.relative_to(dist).as_posix() for p in dist.rglob("feed.xml"))
    for path in feeds:
        problems, count = check_feed(dist, path, base, args.max_entries)
        entries += count
        for p in problems:
            print(p)
        passed, failed = (passed + 1, failed) if not problems else (passed, failed + 1)
    # Pages that must link a feed, and every page that links one.
    must = {"index.html": "feed.xml"}
    for task in (dist / "tasks").glob("*/feed.xml"):
        must[f"tasks/{task.parent.name}/index.html"] = f"tasks/{task.parent.name}/feed.xml"
    for ns_feed in dist.glob("*/-/feed.xml"):
        ns = ns_feed.parent.parent.name
        must[f"{ns}/index.html"] = f"{ns}/-/feed.xml"
    base_path = urlsplit(base).path
    for page in sorted(set(must) | {p.relative_to(dist).as_posix() for p in dist.rglob("index.html")}):
        if not (dist / page).is_file():
            print(f"{page}: missing, though {must[page]} is its feed")
            failed += 1
            continue
        links = FeedLinks()
        links.feed(open(dist / page, encoding="utf-8").read())
        if not links.feeds and page not in must:
            continue
        problems = []
        for href in links.feeds:
            target = urlsplit(urljoin(base + page, href)).path
            if not target.startswith(base_path) or target[len(base_path):] not in feeds:
                problems.append(f"{page}: links feed {href!r}, which the site does not have")
        if page in must and not any(urlsplit(urljoin(base + page, h)).path == base_path + must[page] for h in links.feeds):
            problems.append(f"{page}: does not link its feed {must[page]}")
        for p in problems:
            print(p)
        passed, failed = (passed + 1, failed) if not problems else (passed, failed + 1)
    print(f"checked {len(feeds)} feeds ({entries} entries)")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
