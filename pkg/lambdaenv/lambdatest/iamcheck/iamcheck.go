// Package iamcheck reads a function's IAM policy out of template.yaml, as
// CloudFormation and the SAM transform would grant it to the function's
// role for given parameter values (conditions and intrinsic functions
// resolved), and says whether a call is allowed, matching actions and
// resources as IAM does. lambdatest records the calls; this package judges
// them.
package iamcheck

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Call is one authorisation a call to AWS needs: an action on resources,
// each of which the policy must allow. One SDK call may need several (each
// action inside a DynamoDB transaction is authorised on its own).
type Call struct {
	Action    string   // e.g. dynamodb:Query
	Resources []string // ARNs; every one must be allowed
	Path      string   // what made the call: the test (and subtest) that drove it
}

func (c Call) String() string {
	return c.Action + " on " + strings.Join(c.Resources, ", ")
}

// Deployment is what a stack's functions see of AWS: the pseudo
// parameters, the template's parameters, and the physical names of the
// resources the policies refer to.
type Deployment struct {
	Partition, Region, AccountID string
	Parameters                   map[string]string // unset parameters take their Default
	// Names are the physical names of resources by logical ID: a table's
	// name (what !Ref gives), a queue's name. A log group's is its
	// LogGroupName, resolved.
	Names map[string]string
	// StackName is AWS::StackName; "" is "doorstep".
	StackName string
}

// ARN is the ARN of a resource of a service in the deployment's partition,
// region and account: ARN("dynamodb", "table/doorstep").
func (d Deployment) ARN(service, resource string) string {
	return fmt.Sprintf("arn:%s:%s:%s:%s:%s", d.Partition, service, d.Region, d.AccountID, resource)
}

// Statement is one resolved policy statement.
type Statement struct {
	Effect    string
	Actions   []string
	Resources []string
	// NotResources: a Deny of every resource but these (NotResource).
	NotResources []string
	Where        string // e.g. Policies[0].Statement[2]
}

// Policy is a function's resolved policy: the statements of its Policies
// as the deployment grants them (a policy under a false condition is gone).
type Policy struct {
	Function   string
	Statements []Statement
}

// load reads the template.
func load(templatePath string, d Deployment) (*resolver, error) {
	data, err := os.ReadFile(templatePath)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", templatePath, err)
	}
	if len(doc.Content) != 1 {
		return nil, fmt.Errorf("%s: want one YAML document", templatePath)
	}
	return &resolver{top: doc.Content[0], d: d}, nil
}

// PollerCalls are the calls Lambda makes with the function's role for the
// event source mappings that feed it (the Lambda Developer Guide, "Using
// AWS Lambda with Amazon DynamoDB"): reading a DynamoDB stream
// (DescribeStream, GetRecords and GetShardIterator on the stream,
// ListStreams, which names no resource) and sending a failed batch's
// record to an SQS on-failure destination (SendMessage on the queue).
// The handlers' tests cannot make these calls: the template says them.
func PollerCalls(templatePath, function string, d Deployment) ([]Call, error) {
	r, err := load(templatePath, d)
	if err != nil {
		return nil, err
	}
	var calls []Call
	res := Field(r.top, "Resources")
	for i := 0; res != nil && i+1 < len(res.Content); i += 2 {
		id, m := res.Content[i].Value, res.Content[i+1]
		if t := Field(m, "Type"); t == nil || t.Value != "AWS::Lambda::EventSourceMapping" {
			continue
		}
		if fn := Field(m, "Properties", "FunctionName"); fn == nil || fn.Tag != "!Ref" || fn.Value != function {
			continue
		}
		path := "Lambda's poller (" + id + ")"
		src, err := r.value(Field(m, "Properties", "EventSourceArn"))
		if err != nil {
			return nil, fmt.Errorf("%s EventSourceArn: %w", id, err)
		}
		if arn := str(src); strings.Contains(arn, ":dynamodb:") && strings.Contains(arn, "/stream/") {
			for _, a := range []string{"DescribeStream", "GetRecords", "GetShardIterator"} {
				calls = append(calls, Call{Action: "dynamodb:" + a, Resources: []string{arn}, Path: path})
			}
			calls = append(calls, Call{Action: "dynamodb:ListStreams", Resources: []string{"*"}, Path: path})
		}
		if n := Field(m, "Properties", "DestinationConfig", "OnFailure", "Destination"); n != nil {
			dst, err := r.value(n)
			if err != nil {
				return nil, fmt.Errorf("%s on-failure destination: %w", id, err)
			}
			if arn := str(dst); strings.Contains(arn, ":sqs:") {
				calls = append(calls, Call{Action: "sqs:SendMessage", Resources: []string{arn}, Path: path})
			}
		}
	}
	return calls, nil
}

