// Package sweep is the sweeper: it expires every payment hold that has
// lapsed and every new request still unanswered when its window starts, and
// records the reminder of every accepted visit whose reminder is due
// (booking.Bookings.SendReminders; notify sends it), and erases the
// personal details of the requests that ended long enough ago
// (booking.Bookings.ErasePersonalData), on
// each scheduled event (functions/expire-holds) or on a ticker
// (infra/local).
package sweep

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambdacontext"

	"github.com/doorstep/doorstep/pkg/booking"
)

// Report is what one sweep did; the handler returns it (sam local
// invoke prints it) and logs it.
type Report struct {
	Now      time.Time `json:"now"`
	Expired  int       `json:"expired"`
	Skipped  int       `json:"skipped"`
	Reminded int       `json:"reminded"`
	// Nudged are the businesses reminded of a request still unanswered.
	Nudged int `json:"nudged"`
	// RemindSkipped are the reminders another sweep (or a move) took first.
	RemindSkipped int `json:"remind_skipped"`
	// Erased are the ended requests whose personal details this sweep
	// erased (booking.Bookings.ErasePersonalData); EraseSkipped those
	// someone erased or changed first.
	Erased       int     `json:"erased"`
	EraseSkipped int     `json:"erase_skipped"`
	DurationMS   float64 `json:"duration_ms"`
}

// maxClockLead is how far an event's time may be ahead of the function's
// own clock. EventBridge sends the time the rule fired, which is in the
// past; one much later can only be made by hand, and would expire holds
// that have not lapsed.
const maxClockLead = time.Minute

// stopEarly is how long before the invocation's deadline a sweep stops, so
// that it still logs what it did; the next sweep goes on from there.
const stopEarly = 2 * time.Second

// Handler sweeps at each event's time; clock is the function's own. It
// fails, so that Lambda runs it again, only when the sweep failed or the
// event has no usable time.
func Handler(bookings *booking.Bookings, clock func() time.Time, log *slog.Logger) func(context.Context, events.EventBridgeEvent) (Report, error) {
	return func(ctx context.Context, e events.EventBridgeEvent) (Report, error) {
		if e.Time.IsZero() {
			return Report{}, errors.New("the event has no time; send a scheduled event such as events/expire-holds.json")
		}
		if lead := e.Time.Sub(clock()); lead > maxClockLead {
			return Report{}, fmt.Errorf("the event's time %s is %s ahead of the clock; refusing to expire holds early",
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
		return Sweep(ctx, bookings, e.Time, log)
	}
}

// Sweep expires every payment hold lapsed at now, records every reminder
// due at now, and logs one JSON line: how many requests it expired and
// reminded, how many another mover had moved first, and how long it took. The sweeper function runs it on each scheduled
// event; the local server runs it on a ticker.
func Sweep(ctx context.Context, bookings *booking.Bookings, now time.Time, log *slog.Logger) (Report, error) {
	start := time.Now()
	res, err := bookings.ExpireLapsed(ctx, now)
	// Reminders even when some expiry failed: they are another matter.
	rem, remErr := bookings.SendReminders(ctx, now)
	err = errors.Join(err, remErr)
	// Personal details kept long enough: erased, at most a bounded batch a sweep.
	erased, eraseErr := bookings.ErasePersonalData(ctx, now)
	err = errors.Join(err, eraseErr)
	report := Report{
		Now:           now.UTC(),
		Expired:       res.Expired,
		Skipped:       res.Skipped,
		Reminded:      rem.Reminded,
		Nudged:        rem.Nudged,
		RemindSkipped: rem.Skipped,
		Erased:        erased.Erased,
		EraseSkipped:  erased.Skipped,
		DurationMS:    float64(time.Since(start).Microseconds()) / 1000,
	}
	attrs := []slog.Attr{
		slog.Time("now", report.Now),
		slog.Int("expired", report.Expired),
		slog.Int("skipped", report.Skipped),
		slog.Int("reminded", report.Reminded),
		slog.Int("nudged", report.Nudged),
		slog.Int("remind_skipped", report.RemindSkipped),
		slog.Int("erased", report.Erased),
		slog.Int("erase_skipped", report.EraseSkipped),
		slog.Float64("duration_ms", report.DurationMS),
	}
	if err != nil {
		log.LogAttrs(ctx, slog.LevelError, "sweep", append(attrs, slog.String("error", err.Error()))...)
		return report, fmt.Errorf("sweep at %s: %w", report.Now.Format(time.RFC3339), err)
	}
	log.LogAttrs(ctx, slog.LevelInfo, "sweep", attrs...)
	return report, nil
}
