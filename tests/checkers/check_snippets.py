#!/usr/bin/env python3
"""Checks generated usage examples with the real tool of each language.

    check_snippets.py --dir DIR [--literal TEXT | --literals FILE]
    check_snippets.py --bin MODELPAGES [--templates DIR] [--args "OPTIONS"] [--literal TEXT] MODEL_PATH...

Files in DIR are checked by extension: .py (python3's parser, then pyflakes:
any undefined name fails), .mjs/.js (site-src/tools/check-js.mjs: ESLint
parse and no-undef), .sh (bash -n), .url (a local app's deep link: the URL on
the first line must be well formed, every character in it allowed in a URL
and the model id on the second line in it, percent-encoded or plain). Every
file must be indented with spaces only, in steps of four. With --bin, the
examples of each model (library, inference and local apps) are first written
to a temporary DIR by `MODELPAGES snippets` (with OPTIONS, e.g.
"--streaming --bill-to acme", added to each call).

With --literal (hostile-input tests), every string literal that mentions
TEXT's first 8 characters must hold TEXT unchanged: escaping kept the value.
With --literals FILE (property tests), FILE is a JSON object from a file-name
prefix to TEXT: a file named PREFIX-... is checked against its own TEXT.
In shell, every word that mentions them (after quote removal) must hold TEXT,
or be JSON whose strings do (a curl body); as in bash, a NUL ends a word, so
a shell word holds TEXT up to its first NUL.

No file may hold a raw control character other than the newline, nor an
invisible format or separator character (Unicode Cf, Zl, Zp): record values
must reach code as escapes, so the reader sees what the code does.
Deep links (.url files, `URL\nMODEL_ID`) must be well-formed URLs holding the id.

Prints one line per failure and closes with "N passed, M failed".
"""
import argparse
import ast
import json
import os
import pathlib
import re
import shlex
import string
import subprocess
import sys
import tempfile
import unicodedata
import urllib.parse

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
        hidden = next((c for c in line if c != "\t" and unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")), None)
        if hidden is not None:
            problems.append(f"{n}: raw invisible character U+{ord(hidden):04X}")
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


def check_sh(path, text, literal):
    done = subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True)
    if done.returncode:
        return [done.stderr.strip()]
    if literal is None:
        return []
    wanted = literal.split("\0")[0]
    marker = literal[:8]
    problems = []
    for word in shell_words(text):
        if marker not in word or wanted in word:
            continue
        # A curl body, or an assignment or option holding one (`parameters='{...}'`).
        strings = [word]
        for candidate in (word, word.partition("=")[2]):
            try:
                strings = json_strings(json.loads(candidate))
                break
            except ValueError:
                pass
        mangled = [v for v in strings if marker in v and wanted not in v]
        if mangled:
            problems.append(f"a shell word holds the record value changed: {mangled[0]!r}")
    return problems


# Characters a URL may hold as they are (RFC 3986: unreserved, reserved, and `%` for escapes).
URL_CHARS = set(string.ascii_letters + string.digits + "-._~" + ":/?#[]@" + "!$&'()*+,;=" + "%")


def check_url(text):
    """A deep link: `URL\nMODEL_ID`."""
    url, _, model_id = text.rstrip("\n").partition("\n")
    problems = []
    bad = sorted({c for c in url if c not in URL_CHARS})
    if bad:
        problems.append(f"characters not allowed in a URL: {bad!r}")
    if re.search(r"%(?![0-9A-Fa-f]{2})", url):
        problems.append("a % that starts no escape")
    parts = urllib.parse.urlsplit(url)
    if not re.fullmatch(r"[a-z][a-z0-9+.-]*", parts.scheme):
        problems.append(f"no valid scheme: {parts.scheme!r}")
    if parts.scheme in ("http", "https") and not parts.netloc:
        problems.append("no host")
    if not model_id or model_id not in urllib.parse.unquote(url):
        problems.append(f"the model id {model_id!r} is not in it")
    return problems


def json_strings(value):
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for item in value for s in json_strings(item)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k] + json_strings(v)]
    return []


DOLLAR_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f",
                  "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}