// LogCalls are the calls Lambda makes with the function's role to write
// its log lines: logs:CreateLogStream and logs:PutLogEvents on a stream of
// the group its LoggingConfig names (the Lambda Developer Guide, "Sending
// Lambda function logs to CloudWatch Logs"). The handlers' tests write
// their lines to stdout: the template says where they go.
func LogCalls(templatePath, function string, d Deployment) ([]Call, error) {
	r, err := load(templatePath, d)
	if err != nil {
		return nil, err
	}
	group := Field(r.top, "Resources", function, "Properties", "LoggingConfig", "LogGroup")
	if group == nil || group.Tag != "!Ref" {
		return nil, fmt.Errorf("%s: no LoggingConfig.LogGroup: !Ref <its log group>", function)
	}
	name, err := r.logGroupName(group.Value)
	if err != nil {
		return nil, err
	}
	stream := d.ARN("logs", "log-group:"+name+":log-stream:2026/01/01/[$LATEST]0123456789abcdef0123456789abcdef")
	path := "Lambda's log lines (" + group.Value + ")"
	return []Call{
		{Action: "logs:CreateLogStream", Resources: []string{stream}, Path: path},
		{Action: "logs:PutLogEvents", Resources: []string{stream}, Path: path},
	}, nil
}

// Load reads the template and resolves the policy of the function with
// the given logical ID.
func Load(templatePath, function string, d Deployment) (*Policy, error) {
	r, err := load(templatePath, d)
	if err != nil {
		return nil, err
	}
	fn := Field(r.top, "Resources", function)
	if fn == nil {
		return nil, fmt.Errorf("%s: no resource %s", templatePath, function)
	}
	if t := Field(fn, "Type"); t == nil || t.Value != "AWS::Serverless::Function" {
		return nil, fmt.Errorf("%s is not an AWS::Serverless::Function", function)
	}
	if Field(fn, "Properties", "Role") != nil {
		return nil, fmt.Errorf("%s sets Role: its policy is not in its Policies", function)
	}
	p := &Policy{Function: function}
	policies := Field(fn, "Properties", "Policies")
	if policies == nil {
		return p, nil // SAM's default role: logs only
	}
	v, err := r.value(policies)
	if err != nil {
		return nil, fmt.Errorf("%s Policies: %w", function, err)
	}
	list, ok := v.([]any)
	if !ok {
		list = []any{v}
	}
	for i, doc := range list {
		stmts, err := statements(doc, fmt.Sprintf("Policies[%d]", i))
		if err != nil {
			return nil, fmt.Errorf("%s %w", function, err)
		}
		p.Statements = append(p.Statements, stmts...)
	}
	return p, nil
}

