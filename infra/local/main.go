// Command local runs the whole service on one machine: every function's
// route on one net/http server, over DynamoDB Local with its data in .data/
// of the clone (started and stopped with the server), or with --memory
// over an embedded DynamoDB engine (minidyn) in this process that writes
// nothing. No AWS account, no Docker.
//
//	go run ./infra/local [--addr 127.0.0.1:8080] [--businesses file.json] [--site-url URL] [--data DIR | --memory]
package main

import (
	"context"
	"crypto/rand"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/doorstep/doorstep/pkg/bookform"
	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/edge"
	"github.com/doorstep/doorstep/pkg/httpapi"
	"github.com/doorstep/doorstep/pkg/inboxweb"
	"github.com/doorstep/doorstep/pkg/logjson"
	"github.com/doorstep/doorstep/pkg/mailevents"
	"github.com/doorstep/doorstep/pkg/mcptools"
	"github.com/doorstep/doorstep/pkg/metrics"
	"github.com/doorstep/doorstep/pkg/notify"
	"github.com/doorstep/doorstep/pkg/outbox"
	"github.com/doorstep/doorstep/pkg/pages"
	"github.com/doorstep/doorstep/pkg/sweep"
)

//go:embed businesses.json
var demoBusinesses []byte

const tableName = "doorstep"

// demoTokenSuffix makes each demo business's inbox token: <slug> followed
// by it, and demoFeedSuffix its calendar feed token. Only their hashes are
// in businesses.json. They are published here and in the README, so they
// are for the local server only.
const (
	demoTokenSuffix = ".local-demo-inbox-token"
	demoFeedSuffix  = ".local-demo-feed-token"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "local:", err)
		os.Exit(1)
	}
}

type options struct {
	addr       string
	businesses string
	siteURL    string
	// personalDataDays: how long the sweep keeps a request's personal
	// details after it ended (booking.Config.PersonalDataDays).
	personalDataDays int
	// signupsPerHour: how many businesses sign-up creates in an hour
	// (booking.Config.SignupsPerHour, the stack's SignupsPerHour).
	signupsPerHour int
	// data is the folder DynamoDB Local keeps the data in ("" is .data in
	// the clone); memory runs minidyn in this process instead.
	data   string
	memory bool
}

func parseFlags(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("local", flag.ContinueOnError)
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "address to listen on")
	fs.StringVar(&o.businesses, "businesses", "", "JSON file of business records (default: the demo businesses)")
	fs.StringVar(&o.siteURL, "site-url", "", "public address the URLs in responses start with (default: http:// + addr)")
	fs.IntVar(&o.personalDataDays, "personal-data-days", booking.DefaultPersonalDataDays,
		fmt.Sprintf("days after a request ended before the sweep erases its personal details (at least %d)", booking.MinPersonalDataDays))
	fs.IntVar(&o.signupsPerHour, "signups-per-hour", defaultLocalSignupsPerHour, "businesses sign-up (/start) creates in a clock hour (the stack's SignupsPerHour)")
	fs.StringVar(&o.data, "data", "", "folder DynamoDB Local keeps the data in (default: "+dataDirName+" in the clone)")
	fs.BoolVar(&o.memory, "memory", false, "keep the data in this process (minidyn) and write nothing; needs no Java")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.signupsPerHour < 1 {
		return o, fmt.Errorf("--signups-per-hour must be at least 1, got %d", o.signupsPerHour)
	}
	if o.memory && o.data != "" {
		return o, errors.New("--memory writes nothing: it takes no --data")
	}
	o.siteURL = strings.TrimSuffix(o.siteURL, "/")
	return o, nil
}

