package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
)

// benchPackages are the packages whose Go benchmarks the table shows.
var benchPackages = []string{"./pkg/booking/", "./pkg/httpapi/"}

// goBench is one line of go test -bench -benchmem output.
type goBench struct {
	name                 string // without the -GOMAXPROCS suffix
	nsPerOp              float64
	bytesPerOp, allocsOp float64
}

// benchDescriptions say what each benchmark measures, and its target: the
// availability target (≤ 50 µs, ≤ 100 allocs for 14 days of a split day)
// holds for Business.Windows and for Bookings.ArrivalWindows around it.
var benchDescriptions = map[string]struct {
	what          string
	maxNs, allocs float64 // 0: no target
}{
	"BenchmarkWindows":                      {"availability, 14 days: Business.Windows (08-12 + 13-17, 60-min windows, 7 days a week, 4 held)", 50_000, 100},
	"BenchmarkWindowsSchedule":              {"availability, 14 days: Business.Windows as above, with 30 days-off entries (2 days within) and 10h30 notice", 50_000, 100},
	"BenchmarkArrivalWindows":               {"availability, 14 days: Bookings.ArrivalWindows (slug, params, held set, windows; in-memory store)", 50_000, 100},
	"BenchmarkArrivalWindowsSchedule":       {"availability, 14 days: Bookings.ArrivalWindows with days off, 10h30 notice and 3 crews (40 holds: windows with 1, 2 and 3)", 50_000, 100},
	"BenchmarkDecodeCreateBody":             {"create: the JSON edge's decoding of a valid body (httpapi)", 0, 0},
	"BenchmarkDecodeBusiness":               {"a business record read: JSON, validation, time zone (each store read)", 0, 0},
	"BenchmarkCreateValidation/all":         {"create validation: field checks + business rules, valid input", 0, 0},
	"BenchmarkCreateValidation/fields":      {"create validation: checkFields alone", 0, 0},
	"BenchmarkCreateValidation/rules":       {"create validation: checkBusinessRules alone", 0, 0},
	"BenchmarkCreateValidation/body_hash":   {"create: idempotency BodyHash (also on the create path)", 0, 0},
	"BenchmarkLinkResolution/parse_and_own": {"link resolution: ParseSiteLink + OwnsLink over 5 businesses, per link", 0, 0},
	"BenchmarkLinkResolution/parse":         {"link resolution: ParseSiteLink alone, per link", 0, 0},
	"BenchmarkOpenAPIToJSON":                {"the OpenAPI document, YAML to JSON, once per process, on its first request (httpapi)", 0, 0},
}

var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

// parseGoBench reads go test -bench -benchmem output.
func parseGoBench(out string) []goBench {
	var bs []goBench
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(strings.TrimSpace(sc.Text()))
		if m == nil {
			continue
		}
		b := goBench{name: m[1]}
		f := strings.Fields(m[2])
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			switch f[i+1] {
			case "ns/op":
				b.nsPerOp = v
			case "B/op":
				b.bytesPerOp = v
			case "allocs/op":
				b.allocsOp = v
			}
		}
		bs = append(bs, b)
	}
	return bs
}

func goBenchmarks(ctx context.Context, root string) ([]row, error) {
	args := append([]string{"test", "-run", "^$", "-bench", ".", "-benchmem", "-count", "1"}, benchPackages...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, out)
	}
	var rows []row
	for _, b := range parseGoBench(string(out)) {
		d, ok := benchDescriptions[b.name]
		if !ok {
			d.what = b.name
		}
		r := row{
			group:  "Go",
			name:   d.what,
			result: fmt.Sprintf("%s/op, %.0f allocs/op, %.0f B/op", micros(b.nsPerOp/1000), b.allocsOp, b.bytesPerOp),
		}
		if d.maxNs > 0 {
			r.target = fmt.Sprintf("≤ %s, ≤ %.0f allocs", micros(d.maxNs/1000), d.allocs)
			r.verdict = verdict(b.nsPerOp <= d.maxNs && b.allocsOp <= d.allocs)
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("go %s printed no benchmark:\n%s", strings.Join(args, " "), out)
	}
	return rows, nil
}
