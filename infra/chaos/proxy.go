package main

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// fault is a kind of fault the proxy injects into a call to DynamoDB.
type fault int

const (
	faultNone fault = iota
	faultThrottling
	faultThroughput
	fault500
	fault503
	faultLatency
	faultLostAnswer
	faultKinds
)

// faultNames name the faults in the report, in its order.
var faultNames = [faultKinds]string{
	faultNone:       "none",
	faultThrottling: "ThrottlingException (400)",
	faultThroughput: "ProvisionedThroughputExceededException (400)",
	fault500:        "InternalServerError (500)",
	fault503:        "ServiceUnavailable (503)",
	faultLatency:    "latency spike (100-600 ms)",
	faultLostAnswer: "answer lost after the write (connection closed)",
}

// errorBodies are DynamoDB's own error answers, as its JSON protocol
// sends them: the x-amzn-ErrorType header, and a body whose __type the
// SDK reads the code from.
var errorBodies = map[fault]struct {
	status  int
	errType string
	message string
}{
	faultThrottling: {400, "ThrottlingException", "Rate of requests exceeds the allowed throughput."},
	faultThroughput: {400, "ProvisionedThroughputExceededException",
		"The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API."},
	fault500: {500, "InternalServerError", "Internal server error"},
	fault503: {503, "ServiceUnavailable", "Service unavailable"},
}

// proxy stands between the SDK's DynamoDB client and DynamoDB Local and
// injects, at rate, one fault of faultKinds chosen by its seeded random
// source. A lost answer is the call forwarded, applied by DynamoDB Local,
// and its connection closed before any byte of the answer.
type proxy struct {
	upstream string // DynamoDB Local's endpoint, http://127.0.0.1:port
	rate     float64
	client   *http.Client
	on       atomic.Bool // faults are injected only while on

	mu  sync.Mutex
	rng *rand.Rand
	// script, when not empty, gives the faults of the next calls in
	// order, before the random source: for tests.
	script []fault

	calls  atomic.Int64
	counts [faultKinds]atomic.Int64
	// lost counts the lost answers by operation (X-Amz-Target's).
	lostMu sync.Mutex
	lost   map[string]int
}

func newProxy(upstream string, rate float64, seed uint64) *proxy {
	return &proxy{
		upstream: strings.TrimSuffix(upstream, "/"),
		rate:     rate,
		client:   &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}},
		rng:      rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)),
		lost:     map[string]int{},
	}
}

// choose draws the fault of one call, and a latency spike's length.
func (p *proxy) choose() (fault, time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.script) > 0 {
		f := p.script[0]
		p.script = p.script[1:]
		return f, 100 * time.Millisecond
	}
	if p.rng.Float64() >= p.rate {
		return faultNone, 0
	}
	f := fault(1 + p.rng.IntN(int(faultKinds)-1))
	return f, time.Duration(100+p.rng.IntN(500)) * time.Millisecond
}

func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	p.calls.Add(1)
	f, spike := faultNone, time.Duration(0)
	if p.on.Load() {
		f, spike = p.choose()
	}
	p.counts[f].Add(1)
	if e, ok := errorBodies[f]; ok {
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.Header().Set("x-amzn-ErrorType", e.errType)
		w.Header().Set("x-amzn-RequestId", fmt.Sprintf("CHAOS%016X", p.calls.Load()))
		w.WriteHeader(e.status)
		fmt.Fprintf(w, `{"__type":"com.amazonaws.dynamodb.v20120810#%s","message":%q}`, e.errType, e.message)
		return
	}
	if f == faultLatency {
		time.Sleep(spike)
	}
	up, err := http.NewRequestWithContext(r.Context(), r.Method, p.upstream+r.URL.RequestURI(), bytes.NewReader(body))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	for k, vs := range r.Header {
		up.Header[k] = vs
	}
	resp, err := p.client.Do(up)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	answer, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	if f == faultLostAnswer {
		// DynamoDB Local has applied the call; the caller never hears so.
		op := strings.TrimPrefix(r.Header.Get("X-Amz-Target"), "DynamoDB_20120810.")
		p.lostMu.Lock()
		p.lost[op]++
		p.lostMu.Unlock()
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			conn.Close()
			return
		}
		panic(http.ErrAbortHandler) // closes the connection all the same
	}
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	w.WriteHeader(resp.StatusCode)
	w.Write(answer)
}
