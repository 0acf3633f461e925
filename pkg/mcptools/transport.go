package mcptools

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/edge"
)

// CORS of the tool server. Browser-based MCP clients (the MCP Inspector,
// web assistants) call /mcp from another origin. No cookie or credential is
// read, so any origin may call it ("*"). GET is allowed so that a browser
// client probing for a server-to-client stream can read the 405 that says
// there is none, rather than failing on CORS. The headers are those MCP
// clients send that are not CORS-safelisted: Content-Type (application/json),
// the transport's Mcp-Protocol-Version, Mcp-Session-Id and Last-Event-ID,
// SEP-2575's Mcp-Method and Mcp-Name (from 2026-07-28), and Authorization,
// which the server ignores but a client configured with a token sends; were
// it not allowed, that client's every POST would fail its preflight. Accept
// is safelisted, and listed anyway. No response header needs exposing: the
// server sets no Mcp-Session-Id.
//
// On AWS, API Gateway's CorsConfiguration answers preflights itself and
// replaces these headers (template.yaml); these serve the local server and
// any deployment without it.
var mcpCORS = edge.CORS{AllowHeaders: "Content-Type, Accept, Authorization, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID, Mcp-Method, Mcp-Name"}

// maxMessageBytes bounds one POST's message: a request_service call is a
// createServiceRequest body (at most booking.MaxBodyBytes) in a JSON-RPC
// envelope, far below the SDK's default of 4 MiB.
const maxMessageBytes = 2 * booking.MaxBodyBytes

// transport wraps the SDK's handler with what the spec's "one JSON-RPC
// message per POST" and browser clients need:
//
//   - OPTIONS is a CORS preflight (204); every answer allows any origin.
//   - A POST body that is not one JSON-RPC message object is refused before
//     anything runs: not JSON is a parse error (-32700), and an array (a
//     JSON-RPC batch, which the SDK would run for clients that send no
//     protocol version, one message after another past the route's
//     throttle), any other JSON value, or an object that is not a message
//     is an invalid request (-32600); HTTP 400, id null unless it could be
//     read.
//   - Every answer carries X-Content-Type-Options: nosniff, so that no
//     browser reads a JSON answer as anything else.
//   - A JSON-RPC error message the SDK writes is cut to maxErrorMessage
//     characters: the SDK's own messages quote what was sent ("unknown
//     tool", argument errors), which may be up to maxMessageBytes long.
//   - Any other refusal the SDK writes as text for a POST (unknown method,
//     unsupported version header, wrong Content-Type) becomes a JSON-RPC
//     error object with the same status. A request for an unknown method is
//     answered as JSON-RPC answers it, 200 with -32601 and the request's
//     id; from 2026-07-28 the SDK already answers it 404 in JSON, as
//     SEP-2575 wants.
func transport(next http.Handler) http.Handler {
	return mcpCORS.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		switch r.Method {
		case http.MethodOptions:
			w.WriteHeader(http.StatusNoContent)
			return
		case http.MethodPost:
		default:
			next.ServeHTTP(w, r)
			return
		}

		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxMessageBytes))
		if err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				writeRPCError(w, http.StatusRequestEntityTooLarge, nil, jsonrpc.CodeInvalidRequest, "request body too large")
				return
			}
			writeRPCError(w, http.StatusBadRequest, nil, jsonrpc.CodeInvalidRequest, "could not read the request body")
			return
		}
		msg, ok := oneMessage(w, body)
		if !ok || legacyInitialize(w, msg, r.Header.Get("Mcp-Protocol-Version")) {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		tw := &textErrors{ResponseWriter: w}
		next.ServeHTTP(tw, r)
		tw.finish(msg, r.Header.Get("Mcp-Protocol-Version"))
	}))
}

