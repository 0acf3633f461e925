package notifyenv_test

import (
	"testing"

	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/lambdaenv/notifyenv"
)

func TestAWSSenders(t *testing.T) {
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
			senders := notifyenv.AWSSenders(func(k string) string { return tt.env[k] })
			email, sms, err := senders(lambdaenv.NotifyConfig{SenderEmail: "notify@book.example.com", SMSOriginationIdentity: tt.identity})
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
