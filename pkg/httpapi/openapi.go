package httpapi

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"

	"gopkg.in/yaml.v3"
)

// openapiYAML is the API's OpenAPI 3.1.0 document, written by hand.
//
//go:embed openapi.yaml
var openapiYAML []byte

// OpenAPIYAML returns the API's OpenAPI document as written (YAML), the one
// served at /api/v1/openapi.yaml.
func OpenAPIYAML() []byte { return bytes.Clone(openapiYAML) }

// openapiJSON converts the document to JSON once per process, on the
// first request for it: a walk over the parsed YAML that keeps its key
// order. It takes about 5 ms, which every function whose handler is New
// (get-business, list-arrival-windows, ...) spent in its init although
// API Gateway never sends it the document's routes.
var openapiJSON = sync.OnceValues(func() ([]byte, error) { return yamlToJSON(openapiYAML) })

// openapiRoutes returns the handlers of /api/v1/openapi.json and
// /api/v1/openapi.yaml. The JSON one panics when the embedded document
// does not convert to JSON, which the package's tests rule out.
func openapiRoutes() (jsonDoc, yamlDoc http.HandlerFunc) {
	return serveDocument("application/json", func() []byte {
		data, err := openapiJSON()
		if err != nil {
			panic("httpapi: openapi.yaml: " + err.Error())
		}
		return data
	}), serveDocument("application/yaml", func() []byte { return openapiYAML })
}

// serveDocument serves the document document returns, made and tagged
// once, on the first request.
func serveDocument(contentType string, document func() []byte) http.HandlerFunc {
	tagged := sync.OnceValues(func() ([]byte, string) {
		data := document()
		return data, etagOf(data)
	})
	return func(w http.ResponseWriter, r *http.Request) {
		data, etag := tagged()
		writeTagged(w, r, contentType, data, etag)
	}
}

// yamlToJSON converts a YAML document of plain data (mappings with scalar
// keys, sequences, strings, numbers, booleans, nulls) to compact JSON, keeping
// the order of mapping keys.
func yamlToJSON(data []byte) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, errors.New("want one YAML document")
	}
	var b bytes.Buffer
	b.Grow(len(data))
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := nodeToJSON(&b, enc, doc.Content[0]); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func nodeToJSON(b *bytes.Buffer, enc *json.Encoder, n *yaml.Node) error {
	switch n.Kind {
	case yaml.MappingNode:
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			key, value := n.Content[i], n.Content[i+1]
			if key.Kind != yaml.ScalarNode || key.ShortTag() == "!!merge" {
				return fmt.Errorf("line %d: a mapping key must be a plain scalar", key.Line)
			}
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, enc, key.Value)
			b.WriteByte(':')
			if err := nodeToJSON(b, enc, value); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, item := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := nodeToJSON(b, enc, item); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case yaml.AliasNode:
		return nodeToJSON(b, enc, n.Alias)
	case yaml.ScalarNode:
		return scalarToJSON(b, enc, n)
	default:
		return fmt.Errorf("line %d: unexpected YAML node", n.Line)
	}
	return nil
}

func scalarToJSON(b *bytes.Buffer, enc *json.Encoder, n *yaml.Node) error {
	switch tag := n.ShortTag(); tag {
	case "!!str", "!!timestamp": // JSON has no timestamps: a date stays the text it is
		writeJSONString(b, enc, n.Value)
	case "!!null":
		b.WriteString("null")
	case "!!bool":
		var v bool
		if err := n.Decode(&v); err != nil {
			return err
		}
		b.WriteString(strconv.FormatBool(v))
	case "!!int":
		var v int64
		if err := n.Decode(&v); err != nil {
			return err
		}
		b.WriteString(strconv.FormatInt(v, 10))
	case "!!float":
		var v float64
		if err := n.Decode(&v); err != nil {
			return err
		}
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return fmt.Errorf("line %d: %s has no JSON form", n.Line, n.Value)
		}
		data, _ := json.Marshal(v) // a finite float always marshals
		b.Write(data)
	default:
		return fmt.Errorf("line %d: values tagged %s have no JSON form", n.Line, tag)
	}
	return nil
}

// writeJSONString writes s as a JSON string, leaving <, > and & as they are.
func writeJSONString(b *bytes.Buffer, enc *json.Encoder, s string) {
	_ = enc.Encode(s)       // writing a string into a bytes.Buffer cannot fail
	b.Truncate(b.Len() - 1) // Encode ends each value with a newline
}
