package dynamo_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
)

// A call that DynamoDB throttles, fails on its side (5xx) or whose
// connection is lost on every attempt the SDK makes is SERVER_BUSY, which
// every edge answers 503 with Retry-After; any other failure stays
// SERVER_ERROR. (infra/chaos found these answered as bare 500s.)
func TestBusyFailures(t *testing.T) {
	dynamoError := func(status int, errType string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/x-amz-json-1.0")
			w.Header().Set("x-amzn-ErrorType", errType)
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"__type":"com.amazonaws.dynamodb.v20120810#%s","message":"injected"}`, errType)
		}
	}
	tests := []struct {
		name      string
		answer    http.HandlerFunc
		wantCode  booking.Code
		wantCalls int64
	}{
		{"ThrottlingException", dynamoError(400, "ThrottlingException"), booking.ServerBusy, 3},
		{"ProvisionedThroughputExceededException", dynamoError(400, "ProvisionedThroughputExceededException"), booking.ServerBusy, 3},
		{"RequestLimitExceeded", dynamoError(400, "RequestLimitExceeded"), booking.ServerBusy, 3},
		{"TransactionInProgressException", dynamoError(400, "TransactionInProgressException"), booking.ServerBusy, 3},
		{"500", dynamoError(500, "InternalServerError"), booking.ServerBusy, 3},
		{"503", dynamoError(503, "ServiceUnavailable"), booking.ServerBusy, 3},
		{"connection closed before the answer", func(w http.ResponseWriter, r *http.Request) {
			conn, _, err := http.NewResponseController(w).Hijack()
			if err != nil {
				panic(err)
			}
			conn.Close()
		}, booking.ServerBusy, 3},
		{"ValidationException", dynamoError(400, "ValidationException"), booking.ServerError, 1},
		{"ResourceNotFoundException", dynamoError(400, "ResourceNotFoundException"), booking.ServerError, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				tt.answer(w, r)
			}))
			defer srv.Close()
			client := dynamodb.NewFromConfig(aws.Config{Credentials: dynamo.LocalCredentials(), Region: dynamo.DefaultRegion}, func(o *dynamodb.Options) {
				o.BaseEndpoint = aws.String(srv.URL)
				o.Retryer = retry.NewStandard(func(o *retry.StandardOptions) {
					o.RateLimiter = ratelimit.None
					o.Backoff = retry.BackoffDelayerFunc(func(int, error) (time.Duration, error) { return time.Millisecond, nil })
				})
			})
			_, err := dynamo.New(client, "doorstep").Request(context.Background(), "ABCD-EFGH-JKMN")
			if got := booking.ErrorCode(err); got != tt.wantCode {
				t.Errorf("code: got %s (%v), want %s", got, err, tt.wantCode)
			}
			if got := calls.Load(); got != tt.wantCalls {
				t.Errorf("calls: got %d, want %d", got, tt.wantCalls)
			}
			if tt.wantCode == booking.ServerBusy && booking.RetryAfter(err) <= 0 {
				t.Errorf("RetryAfter: got %s, want more than 0", booking.RetryAfter(err))
			}
		})
	}
}
