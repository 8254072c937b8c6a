package walletsandbox_test

import (
	"context"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"reflect"
	"sort"
	"strconv"
	"testing"
)

// catalogue is the values of catalogue.go's constants, block by block.
func catalogue(t *testing.T) [][]string {
	t.Helper()
	file, err := parser.ParseFile(token.NewFileSet(), "catalogue.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var blocks [][]string
	for _, decl := range file.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.CONST {
			continue
		}
		var values []string
		for _, spec := range gen.Specs {
			for _, value := range spec.(*ast.ValueSpec).Values {
				unquoted, err := strconv.Unquote(value.(*ast.BasicLit).Value)
				if err != nil {
					t.Fatal(err)
				}
				values = append(values, unquoted)
			}
		}
		blocks = append(blocks, values)
	}
	return blocks
}

// enum is the first list of allowed values under node of the OpenAPI document.
func enum(node any) []string {
	switch n := node.(type) {
	case map[string]any:
		if values, ok := n["enum"].([]any); ok {
			var names []string
			for _, v := range values {
				names = append(names, v.(string))
			}
			return names
		}
		keys := make([]string, 0, len(n))
		for key := range n {
			keys = append(keys, key)
		}
		sort.Strings(keys)
		for _, key := range keys {
			if found := enum(n[key]); found != nil {
				return found
			}
		}
	case []any:
		for _, item := range n {
			if found := enum(item); found != nil {
				return found
			}
		}
	}
	return nil
}

func sorted(values ...[]string) []string {
	seen := map[string]bool{}
	var all []string
	for _, list := range values {
		for _, v := range list {
			if !seen[v] {
				seen[v] = true
				all = append(all, v)
			}
		}
	}
	sort.Strings(all)
	return all
}

func TestTheEventTypesAndFailureCodesAreTheSandboxsCatalogue(t *testing.T) {
	t.Parallel()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, sandbox.URL+"/openapi.json", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var document struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]any `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.NewDecoder(res.Body).Decode(&document); err != nil {
		t.Fatal(err)
	}
	schemas := document.Components.Schemas
	events := enum(schemas["WebhookEndpoint"].Properties["events"])
	payments := enum(schemas["Payment"].Properties["failure_code"])
	settlements := enum(schemas["Settlement"].Properties["failure_code"])
	if len(events) == 0 || len(payments) == 0 || len(settlements) == 0 {
		t.Fatalf("the OpenAPI document lists the events %v, the failure codes of payments %v and of settlements %v", events, payments, settlements)
	}

	blocks := catalogue(t)
	if len(blocks) != 3 {
		t.Fatalf("catalogue.go has %d blocks of constants, want 3: event types, failure codes of payments, of settlements", len(blocks))
	}
	if got, want := sorted(blocks[0]), sorted(events); !reflect.DeepEqual(got, want) {
		t.Errorf("the event types are %v, the sandbox's %v", got, want)
	}
	if got, want := sorted(blocks[1]), sorted(payments); !reflect.DeepEqual(got, want) {
		t.Errorf("the failure codes of payments are %v, the sandbox's %v", got, want)
	}
	if got, want := sorted(blocks[1], blocks[2]), sorted(payments, settlements); !reflect.DeepEqual(got, want) {
		t.Errorf("the failure codes are %v, the sandbox's %v", got, want)
	}
	if got, want := sorted(blocks[2]), sorted(settlements); len(sorted(got, want)) != len(want) {
		t.Errorf("the failure codes of settlements are %v, not all of them the sandbox's %v", got, want)
	}
}
