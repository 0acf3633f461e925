package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestREADME runs the shell examples of README.md and of every docs/*.md
// as pasted, so that they cannot drift from what the service does, and
// checks that every link between those files leads somewhere.
//
// It takes every ```sh (or ```bash, ```shell) block of a file in order and
// runs them all, one command at a time, in one bash (no profile, no rc,
// `set -u`, in an empty folder) against a fresh local server on a free
// port: every http://127.0.0.1:8080 is rewritten to that server's address,
// so the files show the address `make run` listens on. Variables set in one
// block (B, CODE, ...) are there in the next, as in a reader's terminal;
// each file starts in a fresh bash, as a reader who opens only that file
// would. Then it runs every file a second and a third time against the same
// server, from a fresh bash each, to prove that a reader can paste the
// examples again and again: nothing in them may depend on a fixed date,
// code, count or contact (each paste makes its own phone numbers).
//
// The convention the files follow, and this test checks:
//
//   - A command is a line, with its `\` continuations and the lines of a
//     quoted string it opens. It fails the test when its exit status is not
//     0 (curl -s exits 0 on an HTTP error: say what the answer must be).
//   - `# -> TEXT` at the end of a command is what its output must contain:
//     TEXT is taken literally, except that ` ... ` stands for anything in
//     between, so `# -> 303 See Other ... Location: /r/` checks a status line
//     and then a header (`curl -si`), `# -> "status":"accepted"` a field of
//     the compact JSON the API answers. A `# ->` on a line of its own checks
//     nothing, so it fails the test.
//   - Its URLs name the local server as http://127.0.0.1:8080 only: another
//     local address fails the test, so it can never reach a server someone
//     else runs on this machine.
//   - A block that cannot run here (it needs AWS, a deployed stack, a
//     DynamoDB table for infra/ctl, or blocks like `make run`) is marked by
//     an HTML comment on the line before its fence: `<!-- not run: WHY -->`.
//     The test lists each marked block and why as a skipped subtest (`go
//     test -v -run TestREADME ./infra/local`), and fails on an unmarked
//     block that calls make, aws, sam, npx, npm, go, mcp-publisher, stripe
//     or sudo. A ```console block is a transcript: listed, never run.
//
// bash runs without pipefail, as a reader's does: a pipeline's status is
// its last command's, so `curl ... | head -1` cannot fail now and then when
// head leaves early. Each command's output and status go to files, which the
// test reads after bash ends; bash stops at the first command that fails.
func TestREADME(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatal("the README test needs bash")
	}
	for _, tool := range []string{"curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the README's examples need %s: apt-get install %s", tool, tool)
		}
	}
	root := filepath.Join("..", "..")
	docs, err := readDocs(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, problem := range deadLinks(root, docs) {
		t.Error(problem)
	}
	type paste struct {
		name     string
		commands []readmeCommand
	}
	var pastes []paste
	for _, d := range docs {
		blocks, err := readmeBlocks(d.name, d.text)
		if err != nil {
			t.Fatal(err)
		}
		p := paste{name: d.name}
		for _, b := range blocks {
			if b.notRun != "" {
				t.Run(fmt.Sprintf("not_run/%s:%d", d.name, b.line), func(t *testing.T) { t.Skip(b.notRun) })
				continue
			}
			p.commands = append(p.commands, b.commands...)
		}
		if len(p.commands) > 0 {
			pastes = append(pastes, p)
		}
	}
	if len(pastes) == 0 || pastes[0].name != "README.md" {
		t.Fatal("found no shell example to run in README.md")
	}

	base := startLocal(t)
	for run := 1; run <= 3; run++ {
		for i, p := range pastes {
			t.Run(fmt.Sprintf("run%d/%s", run, p.name), func(t *testing.T) {
				runREADME(t, p.name, p.commands, base, run*100+i)
			})
			if t.Failed() {
				return
			}
		}
	}
}

// doc is one Markdown file the README test reads: README.md or docs/*.md.
type doc struct {
	name string // its path from the repository's root, with slashes
	text string
}

// readDocs reads README.md and then docs/*.md in name order, under root.
func readDocs(root string) ([]doc, error) {
	names, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	names = append([]string{filepath.Join(root, "README.md")}, names...)
	var docs []doc
	for _, path := range names {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return nil, err
		}
		docs = append(docs, doc{name: filepath.ToSlash(rel), text: string(data)})
	}
	return docs, nil
}

var (
	// A Markdown link or image, [text](target), or an HTML src or href.
	linkRE = regexp.MustCompile(`\]\(([^)\s]+)\)|\b(?:src|href)="([^"]+)"`)
	// What GitHub leaves out of a heading's anchor.
	anchorDropRE = regexp.MustCompile(`[^\p{L}\p{N} _-]`)
)

// deadLinks lists the links of docs, outside code, that lead nowhere: a
// file or folder under root that does not exist, or an anchor that
// no heading of the Markdown file it names makes. Links to other sites are
// not followed.
func deadLinks(root string, docs []doc) []string {
	anchors := map[string]map[string]bool{}
	for _, d := range docs {
		anchors[d.name] = headingAnchors(d.text)
	}
	var problems []string
	for _, d := range docs {
		for n, line := range proseLines(d.text) {
			for _, m := range linkRE.FindAllStringSubmatch(line, -1) {
				target := m[1] + m[2]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				file, anchor, _ := strings.Cut(target, "#")
				name := d.name
				if file != "" {
					name = path.Clean(path.Join(path.Dir(d.name), file))
					if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(name))); err != nil {
						problems = append(problems, fmt.Sprintf("%s:%d: the link %s leads to no file (%s)", d.name, n+1, target, name))
						continue
					}
				}
				if anchor == "" || !strings.HasSuffix(name, ".md") {
					continue
				}
				known, ok := anchors[name]
				if !ok {
					data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
					if err != nil {
						problems = append(problems, fmt.Sprintf("%s:%d: %v", d.name, n+1, err))
						continue
					}
					known = headingAnchors(string(data))
					anchors[name] = known
				}
				if !known[anchor] {
					problems = append(problems, fmt.Sprintf("%s:%d: the link %s leads to no heading of %s", d.name, n+1, target, name))
				}
			}
		}
	}
	return problems
}

// proseLines returns text's lines with those inside fenced code blocks
// emptied, so line numbers stay those of the file.
func proseLines(text string) []string {
	lines := strings.Split(text, "\n")
	inCode := false
	for i, line := range lines {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inCode = !inCode
			lines[i] = ""
			continue
		}
		if inCode {
			lines[i] = ""
		}
	}
	return lines
}

// headingAnchors returns the anchors GitHub makes for text's headings:
// lower case, punctuation left out, spaces as hyphens, and -1, -2, ... on
// repeats.
func headingAnchors(text string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, line := range proseLines(text) {
		title, ok := strings.CutPrefix(line, "#")
		if !ok {
			continue
		}
		title = strings.TrimLeft(title, "#")
		if !strings.HasPrefix(title, " ") {
			continue
		}
		anchor := strings.ReplaceAll(anchorDropRE.ReplaceAllString(strings.ToLower(strings.TrimSpace(title)), ""), " ", "-")
		if n := seen[anchor]; n > 0 {
			anchors[fmt.Sprintf("%s-%d", anchor, n)] = true
		} else {
			anchors[anchor] = true
		}
		seen[anchor]++
	}
	return anchors
}

// readmeAddress is the address the README's examples use: make run's.
const readmeAddress = "http://127.0.0.1:8080"

// readmeBlock is one fenced shell block of the README.
type readmeBlock struct {
	line     int    // the README line of its opening fence
	notRun   string // why it is not run, from <!-- not run: ... -->
	commands []readmeCommand
}

// readmeCommand is one command of a block and what its output must hold.
type readmeCommand struct {
	line int      // the README line it starts on
	text string   // the shell text, comments included
	want []string // the pieces of its `# ->`, in order
}

var (
	fenceRE  = regexp.MustCompile("^\\s*```\\s*([A-Za-z0-9_-]*)")
	notRunRE = regexp.MustCompile(`^<!--\s*not run:\s*(.*?)\s*-->\s*$`)
	// An address on this machine.
	localAddressRE = regexp.MustCompile(`https?://(localhost|127\.0\.0\.1|\[::1\])(:\d+)?`)
	// A command the test cannot run here: at the start of a line, after a
	// pipe, a ; or && or ||, or inside $( ).
	cannotRunRE = regexp.MustCompile(`(?m)(^|[|;&(]|\$\()\s*(make|aws|sam|npx|npm|go|mcp-publisher|stripe|sudo)(\s|$)`)
)

// readmeBlocks returns the README's shell blocks in order.
func readmeBlocks(name, text string) ([]readmeBlock, error) {
	lines := strings.Split(text, "\n")
	var blocks []readmeBlock
	for i := 0; i < len(lines); i++ {
		m := fenceRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		start := i
		end := start + 1
		for end < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[end]), "```") {
			end++
		}
		if end == len(lines) {
			return nil, fmt.Errorf("%s:%d: the block is never closed", name, start+1)
		}
		i = end
		lang := m[1]
		var notRun string
		if start > 0 {
			if n := notRunRE.FindStringSubmatch(strings.TrimSpace(lines[start-1])); n != nil {
				notRun = n[1]
				if notRun == "" {
					return nil, fmt.Errorf("%s:%d: <!-- not run: --> must say why", name, start)
				}
			}
		}
		switch lang {
		case "sh", "bash", "shell":
		case "console":
			if notRun == "" {
				notRun = "a console transcript"
			}
		default:
			if notRun != "" {
				return nil, fmt.Errorf("%s:%d: <!-- not run --> marks a ```%s block, which is never run anyway", name, start, lang)
			}
			continue
		}
		b := readmeBlock{line: start + 1, notRun: notRun}
		if notRun == "" {
			commands, err := splitCommands(name, lines[start+1:end], start+2)
			if err != nil {
				return nil, err
			}
			for _, c := range commands {
				for _, addr := range localAddressRE.FindAllString(c.text, -1) {
					if addr != readmeAddress {
						return nil, fmt.Errorf("%s:%d: %s is not the address make run listens on: use %s (the test points it at its own server, never at another one running on this machine)", name, c.line, addr, readmeAddress)
					}
				}
				if m := cannotRunRE.FindStringSubmatch(stripComments(c.text)); m != nil {
					return nil, fmt.Errorf("%s:%d: this example runs %q, which the README test cannot run against the local server; "+
						"mark its block with <!-- not run: why --> on the line before its fence, or move the command to such a block", name, c.line, m[2])
				}
			}
			b.commands = commands
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// splitCommands splits a block's lines into commands: a newline ends a
// command unless it is escaped or inside quotes or parentheses. first is the
// README line of lines[0].
func splitCommands(name string, lines []string, first int) ([]readmeCommand, error) {
	var (
		commands []readmeCommand
		cur      strings.Builder
		comment  string // the last comment of the current command
		start    = first
		single   bool
		double   bool
		depth    int
	)
	for n, line := range lines {
		lineNo := first + n
		if cur.Len() == 0 && !single && !double && depth == 0 {
			start = lineNo
		}
		for i := 0; i < len(line); i++ {
			c := line[i]
			switch {
			case single:
				if c == '\'' {
					single = false
				}
			case double:
				if c == '\\' {
					i++
				} else if c == '"' {
					double = false
				}
			case c == '\\':
				i++
			case c == '\'':
				single = true
			case c == '"':
				double = true
			case c == '(':
				depth++
			case c == ')':
				depth--
			case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t' || line[i-1] == ';'):
				comment = line[i:]
				i = len(line)
			}
		}
		cur.WriteString(line)
		cur.WriteString("\n")
		if single || double || depth > 0 || strings.HasSuffix(line, "\\") {
			continue
		}
		text := cur.String()
		cur.Reset()
		want, isCheck := parseWant(comment)
		if !isCheck && strings.Contains(comment, "->") {
			return nil, fmt.Errorf("%s:%d: a check must start its comment, `# -> TEXT`, or it checks nothing: %q", name, lineNo, comment)
		}
		comment = ""
		if strings.TrimSpace(stripComments(text)) == "" {
			if isCheck {
				return nil, fmt.Errorf("%s:%d: a `# ->` on a line of its own checks nothing: put it at the end of the command whose output it states", name, lineNo)
			}
			continue
		}
		commands = append(commands, readmeCommand{line: start, text: text, want: want})
	}
	if cur.Len() > 0 {
		return nil, fmt.Errorf("%s:%d: the command never ends (an open quote or parenthesis)", name, start)
	}
	return commands, nil
}

// parseWant returns the pieces of a `# -> TEXT` comment.
func parseWant(comment string) ([]string, bool) {
	rest, ok := strings.CutPrefix(comment, "# ->")
	if !ok {
		return nil, false
	}
	var want []string
	for _, piece := range strings.Split(rest, " ... ") {
		if piece = strings.TrimSpace(piece); piece != "" {
			want = append(want, piece)
		}
	}
	return want, true
}

// stripComments drops the comment lines and trailing comments the splitter
// can tell apart from quoted text; enough for the checks on command names.
func stripComments(text string) string {
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, " #"); i >= 0 && !strings.ContainsAny(line[i:], `'"`) {
			line = line[:i]
		}
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		b.WriteString(line)
		b.WriteString("\n")
	}
	return b.String()
}

// runREADME runs the commands of the file name in one bash against the
// server at base. seed seeds bash's $RANDOM, so the made-up phone numbers
// of each run are the same from one test to the next and differ between
// runs and files.
func runREADME(t *testing.T, name string, commands []readmeCommand, base string, seed int) {
	dir := t.TempDir()
	out := filepath.Join(dir, ".readme-test")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	var script strings.Builder
	fmt.Fprintf(&script, "set -u\nRANDOM=%d\n", seed)
	for i, c := range commands {
		text := strings.ReplaceAll(c.text, readmeAddress, base)
		fmt.Fprintf(&script, "{\n%s} >%q 2>%q </dev/null\nrc=$?; echo $rc >%q; [ $rc = 0 ] || exit 1\n",
			text, filepath.Join(out, strconv.Itoa(i)+".out"), filepath.Join(out, strconv.Itoa(i)+".err"), filepath.Join(out, strconv.Itoa(i)+".rc"))
	}
	scriptPath := filepath.Join(out, "readme.sh")
	if err := os.WriteFile(scriptPath, []byte(script.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "--noprofile", "--norc", scriptPath)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "LC_ALL=C.UTF-8", "TZ=UTC"}
	cmd.WaitDelay = 5 * time.Second
	log, err := os.Create(filepath.Join(out, "bash.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	cmd.Stdout, cmd.Stderr = log, log
	began := time.Now()
	runErr := cmd.Run()
	t.Logf("ran %d commands in %v", len(commands), time.Since(began).Round(time.Millisecond))

	for i, c := range commands {
		read := func(ext string) string {
			data, _ := os.ReadFile(filepath.Join(out, strconv.Itoa(i)+ext))
			return string(data)
		}
		rc, stdout, stderr := strings.TrimSpace(read(".rc")), read(".out"), read(".err")
		where := fmt.Sprintf("%s:%d (seed %d)", name, c.line, seed)
		if rc == "" {
			bashLog, _ := os.ReadFile(filepath.Join(out, "bash.log"))
			t.Fatalf("%s: bash stopped in this command (%v):\n%s\nstderr: %s\nbash: %s", where, runErr, c.text, excerpt(stderr), excerpt(string(bashLog)))
		}
		if rc != "0" {
			t.Fatalf("%s: got exit status %s, want 0:\n%s\nstdout: %s\nstderr: %s", where, rc, c.text, excerpt(stdout), excerpt(stderr))
		}
		if err := checkOutput(stdout, c.want, base); err != nil {
			t.Fatalf("%s: got output\n%s\n%v, from `# -> %s`:\n%s", where, excerpt(stdout), err, strings.Join(c.want, " ... "), c.text)
		}
	}
	if runErr != nil {
		t.Fatalf("bash: %v", runErr)
	}
}

// checkOutput reports whether out holds the pieces of want in order, with
// the README's address in them read as base.
func checkOutput(out string, want []string, base string) error {
	rest := out
	for i, piece := range want {
		piece = strings.ReplaceAll(piece, readmeAddress, base)
		at := strings.Index(rest, piece)
		if at < 0 {
			if i > 0 {
				return fmt.Errorf("want %q after %q", piece, want[i-1])
			}
			return fmt.Errorf("want %q", piece)
		}
		rest = rest[at+len(piece):]
	}
	return nil
}

// excerpt cuts a command's output for a failure message.
func excerpt(s string) string {
	const max = 3000
	if len(s) > max {
		return s[:max] + fmt.Sprintf("\n[... %d more bytes]", len(s)-max)
	}
	return s
}

// The README test reads the convention strictly: what it cannot run must be
// marked, with a reason, and a check must sit on the command it checks.
func TestReadmeBlocks(t *testing.T) {
	fence := "```"
	tests := []struct {
		name    string
		text    string
		want    []readmeBlock
		wantErr string
	}{
		{
			name: "commands, continuations, quoted lines and checks",
			text: "intro\n" + fence + "sh\nB=http://127.0.0.1:8080   # the person's server\n\n# a comment line\ncurl -s $B/a \\\n  -d '{\"a\": 1,\n  \"b\": \"a # not a comment\"}'   # -> 201 Created ... \"status\":\"new\"\nX=$(echo 'a\nb')\n" + fence + "\n",
			want: []readmeBlock{{line: 2, commands: []readmeCommand{
				{line: 3, text: "B=http://127.0.0.1:8080   # the person's server\n"},
				{line: 6, text: "curl -s $B/a \\\n  -d '{\"a\": 1,\n  \"b\": \"a # not a comment\"}'   # -> 201 Created ... \"status\":\"new\"\n", want: []string{"201 Created", `"status":"new"`}},
				{line: 9, text: "X=$(echo 'a\nb')\n"},
			}}},
		},
		{
			name: "a marked block is listed with its reason, not split",
			text: "<!-- not run: needs AWS -->\n" + fence + "sh\nmake deploy\n" + fence + "\n",
			want: []readmeBlock{{line: 2, notRun: "needs AWS"}},
		},
		{
			name: "a console block is a transcript",
			text: fence + "console\n$ make run\n" + fence + "\n",
			want: []readmeBlock{{line: 1, notRun: "a console transcript"}},
		},
		{
			name: "other blocks are not shell",
			text: fence + "json\n{\"a\": 1}\n" + fence + "\n" + fence + "\npkg/booking  the domain\n" + fence + "\n",
		},
		{
			name:    "an unmarked block that needs AWS",
			text:    fence + "sh\ncurl -s localhost\naws secretsmanager create-secret --name x\n" + fence + "\n",
			wantErr: `README.md:3: this example runs "aws"`,
		},
		{
			name:    "an unmarked go run inside $( )",
			text:    fence + "sh\nFEED=$(go run ./infra/ctl mint-feed-token x)\n" + fence + "\n",
			wantErr: `README.md:2: this example runs "go"`,
		},
		{
			name:    "make on a continued line",
			text:    fence + "sh\nFOO=1 \\\nmake deploy\n" + fence + "\n",
			wantErr: `README.md:2: this example runs "make"`,
		},
		{
			name:    "make after &&",
			text:    fence + "bash\ncd x && make run\n" + fence + "\n",
			wantErr: `runs "make"`,
		},
		{
			name:    "a mark without a reason",
			text:    "<!-- not run: -->\n" + fence + "sh\nmake deploy\n" + fence + "\n",
			wantErr: "must say why",
		},
		{
			name:    "a check on a line of its own",
			text:    fence + "sh\ncurl -s localhost\n# -> 200\n" + fence + "\n",
			wantErr: "README.md:3: a `# ->` on a line of its own checks nothing",
		},
		{
			name:    "another local server",
			text:    fence + "sh\ncurl -s http://localhost:9090/api/v1/openapi.json\n" + fence + "\n",
			wantErr: "README.md:2: http://localhost:9090 is not the address make run listens on",
		},
		{
			name:    "another port in a check",
			text:    fence + "sh\ncurl -s $B/x   # -> http://127.0.0.1:9090/r/\n" + fence + "\n",
			wantErr: "http://127.0.0.1:9090 is not the address",
		},
		{
			name:    "an arrow inside a comment",
			text:    fence + "sh\ncurl -si localhost   # pay -> 303\n" + fence + "\n",
			wantErr: "README.md:2: a check must start its comment",
		},
		{
			name:    "an open quote",
			text:    fence + "sh\necho 'never closed\n" + fence + "\n",
			wantErr: "README.md:2: the command never ends",
		},
		{
			name:    "an open block",
			text:    fence + "sh\necho hi\n",
			wantErr: "README.md:1: the block is never closed",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readmeBlocks("README.md", tt.text)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v, want an error with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", tt.want) {
				t.Errorf("got %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

// A check passes only when every piece is there, in order.
func TestCheckOutput(t *testing.T) {
	const out = "HTTP/1.1 303 See Other\r\nLocation: /r/AB?done=paid\r\n\r\n{\"url\":\"http://127.0.0.1:4321/r/AB\"}"
	tests := []struct {
		name string
		want []string
		ok   bool
	}{
		{"status and header", []string{"303 See Other", "?done=paid"}, true},
		{"the README's address read as the server's", []string{"http://127.0.0.1:8080/r/AB"}, true},
		{"out of order", []string{"?done=paid", "303 See Other"}, false},
		{"missing", []string{"201 Created"}, false},
		{"the piece must be whole", []string{"303 See Other Location"}, false},
		{"nothing to check", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkOutput(out, tt.want, "http://127.0.0.1:4321")
			if got := err == nil; got != tt.ok {
				t.Errorf("got %v, want ok %v", err, tt.ok)
			}
		})
	}
}

// A link between the docs must lead to a file that exists and, with an
// anchor, to a heading of it; code blocks and other sites are not links.
func TestDeadLinks(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	api := "# The API\n\n## Errors and codes\n\n## Errors and codes\n\n## What's kept, and why?\n"
	if err := os.WriteFile(filepath.Join(root, "docs", "api.md"), []byte(api), 0o644); err != nil {
		t.Fatal(err)
	}
	fence := "```"
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"a file", "see [the API](docs/api.md)", nil},
		{"a heading", "see [errors](docs/api.md#errors-and-codes)", nil},
		{"a repeated heading", "see [errors](docs/api.md#errors-and-codes-1)", nil},
		{"punctuation left out", "see [kept](docs/api.md#whats-kept-and-why)", nil},
		{"a heading of the same file", "# Doorstep\n## Try it\n[try](#try-it)", nil},
		{"another site", "[Go](https://go.dev/x.md#nowhere) <https://example.com>", nil},
		{"inside a code block", fence + "sh\necho '[x](nowhere.md)'\n" + fence, nil},
		{"an image", `<img src="docs/api.md">`, nil},
		{"no such file", "\n[design](docs/design.md)", []string{"README.md:2: the link docs/design.md leads to no file (docs/design.md)"}},
		{"no such heading", "[x](docs/api.md#deploy)", []string{"README.md:1: the link docs/api.md#deploy leads to no heading of docs/api.md"}},
		{"no such heading here", "[x](#deploy)", []string{"README.md:1: the link #deploy leads to no heading of README.md"}},
		{"no such image", `<img src="docs/phone.png">`, []string{"README.md:1: the link docs/phone.png leads to no file (docs/phone.png)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := deadLinks(root, []doc{{name: "README.md", text: tt.text}})
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
