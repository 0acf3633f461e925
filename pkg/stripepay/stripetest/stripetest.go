// Package stripetest is an httptest server that speaks the part of Stripe's
// API that Doorstep calls, as Stripe answers it (see Server).
package stripetest

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	stripe "github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"
)

// SecretKey is the API key the server accepts.
const SecretKey = "sk_test_doorstep"

// Session is a Checkout Session as the server keeps it.
type Session struct {
	ID            string
	Form          url.Values // the create call's parameters
	AmountTotal   int64
	Currency      string
	ExpiresAt     int64
	Metadata      map[string]string
	PaymentStatus string // unpaid, paid
	PaymentIntent string // set by Pay
}

// Refund is a refund the server made.
type Refund struct {
	ID             string
	PaymentIntent  string
	Metadata       map[string]string
	IdempotencyKey string
}

// Server is the fake Stripe API: Checkout Sessions (create, retrieve),
// refunds (create, idempotent on the Idempotency-Key header, and refused
// with charge_already_refunded for a payment refunded before), and Stripe's
// error shape. stripe-go talks to it through a backend whose URL is the
// server's. It checks what Stripe checks that Doorstep could get wrong: the
// secret key, a session's expires_at between 30 minutes and 24 hours ahead,
// the required fields. Payments are made by the test (Pay), as the person
// would on Stripe's page.
type Server struct {
	URL string
	Now func() time.Time // the clock expires_at is checked against

	mu       sync.Mutex
	sessions map[string]*Session
	order    []string
	refunds  []Refund
	byKey    map[string][]byte // Idempotency-Key of a refund -> the response
	refunded map[string]bool   // payment intents refunded
	failNext int               // status of the next answer, 0 for none
	requests []string          // "POST /v1/refunds", in order
}

// NewServer starts a server that stops when the test ends.
func NewServer(t testing.TB) *Server {
	s := &Server{Now: time.Now, sessions: map[string]*Session{}, byKey: map[string][]byte{}, refunded: map[string]bool{}}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// Sessions returns the sessions created so far, oldest first.
func (s *Server) Sessions() []Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Session, 0, len(s.order))
	for _, id := range s.order {
		out = append(out, *s.sessions[id])
	}
	return out
}

// Refunds returns the refunds made so far, oldest first.
func (s *Server) Refunds() []Refund {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Refund(nil), s.refunds...)
}

// Requests returns the calls the server answered, as "METHOD /path".
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// Pay marks a session paid by the payment intent pi, as the person paying
// on Stripe's page would.
func (s *Server) Pay(t testing.TB, sessionID, pi string) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.sessions[sessionID]
	if !ok {
		t.Fatalf("stripetest: no session %s", sessionID)
	}
	sess.PaymentStatus, sess.PaymentIntent = "paid", pi
}

// ForgetKeys forgets the idempotency keys seen, as Stripe does after 24
// hours.
func (s *Server) ForgetKeys() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byKey = map[string][]byte{}
}

// FailNext makes the next call answer status with Stripe's api_error,
// telling the client not to retry it (Stripe-Should-Retry: false).
func (s *Server) FailNext(status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failNext = status
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r.Method+" "+r.URL.Path)
	if r.Header.Get("Authorization") != "Bearer "+SecretKey {
		stripeError(w, http.StatusUnauthorized, "invalid_request_error", "", "Invalid API Key provided")
		return
	}
	if s.failNext != 0 {
		status := s.failNext
		s.failNext = 0
		w.Header().Set("Stripe-Should-Retry", "false")
		stripeError(w, status, "api_error", "", "Something went wrong on Stripe's end.")
		return
	}
	if err := r.ParseForm(); err != nil {
		stripeError(w, http.StatusBadRequest, "invalid_request_error", "", err.Error())
		return
	}
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/checkout/sessions":
		s.createSession(w, r.PostForm)
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/checkout/sessions/"):
		sess, ok := s.sessions[strings.TrimPrefix(r.URL.Path, "/v1/checkout/sessions/")]
		if !ok {
			stripeError(w, http.StatusNotFound, "invalid_request_error", "resource_missing", "No such checkout.session")
			return
		}
		writeJSON(w, http.StatusOK, sessionJSON(sess))
	case r.Method == http.MethodPost && r.URL.Path == "/v1/refunds":
		s.createRefund(w, r.PostForm, r.Header.Get("Idempotency-Key"))
	default:
		stripeError(w, http.StatusNotFound, "invalid_request_error", "", "Unrecognized request URL ("+r.Method+": "+r.URL.Path+")")
	}
}

