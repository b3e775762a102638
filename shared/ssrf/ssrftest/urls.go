// Package ssrftest holds the table of destination URLs that every
// customer-chosen outbound target (event subscriptions, publish
// destinations) must refuse at creation, so that each of them is tested
// with the same inputs.
package ssrftest

// Case is one URL the guard must refuse, named for the form it takes.
type Case struct {
	Name string
	URL  string
}

// Refused are the URL forms a destination must refuse with the default
// guard: not absolute http(s), user information, and loopback, private,
// link-local, CGNAT and other special-purpose addresses in any notation.
var Refused = []Case{
	{"missing url", ""},
	{"relative url", "/hooks"},
	{"ftp url", "ftp://example.com/"},
	{"file url", "file:///etc/passwd"},
	{"javascript url", "javascript:alert(1)"},
	{"scheme-relative", "//example.com/hook"},
	{"decimal loopback", "http://2130706433/"},
	{"hex loopback", "http://0x7f.1/"},
	{"octal loopback", "http://0177.0.0.1/"},
	{"short loopback", "http://127.1/"},
	{"zero", "http://0/"},
	{"unspecified", "http://0.0.0.0/"},
	{"loopback", "http://127.0.0.1:8080/hook"},
	{"ipv6 loopback", "http://[::1]/"},
	{"mapped loopback", "http://[::ffff:127.0.0.1]/"},
	{"mapped loopback hex", "http://[::ffff:7f00:1]/"},
	{"userinfo", "http://evil@127.0.0.1/"},
	{"userinfo public", "https://user:pass@example.com/"},
	{"private", "http://10.1.2.3/"},
	{"private 172", "http://172.16.0.1/"},
	{"private 192", "http://192.168.0.1/"},
	{"metadata", "http://169.254.169.254/latest/meta-data/"},
	{"ec2 ipv6 metadata", "http://[fd00:ec2::254]/"},
	{"link-local v6", "http://[fe80::1%25eth0]/"},
	{"cgnat", "https://100.64.1.1/"},
	{"localhost", "http://localhost:8080/"},
	{"localhost subdomain", "http://app.localhost/"},
	{"trailing-dot loopback", "http://127.0.0.1./"},
}

// RefusedWithLoopback are refused even with the local loopback allowance:
// it admits loopback in plain notation only.
var RefusedWithLoopback = []Case{
	{"decimal loopback", "http://2130706433/"},
	{"short loopback", "http://127.1/"},
	{"mapped loopback", "http://[::ffff:127.0.0.1]/"},
	{"private", "http://10.0.0.1/"},
	{"zero", "http://0/"},
}
