package live

import (
	"errors"
	"io"
	"net"
	"net/http"
	"time"
)

// Caps on what a platform may send back. An AI answer with its sources is
// tens of kilobytes; anything near these limits is a broken or hostile
// upstream, refused rather than buffered.
const (
	MaxResponseHeaderBytes = 64 << 10
	MaxResponseBodyBytes   = 8 << 20
)

// errBodyTooLarge is returned by a capped body read past MaxResponseBodyBytes.
var errBodyTooLarge = errors.New("response body exceeds the size cap")

// NewHTTPClient is the dedicated client of the live adapters: no proxy from
// HTTP(S)_PROXY (the platforms are reached directly, and an ambient proxy
// would see every API key), response headers capped at
// MaxResponseHeaderBytes and awaited at most headerTimeout (non-streaming
// answers send their headers only when the answer is done, so this is the
// platform's whole call timeout). Bodies are capped by the adapters' trace
// transport.
func NewHTTPClient(headerTimeout time.Duration) *http.Client {
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	return &http.Client{Transport: &http.Transport{
		Proxy:                  nil,
		DialContext:            d.DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  headerTimeout,
		MaxResponseHeaderBytes: MaxResponseHeaderBytes,
		MaxIdleConns:           64,
		MaxIdleConnsPerHost:    16,
		IdleConnTimeout:        90 * time.Second,
		ExpectContinueTimeout:  time.Second,
	}}
}

// cappedBody fails a read that goes past limit bytes (a LimitReader would
// cut the body silently and turn it into "malformed JSON", a transient
// failure retried for nothing) and records the refusal in the call's trace.
type cappedBody struct {
	rc    io.ReadCloser
	left  int64
	trace *httpTrace
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One byte more tells a body of exactly the limit from a longer one.
		var one [1]byte
		n, err := b.rc.Read(one[:])
		if n > 0 {
			b.tooLarge()
			return 0, errBodyTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }

func (b *cappedBody) tooLarge() {
	if b.trace != nil {
		b.trace.tooLarge = true
	}
}