func (s *Server) createSession(w http.ResponseWriter, f url.Values) {
	for _, name := range []string{"mode", "success_url", "line_items[0][quantity]", "line_items[0][price_data][currency]",
		"line_items[0][price_data][unit_amount]", "line_items[0][price_data][product_data][name]"} {
		if f.Get(name) == "" {
			stripeError(w, http.StatusBadRequest, "invalid_request_error", "parameter_missing", "Missing required param: "+name)
			return
		}
	}
	amount, err := strconv.ParseInt(f.Get("line_items[0][price_data][unit_amount]"), 10, 64)
	if err != nil {
		stripeError(w, http.StatusBadRequest, "invalid_request_error", "parameter_invalid_integer", "Invalid integer: unit_amount")
		return
	}
	qty, _ := strconv.ParseInt(f.Get("line_items[0][quantity]"), 10, 64)
	sess := &Session{
		ID: fmt.Sprintf("cs_test_%04d", len(s.order)+1), Form: f, AmountTotal: amount * qty,
		Currency: f.Get("line_items[0][price_data][currency]"), Metadata: metadata(f, "metadata"), PaymentStatus: "unpaid",
	}
	now := s.Now().Unix()
	sess.ExpiresAt = now + 24*60*60
	if v := f.Get("expires_at"); v != "" {
		at, err := strconv.ParseInt(v, 10, 64)
		switch {
		case err != nil:
			stripeError(w, http.StatusBadRequest, "invalid_request_error", "parameter_invalid_integer", "Invalid integer: expires_at")
			return
		case at < now+30*60 || at > now+24*60*60:
			// Stripe's rule: from 30 minutes to 24 hours after creation.
			stripeError(w, http.StatusBadRequest, "invalid_request_error", "parameter_invalid_integer",
				"The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.")
			return
		}
		sess.ExpiresAt = at
	}
	s.sessions[sess.ID] = sess
	s.order = append(s.order, sess.ID)
	writeJSON(w, http.StatusOK, sessionJSON(sess))
}

func (s *Server) createRefund(w http.ResponseWriter, f url.Values, key string) {
	if body, ok := s.byKey[key]; ok && key != "" {
		// Stripe answers a repeated key with the first answer.
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Idempotent-Replayed", "true")
		w.Write(body)
		return
	}
	pi := f.Get("payment_intent")
	if pi == "" {
		stripeError(w, http.StatusBadRequest, "invalid_request_error", "parameter_missing", "Missing required param: payment_intent or charge")
		return
	}
	if s.refunded[pi] {
		stripeError(w, http.StatusBadRequest, "invalid_request_error", "charge_already_refunded",
			"Charge ch_for_"+pi+" has already been refunded.")
		return
	}
	s.refunded[pi] = true
	ref := Refund{ID: fmt.Sprintf("re_test_%04d", len(s.refunds)+1), PaymentIntent: pi, Metadata: metadata(f, "metadata"), IdempotencyKey: key}
	s.refunds = append(s.refunds, ref)
	body, _ := json.Marshal(map[string]any{
		"id": ref.ID, "object": "refund", "status": "succeeded", "payment_intent": pi, "metadata": ref.Metadata,
	})
	if key != "" {
		s.byKey[key] = body
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}

func sessionJSON(sess *Session) map[string]any {
	var pi any
	if sess.PaymentIntent != "" {
		pi = sess.PaymentIntent
	}
	status := "open"
	if sess.PaymentStatus == "paid" {
		status = "complete"
	}
	return map[string]any{
		"id": sess.ID, "object": "checkout.session", "mode": "payment",
		"url":          "https://checkout.stripe.com/c/pay/" + sess.ID,
		"amount_total": sess.AmountTotal, "currency": sess.Currency, "expires_at": sess.ExpiresAt,
		"metadata": sess.Metadata, "client_reference_id": sess.Form.Get("client_reference_id"),
		"payment_status": sess.PaymentStatus, "status": status, "payment_intent": pi,
	}
}

// metadata collects the form's prefix[key] values.
func metadata(f url.Values, prefix string) map[string]string {
	m := map[string]string{}
	for k, v := range f {
		if strings.HasPrefix(k, prefix+"[") && strings.HasSuffix(k, "]") {
			m[strings.TrimSuffix(strings.TrimPrefix(k, prefix+"["), "]")] = v[0]
		}
	}
	return m
}

func stripeError(w http.ResponseWriter, status int, typ, code, msg string) {
	e := map[string]any{"type": typ, "message": msg}
	if code != "" {
		e["code"] = code
	}
	writeJSON(w, status, map[string]any{"error": e})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// WebhookSecret is the signing secret of the test webhook endpoint.
const WebhookSecret = "whsec_doorstep_test"

// Event returns a webhook event of type typ about sess, as Stripe sends it:
// the session in data.object, at the API version stripe-go speaks.
func Event(id, typ string, sess Session) []byte {
	data, _ := json.Marshal(map[string]any{
		"id": id, "object": "event", "type": typ, "api_version": stripe.APIVersion,
		"created": 1795536000, "livemode": false, "pending_webhooks": 1,
		"data": map[string]any{"object": sessionJSON(&sess)},
	})
	return data
}

// Sign returns the Stripe-Signature header of payload signed with secret
// now, built by stripe-go's own test helper as Stripe builds it.
func Sign(payload []byte, secret string) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret}).Header
}

