// Package metrics writes the service's business events as CloudWatch
// Embedded Metric Format (EMF) log lines: one JSON line per event on the
// function's own log, from which CloudWatch Logs makes the metrics. No API
// call is made per request, and nothing is written that a log line may not
// hold: no code, no contact detail, no slug.
//
// Each line is a slog record (so the local server and the functions write
// the same JSON, with the same request_id), with the _aws metadata object
// and the metric at its root, as the EMF specification asks:
//
//	{"time":"...","level":"INFO","msg":"metric","_aws":{"Timestamp":1764140000000,
//	 "CloudWatchMetrics":[{"Namespace":"Doorstep","Dimensions":[[],["Code"]],
//	 "Metrics":[{"Name":"RequestsRefused","Unit":"Count"}]}]},"RequestsRefused":1,"Code":"OUT_OF_AREA"}
//
// A metric with a dimension is written under two dimension sets: none (the
// total, which the template's alarms watch) and its dimension.
package metrics

import (
	"context"
	"log/slog"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// The metrics, and the dimension each one is broken down by ("" for none).
const (
	RequestsCreated     = "RequestsCreated"     // a service request stored (a replay is not one)
	RequestsRefused     = "RequestsRefused"     // a create refused, by Code
	RequestsMoved       = "RequestsMoved"       // a move of a request stored, by Action
	NotificationsSent   = "NotificationsSent"   // a message handed to SES or SMS, by Channel
	NotificationsFailed = "NotificationsFailed" // a message that did not go out this time, by Channel
	LimitsHit           = "LimitsHit"           // a limit on strangers refused something, by Limit
	// UndeliverableRecorded: an address recorded undeliverable
	// (booking.RecordMailEvent), by Reason; SendingDisabled: SES's
	// "Sending Status Disabled" event reached mail-events.
	UndeliverableRecorded = "UndeliverableRecorded"
	SendingDisabled       = "SendingDisabled"
)

// The dimensions.
const (
	DimensionCode    = "Code"
	DimensionAction  = "Action"
	DimensionChannel = "Channel"
	DimensionLimit   = "Limit"
	DimensionReason  = "Reason"
)

// DefaultNamespace is the CloudWatch namespace when none is given.
const DefaultNamespace = "Doorstep"

// Metrics writes EMF lines to a logger. The zero value and nil write
// nothing.
type Metrics struct {
	log       *slog.Logger
	namespace string
	now       func() time.Time
}

// New returns Metrics writing to log in namespace ("" for
// DefaultNamespace), each line stamped by now.
func New(log *slog.Logger, namespace string, now func() time.Time) *Metrics {
	if namespace == "" {
		namespace = DefaultNamespace
	}
	return &Metrics{log: log, namespace: namespace, now: now}
}

// metadata is EMF's _aws object.
type metadata struct {
	Timestamp         int64       `json:"Timestamp"`
	CloudWatchMetrics []directive `json:"CloudWatchMetrics"`
}

type directive struct {
	Namespace  string       `json:"Namespace"`
	Dimensions [][]string   `json:"Dimensions"`
	Metrics    []definition `json:"Metrics"`
}

type definition struct {
	Name string `json:"Name"`
	Unit string `json:"Unit"`
}

// Count writes one line counting 1 of metric name; dimension and value
// break it down ("" for none). An empty value is written as "none", as
// CloudWatch takes no empty dimension value.
func (m *Metrics) Count(ctx context.Context, name, dimension, value string) {
	if m == nil || m.log == nil {
		return
	}
	dims := [][]string{{}}
	var extra []slog.Attr
	if dimension != "" {
		if value == "" {
			value = "none"
		}
		dims = append(dims, []string{dimension})
		extra = append(extra, slog.String(dimension, value))
	}
	meta := metadata{
		Timestamp: m.now().UnixMilli(),
		CloudWatchMetrics: []directive{{
			Namespace:  m.namespace,
			Dimensions: dims,
			Metrics:    []definition{{Name: name, Unit: "Count"}},
		}},
	}
	attrs := append([]slog.Attr{slog.Any("_aws", meta), slog.Int(name, 1)}, extra...)
	m.log.LogAttrs(ctx, slog.LevelInfo, "metric", attrs...)
}

// Metrics is the booking service's Observer (booking.Config.Observer).
var _ booking.Observer = (*Metrics)(nil)

// RequestCreated counts a stored service request.
func (m *Metrics) RequestCreated(ctx context.Context) {
	m.Count(ctx, RequestsCreated, "", "")
}

// RequestRefused counts a refused create by its code.
func (m *Metrics) RequestRefused(ctx context.Context, code booking.Code) {
	m.Count(ctx, RequestsRefused, DimensionCode, string(code))
}

// RequestMoved counts a stored move by its action.
func (m *Metrics) RequestMoved(ctx context.Context, action booking.Action) {
	m.Count(ctx, RequestsMoved, DimensionAction, string(action))
}

// LimitHit counts a refusal by a limit on strangers.
func (m *Metrics) LimitHit(ctx context.Context, limit booking.Limit) {
	m.Count(ctx, LimitsHit, DimensionLimit, string(limit))
}

// NotificationSent counts a message handed to its channel (email, sms).
func (m *Metrics) NotificationSent(ctx context.Context, channel string) {
	m.Count(ctx, NotificationsSent, DimensionChannel, channel)
}

// NotificationFailed counts a message that did not go out this time; the
// stream's retry may send it later.
func (m *Metrics) NotificationFailed(ctx context.Context, channel string) {
	m.Count(ctx, NotificationsFailed, DimensionChannel, channel)
}
