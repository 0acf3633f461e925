package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"unicode/utf16"
)

// The cost section: one standard journey (getBusiness, availability twice,
// a create, three status reads, an accept in the web inbox, the messages
// the stream sends, the sweep's share) on DynamoDB Local, run in this
// package's test binary (TestCostRun in cost_run_test.go, as the floor
// is), which prints a DOORSTEP_COST line per step: the read and write
// units DynamoDB Local answered with ReturnConsumedCapacity=TOTAL (set by
// the bench's client only), the Lambda invocations and their handler time
// in process, the API Gateway requests, the e-mails and the texts with
// their segments; and, when this side built the functions and found
// aws-lambda-rie, each invocation's Billed Duration with the journey made
// again through the binaries under the emulator (cost_rie_test.go). This
// side prices them.

// Prices, us-east-1, on demand, as docs/performance.md gives them with
// their sources (looked up 2026-11-29).
const (
	pricePerMillionRRU      = 0.125        // DynamoDB on-demand read request units
	pricePerMillionWRU      = 0.625        // DynamoDB on-demand write request units
	priceLambdaGBSecondArm  = 0.0000133334 // Lambda arm64 duration, first 7.5 billion GB-s a month
	pricePerMillionLambda   = 0.20         // Lambda requests
	pricePerMillionHTTPAPI  = 1.00         // API Gateway HTTP API, first 300 million a month
	pricePerThousandEmails  = 0.10         // SES outbound
	lambdaMemoryMB          = 256          // template.yaml's Globals: MemorySize
	sweepRunsPerMonth       = 43200        // rate(1 minute), 30 days
	journeysPerCostFigure   = 1000
	lambdaBilledGranularity = 1.0 // ms
)

// costStep is what one step of the journey used.
type costStep struct {
	Step        int            `json:"step"`
	Name        string         `json:"name"`
	RRU         float64        `json:"rru"` // as DynamoDB Local answered ReturnConsumedCapacity
	WRU         float64        `json:"wru"`
	RuleRRU     float64        `json:"rule_rru"` // by DynamoDB's documented rules, on the items' measured sizes
	RuleWRU     float64        `json:"rule_wru"`
	Calls       map[string]int `json:"calls"`       // DynamoDB operations: "GetItem" (strong), "GetItem (eventual)", ...
	API         int            `json:"api"`         // API Gateway requests
	Invocations int            `json:"invocations"` // Lambda invocations
	HandlerMS   []float64      `json:"handler_ms"`  // each invocation's handler time, in process
	Emails      int            `json:"emails"`
	Texts       int            `json:"texts"`
	Segments    int            `json:"segments"`
	Note        string         `json:"note,omitempty"`
	// BilledMS is each invocation's Billed Duration, from aws-lambda-rie's
	// REPORT line, when the journey ran under it too (BilledBy says how).
	BilledMS []float64 `json:"billed_ms,omitempty"`
	BilledBy string    `json:"billed_by,omitempty"`
}

var costLinePattern = regexp.MustCompile(`(?m)^DOORSTEP_COST (.*)$`)

// parseCost reads the DOORSTEP_COST lines: the journey's steps, then the
// idle sweep run.
func parseCost(out string) ([]costStep, error) {
	var steps []costStep
	for _, m := range costLinePattern.FindAllStringSubmatch(out, -1) {
		var s costStep
		if err := json.Unmarshal([]byte(m[1]), &s); err != nil {
			return nil, fmt.Errorf("cost report %q: %w", m[1], err)
		}
		steps = append(steps, s)
	}
	if len(steps) < 2 {
		return nil, errors.New("no DOORSTEP_COST lines in the output of the cost run")
	}
	return steps, nil
}

// billedMS is Lambda's billed duration of the step's invocations: the
// emulator's when there is one, otherwise each handler time in process
// rounded up to the millisecond.
func (s costStep) billedMS() float64 {
	var t float64
	if len(s.BilledMS) > 0 {
		for _, ms := range s.BilledMS {
			t += ms
		}
		return t
	}
	for _, ms := range s.HandlerMS {
		t += math.Ceil(ms/lambdaBilledGranularity) * lambdaBilledGranularity
	}
	return t
}

