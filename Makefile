# modelpages: `make site` builds models/ into dist/, `make test` runs every test.
CARGO ?= cargo
BIN := target/release/modelpages
NODE_STAMP := site-src/node_modules/.package-lock.json

.PHONY: site islands release checkers test test-rust test-js test-browser bench clean

site: islands release
	$(BIN) build --models models --out dist

release:
	$(CARGO) build --release --locked

# npm ci only when the lockfile changed since the last install.
$(NODE_STAMP): site-src/package-lock.json
	cd site-src && npm ci --no-audit --no-fund

islands: $(NODE_STAMP)
	cd site-src && npm run --silent build

test: test-js test-rust test-browser

# The examples' checkers: python3 with pyflakes, node with ESLint (site-src).
checkers: $(NODE_STAMP)
	python3 -m pip install --quiet --disable-pip-version-check -r tests/checkers/requirements.txt

test-rust: islands checkers
	$(CARGO) test --workspace --locked --exclude modelpages-bench

test-js: $(NODE_STAMP)
	cd site-src && npm run --silent typecheck && npm test

# Browser tests drive Debian's chromium with playwright-core; no test tool
# downloads a browser. They run against the default corpus built here.
CHROMIUM := /usr/bin/chromium
BROWSER_SITE := target/browser-site

$(CHROMIUM):
	apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium

test-browser: islands release $(CHROMIUM)
	rm -rf $(BROWSER_SITE)
	$(BIN) build --models models --out $(BROWSER_SITE)/dist
	cd site-src && MODELPAGES_DIST=../$(BROWSER_SITE)/dist MODELPAGES_SCREENSHOTS=../$(BROWSER_SITE)/screenshots \
		npm run --silent test:browser

# Benchmarks (not part of `make test`): criterion for the hot stages, then
# whole builds of 10,000 and 100,000 synthetic models. See BENCHMARKS.md.
bench: islands release
	$(CARGO) bench --locked -p modelpages-bench
	bench/build.sh

clean:
	rm -rf dist target site-src/build site-src/node_modules
