// Command ctl is the operator's command line: it loads business files into
// the DynamoDB table, mints inbox tokens, and lists, shows and moves
// requests, for operators without a UI. From the repository root:
//
//	go run ./infra/ctl [--table NAME] [--endpoint URL] [--region R] COMMAND [ARGS] [flags]
//
// Run it with no arguments (or "help") for the commands. It exits 0 when
// done, 1 when the command failed and 2 when the command line is wrong.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/doorstep/doorstep/pkg/awsenv"
	"github.com/doorstep/doorstep/pkg/dynamo"
)

const usage = `ctl: Doorstep's operator command line.

Usage:
  go run ./infra/ctl [global flags] COMMAND [ARGS] [flags]

Commands:
  load FILE [--owner-fields F1,F2]
      Check the whole business file (a JSON array of business records, the
      getBusiness shape plus the optional private fields such as inbox_email,
      inbox_token_sha256 and feed_token_sha256), then store each business. A
      business not stored yet is stored as the file has it (approved when it
      is live in the file). A stored one keeps its owner's fields (all but
      example, booking_deposit, requests_per_hour, max_unanswered, approved
      and suspended): load writes the operator's fields, sets approved and
      suspended only when the file says true, and prints each owner's field
      where the file and the stored record differ.
        --owner-fields  write these owner's fields from the file too, by
                        name (hours,days_off,...)
      A stored business keeps its inbox and feed token hashes when the file
      gives none, so reloading a file locks no business out of its inbox or
      its calendar feed. Businesses not in the file stay as they are. Every
      write is conditional on the record as read, and kept in the
      business's history of changes as the operator's.
  businesses list [--pending]
      One line per business: slug, state (preview, waiting, live,
      suspended), name, inbox e-mail. --pending: only those waiting for
      the operator's approval to go live, oldest first.
  businesses approve SLUG
      Approve the business: if its owner asked to go live and its checklist
      still holds, it goes live now; either way its owner goes live (again)
      without asking from then on.
  businesses suspend SLUG
      Suspend the business: it takes no requests (BOOKING_PAUSED) and its
      inbox is read-only. businesses unsuspend SLUG lifts it.
  mint-token SLUG
      Make a new inbox token for the business and store only its SHA-256.
      The token is printed once, alone on standard output (notes go to
      standard error): it is not stored and cannot be shown again. The
      business's previous token stops working at once.
  mint-feed-token SLUG
      Make a new calendar feed token for the business, {SITE_URL}/calendar/
      <token>.ics, and store only its SHA-256 (feed_token_sha256). Printed
      once, as mint-token's; the previous token (and every calendar
      subscribed with it) stops working at once. A load keeps it.
  requests list SLUG [--status S1,S2] [--from DAY] [--to DAY] [--limit N] [--cursor C] [--json]
      The requests the business has in its inbox, newest first.
        --status   only these states: new, accepted, declined, cancelled,
                   expired, completed, no_show, joined by commas
        --from     sent on or after this day, YYYY-MM-DD in the business's time zone
        --to       sent on or before this day (default: up to now)
        --limit    requests per page, 1 to 100 (default 25)
        --cursor   the next page, as the page before printed it
        --json     one JSON object per request and line, then {"next": C}
                   when there is another page
  requests show CODE [--json]
      One request (any business, any state) with the person's contact
      details and its history.
  requests add-sweep-keys
      Once, after deploying the expiry of unanswered requests: give each
      request stored new before new requests had sweep keys those keys, so
      that the sweeper expires it once its window has started (and frees
      its phone's place and its window). It scans the whole table.
  requests add-erase-keys
      Once, after deploying the erasure of personal data: give each request
      that ended before ended requests had erase keys those keys, so that
      the sweeper erases its details PersonalDataDays after it ended. It
      scans the whole table.
  requests move CODE ACTION [--window-start TIME]
      Move a request as an operator: ACTION is accept, decline, move,
      complete, cancel or no_show; an operator may make any move the business
      or the person may. pay and expire are the system's moves.
        --window-start   the new window's start, RFC 3339, for move
  erase --phone P | --email E
      Erase the personal details of every request of that contact, at every
      business, ended or not: each live one is cancelled first, as the
      operator, with the usual messages and refunds. Prints each request
      erased (code, business, state). What stays of each is its state,
      window, service, ZIP code, deposit and history; a blocked contact
      stays only as a one-way hash. It scans the whole table. Cannot be
      undone.
  export --business SLUG [--from DAY] [--to DAY] [--json]
      The business's requests sent in the range (default: all), as the web
      inbox's CSV download (in the business's time zone and language), or
      with --json as the JSON inbox's export, on standard output.
  create-table
      Create the table, its indexes and its TTL (DynamoDB Local or a dev
      account); a table that exists already is fine.
  mcp server-json --site-url URL --name NAME
      Print the MCP Registry's server.json for the deployment at URL (default
      $SITE_URL): its tool server, a streamable-http remote at URL/mcp, with
      title, description and version. NAME is reverse DNS of a namespace you
      can prove to the registry, such as com.example/doorstep. Touches no
      table.

Global flags, before COMMAND:
  --table NAME     the table (default $TABLE_NAME, else doorstep)
  --endpoint URL   another engine, such as DynamoDB Local (default
                   $DYNAMODB_ENDPOINT); without AWS credentials in the
                   environment (AWS_ACCESS_KEY_ID, AWS_PROFILE) it signs with
                   the same fixed local credentials the functions use
  --region R       the AWS region (default: the AWS configuration's, else us-east-1)

Without --endpoint, credentials come from the AWS SDK's default chain:
environment, shared config and credentials files, AWS_PROFILE, SSO.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run runs one command line and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := &ctl{stdout: stdout, stderr: stderr, now: time.Now, getenv: os.Getenv}
	return c.run(ctx, args)
}

// ctl is one run of the command line. Its clock and environment are
// fields, so that tests run it in process at a fixed time.
type ctl struct {
	stdout, stderr io.Writer
	now            func() time.Time
	getenv         func(string) string

	table, endpoint, region string

	store *dynamo.Store // opened on first use, after the command line is checked
}

// usageError is a wrong command line: exit status 2, with the command's
// synopsis.
type usageError struct {
	synopsis string // "" for the whole usage text
	msg      string
}

func (e *usageError) Error() string { return e.msg }

func usagef(synopsis, format string, args ...any) error {
	return &usageError{synopsis: synopsis, msg: fmt.Sprintf(format, args...)}
}

// errHelp asks for the usage text on standard output.
var errHelp = errors.New("help")

func (c *ctl) run(ctx context.Context, args []string) int {
	err := c.dispatch(ctx, args)
	var ue *usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errHelp):
		fmt.Fprint(c.stdout, usage)
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(c.stderr, "ctl: %s\n", ue.msg)
		if ue.synopsis == "" {
			fmt.Fprint(c.stderr, "\n"+usage)
		} else {
			fmt.Fprintf(c.stderr, "usage: ctl %s\nRun ctl help for more.\n", ue.synopsis)
		}
		return 2
	default:
		fmt.Fprintf(c.stderr, "ctl: %v\n", err)
		return 1
	}
}

func (c *ctl) dispatch(ctx context.Context, args []string) error {
	fs := newFlagSet("ctl")
	fs.StringVar(&c.table, "table", firstSet(c.getenv("TABLE_NAME"), "doorstep"), "")
	fs.StringVar(&c.endpoint, "endpoint", c.getenv("DYNAMODB_ENDPOINT"), "")
	fs.StringVar(&c.region, "region", "", "")
	if err := fs.Parse(args); err != nil {
		return flagError("", err)
	}
	args = fs.Args()
	if len(args) == 0 {
		return usagef("", "no command")
	}
	cmd, args := args[0], args[1:]
	switch cmd {
	case "help":
		return errHelp
	case "load":
		return c.load(ctx, args)
	case "mint-token":
		return c.mintToken(ctx, args)
	case "mint-feed-token":
		return c.mintFeedToken(ctx, args)
	case "create-table":
		return c.createTable(ctx, args)
	case "mcp":
		return c.mcpCommand(args)
	case "erase": // erase.go
		return c.erase(ctx, args)
	case "export": // export.go
		return c.export(ctx, args)
	case "businesses": // approval.go
		return c.businesses(ctx, args)
	case "requests":
		if len(args) == 0 {
			return usagef("", "requests: want list, show, move, add-sweep-keys or add-erase-keys")
		}
		sub, args := args[0], args[1:]
		switch sub {
		case "list":
			return c.listRequests(ctx, args)
		case "show":
			return c.showRequest(ctx, args)
		case "move":
			return c.moveRequest(ctx, args)
		case "add-sweep-keys":
			return c.addSweepKeys(ctx, args)
		case "add-erase-keys":
			return c.addEraseKeys(ctx, args)
		}
		return usagef("", "requests: unknown command %q; want list, show, move, add-sweep-keys or add-erase-keys", sub)
	}
	return usagef("", "unknown command %q", cmd)
}

// newFlagSet returns a flag set that reports its errors to its caller and
// prints nothing itself: run prints them, with the right synopsis.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// flagError turns a flag parsing error into a usage error, or errHelp for
// -h and --help.
func flagError(synopsis string, err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return errHelp
	}
	return usagef(synopsis, "%v", err)
}

// parseCommand parses a command's flags, which may come before, between or
// after its arguments (ctl requests list SLUG --json), and checks that it
// got exactly len(names) arguments.
func parseCommand(fs *flag.FlagSet, synopsis string, args []string, names ...string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, flagError(synopsis, err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		// After "--" everything is an argument.
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			positional = append(positional, rest...)
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	if len(positional) < len(names) {
		return nil, usagef(synopsis, "missing %s", strings.Join(names[len(positional):], " and "))
	}
	if len(positional) > len(names) {
		return nil, usagef(synopsis, "unexpected argument %q", positional[len(names)])
	}
	return positional, nil
}

// open returns the store, making its DynamoDB client on first use.
func (c *ctl) open(ctx context.Context) (*dynamo.Store, error) {
	if c.store != nil {
		return c.store, nil
	}
	client, err := c.client(ctx)
	if err != nil {
		return nil, err
	}
	c.store = dynamo.New(client, c.table)
	return c.store, nil
}

// client makes the DynamoDB client. The rule for credentials is
// dynamo.NewClient's, so that ctl and the functions pointed at the same
// DynamoDB Local see the same data (it keeps each access key's apart): with
// an endpoint and no credentials in the environment, the fixed local ones.
// Otherwise the SDK's whole default chain, profiles and SSO included: ctl is
// not a Lambda function, and its size and start time do not matter.
func (c *ctl) client(ctx context.Context) (*dynamodb.Client, error) {
	envCredentials := c.getenv("AWS_ACCESS_KEY_ID") != "" || c.getenv("AWS_PROFILE") != ""
	if c.endpoint != "" && !envCredentials {
		cfg, err := awsenv.Config(ctx, c.getenv, "dynamodb", true) // the fixed local credentials
		if err != nil {
			return nil, err
		}
		if c.region != "" {
			cfg.Region = c.region
		}
		return dynamo.NewClientFromConfig(cfg, c.endpoint), nil
	}
	var opts []func(*config.LoadOptions) error
	if c.region != "" {
		opts = append(opts, config.WithRegion(c.region))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("AWS configuration: %w", err)
	}
	return dynamo.NewClientFromConfig(cfg, c.endpoint), nil
}

func firstSet(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