// dollars is the step's cost at the prices above, texts apart.
func (s costStep) dollars() float64 {
	gbs := s.billedMS() / 1000 * lambdaMemoryMB / 1024
	return s.RuleRRU*pricePerMillionRRU/1e6 + s.RuleWRU*pricePerMillionWRU/1e6 +
		gbs*priceLambdaGBSecondArm + float64(s.Invocations)*pricePerMillionLambda/1e6 +
		float64(s.API)*pricePerMillionHTTPAPI/1e6 + float64(s.Emails)*pricePerThousandEmails/1e3
}

// costRows makes a row per step, a total row and the idle sweep's row.
func costRows(steps []costStep) []row {
	var rows []row
	journey, idle := steps[:len(steps)-1], steps[len(steps)-1]
	total := costStep{Calls: map[string]int{}}
	for _, s := range journey {
		for k, n := range s.Calls {
			total.Calls[k] += n
		}
		rows = append(rows, row{group: "cost", name: fmt.Sprintf("%d. %s", s.Step, s.Name), result: costResult(s)})
		total.RRU += s.RRU
		total.WRU += s.WRU
		total.RuleRRU += s.RuleRRU
		total.RuleWRU += s.RuleWRU
		total.API += s.API
		total.Invocations += s.Invocations
		total.HandlerMS = append(total.HandlerMS, s.HandlerMS...)
		total.BilledMS = append(total.BilledMS, s.BilledMS...)
		total.BilledBy = s.BilledBy
		total.Emails += s.Emails
		total.Texts += s.Texts
		total.Segments += s.Segments
	}
	per := total.dollars() * journeysPerCostFigure
	rows = append(rows, row{group: "cost", name: "the journey, all steps",
		result: costResult(total) + fmt.Sprintf("; per 1,000 journeys $%s (DynamoDB $%s, Lambda $%s, API Gateway $%s, SES $%s), and %s text segments apart",
			fmtDollars(per),
			fmtDollars((total.RuleRRU*pricePerMillionRRU+total.RuleWRU*pricePerMillionWRU)/1e6*journeysPerCostFigure),
			fmtDollars((total.billedMS()/1000*lambdaMemoryMB/1024*priceLambdaGBSecondArm+float64(total.Invocations)*pricePerMillionLambda/1e6)*journeysPerCostFigure),
			fmtDollars(float64(total.API)*pricePerMillionHTTPAPI/1e6*journeysPerCostFigure),
			fmtDollars(float64(total.Emails)*pricePerThousandEmails/1e3*journeysPerCostFigure),
			thousands(float64(total.Segments*journeysPerCostFigure)))})
	rows = append(rows, row{group: "cost", name: "the sweep, one run with nothing due (fixed, every minute)",
		result: costResult(idle) + fmt.Sprintf("; a month (%s runs) $%s", thousands(sweepRunsPerMonth), fmtDollars(idle.dollars()*sweepRunsPerMonth))})
	return rows
}

func costResult(s costStep) string {
	billed := fmt.Sprintf("handler in process, %d MB", lambdaMemoryMB)
	if len(s.BilledMS) > 0 {
		var inProcess float64
		for _, ms := range s.HandlerMS {
			inProcess += ms
		}
		each := make([]string, len(s.BilledMS))
		for i, ms := range s.BilledMS {
			each[i] = fmt.Sprintf("%.0f", ms)
		}
		billed = fmt.Sprintf("%s; the handler in process took %.1f ms", s.BilledBy, inProcess)
		if len(each) > 1 && len(each) <= 3 {
			billed = "each: " + strings.Join(each, " + ") + " ms; " + billed
		}
	}
	return fmt.Sprintf("%.1f RRU, %.1f WRU by DynamoDB's rules (DynamoDB Local answered %.1f, %.1f; %s); Lambda %d invocation(s), %.0f ms billed (%s); %d API request(s); %d e-mail(s), %d text(s) in %d segment(s)",
		s.RuleRRU, s.RuleWRU, s.RRU, s.WRU, strings.Join(sortedCalls(s.Calls), ", "), s.Invocations, s.billedMS(), billed, s.API, s.Emails, s.Texts, s.Segments)
}