// oneMessage checks that body is one JSON-RPC message object, and answers
// the POST with a JSON-RPC error when it is not.
func oneMessage(w http.ResponseWriter, body []byte) (jsonrpc.Message, bool) {
	if !json.Valid(body) {
		writeRPCError(w, http.StatusBadRequest, nil, jsonrpc.CodeParseError, "parse error: the body is not JSON")
		return nil, false
	}
	switch trimmed := bytes.TrimLeft(body, " \t\r\n"); trimmed[0] {
	case '[':
		writeRPCError(w, http.StatusBadRequest, nil, jsonrpc.CodeInvalidRequest,
			"invalid request: JSON-RPC batches are not accepted; send one message per POST")
		return nil, false
	case '{':
	default:
		writeRPCError(w, http.StatusBadRequest, nil, jsonrpc.CodeInvalidRequest, "invalid request: the body must be one JSON-RPC message object")
		return nil, false
	}
	msg, err := jsonrpc.DecodeMessage(body)
	if err != nil {
		writeRPCError(w, http.StatusBadRequest, readableID(body), jsonrpc.CodeInvalidRequest, "invalid request: not a JSON-RPC 2.0 message")
		return nil, false
	}
	return msg, true
}

// readableID returns the id member of a message object when it is a valid
// JSON-RPC id (a string or a number), else nil: JSON-RPC 2.0 answers null
// when the id cannot be read.
func readableID(body []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(body, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	var id any
	if json.Unmarshal(m.ID, &id) != nil {
		return nil
	}
	switch id.(type) {
	case string, float64:
		return m.ID
	}
	return nil
}

// rpcError is a JSON-RPC 2.0 error response. ID is kept raw so that it is
// echoed exactly; nil leaves the member out, as in the answer to a
// notification, which has no id to echo (JSON-RPC never answers one; HTTP
// still has to say why its POST was refused).
type rpcError struct {
	JSONRPC string           `json:"jsonrpc"`
	ID      *json.RawMessage `json:"id,omitempty"`
	Error   rpcErrorDetail   `json:"error"`
}

type rpcErrorDetail struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// writeRPCError answers a request with a JSON-RPC error; id is the
// request's, written as null when it could not be read.
func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, code int, message string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	writeRPCAnswer(w, status, rpcError{JSONRPC: "2.0", ID: &id, Error: rpcErrorDetail{Code: code, Message: message}})
}

func writeRPCAnswer(w http.ResponseWriter, status int, answer rpcError) {
	data, _ := json.Marshal(answer)
	h := w.Header()
	h.Del("Content-Length")
	h.Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(data)
}

// legacyInitialize answers an initialize sent under a protocol version of
// SEP-2575's sessionless generation (2026-07-28 on), which has no
// initialize (server/discover replaces it): the unsupported-version error,
// listing the versions initialize negotiates, so that the client retries
// with one of them. The SDK would complain of a missing _meta instead.
func legacyInitialize(w http.ResponseWriter, msg jsonrpc.Message, version string) bool {
	req, ok := msg.(*jsonrpc.Request)
	if !ok || req.Method != "initialize" || !req.IsCall() || version < "2026-07-28" {
		return false
	}
	var legacy []string
	for _, v := range mcp.SupportedProtocolVersions() {
		if v < "2026-07-28" {
			legacy = append(legacy, v)
		}
	}
	id, _ := json.Marshal(req.ID.Raw())
	raw := json.RawMessage(id)
	// The header is the caller's text: it is named back only when it is a
	// version (a date), never as anything else.
	if _, err := time.Parse(time.DateOnly, version); err != nil {
		version = ""
	}
	writeRPCAnswer(w, http.StatusBadRequest, rpcError{JSONRPC: "2.0", ID: &raw, Error: rpcErrorDetail{
		Code:    mcp.CodeUnsupportedProtocolVersion,
		Message: "unsupported protocol version: initialize belongs to versions before 2026-07-28 (supported versions: " + strings.Join(legacy, ", ") + ")",
		Data:    mcp.UnsupportedProtocolVersionData{Supported: legacy, Requested: version},
	}})
	return true
}

// maxErrorMessage bounds, in characters, a JSON-RPC error message the
// SDK writes.
const maxErrorMessage = 120

