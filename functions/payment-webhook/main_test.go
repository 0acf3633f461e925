package main

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
	"github.com/doorstep/doorstep/pkg/stripepay/stripetest"
)

const (
	sampleCode    = "DEM0-PAY0-0001"       // the request events/payment-webhook.json pays
	samplePayment = "pi_test_DEM0PAY00001" // and its PaymentIntent
)

// resigned returns the event with its body signed now, as Stripe signs a
// delivery: the sample's own signature is from 2026-01-01, too old to pass.
func resigned(t *testing.T, event []byte) []byte {
	t.Helper()
	return lambdatest.Edit(t, event, func(e *events.APIGatewayV2HTTPRequest) {
		e.Headers["stripe-signature"] = stripetest.Sign([]byte(e.Body), stripetest.WebhookSecret)
	})
}

// storeDue stores the request code: Austin Rapid Plumbing's $49 deposit,
// due, for its first open window.
func storeDue(t *testing.T, env *lambdatest.Env, code string) {
	t.Helper()
	now := time.Now().UTC().Truncate(time.Second)
	w := env.FirstOpenWindow(t, "austin-rapid-plumbing")
	r := booking.Request{
		Code: code, BusinessSlug: "austin-rapid-plumbing", Status: booking.StatusPendingPayment,
		ServiceName: booking.LocalText{EN: "Leak repair", ES: "Reparación de fugas"}, Window: w,
		Address: booking.Address{Street: "1 Sample St", ZIP: "78701"}, Contact: booking.Contact{Name: "Sample Person", Phone: "5125550100"},
		Urgency: "soon", Language: "en", Created: now, HoldExpires: now.Add(30 * time.Minute),
		Deposit: &booking.DepositRecord{AmountCents: 4900, Currency: "usd", FreeCancellationHours: 24, State: booking.DepositDue, Since: now},
	}
	if err := env.Store.CreateRequest(context.Background(), r, nil, bookingtest.Unlimited, now); err != nil {
		t.Fatal(err)
	}
}