// sortedCalls lists the DynamoDB calls of m, "Operation ×n", by name.
func sortedCalls(m map[string]int) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, fmt.Sprintf("%s ×%d", k, m[k]))
	}
	return out
}

// fmtDollars writes an amount to a hundredth of a cent.
func fmtDollars(d float64) string { return fmt.Sprintf("%.4f", d) }

// costFunctions are the functions the journey calls, which the cost part
// builds to run under the emulator.
var costFunctions = []string{"get-business", "list-arrival-windows", "create-service-request", "get-service-request", "business-web", "notify", "expire-holds"}

// costBenchmarks runs TestCostRun on DynamoDB Local and returns its rows;
// without DynamoDB Local (the test skips) a "not run" row. On Linux with
// aws-lambda-rie it first builds the journey's functions for this machine
// (as the Makefile builds them for Lambda), so that the run measures each
// step's billed duration under the emulator too.
func costBenchmarks(ctx context.Context, root, tmp string) ([]row, error) {
	args := []string{"test", "-count=1", "-v", "-timeout=5m", "-run=^TestCostRun$", "./infra/bench/", "-args", "-cost.run"}
	var why string
	if rie, err := findRIE(root); runtime.GOOS != "linux" {
		why = "the emulator runs Linux binaries"
	} else if err != nil {
		why = err.Error()
	} else {
		env, flags, source, err := lambdaGoBuild(ctx, root)
		if err != nil {
			return nil, err
		}
		progress("cost: building the journey's functions for linux/%s (%s)", runtime.GOARCH, source)
		dir := filepath.Join(tmp, "cost", runtime.GOARCH)
		pkgs := make([]string, len(costFunctions))
		for i, name := range costFunctions {
			pkgs[i] = "./functions/" + name
		}
		if err := buildFunctions(ctx, root, dir, runtime.GOARCH, env, flags, pkgs...); err != nil {
			return nil, err
		}
		args = append(args, "-cost.bin", dir, "-cost.rie", rie)
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, out)
	}
	if strings.Contains(string(out), "--- SKIP: TestCostRun") {
		return []row{{group: "cost", name: "one journey", result: "-", verdict: "not run: DynamoDB Local is missing"}}, nil
	}
	steps, err := parseCost(string(out))
	if err != nil {
		return nil, fmt.Errorf("%w:\n%s", err, out)
	}
	rows := costRows(steps)
	if why != "" {
		rows = append(rows, row{group: "cost", name: "billed durations under aws-lambda-rie", result: "-", verdict: "not run: " + why + "; the handlers' times in process stand in"})
	}
	return rows, nil
}

// gsm7 is the GSM 03.38 default alphabet; gsm7Extended its extension
// table, whose characters take two septets.
const (
	gsm7         = "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"
	gsm7Extended = "^{}\\[~]|€\f"
)

// smsSegments is how many segments a text is sent in: up to 160 septets in
// one (153 each when split), or, with any character outside GSM-7, up to
// 70 UTF-16 units in one (67 each when split).
func smsSegments(body string) int {
	septets, gsm := 0, true
	for _, r := range body {
		switch {
		case strings.ContainsRune(gsm7, r):
			septets++
		case strings.ContainsRune(gsm7Extended, r):
			septets += 2
		default:
			gsm = false
		}
	}
	if gsm {
		if septets <= 160 {
			return 1
		}
		return (septets + 152) / 153
	}
	units := len(utf16.Encode([]rune(body)))
	if units <= 70 {
		return 1
	}
	return (units + 66) / 67
}
