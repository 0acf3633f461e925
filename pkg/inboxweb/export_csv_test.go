package inboxweb_test

import (
	"context"
	"encoding/csv"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
)

// TestExport downloads the business's requests as CSV from the export
// page, in English and Spanish: a request whose name starts with = and
// whose description starts with @ comes out neutralised, an erased one
// without the person's details, another business's not at all; a bad
// range is the page again with the problem next to its field and what was
// typed kept.
func TestExport(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "desert-cool-hvac" // Phoenix
	ctx := context.Background()
	b := f.business(t, slug)
	w := f.windows(t, b, "2026-11-24", 1)
	lang := "en"
	formula := booking.CreateInput{
		WindowStart: w[0].Start,
		Address:     booking.Address{Street: street, City: city, ZIP: b.ServiceArea.ZIPCodes[0]},
		Contact:     booking.Contact{Name: "=HYPERLINK(\"http://evil.example\")", Phone: "6025550177"},
		Description: "@SUM(1+1)", Language: &lang,
	}
	c, _, err := f.bookings.CreateRequest(ctx, b, formula)
	if err != nil {
		t.Fatal(err)
	}
	f.clock.Add(60e9)
	erased := f.create(t, slug, "", "", 2)
	f.businessMove(t, slug, erased, booking.ActionDecline, "")
	if _, err := f.inbox(t, slug).Erase(ctx, erased); err != nil {
		t.Fatal(err)
	}
	f.create(t, "mile-high-electric", "", "", 1) // another business's

	a, _ := f.signIn(t, slug)
	for _, tt := range []struct {
		lang, header, declined string
	}{
		{"en", "Request code,Sent,State,Service", "Declined"},
		{"es", "Código de solicitud,Enviada,Estado,Servicio", "Rechazada"},
	} {
		t.Run(tt.lang, func(t *testing.T) {
			res := f.do(t, a, "GET", "/inbox/export?lang="+tt.lang, nil)
			if res.status != http.StatusOK {
				t.Fatalf("export page: got %d", res.status)
			}
			wantIn(t, res.body, `action="/inbox/export.csv"`, `name="from" required value="2026-11-01"`, `name="to" required value="2026-11-23"`, "America/Phoenix")
			res = f.do(t, a, "GET", "/inbox/export.csv?from=2026-11-01&to=2026-11-30&lang="+tt.lang, nil)
			if res.status != http.StatusOK || res.header.Get("Content-Type") != "text/csv; charset=utf-8" ||
				res.header.Get("Content-Disposition") != `attachment; filename="doorstep-desert-cool-hvac-2026-11-01-2026-11-30.csv"` {
				t.Fatalf("download: got %d %v", res.status, res.header)
			}
			if !strings.HasPrefix(res.body, tt.header) {
				t.Errorf("the CSV starts %.80q, want the header %q", res.body, tt.header)
			}
			rows, err := csv.NewReader(strings.NewReader(res.body)).ReadAll()
			if err != nil || len(rows) != 3 {
				t.Fatalf("got %d rows (%v), want a header and 2:\n%s", len(rows), err, res.body)
			}
			if rows[1][0] != c.Code || rows[1][6] != `'=HYPERLINK("http://evil.example")` || rows[1][14] != "'@SUM(1+1)" {
				t.Errorf("the formula request's row = %q, want its name and description prefixed with '", rows[1])
			}
			if rows[2][0] != erased || rows[2][2] != tt.declined || rows[2][6] != "" || rows[2][9] != "" || rows[2][19] == "" {
				t.Errorf("the erased request's row = %q, want no details and when they were erased", rows[2])
			}
			if strings.Contains(res.body, personName) || strings.Contains(res.body, "mile-high") {
				t.Errorf("the CSV holds an erased name or another business's request:\n%s", res.body)
			}
		})
	}
	for _, tt := range []struct {
		query, field, want string
	}{
		{"from=2026-11-31&to=2026-11-30", "from", "Enter a date, such as 2026-11-01."},
		{"from=2026-11-30&to=2026-11-01", "to", "The last day cannot be before the first."},
		{"from=&to=2026-11-01&lang=es", "from", "Escriba una fecha, como 2026-11-01."},
	} {
		t.Run(tt.query, func(t *testing.T) {
			res := f.do(t, a, "GET", "/inbox/export.csv?"+tt.query, nil)
			if res.status != http.StatusBadRequest {
				t.Fatalf("got %d, want 400", res.status)
			}
			q, _ := url.ParseQuery(tt.query)
			wantIn(t, res.body, `id="`+tt.field+`-error">`+tt.want, `aria-invalid="true"`, `name="to" required value="`+q.Get("to")+`"`)
		})
	}
}
