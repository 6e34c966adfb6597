#!/usr/bin/env python3
"""The change set beside a site, for the daily-sync benchmark.

`change-set.py consume SITE` empties it as a completed deploy does (the
next build's changes are then all it lists); `change-set.py count SITE`
prints how many paths it lists, by kind of file, and the site's file count.
"""
import json, os, sys
from collections import Counter


def changes_path(site):
    site = site.rstrip("/")
    return os.path.join(os.path.dirname(site) or ".", "." + os.path.basename(site) + ".changes")


def kind(path):
    parts = path.split("/")
    if parts[0] in ("search", "stats", "sitemaps", "tasks", "libraries", "namespaces", "assets"):
        return parts[0] + ("/words" if parts[0] == "search" and parts[1:2] == ["words"] else "")
    if parts[0] == "api":
        return "api/models" if parts[1:2] == ["models"] else "api/listings"
    if len(parts) == 1:
        return "top"
    if len(parts) >= 3 and parts[1] == "-":
        return "namespace listing"
    if len(parts) == 2:
        return "namespace listing" if parts[1] == "index.html" else "other"
    return "model " + (parts[2] if parts[2] in ("index.html", "notebook.ipynb") else "subpage")


def main():
    command, site = sys.argv[1], sys.argv[2]
    path = changes_path(site)
    if command == "consume":
        st = os.stat(site)
        with open(path, "w") as f:
            json.dump({"version": 1, "state": "done", "whole_site": False, "site": [st.st_dev, st.st_ino], "paths": {}}, f, indent=2)
            f.write("\n")
        return
    changes = json.load(open(path))
    files = sum(len(names) for _, _, names in os.walk(site))
    if changes["whole_site"]:
        print(f"whole site ({files} files)")
        return
    paths = changes["paths"]
    by_kind = Counter(kind(p) for p in paths)
    share = 100 * len(paths) / max(files, 1)
    print(f"{len(paths)} of {files} files changed ({share:.2f}%): " + ", ".join(f"{k} {n}" for k, n in by_kind.most_common()))


main()