def shell_words(text):
    """The words of a shell script after quote removal (no expansion):
    single quotes, $'...' (with its escapes, bytes decoded as UTF-8), double
    quotes and backslashes, as bash reads them. Comments are skipped."""
    words, word, in_word = [], bytearray(), False
    i, n = 0, len(text)

    def add(chars):
        word.extend(chars.encode("utf-8", "surrogatepass"))

    while i < n:
        c = text[i]
        if c in " \t\n;|&()<>":
            if in_word:
                words.append(word.decode("utf-8", "replace"))
            word, in_word = bytearray(), False
            i += 1
        elif c == "#" and not in_word:
            while i < n and text[i] != "\n":
                i += 1
        elif c == "\\":
            if text[i + 1:i + 2] != "\n":
                add(text[i + 1:i + 2])
                in_word = True
            i += 2
        elif c == "'":
            end = text.index("'", i + 1)
            add(text[i + 1:end])
            in_word, i = True, end + 1
        elif text.startswith("$'", i):
            i, in_word = i + 2, True
            ended = False
            while text[i] != "'":
                if text[i] == "\\":
                    nxt = text[i + 1]
                    if nxt == "x":
                        digits = ""
                        while len(digits) < 2 and text[i + 2 + len(digits)] in "0123456789abcdefABCDEF":
                            digits += text[i + 2 + len(digits)]
                        byte = int(digits, 16)
                        ended = ended or byte == 0
                        if not ended:
                            word.append(byte)
                        i += 2 + len(digits)
                    else:
                        if not ended:
                            add(DOLLAR_ESCAPES.get(nxt, "\\" + nxt))
                        i += 2
                else:
                    if not ended:
                        add(text[i])
                    i += 1
            i += 1
        elif c == '"':
            i += 1
            while text[i] != '"':
                if text[i] == "\\" and text[i + 1] in '$`"\\\n':
                    if text[i + 1] != "\n":
                        add(text[i + 1])
                    i += 2
                else:
                    add(text[i])
                    i += 1
            in_word, i = True, i + 1
        else:
            add(c)
            in_word, i = True, i + 1
    if in_word:
        words.append(word.decode("utf-8", "replace"))
    return words


def literal_for(path, literal, literals):
    """The text `path` must hold: its prefix's in `literals`, else `literal`."""
    if literals:
        return literals.get(path.name.split("-", 1)[0], literal)
    return literal


def check_dir(directory, literal, literals=None):
    passed = failed = 0
    files = sorted(p for p in pathlib.Path(directory).iterdir() if p.is_file() and p.name != "literals.json")
    js_files = []
    for path in files:
        file_literal = literal_for(path, literal, literals)
        text = path.read_text(encoding="utf-8")
        problems = layout_problems(text)
        if path.suffix == ".py":
            problems += check_python(path, text, file_literal)
        elif path.suffix == ".sh":
            problems += check_sh(path, text, file_literal)
        elif path.suffix == ".url":
            problems += check_url(text)
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
        if literals:
            cmd += ["--literals", json.dumps(literals)]
        elif literal is not None:
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
        snippets += data.get("local_apps", [])
        for i, snippet in enumerate(snippets):
            stem = data["id"].replace("/", "__") + f"-{i}"
            if snippet.get("kind") == "deeplink":
                content, extension = snippet["content"] + "\n" + data["id"], "url"
            else:
                content, extension = snippet["content"], EXTENSIONS[snippet["language"]]
            pathlib.Path(directory, f"{stem}.{extension}").write_text(content + "\n", encoding="utf-8")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir")
    parser.add_argument("--bin")
    parser.add_argument("--templates")
    parser.add_argument("--literal")
    parser.add_argument("--literals", help="JSON file: file-name prefix to the text its literals must hold")
    parser.add_argument("--args", help="options added to every `modelpages snippets` call")
    parser.add_argument("models", nargs="*")
    args = parser.parse_args()
    if args.dir:
        literals = json.loads(pathlib.Path(args.literals).read_text(encoding="utf-8")) if args.literals else None
        passed, failed = check_dir(args.dir, args.literal, literals)
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
