# Two commands do everything on a fresh machine: `make run` and `make test`.
.PHONY: run test build install system-deps lint bench clean routes

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

# Debian packages the tests use: python-gitlab (interop), git, bzip2 (tar.bz2 archives are
# compressed by the system bzip2, as GitLab's workhorse did), unzip. Installed when missing.
system-deps:
	@missing=""; \
	/usr/bin/python3 -c 'import gitlab' 2>/dev/null || missing="$$missing python3-gitlab"; \
	for tool in git bzip2 unzip; do command -v $$tool >/dev/null || missing="$$missing $$tool"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing"; \
	  apt-get update -qq && apt-get install -y -qq $$missing >/dev/null; \
	fi

# Lints only for regexes that can backtrack super-linearly on their input
# (test/lint/eslint.config.js): one on a request parameter can hold the event loop for seconds.
lint: install
	npx eslint --config test/lint/eslint.config.js src

test: build system-deps lint
	npx mocha

# Prints the declared API route table (src/api/route_tables.ts): method, path, auth, load, ability, status.
routes: build
	@npm run --silent routes

bench: build
	node dist/bench/ceiling.js
	node dist/bench/projects.js
	node dist/bench/issues.js
	node dist/bench/merge_requests.js

clean:
	rm -rf dist node_modules