// statements reads an inline policy document. SAM policy templates
// (DynamoDBCrudPolicy: ...) and managed policy names are refused: what they
// grant is not in the template.
func statements(doc any, where string) ([]Statement, error) {
	m, ok := doc.(map[string]any)
	if !ok || m["Statement"] == nil {
		return nil, fmt.Errorf("%s: not an inline policy document (a policy template or managed policy grants what the template does not say)", where)
	}
	list, ok := m["Statement"].([]any)
	if !ok {
		list = []any{m["Statement"]}
	}
	var out []Statement
	for j, s := range list {
		w := fmt.Sprintf("%s.Statement[%d]", where, j)
		sm, ok := s.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: not a mapping", w)
		}
		for _, k := range []string{"NotAction", "Condition", "Principal"} {
			if sm[k] != nil {
				return nil, fmt.Errorf("%s: %s is not supported here", w, k)
			}
		}
		st := Statement{Effect: str(sm["Effect"]), Actions: strs(sm["Action"]), Resources: strs(sm["Resource"]), NotResources: strs(sm["NotResource"]), Where: w}
		if st.Effect != "Allow" && st.Effect != "Deny" {
			return nil, fmt.Errorf("%s: Effect %q", w, st.Effect)
		}
		if len(st.NotResources) > 0 && (st.Effect != "Deny" || len(st.Resources) > 0) {
			return nil, fmt.Errorf("%s: NotResource is supported in a Deny without Resource only", w)
		}
		if len(st.Actions) == 0 || len(st.Resources)+len(st.NotResources) == 0 {
			return nil, fmt.Errorf("%s: want Action and Resource", w)
		}
		out = append(out, st)
	}
	return out, nil
}

func str(v any) string { s, _ := v.(string); return s }

func strs(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, e := range v {
			out = append(out, str(e))
		}
		return out
	}
	return nil
}

// Allowed says whether the policy allows an action on one resource, as
// IAM evaluates one identity policy: some Allow statement matches, and no
// Deny statement does. It returns the statement that allows it.
func (p *Policy) Allowed(action, resource string) (Statement, bool) {
	var allow *Statement
	for i, st := range p.Statements {
		matches := func(r string) bool { return matchResource(r, resource) }
		if !slices.ContainsFunc(st.Actions, func(a string) bool { return matchAction(a, action) }) ||
			len(st.NotResources) == 0 && !slices.ContainsFunc(st.Resources, matches) ||
			len(st.NotResources) > 0 && slices.ContainsFunc(st.NotResources, matches) {
			continue
		}
		if st.Effect == "Deny" {
			return st, false
		}
		if allow == nil {
			allow = &p.Statements[i]
		}
	}
	if allow == nil {
		return Statement{}, false
	}
	return *allow, true
}

// Check returns why c is not allowed, or nil.
func (p *Policy) Check(c Call) error {
	var denied []string
	for _, r := range c.Resources {
		if _, ok := p.Allowed(c.Action, r); !ok {
			denied = append(denied, r)
		}
	}
	if len(denied) > 0 {
		return fmt.Errorf("%s may not %s on %s (path: %s)", p.Function, c.Action, strings.Join(denied, ", "), c.Path)
	}
	return nil
}

// Unused returns each grant (an action of a statement on one of its
// resources, "dynamodb:UpdateItem on arn:...") that none of the calls
// used, in the policy's order.
func (p *Policy) Unused(calls []Call) []string {
	var unused []string
	for _, st := range p.Statements {
		if st.Effect != "Allow" {
			continue
		}
		for _, a := range st.Actions {
			for _, r := range st.Resources {
				used := slices.ContainsFunc(calls, func(c Call) bool {
					return matchAction(a, c.Action) && slices.ContainsFunc(c.Resources, func(cr string) bool { return matchResource(r, cr) })
				})
				if !used {
					unused = append(unused, fmt.Sprintf("%s on %s (%s)", a, r, st.Where))
				}
			}
		}
	}
	return unused
}

// matchAction matches an action against a policy's action pattern: the
// service prefix and the action name compare without regard to case, and
// * and ? are wildcards.
func matchAction(pattern, action string) bool {
	return glob(strings.ToLower(pattern), strings.ToLower(action))
}

// matchResource matches an ARN against a policy's resource pattern, as IAM
// does: "*" alone matches any resource; otherwise the first five
// colon-separated parts (arn, partition, service, region, account) and the
// rest (the resource, which may hold colons and slashes) match part by
// part, case-sensitively, where * matches any run of characters (slashes
// included: table/t* matches table/t/index/i) and ? any one character.
func matchResource(pattern, arn string) bool {
	if pattern == "*" {
		return true
	}
	pp, ap := strings.SplitN(pattern, ":", 6), strings.SplitN(arn, ":", 6)
	if len(pp) != 6 || len(ap) != 6 {
		return false
	}
	for i := range pp {
		if !glob(pp[i], ap[i]) {
			return false
		}
	}
	return true
}

