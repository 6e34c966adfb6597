#!/usr/bin/env python3
"""Checks a built site's JSON API files and notebooks.

    check_site_files.py --dist DIR [--schemas DIR]

- api/libraries.json, api/tasks.json, the pages of ids they point to
  (api/libraries/<key>/first.json and the pages after it, likewise under
  api/tasks/) and every
  api/models/<ns>/<name>.json validate against the JSON Schemas (draft
  2020-12) in --schemas (default site-src/schema), and agree with each other
  and with the pages: every model page has an API file, every listed id has
  one, the pages of a listing hold model_count distinct ids, counts match.
- A model has a notebook exactly when its API file lists a Python example
  that runs (a library example that is not only comments, such as the spec's
  fallback "# Type of model unknown", or hosted inference with the
  huggingface_hub client), and its page links the notebook with a
  `download` link exactly then.
- Every notebook passes the nbformat validator (nbformat 4); its code cells
  parse with python3 once IPython magics (`%pip ...`) are left out; its
  install cell pip-installs no standard-library module and every package the
  hosted-inference cell imports; that cell reads the token from the
  environment and no cell holds a token.

Prints one line per failure, then "checked N API files and M notebooks", then
"N passed, M failed" (one check per file).
"""
import argparse
import ast
import json
import pathlib
import re
import sys

import jsonschema
import nbformat

ROOT = pathlib.Path(__file__).resolve().parents[2]
TOKEN_VALUE = re.compile(r"\bhf_[A-Za-z0-9]{20,}")
TOKEN_FROM_ENV = re.compile(r"""os\.environ\[\s*["'][A-Z][A-Z0-9_]*["']\s*\]""")
# Import names whose package is named otherwise (the hosted-inference cells use few).
PACKAGE_OF = {"PIL": "pillow", "fal_client": "fal-client", "cv2": "opencv-python"}


