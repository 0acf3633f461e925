package dynamo

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// scanAllowed are the functions that may reach a DynamoDB Scan, each with
// why: none serves a person, a business, the payment provider, the table's
// stream or the sweeper (which queries its sparse indexes). Keys are
// "<folder>.<Receiver.>Name". Everything in infra/ctl (the operator's
// command line), infra/bench and infra/chaos (which reads the whole table
// to check its invariants after a run) may scan too.
var scanAllowed = map[string]string{
	"pkg/dynamo.Store.scanRequests":      "the operator's scans (ctl)",
	"pkg/dynamo.Store.AddSweepKeys":      "ctl requests add-sweep-keys, a one-off",
	"pkg/dynamo.Store.AddEraseKeys":      "ctl requests add-erase-keys, a one-off",
	"pkg/dynamo.Store.RequestsByContact": "ctl erase, through Bookings.OperatorErase",
	"pkg/booking.Bookings.OperatorErase": "ctl erase: every request of a contact, at every business",
	"infra/local.emptyTable":             "make run's start: whether to load the demo (Limit 1), before any route is served",
	"infra/local.openStore":              "make run's start (emptyTable)",
	"infra/local.run":                    "make run's start (openStore)",
	"infra/local.main":                   "make run's start (run)",
	"pkg/dynamo.Store.EachBusiness":      "ctl businesses list, the operator's",
}

// scanFreeRoots are folders whose every function may scan.
var scanFreeRoots = []string{"infra/ctl", "infra/bench", "infra/chaos"}

// TestNoScanOutsideCtl reads every non-test Go file of pkg/, functions/
// and infra/ and fails on any function that reaches a Scan (its body builds
// a dynamodb.ScanInput or a Scan paginator, or calls such a function, by
// name: an over-approximation, as a method's name is matched whatever its
// receiver) and is not in scanAllowed, with the chain that reaches it.
// infra/local's TestNoScanOnAnyRoute checks the same at run time, and
// lambdatest.Record in every function's tests.
func TestNoScanOutsideCtl(t *testing.T) {
	root := filepath.Join("..", "..")
	type fn struct {
		key, dir, name string
		refs           map[string]bool // selector names and identifiers the body uses
		sel            map[string]bool // of which, selector names
		scans          bool            // builds a dynamodb.ScanInput or a Scan paginator
	}
	var fns []*fn
	fset := token.NewFileSet()
	for _, top := range []string{"pkg", "functions", "infra"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if n := d.Name(); n == "node_modules" || n == "testdata" || strings.HasPrefix(n, ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, filepath.Dir(path))
			dir := filepath.ToSlash(rel)
			for _, decl := range f.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				name := fd.Name.Name
				if fd.Recv != nil && len(fd.Recv.List) > 0 {
					typ := fd.Recv.List[0].Type
					if s, ok := typ.(*ast.StarExpr); ok {
						typ = s.X
					}
					if ix, ok := typ.(*ast.IndexExpr); ok {
						typ = ix.X
					}
					if id, ok := typ.(*ast.Ident); ok {
						name = id.Name + "." + name
					}
				}
				x := &fn{key: dir + "." + name, dir: dir, name: fd.Name.Name, refs: map[string]bool{}, sel: map[string]bool{}}
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.CompositeLit:
						if s, ok := n.Type.(*ast.SelectorExpr); ok && s.Sel.Name == "ScanInput" {
							x.scans = true
						}
					case *ast.SelectorExpr:
						x.refs[n.Sel.Name], x.sel[n.Sel.Name] = true, true
						if n.Sel.Name == "NewScanPaginator" {
							x.scans = true
						}
					case *ast.Ident:
						x.refs[n.Name] = true
					}
					return true
				})
				fns = append(fns, x)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}

	// reaches[f] is the function f calls that reaches a Scan ("" for one
	// that names the Scan itself).
	reaches := map[*fn]string{}
	for _, f := range fns {
		if f.scans {
			reaches[f] = ""
		}
	}
	for changed := true; changed; {
		changed = false
		for _, f := range fns {
			if _, done := reaches[f]; done {
				continue
			}
			for g := range reaches {
				exported := ast.IsExported(g.name)
				// A name of another folder is reached by a selector and
				// only when exported; one of the same folder by either.
				if (f.dir == g.dir && f.refs[g.name]) || (exported && f.sel[g.name]) {
					reaches[f], changed = g.key, true
					break
				}
			}
		}
	}
	if len(reaches) == 0 {
		t.Fatal("no function reaches a Scan, not even the operator's: the check finds nothing; is the tree where it looks?")
	}
	byKey := map[string]*fn{}
	for f := range reaches {
		byKey[f.key] = f
	}
	var bad []string
	for f, via := range reaches {
		if scanAllowed[f.key] != "" || slices.ContainsFunc(scanFreeRoots, func(r string) bool { return f.dir == r || strings.HasPrefix(f.dir, r+"/") }) {
			continue
		}
		chain := []string{f.key}
		for via != "" && len(chain) < 20 {
			chain = append(chain, via)
			via = reaches[byKey[via]]
		}
		bad = append(bad, strings.Join(chain, " → ")+" → Scan")
	}
	slices.Sort(bad)
	for _, b := range bad {
		t.Errorf("reaches a DynamoDB Scan outside ctl: %s", b)
	}
	// The list stays true: each allowed function does reach a Scan.
	for key := range scanAllowed {
		if byKey[key] == nil {
			t.Errorf("scanAllowed names %s, which reaches no Scan now: take it off the list", key)
		}
	}
}
