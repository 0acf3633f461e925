package main

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/sesv2/types"

	"github.com/doorstep/doorstep/pkg/awsenv"
)

const mailCheckSynopsis = "mail check IDENTITY [--ses-endpoint URL]"

// errMailMissing is mail check's failure: something is missing, and it
// said what.
var errMailMissing = fmt.Errorf("sending is not set up as mail providers expect; see above")

// mailCommand runs the mail subcommands.
func (c *ctl) mailCommand(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "check" {
		return usagef(mailCheckSynopsis, "mail: want check")
	}
	var endpoint string
	fs := newFlagSet("mail check")
	fs.StringVar(&endpoint, "ses-endpoint", "", "")
	pos, err := parseCommand(fs, mailCheckSynopsis, args[1:], "IDENTITY")
	if err != nil {
		return err
	}
	identity := strings.TrimSpace(pos[0])
	if identity == "" {
		return usagef(mailCheckSynopsis, "name the identity: the SenderDomain (or the SenderEmail) the stack sends from")
	}
	client, err := c.sesClient(ctx, endpoint)
	if err != nil {
		return err
	}
	return c.mailCheck(ctx, client, identity)
}

// sesClient makes the SES v2 client: with an endpoint (a stand-in for SES),
// the fixed local credentials; otherwise the SDK's default chain, which
// also reads AWS_ENDPOINT_URL_SESV2.
func (c *ctl) sesClient(ctx context.Context, endpoint string) (*sesv2.Client, error) {
	var cfg aws.Config
	var err error
	if endpoint != "" {
		cfg, err = awsenv.Config(ctx, c.getenv, "ses", true)
	} else {
		var opts []func(*config.LoadOptions) error
		if c.region != "" {
			opts = append(opts, config.WithRegion(c.region))
		}
		cfg, err = config.LoadDefaultConfig(ctx, opts...)
	}
	if err != nil {
		return nil, fmt.Errorf("AWS configuration: %w", err)
	}
	if c.region != "" {
		cfg.Region = c.region
	}
	return sesv2.NewFromConfig(cfg, func(o *sesv2.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
	}), nil
}