def normalize(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def validator(schemas, name):
    schema = json.loads((schemas / name).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def schema_problems(validator_, document):
    return [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}" for e in validator_.iter_errors(document)]


def without_magics(source):
    # IPython magics and shell escapes are not Python; blank them, keeping line numbers.
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.split("\n"))


def imported_modules(tree):
    modules = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules += [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.append(node.module.split(".")[0])
    return modules


def pip_installed(source):
    names = set()
    for line in source.split("\n"):
        words = line.split()
        if words[:2] != ["%pip", "install"]:
            continue
        for word in words[2:]:
            word = word.strip("\"'")
            if word.startswith("-") or "://" in word:
                continue
            names.add(normalize(re.split(r"[^A-Za-z0-9._-]", word, maxsplit=1)[0]))
    return names


def check_notebook(path):
    problems = []
    try:
        nb = nbformat.read(str(path), as_version=nbformat.NO_CONVERT)
        nbformat.validate(nb)
    except Exception as e:  # any reason the validator refuses it
        return [f"not a valid notebook: {e}".splitlines()[0]]
    if nb.nbformat != 4:
        problems.append(f"nbformat {nb.nbformat}, expected 4")
    cells = {cell.get("id"): cell for cell in nb.cells}
    installed = pip_installed(cells["install"].source) if "install" in cells else set()
    for name in installed:
        if name in sys.stdlib_module_names:
            problems.append(f"install cell pip-installs the standard-library module {name}")
    for cell in nb.cells:
        if TOKEN_VALUE.search(cell.source):
            problems.append(f"cell {cell.get('id')}: holds what looks like a token")
        if cell.cell_type != "code":
            continue
        try:
            tree = ast.parse(without_magics(cell.source))
        except SyntaxError as e:
            problems.append(f"cell {cell.get('id')}: {e.lineno}:{e.offset}: {e.msg}")
            continue
        if cell.get("id") == "inference":
            if not TOKEN_FROM_ENV.search(cell.source):
                problems.append("inference cell does not read its token from os.environ")
            for module in imported_modules(tree):
                package = normalize(PACKAGE_OF.get(module, module))
                if module not in sys.stdlib_module_names and package not in installed:
                    problems.append(f"inference cell imports {module} but the install cell does not install {package}")
    return problems


def only_comments(code):
    lines = [line.strip() for line in code.split("\n") if line.strip()]
    return all(line.startswith("#") for line in lines)


def expects_notebook(api):
    examples = api["examples"]
    return any(e["language"] == "python" and not only_comments(e["content"]) for e in examples["library"]) or any(
        e["language"] == "python" and e["client"] == "huggingface_hub" for e in examples["inference"]
    )


def model_page_ids(dist, reserved):
    ids = set()
    for page in dist.glob("*/*/index.html"):
        namespace = page.parent.parent.name
        if namespace not in reserved:
            ids.add(f"{namespace}/{page.parent.name}")
    return ids


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dist", required=True, type=pathlib.Path)
    parser.add_argument("--schemas", type=pathlib.Path, default=ROOT / "site-src" / "schema")
    args = parser.parse_args()
    dist = args.dist
    model_schema = validator(args.schemas, "api-model.schema.json")
    failures = {}
    passed = 0

    def record(name, problems):
        nonlocal passed
        if problems:
            failures[name] = problems
        else:
            passed += 1

    list_schema = validator(args.schemas, "api-model-list.schema.json")
    listed = set()
    for name, schema in (("libraries", "api-libraries.schema.json"), ("tasks", "api-tasks.schema.json")):
        path = dist / "api" / f"{name}.json"
        document = json.loads(path.read_text())
        problems = schema_problems(validator(args.schemas, schema), document)
        for entry in document.get(name, []) if not problems else []:
            ids, url, pages = [], entry["models_url"], 0
            # Paths are site paths under the base the site was built for.
            base = entry["page"][: entry["page"].index(f"{name}/")]
            while url is not None:
                page_path = dist / url[len(base):]
                page = json.loads(page_path.read_text())
                page_problems = schema_problems(list_schema, page)
                pages += 1
                if not page_problems and page["key"] != entry["key"]:
                    page_problems.append(f"page {pages} of {page.get('key')} does not follow from {path.name}")
                if not page_problems and ids and page["previous"] is None:
                    page_problems.append(f"page {pages} of {page.get('key')} names no previous page")
                record(str(page_path), page_problems)
                if page_problems:
                    break
                ids += page["models"]
                url = page["next"]
            if pages != entry["model_pages"]:
                problems.append(f"{entry['key']}: model_pages {entry['model_pages']} but {pages} pages")
            if entry["model_count"] != len(ids) or len(set(ids)) != len(ids) or ids != sorted(ids, key=lambda i: (i.lower(), i)):
                problems.append(f"{entry['key']}: model_count {entry['model_count']} but {len(set(ids))} distinct of {len(ids)} ids, or not by name")
            listed.update(ids)
        record(str(path), problems)

    api_dir = dist / "api" / "models"
    api_ids = set()
    notebooks = 0
    for path in sorted(api_dir.glob("*/*.json")):
        model_id = f"{path.parent.name}/{path.stem}"
        api_ids.add(model_id)
        document = json.loads(path.read_text())
        problems = schema_problems(model_schema, document)
        if document.get("id") != model_id:
            problems.append(f"id {document.get('id')!r} does not match the file's path")
        notebook = dist / model_id / "notebook.ipynb"
        page = (dist / model_id / "index.html").read_text() if (dist / model_id / "index.html").is_file() else ""
        if not page:
            problems.append("no page for this model")
        if not problems:
            expected = expects_notebook(document)
            if expected != notebook.is_file():
                problems.append(f"notebook expected: {expected}, written: {notebook.is_file()}")
            if (document["notebook"] is not None) != notebook.is_file():
                problems.append(f"API file says notebook {document['notebook']!r}")
            if notebook.is_file() and not re.search(rf'href="{re.escape(document["notebook"])}" download>', page):
                problems.append("page has no download link to the notebook")
            if not notebook.is_file() and "notebook.ipynb" in page:
                problems.append("page links a notebook that does not exist")
        record(str(path), problems)
        if notebook.is_file():
            notebooks += 1
            record(str(notebook), check_notebook(notebook))

    reserved = {"api", "assets", "libraries", "tasks", "namespaces", "search", "sitemaps"}
    cross = [f"{i}: listed but has no API file" for i in sorted(listed - api_ids)]
    cross += [f"{i}: has a page but no API file" for i in sorted(model_page_ids(dist, reserved) - api_ids)]
    record("cross-checks", cross)

    for name, problems in sorted(failures.items()):
        for problem in problems:
            print(f"{name}: {problem}")
    print(f"checked {len(api_ids)} API files and {notebooks} notebooks")
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
