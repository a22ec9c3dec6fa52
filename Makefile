# SwiftVision: `make run` sets everything up and runs the main job; `make test` runs the tests.
SHELL := /bin/bash
export SWIFTVISION_CACHE ?= $(HOME)/.cache/swiftvision
SWIFT_BUILD_FLAGS ?= -j 2
SAMPLES := $(SWIFTVISION_CACHE)/media

.PHONY: run test eval bench soak fuzz sanitize leakcheck checked-assets release-assets serve system-packages

run: release-assets
	@echo "== Sample photos"
	.build/release/swiftvision info $(SAMPLES)/*
	@echo "== Faces (annotated copies in out/faces)"
	.build/release/swiftvision faces --landmarks $(SAMPLES)/astronaut.png $(SAMPLES)/zidane.jpg $(SAMPLES)/bus.jpg --draw out/faces
	@echo "== Objects (annotated copies in out/objects)"
	.build/release/swiftvision objects --multiple --classify $(SAMPLES)/bus.jpg $(SAMPLES)/dog.jpg $(SAMPLES)/kite.jpg --draw out/objects
	@echo "== Text of a scanned page"
	.build/release/swiftvision text $(SAMPLES)/page.png

# Swift Testing runs all of a process's suites at once on the cooperative threads (two on a 2-core machine),
# and synchronous suites hold them for minutes; a case that asks a live server through HummingbirdTesting's
# client, which gives up after a fixed 20 s, could time out behind them. Those run in a process of their own.
LIVE_CLIENT_TESTS := StreamTests|WebhookOutboxTests|aTooLargeBodyIsAnsweredWithTheLimit

test: checked-assets
	scripts/install-system-packages.sh --tests
	scripts/setup-eval-env.sh
	$(SWIFTVISION_CACHE)/tools-venv/bin/python -m pytest Tests/Python -q
	swift test $(SWIFT_BUILD_FLAGS) --skip '$(LIVE_CLIENT_TESTS)'
	swift test --skip-build --filter '$(LIVE_CLIENT_TESTS)'

# The fuzz suite of `make test` at length: FUZZ_ITERATIONS mutants per file from FUZZ_SEED (printed on failure),
# then FUZZ_SERVICE_ITERATIONS mutated HTTP requests and live-stream messages against the real server.
FUZZ_ITERATIONS ?= 20000
FUZZ_SEED ?= 20261124
FUZZ_SERVICE_ITERATIONS ?= 3000
fuzz: checked-assets
	swift build --build-tests $(SWIFT_BUILD_FLAGS)
	SWIFTVISION_FUZZ_ITERATIONS=$(FUZZ_ITERATIONS) SWIFTVISION_FUZZ_SEED=$(FUZZ_SEED) swift test --skip-build --filter FuzzTests
	$(SWIFTVISION_CACHE)/tools-venv/bin/python Tests/Python/fuzz_service.py --iterations $(FUZZ_SERVICE_ITERATIONS) --seed $(FUZZ_SEED)

# Server-side sources held for SOAK_MINUTES: 8 looping file sources of objects at 5 fps with signed webhooks;
# the resident memory may grow by at most 10 MB after the first minute, and no source may stall.
SOAK_MINUTES ?= 5
soak: checked-assets
	$(SWIFTVISION_CACHE)/tools-venv/bin/python Tests/Python/soak_sources.py --minutes $(SOAK_MINUTES) --sources 8 --fps 5

# The debug build, samples, models and reference environment that `test`, `fuzz` and the checks below run on.
checked-assets: system-packages
	swift build $(SWIFT_BUILD_FLAGS)
	.build/debug/swiftvision setup --samples
	scripts/build-models.sh
	scripts/build-zxing.sh
	scripts/build-general-labels.py
	scripts/setup-reference-env.sh
	scripts/setup-eval-env.sh

# The suites that share tasks between threads, under the thread sanitizer. The instrumented build (a full one)
# goes to .build-tsan, starting from the dependencies .build resolved. Skipped: the stream test that expects drops,
# since the instrumented client sends frames slower than the uninstrumented runtime processes them.
TSAN_SUITES ?= ParallelInferenceTests|TaskCoreTests|StreamTests
sanitize: checked-assets
	@[ -d .build-tsan/checkouts ] || { mkdir -p .build-tsan && cp -a .build/checkouts .build/repositories .build/workspace-state.json .build-tsan/; }
	swift build --build-tests --sanitize=thread --scratch-path .build-tsan $(SWIFT_BUILD_FLAGS)
	swift test --skip-build --sanitize=thread --scratch-path .build-tsan --filter '$(TSAN_SUITES)' \
		--skip aFastStreamKeepsTrackingIDsAndCountsItsDropsHonestly

# Each task's command on one image N and 2N times under LeakSanitizer; fails when the leaked bytes grow with N.
LEAKCHECK_ITERATIONS ?= 200
leakcheck: checked-assets
	LEAKCHECK_ITERATIONS=$(LEAKCHECK_ITERATIONS) scripts/leakcheck.sh

# Accuracy on published, real data with ground truth, every task beside its peer (eval/README.md).
eval: release-assets
	scripts/setup-reference-env.sh
	scripts/setup-eval-env.sh
	$(SWIFTVISION_CACHE)/eval-venv/bin/python eval/run.py $(EVAL_FLAGS)

bench: release-assets
	scripts/install-system-packages.sh --bench
	scripts/setup-reference-env.sh
	.build/release/swiftvision-bench

serve: system-packages
	swift build -c release $(SWIFT_BUILD_FLAGS)
	.build/release/swiftvision setup
	scripts/build-models.sh
	scripts/build-zxing.sh
	scripts/build-general-labels.py
	.build/release/swiftvision serve $(SERVE_FLAGS)

# The release build, samples, models and labels that `run`, `eval` and `bench` run on.
release-assets: system-packages
	swift build -c release $(SWIFT_BUILD_FLAGS)
	.build/release/swiftvision setup --samples
	scripts/build-models.sh
	scripts/build-zxing.sh
	scripts/build-general-labels.py

system-packages:
	scripts/install-system-packages.sh
