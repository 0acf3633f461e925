package lambdaenv

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambdacontext"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
)

// SweepHandler is the Lambda handler of the hold sweeper. A SAM Schedule
// event source is an EventBridge rule, which delivers a "Scheduled Event"
// whose time is when the rule fired: the sweep's now.
type SweepHandler = func(context.Context, events.EventBridgeEvent) (SweepReport, error)

// SweepReport is what one sweep did; the handler returns it (sam local
// invoke prints it) and logs it.
type SweepReport struct {
	Now        time.Time `json:"now"`
	Expired    int       `json:"expired"`
	Skipped    int       `json:"skipped"`
	DurationMS float64   `json:"duration_ms"`
}

// maxClockLead is how far an event's time may be ahead of the function's
// own clock. EventBridge sends the time the rule fired, which is in the
// past; one much later can only be made by hand, and would expire holds
// that have not lapsed.
const maxClockLead = time.Minute

// stopEarly is how long before the invocation's deadline a sweep stops, so
// that it still logs what it did; the next sweep goes on from there.
const stopEarly = 2 * time.Second

// NewSweepHandler builds the hold sweeper's Lambda handler from the
// environment: TABLE_NAME, and DYNAMODB_ENDPOINT when set. The sweeper
// builds no URLs, so it does not need SITE_URL.
func NewSweepHandler(ctx context.Context, getenv func(string) string) (SweepHandler, error) {
	table := strings.TrimSpace(getenv("TABLE_NAME"))
	if table == "" {
		return nil, errors.New("TABLE_NAME is not set")
	}
	client, err := dynamo.NewClient(ctx, strings.TrimSpace(getenv("DYNAMODB_ENDPOINT")))
	if err != nil {
		return nil, err
	}
	// No business cache: expiring a request reads no business.
	mover := booking.NewMover(dynamo.New(client, table), time.Now)
	return sweepHandler(mover, time.Now, Logger()), nil
}

// sweepHandler sweeps at each event's time. It fails, so that Lambda runs it
// again, only when the sweep failed or the event has no usable time.
func sweepHandler(mover *booking.Mover, clock func() time.Time, log *slog.Logger) SweepHandler {
	return func(ctx context.Context, e events.EventBridgeEvent) (SweepReport, error) {
		if e.Time.IsZero() {
			return SweepReport{}, errors.New("the event has no time; send a scheduled event such as events/expire-holds.json")
		}
		if lead := e.Time.Sub(clock()); lead > maxClockLead {
			return SweepReport{}, fmt.Errorf("the event's time %s is %s ahead of the clock; refusing to expire holds early",
				e.Time.UTC().Format(time.RFC3339), lead.Round(time.Second))
		}
		log := log // this invocation's: a warm function serves many
		if lc, ok := lambdacontext.FromContext(ctx); ok {
			log = log.With(slog.String("request_id", lc.AwsRequestID))
		}
		if deadline, ok := ctx.Deadline(); ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, deadline.Add(-stopEarly))
			defer cancel()
		}
		return Sweep(ctx, mover, e.Time, log)
	}
}

// Sweep expires every payment hold lapsed at now and logs one JSON line:
// how many requests it expired, how many another mover had moved first,
// and how long it took. The sweeper function runs it on each scheduled
// event; the local server runs it on a ticker.
func Sweep(ctx context.Context, mover *booking.Mover, now time.Time, log *slog.Logger) (SweepReport, error) {
	start := time.Now()
	res, err := mover.ExpireLapsed(ctx, now)
	report := SweepReport{
		Now:        now.UTC(),
		Expired:    res.Expired,
		Skipped:    res.Skipped,
		DurationMS: float64(time.Since(start).Microseconds()) / 1000,
	}
	attrs := []slog.Attr{
		slog.Time("now", report.Now),
		slog.Int("expired", report.Expired),
		slog.Int("skipped", report.Skipped),
		slog.Float64("duration_ms", report.DurationMS),
	}
	if err != nil {
		log.LogAttrs(ctx, slog.LevelError, "sweep", append(attrs, slog.String("error", err.Error()))...)
		return report, fmt.Errorf("sweep at %s: %w", report.Now.Format(time.RFC3339), err)
	}
	log.LogAttrs(ctx, slog.LevelInfo, "sweep", attrs...)
	return report, nil
}