// glob matches s against a pattern of literal characters, * (any run) and
// ? (any one character).
func glob(pattern, s string) bool {
	// Iterative matching with backtracking to the last *: linear in
	// practice, and never recursive on input a stranger controls (these are
	// the template's patterns and the test's ARNs anyway).
	p, i, star, mark := 0, 0, -1, 0
	for i < len(s) {
		switch {
		case p < len(pattern) && (pattern[p] == '?' || pattern[p] == s[i]):
			p++
			i++
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, i
			p++
		case star >= 0:
			p, mark = star+1, mark+1
			i = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// resolver evaluates the template's intrinsic functions for a deployment.
type resolver struct {
	top *yaml.Node
	d   Deployment
}

// noValue is what !Ref AWS::NoValue resolves to: the property or list
// element is dropped.
type noValueType struct{}

var noValue = noValueType{}

// value resolves a node to a string, a []any, a map[string]any or noValue.
func (r *resolver) value(n *yaml.Node) (any, error) {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if name, arg, ok := r.intrinsic(n); ok {
		return r.call(name, arg)
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return n.Value, nil
	case yaml.SequenceNode:
		out := []any{}
		for _, e := range n.Content {
			v, err := r.value(e)
			if err != nil {
				return nil, err
			}
			if v != noValue {
				out = append(out, v)
			}
		}
		return out, nil
	case yaml.MappingNode:
		out := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			v, err := r.value(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			if v != noValue {
				out[n.Content[i].Value] = v
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("line %d: unexpected YAML node", n.Line)
}

// intrinsic returns the function and argument of a short (!Sub x) or long
// ({Fn::Sub: x}, {Ref: x}) form.
func (r *resolver) intrinsic(n *yaml.Node) (string, *yaml.Node, bool) {
	if strings.HasPrefix(n.Tag, "!") && !strings.HasPrefix(n.Tag, "!!") {
		name := strings.TrimPrefix(n.Tag, "!")
		if name != "Ref" && name != "Condition" {
			name = "Fn::" + name
		}
		arg := *n
		switch n.Kind {
		case yaml.ScalarNode:
			arg.Tag = "!!str"
		case yaml.SequenceNode:
			arg.Tag = "!!seq"
		case yaml.MappingNode:
			arg.Tag = "!!map"
		}
		return name, &arg, true
	}
	if n.Kind == yaml.MappingNode && len(n.Content) == 2 {
		if k := n.Content[0].Value; k == "Ref" || k == "Condition" || strings.HasPrefix(k, "Fn::") {
			return k, n.Content[1], true
		}
	}
	return "", nil, false
}

func (r *resolver) call(name string, arg *yaml.Node) (any, error) {
	switch name {
	case "Ref":
		return r.ref(arg.Value)
	case "Fn::GetAtt":
		target := arg.Value
		if arg.Kind == yaml.SequenceNode && len(arg.Content) == 2 {
			target = arg.Content[0].Value + "." + arg.Content[1].Value
		}
		return r.getAtt(target)
	case "Fn::Sub":
		return r.sub(arg)
	case "Fn::If":
		if arg.Kind != yaml.SequenceNode || len(arg.Content) != 3 {
			return nil, errors.New("Fn::If wants [condition, then, else]")
		}
		ok, err := r.condition(arg.Content[0].Value)
		if err != nil {
			return nil, err
		}
		if ok {
			return r.value(arg.Content[1])
		}
		return r.value(arg.Content[2])
	case "Fn::Select":
		if arg.Kind != yaml.SequenceNode || len(arg.Content) != 2 {
			return nil, errors.New("Fn::Select wants [index, list]")
		}
		iv, err := r.value(arg.Content[0])
		if err != nil {
			return nil, err
		}
		lv, err := r.value(arg.Content[1])
		if err != nil {
			return nil, err
		}
		i, err := strconv.Atoi(str(iv))
		list, _ := lv.([]any)
		if err != nil || i < 0 || i >= len(list) {
			return nil, fmt.Errorf("Fn::Select: index %v out of %d elements", iv, len(list))
		}
		return list[i], nil
	case "Fn::Split":
		if arg.Kind != yaml.SequenceNode || len(arg.Content) != 2 {
			return nil, errors.New("Fn::Split wants [delimiter, string]")
		}
		sv, err := r.value(arg.Content[1])
		if err != nil {
			return nil, err
		}
		var out []any
		for _, p := range strings.Split(str(sv), arg.Content[0].Value) {
			out = append(out, p)
		}
		return out, nil
	case "Fn::Join":
		if arg.Kind != yaml.SequenceNode || len(arg.Content) != 2 {
			return nil, errors.New("Fn::Join wants [delimiter, list]")
		}
		lv, err := r.value(arg.Content[1])
		if err != nil {
			return nil, err
		}
		return strings.Join(strs(lv), arg.Content[0].Value), nil
	case "Condition":
		ok, err := r.condition(arg.Value)
		return strconv.FormatBool(ok), err
	case "Fn::Equals", "Fn::Not", "Fn::And", "Fn::Or":
		ok, err := r.boolean(name, arg)
		return strconv.FormatBool(ok), err
	}
	return nil, fmt.Errorf("intrinsic function %s is not supported here", name)
}

func (r *resolver) ref(name string) (any, error) {
	switch name {
	case "AWS::NoValue":
		return noValue, nil
	case "AWS::Partition":
		return r.d.Partition, nil
	case "AWS::Region":
		return r.d.Region, nil
	case "AWS::AccountId":
		return r.d.AccountID, nil
	case "AWS::URLSuffix":
		return "amazonaws.com", nil
	case "AWS::StackName":
		if r.d.StackName == "" {
			return "doorstep", nil
		}
		return r.d.StackName, nil
	}
	if res := Field(r.top, "Resources", name); res != nil && Field(res, "Type").Value == "AWS::Logs::LogGroup" {
		return r.logGroupName(name)
	}
	if p := Field(r.top, "Parameters", name); p != nil {
		if v, ok := r.d.Parameters[name]; ok {
			return v, nil
		}
		if def := Field(p, "Default"); def != nil {
			return def.Value, nil
		}
		return nil, fmt.Errorf("parameter %s has no value and no Default", name)
	}
	if res := Field(r.top, "Resources", name); res != nil {
		if v, ok := r.d.Names[name]; ok {
			if Field(res, "Type").Value == "AWS::SQS::Queue" {
				return fmt.Sprintf("https://sqs.%s.amazonaws.com/%s/%s", r.d.Region, r.d.AccountID, v), nil
			}
			return v, nil
		}
		return nil, fmt.Errorf("!Ref %s: the deployment names no such resource", name)
	}
	return nil, fmt.Errorf("!Ref %s: no such parameter or resource", name)
}

// logGroupName is the name of log group id: its LogGroupName, resolved.
func (r *resolver) logGroupName(id string) (string, error) {
	v, err := r.value(Field(r.top, "Resources", id, "Properties", "LogGroupName"))
	if err != nil || str(v) == "" {
		return "", fmt.Errorf("log group %s: no LogGroupName (%v)", id, err)
	}
	return str(v), nil
}

func (r *resolver) getAtt(target string) (any, error) {
	id, attr, _ := strings.Cut(target, ".")
	if res := Field(r.top, "Resources", id); res != nil && Field(res, "Type").Value == "AWS::Logs::LogGroup" && attr == "Arn" {
		name, err := r.logGroupName(id)
		if err != nil {
			return nil, err
		}
		return r.d.ARN("logs", "log-group:"+name+":*"), nil // as CloudFormation gives it
	}
	res := Field(r.top, "Resources", id)
	name, named := r.d.Names[id]
	if res == nil || !named {
		return nil, fmt.Errorf("!GetAtt %s: the deployment names no such resource", target)
	}
	switch typ := Field(res, "Type").Value; {
	case typ == "AWS::DynamoDB::Table" && attr == "Arn":
		return r.d.ARN("dynamodb", "table/"+name), nil
	case typ == "AWS::DynamoDB::Table" && attr == "StreamArn":
		return r.d.ARN("dynamodb", "table/"+name+"/stream/2026-01-01T00:00:00.000"), nil
	case typ == "AWS::SQS::Queue" && attr == "Arn":
		return r.d.ARN("sqs", name), nil
	}
	return nil, fmt.Errorf("!GetAtt %s is not supported here", target)
}

// sub resolves Fn::Sub: "text ${Name} ${Res.Attr}" or [text, {vars}].
func (r *resolver) sub(arg *yaml.Node) (any, error) {
	text, vars := arg.Value, map[string]string{}
	if arg.Kind == yaml.SequenceNode {
		if len(arg.Content) != 2 {
			return nil, errors.New("Fn::Sub wants a string or [string, variables]")
		}
		text = arg.Content[0].Value
		m := arg.Content[1]
		for i := 0; i+1 < len(m.Content); i += 2 {
			v, err := r.value(m.Content[i+1])
			if err != nil {
				return nil, err
			}
			vars[m.Content[i].Value] = str(v)
		}
	}
	var b strings.Builder
	for {
		i := strings.Index(text, "${")
		if i < 0 {
			b.WriteString(text)
			return b.String(), nil
		}
		b.WriteString(text[:i])
		if strings.HasPrefix(text[i:], "${!") { // a literal ${
			b.WriteString("${")
			text = text[i+3:]
			continue
		}
		j := strings.Index(text[i:], "}")
		if j < 0 {
			return nil, fmt.Errorf("Fn::Sub %q: unclosed ${", arg.Value)
		}
		name := text[i+2 : i+j]
		text = text[i+j+1:]
		if v, ok := vars[name]; ok {
			b.WriteString(v)
			continue
		}
		var v any
		var err error
		if strings.Contains(name, ".") && !strings.HasPrefix(name, "AWS::") {
			v, err = r.getAtt(name)
		} else {
			v, err = r.ref(name)
		}
		if err != nil {
			return nil, err
		}
		b.WriteString(str(v))
	}
}

func (r *resolver) condition(name string) (bool, error) {
	c := Field(r.top, "Conditions", name)
	if c == nil {
		return false, fmt.Errorf("no condition %s", name)
	}
	fn, arg, ok := r.intrinsic(c)
	if !ok {
		return false, fmt.Errorf("condition %s is not a condition function", name)
	}
	if fn == "Condition" {
		return r.condition(arg.Value)
	}
	return r.boolean(fn, arg)
}

func (r *resolver) boolean(fn string, arg *yaml.Node) (bool, error) {
	operand := func(n *yaml.Node) (bool, error) {
		if f, a, ok := r.intrinsic(n); ok {
			if f == "Condition" {
				return r.condition(a.Value)
			}
			return r.boolean(f, a)
		}
		return false, fmt.Errorf("line %d: not a condition", n.Line)
	}
	if arg.Kind != yaml.SequenceNode {
		return false, fmt.Errorf("%s wants a list", fn)
	}
	switch fn {
	case "Fn::Equals":
		if len(arg.Content) != 2 {
			return false, errors.New("Fn::Equals wants two values")
		}
		a, err := r.value(arg.Content[0])
		if err != nil {
			return false, err
		}
		b, err := r.value(arg.Content[1])
		if err != nil {
			return false, err
		}
		return fmt.Sprint(a) == fmt.Sprint(b), nil
	case "Fn::Not":
		if len(arg.Content) != 1 {
			return false, errors.New("Fn::Not wants one condition")
		}
		ok, err := operand(arg.Content[0])
		return !ok, err
	case "Fn::And", "Fn::Or":
		and := fn == "Fn::And"
		for _, c := range arg.Content {
			ok, err := operand(c)
			if err != nil {
				return false, err
			}
			if ok != and {
				return ok, nil
			}
		}
		return and, nil
	}
	return false, fmt.Errorf("%s is not a condition function", fn)
}

// Field follows a path of keys through mappings; nil when a key is
// missing. infra/sam reads the template with it too.
func Field(n *yaml.Node, path ...string) *yaml.Node {
	for _, key := range path {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				next = n.Content[i+1]
				break
			}
		}
		n = next
	}
	return n
}
