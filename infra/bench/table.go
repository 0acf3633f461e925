package main

import (
	"fmt"
	"io"
	"strings"
)

// row is one line of the table: what was measured, the figures, the target
// (if any) and whether it was met.
type row struct {
	group, name, result, target string
	verdict                     string   // "met", "missed", "" (no target) or a note such as "not run"
	overBudget                  []string // Lambda sizes: the functions over the size budget
}

// printTable writes the rows as one Markdown table, which reads in a
// terminal and pastes into the README.
func printTable(w io.Writer, rows []row) {
	header := []string{"part", "measure", "result", "target", "verdict"}
	cells := make([][]string, 0, len(rows)+1)
	cells = append(cells, header)
	for _, r := range rows {
		cells = append(cells, []string{r.group, r.name, r.result, r.target, r.verdict})
	}
	widths := make([]int, len(header))
	for _, c := range cells {
		for i, s := range c {
			widths[i] = max(widths[i], len([]rune(s)))
		}
	}
	line := func(c []string) {
		var b strings.Builder
		b.WriteString("|")
		for i, s := range c {
			fmt.Fprintf(&b, " %s%s |", s, strings.Repeat(" ", widths[i]-len([]rune(s))))
		}
		fmt.Fprintln(w, b.String())
	}
	line(cells[0])
	sep := make([]string, len(header))
	for i := range sep {
		sep[i] = strings.Repeat("-", widths[i])
	}
	fmt.Fprintln(w, "|"+strings.Join(mapStrings(sep, func(s string) string { return "-" + s + "-" }), "|")+"|")
	for _, c := range cells[1:] {
		line(c)
	}
}

func mapStrings(in []string, f func(string) string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = f(s)
	}
	return out
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "missed"
}

// micros formats a duration in microseconds as µs or ms.
func micros(us float64) string {
	if us >= 1000 {
		return fmt.Sprintf("%.2f ms", us/1000)
	}
	return fmt.Sprintf("%.1f µs", us)
}

// thousands formats n with a thin separator: 12,345.
func thousands(n float64) string {
	s := fmt.Sprintf("%.0f", n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
