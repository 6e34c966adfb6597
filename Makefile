# modelpages: `make site` builds models/ into dist/, `make test` runs every test.
CARGO ?= cargo
SHELL := bash
.SHELLFLAGS := -o pipefail -c
# Cargo's output folder: honour CARGO_TARGET_DIR as cargo itself does.
TARGET := $(or $(CARGO_TARGET_DIR),target)
BIN := $(TARGET)/release/modelpages
NODE_STAMP := site-src/node_modules/.package-lock.json

.PHONY: site islands release checkers test test-rust test-js test-browser test-scale browser-deps find-chromium serve bench clean fuzz

site: islands release
	$(BIN) build --models models --out dist

# Live preview of models/ at http://127.0.0.1:1111, rebuilt on every change.
serve: islands release
	$(BIN) serve --models models --out dist

release:
	$(CARGO) build --release --locked

# npm ci only when the lockfile changed since the last install.
$(NODE_STAMP): site-src/package-lock.json
	cd site-src && npm ci --no-audit --no-fund

islands: $(NODE_STAMP)
	cd site-src && npm run --silent build

# Every suite runs even when one fails; the last line adds up their counts.
TEST_LOGS := $(TARGET)/test-logs
test:
	@rm -rf $(TEST_LOGS) && mkdir -p $(TEST_LOGS); status=0; \
	for suite in test-js test-rust test-browser; do \
		echo "== make $$suite"; \
		$(MAKE) --no-print-directory $$suite 2>&1 | tee $(TEST_LOGS)/$$suite.log || status=1; \
	done; \
	python3 tests/summary.py $(TEST_LOGS)/*.log || status=1; \
	exit $$status

# The examples' checkers: python3 with pyflakes, node with ESLint (site-src);
# and the servers the deploy tests start on 127.0.0.1 (moto for S3, WsgiDAV).
# Python's go into a virtual environment under the target folder, never
# into the machine's own Python; the tests find them first on PATH.
VENV := $(TARGET)/checkers-venv
VENV_STAMP := $(VENV)/.installed
$(VENV_STAMP): tests/checkers/requirements.txt tests/deploy/requirements.txt
	python3 -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --disable-pip-version-check \
		-r tests/checkers/requirements.txt -r tests/deploy/requirements.txt
	touch $@
checkers: $(NODE_STAMP) $(VENV_STAMP)
WITH_CHECKERS := PATH="$(abspath $(VENV))/bin:$$PATH"

test-rust: islands checkers
	$(WITH_CHECKERS) $(CARGO) test --workspace --locked --exclude modelpages-bench --no-fail-fast -q
	@# Tests that need root (the immutable attribute) are ignored by default.
	@if [ "$$(id -u)" = 0 ]; then $(CARGO) test --locked -p modelpages --test integration -q -- --ignored faults::; \
	else echo "not root: the immutable-folder fault test (cli/tests/faults.rs) is left ignored"; fi

test-js: $(NODE_STAMP)
	cd site-src && npm run --silent typecheck && npm test

# Browser tests drive Debian's chromium with playwright-core; no test tool
# downloads a browser. They use MODELPAGES_CHROMIUM, else the first chromium
# or Chrome on PATH; `make browser-deps` installs Debian's (CI does so).
CHROMIUM := $(or $(MODELPAGES_CHROMIUM),$(firstword $(foreach b,chromium chromium-browser google-chrome,$(shell command -v $(b) 2>/dev/null))))
BROWSER_SITE := $(TARGET)/browser-site

browser-deps:
	command -v chromium >/dev/null || { apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium; }

find-chromium:
	@test -n "$(CHROMIUM)" || { echo "no chromium found: install it (make browser-deps, as root) or set MODELPAGES_CHROMIUM=/path/to/chrome"; exit 1; }

# The default corpus is built with listing sizes cut small
# (site-src/test/browser/small-listings.toml), so its ~200 models fill many
# listing pages and search shards. The hostile corpus
# (generator/cli/tests/hostile_corpus) is built too: its build reports the
# bad inputs and exits 1, and its pages are opened in the browser to prove no
# record's script runs.
test-browser: find-chromium islands release
	rm -rf $(BROWSER_SITE)
	$(BIN) build --models models --out $(BROWSER_SITE)/dist --config site-src/test/browser/small-listings.toml
	$(CARGO) run --release --locked --quiet -p modelpages --example hostile_corpus -- $(BROWSER_SITE)/hostile-corpus
	$(BIN) build --models $(BROWSER_SITE)/hostile-corpus/models --out $(BROWSER_SITE)/hostile \
		2> $(BROWSER_SITE)/hostile-build.log || test $$? -eq 1
	cd site-src && MODELPAGES_CHROMIUM="$(CHROMIUM)" MODELPAGES_BIN="$(abspath $(BIN))" MODELPAGES_DIST="$(abspath $(BROWSER_SITE))/dist" \
		MODELPAGES_SCREENSHOTS="$(abspath $(BROWSER_SITE))/screenshots" \
		MODELPAGES_HOSTILE_DIST="$(abspath $(BROWSER_SITE))/hostile" npm run --silent test:browser

# The search at hub scale (not part of `make test`; about 15 minutes and
# 12 GB of disk): a synthetic hub of SCALE_MODELS models (small records),
# built with the default listing sizes, then searched in chromium by a cold
# visitor, counting every byte the search fetches. The corpus is kept in
# $(SCALE_DIR) for the next run; the site is rebuilt each time.
SCALE_MODELS ?= 200000
SCALE_DIR ?= $(TARGET)/scale
test-scale: find-chromium islands release
	[ -d $(SCALE_DIR)/corpus-$(SCALE_MODELS) ] || $(BIN) synth --minimal --count $(SCALE_MODELS) --out $(SCALE_DIR)/corpus-$(SCALE_MODELS)
	rm -rf $(SCALE_DIR)/site $(SCALE_DIR)/.site.manifest
	/usr/bin/time -v $(BIN) build --full --models $(SCALE_DIR)/corpus-$(SCALE_MODELS) --out $(SCALE_DIR)/site 2> $(SCALE_DIR)/build.log \
		|| { tail -20 $(SCALE_DIR)/build.log; exit 1; }
	grep -E '^built|Elapsed|Maximum resident' $(SCALE_DIR)/build.log
	cd site-src && MODELPAGES_CHROMIUM="$(CHROMIUM)" MODELPAGES_SCALE_DIST="$(abspath $(SCALE_DIR))/site" MODELPAGES_SCALE_MODELS="$(abspath $(SCALE_DIR))/corpus-$(SCALE_MODELS)" \
		node --test test/scale/

# Fuzzing (not part of `make test`; needs nightly and cargo-fuzz): each
# target for FUZZ_SECONDS, one after the other, on one core. See fuzz/README.md.
FUZZ_SECONDS ?= 600
FUZZ_TARGETS := record_parse example_generation card_render

fuzz:
	mkdir -p fuzz/corpus/record_parse fuzz/corpus/card_render fuzz/corpus/example_generation
	for f in models/*/*/model.json; do cp "$$f" "fuzz/corpus/record_parse/seed-$$(echo $$f | tr / _)"; done
	for f in models/*/*/README.md; do cp "$$f" "fuzz/corpus/card_render/seed-$$(echo $$f | tr / _)"; done
	cd fuzz && for target in $(FUZZ_TARGETS); do \
		dict=; [ -f dicts/$$target.dict ] && dict=-dict=dicts/$$target.dict; \
		nice -n 19 cargo +nightly fuzz run $$target -- $$dict -max_total_time=$(FUZZ_SECONDS) \
			-jobs=1 -workers=1 -timeout=10 -rss_limit_mb=2048 -max_len=16384 -len_control=0 || exit 1; \
	done

# Benchmarks (not part of `make test`): criterion for the hot stages, then
# whole builds of 10,000 and 100,000 synthetic models. See BENCHMARKS.md.
bench: islands release
	$(CARGO) bench --locked -p modelpages-bench
	bench/build.sh

clean:
	$(CARGO) clean
	rm -rf dist site-src/build site-src/node_modules
