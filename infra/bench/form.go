package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/doorstep/doorstep/pkg/bookform"
	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/embedded"
	"github.com/doorstep/doorstep/pkg/edge"
	"github.com/doorstep/doorstep/pkg/httpapi"
)

// maxPageBytes is the booking form's weight target: each step's HTML and
// CSS (inline), uncompressed, with no web font and no image.
const maxPageBytes = 20 << 10

// maxRenderRatio is the form's render target: a week of windows as the
// form's page costs at most this many times listArrivalWindows for the
// same week, on the same engine, in the same run.
const maxRenderRatio = 1.25

// formSite is the booking form and the JSON API over one embedded
// DynamoDB engine (minidyn, in process) holding the demo businesses.
type formSite struct {
	form, api http.Handler
	bookings  *booking.Bookings
}

func newFormSite(ctx context.Context, root string) (*formSite, error) {
	f, err := os.Open(filepath.Join(root, "infra", "local", "businesses.json"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	businesses, err := booking.LoadBusinesses(f)
	if err != nil {
		return nil, err
	}
	client, err := embedded.NewTable(ctx, "bench-form")
	if err != nil {
		return nil, err
	}
	store := dynamo.New(client, "bench-form", dynamo.WithBusinessCache(dynamo.BusinessCacheTTL, time.Now))
	for _, b := range businesses {
		if err := store.PutBusiness(ctx, b); err != nil {
			return nil, err
		}
	}
	bookings, err := booking.New(booking.Config{Store: store, SiteURL: "https://book.example.com", Now: time.Now})
	if err != nil {
		return nil, err
	}
	key := make([]byte, bookform.MinKeyBytes)
	rand.Read(key)
	log := slog.New(slog.DiscardHandler)
	form, err := bookform.New(bookform.Config{Bookings: bookings, Key: key, Log: log})
	if err != nil {
		return nil, err
	}
	return &formSite{form: form, api: httpapi.New(bookings, log), bookings: bookings}, nil
}

// get answers path from h; the body's length and the status.
func get(h http.Handler, path string) (int, string) {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	return rec.Code, rec.Body.String()
}

// maxWireBytes is the target of each page of the booking on the wire: the
// first flight of a new connection (TCP's initial window of 10 segments,
// about 14 KB), so that a page arrives in one round trip.
const maxWireBytes = 14 << 10

// onTheWire returns the bytes req's answer from h takes on the wire: its
// status line, headers and body, as a browser that accepts gzip gets it
// through edge.Compress (as lambdaenv.HTTP serves every function), or
// without gzip (the page as it was before compression); and its status.
func onTheWire(h http.Handler, req *http.Request, gzip bool) (int, int) {
	if gzip {
		req.Header.Set("Accept-Encoding", "gzip, deflate, br")
	}
	rec := httptest.NewRecorder()
	edge.Compress(h).ServeHTTP(rec, req)
	var head strings.Builder
	fmt.Fprintf(&head, "HTTP/1.1 %d %s\r\n", rec.Code, http.StatusText(rec.Code))
	rec.Result().Header.Write(&head)
	head.WriteString("\r\n")
	return head.Len() + rec.Body.Len(), rec.Code
}

var hiddenField = regexp.MustCompile(`<input type="hidden" name="([a-z]+)" value="([^"]*)">`)

// formWeights measures each step and error state of the form, in English
// and Spanish, for a business without a deposit and one with (the
// heaviest last step: the deposit's rules): its HTML and CSS as they are,
// and each page's bytes on the wire before (no gzip) and after (gzip, as
// the functions serve it), against maxWireBytes.
func (s *formSite) formWeights(ctx context.Context) ([]row, error) {
	type step struct{ name, slug, query string }
	day := time.Now().AddDate(0, 0, 1).Format("2006-01-02")
	var steps []step
	for _, lang := range []string{"en", "es"} {
		steps = append(steps,
			step{lang + " first step", "desert-cool-hvac", "lang=" + lang},
			step{lang + " ZIP outside the area", "desert-cool-hvac", "lang=" + lang + "&service=ac-not-cooling&zip=99999&next=1"},
			step{lang + " a week of days", "desert-cool-hvac", "lang=" + lang + "&service=ac-not-cooling&zip=85004"},
			step{lang + " a day's windows and the form", "desert-cool-hvac", "lang=" + lang + "&service=ac-not-cooling&zip=85004&day=" + day},
			step{lang + " the form with a deposit", "mile-high-electric", "lang=" + lang + "&service=power-loss&zip=80202&day=" + day})
	}
	var rows []row
	heaviest, which, measured, worst := 0, "", 0, 0
	wire := func(name string, newReq func() *http.Request) error {
		before, status := onTheWire(s.form, newReq(), false)
		after, _ := onTheWire(s.form, newReq(), true)
		if status != http.StatusOK && status != http.StatusBadRequest {
			return fmt.Errorf("form %s: got %d", name, status)
		}
		worst = max(worst, after)
		rows = append(rows, row{
			group: "form", name: "on the wire: " + name + " (status line, headers, body; before: no gzip, after: gzip)",
			result: fmt.Sprintf("%s → %s bytes", thousands(float64(before)), thousands(float64(after))),
			target: "≤ 14 KB after", verdict: verdict(after <= maxWireBytes),
		})
		return nil
	}
	for _, st := range steps {
		path := bookform.Path + st.slug + "?" + st.query
		status, body := get(s.form, path)
		if status != http.StatusOK && status != http.StatusBadRequest {
			return nil, fmt.Errorf("form %s: got %d", st.name, status)
		}
		measured++
		if len(body) > heaviest {
			heaviest, which = len(body), st.name
		}
		if err := wire(st.name, func() *http.Request { return httptest.NewRequest("GET", path, nil) }); err != nil {
			return nil, err
		}
		if st.slug == "mile-high-electric" {
			// The same form refused (the deposit's box not ticked): the
			// error state, with the input kept.
			v := url.Values{}
			for _, m := range hiddenField.FindAllStringSubmatch(body, -1) {
				v.Set(m[1], m[2])
			}
			v.Set("street", "4417 Wisteria Lane")
			v.Set("name", "Quentin Zebulon")
			v.Set("phone", "(720) 555-0142")
			v.Set("zip", "80202")
			post := func() *http.Request {
				req := httptest.NewRequest("POST", bookform.Path+st.slug, strings.NewReader(v.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				req.Header.Set("Sec-Fetch-Site", "same-origin")
				return req
			}
			rec := httptest.NewRecorder()
			s.form.ServeHTTP(rec, post())
			if rec.Code != http.StatusBadRequest {
				return nil, fmt.Errorf("form %s refused: got %d", st.name, rec.Code)
			}
			measured++
			if n := rec.Body.Len(); n > heaviest {
				heaviest, which = n, st.name+", refused"
			}
			if err := wire(st.name+", refused", post); err != nil {
				return nil, err
			}
		}
	}
	return append([]row{{
		group: "form", name: "booking form: the heaviest step's HTML + CSS, uncompressed, no font or image (" + which + "; " + strconv.Itoa(measured) + " steps and error states, en and es)",
		result: fmt.Sprintf("%s bytes (%.1f KB)", thousands(float64(heaviest)), float64(heaviest)/1024),
		target: "≤ 20 KB", verdict: verdict(heaviest <= maxPageBytes),
	}, {
		group: "form", name: "booking form: the heaviest page on the wire, gzip (" + strconv.Itoa(measured) + " pages)",
		result: fmt.Sprintf("%s bytes (%.1f KB)", thousands(float64(worst)), float64(worst)/1024),
		target: "≤ 14 KB", verdict: verdict(worst <= maxWireBytes),
	}}, rows...), nil
}

// renderRatio times, on the same engine in one run, the form's page of a
// week of windows (its availability read and its HTML) and
// listArrivalWindows for the same week through the JSON API (its read and
// its JSON).
func (s *formSite) renderRatio(ctx context.Context) ([]row, error) {
	const slug = "desert-cool-hvac"
	week := bookform.Path + slug + "?service=ac-not-cooling&zip=85004"
	api := "/api/v1/businesses/" + slug + "/availability?days=7"
	for _, p := range []struct {
		h    http.Handler
		path string
	}{{s.form, week}, {s.api, api}} {
		if status, _ := get(p.h, p.path); status != http.StatusOK {
			return nil, fmt.Errorf("%s: got %d", p.path, status)
		}
	}
	// One call of each in turn, many times, and the median of each: a
	// burst of load on a shared machine lands on both sides alike.
	const warm, pairs = 50, 1000
	formTimes, apiTimes := make([]time.Duration, 0, pairs), make([]time.Duration, 0, pairs)
	for i := range warm + pairs {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		t0 := time.Now()
		get(s.form, week)
		t1 := time.Now()
		get(s.api, api)
		t2 := time.Now()
		if i >= warm {
			formTimes, apiTimes = append(formTimes, t1.Sub(t0)), append(apiTimes, t2.Sub(t1))
		}
	}
	formNs, apiNs := float64(median(formTimes)), float64(median(apiTimes))
	ratio := formNs / apiNs
	return []row{
		{group: "form", name: "booking form: a week of windows, the page (GET /book/{slug}?service=&zip=), median of 1,000", result: micros(formNs/1000) + "/op"},
		{group: "form", name: "listArrivalWindows, the same week (GET .../availability?days=7), same engine (minidyn), interleaved", result: micros(apiNs/1000) + "/op"},
		{group: "form", name: "booking form: a week of windows vs listArrivalWindows", result: fmt.Sprintf("%.2f×", ratio),
			target: fmt.Sprintf("≤ %.2f×", maxRenderRatio), verdict: verdict(ratio <= maxRenderRatio)},
	}, nil
}

// formBenchmarks are the form's rows of the table.
func formBenchmarks(ctx context.Context, root string) ([]row, error) {
	s, err := newFormSite(ctx, root)
	if err != nil {
		return nil, err
	}
	weights, err := s.formWeights(ctx)
	if err != nil {
		return nil, err
	}
	ratio, err := s.renderRatio(ctx)
	if err != nil {
		return nil, err
	}
	return append(weights, ratio...), nil
}
