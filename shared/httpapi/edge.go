package httpapi

import (
	"bytes"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// MaxHeaderBytes bounds the header block of a request to `brandlens serve`
// (net/http reads up to 4 KiB more for the request line). In AWS, API
// Gateway's HTTP API refuses more than 10,240 bytes of request line and
// header values itself, before any function runs.
const MaxHeaderBytes = 10 << 10

// NewHTTPServer returns the server `brandlens serve` runs h with; serve it
// on Listener(ln) so that the answers net/http writes itself come in the
// error envelope too.
func NewHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    MaxHeaderBytes,
	}
}

// Listener wraps ln for NewHTTPServer. net/http answers some requests before
// any handler sees them — headers over MaxHeaderBytes (431), a malformed
// request line or header (400), an unknown transfer encoding (501) — and it
// writes those answers as plain text straight to the connection. The
// connections of this listener recognise such an answer (its exact shape:
// one write of a status line, "Content-Type: text/plain; charset=utf-8",
// "Connection: close", nothing else) and send the same status in the JSON
// error envelope instead, with an X-Request-Id, and log it. Handler answers
// never have that shape: they are JSON.
func Listener(ln net.Listener, log *slog.Logger) net.Listener {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &envelopeListener{Listener: ln, log: log}
}

type envelopeListener struct {
	net.Listener
	log *slog.Logger
}

func (l *envelopeListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &envelopeConn{Conn: c, log: l.log}, nil
}

type envelopeConn struct {
	net.Conn
	log *slog.Logger
}

// plainError matches the whole of a net/http pre-handler answer.
var plainError = regexp.MustCompile(`\AHTTP/1\.1 ([0-9]{3}) [^\r\n]*\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n([^\r\n]*)\z`)

// plainErrorHeader is the header that follows the status line of those
// answers; a handler's answer never starts with it.
var plainErrorHeader = []byte("\r\nContent-Type: text/plain; charset=utf-8\r\n")

func (c *envelopeConn) Write(b []byte) (int, error) {
	// Cheap tests first: every answer passes here.
	if !bytes.HasPrefix(b, []byte("HTTP/1.1 ")) {
		return c.Conn.Write(b)
	}
	if i := bytes.IndexByte(b, '\r'); i < 0 || !bytes.HasPrefix(b[i:], plainErrorHeader) {
		return c.Conn.Write(b)
	}
	m := plainError.FindSubmatch(b)
	if m == nil {
		return c.Conn.Write(b)
	}
	status, _ := strconv.Atoi(string(m[1]))
	rid := newRequestID()
	e := edgeError(status, string(m[2]))
	body, err := encodeJSON(e.body())
	if err != nil {
		return c.Conn.Write(b)
	}
	body = append(body, '\n')
	st := e.Status()
	var out bytes.Buffer
	out.WriteString("HTTP/1.1 " + strconv.Itoa(st) + " " + http.StatusText(st) + "\r\n")
	out.WriteString("Content-Type: application/json\r\n")
	out.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n")
	out.WriteString("X-Request-Id: " + rid + "\r\n")
	out.WriteString("Connection: close\r\n\r\n")
	out.Write(body)
	c.log.Info("request", "request_id", rid, "status", st, "code", e.Code, "remote", c.RemoteAddr().String())
	if _, err := c.Conn.Write(out.Bytes()); err != nil {
		return 0, err
	}
	return len(b), nil
}

// edgeError is the envelope of a net/http answer of status with the plain
// text it carried ("431 Request Header Fields Too Large", "400 Bad Request:
// missing required Host header").
func edgeError(status int, text string) *Error {
	switch status {
	case http.StatusRequestHeaderFieldsTooLarge:
		return &Error{Code: CodeHeadersTooLarge, Message: "the request's headers exceed " + strconv.Itoa(MaxHeaderBytes) + " bytes",
			Details: map[string]any{"limit": MaxHeaderBytes}}
	case http.StatusNotImplemented:
		return &Error{Code: CodeNotImplemented, Message: "unsupported transfer encoding"}
	}
	msg := "malformed HTTP request"
	// net/http's own wording after the status, e.g. "missing required
	// Host header"; it never echoes the request.
	if _, reason, ok := strings.Cut(text, ": "); ok && reason != "" {
		msg += ": " + reason
	}
	return &Error{Code: CodeBadRequest, Message: msg}
}