func TestEvents(t *testing.T) {
	env := lambdatest.NewEnv(t)
	const arn = "arn:aws:secretsmanager:us-east-1:123456789012:secret:doorstep/stripe-AbCdEf"
	env.Vars["STRIPE_SECRET_ARN"] = arn
	env.Vars["SECRETS_MANAGER_ENDPOINT"] = stripetest.SecretsManager(t, arn, stripetest.Keys)
	env.Vars["STRIPE_API_URL"] = stripetest.NewServer(t).URL

	storeDue(t, env, sampleCode) // the request the sample pays
	h, err := newHandler(env.Record(t, "PaymentWebhookFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	sample := lambdatest.Event(t, "payment-webhook.json")

	if res := lambdatest.InvokeHTTP(t, h, sample); res.StatusCode != 400 {
		t.Errorf("the sample as stored (signed 2026-01-01): got %d, want 400", res.StatusCode)
	}
	for i := range 2 { // delivered twice: paid once
		res := lambdatest.InvokeHTTP(t, h, resigned(t, sample))
		if res.StatusCode != 200 || !strings.Contains(res.Body, "done") {
			t.Fatalf("delivery %d: got %d %s, want 200", i+1, res.StatusCode, res.Body)
		}
	}
	got, err := env.Store.Request(context.Background(), sampleCode)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != booking.StatusNew || got.Deposit.State != booking.DepositPaid || got.Deposit.PaymentRef != samplePayment || len(got.History) != 1 {
		t.Errorf("got %s, deposit %+v, %d events; want new, paid by %s, one pay event", got.Status, got.Deposit, len(got.History), samplePayment)
	}
}

// The person's way to Stripe and back: events/payment-webhook-checkout.json
// opens a Checkout Session with the keys read from Secrets Manager and
// sends the person there; Stripe's success_url, once paid, moves the
// request on and sends the person to the status page.
func TestCheckoutAndReturn(t *testing.T) {
	const code = "DEM0-PAY0-0002" // the request the sample opens a session for
	env := lambdatest.NewEnv(t)
	const arn = "arn:aws:secretsmanager:us-east-1:123456789012:secret:doorstep/stripe-AbCdEf"
	stripe := stripetest.NewServer(t)
	env.Vars["STRIPE_SECRET_ARN"] = arn
	env.Vars["SECRETS_MANAGER_ENDPOINT"] = stripetest.SecretsManager(t, arn, stripetest.Keys)
	env.Vars["STRIPE_API_URL"] = stripe.URL
	storeDue(t, env, code)
	h, err := newHandler(env.Record(t, "PaymentWebhookFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}

	res := lambdatest.InvokeHTTP(t, h, lambdatest.Event(t, "payment-webhook-checkout.json"))
	sessions := stripe.Sessions()
	if res.StatusCode != http.StatusSeeOther || len(sessions) != 1 || res.Headers["Location"] != "https://checkout.stripe.com/c/pay/"+sessions[0].ID {
		t.Fatalf("got %d to %q with %d sessions, want 303 to the session", res.StatusCode, res.Headers["Location"], len(sessions))
	}
	s := sessions[0]
	if s.Metadata["request_code"] != code || s.Form.Get("success_url") != lambdatest.SiteURL+"/pay/"+code+"/return?session_id={CHECKOUT_SESSION_ID}" {
		t.Errorf("got a session for %q back to %q, want %s back to /pay/%s/return", s.Metadata["request_code"], s.Form.Get("success_url"), code, code)
	}

	stripe.Pay(t, s.ID, "pi_test_back")
	back := lambdatest.Edit(t, lambdatest.Event(t, "payment-webhook-checkout.json"), func(e *events.APIGatewayV2HTTPRequest) {
		e.RouteKey, e.RequestContext.RouteKey = "GET /pay/{code}/return", "GET /pay/{code}/return"
		e.RawPath = "/pay/" + code + "/return"
		e.RequestContext.HTTP.Path, e.RawQueryString = e.RawPath, "session_id="+s.ID
	})
	res = lambdatest.InvokeHTTP(t, h, back)
	if res.StatusCode != http.StatusSeeOther || res.Headers["Location"] != "/r/"+code+"?done=paid" {
		t.Fatalf("return: got %d to %q, want 303 to /r/%s?done=paid", res.StatusCode, res.Headers["Location"], code)
	}
	got, err := env.Store.Request(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != booking.StatusNew || got.Deposit.PaymentRef != "pi_test_back" {
		t.Errorf("got %s paid by %q, want new paid by pi_test_back", got.Status, got.Deposit.PaymentRef)
	}
}

// A stack deployed without Stripe (STRIPE_SECRET_ARN empty): the function
// starts; the webhook answers 404 and changes nothing; the way to Stripe
// leads back to the status page, which says the payment cannot be opened.
func TestWithoutStripe(t *testing.T) {
	env := lambdatest.NewEnv(t)
	env.Vars["STRIPE_SECRET_ARN"] = ""
	storeDue(t, env, sampleCode)
	h, err := newHandler(env.Record(t, "PaymentWebhookFunction"), env.Getenv)
	if err != nil {
		t.Fatalf("got %v, want the function to start without Stripe", err)
	}
	if res := lambdatest.InvokeHTTP(t, h, resigned(t, lambdatest.Event(t, "payment-webhook.json"))); res.StatusCode != http.StatusNotFound {
		t.Errorf("webhook: got %d %s, want 404", res.StatusCode, res.Body)
	}
	got, err := env.Store.Request(context.Background(), sampleCode)
	if err != nil || got.Status != booking.StatusPendingPayment {
		t.Errorf("got %v, %v; want the request still pending_payment", got.Status, err)
	}
	res := lambdatest.InvokeHTTP(t, h, lambdatest.Event(t, "payment-webhook-checkout.json"))
	if res.StatusCode != http.StatusSeeOther || !strings.HasSuffix(res.Headers["Location"], "?done=unavailable") {
		t.Errorf("checkout: got %d to %q, want 303 to the status page, payment unavailable", res.StatusCode, res.Headers["Location"])
	}
}

// A set STRIPE_SECRET_ARN that cannot be read is a broken configuration,
// not Stripe turned off: the function fails at start.
func TestFailsAtStartOnAnUnreadableSecret(t *testing.T) {
	env := lambdatest.NewEnv(t)
	env.Vars["STRIPE_SECRET_ARN"] = "not-an-arn"
	if _, err := newHandler(context.Background(), env.Getenv); err == nil || !strings.Contains(err.Error(), "STRIPE_SECRET_ARN") {
		t.Errorf("got %v, want an error naming STRIPE_SECRET_ARN", err)
	}
}
