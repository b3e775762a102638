package httpapi

import (
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/elnormous/contenttype"
)

// textReport is an answer that also reads as a plain-text report (the
// brand check's). Such answers are content-negotiated; every other answer
// is JSON whatever Accept says.
type textReport interface{ Text() string }

// Media types of an answer with a text report, the default first: the spec
// names application/json, text/json and text/plain for the brand check.
const (
	mediaJSON     = "application/json"
	mediaTextJSON = "text/json"
	mediaText     = "text/plain"
)

// The text report is UTF-8: an Accept asking for text/plain in another
// charset does not get it.
var reportMediaTypes = []contenttype.MediaType{
	contenttype.NewMediaType(mediaJSON), contenttype.NewMediaType(mediaTextJSON), contenttype.NewMediaType(mediaText + ";charset=utf-8")}

// negotiateReport picks the media type of a report answer from the Accept
// header values (RFC 9110 §12.5.1: q-values, wildcards, the first of equal
// preference). No Accept, one that does not parse, or one that accepts none
// of the three gets the default, JSON: answering is more useful to a
// caller than 406, and the answer says what it is in Content-Type.
func negotiateReport(accept []string) string {
	if len(accept) == 0 {
		return mediaJSON
	}
	mt, _, err := contenttype.GetAcceptableMediaTypeFromHeader(strings.Join(accept, ","), reportMediaTypes)
	if err != nil {
		return mediaJSON
	}
	return mt.MIME()
}

// writeReport writes a report answer in the media type the request prefers.
func (s *Server) writeReport(w http.ResponseWriter, rq *Request, status int, body textReport) {
	w.Header().Add("Vary", "Accept")
	switch mt := negotiateReport(rq.HTTP.Header.Values("Accept")); mt {
	case mediaText:
		b := []byte(body.Text())
		w.Header().Set("Content-Type", mediaText+"; charset=utf-8")
		w.Header().Set("Content-Length", strconv.Itoa(len(b)))
		w.WriteHeader(status)
		_, _ = w.Write(b)
	default:
		s.writeJSONAs(w, status, body, mt)
	}
}

// hasTextReport reports whether answers of type t are content-negotiated.
func hasTextReport(t reflect.Type) bool {
	return t != nil && t.Implements(reflect.TypeFor[textReport]())
}