// run serves until ctx ends. It reports the address it listens on to out.
func run(ctx context.Context, args []string, out io.Writer) error {
	o, err := parseFlags(args)
	if err != nil {
		return err
	}
	businesses, err := loadBusinesses(o.businesses)
	if err != nil {
		return err
	}
	st, err := openStore(ctx, o)
	if err != nil {
		return err
	}
	defer st.close()
	// The businesses go into an empty store only: never over a business's
	// own changes kept from an earlier run.
	if st.empty {
		if err := putBusinesses(ctx, st.client, businesses); err != nil {
			return err
		}
	} else {
		st.about = append(st.about, "The store already holds data, so the businesses were not loaded again.")
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	if o.siteURL == "" {
		o.siteURL = "http://" + ln.Addr().String()
	}
	// The functions' JSON lines (pkg/logjson), metric lines included.
	log := logjson.New(os.Stderr)
	handler, err := handlerOn(ctx, st.client, o.siteURL, log, withPersonalDataDays(o.personalDataDays), withSignupsPerHour(o.signupsPerHour))
	if err != nil {
		ln.Close()
		return err
	}

	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    16 << 10,
	}
	fmt.Fprintf(out, "Doorstep is listening on http://%s (public URLs start with %s)\n", ln.Addr(), o.siteURL)
	for _, line := range st.about {
		fmt.Fprintln(out, line)
	}
	banner(out, businesses, o.siteURL, o.businesses == "")

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// banner tells, after the line with the address, where to start: the
// businesses, the JSON API, the web inbox and the addresses it signs in
// with, and the outbox where its sign-in links (and every e-mail and text)
// land; demo is true for the demo businesses, whose tokens are published.
func banner(out io.Writer, businesses []*booking.Business, siteURL string, demo bool) {
	fmt.Fprintf(out, "Demo businesses:")
	for _, b := range businesses {
		fmt.Fprintf(out, " %s", b.Slug)
	}
	fmt.Fprintf(out, "\nTry: curl %s/api/v1/businesses/%s\n", siteURL, businesses[0].Slug)
	fmt.Fprintf(out, "Book from a browser: %s%s%s\n", siteURL, bookform.Path, businesses[0].Slug)
	if demo {
		fmt.Fprintf(out, "Business inbox: curl -H 'Authorization: Bearer %s%s' %s%s/requests\n",
			businesses[0].Slug, demoTokenSuffix, siteURL, httpapi.InboxPrefix)
		fmt.Fprintf(out, "Calendar feed: curl %s%s%s%s.ics\n", siteURL, httpapi.CalendarPrefix, businesses[0].Slug, demoFeedSuffix)
	}
	fmt.Fprintf(out, "Web inbox: open %s/inbox and sign in with a business's inbox address; the link arrives in %s%s\n", siteURL, siteURL, outbox.Path)
	for _, b := range businesses {
		if b.InboxEmail != "" {
			fmt.Fprintf(out, "  %-24s %s\n", b.Slug, b.InboxEmail)
		}
	}
}

func loadBusinesses(path string) ([]*booking.Business, error) {
	if path == "" {
		return booking.LoadBusinesses(strings.NewReader(string(demoBusinesses)))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	bs, err := booking.LoadBusinesses(f)
	if err == nil && len(bs) == 0 {
		err = fmt.Errorf("%s holds no business", path)
	}
	return bs, err
}

// newHandler makes the table on an embedded DynamoDB engine (minidyn, in
// this process, no network), loads the businesses into it and returns the
// service's handler, which logs to log. close releases the engine.
func newHandler(ctx context.Context, businesses []*booking.Business, siteURL string, log *slog.Logger, opts ...serviceOption) (http.Handler, func(), error) {
	st, err := memoryStore(ctx, "")
	if err != nil {
		return nil, nil, err
	}
	if err := putBusinesses(ctx, st.client, businesses); err != nil {
		return nil, nil, err
	}
	h, err := handlerOn(ctx, st.client, siteURL, log, opts...)
	if err != nil {
		return nil, nil, err
	}
	return h, st.close, nil
}

// putBusinesses writes the businesses into the table.
func putBusinesses(ctx context.Context, client *dynamodb.Client, businesses []*booking.Business) error {
	store := dynamo.New(client, tableName)
	for _, b := range businesses {
		if err := store.PutBusiness(ctx, b); err != nil {
			return fmt.Errorf("load business %s: %w", b.Slug, err)
		}
	}
	return nil
}

// handlerOn returns the service's handler over the table on client, which
// logs to log, with the flags' opts; its hold sweeper runs until ctx ends.
func handlerOn(ctx context.Context, client *dynamodb.Client, siteURL string, log *slog.Logger, opts ...serviceOption) (http.Handler, error) {
	store := dynamo.New(client, tableName, dynamo.WithBusinessCache(dynamo.BusinessCacheTTL, time.Now))

	// The business events as the functions write them: CloudWatch EMF
	// lines on the log (pkg/metrics).
	events := metrics.New(log, "", time.Now)

	// Notifications: the local engines run no stream, so the store tells the notifier
	// of each request write that commits, and of the first limit hit of a
	// business in an hour; the outbox stands in for SES and SMS (GET
	// /dev/outbox).
	box := outbox.New(100, log)
	notifier := &notify.Notifier{
		Composer:   notify.Composer{SiteURL: siteURL, PreviewInbox: "preview-inbox@doorstep.localhost"},
		Businesses: withLocalForms(store, siteURL), Links: store, Email: box, SMS: box,
		Ledger: dynamo.NewLedger(client, tableName), Log: log, Now: time.Now,
		Metrics: events,
	}
	// No payment provider runs here: every deposit is simulated, says so
	// (getBusiness, the status, the inbox) and is paid on the simulated
	// page. Each business's booking_url is the local form (bookingurl.go).
	// A business goes live when its checklist holds: there is no operator
	// here to approve it (NewBusinessApproval auto).
	config := booking.Config{
		Store: withLocalForms(notify.Notifying(store, notifier, log), siteURL), SiteURL: siteURL, Now: time.Now, Observer: events,
		SimulateDeposits: true, SignupsPerHour: defaultLocalSignupsPerHour, FormSiteURL: formSiteURL(siteURL),
		NewBusinessApproval: booking.ApprovalAuto,
	}
	for _, o := range opts {
		o(&config)
	}
	bookings, err := booking.New(config)
	if err != nil {
		return nil, err
	}
	// What SES reports back: the outbox answers SES's mailbox simulator
	// addresses (bounce@simulator.amazonses.com, ...) with the events SES
	// would publish, and hands each, as EventBridge would, to the
	// mail-events function's handler (pkg/mailevents).
	// The owner of an inbox address that bounced is texted once, through
	// the inbox's Texter (inboxweb.TellingOwner).
	ledger := dynamo.NewLedger(client, tableName)
	teller := inboxweb.TellingOwner{Bookings: bookings, Texter: inboxweb.SMSTexter{Sender: box, OptOuts: ledger}, Log: log}
	mailEvents := lambda.NewHandler(mailevents.Handler(teller, events, log))
	box.SimulateSES(func(ctx context.Context, event []byte) error {
		_, err := mailEvents.Invoke(ctx, event)
		return err
	}, time.Now)
	// The hold sweeper, as ExpireHoldsFunction's schedule runs it on AWS.
	go sweepEvery(ctx, bookings, time.Minute, log)
	// Each edge's handler at the routes of its table, as API Gateway
	// routes them to its function (infra/sam checks template.yaml against
	// the same tables).
	mux := http.NewServeMux()
	mux.Handle(outbox.Path, box) // local only: never deployed
	edge.Mount(mux, mcptools.New(bookings, log), mcptools.Routes(bookings, log))
	edge.Mount(mux, httpapi.NewInbox(bookings, log), httpapi.InboxRoutes(bookings, log))
	edge.Mount(mux, httpapi.NewCalendarFeed(bookings, log), httpapi.CalendarRoutes(bookings, log))
	// The business's inbox in a browser; its sign-in links land in the
	// outbox too.
	optOuts := dynamo.NewLedger(client, tableName)
	webConfig := inboxweb.Config{Bookings: bookings, Mailer: inboxweb.EmailMailer{Sender: box}, SiteURL: siteURL, Log: log,
		Texter: inboxweb.SMSTexter{Sender: box, OptOuts: optOuts}, OptOuts: optOuts.ForPages()}
	edge.Mount(mux, inboxweb.New(webConfig), inboxweb.Routes(webConfig))
	// The person's pages (status_url, payment_url). No payment provider
	// runs here, so stripepay's routes are not mounted.
	pagesConfig := pages.Config{Bookings: bookings, OptOuts: optOuts.ForPages(), Log: log}
	personPages := pages.New(pagesConfig)
	edge.Mount(mux, personPages, pages.Routes(pagesConfig))
	mux.Handle("GET /r/{$}", personPages) // API Gateway sends /r/ to the route GET /r

	// The visitor's booking form (booking_url). Its form key lives as long
	// as this process: a form rendered before a restart asks to be
	// reloaded, which is what a changed key does on AWS too.
	key := make([]byte, bookform.MinKeyBytes)
	rand.Read(key)
	formConfig := bookform.Config{Bookings: bookings, Key: key, Log: log}
	form, err := bookform.New(formConfig)
	if err != nil {
		return nil, err
	}
	edge.Mount(mux, form, bookform.Routes(formConfig))
	// The JSON API, which also answers every other route with its JSON 404.
	api := httpapi.New(bookings, log)
	edge.Mount(mux, api, append(httpapi.Routes(bookings, log), httpapi.DocumentRoutes()...))
	mux.Handle("/", api)
	return edge.Compress(mux), nil // gzip, as lambdaenv.HTTP serves each function
}

// sweepEvery expires the lapsed payment holds and unanswered requests every
// interval until ctx ends, as ExpireHoldsFunction does every minute on AWS.
func sweepEvery(ctx context.Context, bookings *booking.Bookings, every time.Duration, log *slog.Logger) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			// Sweep logs what it did and any failure; the next tick tries again.
			_, _ = sweep.Sweep(ctx, bookings, now, log)
		}
	}
}

// serviceOption sets a flag's part of the service's configuration.
type serviceOption func(*booking.Config)

// defaultLocalSignupsPerHour is --signups-per-hour's default: more than
// the stack's 30, for trying sign-up over and over.
const defaultLocalSignupsPerHour = 100

// withSignupsPerHour is --signups-per-hour.
func withSignupsPerHour(n int) serviceOption {
	return func(c *booking.Config) { c.SignupsPerHour = n }
}

// withPersonalDataDays is --personal-data-days: booking.New refuses fewer
// than booking.MinPersonalDataDays, so the server does not start.
func withPersonalDataDays(days int) serviceOption {
	return func(c *booking.Config) { c.PersonalDataDays = days }
}