// textErrors passes the SDK's answers through, except two it holds back
// for finish: an error status written as anything but JSON (the SDK's
// http.Error text), answered as a JSON-RPC error, and a JSON answer (with
// JSONResponse, the SDK answers each POST with one JSON body), whose error
// message finish cuts when it is too long.
type textErrors struct {
	http.ResponseWriter
	wroteHeader bool
	held        bool // a text error, in text
	heldJSON    bool // a JSON answer, in text
	status      int
	text        bytes.Buffer
}

func (w *textErrors) WriteHeader(status int) {
	if w.wroteHeader {
		return
	}
	w.wroteHeader = true
	switch {
	case isJSON(w.Header().Get("Content-Type")):
		w.heldJSON, w.status = true, status
	case status >= 400:
		w.held, w.status = true, status
	default:
		w.ResponseWriter.WriteHeader(status)
	}
}

func (w *textErrors) Write(p []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	if w.held || w.heldJSON {
		return w.text.Write(p)
	}
	return w.ResponseWriter.Write(p)
}

// Flush lets streamed answers through; a held answer is not flushed.
func (w *textErrors) Flush() {
	if w.held || w.heldJSON {
		return
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *textErrors) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish answers a held text error as a JSON-RPC error for msg, the POST's
// message; version is its Mcp-Protocol-Version header.
func (w *textErrors) finish(msg jsonrpc.Message, version string) {
	if w.heldJSON {
		body := shortErrorMessage(w.text.Bytes())
		h := w.ResponseWriter.Header()
		if h.Get("Content-Length") != "" {
			h.Set("Content-Length", strconv.Itoa(len(body)))
		}
		w.ResponseWriter.WriteHeader(w.status)
		_, _ = w.ResponseWriter.Write(body)
		return
	}
	if !w.held {
		return
	}
	text := strings.TrimSpace(w.text.String())
	status, code := w.status, jsonrpc.CodeInvalidRequest
	req, isRequest := msg.(*jsonrpc.Request)
	switch {
	case status >= 500:
		code = jsonrpc.CodeInternalError
	case strings.Contains(text, "not handled"):
		// The SDK's words for a method it has no handler for (jsonrpc2's
		// ErrNotHandled): method not found. A request gets it as a normal
		// JSON-RPC answer before 2026-07-28 (after it, the SDK itself
		// answers 404 in JSON); a notification has no answer to carry it,
		// so its POST stays refused with 400.
		code = jsonrpc.CodeMethodNotFound
		if isRequest && req.IsCall() && version < "2026-07-28" {
			status = http.StatusOK
		}
	}
	if isRequest && !req.IsCall() {
		writeRPCAnswer(w.ResponseWriter, status, rpcError{JSONRPC: "2.0", Error: rpcErrorDetail{Code: code, Message: text}})
		return
	}
	var id json.RawMessage
	if isRequest {
		id, _ = json.Marshal(req.ID.Raw())
	}
	writeRPCError(w.ResponseWriter, status, id, code, text)
}

// shortErrorMessage returns body, a JSON answer, with its JSON-RPC error
// message cut to maxErrorMessage characters and "..." when it is longer;
// any other body as it is.
func shortErrorMessage(body []byte) []byte {
	var m struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *rpcErrorDetail `json:"error"`
		Result  json.RawMessage `json:"result"`
	}
	if json.Unmarshal(body, &m) != nil || m.Error == nil || m.Result != nil || utf8.RuneCountInString(m.Error.Message) <= maxErrorMessage {
		return body
	}
	m.Error.Message = string([]rune(m.Error.Message)[:maxErrorMessage]) + "..."
	var id *json.RawMessage
	if len(m.ID) > 0 {
		id = &m.ID
	}
	short, err := json.Marshal(rpcError{JSONRPC: m.JSONRPC, ID: id, Error: *m.Error})
	if err != nil {
		return body
	}
	return append(short, '\n')
}

func isJSON(contentType string) bool {
	mediaType, _, _ := strings.Cut(contentType, ";")
	return strings.EqualFold(strings.TrimSpace(mediaType), "application/json")
}
