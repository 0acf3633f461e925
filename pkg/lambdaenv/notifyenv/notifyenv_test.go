package notifyenv_test

import (
	"context"
	"errors"
	"testing"

	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/lambdaenv/notifyenv"
)

func TestSenders(t *testing.T) {
	tests := []struct {
		name     string
		env      map[string]string
		identity string
		wantSMS  bool
		wantErr  bool
	}{
		{"texts on", map[string]string{"AWS_ACCESS_KEY_ID": "A", "AWS_SECRET_ACCESS_KEY": "s"}, "+18005550199", true, false},
		{"no origination identity: texts off", map[string]string{"AWS_ACCESS_KEY_ID": "A", "AWS_SECRET_ACCESS_KEY": "s"}, "", false, false},
		{"no credentials fails at start", nil, "+18005550199", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string { return tt.env[k] }
			c := lambdaenv.NotifyConfig{SenderEmail: "notify@book.example.com", SMSOriginationIdentity: tt.identity}
			email, err := notifyenv.Email(context.Background(), getenv, c)
			sms, smsErr := notifyenv.SMS(context.Background(), getenv, c)
			err = errors.Join(err, smsErr)
			if tt.wantErr {
				if err == nil {
					t.Fatal("got nil error, want one")
				}
				return
			}
			if err != nil || email == nil {
				t.Fatalf("got e-mail sender %v, %v; want one", email, err)
			}
			if got := sms != nil; got != tt.wantSMS {
				t.Errorf("got an SMS sender %v, want %v", got, tt.wantSMS)
			}
		})
	}
}
