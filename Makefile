# Two commands do everything on a fresh machine: `make run` and `make test`. Both go through
# `make deps`, the one place that installs anything (npm packages, then the Debian packages the
# tests need, only those missing); every other target assumes it has run.
.PHONY: backup run test build install renovate-install system-deps deps lint unused bench clean routes quick test-one watch

# Reinstall when the lock file changes; npm ci builds sqlite3 from source when no prebuilt fits.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

install: node_modules/.installed

# Renovate for test/interop/renovate.test.ts, in a folder of its own (about 400 MB: not a
# dependency of Wharf's). Installed once, from its committed lock file, without install
# scripts (their native builds are optional; Renovate falls back without them).
test/interop/renovate/node_modules/.installed: test/interop/renovate/package.json test/interop/renovate/package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts --prefix test/interop/renovate
	touch $@

renovate-install: test/interop/renovate/node_modules/.installed

build: install
	rm -rf dist
	npx tsc -p tsconfig.json
	node dist/src/build_template.js

# The short loop. `make quick` rebuilds only what changed since the last one (tsc's
# incremental build info beside the output; `make build` starts from nothing), `make test-one
# F=dist/test/api/hooks.test.js` builds that way and runs that one file (SQLite unless
# WHARF_TEST_DB=postgres), `make watch` rebuilds on every save.
quick: install
	npx tsc -p tsconfig.json --incremental --tsBuildInfoFile dist/.tsbuildinfo
	@[ -f dist/db/empty.sqlite3 ] || node dist/src/build_template.js

test-one: quick
	@[ -n "$(F)" ] || { echo 'usage: make test-one F=dist/test/<family>/<file>.test.js'; exit 2; }
	npx mocha --no-config --require dist/test/helpers/engine_fixture.js --timeout 30000 --slow 2000 --exit $(F)

watch: install
	npx tsc -p tsconfig.json --incremental --tsBuildInfoFile dist/.tsbuildinfo --watch --preserveWatchOutput

# One backup of the server WHARF_DB and WHARF_REPOS name, into WHARF_BACKUP_DIR (README's
# "Backups"), made while it serves; `npm run restore -- <archive>` puts one back.
backup: install
	@[ -f dist/src/backup.js ] || $(MAKE) build
	npm run --silent backup

# Installs, builds, migrates (at start) and serves on $PORT (default 8080).
run: deps build
	npm start

# The engines `make test` runs the suite on: sqlite, postgres or both (one mocha run each).
WHARF_TEST_DB ?= both

# Debian packages the tests use: python-gitlab (interop), the Prometheus Python client (its
# strict text-format parser checks /-/metrics), git, bzip2 (tar.bz2 archives are
# compressed by the system bzip2, as GitLab's workhorse did), unzip, openssh-client (the
# real `ssh` and `ssh-keygen` test git over SSH), chromium (the docs page is rendered in
# headless Chromium), bubblewrap (`bwrap`: the sandbox every CI job of the built-in runner
# runs in), git-lfs (Git LFS's own client pushes and clones large files in the LFS tests), and postgresql (its initdb and pg_ctl start a throwaway cluster for the
# PostgreSQL run; Debian keeps them in /usr/lib/postgresql/<version>/bin).
# Installed when missing (apt-get runs only then), by `make deps`.
system-deps:
	@missing=""; \
	/usr/bin/python3 -c 'import gitlab' 2>/dev/null || missing="$$missing python3-gitlab"; \
	/usr/bin/python3 -c 'import prometheus_client' 2>/dev/null || missing="$$missing python3-prometheus-client"; \
	for tool in git bzip2 unzip openssl; do command -v $$tool >/dev/null || missing="$$missing $$tool"; done; \
	{ command -v ssh >/dev/null && command -v ssh-keygen >/dev/null; } || missing="$$missing openssh-client"; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	command -v bwrap >/dev/null || missing="$$missing bubblewrap"; \
	command -v git-lfs >/dev/null || missing="$$missing git-lfs"; \
	if [ "$(WHARF_TEST_DB)" != sqlite ] && ! command -v initdb >/dev/null && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  missing="$$missing postgresql"; \
	fi; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing"; \
	  apt-get update -qq && apt-get install -y -qq $$missing >/dev/null; \
	fi

# What `make run` and `make test` need from outside: the npm packages (from the lock file, again
# when it changes) and the Debian packages above, only those missing. The one target that may
# run apt-get; on a machine that has it all it installs nothing and takes well under a second.
# (`make test` also installs Renovate, a test fixture of 400 MB that `make run` does not need.)
deps: install system-deps

# ESLint (test/lint/eslint.config.js): regexes that can backtrack super-linearly on their input
# (one on a request parameter can hold the event loop for seconds), promises neither awaited
# nor voided, switches that forget a union member, type-only imports, database calls in api/.
# Then the layering (test/lint/dependency-cruiser.cjs): no import cycle, no import from a lower
# layer to a higher one; test/lint/known-violations.json lists the old ones still to remove.
# Last, the formatting: prettier (.prettierrc.json, .editorconfig; .prettierignore lists what it
# leaves alone); `npx prettier --write .` fixes what it reports. Then unused files, exports and
# dependencies (knip, knip.json: the entry points are the programs, the tests, the benchmarks
# and the migrations); `make unused` runs it alone.
lint: install
	npx eslint --config test/lint/eslint.config.js src
	npx depcruise --config test/lint/dependency-cruiser.cjs --ignore-known test/lint/known-violations.json src
	npx prettier --check .
	npx knip

unused: install
	npx knip

# The whole suite on each engine (the spec is given here, not in .mocharc.json, so that
# `npx mocha dist/test/api/hooks.test.js` runs that file alone); both runs always happen, and
# either failing fails the target.
# Each run's output is also kept in a temporary file, so that a failed run's failures (mocha's
# "N failing" list: titles and error lines, stack frames left out) are printed again at the very
# end, where the tail of a CI log shows them.
test: deps renovate-install build lint
	@case "$(WHARF_TEST_DB)" in \
	  sqlite|postgres) engines="$(WHARF_TEST_DB)" ;; \
	  both) engines="sqlite postgres" ;; \
	  *) echo "WHARF_TEST_DB must be sqlite, postgres or both, not '$(WHARF_TEST_DB)'"; exit 2 ;; \
	esac; \
	logs=$$(mktemp -d); trap 'rm -rf "$$logs"' EXIT; \
	failed=""; \
	for engine in $$engines; do \
	  echo "=== mocha on $$engine"; start=$$(date +%s); \
	  { WHARF_TEST_DB=$$engine npx mocha 'dist/test/**/*.test.js'; echo $$? > "$$logs/$$engine.rc"; } 2>&1 | tee "$$logs/$$engine.log"; \
	  [ "$$(cat "$$logs/$$engine.rc")" = 0 ] || failed="$$failed $$engine"; \
	  echo "=== $$engine: $$(( $$(date +%s) - start )) s"; \
	done; \
	for engine in $$failed; do \
	  echo "=== what failed on $$engine:"; \
	  awk '/ failing$$/ { on = 1 } on && NF && !/^ *at /' "$$logs/$$engine.log" | head -n 60; \
	done; \
	if [ -n "$$failed" ]; then echo "=== the suite failed on:$$failed"; exit 1; fi

# Prints the declared API route table (src/api/core/route_tables.ts): method, path, auth, load, ability, status.
routes: build
	@npm run --silent routes

bench: build
	node dist/bench/ceiling.js
	node dist/bench/projects.js
	node dist/bench/issues.js
	node dist/bench/merge_requests.js

clean:
	rm -rf dist node_modules
