#!/usr/bin/env python3
"""Checks generated usage examples with the real tool of each language.

    check_snippets.py --dir DIR [--literal TEXT]
    check_snippets.py --bin MODELPAGES [--templates DIR] [--args "OPTIONS"] [--literal TEXT] MODEL_PATH...

Files in DIR are checked by extension: .py (python3's parser, then pyflakes:
any undefined name fails), .mjs/.js (site-src/tools/check-js.mjs: ESLint
parse and no-undef), .sh (bash -n). Every file must be indented with spaces
only, in steps of four. With --bin, the examples of each model are first
written to a temporary DIR by `MODELPAGES snippets` (with OPTIONS, e.g.
"--streaming --bill-to acme", added to each call).

With --literal (hostile-input tests), every string literal that mentions
TEXT's first 8 characters must hold TEXT unchanged: escaping kept the value.

Prints one line per failure and closes with "N passed, M failed".
"""
import argparse
import ast
import json
import os
import pathlib
import shlex
import subprocess
import sys
import tempfile

from pyflakes import api as pyflakes_api
from pyflakes import messages as pyflakes_messages
from pyflakes import reporter as pyflakes_reporter

ROOT = pathlib.Path(__file__).resolve().parents[2]
JS_CHECKER = ROOT / "site-src" / "tools" / "check-js.mjs"
EXTENSIONS = {"python": "py", "js": "mjs", "sh": "sh"}


class Collect(pyflakes_reporter.Reporter):
    def __init__(self):
        self.messages = []

    def unexpectedError(self, filename, msg):
        self.messages.append(f"{msg}")

    def syntaxError(self, filename, msg, lineno, offset, text):
        self.messages.append(f"{lineno}:{offset}: {msg}")

    def flake(self, message):
        if isinstance(message, (pyflakes_messages.UndefinedName, pyflakes_messages.UndefinedLocal,
                                pyflakes_messages.UndefinedExport)):
            self.messages.append(str(message).split(":", 1)[1].strip() if ":" in str(message) else str(message))


def layout_problems(text):
    problems = []
    # Split on newlines only: str.splitlines() also splits on U+2028 and other
    # separators that may sit inside a string literal.
    for n, line in enumerate(text.split("\n"), 1):
        if "\t" in line:
            problems.append(f"{n}: tab character")
        indent = len(line) - len(line.lstrip(" "))
        if indent % 4:
            problems.append(f"{n}: indented by {indent} spaces, not a multiple of 4")
    return problems


def python_strings(tree):
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.add(node.value)
    return out


def check_python(path, text, literal):
    try:
        tree = ast.parse(text, filename=str(path))
    except SyntaxError as e:
        return [f"{e.lineno}:{e.offset}: {e.msg}"]
    collect = Collect()
    pyflakes_api.check(text, str(path), collect)
    problems = list(collect.messages)
    if literal is not None:
        mangled = [v for v in python_strings(tree) if literal[:8] in v and literal not in v]
        if mangled:
            problems.append(f"a string literal holds the record value changed: {mangled[0]!r}")
    return problems


def check_sh(path):
    done = subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True)
    return [done.stderr.strip()] if done.returncode else []


def check_dir(directory, literal):
    passed = failed = 0
    files = sorted(p for p in pathlib.Path(directory).iterdir() if p.is_file())
    js_files = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        problems = layout_problems(text)
        if path.suffix == ".py":
            problems += check_python(path, text, literal)
        elif path.suffix == ".sh":
            problems += check_sh(path)
        elif path.suffix in (".mjs", ".js"):
            if problems:
                pass
            else:
                js_files.append(path)
                continue
        else:
            problems.append("unknown extension")
        if problems:
            failed += 1
            for p in problems:
                print(f"{path}:{p}")
        else:
            passed += 1
    if js_files:
        cmd = ["node", str(JS_CHECKER)]
        if literal is not None:
            cmd += ["--literal", literal]
        done = subprocess.run(cmd + [str(p) for p in js_files], capture_output=True, text=True)
        summary = done.stdout.strip().splitlines()
        if not summary or not summary[-1].endswith(" failed"):
            print(f"check-js.mjs failed to run: {done.stderr.strip()}")
            failed += len(js_files)
        else:
            for line in summary[:-1]:
                print(line)
            js_passed, js_failed = (int(w) for w in summary[-1].replace(",", "").split()[::2])
            passed += js_passed
            failed += js_failed
    return passed, failed


def write_model_snippets(binary, templates, options, models, directory):
    """Writes every example of every model to DIR; returns how many models failed."""
    failures = 0
    for model in models:
        cmd = [binary, "snippets", model] + shlex.split(options or "")
        if templates:
            cmd += ["--templates", templates]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode:
            print(f"{model}: modelpages snippets failed: {done.stderr.strip()}")
            failures += 1
            continue
        data = json.loads(done.stdout)
        snippets = (data.get("library") or {}).get("snippets", [])
        snippets += data.get("inference", [])
        for i, snippet in enumerate(snippets):
            name = data["id"].replace("/", "__") + f"-{i}.{EXTENSIONS[snippet['language']]}"
            pathlib.Path(directory, name).write_text(snippet["content"] + "\n", encoding="utf-8")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir")
    parser.add_argument("--bin")
    parser.add_argument("--templates")
    parser.add_argument("--literal")
    parser.add_argument("--args", help="options added to every `modelpages snippets` call")
    parser.add_argument("models", nargs="*")
    args = parser.parse_args()
    if args.dir:
        passed, failed = check_dir(args.dir, args.literal)
    elif args.bin:
        with tempfile.TemporaryDirectory() as tmp:
            model_failures = write_model_snippets(args.bin, args.templates, args.args, args.models, tmp)
            passed, failed = check_dir(tmp, args.literal)
            failed += model_failures
    else:
        parser.error("give --dir or --bin")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
