package iamcheck

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestMatchResource(t *testing.T) {
	tests := []struct {
		pattern, arn string
		want         bool
	}{
		{"*", "arn:aws:dynamodb:us-east-1:123456789012:table/t", true},
		{"arn:aws:dynamodb:us-east-1:123456789012:table/t", "arn:aws:dynamodb:us-east-1:123456789012:table/t", true},
		{"arn:aws:dynamodb:us-east-1:123456789012:table/t", "arn:aws:dynamodb:us-east-1:123456789012:table/t/index/inbox", false},
		{"arn:aws:dynamodb:us-east-1:123456789012:table/t*", "arn:aws:dynamodb:us-east-1:123456789012:table/t/index/inbox", true},
		{"arn:aws:dynamodb:us-east-1:123456789012:table/t/index/inbox", "arn:aws:dynamodb:us-east-1:123456789012:table/t/index/sweep", false},
		{"arn:aws:dynamodb:us-east-1:123456789012:table/T", "arn:aws:dynamodb:us-east-1:123456789012:table/t", false}, // case-sensitive
		{"arn:aws:dynamodb:*:123456789012:table/t", "arn:aws:dynamodb:eu-west-1:123456789012:table/t", true},
		{"arn:aws:dynamodb:*:123456789012:table/t", "arn:aws:dynamodb:eu-west-1:999999999999:table/t", false},
		{"arn:aws:secretsmanager:us-east-1:123456789012:secret:s-??????", "arn:aws:secretsmanager:us-east-1:123456789012:secret:s-AbCdEf", true},
		{"arn:aws:secretsmanager:us-east-1:123456789012:secret:s-??????", "arn:aws:secretsmanager:us-east-1:123456789012:secret:s-other-AbCdEf", false},
		{"arn:aws:sms-voice:us-east-1:123456789012:phone-number/*", "arn:aws:sms-voice:us-east-1:123456789012:phone-number/15555550100", true},
	}
	for _, tt := range tests {
		t.Run(tt.pattern+" "+tt.arn, func(t *testing.T) {
			if got := matchResource(tt.pattern, tt.arn); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestMatchAction(t *testing.T) {
	tests := []struct {
		pattern, action string
		want            bool
	}{
		{"dynamodb:Query", "dynamodb:Query", true},
		{"DynamoDB:query", "dynamodb:Query", true}, // actions ignore case
		{"dynamodb:Get*", "dynamodb:GetItem", true},
		{"dynamodb:Get*", "dynamodb:PutItem", false},
		{"dynamodb:*", "ses:SendEmail", false},
	}
	for _, tt := range tests {
		t.Run(tt.pattern+" "+tt.action, func(t *testing.T) {
			if got := matchAction(tt.pattern, tt.action); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestTemplate resolves template.yaml's policies: a condition turns a
// policy on or off, !Sub and !Select resolve, and a call is judged by them.
func TestTemplate(t *testing.T) {
	const secret = "arn:aws:secretsmanager:us-east-1:123456789012:secret:doorstep/stripe"
	d := func(params map[string]string) Deployment {
		params["SenderEmail"] = "notify@mail.example.com"
		return Deployment{Partition: "aws", Region: "us-east-1", AccountID: "123456789012", Parameters: params,
			Names: map[string]string{"DoorstepTable": "doorstep", "NotifyDeadLetterQueue": "dlq", "RefundDeadLetterQueue": "rdlq",
				"MailConfigurationSet": "doorstep-mail", "MailEventsDeadLetterQueue": "mdlq"}}
	}
	table := "arn:aws:dynamodb:us-east-1:123456789012:table/doorstep"
	tests := []struct {
		name, function string
		params         map[string]string
		call           Call
		wantErr        string // "" when allowed
	}{
		{"a table action", "GetBusinessFunction", map[string]string{}, Call{Action: "dynamodb:GetItem", Resources: []string{table}}, ""},
		{"not granted", "GetBusinessFunction", map[string]string{}, Call{Action: "dynamodb:PutItem", Resources: []string{table}, Path: "p"}, "GetBusinessFunction may not dynamodb:PutItem"},
		{"an index", "CalendarFeedFunction", map[string]string{}, Call{Action: "dynamodb:Query", Resources: []string{table + "/index/inbox"}}, ""},
		{"another index", "CalendarFeedFunction", map[string]string{}, Call{Action: "dynamodb:Query", Resources: []string{table + "/index/sweep"}}, "may not"},
		{"the secret with Stripe on", "RefundDepositsFunction", map[string]string{"StripeSecretArn": secret},
			Call{Action: "secretsmanager:GetSecretValue", Resources: []string{secret + "-AbCdEf"}}, ""},
		{"no secret with Stripe off", "RefundDepositsFunction", map[string]string{},
			Call{Action: "secretsmanager:GetSecretValue", Resources: []string{secret + "-AbCdEf"}}, "may not"},
		{"SES by domain (!Select of !Split)", "NotifyFunction", map[string]string{},
			Call{Action: "ses:SendEmail", Resources: []string{"arn:aws:ses:us-east-1:123456789012:identity/mail.example.com"}}, ""},
		{"SMS off", "NotifyFunction", map[string]string{},
			Call{Action: "sms-voice:SendTextMessage", Resources: []string{"arn:aws:sms-voice:us-east-1:123456789012:phone-number/1"}}, "may not"},
		{"SMS on", "NotifyFunction", map[string]string{"SmsOriginationIdentity": "+15555550100"},
			Call{Action: "sms-voice:SendTextMessage", Resources: []string{"arn:aws:sms-voice:us-east-1:123456789012:phone-number/1"}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Load(filepath.Join("..", "..", "..", "..", "template.yaml"), tt.function, d(tt.params))
			if err != nil {
				t.Fatal(err)
			}
			err = p.Check(tt.call)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("got %v, want allowed", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("got %v, want an error with %q", err, tt.wantErr)
			}
		})
	}
}
