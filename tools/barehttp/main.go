// Command barehttp is the baseline of the HTTP benchmark: a bare net/http
// handler answering a small JSON body, measured beside `brandlens serve` in
// the same run (tools/bench-http.sh).
package main

import (
	"flag"
	"log"
	"net/http"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18181", "listen address")
	flag.Parse()
	body := []byte(`{"tenant_id":1,"scopes":["publish"],"credits_balance":1000}` + "\n")
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
	log.Fatal(http.ListenAndServe(*addr, nil))
}
