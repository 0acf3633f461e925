package export_test

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/export"
)

func TestCell(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"Ana Ruiz", "Ana Ruiz"},
		{"=HYPERLINK(\"http://evil.example\",\"x\")", "'=HYPERLINK(\"http://evil.example\",\"x\")"},
		{"+1 555", "'+1 555"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\t=1", "'\t=1"},
		{"\r=1", "'\r=1"},
		{"a=1", "a=1"},
		{"'already", "'already"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := export.Cell(tt.in); got != tt.want {
				t.Errorf("Cell(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// sample is a business's export of two requests: one kept whose name and
// description start with = and + (a formula each), one erased.
func sample() booking.Export {
	denver, _ := time.LoadLocation("America/Denver")
	start := time.Date(2026, 11, 24, 8, 0, 0, 0, denver).UTC()
	w := booking.Window{Date: "2026-11-24", Start: start, End: start.Add(2 * time.Hour)}
	sent := time.Date(2026, 11, 20, 17, 30, 0, 0, time.UTC)
	erased := sent.Add(48 * time.Hour)
	return booking.Export{
		Business: "mile-high-electric", Timezone: "America/Denver", From: "2026-11-01", To: "2026-11-30",
		Requests: []booking.InboxRequest{
			{
				Code: "7K3M-Q9TD-2HXA", Status: booking.StatusAccepted, Service: booking.LocalText{EN: "Panel check", ES: "Revisión del panel"},
				ArrivalWindow: w, Address: booking.Address{Street: "4417 Wisteria Lane", Unit: "Apt 9Q", City: "Lakewood", ZIP: "80202"},
				Contact: booking.Contact{Name: "=cmd|' /C calc'!A0", Phone: "7205550140", Email: "q@example.com", SMSConsent: true},
				Urgency: "soon", Description: "+the breaker, again", Language: "en",
				Deposit: &booking.DepositStatus{AmountCents: 2500, Currency: "usd", Simulated: true, State: booking.DepositPaid},
				Created: sent,
				History: []booking.Event{
					{At: sent, By: booking.ActorCustomer, Action: booking.ActionCreate, To: booking.StatusNew, Window: w},
					{At: sent.Add(time.Hour), By: booking.ActorBusiness, Action: booking.ActionAccept, From: booking.StatusNew, To: booking.StatusAccepted, Window: w},
				},
			},
			{
				Code: "9VFX-T1ED-YQZK", Status: booking.StatusDeclined, Service: booking.LocalText{EN: "Panel check", ES: "Revisión del panel"},
				ArrivalWindow: w, Address: booking.Address{ZIP: "80203"}, Urgency: "flexible", Language: "es",
				Created: sent, Erased: &erased,
				History: []booking.Event{
					{At: sent, By: booking.ActorCustomer, Action: booking.ActionCreate, To: booking.StatusNew, Window: w},
					{At: sent.Add(time.Hour), By: booking.ActorBusiness, Action: booking.ActionDecline, From: booking.StatusNew, To: booking.StatusDeclined, Window: w},
				},
			},
		},
	}
}

// TestCSV writes the sample in each language and reads it back with
// encoding/csv: the header in that language, times in Denver, the formula
// cells prefixed, the erased request's details empty with when they were
// erased.
func TestCSV(t *testing.T) {
	tests := []struct {
		lang            string
		header          []string // the first columns
		kept, erased    map[int]string
		historyIncludes string
	}{
		{"en", []string{"Request code", "Sent", "State", "Service", "Window start", "Window end", "Name", "Phone"},
			map[int]string{0: "7K3M-Q9TD-2HXA", 1: "2026-11-20 10:30", 2: "Accepted", 3: "Panel check", 4: "2026-11-24 08:00", 5: "2026-11-24 10:00",
				6: "'=cmd|' /C calc'!A0", 7: "(720) 555-0140", 8: "q@example.com", 9: "4417 Wisteria Lane", 12: "80202",
				13: "Soon", 14: "'+the breaker, again", 16: "Yes", 18: "$25.00 paid (simulated)", 19: ""},
			map[int]string{2: "Declined", 6: "", 7: "", 8: "", 9: "", 10: "", 11: "", 12: "80203", 14: "", 16: "", 19: "2026-11-22 10:30"},
			"2026-11-20 10:30 Sent · by the person; 2026-11-20 11:30 Accepted · by the business"},
		{"es", []string{"Código de solicitud", "Enviada", "Estado", "Servicio"},
			map[int]string{2: "Aceptada", 3: "Revisión del panel", 13: "Pronto", 16: "Sí", 18: "$25.00 pagado (simulado)"},
			map[int]string{2: "Rechazada", 6: "", 19: "2026-11-22 10:30"},
			"2026-11-20 10:30 Enviada · por la persona; 2026-11-20 11:30 Aceptada · por el negocio"},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			var buf bytes.Buffer
			if err := export.CSV(&buf, sample(), tt.lang); err != nil {
				t.Fatal(err)
			}
			rows, err := csv.NewReader(&buf).ReadAll()
			if err != nil {
				t.Fatalf("the CSV does not read back: %v\n%s", err, buf.String())
			}
			if len(rows) != 3 {
				t.Fatalf("got %d rows, want a header and 2", len(rows))
			}
			for i, h := range tt.header {
				if rows[0][i] != h {
					t.Errorf("header %d = %q, want %q", i, rows[0][i], h)
				}
			}
			for row, want := range map[int]map[int]string{1: tt.kept, 2: tt.erased} {
				for col, cell := range want {
					if got := rows[row][col]; got != cell {
						t.Errorf("row %d, %s = %q, want %q", row, rows[0][col], got, cell)
					}
				}
			}
			if got := rows[1][len(rows[1])-1]; got != tt.historyIncludes {
				t.Errorf("history = %q, want %q", got, tt.historyIncludes)
			}
			for _, row := range rows {
				for _, cell := range row {
					if cell != "" && strings.ContainsRune("=+-@", rune(cell[0])) {
						t.Errorf("a cell starts with a formula character: %q", cell)
					}
				}
			}
		})
	}
}

func TestFilename(t *testing.T) {
	e := sample()
	if got, want := export.Filename(e), "doorstep-mile-high-electric-2026-11-01-2026-11-30.csv"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	e.From, e.To = "", ""
	if got, want := export.Filename(e), "doorstep-mile-high-electric.csv"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestWords: a word for every state, urgency, deposit state, action and
// actor, in both languages.
func TestWords(t *testing.T) {
	var keys []string
	for _, s := range booking.Statuses {
		keys = append(keys, "status_"+string(s))
	}
	for _, a := range append(booking.Actions, booking.ActionCreate, booking.ActionRemind) {
		keys = append(keys, "ev_"+string(a))
	}
	for _, a := range []booking.Actor{booking.ActorCustomer, booking.ActorBusiness, booking.ActorOperator, booking.ActorSystem} {
		keys = append(keys, "by_"+string(a))
	}
	for _, d := range booking.DepositStates {
		keys = append(keys, "deposit_"+d)
	}
	for _, u := range []string{"emergency", "soon", "flexible"} {
		keys = append(keys, "urgency_"+u)
	}
	for _, lang := range []string{"en", "es"} {
		for _, k := range append(keys, export.WordKeys("en")...) {
			if _, ok := export.Words(lang)[k]; !ok {
				t.Errorf("%s: no %s", lang, k)
			}
		}
	}
}
