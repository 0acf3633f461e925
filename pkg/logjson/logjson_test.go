package logjson_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/logjson"
)

func TestRequestID(t *testing.T) {
	t.Cleanup(func() { logjson.SetInvocation("") })
	tests := []struct {
		name       string
		invocation string
		ctx        context.Context
		log        func(l *slog.Logger, ctx context.Context)
		want       []string // the request_id of each line; "" for none
	}{
		{"none", "", context.Background(), func(l *slog.Logger, ctx context.Context) { l.InfoContext(ctx, "a") }, []string{""}},
		{"from the context", "", logjson.WithRequestID(context.Background(), "req-1"),
			func(l *slog.Logger, ctx context.Context) { l.InfoContext(ctx, "a") }, []string{"req-1"}},
		{"from the invocation, without a context", "inv-1", context.Background(),
			func(l *slog.Logger, ctx context.Context) { l.Info("a"); l.With("k", "v").Error("b") }, []string{"inv-1", "inv-1"}},
		{"the context's before the invocation's", "inv-1", logjson.WithRequestID(context.Background(), "req-1"),
			func(l *slog.Logger, ctx context.Context) { l.WarnContext(ctx, "a") }, []string{"req-1"}},
		{"a line's own wins, once", "inv-1", context.Background(),
			func(l *slog.Logger, ctx context.Context) { l.Info("request", "request_id", "own") }, []string{"own"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logjson.SetInvocation(tt.invocation)
			var buf bytes.Buffer
			tt.log(logjson.New(&buf), tt.ctx)
			var got []string
			for text := range strings.Lines(buf.String()) {
				if strings.Count(text, `"request_id"`) > 1 {
					t.Errorf("got request_id twice: %s", text)
				}
				var line map[string]any
				if err := json.Unmarshal([]byte(text), &line); err != nil {
					t.Fatalf("not a JSON line: %s", text)
				}
				id, _ := line["request_id"].(string)
				got = append(got, id)
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("got %q, want %q:\n%s", got, tt.want, buf.String())
			}
		})
	}
}