// SecretsManager starts a stand-in for AWS Secrets Manager's
// GetSecretValue that holds one secret, arn, whose SecretString is value:
// the Stripe keys as the functions read them at start. It refuses a call
// that is not signed with Signature Version 4 for secretsmanager, as AWS
// does, and any other secret. It returns its URL.
func SecretsManager(t testing.TB, arn, value string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fail := func(status int, typ, msg string) {
			w.Header().Set("Content-Type", "application/x-amz-json-1.1")
			w.WriteHeader(status)
			json.NewEncoder(w).Encode(map[string]string{"__type": typ, "message": msg})
		}
		auth := r.Header.Get("Authorization")
		if !strings.HasPrefix(auth, "AWS4-HMAC-SHA256 Credential=") || !strings.Contains(auth, "/secretsmanager/aws4_request") ||
			r.Header.Get("X-Amz-Date") == "" {
			fail(http.StatusBadRequest, "MissingAuthenticationTokenException", "Missing Authentication Token")
			return
		}
		if r.Header.Get("X-Amz-Target") != "secretsmanager.GetSecretValue" {
			fail(http.StatusBadRequest, "UnknownOperationException", "")
			return
		}
		var in struct{ SecretId string }
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.SecretId != arn {
			fail(http.StatusBadRequest, "ResourceNotFoundException", "Secrets Manager can't find the specified secret.")
			return
		}
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		json.NewEncoder(w).Encode(map[string]any{"ARN": arn, "Name": "doorstep/stripe", "SecretString": value})
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// Keys is the SecretString of the test secret: the test keys as JSON.
const Keys = `{"secret_key":"` + SecretKey + `","webhook_secret":"` + WebhookSecret + `"}`

// SecretARN is the Stripe secret's ARN in the environments of Env.
const SecretARN = "arn:aws:secretsmanager:us-west-2:123456789012:secret:doorstep/stripe-AbCdEf"

// Env is a function's environment (as os.Getenv reads it) with the Stripe
// secret, value, in a SecretsManager stand-in under SecretARN, and the AWS
// credentials Lambda sets; edits add or replace variables.
func Env(t testing.TB, value string, edits map[string]string) func(string) string {
	vars := map[string]string{
		"STRIPE_SECRET_ARN":        SecretARN,
		"SECRETS_MANAGER_ENDPOINT": SecretsManager(t, SecretARN, value),
		"AWS_ACCESS_KEY_ID":        "AKIDEXAMPLE",
		"AWS_SECRET_ACCESS_KEY":    "secret",
		"AWS_SESSION_TOKEN":        "token",
	}
	maps.Copy(vars, edits)
	return func(k string) string { return vars[k] }
}
