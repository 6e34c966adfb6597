"""One line over every suite of `make test`: the counts of cargo's and
node's test runners added up, from the logs `make test` keeps.

cargo prints `test result: ok. 12 passed; 0 failed; ...` per test binary;
node's runner (TAP when piped) prints `# pass 31` and `# fail 0` per run.
A suite whose log has no counts at all (it failed to build) is named, so a
short total never passes for a whole one."""
import re
import sys

CARGO = re.compile(r"^test result: \w+\. (\d+) passed; (\d+) failed", re.M)
NODE_PASS = re.compile(r"^# pass (\d+)$", re.M)
NODE_FAIL = re.compile(r"^# fail (\d+)$", re.M)

passed = failed = 0
silent = []
for path in sys.argv[1:]:
    text = open(path, encoding="utf-8", errors="replace").read()
    counts = [(int(p), int(f)) for p, f in CARGO.findall(text)]
    counts += list(zip(map(int, NODE_PASS.findall(text)), map(int, NODE_FAIL.findall(text))))
    if not counts:
        silent.append(path.rsplit("/", 1)[-1].removesuffix(".log"))
    passed += sum(p for p, _ in counts)
    failed += sum(f for _, f in counts)

line = f"{passed} passed, {failed} failed"
if silent:
    line += f" ({', '.join(silent)} ran no test: see its log above)"
print(line)
sys.exit(1 if failed or silent else 0)