// mailCheck reads the identity (GetEmailIdentity) and the account
// (GetAccount) and prints one line per check, "ok" or "MISSING" with what
// to do, then fails when anything is missing. A domain identity is also
// looked up for its DMARC record (_dmarc.<domain> TXT).
func (c *ctl) mailCheck(ctx context.Context, client *sesv2.Client, identity string) error {
	id, err := client.GetEmailIdentity(ctx, &sesv2.GetEmailIdentityInput{EmailIdentity: aws.String(identity)})
	if err != nil {
		return fmt.Errorf("read SES identity %s: %w", identity, err)
	}
	account, err := client.GetAccount(ctx, &sesv2.GetAccountInput{})
	if err != nil {
		return fmt.Errorf("read the SES account: %w", err)
	}
	missing := 0
	check := func(ok bool, what, todo string) {
		if ok {
			fmt.Fprintf(c.stdout, "ok       %s\n", what)
			return
		}
		missing++
		fmt.Fprintf(c.stdout, "MISSING  %s: %s\n", what, todo)
	}
	domain := id.IdentityType == types.IdentityTypeDomain
	check(id.VerifiedForSendingStatus && id.VerificationStatus == types.VerificationStatusSuccess,
		fmt.Sprintf("%s verified (%s)", identity, noneIf(string(id.VerificationStatus))),
		"add the DKIM CNAME records the stack's outputs give (DkimRecord1..3); SES verifies a domain by them")
	check(domain, "a domain identity, so that DKIM and MAIL FROM align with the From domain",
		"deploy with SenderDomain set to the domain of SenderEmail")
	dkim := id.DkimAttributes
	check(dkim != nil && dkim.SigningEnabled && dkim.Status == types.DkimStatusSuccess,
		fmt.Sprintf("DKIM signing (%s)", dkimStatus(dkim)),
		"add the three DKIM CNAME records (outputs DkimRecord1..3) and wait for SES to see them")
	check(dkim != nil && dkim.CurrentSigningKeyLength == types.DkimSigningKeyLengthRsa2048Bit,
		fmt.Sprintf("DKIM key of 2048 bits (%s)", noneIf(dkimKey(dkim))),
		"the stack's identity asks for RSA_2048_BIT; an identity made by hand may not")
	mf := id.MailFromAttributes
	mfDomain, mfStatus := "", ""
	if mf != nil {
		mfDomain, mfStatus = aws.ToString(mf.MailFromDomain), string(mf.MailFromDomainStatus)
	}
	check(mfDomain != "" && mf.MailFromDomainStatus == types.MailFromDomainStatusSuccess,
		fmt.Sprintf("custom MAIL FROM %s (%s), so that SPF aligns", noneIf(mfDomain), noneIf(mfStatus)),
		"add the MX and SPF TXT records of the MAIL FROM domain (outputs MailFromMxRecord, MailFromSpfRecord)")
	check(id.ConfigurationSetName != nil && *id.ConfigurationSetName != "",
		fmt.Sprintf("default configuration set (%s)", noneIf(aws.ToString(id.ConfigurationSetName))),
		"optional: the functions name the set on each message; the stack's identity also makes it the default")
	check(account.SendingEnabled, "sending enabled for the account",
		"SES paused sending: see the account's reputation in the SES console and docs/deploy.md, \"Sending e-mail\"")
	check(account.ProductionAccessEnabled, "production access (out of the sandbox)",
		"in the sandbox SES sends only to verified addresses: ask for production access (docs/deploy.md, \"Sending e-mail\")")
	var reasons []string
	if account.SuppressionAttributes != nil {
		for _, r := range account.SuppressionAttributes.SuppressedReasons {
			reasons = append(reasons, string(r))
		}
	}
	check(slices.Contains(reasons, string(types.SuppressionListReasonBounce)) && slices.Contains(reasons, string(types.SuppressionListReasonComplaint)),
		fmt.Sprintf("account-level suppression list on bounces and complaints (%s)", noneIf(strings.Join(reasons, ", "))),
		"aws sesv2 put-account-suppression-attributes --suppressed-reasons BOUNCE COMPLAINT")
	if domain {
		records, err := c.lookupTXT(ctx, "_dmarc."+identity)
		dmarc := ""
		for _, r := range records {
			if strings.HasPrefix(strings.ToLower(r), "v=dmarc1") {
				dmarc = r
			}
		}
		what := "DMARC record " + noneIf(dmarc)
		if err != nil && dmarc == "" {
			what = "DMARC record (lookup: " + err.Error() + ")"
		}
		check(dmarc != "", what, "add _dmarc."+identity+` TXT "v=DMARC1; p=none; rua=mailto:<an address you read>" (docs/deploy.md)`)
	}
	if missing > 0 {
		return errMailMissing
	}
	fmt.Fprintln(c.stdout, "Sending is set up as mail providers expect.")
	return nil
}

// lookupTXT is the DNS lookup of mail check's DMARC record (tests replace
// it through ctl.txt).
func (c *ctl) lookupTXT(ctx context.Context, name string) ([]string, error) {
	if c.txt != nil {
		return c.txt(ctx, name)
	}
	return net.DefaultResolver.LookupTXT(ctx, name)
}

func dkimStatus(d *types.DkimAttributes) string {
	if d == nil {
		return "none"
	}
	s := noneIf(string(d.Status))
	if !d.SigningEnabled {
		s += ", signing off"
	}
	return s
}

func dkimKey(d *types.DkimAttributes) string {
	if d == nil {
		return ""
	}
	return string(d.CurrentSigningKeyLength)
}

// noneIf is s, or "none" when it is empty.
func noneIf(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
