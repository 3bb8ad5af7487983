# Two commands do everything on a fresh machine: `make run` and `make test`.
.PHONY: run test build install system-deps bench clean

# Reinstall when the lock file changes; npm ci builds sqlite3 from source when no prebuilt fits.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

install: node_modules/.installed

build: install
	rm -rf dist
	npx tsc -p tsconfig.json

# Installs, builds, migrates (at start) and serves on $PORT (default 8080).
run: build
	npm start

# python-gitlab (Debian's python3-gitlab) drives the interop test; install it when missing.
system-deps:
	@/usr/bin/python3 -c 'import gitlab' 2>/dev/null || { \
	  echo "installing python3-gitlab for the interop tests"; \
	  (apt-get update -qq && apt-get install -y -qq python3-gitlab) >/dev/null; }

test: build system-deps
	npx mocha

bench: build
	node dist/bench/projects.js

clean:
	rm -rf dist node_modules
